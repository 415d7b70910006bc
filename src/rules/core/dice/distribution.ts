import { FrayError } from "../errors.js";
import {
  CompiledFormula,
  checkParsed,
  compileFormula,
  explodeRange,
  MAX_EXPLOSIONS,
  type DiceTerm,
  type ParsedFormula,
} from "./formula.js";

/**
 * A probability mass function over integer totals, in ascending order of total; totals that
 * cannot occur are left out. Exact for formulas without explosions; for exploding dice, chains
 * are followed until the chance of one more explosion is at most 1e-15 (that remainder counts as
 * the chain ending there), so the result is exact to well past any displayed precision and sums
 * to 1.
 */
export type Pmf = Map<number, number>;

const TAIL = 1e-15;

/**
 * The bounds of work for one exact distribution (RULES.md, "Input limits"): `maxSteps`
 * multiply-adds in all, `maxSupport` possible totals in any intermediate or final result.
 * Every formula the rulesets and their compendium items hold needs far less (UD10's largest
 * damage code, `20d10x10`, about 4.5 million steps).
 */
export const DISTRIBUTION_LIMITS = Object.freeze({ maxSteps: 20_000_000, maxSupport: 200_000 });

/**
 * A distribution over the `len` totals `min, min + 1, ...`: `p[i]` is the chance of `min + i`.
 * `p` is null while the work is only being counted.
 */
interface Dense {
  min: number;
  len: number;
  p: Float64Array | null;
}

/**
 * Counts the work of one distribution and refuses to go beyond {@link DISTRIBUTION_LIMITS}. A
 * counting budget (`dry`) allocates nothing: the computation runs through the same steps with
 * only the sizes of its tables, so an oversized formula is refused before any work is done.
 */
class Budget {
  steps = 0;
  support = 0;

  constructor(
    private readonly formula: string,
    readonly dry: boolean,
  ) {}

  /**
   * Books `steps` before they are done.
   * @throws FrayError `FRAY.Error.Dice.DistributionWork` when the total would pass `maxSteps`.
   */
  spend(steps: number): void {
    const max = DISTRIBUTION_LIMITS.maxSteps;
    if (this.steps + steps > max) {
      throw new FrayError(
        "FRAY.Error.Dice.DistributionWork",
        { formula: this.formula, max },
        `The exact odds of "${this.formula}" need more than ${max} steps of work`,
      );
    }
    this.steps += steps;
  }

  /**
   * A zeroed distribution over `size` totals from `min`.
   * @throws FrayError `FRAY.Error.Dice.DistributionSupport` when `size` passes `maxSupport`.
   */
  alloc(min: number, size: number): Dense {
    const max = DISTRIBUTION_LIMITS.maxSupport;
    if (size > max) {
      throw new FrayError(
        "FRAY.Error.Dice.DistributionSupport",
        { formula: this.formula, size, max },
        `The exact odds of "${this.formula}" span ${size} totals; at most ${max} are allowed`,
      );
    }
    this.support = Math.max(this.support, size);
    return { min, len: size, p: this.dry ? null : new Float64Array(size) };
  }
}

/**
 * Adds to `out` the distribution of `X + F`, X from `from` (scaled by nothing) and F one face of
 * `lo..hi`, each with chance `w`.
 */
function addFaces(out: Dense, from: Dense, lo: number, hi: number, w: number, budget: Budget): void {
  if (hi < lo) return;
  const n = from.len;
  budget.spend(n * (hi - lo + 1));
  if (!out.p || !from.p) return;
  const base = from.min + lo - out.min;
  for (let i = 0; i < n; i++) {
    const q = from.p[i]! * w;
    if (q === 0) continue;
    const at = base + i;
    for (let f = 0; f <= hi - lo; f++) out.p[at + f]! += q;
  }
}

/**
 * The distribution of one die of `term` (explosions included, sign not applied). A die
 * explodes again while the chance of the next explosion is above 1e-15 and the chain is shorter
 * than {@link MAX_EXPLOSIONS} (1 for `xo`); at the last step every face ends the chain.
 */
function singleDie(term: DiceTerm, budget: Budget): Dense {
  const F = term.faces;
  const { lo, hi } = term.explode ? explodeRange(F, term.explode.on) : { lo: 1, hi: 0 };
  const pe = hi >= lo ? (hi - lo + 1) / F : 0;
  const chain = term.explode ? (term.explode.once ? 1 : MAX_EXPLOSIONS) : 0;
  // Depth of the chain followed: explode while the next explosion keeps more than TAIL.
  let depth = 0;
  for (let mass = 1; depth < chain && mass * pe > TAIL; depth++) mass *= pe;
  const out = budget.alloc(1, (depth + 1) * F);
  let frontier = point(0, budget);
  const w = 1 / F;
  for (let d = 0; d < depth; d++) {
    addFaces(out, frontier, 1, lo - 1, w, budget);
    addFaces(out, frontier, hi + 1, F, w, budget);
    const next = budget.alloc(frontier.min + lo, frontier.len + hi - lo);
    addFaces(next, frontier, lo, hi, w, budget);
    frontier = next;
  }
  addFaces(out, frontier, 1, F, w, budget);
  return out;
}

/** The distribution of `A + B` for independent A and B. */
function convolveDense(a: Dense, b: Dense, budget: Budget): Dense {
  const out = budget.alloc(a.min + b.min, a.len + b.len - 1);
  budget.spend(a.len * b.len);
  if (!out.p || !a.p || !b.p) return out;
  for (let i = 0; i < a.len; i++) {
    const pa = a.p[i]!;
    if (pa === 0) continue;
    for (let j = 0; j < b.len; j++) out.p[i + j]! += pa * b.p[j]!;
  }
  return out;
}

/** The certain total `at`. */
function point(at: number, budget: Budget): Dense {
  return { min: at, len: 1, p: budget.dry ? null : new Float64Array([1]) };
}

/** The distribution of `-X`. */
function negate(d: Dense): Dense {
  return { min: -(d.min + d.len - 1), len: d.len, p: d.p ? d.p.slice().reverse() : null };
}

/** Converts to a {@link Pmf}: ascending totals, impossible totals left out. */
function toPmf(d: Dense): Pmf {
  const pmf: Pmf = new Map();
  if (!d.p) return pmf;
  for (let i = 0; i < d.len; i++) if (d.p[i]! > 0) pmf.set(d.min + i, d.p[i]!);
  return pmf;
}

/** Runs the computation of a formula's distribution against `budget` (counting only when dry). */
function compute(parsed: Readonly<ParsedFormula>, budget: Budget): Dense {
  let acc = point(0, budget);
  for (const term of parsed.terms) {
    if (term.kind === "constant") {
      acc = { ...acc, min: acc.min + term.sign * term.value };
      continue;
    }
    const die = singleDie(term, budget);
    const one = term.sign < 0 ? negate(die) : die;
    for (let i = 0; i < term.count; i++) acc = convolveDense(acc, one, budget);
  }
  return acc;
}

/** Convolution of two PMFs (the distribution of a sum of independent totals). */
export function convolve(a: Pmf, b: Pmf): Pmf {
  const out: Pmf = new Map();
  for (const [x, px] of a) for (const [y, py] of b) out.set(x + y, (out.get(x + y) ?? 0) + px * py);
  return out;
}

/** Shifts and optionally negates a PMF: the distribution of `sign * X + offset`. */
export function shift(pmf: Pmf, offset: number, sign: 1 | -1 = 1): Pmf {
  const out: Pmf = new Map();
  for (const [x, p] of pmf) out.set(sign * x + offset, p);
  return out;
}

/** A distribution with the work it took: `steps` multiply-adds, `support` its widest table. */
export interface MeasuredDistribution {
  pmf: Pmf;
  steps: number;
  support: number;
}

/**
 * The exact distribution of a formula's total, with the work it took (see {@link distribution}).
 * @throws FrayError as {@link distribution}.
 */
export function measureDistribution(formula: string | ParsedFormula | CompiledFormula): MeasuredDistribution {
  let parsed: Readonly<ParsedFormula>;
  if (formula instanceof CompiledFormula) parsed = formula.parsed;
  else if (typeof formula === "object" && formula !== null && Array.isArray((formula as Partial<ParsedFormula>).terms)) {
    checkParsed(formula);
    parsed = formula;
  } else parsed = compileFormula(formula).parsed;
  const shown = parsed.source.length > 40 ? `${parsed.source.slice(0, 39)}…` : parsed.source;
  // Count first, so a formula beyond the bounds is refused before any work is done.
  compute(parsed, new Budget(shown, true));
  const budget = new Budget(shown, false);
  const acc = compute(parsed, budget);
  return { pmf: toPmf(acc), steps: budget.steps, support: Math.max(budget.support, acc.len) };
}

/**
 * The exact distribution of a formula's total (`1d10 + 5`, `2d6`, `2d10x10 + 3`), totals
 * ascending. Work is bounded by {@link DISTRIBUTION_LIMITS}.
 * @param formula formula text, a parsed formula (checked against the formula limits) or a
 *   compiled one.
 * @throws FrayError the formula errors of `parseFormula` (`FRAY.Error.Formula`,
 *   `FRAY.Error.Dice.*`), and `FRAY.Error.Dice.DistributionWork` /
 *   `FRAY.Error.Dice.DistributionSupport` naming the formula when its exact distribution would
 *   pass the bounds of work.
 */
export function distribution(formula: string | ParsedFormula | CompiledFormula): Pmf {
  return measureDistribution(formula).pmf;
}

/** P(X >= threshold). */
export function atLeast(pmf: Pmf, threshold: number): number {
  let p = 0;
  for (const [x, q] of pmf) if (x >= threshold) p += q;
  return p;
}

/** Expected value of a PMF. */
export function mean(pmf: Pmf): number {
  let m = 0;
  for (const [x, q] of pmf) m += x * q;
  return m;
}

/**
 * The exact distribution of `count` plain dice of `sides` faces plus `offset` (`2d6`,
 * `1d10 + 3`), without parsing a formula: the same sums in the same order as
 * {@link distribution} of that formula, so equal to it bit for bit, but with nothing cold to run
 * on a first call (the exact odds of a dialog, issue 14). Built per call; callers keep the ones
 * they reuse. Totals ascending, impossible totals left out.
 * @param count dice, a whole number from 1 to 100.
 * @param sides faces per die, a whole number from 2 to 1000 (as a formula allows).
 * @throws FrayError `FRAY.Error.Field` naming `count` or `sides` when out of bounds.
 */
export function plainDicePmf(count: number, sides: number, offset = 0): Pmf {
  if (!Number.isInteger(count) || count < 1 || count > 100)
    throw new FrayError("FRAY.Error.Field", { field: "count", expected: "a whole number from 1 to 100" }, `Bad dice count ${count}`);
  if (!Number.isInteger(sides) || sides < 2 || sides > 1000)
    throw new FrayError("FRAY.Error.Field", { field: "sides", expected: "a whole number from 2 to 1000" }, `Bad die size ${sides}`);
  const w = 1 / sides;
  // One die: each face 0 + 1 * w, as `singleDie` adds it.
  const die = new Float64Array(sides).fill(w);
  let acc = new Float64Array([1]);
  for (let n = 0; n < count; n++) {
    const out = new Float64Array(acc.length + sides - 1);
    for (let i = 0; i < acc.length; i++) {
      const pa = acc[i]!;
      if (pa === 0) continue;
      for (let j = 0; j < sides; j++) out[i + j]! += pa * die[j]!;
    }
    acc = out;
  }
  // The lowest total of `count` dice is `count`.
  const pmf: Pmf = new Map();
  for (let i = 0; i < acc.length; i++) if (acc[i]! > 0) pmf.set(count + i + offset, acc[i]!);
  return pmf;
}
