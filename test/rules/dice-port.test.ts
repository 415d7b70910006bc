/**
 * The dice port's fast path and limits: compiled formulas, the synchronous rollers, the history
 * kept only on request, the formula limits and the bounded distribution work.
 */
import { describe, expect, it } from "vitest";
import { DISTRIBUTION_LIMITS, distribution, mean, measureDistribution } from "../../src/rules/core/dice/distribution.js";
import { compileFormula, evaluateFormula, FORMULA_CACHE_SIZE, FORMULA_LIMITS, parseFormula } from "../../src/rules/core/dice/formula.js";
import {
  canRollSync,
  playWith,
  rollKept,
  ScriptedRoller,
  SeededRoller,
  seededSource,
  SourceRoller,
  type DiceRoller,
} from "../../src/rules/core/dice/port.js";
import type { RollOutcome } from "../../src/rules/core/types.js";
import { FrayError } from "../../src/rules/core/errors.js";

/** The FrayError `run` throws (fails the test when it throws nothing or something else). */
function frayErrorOf(run: () => unknown): FrayError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(FrayError);
    return error as FrayError;
  }
  throw new Error("expected a FrayError, nothing was thrown");
}

describe("compiled formulas", () => {
  it("UD-DMG-01: a compiled formula rolls the same faces to the same outcome as the reference evaluator", () => {
    for (const formula of ["2d10x10 + 3", "1d100x>95", "2d6 - 1", "3d6xo>4 - 1d4 + 2", "d10x<2"]) {
      const a = compileFormula(formula).roll(seededSource(42));
      const b = evaluateFormula(parseFormula(formula), seededSource(42));
      expect(a, formula).toEqual(b);
      expect(compileFormula(formula).total(seededSource(42)), formula).toBe(b.total);
    }
  });

  it("UD-DMG-01: explosions chain on 10 and stop on the first other face", () => {
    const faces = [10, 10, 4, 7];
    const out = compileFormula("2d10x10 + 3").roll(() => faces.shift()!);
    expect(out).toEqual({ formula: "2d10x10 + 3", total: 34, dice: [{ faces: 10, results: [10, 10, 4, 7] }], constant: 3 });
  });

  it("keeps at most FORMULA_CACHE_SIZE compiled formulas, the oldest leaving first", () => {
    // Formulas no other test compiles: the core's test files share one module graph (vitest.config.ts).
    const first = compileFormula("1d97 + 0");
    for (let i = 1; i <= FORMULA_CACHE_SIZE; i++) compileFormula(`1d97 + ${i}`);
    const again = compileFormula("1d97 + 0");
    expect(again).not.toBe(first);
    expect(again.roll(() => 4)).toEqual(first.roll(() => 4));
    expect(compileFormula(`1d97 + ${FORMULA_CACHE_SIZE}`)).toBe(compileFormula(`1d97 + ${FORMULA_CACHE_SIZE}`));
  });

  it("parses a formula once per process and refuses to change the cached terms", () => {
    const a = compileFormula("2d6 + 1");
    expect(compileFormula("2d6 + 1")).toBe(a);
    expect(Object.isFrozen(a.parsed.terms)).toBe(true);
    expect(Object.isFrozen(a.parsed.terms[0])).toBe(true);
    expect(() => {
      (a.parsed.terms[0] as { count: number }).count = 9;
    }).toThrow(TypeError);
    // A refused formula is refused each time, never cached.
    expect(frayErrorOf(() => compileFormula("1d10x>1")).key).toBe("FRAY.Error.Dice.Explosive");
    expect(frayErrorOf(() => compileFormula("1d10x>1")).key).toBe("FRAY.Error.Dice.Explosive");
  });
});

describe("synchronous rollers", () => {
  it("UD-DMG-01: rollSync gives the scripted faces at once, roll gives the same outcome", async () => {
    const sync = new ScriptedRoller([10, 4, 7]);
    const outcome = sync.rollSync("2d10x10 + 3");
    expect(outcome.dice[0]!.results).toEqual([10, 4, 7]);
    expect(outcome.total).toBe(24);
    expect(await new ScriptedRoller([10, 4, 7]).roll("2d10x10 + 3")).toEqual(outcome);
  });

  it("rollTotal draws the same faces as rollSync for the same seed", () => {
    const a = new SeededRoller(9);
    const b = new SeededRoller(9);
    for (let i = 0; i < 50; i++) expect(a.rollTotal("1d100x>95 + 2")).toBe(b.rollSync("1d100x>95 + 2").total);
  });

  it("keeps a history only when asked for", async () => {
    const quiet = new SeededRoller(3);
    await quiet.roll("2d6", "FRAY.Roll.Location");
    quiet.rollSync("1d10");
    expect(quiet.history).toEqual([]);
    const kept = new ScriptedRoller([3, 4, 5, 6], undefined, { keepHistory: true });
    await kept.roll("2d6", "FRAY.Roll.Location");
    kept.rollSync("1d10", "FRAY.Roll.Initiative");
    // The total-only path draws its face but records nothing.
    expect(kept.rollTotal("1d6")).toBe(6);
    expect(kept.remaining).toBe(0);
    expect(kept.history.map((h) => [h.purpose, h.outcome.total])).toEqual([
      ["FRAY.Roll.Location", 7],
      ["FRAY.Roll.Initiative", 5],
    ]);
  });

  it("tells rollers that can roll synchronously from those that cannot", () => {
    const asyncOnly: DiceRoller = { roll: (formula) => new SeededRoller(1).roll(formula) };
    expect(canRollSync(new SourceRoller(() => 1))).toBe(true);
    expect(canRollSync(new ScriptedRoller([]))).toBe(true);
    expect(canRollSync(asyncOnly)).toBe(false);
  });

  it("rejects a refused formula through the promise and throws it from rollSync", async () => {
    const dice = new SeededRoller(1);
    await expect(dice.roll("1d6x>2")).rejects.toMatchObject({ key: "FRAY.Error.Dice.Explosive" });
    expect(frayErrorOf(() => dice.rollSync(42 as unknown as string)).key).toBe("FRAY.Error.Dice.NotText");
  });
});

describe("a synchronous step with any dice port", () => {
  /** A step that rolls a d10, then a d6 only when the d10 shows 6 or more, then a d4. */
  const step = (dice: Parameters<Parameters<typeof playWith>[1]>[0], kept?: RollOutcome[]) => {
    const first = rollKept(dice, "1d10", "FRAY.Roll.Attack", kept);
    const second = first >= 6 ? rollKept(dice, "1d6", "FRAY.Roll.Damage", kept) : 0;
    return [first, second, rollKept(dice, "1d4", "FRAY.Roll.Damage", kept)];
  };

  it("plays at once with synchronous dice, and with asynchronous dice rolls each formula once, in the step's order", async () => {
    for (const faces of [
      [7, 3, 2],
      [2, 4],
    ]) {
      const asked: string[] = [];
      const scripted = new ScriptedRoller(faces);
      // Only `roll`: a port like Foundry's, which cannot roll synchronously.
      const port: DiceRoller = {
        roll: (formula, purpose) => {
          asked.push(`${formula} ${purpose}`);
          return scripted.roll(formula, purpose);
        },
      };
      const kept: RollOutcome[] = [];
      const played = await playWith(port, (dice) => {
        // Played again from its start after each awaited roll: what it kept before is dropped.
        kept.length = 0;
        return step(dice, kept);
      });
      const direct = await playWith(new ScriptedRoller(faces), (dice) => step(dice));
      expect(played).toEqual(direct);
      expect(played).toEqual(faces.length === 3 ? [7, 3, 2] : [2, 0, 4]);
      expect(asked).toEqual(
        faces.length === 3
          ? ["1d10 FRAY.Roll.Attack", "1d6 FRAY.Roll.Damage", "1d4 FRAY.Roll.Damage"]
          : ["1d10 FRAY.Roll.Attack", "1d4 FRAY.Roll.Damage"],
      );
      expect(kept.map((o) => o.total)).toEqual(played.filter((_, i) => faces.length === 3 || i !== 1));
    }
  });

  it("passes on what the step throws", async () => {
    const port: DiceRoller = { roll: (formula) => new SeededRoller(1).roll(formula) };
    await expect(
      playWith(port, (dice) => {
        dice.rollTotal("1d10");
        throw new FrayError("FRAY.Error.NoHit", {}, "no hit");
      }),
    ).rejects.toMatchObject({ key: "FRAY.Error.NoHit" });
  });
});

describe("formula limits", () => {
  it("refuses non-strings naming the type, and formulas beyond each limit naming the formula", () => {
    expect(frayErrorOf(() => parseFormula(7)).data).toEqual({ type: "number" });
    expect(frayErrorOf(() => parseFormula(null)).data).toEqual({ type: "null" });
    expect(frayErrorOf(() => parseFormula(["2d6"])).data).toEqual({ type: "array" });
    const cases: [string, string, Record<string, string | number>][] = [
      ["101d6", "FRAY.Error.Dice.Count", { count: 101, max: 100 }],
      ["0d6", "FRAY.Error.Dice.Count", { count: 0 }],
      ["60d6 + 41d6", "FRAY.Error.Dice.Count", { count: 101 }],
      ["1d1001", "FRAY.Error.Dice.Faces", { faces: 1001, min: 2, max: 1000 }],
      ["2d1", "FRAY.Error.Dice.Faces", { faces: 1 }],
      ["1d6 + 1000001", "FRAY.Error.Dice.Number", { value: 1000001, max: 1000000 }],
      ["1d6x>2000000", "FRAY.Error.Dice.Number", { value: 2000000 }],
      ["1d10x>1", "FRAY.Error.Dice.Explosive", { faces: 10, chance: "90", max: "50" }],
      ["1d6x>2", "FRAY.Error.Dice.Explosive", { faces: 6, chance: "66.7" }],
      ["1d3x>=2", "FRAY.Error.Dice.Explosive", { faces: 3, chance: "66.7" }],
      [Array.from({ length: 21 }, () => "1").join("+"), "FRAY.Error.Dice.TooManyTerms", { terms: 21, max: 20 }],
      ["1d6x>", "FRAY.Error.Formula", {}],
    ];
    for (const [formula, key, data] of cases) {
      const error = frayErrorOf(() => parseFormula(formula));
      expect(error.key, formula).toBe(key);
      expect(error.data, formula).toMatchObject(data);
      // Long formulas are shown shortened to 40 characters.
      expect(error.data.formula, formula).toBe(formula.length > 40 ? `${formula.slice(0, 39)}…` : formula);
    }
    const long = `1d6${" + 1".repeat(60)}`;
    expect(frayErrorOf(() => parseFormula(long)).data).toEqual({
      formula: `${long.slice(0, 39)}…`,
      length: long.length,
      max: FORMULA_LIMITS.maxLength,
    });
  });

  it("keeps the legitimate extremes: half the faces exploding, xo on every face, conditions no face meets", () => {
    expect(parseFormula("1d6x>3").terms[0]).toMatchObject({ explode: { on: { op: ">", value: 3 } } });
    expect(parseFormula("1d2x").terms[0]).toMatchObject({ explode: { on: { op: ">=", value: 2 } } });
    expect(parseFormula("1d10xo>0").terms[0]).toMatchObject({ explode: { once: true } });
    expect(parseFormula("1d10x>10").terms[0]).toMatchObject({ explode: { on: { value: 10 } } });
    expect(parseFormula("100d1000 + 1000000").terms).toHaveLength(2);
    expect(parseFormula("1d100x>95").terms[0]).toMatchObject({ explode: { once: false } });
  });
});

describe("bounded distributions", () => {
  it("computes the exploding d6 that once never returned (1d6x>3) in a few thousand steps", () => {
    const m = measureDistribution("1d6x>3");
    // Each die adds 3.5 on average and explodes with chance 1/2: 3.5 / (1 - 1/2) = 7.
    expect(mean(m.pmf)).toBeCloseTo(7, 9);
    expect([...m.pmf.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(m.steps).toBeLessThanOrEqual(20_000);
    expect(m.support).toBeLessThanOrEqual(300);
  });

  it("xo explodes once even when every face meets the condition", () => {
    const pmf = distribution("1d4xo>0");
    // Two d4 always: 2..8 like 2d4.
    expect([...pmf.keys()]).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(pmf.get(5)).toBeCloseTo(4 / 16, 12);
  });

  it("refuses a distribution beyond the bound of work before doing it, naming the formula", () => {
    for (const formula of ["100d1000", "1d1000x>500", "10d100x>95"]) {
      const error = frayErrorOf(() => distribution(formula));
      expect(error.key, formula).toBe("FRAY.Error.Dice.DistributionWork");
      expect(error.data, formula).toEqual({ formula, max: DISTRIBUTION_LIMITS.maxSteps });
    }
  });

  it("checks a hand-built parsed formula against the same limits", () => {
    const parsed = { source: "9999d6", terms: [{ kind: "dice" as const, sign: 1 as const, count: 9999, faces: 6 }] };
    expect(frayErrorOf(() => distribution(parsed)).key).toBe("FRAY.Error.Dice.Count");
    expect(frayErrorOf(() => distribution({} as never)).key).toBe("FRAY.Error.Dice.NotText");
  });

  it("negative dice terms mirror their distribution", () => {
    const pmf = distribution("1d4 - 1d4");
    expect([...pmf.keys()]).toEqual([-3, -2, -1, 0, 1, 2, 3]);
    expect(pmf.get(0)).toBeCloseTo(4 / 16, 12);
    expect(mean(distribution("10 - 1d10x10"))).toBeCloseTo(10 - 5.5 / 0.9, 9);
  });
});
