import { describe, expect, it } from "vitest";
import { distribution } from "../../src/rules/core/dice/distribution.js";
import { testPmf } from "../../src/rules/hitbox/attack.js";

describe("Hitbox test distributions, built once per modifier", () => {
  it("HB-ATK-02: the 2d6 test with a modifier has the exact chances of the formula 2d6 + modifier", () => {
    for (let modifier = -12; modifier <= 20; modifier++) {
      const formula = modifier < 0 ? `2d6 - ${-modifier}` : `2d6 + ${modifier}`;
      expect([...testPmf(modifier)]).toEqual([...distribution(formula)]);
      // Asked again, the same table comes back.
      expect(testPmf(modifier)).toBe(testPmf(modifier));
    }
  });
});
