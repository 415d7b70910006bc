/**
 * What the tracker's balance dialog shows, pure: the chance asked for and whose, the encounter
 * found (opponents of each kind beside the combat's count, or the factor on the opponents'
 * stats) with the players' chance to win as a bar with its 95% interval, the combat as it stands
 * measured the same way, and the search's fights. Rendered by `templates/forecast/balance.hbs`
 * (names are escaped there).
 */
import type { BalanceResult } from "../../forecast/balance.js";
import { formatDecimal, formatPercent } from "../../rules/core/i18n.js";
import type { DialogButtonFace } from "./dialog-buttons.js";
import { chanceBar, type ChanceBar, type Format } from "./forecast-view.js";

/** The result's buttons: add the opponents found to the combat (count only, GM only), and close, the default. */
export function balanceButtons(canAdd: boolean): DialogButtonFace[] {
  return [
    ...(canAdd ? [{ action: "add", label: "FRAY.Forecast.Tracker.Balance.Add", icon: "fa-solid fa-user-plus" }] : []),
    { action: "close", label: "FRAY.Forecast.Tracker.Close", default: true },
  ];
}

/** The balance dialog's context. */
export interface BalanceViewContext {
  title: string;
  /** `Players (friendly): a 70% chance to win asked for`. */
  asked: string;
  /** Present when the search was cancelled. */
  cancelled?: string;
  foundHeading: string;
  /** Each kind of opponent: its name, side, the count found and the combat's, the change (`+2`, `−1`, `±0`). */
  kinds: { name: string; side: string; count: number; base: number; change: string }[];
  /** `stats × 0.87 (tracks and skills)`, by stats. */
  factor?: string;
  wins: ChanceBar;
  start: ChanceBar;
  /** Present when the chance asked for lies beyond reach. */
  beyond?: string;
  /** `23 encounters tried in 10600 fights, seeds from 1 on`. */
  fights: string;
  /** Opponents the result adds to the combat: by count, the kinds with more than the combat has. */
  adds: number;
  /** Present when the result has fewer opponents of a kind than the combat: who to take out. */
  fewer?: string;
}

/**
 * The context of a balance search's result, in the reader's language `lang`.
 * @param format `game.i18n.format`, or a lookup in tests.
 */
export function balanceView(b: BalanceResult, format: Format, lang = "en"): BalanceViewContext {
  const side = (s: string) => format(`FRAY.Forecast.Tracker.Side.${s}`);
  const counts = b.best.counts;
  const kinds =
    b.mode === "count" && counts
      ? b.kinds.map((k, i) => {
          const d = counts[i]! - k.base;
          return { name: k.name, side: side(k.side), count: counts[i]!, base: k.base, change: d > 0 ? `+${d}` : d < 0 ? `−${-d}` : "±0" };
        })
      : [];
  const removed = counts
    ? b.kinds.flatMap((k, i) =>
        counts[i]! < k.base ? [format("FRAY.Forecast.Tracker.Balance.Less", { name: k.name, count: k.base - counts[i]! })] : [],
      )
    : [];
  return {
    title: format("FRAY.Forecast.Tracker.Balance.ResultTitle", { name: b.name }),
    asked: format("FRAY.Forecast.Tracker.Balance.Asked", { side: side(b.players), target: formatPercent(b.target, lang) }),
    ...(b.complete ? {} : { cancelled: format("FRAY.Forecast.Balance.Cancelled") }),
    foundHeading: format(b.mode === "count" ? "FRAY.Forecast.Tracker.Balance.Found" : "FRAY.Forecast.Balance.Found.scale"),
    kinds,
    ...(b.mode === "scale" ? { factor: format("FRAY.Forecast.Balance.Factor", { factor: formatDecimal(b.best.factor!, lang, 2) }) } : {}),
    wins: chanceBar(format("FRAY.Forecast.Tracker.Balance.Wins", { runs: b.best.runs }), b.best.wins, format, lang),
    start: chanceBar(format("FRAY.Forecast.Tracker.Balance.Start", { runs: b.start.runs }), b.start.wins, format, lang),
    ...(b.beyond ? { beyond: format("FRAY.Forecast.Balance.Beyond") } : {}),
    fights: format("FRAY.Forecast.Balance.Searched", {
      count: new Set(b.tried.map((c) => c.counts?.join(",") ?? c.factor)).size,
      fights: b.fights,
      seed: b.seed,
    }),
    adds: kinds.reduce((n, k) => n + Math.max(0, k.count - k.base), 0),
    ...(removed.length ? { fewer: format("FRAY.Forecast.Tracker.Balance.Fewer", { list: removed.join(", ") }) } : {}),
  };
}
