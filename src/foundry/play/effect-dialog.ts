/**
 * The effect dialog (DialogV2): starts a timed effect on an actor from its sheet or its token's
 * HUD, as dnd5e's and Draw Steel's condition dialogs do. The form asks a name, the world
 * ruleset's statuses (checkboxes, localized), a duration in combat rounds or turns and the delay
 * before it acts (the ruleset's default: Hitbox 1 round, HB-RND-02; else 0). The entered values
 * are checked (logic/effect-form.ts) and the effect is started through `game.fray.startEffect`
 * (play/api.ts `apiStartEffect`, the one path macros take too).
 *
 * Who may: the owner of the actor (a GM owns every actor). A player on another's actor is
 * refused with a localized warning, before the form opens and again by `apiStartEffect`. No
 * request to the active GM (queries.ts) is needed: a player only ever starts effects on actors
 * they own, and the owner may create embedded ActiveEffects on their own actor.
 */
import { statusEffects } from "../conditions.js";
import { SYSTEM_PATH } from "../config.js";
import { dialogButtons } from "../logic/dialog-buttons.js";
import {
  defaultEffectValues,
  EFFECT_DIALOG_BUTTONS,
  effectDialogContext,
  parseEffectForm,
  type EffectFormValues,
  type EffectStatusChoice,
} from "../logic/effect-form.js";
import { formatHtml, reportError, warn, windowTitle } from "../notify.js";
import { activeBinding } from "../registry.js";
import { apiStartEffect } from "./api.js";
import { mayStartEffect, notOwnerError, type EffectStart } from "./effects.js";

/** The dialog's template. */
export const EFFECT_DIALOG_TEMPLATE = `${SYSTEM_PATH}/templates/dialog/effect-dialog.hbs`;

/** The actor the dialog starts an effect on, as far as it reads it. */
interface EffectActor {
  name?: string | null;
}

/** A form control as the dialog reads it. */
type Control = { value?: string; checked?: boolean } | undefined;

/** The values a submitted form holds (`effectName`, `duration`, `unit`, `delay`, `status.<id>`). */
function formValues(elements: Record<string, Control>, offered: readonly EffectStatusChoice[]): EffectFormValues {
  return {
    effectName: elements.effectName?.value ?? "",
    duration: elements.duration?.value ?? "",
    unit: elements.unit?.value ?? "",
    delay: elements.delay?.value ?? "",
    statuses: offered.filter((s) => elements[`status.${s.id}`]?.checked).map((s) => s.id),
  };
}

/** Shows the form once with these values; the values submitted, or undefined when closed. */
async function askOnce(actor: EffectActor, values: EffectFormValues, offered: readonly EffectStatusChoice[], delay: number) {
  const content = await foundry.applications.handlebars.renderTemplate(
    EFFECT_DIALOG_TEMPLATE,
    effectDialogContext(values, offered, delay, game.i18n as never) as never,
  );
  const result = await foundry.applications.api.DialogV2.wait({
    window: { title: windowTitle("FRAY.Effect.Dialog.Title", { actor: actor.name ?? "" }) },
    classes: ["fray", "fray-effect-dialog"],
    content,
    buttons: dialogButtons(EFFECT_DIALOG_BUTTONS, {
      start: (_event: unknown, button: { form?: { elements: Record<string, Control> } | null }) =>
        formValues(button.form?.elements ?? {}, offered),
    }),
    rejectClose: false,
  } as never);
  return result && typeof result === "object" ? (result as EffectFormValues) : undefined;
}

/**
 * Opens the effect dialog for an actor and starts the effect it describes in the current combat
 * (`game.combat`). Input that does not fit is refused with a localized error naming the field
 * and the form opens again with what was entered.
 * @returns the effect started, or undefined when refused (a localized warning was shown: not
 *   the user's actor, no combat) or closed.
 */
export async function openEffectDialog(actor: unknown): Promise<EffectStart | undefined> {
  if (!mayStartEffect(actor)) {
    reportError(notOwnerError(actor));
    return undefined;
  }
  if (!(game as unknown as { combat?: unknown }).combat) {
    warn("FRAY.Effect.NoCombat");
    return undefined;
  }
  const delay = activeBinding().effectDelayRounds ?? 0;
  const offered = statusEffects();
  let values = defaultEffectValues(delay);
  for (;;) {
    const entered = await askOnce(actor as EffectActor, values, offered, delay);
    if (!entered) return undefined;
    let start: EffectStart;
    try {
      start = parseEffectForm(
        entered,
        offered.map((s) => s.id),
        delay,
      );
    } catch (err) {
      reportError(err);
      values = entered;
      continue;
    }
    const first = offered.find((s) => start.statuses?.includes(s.id));
    if (first) start.img = first.img;
    if (!(await apiStartEffect(actor, start))) return undefined;
    ui.notifications?.info(formatHtml("FRAY.Effect.Started", { effect: start.name, actor: (actor as EffectActor).name ?? "" }));
    return start;
  }
}
