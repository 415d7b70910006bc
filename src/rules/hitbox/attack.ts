import { declaredReaction } from "../core/reaction.js";
import { atLeast, plainDicePmf, shift, type Pmf } from "../core/dice/distribution.js";
import { playWith, rollKept, type DiceRoller, type SyncDiceRoller } from "../core/dice/port.js";
import type { Economy } from "../core/economy.js";
import { FrayError } from "../core/errors.js";
import type { AttackOdds, AttackPlan, AttackResult, HitLocation, ReactionOption, ReactionResult } from "../core/ruleset.js";
import { difficulty, sumModifiers, type CheckResult, type Difficulty, type Modifier, type RollOutcome } from "../core/types.js";
import type { HitboxAttackInput, RolledReaction } from "./input.js";
import { CALLABLE, calledChance, locationFor, locationOf } from "./location.js";
import {
  abilityOf,
  boxOf,
  hasCondition,
  isHitbox,
  skillOf,
  type AbilityId,
  type HitboxCombatant,
  type HitboxId,
  type HitboxWeapon,
  type LimbId,
  type SkillId,
} from "./model.js";
import type { HitboxOptions } from "./options.js";

/** The base difficulty of an attack test without a reaction (HB-ATK-02). */
export const BASE_DIFFICULTY = 9;

/** Below this range in feet an attack gets +1 (HB-MOD-01). */
export const CLOSE_FEET = 20;
/** Beyond this range in feet an attack takes -1 per 50 ft or part of it (HB-MOD-01). */
export const FAR_FEET = 50;

/** Conditions that take a combatant out of the fight: no actions, no reactions (RULES.md). */
export const OUT_CONDITIONS = ["shock", "dead", "unconscious"] as const;

const has = hasCondition;

/** True when the combatant cannot act or react: in shock, dead or unconscious, or head or torso full (RULES.md). */
export function isDown(c: HitboxCombatant): boolean {
  // A plain loop over the conditions (`OUT_CONDITIONS`): every attack and reaction asks.
  const conditions = c.conditions;
  for (let i = 0; i < conditions.length; i++) {
    const x = conditions[i];
    if (x === "shock" || x === "dead" || x === "unconscious") return true;
  }
  return c.hitboxes.head.value <= 0 || c.hitboxes.torso.value <= 0;
}

/** True when a hitbox has taken damage (HB-DMG-03 reads this for limbs). */
export function isDamaged(c: HitboxCombatant, box: HitboxId): boolean {
  const t = boxOf(c.hitboxes, box);
  return t.value < t.max;
}

/** True when a hitbox is full: a full limb cannot be used at all (RULES.md, HB-DMG-03). */
export function isDisabled(c: HitboxCombatant, box: HitboxId): boolean {
  return boxOf(c.hitboxes, box).value <= 0;
}

/** The arm a one-handed weapon and a parry use. */
export function mainArm(c: HitboxCombatant): LimbId {
  return c.mainHand === "left" ? "leftArm" : "rightArm";
}

/** The limbs of a dodge (HB-DMG-03). */
const LEGS: readonly LimbId[] = Object.freeze(["leftLeg", "rightLeg"] as LimbId[]);
/** The limbs of a two-handed weapon (HB-DMG-03). */
const ARMS: readonly LimbId[] = Object.freeze(["leftArm", "rightArm"] as LimbId[]);
const LEFT_ARM: readonly LimbId[] = Object.freeze(["leftArm"] as LimbId[]);
const RIGHT_ARM: readonly LimbId[] = Object.freeze(["rightArm"] as LimbId[]);

/**
 * The limbs a test uses (HB-DMG-03; RULES.md): a one-handed weapon the main arm, a two-handed one
 * both arms, a parry the main arm, a dodge both legs. The lists are shared and never changed.
 */
export function limbsFor(c: HitboxCombatant, use: "dodge" | "parry" | HitboxWeapon): readonly LimbId[] {
  if (use === "dodge") return LEGS;
  if (use !== "parry" && use.hands === 2) return ARMS;
  return c.mainHand === "left" ? LEFT_ARM : RIGHT_ARM;
}

/** The first of `limbs` that is full (HB-DMG-03), undefined when none is. */
export function disabledLimb(c: HitboxCombatant, limbs: readonly LimbId[]): LimbId | undefined {
  for (let i = 0; i < limbs.length; i++) if (isDisabled(c, limbs[i]!)) return limbs[i];
  return undefined;
}

/**
 * The bonus of a 2d6 test: ability + skill (HB-ATK-02), and when a limb the test uses is damaged
 * and the character is not `medicated`, half of a positive bonus taken away, rounded in the
 * character's disfavour (HB-DMG-03). Returns the sum; with `lines`, each part is pushed there as
 * an itemized line.
 */
export function testModifier(
  c: HitboxCombatant,
  ability: AbilityId,
  skill: SkillId,
  limbs: readonly LimbId[],
  rule: Modifier["rule"],
  lines?: Modifier[],
): number {
  const a = abilityOf(c.abilities, ability);
  const k = skillOf(c.skills, skill);
  if (lines) {
    lines.push({ label: "FRAY.Mod.HitboxAbility", value: a, rule, data: { ability: `FRAY.Hitbox.Ability.${ability}` } });
    lines.push({ label: "FRAY.Mod.HitboxSkill", value: k, rule, data: { skill: `FRAY.Hitbox.Skill.${skill}` } });
  }
  const sum = a + k;
  if (sum <= 0 || has(c, "medicated")) return sum;
  let damaged: LimbId | undefined;
  for (let i = 0; i < limbs.length && damaged === undefined; i++) if (isDamaged(c, limbs[i]!)) damaged = limbs[i];
  if (damaged === undefined) return sum;
  // Half the test rounded down: the ratings are whole numbers and `sum` is above 0.
  const value = (sum >> 1) - sum;
  if (lines) lines.push({ label: "FRAY.Mod.HitboxDamagedLimb", value, rule: "HB-DMG-03", data: { limb: `FRAY.Hitbox.${damaged}` } });
  return sum + value;
}

/** The itemized lines of {@link testModifier} (HB-ATK-02, HB-DMG-03). */
export function testBonus(
  c: HitboxCombatant,
  ability: AbilityId,
  skill: SkillId,
  limbs: readonly LimbId[],
  rule: Modifier["rule"],
): Modifier[] {
  const lines: Modifier[] = [];
  testModifier(c, ability, skill, limbs, rule, lines);
  return lines;
}

/** Feet rounded to one decimal for display. */
const shownFeet = (feet: number) => Math.round(feet * 10) / 10;

/**
 * The range modifier of a ranged or thrown attack, distance in **feet** (HB-MOD-01): less than
 * 20 ft +1; more than 50 ft -1 for every 50 ft or part of it beyond 50 (51-100 ft -1, 101-150 ft
 * -2); 0 from 20 to 50 ft.
 */
export function rangeValue(feet: number): number {
  if (feet < CLOSE_FEET) return 1;
  if (feet > FAR_FEET) return -Math.ceil((feet - FAR_FEET) / FAR_FEET);
  return 0;
}

/** The range line of {@link rangeValue} (HB-MOD-01); undefined when it is 0. */
export function rangeModifier(feet: number): Modifier | undefined {
  const value = rangeValue(feet);
  if (value === 0) return undefined;
  return { label: value > 0 ? "FRAY.Mod.HitboxClose" : "FRAY.Mod.HitboxFar", value, rule: "HB-MOD-01", data: { feet: shownFeet(feet) } };
}

/**
 * The rapid-fire modifier of one shot when `shots` are fired this turn (HB-MOD-03): -2 per shot
 * beyond the first (`perExtraShot`, default) or -2 whenever more than one is fired (`flat`); 0
 * for a single shot.
 */
export function rapidFireValue(shots: number, mode: HitboxOptions["rapidFire"]): number {
  if (shots <= 1) return 0;
  return mode === "flat" ? -2 : -2 * (shots - 1);
}

/** The rapid-fire line of {@link rapidFireValue} (HB-MOD-03); undefined for a single shot. */
export function rapidFireModifier(shots: number, mode: HitboxOptions["rapidFire"]): Modifier | undefined {
  const value = rapidFireValue(shots, mode);
  return value === 0 ? undefined : { label: "FRAY.Mod.HitboxRapidFire", value, rule: "HB-MOD-03", data: { shots } };
}

/** True when the target sees the attack coming not at all (HB-ATK-05): unaware and not threatened. */
export function neverSawItComing(input: HitboxAttackInput): boolean {
  const s = input.situation ?? {};
  return (s.targetUnaware ?? has(input.target, "unaware")) && !(s.targetThreatened ?? false);
}

/**
 * The weapon an attack uses.
 * @throws FrayError `FRAY.Error.NoWeapon` when it is not the attacker's.
 */
export function weaponOf(input: Pick<HitboxAttackInput, "attacker" | "weaponId">): HitboxWeapon {
  // A plain loop: every attack and reaction of a forecast asks (`find` with a closure costs more).
  const weapons = input.attacker.weapons;
  const ref = input.weaponId;
  let weapon: HitboxWeapon | undefined;
  for (let i = 0; i < weapons.length; i++) {
    const w = weapons[i]!;
    if (w.id === ref || w.name === ref) {
      weapon = w;
      break;
    }
  }
  if (!weapon) {
    throw new FrayError(
      "FRAY.Error.NoWeapon",
      { weapon: input.weaponId, actor: input.attacker.name },
      `${input.attacker.name} has no weapon "${input.weaponId}"`,
    );
  }
  return weapon;
}

/**
 * The circumstances of an attack (HB-MOD-01 to HB-MOD-03): called shot -2, rapid fire, target
 * prone -1, half hidden -1, darkness or dim light -1, range (ranged and thrown attacks only), a
 * GM's misc. Returns their sum; with `lines`, each is pushed there as an itemized line.
 */
export function circumstanceModifier(input: HitboxAttackInput, weapon: HitboxWeapon, options: HitboxOptions, lines?: Modifier[]): number {
  const s = input.situation ?? {};
  let total = 0;
  if (input.calledShot) {
    total -= 2;
    if (lines)
      lines.push({ label: "FRAY.Mod.HitboxCalled", value: -2, rule: "HB-MOD-03", data: { location: `FRAY.Hitbox.${input.calledShot}` } });
  }
  const shots = input.shots ?? 1;
  const rapid = rapidFireValue(shots, options.rapidFire);
  if (rapid !== 0) {
    total += rapid;
    if (lines) lines.push(rapidFireModifier(shots, options.rapidFire)!);
  }
  if (s.targetProne ?? has(input.target, "prone")) {
    total -= 1;
    if (lines) lines.push({ label: "FRAY.Mod.HitboxProne", value: -1, rule: "HB-MOD-02" });
  }
  if (s.halfHidden) {
    total -= 1;
    if (lines) lines.push({ label: "FRAY.Mod.HitboxHidden", value: -1, rule: "HB-MOD-02" });
  }
  if (s.dark) {
    total -= 1;
    if (lines) lines.push({ label: "FRAY.Mod.HitboxDark", value: -1, rule: "HB-MOD-02" });
  }
  if (weapon.kind !== "melee" && input.rangeFeet !== undefined) {
    const range = rangeValue(input.rangeFeet);
    if (range !== 0) {
      total += range;
      if (lines) lines.push(rangeModifier(input.rangeFeet)!);
    }
  }
  if (s.misc) {
    total += s.misc;
    if (lines) lines.push({ label: "FRAY.Mod.HitboxMisc", value: s.misc, rule: "HB-ATK-02" });
  }
  return total;
}

/** The itemized lines of {@link circumstanceModifier} (HB-MOD-01 to HB-MOD-03). */
export function circumstances(input: HitboxAttackInput, weapon: HitboxWeapon, options: HitboxOptions): Modifier[] {
  const lines: Modifier[] = [];
  circumstanceModifier(input, weapon, options, lines);
  return lines;
}

/**
 * The attack test's modifiers (HB-ATK-02, HB-DMG-03, HB-MOD-01 to HB-MOD-03): the attacker's
 * ability and weapon skill with a damaged limb of the weapon's ({@link testModifier}), then the
 * circumstances ({@link circumstanceModifier}). Returns their sum; with `lines`, each is pushed
 * there as an itemized line.
 */
export function attackModifier(input: HitboxAttackInput, weapon: HitboxWeapon, options: HitboxOptions, lines?: Modifier[]): number {
  const { attacker } = input;
  const bonus = testModifier(attacker, weapon.ability, weapon.skill, limbsFor(attacker, weapon), "HB-ATK-02", lines);
  return bonus + circumstanceModifier(input, weapon, options, lines);
}

/** A reaction option with what it does to the defender. */
export interface HitboxReactionOption extends ReactionOption {
  id: "dodge" | "parry";
  /** A dodge without cover nearby drops the defender to the ground (HB-ATK-03, HB-ACT-04). */
  dropsProne: boolean;
}

/**
 * Why the defender of `input` cannot make the reaction `id` against an attack with `weapon`
 * (HB-ATK-03, HB-ACT-04, HB-MOD-04, HB-DMG-03), `FRAY.Reason.*`; undefined when it can. Neither is
 * possible for a defender who is down, unaware of the attacker, or has already spent the turn's
 * reaction; a Dodge is impossible for a target already prone or with a full leg; a Parry needs an
 * object held, unless the setting allows it a melee attack, and a main arm that is not full.
 */
export function reactionReason(
  input: HitboxAttackInput,
  weapon: HitboxWeapon,
  id: "dodge" | "parry",
  economy: Economy | undefined,
  options: Pick<HitboxOptions, "parryRanged">,
): string | undefined {
  const { target } = input;
  const s = input.situation ?? {};
  if (isDown(target)) return "FRAY.Reason.Incapacitated";
  if (s.targetUnaware ?? has(target, "unaware")) return "FRAY.Reason.Unanticipated";
  if (economy && (economy.slots.reaction?.used ?? 0) >= 1) return "FRAY.Reason.ReactionUsed";
  if (id === "dodge") {
    if (s.targetProne ?? has(target, "prone")) return "FRAY.Reason.HitboxProne";
    if (disabledLimb(target, LEGS) !== undefined) return "FRAY.Reason.HitboxLimbDisabled";
    return undefined;
  }
  if (target.held.length === 0) return "FRAY.Reason.HitboxNothingHeld";
  if (weapon.kind !== "melee" && !options.parryRanged) return "FRAY.Reason.RangedAttack";
  if (disabledLimb(target, limbsFor(target, "parry")) !== undefined) return "FRAY.Reason.HitboxLimbDisabled";
  return undefined;
}

/**
 * One reaction a defender may make (HB-ATK-03, HB-ACT-04): a Dodge (2d6 + Dexterity + Dodge, legs)
 * needs nearby cover or drops the defender to the ground; a Parry is 2d6 + Strength + Parry (main
 * arm); available unless {@link reactionReason} gives a reason.
 */
function reactionOption(
  input: HitboxAttackInput,
  weapon: HitboxWeapon,
  id: "dodge" | "parry",
  economy: Economy | undefined,
  options: HitboxOptions,
): HitboxReactionOption {
  const { target } = input;
  const reason = reactionReason(input, weapon, id, economy, options);
  const mods: Modifier[] = [];
  const n =
    id === "dodge"
      ? testModifier(target, "dexterity", "dodge", LEGS, "HB-ATK-03", mods)
      : testModifier(target, "strength", "parry", limbsFor(target, "parry"), "HB-ATK-03", mods);
  return {
    id,
    label: `FRAY.Reaction.${id}`,
    rule: "HB-ATK-03",
    available: !reason,
    reason,
    formula: n < 0 ? `2d6 - ${-n}` : `2d6 + ${n}`,
    modifiers: mods,
    cost: { slots: { reaction: 1 } },
    dropsProne: id === "dodge" && !input.situation?.targetNearCover,
  };
}

/**
 * The reactions a defender may make (HB-ATK-03, HB-ACT-04, HB-MOD-04, HB-DMG-03): the Dodge and
 * the Parry, each with the reason it is not available ({@link reactionReason}).
 * @throws FrayError `FRAY.Error.NoWeapon` when the attack's weapon is not the attacker's.
 */
export function reactions(input: HitboxAttackInput, economy: Economy | undefined, options: HitboxOptions): HitboxReactionOption[] {
  const weapon = weaponOf(input);
  return [reactionOption(input, weapon, "dodge", economy, options), reactionOption(input, weapon, "parry", economy, options)];
}

/**
 * The reaction the defender of `input` declared (`input.reaction`), as {@link reactions} offers it
 * (HB-ATK-03).
 * @throws FrayError `FRAY.Error.ReactionUnavailable` when it is not offered or not available.
 */
export function declaredOption(
  input: HitboxAttackInput,
  weapon: HitboxWeapon,
  economy: Economy | undefined,
  options: HitboxOptions,
): HitboxReactionOption {
  const id = input.reaction!;
  const offered = id === "dodge" || id === "parry" ? [reactionOption(input, weapon, id, economy, options)] : [];
  return declaredReaction(offered, id, input.target.name);
}

/** The base difficulty line of an attack without a reaction: 9 (HB-ATK-02). */
export function baseDifficulty(): Difficulty {
  return difficulty({ label: "FRAY.Hitbox.Base.standard", value: BASE_DIFFICULTY, rule: "HB-ATK-02" }, []);
}

/**
 * The difficulty a dodge or parry total sets (HB-ATK-03): the total itself, raised to 9 when the
 * `reactionFloor` setting is on. With `lines`, the raise is pushed there as an itemized line.
 */
export function reactionDifficultyTotal(total: number, options: Pick<HitboxOptions, "reactionFloor">, lines?: Modifier[]): number {
  if (!options.reactionFloor || total >= BASE_DIFFICULTY) return total;
  if (lines) lines.push({ label: "FRAY.Mod.HitboxReactionFloor", value: BASE_DIFFICULTY - total, rule: "HB-ATK-03" });
  return BASE_DIFFICULTY;
}

/** The itemized difficulty of {@link reactionDifficultyTotal} (HB-ATK-03). */
export function reactionDifficulty(id: "dodge" | "parry", total: number, options: Pick<HitboxOptions, "reactionFloor">): Difficulty {
  const mods: Modifier[] = [];
  reactionDifficultyTotal(total, options, mods);
  return difficulty({ label: `FRAY.Hitbox.Base.${id}`, value: total, rule: "HB-ATK-03" }, mods);
}

/**
 * True when an attack total hits (HB-ATK-02 to HB-ATK-04): it meets the difficulty; against a
 * reaction, a tie goes to the defender under the `reactionTies: defender` setting.
 */
export function beats(total: number, difficultyTotal: number, reacted: boolean, options: Pick<HitboxOptions, "reactionTies">): boolean {
  return total > difficultyTotal || (total === difficultyTotal && !(reacted && options.reactionTies === "defender"));
}

/**
 * The weapon of an attack, once the attack is known to be possible (HB-ATK-01, HB-DMG-03,
 * HB-MOD-01, HB-MOD-03, HB-LOC-02): the attacker can act, holds the weapon and has the limbs it
 * needs; a called shot names a hitbox other than the torso; the range in feet is 0 or more and
 * within the weapon's; the shots are a whole number within the weapon's.
 * @throws FrayError `FRAY.Error.CannotAct`, `FRAY.Error.NoWeapon`, `FRAY.Error.HitboxLimbDisabled`,
 *   `FRAY.Error.Field` (`calledShot`, `rangeFeet`, `shots`), `FRAY.Error.HitboxOutOfRange`,
 *   `FRAY.Error.HitboxShots`.
 */
export function usableWeapon(input: HitboxAttackInput): HitboxWeapon {
  const { attacker } = input;
  if (isDown(attacker)) throw new FrayError("FRAY.Error.CannotAct", { actor: attacker.name }, `${attacker.name} cannot act`);
  const weapon = weaponOf(input);
  const disabled = disabledLimb(attacker, limbsFor(attacker, weapon));
  if (disabled) {
    throw new FrayError(
      "FRAY.Error.HitboxLimbDisabled",
      { actor: attacker.name, limb: `FRAY.Hitbox.${disabled}` },
      `${attacker.name} cannot use the ${disabled}`,
    );
  }
  if (input.calledShot !== undefined && (!isHitbox(input.calledShot) || input.calledShot === "torso")) {
    throw new FrayError(
      "FRAY.Error.Field",
      { field: "calledShot", expected: CALLABLE.join(", ") },
      `Cannot call a shot at "${String(input.calledShot)}"`,
    );
  }
  if (input.rangeFeet !== undefined) {
    if (!Number.isFinite(input.rangeFeet) || input.rangeFeet < 0) {
      throw new FrayError(
        "FRAY.Error.Field",
        { field: "rangeFeet", expected: "feet, 0 or more" },
        `Field "rangeFeet": expected feet, 0 or more`,
      );
    }
    if (input.rangeFeet > weapon.rangeFeet) {
      throw new FrayError(
        "FRAY.Error.HitboxOutOfRange",
        { weapon: weapon.name, feet: shownFeet(input.rangeFeet), max: weapon.rangeFeet },
        `${weapon.name} does not reach ${input.rangeFeet} ft (${weapon.rangeFeet} ft)`,
      );
    }
  }
  const shots = input.shots ?? 1;
  if (!Number.isInteger(shots) || shots < 1)
    throw new FrayError(
      "FRAY.Error.Field",
      { field: "shots", expected: "a whole number of shots, 1 or more" },
      `Field "shots": expected 1 or more`,
    );
  if (shots > weapon.maxShots) {
    throw new FrayError(
      "FRAY.Error.HitboxShots",
      { weapon: weapon.name, shots, max: weapon.maxShots },
      `${weapon.name} fires at most ${weapon.maxShots} shot(s) a turn`,
    );
  }
  return weapon;
}

/**
 * Plans a Hitbox attack (HB-ATK-01 to HB-ATK-03, HB-MOD-01 to HB-MOD-03, HB-DMG-03): the 2d6 test
 * with ability, weapon skill and circumstance lines against 9, or against the defender's dodge or
 * parry (its total when already rolled this turn; else 9 until `resolveAttack` rolls it).
 * `input.rangeFeet` is in feet.
 * @throws FrayError as {@link usableWeapon}, and `FRAY.Error.ReactionUnavailable` (a declared
 *   reaction the defender cannot make).
 */
export function planAttack(
  input: HitboxAttackInput,
  options: HitboxOptions,
  economy?: Economy,
): AttackPlan & { reaction?: HitboxReactionOption } {
  const { attacker, target } = input;
  const weapon = usableWeapon(input);
  const modifiers: Modifier[] = [];
  attackModifier(input, weapon, options, modifiers);
  const plan: AttackPlan & { reaction?: HitboxReactionOption } = {
    ruleset: "hitbox",
    attackerId: attacker.id,
    targetId: target.id,
    weaponId: weapon.id,
    dice: "2d6",
    modifiers,
    difficulty: baseDifficulty(),
  };
  const rolled = input.rolledReaction;
  if (rolled) {
    const option = reactionOption({ ...input, rolledReaction: undefined }, weapon, rolled.id, undefined, options);
    plan.reaction = { ...option, available: true, reason: undefined, modifiers: rolled.check.modifiers, dropsProne: rolled.dropsProne };
    plan.difficulty = reactionDifficulty(rolled.id, rolled.check.total, options);
  } else if (input.reaction) {
    plan.reaction = declaredOption(input, weapon, economy, options);
  }
  return plan;
}

/** The outcome of a Hitbox attack: the shared result plus what Hitbox tracks. */
export interface HitboxAttackResult extends AttackResult {
  location?: HitLocation & { called?: HitboxId };
  /** The defender's reaction as it stands for the rest of the turn (rolled now or earlier). */
  rolledReaction?: RolledReaction;
  /** True when the reaction was rolled by this attack (the first attack on the defender this turn). */
  reactionRolledNow: boolean;
  /** The target never saw it coming: one more point of damage (HB-ATK-05). */
  neverSawItComing: boolean;
}

/** What {@link rollAttack} rolled. */
export interface HitboxRolled {
  /** The attack test's total. */
  total: number;
  /** The reaction's 2d6 when this attack rolled it, else undefined. */
  reactionNatural: number | undefined;
  /** The difficulty the test met or missed. */
  difficulty: number;
  hit: boolean;
  /** The hitbox hit; undefined on a miss. */
  location: HitboxId | undefined;
}

/**
 * Rolls an attack (HB-ATK-02 to HB-ATK-04, HB-LOC-01, HB-LOC-02): the 2d6 test plus `modifier`;
 * then the declared dodge or parry not yet rolled this turn (`reaction`, 2d6 plus
 * `reactionModifier`), whose total (or `rolledTotal`, the one rolled earlier this turn) sets the
 * difficulty ({@link reactionDifficultyTotal}), else `base`; a hit as {@link beats} says; on a hit
 * the 2d6 location on the called-shot table for `called`, else the regular table. With `kept`,
 * every roll's outcome is kept there in that order.
 */
export function rollAttack(
  modifier: number,
  base: number,
  reaction: "dodge" | "parry" | undefined,
  reactionModifier: number,
  rolledTotal: number | undefined,
  called: HitboxId | undefined,
  options: HitboxOptions,
  dice: SyncDiceRoller,
  kept?: RollOutcome[],
): HitboxRolled {
  const total = rollKept(dice, "2d6", "FRAY.Roll.Attack", kept) + modifier;
  let reactionNatural: number | undefined;
  let reactionTotal = rolledTotal;
  if (reaction !== undefined) {
    reactionNatural = rollKept(dice, "2d6", reaction === "dodge" ? "FRAY.Roll.Dodge" : "FRAY.Roll.Parry", kept);
    reactionTotal = reactionNatural + reactionModifier;
  }
  const reacted = reactionTotal !== undefined;
  const difficultyTotal = reactionTotal !== undefined ? reactionDifficultyTotal(reactionTotal, options) : base;
  const hit = beats(total, difficultyTotal, reacted, options);
  const location = hit
    ? locationFor(called, rollKept(dice, "2d6", called ? "FRAY.Roll.CalledLocation" : "FRAY.Roll.Location", kept))
    : undefined;
  return { total, reactionNatural, difficulty: difficultyTotal, hit, location };
}

/**
 * Rolls a planned attack with {@link rollAttack} (HB-ATK-02 to HB-ATK-04, HB-LOC-01, HB-LOC-02):
 * the 2d6 test first; then the defender's dodge or parry when declared and not yet rolled this
 * turn, whose total becomes the difficulty; a hit when the test meets the difficulty (a tie
 * against a reaction goes to the defender under the `reactionTies: defender` setting). A hit
 * rolls the location on the called-shot table for a called shot, else on the regular table.
 * @throws FrayError `FRAY.Error.Field` (field `calledShot`) for a hitbox that cannot be called,
 *   before anything is rolled.
 */
export function resolveAttack(
  plan: AttackPlan,
  input: HitboxAttackInput,
  dice: DiceRoller,
  options: HitboxOptions,
): Promise<HitboxAttackResult> {
  const called = input.calledShot;
  if (called) locationFor(called, 12);
  return playWith(dice, (sync): HitboxAttackResult => {
    const kept: RollOutcome[] = [];
    const r = plan.reaction;
    const earlier = r ? input.rolledReaction : undefined;
    const id = r && !input.rolledReaction ? (r.id === "parry" ? "parry" : "dodge") : undefined;
    const rolled = rollAttack(
      sumModifiers(plan.modifiers),
      plan.difficulty.total,
      id,
      id ? sumModifiers(r!.modifiers) : 0,
      earlier?.check.total,
      called,
      options,
      sync,
      kept,
    );
    const check = checkOf(kept[0]!, plan.modifiers);
    let now: RolledReaction | undefined = input.rolledReaction;
    if (id) {
      const drops = (r as Partial<HitboxReactionOption>).dropsProne ?? (id === "dodge" && !input.situation?.targetNearCover);
      now = { id, check: checkOf(kept[1]!, r!.modifiers), dropsProne: drops };
    }
    const diff = r && now ? reactionDifficulty(now.id, now.check.total, options) : plan.difficulty;
    const reaction: ReactionResult | undefined =
      r && now ? { id: now.id, rule: "HB-ATK-03", check: now.check, success: !rolled.hit, effect: "negate" } : undefined;
    return {
      plan: { ...plan, difficulty: diff },
      check,
      hit: rolled.hit,
      reaction,
      lands: rolled.hit,
      location: rolled.hit ? locationOf(kept[kept.length - 1]!, called) : undefined,
      rolledReaction: now,
      reactionRolledNow: id !== undefined,
      neverSawItComing: neverSawItComing(input),
    };
  });
}

/** A 2d6 test read from its roll and its itemized modifiers. */
function checkOf(roll: RollOutcome, mods: Modifier[]): CheckResult {
  return { roll, natural: roll.total, modifiers: mods, total: roll.total + sumModifiers(mods) };
}

/**
 * 2d6 tests by modifier: each built once, from the 2d6 distribution built when the module loads
 * (`plainDicePmf`: a few dozen additions, no formula parsed), so that the first exact odds of a
 * dialog run no cold code to build it (issue 14).
 */
const testPmfs = new Map<number, Pmf>([[0, plainDicePmf(2, 6)]]);

/**
 * The PMF of a 2d6 test with a flat modifier: the distribution of `2d6 + modifier`, the same
 * chances as `2d6` moved by the modifier. Built once per modifier; callers only read it.
 */
export function testPmf(modifier: number): Pmf {
  let pmf = testPmfs.get(modifier);
  if (!pmf) {
    pmf = shift(testPmfs.get(0)!, modifier);
    testPmfs.set(modifier, pmf);
  }
  return pmf;
}

/**
 * Exact odds of a planned attack (HB-ATK-02 to HB-ATK-04, HB-LOC-02): P(2d6 + modifiers >= the
 * difficulty); against a declared reaction not yet rolled, P(attack total beats the reaction's
 * 2d6 total) with ties and the floor of 9 as the settings say. For a called shot, `outcomes.called`
 * is P(hit and the called hitbox is struck).
 */
export function odds(plan: AttackPlan, input: HitboxAttackInput, options: HitboxOptions): AttackOdds {
  const attack = testPmf(sumModifiers(plan.modifiers));
  let hit: number;
  if (plan.reaction && !input.rolledReaction) {
    const reaction = testPmf(sumModifiers(plan.reaction.modifiers));
    // The reaction totals an attack total beats are a prefix of the ascending totals (the
    // difficulty they make only grows), so P(beat) is a running sum, added in the same order.
    const difficulties: number[] = [];
    const beaten: number[] = [];
    let running = 0;
    for (const [r, pr] of reaction) {
      difficulties.push(reactionDifficultyTotal(r, options));
      beaten.push((running += pr));
    }
    hit = 0;
    let n = 0;
    for (const [a, pa] of attack) {
      while (n < difficulties.length && beats(a, difficulties[n]!, true, options)) n++;
      hit += pa * (n ? beaten[n - 1]! : 0);
    }
  } else if (plan.reaction) {
    const d = plan.difficulty.total;
    hit = options.reactionTies === "defender" ? atLeast(attack, d + 1) : atLeast(attack, d);
  } else {
    hit = atLeast(attack, plan.difficulty.total);
  }
  const out: AttackOdds = { hit };
  if (plan.reaction) out.throughReaction = hit;
  if (input.calledShot && input.calledShot !== "torso") out.outcomes = { called: hit * calledChance(input.calledShot) };
  return out;
}

/**
 * The result of an attack after the defender answered it on the card (HB-ATK-03, HB-ATK-04):
 * the dodge or parry is rolled with `dice` (2d6 with the option's modifiers), or, when the
 * defender already rolled one this turn, that total is used again without a roll; the total
 * becomes the difficulty (raised to 9 under `reactionFloor`), and the attack total already
 * rolled hits when it meets it (a tie goes to the defender under `reactionTies: defender`). The
 * hit location rolled with the attack stays when it still hits and is dropped when it does not.
 * @param result the attack as rolled against the base difficulty.
 * @param option the reaction the core offers (`reactions`), whose modifiers the roll adds.
 * @param rolled the defender's reaction already rolled this turn, when there is one.
 * @throws FrayError from the dice port.
 */
export async function reactAfterAttack(
  result: AttackResult,
  option: ReactionOption,
  dice: DiceRoller,
  options: HitboxOptions,
  rolled?: RolledReaction,
): Promise<HitboxAttackResult> {
  const id = option.id === "parry" ? "parry" : "dodge";
  const dropsProne = (option as Partial<HitboxReactionOption>).dropsProne ?? id === "dodge";
  const now: RolledReaction = rolled ?? {
    id,
    check: checkOf(await dice.roll("2d6", id === "dodge" ? "FRAY.Roll.Dodge" : "FRAY.Roll.Parry"), option.modifiers),
    dropsProne,
  };
  const diff = reactionDifficulty(now.id, now.check.total, options);
  const hit = beats(result.check.total, diff.total, true, options);
  const prior = result as Partial<HitboxAttackResult>;
  const out: HitboxAttackResult = {
    ...result,
    plan: { ...result.plan, difficulty: diff, reaction: { ...option, modifiers: now.check.modifiers } },
    hit,
    lands: hit,
    reaction: { id: now.id, rule: "HB-ATK-03", check: now.check, success: !hit, effect: "negate" },
    rolledReaction: now,
    reactionRolledNow: !rolled,
    neverSawItComing: prior.neverSawItComing ?? false,
  };
  if (!hit) delete out.location;
  return out;
}
