import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { distribution, plainDicePmf } from "../../src/rules/core/dice/distribution.js";
import { checkPmf } from "../../src/rules/zones/checks.js";
import { calledChance, CALLED_THRESHOLDS } from "../../src/rules/hitbox/location.js";
import { atLeast } from "../../src/rules/core/dice/distribution.js";
import { FrayError } from "../../src/rules/core/errors.js";

const formula = (count: number, sides: number, offset: number) =>
  offset < 0 ? `${count}d${sides} - ${-offset}` : `${count}d${sides} + ${offset}`;

describe("plain dice distributions built without a formula", () => {
  it("equal the formula's distribution bit for bit, totals in the same order", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 2, max: 20 }),
        fc.integer({ min: -30, max: 30 }),
        (count, sides, offset) => {
          expect([...plainDicePmf(count, sides, offset)]).toEqual([...distribution(formula(count, sides, offset))]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("refuses a count or a die size out of bounds, naming the field", () => {
    expect(() => plainDicePmf(0, 6)).toThrow(FrayError);
    expect(() => plainDicePmf(2, 1)).toThrow(/die size/);
    try {
      plainDicePmf(2, 1.5);
    } catch (error) {
      expect((error as FrayError).data).toMatchObject({ field: "sides" });
    }
  });

  it("ZN-RNG-08: a Zones check's distribution is the formula 1d10 + modifier's, bit for bit", () => {
    for (let modifier = -15; modifier <= 25; modifier++) {
      expect([...checkPmf(modifier)]).toEqual([...distribution(formula(1, 10, modifier))]);
    }
  });

  it("HB-LOC-02: a called shot's chance is P(2d6 >= threshold) of the formula 2d6, bit for bit", () => {
    for (const called of Object.keys(CALLED_THRESHOLDS) as (keyof typeof CALLED_THRESHOLDS)[]) {
      expect(calledChance(called)).toBe(atLeast(distribution("2d6"), CALLED_THRESHOLDS[called]));
    }
  });
});
