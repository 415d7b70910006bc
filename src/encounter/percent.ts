import { formatPercent } from "../rules/core/i18n.js";

/**
 * A probability as a percentage with one decimal in the reader's language (`42.5%`, German
 * `42,5 %`); anything but a number counts as 0.
 */
export function pct(p: unknown, lang = "en"): string {
  return formatPercent(typeof p === "number" ? p : 0, lang);
}
