/**
 * Registers the UD10 play flow: Combat and Combatant classes, the token ruler, the requests the
 * active GM answers (`queries.ts`: carried by the requester's own User document), the hooks of chat cards, the combat tracker and token movement, the
 * round length (UD-RND-01), and the development-only Quench batch.
 */
import { onMoveToken, onPreMoveToken } from "../canvas/movement.js";
import { onPreCreateScene } from "../canvas/scene-defaults.js";
import { registerTokenRuler } from "../canvas/token-ruler.js";
import { applyRoundTime, registerCombat } from "../combat/combat.js";
import { registerDefeated } from "../combat/defeated.js";
import { handleSpendQuery, toggleSlotOn } from "../combat/economy-store.js";
import { declareFor, onRenderCombatTracker, revealDeclarations, trackerDeclarations } from "../combat/tracker.js";
import { isActiveGM, QUERIES, registerQueries } from "../queries.js";
import { forgetApplied } from "../play/applied.js";
import { ledgerPrefix } from "../logic/undo.js";
import { reportError } from "../notify.js";
import { registerQuench } from "../quench.js";
import { registerFollow } from "../forecast/follow.js";
import { takeAction } from "../round-actions.js";
import { handleApplyQuery, handleCardUpdateQuery, handleForcedQuery, handleUndoQuery, runCardAction } from "./actions.js";
import { registerCardFoldSettings, wireCardFolds } from "./fold.js";
import { onRenderChatMessageHTML } from "./hooks.js";
import { FLOW_TEMPLATES } from "./templates.js";

/** Call from the `init` hook, after the settings are registered. */
export function registerPlayFlow(): void {
  registerCardFoldSettings();
  registerCombat();
  registerTokenRuler();
  registerDefeated();
  registerQueries({
    [QUERIES.applyDamage]: handleApplyQuery,
    [QUERIES.undoDamage]: handleUndoQuery,
    [QUERIES.cardUpdate]: handleCardUpdateQuery,
    [QUERIES.spend]: handleSpendQuery,
    [QUERIES.forcedCheck]: handleForcedQuery,
  });
  // Hook names and signatures of v13 that the typings do not all know yet.
  const on = Hooks.on.bind(Hooks) as unknown as (name: string, fn: (...args: never[]) => unknown) => number;
  on("renderChatMessageHTML", onRenderChatMessageHTML);
  on("renderChatMessageHTML", wireCardFolds);
  on("renderCombatTracker", onRenderCombatTracker);
  registerFollow();
  on("preMoveToken", onPreMoveToken);
  on("preCreateScene", onPreCreateScene);
  on("moveToken", (...args: Parameters<typeof onMoveToken>) => void onMoveToken(...args));
  on("updateCombatant", () => void ui.combat?.render());
  // A deleted card's targets leave the world's index of applied attacks.
  on("deleteChatMessage", (message: { id?: string | null }) => {
    if (message.id && isActiveGM()) void forgetApplied(ledgerPrefix(message.id)).catch(reportError);
  });
  on("ready", applyRoundTime);
  on("updateSetting", (setting: { key?: string }) => {
    if (setting.key === "fray.ud10-roundSeconds") applyRoundTime();
  });
  void loadFlowTemplates();
  registerQuench();
  // Macros and modules press card buttons through `game.fray.flow` (set once `game.fray` exists).
  on("setup", () => {
    const fray = (game as unknown as { fray?: Record<string, unknown> }).fray;
    if (fray) fray.flow = FLOW_API;
  });
}

/** Preloads the flow's templates; a missing template is reported on the console, not left as an unhandled rejection. */
async function loadFlowTemplates(): Promise<void> {
  try {
    await foundry.applications.handlebars.loadTemplates(Object.values(FLOW_TEMPLATES));
  } catch (err) {
    console.error("fray | could not load the play flow's templates", err);
  }
}

/** What `game.fray.flow` offers: the card buttons' actions and the hooks' handlers. */
export const FLOW_API = {
  /** Runs a card button's action (`parry`, `dodge`, `noReaction`, `rollDamage`, `applyDamage`, `undoDamage`) on one target of an attack message. */
  runCardAction,
  /** The `renderChatMessageHTML` handler, for modules that render cards themselves. */
  onRenderChatMessageHTML,
  /** The `preMoveToken` and `moveToken` handlers (UD-MOV-03, UD-OPT-01, UD-OPT-02). */
  onPreMoveToken,
  onMoveToken,
  /** Takes one of the core's actions besides the attack for an actor (`ready`, `reload`, `useItem`, `skill`; UD-ACT-02), as the sheets' Actions row does. */
  takeAction,
  /** The declaration phase as this user sees it, the Declare button's action and the GM's Reveal (HB-ACT-01, CR-INI-02, ZN-INI-01). */
  trackerDeclarations,
  declareFor,
  revealDeclarations,
  /** Marks a combatant's movement, action or reaction used or unused (GM only; UD-ACT-01, UD-REA-01), as a click on a tracker pip does. */
  toggleSlotOn,
};
