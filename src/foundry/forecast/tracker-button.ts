/**
 * The combat tracker's Forecast button, for the GM only: opens the forecast of the viewed
 * combat (dialog.ts); beside it the "Follow the fight" toggle and the chart of the players'
 * chance to win by round (follow.ts). Added on every render of the tracker, once.
 */
import { formatKey, reportError } from "../notify.js";
import { openForecast, type ForecastCombat } from "./dialog.js";
import { forecastControlHtml } from "../logic/follow.js";
import { followOf, toggleFollow, type FollowCombat } from "./follow.js";

/**
 * The tracker's forecast control for a combat (its follow flag read from `follow`): see
 * {@link forecastControlHtml}.
 */
export function forecastButtonHtml(follow?: FollowCombat): string {
  const lang = (game.i18n as unknown as { lang?: string }).lang ?? "en";
  return forecastControlHtml(follow ? followOf(follow) : undefined, (key, data) => formatKey(key, data ?? {}), lang);
}

/**
 * Puts the Forecast button at the top of the tracker for the GM when the viewed combat has
 * combatants; one click listener per tracker element, however often it renders.
 */
export function renderForecastButton(combat: ForecastCombat, html: HTMLElement): void {
  try {
    addButton(combat, html);
  } catch (error) {
    reportError(error);
  }
}

/**
 * The combat each tracker element last rendered: the click listener, added once per element,
 * forecasts the combat viewed now, not the one of the render that added it (the element stays
 * when the GM views another combat).
 */
const rendered = new WeakMap<HTMLElement, ForecastCombat>();

function addButton(combat: ForecastCombat, html: HTMLElement): void {
  html.querySelector?.(".fray-forecast-control")?.remove();
  const host = html.querySelector?.<HTMLElement>(".combat-tracker-header") ?? html;
  // A render without a combat to forecast leaves no button, and no combat for a kept listener.
  rendered.delete(host);
  if (!game.user?.isGM || Array.from(combat.combatants ?? []).length === 0) return;
  host.insertAdjacentHTML("afterbegin", forecastButtonHtml(combat as FollowCombat));
  rendered.set(host, combat);
  if (!host.dataset || host.dataset.frayForecastClicks) return;
  host.dataset.frayForecastClicks = "1";
  host.addEventListener("click", (event: Event) => {
    const target = event.target as HTMLElement | null;
    const follow = Boolean(target?.closest?.("[data-fray-follow]"));
    if (!follow && !target?.closest?.("[data-fray-forecast]")) return;
    event.preventDefault();
    event.stopPropagation();
    const viewed = rendered.get(host);
    if (!viewed) return;
    if (follow) void toggleFollow(viewed as FollowCombat).catch(reportError);
    else void openForecast(viewed).catch(reportError);
  });
}
