/**
 * The ruleset's actions other than the attack as the sheets offer them (UD-ACT-02: ready or draw a
 * weapon, reload, use an item, a skill action that fits the round; UD-ATK-04 aim): which buttons
 * the Actions row shows, whether an action may be taken with the round's economy, and the chat
 * line it posts. Pure but for {@link worldActions}: the Foundry glue reads the combatant's economy
 * and spends through the economy store.
 */
import type { ActionDef } from "../../rules/core/contract.js";
import type { Economy } from "../../rules/core/economy.js";
import { actionEvent, spendEvent, type RoundEvent } from "./economy.js";

/** Ids of the ruleset's actions (UD-ACT-02, UD-ATK-04 aim). */
export type ActionId = string;

/** Font Awesome icons of the action buttons. */
const ICONS: Record<string, string> = {
  aim: "fa-solid fa-crosshairs",
  ready: "fa-solid fa-hand-fist",
  reload: "fa-solid fa-rotate",
  useItem: "fa-solid fa-briefcase-medical",
  skill: "fa-solid fa-person-running",
};

/** Where {@link worldActions} reads from; the Foundry glue sets it (`round-actions.ts`). */
let standing: () => readonly ActionDef[] = () => [];

/** Sets the reader of the world's actions (the binding's `standingActions` under the world's options). */
export function setWorldActions(reader: () => readonly ActionDef[]): void {
  standing = reader;
}

/**
 * The world's actions for a view that has no combatant (the sheet's Actions row): the binding's
 * `standingActions` under the world's options; none when the binding offers none or nothing set
 * the reader.
 */
export function worldActions(): readonly ActionDef[] {
  try {
    return standing();
  } catch {
    return [];
  }
}

/**
 * The actions of the sheets' Actions row: the ruleset's actions of kind `other` (UD-ACT-02 ready,
 * reload, use an item, a skill action; UD-ATK-04 aim). Attacks have their weapon rows, reactions
 * and moves their own flows.
 */
export function sheetActions(defs: readonly ActionDef[] = worldActions()): ActionDef[] {
  return defs.filter((a) => a.kind === "other");
}

/** True for an id of the ruleset's actions (UD-ACT-02). */
export function isAction(id: string | undefined, defs: readonly ActionDef[] = worldActions()): id is ActionId {
  return defs.some((a) => a.id === id);
}

/** One button of the Actions row. */
export interface ActionButton {
  id: string;
  /** Localized label from the ruleset's i18n key (`FRAY.Action.reload`). */
  label: string;
  icon: string;
  rule: string;
}

/** The Actions row's buttons, labelled from the ruleset's i18n keys (UD-ACT-02, UD-ATK-04). */
export function actionButtons(i18n: { localize(key: string): string }, defs: readonly ActionDef[] = worldActions()): ActionButton[] {
  return sheetActions(defs).map((a) => ({
    id: a.id,
    label: i18n.localize(a.label),
    icon: ICONS[a.id] ?? "fa-solid fa-bolt",
    rule: a.rule,
  }));
}

/** Whether an action may be taken now, and what it spends. */
export type ActionDecision =
  /** Allowed; `event` is what to spend on the combatant (none outside combat). */
  | { ok: true; event?: RoundEvent }
  /** Refused: the i18n key of the reason and the slot that is short. */
  | { ok: false; key: string; short: string };

/**
 * Decides an action (UD-ACT-02, CR-AP-01, ZN-ACT-01) against the round's economy: outside combat
 * (`economy` undefined) it is allowed and spends nothing; in combat it spends what the ruleset
 * says the action costs, and is refused when that is already spent. The attack goes through here
 * too, so every action of the round is weighed the same way. Without `defs` an attack is weighed
 * as the round's one action (the economy store recomputes the cost before spending).
 * @param defs the combatant's actions (`ruleset.actions`); an id not among them is refused.
 */
export function decideAction(action: string, economy: Economy | undefined, defs?: readonly ActionDef[]): ActionDecision {
  if (defs ? !defs.some((a) => a.id === action) : action !== "attack" && !isAction(action))
    return { ok: false, key: "FRAY.Flow.Error.NoSlot", short: action };
  const event: RoundEvent = actionEvent(action, defs);
  if (!economy) return { ok: true };
  const { short } = spendEvent(economy, event);
  if (short) return { ok: false, key: short === "action" ? "FRAY.Flow.Error.NoAction" : "FRAY.Flow.Error.NoSlot", short };
  return { ok: true, event };
}

/** The label key of one of the ruleset's actions (`FRAY.Action.reload`); the id when unknown. */
export function actionLabel(action: string, defs: readonly ActionDef[] = worldActions()): string {
  return defs.find((a) => a.id === action)?.label ?? action;
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
