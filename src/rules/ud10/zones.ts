import type { DiceRoller } from "../core/dice/port.js";
import type { HitLocation } from "../core/ruleset.js";
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

/** The roll on the body-zone table (UD-ZON-01). */
export const BODY_ZONE_DICE = "1d10";

/** Rolls a d10 on the body-zone table (UD-ZON-01). */
export async function rollBodyZone(dice: DiceRoller): Promise<HitLocation> {
  const roll = await dice.roll(BODY_ZONE_DICE, "FRAY.Roll.BodyZone");
  const zone = zoneForFace(roll.total);
  return { id: zone, label: `FRAY.Zone.${zone}`, rule: "UD-ZON-01", roll };
}

/** Armor rating and buffer of every worn piece added up, per zone (UD-DMG-02, UD-DMG-03). */
export function zoneArmor(c: Ud10Combatant): Record<ZoneId, ZoneArmor> {
  const out = {} as Record<ZoneId, ZoneArmor>;
  for (const z of ZONES) {
    out[z] = c.armor.reduce((acc, piece) => ({ rating: acc.rating + piece.zones[z].rating, buffer: acc.buffer + piece.zones[z].buffer }), {
      rating: 0,
      buffer: 0,
    });
  }
  return out;
}

/**
 * Armor without body zones: each of rating and buffer averaged over the six zones, rounded to
 * the nearest whole point, halves up (UD-ZON-02; RULES.md).
 */
export function averagedArmor(c: Ud10Combatant): ZoneArmor {
  const per = zoneArmor(c);
  const avg = (key: keyof ZoneArmor) => Math.round(ZONES.reduce((s, z) => s + per[z][key], 0) / ZONES.length);
  return { rating: avg("rating"), buffer: avg("buffer") };
}

/**
 * The armor that applies to a hit: the zone's when a location is known (UD-ZON-01), the
 * average otherwise (UD-ZON-02).
 */
export function armorFor(c: Ud10Combatant, zone: string | undefined): ZoneArmor & { zone?: ZoneId } {
  if (zone && (ZONES as readonly string[]).includes(zone)) {
    const z = zone as ZoneId;
    let rating = 0;
    let buffer = 0;
    for (const piece of c.armor) {
      rating += piece.zones[z].rating;
      buffer += piece.zones[z].buffer;
    }
    return { rating, buffer, zone: z };
  }
  return averagedArmor(c);
}
