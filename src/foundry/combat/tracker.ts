/**
 * The round economy in the combat tracker (UD-ACT-01, UD-REA-01): small pips after each
 * combatant's name for movement, action and reaction, hollow once spent, with a tooltip naming
 * the slot.
 */
import { pips } from "../logic/economy.js";
import { ECONOMY_SPEC, economyOf, type CombatantLike } from "./economy-store.js";

/** The pips' HTML of one combatant. */
export function pipsHtml(combatant: CombatantLike): string {
  const list = pips(economyOf(combatant), ECONOMY_SPEC).filter((p) => p.max !== null);
  return list
    .map((p) => {
      const label = game.i18n.localize(p.label);
      const state = p.spent ? "spent" : "ready";
      return `<span class="fray-pip fray-pip-${p.slot} ${state}" data-tooltip="${label}" aria-label="${label}"></span>`;
    })
    .join("");
}

/** `renderCombatTracker`: adds the pips to each combatant row of the viewed combat. */
export function onRenderCombatTracker(app: { viewed?: unknown }, html: HTMLElement): void {
  const combat = (app.viewed ?? game.combat) as { combatants?: { get(id: string): CombatantLike | undefined } } | null;
  if (!combat?.combatants) return;
  for (const row of Array.from(html.querySelectorAll<HTMLElement>("[data-combatant-id]"))) {
    const combatant = combat.combatants.get(row.dataset.combatantId ?? "");
    if (!combatant) continue;
    row.querySelector(".fray-economy")?.remove();
    (row.querySelector(".token-name") ?? row).insertAdjacentHTML("beforeend", `<div class="fray-economy">${pipsHtml(combatant)}</div>`);
  }
}
