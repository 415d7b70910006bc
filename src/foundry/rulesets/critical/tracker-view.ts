/**
 * The markup of Critical's parts of the combat tracker, free of Foundry globals (the render test
 * builds them): the declaring order (CR-INI-02), the delayed marker and the Delay control
 * (CR-INI-03), and the Parry button beside Declare (CR-PAR-01). Every name is escaped; every
 * number comes from the core or the stored economy.
 */
import { escapeHtml } from "../../logic/round-actions.js";
import { actingOrder, type DelayRule, type OrderEntry } from "../../logic/delay.js";

/** Localization as the tracker's parts use it. */
export interface TrackerLocalizer {
  localize(key: string): string;
  format(key: string, data: Record<string, string>): string;
}

/**
 * The order the combatants declare in (CR-INI-02): the acting order of the round (delays of
 * CR-INI-03 applied through `rule`) turned round, lowest initiative first.
 * @returns Combatant ids, first to declare first.
 */
export function declaringOrder(entries: readonly OrderEntry[], round: number, rule?: DelayRule): string[] {
  return actingOrder(entries, round, rule).reverse();
}

/** What a tracker row shows of the delay (CR-INI-03). */
export interface DelayRowView {
  /** The Combatant id of the row. */
  id: string;
  /** The name of the one it acts right after this round, when it delays. */
  after?: string;
  /** The reader may delay it now (its owner or the GM, in the fight, someone left to wait for). */
  canDelay: boolean;
}

/**
 * The delay part of one tracker row (CR-INI-03): "delays until after …" when it delays this
 * round, and the Delay button when the reader may delay it; "" when neither.
 */
export function delayPartHtml(view: DelayRowView, i18n: TrackerLocalizer): string {
  const parts: string[] = [];
  if (view.after !== undefined) {
    const text = escapeHtml(i18n.format("FRAY.Critical.Round.Delayed", { after: view.after }));
    parts.push(
      `<span class="fray-delayed"><i class="fa-solid fa-hourglass-half" inert></i> ${text} <span class="fray-rule">CR-INI-03</span></span>`,
    );
  }
  if (view.canDelay) {
    const label = escapeHtml(i18n.localize("FRAY.Critical.Round.Delay"));
    parts.push(
      `<button type="button" class="fray-delay-button" data-fray-delay="${escapeHtml(view.id)}" data-tooltip="CR-INI-03">${label}</button>`,
    );
  }
  return parts.length ? `<div class="fray-delay">${parts.join(" ")}</div>` : "";
}

/**
 * The Parry button of a row that declares now (CR-PAR-01): "Parry", or "Parry (N OB)" once N OB
 * are moved into DB this round.
 * @param id the Combatant id of the row.
 * @param moved the OB already moved (the core's `parriedOb`).
 */
export function parryButtonHtml(id: string, moved: number, i18n: TrackerLocalizer): string {
  const label = moved ? i18n.format("FRAY.Critical.Parry.ButtonMoved", { ob: String(moved) }) : i18n.localize("FRAY.Critical.Parry.Button");
  return `<button type="button" class="fray-parry-declare" data-fray-parry="${escapeHtml(id)}" data-tooltip="CR-PAR-01">${escapeHtml(label)}</button>`;
}
