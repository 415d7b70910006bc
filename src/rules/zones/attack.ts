import { atLeast } from "../core/dice/distribution.js";
import { playWith, rollKept, type DiceRoller, type SyncDiceRoller } from "../core/dice/port.js";
import type { ActionCost, Economy } from "../core/economy.js";
import { FrayError } from "../core/errors.js";
import type { AttackOdds, AttackPlan, AttackResult, ReactionOption, ReactionResult } from "../core/ruleset.js";
import { difficulty, sumModifiers, type CheckResult, type Modifier, type RollOutcome } from "../core/types.js";
import { blockLines, CHECK_DIE, checkFormula, checkPmf, skillModifier } from "./checks.js";
import { HIT_ZONE_DICE, hitLocation, zoneForRoll } from "./damage.js";
import { BASE_DIFFICULTY, rangedDifficultyTotal, sizeFromStance, type RangedFactors } from "./difficulty.js";
import type { ZonesAttackInput } from "./input.js";
import {
  MOVEMENTS,
  restate,
  type HitZoneId,
  type Malfunction,
  type MovementCategory,
  type SizeCategory,
  type ZonesCombatant,
  type ZonesWeapon,
} from "./model.js";
import type { ZonesOptions } from "./options.js";
import { movementOfLegs, type MovedLeg } from "./turn.js";

/** Melee reach in metres (ZN-MEL-01). */
export const MELEE_REACH = 1;

/**
 * The distance between the centres of two adjacent squares of a 1.5 m grid: the hosts measure
 * between token centres, so a melee attack at up to this distance is taken as within the seed's
 * 1 m reach (ZN-MEL-01, RULES.md).
 */
export const ADJACENT_SQUARES = 1.5;

/** Full auto fires this many bullets when the attack does not say (capped by what is loaded). */
export const DEFAULT_AUTO_BULLETS = 10;

/** Conditions that keep a combatant from acting or reacting. */
const OUT = ["unconscious", "incapacitated", "dead"];

const has = (c: ZonesCombatant, condition: string) => c.conditions.includes(condition);

/** True when the combatant cannot act or react. */
export function isIncapacitated(c: ZonesCombatant): boolean {
  // One pass over the combatant's conditions (mostly none; asked several times an attack).
  const conditions = c.conditions;
  for (let i = 0; i < conditions.length; i++) if (OUT.includes(conditions[i]!)) return true;
  return false;
}

/** A Zones attack result: the shared result plus what the weapon went through (ZN-MAL-01, ZN-GRN-01). */
export interface ZonesAttackResult extends AttackResult {
  /** A shot fired behind a squib load: the weapon bursts (ZN-MAL-01). */
  catastrophic?: boolean;
  /** A malfunction that happened during this shot and stays until cleared (ZN-MAL-01). */
  malfunction?: Malfunction;
  /** Rounds that left the magazine. */
  spent?: number;
  /** A grenade that missed lands this many metres off the target area (RULES.md). */
  deviation?: number;
}

/**
 * The weapon an attack uses.
 * @throws FrayError `FRAY.Error.NoWeapon` when it is not the attacker's.
 */
export function weaponOf(input: Pick<ZonesAttackInput, "attacker" | "weaponId">): ZonesWeapon {
  // The first weapon with that id or name (several times an attack: a plain loop).
  const { weapons } = input.attacker;
  const id = input.weaponId;
  let weapon: ZonesWeapon | undefined;
  for (let i = 0; i < weapons.length && !weapon; i++) if (weapons[i]!.id === id || weapons[i]!.name === id) weapon = weapons[i];
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
 * Bullets an attack fires (ZN-BST-01): 1 for a single shot, the weapon's burst size for a
 * burst, the given count (default 10) for full auto, never more than are loaded.
 * @throws FrayError `FRAY.Error.NoMode` when the weapon cannot fire that way,
 *   `FRAY.Error.Field` (field `bullets`) for fewer than 2 bullets of full auto.
 */
export function bulletsOf(input: Pick<ZonesAttackInput, "modeId" | "bullets">, weapon: ZonesWeapon): number {
  const mode = input.modeId ?? "single";
  if (weapon.kind !== "firearm") {
    if (mode !== "single")
      throw new FrayError("FRAY.Error.NoMode", { mode, weapon: weapon.name }, `${weapon.name} has no firing mode "${mode}"`);
    return 1;
  }
  let wanted = 1;
  if (mode === "burst") {
    if (weapon.burst < 2) throw new FrayError("FRAY.Error.NoMode", { mode, weapon: weapon.name }, `${weapon.name} cannot fire bursts`);
    wanted = weapon.burst;
  } else if (mode === "auto") {
    if (!weapon.auto) throw new FrayError("FRAY.Error.NoMode", { mode, weapon: weapon.name }, `${weapon.name} cannot fire full auto`);
    wanted = input.bullets ?? DEFAULT_AUTO_BULLETS;
    if (!Number.isInteger(wanted) || wanted < 2)
      throw new FrayError(
        "FRAY.Error.Field",
        { field: "bullets", expected: "a whole number of bullets, 2 or more" },
        "Full auto fires 2 or more bullets",
      );
  } else if (mode !== "single") {
    throw new FrayError("FRAY.Error.NoMode", { mode, weapon: weapon.name }, `${weapon.name} has no firing mode "${String(mode)}"`);
  }
  return Math.max(1, Math.min(wanted, weapon.loaded));
}

/**
 * Each bullet's difficulty (ZN-BST-01): the first the attack's, each later one the weapon's
 * recoil higher than the one before.
 */
export function bulletDifficulties(total: number, recoil: number, bullets: number): number[] {
  return Array.from({ length: bullets }, (_, i) => total + i * recoil);
}

/** How many bullets a check total hits with (ZN-BST-01): every bullet whose difficulty it meets. */
export function bulletsHit(checkTotal: number, difficulties: readonly number[]): number {
  return difficulties.filter((d) => checkTotal >= d).length;
}

/** The target's movement for the table (ZN-RNG-04): a helpless, bound or unconscious body is still. */
export function targetMovementOf(target: ZonesCombatant): MovementCategory {
  if (isIncapacitated(target) || has(target, "bound")) return "still";
  return target.movement;
}

/**
 * A combatant whose movement category follows from how its token moved since the round began
 * (ZN-RNG-04, RULES.md): {@link movementOfLegs} of the legs (fast for a run or running jump, slow
 * for any other way of moving) when that is faster than its own category (the sheet's, subtle by
 * default), else its own. The attack dialog's target and shooter
 * movement default to it ({@link targetMovementOf} keeps a helpless body still); the GM or the
 * attacker may still pick another there.
 */
export function withMovedLegs(c: ZonesCombatant, legs: readonly MovedLeg[]): ZonesCombatant {
  const moved = movementOfLegs(legs);
  const rank = (m: MovementCategory) => MOVEMENTS.indexOf(m);
  return moved && rank(moved) > rank(c.movement) ? restate(c, { movement: moved }) : c;
}

/**
 * A melee attack's own checks (ZN-MEL-01): the target within reach (`rangeMetres`, metres;
 * {@link MELEE_REACH} when unset) and no aimed zone.
 * @throws FrayError `FRAY.Error.Zones.OutOfReach` (field `range`) beyond reach, `FRAY.Error.Field`
 *   (field `aimedZone`) with an aimed zone.
 */
export function checkMelee(input: Pick<ZonesAttackInput, "rangeMetres" | "situation">): void {
  const s = input.situation ?? {};
  const range = input.rangeMetres ?? MELEE_REACH;
  if (range > MELEE_REACH)
    throw new FrayError(
      "FRAY.Error.Zones.OutOfReach",
      { field: "range", range, reach: MELEE_REACH },
      `${range} m is beyond melee reach (${MELEE_REACH} m)`,
    );
  if (s.aimedZone)
    throw new FrayError(
      "FRAY.Error.Field",
      { field: "aimedZone", expected: "no aimed zone in melee (ranged attacks only)" },
      "Zones can be aimed at with ranged attacks only",
    );
}

/**
 * The weapon of an attack the attacker can make with it (ZN-MAL-01, ZN-BST-01): an attacker able
 * to act and not surprised, a weapon of theirs that is drawn, not broken, not jammed (a squib load
 * fires, and bursts it), a firearm with rounds loaded and a firing mode it has, and a target
 * unless a grenade is thrown at an area.
 * @throws FrayError `FRAY.Error.CannotAct`, `FRAY.Error.NoWeapon`, `FRAY.Error.NoMode`,
 *   `FRAY.Error.Zones.Broken`, `FRAY.Error.Zones.NotDrawn`, `FRAY.Error.Zones.Jammed`,
 *   `FRAY.Error.Zones.Empty`, `FRAY.Error.Field` (fields `bullets`, `target`).
 */
export function usableWeapon(input: ZonesAttackInput): ZonesWeapon {
  const { attacker, target } = input;
  if (isIncapacitated(attacker) || has(attacker, "surprised")) {
    throw new FrayError("FRAY.Error.CannotAct", { actor: attacker.name }, `${attacker.name} cannot act`);
  }
  const weapon = weaponOf(input);
  if (weapon.broken) throw new FrayError("FRAY.Error.Zones.Broken", { field: "weapon", weapon: weapon.name }, `${weapon.name} is broken`);
  if (!weapon.drawn)
    throw new FrayError("FRAY.Error.Zones.NotDrawn", { field: "weapon", weapon: weapon.name }, `${weapon.name} has not been drawn`);
  if (weapon.malfunction && weapon.malfunction !== "squibLoad") {
    throw new FrayError(
      "FRAY.Error.Zones.Jammed",
      { field: "weapon", weapon: weapon.name, malfunction: `FRAY.Zones.Malfunction.${weapon.malfunction}` },
      `${weapon.name} is jammed`,
    );
  }
  if (weapon.kind === "firearm" && weapon.loaded <= 0)
    throw new FrayError("FRAY.Error.Zones.Empty", { field: "loaded", weapon: weapon.name }, `${weapon.name} is empty`);
  bulletsOf(input, weapon);
  if (!target && weapon.kind !== "grenade")
    throw new FrayError("FRAY.Error.Field", { field: "target", expected: "a combatant to attack" }, "The attack has no target");
  return weapon;
}

/** The base of a melee attack's difficulty (ZN-MEL-01): the option's. */
const meleeBase = (options: Pick<ZonesOptions, "meleeDifficulty">): Modifier => ({
  label: "FRAY.Mod.Zones.MeleeBase",
  value: options.meleeDifficulty,
  rule: "ZN-MEL-01",
});
/** The base of a ranged attack's difficulty (ZN-RNG-01). */
const rangedBase = (): Modifier => ({ label: "FRAY.Mod.Zones.Base", value: BASE_DIFFICULTY, rule: "ZN-RNG-01" });

/**
 * The difficulty of an attack with `weapon`: in melee the melee difficulty plus misc, within reach
 * and at no aimed zone (ZN-MEL-01); at range 5 + size/range + movement + environment + stance - aim
 * + misc ({@link rangedDifficultyTotal}; ZN-RNG-01 to ZN-RNG-07, ZN-ZON-03), a grenade aiming at an
 * area, medium unless ruled otherwise (ZN-GRN-01). Returns its total; with `lines`, each modifier
 * after the base is pushed there as an itemized line.
 * @throws FrayError `FRAY.Error.Zones.OutOfReach`, `FRAY.Error.Zones.OutOfRange`,
 *   `FRAY.Error.Zones.AimedZoneImpossible`, `FRAY.Error.Field` (fields `range`, `aimedZone`).
 */
export function attackDifficulty(input: ZonesAttackInput, weapon: ZonesWeapon, options: ZonesOptions, lines?: Modifier[]): number {
  const { attacker, target } = input;
  const s = input.situation ?? {};
  if (weapon.kind === "melee") {
    checkMelee(input);
    if (!s.misc) return options.meleeDifficulty;
    if (lines) lines.push({ label: "FRAY.Mod.Zones.Misc", value: s.misc, rule: "ZN-MEL-01" });
    return options.meleeDifficulty + s.misc;
  }
  if (input.rangeMetres === undefined)
    throw new FrayError("FRAY.Error.Field", { field: "range", expected: "the distance in metres" }, "A ranged attack needs the range");
  const area = weapon.kind === "grenade" && (input.area !== undefined || !target);
  const targetSize: SizeCategory = s.targetSize ?? (area ? (input.area?.size ?? "medium") : sizeFromStance(target!.size, target!.stance));
  const factors: RangedFactors = {
    range: input.rangeMetres,
    effectiveRange: weapon.effectiveRange,
    targetSize,
    targetMovement: area ? undefined : (s.targetMovement ?? targetMovementOf(target!)),
    shooterMovement: s.shooterMovement ?? attacker.movement,
    shooterStance: s.stance ?? attacker.stance,
    aim: s.aim ?? attacker.aim,
    environment: s.environment,
    environmentModifier: s.environmentModifier,
    misc: s.misc,
    aimedZone: s.aimedZone,
    lowLight: options.lowLightModifier,
  };
  return rangedDifficultyTotal(factors, lines);
}

/**
 * The modifier of an attack's check: d10 + STR + DEX + Melee Combat ranks in melee (ZN-MEL-01),
 * + DEX + PER + Firearms (ZN-RNG-08) or Throwing ranks (ZN-THR-01) at range; with `lines`, each
 * pushed there as an itemized line.
 */
export function attackModifier(attacker: ZonesCombatant, weapon: ZonesWeapon, lines?: Modifier[]): number {
  if (weapon.kind === "melee") return skillModifier(attacker, "melee", "ZN-MEL-01", lines);
  if (weapon.kind === "firearm") return skillModifier(attacker, "firearms", "ZN-RNG-08", lines);
  return skillModifier(attacker, "throwing", "ZN-THR-01", lines);
}

/**
 * Plans an attack: the check's lines and the itemized difficulty ({@link usableWeapon},
 * {@link attackModifier}, {@link attackDifficulty}), with a dodge or block the defender makes in
 * melee ({@link declaredReactionId}; ZN-MEL-03, ZN-MEL-04).
 * @throws FrayError as {@link usableWeapon}, {@link attackDifficulty} and {@link declaredReactionId}.
 */
export function planAttack(input: ZonesAttackInput, options: ZonesOptions, defenderEconomy?: Economy): AttackPlan {
  const { attacker, target } = input;
  const weapon = usableWeapon(input);
  const lines: Modifier[] = [];
  attackDifficulty(input, weapon, options, lines);
  const diff = difficulty(weapon.kind === "melee" ? meleeBase(options) : rangedBase(), lines);
  const mods: Modifier[] = [];
  attackModifier(attacker, weapon, mods);
  const plan: AttackPlan = {
    ruleset: "zones",
    attackerId: attacker.id,
    targetId: target?.id ?? "area",
    weaponId: weapon.id,
    modeId: input.modeId,
    dice: "1d10",
    modifiers: mods,
    difficulty: diff,
  };
  if (input.reaction) {
    const id = declaredReactionId(input, weapon, defenderEconomy);
    plan.reaction = reactions(input, defenderEconomy, options).find((r) => r.id === id)!;
  }
  return plan;
}

/**
 * Whether the defender's economy still has an action for a reaction (ZN-MEL-03, ZN-MEL-04): an
 * action slot with one left or without a limit, or no economy given (nothing to check).
 */
export function hasActionLeft(economy: Economy | undefined): boolean {
  const slot = economy?.slots.action;
  return slot ? slot.max === null || slot.used < slot.max : true;
}

/**
 * Why no reaction is possible against this attack at all, whichever is declared (ZN-MEL-03,
 * ZN-MEL-04, ZN-SUR-01): no target, a target out of the fight, a ranged weapon, or a surprised or
 * unaware target; undefined when a reaction may be possible. A localization key.
 */
export function commonReason(input: ZonesAttackInput, weapon: ZonesWeapon): string | undefined {
  const { target } = input;
  return !target
    ? "FRAY.Zones.Reason.NoTarget"
    : isIncapacitated(target)
      ? "FRAY.Reason.Incapacitated"
      : weapon.kind !== "melee"
        ? "FRAY.Zones.Reason.Ranged"
        : input.situation?.surprise || has(target, "unaware") || has(target, "surprised")
          ? "FRAY.Zones.Reason.Surprise"
          : undefined;
}

/**
 * The reactions a defender may make (ZN-MEL-02 to ZN-MEL-04): against a melee attack the
 * defender is aware of, a Dodge check (d10 + DEX + Dodge ranks) that spends one of their actions
 * this round, or, once out of actions, a block (d10 + STR + CON modifiers) that costs nothing. A
 * surprise attack allows neither; ranged attacks allow neither (the seed: the target has little
 * chance to evade).
 */
export function reactions(input: ZonesAttackInput, economy: Economy | undefined, _options: ZonesOptions): ReactionOption[] {
  const { target } = input;
  const weapon = weaponOf(input);
  const dodgeLines: Modifier[] = [];
  const block: Modifier[] = [];
  if (target) {
    reactionModifier(target, "dodge", dodgeLines);
    reactionModifier(target, "block", block);
  }
  const dodgeReason = reactionReason(input, weapon, economy, "dodge");
  const blockReason = reactionReason(input, weapon, economy, "block");
  return [
    {
      id: "dodge",
      label: "FRAY.Reaction.dodge",
      rule: "ZN-MEL-03",
      available: !dodgeReason,
      reason: dodgeReason,
      formula: checkFormula(dodgeLines),
      modifiers: dodgeLines,
      cost: reactionCost("dodge"),
    },
    {
      id: "block",
      label: "FRAY.Reaction.block",
      rule: "ZN-MEL-04",
      available: !blockReason,
      reason: blockReason,
      formula: checkFormula(block),
      modifiers: block,
      cost: reactionCost("block"),
    },
  ];
}

/** What a reaction costs: a dodge one of the defender's actions (ZN-MEL-03), a block nothing (ZN-MEL-04). A new object each time: a host may keep it. */
export function reactionCost(id: "dodge" | "block"): ActionCost {
  return id === "dodge" ? { slots: { action: 1 } } : {};
}

/**
 * Why the defender cannot make reaction `id` against this attack (ZN-MEL-02 to ZN-MEL-04):
 * {@link commonReason}, then a dodge needs an action left this round and a block is for a
 * defender out of actions. Undefined when the defender can. A localization key.
 */
export function reactionReason(
  input: ZonesAttackInput,
  weapon: ZonesWeapon,
  economy: Economy | undefined,
  id: "dodge" | "block",
): string | undefined {
  const actionsLeft = hasActionLeft(economy);
  const common = commonReason(input, weapon);
  if (id === "dodge") return common ?? (actionsLeft ? undefined : "FRAY.Zones.Reason.NoAction");
  return common ?? (actionsLeft ? "FRAY.Zones.Reason.HasAction" : undefined);
}

/**
 * The modifier of a reaction's check: a dodge DEX + Dodge ranks (ZN-MEL-03), a block STR + CON
 * (ZN-MEL-04); with `lines`, each pushed there as an itemized line.
 */
export function reactionModifier(target: ZonesCombatant, id: "dodge" | "block", lines?: Modifier[]): number {
  if (id === "dodge") return skillModifier(target, "dodge", "ZN-MEL-03", lines);
  if (lines) lines.push(...blockLines(target));
  return target.attributes.STR + target.attributes.CON;
}

/**
 * The reaction the defender declared, when they can make it against this attack (ZN-MEL-02 to
 * ZN-MEL-04, {@link reactionReason}).
 * @throws FrayError `FRAY.Error.ReactionUnavailable` when it is not offered or not available.
 */
export function declaredReactionId(input: ZonesAttackInput, weapon: ZonesWeapon, economy: Economy | undefined): "dodge" | "block" {
  const id = input.reaction!;
  const reason = id === "dodge" || id === "block" ? reactionReason(input, weapon, economy, id) : "not offered";
  if (reason === undefined) return id as "dodge" | "block";
  const { target } = input;
  throw new FrayError(
    "FRAY.Error.ReactionUnavailable",
    { reaction: `FRAY.Reaction.${id}`, actor: target?.name ?? "-" },
    `${target?.name ?? "The target"} cannot ${id}: ${reason}`,
  );
}

/** A reaction's total works when it exceeds the attack's (ZN-MEL-03, ZN-MEL-04). */
const works = (reactionTotal: number, attackTotal: number) => reactionTotal > attackTotal;

/** What a reaction that works does: a dodge negates the attack (ZN-MEL-03), a block halves its damage (ZN-MEL-04). */
function reactionEffect(id: string): "negate" | "halve" {
  return id === "dodge" ? "negate" : "halve";
}

/** What {@link rollAttack} rolled. */
export interface ZonesRolled {
  /** The check's total (0 for a shot behind a squib load, which rolls nothing). */
  total: number;
  /** A shot fired behind a squib load: the weapon bursts and nothing leaves the barrel (ZN-MAL-01). */
  catastrophic: boolean;
  /** Bullets that left the barrel, bullets that hit, rounds that left the magazine (ZN-BST-01, ZN-MAL-01). */
  fired: number;
  hits: number;
  spent: number;
  malfunction: Malfunction | undefined;
  hit: boolean;
  /** The declared reaction was rolled, and worked. */
  reacted: boolean;
  reactionSuccess: boolean;
  /** A block that worked: each bullet's damage is halved (ZN-MEL-04). */
  halve: boolean;
  /** Damage is to be rolled: a hit not dodged, not a grenade's (whose blast is the host's). */
  lands: boolean;
  /** The zone of each bullet that lands, rolled or aimed at (ZN-ZON-01, ZN-ZON-03); empty when none lands. */
  zones: HitZoneId[];
  /** A grenade that missed lands this many metres off (ZN-GRN-01, RULES.md). */
  deviation: number | undefined;
}

/**
 * Rolls an attack with `weapon` (ZN-RNG-08, ZN-BST-01, ZN-MEL-03, ZN-MEL-04, ZN-ZON-01, ZN-ZON-03,
 * ZN-MAL-01, ZN-GRN-01): one d10 check plus `modifier` for the whole burst; each bullet hits when
 * the check meets its difficulty (`difficultyTotal` plus the recoil per bullet before it). A
 * malfunction the GM rules stops the burst after the bullets that left; a shot behind a squib load
 * is a catastrophic failure and nothing is rolled. A declared dodge or block (d10 plus
 * `reactionModifier`) is rolled when the attack hits: it works when its total exceeds the
 * attack's, a dodge stopping it, a block halving its damage. Every bullet that lands gets a 2d6 hit
 * zone, or the zone aimed at without a roll. A grenade that misses lands as many metres off as it
 * missed by. With `kept`, each roll's outcome is kept there in that order.
 */
export function rollAttack(
  input: ZonesAttackInput,
  weapon: ZonesWeapon,
  modifier: number,
  difficultyTotal: number,
  reaction: "dodge" | "block" | undefined,
  reactionModifier: number,
  dice: SyncDiceRoller,
  kept?: RollOutcome[],
): ZonesRolled {
  const firearm = weapon.kind === "firearm";
  const out: ZonesRolled = {
    total: 0,
    catastrophic: false,
    fired: 0,
    hits: 0,
    spent: 1,
    malfunction: undefined,
    hit: false,
    reacted: false,
    reactionSuccess: false,
    halve: false,
    lands: false,
    zones: NO_ZONES,
    deviation: undefined,
  };
  if (firearm && weapon.malfunction === "squibLoad") {
    out.catastrophic = true;
    return out;
  }
  const total = rollKept(dice, CHECK_DIE, "FRAY.Roll.Attack", kept) + modifier;
  const { fired, spent, malfunction } = firedBullets(input, weapon);
  out.malfunction = malfunction;
  const hits = bulletsHit(total, bulletDifficulties(difficultyTotal, weapon.recoil, fired));
  const hit = hits > 0;
  out.total = total;
  out.fired = fired;
  out.spent = spent;
  out.hits = hits;
  out.hit = hit;
  if (hit && reaction) {
    out.reacted = true;
    out.reactionSuccess = works(
      rollKept(dice, CHECK_DIE, reaction === "dodge" ? "FRAY.Roll.Dodge" : "FRAY.Roll.Block", kept) + reactionModifier,
      total,
    );
    out.halve = out.reactionSuccess && reactionEffect(reaction) === "halve";
  }
  if (weapon.kind === "grenade" && !hit) out.deviation = difficultyTotal - total;
  out.lands = attackLands(hit, out.reacted ? { success: out.reactionSuccess, effect: reactionEffect(reaction!) } : undefined, weapon);
  if (out.lands) {
    const aimed = input.situation?.aimedZone;
    const zones: HitZoneId[] = [];
    for (let i = 0; i < hits; i++) zones.push(aimed ?? zoneForRoll(rollKept(dice, HIT_ZONE_DICE, "FRAY.Roll.HitZone", kept)));
    out.zones = zones;
  }
  return out;
}
/** The zones of an attack that does not land: none, one frozen list for all. */
const NO_ZONES: HitZoneId[] = Object.freeze([]) as unknown as HitZoneId[];

/**
 * Rolls a planned attack ({@link rollAttack}): the plan's modifiers against its difficulty, its
 * declared reaction (ZN-RNG-08, ZN-BST-01, ZN-MEL-03, ZN-MEL-04, ZN-ZON-01, ZN-ZON-03, ZN-MAL-01,
 * ZN-GRN-01).
 */
export function resolveAttack(plan: AttackPlan, input: ZonesAttackInput, dice: DiceRoller): Promise<ZonesAttackResult> {
  const weapon = weaponOf(input);
  const declared = plan.reaction;
  const reaction = declared ? (declared.id as "dodge" | "block") : undefined;
  return playWith(dice, (sync): ZonesAttackResult => {
    const kept: RollOutcome[] = [];
    const r = rollAttack(
      input,
      weapon,
      sumModifiers(plan.modifiers),
      plan.difficulty.total,
      reaction,
      declared ? sumModifiers(declared.modifiers) : 0,
      sync,
      kept,
    );
    if (r.catastrophic) {
      const zero: CheckResult = { roll: { formula: "0", total: 0, dice: [], constant: 0 }, natural: 0, modifiers: [], total: 0 };
      return {
        plan,
        check: zero,
        hit: false,
        lands: false,
        bullets: { fired: 0, hit: 0, difficulties: [], stoppedBy: "FRAY.Zones.Malfunction.catastrophic" },
        catastrophic: true,
        spent: 1,
      };
    }
    const check = checkOf(kept[0]!, plan.modifiers);
    const result: ZonesAttackResult = {
      plan,
      check,
      hit: r.hit,
      reaction: r.reacted ? reactionResult(declared!, checkOf(kept[1]!, declared!.modifiers), check.total) : undefined,
      lands: r.lands,
    };
    const aimed = input.situation?.aimedZone;
    const zoneRolls = kept.length - r.zones.length;
    const locations = r.zones.map((zone, i) => (aimed ? hitLocation(zone) : hitLocation(zone, kept[zoneRolls + i])));
    result.location = locations[0];
    result.locations = locations.length ? locations : undefined;
    if (weapon.kind === "firearm") {
      const stoppedBy = r.malfunction ? `FRAY.Zones.Malfunction.${r.malfunction}` : undefined;
      result.bullets = {
        fired: r.fired,
        hit: r.hits,
        difficulties: bulletDifficulties(plan.difficulty.total, weapon.recoil, r.fired),
        stoppedBy,
      };
      result.spent = r.spent;
      if (r.malfunction) result.malfunction = r.malfunction;
    }
    if (r.deviation !== undefined) result.deviation = r.deviation;
    return result;
  });
}

/** A check as rolled: its roll and modifier lines. */
function checkOf(roll: RollOutcome, modifiers: Modifier[]): CheckResult {
  return { roll, natural: roll.total, modifiers, total: roll.total + sumModifiers(modifiers) };
}

/**
 * The bullets that leave the barrel and the rounds spent (ZN-BST-01, ZN-MAL-01): those of
 * {@link bulletsOf}, cut short by a malfunction the GM rules after that many bullets (a squib load
 * also spends the round stuck in the barrel).
 * @throws FrayError as {@link bulletsOf}.
 */
export function firedBullets(
  input: Pick<ZonesAttackInput, "modeId" | "bullets" | "situation">,
  weapon: ZonesWeapon,
): { fired: number; spent: number; malfunction?: Malfunction } {
  let fired = bulletsOf(input, weapon);
  let spent = fired;
  const m = input.situation?.malfunction;
  if (weapon.kind !== "firearm" || !m) return { fired, spent };
  const before = Math.max(0, Math.floor(m.afterBullets ?? (m.kind === "squibLoad" ? 0 : 1)));
  fired = Math.min(fired, before);
  spent = m.kind === "squibLoad" ? Math.min(weapon.loaded, fired + 1) : fired;
  return { fired, spent, malfunction: m.kind };
}

/**
 * A declared dodge or block weighed against the attack (ZN-MEL-03, ZN-MEL-04): it works when its
 * total exceeds the attack's; a dodge negates the attack, a block halves its damage.
 */
export function reactionResult(option: Pick<ReactionOption, "id" | "rule">, check: CheckResult, attackTotal: number): ReactionResult {
  return {
    id: option.id,
    rule: option.rule,
    check,
    success: works(check.total, attackTotal),
    effect: reactionEffect(option.id),
  };
}

/** Whether an attack that hit lands (its damage is rolled): not when a dodge worked, never for a grenade (its blast, ZN-GRN-01). */
export function attackLands(hit: boolean, reaction: Pick<ReactionResult, "success" | "effect"> | undefined, weapon: ZonesWeapon): boolean {
  return hit && !(reaction?.success && reaction.effect === "negate") && weapon.kind !== "grenade";
}

/**
 * Exact odds of a planned attack (ZN-RNG-08, ZN-BST-01, ZN-MEL-03, ZN-MEL-04): `hit` is
 * P(the first bullet hits); `outcomes` holds `bullet1` ... `bulletN` (each bullet's chance) and
 * `hits0` ... `hitsN` (exactly that many hit) for bursts and full auto. With a declared dodge,
 * `throughReaction` is P(hit and the dodge fails); with a block, P(hit and the block fails, full
 * damage), and `outcomes.halved` P(hit and the block halves it).
 */
export function odds(plan: AttackPlan, input: ZonesAttackInput): AttackOdds {
  const weapon = weaponOf(input);
  const attack = checkPmf(sumModifiers(plan.modifiers));
  const bullets = weapon.kind === "firearm" && !weapon.malfunction ? bulletsOf(input, weapon) : 1;
  const diffs = bulletDifficulties(plan.difficulty.total, weapon.recoil, bullets);
  const hit = atLeast(attack, diffs[0]!);
  const out: AttackOdds = { hit };
  if (bullets > 1) {
    const outcomes: Record<string, number> = {};
    diffs.forEach((d, i) => (outcomes[`bullet${i + 1}`] = atLeast(attack, d)));
    for (let k = 0; k <= bullets; k++) {
      const pk = k === 0 ? 1 - atLeast(attack, diffs[0]!) : atLeast(attack, diffs[k - 1]!) - (k < bullets ? atLeast(attack, diffs[k]!) : 0);
      outcomes[`hits${k}`] = pk;
    }
    out.outcomes = outcomes;
  }
  if (plan.reaction) {
    const defense = checkPmf(sumModifiers(plan.reaction.modifiers));
    let through = 0;
    for (const [a, pa] of attack) {
      if (a < diffs[0]!) continue;
      through += pa * (1 - atLeast(defense, a + 1));
    }
    out.throughReaction = through;
    if (plan.reaction.id === "block") out.outcomes = { ...(out.outcomes ?? {}), halved: hit - through };
  }
  return out;
}
