import { FrayError } from "../errors.js";
import type { DiceTermResult, RollOutcome } from "../types.js";

/** A comparison used by explode modifiers: `x>95` explodes on 96-100. */
export interface Comparison {
  op: ">" | ">=" | "<" | "<=" | "=";
  value: number;
}

/** A dice term `NdF` with an optional explode modifier (`x`, `xN`, `x>N`, `xo` ...). */
export interface DiceTerm {
  kind: "dice";
  sign: 1 | -1;
  count: number;
  faces: number;
  /** When set, a die whose face matches is rolled again and added. */
  explode?: { on: Comparison; once: boolean };
}

/** A constant term. */
export interface ConstantTerm {
  kind: "constant";
  sign: 1 | -1;
  value: number;
}

export type FormulaTerm = DiceTerm | ConstantTerm;

/** A parsed formula: the subset of Foundry's dice syntax the rulesets use. */
export interface ParsedFormula {
  source: string;
  terms: FormulaTerm[];
}

/** Explosions per die stop after this many re-rolls (Foundry applies the same kind of cap). */
export const MAX_EXPLOSIONS = 100;

/**
 * The limits every dice formula must keep (RULES.md, "Input limits"). They are rules of the
 * formula, not of one roller: Foundry's `Roll` rolls the same formulas in play, so a formula
 * outside them is refused before any host rolls it.
 * - `maxLength`: characters of the formula text.
 * - `maxTerms`: dice and constant terms.
 * - `maxDice`: dice of one term and of the whole formula together (before explosions).
 * - `minFaces` / `maxFaces`: faces of one die.
 * - `maxNumber`: largest constant and largest explosion comparison value.
 * - `maxExplodeChance`: largest share of a die's faces that may explode again and again (`x`);
 *   at 1/2 a chain of 50 re-rolls has a chance below 1e-15. `xo` explodes at most once and may
 *   explode on any face.
 */
export const FORMULA_LIMITS = Object.freeze({
  maxLength: 200,
  maxTerms: 20,
  maxDice: 100,
  minFaces: 2,
  maxFaces: 1000,
  maxNumber: 1_000_000,
  maxExplodeChance: 0.5,
});

const TERM = /^(\d*)d(\d+)(?:(xo|x)(?:(>=|<=|>|<|=)?(\d+))?)?$|^(\d+)$/i;

/** The shown form of a formula in an error: at most 40 characters. */
function shown(formula: string): string {
  return formula.length > 40 ? `${formula.slice(0, 39)}…` : formula;
}

/** A word for the type of a value that is not a formula (`number`, `null`, `array` ...). */
function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/**
 * The faces `lo..hi` of a die with `faces` faces that meet `on` (`lo > hi` when none does).
 * Every comparison of the syntax selects one run of neighbouring faces.
 */
export function explodeRange(faces: number, on: Comparison): { lo: number; hi: number } {
  let lo: number;
  let hi: number;
  switch (on.op) {
    case ">":
      [lo, hi] = [on.value + 1, faces];
      break;
    case ">=":
      [lo, hi] = [on.value, faces];
      break;
    case "<":
      [lo, hi] = [1, on.value - 1];
      break;
    case "<=":
      [lo, hi] = [1, on.value];
      break;
    default:
      [lo, hi] = [on.value, on.value];
  }
  return { lo: Math.max(lo, 1), hi: Math.min(hi, faces) };
}

/** The chance (0..1) that one roll of the die explodes: the share of its faces that meet `on`. */
export function explodeChance(faces: number, on: Comparison): number {
  const { lo, hi } = explodeRange(faces, on);
  return hi >= lo ? (hi - lo + 1) / faces : 0;
}

/**
 * Checks the terms of a formula against {@link FORMULA_LIMITS}.
 * @throws FrayError `FRAY.Error.Dice.Count`, `.Faces`, `.Number`, `.Explosive` or
 *   `.TooManyTerms` naming the formula and the bound it breaks.
 */
function checkTerms(source: string, terms: readonly FormulaTerm[]): void {
  const formula = shown(source);
  const L = FORMULA_LIMITS;
  if (terms.length > L.maxTerms) {
    throw new FrayError(
      "FRAY.Error.Dice.TooManyTerms",
      { formula, terms: terms.length, max: L.maxTerms },
      `Dice formula "${formula}" has ${terms.length} terms; at most ${L.maxTerms} are allowed`,
    );
  }
  const badNumber = (value: number) =>
    new FrayError(
      "FRAY.Error.Dice.Number",
      { formula, value, max: L.maxNumber },
      `Dice formula "${formula}": the number ${value} is out of range (expected 0 to ${L.maxNumber})`,
    );
  const badCount = (count: number) =>
    new FrayError(
      "FRAY.Error.Dice.Count",
      { formula, count, max: L.maxDice },
      `Dice formula "${formula}" rolls ${count} dice; expected 1 to ${L.maxDice}`,
    );
  let dice = 0;
  for (const term of terms) {
    if (term.kind === "constant") {
      if (!Number.isSafeInteger(term.value) || term.value < 0 || term.value > L.maxNumber) throw badNumber(term.value);
      continue;
    }
    if (!Number.isSafeInteger(term.count) || term.count < 1 || term.count > L.maxDice) throw badCount(term.count);
    dice += term.count;
    if (!Number.isSafeInteger(term.faces) || term.faces < L.minFaces || term.faces > L.maxFaces) {
      throw new FrayError(
        "FRAY.Error.Dice.Faces",
        { formula, faces: term.faces, min: L.minFaces, max: L.maxFaces },
        `Dice formula "${formula}": a d${term.faces}; expected ${L.minFaces} to ${L.maxFaces} faces`,
      );
    }
    if (!term.explode) continue;
    const { on, once } = term.explode;
    if (!Number.isSafeInteger(on.value) || on.value < 0 || on.value > L.maxNumber) throw badNumber(on.value);
    const chance = explodeChance(term.faces, on);
    if (!once && chance > L.maxExplodeChance) {
      const percent = (p: number) => String(Math.round(p * 1000) / 10);
      throw new FrayError(
        "FRAY.Error.Dice.Explosive",
        { formula, faces: term.faces, chance: percent(chance), max: percent(L.maxExplodeChance) },
        `Dice formula "${formula}": a d${term.faces} that explodes on ${percent(chance)}% of its faces; at most ${percent(L.maxExplodeChance)}% are allowed`,
      );
    }
  }
  if (dice > L.maxDice) throw badCount(dice);
}

/**
 * Parses a formula such as `2d10x10 + 3`, `1d100x>95`, `2d6`, `1d10 - 2` into fresh terms, and
 * checks it against {@link FORMULA_LIMITS}. `xN` explodes on N, a bare `x` on the highest face.
 * @param formula the formula text; anything else is refused.
 * @throws FrayError `FRAY.Error.Dice.NotText` when `formula` is not a string,
 *   `FRAY.Error.Dice.TooLong` when it is longer than `maxLength`, `FRAY.Error.Formula` naming
 *   the formula when it is malformed, and the errors of the limits (`FRAY.Error.Dice.*`).
 */
export function parseFormula(formula: unknown): ParsedFormula {
  if (typeof formula !== "string") {
    const type = typeName(formula);
    throw new FrayError("FRAY.Error.Dice.NotText", { type }, `A dice formula must be text such as 2d6 + 1, not ${type}`);
  }
  const max = FORMULA_LIMITS.maxLength;
  if (formula.length > max) {
    throw new FrayError(
      "FRAY.Error.Dice.TooLong",
      { formula: shown(formula), length: formula.length, max },
      `Dice formula "${shown(formula)}" has ${formula.length} characters; at most ${max} are allowed`,
    );
  }
  const source = formula.trim();
  const bad = () =>
    new FrayError("FRAY.Error.Formula", { formula }, `Malformed dice formula "${formula}" (expected e.g. 2d6 + 1 or 1d10x10)`);
  if (!source) throw bad();
  const compact = source.replace(/\s+/g, "");
  const parts = compact.match(/[+-]?[^+-]+/g);
  if (!parts || parts.join("") !== compact) throw bad();
  const terms: FormulaTerm[] = [];
  for (const part of parts) {
    const sign: 1 | -1 = part.startsWith("-") ? -1 : 1;
    const body = part.replace(/^[+-]/, "");
    const m = TERM.exec(body);
    if (!m) throw bad();
    if (m[6] !== undefined) {
      terms.push({ kind: "constant", sign, value: Number(m[6]) });
      continue;
    }
    const count = m[1] === "" ? 1 : Number(m[1]);
    const faces = Number(m[2]);
    const term: DiceTerm = { kind: "dice", sign, count, faces };
    if (m[3]) {
      const op = (m[4] ?? (m[5] ? "=" : ">=")) as Comparison["op"];
      const value = m[5] ? Number(m[5]) : faces;
      term.explode = { on: { op, value }, once: m[3].toLowerCase() === "xo" };
    }
    terms.push(term);
  }
  checkTerms(source, terms);
  return { source, terms };
}

/** True when `face` meets the comparison. */
export function compare(face: number, c: Comparison): boolean {
  switch (c.op) {
    case ">":
      return face > c.value;
    case ">=":
      return face >= c.value;
    case "<":
      return face < c.value;
    case "<=":
      return face <= c.value;
    default:
      return face === c.value;
  }
}

/** A source of single die faces: given the number of faces, returns a face 1..faces. */
export type FaceSource = (faces: number) => number;

/**
 * Evaluates a parsed formula with faces drawn from `next`, in order: each die of a term, each
 * explosion right after the die that triggered it. The plain reference evaluator; rollers use
 * the same order through {@link CompiledFormula}.
 */
export function evaluateFormula(parsed: ParsedFormula, next: FaceSource): RollOutcome {
  const dice: DiceTermResult[] = [];
  let total = 0;
  let constant = 0;
  for (const term of parsed.terms) {
    if (term.kind === "constant") {
      constant += term.sign * term.value;
      total += term.sign * term.value;
      continue;
    }
    const results: number[] = [];
    for (let i = 0; i < term.count; i++) {
      let face = next(term.faces);
      results.push(face);
      let explosions = 0;
      while (term.explode && compare(face, term.explode.on) && explosions < MAX_EXPLOSIONS) {
        face = next(term.faces);
        results.push(face);
        explosions++;
        if (term.explode.once) break;
      }
    }
    dice.push({ faces: term.faces, results });
    total += term.sign * results.reduce((a, b) => a + b, 0);
  }
  return { formula: parsed.source, total, dice, constant };
}

/** Freezes a parsed formula and everything in it. */
function freezeParsed(parsed: ParsedFormula): Readonly<ParsedFormula> {
  for (const term of parsed.terms) {
    if (term.kind === "dice" && term.explode) {
      Object.freeze(term.explode.on);
      Object.freeze(term.explode);
    }
    Object.freeze(term);
  }
  Object.freeze(parsed.terms);
  return Object.freeze(parsed);
}

/**
 * A formula parsed and checked once, laid out in flat arrays so that rolling it allocates
 * nothing per die. Faces are drawn in the same order as {@link evaluateFormula}, so the same
 * faces give the same outcome. Build it with {@link compileFormula}.
 */
export class CompiledFormula {
  /** The trimmed formula text, as in `RollOutcome.formula`. */
  readonly source: string;
  /** The parsed terms, frozen. */
  readonly parsed: Readonly<ParsedFormula>;
  /** Sum of the constant terms with their signs. */
  readonly constant: number;
  /** Dice terms in order (constant terms are folded into `constant`). */
  readonly diceTerms: number;
  private readonly sign: Int8Array;
  private readonly count: Int32Array;
  private readonly faces: Int32Array;
  /** Exploding faces `lo..hi` of each dice term; `lo > hi` when it never explodes. */
  private readonly lo: Int32Array;
  private readonly hi: Int32Array;
  /** Re-rolls allowed per die: {@link MAX_EXPLOSIONS}, 1 for `xo`, 0 without explosion. */
  private readonly maxChain: Int32Array;

  /** @param parsed a formula already checked by {@link parseFormula}. */
  constructor(parsed: ParsedFormula) {
    this.parsed = freezeParsed(parsed);
    this.source = parsed.source;
    const dice = parsed.terms.filter((t): t is DiceTerm => t.kind === "dice");
    this.diceTerms = dice.length;
    this.constant = parsed.terms.reduce((sum, t) => (t.kind === "constant" ? sum + t.sign * t.value : sum), 0);
    const n = dice.length;
    this.sign = new Int8Array(n);
    this.count = new Int32Array(n);
    this.faces = new Int32Array(n);
    this.lo = new Int32Array(n);
    this.hi = new Int32Array(n);
    this.maxChain = new Int32Array(n);
    dice.forEach((t, i) => {
      this.sign[i] = t.sign;
      this.count[i] = t.count;
      this.faces[i] = t.faces;
      const range = t.explode ? explodeRange(t.faces, t.explode.on) : { lo: 1, hi: 0 };
      this.lo[i] = range.lo;
      this.hi[i] = range.hi;
      this.maxChain[i] = t.explode ? (t.explode.once ? 1 : MAX_EXPLOSIONS) : 0;
    });
  }

  /**
   * Rolls the formula and returns only its total: no outcome is built and nothing is
   * allocated. The fast path for many rolls (forecasts, benchmarks).
   * @param next face source, called once per die and once per explosion, in order.
   */
  total(next: FaceSource): number {
    let total = this.constant;
    for (let t = 0; t < this.diceTerms; t++) {
      const faces = this.faces[t]!;
      const lo = this.lo[t]!;
      const hi = this.hi[t]!;
      const chain = this.maxChain[t]!;
      let sum = 0;
      for (let i = this.count[t]!; i > 0; i--) {
        let face = next(faces);
        sum += face;
        for (let k = 0; k < chain && face >= lo && face <= hi; k++) {
          face = next(faces);
          sum += face;
        }
      }
      total += this.sign[t]! * sum;
    }
    return total;
  }

  /**
   * Rolls the formula and returns the full outcome (every face of every term). Allocates only
   * the outcome itself.
   * @param next face source, called once per die and once per explosion, in order.
   */
  roll(next: FaceSource): RollOutcome {
    const dice: DiceTermResult[] = new Array<DiceTermResult>(this.diceTerms);
    let total = this.constant;
    for (let t = 0; t < this.diceTerms; t++) {
      const faces = this.faces[t]!;
      const lo = this.lo[t]!;
      const hi = this.hi[t]!;
      const chain = this.maxChain[t]!;
      const results: number[] = [];
      let sum = 0;
      for (let i = this.count[t]!; i > 0; i--) {
        let face = next(faces);
        results.push(face);
        sum += face;
        for (let k = 0; k < chain && face >= lo && face <= hi; k++) {
          face = next(faces);
          results.push(face);
          sum += face;
        }
      }
      dice[t] = { faces, results };
      total += this.sign[t]! * sum;
    }
    return { formula: this.source, total, dice, constant: this.constant };
  }
}

/** Compiled formulas by formula text; the oldest entry leaves when the cache is full. */
const cache = new Map<string, CompiledFormula>();

/** Formulas kept compiled at most (a table's worth of weapons and checks many times over). */
export const FORMULA_CACHE_SIZE = 1024;

/**
 * Parses and checks a formula once per process and returns its {@link CompiledFormula}; later
 * calls with the same text return the same object. Refused formulas are not cached.
 * @param formula the formula text (see {@link parseFormula}).
 * @throws FrayError as {@link parseFormula}.
 */
export function compileFormula(formula: unknown): CompiledFormula {
  if (typeof formula === "string") {
    const hit = cache.get(formula);
    if (hit) return hit;
  }
  const compiled = new CompiledFormula(parseFormula(formula));
  if (cache.size >= FORMULA_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(formula as string, compiled);
  return compiled;
}

/**
 * Checks already parsed terms against {@link FORMULA_LIMITS}: for a {@link ParsedFormula}
 * built by hand rather than by {@link parseFormula}.
 * @throws FrayError as {@link parseFormula}.
 */
export function checkParsed(parsed: ParsedFormula): void {
  checkTerms(parsed.source, parsed.terms);
}
