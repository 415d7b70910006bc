/**
 * Localized notifications, and the one place where errors of the rules core reach the user.
 * Names reach HTML escaped: {@link formatHtml} escapes every value put into a localized string
 * (a token named `<img src=x onerror=alert(1)>` shows as text), and notifications use it, since
 * Foundry shows their message as HTML.
 */
import { FrayError, localizeError } from "../rules/core/errors.js";
import { localizeData } from "./attack-card.js";

/** Formats an i18n key with data whose values may themselves be i18n keys. */
export function formatKey(key: string, data: Record<string, string | number> = {}): string {
  return game.i18n.format(key, localizeData(data, game.i18n));
}

/** Escapes text for HTML: `&`, `<`, `>`, `"` and `'`. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/**
 * Formats an i18n key for HTML: the data's values (names, localized labels) are escaped after
 * localization; the localized string itself is the translators' and kept as it is.
 */
export function formatHtml(key: string, data: Record<string, string | number> = {}): string {
  const values = localizeData(data, game.i18n);
  const escaped = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === "string" ? escapeHtml(v) : v]));
  return game.i18n.format(key, escaped);
}

/**
 * The title of a window (`window.title` of a DialogV2 or another ApplicationV2) from an i18n key
 * and its data: Foundry draws a window's title as HTML (docs/foundry-assumptions.md A19), so every
 * value is escaped and a name such as `<img src=x onerror=alert(1)>` shows as text. Every window
 * title that carries a name is built here.
 */
export function windowTitle(key: string, data: Record<string, string | number> = {}): string {
  return formatHtml(key, data);
}

/** Shows a localized warning; names in the data are escaped. */
export function warn(key: string, data?: Record<string, string | number>): void {
  ui.notifications?.warn(formatHtml(key, data));
}

/** Shows a localized error; names in the data are escaped. */
export function error(key: string, data?: Record<string, string | number>): void {
  ui.notifications?.error(formatHtml(key, data));
}

/**
 * Shows any error to the user: a {@link FrayError} with its localized message
 * (`game.i18n.format(error.key, error.data)`), anything else with a generic localized message
 * (details go to the console).
 */
export function reportError(err: unknown): void {
  if (err instanceof FrayError) {
    ui.notifications?.error(localizeError(err, (key, data) => formatHtml(key, data)));
    return;
  }
  console.error("Fray |", err);
  error("FRAY.Error.Unexpected", { message: err instanceof Error ? err.message : String(err) });
}
