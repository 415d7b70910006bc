/**
 * The round economy in the combat tracker, for the world's ruleset (UD-ACT-01, UD-REA-01,
 * CR-AP-01, ZN-ACT-01, ZN-MOV-01): small pips after each combatant's name for its limited slots
 * (UD10 movement, action and reaction), hollow once spent, and a `value/max` badge for each pool
 * (Critical's action points, Zones' speed and effort points), with a tooltip naming them. The GM
 * clicks a pip to mark that slot used or unused; players only see them.
 */
import { escapeHtml } from "../logic/round-actions.js";
import { pips, poolBadges, TOGGLED_SLOTS } from "../logic/economy.js";
import { reportError } from "../notify.js";
import { economyOf, economySpecOf, toggleSlotOn, type CombatantLike } from "./economy-store.js";

/** The pools' badges of one combatant: `value/max` with the pool's name as tooltip. */
export function poolsHtml(combatant: CombatantLike): string {
  return poolBadges(economyOf(combatant), economySpecOf(combatant))
    .map((b) => {
      const name = escapeHtml(game.i18n.localize(b.label));
      return `<span class="fray-pool fray-pool-${escapeHtml(b.pool)}${b.empty ? " empty" : ""}" data-tooltip="${name}" aria-label="${name}: ${b.value}/${b.max}">${b.value}/${b.max}</span>`;
    })
    .join("");
}

/** The pips' HTML of one combatant; for the GM the movement, action and reaction pips are buttons. */
export function pipsHtml(combatant: CombatantLike, editable = Boolean(game.user?.isGM)): string {
  const list = pips(economyOf(combatant), economySpecOf(combatant)).filter((p) => p.max !== null);
  return list
    .map((p) => {
      const slot = game.i18n.localize(p.label);
      const state = p.spent ? "spent" : "ready";
      if (!editable || !(TOGGLED_SLOTS as readonly string[]).includes(p.slot)) {
        return `<span class="fray-pip fray-pip-${p.slot} ${state}" data-tooltip="${slot}" aria-label="${slot}"></span>`;
      }
      const label = game.i18n.format("FRAY.Flow.Tracker.Toggle", { slot });
      return `<span class="fray-pip fray-pip-${p.slot} ${state}" role="button" tabindex="0" data-fray-slot="${p.slot}" aria-pressed="${p.spent}" data-tooltip="${label}" aria-label="${label}"></span>`;
    })
    .join("");
}

/** The pip a click landed on, if any. */
function clickedSlot(event: Event): string | undefined {
  const target = event.target as HTMLElement | null;
  return target?.closest?.<HTMLElement>("[data-fray-slot]")?.dataset.fraySlot;
}

/** `renderCombatTracker`: adds the pips to each combatant row of the viewed combat. */
export function onRenderCombatTracker(app: { viewed?: unknown }, html: HTMLElement): void {
  const combat = (app.viewed ?? game.combat) as { combatants?: { get(id: string): CombatantLike | undefined } } | null;
  if (!combat?.combatants) return;
  for (const row of Array.from(html.querySelectorAll<HTMLElement>("[data-combatant-id]"))) {
    const combatant = combat.combatants.get(row.dataset.combatantId ?? "");
    if (!combatant) continue;
    row.querySelector(".fray-economy")?.remove();
    (row.querySelector(".token-name") ?? row).insertAdjacentHTML("beforeend", `<div class="fray-economy">${pipsHtml(combatant)}${poolsHtml(combatant)}</div>`);
    if (!game.user?.isGM || row.dataset.frayPipClicks) continue;
    // One listener per row, however often the tracker renders it.
    row.dataset.frayPipClicks = "1";
    row.addEventListener("click", (event: Event) => {
      const slot = clickedSlot(event);
      if (!slot) return;
      // A pip click is not a click on the combatant (which would pan to its token).
      event.preventDefault();
      event.stopPropagation();
      void toggleSlotOn(combatant, slot).catch(reportError);
    });
  }
}
