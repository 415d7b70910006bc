/**
 * Zones in Foundry so far: the rules core's `zones`, its data models and source translation, and
 * the generic sheet; distances in metres. Not playable in Foundry yet.
 */
import { zones } from "../../../rules/zones/index.js";
import { zonesArmorFromItem, zonesCombatantFromActor, zonesWeaponFromItem, type ZonesCombatant } from "../../../rules/zones/model.js";
import { ZonesActorData, ZonesArmorData, ZonesNpcData, ZonesWeaponData } from "./models.js";
import type { RulesetBinding } from "../../registry.js";
import { GENERIC_SHEET_PARTS, GENERIC_TEMPLATES } from "../generic.js";

/** The Zones binding. */
export const zonesBinding: RulesetBinding<ZonesCombatant> = {
  id: "zones",
  ruleset: zones as RulesetBinding<ZonesCombatant>["ruleset"],
  implemented: true,
  models: { character: ZonesActorData, npc: ZonesNpcData, weapon: ZonesWeaponData, armor: ZonesArmorData },
  combatantFromActor: zonesCombatantFromActor,
  weaponFromItem: zonesWeaponFromItem,
  armorFromItem: zonesArmorFromItem,
  sheetParts: GENERIC_SHEET_PARTS,
  templates: GENERIC_TEMPLATES,
  movementUnits: { units: "m", metresPerUnit: 1, gridDistance: 1.5 },
};
