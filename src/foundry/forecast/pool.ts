/**
 * A forecast spread over a pool of forecast workers (each a Web Worker running
 * `dist/forecast-worker.mjs`, see worker.ts): the fights are split into contiguous ranges
 * (`splitRuns`), one per worker; the progress of all of them is summed; a cancel reaches every
 * worker; and the tallies they hand back are merged and summed up (src/forecast/tally.ts) into
 * exactly the forecast one worker, or `npm run forecast`, gives for the same file and seed.
 *
 * Pure (no Foundry globals, no DOM): the dialog passes how to start a worker, tests pass workers
 * of their own.
 */
import { FrayError } from "../../rules/core/errors.js";
import { mergeTallies, splitRuns, tallyForecast, type Forecast, type Tally } from "../../forecast/tally.js";
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
export type PoolRequest = Pick<Extract<ForecastRequest, { type: "run" }>, "file" | "packs" | "runs" | "seed" | "progressEvery">;

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

/**
 * Runs a forecast in `size` workers (fewer when there are fewer fights), each started by `spawn`
 * and given one contiguous range of the fights, all under the one request id `id`. Every worker
 * is terminated once the result is settled.
 * @param onProgress called with the fights done over all workers and the fights asked for.
 */
export function runPool(
  request: PoolRequest,
  options: { id: string; size: number; spawn: () => PoolWorker; onProgress?: (done: number, runs: number) => void },
): PoolRun {
  const ranges = splitRuns(request.runs, Math.max(1, Math.min(MAX_POOL, Math.floor(options.size))));
  const done = ranges.map(() => 0);
  const workers: PoolWorker[] = [];
  const settled: boolean[] = ranges.map(() => false);
  const tallies = ranges.map(
    ([from, to], k) =>
      new Promise<Tally>((resolve, reject) => {
        const worker = options.spawn();
        workers.push(worker);
        worker.onmessage = (event) => {
          const reply = event.data;
          if (reply.id !== options.id) return;
          if (reply.type === "progress") {
            done[k] = reply.done;
            options.onProgress?.(
              done.reduce((a, b) => a + b, 0),
              request.runs,
            );
          } else if (reply.type === "done") {
            settled[k] = true;
            resolve(reply.tally);
          } else reject(new FrayError(reply.key, reply.data, reply.message));
        };
        worker.onerror = (event) => reject(new Error(event.message ?? "The forecast worker failed"));
        worker.postMessage({
          type: "run",
          id: options.id,
          file: request.file,
          packs: request.packs,
          runs: request.runs,
          seed: request.seed,
          ...(request.progressEvery ? { progressEvery: request.progressEvery } : {}),
          from,
          to,
        });
      }),
  );
  const result = (async () => {
    try {
      return tallyForecast(mergeTallies(await Promise.all(tallies)), request.seed, request.runs);
    } finally {
      for (const w of workers) w.terminate();
    }
  })();
  return {
    result,
    cancel() {
      workers.forEach((w, k) => {
        if (!settled[k]) w.postMessage({ type: "cancel", id: options.id });
      });
    },
  };
}
