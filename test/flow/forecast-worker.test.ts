/**
 * The forecast's Web Worker: its message handler (src/foundry/forecast/worker.ts) and the built
 * `dist/forecast-worker.mjs` run in a Node worker thread give the same forecast as `forecast()`
 * in process for the same combat state and seed, report progress, and stop on a cancel; a range
 * of the fights gives that range's tally; and a pool of workers (src/foundry/forecast/pool.ts),
 * each given a range, gives the very forecast of one process, its progress summed and a cancel
 * reaching every worker. The built worker also runs as a module Web Worker in headless Chromium
 * (Debian's /usr/bin/chromium; `.ci/run` installs it), where a cancel posted mid-run stops it.
 */
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { chromium } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ContentIndex } from "../../src/encounter/content.js";
import { parseEncounter } from "../../src/encounter/schema.js";
import { PackContent } from "../../src/encounter/library.js";
import { chunkRuns, fightSeed, forecast, forecastTally, mergeTallies, tallyForecast } from "../../src/forecast/forecast.js";
import type { ActorSource } from "../../src/rules/core/sources.js";
import { ud10, ud10CombatantFromActor } from "../../src/rules/ud10/index.js";
import { forecastInput, type ForecastBinding, type ForecastInput } from "../../src/foundry/logic/forecast-state.js";
import { forecastWorker, type ForecastReply, type ForecastRequest } from "../../src/foundry/forecast/worker.js";
import {
  POOL_IDLE_MS,
  poolSize,
  runPool,
  WARM_RUNS,
  WorkerPool,
  type PoolTimers,
  type PoolWorker,
} from "../../src/foundry/forecast/pool.js";

const ROOT = join(import.meta.dirname, "..", "..");
const packs = new ContentIndex(join(ROOT, "packs", "_source"));
const npc = (name: string) => packs.resolve(`ud10-npcs/${name}`, "test") as unknown as ActorSource;
const binding: ForecastBinding = {
  id: "ud10",
  combatantFromActor: ud10CombatantFromActor,
  ruleset: ud10 as unknown as ForecastBinding["ruleset"],
};

/** A Veteran and a Guard side by side against two Thugs, one 9 m off. */
function input(): ForecastInput {
  return forecastInput(
    {
      name: "Yard",
      ruleset: "ud10",
      options: ud10.defaults(),
      round: 1,
      combatants: [
        { id: "vet", name: "Veteran", actor: npc("Veteran"), disposition: 1, defeated: false },
        { id: "guard", name: "Guard", actor: npc("Guard"), disposition: 1, defeated: false },
        { id: "thug1", name: "Thug", actor: npc("Thug"), disposition: -1, defeated: false },
        { id: "thug2", name: "Thug", actor: npc("Thug"), disposition: -1, defeated: false },
      ],
      distances: { vet: { thug1: 1.5, thug2: 9 }, guard: { thug1: 3, thug2: 9 } },
    },
    binding,
  );
}

/** A run request as the client posts it (structured-cloned, as postMessage does). */
const request = (i: ForecastInput, runs: number, seed: number, id = "f1", range: { from?: number; to?: number } = {}): ForecastRequest =>
  structuredClone({ type: "run", id, file: i.file, packs: i.packs, runs, seed, progressEvery: 10, ...range });

/**
 * A worker of the pool played by the message handler in this thread, as a browser plays it: each
 * message structured-cloned and delivered on a later turn of the event loop. Its requests and
 * whether it was terminated are recorded in `log`.
 */
function handlerWorker(
  log: { requests: ForecastRequest[]; terminated: boolean; done: number }[],
  hold: () => boolean = () => false,
): PoolWorker {
  const entry = { requests: [] as ForecastRequest[], terminated: false, done: 0 };
  log.push(entry);
  // A held worker (`hold()` true) starts no run until it is let go; a cancel reaches it at once.
  const start = (m: ForecastRequest) => (m.type === "run" && hold() ? setTimeout(() => start(m), 2) : void handle(m));
  const w: PoolWorker = {
    onmessage: null,
    onerror: null,
    postMessage: (m) => {
      entry.requests.push(structuredClone(m));
      const copy = structuredClone(m);
      setTimeout(() => start(copy), 0);
    },
    terminate: () => void (entry.terminated = true),
  };
  const handle = forecastWorker((r) => {
    const reply = structuredClone(r);
    if (reply.type === "done") entry.done++;
    if (!entry.terminated) setTimeout(() => w.onmessage?.({ data: reply }), 0);
  });
  return w;
}

const bundle = join(ROOT, "dist", "forecast-worker.mjs");

/** The built worker bundle in a Node worker thread with the scope a browser gives (`postMessage` out, `onmessage` in); posts `ready` once loaded. */
function bundleThread(): Worker {
  const shim = `
    const { parentPort } = require("node:worker_threads");
    globalThis.postMessage = (m) => parentPort.postMessage(m);
    parentPort.on("message", (m) => globalThis.onmessage && globalThis.onmessage({ data: m }));
    import(${JSON.stringify(pathToFileURL(bundle).href)}).then(() => parentPort.postMessage({ type: "ready" }));`;
  return new Worker(shim, { eval: true });
}

describe("forecast worker", () => {
  it("UD-ACT-01: the handler gives the in-process forecast's numbers for the same state and seed, with progress", async () => {
    const i = input();
    const replies: ForecastReply[] = [];
    await forecastWorker((r) => replies.push(r))(request(i, 60, 123));
    const expected = await forecast(parseEncounter(i.file), new PackContent(i.packs), { runs: 60, seed: 123 });
    const done = replies.at(-1);
    expect(done?.type).toBe("done");
    expect(done?.type === "done" && done.forecast).toEqual(expected);
    expect(replies.filter((r) => r.type === "progress").map((r) => (r.type === "progress" ? r.done : 0))).toEqual([10, 20, 30, 40, 50, 60]);
    // Another seed plays other fights.
    const other = await forecast(parseEncounter(i.file), new PackContent(i.packs), { runs: 60, seed: 124 });
    expect(other.rounds.counts).not.toEqual(expected.rounds.counts);
  });

  it("UD-ACT-01: a cancel stops the run after the fights played, whose figures come back", async () => {
    const i = input();
    const replies: ForecastReply[] = [];
    const handle = forecastWorker((r) => {
      replies.push(r);
      if (r.type === "progress" && r.done === 20) void handle({ type: "cancel", id: "f1" });
    });
    await handle(request(i, 500, 5));
    const done = replies.at(-1);
    expect(done?.type === "done" && [done.forecast?.runs, done.forecast?.complete]).toEqual([20, false]);
    const first20 = await forecast(parseEncounter(i.file), new PackContent(i.packs), { runs: 20, seed: 5 });
    expect(done?.type === "done" && done.forecast?.sides).toEqual(first20.sides);
  });

  it("UD-ACT-01: bad runs come back as a localized error naming the field", async () => {
    const replies: ForecastReply[] = [];
    await forecastWorker((r) => replies.push(r))(request(input(), 0, 1));
    expect(replies).toEqual([
      expect.objectContaining({ type: "error", key: "FRAY.Error.Input.IntegerRange", data: expect.objectContaining({ field: "runs" }) }),
    ]);
  });

  it("UD-ACT-01: the built worker bundle in a worker thread gives the same forecast", async () => {
    if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run "npm run build" first.`);
    const i = input();
    // The worker scope a browser gives: `postMessage` out, `onmessage` in.
    const shim = `
      const { parentPort } = require("node:worker_threads");
      globalThis.postMessage = (m) => parentPort.postMessage(m);
      parentPort.on("message", (m) => globalThis.onmessage && globalThis.onmessage({ data: m }));
      import(${JSON.stringify(pathToFileURL(bundle).href)}).then(() => parentPort.postMessage({ type: "ready" }));`;
    const worker = new Worker(shim, { eval: true });
    try {
      const replies = await new Promise<ForecastReply[]>((resolve, reject) => {
        const got: ForecastReply[] = [];
        worker.on("error", reject);
        worker.on("message", (m: ForecastReply | { type: "ready" }) => {
          if (m.type === "ready") worker.postMessage(request(i, 50, 99));
          else got.push(m);
          if (m.type === "done" || m.type === "error") resolve(got);
        });
      });
      const expected = await forecast(parseEncounter(i.file), new PackContent(i.packs), { runs: 50, seed: 99 });
      const done = replies.at(-1);
      expect(done?.type === "done" && done.forecast).toEqual(expected);
      expect(replies.filter((r) => r.type === "progress")).toHaveLength(5);
    } finally {
      await worker.terminate();
    }
  }, 60_000);

  it("UD-ACT-01: a range of the fights gives that range's tally, its progress counted in the range", async () => {
    const i = input();
    const replies: ForecastReply[] = [];
    await forecastWorker((r) => replies.push(r))(request(i, 60, 123, "f1", { from: 20, to: 45 }));
    const spec = parseEncounter(i.file);
    const content = new PackContent(i.packs);
    const done = replies.at(-1);
    expect(done?.type === "done" && done.tally).toEqual(await forecastTally(spec, content, { runs: 60, seed: 123, from: 20, to: 45 }));
    // Its forecast is the one of its fights alone: base seed the range's first fight's.
    expect(done?.type === "done" && done.forecast).toEqual(await forecast(spec, content, { runs: 25, seed: fightSeed(123, 20) }));
    expect(replies.filter((r) => r.type === "progress").map((r) => (r.type === "progress" ? [r.done, r.runs] : []))).toEqual([
      [10, 25],
      [20, 25],
      [25, 25],
    ]);
  });

  it("UD-ACT-01: a pool of three workers gives the single-process forecast, its progress summed", async () => {
    const i = input();
    const spawned: { requests: ForecastRequest[]; terminated: boolean; done: number }[] = [];
    const progress: number[] = [];
    const run = runPool(
      { file: i.file, packs: i.packs, runs: 50, seed: 99, progressEvery: 5 },
      { id: "p1", size: 3, spawn: () => handlerWorker(spawned), onProgress: (done, runs) => void progress.push(done, runs) },
    );
    const result = await run.result;
    expect(result).toEqual(await forecast(parseEncounter(i.file), new PackContent(i.packs), { runs: 50, seed: 99 }));
    expect(spawned.map((w) => w.requests.map((r) => (r.type === "run" ? [r.from, r.to] : r.type)))).toEqual([
      [[0, 17]],
      [[17, 34]],
      [[34, 50]],
    ]);
    expect(spawned.every((w) => w.terminated)).toBe(true);
    const dones = progress.filter((_, k) => k % 2 === 0);
    expect(dones.at(-1)).toBe(50);
    expect(progress.filter((_, k) => k % 2 === 1).every((n) => n === 50)).toBe(true);
    expect(dones.every((d, k) => k === 0 || d >= dones[k - 1]!)).toBe(true);
  });

  it("UD-ACT-01: a cancel reaches every worker of the pool; the fights played from fight 0 without a gap come back", async () => {
    const i = input();
    const spawned: { requests: ForecastRequest[]; terminated: boolean; done: number }[] = [];
    const run = runPool(
      { file: i.file, packs: i.packs, runs: 600, seed: 5, progressEvery: 1 },
      { id: "p2", size: 2, spawn: () => handlerWorker(spawned), onProgress: (done) => void (done >= 10 && run.cancel()) },
    );
    const result = await run.result;
    expect(spawned.map((w) => w.requests.filter((r) => r.type === "cancel").length > 0)).toEqual([true, true]);
    expect(result.complete).toBe(false);
    expect(result.runs).toBeGreaterThan(0);
    expect(result.runs).toBeLessThan(300);
    // The first worker was cut short, so only its fights count: the forecast of the first ones.
    const first = await forecast(parseEncounter(i.file), new PackContent(i.packs), { runs: result.runs, seed: 5 });
    expect({ ...result, complete: true }).toEqual(first);
  });

  it("UD-ACT-01: the pool gives out chunks as workers finish: a slow worker plays fewer, each chunk once, in a worker that checks the file once", async () => {
    const i = input();
    const spawned: { requests: ForecastRequest[]; terminated: boolean; done: number }[] = [];
    // 1,000 fights on two workers: ten chunks of 100 (MIN_CHUNK). The first worker is held until
    // the second has played five chunks: slow, whatever the machine's speed.
    expect(chunkRuns(1000, 2)).toEqual(Array.from({ length: 10 }, (_, k) => [k * 100, k * 100 + 100]));
    const progress: number[] = [];
    const run = runPool(
      { file: i.file, packs: i.packs, runs: 1000, seed: 9 },
      {
        id: "d1",
        size: 2,
        spawn: () => handlerWorker(spawned, spawned.length === 0 ? () => (spawned[1]?.done ?? 0) < 5 : undefined),
        onProgress: (d) => void progress.push(d),
      },
    );
    const result = await run.result;
    expect(result).toEqual(await forecast(parseEncounter(i.file), new PackContent(i.packs), { runs: 1000, seed: 9 }));
    const runs = spawned.map((w) => w.requests.flatMap((r) => (r.type === "run" ? [r] : [])));
    // Every chunk played once, each under its own id and the forecast's one name for reuse.
    const played = runs.flat().sort((a, b) => a.from! - b.from!);
    expect(played.map((r) => [r.id, r.from, r.to, r.reuse])).toEqual(
      chunkRuns(1000, 2).map(([from, to], k) => [`d1/${k}`, from, to, played[0]!.reuse]),
    );
    // The file and packs go with each worker's first chunk only.
    expect(runs.map((w) => w.map((r) => r.packs !== undefined && r.file !== undefined))).toEqual(runs.map((w) => w.map((_, j) => j === 0)));
    // The held worker played its first chunk only after the other had played five, and then at most the remaining few.
    expect(runs[0]!.length).toBeGreaterThanOrEqual(1);
    expect(runs[0]!.length).toBeLessThanOrEqual(4);
    expect(runs[1]!.length).toBeGreaterThanOrEqual(6);
    expect(progress.at(-1)).toBe(1000);
    // A worker handed a chunk under the name of its last one reuses its set-up: the file is not
    // read again (here a file the schema would refuse), and the fights are the same.
    const replies: ForecastReply[] = [];
    const handle = forecastWorker((r) => void replies.push(r));
    await handle({ type: "run", id: "r/0", reuse: "r#1", file: i.file, packs: i.packs, runs: 40, seed: 3, from: 0, to: 20 });
    await handle({ type: "run", id: "r/1", reuse: "r#1", file: { broken: true }, packs: [], runs: 40, seed: 3, from: 20, to: 40 });
    const tallies = replies.flatMap((r) => (r.type === "done" ? [r.tally] : []));
    expect(tallies.map((t) => [t.from, t.to, t.runs])).toEqual([
      [0, 20, 20],
      [20, 40, 20],
    ]);
    expect(tallyForecast(mergeTallies(tallies), 3, 40)).toEqual(
      await forecast(parseEncounter(i.file), new PackContent(i.packs), { runs: 40, seed: 3 }),
    );
    // Under another name the file is read again, and refused.
    await handle({ type: "run", id: "r/2", reuse: "r#2", file: { broken: true }, packs: [], runs: 40, seed: 3, from: 0, to: 20 });
    expect(replies.at(-1)).toMatchObject({ type: "error", id: "r/2" });
    // A chunk without its file and packs under a name the worker does not hold is refused, naming the field.
    await handle({ type: "run", id: "r/3", reuse: "r#3", file: undefined, runs: 40, seed: 3, from: 20, to: 40 });
    expect(replies.at(-1)).toMatchObject({ type: "error", id: "r/3", key: "FRAY.Error.Field", data: { field: "packs" } });
  });

  it("UD-ACT-01: a worker's error rejects the pool's result, with every worker terminated", async () => {
    const i = input();
    const spawned: { requests: ForecastRequest[]; terminated: boolean; done: number }[] = [];
    const run = runPool(
      { file: { ...(i.file as object), combatants: [] }, packs: i.packs, runs: 20, seed: 1 },
      { id: "p3", size: 2, spawn: () => handlerWorker(spawned) },
    );
    await expect(run.result).rejects.toMatchObject({ key: expect.stringMatching(/^FRAY\.Error\./) });
    expect(spawned.every((w) => w.terminated)).toBe(true);
  });

  /** Timers the test fires by hand: the pending one's delay, and `fire()` to run it. */
  function manualTimers(): PoolTimers & { pending: () => number | undefined; fire: () => void } {
    let next: { run: () => void; ms: number } | undefined;
    return {
      set: (run, ms) => (next = { run, ms }),
      clear: (handle) => void (next === handle && (next = undefined)),
      pending: () => next?.ms,
      fire: () => {
        const t = next;
        next = undefined;
        t?.run();
      },
    };
  }

  it("UD-ACT-01: a kept pool plays the next forecast in the same workers, with the forecast a fresh process gives", async () => {
    const i = input();
    const spawned: { requests: ForecastRequest[]; terminated: boolean; done: number }[] = [];
    const timers = manualTimers();
    const pool = new WorkerPool({ size: 2, spawn: () => handlerWorker(spawned), timers });
    const first = await pool.run({ file: i.file, packs: i.packs, runs: 30, seed: 4 }, { id: "k1" }).result;
    expect(pool.kept).toBe(2);
    expect(timers.pending()).toBe(POOL_IDLE_MS);
    const progress: number[] = [];
    const second = await pool.run(
      { file: i.file, packs: i.packs, runs: 24, seed: 8, progressEvery: 4 },
      { id: "k2", onProgress: (d) => void progress.push(d) },
    ).result;
    // Two workers started in all, none terminated; so few fights make one chunk per worker, each
    // named for reuse by its own forecast.
    expect(spawned.map((w) => w.requests.map((r) => (r.type === "run" ? `${r.id} ${r.from}-${r.to} ${r.reuse}` : r.type)))).toEqual([
      ["k1/0 0-15 k1#1", "k2/1 12-24 k2#2"],
      ["k1/1 15-30 k1#1", "k2/0 0-12 k2#2"],
    ]);
    expect(spawned.some((w) => w.terminated)).toBe(false);
    const content = new PackContent(i.packs);
    expect(first).toEqual(await forecast(parseEncounter(i.file), content, { runs: 30, seed: 4 }));
    expect(second).toEqual(await forecast(parseEncounter(i.file), content, { runs: 24, seed: 8 }));
    expect(progress.at(-1)).toBe(24);
    // Idle for POOL_IDLE_MS: the kept workers are terminated, and the next forecast starts new ones.
    timers.fire();
    expect(pool.kept).toBe(0);
    expect(spawned.map((w) => w.terminated)).toEqual([true, true]);
    await pool.run({ file: i.file, packs: i.packs, runs: 4, seed: 1 }, { id: "k3" }).result;
    expect(spawned.length).toBe(4);
    pool.dispose();
    expect(spawned.map((w) => w.terminated)).toEqual([true, true, true, true]);
    expect(timers.pending()).toBeUndefined();
  });

  it("UD-ACT-01: a kept pool keeps the workers that answered, up to its size, and no worker after dispose", async () => {
    const i = input();
    const spawned: { requests: ForecastRequest[]; terminated: boolean; done: number }[] = [];
    const pool = new WorkerPool({ size: 2, spawn: () => handlerWorker(spawned), timers: manualTimers() });
    // Two forecasts at once: four workers, two kept once both are settled.
    const a = pool.run({ file: i.file, packs: i.packs, runs: 10, seed: 1 }, { id: "c1" });
    const b = pool.run({ file: i.file, packs: i.packs, runs: 10, seed: 2 }, { id: "c2" });
    await Promise.all([a.result, b.result]);
    expect(spawned.length).toBe(4);
    expect(pool.kept).toBe(2);
    expect(spawned.filter((w) => w.terminated).length).toBe(2);
    // A file the runner refuses: the first error settles the forecast; the worker that answered
    // is sound and kept, the other one, not heard from yet, is terminated.
    await expect(
      pool.run({ file: { ...(i.file as object), combatants: [] }, packs: i.packs, runs: 4, seed: 1 }, { id: "c3" }).result,
    ).rejects.toMatchObject({
      key: expect.stringMatching(/^FRAY\.Error\./),
    });
    expect(pool.kept).toBe(1);
    expect(spawned.filter((w) => w.terminated).length).toBe(3);
    // A worker that fails (an error event) is terminated, not kept.
    const failing: PoolWorker = {
      onmessage: null,
      onerror: null,
      postMessage() {
        setTimeout(() => failing.onerror?.({ message: "boom" }), 0);
      },
      terminate: () => void (failingTerminated = true),
    };
    let failingTerminated = false;
    const lone = new WorkerPool({ size: 1, spawn: () => failing, timers: manualTimers() });
    await expect(lone.run({ file: i.file, packs: i.packs, runs: 3, seed: 1 }, { id: "c4" }).result).rejects.toThrow("boom");
    expect(failingTerminated).toBe(true);
    expect(lone.kept).toBe(0);
    // After dispose, a forecast still runs, and its workers are terminated once it is settled.
    pool.dispose();
    expect(pool.kept).toBe(0);
    await pool.run({ file: i.file, packs: i.packs, runs: 4, seed: 1 }, { id: "c5" }).result;
    expect(pool.kept).toBe(0);
    expect(spawned.every((w) => w.terminated)).toBe(true);
  });

  it("UD-ACT-01: a kept pool ignores a late reply to an earlier forecast, drops a worker that fails while idle, and recovers from one that cannot start", async () => {
    const i = input();
    const spawned: { requests: ForecastRequest[]; terminated: boolean; done: number }[] = [];
    const workers: PoolWorker[] = [];
    const terminations: number[] = [];
    let refuse = false;
    const spawn = (): PoolWorker => {
      if (refuse) throw new Error("refused script");
      const w = handlerWorker(spawned);
      const k = workers.push(w) - 1;
      terminations[k] = 0;
      const terminate = w.terminate;
      w.terminate = () => {
        terminations[k]!++;
        terminate();
      };
      return w;
    };
    const timers = manualTimers();
    const pool = new WorkerPool({ size: 2, spawn, timers });
    const request = { file: i.file, packs: i.packs, runs: 10, seed: 3 };
    const expected = await forecast(parseEncounter(i.file), new PackContent(i.packs), { runs: 10, seed: 3 });
    const first = await pool.run(request, { id: "s1" }).result;
    expect(first).toEqual(expected);
    // A late reply of the first forecast reaches a kept worker during the next: ignored.
    const run = pool.run(request, { id: "s2" });
    workers[0]!.onmessage?.({ data: { type: "done", id: "s1", tally: { runs: 99 } as never } });
    workers[1]!.onmessage?.({ data: { type: "error", id: "s1", key: "FRAY.Error.Unexpected", data: {}, message: "stale" } });
    expect(await run.result).toEqual(expected);
    expect(workers.length).toBe(2);
    // A kept worker that fails while idle is dropped and terminated, once.
    expect(pool.kept).toBe(2);
    workers[1]!.onerror?.({ message: "gone" });
    expect(pool.kept).toBe(1);
    expect(terminations).toEqual([0, 1]);
    // A worker that cannot start: the forecast rejects; the kept worker is kept again, its timer running.
    refuse = true;
    await expect(pool.run(request, { id: "s3" }).result).rejects.toThrow("refused script");
    expect(pool.kept).toBe(1);
    expect(timers.pending()).toBe(POOL_IDLE_MS);
    refuse = false;
    expect(await pool.run(request, { id: "s4" }).result).toEqual(expected);
    pool.dispose();
    // Every worker terminated exactly once in the end.
    expect(terminations).toEqual([1, 1, 1]);
  });

  it("UD-ACT-01: a pool warmed ahead starts its workers on a short forecast of the same file, which the forecast then cancels; the forecast is the one a fresh process gives", async () => {
    const i = input();
    const spawned: { requests: ForecastRequest[]; terminated: boolean; done: number }[] = [];
    const timers = manualTimers();
    const pool = new WorkerPool({ size: 2, spawn: () => handlerWorker(spawned), timers });
    pool.warm({ file: i.file, packs: i.packs, seed: 1 });
    expect(pool.kept).toBe(2);
    expect(timers.pending()).toBe(POOL_IDLE_MS);
    const warmRun = spawned.map((w) => w.requests.map((r) => (r.type === "run" ? [r.id, r.runs] : [r.type, r.id])));
    expect(warmRun).toEqual([[["warm-1", WARM_RUNS]], [["warm-1", WARM_RUNS]]]);
    const result = await pool.run({ file: i.file, packs: i.packs, runs: 20, seed: 6 }, { id: "w1" }).result;
    expect(result).toEqual(await forecast(parseEncounter(i.file), new PackContent(i.packs), { runs: 20, seed: 6 }));
    // Each worker: the warm-up, its cancel, then its range of the forecast; no new worker.
    expect(
      spawned.map((w) => w.requests.map((r) => (r.type === "run" ? `${r.id} ${r.from ?? 0}-${r.to ?? r.runs}` : `${r.type} ${r.id}`))),
    ).toEqual([
      ["warm-1 0-1000", "cancel warm-1", "w1/1 10-20"],
      ["warm-1 0-1000", "cancel warm-1", "w1/0 0-10"],
    ]);
    // A second warm-up reuses the kept workers; a third stops the second first.
    pool.warm({ file: i.file, packs: i.packs, seed: 1 });
    pool.warm({ file: i.file, packs: i.packs, seed: 1 });
    expect(spawned.length).toBe(2);
    expect(spawned.map((w) => w.requests.slice(3).map((r) => `${r.type} ${r.id}`))).toEqual([
      ["run warm-2", "cancel warm-2", "run warm-3"],
      ["run warm-2", "cancel warm-2", "run warm-3"],
    ]);
    // After dispose, warming starts none.
    pool.dispose();
    pool.warm({ file: i.file, packs: i.packs, seed: 1 });
    expect(spawned.length).toBe(2);
    expect(spawned.every((w) => w.terminated)).toBe(true);
    // A pool that keeps no workers does not warm.
    const once = new WorkerPool({ size: 2, spawn: () => handlerWorker(spawned), idleMs: 0 });
    once.warm({ file: i.file, packs: i.packs, seed: 1 });
    expect(spawned.length).toBe(2);
  });

  it("sizes the pool one fewer than the cores, 1 to 8", () => {
    expect([undefined, 0, 1, 2, 4, 12, 64].map(poolSize)).toEqual([1, 1, 1, 1, 3, 8, 8]);
  });

  it("UD-ACT-01: a pool of the built worker bundle in worker threads gives the single-process forecast", async () => {
    if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run "npm run build" first.`);
    const i = input();
    const threads: Worker[] = [];
    const spawn = (): PoolWorker => {
      const thread = bundleThread();
      threads.push(thread);
      // A browser holds a module worker's messages until its module has run; so does this queue.
      let queue: ForecastRequest[] | undefined = [];
      const w: PoolWorker = {
        onmessage: null,
        onerror: null,
        postMessage: (m) => (queue ? queue.push(m) : thread.postMessage(m)),
        terminate: () => void thread.terminate(),
      };
      thread.on("message", (m: ForecastReply | { type: "ready" }) => {
        if (m.type !== "ready") return w.onmessage?.({ data: m });
        for (const q of queue ?? []) thread.postMessage(q);
        queue = undefined;
      });
      thread.on("error", (e: Error) => w.onerror?.({ message: e.message }));
      return w;
    };
    try {
      const run = runPool({ file: i.file, packs: i.packs, runs: 40, seed: 31 }, { id: "p4", size: 2, spawn });
      expect(await run.result).toEqual(await forecast(parseEncounter(i.file), new PackContent(i.packs), { runs: 40, seed: 31 }));
    } finally {
      await Promise.all(threads.map((t) => t.terminate()));
    }
  }, 60_000);
});

const CHROMIUM = "/usr/bin/chromium";
if (!existsSync(CHROMIUM) && process.env.CI !== "true")
  console.warn(`forecast-worker.test: ${CHROMIUM} is missing; skipping the Chromium case. Install it with: apt-get install -y chromium`);

describe.skipIf(!existsSync(CHROMIUM) && process.env.CI !== "true")("forecast worker in Chromium", () => {
  it("UD-ACT-01: the built worker, a module Web Worker in headless Chromium, stops on a cancel posted after its first progress", async () => {
    if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run "npm run build" first.`);
    const i = input();
    const code = readFileSync(bundle, "utf8");
    // The page and the worker bundle from one origin on 127.0.0.1 (a module worker needs one).
    const server = createServer((req, res) => {
      if (req.url === "/forecast-worker.mjs") res.writeHead(200, { "content-type": "text/javascript" }).end(code);
      else res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>worker</title>");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu"] });
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      // Written as page source: this file's `Worker` is node:worker_threads'.
      const req = request(i, 100_000, 7);
      const replies = (await page.evaluate(`new Promise((resolve, reject) => {
        const worker = new Worker("/forecast-worker.mjs", { type: "module" });
        const got = [];
        worker.onerror = (e) => reject(new Error(e.message));
        worker.onmessage = (event) => {
          const m = event.data;
          got.push(m);
          // The cancel comes in as the GM's click does: a message, while the worker plays on.
          if (m.type === "progress" && m.done === 10) worker.postMessage({ type: "cancel", id: ${JSON.stringify(req.type === "run" ? req.id : "")} });
          if (m.type === "done" || m.type === "error") {
            worker.terminate();
            resolve(got);
          }
        };
        worker.postMessage(${JSON.stringify(req)});
      })`)) as ForecastReply[];
      const done = replies.at(-1);
      expect(done?.type).toBe("done");
      const runs = done?.type === "done" ? (done.forecast?.runs ?? 0) : 0;
      // Stopped within a few progress steps of the cancel, not after the 100,000 fights asked for.
      expect(runs).toBeGreaterThanOrEqual(10);
      expect(runs).toBeLessThan(1000);
      const played = await forecast(parseEncounter(i.file), new PackContent(i.packs), { runs, seed: 7 });
      expect(done?.type === "done" && done.forecast).toEqual({ ...played, complete: false });
    } finally {
      await browser.close();
      server.close();
    }
  }, 60_000);
});
