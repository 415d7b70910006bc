/**
 * Localized notifications, and the one place where errors of the rules core reach the user.
 */
import { FrayError, localizeError } from "../rules/core/errors.js";
import { localizeData } from "./attack-card.js";

/** Formats an i18n key with data whose values may themselves be i18n keys. */
export function formatKey(key: string, data: Record<string, string | number> = {}): string {
  return game.i18n.format(key, localizeData(data, game.i18n));
}

/** Shows a localized warning. */
export function warn(key: string, data?: Record<string, string | number>): void {
  ui.notifications?.warn(formatKey(key, data));
}

/** Shows a localized error. */
export function error(key: string, data?: Record<string, string | number>): void {
  ui.notifications?.error(formatKey(key, data));
}

/**
 * Shows any error to the user: a {@link FrayError} with its localized message
 * (`game.i18n.format(error.key, error.data)`), anything else with a generic localized message
 * (details go to the console).
 */
export function reportError(err: unknown): void {
  if (err instanceof FrayError) {
    ui.notifications?.error(localizeError(err, (key, data) => formatKey(key, data)));
    return;
  }
  console.error("Fray |", err);
  error("FRAY.Error.Unexpected", { message: err instanceof Error ? err.message : String(err) });
}
