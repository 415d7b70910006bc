/**
 * The Flee or Retreat dialog of UD10's leaving melee (UD-OPT-01, UD-OPT-02), free of Foundry
 * globals so the render test draws it as play does: its buttons and its content.
 */
import type { DialogButtonFace } from "../../logic/dialog-buttons.js";
import { escapeHtml } from "../../logic/round-actions.js";
import { pluralKey } from "../../../rules/core/i18n.js";

/** Localization as the dialog uses it. */
interface Localizer {
  localize(key: string): string;
  format(key: string, data: Record<string, string>): string;
}

/** The dialog's buttons: one per choice the world's options allow, the first the default. */
export function disengageButtons(choices: readonly ("flee" | "retreat")[]): DialogButtonFace[] {
  return choices.map((c, i) => ({
    action: c,
    label: c === "flee" ? "FRAY.Flow.Flee.Button" : "FRAY.Flow.Retreat.Button",
    default: i === 0,
  }));
}

/**
 * The dialog's content: who leaves how many engaged opponents (the name escaped), and a hint with
 * the rule ID for each choice offered (UD-OPT-01 fleeing, UD-OPT-02 retreating).
 */
export function disengageHtml(name: string, count: number, choices: readonly ("flee" | "retreat")[], i18n: Localizer): string {
  // Inside `.fray`, so the rule IDs take the system's look (the dialog itself has no system class).
  return (
    `<div class="fray fray-disengage">` +
    `<p>${i18n.format(pluralKey("FRAY.Flow.Disengage.Prompt", count), { token: escapeHtml(name), count: String(count) })}</p>` +
    (choices.includes("flee")
      ? `<p>${escapeHtml(i18n.localize("FRAY.Flow.Flee.Hint"))} <span class="fray-rule">UD-OPT-01</span></p>`
      : "") +
    (choices.includes("retreat")
      ? `<p>${escapeHtml(i18n.localize("FRAY.Flow.Retreat.Hint"))} <span class="fray-rule">UD-OPT-02</span></p>`
      : "") +
    `</div>`
  );
}
