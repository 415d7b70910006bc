/**
 * Zones' own play flow, registered in `init` of a Zones world: the blast card's buttons and the
 * GM's requests behind them (ZN-GRN-01), the movement actions of the token ruler (ZN-MOV-01), and
 * `game.fray.zones` for macros and modules.
 */
import type { RequestHandler } from "../../queries.js";
import { activeRuleset } from "../../registry.js";
import { BLAST_QUERIES, blastAction, handleBlastApply, handleBlastUndo, onRenderBlastCard, throwGrenade } from "./blast.js";
import { registerZonesMovement } from "./movement.js";
import {
  contestReaction,
  declareReaction,
  handleContestReaction,
  handleDeclareReaction,
  handleTriggerReaction,
  onRenderReactionCard,
  REACTION_QUERIES,
  triggerReaction,
} from "./reactions.js";
import { searchForWeapons, toggleHidden } from "./hiding.js";
import {
  endSuppression,
  handleSuppressedAction,
  handleSuppressionEnd,
  handleSuppressionStart,
  startSuppressing,
  SUPPRESSION_QUERIES,
  suppressedAction,
} from "./suppression.js";

/** What `game.fray.zones` offers. */
export const ZONES_API = {
  /** Throws a grenade of an actor at a point of the scene (ZN-THR-01, ZN-GRN-01). */
  throwGrenade,
  /** Presses Apply or Undo on a blast card (GM, ZN-GRN-01). */
  blastAction,
  /** Declares a reaction of a combatant with its trigger (owner or GM, ZN-REA-01). */
  declareReaction,
  /** Triggers a pending reaction and posts its card (GM, ZN-REA-01). */
  triggerReaction,
  /** Rolls the contest of a triggered reaction on its card (GM, ZN-REA-02). */
  contestReaction,
  /** Starts suppressing fire with a firearm (owner, in combat, ZN-SUP-01). */
  startSuppressing,
  /** Marks one action taken under the shooter's suppression (GM, ZN-SUP-01). */
  suppressedAction,
  /** Ends a suppression (owner or GM, ZN-SUP-01). */
  endSuppression,
  /** Hides a small weapon on the body or takes it out of hiding (owner, ZN-HID-01). */
  toggleHidden,
  /** The GM's search for weapons hidden on an actor: Stealth against Notice on a card (ZN-HID-01). */
  searchForWeapons,
};

/**
 * The binding's `init`, called in a Zones world (checked again here: the ruleset setting is read
 * in `init`, as the data models are): the movement actions at once (Foundry prepares the world's
 * tokens, whose movement action must be a registered one, before `setup`), the blast card's hook
 * and, in `setup`, `game.fray.zones`; and the GM's request handlers of the blast card (they
 * refuse a message without one).
 */
export function zonesInit(): Record<string, RequestHandler> {
  if (activeRuleset() === "zones") {
    registerZonesMovement();
    const on = Hooks.on.bind(Hooks) as unknown as (name: string, fn: (...args: never[]) => unknown) => number;
    on("renderChatMessageHTML", onRenderBlastCard);
    on("renderChatMessageHTML", onRenderReactionCard);
    on("setup", () => {
      const fray = (game as unknown as { fray?: Record<string, unknown> }).fray;
      if (fray) fray.zones = ZONES_API;
    });
  }
  return {
    [BLAST_QUERIES.apply]: handleBlastApply,
    [BLAST_QUERIES.undo]: handleBlastUndo,
    [REACTION_QUERIES.declare]: handleDeclareReaction,
    [REACTION_QUERIES.trigger]: handleTriggerReaction,
    [REACTION_QUERIES.contest]: handleContestReaction,
    [SUPPRESSION_QUERIES.action]: handleSuppressedAction,
    [SUPPRESSION_QUERIES.start]: handleSuppressionStart,
    [SUPPRESSION_QUERIES.end]: handleSuppressionEnd,
  };
}
