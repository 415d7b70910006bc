/**
 * Markup of the generic tracker parts, free of Foundry globals (the render test builds it): the
 * pool badges of a combatant's round economy (CR-AP-01 action points, ZN-MOV-01 speed points).
 */
import { escapeHtml } from "../logic/round-actions.js";
import type { PoolBadge } from "../logic/economy.js";

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
