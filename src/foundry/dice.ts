/**
 * The Foundry side of the rules core's dice port: formulas are rolled as real `Roll`s so chat
 * messages carry them (dice tooltips, Dice So Nice and other roll listeners keep working). The
 * outcomes handed to the core are plain JSON-safe data; the Rolls travel beside them, in
 * `FoundryRoller.rolls`, never inside.
 */
import { compileFormula } from "../rules/core/dice/formula.js";
import type { DiceRoller } from "../rules/core/dice/port.js";
import type { DiceTermResult, RollOutcome } from "../rules/core/types.js";

/** What the adapter reads from a rolled term; Foundry's Die, NumericTerm and OperatorTerm fit. */
interface TermLike {
  faces?: number | null;
  results?: { result: number }[];
  number?: number | null;
  operator?: string;
}

/**
 * Reads a rolled `Roll` into the rules core's shape: every dice term with its faces and each
 * result in order (exploded re-rolls included, in the order Foundry rolled them), and the sum
 * of the constant terms with their signs.
 * @param roll an evaluated Roll.
 */
export function outcomeFromRoll(roll: Roll): RollOutcome {
  const dice: DiceTermResult[] = [];
  let constant = 0;
  let sign = 1;
  for (const term of roll.terms as unknown as TermLike[]) {
    if (typeof term.operator === "string") {
      sign = term.operator === "-" ? -sign : 1;
      continue;
    }
    if (Array.isArray(term.results) && typeof term.faces === "number") {
      dice.push({ faces: term.faces, results: term.results.map((r) => r.result) });
    } else if (typeof term.number === "number") {
      constant += sign * term.number;
    }
    sign = 1;
  }
  return { formula: roll.formula, total: roll.total ?? 0, dice, constant };
}

/**
 * A {@link DiceRoller} that evaluates each formula as a Foundry `Roll` and keeps every Roll, in
 * order, for the chat message. `rolls[i]` is the Roll of the i-th outcome returned.
 */
export class FoundryRoller implements DiceRoller {
  /** Every Roll evaluated so far, in order. */
  readonly rolls: Roll[] = [];
  /** The purpose (an i18n key such as `FRAY.Roll.Attack`) of each roll, same order as `rolls`. */
  readonly purposes: (string | undefined)[] = [];

  /**
   * Rolls `formula` (Foundry dice syntax, e.g. `1d10 + 6`, `2d10x10 + 3`).
   * The formula is checked against Fray's formula limits first (the same check the sheets and
   * the core's rollers make), so a formula refused there is never handed to Foundry.
   * @param purpose i18n key describing the roll; becomes the Roll's flavor once localized.
   * @throws FrayError `FRAY.Error.Formula` or `FRAY.Error.Dice.*` naming a refused formula.
   */
  async roll(formula: string, purpose?: string): Promise<RollOutcome> {
    compileFormula(formula);
    const roll = await new Roll(formula).evaluate();
    if (purpose && game.i18n) (roll.options as { flavor?: string }).flavor = game.i18n.localize(purpose);
    this.rolls.push(roll);
    this.purposes.push(purpose);
    return outcomeFromRoll(roll);
  }
}
