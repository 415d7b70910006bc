/**
 * The encounter forecast: an encounter file played many times through the encounter runner,
 * each fight with its own seed, summed up as each side's chance to win (with a 95% Wilson
 * interval), the distribution of rounds, each combatant's chance to end the fight out and the
 * damage it can expect to take.
 *
 * Pure: no file access, no clock, no Node API, so that a Web Worker can run it as the CLI does
 * (`scripts/forecast.ts` reads the file and prints). Fight `i` (counting from 0) is exactly
 * `npm run encounter -- FILE --seed <fightSeed(seed, i)>`: the file's scripted dice and declared
 * rounds are played in every fight, as the encounter runner plays them. The forecast counts the
 * fights that rolled past the scripted dice: where none did, every fight was the same and the
 * forecast says so instead of giving chances.
 *
 * A forecast can be spread over workers: {@link forecastTally} plays a contiguous range of its
 * fights (fight `i` still with `fightSeed(seed, i)`) and returns the range's {@link Tally}; the
 * tallies of the ranges, merged with `mergeTallies` and summed up with `tallyForecast`
 * (./tally.ts), give exactly the forecast one process gives, figure for figure.
 */
import { MAX_SEED } from "../rules/core/bounds.js";
import { ScriptedRoller, seededSource } from "../rules/core/dice/port.js";
import { bounded, check } from "../rules/core/validate.js";
import type { VitalState } from "../rules/core/types.js";
import { CombatantCache, internStrings, type PlayOptions } from "../encounter/common.js";
import { playEncounter, scriptedFaceError } from "../encounter/engine.js";
import type { EncounterContent } from "../encounter/library.js";
import type { EncounterSpec } from "../encounter/schema.js";
import type { EncounterResult } from "../encounter/types.js";
import { describeTactics } from "../encounter/tactics.js";
import { tallyForecast, type Forecast, type PointsLost, type Tally } from "./tally.js";

export {
  chunkRuns,
  CHUNKS_PER_WORKER,
  MIN_CHUNK,
  mergeTallies,
  playChunks,
  splitRuns,
  tallyComplete,
  tallyForecast,
  wilson,
  type Chance,
  type CombatantForecast,
  type CombatantTally,
  type Forecast,
  type PointsLost,
  type ScriptedDice,
  type Tally,
} from "./tally.js";

/** Fights a forecast plays unless told otherwise. */
export const DEFAULT_RUNS = 10_000;
/** The most fights one forecast plays. */
export const MAX_RUNS = 1_000_000;
/**
 * The seed of fight `index` (0, 1, 2 ...) of a forecast with base seed `base`: `base + index`,
 * wrapping past the seeded roller's largest seed (2^31 - 1) to 0. Playing the file with
 * `npm run encounter -- FILE --seed <this>` gives that fight.
 */
export function fightSeed(base: number, index: number): number {
  return (base + index) % (MAX_SEED + 1);
}

/**
 * The file of one fight of a forecast: `spec` with the fight's `seed`, every other field the same
 * object. Written out field by field, so that every fight's copy has one shape in V8 from the
 * first fight on: a spread's copy takes another shape for its first few fights than later (its
 * copying is tuned after a few runs), and the drivers' compiled code, having met the first,
 * was thrown away at the second.
 */
export function withSeed(spec: EncounterSpec, seed: number): EncounterSpec {
  return {
    name: spec.name,
    ruleset: spec.ruleset,
    seed,
    options: spec.options,
    maxRounds: spec.maxRounds,
    dice: spec.dice,
    combatants: spec.combatants,
    rounds: spec.rounds,
    distances: spec.distances,
    initiative: spec.initiative,
  };
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
  const boxes = start.hitboxes;
  const after = end.hitboxes;
  if (boxes && after) {
    // A plain loop over the boxes, in the order `Object.entries` lists them: summed for every combatant of every fight.
    let sum = 0;
    for (const box in boxes) {
      const t = boxes[box]!;
      sum = sum + t.value - (after[box]?.value ?? t.value);
    }
    out.hitboxes = sum;
  }
  return out;
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

/** Which fights of a forecast to play: a contiguous range, the whole forecast when unset. */
export interface RangeOptions extends ForecastOptions {
  /** The first fight to play (counting from 0): a whole number from 0 to `runs - 1`; 0 when unset. */
  from?: number;
  /** One past the last fight to play: a whole number from `from + 1` to `runs`; `runs` when unset. */
  to?: number;
  /**
   * The combatants built and the file's set-up, shared by the fights: pass the cache of an earlier
   * range of the same forecast (the same `spec` and `content` objects) to reuse what it built; a
   * new cache when unset. The fights give the same results either way.
   */
  combatants?: CombatantCache;
}

/**
 * Plays the fights `from` to `to - 1` of the forecast of `spec` (fight `i` with seed
 * {@link fightSeed}(seed, i), as in the whole forecast) and returns their {@link Tally}. Progress
 * counts the fights of the range (`done` of `to - from`). A cancel stops it after the fight under
 * way; the tally then holds the fights played (possibly none). The strings of `spec` are swapped
 * for their interned copies in place ({@link internStrings}; equal strings, nothing else changes).
 * @param content the compendium sources the file's references name.
 * @throws FrayError `FRAY.Error.Field` naming `runs`, `seed`, `from` or `to` when one is out of
 *   bounds, and whatever the encounter runner throws for the file (naming its field).
 */
export async function forecastTally(spec: EncounterSpec, content: EncounterContent, options: RangeOptions = {}): Promise<Tally> {
  const runs = check(bounded({ min: 1, max: MAX_RUNS, integer: true }), options.runs ?? DEFAULT_RUNS, "runs");
  const seed = check(bounded({ min: 0, max: MAX_SEED, integer: true }), options.seed ?? spec.seed, "seed");
  const from = check(bounded({ min: 0, max: runs - 1, integer: true }), options.from ?? 0, "from");
  const to = check(bounded({ min: from + 1, max: runs, integer: true }), options.to ?? runs, "to");
  const every = Math.max(1, Math.floor(options.progressEvery ?? 100));
  // Its strings interned once, so that the fights compare ids and names as references (`intern`).
  internStrings(spec);
  const tally = new TallyBuilder(spec, from, to);
  // Quiet: the tally reads only the outcome and the vitals. The combatants are built once and shared.
  const play: PlayOptions = { quiet: true, combatants: options.combatants ?? new CombatantCache() };
  const size = to - from;
  for (let i = from; i < to; i++) {
    if (options.signal?.aborted) break;
    const fight = withSeed(spec, fightSeed(seed, i));
    if (spec.dice.length === 0) tally.add(await playEncounter(fight, content, undefined, play));
    else {
      // The roller the runner makes of the file (its scripted faces, then the fight's seed), told
      // whether the fight rolled past the script.
      const seeded = seededSource(fight.seed);
      let beyond = false;
      const dice = new ScriptedRoller(spec.dice, (faces) => {
        beyond = true;
        return seeded(faces);
      });
      tally.add(await playEncounter(fight, content, dice, play).catch(scriptedFaceError), beyond);
    }
    const done = i + 1 - from;
    if (options.onProgress && (done % every === 0 || done === size)) await options.onProgress(done, size);
  }
  return tally.build();
}

/**
 * Plays `spec` `runs` times (fight `i` with seed {@link fightSeed}(seed, i)) and sums the fights
 * up. Deterministic: the same file, content, runs and seed give the same forecast. The tally of
 * {@link forecastTally} over all fights, summed up by `tallyForecast`.
 * @param content the compendium sources the file's references name.
 * @throws FrayError `FRAY.Error.Field` naming `runs` or `seed` when either is out of bounds,
 *   `FRAY.Error.ForecastNone` when cancelled before the first fight, and whatever the encounter
 *   runner throws for the file (naming its field).
 */
export async function forecast(spec: EncounterSpec, content: EncounterContent, options: ForecastOptions = {}): Promise<Forecast> {
  const runs = check(bounded({ min: 1, max: MAX_RUNS, integer: true }), options.runs ?? DEFAULT_RUNS, "runs");
  const seed = check(bounded({ min: 0, max: MAX_SEED, integer: true }), options.seed ?? spec.seed, "seed");
  const tally = await forecastTally(spec, content, { ...options, runs, seed, from: 0, to: runs });
  return tallyForecast(tally, seed, runs);
}

/** Running sums over the fights of a range, turned into a {@link Tally} at the end. */
class TallyBuilder {
  private runs = 0;
  private readonly wins = new Map<string, number>();
  private draws = 0;
  private readonly rounds = new Map<number, number>();
  private readonly out = new Map<string, number>();
  private readonly lost = new Map<string, Required<PointsLost>>();
  /** What each combatant lost in the last fight added: its tracks are the keys (read once, by {@link build}). */
  private readonly last = new Map<string, PointsLost>();
  private names?: Map<string, string>;
  /** Fights that rolled past the file's scripted dice. */
  private beyond = 0;

  constructor(
    private readonly spec: EncounterSpec,
    private readonly from: number,
    private readonly to: number,
  ) {
    for (const c of spec.combatants) {
      this.wins.set(c.side, 0);
      this.out.set(c.id, 0);
      this.lost.set(c.id, { hp: 0, ep: 0, hitboxes: 0 });
    }
  }

  /** Adds a fight; `beyondScript` when it rolled past the file's scripted dice. */
  add(result: EncounterResult, beyondScript = false): void {
    this.runs++;
    if (beyondScript) this.beyond++;
    // The draws counted on every fight, by 0 or 1: counted only on a draw, a rare fight, the
    // compiled code met the count for the first time there and was thrown away.
    this.draws += result.winner === null ? 1 : 0;
    if (result.winner !== null) this.wins.set(result.winner, (this.wins.get(result.winner) ?? 0) + 1);
    this.rounds.set(result.rounds, (this.rounds.get(result.rounds) ?? 0) + 1);
    for (const c of result.combatants) {
      if (c.out) this.out.set(c.id, this.out.get(c.id)! + 1);
      const lost = pointsLost(c.start ?? c.vitals, c.vitals);
      const sums = this.lost.get(c.id)!;
      if (lost.hp !== undefined) sums.hp += lost.hp;
      if (lost.ep !== undefined) sums.ep += lost.ep;
      if (lost.hitboxes !== undefined) sums.hitboxes += lost.hitboxes;
      this.last.set(c.id, lost);
    }
    this.names ??= new Map(result.combatants.map((c) => [c.id, c.name]));
  }

  /** The tracks a combatant had in the last fight added (see {@link pointsLost}); `null` before any. */
  private tracksOf(id: string): (keyof PointsLost)[] | null {
    const lost = this.last.get(id);
    return lost ? (Object.keys(lost) as (keyof PointsLost)[]) : null;
  }

  build(): Tally {
    return {
      name: this.spec.name,
      ruleset: this.spec.ruleset,
      from: this.from,
      to: this.to,
      runs: this.runs,
      wins: [...this.wins].map(([side, count]) => ({ side, count })),
      draws: this.draws,
      rounds: [...this.rounds].sort((a, b) => a[0] - b[0]),
      combatants: this.spec.combatants.map((c) => ({
        id: c.id,
        side: c.side,
        name: this.names?.get(c.id) ?? null,
        fallbackName: c.name ?? c.id,
        out: this.out.get(c.id)!,
        lost: { ...this.lost.get(c.id)! },
        tracks: this.tracksOf(c.id),
      })),
      tactics: describeTactics(this.spec),
      ...(this.spec.dice.length ? { scripted: { faces: this.spec.dice.length, beyond: this.beyond } } : {}),
    };
  }
}
