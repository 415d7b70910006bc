import { playWith, rollKept, type DiceRoller, type SyncDiceRoller } from "../core/dice/port.js";
import { FrayError } from "../core/errors.js";
import { hasAnyOf } from "../core/lists.js";
import type { AttackResult, DamagePacket, HitLocation } from "../core/ruleset.js";
import type { DamageReport, DamageStep, RollOutcome, VitalState } from "../core/types.js";
import type { ArmorZoneId, DamageType, HitZoneId, ZonesCombatant, ZonesWeapon } from "./model.js";
import type { ZonesOptions } from "./options.js";

/** One row of the 2d6 hit-zone table (ZN-ZON-01). */
export interface HitZoneRow {
  from: number;
  to: number;
  zone: HitZoneId;
  multiplier: number;
}

/**
 * The hit-zone table for humans and human-like creatures (ZN-ZON-01, ZN-VIT-01): 2 vital organ
 * (the heart, x6), 3-4 legs, 5-7 torso (x2), 8-9 arms, 10-11 head (x3), 12 vital organ (the
 * brain, x6). Which organ each 2 and 12 is, is Fray's reading (RULES.md).
 */
export const HIT_ZONE_TABLE: readonly HitZoneRow[] = [
  { from: 2, to: 2, zone: "heart", multiplier: 6 },
  { from: 3, to: 4, zone: "legs", multiplier: 1 },
  { from: 5, to: 7, zone: "torso", multiplier: 2 },
  { from: 8, to: 9, zone: "arms", multiplier: 1 },
  { from: 10, to: 11, zone: "head", multiplier: 3 },
  { from: 12, to: 12, zone: "brain", multiplier: 6 },
];

/** Damage multiplier of each zone (ZN-ZON-01). */
export const ZONE_MULTIPLIER: Readonly<Record<HitZoneId, number>> = { legs: 1, torso: 2, arms: 1, head: 3, heart: 6, brain: 6 };

/** The zone around each vital organ, whose armor protects it and which takes converted hits (ZN-VIT-01, ZN-VIT-02). */
export const SURROUNDING: Readonly<Record<"heart" | "brain", ArmorZoneId>> = { heart: "torso", brain: "head" };

/** True for a vital organ (ZN-VIT-01). */
export function isVital(zone: HitZoneId): zone is "heart" | "brain" {
  return zone === "heart" || zone === "brain";
}

/**
 * The zone a 2d6 total hits (ZN-ZON-01).
 * @throws FrayError `FRAY.Error.Field` (field `roll`) for a total outside 2-12.
 */
export function zoneForRoll(total: number): HitZoneId {
  const zone = ZONE_BY_ROLL[total];
  if (zone === undefined)
    throw new FrayError("FRAY.Error.Field", { field: "roll", expected: "a 2d6 total from 2 to 12" }, `No hit zone for ${total}`);
  return zone;
}
/** {@link HIT_ZONE_TABLE}'s zone by 2d6 total. */
const ZONE_BY_ROLL: (HitZoneId | undefined)[] = [];
for (const row of HIT_ZONE_TABLE) for (let total = row.from; total <= row.to; total++) ZONE_BY_ROLL[total] = row.zone;

/** The dice of the hit-zone table: 2d6 (ZN-ZON-01). */
export const HIT_ZONE_DICE = "2d6";

/** The location of a zone. */
export function hitLocation(zone: HitZoneId, roll?: RollOutcome): HitLocation {
  return { id: zone, label: `FRAY.Zones.Zone.${zone}`, rule: roll ? "ZN-ZON-01" : "ZN-ZON-03", roll };
}

/** Rolls 2d6 on the hit-zone table (ZN-ZON-01). */
export async function rollHitZone(dice: DiceRoller): Promise<HitLocation> {
  const roll = await dice.roll(HIT_ZONE_DICE, "FRAY.Roll.HitZone");
  return hitLocation(zoneForRoll(roll.total), roll);
}

/** Damage reduction of a zone: the pieces worn there add up (ZN-ZON-02); a vital organ takes its surrounding zone's. */
export function zoneArmor(c: ZonesCombatant, zone: HitZoneId): number {
  const armorZone: ArmorZoneId = isVital(zone) ? SURROUNDING[zone] : zone;
  let sum = 0;
  for (let i = 0; i < c.armor.length; i++) sum += c.armor[i]!.zones[armorZone];
  return sum;
}

/**
 * Full body armor (ZN-GRN-01): a worn piece marked `fullBody` (a blast suit). Pieces that merely
 * cover every zone (riot gear) leave gaps the shrapnel finds (RULES.md).
 */
export function hasFullBodyArmor(c: ZonesCombatant): boolean {
  return c.armor.some((a) => a.fullBody);
}

/** What the human vital-organ rules make of damage that reaches a vital organ (ZN-VIT-02 to ZN-VIT-04). */
export interface VitalOutcome {
  /** `full`: the organ takes it (x6); `surrounding`: a hit on the zone around it; `negated`: nothing. */
  outcome: "full" | "surrounding" | "negated";
  rule: "ZN-VIT-02" | "ZN-VIT-03" | "ZN-VIT-04" | "ZN-VIT-01";
  /** i18n key of the reason. */
  reason: string;
}

/**
 * The human vital-organ rules (ZN-VIT-01 to ZN-VIT-04) applied to the damage left after armor:
 * bludgeoning below 10 becomes a hit on the surrounding zone, 10 and more harms the organ;
 * slashing harms it only when exposed, otherwise (option `slashingVitals`) a hit on the
 * surrounding zone or nothing; piercing above 2 harms it in full, below 2 is stopped by bone, and
 * exactly 2 follows the option `piercingAtTwo`; other types (fire, acid ...) do not reach inside
 * skull or rib cage and hit the surrounding zone (RULES.md).
 * @param amount damage left after the surrounding zone's armor.
 */
export function vitalOutcome(
  type: DamageType,
  amount: number,
  exposed: boolean,
  options: Pick<ZonesOptions, "slashingVitals" | "piercingAtTwo">,
): VitalOutcome {
  switch (type) {
    case "bludgeoning":
      return amount < 10
        ? { outcome: "surrounding", rule: "ZN-VIT-02", reason: "FRAY.Zones.Vital.bludgeoningLow" }
        : { outcome: "full", rule: "ZN-VIT-02", reason: "FRAY.Zones.Vital.bludgeoningHigh" };
    case "slashing":
      if (exposed) return { outcome: "full", rule: "ZN-VIT-03", reason: "FRAY.Zones.Vital.slashingExposed" };
      return { outcome: options.slashingVitals, rule: "ZN-VIT-03", reason: "FRAY.Zones.Vital.slashingCovered" };
    case "piercing":
      if (amount > 2) return { outcome: "full", rule: "ZN-VIT-04", reason: "FRAY.Zones.Vital.piercingHigh" };
      if (amount < 2) return { outcome: "negated", rule: "ZN-VIT-04", reason: "FRAY.Zones.Vital.piercingLow" };
      return { outcome: options.piercingAtTwo, rule: "ZN-VIT-04", reason: "FRAY.Zones.Vital.piercingTwo" };
    default:
      return { outcome: "surrounding", rule: "ZN-VIT-01", reason: "FRAY.Zones.Vital.otherType" };
  }
}

/** A Zones damage packet: the shared packet, plus whether the target's vital organs are exposed (ZN-VIT-03). */
export interface ZonesDamagePacket extends DamagePacket {
  exposedVitals?: boolean;
}

/**
 * The damage type of an attack (ZN-DMG-01): the one asked for, which must be one of the
 * weapon's, else the weapon's first.
 * @throws FrayError `FRAY.Error.Field` (field `damageType`) when the weapon cannot deal it.
 */
export function damageTypeOf(weapon: ZonesWeapon, wanted?: DamageType): DamageType {
  if (wanted === undefined) return weapon.damageTypes[0]!;
  if (!weapon.damageTypes.includes(wanted)) {
    throw new FrayError(
      "FRAY.Error.Field",
      { field: "damageType", expected: weapon.damageTypes.join(", ") },
      `${weapon.name} does not deal ${wanted} damage`,
    );
  }
  return wanted;
}

/**
 * Rolls one bullet's (or blow's) damage (ZN-DMG-01): the weapon's damage, never below 0; a block
 * that worked halves it, rounding down (ZN-MEL-04, RULES.md). With `kept` the roll is kept there,
 * with `steps` the block's step.
 */
export function rollBullet(weapon: ZonesWeapon, halve: boolean, dice: SyncDiceRoller, kept?: RollOutcome[], steps?: DamageStep[]): number {
  return afterBlock(Math.max(0, rollKept(dice, weapon.damage, "FRAY.Roll.Damage", kept)), halve, steps);
}

/** A bullet's damage after a block that worked: halved, rounding down (ZN-MEL-04, RULES.md); with `steps`, the block's step. */
function afterBlock(amount: number, halve: boolean, steps?: DamageStep[]): number {
  if (!halve) return amount;
  const halved = Math.floor(amount / 2);
  if (steps) steps.push({ rule: "ZN-MEL-04", label: "FRAY.Step.Zones.Block", value: amount - halved, remaining: halved });
  return halved;
}

/**
 * Rolls the weapon's damage once per bullet that landed ({@link rollBullet}; ZN-DMG-01,
 * ZN-MEL-04), each with its own hit zone. One bullet gives one packet; several give a packet whose
 * `parts` are the bullets, in order.
 * @throws FrayError `FRAY.Error.NoHit` when nothing landed, `FRAY.Error.Zones.UseBlast` for a
 *   grenade (see `resolveBlast`), `FRAY.Error.Field` for a damage type the weapon cannot deal.
 */
export async function rollDamage(
  result: AttackResult,
  weapon: ZonesWeapon,
  dice: DiceRoller,
  type?: DamageType,
  exposedVitals = false,
): Promise<ZonesDamagePacket> {
  if (!result.lands) throw new FrayError("FRAY.Error.NoHit", {}, "The attack did not land: there is no damage to roll");
  if (weapon.kind === "grenade")
    throw new FrayError("FRAY.Error.Zones.UseBlast", { weapon: weapon.name }, "Grenades deal their damage through the blast");
  const damageType = damageTypeOf(weapon, type);
  const locations = result.locations ?? (result.location ? [result.location] : []);
  const count = Math.max(1, locations.length);
  const halve = result.reaction?.effect === "halve" && result.reaction.success;
  const parts = await playWith(dice, (sync) => {
    const rolled: ZonesDamagePacket[] = [];
    for (let i = 0; i < count; i++) {
      const kept: RollOutcome[] = [];
      const steps: DamageStep[] = [];
      const amount = rollBullet(weapon, halve, sync, kept, steps);
      rolled.push({ roll: kept[0]!, amount, location: locations[i]?.id, type: damageType, steps, exposedVitals });
    }
    return rolled;
  });
  if (parts.length === 1) return parts[0]!;
  const roll: RollOutcome = {
    formula: `${parts.length} x (${weapon.damage})`,
    total: parts.reduce((s, p) => s + p.roll.total, 0),
    dice: parts.flatMap((p) => p.roll.dice),
    constant: parts.reduce((s, p) => s + p.roll.constant, 0),
  };
  return { roll, amount: parts.reduce((s, p) => s + p.amount, 0), type: damageType, parts, exposedVitals };
}

/**
 * The packet of one bullet or blow (ZN-DMG-01): the damage rolled on its hit zone, halved
 * (rounded down) by a block that worked (ZN-MEL-04, RULES.md).
 */
export function bulletPacket(
  roll: RollOutcome,
  location: string | undefined,
  type: DamageType,
  halve: boolean,
  exposedVitals: boolean,
): ZonesDamagePacket {
  const steps: DamageStep[] = [];
  const amount = afterBlock(Math.max(0, roll.total), halve, steps);
  return { roll, amount, location, type, steps, exposedVitals };
}

/** The vital state of a Zones combatant: hit points and conditions. */
export function vitals(c: ZonesCombatant): VitalState {
  return { hp: { value: c.hp.value, max: c.hp.max }, conditions: [...c.conditions] };
}

/** Conditions that take a combatant out of the fight. */
export const OUT_CONDITIONS = ["unconscious", "incapacitated", "dead"] as const;

/** True when the state can no longer fight: HP 0 or below, unconscious, incapacitated or dead (RULES.md). */
export function isOut(state: VitalState): boolean {
  return (state.hp !== undefined && state.hp.value <= 0) || hasAnyOf(state.conditions, OUT_CONDITIONS);
}

/** {@link isOut} of the combatant's {@link vitals}, read from the combatant directly. */
export function isOutOf(c: ZonesCombatant): boolean {
  return c.hp.value <= 0 || hasAnyOf(c.conditions, OUT_CONDITIONS);
}

/**
 * The hit points one hit of `amount` on `zone` takes (ZN-ZON-02, ZN-VIT-01 to ZN-VIT-04,
 * ZN-ZON-01): the zone's armor reduces it first (a vital organ is covered by its surrounding
 * zone's armor), the vital-organ rules apply, the zone multiplier scales what is left. With
 * `steps`, each step is itemized there.
 */
export function hitPoints(
  target: ZonesCombatant,
  amount: number,
  zone: HitZoneId,
  type: DamageType,
  exposed: boolean,
  options: Pick<ZonesOptions, "slashingVitals" | "piercingAtTwo">,
  steps?: DamageStep[],
): number {
  let remaining = Math.max(0, amount);
  const armor = zoneArmor(target, zone);
  const absorbed = Math.min(remaining, armor);
  remaining -= absorbed;
  if (steps) {
    const armorZone = isVital(zone) ? SURROUNDING[zone] : zone;
    const data = { zone: `FRAY.Zones.Zone.${armorZone}`, armor };
    steps.push({ rule: "ZN-ZON-02", label: "FRAY.Step.Zones.Armor", value: absorbed, remaining, data });
  }
  let hitZone: HitZoneId = zone;
  if (isVital(zone)) {
    const v = vitalOutcome(type, remaining, exposed, options);
    if (v.outcome === "negated") {
      if (steps) {
        const data = { reason: v.reason, zone: `FRAY.Zones.Zone.${zone}` };
        steps.push({ rule: v.rule, label: "FRAY.Step.Zones.VitalNegated", value: remaining, remaining: 0, data });
      }
      remaining = 0;
    } else if (v.outcome === "surrounding") {
      hitZone = SURROUNDING[zone];
      if (steps) {
        const data = { reason: v.reason, zone: `FRAY.Zones.Zone.${zone}`, surrounding: `FRAY.Zones.Zone.${hitZone}` };
        steps.push({ rule: v.rule, label: "FRAY.Step.Zones.VitalSurrounding", value: 0, remaining, data });
      }
    } else if (steps) {
      const data = { reason: v.reason, zone: `FRAY.Zones.Zone.${zone}` };
      steps.push({ rule: v.rule, label: "FRAY.Step.Zones.VitalFull", value: 0, remaining, data });
    }
  }
  const multiplier = ZONE_MULTIPLIER[hitZone];
  remaining *= multiplier;
  if (steps) {
    const data = { zone: `FRAY.Zones.Zone.${hitZone}`, multiplier };
    steps.push({ rule: "ZN-ZON-01", label: "FRAY.Step.Zones.Multiplier", value: 0, remaining, data });
  }
  return remaining;
}

function applyOne(
  target: ZonesCombatant,
  state: VitalState,
  packet: ZonesDamagePacket,
  options: Pick<ZonesOptions, "slashingVitals" | "piercingAtTwo">,
  steps: DamageStep[],
): void {
  const type = (packet.type ?? "other") as DamageType;
  const zone = (packet.location ?? "torso") as HitZoneId;
  steps.push({
    rule: "ZN-DMG-01",
    label: "FRAY.Step.Zones.Rolled",
    value: 0,
    remaining: Math.max(0, packet.roll.total),
    data: { type: `FRAY.Zones.DamageType.${type}`, zone: `FRAY.Zones.Zone.${zone}` },
  });
  steps.push(...(packet.steps ?? []));
  const remaining = hitPoints(target, packet.amount, zone, type, Boolean(packet.exposedVitals), options, steps);
  const hp = state.hp!;
  hp.value -= remaining;
  steps.push({ rule: "ZN-ZON-02", label: "FRAY.Step.Zones.HitPoints", value: remaining, remaining: 0, data: { hp: hp.value } });
  if (remaining > 0 && hp.value > 0) steps.push({ rule: "ZN-ZON-02", label: "FRAY.Step.Zones.WoundCheck", value: 0, remaining: 0 });
}

/**
 * Applies damage to a combatant, hit by hit (ZN-ZON-02): the zone's armor reduces it first (a
 * vital organ is covered by its surrounding zone's armor), the vital-organ rules apply
 * (ZN-VIT-01 to ZN-VIT-04), the zone multiplier (ZN-ZON-01) scales what is left, and the result
 * comes off the hit points. A hit that does damage and leaves the target standing calls for a
 * wound check (the injury chapter, outside the seed: reported as a step, not rolled). At 0 HP or
 * below the combatant is incapacitated (RULES.md). Pure: returns the new state and every step.
 */
export function applyDamage(
  target: ZonesCombatant,
  packet: ZonesDamagePacket,
  options: Pick<ZonesOptions, "slashingVitals" | "piercingAtTwo">,
): DamageReport {
  const before = vitals(target);
  const after = vitals(target);
  const steps: DamageStep[] = [];
  const parts = packet.parts?.length ? (packet.parts as ZonesDamagePacket[]) : [packet];
  for (const part of parts) applyOne(target, after, { ...part, exposedVitals: part.exposedVitals ?? packet.exposedVitals }, options, steps);
  const added: string[] = [];
  if (after.hp!.value <= 0 && before.hp!.value > 0 && !after.conditions.includes("incapacitated")) {
    after.conditions.push("incapacitated");
    added.push("incapacitated");
  }
  return { before, after, steps, added };
}
