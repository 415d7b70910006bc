/**
 * What the forecast dialog and its chat card show, pure: each side's chance to win as a bar
 * with its 95% interval, the draws, the distribution of rounds as a column chart, each
 * combatant's chance to end the fight out and the points it can expect to lose, the tactics played and what the combat could not
 * hand the forecast. Rendered by `templates/forecast/result.hbs` (names are escaped there).
 */
import { fightSeed, type Chance, type Forecast } from "../../forecast/forecast.js";
import { damageText } from "../../forecast/format.js";
import { formatDecimal, formatPercent } from "../../rules/core/i18n.js";
import type { ForecastInput } from "./forecast-state.js";
import type { DialogButtonFace } from "./dialog-buttons.js";

/**
 * The result dialog's buttons: whisper the result to the GMs as a chat card, save the combat as
 * the forecast played it (a file `npm run forecast` plays to the same numbers), and close, the
 * default.
 */
export const FORECAST_RESULT_BUTTONS: readonly DialogButtonFace[] = [
  { action: "whisper", label: "FRAY.Forecast.Tracker.Whisper", icon: "fa-solid fa-comment" },
  { action: "save", label: "FRAY.Forecast.Tracker.Save", icon: "fa-solid fa-file-export" },
  { action: "close", label: "FRAY.Forecast.Tracker.Close", default: true },
];

/** Formats a key with data (`game.i18n.format`, or a lookup in tests). */
export type Format = (key: string, data?: Record<string, string | number>) => string;

/** A chance as the chart draws it: percentages from 0 to 100 and the text shown. */
export interface ChanceBar {
  label: string;
  /** Members' names, for a side. */
  names?: string;
  /** The share, 0 to 100, one decimal. */
  pct: number;
  low: number;
  high: number;
  /** `high - low`, for the interval's width. */
  span: number;
  /** `62.4% (58.1% to 66.5%)`. */
  text: string;
}

/** The result dialog's and chat card's context. */
export interface ForecastViewContext {
  title: string;
  /** `10000 fights, seeds 1 to 10000`. */
  fights: string;
  /** Present when the forecast was cancelled. */
  cancelled?: string;
  winsHeading: string;
  sides: ChanceBar[];
  draws: ChanceBar;
  roundsHeading: string;
  /** One column per length of fight from the shortest to the longest, `height` 0 to 100 relative to the most common. */
  rounds: { round: number; count: number; height: number; tooltip: string }[];
  combatantsHeading: string;
  /** Each combatant: its chance to end the fight out and the points it can expect to lose per fight (`HP 3.2, EP 1.0`). */
  combatants: { name: string; side: string; out: string; damage: string }[];
  tactics: string;
  /** What the combat held that the forecast leaves out or cannot carry, one line each. */
  notes: string[];
}

const one = (p: number) => Math.round(p * 1000) / 10;

/** A chance with its 95% interval as text, `62.4% (58.1% to 66.5%)`, in the reader's language `lang`. */
export function chanceText(c: Chance, format: Format, lang = "en"): string {
  const pct = (p: number) => formatPercent(one(p) / 100, lang);
  return format("FRAY.Forecast.Chance", { p: pct(c.p), low: pct(c.low), high: pct(c.high) });
}

/** A chance as the chart draws it ({@link ChanceBar}), labelled `label`, with a side's members' `names`. */
export function chanceBar(label: string, c: Chance, format: Format, lang = "en", names?: string): ChanceBar {
  return {
    label,
    ...(names ? { names } : {}),
    pct: one(c.p),
    low: one(c.low),
    high: one(c.high),
    span: Math.round((one(c.high) - one(c.low)) * 10) / 10,
    text: chanceText(c, format, lang),
  };
}

/**
 * The context of the forecast's result.
 * @param input what the combat became (sides' members, what was left out), when at hand; a
 *   forecast shown again from a chat card has none.
 * @param lang the reader's language (`game.i18n.lang`): chances and decimals are written in it
 *   (`42.5%`, German `42,5 %`).
 */
export function forecastView(
  f: Forecast,
  format: Format,
  input?: Pick<ForecastInput, "combatants" | "left" | "notCarried">,
  lang = "en",
): ForecastViewContext {
  const pct = (p: number) => formatPercent(one(p) / 100, lang);
  const chance = (c: Chance) => chanceText(c, format, lang);
  const bar = (label: string, c: Chance, names?: string): ChanceBar => chanceBar(label, c, format, lang, names);
  const sideLabel = (side: string) => format(`FRAY.Forecast.Tracker.Side.${side}`);
  const most = Math.max(1, ...Object.values(f.rounds.counts));
  const rules = f.tactics[0]?.tactics;
  return {
    title: format("FRAY.Forecast.Tracker.ResultTitle", { name: f.name }),
    fights: format("FRAY.Forecast.Tracker.Fights", { runs: f.runs, first: f.seed, last: fightSeed(f.seed, f.runs - 1) }),
    ...(f.complete ? {} : { cancelled: format("FRAY.Forecast.Cancelled", { runs: f.runs }) }),
    winsHeading: format("FRAY.Forecast.Wins"),
    sides: f.sides.map((s) =>
      bar(
        sideLabel(s.side),
        s.wins,
        f.combatants
          .filter((c) => c.side === s.side)
          .map((c) => c.name)
          .join(", "),
      ),
    ),
    draws: bar(format("FRAY.Forecast.Draw"), f.draws),
    roundsHeading: format("FRAY.Forecast.Rounds", {
      mean: formatDecimal(Math.round(f.rounds.mean * 10) / 10, lang),
      median: f.rounds.median,
      min: f.rounds.min,
      max: f.rounds.max,
    }),
    // One column per length from the shortest fight to the longest, lengths no fight had at 0.
    rounds: Array.from({ length: f.rounds.max - f.rounds.min + 1 }, (_, i) => {
      const round = f.rounds.min + i;
      const count = f.rounds.counts[round] ?? 0;
      return {
        round,
        count,
        height: count ? Math.max(1, Math.round((count / most) * 100)) : 0,
        tooltip: format("FRAY.Forecast.Tracker.RoundsTip", { rounds: round, share: pct(count / f.runs) }),
      };
    }),
    combatantsHeading: format("FRAY.Forecast.Tracker.Out"),
    combatants: f.combatants.map((c) => ({
      name: c.name,
      side: sideLabel(c.side),
      out: chance(c.out),
      damage: damageText(c.damage, format, lang, f.ruleset),
    })),
    tactics: rules
      ? format("FRAY.Forecast.Tracker.Tactics", {
          target: rules.target.map((r) => format(`FRAY.Forecast.Target.${r}`)).join(" > "),
          weapon: rules.weapon.map((r) => format(`FRAY.Forecast.Weapon.${r}`)).join(" > "),
        })
      : "",
    notes: [
      ...(input?.left ?? []).map((l) => format(`FRAY.Forecast.Tracker.Left.${l.reason}`, { name: l.name })),
      ...(input?.notCarried ?? []).map((n) => format(`FRAY.Forecast.Tracker.NotCarried.${n.what}`, { name: n.name })),
      ...(input?.combatants ?? []).filter((c) => c.waits).map((c) => format("FRAY.Forecast.Tracker.Waits", { name: c.name })),
    ],
  };
}
