/**
 * What the Zones reaction card and the tracker's Zones rows show (ZN-REA-01, ZN-REA-02 reactions
 * and their contest, ZN-SUP-01 suppressing fire), from the stored state and the core's numbers:
 * plain data and escaped HTML, no Foundry calls, so the render cases build them as play does.
 */
import {
  checkFormula,
  REACTION_RESPONSES,
  TRIGGER_MAX_LENGTH,
  type ContestResult,
  type StoredReaction,
} from "../../../rules/zones/index.js";
import { escapeHtml } from "../../logic/round-actions.js";
import type { DialogButtonFace } from "../../logic/dialog-buttons.js";

/** The longest lane text of a suppression kept, in characters (ZN-SUP-01). */
export const LANE_MAX_LENGTH = 120;

/** The reaction form's one button. */
export const REACTION_DIALOG_BUTTONS: readonly DialogButtonFace[] = [
  { action: "declare", label: "FRAY.Zones.Reaction.Declare", default: true },
];

/** The suppression form's one button. */
export const SUPPRESSION_DIALOG_BUTTONS: readonly DialogButtonFace[] = [
  { action: "suppress", label: "FRAY.Zones.Suppression.Start", default: true },
];

/** The GM's bullets-per-action form's one button. */
export const RATE_DIALOG_BUTTONS: readonly DialogButtonFace[] = [{ action: "rule", label: "FRAY.Zones.Suppression.Action", default: true }];

/**
 * The reaction form's HTML (ZN-REA-01): the trigger (at most `TRIGGER_MAX_LENGTH` characters)
 * and the response, one of the core's `REACTION_RESPONSES`.
 */
export function reactionFormHtml(i18n: CardI18n): string {
  const options = REACTION_RESPONSES.map(
    (r) => `<option value="${r}">${escapeHtml(i18n.localize(`FRAY.Zones.Reaction.Responses.${r}`))}</option>`,
  ).join("");
  return (
    `<div class="fray-zones-reaction-form">` +
    `<label>${escapeHtml(i18n.localize("FRAY.Zones.Reaction.Trigger"))} <input type="text" name="trigger" maxlength="${TRIGGER_MAX_LENGTH}" placeholder="${escapeHtml(i18n.localize("FRAY.Zones.Reaction.TriggerHint"))}"></label>` +
    `<label>${escapeHtml(i18n.localize("FRAY.Zones.Reaction.Response"))} <select name="response">${options}</select></label></div>`
  );
}

/** The suppression form's HTML (ZN-SUP-01): the lane covered, the GM giving the bullets later. */
export function suppressionFormHtml(i18n: CardI18n): string {
  return (
    `<div class="fray-zones-suppression-form">` +
    `<p class="hint">${escapeHtml(i18n.localize("FRAY.Zones.Suppression.GMRules"))}</p>` +
    `<label>${escapeHtml(i18n.localize("FRAY.Zones.Suppression.Lane"))} <input type="text" name="lane" maxlength="${LANE_MAX_LENGTH}"></label></div>`
  );
}

/** The GM's form for a suppression's bullets per action (ZN-SUP-01): a whole number, 1 or more. */
export function rateFormHtml(i18n: CardI18n): string {
  return (
    `<div class="fray-zones-suppression-form">` +
    `<label>${escapeHtml(i18n.localize("FRAY.Zones.Suppression.Bullets"))} <input type="number" name="bullets" min="1" step="1" value="1"></label>` +
    `<p class="hint">${escapeHtml(i18n.localize("FRAY.Zones.Suppression.BulletsHint"))}</p></div>`
  );
}

type Dict = Record<string, unknown>;

/** The reaction card's state (`flags.fray.zonesReaction`). */
export interface ReactionCardState {
  combatId: string;
  combatantId: string;
  reaction: StoredReaction;
  /** The contest once rolled (ZN-REA-02), with the acting combatant's id. */
  contest?: { actorId: string; result: ContestResult };
}

/** The i18n the card context uses. */
export interface CardI18n {
  localize(key: string): string;
  format(key: string, data: Record<string, string>): string;
}

/**
 * The reaction card's context (ZN-REA-01, ZN-REA-02): title, trigger and response; once rolled,
 * each round of the contest (totals from the core, the formula as tooltip) and the winner.
 */
export function reactionCardContext(state: ReactionCardState, names: { reactor: string; actor?: string }, i18n: CardI18n): Dict {
  const ctx: Dict = {
    title: i18n.format("FRAY.Zones.Reaction.CardTitle", { actor: names.reactor }),
    trigger: state.reaction.trigger,
    response: i18n.localize(`FRAY.Zones.Reaction.Responses.${state.reaction.response}`),
  };
  if (state.contest) {
    const { result } = state.contest;
    const actorName = names.actor ?? "";
    ctx.contest = {
      title: i18n.localize("FRAY.Zones.Reaction.ContestTitle"),
      actorName,
      reactorName: names.reactor,
      rounds: result.rounds.map((r, i) => ({
        label: i18n.format("FRAY.Zones.Reaction.ContestRound", { n: String(i + 1) }),
        actorTotal: r.actor.total,
        reactorTotal: r.reactor.total,
        actorFormula: `${checkFormula(r.actor.modifiers)}: ${r.actor.natural}`,
        reactorFormula: `${checkFormula(r.reactor.modifiers)}: ${r.reactor.natural}`,
        tie: r.actor.total === r.reactor.total,
      })),
      winner: result.winner,
      winnerText: i18n.format("FRAY.Zones.Reaction.Winner", { name: result.winner === "actor" ? actorName : names.reactor }),
    };
  }
  return ctx;
}

/** What the tracker shows of one declarer's reactions for one reader. */
export interface ReactionRow {
  id: string;
  reactions: { id: string; trigger: string; response: string; played: boolean }[];
  /** The reader may declare a reaction for this combatant. */
  canDeclare: boolean;
  /** The reader may trigger (the GM). */
  canTrigger: boolean;
}

/** The HTML of a tracker row's reactions: each one escaped, with the GM's Trigger button; the React button. */
export function reactionRowHtml(row: ReactionRow, i18n: CardI18n): string {
  const items = row.reactions.map((r) => {
    const response = escapeHtml(i18n.localize(`FRAY.Zones.Reaction.Responses.${r.response}`));
    const text = `<span class="fray-reaction-text"><strong>${response}</strong> ${escapeHtml(i18n.format("FRAY.Zones.Reaction.If", { trigger: r.trigger }))}</span>`;
    const state = r.played
      ? ` <span class="fray-reaction-played">${escapeHtml(i18n.localize("FRAY.Zones.Reaction.Played"))}</span>`
      : row.canTrigger
        ? ` <button type="button" class="fray-reaction-trigger" data-zones-trigger="${escapeHtml(r.id)}">${escapeHtml(i18n.localize("FRAY.Zones.Reaction.TriggerButton"))}</button>`
        : "";
    return `<li class="fray-reaction${r.played ? " played" : ""}" data-rule="ZN-REA-01">${text}${state}</li>`;
  });
  const declare = row.canDeclare
    ? `<button type="button" class="fray-reaction-declare" data-zones-react="${escapeHtml(row.id)}">${escapeHtml(i18n.localize("FRAY.Zones.Reaction.React"))}</button>`
    : "";
  if (!items.length && !declare) return "";
  return `<div class="fray-zones-reactions">${items.length ? `<ul>${items.join("")}</ul>` : ""}${declare}</div>`;
}

/** What the tracker shows of a shooter's suppression for one reader (numbers from the core). */
export interface SuppressionRow {
  weapon: string;
  lane: string;
  /** The GM's bullets per action; 0 until the GM has ruled (ZN-SUP-01). */
  bulletsPerAction: number;
  loaded: number;
  actionsLeft: number;
  actions: number;
  active: boolean;
  /** The GM's buttons: action under fire, end. */
  canMark: boolean;
  /** The owner's (or GM's) End button. */
  canEnd: boolean;
  /** The GM's out-of-turn shot (**Shots at suppressed enemies** on). */
  canShoot: boolean;
}

/** The HTML of a tracker row's suppression: what it covers and costs, escaped, with its buttons. */
export function suppressionRowHtml(row: SuppressionRow, i18n: CardI18n): string {
  const lane = row.lane ? ` · ${escapeHtml(row.lane)}` : "";
  const title = escapeHtml(i18n.format("FRAY.Zones.Suppression.Row", { weapon: row.weapon }));
  const facts = !row.active
    ? escapeHtml(i18n.localize("FRAY.Zones.Suppression.EndedShort"))
    : row.bulletsPerAction > 0
      ? escapeHtml(
          i18n.format("FRAY.Zones.Suppression.Facts", {
            bullets: String(row.bulletsPerAction),
            loaded: String(row.loaded),
            left: String(row.actionsLeft),
          }),
        )
      : escapeHtml(i18n.format("FRAY.Zones.Suppression.FactsPending", { loaded: String(row.loaded) }));
  const button = (data: string, key: string) => `<button type="button" data-zones-${data}="1">${escapeHtml(i18n.localize(key))}</button>`;
  const buttons = [
    row.canMark ? button("suppressed", "FRAY.Zones.Suppression.Action") : "",
    row.canShoot ? button("suppress-shot", "FRAY.Zones.Suppression.Shot") : "",
    row.canEnd ? button("suppress-end", "FRAY.Zones.Suppression.End") : "",
  ].join("");
  return (
    `<div class="fray-zones-suppression${row.active ? "" : " ended"}" data-rule="ZN-SUP-01">` +
    `<span class="fray-suppression-text"><strong>${title}</strong>${lane}</span> <span class="fray-suppression-facts">${facts}</span>` +
    (buttons ? `<span class="fray-suppression-buttons">${buttons}</span>` : "") +
    `</div>`
  );
}

/** One weapon of a search, as the search card shows it (ZN-HID-01). */
export interface SearchRowState {
  weapon: string;
  /** The hider's Stealth total, the searcher's Notice total, the difficulty it had to meet. */
  stealth: number;
  notice: number;
  difficulty: number;
  found: boolean;
}

/** The search card's state (`flags.fray.zonesSearch`). */
export interface SearchCardState {
  hider: string;
  searcher: string;
  mode: "search" | "distance";
  rows: SearchRowState[];
}

/**
 * The search card's context (ZN-HID-01): who searched whom and how, then per hidden weapon the
 * Stealth and Notice totals, the difficulty (the Stealth total, 5 lower for a search of the body)
 * and whether it was found; a line when nothing was hidden.
 */
export function searchCardContext(state: SearchCardState, i18n: CardI18n): Dict {
  return {
    title: i18n.format("FRAY.Zones.Hiding.CardTitle", { searcher: state.searcher, hider: state.hider }),
    mode: i18n.localize(`FRAY.Zones.Hiding.Mode.${state.mode}`),
    rows: state.rows.map((r) => ({
      ...r,
      result: i18n.localize(r.found ? "FRAY.Zones.Hiding.Found" : "FRAY.Zones.Hiding.NotFound"),
    })),
  };
}
