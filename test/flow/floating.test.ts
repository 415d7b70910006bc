/**
 * Floating numbers: the change of vitals an application makes, shown over the token in each
 * reader's language (UD-DMG-02 HP and EP, HB-DMG-01 hitboxes, CR-BLD-01 bleeding).
 */
import { describe, expect, it } from "vitest";
import { floatingChanges, floatingText } from "../../src/foundry/logic/floating.js";
import { lookup, readLang } from "../support/foundry-stub.js";

const en = readLang("en");
const de = readLang("de");

describe("floating numbers", () => {
  it("UD-DMG-02: HP and EP lost float as negative numbers, in the reader's language", () => {
    const changes = floatingChanges(
      { hp: { value: 10, max: 10 }, ep: { value: 8, max: 12 }, conditions: [] },
      { hp: { value: 5, max: 10 }, ep: { value: 8, max: 12 }, conditions: [] },
    );
    expect(changes).toEqual([{ label: "FRAY.Floating.hp", delta: -5 }]);
    expect(floatingText(changes[0]!, (k) => lookup(en, k) ?? k)).toBe("\u22125 HP");
    expect(floatingText(changes[0]!, (k) => lookup(de, k) ?? k)).toBe("\u22125 LP");
  });

  it("HB-DMG-01: each hitbox that changed floats with its own name; healing is positive", () => {
    const before = { hitboxes: { head: { value: 4, max: 4 }, torso: { value: 3, max: 10 } }, conditions: [] };
    const after = { hitboxes: { head: { value: 2, max: 4 }, torso: { value: 5, max: 10 } }, conditions: [] };
    const changes = floatingChanges(before, after);
    expect(changes.map((c) => floatingText(c, (k) => lookup(en, k) ?? k))).toEqual(["\u22122 Head", "+2 Torso"]);
  });

  it("CR-BLD-01: a new bleeding wound floats; an unchanged state floats nothing", () => {
    const calm = { hp: { value: 30, max: 30 }, bleeding: 0, conditions: [] };
    expect(floatingChanges(calm, { ...calm, bleeding: 3 })).toEqual([{ label: "FRAY.Floating.bleeding", delta: 3 }]);
    expect(floatingChanges(calm, calm)).toEqual([]);
  });
});
