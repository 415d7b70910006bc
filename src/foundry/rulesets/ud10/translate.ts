/**
 * UD10's translation of Foundry document sources into the rules core's shapes. Pure (no Foundry
 * globals): `src/foundry/sources.ts` re-exports it for the glue and the tests.
 */
export { ud10ArmorFromItem, ud10CombatantFromActor, ud10WeaponFromItem } from "../../../rules/ud10/model.js";
export type { Ud10Combatant } from "../../../rules/ud10/model.js";
