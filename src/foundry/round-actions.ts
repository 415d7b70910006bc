/**
 * The ruleset's actions other than the attack in play (UD-ACT-02): ready or draw a weapon, reload,
 * use an item, a skill action, aim (UD-ATK-04). In the active combat each spends what the
 * ruleset's `actions()` say through the economy store, as an attack does, and the ruleset's
 * `afterAction` runs (aiming sets the aim condition), and is refused with a localized warning once the action
 * is spent; every action taken posts a short chat line naming it and UD-ACT-02.
 */
import { actionRefusal, actionsOf, combatantFor, economyOf, spendOn } from "./combat/economy-store.js";
import { actionLabel, actionLineHtml, decideAction, setWorldActions, worldActions, type ActionDecision } from "./logic/round-actions.js";
import { formatKey, reportError, warn } from "./notify.js";
import { activeBinding } from "./registry.js";
import { optionValues } from "./settings.js";

setWorldActions(() => {
  const binding = activeBinding();
  return binding.standingActions?.(optionValues(binding.id)) ?? [];
});

/** The actor taking an action, as far as this module reads it. */
export interface ActingActor {
  id: string | null;
  uuid: string;
  name: string | null;
}

/** Options of {@link takeAction}. */
export interface TakeActionOptions {
  /** Id of the actor's token in the combat, when the sheet belongs to one. */
  tokenId?: string | null;
  /** Do not post the chat line (the skill roll posts its own message). */
  silent?: boolean;
}

/**
 * Takes one of the ruleset's actions (UD-ACT-02, UD-ATK-04) for an actor: decides it against the round's
 * economy of its combatant in the active combat (none outside combat), spends the action, and
 * posts the chat line.
 * @returns the decision; `ok: false` when refused (a warning was shown, nothing was spent or posted).
 */
export async function takeAction(actor: ActingActor, action: string, options: TakeActionOptions = {}): Promise<ActionDecision> {
  const name = actor.name ?? "";
  const combatant = combatantFor(actor, options.tokenId);
  const defs = combatant ? actionsOf(combatant) : worldActions();
  const decision = decideAction(action, combatant ? economyOf(combatant) : undefined, defs.length ? defs : worldActions());
  if (!decision.ok) {
    warn(decision.key, { actor: name, slot: `FRAY.Slot.${decision.short}` });
    return decision;
  }
  // The ruleset refuses the action as things stand (a combatant out of the fight): nothing is spent.
  const refusal = combatant ? actionRefusal(combatant, action) : undefined;
  if (refusal) {
    reportError(refusal);
    return { ok: false, key: refusal.key, short: action };
  }
  if (combatant && decision.event) {
    const short = await spendOn(combatant, decision.event);
    if (short) {
      warn("FRAY.Flow.Error.NoAction", { actor: name });
      return { ok: false, key: "FRAY.Flow.Error.NoAction", short };
    }
  }
  if (!options.silent) {
    try {
      const text = formatKey("FRAY.Flow.Action.Line", { actor: name, action: actionLabel(action, defs) });
      const content = actionLineHtml(text, Boolean(decision.event), formatKey("FRAY.Flow.Action.Spent"));
      await ChatMessage.implementation.create({ speaker: ChatMessage.getSpeaker({ actor: actor as never }), content } as never);
    } catch (err) {
      reportError(err);
    }
  }
  return decision;
}
