/**
 * Critical in Foundry: the rules core's `critical` playing with the world's own critical tables
 * (CR-CRT-01, CR-CRT-02), its data models and actor translation, the attack card's Critical
 * sections (the attack table row, the fumble, the critical with its wound text), undo of
 * wounds and stun, the character sheet, NPC stat block and item sheets (`templates/critical/`)
 * with wound treatments, the parry declared in the tracker (CR-PAR-01 to CR-PAR-03), the Self
 * Discipline prompt at 0 hits (CR-HIT-02), the upkeep at each new round (CR-BLD-01, CR-STN-02,
 * CR-DTH-01), the round in the tracker (declaring lowest first, delaying: CR-INI-02, CR-INI-03),
 * movement against the AP left with leaving melee through the GM (CR-MOV-01, CR-MOV-02), and
 * distances in metres.
 */
import { critical, criticalActions, criticalInput, criticalOptions, initiativeGroups } from "../../../rules/critical/index.js";
import { criticalCombatantFromActor, type CriticalCombatant } from "../../../rules/critical/model.js";
import { CriticalActorData, CriticalArmorData, CriticalNpcData, CriticalWeaponData } from "./models.js";
import type { RulesetBinding } from "../../registry.js";
import { criticalCardRules } from "./card.js";
import { criticalDialogDetails } from "./dialog.js";
import { registerCriticalQuench } from "./quench.js";
import { registerSelfDiscipline, SELF_DISCIPLINE_TEMPLATE } from "./self-discipline.js";
import { MANEUVER_DIALOG_TEMPLATE, MANEUVER_TEMPLATE, onRenderManeuver } from "./maneuver.js";
import { clearParryOn, declareParryFor, PARRY_TEMPLATE, renderParry } from "./parry.js";
import { criticalDeclaredParry } from "./declared-parry.js";
import { criticalSheetAction } from "./sheet-actions.js";
import { handleUndoUpkeep, onRenderUpkeep, onUpdateCombat, UNDO_UPKEEP_REQUEST, UPKEEP_TEMPLATE } from "./upkeep.js";
import { criticalRulerBands, handleLeaveMelee, LEAVE_MELEE_REQUEST, onMoveTokenGM, onPreMoveToken } from "./movement.js";
import { criticalHudButtons } from "./first-aid.js";
import { FIRST_AID_REQUEST, firstAid, handleFirstAid, handleTreatOther, TREAT_OTHER_REQUEST, treatOther } from "./treat-other.js";
import { criticalDelay, onDamageApplied, onUpdateCombatant, renderCriticalTracker } from "./round.js";
import {
  CRITICAL_ITEM_TEMPLATE,
  CRITICAL_SHEET_PARTS,
  CRITICAL_SHEET_TEMPLATES,
  criticalActorSheetContext,
  criticalItemSheetContext,
} from "./sheet-context.js";
import { worldTables } from "./tables.js";
import { reportError } from "../../notify.js";
import { HOOKS } from "../../play/hooks.js";

/**
 * The Critical ruleset as a world plays it: every attack input built from a request reads the
 * world's flagged critical tables over the built-in ones (CR-ATK-03, CR-CRT-02), so the card, its
 * replay on the GM's side and the odds all read the same tables.
 */
export const criticalInWorld: typeof critical = {
  ...critical,
  input: (request, attacker, target, options) => criticalInput(request, attacker, target, options, worldTables()),
};

/** The Critical binding. */
export const criticalBinding: RulesetBinding<CriticalCombatant> = {
  id: "critical",
  ruleset: criticalInWorld as RulesetBinding<CriticalCombatant>["ruleset"],
  implemented: true,
  models: { character: CriticalActorData, npc: CriticalNpcData, weapon: CriticalWeaponData, armor: CriticalArmorData },
  combatantFromActor: criticalCombatantFromActor,
  declaredParry: criticalDeclaredParry,
  initiativeGroups: (members, options) => initiativeGroups(members, criticalOptions(options)),
  // Every action is open to a combatant able to act; the actor is not read (CR-AP-01).
  standingActions: (options) => criticalActions({} as CriticalCombatant, options),
  sheetParts: CRITICAL_SHEET_PARTS,
  sheetContext: criticalActorSheetContext,
  itemSheetContext: criticalItemSheetContext,
  sheetTemplates: CRITICAL_SHEET_TEMPLATES,
  itemSheetTemplate: CRITICAL_ITEM_TEMPLATE,
  sheetAction: criticalSheetAction,
  hudButtons: criticalHudButtons,
  templates: [
    ...Object.values(CRITICAL_SHEET_TEMPLATES),
    CRITICAL_ITEM_TEMPLATE,
    SELF_DISCIPLINE_TEMPLATE,
    UPKEEP_TEMPLATE,
    PARRY_TEMPLATE,
    MANEUVER_TEMPLATE,
    MANEUVER_DIALOG_TEMPLATE,
  ],
  delay: criticalDelay,
  init: () => {
    registerSelfDiscipline();
    const on = Hooks.on.bind(Hooks) as unknown as (name: string, fn: (...args: never[]) => unknown) => number;
    on("updateCombat", onUpdateCombat);
    on("updateCombatant", (combatant: never, changes: never) => void onUpdateCombatant(combatant, changes).catch(reportError));
    on(HOOKS.applyDamage, (context: never) => void onDamageApplied(context).catch(reportError));
    on("preMoveToken", onPreMoveToken);
    on(
      "moveToken",
      (doc: never, movement: never, operation: never, user: never) => void onMoveTokenGM(doc, movement, operation, user).catch(reportError),
    );
    on("renderChatMessageHTML", onRenderUpkeep);
    on("renderChatMessageHTML", onRenderManeuver);
    return {
      [LEAVE_MELEE_REQUEST]: handleLeaveMelee,
      [UNDO_UPKEEP_REQUEST]: handleUndoUpkeep,
      [TREAT_OTHER_REQUEST]: handleTreatOther,
      [FIRST_AID_REQUEST]: handleFirstAid,
    };
  },
  rulerBands: (c, options) => criticalRulerBands(c, options),
  registerQuench: registerCriticalQuench,
  // The parry is declared in the tracker with the round's declarations and ends with the round (CR-PAR-01).
  renderTracker: (combat, html) => {
    renderCriticalTracker(combat, html);
    renderParry(combat, html);
  },
  startRoundOn: (actor) => clearParryOn(actor),
  // A split left from an earlier combat (its last round never ended) ends as a new one starts.
  startCombatOn: (actor) => clearParryOn(actor),
  // `game.fray.binding.tools.treatOther({ treater, patient, effectId, method })` and `firstAid({ treater, patient })` for macros.
  tools: { declareParry: declareParryFor, treatOther, firstAid },
  // Hits (CR-HIT-01) alone; the rounds of stun as a value.
  tokenBars: { bar1: "hits", bar2: null, bars: ["hits"], values: ["stun"] },
  movementUnits: { units: "m", metresPerUnit: 1, gridDistance: 1.5 },
  cardRules: criticalCardRules,
  dialogDetails: criticalDialogDetails,
};
