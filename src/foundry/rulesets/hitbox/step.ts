/**
 * Hitbox's resolution steps in the combat tracker (HB-ACT-01, HB-ACT-03, HB-DMG-04; RULES.md,
 * "In play (Foundry)"). A turn (5 s, HB-RND-01) opens with the pipeline's declaration phase; once
 * the GM reveals the declarations (phase `resolve`) a step is open: the GM resolves the
 * pre-empting actions first, each in a step of its own, then all the rest in one step. Damage
 * applied during an open step is held on the card ("held until the step ends") and taken off
 * the list on the Combat (`flags.fray.hitboxStep`: round, step number and the held
 * applications); the GM's **End step** in the tracker commits every held application at once,
 * each recomputed from its card's stored rolls by the active GM, so two combatants who shoot each
 * other in the same step both fire. Blackout tests forced by a step are then rolled on the cards.
 */
import { pluralKey } from "../../../rules/core/i18n.js";
import { applyFor } from "../../chat/actions.js";
import type { AttackMessageLike } from "../../chat/attack-message.js";
import { activeCombat } from "../../combat/economy-store.js";
import type { TargetState } from "../../logic/card.js";
import { formatKey, reportError, warn } from "../../notify.js";
import { isActiveGM, serial } from "../../queries.js";
import { opposedFromTracker } from "./opposed.js";
import { planView, togglePreempt, type PlanCombat } from "./plan.js";
import { STEP_FLAG, stepOf, stepOpen, type HeldApplication, type StepCombat, type StoredStep } from "./step-state.js";
import { planHtml, stepBannerHtml, type StepView } from "./tracker-view.js";

export { stepBannerHtml, type StepView } from "./tracker-view.js";
export { STEP_FLAG, stepOf, stepOpen, type HeldApplication, type StepCombat, type StoredStep } from "./step-state.js";

/** An attack message as the step writes its held mark. */
interface HeldMessage {
  id: string | null;
  system?: unknown;
}

/**
 * The binding's `holdApply` (HB-ACT-01), on the active GM after the card's dice were checked:
 * during an open step the application is held (listed on the Combat, the card marked "held until
 * the step ends") and nothing is applied; `false` outside an open step, or when the step is being
 * ended (the held applications are committed then).
 */
export async function holdApply(
  hold: { message: HeldMessage; index: number; userId: string },
  write: (target: TargetState) => Promise<boolean>,
): Promise<boolean> {
  const combat = activeCombat() as (StepCombat & { id: string | null }) | undefined;
  if (!stepOpen(combat) || ending) return false;
  const state = stepOf(combat);
  const messageId = hold.message.id ?? "";
  if (!state.held.some((h) => h.messageId === messageId && h.index === hold.index)) {
    state.held.push({ messageId, index: hold.index, userId: hold.userId });
  }
  await combat.setFlag?.("fray", STEP_FLAG, state);
  const targets = (hold.message.system as { targets?: TargetState[] } | undefined)?.targets ?? [];
  const target = targets[hold.index];
  if (target) await write({ ...target, held: { round: state.round, step: state.step } } as TargetState);
  return true;
}

/** True while the active GM commits a step's held applications. */
let ending = false;

/** Commits one held application (the generic apply on the active GM, from the card's stored rolls). */
export type CommitHeld = (held: HeldApplication) => Promise<boolean>;

/**
 * The GM ends the open step (HB-ACT-01): every application held in it is committed at once, each
 * recomputed from its card's stored rolls on the active GM (a card whose dice or state no longer
 * match is reported and skipped), and the next step opens. Players and GMs other than the active
 * one are refused with a warning.
 * @returns the number of applications committed, or `undefined` when refused.
 */
export async function endStep(combat: StepCombat, commit: CommitHeld): Promise<number | undefined> {
  if (!game.user?.isGM) {
    warn("FRAY.Hitbox.Step.GMOnly");
    return undefined;
  }
  if (!isActiveGM()) {
    warn("FRAY.Hitbox.Step.ActiveGMOnly");
    return undefined;
  }
  if (!stepOpen(combat)) {
    warn("FRAY.Hitbox.Step.NoStep");
    return undefined;
  }
  return serial(async () => {
    const state = stepOf(combat);
    let done = 0;
    ending = true;
    try {
      for (const held of state.held) {
        try {
          if (await commit(held)) done++;
        } catch (err) {
          reportError(err);
        }
      }
    } finally {
      ending = false;
    }
    await combat.setFlag?.("fray", STEP_FLAG, { round: state.round, step: state.step + 1, held: [] } satisfies StoredStep);
    return done;
  });
}

/**
 * Commits one held application on the active GM: the generic apply of its card's target for the
 * user who asked, checked again against the card as it stands now (who may press Apply, whose
 * attacker it is), the damage recomputed from the card's stored rolls and checked against the
 * target's ledger.
 * @returns false when the card is gone.
 * @throws FrayError when the user, the card or the ledger refuse it now.
 */
export async function commitHeld(held: HeldApplication): Promise<boolean> {
  const message = game.messages?.get(held.messageId) as unknown as AttackMessageLike | undefined;
  if (!message) return false;
  const user = game.users?.get(held.userId);
  return applyFor(message, held.index, { id: held.userId, isGM: Boolean(user?.isGM) });
}

/** The tracker's step view of a combat (HB-ACT-01); `undefined` when no step is open. */
export function stepView(combat: StepCombat, isGM: boolean): StepView | undefined {
  if (!stepOpen(combat)) return undefined;
  const state = stepOf(combat);
  return { step: state.step, held: state.held.length, canEnd: isGM };
}

/**
 * The binding's `renderTracker` (HB-ACT-01): the step banner under the phase banner, with the
 * GM's End step button wired to {@link endStep}, its Opposed test button (HB-ACT-05) wired to
 * `opposedFromTracker`, and the turn's plan of steps (plan.ts) with the GM's pre-empt toggles
 * wired to `togglePreempt`. One click listener serves them all.
 */
export function renderStepBanner(combat: unknown, html: HTMLElement, commit: CommitHeld = commitHeld): void {
  const c = combat as PlanCombat;
  html.querySelector(".fray-hitbox-step")?.remove();
  html.querySelector(".fray-hitbox-plan")?.remove();
  const isGM = Boolean(game.user?.isGM);
  const view = stepView(c, isGM);
  if (!view) return;
  const host = html.querySelector<HTMLElement>(".combat-tracker") ?? html;
  const plan = planView(c, isGM);
  const markup = stepBannerHtml(view, game.i18n) + (plan ? planHtml(plan, game.i18n) : "");
  const phase = host.querySelector(".fray-declaration-phase");
  if (phase) phase.insertAdjacentHTML("afterend", markup);
  else host.insertAdjacentHTML("afterbegin", markup);
  if (!isGM || host.dataset.frayEndStepClicks) return;
  host.dataset.frayEndStepClicks = "1";
  host.addEventListener("click", (event: Event) => {
    const target = event.target as HTMLElement | null;
    const preempt = target?.closest?.<HTMLElement>("[data-fray-preempt]");
    if (preempt) {
      event.preventDefault();
      event.stopPropagation();
      void togglePreempt(c, preempt.dataset.frayPreempt ?? "").catch(reportError);
      return;
    }
    if (target?.closest?.("[data-fray-opposed]")) {
      event.preventDefault();
      event.stopPropagation();
      void opposedFromTracker(c).catch(reportError);
      return;
    }
    if (!target?.closest?.("[data-fray-end-step]")) return;
    event.preventDefault();
    event.stopPropagation();
    void endStep(c, commit)
      .then((n) => {
        if (n !== undefined) ui.notifications?.info(formatKey(pluralKey("FRAY.Hitbox.Step.Ended", n), { count: n }));
      })
      .catch(reportError);
  });
}
