/**
 * Translation from Foundry document sources (an Actor's or Item's `toObject()`, or a compendium
 * JSON source) into the rules core's shapes. Pure: no Foundry globals, so the encounter runner
 * and the pack tests use it too.
 */
import { parseArmor, parseCombatant, parseWeapon, type Ud10Armor, type Ud10Combatant, type Ud10Weapon } from "../rules/ud10/model.js";

/** The parts of an Item source the core reads. */
export interface ItemSource {
  _id?: string | null;
  name: string;
  type: string;
  system?: Record<string, unknown>;
}

/** The parts of an Actor source the core reads. */
export interface ActorSource {
  _id?: string | null;
  name: string;
  type: string;
  system?: Record<string, unknown>;
  items?: ItemSource[];
  /** Active conditions (status effect ids) when known. */
  statuses?: string[];
}

/**
 * A UD10 weapon from a `weapon` Item source.
 * @throws FrayError naming the field when the item cannot be used.
 */
export function ud10WeaponFromItem(item: ItemSource): Ud10Weapon {
  return parseWeapon({ ...(item.system ?? {}), id: item._id ?? item.name, name: item.name }, item.name);
}

/**
 * A UD10 armor piece from an `armor` Item source. Only equipped armor protects; use
 * {@link ud10CombatantFromActor} to collect what an actor wears.
 */
export function ud10ArmorFromItem(item: ItemSource): Ud10Armor {
  return parseArmor({ ...(item.system ?? {}), id: item._id ?? item.name, name: item.name }, item.name);
}

/**
 * A UD10 combatant from a `character` or `npc` Actor source with its embedded items: weapons
 * become its weapons, equipped armor (`system.equipped` not false) its armor.
 * @throws FrayError `FRAY.Error.Field` naming the first unusable field (an actor without stats).
 */
export function ud10CombatantFromActor(actor: ActorSource, overrides: Partial<{ id: string; group: string }> = {}): Ud10Combatant {
  const items = actor.items ?? [];
  const system = actor.system ?? {};
  return parseCombatant(
    {
      ...system,
      id: overrides.id ?? actor._id ?? actor.name,
      name: actor.name,
      kind: actor.type === "npc" ? "npc" : "character",
      group: overrides.group ?? system.group ?? (actor.type === "npc" ? "npc" : "players"),
      weapons: items.filter((i) => i.type === "weapon").map((i) => ({ ...(i.system ?? {}), id: i._id ?? i.name, name: i.name })),
      armor: items
        .filter((i) => i.type === "armor" && i.system?.equipped !== false)
        .map((i) => ({ ...(i.system ?? {}), id: i._id ?? i.name, name: i.name })),
      conditions: actor.statuses ?? system.conditions ?? [],
    },
    actor.name,
  );
}
