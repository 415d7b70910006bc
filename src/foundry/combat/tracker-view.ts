/**
 * Markup of the generic tracker parts, free of Foundry globals (the render test builds it): the
 * pips and pool badges of a combatant's round economy (UD-ACT-01 slots, CR-AP-01 action points,
 * ZN-MOV-01 speed points) and the Declare form (HB-ACT-01, HB-ACT-03, CR-INI-02, ZN-INI-01).
 */
import { escapeHtml } from "../logic/round-actions.js";
import { TOGGLED_SLOTS, type Pip, type PoolBadge } from "../logic/economy.js";
import type { DialogButtonFace } from "../logic/dialog-buttons.js";
import type { ActionDef } from "../../rules/core/contract.js";

/** Localization as the tracker's parts use it. */
export interface TrackerI18n {
  localize(key: string): string;
  format(key: string, data: Record<string, string>): string;
}

/**
 * The HTML of a combatant's pips (UD-ACT-01, UD-REA-01, ZN-ACT-01): one per limited slot,
 * `ready` or `spent`, with the slot's name as tooltip and its rule ID; where `editable` (the GM)
 * the movement, action and reaction pips are buttons marking the slot used or unused.
 */
export function pipsHtml(list: readonly Pip[], editable: boolean, i18n: TrackerI18n): string {
  return list
    .filter((p) => p.max !== null)
    .map((p) => {
      const slot = escapeHtml(i18n.localize(p.label));
      const state = p.spent ? "spent" : "ready";
      const rule = escapeHtml(p.rule);
      if (!editable || !(TOGGLED_SLOTS as readonly string[]).includes(p.slot)) {
        return `<span class="fray-pip fray-pip-${escapeHtml(p.slot)} ${state}" data-tooltip="${slot}" data-fray-rule="${rule}" aria-label="${slot}"></span>`;
      }
      const label = escapeHtml(i18n.format("FRAY.Flow.Tracker.Toggle", { slot: i18n.localize(p.label) }));
      return `<span class="fray-pip fray-pip-${escapeHtml(p.slot)} ${state}" role="button" tabindex="0" data-fray-slot="${escapeHtml(p.slot)}" aria-pressed="${p.spent}" data-tooltip="${label}" data-fray-rule="${rule}" aria-label="${label}"></span>`;
    })
    .join("");
}

/**
 * A combatant's actions as the Declare form splits them (HB-ACT-01, HB-ACT-03): the one action
 * (without the kinds `spec.notDeclared` leaves out) and the quick actions `spec.quick` names.
 */
export function declarableActions(
  defs: readonly ActionDef[],
  spec: { quick?: readonly string[]; notDeclared?: readonly string[] } | undefined,
): { main: ActionDef[]; quick: ActionDef[] } {
  const quickIds = new Set(spec?.quick ?? []);
  const skip = new Set<string>(spec?.notDeclared ?? []);
  return {
    main: defs.filter((d) => !quickIds.has(d.id) && !skip.has(d.kind)),
    quick: defs.filter((d) => quickIds.has(d.id)),
  };
}

/** The Declare form's one button. */
export const DECLARE_DIALOG_BUTTONS: readonly DialogButtonFace[] = [
  { action: "declare", label: "FRAY.Flow.Declaration.Declare", default: true },
];

/** The quick actions the Declare form offers beside the action (HB-ACT-03): their labels and the legend. */
export interface QuickChoices {
  legend: string;
  actions: { id: string; label: string }[];
}

/**
 * The Declare form's HTML (HB-ACT-01, HB-ACT-03): the action select, the quick actions as
 * checkboxes where the ruleset declares them, and the free text; every label escaped.
 * `labels` and the quick actions' labels are i18n keys.
 */
export function declarationFormHtml(
  labels: { id: string; label: string }[],
  i18n: TrackerI18n,
  current?: { text: string; action?: string; quick?: string[] },
  quick?: QuickChoices,
): string {
  const options = [`<option value="">${escapeHtml(i18n.localize("FRAY.Flow.Declaration.NoAction"))}</option>`]
    .concat(
      labels.map(
        (l) =>
          `<option value="${escapeHtml(l.id)}"${current?.action === l.id ? " selected" : ""}>${escapeHtml(i18n.localize(l.label))}</option>`,
      ),
    )
    .join("");
  const ticks = quick?.actions.length
    ? `<fieldset class="fray-declare-quick"><legend>${escapeHtml(i18n.localize(quick.legend))}</legend>` +
      quick.actions
        .map(
          (q) =>
            `<label class="checkbox"><input type="checkbox" name="quick.${escapeHtml(q.id)}"${current?.quick?.includes(q.id) ? " checked" : ""}> ${escapeHtml(i18n.localize(q.label))}</label>`,
        )
        .join("") +
      `</fieldset>`
    : "";
  return (
    `<div class="fray-declare-form"><label>${escapeHtml(i18n.localize("FRAY.Flow.Declaration.Action"))} <select name="action">${options}</select></label>` +
    ticks +
    `<label>${escapeHtml(i18n.localize("FRAY.Flow.Declaration.Text"))} <textarea name="text" maxlength="500">${escapeHtml(current?.text ?? "")}</textarea></label></div>`
  );
}

/**
 * The HTML of pool badges (CR-AP-01, CR-STN-01, ZN-MOV-01): `value/max` with the pool's name as
 * tooltip and label, dimmed when nothing is left.
 */
export function poolBadgesHtml(badges: readonly PoolBadge[], i18n: { localize(key: string): string }): string {
  return badges
    .map((b) => {
      const name = escapeHtml(i18n.localize(b.label));
      return `<span class="fray-pool fray-pool-${escapeHtml(b.pool)}${b.empty ? " empty" : ""}" data-tooltip="${name}" data-fray-rule="${escapeHtml(b.rule)}" aria-label="${name}: ${b.value}/${b.max}">${b.value}/${b.max}</span>`;
    })
    .join("");
}
