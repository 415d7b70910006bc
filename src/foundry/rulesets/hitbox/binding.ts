/**
 * Hitbox in Foundry: the rules core's `hitbox`, its data models and source translation, the
 * attack card's own steps (a dodge or parry on the card that stands for the turn, armor on the
 * items, HB-ATK-03, HB-DMG-01) and the sheets. Ranges are in feet (HB-MOD-01), so its scenes
 * measure in feet; the core's movement bands are in metres either way (HB-ACT-02).
 */
import { hitbox, TURN_SECONDS } from "../../../rules/hitbox/index.js";
import {
  HITBOXES,
  hitboxArmorFromItem,
  hitboxCombatantFromActor,
  hitboxWeaponFromItem,
  type HitboxCombatant,
} from "../../../rules/hitbox/model.js";
import { SYSTEM_PATH } from "../../config.js";
import { hitboxCardRules } from "./card.js";
import { HITBOX_MOVEMENT_UNITS } from "./card-view.js";
import { HitboxActorData, HitboxArmorData, HitboxNpcData, HitboxWeaponData } from "./models.js";
import type { RulesetBinding } from "../../registry.js";
import { hitboxOpposedTest, OPPOSED_TEMPLATE } from "./opposed.js";
import { HITBOX_DECLARATION } from "./tracker-view.js";
import { registerHitboxQuench } from "./quench.js";
import { hitboxStartRoundOn } from "./round.js";
import { hitboxRollSkill } from "./sheet-actions.js";
import { renderStepBanner } from "./step.js";
import {
  HITBOX_ITEM_TEMPLATE,
  HITBOX_SHEET_PARTS,
  HITBOX_SHEET_TEMPLATES,
  hitboxActorSheetContext,
  hitboxItemSheetContext,
} from "./sheet-context.js";

/** The Hitbox binding. */
export const hitboxBinding: RulesetBinding<HitboxCombatant> = {
  id: "hitbox",
  ruleset: hitbox as RulesetBinding<HitboxCombatant>["ruleset"],
  implemented: true,
  models: { character: HitboxActorData, npc: HitboxNpcData, weapon: HitboxWeaponData, armor: HitboxArmorData },
  combatantFromActor: (actor, overrides) => hitboxCombatantFromActor(actor, overrides),
  // HB-MOD-03: once the turn's action is spent, a further shot of the same turn costs nothing more.
  furtherAttackFree: (economy) => (economy.slots.action?.used ?? 0) >= 1,
  startRoundOn: hitboxStartRoundOn,
  // HB-RND-02: a one-turn effect used on turn 3 acts on turn 4.
  effectDelayRounds: 1,
  // HB-ACT-01, HB-ACT-03: the action and its quick actions are declared; dodge and parry answer attacks.
  // Sealed: whispered to the GMs until the reveal, so other players do not read them (combat/sealed.ts).
  declaration: HITBOX_DECLARATION,
  // HB-ACT-05: game.fray.binding.tools.opposedTest(tokenA, skillA, tokenB, skillB).
  tools: { opposedTest: hitboxOpposedTest },
  weaponFromItem: hitboxWeaponFromItem,
  armorFromItem: hitboxArmorFromItem,
  sheetParts: HITBOX_SHEET_PARTS,
  sheetTemplates: HITBOX_SHEET_TEMPLATES,
  sheetContext: hitboxActorSheetContext,
  itemSheetTemplate: HITBOX_ITEM_TEMPLATE,
  itemSheetContext: hitboxItemSheetContext,
  rollSkill: hitboxRollSkill,
  templates: [
    ...Object.values(HITBOX_SHEET_TEMPLATES),
    HITBOX_ITEM_TEMPLATE,
    OPPOSED_TEMPLATE,
    ...["tabs", "conditions", "biography"].map((p) => `${SYSTEM_PATH}/templates/actor/${p}.hbs`),
  ],
  // HB-DMG-01: the points of the head and the torso; every other hitbox on request.
  tokenBars: { bar1: "hitboxes.head", bar2: "hitboxes.torso", bars: HITBOXES.map((h) => `hitboxes.${h}`), values: [] },
  movementUnits: HITBOX_MOVEMENT_UNITS,
  cardRules: hitboxCardRules,
  // HB-ACT-01: the resolution step and the GM's End step button under the phase banner.
  renderTracker: (combat, html) => renderStepBanner(combat, html),
  // HB-RND-01: a turn is 5 seconds of game time.
  init: () => {
    const config = CONFIG as unknown as { time?: { roundTime: number } };
    if (config.time) config.time.roundTime = TURN_SECONDS;
  },
  registerQuench: registerHitboxQuench,
};
