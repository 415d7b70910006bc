/**
 * A forecast spread over workers: the tallies of contiguous ranges of fights, merged and summed
 * up, give exactly the forecast of one process (every figure bit for bit, means and damage
 * expectations included), and a cancelled part ends the fights without a gap.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ContentIndex } from "../../src/encounter/content.js";
import { parseEncounter, type EncounterSpec } from "../../src/encounter/schema.js";
import { CombatantCache } from "../../src/encounter/common.js";
import {
  chunkRuns,
  CHUNKS_PER_WORKER,
  fightSeed,
  forecast,
  forecastTally,
  mergeTallies,
  MIN_CHUNK,
  playChunks,
  splitRuns,
  tallyComplete,
  tallyForecast,
  type Forecast,
} from "../../src/forecast/forecast.js";
import { FrayError } from "../../src/rules/core/errors.js";

const root = join(import.meta.dirname, "..", "..");
const content = new ContentIndex(join(root, "packs", "_source"));
const load = (file: string): EncounterSpec => parseEncounter(parse(readFileSync(join(root, "examples", file), "utf8")));

/** Every number of a forecast, as the bits of its double, beside its path: equal lists mean bit-identical figures. */
function bits(f: Forecast): string[] {
  const out: string[] = [];
  const walk = (v: unknown, path: string) => {
    if (typeof v === "number") {
      const view = new DataView(new ArrayBuffer(8));
      view.setFloat64(0, v);
      out.push(`${path}=${view.getBigUint64(0).toString(16)}`);
    } else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`);
    else out.push(`${path}=${String(v)}`);
  };
  walk(f, "");
  return out;
}

/** The points lost per fight are whole, so their sums add exactly in any grouping. */
const wholeSums = (f: Forecast, runs: number) =>
  f.combatants.every((c) =>
    Object.values(c.damage).every((d) => Number.isSafeInteger(Math.round(d * runs)) && Math.round(d * runs) === d * runs),
  );

describe("forecast tallies", () => {
  const RUNS = 24;
  const SEED = 2_147_483_640; // near the largest seed, so that the per-fight seeds wrap inside the forecast
  for (const id of ["ud10", "hitbox", "critical", "zones"]) {
    it(`${id}-skirmish.yaml: the tallies of contiguous ranges, merged, give the single-process forecast bit for bit`, async () => {
      const spec = load(`${id}-skirmish.yaml`);
      const whole = await forecast(spec, content, { runs: RUNS, seed: SEED });
      expect(wholeSums(whole, RUNS)).toBe(true);
      // Each fight once, as a range of one: every split is a merge of these.
      const ones = await Promise.all(
        [...Array(RUNS).keys()].map((i) => forecastTally(spec, content, { runs: RUNS, seed: SEED, from: i, to: i + 1 })),
      );
      expect(ones.map((t) => [t.from, t.to, t.runs])).toEqual(ones.map((_, i) => [i, i + 1, 1]));
      const expected = bits(whole);
      const splits: number[][] = [[], [1], [12], [23], [5, 6, 17], [3, 7, 11, 15, 19], [...Array(RUNS - 1).keys()].map((i) => i + 1)];
      for (const cuts of splits) {
        const edges = [0, ...cuts, RUNS];
        const parts = edges.slice(1).map((to, k) => mergeTallies(ones.slice(edges[k]!, to)));
        const merged = tallyForecast(mergeTallies(parts), SEED, RUNS);
        expect(bits(merged), `split at ${cuts.join(", ")}`).toEqual(expected);
        expect(merged).toEqual(whole);
      }
      // A range played in one go is the merge of its fights, and its forecast is the one of its first seed.
      const range = await forecastTally(spec, content, { runs: RUNS, seed: SEED, from: 5, to: 17 });
      expect(range).toEqual(mergeTallies(ones.slice(5, 17)));
      expect(tallyForecast(range, fightSeed(SEED, 5), 12)).toEqual(await forecast(spec, content, { runs: 12, seed: fightSeed(SEED, 5) }));
    }, 60_000);
  }

  it("splits fights into nearly equal contiguous ranges, never an empty one", () => {
    expect(splitRuns(10, 3)).toEqual([
      [0, 4],
      [4, 7],
      [7, 10],
    ]);
    expect(splitRuns(10_000, 2)).toEqual([
      [0, 5000],
      [5000, 10_000],
    ]);
    expect(splitRuns(2, 8)).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(splitRuns(7, 1)).toEqual([[0, 7]]);
  });

  it("cuts a forecast into about 16 chunks per worker of at least 100 fights, never fewer chunks than workers", () => {
    const big = chunkRuns(10_000, 2);
    expect(big).toHaveLength(2 * CHUNKS_PER_WORKER);
    expect(big.every(([from, to], k) => to - from >= 312 && to - from <= 313 && from === (big[k - 1]?.[1] ?? 0))).toBe(true);
    expect(big.at(-1)![1]).toBe(10_000);
    expect(chunkRuns(1000, 2)).toEqual(Array.from({ length: 10 }, (_, k) => [k * MIN_CHUNK, (k + 1) * MIN_CHUNK]));
    expect(chunkRuns(13, 3)).toEqual(splitRuns(13, 3));
    expect(chunkRuns(2, 8)).toEqual(splitRuns(2, 8));
    expect(chunkRuns(150, 1)).toEqual([[0, 150]]);
  });

  it("plays chunks on workers that each take the next one when done: the tallies in chunk order merge into the single-process forecast", async () => {
    const spec = load("zones-burst.yaml");
    const chunks = splitRuns(60, 12);
    // One cache of built combatants for every chunk, as a worker keeps it.
    const combatants = new CombatantCache();
    const taken: [number, number][] = [];
    let othersDone = 0;
    const tallies = await playChunks(chunks, 3, async (worker, [from, to], index) => {
      taken.push([worker, index]);
      // Worker 0 is slow: its first chunk waits until the others have played eight.
      while (worker === 0 && othersDone < 8) await new Promise((r) => setTimeout(r, 2));
      await new Promise((r) => setTimeout(r, 0));
      const tally = await forecastTally(spec, content, { runs: 60, seed: 8, from, to, combatants });
      if (worker !== 0) othersDone++;
      return tally;
    });
    expect(taken.map(([, index]) => index).sort((a, b) => a - b)).toEqual(chunks.map((_, k) => k));
    // The others took the rest meanwhile: worker 0 played its first and at most the few left after the eighth.
    expect(taken.filter(([w]) => w === 0).length).toBeLessThanOrEqual(3);
    expect(tallies.map((t) => [t.from, t.to])).toEqual(chunks);
    expect(tallyForecast(mergeTallies(tallies), 8, 60)).toEqual(await forecast(spec, content, { runs: 60, seed: 8 }));
  });

  it("stops giving out chunks once stopped, and after the first error, which it throws", async () => {
    const spec = load("zones-burst.yaml");
    const chunks = splitRuns(40, 8);
    let stop = false;
    const played: number[] = [];
    const tallies = await playChunks(
      chunks,
      2,
      async (_worker, [from, to], index) => {
        played.push(index);
        if (index === 2) stop = true;
        return forecastTally(spec, content, { runs: 40, seed: 1, from, to });
      },
      () => stop,
    );
    // The chunks taken before the stop, in order from the first: a tally of the fights without a gap.
    expect(played.sort((a, b) => a - b)).toEqual([0, 1, 2]);
    expect(tallies.map((t) => [t.from, t.to])).toEqual(chunks.slice(0, 3));
    const failing = [] as number[];
    const boom = new FrayError("FRAY.Error.Field", { field: "runs", expected: "a test" }, "boom");
    let firstDone!: () => void;
    const first = new Promise<void>((r) => (firstDone = r));
    await expect(
      playChunks(chunks, 2, async (_worker, [from, to], index) => {
        failing.push(index);
        if (index === 1) throw boom;
        await new Promise((r) => setTimeout(r, 5));
        const tally = await forecastTally(spec, content, { runs: 40, seed: 1, from, to });
        if (index === 0) firstDone();
        return tally;
      }),
    ).rejects.toBe(boom);
    // Chunk 1 failed at once. Once the other worker has finished chunk 0 (and its loop has run on),
    // it has taken no further chunk.
    await first;
    await new Promise((r) => setTimeout(r, 0));
    expect(failing).toEqual([0, 1]);
  });

  it("a part cut short by a cancel ends the fights without a gap: the merge is the forecast of the fights played first", async () => {
    const spec = load("zones-burst.yaml");
    const signal = { aborted: false };
    const first = await forecastTally(spec, content, { runs: 30, seed: 3, from: 0, to: 10 });
    const cut = await forecastTally(spec, content, {
      runs: 30,
      seed: 3,
      from: 10,
      to: 20,
      progressEvery: 1,
      signal,
      onProgress: (done) => void (signal.aborted = done >= 4),
    });
    const last = await forecastTally(spec, content, { runs: 30, seed: 3, from: 20, to: 30 });
    expect([tallyComplete(first), cut.runs, tallyComplete(cut)]).toEqual([true, 4, false]);
    const merged = mergeTallies([first, cut, last]);
    expect([merged.from, merged.to, merged.runs]).toEqual([0, 30, 14]);
    const f = tallyForecast(merged, 3, 30);
    expect(f.complete).toBe(false);
    expect({ ...f, complete: true }).toEqual(await forecast(spec, content, { runs: 14, seed: 3 }));
    // A first part cancelled before any fight leaves nothing to sum up.
    const none = await forecastTally(spec, content, { runs: 30, seed: 3, from: 0, to: 10, signal: { aborted: true } });
    expect(none.runs).toBe(0);
    expect(() => tallyForecast(mergeTallies([none, cut, last]), 3, 30)).toThrow(
      expect.objectContaining({ key: "FRAY.Error.ForecastNone" }),
    );
  });

  it("refuses ranges out of bounds and tallies that do not join, naming the field", async () => {
    const spec = load("zones-burst.yaml");
    const keyOf = async (run: () => Promise<unknown>) => {
      try {
        await run();
      } catch (e) {
        return e instanceof FrayError ? `${e.key} ${String(e.data.field ?? "")}` : String(e);
      }
      return "no error";
    };
    expect(await keyOf(() => forecastTally(spec, content, { runs: 10, from: 10 }))).toMatch(/ from$/);
    expect(await keyOf(() => forecastTally(spec, content, { runs: 10, from: 4, to: 4 }))).toMatch(/ to$/);
    expect(await keyOf(() => forecastTally(spec, content, { runs: 10, to: 11 }))).toMatch(/ to$/);
    const a = await forecastTally(spec, content, { runs: 4, from: 0, to: 2 });
    const b = await forecastTally(spec, content, { runs: 4, from: 2, to: 4 });
    expect(await keyOf(async () => mergeTallies([b, a]))).toBe("FRAY.Error.Field tallies");
    expect(await keyOf(async () => mergeTallies([]))).toBe("FRAY.Error.Field tallies");
    const other = await forecastTally(load("ud10-skirmish.yaml"), content, { runs: 4, from: 2, to: 4 });
    expect(await keyOf(async () => mergeTallies([a, other]))).toBe("FRAY.Error.Field tallies");
  });
});
