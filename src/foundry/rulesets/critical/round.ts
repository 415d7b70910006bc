/**
 * Critical's round in the combat tracker (CR-INI-02, CR-INI-03): while the combatants declare, the
 * tracker lists them from the lowest initiative up, the order they declare in; once the GM
 * reveals, from the highest down, the order they act in. Each row its user owns (or every row,
 * for the GM) gets a Delay control: the combatant acts right after one later in the order, for
 * this round. The owner writes the delay on the Combatant as Foundry lets them
 * (`flags.fray.delay`); the tracker's order applies it through the core's `delay`, which never
 * moves anyone earlier, and the active GM clears a stored delay that would, with a notice. An
 * applied attack takes effect at once (CR-AP-02): a stun or knock-out it brings shrinks the
 * target's AP of the round there and then (CR-STN-01).
 */
import { replaceFlag } from "../../logic/flags.js";
import { delay as coreDelay } from "../../../rules/critical/index.js";
import { activeCombat, combatantFor, economyOf, rulesetView } from "../../combat/economy-store.js";
import { trackerDeclarations, type TrackerCombat } from "../../combat/tracker.js";
import type { Economy } from "../../../rules/core/economy.js";
import { stamped } from "../../logic/economy.js";
import { actingOrder, delayChangeRefusal, delayChoices, delayOf, delayRefusal, type OrderEntry } from "../../logic/delay.js";
import { escapeHtml } from "../../logic/round-actions.js";
import { declaringOrder, delayPartHtml, type TrackerLocalizer } from "./tracker-view.js";
import { formatKey, reportError, warn, windowTitle } from "../../notify.js";
import { isActiveGM } from "../../queries.js";
import type { DialogFormButton } from "../../logic/dialog-buttons.js";

/** The delay rule of the core (CR-INI-03), as the tracker's order applies it. */
export const criticalDelay = (sequence: readonly string[], id: string, after: string): string[] => coreDelay(sequence, id, after);

/** A Combatant as the round's tracker part reads and writes it. */
export interface RoundCombatant {
  id: string | null;
  name?: string | null;
  initiative?: number | null;
  isOwner?: boolean;
  defeated?: boolean;
  flags?: { fray?: { tiebreak?: number[]; delay?: unknown } };
  getFlag(scope: string, key: string): unknown;
  setFlag(scope: string, key: string, value: unknown): Promise<unknown>;
  unsetFlag?(scope: string, key: string): Promise<unknown>;
  update?(changes: Record<string, unknown>): Promise<unknown>;
  combat?: RoundCombat | null;
}

/** A Combat as the round's tracker part reads it. */
export interface RoundCombat extends Omit<TrackerCombat, "combatants"> {
  round?: number;
  turn?: number | null;
  combatant?: { id: string | null } | null;
  combatants?: Iterable<unknown> & { get(id: string): RoundCombatant | undefined };
  update?(changes: Record<string, unknown>): Promise<unknown>;
  getFlag?(scope: string, key: string): unknown;
  setFlag?(scope: string, key: string, value: unknown): Promise<unknown>;
}

/** The combat's Combatants as the acting order reads them. */
function entriesOf(combat: RoundCombat): OrderEntry[] {
  return (Array.from(combat.combatants ?? []) as RoundCombatant[])
    .filter((c) => c.id)
    .map((c) => ({
      id: c.id!,
      initiative: c.initiative ?? null,
      ...(c.flags?.fray?.tiebreak ? { tiebreak: c.flags.fray.tiebreak } : {}),
      name: c.name ?? "",
      delay: c.getFlag("fray", "delay"),
    }));
}

/** True while the round's declarations are made (CR-INI-02): the turn then is a declaring turn, and nobody has acted yet. */
function declaring(combat: RoundCombat): boolean {
  return trackerDeclarations(combat as TrackerCombat)?.phase === "declare";
}

/** The name of a Combatant of the combat, or its id. */
function nameOf(combat: RoundCombat, id: string): string {
  return combat.combatants?.get(id)?.name ?? id;
}

/**
 * Who a combatant may delay until after, as `{ id, name }` in acting order (CR-INI-03): those
 * after it in the round's order who have not acted yet.
 */
export function delayOptions(combat: RoundCombat, combatant: RoundCombatant): { id: string; name: string }[] {
  if (!combatant.id) return [];
  const current = declaring(combat) ? null : (combat.combatant?.id ?? null);
  const choices = delayChoices(entriesOf(combat), combat.round ?? 0, criticalDelay, combatant.id, current);
  return choices.map((id) => ({ id, name: nameOf(combat, id) }));
}

/** Asks whom to delay until after; `undefined` when closed. */
async function askDelay(name: string, options: { id: string; name: string }[]): Promise<string | undefined> {
  const list = options.map((o) => `<option value="${escapeHtml(o.id)}">${escapeHtml(o.name)}</option>`).join("");
  const content = `<div class="fray-delay-form"><label>${escapeHtml(formatKey("FRAY.Critical.Round.DelayAfter"))} <select name="after">${list}</select></label><p class="fray-rule">CR-INI-03</p></div>`;
  const result = await foundry.applications.api.DialogV2.wait({
    window: { title: windowTitle("FRAY.Critical.Round.DelayTitle", { name }) },
    content,
    buttons: [
      {
        action: "delay",
        label: "FRAY.Critical.Round.Delay",
        default: true,
        callback: (_event: unknown, button: DialogFormButton) => button.form?.elements.after?.value ?? "",
      },
    ],
    rejectClose: false,
  } as never);
  return typeof result === "string" && result ? result : undefined;
}

/**
 * Delays a combatant until after another (CR-INI-03): only its owner or a GM, only in a started
 * combat, only after one who acts later this round and has not acted yet; the delay is written
 * on the Combatant (`flags.fray.delay`, stamped with the round) by this user, as Foundry allows.
 * @param ask picks the combatant to act after (the dialog; tests pass their own).
 * @returns true when the delay was written.
 */
export async function delayCombatant(
  combat: RoundCombat,
  combatant: RoundCombatant,
  ask: (name: string, options: { id: string; name: string }[]) => Promise<string | undefined> = askDelay,
): Promise<boolean> {
  const round = combat.round ?? 0;
  if (!(round > 0) || !combatant.id) return false;
  if (!combatant.isOwner && !game.user?.isGM) {
    warn("FRAY.Critical.Round.NotOwner", { name: combatant.name ?? "" });
    return false;
  }
  const options = delayOptions(combat, combatant);
  if (!options.length) {
    warn("FRAY.Critical.Round.NoLater", { name: combatant.name ?? "" });
    return false;
  }
  const after = await ask(combatant.name ?? "", options);
  if (!after) return false;
  if (!options.some((o) => o.id === after)) {
    warn("FRAY.Critical.Round.Earlier", { name: combatant.name ?? "", after: nameOf(combat, after) });
    return false;
  }
  await replaceFlag(combatant, "delay", { round, after });
  return true;
}

/** The Combat flag where the active GM keeps the delays it honoured this round (a GM's document, A11). */
export const HONOURED_DELAYS_FLAG = "delays";

/** The delays the active GM honoured, as kept on the Combat: the round and, by Combatant id, whom each acts after. */
interface HonouredDelays {
  round: number;
  after: Record<string, string>;
}

/** The honoured delays of `round` kept on the Combat (none for another round or a malformed flag). */
function honouredOf(combat: RoundCombat, round: number): Record<string, string> {
  const kept = combat.getFlag?.("fray", HONOURED_DELAYS_FLAG) as Partial<HonouredDelays> | null | undefined;
  if (!kept || kept.round !== round || !kept.after || typeof kept.after !== "object") return {};
  return Object.fromEntries(Object.entries(kept.after).filter((e): e is [string, string] => typeof e[1] === "string" && Boolean(e[1])));
}

/** The delay of a combatant the active GM last honoured this round, if any (CR-INI-03). */
function honouredDelay(combat: RoundCombat, id: string, round: number): { round: number; after: string } | undefined {
  const after = honouredOf(combat, round)[id];
  return after ? { round, after } : undefined;
}

/** Keeps on the Combat that the active GM honoured a combatant's delay (or its removal) this round. */
async function recordHonoured(combat: RoundCombat, id: string, round: number, delay: { after: string } | undefined): Promise<void> {
  if (!combat.setFlag) return;
  const after = { ...honouredOf(combat, round) };
  if (delay) after[id] = delay.after;
  else delete after[id];
  await replaceFlag(combat as Required<Pick<RoundCombat, "setFlag">> & RoundCombat, HONOURED_DELAYS_FLAG, { round, after });
}

/** True when an update's changes write `flags.fray.delay` (nested or dotted). */
function writesDelay(changes: Record<string, unknown>): boolean {
  if ("flags.fray.delay" in changes || "flags.fray.-=delay" in changes) return true;
  const flags = changes.flags as Record<string, unknown> | undefined;
  if (!flags || typeof flags !== "object") return false;
  if ("fray.delay" in flags) return true;
  const fray = flags.fray as Record<string, unknown> | undefined;
  return Boolean(fray && typeof fray === "object" && "delay" in fray);
}

/**
 * `updateCombatant` on the active GM (CR-INI-03): each change of a combatant's delay (whoever
 * wrote it, from whatever client) is checked against the delays the GM honoured this round, kept
 * on the Combat ({@link HONOURED_DELAYS_FLAG}). A delay that would move the combatant earlier
 * than its initiative, or any change by a combatant that has acted this round, or one that would
 * change who has acted or whose turn it is, is undone (back to the honoured delay, or none) and
 * the GM told; an honoured change is kept on the Combat. A delay of the combatant whose turn it
 * is hands the turn to whoever now holds its place in the order. Other clients and other changes
 * do nothing.
 */
export async function onUpdateCombatant(combatant: RoundCombatant, changes: Record<string, unknown>): Promise<void> {
  if (!writesDelay(changes) || !isActiveGM()) return;
  const combat = combatant.combat;
  const round = combat?.round ?? 0;
  if (!combat || !combatant.id || !(round > 0)) return;
  const id = combatant.id;
  const stored = delayOf(combatant.getFlag("fray", "delay"), round);
  const previous = honouredDelay(combat, id, round);
  // The GM's own restoring write, or nothing changed.
  if (stored?.after === previous?.after) return;
  const entries = entriesOf(combat);
  const honoured = entries.map((e) => (e.id === id ? { ...e, delay: previous } : e));
  const turn = !declaring(combat) && typeof combat.turn === "number" ? combat.turn : -1;
  const acted = delayChangeRefusal(actingOrder(honoured, round, criticalDelay), actingOrder(entries, round, criticalDelay), turn, id);
  const earlier = stored ? delayRefusal(entries, round, criticalDelay, id, stored.after) : undefined;
  if (acted || earlier) {
    const after = nameOf(combat, stored?.after ?? previous?.after ?? "");
    if (earlier) warn("FRAY.Critical.Round.Refused", { name: combatant.name ?? "", after });
    else warn(acted === "acted" ? "FRAY.Critical.Round.Acted" : "FRAY.Critical.Round.TurnKept", { name: combatant.name ?? "", after });
    if (previous) await replaceFlag(combatant, "delay", previous);
    else if (combatant.unsetFlag) await combatant.unsetFlag("fray", "delay");
    else await combatant.update?.({ "flags.fray.-=delay": null });
    return;
  }
  await recordHonoured(combat, id, round, stored);
  if (!stored) return;
  // The one delaying had the turn: the turn stays at its place, now the next combatant's.
  if (combat.combatant?.id === id && combat.update) {
    const before = actingOrder(entries, round, criticalDelay, id).indexOf(id);
    if (before >= 0 && before !== combat.turn) await combat.update({ turn: before });
  }
}

/**
 * Critical's part of the tracker (CR-INI-02, CR-INI-03): the rows in declaring order (lowest
 * initiative first) while the round's declarations are made, the delay of each delayed row, and
 * the Delay control on each row the user owns (every row for the GM) in a started combat.
 */
export function renderCriticalTracker(combatValue: unknown, html: HTMLElement): void {
  const combat = combatValue as RoundCombat | null;
  if (!combat?.combatants || !((combat.round ?? 0) > 0)) return;
  const round = combat.round ?? 0;
  const rows = Array.from(html.querySelectorAll<HTMLElement>("[data-combatant-id]"));
  if (declaring(combat)) {
    // Lowest initiative first: the order the combatants declare in (CR-INI-02).
    const order = declaringOrder(entriesOf(combat), round, criticalDelay);
    const position = (row: HTMLElement) => {
      const at = order.indexOf(row.dataset.combatantId ?? "");
      return at < 0 ? order.length : at;
    };
    const parent = rows[0]?.parentElement;
    if (parent && rows.every((r) => r.parentElement === parent)) {
      for (const row of [...rows].sort((a, b) => position(a) - position(b))) parent.append(row);
      parent.classList?.add("fray-declaring-order");
    }
  }
  const i18n = game.i18n as unknown as TrackerLocalizer;
  for (const row of rows) {
    const combatant = combat.combatants.get(row.dataset.combatantId ?? "");
    if (!combatant?.id) continue;
    row.querySelector(".fray-delay")?.remove();
    const delay = delayOf(combatant.getFlag("fray", "delay"), round);
    const may = Boolean((combatant.isOwner || game.user?.isGM) && !combatant.defeated && delayOptions(combat, combatant).length > 0);
    const part = delayPartHtml({ id: combatant.id, ...(delay ? { after: nameOf(combat, delay.after) } : {}), canDelay: may }, i18n);
    if (!part) continue;
    (row.querySelector(".token-name") ?? row).insertAdjacentHTML("beforeend", part);
    if (!may || row.dataset.frayDelayClicks) continue;
    row.dataset.frayDelayClicks = "1";
    row.addEventListener("click", (event: Event) => {
      const target = event.target as HTMLElement | null;
      if (!target?.closest?.("[data-fray-delay]")) return;
      event.preventDefault();
      event.stopPropagation();
      void delayCombatant(combat, combatant).catch(reportError);
    });
  }
}

/** True for a stored economy with a readable AP pool. */
function isStoredAp(stored: Economy | undefined): stored is Economy {
  const ap = stored?.pools?.ap;
  return Boolean(ap && typeof ap.value === "number" && typeof ap.max === "number" && stored?.slots);
}

/**
 * `fray.applyDamage` on the applying (active) GM (CR-AP-02, CR-STN-01): the target's combatant
 * in the active combat gets the round's AP its state now allows, through the core's
 * `afterAction` (half while stunned, none out of the fight, less what it already spent, never
 * more). Nothing outside combat or when the AP do not change.
 */
export async function onDamageApplied(context: { actor?: { uuid?: string; id?: string | null } | null }): Promise<void> {
  if (!isActiveGM()) return;
  const combat = activeCombat();
  const combatant = combatantFor(context.actor);
  if (!combat || !combatant || !(combat.round > 0)) return;
  const view = rulesetView(combatant);
  if (view.core === undefined) return;
  // The economy as stored, before the new state's pool bounds clamp it: what was spent counts.
  const stored = combatant.getFlag("fray", "economy") as Economy | undefined;
  const before = isStoredAp(stored) ? stored : economyOf(combatant);
  // The target does nothing itself: only its new state counts, not the action's kind.
  const state = view.binding.ruleset.afterAction(view.core, { kind: "action", id: "struck" }, before, view.options);
  const was = before.pools.ap;
  const now = state.economy.pools.ap;
  if (!now || (was && was.value === now.value && was.max === now.max)) return;
  await replaceFlag(combatant, "economy", stamped(state.economy, combat.round));
}
