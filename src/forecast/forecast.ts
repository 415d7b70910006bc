/**
 * The encounter forecast: an encounter file played many times through the encounter runner,
 * each fight with its own seed, summed up as each side's chance to win (with a 95% Wilson
 * interval), the distribution of rounds, each combatant's chance to end the fight out and the
 * damage it can expect to take.
 *
 * Pure: no file access, no clock, no Node API, so that a Web Worker can run it as the CLI does
 * (`scripts/forecast.ts` reads the file and prints). Fight `i` (counting from 0) is exactly
 * `npm run encounter -- FILE --seed <fightSeed(seed, i)>`: the file's scripted dice and declared
 * rounds are played in every fight, as the encounter runner plays them.
 */
import { MAX_SEED } from "../rules/core/bounds.js";
import { FrayError } from "../rules/core/errors.js";
import { bounded, check } from "../rules/core/validate.js";
import type { VitalState } from "../rules/core/types.js";
import { CombatantCache, type PlayOptions } from "../encounter/common.js";
import { playEncounter } from "../encounter/engine.js";
import type { EncounterContent } from "../encounter/library.js";
import type { EncounterSpec } from "../encounter/schema.js";
import type { EncounterResult } from "../encounter/types.js";
import { describeTactics, type TacticsStatement } from "../encounter/tactics.js";

/** Fights a forecast plays unless told otherwise. */
export const DEFAULT_RUNS = 10_000;
/** The most fights one forecast plays. */
export const MAX_RUNS = 1_000_000;
/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/**
 * The seed of fight `index` (0, 1, 2 ...) of a forecast with base seed `base`: `base + index`,
 * wrapping past the seeded roller's largest seed (2^31 - 1) to 0. Playing the file with
 * `npm run encounter -- FILE --seed <this>` gives that fight.
 */
export function fightSeed(base: number, index: number): number {
  return (base + index) % (MAX_SEED + 1);
}

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

/**
 * What a combatant lost from `start` to `end` on each track it has (value at the start minus the
 * value at the end; bleeding and other losses after the blow count, healing counts against).
 * Hitboxes (Hitbox, HB-DMG-01) are summed over all boxes.
 */
export function pointsLost(start: VitalState, end: VitalState): PointsLost {
  const out: PointsLost = {};
  if (start.hp && end.hp) out.hp = start.hp.value - end.hp.value;
  if (start.ep && end.ep) out.ep = start.ep.value - end.ep.value;
  if (start.hitboxes && end.hitboxes)
    out.hitboxes = Object.entries(start.hitboxes).reduce((sum, [box, t]) => sum + t.value - (end.hitboxes![box]?.value ?? t.value), 0);
  return out;
}

/** One combatant in a forecast. */
export interface CombatantForecast {
  id: string;
  name: string;
  side: string;
  /** Fights it ended out (down, unconscious, dead, fled ... as its ruleset counts out). */
  out: Chance;
  /** Expected points lost per fight on each track (see {@link pointsLost}). */
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
  /** The base seed; fight `i` used `fightSeed(seed, i)`. */
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
}

/** How to run a forecast. */
export interface ForecastOptions {
  /** Fights to play: a whole number from 1 to {@link MAX_RUNS}; {@link DEFAULT_RUNS} when unset. */
  runs?: number;
  /** Base seed (0 to 2^31 - 1); the file's `seed` when unset. */
  seed?: number;
  /**
   * Called after every `progressEvery` fights and after the last with the fights done and asked
   * for; awaited, so that a caller may yield to its event loop (a worker reading a cancel).
   */
  onProgress?: (done: number, runs: number) => void | Promise<void>;
  /** Fights between progress calls; 100 when unset. */
  progressEvery?: number;
  /** Checked before every fight: once `aborted`, the forecast stops and sums up the fights played. */
  signal?: { readonly aborted: boolean };
}

/**
 * Plays `spec` `runs` times (fight `i` with seed {@link fightSeed}(seed, i)) and sums the fights
 * up. Deterministic: the same file, content, runs and seed give the same forecast.
 * @param content the compendium sources the file's references name.
 * @throws FrayError `FRAY.Error.Field` naming `runs` or `seed` when either is out of bounds, and
 *   whatever the encounter runner throws for the file (naming its field).
 */
export async function forecast(spec: EncounterSpec, content: EncounterContent, options: ForecastOptions = {}): Promise<Forecast> {
  const runs = check(bounded({ min: 1, max: MAX_RUNS, integer: true }), options.runs ?? DEFAULT_RUNS, "runs");
  const seed = check(bounded({ min: 0, max: MAX_SEED, integer: true }), options.seed ?? spec.seed, "seed");
  const every = Math.max(1, Math.floor(options.progressEvery ?? 100));
  const tally = new Tally(spec);
  // Quiet: the tally reads only the outcome and the vitals. The combatants are built once and shared.
  const play: PlayOptions = { quiet: true, combatants: new CombatantCache() };
  for (let i = 0; i < runs; i++) {
    if (options.signal?.aborted) break;
    tally.add(await playEncounter({ ...spec, seed: fightSeed(seed, i) }, content, undefined, play));
    if (options.onProgress && ((i + 1) % every === 0 || i + 1 === runs)) await options.onProgress(i + 1, runs);
  }
  if (tally.runs === 0) throw new FrayError("FRAY.Error.ForecastNone", {}, "The forecast was cancelled before any fight was played");
  return tally.sum(seed, runs);
}

/** Running sums over the fights of a forecast. */
class Tally {
  runs = 0;
  private readonly wins = new Map<string, number>();
  private draws = 0;
  private readonly rounds = new Map<number, number>();
  private readonly out = new Map<string, number>();
  private readonly lost = new Map<string, Required<PointsLost>>();
  private readonly seen = new Map<string, PointsLost>();

  constructor(private readonly spec: EncounterSpec) {
    for (const c of spec.combatants) {
      this.wins.set(c.side, 0);
      this.out.set(c.id, 0);
      this.lost.set(c.id, { hp: 0, ep: 0, hitboxes: 0 });
    }
  }

  add(result: EncounterResult): void {
    this.runs++;
    if (result.winner === null) this.draws++;
    else this.wins.set(result.winner, (this.wins.get(result.winner) ?? 0) + 1);
    this.rounds.set(result.rounds, (this.rounds.get(result.rounds) ?? 0) + 1);
    for (const c of result.combatants) {
      if (c.out) this.out.set(c.id, this.out.get(c.id)! + 1);
      const lost = pointsLost(c.start ?? c.vitals, c.vitals);
      const sums = this.lost.get(c.id)!;
      for (const k of ["hp", "ep", "hitboxes"] as const) if (lost[k] !== undefined) sums[k] += lost[k];
      this.seen.set(c.id, lost);
    }
    this.names ??= new Map(result.combatants.map((c) => [c.id, c.name]));
  }

  private names?: Map<string, string>;

  sum(seed: number, asked: number): Forecast {
    const n = this.runs;
    const lengths = [...this.rounds.keys()].sort((a, b) => a - b);
    let total = 0;
    let median = lengths[0]!;
    let below = 0;
    for (const r of lengths) {
      total += r * this.rounds.get(r)!;
      if (below < n / 2) median = r;
      below += this.rounds.get(r)!;
    }
    return {
      name: this.spec.name,
      ruleset: this.spec.ruleset,
      runs: n,
      complete: n === asked,
      seed,
      sides: [...this.wins].map(([side, wins]) => ({ side, wins: wilson(wins, n) })),
      draws: wilson(this.draws, n),
      rounds: {
        counts: Object.fromEntries(lengths.map((r) => [r, this.rounds.get(r)!])),
        mean: total / n,
        median,
        min: lengths[0]!,
        max: lengths.at(-1)!,
      },
      combatants: this.spec.combatants.map((c) => {
        const has = this.seen.get(c.id) ?? {};
        const sums = this.lost.get(c.id)!;
        const damage: PointsLost = {};
        for (const k of ["hp", "ep", "hitboxes"] as const) if (has[k] !== undefined) damage[k] = sums[k] / n;
        return { id: c.id, name: this.names?.get(c.id) ?? c.name ?? c.id, side: c.side, out: wilson(this.out.get(c.id)!, n), damage };
      }),
      tactics: describeTactics(this.spec),
    };
  }
}
