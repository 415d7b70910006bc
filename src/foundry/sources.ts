/**
 * Translation from Foundry document sources (an Actor's or Item's `toObject()`, or a compendium
 * JSON source) into the rules core's shapes. The translation itself lives in the rules core
 * (`src/rules/core/sources.ts` and each ruleset's model); this module is the glue's one place
 * to import it from.
 */
export type { ActorSource, ItemSource } from "../rules/core/sources.js";
export { ud10ArmorFromItem, ud10CombatantFromActor, ud10WeaponFromItem } from "../rules/ud10/model.js";
