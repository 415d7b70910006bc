/**
 * UD10's leaving melee in Foundry (UD-OPT-01, UD-OPT-02): when a move leaves engaged opponents
 * and the fleeing or retreat option is on, the mover's user is asked Flee or Retreat. Fleeing
 * gives each left opponent a free attack (a chat prompt with an Attack button each); retreating
 * takes the whole round and posts a chat line. The generic movement hook calls this through the
 * binding's `onLeaveMelee` and folds the chosen action's cost into the move's charge.
 */
import { disengage, ud10Options, type Ud10Combatant } from "../../../rules/ud10/index.js";
import { postFreeAttackPrompt } from "../../chat/free-attack.js";
import { disengageChoices } from "../../logic/engagement.js";
import { formatHtml, formatKey } from "../../notify.js";
import { disengageButtons, disengageHtml } from "./leave-melee-view.js";
import type { LeaveMelee, LeaveMeleeOutcome } from "../../registry.js";

/** Asks whether the mover flees or retreats; `undefined` when the dialog is closed. */
async function askDisengage(name: string, count: number, choices: ("flee" | "retreat")[]): Promise<"flee" | "retreat" | undefined> {
  const DialogV2 = foundry.applications.api.DialogV2;
  const result = await DialogV2.wait({
    window: { title: formatKey("FRAY.Flow.Disengage.Title") },
    content: disengageHtml(name, count, choices, game.i18n),
    buttons: disengageButtons(choices),
    rejectClose: false,
  } as never);
  return result === "flee" || result === "retreat" ? result : undefined;
}

/**
 * UD10's `onLeaveMelee` (UD-OPT-01, UD-OPT-02): nothing when neither option is on or the dialog
 * is closed; else the disengagement (`flee` or `retreat`, the ids of UD10's `actions()`) and what
 * to post once the move is paid.
 */
export async function ud10LeaveMelee(leave: LeaveMelee<Ud10Combatant>): Promise<LeaveMeleeOutcome | undefined> {
  const options = ud10Options(leave.options);
  const choices = disengageChoices(options);
  if (!choices.length || !leave.left.length) return undefined;
  const choice = await askDisengage(leave.mover.name, leave.left.length, choices);
  if (!choice) return undefined;
  const d = disengage(
    leave.left.map((l) => l.combatant),
    choice,
    options,
  );
  if (d.mode === "flee") {
    const attackers = leave.left.filter((l) => d.freeAttacks.includes(l.combatant.id));
    return {
      disengage: "flee",
      after: () =>
        postFreeAttackPrompt({
          moverTokenUuid: leave.mover.tokenUuid,
          moverName: leave.mover.name,
          attackers: attackers.map((a) => ({ actorUuid: a.actorUuid, tokenUuid: a.tokenUuid, name: a.name })),
        }),
    };
  }
  return {
    disengage: "retreat",
    after: async () => {
      await ChatMessage.implementation.create({
        content: `<div class="fray fray-card"><p>${formatHtml("FRAY.Flow.Retreat.Done", { token: leave.mover.name })} <span class="fray-rule">${d.rule}</span></p></div>`,
      } as never);
    },
  };
}
