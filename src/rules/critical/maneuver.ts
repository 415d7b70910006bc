import type { DiceRoller } from "../core/dice/port.js";
import { FrayError } from "../core/errors.js";
import { sumModifiers, type CheckResult, type LastingEffect, type Modifier } from "../core/types.js";
import { OPEN_ENDED_D100, woundPenalty } from "./attack.js";
import { isIncapacitated, type CriticalCombatant } from "./model.js";
import type { CriticalOptions } from "./options.js";

/** A maneuver about to be rolled (CR-MAN-01). */
export interface ManeuverInput {
  /** Skill bonus for this maneuver, added to the combatant's general maneuver bonus. */
  bonus?: number;
  /** The GM's difficulty, usually negative (outrunning someone, a long leap ...). */
  difficulty?: number;
  /** A concentration maneuver: not possible while stunned (CR-STN-01). */
  concentration?: boolean;
}

/** What a maneuver below 100% does (CR-MAN-01). */
export type ManeuverOutcome = "success" | "gm" | "incomplete" | "penalty";

/** A rolled maneuver. */
export interface ManeuverResult {
  rule: "CR-MAN-01";
  check: CheckResult;
  /** The result as a percentage: the check's total. */
  percent: number;
  success: boolean;
  /** `gm` when the GM still has to choose between `incomplete` and `penalty`. */
  outcome: ManeuverOutcome;
  /** With `penalty`: the modifier to the next action, the shortfall below 100 (80% gives -20). */
  penalty?: number;
}

/** True when the combatant can use concentration maneuvers, gifts and meditations: not stunned, not out (CR-STN-01). */
export function canConcentrate(c: CriticalCombatant): boolean {
  return c.stun <= 0 && !isIncapacitated(c);
}

/**
 * Rolls a maneuver (CR-MAN-01, RULES.md): the open-ended d100 plus the maneuver bonus, the
 * skill bonus, the GM's difficulty, armor's maneuver penalties and wound penalties, read as a
 * percentage. 100 or more completes it; below 100 the outcome follows the shortfall setting:
 * the GM decides (`gm`), it is not completed, or it completes with the shortfall as a penalty
 * to the next action.
 * @throws FrayError `FRAY.Error.CannotAct` for a combatant out of the fight,
 *   `FRAY.Error.StunnedConcentration` for a concentration maneuver while stunned (CR-STN-01).
 */
export async function rollManeuver(
  c: CriticalCombatant,
  input: ManeuverInput,
  dice: DiceRoller,
  options: Pick<CriticalOptions, "maneuverShortfall">,
): Promise<ManeuverResult> {
  if (isIncapacitated(c)) throw new FrayError("FRAY.Error.CannotAct", { actor: c.name }, `${c.name} cannot act`);
  if (input.concentration && !canConcentrate(c))
    throw new FrayError("FRAY.Error.StunnedConcentration", { actor: c.name }, `${c.name} is stunned and cannot concentrate`);
  const mods: Modifier[] = [];
  if (c.maneuver) mods.push({ label: "FRAY.Mod.ManeuverBonus", value: c.maneuver, rule: "CR-MAN-01" });
  if (input.bonus) mods.push({ label: "FRAY.Mod.ManeuverSkill", value: input.bonus, rule: "CR-MAN-01" });
  if (input.difficulty) mods.push({ label: "FRAY.Mod.ManeuverDifficulty", value: input.difficulty, rule: "CR-MAN-01" });
  for (const a of c.armor)
    if (a.maneuverPenalty)
      mods.push({ label: "FRAY.Mod.ArmorManeuver", value: a.maneuverPenalty, rule: "CR-MAN-01", data: { armor: a.name } });
  const penalty = woundPenalty(c);
  if (penalty) mods.push({ label: "FRAY.Mod.WoundPenalty", value: penalty, rule: "CR-CRT-02" });
  const roll = await dice.roll(OPEN_ENDED_D100, "FRAY.Roll.Maneuver");
  const total = roll.total + sumModifiers(mods);
  const check: CheckResult = { roll, natural: roll.total, modifiers: mods, total };
  if (total >= 100) return { rule: "CR-MAN-01", check, percent: total, success: true, outcome: "success" };
  return settleManeuver({ rule: "CR-MAN-01", check, percent: total, success: false, outcome: "gm" }, options.maneuverShortfall);
}

/**
 * Settles a maneuver below 100% (CR-MAN-01): `incomplete` (not done), `penalty` (done, with the
 * shortfall as a penalty to the next action), or `gm` (left open for the GM). A success stays a
 * success.
 */
export function settleManeuver(result: ManeuverResult, choice: ManeuverOutcome): ManeuverResult {
  if (result.success) return result;
  if (choice === "penalty") return { ...result, outcome: "penalty", penalty: Math.min(0, result.percent - 100) };
  const rest: ManeuverResult = { ...result, outcome: choice === "incomplete" ? "incomplete" : "gm" };
  delete rest.penalty;
  return rest;
}

/**
 * The penalty of a maneuver completed below 100%, as a lasting effect on the maneuvering
 * combatant for the rest of this round (CR-MAN-01); undefined when there is none.
 */
export function maneuverPenaltyEffect(result: ManeuverResult, id = "maneuver-1"): LastingEffect | undefined {
  if (result.outcome !== "penalty" || !result.penalty) return undefined;
  return { id, kind: "penalty", rule: "CR-MAN-01", label: "FRAY.Critical.Effect.maneuverPenalty", value: result.penalty, rounds: 1 };
}
