/**
 * Chat cards fold: each target's details open under its summary line, folded by default; the
 * default is a client setting and the folds a user toggles are remembered per message and fold
 * in another, so a card re-rendered (after a reaction, damage, apply, undo) stays as the user
 * left it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { installFoundryStub, type FoundryStub } from "../support/foundry-stub.js";
import { foldKey, isFoldOpen, rememberFold } from "../../src/foundry/logic/card-fold.js";
import { CARD_FOLD_MEMORY, CARD_FOLD_SETTING, registerCardFoldSettings, wireCardFolds } from "../../src/foundry/chat/fold.js";

/** A `details` element as the hook uses it: its data attributes, `open`, its `toggle` listeners. */
class Fold {
  dataset: Record<string, string>;
  open = false;
  listeners: (() => void)[] = [];
  constructor(fold: string) {
    this.dataset = { frayFold: fold };
  }
  addEventListener(_type: string, fn: () => void) {
    this.listeners.push(fn);
  }
  /** The user clicks the summary: the browser flips `open` and fires `toggle`. */
  click() {
    this.open = !this.open;
    for (const fn of this.listeners) fn();
  }
}

/** A rendered card holding folds. */
function card(...folds: Fold[]): HTMLElement {
  return { querySelectorAll: () => folds } as unknown as HTMLElement;
}

let stub: FoundryStub;
beforeAll(() => {
  stub = installFoundryStub("en");
  registerCardFoldSettings();
});

describe("card folds: memory", () => {
  it("a fold is open when remembered open, else by the default", () => {
    expect(isFoldOpen({}, "m1:0", "folded")).toBe(false);
    expect(isFoldOpen({}, "m1:0", "open")).toBe(true);
    expect(isFoldOpen({ "m1:0": true }, "m1:0", "folded")).toBe(true);
    expect(isFoldOpen({ "m1:0": false }, "m1:0", "open")).toBe(false);
  });

  it("remembers a fold toggled against the default, forgets one back in its default, keeps the newest", () => {
    const opened = rememberFold({}, "m1:0", true, "folded");
    expect(opened).toEqual({ "m1:0": true });
    expect(rememberFold(opened, "m1:0", false, "folded")).toEqual({});
    let memory = {};
    for (let i = 0; i < 5; i++) memory = rememberFold(memory, foldKey(`m${i}`, "0"), true, "folded", 3);
    expect(Object.keys(memory)).toEqual(["m2:0", "m3:0", "m4:0"]);
  });
});

describe("card folds: the render hook", () => {
  it("registers the default and the memory as client settings, folded by default", () => {
    expect(stub.game.settings.registered.get(`fray.${CARD_FOLD_SETTING}`)).toMatchObject({
      scope: "client",
      config: true,
      default: "folded",
    });
    expect(stub.game.settings.registered.get(`fray.${CARD_FOLD_MEMORY}`)).toMatchObject({ scope: "client", config: false });
  });

  it("folds a new card, remembers a fold the user opens, and opens it again when the card re-renders", async () => {
    const [first, second] = [new Fold("0"), new Fold("1")];
    wireCardFolds({ id: "msg1" }, card(first, second));
    expect([first.open, second.open]).toEqual([false, false]);
    second.click();
    await Promise.resolve();
    expect(stub.game.settings.get("fray", CARD_FOLD_MEMORY)).toEqual({ "msg1:1": true });
    // The message re-renders (damage applied): new elements, the same folds.
    const again = [new Fold("0"), new Fold("1")];
    wireCardFolds({ id: "msg1" }, card(...again));
    expect(again.map((f) => f.open)).toEqual([false, true]);
    // Another message is not affected.
    const other = new Fold("1");
    wireCardFolds({ id: "msg2" }, card(other));
    expect(other.open).toBe(false);
  });

  it("opens every card when the user's default is open, and remembers one folded against it", async () => {
    await stub.game.settings.set("fray", CARD_FOLD_MEMORY, {});
    await stub.game.settings.set("fray", CARD_FOLD_SETTING, "open");
    const fold = new Fold("0");
    wireCardFolds({ id: "msg3" }, card(fold));
    expect(fold.open).toBe(true);
    fold.click();
    expect(stub.game.settings.get("fray", CARD_FOLD_MEMORY)).toEqual({ "msg3:0": false });
    // Wired once: a second pass over the same HTML adds no second listener.
    wireCardFolds({ id: "msg3" }, card(fold));
    expect(fold.listeners).toHaveLength(1);
    await stub.game.settings.set("fray", CARD_FOLD_SETTING, "folded");
  });
});
