/**
 * The forecast's Web Worker protocol and its message handler, pure (no Foundry globals, no Node
 * API): the worker entry (`worker-entry.ts`, bundled as `dist/forecast-worker.mjs`) wires it to
 * `self`, and tests call it directly. The worker checks the encounter file with the encounter
 * schema, so that the schema and the drivers live in the worker's bundle only. One request runs a forecast (src/forecast/forecast.ts) of
 * the encounter file the combat became (src/foundry/logic/forecast-state.ts) with the GM's runs
 * and seed, posting progress as it goes; a `cancel` with the same id stops it after the fight
 * under way, and the figures of the fights played come back (`complete: false`).
 *
 * A request may name a contiguous range of the forecast's fights (`from`, `to`): a pool of
 * workers (./pool.ts) gives its workers chunks of the fights, each named for reuse (`reuse`) so
 * that a worker checks the file once per forecast, and merges the tallies they hand back into the
 * forecast one worker would give (src/forecast/tally.ts).
 */
import { FrayError } from "../../rules/core/errors.js";
import { PackContent, type SourceDocument } from "../../encounter/library.js";
import { CombatantCache } from "../../encounter/common.js";
import { parseEncounter, type EncounterSpec } from "../../encounter/schema.js";
import { fightSeed, forecastTally, tallyForecast, type Forecast, type Tally } from "../../forecast/forecast.js";
import { balance, type BalanceMode, type BalanceResult } from "../../forecast/balance.js";

/** What the Foundry client sends the worker. */
export type ForecastRequest =
  | {
      type: "run";
      /** Names this forecast in its replies and in a `cancel`. */
      id: string;
      /** The encounter file (`ForecastInput.file`), checked here by the encounter schema. */
      file: unknown;
      /**
       * The documents the file's references name, by pack (`ForecastInput.packs`). With `file`,
       * left out of a run whose `reuse` names the worker's last named run, which has them.
       */
      packs?: [string, SourceDocument[]][];
      /** Fights to play (1 to 1,000,000). */
      runs: number;
      /** Base seed (0 to 2^31 - 1). */
      seed: number;
      /** Fights between progress replies; 100 when unset. */
      progressEvery?: number;
      /** The first fight of this run's range, or chunk (0 to `runs - 1`); 0 when unset. */
      from?: number;
      /** One past the last fight of its range (`from + 1` to `runs`); `runs` when unset. */
      to?: number;
      /**
       * Names the forecast this range is a chunk of: a run under the same name as the worker's
       * last named run reuses that run's checked file, content and built combatants instead of
       * building them again (a pool sends each worker several chunks of one forecast, the file
       * and packs with the first only). The sender gives one name to one file and packs only.
       */
      reuse?: string;
    }
  /**
   * A balance search (src/forecast/balance.ts) of the file: the encounter closest to the players'
   * chance `target`, by `mode`, the players being the side `players`; progress as fights are played
   * (`runs` the most the search plays), a `cancel` with its id stops it with the closest found so far.
   */
  | {
      type: "balance";
      id: string;
      file: unknown;
      packs: [string, SourceDocument[]][];
      target: number;
      mode: BalanceMode;
      players?: string;
      seed: number;
      /** Fights each candidate is first measured with, and the closest confirmed with; the search's defaults when unset. */
      quickRuns?: number;
      confirmRuns?: number;
    }
  | { type: "cancel"; id: string };

/** What the worker answers. */
export type ForecastReply =
  /** Fights done of the request's range, and the range's size. */
  | { type: "progress"; id: string; done: number; runs: number }
  /**
   * The tally of the fights played (all of the range, or fewer after a cancel), and their
   * forecast: fights `from` on, summed up with base seed `fightSeed(seed, from)` (for the whole
   * forecast, the forecast itself); no forecast when a cancel came before the first fight of a range.
   */
  | { type: "done"; id: string; tally: Tally; forecast?: Forecast }
  /** The balance search's result. */
  | { type: "balanced"; id: string; result: BalanceResult }
  /** A FrayError's key, data and English message (anything else: `FRAY.Error.Unexpected`). */
  | { type: "error"; id: string; key: string; data: Record<string, string | number>; message: string };

/**
 * Lets the worker's event loop read a `cancel` between fights: `next()` settles on a later task,
 * queued behind any message already posted to the worker. In a browser, a message sent through a
 * channel of its own; not `setTimeout(0)`, which browsers hold back at least 4 ms once timers
 * nest (a 10,000-fight forecast with progress every 100 fights lost 0.4 s to it). Where
 * `setImmediate` exists (Node, which drains a channel's messages without letting timers run), that
 * instead: the order React's scheduler uses. `close()` releases the channel.
 */
function eventTurns(): { next: () => Promise<void>; close: () => void } {
  const immediate = (globalThis as { setImmediate?: (run: () => void) => unknown }).setImmediate;
  if (immediate) return { next: () => new Promise<void>((resolve) => void immediate(resolve)), close: () => undefined };
  const channel = new MessageChannel();
  let wake: (() => void) | undefined;
  channel.port1.onmessage = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  return {
    next: () =>
      new Promise<void>((resolve) => {
        wake = resolve;
        channel.port2.postMessage(null);
      }),
    close: () => {
      channel.port1.close();
      channel.port2.close();
    },
  };
}

/**
 * The worker's message handler: `run` plays the forecast (or the request's range of its fights),
 * posting `progress` every `progressEvery` fights and then `done` (or `error`); `balance` searches
 * the balanced encounter, posting `progress` and then `balanced` (or `error`); `cancel` stops
 * the run or search of that id. Deterministic: the same request gives the same `done` as `forecast()` in
 * process (for a range, as `forecastTally()`).
 * @param post sends a reply to the client (`self.postMessage`).
 * @returns the handler; its promise settles once a `run` has replied `done` or `error`.
 */
export function forecastWorker(post: (reply: ForecastReply) => void): (request: ForecastRequest) => Promise<void> {
  const running = new Map<string, { aborted: boolean }>();
  // What the last run with a `reuse` name checked and built, for the next chunk of that forecast.
  let kept: { name: string; spec: EncounterSpec; content: PackContent; combatants: CombatantCache } | undefined;
  return async (request) => {
    if (request.type === "cancel") {
      const signal = running.get(request.id);
      if (signal) signal.aborted = true;
      return;
    }
    const signal = { aborted: false };
    running.set(request.id, signal);
    let turns: ReturnType<typeof eventTurns> | undefined;
    try {
      turns = eventTurns();
      if (request.type === "balance") {
        const result = await balance(parseEncounter(request.file), new PackContent(request.packs), {
          target: request.target,
          mode: request.mode,
          players: request.players,
          seed: request.seed,
          quickRuns: request.quickRuns,
          confirmRuns: request.confirmRuns,
          signal,
          onProgress: async (done, runs) => {
            post({ type: "progress", id: request.id, done, runs });
            await turns!.next();
          },
        });
        post({ type: "balanced", id: request.id, result });
        return;
      }
      let setup = request.reuse !== undefined && kept?.name === request.reuse ? kept : undefined;
      if (!setup) {
        // A chunk without its file (the worker's set-up was lost or never sent) is refused, naming the field.
        if (request.packs === undefined)
          throw new FrayError(
            "FRAY.Error.Field",
            { field: "packs", expected: "the documents the file names" },
            "A forecast run without its packs",
          );
        setup = {
          name: request.reuse ?? "",
          spec: parseEncounter(request.file),
          content: new PackContent(request.packs),
          combatants: new CombatantCache(),
        };
        kept = request.reuse !== undefined ? setup : undefined;
      }
      const { spec } = setup;
      const tally = await forecastTally(spec, setup.content, {
        combatants: setup.combatants,
        runs: request.runs,
        seed: request.seed,
        from: request.from,
        to: request.to,
        progressEvery: request.progressEvery,
        signal,
        onProgress: async (done, runs) => {
          post({ type: "progress", id: request.id, done, runs });
          await turns!.next();
        },
      });
      const whole = tally.from === 0 && tally.to === request.runs;
      // The whole forecast cancelled before its first fight is an error, as in process; an empty range is not.
      if (tally.runs === 0 && !whole) post({ type: "done", id: request.id, tally });
      else {
        const seed = fightSeed(request.seed ?? spec.seed, tally.from);
        post({ type: "done", id: request.id, tally, forecast: tallyForecast(tally, seed, tally.to - tally.from) });
      }
    } catch (error) {
      if (error instanceof FrayError) post({ type: "error", id: request.id, key: error.key, data: error.data, message: error.message });
      else {
        const message = String((error as Error)?.message ?? error);
        post({ type: "error", id: request.id, key: "FRAY.Error.Unexpected", data: { message }, message });
      }
    } finally {
      turns?.close();
      running.delete(request.id);
    }
  };
}
