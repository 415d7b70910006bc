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

const TERM = /^(\d*)d(\d+)(?:(xo|x)(>=|<=|>|<|=)?(\d+)?)?$|^(\d+)$/i;

/**
 * Parses a formula such as `2d10x10 + 3`, `1d100x>95`, `2d6`, `1d10 - 2`.
 * @throws FrayError `FRAY.Error.Formula` naming the formula when it is malformed.
 */
export function parseFormula(formula: string): ParsedFormula {
  const source = formula.trim();
  const bad = () =>
    new FrayError("FRAY.Error.Formula", { formula }, `Malformed dice formula "${formula}"`);
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
    if (count < 1 || count > 100 || faces < 2 || faces > 1000) throw bad();
    const term: DiceTerm = { kind: "dice", sign, count, faces };
    if (m[3]) {
      const op = (m[4] ?? (m[5] ? "=" : ">=")) as Comparison["op"];
      const value = m[5] ? Number(m[5]) : faces;
      const on = { op, value };
      // An explode condition that every face meets would never stop.
      if (Array.from({ length: faces }, (_, i) => i + 1).every((f) => compare(f, on))) throw bad();
      term.explode = { on, once: m[3].toLowerCase() === "xo" };
    }
    terms.push(term);
  }
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
 * explosion right after the die that triggered it.
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
