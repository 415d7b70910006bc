/**
 * The forecast's running sums as plain data (a {@link Tally}), so that a forecast can be spread
 * over workers: each plays a contiguous range of fights and hands back the tally of its range,
 * the tallies of contiguous ranges merge ({@link mergeTallies}), and {@link tallyForecast} sums
 * the merged tally up into the {@link Forecast} a single process gives, figure for figure.
 *
 * Every sum in a tally is a count or a sum of whole points, so adding the parts gives the very
 * numbers the whole gives; the means, the median and the 95% intervals are computed once, from
 * the merged sums, by the same code, so they come out bit for bit the same too.
 *
 * Pure and small: no encounter runner, no schema (the Foundry client merges and sums up the
 * workers' tallies without loading the drivers, which live in the worker's bundle only).
 */
import { FrayError } from "../rules/core/errors.js";
import type { TacticsStatement } from "../encounter/tactics.js";

/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/** A share of fights with its 95% Wilson score interval, each a probability from 0 to 1. */
export interface Chance {
  /** Fights counted. */
  count: number;
  /** `count / runs`. */
  p: number;
  /** Lower end of the 95% interval. */
  low: number;
  /** Upper end of the 95% interval. */
  high: number;
}

/**
 * `count` out of `runs` with its 95% Wilson score interval (the interval that stays inside 0..1
 * and holds up at 0% and 100%, unlike the normal approximation).
 * @throws FrayError `FRAY.Error.Field` (field `runs`) when `runs` is not a whole number of 1 or
 *   more or `count` is not from 0 to `runs`.
 */
export function wilson(count: number, runs: number): Chance {
  if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(count) || count < 0 || count > runs)
    throw new FrayError("FRAY.Error.Field", { field: "runs", expected: "1 or more fights, count from 0 to runs" }, "Bad count of fights");
  const p = count / runs;
  const z2 = Z95 * Z95;
  const denom = 1 + z2 / runs;
  const centre = (p + z2 / (2 * runs)) / denom;
  const half = (Z95 / denom) * Math.sqrt((p * (1 - p)) / runs + z2 / (4 * runs * runs));
  // At 0 and at all fights the interval ends exactly at 0 and 1; rounding must not move them.
  return { count, p, low: count === 0 ? 0 : Math.max(0, centre - half), high: count === runs ? 1 : Math.min(1, centre + half) };
}

/** Points a combatant lost over a fight, per track: HP, EP, and the sum over its hitboxes. */
export interface PointsLost {
  hp?: number;
  ep?: number;
  hitboxes?: number;
}

/** The tracks {@link PointsLost} counts, in its order. */
export const TRACKS = ["hp", "ep", "hitboxes"] as const;

/** One combatant in a forecast. */
export interface CombatantForecast {
  id: string;
  name: string;
  side: string;
  /** Fights it ended out (down, unconscious, dead, fled ... as its ruleset counts out). */
  out: Chance;
  /** Expected points lost per fight on each track (see `pointsLost` in forecast.ts). */
  damage: PointsLost;
}

/** The result of a forecast. */
export interface Forecast {
  name: string;
  ruleset: string;
  /** Fights played. Fewer than asked for when the forecast was cancelled. */
  runs: number;
  /** Whether all fights asked for were played. */
  complete: boolean;
  /** The base seed; fight `i` (0 to `runs - 1`) used `fightSeed(seed, i)`. */
  seed: number;
  /** Each side's wins, in the order the sides first appear in the file. */
  sides: { side: string; wins: Chance }[];
  /** Fights with no winner: every side down at once, or `maxRounds` reached. */
  draws: Chance;
  /** How long fights lasted, in rounds (a fight stopped at `maxRounds` counts `maxRounds`). */
  rounds: { counts: Record<number, number>; mean: number; median: number; min: number; max: number };
  combatants: CombatantForecast[];
  /** What each combatant does in rounds the file declares nothing for. */
  tactics: TacticsStatement[];
  /**
   * The file's scripted dice (its `dice:`), rolled first in every fight: how many faces, and the
   * fights that rolled past them. Absent for a file without scripted dice.
   */
  scripted?: ScriptedDice;
}

/** The scripted dice of a forecast's file: the faces every fight rolls first, and the fights that rolled more. */
export interface ScriptedDice {
  /** Faces the file scripts. */
  faces: number;
  /** Fights that rolled a die past the scripted faces (the others played the script alone, all alike). */
  beyond: number;
}

/** One combatant's sums in a {@link Tally}. */
export interface CombatantTally {
  id: string;
  side: string;
  /** Its name in the first fight of the range played (the resolved actor's), else `null`. */
  name: string | null;
  /** Its name when no fight was played: the file's `name`, else its id. */
  fallbackName: string;
  /** Fights it ended out. */
  out: number;
  /** Points lost over all fights played, per track (whole points, so the sums add exactly). */
  lost: Required<PointsLost>;
  /** The tracks it had in the last fight of the range played (its damage is shown on those); `null` when none was played. */
  tracks: (keyof PointsLost)[] | null;
}

/**
 * The running sums of the fights `from` (inclusive) to `to` (exclusive) of a forecast, as plain,
 * structured-cloneable data. Fewer than `to - from` fights when that range was cancelled: then
 * the fights `from` to `from + runs - 1` were played.
 */
export interface Tally {
  name: string;
  ruleset: string;
  /** The first fight of the range (counting from 0). */
  from: number;
  /** One past the last fight of the range. */
  to: number;
  /** Fights played, from `from` on. */
  runs: number;
  /** Wins per side, in the order the sides first appear in the file. */
  wins: { side: string; count: number }[];
  /** Fights without a winner. */
  draws: number;
  /** Fights per length in rounds, as `[rounds, fights]` pairs in increasing rounds. */
  rounds: [number, number][];
  /** One per combatant of the file, in its order. */
  combatants: CombatantTally[];
  /** What each combatant does in rounds the file declares nothing for. */
  tactics: TacticsStatement[];
  /** The file's scripted dice and the fights that rolled past them; absent without scripted dice. */
  scripted?: ScriptedDice;
}

/**
 * Whether a tally's fights are all played: `runs` equals the size of its range.
 */
export function tallyComplete(tally: Tally): boolean {
  return tally.runs === tally.to - tally.from;
}

/**
 * `runs` fights split into at most `parts` contiguous ranges `[from, to)` of nearly equal size
 * (the first ones one fight longer), in order, none empty: fights 0 to `runs - 1`.
 * @param runs a whole number of 1 or more.
 * @param parts a whole number of 1 or more; fewer ranges when there are fewer fights.
 */
export function splitRuns(runs: number, parts: number): [number, number][] {
  const n = Math.max(1, Math.min(Math.floor(parts), runs));
  const size = Math.floor(runs / n);
  const longer = runs % n;
  const out: [number, number][] = [];
  let from = 0;
  for (let k = 0; k < n; k++) {
    const to = from + size + (k < longer ? 1 : 0);
    out.push([from, to]);
    from = to;
  }
  return out;
}

/** Chunks each worker gets on average when a forecast is spread over workers ({@link chunkRuns}). */
export const CHUNKS_PER_WORKER = 16;
/** The fewest fights in a chunk ({@link chunkRuns}), unless there are fewer fights than workers would need. */
export const MIN_CHUNK = 100;

/**
 * `runs` fights split into contiguous chunks `[from, to)`, in order, for `workers` workers that
 * each take the next chunk once done with their last ({@link playChunks}): about
 * {@link CHUNKS_PER_WORKER} per worker, each of at least {@link MIN_CHUNK} fights, and never fewer
 * chunks than workers (nor more than fights). A worker that compiles its code later, or shares
 * its core, plays fewer chunks instead of holding up the forecast at the end.
 * @param runs a whole number of 1 or more.
 * @param workers a whole number of 1 or more.
 */
export function chunkRuns(runs: number, workers: number): [number, number][] {
  const w = Math.max(1, Math.floor(workers));
  return splitRuns(runs, Math.min(w * CHUNKS_PER_WORKER, Math.max(w, Math.floor(runs / MIN_CHUNK))));
}

/**
 * Plays `chunks` (contiguous ranges of one forecast's fights, in order) on `workers` workers at
 * once: each worker takes the next chunk not yet taken as soon as it has played its last, until
 * none is left or `stopped()` (a cancel) holds. Returns the tallies of the chunks taken, in chunk
 * order, ready for {@link mergeTallies}: a contiguous run of `chunks` from the first, whichever
 * worker played each, so the merged tally is the one a single worker gives.
 * @param play plays the chunk `chunks[index]` on the worker numbered `worker` (0 to `workers - 1`)
 *   and gives its tally (fewer fights after a cancel).
 * @throws whatever `play` throws first; the other workers then take no further chunk.
 */
export async function playChunks(
  chunks: readonly [number, number][],
  workers: number,
  play: (worker: number, chunk: [number, number], index: number) => Promise<Tally>,
  stopped: () => boolean = () => false,
): Promise<Tally[]> {
  const tallies: Tally[] = [];
  let next = 0;
  let failed = false;
  const lane = async (worker: number) => {
    while (next < chunks.length && !failed && !stopped()) {
      const index = next++;
      try {
        tallies[index] = await play(worker, chunks[index]!, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const lanes = Math.max(1, Math.min(Math.floor(workers), chunks.length));
  await Promise.all(Array.from({ length: lanes }, (_, worker) => lane(worker)));
  return tallies.slice(0, next);
}

/**
 * The tallies of contiguous ranges of one forecast (`parts[k].to === parts[k + 1].from`) merged
 * into the tally of their union: counts and sums added; each combatant's name from the first
 * part that played a fight, its tracks from the last. Merging the parts of a split gives exactly
 * the tally of the whole range played in one go.
 *
 * A part that did not play its whole range (a cancel) ends the fights without a gap: the parts
 * after it are left out, so that the merged tally is always of the fights `from` to
 * `from + runs - 1` (its `to` stays the union's end, so it reads as cancelled).
 * @throws FrayError `FRAY.Error.Field` (field `tallies`) when there are none, or when they are not
 *   of one forecast (name, ruleset, sides, combatants) or not contiguous.
 */
export function mergeTallies(parts: readonly Tally[]): Tally {
  const bad = (expected: string) => new FrayError("FRAY.Error.Field", { field: "tallies", expected }, `Cannot merge tallies: ${expected}`);
  const first = parts[0];
  if (!first) throw bad("one or more tallies");
  const sides = first.wins.map((w) => w.side);
  const ids = first.combatants.map((c) => c.id);
  for (const [k, p] of parts.entries()) {
    if (p.name !== first.name || p.ruleset !== first.ruleset) throw bad("tallies of one encounter");
    if (p.wins.length !== sides.length || p.wins.some((w, i) => w.side !== sides[i])) throw bad("the same sides in each tally");
    if (p.combatants.length !== ids.length || p.combatants.some((c, i) => c.id !== ids[i])) throw bad("the same combatants in each tally");
    if (k > 0 && p.from !== parts[k - 1]!.to) throw bad("contiguous ranges of fights, in order");
  }
  // The fights played without a gap: every part up to the first one cut short.
  const cut = parts.findIndex((p) => !tallyComplete(p));
  const played = cut < 0 ? parts : parts.slice(0, cut + 1);
  const withFights = played.filter((p) => p.runs > 0);
  const rounds = new Map<number, number>();
  for (const p of played) for (const [r, n] of p.rounds) rounds.set(r, (rounds.get(r) ?? 0) + n);
  return {
    name: first.name,
    ruleset: first.ruleset,
    from: first.from,
    to: parts.at(-1)!.to,
    runs: played.reduce((s, p) => s + p.runs, 0),
    wins: sides.map((side, i) => ({ side, count: played.reduce((s, p) => s + p.wins[i]!.count, 0) })),
    draws: played.reduce((s, p) => s + p.draws, 0),
    rounds: [...rounds].sort((a, b) => a[0] - b[0]),
    combatants: first.combatants.map((c, i) => {
      const lost = { hp: 0, ep: 0, hitboxes: 0 };
      for (const p of played) for (const k of TRACKS) lost[k] += p.combatants[i]!.lost[k];
      return {
        id: c.id,
        side: c.side,
        name: withFights[0]?.combatants[i]!.name ?? null,
        fallbackName: c.fallbackName,
        out: played.reduce((s, p) => s + p.combatants[i]!.out, 0),
        lost,
        tracks: withFights.at(-1)?.combatants[i]!.tracks ?? null,
      };
    }),
    tactics: first.tactics,
    ...(first.scripted
      ? { scripted: { faces: first.scripted.faces, beyond: played.reduce((s, p) => s + (p.scripted?.beyond ?? 0), 0) } }
      : {}),
  };
}

/**
 * Sums a tally up into the forecast: each side's chance to win and the draws with their 95%
 * intervals, the rounds (counts, mean, median, shortest and longest) and each combatant's
 * chance to end out and its expected points lost per fight on each track it has.
 * @param seed the forecast's base seed; the tally's fights are numbered from it.
 * @param asked the fights asked for; the forecast is `complete` when the tally played them all.
 * @throws FrayError `FRAY.Error.ForecastNone` when the tally has no fight.
 */
export function tallyForecast(tally: Tally, seed: number, asked: number): Forecast {
  const n = tally.runs;
  if (n === 0) throw new FrayError("FRAY.Error.ForecastNone", {}, "The forecast was cancelled before any fight was played");
  let total = 0;
  let median = tally.rounds[0]![0];
  let below = 0;
  for (const [r, count] of tally.rounds) {
    total += r * count;
    if (below < n / 2) median = r;
    below += count;
  }
  return {
    name: tally.name,
    ruleset: tally.ruleset,
    runs: n,
    complete: n === asked,
    seed,
    sides: tally.wins.map(({ side, count }) => ({ side, wins: wilson(count, n) })),
    draws: wilson(tally.draws, n),
    rounds: {
      counts: Object.fromEntries(tally.rounds),
      mean: total / n,
      median,
      min: tally.rounds[0]![0],
      max: tally.rounds.at(-1)![0],
    },
    combatants: tally.combatants.map((c) => {
      const damage: PointsLost = {};
      for (const k of TRACKS) if (c.tracks?.includes(k)) damage[k] = c.lost[k] / n;
      return { id: c.id, name: c.name ?? c.fallbackName, side: c.side, out: wilson(c.out, n), damage };
    }),
    tactics: tally.tactics,
    ...(tally.scripted ? { scripted: { ...tally.scripted } } : {}),
  };
}
