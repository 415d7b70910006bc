/**
 * A balance search (src/forecast/balance.ts) in a forecast worker (./worker.ts): the request
 * posted, progress passed on, a cancel that reaches the worker (the search then answers with the
 * closest encounter measured so far), and the worker terminated once it has answered. Pure (no
 * Foundry globals, no DOM): the dialog passes how to start a worker, tests pass workers of their own.
 */
import { FrayError } from "../../rules/core/errors.js";
import type { BalanceResult } from "../../forecast/balance.js";
import type { PoolWorker } from "./pool.js";
import type { ForecastRequest } from "./worker.js";

/** A balance request without its id (the runner adds it). */
export type BalanceRequest = Omit<Extract<ForecastRequest, { type: "balance" }>, "type" | "id">;

/** A search under way. */
export interface BalanceRun {
  /**
   * The search's result (`complete: false` after a cancel).
   * @throws FrayError the worker's error (a bad target or side, a file the encounter runner
   *   refuses, `FRAY.Error.ForecastNone` when cancelled before any fight), or an Error when the
   *   worker failed to load.
   */
  result: Promise<BalanceResult>;
  /** Asks the worker to stop after the fight under way. */
  cancel(): void;
}

/**
 * Runs the search in a worker `spawn` starts, and terminates it once it has answered.
 * @param onProgress called with the fights played and the most the search will play.
 */
export function runBalance(
  spawn: () => PoolWorker,
  request: BalanceRequest,
  options: { id: string; onProgress?: (done: number, planned: number) => void },
): BalanceRun {
  const worker = spawn();
  const result = new Promise<BalanceResult>((resolve, reject) => {
    worker.onmessage = (event) => {
      const reply = event.data;
      if (reply.id !== options.id) return;
      if (reply.type === "progress") options.onProgress?.(reply.done, reply.runs);
      else if (reply.type === "balanced") resolve(reply.result);
      else if (reply.type === "error") reject(new FrayError(reply.key, reply.data, reply.message));
    };
    worker.onerror = (event) => reject(new Error(event.message ?? "The forecast worker failed"));
  }).finally(() => worker.terminate());
  worker.postMessage({ type: "balance", id: options.id, ...request });
  return { result, cancel: () => worker.postMessage({ type: "cancel", id: options.id }) };
}
