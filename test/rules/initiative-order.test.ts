import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareInitiative, orderByInitiative } from "../../src/rules/core/initiative.js";
import type { InitiativeRoll } from "../../src/rules/core/ruleset.js";
import { order as ud10Order } from "../../src/rules/ud10/initiative.js";

/** A roll with only what the order reads: its total and tiebreaks (few values, so that ties are common). */
const roll = (i: number, total: number, tiebreak: number[]): InitiativeRoll => ({
  members: [`c${i}`],
  check: { roll: { formula: "1d10", total, dice: [], constant: 0 }, natural: total, modifiers: [], total },
  total,
  tiebreak,
});

describe("acting order", () => {
  it("UD-INI-01, CR-INI-01, ZN-INI-01: highest total first, ties by tiebreak values, then the order given, as a stable sort orders them", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 4 }), fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 2 })), { maxLength: 24 }),
        (specs) => {
          const rolls = specs.map(([total, tiebreak], i) => roll(i, total, tiebreak));
          const given = rolls.slice();
          const expected = rolls.slice().sort(compareInitiative);
          expect(orderByInitiative(rolls)).toEqual(expected);
          expect(ud10Order(rolls)).toEqual(expected);
          // The input is not changed.
          expect(rolls).toEqual(given);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("UD-INI-01: equal rolls keep the order they were given in", () => {
    const rolls = [roll(0, 5, [1]), roll(1, 7, []), roll(2, 5, [1]), roll(3, 5, [2])];
    expect(orderByInitiative(rolls).map((r) => r.members[0])).toEqual(["c1", "c3", "c0", "c2"]);
  });
});
