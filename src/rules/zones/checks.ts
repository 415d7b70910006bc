import { atLeast, plainDicePmf, shift, type Pmf } from "../core/dice/distribution.js";
import type { DiceRoller } from "../core/dice/port.js";
import { FrayError } from "../core/errors.js";
import { sumModifiers, type CheckResult, type Modifier, type RuleId } from "../core/types.js";
import { SKILL_ATTRIBUTES, type AttributeId, type SkillId, type ZonesCombatant, type ZonesWeapon } from "./model.js";

/** The die of every Zones check (ZN-RNG-08, ZN-REA-02, ZN-INI-01). */
export const CHECK_DIE = "1d10";

/**
 * One attribute modifier line of a check (ZN-RNG-08, ZN-INI-01, ZN-REA-02, ZN-MEL-04): the
 * combatant's modifier for that attribute, labelled `FRAY.Mod.Zones.Attribute`.
 */
export function attributeLine(c: ZonesCombatant, attribute: AttributeId, rule: RuleId): Modifier {
  return {
    label: "FRAY.Mod.Zones.Attribute",
    value: c.attributes[attribute],
    rule,
    data: { attribute: `FRAY.Zones.Attribute.${attribute}` },
  };
}

/**
 * The modifier lines of a skill check (ZN-RNG-08): each linked attribute modifier, then the skill
 * ranks. Firearms: DEX + PER + ranks, as in the seed's example (8 + 1 + 1 + 3).
 */
export function skillLines(c: ZonesCombatant, skill: SkillId, rule: RuleId = "ZN-RNG-08"): Modifier[] {
  const lines: Modifier[] = [];
  skillModifier(c, skill, rule, lines);
  return lines;
}

/**
 * The modifier of a skill check (ZN-RNG-08): each linked attribute modifier, then the skill
 * ranks, summed; with `lines`, each pushed there as an itemized line ({@link skillLines}).
 */
export function skillModifier(c: ZonesCombatant, skill: SkillId, rule: RuleId, lines?: Modifier[]): number {
  const attributes = SKILL_ATTRIBUTES[skill];
  let total = 0;
  for (let i = 0; i < attributes.length; i++) {
    total += c.attributes[attributes[i]!];
    if (lines) lines.push(attributeLine(c, attributes[i]!, rule));
  }
  total += c.skills[skill];
  if (lines) lines.push({ label: "FRAY.Mod.Zones.Skill", value: c.skills[skill], rule, data: { skill: `FRAY.Zones.Skill.${skill}` } });
  return total;
}

/** The lines of a block (ZN-MEL-04): STR and CON modifiers, no skill. */
export function blockLines(c: ZonesCombatant): Modifier[] {
  return [attributeLine(c, "STR", "ZN-MEL-04"), attributeLine(c, "CON", "ZN-MEL-04")];
}

/** The line of a contest between an action and a reaction (ZN-REA-02): the DEX modifier. */
export function contestLines(c: ZonesCombatant): Modifier[] {
  return [attributeLine(c, "DEX", "ZN-REA-02")];
}

/** A check formula for display: `1d10 + 5`, `1d10 - 1`. */
export function checkFormula(mods: readonly Modifier[]): string {
  const total = sumModifiers(mods);
  return total < 0 ? `${CHECK_DIE} - ${-total}` : `${CHECK_DIE} + ${total}`;
}

/**
 * Rolls a d10 check with itemized modifiers (ZN-RNG-08). The d10 does not explode.
 * @param purpose i18n key of the roll, `FRAY.Roll.*`.
 */
export async function rollCheck(dice: DiceRoller, mods: Modifier[], purpose: string): Promise<CheckResult> {
  const roll = await dice.roll(CHECK_DIE, purpose);
  return { roll, natural: roll.total, modifiers: mods, total: roll.total + sumModifiers(mods) };
}

/** The d10 distribution, built once when the module loads (no formula parsed on a first call, issue 14). */
const D10 = plainDicePmf(1, 10);

/**
 * The exact distribution of a d10 check's total with a flat modifier: the same chances as
 * `distribution("1d10 + modifier")`, bit for bit, moved from the d10 built once.
 */
export function checkPmf(modifier: number): Pmf {
  return shift(D10, modifier);
}

/** P(d10 + modifier >= difficulty) (ZN-RNG-08: meeting the difficulty succeeds). */
export function chanceToMeet(modifier: number, target: number): number {
  return atLeast(checkPmf(modifier), target);
}

/** A skill check against a difficulty, as rolled. */
export interface SkillCheckResult {
  check: CheckResult;
  difficulty: number;
  /** The total met or exceeded the difficulty (ZN-RNG-08). */
  success: boolean;
}

/**
 * Rolls a skill check against a difficulty (ZN-RNG-08): d10 + attribute modifiers + ranks, a
 * success when the total meets or exceeds it.
 */
export async function skillCheck(
  c: ZonesCombatant,
  skill: SkillId,
  target: number,
  dice: DiceRoller,
  extra: Modifier[] = [],
): Promise<SkillCheckResult> {
  const check = await rollCheck(dice, [...skillLines(c, skill), ...extra], "FRAY.Roll.Skill");
  return { check, difficulty: target, success: check.total >= target };
}

/** The outcome of a contest between the one acting and the one reacting (ZN-REA-02). */
export interface ContestResult {
  rule: "ZN-REA-02";
  /** Rolls of each side, in order; ties are rolled again. */
  rounds: { actor: CheckResult; reactor: CheckResult }[];
  /** Who wins: the acting side or the reacting side. */
  winner: "actor" | "reactor";
}

/** Tied contests are rolled again at most this often; after that the reaction wins (it was waiting for it). */
export const CONTEST_REROLLS = 20;

/**
 * A contest between an action and the reaction it triggers (ZN-REA-02, e.g. who draws first):
 * each rolls d10 + DEX modifier, the higher total wins; ties are rolled again (RULES.md).
 */
export async function contest(actor: ZonesCombatant, reactor: ZonesCombatant, dice: DiceRoller): Promise<ContestResult> {
  const rounds: ContestResult["rounds"] = [];
  for (let i = 0; i <= CONTEST_REROLLS; i++) {
    const a = await rollCheck(dice, contestLines(actor), "FRAY.Roll.Contest");
    const r = await rollCheck(dice, contestLines(reactor), "FRAY.Roll.Contest");
    rounds.push({ actor: a, reactor: r });
    if (a.total !== r.total) return { rule: "ZN-REA-02", rounds, winner: a.total > r.total ? "actor" : "reactor" };
  }
  return { rule: "ZN-REA-02", rounds, winner: "reactor" };
}

/** An opposed hiding check (ZN-HID-01). */
export interface HidingResult {
  rule: "ZN-HID-01";
  stealth: CheckResult;
  notice: CheckResult;
  /** The difficulty the searcher's Notice had to meet: the Stealth total, 5 lower for a search on the body. */
  difficulty: number;
  found: boolean;
}

/**
 * Checks that a weapon is small enough to hide on the body (ZN-HID-01: pistols, PDWs; marked
 * `concealable`).
 * @throws FrayError `FRAY.Error.Zones.NotConcealable` (field `weapon`) otherwise.
 */
export function assertConcealable(weapon: Pick<ZonesWeapon, "name" | "concealable">): void {
  if (!weapon.concealable)
    throw new FrayError(
      "FRAY.Error.Zones.NotConcealable",
      { field: "weapon", weapon: weapon.name },
      `${weapon.name} is too large to hide on the body`,
    );
}

/** The weapons hidden on a combatant's body (ZN-HID-01): concealable ones carried `hidden`. */
export function hiddenWeapons(c: Pick<ZonesCombatant, "weapons">): ZonesWeapon[] {
  return c.weapons.filter((w) => w.concealable && w.carry === "hidden");
}

/** The Notice bonus of someone searching the body (ZN-HID-01): the difficulty is 5 lower. */
export const SEARCH_BONUS = 5;

/**
 * Hiding a small weapon on the body (ZN-HID-01): the hider's Stealth check total is the
 * difficulty of the searcher's Notice check, 5 lower for a search of the body and unchanged from
 * a distance. The weapon is found when Notice meets that difficulty.
 * @throws FrayError `FRAY.Error.Zones.NotConcealable` (field `weapon`) for a weapon that is not
 *   small enough (pistols and PDWs are).
 */
export async function hideWeapon(
  hider: ZonesCombatant,
  weaponId: string,
  searcher: ZonesCombatant,
  mode: "search" | "distance",
  dice: DiceRoller,
): Promise<HidingResult> {
  const weapon = hider.weapons.find((w) => w.id === weaponId || w.name === weaponId);
  if (!weapon)
    throw new FrayError("FRAY.Error.NoWeapon", { weapon: weaponId, actor: hider.name }, `${hider.name} has no weapon "${weaponId}"`);
  assertConcealable(weapon);
  const stealth = await rollCheck(dice, skillLines(hider, "stealth", "ZN-HID-01"), "FRAY.Roll.Skill");
  const notice = await rollCheck(dice, skillLines(searcher, "notice", "ZN-HID-01"), "FRAY.Roll.Skill");
  const difficultyValue = stealth.total - (mode === "search" ? SEARCH_BONUS : 0);
  return { rule: "ZN-HID-01", stealth, notice, difficulty: difficultyValue, found: notice.total >= difficultyValue };
}
