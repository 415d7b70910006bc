/**
 * Zones in Foundry: the rules core's `zones`, its data models and source translation, the
 * character sheet, NPC stat block and item sheets of `templates/zones/` with their buttons
 * (reload, draw, clear, aim, regain speed, stance, skill checks), the attack card's own steps
 * (dodge or block on the card, each bullet with its hit zone, apply and undo through the GM),
 * what an attack leaves on the attacker (rounds, malfunctions, aim, thrown weapons), its Quench
 * batch, grenades thrown at an area with their blast card (ZN-GRN-01), the movement actions'
 * speed-point costs (ZN-MOV-01), the movement category from the legs a token moved this round
 * (ZN-RNG-04), effort points committed to initiative paid once it is rolled (ZN-INI-02), the
 * surprise round ended and the aim lost as a round starts (ZN-SUR-01, ZN-RNG-07), and
 * distances in metres on 1.5 m squares.
 */
import { zones } from "../../../rules/zones/index.js";
import { zonesArmorFromItem, zonesWeaponFromItem, type ZonesCombatant } from "../../../rules/zones/model.js";
import { ZonesActorData, ZonesArmorData, ZonesNpcData, ZonesWeaponData } from "./models.js";
import type { RulesetBinding } from "../../registry.js";
import { zonesAfterAttack } from "./after-attack.js";
import { zonesCardRules } from "./card.js";
import { zonesInit } from "./init.js";
import { zonesAfterInitiative, zonesInitiativeRefusal } from "./initiative.js";
import { zonesStartRoundOn } from "./round.js";
import { zonesCombatantWithMoves, zonesRulerBands } from "./movement.js";
import { registerZonesQuench } from "./quench.js";
import { renderReactions } from "./reactions.js";
import { renderSuppression } from "./suppression.js";
import { zonesRollSkill, zonesSheetAction } from "./sheet-actions.js";
import {
  ZONES_ITEM_TEMPLATE,
  ZONES_SHEET_PARTS,
  ZONES_SHEET_TEMPLATES,
  ZONES_TEMPLATE_PATHS,
  zonesActorSheetContext,
  zonesItemSheetContext,
  zonesWeaponModes,
} from "./sheet-context.js";

/** The Zones binding. */
export const zonesBinding: RulesetBinding<ZonesCombatant> = {
  id: "zones",
  ruleset: zones as RulesetBinding<ZonesCombatant>["ruleset"],
  implemented: true,
  models: { character: ZonesActorData, npc: ZonesNpcData, weapon: ZonesWeaponData, armor: ZonesArmorData },
  combatantFromActor: zonesCombatantWithMoves,
  // A combatant without weapons: the actions every Zones combatant has (ZN-ACT-01).
  standingActions: (options) => zones.actions({ weapons: [] } as unknown as ZonesCombatant, options),
  weaponFromItem: zonesWeaponFromItem,
  armorFromItem: zonesArmorFromItem,
  weaponModes: zonesWeaponModes,
  sheetParts: ZONES_SHEET_PARTS,
  sheetTemplates: ZONES_SHEET_TEMPLATES,
  itemSheetTemplate: ZONES_ITEM_TEMPLATE,
  sheetContext: zonesActorSheetContext,
  itemSheetContext: zonesItemSheetContext,
  sheetAction: zonesSheetAction,
  rollSkill: zonesRollSkill,
  templates: ZONES_TEMPLATE_PATHS,
  // Hit points (ZN-ZON-02) and effort points (ZN-INI-02); speed points (ZN-MOV-01) on request. No endurance points.
  tokenBars: { bar1: "hp", bar2: "effort", bars: ["hp", "effort", "speed"], values: ["aim", "initiativeBonus"] },
  movementUnits: { units: "m", metresPerUnit: 1, gridDistance: 1.5 },
  cardRules: zonesCardRules,
  afterAttack: zonesAfterAttack,
  afterInitiative: zonesAfterInitiative,
  initiativeRefusal: zonesInitiativeRefusal,
  startRoundOn: zonesStartRoundOn,
  registerQuench: registerZonesQuench,
  init: zonesInit,
  rulerBands: zonesRulerBands,
  // The tracker's Zones parts under each name: declared reactions (ZN-REA-01), suppressing fire (ZN-SUP-01).
  renderTracker: (combat, html) => {
    renderReactions(combat, html);
    renderSuppression(combat, html);
  },
};
