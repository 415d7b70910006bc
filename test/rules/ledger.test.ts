/**
 * The ledger of applications (core/ledger.ts) and UD10's vital-derived conditions
 * (ud10/vitals.ts): undo gives back exactly one application's change to the state as it is now,
 * clamped to each track's bounds, in any order, and the statuses are set from the vitals after.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deltaOf, recomputeConditions, revert, type VitalDelta } from "../../src/rules/core/ledger.js";
import type { DamagePacket } from "../../src/rules/core/ruleset.js";
import type { VitalState } from "../../src/rules/core/types.js";
import { ud10, VITAL_CONDITIONS, vitalConditions } from "../../src/rules/ud10/index.js";
import type { Ud10Combatant } from "../../src/rules/ud10/model.js";
import { target } from "./ud10-fixtures.js";

const packet = (amount: number, location = "torso"): DamagePacket => ({
  roll: { formula: String(amount), total: amount, dice: [], constant: amount },
  amount,
  location,
  penetration: 0,
});
const OPTIONS = { ...ud10.defaults(), bodyZones: true, buffer: true };

/** The combatant with a vital state written back (HP, EP, conditions). */
function withVitals(c: Ud10Combatant, s: VitalState): Ud10Combatant {
  return { ...c, hp: { ...s.hp! }, ep: { ...s.ep! }, conditions: [...s.conditions] };
}

/** Applies a hit through the core and returns the state after and the application's delta. */
function hit(c: Ud10Combatant, amount: number, location = "torso"): { state: VitalState; delta: VitalDelta } {
  const report = ud10.applyDamage(c, packet(amount, location), OPTIONS);
  return { state: report.after, delta: deltaOf(report.before, report.after) };
}

/** UD10 undo: revert the delta (HP without floor), then set the derived conditions from the vitals. */
function undo(current: VitalState, delta: VitalDelta): VitalState {
  const reverted = revert(current, delta, { hp: -Infinity });
  return recomputeConditions(reverted, VITAL_CONDITIONS, vitalConditions(reverted));
}

describe("ledger deltas", () => {
  it("UD-DMG-03, UD-DMG-04: the delta lists the EP and HP changes and the conditions added", () => {
    const bo = target(); // HP 20, EP 15, CON 3, vest 4/5 on the torso
    const { delta } = hit(bo, 30); // 30 - 4 armor = 26; 5 to EP; 21 - 3 CON = 18 off HP
    expect(delta).toEqual({ hp: { before: 20, after: 2 }, ep: { before: 15, after: 10 }, added: [], removed: [] });
  });

  it("HB-DMG-01: hitboxes, armor, bleeding and stun changes are kept per track", () => {
    const before: VitalState = {
      hitboxes: { head: { value: 4, max: 4 }, torso: { value: 8, max: 8 } },
      armor: { torso: { value: 3, max: 3 } },
      bleeding: 0,
      stun: 1,
      conditions: [],
    };
    const after: VitalState = {
      hitboxes: { head: { value: 4, max: 4 }, torso: { value: 5, max: 8 } },
      armor: { torso: { value: 0, max: 3 } },
      bleeding: 2,
      stun: 3,
      conditions: ["shock"],
    };
    expect(deltaOf(before, after)).toEqual({
      hitboxes: { torso: { before: 8, after: 5 } },
      armor: { torso: { before: 3, after: 0 } },
      bleeding: { before: 0, after: 2 },
      stun: { before: 1, after: 3 },
      added: ["shock"],
      removed: [],
    });
    const later: VitalState = { ...after, hitboxes: { head: { value: 2, max: 4 }, torso: { value: 1, max: 8 } }, bleeding: 3 };
    expect(revert(later, deltaOf(before, after))).toEqual({
      hitboxes: { head: { value: 2, max: 4 }, torso: { value: 4, max: 8 } },
      armor: { torso: { value: 3, max: 3 } },
      bleeding: 1,
      stun: 1,
      conditions: [],
    });
  });
});

describe("undo in any order (UD-DMG-02 to UD-DMG-04)", () => {
  it("UD-DMG-04: undoing the older hit after a newer one keeps the newer hit", () => {
    const bo = target();
    const a = hit(bo, 15); // 15 - 4 = 11; 5 EP; 6 - 3 = 3 HP: HP 17, EP 10
    const b = hit(withVitals(bo, a.state), 12); // 12 - 4 = 8; 5 EP; 3 - 3 = 0 HP: HP 17, EP 5
    const afterUndoA = undo(b.state, a.delta);
    expect(afterUndoA.hp).toEqual({ value: 20, max: 20 });
    expect(afterUndoA.ep).toEqual({ value: 10, max: 15 }); // b's 5 EP stay lost
    const both = undo(afterUndoA, b.delta);
    expect(both.hp).toEqual({ value: 20, max: 20 });
    expect(both.ep).toEqual({ value: 15, max: 15 });
  });

  it("UD-DMG-04: HP given back never exceeds the maximum, even after healing in between", () => {
    const bo = target();
    const a = hit(bo, 17); // 17 - 4 - 5 - 3 = 5 off HP: 15
    const healed: VitalState = { ...a.state, hp: { value: 20, max: 20 } };
    expect(undo(healed, a.delta).hp).toEqual({ value: 20, max: 20 });
  });

  it("UD-DMG-03: EP never drops below 0 nor rises above its maximum on undo", () => {
    const delta: VitalDelta = { ep: { before: 3, after: 8 }, added: [], removed: [] }; // an application that raised EP
    expect(revert({ ep: { value: 2, max: 15 }, conditions: [] }, delta).ep).toEqual({ value: 0, max: 15 });
    expect(revert({ ep: { value: 14, max: 15 }, conditions: [] }, { ep: { before: 10, after: 5 }, added: [], removed: [] }).ep).toEqual({
      value: 15,
      max: 15,
    });
  });

  it("UD-DMG-04: the two orders of undo end in the same state as before both hits", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }), (x, y) => {
        const bo = target();
        const a = hit(bo, x);
        const b = hit(withVitals(bo, a.state), y);
        const ab = undo(undo(b.state, a.delta), b.delta);
        const ba = undo(undo(b.state, b.delta), a.delta);
        // EP lost past 0 is lost (RULES.md), so only when b did not hit the floor do both orders agree exactly.
        for (const s of [ab, ba]) {
          expect(s.hp!.value).toBeLessThanOrEqual(20);
          expect(s.ep!.value).toBeLessThanOrEqual(15);
          expect(s.ep!.value).toBeGreaterThanOrEqual(0);
        }
        expect(ab.hp).toEqual({ value: 20, max: 20 });
        expect(ba.hp).toEqual({ value: 20, max: 20 });
        expect(ab.conditions).toEqual(ba.conditions);
      }),
    );
  });
});

describe("UD10 vital-derived conditions after undo", () => {
  it("UD-DMG-04: a target still at HP 0 or below after undoing the hit that added incapacitated stays incapacitated", () => {
    const bo = target({ hp: 5 });
    const a = hit(bo, 16); // 16 - 4 = 12; 5 to EP (10); 7 - 3 = 4 off HP: 1
    expect(a.state.conditions).toEqual([]);
    const b = hit(withVitals(bo, a.state), 20); // 16; 5 to EP (5); 11 - 3 = 8 off HP: -7, adds incapacitated
    expect(b.delta.added).toEqual(["incapacitated"]);
    const c = hit(withVitals(bo, b.state), 30); // 26; 5 to EP (0): unconscious; 21 - 3 = 18 off HP: -25
    expect(c.delta.added).toEqual(["unconscious"]);
    const undoneB = undo(c.state, b.delta); // HP -25 + 8 = -17: still incapacitated; EP 0 + 5 = 5: awake
    expect(undoneB.hp!.value).toBe(-17);
    expect(undoneB.ep!.value).toBe(5);
    expect(undoneB.conditions).toEqual(["incapacitated"]);
  });

  it("UD-DMG-03: undoing a hit brings EP above 0 and clears unconscious; other conditions stay", () => {
    const bo = target({ ep: 4, conditions: ["prone"] });
    const a = hit(bo, 9); // 9 - 4 = 5; 5 to EP (4 left, floor 0): unconscious
    expect(a.state.conditions).toEqual(["prone", "unconscious"]);
    expect(undo(a.state, a.delta).conditions).toEqual(["prone"]);
  });

  it("UD-DMG-03, UD-DMG-04: vitalConditions reads EP 0 as unconscious and HP 0 or below as incapacitated", () => {
    expect(vitalConditions({ hp: { value: 0, max: 20 }, ep: { value: 1, max: 15 }, conditions: [] })).toEqual(["incapacitated"]);
    expect(vitalConditions({ hp: { value: 1, max: 20 }, ep: { value: 0, max: 15 }, conditions: [] })).toEqual(["unconscious"]);
    expect(vitalConditions({ hp: { value: 3, max: 20 }, ep: { value: 3, max: 15 }, conditions: ["dead"] })).toEqual([]);
    expect(recomputeConditions({ conditions: ["dead", "unconscious"] }, VITAL_CONDITIONS, [])).toEqual({ conditions: ["dead"] });
  });
});
