/**
 * Critical in Foundry so far: the rules core's `critical`, its data models and actor
 * translation, and the generic sheet; distances in metres. Not playable in Foundry yet.
 */
import { critical, criticalOptions, initiativeGroups } from "../../../rules/critical/index.js";
import { criticalCombatantFromActor, type CriticalCombatant } from "../../../rules/critical/model.js";
import { CriticalActorData, CriticalArmorData, CriticalNpcData, CriticalWeaponData } from "./models.js";
import type { RulesetBinding } from "../../registry.js";
import { GENERIC_SHEET_PARTS, GENERIC_TEMPLATES } from "../generic.js";

/** The Critical binding. */
export const criticalBinding: RulesetBinding<CriticalCombatant> = {
  id: "critical",
  ruleset: critical as RulesetBinding<CriticalCombatant>["ruleset"],
  implemented: false,
  models: { character: CriticalActorData, npc: CriticalNpcData, weapon: CriticalWeaponData, armor: CriticalArmorData },
  combatantFromActor: criticalCombatantFromActor,
  initiativeGroups: (members, options) => initiativeGroups(members, criticalOptions(options)),
  sheetParts: GENERIC_SHEET_PARTS,
  templates: GENERIC_TEMPLATES,
  movementUnits: { units: "m", metresPerUnit: 1, gridDistance: 1.5 },
};
