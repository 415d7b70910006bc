/**
 * The core's actions other than the attack as the sheets offer them (UD-ACT-02: ready or draw a
 * weapon, reload, use an item, a skill action that fits the round): which buttons the Actions row
 * shows, whether an action may be taken with the round's economy, and the chat line it posts.
 * Pure: the Foundry glue reads the combatant's economy and spends through the economy store.
 */
import type { Economy } from "../../rules/core/economy.js";
import { ACTIONS } from "../../rules/ud10/movement.js";
import { actionEvent, spendEvent, type RoundEvent } from "./economy.js";

/** Ids of the core's actions (UD-ACT-02). */
export type ActionId = (typeof ACTIONS)[number]["id"];

/** Font Awesome icons of the action buttons. */
const ICONS: Record<string, string> = {
  ready: "fa-solid fa-hand-fist",
  reload: "fa-solid fa-rotate",
  useItem: "fa-solid fa-briefcase-medical",
  skill: "fa-solid fa-person-running",
};

/** The actions of the sheets' Actions row: the core's actions except the attack, which each weapon row has (UD-ACT-02). */
export const SHEET_ACTIONS = ACTIONS.filter((a) => a.id !== "attack");

/** True for an id of the core's actions (UD-ACT-02). */
export function isAction(id: string | undefined): id is ActionId {
  return ACTIONS.some((a) => a.id === id);
}

/** One button of the Actions row. */
export interface ActionButton {
  id: string;
  /** Localized label from the core's i18n key (`FRAY.Action.reload`). */
  label: string;
  icon: string;
  rule: string;
}

/** The Actions row's buttons, labelled from the core's i18n keys (UD-ACT-02). */
export function actionButtons(i18n: { localize(key: string): string }): ActionButton[] {
  return SHEET_ACTIONS.map((a) => ({ id: a.id, label: i18n.localize(a.label), icon: ICONS[a.id] ?? "fa-solid fa-bolt", rule: a.rule }));
}

/** Whether an action may be taken now, and what it spends. */
export type ActionDecision =
  /** Allowed; `event` is what to spend on the combatant (none outside combat). */
  | { ok: true; event?: RoundEvent }
  /** Refused: the i18n key of the reason and the slot that is short. */
  | { ok: false; key: string; short: string };

/**
 * Decides an action of the core (UD-ACT-02) against the round's economy: outside combat
 * (`economy` undefined) it is allowed and spends nothing; in combat it spends what the core says
 * the action costs (the action), and is refused when that is already spent. The attack goes
 * through here too, so every action of the round is weighed the same way.
 */
export function decideAction(action: string, economy: Economy | undefined): ActionDecision {
  if (!ACTIONS.some((a) => a.id === action)) return { ok: false, key: "FRAY.Flow.Error.NoSlot", short: action };
  const event: RoundEvent = actionEvent(action);
  if (!economy) return { ok: true };
  const { short } = spendEvent(economy, event);
  if (short) return { ok: false, key: short === "action" ? "FRAY.Flow.Error.NoAction" : "FRAY.Flow.Error.NoSlot", short };
  return { ok: true, event };
}

/** The label key of an action of the core (`FRAY.Action.reload`). */
export function actionLabel(action: string): string {
  return ACTIONS.find((a) => a.id === action)?.label ?? action;
}

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}

/**
 * The short chat line of an action (UD-ACT-02): the localized sentence naming the actor and the
 * action, whether it spent the round's action, and the rule ID.
 * @param text the localized sentence (`FRAY.Flow.Action.Line` formatted).
 * @param spent the action was spent from the combatant's round economy.
 * @param spentText the localized note for a spent action.
 */
export function actionLineHtml(text: string, spent: boolean, spentText: string): string {
  const note = spent ? ` <span class="fray-action-spent">${escapeHtml(spentText)}</span>` : "";
  return `<div class="fray-card fray-action-line"><p>${escapeHtml(text)}${note} <span class="fray-rule">UD-ACT-02</span></p></div>`;
}
