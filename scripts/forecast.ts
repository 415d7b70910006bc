/**
 * `npm run forecast -- FILE [--runs N] [--seed S] [--json OUT] [--workers W]`: plays an encounter
 * file N times (default 10,000) through the encounter runner and prints each side's chance to win
 * with a 95% interval, the distribution of rounds, each combatant's chance to end the fight out
 * and the damage it can expect to take; `--json` writes the forecast. Fight i (from 0) is
 * `npm run encounter -- FILE --seed <S + i>` (S: `--seed`, else the file's seed). A progress bar
 * runs on a terminal. `--balance P [--by count|scale] [--players SIDE]` searches instead the encounter
 * whose players' chance to win comes closest to P (0.01 to 0.99; src/forecast/balance.ts), in this
 * thread, and prints it; `--json` then writes the search's result with the balanced file. FILE may also be a combat saved from the tracker's forecast (`format:
 * fray-forecast`): its own documents are the content, and its fights the default runs.
 *
 * The fights are spread over W worker threads (`node:worker_threads`; default: the machine's
 * available cores, at most 8; `--workers 1` plays them in this thread): cut into contiguous
 * chunks (`chunkRuns`), each thread taking the next chunk once done with its last and handing back
 * the chunk's tally; the tallies merged in order give the very forecast one thread gives
 * (src/forecast/tally.ts). The workers run this same file: bundled
 * (`npm run forecast` runs it through `scripts/bundled.mjs`), each worker runs the bundle; run
 * with `tsx` instead, whose loader does not reach worker threads on Node 20
 * (privatenumber/tsx#354), each worker loads it through tsx's own API (`tsImport` of
 * `tsx/esm/api`).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { parse as parseYaml } from "yaml";
import { ContentIndex } from "../src/encounter/content.js";
import { PackContent, type EncounterContent, type SourceDocument } from "../src/encounter/library.js";
import { FORECAST_EXPORT_FORMAT } from "../src/foundry/logic/forecast-state.js";
import { parseEncounter } from "../src/encounter/schema.js";
import { COMMON_BOUNDS } from "../src/rules/core/bounds.js";
import { CombatantCache } from "../src/encounter/common.js";
import {
  chunkRuns,
  DEFAULT_RUNS,
  forecast,
  forecastTally,
  MAX_RUNS,
  mergeTallies,
  playChunks,
  tallyForecast,
  type Forecast,
  type Tally,
} from "../src/forecast/forecast.js";
import type { EncounterSpec } from "../src/encounter/schema.js";
import { formatBalance, formatForecast } from "../src/forecast/format.js";
import { balance, BALANCE_MODES, BALANCE_TARGET, type BalanceMode } from "../src/forecast/balance.js";
import { FrayError, localizeError } from "../src/rules/core/errors.js";
import { formatDecimal, formatKey, nestedLookup, pluralKey } from "../src/rules/core/i18n.js";
import { bounded, check, choice } from "../src/rules/core/validate.js";
import { numberOption, outputFile, readCommandLine } from "./cli.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const lang = process.env.FRAY_LANG === "de" ? "de" : "en";
function loadLang(code: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(join(root, "lang", `${code}.json`), "utf8")) as Record<string, unknown>;
  } catch {
    return {};
  }
}
const lookup = nestedLookup(loadLang(lang));
const t = (key: string, data?: Record<string, string | number>) => formatKey(lookup, key, data, lang);

/** Options that take a value. */
const VALUED = ["--runs", "--seed", "--json", "--workers", "--balance", "--by", "--players"];
/** The most worker threads a forecast starts. */
const MAX_WORKERS = 8;

/** What a worker thread is given: the encounter file as parsed YAML, its documents when saved from the tracker, and the forecast's runs and seed. */
interface WorkerJob {
  raw: unknown;
  packs?: [string, SourceDocument[]][];
  runs: number;
  seed: number;
}

/** A chunk of fights sent to a worker thread: fights `from` to `to - 1`. */
interface WorkerChunk {
  from: number;
  to: number;
}

/** What a worker thread posts back: progress in its chunk, the chunk's tally, or the error it met. */
type WorkerReply =
  | { type: "progress"; done: number }
  | { type: "tally"; tally: Tally }
  | { type: "error"; key?: string; data?: Record<string, string | number>; message: string };

/**
 * In a worker thread: plays each chunk it is sent and posts its tally (progress every 100
 * fights). The file is checked, the content read and the combatants built once, for all chunks.
 */
function workerMain(job: WorkerJob): void {
  const post = (reply: WorkerReply) => parentPort!.postMessage(reply);
  let setup: { spec: EncounterSpec; content: EncounterContent; combatants: CombatantCache } | undefined;
  parentPort!.on("message", (chunk: WorkerChunk) => {
    void (async () => {
      try {
        setup ??= {
          spec: parseEncounter(job.raw),
          content: contentFor(job.packs),
          combatants: new CombatantCache(),
        };
        const tally = await forecastTally(setup.spec, setup.content, {
          runs: job.runs,
          seed: job.seed,
          from: chunk.from,
          to: chunk.to,
          combatants: setup.combatants,
          onProgress: (done) => post({ type: "progress", done }),
        });
        post({ type: "tally", tally });
      } catch (error) {
        post(
          error instanceof FrayError
            ? { type: "error", key: error.key, data: error.data, message: error.message }
            : { type: "error", message: String((error as Error)?.stack ?? error) },
        );
      }
    })();
  });
}

/**
 * The forecast of `spec` (parsed from `raw`) spread over `workers` worker threads: the fights cut
 * into contiguous chunks (`chunkRuns`), each thread taking the next chunk once done with its last
 * (`playChunks`); the progress callback gets the fights done over all of them.
 * @throws FrayError the first error a worker met (bad file, bad runs or seed).
 */
async function forecastInWorkers(
  raw: unknown,
  spec: EncounterSpec,
  options: {
    runs: number;
    seed: number;
    workers: number;
    packs?: [string, SourceDocument[]][];
    onProgress?: (done: number, runs: number) => void;
  },
): Promise<Forecast> {
  // Run bundled (`scripts/bundled.mjs`, as `npm run forecast` does), each worker runs the bundle.
  // Under tsx, whose loader is not inherited by worker threads, its API loads this file in each.
  const self = import.meta.url;
  const bundled = self.endsWith(".mjs");
  const boot = bundled
    ? new URL(self)
    : `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))}).then((tsx) => tsx.tsImport(${JSON.stringify(self)}, ${JSON.stringify(self)}));`;
  const chunks = chunkRuns(options.runs, options.workers);
  const job: WorkerJob = { raw, packs: options.packs, runs: options.runs, seed: options.seed };
  const threads = Array.from(
    { length: Math.min(options.workers, chunks.length) },
    () => new Worker(boot, { eval: !bundled, workerData: job }),
  );
  // A thread's error between chunks (its last one done) changes no tally; its chunk's listener reports one during a chunk.
  for (const w of threads) w.on("error", () => undefined);
  const done = chunks.map(() => 0);
  const play = (k: number, [from, to]: [number, number], index: number) =>
    new Promise<Tally>((resolveTally, reject) => {
      const worker = threads[k]!;
      const stop = () => {
        worker.off("message", onMessage);
        worker.off("error", reject);
        worker.off("exit", onExit);
      };
      const onMessage = (reply: WorkerReply) => {
        if (reply.type === "progress") {
          done[index] = reply.done;
          options.onProgress?.(
            done.reduce((a, b) => a + b, 0),
            options.runs,
          );
          return;
        }
        stop();
        if (reply.type === "tally") resolveTally(reply.tally);
        else reject(reply.key ? new FrayError(reply.key, reply.data ?? {}, reply.message) : new Error(reply.message));
      };
      const onExit = (code: number) => reject(new Error(`Forecast worker ${k + 1} stopped (exit code ${code})`));
      worker.on("message", onMessage);
      worker.on("error", reject);
      worker.on("exit", onExit);
      worker.postMessage({ from, to } satisfies WorkerChunk);
    });
  try {
    return tallyForecast(mergeTallies(await playChunks(chunks, threads.length, play)), options.seed, options.runs);
  } finally {
    await Promise.all(threads.map((w) => w.terminate()));
  }
}

/** A progress bar on stderr, redrawn in place; nothing when stderr is not a terminal. */
function progressBar(): ((done: number, runs: number) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  return (done, runs) => {
    const width = 30;
    const filled = Math.round((done / runs) * width);
    process.stderr.write(`\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${t("FRAY.Forecast.Progress", { done, runs })}`);
    if (done === runs) process.stderr.write("\r\x1b[K");
  };
}

/** The compendium sources by reference: a saved combat's own documents, else `packs/_source`. */
function contentFor(packs: [string, SourceDocument[]][] | undefined): EncounterContent {
  return packs ? new PackContent(packs) : new ContentIndex(join(root, "packs", "_source"));
}

/**
 * A combat saved from the tracker's forecast (`format: fray-forecast`, src/foundry/logic/forecast-state.ts
 * `forecastExport`): its encounter file, its documents by pack and the fights it played; `undefined`
 * for a plain encounter file.
 * @throws FrayError `FRAY.Error.Field` naming `file`, the part of `packs` or `runs` that is not what it saves.
 */
function savedCombat(raw: unknown): { file: unknown; packs: [string, SourceDocument[]][]; runs?: number } | undefined {
  if (typeof raw !== "object" || raw === null || (raw as { format?: unknown }).format !== FORECAST_EXPORT_FORMAT) return undefined;
  const { file, packs, runs } = raw as { file?: unknown; packs?: unknown; runs?: unknown };
  const bad = (field: string, expected: string) => new FrayError("FRAY.Error.Field", { field, expected }, `Bad saved ${field}`);
  const isRecord = (d: unknown): d is Record<string, unknown> => typeof d === "object" && d !== null && !Array.isArray(d);
  if (!isRecord(file)) throw bad("file", "the encounter file the forecast played");
  if (!Array.isArray(packs)) throw bad("packs", "[pack name, documents] pairs");
  // Each document as the encounter runner reads an actor: a name, its `system` and its items.
  packs.forEach((p: unknown, i) => {
    if (!Array.isArray(p) || p.length !== 2 || typeof p[0] !== "string" || !Array.isArray(p[1]))
      throw bad(`packs[${i}]`, "[pack name, documents]");
    (p[1] as unknown[]).forEach((d, j) => {
      const at = `packs[${i}][1][${j}]`;
      if (!isRecord(d) || typeof d.name !== "string") throw bad(`${at}.name`, "a document with a name");
      if (d.system !== undefined && !isRecord(d.system)) throw bad(`${at}.system`, "a mapping");
      if (d.items !== undefined && (!Array.isArray(d.items) || !d.items.every(isRecord))) throw bad(`${at}.items`, "a list of items");
    });
  });
  return {
    file,
    packs: packs as [string, SourceDocument[]][],
    runs: runs === undefined ? undefined : check(bounded({ min: 1, max: MAX_RUNS, integer: true }), runs, "runs"),
  };
}

async function main(argv: string[]): Promise<number> {
  const line = readCommandLine(argv, VALUED);
  const file = line.file;
  if (!file) {
    console.error(t("FRAY.Forecast.Usage"));
    return 2;
  }
  const runsArg = line.values.get("--runs");
  const seedArg = line.values.get("--seed");
  const jsonArg = line.values.get("--json");
  const workersArg = line.values.get("--workers");
  const workers =
    workersArg === undefined
      ? Math.min(MAX_WORKERS, availableParallelism())
      : numberOption(workersArg, { min: 1, max: MAX_WORKERS, integer: true }, "--workers");
  const runsGiven = runsArg === undefined ? undefined : numberOption(runsArg, { min: 1, max: MAX_RUNS, integer: true }, "--runs");
  const seed = seedArg === undefined ? undefined : numberOption(seedArg, COMMON_BOUNDS.seed, "--seed");
  const out = jsonArg === undefined ? undefined : outputFile(jsonArg, "--json");
  const balanceText = line.values.get("--balance");
  const balanceArg = balanceText === undefined ? undefined : numberOption(balanceText, BALANCE_TARGET, "--balance");
  const byArg = line.values.get("--by");
  const players = line.values.get("--players");
  // The search's own options only with --balance, so that a forecast never takes one silently.
  for (const [flag, given] of [
    ["--by", byArg],
    ["--players", players],
  ] as const)
    if (given !== undefined && balanceArg === undefined)
      throw new FrayError("FRAY.Error.Field", { field: flag, expected: t("FRAY.Forecast.Balance.Needs") }, `${flag} needs --balance`);
  // The search sets its own fights and plays them in this thread.
  for (const [flag, given] of [
    ["--runs", runsArg],
    ["--workers", workersArg],
  ] as const)
    if (given !== undefined && balanceArg !== undefined)
      throw new FrayError(
        "FRAY.Error.Field",
        { field: flag, expected: t("FRAY.Forecast.Balance.Without") },
        `${flag} is not for --balance`,
      );
  const mode: BalanceMode = byArg === undefined ? "count" : check(choice(BALANCE_MODES), byArg, "--by");
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new FrayError("FRAY.Error.EncounterFile", { file }, `Cannot read encounter file "${file}"`);
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw new FrayError("FRAY.Error.EncounterParse", { file, message: (error as Error).message }, `Cannot parse "${file}"`);
  }
  // A combat saved from the tracker's forecast carries its documents and the fights it played.
  const saved = savedCombat(raw);
  if (saved) raw = saved.file;
  const spec = parseEncounter(raw);
  const content = contentFor(saved?.packs);
  if (balanceArg !== undefined) return balanceMain(spec, content, { target: balanceArg, mode, players, seed, out });
  const runs = runsGiven ?? saved?.runs ?? DEFAULT_RUNS;
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  const threads = Math.min(workers, runs);
  const result =
    threads === 1
      ? await forecast(spec, content, { runs, seed, onProgress: progressBar() })
      : await forecastInWorkers(raw, spec, {
          runs,
          seed: seed ?? spec.seed,
          workers: threads,
          packs: saved?.packs,
          onProgress: progressBar(),
        });
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  console.log(formatForecast(result, lookup, lang).join("\n"));
  console.log(
    "\n" +
      t(pluralKey("FRAY.Forecast.Time", threads, lang), {
        runs: result.runs,
        seconds: formatDecimal(seconds, lang, 2),
        workers: threads,
        cpu: formatDecimal((cpu.user + cpu.system) / 1e6, lang, 2),
        perSecond: Math.round(result.runs / seconds),
      }),
  );
  if (out) {
    mkdirSync(dirname(resolve(out)), { recursive: true });
    writeFileSync(out, JSON.stringify(result, null, 2) + "\n");
    console.log(t("FRAY.Forecast.Written", { file: out }));
  }
  return 0;
}

/**
 * `--balance P`: searches the encounter closest to the players' chance to win `P` (src/forecast/balance.ts),
 * in this thread, prints it and writes it (the balanced file as `spec`) to `--json`.
 * @throws FrayError `--players` naming a side the file has not, and the forecast's errors.
 */
async function balanceMain(
  spec: EncounterSpec,
  content: EncounterContent,
  options: { target: number; mode: BalanceMode; players?: string; seed?: number; out?: string },
): Promise<number> {
  const sides = [...new Set(spec.combatants.map((c) => c.side))];
  if (options.players !== undefined && !sides.includes(options.players))
    throw new FrayError(
      "FRAY.Error.Field",
      { field: "--players", expected: sides.join(", ") },
      `--players: one of ${sides.join(", ")}, not "${options.players}"`,
    );
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  const result = await balance(spec, content, { ...options, onProgress: progressBar() });
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  console.log(formatBalance(result, lookup, lang).join("\n"));
  console.log(
    "\n" +
      t(pluralKey("FRAY.Forecast.Time", 1, lang), {
        runs: result.fights,
        seconds: formatDecimal(seconds, lang, 2),
        workers: 1,
        cpu: formatDecimal((cpu.user + cpu.system) / 1e6, lang, 2),
        perSecond: Math.round(result.fights / seconds),
      }),
  );
  if (options.out) {
    mkdirSync(dirname(resolve(options.out)), { recursive: true });
    writeFileSync(options.out, JSON.stringify(result, null, 2) + "\n");
    console.log(t("FRAY.Forecast.Written", { file: options.out }));
  }
  return 0;
}

if (isMainThread)
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(localizeError(error, (key, data) => formatKey(lookup, key, data)));
      process.exit(1);
    },
  );
else workerMain(workerData as WorkerJob);
