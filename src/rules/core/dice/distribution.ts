import { compare, parseFormula, type DiceTerm, type ParsedFormula } from "./formula.js";

/**
 * A probability mass function over integer totals. Exact for formulas without explosions; for
 * exploding dice, chains are followed until the remaining probability is below 1e-15, so the
 * result is exact to well past any displayed precision.
 */
export type Pmf = Map<number, number>;

const TAIL = 1e-15;

/** The PMF of a single die term (one die, explosions included). */
function singleDie(term: DiceTerm): Pmf {
  const pmf: Pmf = new Map();
  const p = 1 / term.faces;
  // Each state: accumulated total and probability of the chain so far.
  let frontier: [number, number][] = [[0, 1]];
  let depth = 0;
  while (frontier.length) {
    const next: [number, number][] = [];
    for (const [acc, prob] of frontier) {
      for (let f = 1; f <= term.faces; f++) {
        const total = acc + f;
        const q = prob * p;
        const explodes =
          term.explode && compare(f, term.explode.on) && !(term.explode.once && depth >= 1);
        if (explodes && q > TAIL) next.push([total, q]);
        else pmf.set(total, (pmf.get(total) ?? 0) + q);
      }
    }
    frontier = next;
    depth++;
  }
  return pmf;
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

/** The exact distribution of a formula's total (`1d10 + 5`, `2d6`, `2d10x10 + 3`). */
export function distribution(formula: string | ParsedFormula): Pmf {
  const parsed = typeof formula === "string" ? parseFormula(formula) : formula;
  let pmf: Pmf = new Map([[0, 1]]);
  for (const term of parsed.terms) {
    if (term.kind === "constant") {
      pmf = shift(pmf, term.sign * term.value);
      continue;
    }
    const one = shift(singleDie(term), 0, term.sign);
    for (let i = 0; i < term.count; i++) pmf = convolve(pmf, one);
  }
  return pmf;
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
