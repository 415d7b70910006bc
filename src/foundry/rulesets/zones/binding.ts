/**
 * Zones in Foundry: the rules core's `zones`, its data models and source translation, the attack
 * card's own steps (dodge or block on the card, each bullet with its hit zone, apply and undo
 * through the GM), what an attack leaves on the attacker (rounds, malfunctions, aim, thrown
 * weapons), and distances in metres on 1.5 m squares.
 */
import { zones } from "../../../rules/zones/index.js";
import { zonesArmorFromItem, zonesCombatantFromActor, zonesWeaponFromItem, type ZonesCombatant } from "../../../rules/zones/model.js";
import { ZonesActorData, ZonesArmorData, ZonesNpcData, ZonesWeaponData } from "./models.js";
import type { RulesetBinding } from "../../registry.js";
import { GENERIC_SHEET_PARTS, GENERIC_TEMPLATES } from "../generic.js";
import { zonesAfterAttack } from "./after-attack.js";
import { zonesCardRules } from "./card.js";

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
  cardRules: zonesCardRules,
  afterAttack: zonesAfterAttack,
};
