/**
 * Values derived from a UD10 actor by the rules core: defense rating, movement in metres and
 * armor per body zone. Pure: the data model calls it in `prepareDerivedData`, the sheet context
 * and the tests call it on plain sources. Nothing here does arithmetic of its own.
 */
import { defenseRating } from "../../../rules/ud10/attack.js";
import { ZONES, type Ud10Combatant, type ZoneArmor, type ZoneId } from "../../../rules/ud10/model.js";
import { movement } from "../../../rules/ud10/movement.js";
import { averagedArmor, zoneArmor } from "../../../rules/ud10/zones.js";
import type { ActorSource } from "../../sources.js";
import { ud10CombatantFromActor } from "./translate.js";

/** What a UD10 actor's sheet and token bars show beyond its stored data. */
export interface Ud10Derived {
  /** Defense rating with the actor's current conditions (UD-ATK-03, UD-DEF-01). */
  defense: number;
  /** Metres of standard movement, 5 + STR (UD-MOV-02). */
  standardMovement: number;
  /** Metres of full movement, twice the standard (UD-MOV-03). */
  fullMovement: number;
  /** Rating and buffer of the equipped armor, added up per body zone (UD-DMG-02, UD-DMG-03). */
  zones: Record<ZoneId, ZoneArmor>;
  /** Rating and buffer averaged over the zones, for play without body zones (UD-ZON-02). */
  averagedArmor: ZoneArmor;
}

/**
 * The derived values of a UD10 actor source (with its items and statuses), or `null` with the
 * core's error when the data cannot be read (an item with a malformed damage code ...).
 */
export function ud10Derived(actor: ActorSource): { derived: Ud10Derived | null; error?: unknown } {
  try {
    return ud10DerivedOf(ud10CombatantFromActor(actor));
  } catch (error) {
    return { derived: null, error };
  }
}

/**
 * The derived values of a UD10 combatant already read (the Actor's cached one), or `null` with
 * the core's error.
 */
export function ud10DerivedOf(c: Ud10Combatant): { derived: Ud10Derived | null; error?: unknown } {
  try {
    const bands = movement(c);
    const metres = (id: string) => bands.find((b) => b.id === id)?.maxMetres ?? 0;
    const zones = zoneArmor(c);
    return {
      derived: {
        defense: defenseRating(c),
        standardMovement: metres("standard"),
        fullMovement: metres("full"),
        zones: Object.fromEntries(ZONES.map((z) => [z, { ...zones[z] }])) as Record<ZoneId, ZoneArmor>,
        averagedArmor: averagedArmor(c),
      },
    };
  } catch (error) {
    return { derived: null, error };
  }
}
