/**
 * Property-based tests of the dice formula boundary (fast-check). Generated valid formulas
 * always parse, roll and give distributions summing to 1; generated invalid inputs always give
 * a FrayError with the expected key.
 *
 * Runs: `FRAY_FC_RUNS` per property (default 100). A failure prints fast-check's seed and path;
 * replay it with `FRAY_FC_SEED=<seed> FRAY_FC_PATH=<path> npx vitest run test/rules/dice-properties.test.ts`.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DISTRIBUTION_LIMITS, measureDistribution } from "../../src/rules/core/dice/distribution.js";
import {
  compileFormula,
  evaluateFormula,
  explodeChance,
  FORMULA_LIMITS,
  MAX_EXPLOSIONS,
  parseFormula,
  type Comparison,
  type FormulaTerm,
} from "../../src/rules/core/dice/formula.js";
import { seededSource } from "../../src/rules/core/dice/port.js";
import { FrayError } from "../../src/rules/core/errors.js";

const RUNS = Number(process.env.FRAY_FC_RUNS ?? 100);
const SEED = process.env.FRAY_FC_SEED === undefined ? undefined : Number(process.env.FRAY_FC_SEED);
const PATH = process.env.FRAY_FC_PATH;
/** The fast-check parameters of every property here. */
const params: fc.Parameters<unknown> = {
  numRuns: RUNS,
  ...(SEED === undefined ? {} : { seed: SEED }),
  ...(PATH === undefined ? {} : { path: PATH }),
};

const OPS: Comparison["op"][] = [">", ">=", "<", "<=", "="];

/** A generated formula: its text and the terms `parseFormula` must read from it. */
interface Generated {
  text: string;
  terms: FormulaTerm[];
}

/** Sizes of a generator of valid formulas. */
interface Sizes {
  terms: number;
  /** Dice of one term. */
  perTerm: number;
  faces: fc.Arbitrary<number>;
  constant: number;
  /** Largest chance of a repeated explosion (`x`). */
  explode: number;
}

/** One explode modifier, its text and its condition; `x` alone means `>=` the highest face. */
function explodeArb(
  faces: number,
  maxChance: number,
): fc.Arbitrary<{ text: string; explode: NonNullable<Extract<FormulaTerm, { kind: "dice" }>["explode"]> }> {
  return fc
    .record({
      once: fc.boolean(),
      op: fc.constantFrom(...OPS),
      value: fc.integer({ min: 0, max: faces + 1 }),
      style: fc.constantFrom("bare", "plain", "op"),
    })
    .map(({ once, op, value, style }) => {
      const mod = once ? "xo" : "x";
      if (style === "bare") return { text: mod, explode: { on: { op: ">=" as const, value: faces }, once } };
      if (style === "plain") return { text: `${mod}${value}`, explode: { on: { op: "=" as const, value }, once } };
      return { text: `${mod}${op}${value}`, explode: { on: { op, value }, once } };
    })
    .filter(({ explode }) => explode.once || explodeChance(faces, explode.on) <= maxChance);
}

/** A valid dice or constant term with its text (sign not included). */
function termArb(s: Sizes): fc.Arbitrary<{ text: string; term: FormulaTerm }> {
  const dice = fc
    .record({
      count: fc.integer({ min: 1, max: s.perTerm }),
      faces: s.faces,
      omitOne: fc.boolean(),
      explode: fc.boolean(),
      upper: fc.boolean(),
    })
    .chain(({ count, faces, omitOne, explode, upper }) => {
      const head = `${count === 1 && omitOne ? "" : count}${upper ? "D" : "d"}${faces}`;
      const base: FormulaTerm = { kind: "dice", sign: 1, count, faces };
      if (!explode) return fc.constant({ text: head, term: base });
      return explodeArb(faces, s.explode).map((e) => ({ text: head + e.text, term: { ...base, explode: e.explode } }));
    });
  const constant = fc
    .integer({ min: 0, max: s.constant })
    .map((value) => ({ text: String(value), term: { kind: "constant" as const, sign: 1 as const, value } }));
  return fc.oneof({ arbitrary: dice, weight: 3 }, { arbitrary: constant, weight: 1 });
}

/** Valid formulas within `s`: terms joined by `+`/`-` with any spacing. */
function validFormula(s: Sizes): fc.Arbitrary<Generated> {
  return fc.array(fc.tuple(termArb(s), fc.boolean(), fc.constantFrom("", " ", "  ")), { minLength: 1, maxLength: s.terms }).map((parts) => {
    let text = "";
    const terms: FormulaTerm[] = [];
    parts.forEach(([{ text: t, term }, negative, space], i) => {
      const sign = negative ? -1 : 1;
      text += i === 0 ? (negative ? "-" : "") : `${space}${negative ? "-" : "+"}${space}`;
      text += t;
      terms.push({ ...term, sign });
    });
    return { text, terms };
  });
}

/** Common dice and any die up to 1000 faces: formulas any sheet could hold. */
const ANY_FACES = fc.oneof(fc.constantFrom(2, 3, 4, 6, 8, 10, 12, 20, 100), fc.integer({ min: 2, max: FORMULA_LIMITS.maxFaces }));
/** Everything the limits allow. */
const BROAD: Sizes = {
  terms: 4,
  perTerm: FORMULA_LIMITS.maxDice / 4,
  faces: ANY_FACES,
  constant: FORMULA_LIMITS.maxNumber,
  explode: FORMULA_LIMITS.maxExplodeChance,
};
/**
 * Formulas of the size the rulesets roll: up to 3 terms of 2 dice up to d20 exploding up to the
 * limit (1/2), or up to 2 terms of 2 d100 exploding like the open-ended d100 (5 %).
 */
const EVERYDAY: Sizes = {
  terms: 3,
  perTerm: 2,
  faces: fc.constantFrom(2, 3, 4, 6, 8, 10, 12, 20),
  constant: 100,
  explode: FORMULA_LIMITS.maxExplodeChance,
};
const EVERYDAY_D100: Sizes = { terms: 2, perTerm: 2, faces: fc.constant(100), constant: 100, explode: 0.05 };

/** The smallest and largest total of terms (explosions chained to the cap). */
function bounds(terms: FormulaTerm[]): [number, number] {
  let lo = 0;
  let hi = 0;
  for (const t of terms) {
    if (t.kind === "constant") {
      lo += t.sign * t.value;
      hi += t.sign * t.value;
      continue;
    }
    const chain = t.explode ? (t.explode.once ? 1 : MAX_EXPLOSIONS) : 0;
    const [a, b] = [t.count, t.count * t.faces * (chain + 1)];
    lo += t.sign > 0 ? a : -b;
    hi += t.sign > 0 ? b : -a;
  }
  return [lo, hi];
}

/** Checks a distribution: finite non-negative chances summing to 1, totals within `bounds`. */
function expectPmf(pmf: Map<number, number>, terms: FormulaTerm[]): void {
  const [lo, hi] = bounds(terms);
  let sum = 0;
  // Entries out of bounds or without a positive chance, asserted once (an expect per entry cost
  // more than the distribution).
  const wrong: [number, number][] = [];
  for (const [total, p] of pmf) {
    if (!(Number.isInteger(total) && total >= lo && total <= hi && Number.isFinite(p) && p > 0)) wrong.push([total, p]);
    sum += p;
  }
  expect(wrong).toEqual([]);
  expect(sum).toBeCloseTo(1, 9);
}

describe("valid formulas (fast-check)", () => {
  it(`parse to the generated terms and roll like the reference evaluator (${RUNS} runs)`, () => {
    fc.assert(
      fc.property(validFormula(BROAD), fc.integer(), ({ text, terms }, seed) => {
        expect(parseFormula(text).terms).toEqual(terms);
        const compiled = compileFormula(text);
        const outcome = compiled.roll(seededSource(seed));
        expect(outcome).toEqual(evaluateFormula(parseFormula(text), seededSource(seed)));
        expect(compiled.total(seededSource(seed))).toBe(outcome.total);
        const [lo, hi] = bounds(terms);
        expect(outcome.total >= lo && outcome.total <= hi).toBe(true);
        const dice = terms.filter((t) => t.kind === "dice");
        outcome.dice.forEach((d, i) => {
          expect(d.faces).toBe(dice[i]!.faces);
          expect(d.results.every((f) => Number.isInteger(f) && f >= 1 && f <= d.faces)).toBe(true);
        });
      }),
      params,
    );
  });

  it(`of everyday size give exact distributions summing to 1 (${RUNS} runs each)`, () => {
    for (const sizes of [EVERYDAY, EVERYDAY_D100]) {
      fc.assert(
        fc.property(validFormula(sizes), ({ text, terms }) => {
          const m = measureDistribution(text);
          expectPmf(m.pmf, terms);
          expect(m.steps).toBeLessThanOrEqual(DISTRIBUTION_LIMITS.maxSteps);
        }),
        params,
      );
    }
  });

  it(`of any size give a distribution summing to 1 or a FrayError naming the bound of work (${Math.max(1, Math.ceil(RUNS / 4))} runs)`, () => {
    fc.assert(
      fc.property(validFormula(BROAD), ({ text, terms }) => {
        try {
          const m = measureDistribution(text);
          expectPmf(m.pmf, terms);
          expect(m.steps).toBeLessThanOrEqual(DISTRIBUTION_LIMITS.maxSteps);
          expect(m.support).toBeLessThanOrEqual(DISTRIBUTION_LIMITS.maxSupport);
        } catch (error) {
          expect(error).toBeInstanceOf(FrayError);
          expect((error as FrayError).key).toMatch(/^FRAY\.Error\.Dice\.Distribution(Work|Support)$/);
        }
      }),
      { ...params, numRuns: Math.max(1, Math.ceil(RUNS / 4)) },
    );
  });
});

/** Expects `run` to throw a FrayError with `key`. */
function expectRefused(run: () => unknown, key: string): void {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(FrayError);
  expect((thrown as FrayError).key).toBe(key);
}

describe("invalid inputs (fast-check)", () => {
  it(`that are not strings give FRAY.Error.Dice.NotText (${RUNS} runs)`, () => {
    fc.assert(
      fc.property(
        fc.anything().filter((v) => typeof v !== "string"),
        (value) => {
          expectRefused(() => parseFormula(value), "FRAY.Error.Dice.NotText");
          expectRefused(() => compileFormula(value), "FRAY.Error.Dice.NotText");
        },
      ),
      params,
    );
  });

  it(`of any text either parse or give a FrayError, never another error (${RUNS} runs each)`, () => {
    const alphabet = fc.constantFrom(..."0123456789dDxXo+-<>= .*()kh");
    for (const text of [fc.string({ unit: alphabet, maxLength: 30 }), fc.string({ maxLength: 300 })]) {
      fc.assert(
        fc.property(text, (formula) => {
          try {
            parseFormula(formula);
          } catch (error) {
            expect(error).toBeInstanceOf(FrayError);
            expect((error as FrayError).key).toMatch(/^FRAY\.Error\.(Formula|Dice\.\w+)$/);
          }
        }),
        params,
      );
    }
  });

  it(`with absurd die counts, faces or numbers give the matching FrayError (${RUNS} runs)`, () => {
    const absurd = fc.oneof(
      fc
        .maxSafeNat()
        .filter((n) => n > FORMULA_LIMITS.maxDice)
        .map((n) => ({ text: `${n}d6`, key: "FRAY.Error.Dice.Count" })),
      fc.integer({ min: 0, max: 1 }).map((f) => ({ text: `2d${f}`, key: "FRAY.Error.Dice.Faces" })),
      fc
        .maxSafeNat()
        .filter((f) => f > FORMULA_LIMITS.maxFaces)
        .map((f) => ({ text: `1d${f} + 2`, key: "FRAY.Error.Dice.Faces" })),
      fc
        .maxSafeNat()
        .filter((v) => v > FORMULA_LIMITS.maxNumber)
        .map((v) => ({ text: `1d10 - ${v}`, key: "FRAY.Error.Dice.Number" })),
      fc.stringMatching(/^[1-9]\d{16,30}$/).map((digits) => ({ text: `3 + ${digits}`, key: "FRAY.Error.Dice.Number" })),
      fc
        .array(fc.integer({ min: 1, max: 60 }), { minLength: 2, maxLength: 6 })
        .filter((counts) => counts.reduce((a, b) => a + b, 0) > FORMULA_LIMITS.maxDice)
        .map((counts) => ({ text: counts.map((n) => `${n}d6`).join(" + "), key: "FRAY.Error.Dice.Count" })),
      fc
        .integer({ min: FORMULA_LIMITS.maxTerms + 1, max: 60 })
        .map((n) => ({ text: Array.from({ length: n }, () => "1").join("+"), key: "FRAY.Error.Dice.TooManyTerms" })),
      fc
        .integer({ min: FORMULA_LIMITS.maxLength + 1, max: 5000 })
        .map((n) => ({ text: `1d6${" ".repeat(n)}`, key: "FRAY.Error.Dice.TooLong" })),
    );
    fc.assert(
      fc.property(absurd, ({ text, key }) => expectRefused(() => parseFormula(text), key)),
      params,
    );
  });

  it(`with explosions on more than half of the faces give FRAY.Error.Dice.Explosive (${RUNS} runs)`, () => {
    const explosive = fc
      .record({
        faces: ANY_FACES,
        op: fc.constantFrom(...OPS),
        value: fc.integer({ min: 0, max: FORMULA_LIMITS.maxFaces + 1 }),
        count: fc.integer({ min: 1, max: 10 }),
      })
      .filter(({ faces, op, value }) => explodeChance(faces, { op, value }) > FORMULA_LIMITS.maxExplodeChance);
    fc.assert(
      fc.property(explosive, ({ faces, op, value, count }) => {
        const text = `${count}d${faces}x${op}${value} + 1`;
        expectRefused(() => parseFormula(text), "FRAY.Error.Dice.Explosive");
        // The same condition exploding only once is a legitimate extreme.
        expect(parseFormula(`${count}d${faces}xo${op}${value}`).terms).toHaveLength(1);
      }),
      params,
    );
  });
});
