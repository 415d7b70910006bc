/**
 * Hitbox in Foundry so far: the rules core's `hitbox`, its data models and source translation,
 * and the generic sheet. Ranges are in feet (HB-MOD-01), so its scenes measure in feet; the
 * core's movement bands are in metres either way (HB-ACT-02). Not playable in Foundry yet.
 */
import { hitbox } from "../../../rules/hitbox/index.js";
import { hitboxArmorFromItem, hitboxCombatantFromActor, hitboxWeaponFromItem, type HitboxCombatant } from "../../../rules/hitbox/model.js";
import { HitboxActorData, HitboxArmorData, HitboxNpcData, HitboxWeaponData } from "./models.js";
import type { RulesetBinding } from "../../registry.js";
import { GENERIC_SHEET_PARTS, GENERIC_TEMPLATES } from "../generic.js";

/** The Hitbox binding. */
export const hitboxBinding: RulesetBinding<HitboxCombatant> = {
  id: "hitbox",
  ruleset: hitbox as RulesetBinding<HitboxCombatant>["ruleset"],
  implemented: false,
  models: { character: HitboxActorData, npc: HitboxNpcData, weapon: HitboxWeaponData, armor: HitboxArmorData },
  combatantFromActor: (actor, overrides) => hitboxCombatantFromActor(actor, overrides),
  weaponFromItem: hitboxWeaponFromItem,
  armorFromItem: hitboxArmorFromItem,
  sheetParts: GENERIC_SHEET_PARTS,
  templates: GENERIC_TEMPLATES,
  movementUnits: { units: "ft", metresPerUnit: 0.3048, gridDistance: 5 },
};
