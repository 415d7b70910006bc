/**
 * A forecast spread over a pool of forecast workers (each a Web Worker running
 * `dist/forecast-worker.mjs`, see worker.ts): the fights are cut into contiguous chunks
 * (`chunkRuns`), each worker taking the next one as soon as it is done with its last
 * (`playChunks`); the progress of all of them is summed; a cancel reaches every worker; and the
 * tallies the chunks hand back are merged in order and summed up (src/forecast/tally.ts) into
 * exactly the forecast one worker, or `npm run forecast`, gives for the same file and seed.
 *
 * Pure (no Foundry globals, no DOM): the dialog passes how to start a worker, tests pass workers
 * of their own.
 */
import { FrayError } from "../../rules/core/errors.js";
import { chunkRuns, mergeTallies, playChunks, tallyForecast, type Forecast, type Tally } from "../../forecast/tally.js";
import type { ForecastReply, ForecastRequest } from "./worker.js";

/** The most workers a pool starts. */
export const MAX_POOL = 8;

/** What the pool needs of a worker: a Web Worker's `postMessage`, `onmessage`, `onerror` and `terminate`. */
export interface PoolWorker {
  postMessage(message: ForecastRequest): void;
  onmessage: ((event: { data: ForecastReply }) => void) | null;
  onerror: ((event: { message?: string }) => void) | null;
  terminate(): void;
}

/**
 * The workers a pool starts on a machine with `cores` logical processors (the browser's
 * `navigator.hardwareConcurrency`): one fewer than the cores, leaving one to the page, at least
 * 1 and at most {@link MAX_POOL}; 1 when unknown.
 */
export function poolSize(cores: number | undefined): number {
  if (!cores || !Number.isFinite(cores)) return 1;
  return Math.max(1, Math.min(MAX_POOL, Math.floor(cores) - 1));
}

/** A forecast request for a pool: a `run` request's file, packs, runs, seed and progress step (the pool adds the id and the ranges). */
export type PoolRequest = Pick<Extract<ForecastRequest, { type: "run" }>, "file" | "runs" | "seed" | "progressEvery"> &
  Required<Pick<Extract<ForecastRequest, { type: "run" }>, "packs">>;

/** A forecast under way in a pool. */
export interface PoolRun {
  /**
   * The forecast: the merged tallies of all workers, summed up. After a cancel, the fights played
   * without a gap from fight 0 on (`complete: false`; see `mergeTallies`).
   * @throws FrayError the first error a worker replied (bad runs or seed, a file the encounter
   *   runner refuses), `FRAY.Error.ForecastNone` when cancelled before any fight counted, or an
   *   Error when a worker failed to load.
   */
  result: Promise<Forecast>;
  /** Asks every worker to stop after the fight under way. */
  cancel(): void;
}

/** Fights each worker plays when the pool warms up ({@link WorkerPool.warm}): enough for V8 to compile the hot code. */
export const WARM_RUNS = 1_000;

/** How long a kept worker may wait idle before the pool terminates it: three minutes. */
export const POOL_IDLE_MS = 180_000;

/** Timer functions a {@link WorkerPool} uses to let idle workers go; the global ones by default. */
export interface PoolTimers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** How a {@link WorkerPool} starts and keeps its workers. */
export interface WorkerPoolOptions {
  /** Workers a forecast uses (1 to {@link MAX_POOL}; fewer when there are fewer fights) and the pool keeps at most. */
  size: number;
  /** Starts a worker. */
  spawn: () => PoolWorker;
  /**
   * Milliseconds a worker is kept idle after a forecast, for the next one; {@link POOL_IDLE_MS}
   * when unset. 0 keeps none: each forecast's workers are terminated once it is settled.
   */
  idleMs?: number;
  /** `setTimeout` and `clearTimeout` when unset. */
  timers?: PoolTimers;
}

const GLOBAL_TIMERS: PoolTimers = {
  set: (run, ms) => globalThis.setTimeout(run, ms),
  clear: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * A pool of forecast workers kept between forecasts. A forecast takes the kept workers first and
 * starts the others it needs; once it is settled, its workers that answered (`done`, or a
 * FrayError of the file) wait idle for the next forecast, up to `size` of them, and are
 * terminated after `idleMs` without one. A worker is started once: a forecast in a kept worker
 * skips the module's load and the compile of the hot code, so that a GM who forecasts again after
 * moving a token waits about a third less (docs/performance.md, "The fourth pass"). A worker that failed
 * (`error` event) or did not answer (a forecast rejected by another worker's error) is terminated,
 * not kept. Replies carry the forecast's id: a kept worker's late reply to an earlier forecast is
 * ignored.
 */
export class WorkerPool {
  private readonly idle: PoolWorker[] = [];
  /** The warm-up run each kept worker may still be playing, by worker ({@link warm}). */
  private readonly warming = new Map<PoolWorker, string>();
  private warmings = 0;
  /** Forecasts run so far: names each one's set-up for reuse in its workers. */
  private runs = 0;
  private timer: unknown;
  private disposed = false;
  private readonly timers: PoolTimers;

  constructor(private readonly options: WorkerPoolOptions) {
    this.timers = options.timers ?? GLOBAL_TIMERS;
  }

  /** Workers a forecast uses: `size`, whole, from 1 to {@link MAX_POOL}. */
  get size(): number {
    return Math.max(1, Math.min(MAX_POOL, Math.floor(this.options.size) || 1));
  }

  /** Workers kept idle now. */
  get kept(): number {
    return this.idle.length;
  }

  /**
   * Runs a forecast in up to {@link size} workers (fewer when there are fewer fights), the kept
   * ones first. The fights are cut into contiguous chunks (`chunkRuns`, about 16 per worker) and
   * each worker takes the next chunk as soon as it has played its last (`playChunks`), so that a
   * worker slowed by its compile or by a busy core does not hold up the end. Each chunk is a `run`
   * under the id `<id>/<chunk>`, named for reuse by this forecast so that a worker checks the file
   * and builds the combatants once (the file and packs go with a worker's first chunk only); the
   * chunks' tallies merge into the forecast one worker gives.
   * @param onProgress called with the fights done over all workers and the fights asked for.
   */
  run(request: PoolRequest, options: { id: string; onProgress?: (done: number, runs: number) => void }): PoolRun {
    this.stopTimer();
    const chunks = chunkRuns(request.runs, this.size);
    const count = Math.min(this.size, chunks.length);
    const workers: PoolWorker[] = [];
    try {
      for (let k = 0; k < count; k++) {
        const kept = this.idle.pop();
        // What is left of its warm-up stops after the fight under way; its replies are not this run's.
        const warm = kept && this.warming.get(kept);
        if (kept && warm) {
          kept.postMessage({ type: "cancel", id: warm });
          this.warming.delete(kept);
        }
        workers.push(kept ?? this.options.spawn());
      }
    } catch (error) {
      // A worker that cannot start (a refused script): those taken or started so far are kept for the next forecast.
      this.release(
        workers,
        workers.map(() => true),
      );
      return { result: Promise.reject(error instanceof Error ? error : new Error(String(error))), cancel: () => undefined };
    }
    // The forecast's name for reuse, new for each run of the pool: a kept worker never reuses an earlier forecast's set-up.
    const reuse = `${options.id}#${++this.runs}`;
    // Fights done in each chunk; the chunk each worker plays until it answers; the workers that failed.
    const done = chunks.map(() => 0);
    const playing: (string | undefined)[] = workers.map(() => undefined);
    const failed: boolean[] = workers.map(() => false);
    // Whether a worker has been sent this forecast's file and packs (with its first chunk): later chunks reuse them.
    const sent: boolean[] = workers.map(() => false);
    let cancelled = false;
    const play = (k: number, [from, to]: [number, number], index: number) =>
      new Promise<Tally>((resolve, reject) => {
        const worker = workers[k]!;
        const id = `${options.id}/${index}`;
        playing[k] = id;
        worker.onmessage = (event) => {
          const reply = event.data;
          if (reply.id !== id) return;
          if (reply.type === "progress") {
            done[index] = reply.done;
            options.onProgress?.(
              done.reduce((a, b) => a + b, 0),
              request.runs,
            );
          } else if (reply.type === "done") {
            playing[k] = undefined;
            resolve(reply.tally);
          } else if (reply.type === "error") {
            // The worker answered: it is still sound, and can be kept.
            playing[k] = undefined;
            reject(new FrayError(reply.key, reply.data, reply.message));
          }
        };
        worker.onerror = (event) => {
          failed[k] = true;
          reject(new Error(event.message ?? "The forecast worker failed"));
        };
        const first = !sent[k];
        sent[k] = true;
        worker.postMessage({
          type: "run",
          id,
          reuse,
          ...(first ? { file: request.file, packs: request.packs } : { file: undefined }),
          runs: request.runs,
          seed: request.seed,
          ...(request.progressEvery ? { progressEvery: request.progressEvery } : {}),
          from,
          to,
        });
      });
    const result = (async () => {
      try {
        const tallies = await playChunks(chunks, count, play, () => cancelled);
        return tallyForecast(mergeTallies(tallies), request.seed, request.runs);
      } finally {
        // Sound: the workers that answered their last chunk and never failed. One still playing
        // (another's error settled the forecast first) is terminated.
        this.release(
          workers,
          workers.map((_, k) => playing[k] === undefined && !failed[k]),
        );
      }
    })();
    return {
      result,
      cancel() {
        // No worker takes another chunk; each stops the one it plays after the fight under way.
        cancelled = true;
        workers.forEach((w, k) => {
          const id = playing[k];
          if (id !== undefined) w.postMessage({ type: "cancel", id });
        });
      },
    };
  }

  /**
   * Starts the pool's workers ahead of a forecast of `request` and has each play a short forecast
   * of it ({@link WARM_RUNS} fights by default, their result dropped), so that the module is loaded
   * and V8 has compiled the code the forecast runs by the time it starts: the tracker calls it
   * while the GM fills in the forecast's settings. The next {@link run} stops what is left of the
   * warm-up in each worker it takes. The workers wait as kept ones do, `idleMs` at most. Does
   * nothing in a pool that keeps no workers; a worker that cannot start is left for `run` to report.
   */
  warm(request: Pick<PoolRequest, "file" | "packs" | "seed">, runs = WARM_RUNS): void {
    if (this.disposed || (this.options.idleMs ?? POOL_IDLE_MS) <= 0) return;
    const id = `warm-${++this.warmings}`;
    const fresh: PoolWorker[] = [];
    try {
      while (this.idle.length + fresh.length < this.size) fresh.push(this.options.spawn());
    } catch {
      // Reported by the forecast that needs the worker.
    }
    this.release(
      fresh,
      fresh.map(() => true),
    );
    for (const w of this.idle) {
      // An earlier warm-up still under way (the dialog opened again) stops first.
      const earlier = this.warming.get(w);
      if (earlier) w.postMessage({ type: "cancel", id: earlier });
      // Progress every 50 fights: the worker reads the next run's cancel that often.
      w.postMessage({ type: "run", id, file: request.file, packs: request.packs, runs, seed: request.seed, progressEvery: 50 });
      this.warming.set(w, id);
    }
  }

  /** Terminates the kept workers; workers of a forecast under way are terminated once it is settled. Keeps none from then on. */
  dispose(): void {
    this.disposed = true;
    this.stopTimer();
    this.warming.clear();
    for (const w of this.idle.splice(0)) w.terminate();
  }

  /**
   * A settled forecast's workers: the sound ones kept (up to `size`, while the pool keeps any), the
   * others terminated. A kept worker that fails while idle is terminated and no longer kept.
   */
  private release(workers: PoolWorker[], sound: boolean[]): void {
    const keep = !this.disposed && (this.options.idleMs ?? POOL_IDLE_MS) > 0;
    workers.forEach((w, k) => {
      w.onmessage = null;
      w.onerror = null;
      if (keep && sound[k] && this.idle.length < this.size) {
        this.idle.push(w);
        w.onerror = () => {
          const at = this.idle.indexOf(w);
          if (at >= 0) this.idle.splice(at, 1);
          this.warming.delete(w);
          w.onerror = null;
          w.terminate();
        };
      } else w.terminate();
    });
    if (this.idle.length) {
      this.stopTimer();
      this.timer = this.timers.set(() => {
        this.timer = undefined;
        this.warming.clear();
        for (const w of this.idle.splice(0)) w.terminate();
      }, this.options.idleMs ?? POOL_IDLE_MS);
    }
  }

  private stopTimer(): void {
    if (this.timer !== undefined) this.timers.clear(this.timer);
    this.timer = undefined;
  }
}

/**
 * Runs a forecast in `size` workers (fewer when there are fewer fights), each started by `spawn`
 * and taking chunks of the fights as {@link WorkerPool.run} gives them out, under ids from `id`: a
 * {@link WorkerPool} that keeps none, so every worker is terminated once the result is settled.
 * @param onProgress called with the fights done over all workers and the fights asked for.
 */
export function runPool(
  request: PoolRequest,
  options: { id: string; size: number; spawn: () => PoolWorker; onProgress?: (done: number, runs: number) => void },
): PoolRun {
  return new WorkerPool({ size: options.size, spawn: options.spawn, idleMs: 0 }).run(request, options);
}
