/**
 * A fight balanced to order: the GM names the players' chance to win (0.7 for 70%) and the search
 * finds the encounter that comes closest, either by the number of opponents of each kind
 * (`mode: "count"`) or by a factor on the opponents' stats (`mode: "scale"`, ./scaling.ts). The
 * rules do not change: every candidate is an encounter file played by the forecast
 * (./forecast.ts), fight `i` with seed `fightSeed(seed, i)`, the same seeds for every candidate
 * (so that candidates are compared on the same dice), and the search is deterministic: the same
 * file, target, mode and seed give the same result.
 *
 * The players are one side of the file: `players` when given, else the side of the file's first
 * combatant. Their opponents are every combatant of the other sides.
 *
 * Count: the opponents are grouped into kinds (entries alike but for id and name: the same
 * reference, stats, items, reaction, tactics and side). The players' chance falls as opponents
 * are added, nearly always, so the search first bisects the number of opponents `n` on the
 * file's mix of kinds (each kind's share of `n` by largest remainder) with {@link
 * BalanceOptions.quickRuns} fights each, then tries the encounters one opponent away from the
 * two mixes that bracket the target (one more, one fewer, one of a kind swapped for another),
 * and confirms the closest few with {@link BalanceOptions.confirmRuns} fights: the one whose
 * chance, so measured, is closest to the target is the result, with its 95% Wilson interval.
 * Added opponents are copies of their kind's first entry (ids `<id>-2`, `-3` ..., names numbered
 * the same way) standing where it stands (its distances); removed ones are the kind's last entries,
 * taken out of the declared rounds, distances and initiative with their ids.
 *
 * Scale: the factor (1/4 to 4) is bisected on a logarithmic scale, each step rounded to two
 * decimals, with quick fights, and the two closest factors met are confirmed with more.
 *
 * Pure: no file access, no Node API; the fights run in process (a Web Worker or the CLI calls it).
 */
import { COMMON_BOUNDS, MAX_SEED } from "../rules/core/bounds.js";
import { FrayError } from "../rules/core/errors.js";
import { bounded, check, choice } from "../rules/core/validate.js";
import { CombatantCache, mergeSystem } from "../encounter/common.js";
import type { EncounterContent } from "../encounter/library.js";
import type { ActionSpec, CombatantSpec, EncounterSpec } from "../encounter/schema.js";
import { forecastTally } from "./forecast.js";
import { BALANCE_MODES, BALANCE_TARGET, type BalanceMode } from "./balance-bounds.js";
import { scaledStats } from "./scaling.js";
import { wilson, type Chance, type Tally } from "./tally.js";

export { BALANCE_MODES, BALANCE_TARGET, type BalanceMode } from "./balance-bounds.js";
/** Fights each candidate is first measured with. */
export const QUICK_RUNS = 200;
/** Fights each of the closest candidates is confirmed with. */
export const CONFIRM_RUNS = 2_000;
/** Candidates confirmed with {@link CONFIRM_RUNS} fights. */
const CONFIRMED = 3;
/** The most opponents a count search puts in, as a multiple of the file's opponents. */
const MAX_FACTOR_COUNT = 4;
/** The stat factors a scale search ranges over. */
export const SCALE_RANGE = { min: 0.25, max: 4 } as const;
/** Bisection steps of a scale search. */
const SCALE_STEPS = 7;
/** Secant steps on confirmed factors after the bisection of a scale search. */
const SECANT_STEPS = 2;

/** How to search. */
export interface BalanceOptions {
  /** The players' chance to win asked for, from 0.01 to 0.99. */
  target: number;
  /** `count` (the default) or `scale`. */
  mode?: BalanceMode;
  /** The players' side; the side of the file's first combatant when unset. */
  players?: string;
  /** Base seed of every candidate's fights; the file's `seed` when unset. */
  seed?: number;
  /** Fights a candidate is first measured with; {@link QUICK_RUNS} when unset. */
  quickRuns?: number;
  /** Fights each of the closest candidates is confirmed with; {@link CONFIRM_RUNS} when unset. */
  confirmRuns?: number;
  /**
   * Called as fights are played with the fights done and the most the search will play (an upper
   * bound: the search may end before it); awaited, so that a worker may read a cancel.
   */
  onProgress?: (done: number, planned: number) => void | Promise<void>;
  /** Checked between fights: once `aborted`, the search stops and reports the best measured so far. */
  signal?: { readonly aborted: boolean };
}

/** One kind of opponent: entries alike but for id and name. */
export interface OpponentKind {
  /** The id of the kind's first entry in the file (the one copies are made of). */
  id: string;
  /** Its name (the first entry's), as the file gives it or its id. */
  name: string;
  side: string;
  /** How many the file has. */
  base: number;
  /** The ids of the kind's entries in the file, in its order. */
  members: string[];
}

/** An encounter the search measured. */
export interface BalanceCandidate {
  /** Opponents of each kind, in the order of {@link BalanceResult.kinds} (count mode). */
  counts?: number[];
  /** The factor on the opponents' stats (scale mode). */
  factor?: number;
  /** The players' wins with its 95% interval, over {@link runs} fights. */
  wins: Chance;
  /** Fights it was measured with (the most it was measured with). */
  runs: number;
}

/** What the search found. */
export interface BalanceResult {
  name: string;
  ruleset: string;
  mode: BalanceMode;
  target: number;
  players: string;
  seed: number;
  /** The opponents' kinds (count mode; in scale mode the file's kinds, unchanged). */
  kinds: OpponentKind[];
  /** The encounter closest to the target, measured with the most fights. */
  best: BalanceCandidate;
  /** The file as it is (its counts or factor 1), measured with as many fights as {@link best}. */
  start: BalanceCandidate;
  /** Every candidate measured, in the order measured. */
  tried: BalanceCandidate[];
  /**
   * Whether the target lies beyond what the search can reach (the players' chance stays above
   * it with the most opponents or the strongest stats, or below it with the fewest or weakest).
   */
  beyond: boolean;
  /** All fights played. */
  fights: number;
  /** False when cancelled: `best` is then the closest measured so far. */
  complete: boolean;
  /** The balanced encounter file: the file with `best`'s opponents. */
  spec: EncounterSpec;
}

/**
 * Searches the encounter whose players' chance to win comes closest to `options.target` (see the
 * file's docstring for how).
 * @param content the compendium sources the file's references name.
 * @throws FrayError `FRAY.Error.Field` naming `target`, `mode`, `players`, `seed`, `quickRuns` or
 *   `confirmRuns` when out of bounds (`players` when no combatant is on that side or the file has
 *   no opponents of it), `FRAY.Error.ForecastNone` when cancelled before any candidate was
 *   measured, and whatever the encounter runner throws for the file (naming its field).
 */
export async function balance(spec: EncounterSpec, content: EncounterContent, options: BalanceOptions): Promise<BalanceResult> {
  const target = check(bounded(BALANCE_TARGET), options.target, "target");
  const mode = check(choice(BALANCE_MODES), options.mode ?? "count", "mode");
  const seed = check(bounded({ min: 0, max: MAX_SEED, integer: true }), options.seed ?? spec.seed, "seed");
  const quick = check(bounded({ min: 1, max: 100_000, integer: true }), options.quickRuns ?? QUICK_RUNS, "quickRuns");
  const confirm = check(bounded({ min: quick, max: 1_000_000, integer: true }), options.confirmRuns ?? CONFIRM_RUNS, "confirmRuns");
  const sides = [...new Set(spec.combatants.map((c) => c.side))];
  const players = options.players ?? spec.combatants[0]!.side;
  if (!sides.includes(players) || sides.length < 2)
    throw new FrayError("FRAY.Error.Field", { field: "players", expected: sides.join(", ") }, `No side "${players}" with opponents`);

  const kinds = kindsOf(spec, players, content);
  const cache = new CombatantCache();
  let fights = 0;
  let planned = 0;
  const tried: BalanceCandidate[] = [];
  const measured = new Map<string, BalanceCandidate>();
  const aborted = () => options.signal?.aborted === true;

  /** The players' wins in `runs` fights of `file` (fights 0 to runs - 1, as every candidate). */
  const measure = async (key: string, file: () => EncounterSpec, runs: number, candidate: Omit<BalanceCandidate, "wins" | "runs">) => {
    const known = measured.get(key);
    if (known && known.runs >= runs) return known;
    if (aborted()) return undefined;
    const before = fights;
    const tally: Tally = await forecastTally(file(), content, {
      runs,
      seed,
      combatants: cache,
      signal: options.signal,
      progressEvery: 50,
      onProgress: (done) => options.onProgress?.(before + done, Math.max(planned, before + runs)),
    });
    fights += tally.runs;
    if (tally.runs < runs) return undefined;
    const won = tally.wins.find((w) => w.side === players)?.count ?? 0;
    const result: BalanceCandidate = { ...candidate, wins: wilson(won, tally.runs), runs: tally.runs };
    measured.set(key, result);
    tried.push(result);
    return result;
  };
  const distance = (c: BalanceCandidate) => Math.abs(c.wins.p - target);
  /** The closest first; among equally close, the one nearer the file as it is. */
  const closest = (list: BalanceCandidate[], away: (c: BalanceCandidate) => number) =>
    [...list].sort((a, b) => distance(a) - distance(b) || away(a) - away(b));

  let start: BalanceCandidate | undefined;
  let beyond = false;
  let build: (c: BalanceCandidate) => EncounterSpec;

  if (mode === "count") {
    const base = kinds.map((k) => k.base);
    const others = spec.combatants.length - base.reduce((a, b) => a + b, 0);
    const most = Math.max(1, Math.min(MAX_FACTOR_COUNT * base.reduce((a, b) => a + b, 0), COMMON_BOUNDS.combatants.max - others));
    const copies = new Map<string, CombatantSpec>();
    build = (c) => withCounts(spec, kinds, c.counts!, copies);
    const key = (counts: number[]) => counts.join(",");
    const tryCounts = (counts: number[], runs: number) =>
      measure(key(counts), () => withCounts(spec, kinds, counts, copies), runs, { counts: [...counts] });
    const steps = Math.ceil(Math.log2(most)) + 2;
    planned = quick * (steps + 4 * kinds.length * kinds.length) + confirm * (CONFIRMED + 1);

    start = await tryCounts(base, quick);
    // Bisect the number of opponents on the file's mix: the least n whose chance is at or below the target.
    let lo = 1;
    let hi = most;
    let atLo = await tryCounts(mixOf(base, lo), quick);
    let atHi = await tryCounts(mixOf(base, hi), quick);
    if (atLo && atLo.wins.p <= target) hi = lo;
    else if (atHi && atHi.wins.p > target) lo = hi;
    while (hi - lo > 1 && !aborted()) {
      const mid = (lo + hi) >> 1;
      const at = await tryCounts(mixOf(base, mid), quick);
      if (!at) break;
      if (at.wins.p > target) [lo, atLo] = [mid, at];
      else [hi, atHi] = [mid, at];
    }
    beyond = lo === hi;
    // Every encounter one opponent away from the two bracketing mixes.
    const around = new Map<string, number[]>();
    for (const n of new Set([lo, hi])) {
      const mix = mixOf(base, n);
      around.set(key(mix), mix);
      for (const near of neighbours(mix, most)) around.set(key(near), near);
    }
    for (const counts of around.values()) await tryCounts(counts, quick);
  } else {
    const cached = new Map<number, EncounterSpec>();
    const scaledFile = (factor: number) => {
      let file = cached.get(factor);
      if (!file) cached.set(factor, (file = withFactor(spec, content, players, factor)));
      return file;
    };
    build = (c) => scaledFile(c.factor!);
    const tryFactor = (factor: number, runs: number) => measure(`x${factor}`, () => scaledFile(factor), runs, { factor });
    planned = quick * (SCALE_STEPS + 3) + confirm * (3 + SECANT_STEPS);
    const round = (f: number) => Math.round(f * 100) / 100;
    start = await tryFactor(1, quick);
    let lo = Math.log(SCALE_RANGE.min);
    let hi = Math.log(SCALE_RANGE.max);
    const atMin = await tryFactor(SCALE_RANGE.min, quick);
    const atMax = await tryFactor(SCALE_RANGE.max, quick);
    if (atMin && atMin.wins.p <= target) beyond = true;
    else if (atMax && atMax.wins.p > target) beyond = true;
    else
      for (let i = 0; i < SCALE_STEPS && !aborted(); i++) {
        const mid = (lo + hi) / 2;
        const at = await tryFactor(round(Math.exp(mid)), quick);
        if (!at) break;
        if (at.wins.p > target) lo = mid;
        else hi = mid;
      }
  }

  // Confirm the closest few with more fights; the closest so measured is the result.
  const away =
    mode === "count"
      ? (c: BalanceCandidate) => c.counts!.reduce((s, n, i) => s + Math.abs(n - kinds[i]!.base), 0)
      : (c: BalanceCandidate) => Math.abs(Math.log(c.factor!));
  const keyOf = (c: BalanceCandidate) => (mode === "count" ? c.counts!.join(",") : `x${c.factor}`);
  const fileOf = (c: BalanceCandidate) => () => build(c);
  for (const c of closest([...measured.values()], away).slice(0, mode === "count" ? CONFIRMED : 2))
    await measure(keyOf(c), fileOf(c), confirm, mode === "count" ? { counts: c.counts } : { factor: c.factor });
  if (mode === "scale" && !beyond) {
    // The secant through the two confirmed factors nearest the target (on a log scale), twice.
    const round = (f: number) => Math.round(f * 100) / 100;
    for (let step = 0; step < SECANT_STEPS && !aborted(); step++) {
      const sure = [...measured.values()].filter((c) => c.runs >= confirm);
      const below = closest(
        sure.filter((c) => c.wins.p > target),
        away,
      )[0];
      const above = closest(
        sure.filter((c) => c.wins.p <= target),
        away,
      )[0];
      const [u, w] = below && above ? [below, above] : closest(sure, away);
      if (!u || !w || u.wins.p === w.wins.p) break;
      const [a, b] = [Math.log(u.factor!), Math.log(w.factor!)];
      const at = a + ((u.wins.p - target) / (u.wins.p - w.wins.p)) * (b - a);
      const factor = round(Math.min(SCALE_RANGE.max, Math.max(SCALE_RANGE.min, Math.exp(at))));
      if (measured.get(`x${factor}`)?.runs === confirm) break;
      await measure(`x${factor}`, () => build({ factor } as BalanceCandidate), confirm, { factor });
    }
  }
  // The file as it stands, measured as the result is, for the GM to compare.
  if (mode === "count") {
    const base = kinds.map((k) => k.base);
    await measure(base.join(","), () => build({ counts: base } as BalanceCandidate), confirm, { counts: base });
  } else await measure("x1", () => spec, confirm, { factor: 1 });
  const final = [...measured.values()];
  if (final.length === 0) throw new FrayError("FRAY.Error.ForecastNone", {}, "The balance was cancelled before any fight was played");
  const most = Math.max(...final.map((c) => c.runs));
  const best = closest(
    final.filter((c) => c.runs === most),
    away,
  )[0]!;
  start = measured.get(mode === "count" ? kinds.map((k) => k.base).join(",") : "x1") ?? start ?? best;
  return {
    name: spec.name,
    ruleset: spec.ruleset,
    mode,
    target,
    players,
    seed,
    kinds,
    best,
    start,
    tried,
    beyond,
    fights,
    complete: !aborted(),
    spec: build(best),
  };
}

/**
 * What makes two entries the same kind: everything but id and name (and what is spent of a round
 * under way), the actor a reference names compared by its content (two tokens of one actor at the
 * same state, handed over as two documents, are one kind).
 */
function kindKey(c: CombatantSpec, index: number, content?: EncounterContent): string {
  let actor: unknown = c.ref ?? null;
  if (c.ref && content) {
    const { _id: _a, _key: _b, name: _c, ...doc } = content.resolve(c.ref, `combatants[${index}].ref`);
    void [_a, _b, _c];
    actor = doc;
  }
  return JSON.stringify([c.side, actor, c.stats ?? null, c.items ?? [], c.react ?? null, c.tactics ?? null, c.group ?? null, c.extra]);
}

/**
 * The opponents of `players` by kind, in the order the file first names them.
 * @param content the compendium sources, to compare the actors references name; references are
 *   compared as written when unset.
 * @throws FrayError `FRAY.Error.Reference` naming `combatants[i].ref` when a reference names no document.
 */
export function kindsOf(spec: EncounterSpec, players: string, content?: EncounterContent): OpponentKind[] {
  const kinds = new Map<string, OpponentKind>();
  spec.combatants.forEach((c, i) => {
    if (c.side === players) return;
    const key = kindKey(c, i, content);
    const kind = kinds.get(key);
    if (kind) {
      kind.base++;
      kind.members.push(c.id);
    } else kinds.set(key, { id: c.id, name: c.name ?? c.id, side: c.side, base: 1, members: [c.id] });
  });
  return [...kinds.values()];
}

/**
 * `n` opponents shared out over the kinds in the file's proportions `base` (largest remainder,
 * ties to the kind named first).
 */
export function mixOf(base: number[], n: number): number[] {
  const total = base.reduce((a, b) => a + b, 0);
  const exact = base.map((b) => (b * n) / total);
  const out = exact.map(Math.floor);
  let left = n - out.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left-- <= 0) break;
    out[i]!++;
  }
  return out;
}

/** The mixes one opponent away from `counts`: one more, one fewer, one swapped; 1 to `most` opponents in all. */
function neighbours(counts: number[], most: number): number[][] {
  const out: number[][] = [];
  const total = counts.reduce((a, b) => a + b, 0);
  counts.forEach((_, i) => {
    if (total < most) out.push(counts.map((n, k) => (k === i ? n + 1 : n)));
    if (counts[i]! > 0 && total > 1) out.push(counts.map((n, k) => (k === i ? n - 1 : n)));
    counts.forEach((_, j) => {
      if (i !== j && counts[i]! > 0) out.push(counts.map((n, k) => (k === i ? n - 1 : k === j ? n + 1 : n)));
    });
  });
  return out;
}

/** The id of copy `j` (from 2) of the entry `id`, not taken by any entry of the file. */
function copyId(spec: EncounterSpec, id: string, j: number): string {
  let candidate = `${id}-${j}`;
  const ids = new Set(spec.combatants.map((c) => c.id));
  while (ids.has(candidate)) candidate = `${candidate}-${j}`;
  return candidate;
}

/**
 * The file with `counts[k]` opponents of each kind: the kind's first entries kept, the last
 * removed (with their round declarations, distances, initiative and the attacks and parries
 * naming them), copies of the first entry added after the kind's last (see {@link balance}).
 * Copies are kept in `copies` by id, so that every candidate plays the same entry objects.
 */
export function withCounts(
  spec: EncounterSpec,
  kinds: OpponentKind[],
  counts: number[],
  copies = new Map<string, CombatantSpec>(),
): EncounterSpec {
  const byKind = new Map<number, CombatantSpec[]>();
  const kindOf = new Map<CombatantSpec, number>();
  kinds.forEach((kind, k) => {
    const same = kind.members.map((id) => spec.combatants.find((c) => c.id === id)!);
    byKind.set(k, same);
    for (const c of same) kindOf.set(c, k);
  });
  const kept: CombatantSpec[] = [];
  const removed = new Set<string>();
  const added: { copy: CombatantSpec; of: string }[] = [];
  for (const c of spec.combatants) {
    const k = kindOf.get(c);
    if (k === undefined) {
      kept.push(c);
      continue;
    }
    const same = byKind.get(k)!;
    const index = same.indexOf(c);
    if (index < counts[k]!) kept.push(c);
    else removed.add(c.id);
    if (index === same.length - 1)
      for (let j = same.length; j < counts[k]!; j++) {
        const first = same[0]!;
        const id = copyId(spec, first.id, j + 1);
        let copy = copies.get(id);
        if (!copy) {
          const { spent: _spent, ...rest } = first;
          void _spent;
          copy = { ...rest, id, name: `${first.name ?? first.id} ${j + 1}` };
          copies.set(id, copy);
        }
        kept.push(copy);
        added.push({ copy, of: first.id });
      }
  }
  const keep = (id: string) => !removed.has(id);
  const action = (a: ActionSpec): ActionSpec => {
    const out: ActionSpec = { ...a };
    if (typeof a.attack === "string" && !keep(a.attack)) delete out.attack;
    if (a.parry && typeof a.parry === "object")
      out.parry = Object.fromEntries(Object.entries(a.parry as Record<string, number>).filter(([id]) => keep(id)));
    return out;
  };
  // An entry whose tactics attack a removed opponent chooses its target by the tactics instead.
  const combatants = kept.map((c) =>
    typeof c.tactics?.attack === "string" && !keep(c.tactics.attack) ? { ...c, tactics: action(c.tactics) } : c,
  );
  const distances: EncounterSpec["distances"] = {};
  for (const [a, row] of Object.entries(spec.distances)) {
    if (!keep(a)) continue;
    const kept = Object.fromEntries(Object.entries(row).filter(([b]) => keep(b)));
    if (Object.keys(kept).length) distances[a] = kept;
  }
  // A copy stands where its original stands.
  const between = (a: string, b: string) => spec.distances[a]?.[b] ?? spec.distances[b]?.[a];
  for (const { copy, of } of added) {
    const row: Record<string, number> = {};
    for (const other of combatants) {
      if (other === copy) continue;
      const original = added.find((x) => x.copy === other)?.of ?? other.id;
      const d = original === of ? 0 : between(of, original);
      if (d !== undefined && !(distances[other.id]?.[copy.id] !== undefined)) row[other.id] = d;
    }
    if (Object.keys(row).length) distances[copy.id] = row;
  }
  return {
    ...spec,
    combatants,
    rounds: spec.rounds.map((r) =>
      Object.fromEntries(
        Object.entries(r)
          .filter(([id]) => keep(id))
          .map(([id, a]) => [id, action(a)]),
      ),
    ),
    distances,
    initiative: Object.fromEntries(Object.entries(spec.initiative).filter(([id]) => keep(id))),
  };
}

/**
 * The file with every opponent's {@link SCALED_STATS} scaled by `factor` (./scaling.ts): each
 * opponent's `stats` laid over its actor (its reference resolved in `content`) with the scaled
 * values. The players' entries are the file's own.
 * @throws FrayError `FRAY.Error.Reference` naming `combatants[i].ref` when a reference names no document.
 */
export function withFactor(spec: EncounterSpec, content: EncounterContent, players: string, factor: number): EncounterSpec {
  if (factor === 1) return spec;
  return {
    ...spec,
    combatants: spec.combatants.map((c, i) => {
      if (c.side === players) return c;
      const base = c.ref ? ((content.resolve(c.ref, `combatants[${i}].ref`).system ?? {}) as Record<string, unknown>) : {};
      const system = mergeSystem(base, c.stats ?? {});
      return { ...c, stats: mergeSystem(c.stats ?? {}, scaledStats(spec.ruleset, system, factor)) };
    }),
  };
}
