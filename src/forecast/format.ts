import { formatDecimal, formatKey, formatPercent, pluralKey, type Lookup } from "../rules/core/i18n.js";
import type { BalanceCandidate, BalanceResult } from "./balance.js";
import { fightSeed, type Chance, type Forecast, type PointsLost } from "./forecast.js";

/** A number with one decimal in the reader's language (`3.2`, German `3,2`). */
const one = (n: number, lang: string) => formatDecimal(Math.round(n * 10) / 10, lang);
/** Width of the longest round bar, in characters. */
const BAR = 40;

/**
 * The points a combatant can expect to lose per fight, track by track (`HP 3.2, EP 1.0`, one
 * decimal in the reader's language `lang`), localized through `t`; `-` when no track is measured.
 * The tracks carry the ruleset's names: Critical's `hp` track counts hits (CR-ATK-02).
 */
export function damageText(
  d: PointsLost,
  t: (key: string, data?: Record<string, string | number>) => string,
  lang = "en",
  ruleset?: string,
): string {
  return (
    (["hp", "ep", "hitboxes"] as const)
      .filter((k) => d[k] !== undefined)
      .map((k) => t(`FRAY.Forecast.Track.${ruleset === "critical" && k === "hp" ? "hits" : k}`, { points: one(d[k]!, lang) }))
      .join(", ") || "-"
  );
}

/**
 * The forecast as readable, localized lines: the fights and their seeds, the tactics played, each
 * side's chance to win with its 95% interval, the rounds as a bar chart, and for each combatant its
 * chance to end the fight out and the damage it can expect to take per track. A file with
 * scripted dice says so; where every fight played the scripted dice alone (all fights alike),
 * that is all it says, without chances. Chances and decimals are written in the reader's language
 * `lang` (`en`: `42.5%`, `de`: `42,5 %`).
 */
export function formatForecast(f: Forecast, lookup: Lookup, lang = "en"): string[] {
  const t = (key: string, data?: Record<string, string | number>) => formatKey(lookup, key, data, lang);
  const pct = (p: number) => formatPercent(p, lang);
  const chance = (c: Chance) => t("FRAY.Forecast.Chance", { p: pct(c.p), low: pct(c.low), high: pct(c.high) });
  const lines = [
    t("FRAY.Forecast.Title", {
      name: f.name,
      ruleset: `FRAY.Ruleset.${f.ruleset}`,
      runs: f.runs,
      first: f.seed,
      last: fightSeed(f.seed, f.runs - 1),
    }),
  ];
  if (!f.complete) lines.push(t("FRAY.Forecast.Cancelled", { runs: f.runs }));
  const rules = f.tactics[0]?.tactics;
  if (rules)
    lines.push(
      t("FRAY.Forecast.Tactics", {
        target: rules.target.map((r) => t(`FRAY.Forecast.Target.${r}`)).join(" > "),
        weapon: rules.weapon.map((r) => t(`FRAY.Forecast.Weapon.${r}`)).join(" > "),
      }),
    );
  // Scripted dice every fight played alone make every fight the same: no chance to give.
  if (f.scripted && f.scripted.beyond === 0) {
    lines.push("", t("FRAY.Forecast.ScriptedOnly", { faces: f.scripted.faces, runs: f.runs }));
    return lines;
  }
  if (f.scripted) lines.push(t("FRAY.Forecast.Scripted", { faces: f.scripted.faces, share: pct(f.scripted.beyond / f.runs) }));

  const sideWidth = Math.max(...f.sides.map((s) => s.side.length), t("FRAY.Forecast.Draw").length);
  lines.push("", t("FRAY.Forecast.Wins"));
  for (const s of f.sides) lines.push(`  ${s.side.padEnd(sideWidth)}  ${chance(s.wins)}`);
  lines.push(`  ${t("FRAY.Forecast.Draw").padEnd(sideWidth)}  ${chance(f.draws)}`);

  const r = f.rounds;
  lines.push("", t("FRAY.Forecast.Rounds", { mean: one(r.mean, lang), median: r.median, min: r.min, max: r.max }));
  const most = Math.max(...Object.values(r.counts));
  const width = String(r.max).length;
  for (const [round, count] of Object.entries(r.counts)) {
    const bar = "#".repeat(Math.max(1, Math.round((count / most) * BAR)));
    lines.push(`  ${round.padStart(width)}  ${bar} ${pct(count / f.runs)}`);
  }

  lines.push("", t("FRAY.Forecast.Combatants"));
  const label = (c: Forecast["combatants"][number]) => `${c.name} (${c.side})`;
  const nameWidth = Math.max(...f.combatants.map((c) => label(c).length));
  const damage = (d: PointsLost) => damageText(d, t, lang, f.ruleset);
  for (const c of f.combatants) {
    const tac = f.tactics.find((x) => x.id === c.id);
    const react = tac && tac.react !== "none" ? t("FRAY.Forecast.Reacts", { reaction: `FRAY.Forecast.React.${tac.react}` }) : "";
    lines.push(
      `  ${label(c).padEnd(nameWidth)}  ${t("FRAY.Forecast.Out", { chance: chance(c.out) })}; ${t("FRAY.Forecast.Damage", { damage: damage(c.damage) })}${react ? `; ${react}` : ""}`,
    );
  }
  return lines;
}

/**
 * The result of a balance search (./balance.ts) as readable, localized lines: what was asked for
 * and whose chance, the encounter found (opponents of each kind, the file's count beside it, or
 * the factor on the opponents' stats) with the players' chance to win and its 95% interval, the
 * file as it stands measured the same way, and how many encounters and fights the search played.
 * Says so where the target lies beyond reach or the search was cancelled. Chances in the reader's
 * language `lang`.
 */
export function formatBalance(b: BalanceResult, lookup: Lookup, lang = "en"): string[] {
  const t = (key: string, data?: Record<string, string | number>) => formatKey(lookup, key, data, lang);
  const pct = (p: number) => formatPercent(p, lang);
  const chance = (c: BalanceCandidate) =>
    t(pluralKey("FRAY.Forecast.Balance.Measured", c.runs, lang), {
      chance: t("FRAY.Forecast.Chance", { p: pct(c.wins.p), low: pct(c.wins.low), high: pct(c.wins.high) }),
      runs: c.runs,
    });
  const lines = [
    t("FRAY.Forecast.Balance.Title", { name: b.name, ruleset: `FRAY.Ruleset.${b.ruleset}`, players: b.players, target: pct(b.target) }),
  ];
  if (!b.complete) lines.push(t("FRAY.Forecast.Balance.Cancelled"));
  lines.push("", t(`FRAY.Forecast.Balance.Found.${b.mode}`));
  if (b.mode === "count")
    b.kinds.forEach((k, i) =>
      lines.push(`  ${t("FRAY.Forecast.Balance.Kind", { name: k.name, side: k.side, count: b.best.counts![i]!, base: k.base })}`),
    );
  else lines.push(`  ${t("FRAY.Forecast.Balance.Factor", { factor: formatDecimal(b.best.factor!, lang, 2) })}`);
  lines.push(`  ${t("FRAY.Forecast.Balance.Wins", { chance: chance(b.best) })}`);
  lines.push("", t("FRAY.Forecast.Balance.Start", { chance: chance(b.start) }));
  if (b.beyond) lines.push(t("FRAY.Forecast.Balance.Beyond"));
  lines.push(
    t("FRAY.Forecast.Balance.Searched", {
      count: new Set(b.tried.map((c) => c.counts?.join(",") ?? c.factor)).size,
      fights: b.fights,
      seed: b.seed,
    }),
  );
  return lines;
}
