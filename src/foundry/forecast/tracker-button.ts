/**
 * The combat tracker's Forecast button, for the GM only: opens the forecast of the viewed
 * combat (dialog.ts). Added on every render of the tracker, once.
 */
import { escapeHtml, formatKey, reportError } from "../notify.js";
import { openForecast, type ForecastCombat } from "./dialog.js";

/** The button's HTML: an icon and the localized label, with a tooltip. */
export function forecastButtonHtml(): string {
  const label = escapeHtml(formatKey("FRAY.Forecast.Tracker.Button"));
  const hint = escapeHtml(formatKey("FRAY.Forecast.Tracker.Hint"));
  return (
    `<div class="fray-forecast-control"><button type="button" class="fray-forecast-button" data-fray-forecast="1" ` +
    `data-tooltip="${hint}" aria-label="${hint}"><i class="fa-solid fa-chart-column" inert></i> ${label}</button></div>`
  );
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
  host.insertAdjacentHTML("afterbegin", forecastButtonHtml());
  rendered.set(host, combat);
  if (!host.dataset || host.dataset.frayForecastClicks) return;
  host.dataset.frayForecastClicks = "1";
  host.addEventListener("click", (event: Event) => {
    const target = event.target as HTMLElement | null;
    if (!target?.closest?.("[data-fray-forecast]")) return;
    event.preventDefault();
    event.stopPropagation();
    const viewed = rendered.get(host);
    if (viewed) void openForecast(viewed).catch(reportError);
  });
}
