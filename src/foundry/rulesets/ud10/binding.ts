/**
 * UD10 in Foundry: the rules core's `ud10`, its data models, the actor translation, the full
 * character sheet and the NPC stat block, and 1.5 m squares (UD-RND-02).
 */
import { movementCharge, ud10, ud10Actions } from "../../../rules/ud10/index.js";
import { SYSTEM_PATH } from "../../config.js";
import { ArmorData, CharacterData, NpcData, WeaponData } from "./models.js";
import type { RulesetBinding } from "../../registry.js";
import { ud10CardRules } from "./card.js";
import { ud10LeaveMelee } from "./leave-melee.js";
import { ud10Initiative } from "./play.js";
import { ud10RollSkill } from "./sheet-actions.js";
import { UD10_SHEET_PARTS as SHEET_PARTS, ud10ActorSheetContext, ud10ItemSheetContext, ud10WeaponModes } from "./sheet-context.js";
import { ud10ArmorFromItem, ud10CombatantFromActor, ud10WeaponFromItem, type Ud10Combatant } from "./translate.js";

/** The UD10 binding. */
export const ud10Binding: RulesetBinding<Ud10Combatant> = {
  id: "ud10",
  ruleset: ud10 as RulesetBinding<Ud10Combatant>["ruleset"],
  implemented: true,
  models: { character: CharacterData, npc: NpcData, weapon: WeaponData, armor: ArmorData },
  combatantFromActor: ud10CombatantFromActor,
  initiativeGroups: ud10Initiative.initiativeGroups,
  moveCharge: (c, from, to, more) => movementCharge(c, from, to, more),
  onLeaveMelee: ud10LeaveMelee,
  // A combatant with no conditions is one able to act: its actions are the full list.
  standingActions: (options) => ud10Actions({ conditions: [] } as unknown as Ud10Combatant, options),
  weaponFromItem: ud10WeaponFromItem,
  armorFromItem: ud10ArmorFromItem,
  weaponModes: ud10WeaponModes,
  sheetParts: SHEET_PARTS,
  sheetContext: ud10ActorSheetContext,
  itemSheetContext: ud10ItemSheetContext,
  rollSkill: ud10RollSkill,
  templates: [...new Set([...SHEET_PARTS.character, ...SHEET_PARTS.npc])].map((p) => `${SYSTEM_PATH}/templates/actor/${p}.hbs`),
  // UD-DMG-03, UD-DMG-04: hit points and endurance points.
  tokenBars: { bar1: "hp", bar2: "ep", bars: ["hp", "ep"], values: [] },
  movementUnits: { units: "m", metresPerUnit: 1, gridDistance: 1.5 },
  cardRules: ud10CardRules,
};
