/**
 * Zones' quiet attack step (`../core/quiet.ts`): the attack of `planAttack`, `resolveAttack`,
 * `rollDamage`, `applyDamage` and `withVitals` with totals only, for a forecast. The same rules,
 * in the same order, drawing the same faces: the d10 check with DEX + PER + Firearms or Throwing
 * (ZN-RNG-08, ZN-THR-01) or STR + DEX + Melee Combat (ZN-MEL-01) against the difficulty of size,
 * range band, movement, environment, stance, aim and misc (ZN-RNG-01 to ZN-RNG-07, ZN-ZON-03) or
 * the melee difficulty; a burst or full auto bullet by bullet with the recoil and a malfunction the
 * GM rules (ZN-BST-01, ZN-MAL-01); the declared dodge or block when the attack hits (ZN-MEL-03,
 * ZN-MEL-04); a 2d6 hit zone for each bullet that lands, or the zone aimed at (ZN-ZON-01,
 * ZN-ZON-03); the weapon's damage per bullet, halved by a block, then armor, the vital organs and
 * the zone multiplier (ZN-DMG-01, ZN-ZON-02, ZN-VIT-01 to ZN-VIT-04). A squib load's catastrophic
 * failure and a grenade's blast are the host's to play, as with the detailed step: the quiet
 * attack says so (`catastrophic`, `deviation`). `test/rules/quiet-zones.test.ts` checks it
 * against the detailed step.
 */
import type { LifecycleEvent, RoundState } from "../core/contract.js";
import { compileFormula, type CompiledFormula, type FaceSource } from "../core/dice/formula.js";
import type { ActionCost, Economy } from "../core/economy.js";
import { FrayError } from "../core/errors.js";
import { holds, withConditions } from "../core/lists.js";
import type { QuietAttack } from "../core/quiet.js";
import type { RulesetOptions } from "../core/ruleset.js";
import { bulletsOf, checkMelee, commonReason, hasActionLeft, isIncapacitated, targetMovementOf, weaponOf } from "./attack.js";
import { SURROUNDING, damageTypeOf, isVital, vitalOutcome, ZONE_MULTIPLIER } from "./damage.js";
import {
  AIM_BONUS,
  BASE_DIFFICULTY,
  ENVIRONMENT_MODIFIER,
  MOVEMENT_MODIFIER,
  SIZE_RANGE_TABLE,
  STANCE_MODIFIER,
  aimedZoneSize,
  sizeFromStance,
  type EnvironmentId,
} from "./difficulty.js";
import { afterShot } from "./firearms.js";
import type { ZonesAttackInput } from "./input.js";
import {
  copyCombatant,
  type ArmorZoneId,
  type HitZoneId,
  type Malfunction,
  type RangeBand,
  type SizeCategory,
  type ZonesCombatant,
  type ZonesWeapon,
} from "./model.js";
import { zonesOptionsOf, type ZonesOptions } from "./options.js";

/** A Zones attack played quietly: the outcome plus what the weapon went through. */
export interface ZonesQuietAttack extends QuietAttack<ZonesCombatant> {
  location?: HitZoneId;
  /** Bullets that left the barrel and bullets that hit (ZN-BST-01); 1 and 0 or 1 for a blow or a throw. */
  fired: number;
  hits: number;
  /** Rounds that left the magazine (a firearm's; a squib round too, ZN-MAL-01). */
  spent?: number;
  /** The malfunction the GM ruled for this shot (ZN-MAL-01). */
  malfunction?: Malfunction;
  /** A shot behind a squib load: the weapon bursts, nothing is rolled (ZN-MAL-01); the host deals the shooter's damage. */
  catastrophic?: boolean;
  /** A grenade that missed lands this many metres off (ZN-GRN-01, RULES.md); the host plays the blast. */
  deviation?: number;
}

/** Damage formulas compiled once per weapon damage code. */
const compiled = new Map<string, CompiledFormula>();
function damageOf(code: string): CompiledFormula {
  let f = compiled.get(code);
  if (!f) compiled.set(code, (f = compileFormula(code)));
  return f;
}

const has = (c: ZonesCombatant, condition: string) => holds(c.conditions, condition);

/** The cost of a dodge (ZN-MEL-03) and of a block (ZN-MEL-04), as `reactions` gives them. */
const DODGE_COST: ActionCost = { slots: { action: 1 } };
const BLOCK_COST: ActionCost = {};

/**
 * `rangeBand` without building the bands (ZN-RNG-02), with its errors in its order.
 * @throws FrayError `FRAY.Error.Field` (fields `range`, `effectiveRange`), `FRAY.Error.Zones.OutOfRange`.
 */
function band(distance: number, er: number): RangeBand {
  if (!(distance >= 0))
    throw new FrayError("FRAY.Error.Field", { field: "range", expected: "metres, 0 or more" }, "Range must be 0 or more metres");
  if (!(er > 0))
    throw new FrayError(
      "FRAY.Error.Field",
      { field: "effectiveRange", expected: "a positive number of metres" },
      "Effective range must be positive",
    );
  if (distance > er)
    throw new FrayError(
      "FRAY.Error.Zones.OutOfRange",
      { field: "range", range: distance, effective: er },
      `${distance} m is beyond the effective range of ${er} m`,
    );
  if (distance < er / 8) return "close";
  if (distance < er / 4) return "medium";
  if (distance < er / 2) return "far";
  return "maximum";
}

/** `rangedDifficulty`'s total (ZN-RNG-01 to ZN-RNG-07, ZN-ZON-03): its lines summed in their order, none built. */
function rangedTotal(input: ZonesAttackInput, weapon: ZonesWeapon, o: ZonesOptions): number {
  const { attacker, target } = input;
  const s = input.situation ?? {};
  const range = input.rangeMetres;
  if (range === undefined)
    throw new FrayError("FRAY.Error.Field", { field: "range", expected: "the distance in metres" }, "A ranged attack needs the range");
  const area = weapon.kind === "grenade" && (input.area !== undefined || !target);
  const targetSize: SizeCategory = s.targetSize ?? (area ? (input.area?.size ?? "medium") : sizeFromStance(target!.size, target!.stance));
  const targetMovement = area ? undefined : (s.targetMovement ?? targetMovementOf(target!));
  const b = band(range, weapon.effectiveRange);
  const size = s.aimedZone ? aimedZoneSize(targetSize, s.aimedZone) : targetSize;
  let mods = 0;
  mods += SIZE_RANGE_TABLE[size][b];
  if (s.aimedZone) mods += 0;
  if (targetMovement) mods += MOVEMENT_MODIFIER[targetMovement];
  mods += MOVEMENT_MODIFIER[s.shooterMovement ?? attacker.movement];
  const env = s.environment;
  if (env) {
    // Each condition once, as the detailed step's set of them.
    for (let i = 0; i < env.length; i++) {
      const e: EnvironmentId = env[i]!;
      if (env.indexOf(e) !== i) continue;
      mods += e === "lowLight" ? o.lowLightModifier : ENVIRONMENT_MODIFIER[e];
    }
  }
  if (s.environmentModifier) mods += s.environmentModifier;
  mods += STANCE_MODIFIER[s.stance ?? attacker.stance];
  const aim = s.aim ?? attacker.aim;
  if (aim && aim > 0) mods += -AIM_BONUS * aim;
  if (s.misc) mods += s.misc;
  return BASE_DIFFICULTY + mods;
}

/**
 * The difficulty and the check's modifier of `planAttack` (ZN-RNG-01 to ZN-RNG-08, ZN-THR-01,
 * ZN-MEL-01), with its checks and errors in its order, building no line.
 */
function planned(input: ZonesAttackInput, o: ZonesOptions): { weapon: ZonesWeapon; modifier: number; difficulty: number } {
  const { attacker, target } = input;
  if (isIncapacitated(attacker) || has(attacker, "surprised"))
    throw new FrayError("FRAY.Error.CannotAct", { actor: attacker.name }, `${attacker.name} cannot act`);
  const weapon = weaponOf(input);
  if (weapon.broken) throw new FrayError("FRAY.Error.Zones.Broken", { field: "weapon", weapon: weapon.name }, `${weapon.name} is broken`);
  if (!weapon.drawn)
    throw new FrayError("FRAY.Error.Zones.NotDrawn", { field: "weapon", weapon: weapon.name }, `${weapon.name} has not been drawn`);
  if (weapon.malfunction && weapon.malfunction !== "squibLoad")
    throw new FrayError(
      "FRAY.Error.Zones.Jammed",
      { field: "weapon", weapon: weapon.name, malfunction: `FRAY.Zones.Malfunction.${weapon.malfunction}` },
      `${weapon.name} is jammed`,
    );
  if (weapon.kind === "firearm" && weapon.loaded <= 0)
    throw new FrayError("FRAY.Error.Zones.Empty", { field: "loaded", weapon: weapon.name }, `${weapon.name} is empty`);
  bulletsOf(input, weapon);
  if (!target && weapon.kind !== "grenade")
    throw new FrayError("FRAY.Error.Field", { field: "target", expected: "a combatant to attack" }, "The attack has no target");
  const a = attacker.attributes;
  const k = attacker.skills;
  if (weapon.kind === "melee") {
    const s = input.situation ?? {};
    checkMelee(input);
    // `skillLines(attacker, "melee")`: STR, DEX, ranks; the difficulty's one line is misc.
    return { weapon, modifier: 0 + a.STR + a.DEX + k.melee, difficulty: o.meleeDifficulty + (s.misc ? 0 + s.misc : 0) };
  }
  // `skillLines` of Firearms or Throwing: DEX, PER, ranks.
  const modifier = 0 + a.DEX + a.PER + (weapon.kind === "firearm" ? k.firearms : k.throwing);
  return { weapon, modifier, difficulty: rangedTotal(input, weapon, o) };
}

/**
 * The declared reaction as `reactions` offers it (ZN-MEL-02 to ZN-MEL-04): its modifier and
 * cost, only the one declared built.
 * @throws FrayError `FRAY.Error.ReactionUnavailable` when the defender cannot make it.
 */
function declared(input: ZonesAttackInput, weapon: ZonesWeapon, economy: Economy | undefined): { modifier: number; block: boolean } {
  const { target } = input;
  const id = input.reaction!;
  const actionsLeft = hasActionLeft(economy);
  const common = commonReason(input, weapon);
  let reason: string | undefined;
  let available = false;
  if (id === "dodge") {
    available = !common && actionsLeft;
    reason = common ?? (actionsLeft ? undefined : "FRAY.Zones.Reason.NoAction");
  } else if (id === "block") {
    available = !common && !actionsLeft;
    reason = common ?? (actionsLeft ? "FRAY.Zones.Reason.HasAction" : undefined);
  }
  if (!available)
    throw new FrayError(
      "FRAY.Error.ReactionUnavailable",
      { reaction: `FRAY.Reaction.${id}`, actor: target?.name ?? "-" },
      `${target?.name ?? "The target"} cannot ${id}: ${reason ?? "not offered"}`,
    );
  const t = target!.attributes;
  // Dodge: DEX and Dodge ranks (ZN-MEL-03); block: STR and CON (ZN-MEL-04).
  return id === "dodge" ? { modifier: 0 + t.DEX + target!.skills.dodge, block: false } : { modifier: 0 + t.STR + t.CON, block: true };
}

/** The zone a 2d6 total hits (`zoneForRoll`, ZN-ZON-01), by total. */
const ZONE_BY_ROLL: readonly HitZoneId[] = [
  "heart",
  "heart",
  "heart",
  "legs",
  "legs",
  "torso",
  "torso",
  "torso",
  "arms",
  "arms",
  "head",
  "head",
  "brain",
];

/** The 2d6 hit-zone totals of the bullets of one attack, reused from attack to attack. */
const rolled: number[] = [];

/** `zoneArmor` (ZN-ZON-02): the pieces worn on the zone add up; a vital organ takes its surrounding zone's. */
function armorOn(c: ZonesCombatant, zone: ArmorZoneId): number {
  let sum = 0;
  for (let i = 0; i < c.armor.length; i++) sum += c.armor[i]!.zones[zone];
  return sum;
}

/**
 * Plays a Zones attack quietly (see `../core/quiet.ts`): the outcome of `planAttack`,
 * `resolveAttack`, `rollDamage`, `applyDamage` and `withVitals` with the same faces (d10 check,
 * d10 reaction when the attack hits, 2d6 hit zone per bullet that lands unless a zone was aimed
 * at, the weapon's damage per bullet). A shot behind a squib load rolls nothing and is
 * `catastrophic`; a grenade never lands here (its blast is the host's, ZN-GRN-01).
 * @param base the combatant the damage applies to when it is not the input's target (the held
 *   state within a simultaneous step); the input's target by default.
 * @throws FrayError as `planAttack`: `FRAY.Error.CannotAct`, `FRAY.Error.NoWeapon`,
 *   `FRAY.Error.NoMode`, `FRAY.Error.Zones.NotDrawn`, `FRAY.Error.Zones.Broken`,
 *   `FRAY.Error.Zones.Jammed`, `FRAY.Error.Zones.Empty`, `FRAY.Error.Zones.OutOfReach`,
 *   `FRAY.Error.Zones.OutOfRange`, `FRAY.Error.Zones.AimedZoneImpossible`, `FRAY.Error.Field`
 *   (fields `target`, `range`, `aimedZone`, `bullets`), `FRAY.Error.ReactionUnavailable`; as
 *   `rollDamage`: `FRAY.Error.Field` (field `damageType`).
 */
export function quietAttack(
  input: ZonesAttackInput,
  next: FaceSource,
  options: RulesetOptions,
  economy?: Economy,
  base?: ZonesCombatant,
): ZonesQuietAttack {
  const o = zonesOptionsOf(options);
  const { weapon, modifier, difficulty } = planned(input, o);
  const reaction = input.reaction ? declared(input, weapon, economy) : undefined;
  const firearm = weapon.kind === "firearm";
  // Every field in place from the start, in the order of `QuietAttack` then Zones' own.
  const out: ZonesQuietAttack = {
    weaponId: weapon.id,
    modeId: input.modeId,
    hit: false,
    reacted: false,
    reactionCost: reaction ? (reaction.block ? BLOCK_COST : DODGE_COST) : undefined,
    reactionSuccess: undefined,
    lands: false,
    location: undefined,
    damage: 0,
    target: undefined,
    forced: undefined,
    fired: 0,
    hits: 0,
    spent: undefined,
    malfunction: undefined,
    catastrophic: undefined,
    deviation: undefined,
  };
  if (firearm && weapon.malfunction === "squibLoad") {
    out.catastrophic = true;
    out.spent = 1;
    return out;
  }
  const total = next(10) + modifier;
  let fired = bulletsOf(input, weapon);
  let spent = fired;
  const m = input.situation?.malfunction;
  if (firearm && m) {
    out.malfunction = m.kind;
    const before = Math.max(0, Math.floor(m.afterBullets ?? (m.kind === "squibLoad" ? 0 : 1)));
    fired = Math.min(fired, before);
    spent = m.kind === "squibLoad" ? Math.min(weapon.loaded, fired + 1) : fired;
  }
  // Each bullet's difficulty is the attack's plus the recoil per bullet before it (ZN-BST-01).
  let hits = 0;
  for (let i = 0; i < fired; i++) if (total >= difficulty + i * weapon.recoil) hits++;
  const hit = hits > 0;
  out.hit = hit;
  out.fired = fired;
  out.hits = hits;
  if (firearm) out.spent = spent;
  let halve = false;
  if (hit && reaction) {
    const success = next(10) + reaction.modifier > total;
    out.reacted = true;
    out.reactionSuccess = success;
    halve = success && reaction.block;
    if (success && !reaction.block) return out;
  }
  if (weapon.kind === "grenade") {
    if (!hit) out.deviation = difficulty - total;
    return out;
  }
  if (!hit) return out;
  out.lands = true;
  const aimed = input.situation?.aimedZone;
  // The zones are rolled for every bullet first, then the damage (`resolveAttack`, then `rollDamage`).
  if (!aimed) for (let i = 0; i < hits; i++) rolled[i] = next(6) + next(6);
  const type = damageTypeOf(weapon, input.damageType);
  const exposed = Boolean(input.situation?.exposedVitals);
  const formula = damageOf(weapon.damage);
  const target = base ?? input.target!;
  const before = target.hp.value;
  let hp = before;
  let amount = 0;
  let first: HitZoneId | undefined;
  for (let i = 0; i < hits; i++) {
    const zone = aimed ?? ZONE_BY_ROLL[rolled[i]!]!;
    if (i === 0) first = zone;
    let part = Math.max(0, formula.total(next));
    if (halve) part = Math.floor(part / 2);
    amount += part;
    // `applyDamage`, one hit (ZN-ZON-02, ZN-VIT-01 to ZN-VIT-04, ZN-ZON-01).
    let remaining = Math.max(0, part);
    const vital = isVital(zone);
    remaining -= Math.min(remaining, armorOn(target, vital ? SURROUNDING[zone] : (zone as ArmorZoneId)));
    let hitZone: HitZoneId = zone;
    if (vital) {
      const v = vitalOutcome(type, remaining, exposed, o);
      if (v.outcome === "negated") remaining = 0;
      else if (v.outcome === "surrounding") hitZone = SURROUNDING[zone];
    }
    remaining *= ZONE_MULTIPLIER[hitZone];
    hp -= remaining;
  }
  out.location = first;
  out.damage = amount;
  // A copy, with `incapacitated` added by `concat` where due (see `withConditions` in core/lists.ts).
  const conditions = withConditions(
    target.conditions,
    hp <= 0 && before > 0 && !holds(target.conditions, "incapacitated") ? "incapacitated" : undefined,
  );
  const after = copyCombatant(target);
  after.hp = { value: hp, max: target.hp.max };
  after.conditions = conditions;
  out.target = after;
  return out;
}

/**
 * `afterAction` after this attack (ZN-RNG-07, ZN-THR-01, ZN-GRN-01, ZN-BST-01, ZN-MAL-01): the aim
 * spent, a thrown weapon or grenade gone from the hands, a firearm's rounds spent, a malfunction
 * kept, a weapon burst by a squib load; the same combatant and economy, without the events.
 * @throws FrayError `FRAY.Error.NoWeapon` when the attack's weapon is not the combatant's.
 */
export function quietAfterAttack(c: ZonesCombatant, attack: ZonesQuietAttack, economy: Economy): RoundState<ZonesCombatant> {
  const weapon = weaponOf({ attacker: c, weaponId: attack.weaponId });
  const gone = weapon.kind === "thrown" || weapon.kind === "grenade";
  const shot = gone ? weapon : afterShot(weapon, attack);
  // Nothing changed (a melee blow without aim): the state stays the one it was, as states are values.
  if (!gone && shot === weapon && c.aim === 0) return { combatant: c, economy, events: NO_EVENTS };
  const index = c.weapons.indexOf(weapon);
  // A spread, not `slice`: V8 slices a frozen list many times slower, and lists reach here frozen or not.
  const weapons = [...c.weapons];
  if (gone) weapons.splice(index, 1);
  else weapons[index] = shot;
  const next = copyCombatant(c);
  next.weapons = weapons;
  if (c.aim > 0) next.aim = 0;
  return { combatant: next, economy, events: NO_EVENTS };
}

/** The lifecycle events of a quiet transition: none, one frozen list for all. */
const NO_EVENTS: LifecycleEvent[] = Object.freeze([]) as unknown as LifecycleEvent[];
