import { declaredReaction } from "../core/reaction.js";
import { atLeast, plainDicePmf, shift, type Pmf } from "../core/dice/distribution.js";
import type { DiceRoller } from "../core/dice/port.js";
import type { Economy } from "../core/economy.js";
import { FrayError } from "../core/errors.js";
import type { AttackOdds, AttackPlan, AttackResult, HitLocation, ReactionOption, ReactionResult } from "../core/ruleset.js";
import { difficulty, sumModifiers, type CheckResult, type Difficulty, type Modifier } from "../core/types.js";
import type { HitboxAttackInput, RolledReaction } from "./input.js";
import { CALLABLE, calledChance, rollLocation } from "./location.js";
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

/**
 * The limbs a test uses (HB-DMG-03; RULES.md): a one-handed weapon the main arm, a two-handed one
 * both arms, a parry the main arm, a dodge both legs.
 */
export function limbsFor(c: HitboxCombatant, use: "dodge" | "parry" | HitboxWeapon): LimbId[] {
  if (use === "dodge") return ["leftLeg", "rightLeg"];
  if (use === "parry") return [mainArm(c)];
  return use.hands === 2 ? ["leftArm", "rightArm"] : [mainArm(c)];
}

/**
 * The itemized bonus of a 2d6 test: ability + skill (HB-ATK-02), and when a limb the test uses is
 * damaged and the character is not `medicated`, a line taking away half of a positive bonus,
 * rounded in the character's disfavour (HB-DMG-03).
 */
export function testBonus(
  c: HitboxCombatant,
  ability: AbilityId,
  skill: SkillId,
  limbs: readonly LimbId[],
  rule: Modifier["rule"],
): Modifier[] {
  const lines: Modifier[] = [
    { label: "FRAY.Mod.HitboxAbility", value: abilityOf(c.abilities, ability), rule, data: { ability: `FRAY.Hitbox.Ability.${ability}` } },
    { label: "FRAY.Mod.HitboxSkill", value: skillOf(c.skills, skill), rule, data: { skill: `FRAY.Hitbox.Skill.${skill}` } },
  ];
  const damaged = limbs.find((l) => isDamaged(c, l));
  const sum = sumModifiers(lines);
  if (damaged && !has(c, "medicated") && sum > 0) {
    lines.push({
      label: "FRAY.Mod.HitboxDamagedLimb",
      // Half the test rounded down, by a shift: the ratings are whole numbers and `sum` is above 0.
      // (A division gives a fraction for an odd sum, and compiled code that had met only even
      // sums was thrown away at the first odd one.)
      value: (sum >> 1) - sum,
      rule: "HB-DMG-03",
      data: { limb: `FRAY.Hitbox.${damaged}` },
    });
  }
  return lines;
}

/** Feet rounded to one decimal for display. */
const shownFeet = (feet: number) => Math.round(feet * 10) / 10;

/**
 * The range line of a ranged or thrown attack, distance in **feet** (HB-MOD-01): less than 20 ft
 * +1; more than 50 ft -1 for every 50 ft or part of it beyond 50 (51-100 ft -1, 101-150 ft -2);
 * none from 20 to 50 ft.
 */
export function rangeModifier(feet: number): Modifier | undefined {
  if (feet < CLOSE_FEET) return { label: "FRAY.Mod.HitboxClose", value: 1, rule: "HB-MOD-01", data: { feet: shownFeet(feet) } };
  if (feet > FAR_FEET) {
    const steps = Math.ceil((feet - FAR_FEET) / FAR_FEET);
    return { label: "FRAY.Mod.HitboxFar", value: -steps, rule: "HB-MOD-01", data: { feet: shownFeet(feet) } };
  }
  return undefined;
}

/**
 * The rapid-fire line of one shot when `shots` are fired this turn (HB-MOD-03): -2 per shot
 * beyond the first (`perExtraShot`, default) or -2 whenever more than one is fired (`flat`).
 */
export function rapidFireModifier(shots: number, mode: HitboxOptions["rapidFire"]): Modifier | undefined {
  if (shots <= 1) return undefined;
  const value = mode === "flat" ? -2 : -2 * (shots - 1);
  return { label: "FRAY.Mod.HitboxRapidFire", value, rule: "HB-MOD-03", data: { shots } };
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
 * The circumstance lines of an attack (HB-MOD-01 to HB-MOD-03): range (ranged and thrown attacks
 * only), half hidden -1, darkness or dim light -1, target prone -1, called shot -2, rapid fire.
 */
export function circumstances(input: HitboxAttackInput, weapon: HitboxWeapon, options: HitboxOptions): Modifier[] {
  const s = input.situation ?? {};
  const mods: Modifier[] = [];
  if (input.calledShot)
    mods.push({ label: "FRAY.Mod.HitboxCalled", value: -2, rule: "HB-MOD-03", data: { location: `FRAY.Hitbox.${input.calledShot}` } });
  const rapid = rapidFireModifier(input.shots ?? 1, options.rapidFire);
  if (rapid) mods.push(rapid);
  if (s.targetProne ?? has(input.target, "prone")) mods.push({ label: "FRAY.Mod.HitboxProne", value: -1, rule: "HB-MOD-02" });
  if (s.halfHidden) mods.push({ label: "FRAY.Mod.HitboxHidden", value: -1, rule: "HB-MOD-02" });
  if (s.dark) mods.push({ label: "FRAY.Mod.HitboxDark", value: -1, rule: "HB-MOD-02" });
  if (weapon.kind !== "melee" && input.rangeFeet !== undefined) {
    const range = rangeModifier(input.rangeFeet);
    if (range) mods.push(range);
  }
  if (s.misc) mods.push({ label: "FRAY.Mod.HitboxMisc", value: s.misc, rule: "HB-ATK-02" });
  return mods;
}

/** A reaction option with what it does to the defender. */
export interface HitboxReactionOption extends ReactionOption {
  id: "dodge" | "parry";
  /** A dodge without cover nearby drops the defender to the ground (HB-ATK-03, HB-ACT-04). */
  dropsProne: boolean;
}

/**
 * The reactions a defender may make (HB-ATK-03, HB-ACT-04, HB-MOD-04, HB-DMG-03): a Dodge
 * (2d6 + Dexterity + Dodge, legs) needs nearby cover or drops the defender to the ground, and is
 * impossible for a target already prone; a Parry (2d6 + Strength + Parry, main arm) needs an object
 * held and, unless the setting allows it, a melee attack. Neither is possible for a defender who is
 * down, unaware of the attacker, or has already spent the turn's reaction; a full limb the
 * reaction needs rules it out.
 */
export function reactions(input: HitboxAttackInput, economy: Economy | undefined, options: HitboxOptions): HitboxReactionOption[] {
  const { target } = input;
  const s = input.situation ?? {};
  const weapon = weaponOf(input);
  const used = economy ? (economy.slots.reaction?.used ?? 0) >= 1 : false;
  const common = isDown(target)
    ? "FRAY.Reason.Incapacitated"
    : (s.targetUnaware ?? has(target, "unaware"))
      ? "FRAY.Reason.Unanticipated"
      : used
        ? "FRAY.Reason.ReactionUsed"
        : undefined;
  const build = (id: "dodge" | "parry", reason: string | undefined): HitboxReactionOption => {
    const mods =
      id === "dodge"
        ? testBonus(target, "dexterity", "dodge", limbsFor(target, "dodge"), "HB-ATK-03")
        : testBonus(target, "strength", "parry", limbsFor(target, "parry"), "HB-ATK-03");
    const n = sumModifiers(mods);
    return {
      id,
      label: `FRAY.Reaction.${id}`,
      rule: "HB-ATK-03",
      available: !reason,
      reason,
      formula: n < 0 ? `2d6 - ${-n}` : `2d6 + ${n}`,
      modifiers: mods,
      cost: { slots: { reaction: 1 } },
      dropsProne: id === "dodge" && !s.targetNearCover,
    };
  };
  const prone = s.targetProne ?? has(target, "prone");
  const dodgeReason =
    common ??
    (prone
      ? "FRAY.Reason.HitboxProne"
      : limbsFor(target, "dodge").some((l) => isDisabled(target, l))
        ? "FRAY.Reason.HitboxLimbDisabled"
        : undefined);
  const parryReason =
    common ??
    (target.held.length === 0
      ? "FRAY.Reason.HitboxNothingHeld"
      : weapon.kind !== "melee" && !options.parryRanged
        ? "FRAY.Reason.RangedAttack"
        : limbsFor(target, "parry").some((l) => isDisabled(target, l))
          ? "FRAY.Reason.HitboxLimbDisabled"
          : undefined);
  return [build("dodge", dodgeReason), build("parry", parryReason)];
}

/** The base difficulty line of an attack without a reaction: 9 (HB-ATK-02). */
export function baseDifficulty(): Difficulty {
  return difficulty({ label: "FRAY.Hitbox.Base.standard", value: BASE_DIFFICULTY, rule: "HB-ATK-02" }, []);
}

/**
 * The difficulty a dodge or parry total sets (HB-ATK-03): the total itself, raised to 9 when the
 * `reactionFloor` setting is on.
 */
export function reactionDifficulty(id: "dodge" | "parry", total: number, options: Pick<HitboxOptions, "reactionFloor">): Difficulty {
  const mods: Modifier[] = [];
  if (options.reactionFloor && total < BASE_DIFFICULTY)
    mods.push({ label: "FRAY.Mod.HitboxReactionFloor", value: BASE_DIFFICULTY - total, rule: "HB-ATK-03" });
  return difficulty({ label: `FRAY.Hitbox.Base.${id}`, value: total, rule: "HB-ATK-03" }, mods);
}

/**
 * Plans a Hitbox attack (HB-ATK-01 to HB-ATK-03, HB-MOD-01 to HB-MOD-03, HB-DMG-03): the 2d6 test
 * with ability, weapon skill and circumstance lines against 9, or against the defender's dodge or
 * parry (its total when already rolled this turn; else 9 until `resolveAttack` rolls it).
 * `input.rangeFeet` is in feet.
 * @throws FrayError `FRAY.Error.CannotAct` (attacker down), `FRAY.Error.NoWeapon`,
 *   `FRAY.Error.HitboxLimbDisabled` (the weapon needs a full limb), `FRAY.Error.Field` (field
 *   `calledShot`, `rangeFeet` or `shots`), `FRAY.Error.HitboxOutOfRange`, `FRAY.Error.HitboxShots`,
 *   `FRAY.Error.ReactionUnavailable` (a declared reaction the defender cannot make).
 */
export function planAttack(
  input: HitboxAttackInput,
  options: HitboxOptions,
  economy?: Economy,
): AttackPlan & { reaction?: HitboxReactionOption } {
  const { attacker, target } = input;
  if (isDown(attacker)) throw new FrayError("FRAY.Error.CannotAct", { actor: attacker.name }, `${attacker.name} cannot act`);
  const weapon = weaponOf(input);
  const disabled = limbsFor(attacker, weapon).find((l) => isDisabled(attacker, l));
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
  const modifiers = [
    ...testBonus(attacker, weapon.ability, weapon.skill, limbsFor(attacker, weapon), "HB-ATK-02"),
    ...circumstances(input, weapon, options),
  ];
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
    const option = reactions({ ...input, rolledReaction: undefined }, undefined, options).find((r) => r.id === rolled.id)!;
    plan.reaction = { ...option, available: true, reason: undefined, modifiers: rolled.check.modifiers, dropsProne: rolled.dropsProne };
    plan.difficulty = reactionDifficulty(rolled.id, rolled.check.total, options);
  } else if (input.reaction) {
    plan.reaction = declaredReaction(reactions(input, economy, options), input.reaction, target.name);
  }
  return plan;
}

async function rollCheck(dice: DiceRoller, mods: Modifier[], purpose: string): Promise<CheckResult> {
  const roll = await dice.roll("2d6", purpose);
  return { roll, natural: roll.total, modifiers: mods, total: roll.total + sumModifiers(mods) };
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

/**
 * Rolls a planned attack (HB-ATK-02 to HB-ATK-04): the 2d6 test first; then the defender's dodge
 * or parry when declared and not yet rolled this turn, whose total becomes the difficulty; a hit
 * when the test meets the difficulty (a tie against a reaction goes to the defender under the
 * `reactionTies: defender` setting). A hit rolls the location on the called-shot table for a called
 * shot (HB-LOC-02), else on the regular table (HB-LOC-01).
 */
export async function resolveAttack(
  plan: AttackPlan,
  input: HitboxAttackInput,
  dice: DiceRoller,
  options: HitboxOptions,
): Promise<HitboxAttackResult> {
  const check = await rollCheck(dice, plan.modifiers, "FRAY.Roll.Attack");
  let rolled = input.rolledReaction;
  let rolledNow = false;
  let diff = plan.difficulty;
  if (plan.reaction && !rolled) {
    const r = plan.reaction;
    const id = r.id === "parry" ? "parry" : "dodge";
    const rc = await rollCheck(dice, r.modifiers, id === "dodge" ? "FRAY.Roll.Dodge" : "FRAY.Roll.Parry");
    const drops = (r as Partial<HitboxReactionOption>).dropsProne ?? (id === "dodge" && !input.situation?.targetNearCover);
    rolled = { id, check: rc, dropsProne: drops };
    rolledNow = true;
  }
  if (plan.reaction && rolled) diff = reactionDifficulty(rolled.id, rolled.check.total, options);
  const tieFails = Boolean(plan.reaction) && options.reactionTies === "defender";
  const hit = check.total > diff.total || (check.total === diff.total && !tieFails);
  let reaction: ReactionResult | undefined;
  if (plan.reaction && rolled) reaction = { id: rolled.id, rule: "HB-ATK-03", check: rolled.check, success: !hit, effect: "negate" };
  const location = hit ? await rollLocation(dice, input.calledShot) : undefined;
  return {
    plan: { ...plan, difficulty: diff },
    check,
    hit,
    reaction,
    lands: hit,
    location,
    rolledReaction: rolled,
    reactionRolledNow: rolledNow,
    neverSawItComing: neverSawItComing(input),
  };
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
    const tieFails = options.reactionTies === "defender";
    // The reaction totals an attack total beats are a prefix of the ascending totals (the
    // difficulty they make only grows), so P(beat) is a running sum, added in the same order.
    const difficulties: number[] = [];
    const beaten: number[] = [];
    let running = 0;
    for (const [r, pr] of reaction) {
      difficulties.push(options.reactionFloor ? Math.max(BASE_DIFFICULTY, r) : r);
      beaten.push((running += pr));
    }
    hit = 0;
    let n = 0;
    for (const [a, pa] of attack) {
      while (n < difficulties.length && (a > difficulties[n]! || (a === difficulties[n]! && !tieFails))) n++;
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
    check: await rollCheck(dice, option.modifiers, id === "dodge" ? "FRAY.Roll.Dodge" : "FRAY.Roll.Parry"),
    dropsProne,
  };
  const diff = reactionDifficulty(now.id, now.check.total, options);
  const total = result.check.total;
  const hit = total > diff.total || (total === diff.total && options.reactionTies !== "defender");
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
