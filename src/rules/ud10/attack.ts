import { declaredReaction } from "../core/reaction.js";
import { atLeast, plainDicePmf, shift, type Pmf } from "../core/dice/distribution.js";
import { playWith, rollKept, type DiceRoller, type SyncDiceRoller } from "../core/dice/port.js";
import type { ActionCost, Economy } from "../core/economy.js";
import { FrayError } from "../core/errors.js";
import { byIdOrName, hasAnyOf, holds } from "../core/lists.js";
import type { AttackOdds, AttackPlan, AttackResult, HitLocation, ReactionOption, ReactionResult } from "../core/ruleset.js";
import { difficulty, sumModifiers, type CheckResult, type Modifier, type RollOutcome } from "../core/types.js";
import type { Ud10AttackInput } from "./input.js";
import { SKILL_ATTRIBUTE, type SkillId, type Ud10Combatant, type Ud10Weapon, type FiringMode, type ZoneId } from "./model.js";
import type { Ud10Options } from "./options.js";
import { bodyZone, zoneForFace, ZONE_DICE } from "./zones.js";

/** Conditions that take a combatant out of the fight: no actions, no reactions. */
export const OUT_CONDITIONS = ["unconscious", "incapacitated", "dead"] as const;

const has = (c: Ud10Combatant, condition: string) => holds(c.conditions, condition);

/** True when the combatant cannot act or react. */
export function isIncapacitated(c: Ud10Combatant): boolean {
  // An indexed loop over the few conditions the combatant has: asked for every attack and every
  // reaction, of condition lists of several kinds, which a `for of` and a set lookup pay for.
  return hasAnyOf(c.conditions, OUT_CONDITIONS);
}

/** What aiming costs: the round's action (UD-ATK-04). */
export const AIM_COST: ActionCost = { slots: { action: 1 } };

/** Rounds of aim after aiming once more (UD-ATK-04): one, or two at most. */
export function aimRounds(c: Pick<Ud10Combatant, "conditions">): 1 | 2 {
  return holds(c.conditions, "aiming1") || holds(c.conditions, "aiming2") ? 2 : 1;
}

/** The situation flags the combatants' conditions give when the attack does not say otherwise. */
export interface SituationDefaults {
  /** UD-ATK-03: a surprised target cannot anticipate the attack. */
  unanticipated: boolean;
  /** UD-ATK-04, ranged: the target crouches or lies prone. */
  targetCrouching: boolean;
  /** UD-ATK-04, ranged: the target moves. */
  targetMoving: boolean;
  /** UD-ATK-04, ranged: the shooter moves. */
  shooterMoving: boolean;
  /** UD-ATK-04, ranged: rounds the attacker has spent aiming. */
  aim: 0 | 1 | 2;
}

/**
 * The situation an attack starts from, read from the conditions of the attacker (`moving`,
 * `aiming1`, `aiming2`) and the target (`surprised`, `crouching`, `prone`, `moving`) (UD-ATK-03,
 * UD-ATK-04). A flag the attack gives wins over these.
 */
export function situationDefaults(
  attacker: Pick<Ud10Combatant, "conditions">,
  target: Pick<Ud10Combatant, "conditions">,
): SituationDefaults {
  return {
    unanticipated: holds(target.conditions, "surprised"),
    targetCrouching: crouching(target),
    targetMoving: holds(target.conditions, "moving"),
    shooterMoving: holds(attacker.conditions, "moving"),
    aim: aimOf(attacker),
  };
}

/** The target crouches or lies prone (UD-ATK-04). */
const crouching = (c: Pick<Ud10Combatant, "conditions">) => holds(c.conditions, "crouching") || holds(c.conditions, "prone");
/** Rounds the combatant has spent aiming (UD-ATK-04). */
const aimOf = (c: Pick<Ud10Combatant, "conditions">): 0 | 1 | 2 =>
  holds(c.conditions, "aiming2") ? 2 : holds(c.conditions, "aiming1") ? 1 : 0;

/** The attacker's first weapon with this id or name, if any. */
export function findWeapon(attacker: Ud10Combatant, ref: string): Ud10Weapon | undefined {
  return byIdOrName(attacker.weapons, ref);
}

/**
 * The weapon and firing mode an attack uses.
 * @throws FrayError `FRAY.Error.NoWeapon` / `FRAY.Error.NoMode` when they are not the attacker's.
 */
export function weaponAndMode(input: Ud10AttackInput): { weapon: Ud10Weapon; mode?: FiringMode } {
  const weapon = findWeapon(input.attacker, input.weaponId);
  if (!weapon) {
    throw new FrayError(
      "FRAY.Error.NoWeapon",
      { weapon: input.weaponId, actor: input.attacker.name },
      `${input.attacker.name} has no weapon "${input.weaponId}"`,
    );
  }
  if (!input.modeId || input.modeId === "standard") return { weapon };
  const mode = weapon.modes.find((m) => m.id === input.modeId);
  if (!mode) {
    throw new FrayError(
      "FRAY.Error.NoMode",
      { mode: input.modeId, weapon: weapon.name },
      `${weapon.name} has no firing mode "${input.modeId}"`,
    );
  }
  return { weapon, mode };
}

/**
 * The value a check of `skill` adds to the d10: the skill rating when trained, else the linked
 * attribute (an untrained check, UD-REA-02 generalized; RULES.md).
 */
export function skillValue(c: Ud10Combatant, skill: SkillId): { value: number; trained: boolean } {
  const s = c.skills[skill];
  if (s.trained) return { value: s.rating, trained: true };
  return { value: c.attributes[SKILL_ATTRIBUTE[skill]], trained: false };
}

/**
 * {@link skillValue}'s `value` alone: the number a check of `skill` adds to the d10 (the rating
 * trained, else the linked attribute; UD-ATK-01, UD-REA-02, UD-INI-01).
 */
export function checkValue(c: Ud10Combatant, skill: SkillId): number {
  const s = c.skills[skill];
  return s.trained ? s.rating : c.attributes[SKILL_ATTRIBUTE[skill]];
}

/** The dice of every UD10 check: one d10 (UD-ATK-01). */
export const CHECK_DICE = "1d10";

/** The formula of a check adding `value` to the d10 (`1d10 + 6`, `1d10 - 1`). */
export function checkFormula(value: number): string {
  if (Number.isInteger(value) && value >= -FORMULAS && value <= FORMULAS) return (CHECK_FORMULAS[value + FORMULAS] ??= formulaOf(value));
  return formulaOf(value);
}
function formulaOf(value: number): string {
  return value < 0 ? `${CHECK_DICE} - ${-value}` : `${CHECK_DICE} + ${value}`;
}
/** Check formulas of whole values from -{@link FORMULAS} to +{@link FORMULAS}, written once each. */
const CHECK_FORMULAS: string[] = [];
const FORMULAS = 64;

/** The skill modifier line of a check. */
function skillLine(c: Ud10Combatant, skill: SkillId, rule: Modifier["rule"]): Modifier {
  const { value, trained } = skillValue(c, skill);
  const key = (SKILL_KEYS[skill] ??= `FRAY.Skill.${skill}`);
  return trained
    ? { label: "FRAY.Mod.Skill", value, rule, data: { skill: key } }
    : { label: "FRAY.Mod.Untrained", value, rule, data: { skill: key, attribute: SKILL_ATTRIBUTE[skill] } };
}
/** Each skill's i18n key, `FRAY.Skill.<id>`, written once. */
const SKILL_KEYS: Partial<Record<SkillId, string>> = {};

/**
 * Range penalty: -1 for each full or partial range increment the distance exceeds the first
 * (UD-RNG-01). 0 within one increment.
 */
export function rangePenalty(rangeMetres: number, increment: number): number {
  if (increment <= 0 || rangeMetres <= increment) return 0;
  return -(Math.ceil(rangeMetres / increment) - 1);
}

/** The base of every defense rating (UD-ATK-03). */
const DEFENSE_BASE: Modifier = Object.freeze({ label: "FRAY.Mod.DefenseBase", value: 10, rule: "UD-ATK-03" });

/**
 * The defense rating of a target (UD-ATK-02, UD-ATK-03, UD-DEF-01, UD-COV-01): 10, + DEX when the
 * attack can be anticipated and the target is not immobilized, shield +2, immobilized -2,
 * large -1, small +1, + cover. Returns the rating; with `lines`, each modifier after the base of
 * 10 is pushed there as an itemized line.
 */
export function defenseRating(target: Ud10Combatant, situation: Ud10AttackInput["situation"] = {}, lines?: Modifier[]): number {
  const s = situation ?? {};
  const immobilized = has(target, "immobilized");
  const unanticipated = Boolean(s.unanticipated) || has(target, "surprised") || isIncapacitated(target);
  let total = DEFENSE_BASE.value;
  if (immobilized) {
    if (lines) lines.push({ label: "FRAY.Mod.NoDexImmobilized", value: 0, rule: "UD-DEF-01" });
  } else if (unanticipated) {
    if (lines) lines.push({ label: "FRAY.Mod.NoDexUnanticipated", value: 0, rule: "UD-ATK-03" });
  } else {
    total += target.attributes.DEX;
    if (lines) lines.push({ label: "FRAY.Mod.Dex", value: target.attributes.DEX, rule: "UD-ATK-03" });
  }
  if (hasShield(target)) {
    total += 2;
    if (lines) lines.push({ label: "FRAY.Mod.Shield", value: 2, rule: "UD-DEF-01" });
  }
  if (immobilized) {
    total += -2;
    if (lines) lines.push({ label: "FRAY.Mod.Immobilized", value: -2, rule: "UD-DEF-01" });
  }
  if (target.size === "large") {
    total += -1;
    if (lines) lines.push({ label: "FRAY.Mod.Large", value: -1, rule: "UD-DEF-01" });
  }
  if (target.size === "small") {
    total += 1;
    if (lines) lines.push({ label: "FRAY.Mod.Small", value: 1, rule: "UD-DEF-01" });
  }
  if (s.cover) {
    total += s.cover;
    if (lines) lines.push({ label: "FRAY.Mod.Cover", value: s.cover, rule: "UD-COV-01" });
  }
  return total;
}

/** The target carries a shield (UD-DEF-01). */
function hasShield(target: Ud10Combatant): boolean {
  const weapons = target.weapons;
  for (let i = 0; i < weapons.length; i++) if (weapons[i]!.shield) return true;
  return false;
}

/** The defense rating as itemized lines: the base of 10 and {@link defenseRating}'s modifiers. */
export function defenseLines(target: Ud10Combatant, input: Pick<Ud10AttackInput, "situation">): { base: Modifier; modifiers: Modifier[] } {
  const modifiers: Modifier[] = [];
  defenseRating(target, input.situation, modifiers);
  return { base: { ...DEFENSE_BASE }, modifiers };
}

/**
 * The attack check's modifiers (UD-ATK-01, UD-ATK-04, UD-RNG-01, UD-RNG-02): the skill (or the
 * attribute untrained), the weapon's AM, the firing mode's; in melee higher ground; at range aim,
 * bad visibility, a crouching or moving target, a moving shooter and the range penalty, each
 * situation flag defaulting to the combatants' conditions; a GM's misc. Returns their sum; with
 * `lines`, each is pushed there as an itemized line.
 */
export function attackModifiers(input: Ud10AttackInput, weapon: Ud10Weapon, mode: FiringMode | undefined, lines?: Modifier[]): number {
  const { attacker, target } = input;
  const s = input.situation ?? {};
  const ranged = weapon.kind === "ranged";
  const skill: SkillId = ranged ? "ranged" : "melee";
  let total = checkValue(attacker, skill);
  if (lines) lines.push(skillLine(attacker, skill, "UD-ATK-01"));
  total += weapon.attackModifier;
  if (lines)
    lines.push({ label: "FRAY.Mod.AttackModifier", value: weapon.attackModifier, rule: "UD-ATK-01", data: { weapon: weapon.name } });
  if (mode && mode.attackModifier) {
    total += mode.attackModifier;
    if (lines) lines.push({ label: "FRAY.Mod.FiringMode", value: mode.attackModifier, rule: "UD-RNG-02", data: { mode: mode.label } });
  }
  if (!ranged) {
    if (s.higherGround) {
      total += -2;
      if (lines) lines.push({ label: "FRAY.Mod.HigherGround", value: -2, rule: "UD-ATK-04" });
    }
  } else {
    const aim = s.aim ?? aimOf(attacker);
    if (aim === 1) {
      total += 2;
      if (lines) lines.push({ label: "FRAY.Mod.Aim1", value: 2, rule: "UD-ATK-04" });
    }
    if (aim === 2) {
      total += 4;
      if (lines) lines.push({ label: "FRAY.Mod.Aim2", value: 4, rule: "UD-ATK-04" });
    }
    if (s.badVisibility) {
      total += -2;
      if (lines) lines.push({ label: "FRAY.Mod.BadVisibility", value: -2, rule: "UD-ATK-04" });
    }
    if (s.targetCrouching ?? crouching(target)) {
      total += -2;
      if (lines) lines.push({ label: "FRAY.Mod.TargetCrouching", value: -2, rule: "UD-ATK-04" });
    }
    if (s.targetMoving ?? has(target, "moving")) {
      total += -2;
      if (lines) lines.push({ label: "FRAY.Mod.TargetMoving", value: -2, rule: "UD-ATK-04" });
    }
    if (s.shooterMoving ?? has(attacker, "moving")) {
      total += -4;
      if (lines) lines.push({ label: "FRAY.Mod.ShooterMoving", value: -4, rule: "UD-ATK-04" });
    }
    const range = input.rangeMetres ?? 0;
    const penalty = rangePenalty(range, weapon.rangeIncrement);
    if (penalty) {
      total += penalty;
      if (lines) {
        const data = { range: Math.round(range * 10) / 10, increment: weapon.rangeIncrement };
        lines.push({ label: "FRAY.Mod.Range", value: penalty, rule: "UD-RNG-01", data });
      }
    }
  }
  if (s.misc) {
    total += s.misc;
    if (lines) lines.push({ label: "FRAY.Mod.Misc", value: s.misc, rule: "UD-ATK-01" });
  }
  return total;
}

/**
 * Plans a UD10 attack: the d10 check with skill, AM and situational modifiers against the
 * defender's defense rating (UD-ATK-01 to UD-ATK-04, UD-DEF-01, UD-COV-01, UD-RNG-01, UD-RNG-02).
 * @throws FrayError when the weapon or mode is not the attacker's, the attacker cannot act, or
 *   a declared reaction is not available.
 */
export function planAttack(input: Ud10AttackInput, options: Ud10Options, economy?: Economy): AttackPlan {
  const { attacker, target } = input;
  const { weapon, mode } = actingWith(input);
  const mods: Modifier[] = [];
  attackModifiers(input, weapon, mode, mods);
  const def = defenseLines(target, input);
  const plan: AttackPlan = {
    ruleset: "ud10",
    attackerId: attacker.id,
    targetId: target.id,
    weaponId: weapon.id,
    modeId: mode?.id,
    dice: CHECK_DICE,
    modifiers: mods,
    difficulty: difficulty(def.base, def.modifiers),
  };
  if (input.reaction) plan.reaction = declaredReaction(reactions(input, economy, options), input.reaction, target.name);
  return plan;
}

/**
 * The weapon and mode of an attack the attacker can make (see {@link weaponAndMode}).
 * @throws FrayError `FRAY.Error.CannotAct` when the attacker is out of the fight; as {@link weaponAndMode}.
 */
export function actingWith(input: Ud10AttackInput): { weapon: Ud10Weapon; mode?: FiringMode } {
  const { attacker } = input;
  if (isIncapacitated(attacker)) throw new FrayError("FRAY.Error.CannotAct", { actor: attacker.name }, `${attacker.name} cannot act`);
  return weaponAndMode(input);
}

/**
 * The reactions a defender may make against this attack (UD-REA-01 to UD-REA-04): a parry needs
 * a ready weapon that can parry and a melee attack; the GM may allow a dodge instead; both use
 * the one reaction per round and need a defender able to foresee the attack.
 */
export function reactions(
  input: Ud10AttackInput,
  economy: Economy | undefined,
  options: Pick<Ud10Options, "allowDodge">,
): ReactionOption[] {
  const { target } = input;
  const { weapon } = weaponAndMode(input);
  const unanticipated = Boolean(input.situation?.unanticipated);
  const parry = reactionOption(target, "parry", "UD-REA-02", reactionReason(target, weapon, unanticipated, economy, "parry"));
  if (!options.allowDodge) return [parry];
  return [parry, reactionOption(target, "dodge", "UD-REA-04", reactionReason(target, weapon, unanticipated, economy, "dodge"))];
}

/**
 * Why the defender cannot make reaction `id` against this attack (UD-REA-01 to UD-REA-04):
 * {@link commonReason}, then for a parry {@link parryReason}. Undefined when it can.
 * @returns an i18n key, `FRAY.Reason.*`.
 */
export function reactionReason(
  target: Ud10Combatant,
  weapon: Ud10Weapon,
  unanticipated: boolean,
  economy: Economy | undefined,
  id: "parry" | "dodge",
): string | undefined {
  return commonReason(target, weapon, unanticipated, economy) ?? (id === "parry" ? parryReason(target) : undefined);
}

/**
 * Why the defender can make no reaction at all against this attack, in {@link reactions}' order
 * (UD-REA-01, UD-REA-03, UD-ATK-03): out of the fight, the attack not anticipated (`unanticipated`
 * given, or the defender surprised), the round's reaction spent, a ranged attack. Undefined when
 * a reaction is possible.
 * @returns an i18n key, `FRAY.Reason.*`.
 */
export function commonReason(
  target: Ud10Combatant,
  weapon: Ud10Weapon,
  unanticipated: boolean,
  economy: Economy | undefined,
): string | undefined {
  const reactionUsed = economy ? (economy.slots.reaction?.used ?? 0) >= 1 : false;
  return isIncapacitated(target)
    ? "FRAY.Reason.Incapacitated"
    : unanticipated || has(target, "surprised")
      ? "FRAY.Reason.Unanticipated"
      : reactionUsed
        ? "FRAY.Reason.ReactionUsed"
        : weapon.kind === "ranged"
          ? "FRAY.Reason.RangedAttack"
          : undefined;
}

/** Why the defender cannot parry besides {@link commonReason}: no weapon that can parry (UD-REA-02). */
export function parryReason(target: Ud10Combatant): string | undefined {
  const weapons = target.weapons;
  for (let i = 0; i < weapons.length; i++) if (weapons[i]!.canParry) return undefined;
  return "FRAY.Reason.NoParryWeapon";
}

/**
 * The reaction a defender who declared `declared` makes against an attack with `weapon` whose
 * situation gives no value (the combatants' conditions as they are): `declared` when
 * {@link reactions} offers it ({@link reactionReason} gives no reason against it), else
 * undefined (UD-REA-01 to UD-REA-04).
 * @param declared the declared reaction id (`parry`, `dodge`, or anything else, never offered).
 */
export function declaredReactionFor(
  target: Ud10Combatant,
  weapon: Ud10Weapon,
  economy: Economy | undefined,
  declared: string,
  options: Pick<Ud10Options, "allowDodge">,
): "parry" | "dodge" | undefined {
  if (declared !== "parry" && !(declared === "dodge" && options.allowDodge)) return undefined;
  return reactionReason(target, weapon, false, economy, declared) ? undefined : declared;
}

/**
 * One reaction {@link reactions} offers: available unless `reason` says why not. An option
 * depends only on its check (itself shared, see {@link reactionCheck}) and the reason, so for a
 * shared check each option is built once per reason and frozen: the engine asks for the
 * reactions on every attack of a forecast.
 */
function reactionOption(
  target: Ud10Combatant,
  id: "parry" | "dodge",
  rule: ReactionOption["rule"],
  reason: string | undefined,
): ReactionOption {
  const check = reactionCheck(target, id);
  if (!check.options) return freshReactionOption(check, id, rule, reason);
  const key = reason ?? "";
  let option = check.options.get(key);
  if (!option) check.options.set(key, (option = Object.freeze(freshReactionOption(check, id, rule, reason))));
  return option;
}
/** A reaction option built anew (see {@link reactionOption}). */
function freshReactionOption(
  check: ReactionCheck,
  id: "parry" | "dodge",
  rule: ReactionOption["rule"],
  reason: string | undefined,
): ReactionOption {
  return {
    id,
    label: id === "parry" ? "FRAY.Reaction.parry" : "FRAY.Reaction.dodge",
    rule,
    available: !reason,
    reason,
    formula: check.formula,
    modifiers: check.modifiers,
    cost: REACTION_COST,
  };
}

/** What a reaction costs: the round's reaction (UD-REA-01). Frozen: shared by every reaction offered. */
export const REACTION_COST: ActionCost = Object.freeze({ slots: Object.freeze({ reaction: 1 }) });

/** A reaction check's modifier lines and formula (UD-REA-02, UD-REA-04). */
interface ReactionCheck {
  modifiers: Modifier[];
  formula: string;
  /** For a shared check, the frozen options offered with it, by reason (`""` when available). */
  options?: Map<string, ReactionOption>;
}

/**
 * The check of reaction `id` for the defender: its one skill line (the skill, or the attribute
 * untrained) and its formula. They depend only on the reaction, the training and the value, so
 * each is built once (for whole values within ±{@link FORMULAS}) and frozen, shared by every
 * reaction offered with them: the engine offers reactions on every attack of a forecast.
 */
function reactionCheck(target: Ud10Combatant, id: "parry" | "dodge"): ReactionCheck {
  const { value, trained } = skillValue(target, id);
  if (!Number.isInteger(value) || value < -FORMULAS || value > FORMULAS) return freshReactionCheck(target, id);
  const table = REACTION_CHECKS[(id === "parry" ? 0 : 2) + (trained ? 0 : 1)]!;
  let check = table[value + FORMULAS];
  if (!check) {
    check = freshReactionCheck(target, id);
    for (const line of check.modifiers) Object.freeze(Object.freeze(line).data);
    Object.freeze(check.modifiers);
    check.options = new Map();
    table[value + FORMULAS] = check;
  }
  return check;
}
/** A reaction check built anew (see {@link reactionCheck}). */
function freshReactionCheck(target: Ud10Combatant, id: "parry" | "dodge"): ReactionCheck {
  const line = skillLine(target, id, id === "parry" ? "UD-REA-02" : "UD-REA-04");
  return { modifiers: [line], formula: checkFormula(line.value) };
}
/** {@link reactionCheck}s by reaction and training (parry trained, parry untrained, dodge trained, dodge untrained), then by value. */
const REACTION_CHECKS: ReactionCheck[][] = [[], [], [], []];

/** A reaction's total stops an attack when it is higher than the attack's (UD-REA-03). */
const stops = (reactionTotal: number, attackTotal: number) => reactionTotal > attackTotal;

/**
 * A reaction check against the attack (UD-REA-03): it stops the attack when its total is higher
 * than the attack's.
 */
export function reactionOutcome(id: ReactionOption["id"], check: CheckResult, attackTotal: number): ReactionResult {
  return { id, rule: "UD-REA-03", check, success: stops(check.total, attackTotal), effect: "negate" };
}

/** The purpose of a reaction's roll, for logs and chat flavour. */
const reactionPurpose = (id: ReactionOption["id"]) => (id === "parry" ? "FRAY.Roll.Parry" : "FRAY.Roll.Dodge");

/** A check as rolled: its roll and modifier lines. */
function checkOf(roll: RollOutcome, modifiers: Modifier[]): CheckResult {
  return { roll, natural: roll.total, modifiers, total: roll.total + sumModifiers(modifiers) };
}

/**
 * Rolls a reaction the defender makes against an attack of `attackTotal` (UD-REA-02 to
 * UD-REA-04): the d10 with the option's modifiers, weighed by {@link reactionOutcome}.
 */
export async function resolveReaction(
  option: Pick<ReactionOption, "id" | "modifiers">,
  attackTotal: number,
  dice: DiceRoller,
): Promise<ReactionResult> {
  const roll = await dice.roll(CHECK_DICE, reactionPurpose(option.id));
  return reactionOutcome(option.id, checkOf(roll, option.modifiers), attackTotal);
}

/**
 * An attack's result once the defender's reaction is known (UD-REA-03): it lands when it hit
 * and the reaction did not stop it.
 */
export function withReactionResult(result: AttackResult, reaction: ReactionResult): AttackResult {
  return { ...result, reaction, lands: result.hit && !reaction.success };
}

/** What {@link rollAttack} rolled. */
export interface Ud10Rolled {
  /** The attack check's total. */
  total: number;
  hit: boolean;
  /** The declared reaction was rolled (the attack hit). */
  reacted: boolean;
  /** The reaction stopped the attack; false when none was rolled. */
  stopped: boolean;
  lands: boolean;
  /** The body zone hit (UD-ZON-01); undefined without body zones or when the attack does not land. */
  zone: ZoneId | undefined;
}

/**
 * Rolls an attack (UD-ATK-02): the d10 plus `modifier`, a hit when it meets `difficulty`; when it
 * hits, the declared reaction, the d10 plus `reactionModifier` (UD-REA-03: it stops the attack
 * when its total is higher); when it lands and `bodyZones`, the body zone (UD-ZON-01). With
 * `kept`, every roll's outcome is kept there in that order.
 * @param reaction the declared reaction, undefined when none is.
 */
export function rollAttack(
  modifier: number,
  difficultyTotal: number,
  reaction: ReactionOption["id"] | undefined,
  reactionModifier: number,
  bodyZones: boolean,
  dice: SyncDiceRoller,
  kept?: RollOutcome[],
): Ud10Rolled {
  const total = rollKept(dice, CHECK_DICE, "FRAY.Roll.Attack", kept) + modifier;
  const hit = total >= difficultyTotal;
  const reacted = hit && reaction !== undefined;
  const stopped = reacted && stops(rollKept(dice, CHECK_DICE, reactionPurpose(reaction), kept) + reactionModifier, total);
  const lands = hit && !stopped;
  const zone = lands && bodyZones ? zoneForFace(rollKept(dice, ZONE_DICE, "FRAY.Roll.BodyZone", kept)) : undefined;
  return { total, hit, reacted, stopped, lands, zone };
}

/**
 * Rolls a planned attack with {@link rollAttack}: the plan's modifiers against its difficulty,
 * the declared reaction when it hits, the body zone when that option is on (UD-ATK-02, UD-REA-03,
 * UD-ZON-01).
 */
export function resolveAttack(plan: AttackPlan, dice: DiceRoller, options: Ud10Options): Promise<AttackResult> {
  const declared = plan.reaction;
  return playWith(dice, (sync): AttackResult => {
    const kept: RollOutcome[] = [];
    const modifier = sumModifiers(plan.modifiers);
    const rolled = rollAttack(
      modifier,
      plan.difficulty.total,
      declared?.id as ReactionOption["id"] | undefined,
      declared ? sumModifiers(declared.modifiers) : 0,
      options.bodyZones,
      sync,
      kept,
    );
    const check = checkOf(kept[0]!, plan.modifiers);
    const reaction = rolled.reacted ? reactionOutcome(declared!.id, checkOf(kept[1]!, declared!.modifiers), rolled.total) : undefined;
    const zoneRoll = rolled.zone !== undefined ? kept[kept.length - 1] : undefined;
    const location: HitLocation | undefined = zoneRoll ? bodyZone(zoneRoll) : undefined;
    return { plan, check, hit: rolled.hit, reaction, lands: rolled.lands, location };
  });
}

/** The d10 distribution, built once when the module loads (no formula parsed on a first call, issue 14). */
const D10 = plainDicePmf(1, 10);

/** The PMF of a d10 check with a flat modifier: `distribution(checkFormula(modifier))` bit for bit. */
function checkPmf(modifier: number): Pmf {
  return shift(D10, modifier);
}

/**
 * Exact odds of a planned attack (UD-ATK-02, UD-REA-03): P(check >= difficulty) and, with a
 * declared reaction, P(hit and reaction total <= attack total).
 */
export function odds(plan: AttackPlan): AttackOdds {
  const attack = checkPmf(sumModifiers(plan.modifiers));
  const hit = atLeast(attack, plan.difficulty.total);
  if (!plan.reaction) return { hit };
  const defense = checkPmf(sumModifiers(plan.reaction.modifiers));
  let through = 0;
  for (const [a, pa] of attack) {
    if (a < plan.difficulty.total) continue;
    through += pa * (1 - atLeast(defense, a + 1));
  }
  return { hit, throughReaction: through };
}
