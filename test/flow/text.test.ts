/** Labels that stand alone (a drop-down's options, buttons) are in sentence case, in the reader's language. */
import { describe, expect, it } from "vitest";
import { sentenceCase } from "../../src/foundry/logic/text.js";

describe("sentenceCase", () => {
  it("upper-cases the first letter only, keeping the rest as the language file has it", () => {
    expect(sentenceCase("prone, firing", "en")).toBe("Prone, firing");
    expect(sentenceCase("failure to feed", "en")).toBe("Failure to feed");
    expect(sentenceCase("übrig", "de")).toBe("Übrig");
    expect(sentenceCase("", "en")).toBe("");
  });
});
