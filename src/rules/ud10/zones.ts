import type { DiceRoller } from "../core/dice/port.js";
import type { HitLocation } from "../core/ruleset.js";
import type { RollOutcome } from "../core/types.js";
import { ZONES, type Ud10Combatant, type ZoneArmor, type ZoneId } from "./model.js";

/** The body-zone table: d10 face ranges per zone (UD-ZON-01). */
export const BODY_ZONE_TABLE: readonly { zone: ZoneId; from: number; to: number }[] = [
  { zone: "head", from: 1, to: 1 },
  { zone: "leftArm", from: 2, to: 2 },
  { zone: "rightArm", from: 3, to: 3 },
  { zone: "torso", from: 4, to: 6 },
  { zone: "leftLeg", from: 7, to: 8 },
  { zone: "rightLeg", from: 9, to: 10 },
];

/**
 * The zone a d10 face hits (UD-ZON-01).
 * @throws RangeError when the face is not 1-10.
 */
export function zoneForFace(face: number): ZoneId {
  let row: (typeof BODY_ZONE_TABLE)[number] | undefined;
  for (const r of BODY_ZONE_TABLE) {
    if (face >= r.from && face <= r.to) {
      row = r;
      break;
    }
  }
  if (!row) throw new RangeError(`No body zone for face ${face}`);
  return row.zone;
}

/** The dice of the body-zone table: one d10 (UD-ZON-01). */
export const ZONE_DICE = "1d10";

/** The hit location of a roll on the body-zone table (UD-ZON-01). */
export function bodyZone(roll: RollOutcome): HitLocation {
  const zone = zoneForFace(roll.total);
  return { id: zone, label: `FRAY.Zone.${zone}`, rule: "UD-ZON-01", roll };
}

/** Rolls a d10 on the body-zone table (UD-ZON-01). */
export async function rollBodyZone(dice: DiceRoller): Promise<HitLocation> {
  return bodyZone(await dice.roll(ZONE_DICE, "FRAY.Roll.BodyZone"));
}

/** Armor rating and buffer of every worn piece added up, per zone (UD-DMG-02, UD-DMG-03). */
export function zoneArmor(c: Ud10Combatant): Record<ZoneId, ZoneArmor> {
  const out = {} as Record<ZoneId, ZoneArmor>;
  for (const z of ZONES) {
    const { rating, buffer } = armorOf(c, z);
    out[z] = { rating, buffer };
  }
  return out;
}

/**
 * Armor without body zones: each of rating and buffer averaged over the six zones, rounded to
 * the nearest whole point, halves up (UD-ZON-02; RULES.md).
 */
export function averagedArmor(c: Ud10Combatant): ZoneArmor {
  let rating = 0;
  let buffer = 0;
  for (const z of ZONES) {
    const zone = armorOf(c, z);
    rating += zone.rating;
    buffer += zone.buffer;
  }
  return { rating: Math.round(rating / ZONES.length), buffer: Math.round(buffer / ZONES.length) };
}

/** Armor rating and buffer of every worn piece added up, on one zone (UD-DMG-02, UD-DMG-03). */
function armorOf(c: Ud10Combatant, z: ZoneId): ZoneArmor & { zone: ZoneId } {
  let rating = 0;
  let buffer = 0;
  for (const piece of c.armor) {
    rating += piece.zones[z].rating;
    buffer += piece.zones[z].buffer;
  }
  return { rating, buffer, zone: z };
}

/**
 * The armor that applies to a hit: the zone's when a location is known (UD-ZON-01), the
 * average otherwise (UD-ZON-02).
 */
export function armorFor(c: Ud10Combatant, zone: string | undefined): ZoneArmor & { zone?: ZoneId } {
  if (zone && (ZONES as readonly string[]).includes(zone)) return armorOf(c, zone as ZoneId);
  return averagedArmor(c);
}
