import type { DiceRoller } from "../core/dice/port.js";
import { FrayError } from "../core/errors.js";
import { sumModifiers, type CheckResult, type LastingEffect, type Modifier } from "../core/types.js";
import { OPEN_ENDED_D100, woundPenalty } from "./attack.js";
import { fieldError, isIncapacitated, type CriticalCombatant } from "./model.js";
import type { CriticalOptions } from "./options.js";
import { isDying, stabilize } from "./damage.js";

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
 * Whether a combatant may try a maneuver at all (CR-MAN-01, CR-STN-01), before anything is
 * spent or rolled.
 * @throws FrayError `FRAY.Error.CannotAct` for a combatant out of the fight,
 *   `FRAY.Error.StunnedConcentration` for a concentration maneuver while stunned.
 */
export function checkManeuver(c: CriticalCombatant, input: Pick<ManeuverInput, "concentration">): void {
  if (isIncapacitated(c)) throw new FrayError("FRAY.Error.CannotAct", { actor: c.name }, `${c.name} cannot act`);
  if (input.concentration && !canConcentrate(c))
    throw new FrayError("FRAY.Error.StunnedConcentration", { actor: c.name }, `${c.name} is stunned and cannot concentrate`);
}

/** The bounds of the GM's difficulty of a maneuver, as of an attack's situational modifier. */
export const MANEUVER_DIFFICULTY = { min: -200, max: 200 } as const;

/**
 * A maneuver's input from the sheet's form (CR-MAN-01): `skill` one of the combatant's skills
 * (its OB is the skill bonus) or empty for none, `difficulty` a whole number from -200 to 200
 * (empty for 0), `concentration` a flag.
 * @throws FrayError `FRAY.Error.Field` naming `skill` or `difficulty`.
 */
export function maneuverInputOf(
  c: CriticalCombatant,
  raw: { skill?: unknown; difficulty?: unknown; concentration?: unknown },
): ManeuverInput & { skill?: string } {
  const skill = raw.skill === undefined || raw.skill === "" ? undefined : raw.skill;
  if (skill !== undefined && (typeof skill !== "string" || !Object.hasOwn(c.skills, skill)))
    throw fieldError("skill", `one of ${Object.keys(c.skills).join(", ") || "no skills"}`);
  const text = raw.difficulty === undefined || raw.difficulty === "" ? "0" : String(raw.difficulty).trim();
  const difficulty = Number(text);
  if (!/^[-+]?\d+$/.test(text) || difficulty < MANEUVER_DIFFICULTY.min || difficulty > MANEUVER_DIFFICULTY.max)
    throw fieldError("difficulty", `a whole number from ${MANEUVER_DIFFICULTY.min} to ${MANEUVER_DIFFICULTY.max}`);
  return {
    ...(skill !== undefined ? { skill, bonus: c.skills[skill as string]! } : {}),
    ...(difficulty ? { difficulty } : {}),
    ...(raw.concentration === true ? { concentration: true } : {}),
  };
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
  checkManeuver(c, input);
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

/** What first aid to a dying combatant came to: the medic's maneuver and the patient after it. */
export interface FirstAidResult {
  /** The first-aid maneuver (its roll, lines and percentage). */
  maneuver: ManeuverResult;
  /** The patient: no longer counting down to death when the maneuver succeeded, else unchanged. */
  patient: CriticalCombatant;
}

/**
 * First aid to a dying combatant (CR-DTH-01, RULES.md "First aid"): the medic's maneuver with
 * their First Aid skill, which saves only at 100% or more whatever the shortfall setting; a save
 * stops the countdown to death. The one step the encounter runner and the Foundry GM both play.
 * @throws FrayError `FRAY.Error.NotDying` when the patient is not dying (checked before any die is
 *   rolled); those of {@link rollManeuver} for a medic who cannot act.
 */
export async function firstAid(medic: CriticalCombatant, patient: CriticalCombatant, dice: DiceRoller): Promise<FirstAidResult> {
  if (!isDying(patient)) throw new FrayError("FRAY.Error.NotDying", { actor: patient.name }, `${patient.name} is not dying`);
  const maneuver = await rollManeuver(medic, { bonus: medic.skills.firstAid ?? 0 }, dice, { maneuverShortfall: "incomplete" });
  return { maneuver, patient: maneuver.success ? stabilize(patient) : patient };
}
