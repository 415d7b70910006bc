/**
 * The forecast's section of `npm run bench` (`--only forecast`): issue 14's goal "a 10,000-fight
 * forecast of 5 against 5 finishes in under 2 s in Node and in Chromium's worker", timed on each
 * `examples/<id>-skirmish.yaml` (UD10, Hitbox, Critical, Zones; five against five each, base seed
 * the file's):
 * - in Node, in process: `forecast()` of src/forecast/forecast.ts, as `npm run forecast --
 *   --workers 1` plays it (wall and processor time);
 * - in headless Chromium (Debian's /usr/bin/chromium through playwright-core, as the render
 *   bench launches it), in a module Web Worker running the shipped bundle
 *   `dist/forecast-worker.mjs` (built by `npm run build`), served with a page by a small HTTP
 *   server on 127.0.0.1 (no other network); timed in the page from the worker started (its
 *   module's load included, as the GM waits for it) to its `done`; the worker's forecast is
 *   checked equal, figure for figure, to Node's; progress every 100 fights, as the tracker asks
 *   for it (the worker yields to its event loop at each, to read a cancel);
 * - from the command line as a GM runs it (`npm run forecast`, its default worker threads), in a
 *   child process timed from spawn to exit (its bundle kept from an earlier run), its `--json`
 *   checked equal to Node's (full runs only);
 * - in the same page, the tracker's pool (src/foundry/forecast/pool.ts, built with Vite for the
 *   page) of {@link POOL} such workers, each taking chunks of the fights; its merged forecast
 *   is checked equal to Node's too. Then the same forecast again in the same pool, whose workers
 *   it kept (as the tracker keeps them for a GM who forecasts again): their module loaded and
 *   the hot code compiled; and in a new pool warmed up for a second first, as the tracker warms
 *   it while the GM fills in the forecast's settings (timed from the forecast's start).
 * `runs` below 10,000 plays fewer fights and prints the 10,000-fight figure extrapolated (time
 * times 10,000 / runs), saying so. Prints numbers; asserts nothing.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { PackContent, type SourceDocument } from "../src/encounter/library.js";
import { parseEncounter } from "../src/encounter/schema.js";
import { DEFAULT_RUNS, forecast, type Forecast } from "../src/forecast/forecast.js";
import type { ForecastReply, ForecastRequest } from "../src/foundry/forecast/worker.js";

const ROOT = join(fileURLToPath(new URL(".", import.meta.url)), "..");
const CHROMIUM = "/usr/bin/chromium";
const WORKER_BUNDLE = join(ROOT, "dist", "forecast-worker.mjs");
/** Issue 14: a 10,000-fight forecast in under 2 s. */
const GOAL = { fights: DEFAULT_RUNS, seconds: 2 } as const;
/** Workers in the Chromium pool: two, so that chunks are shared out and their tallies merged whatever the machine. */
const POOL = 2;
/** How long the warmed pool warms up before its forecast: a GM filling in the forecast's settings. */
const WARM_MS = 1_000;
/** The five-against-five examples, by ruleset. */
const RULESETS = ["ud10", "hitbox", "critical", "zones"] as const;

/** Every compendium source document under `packs/_source/`, by pack. */
function allPacks(): [string, SourceDocument[]][] {
  const dir = join(ROOT, "packs", "_source");
  const walk = (d: string): string[] =>
    readdirSync(d)
      .sort()
      .flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : f.endsWith(".json") ? [join(d, f)] : []));
  return readdirSync(dir)
    .sort()
    .filter((p) => statSync(join(dir, p)).isDirectory())
    .map((p) => [p, walk(join(dir, p)).map((f) => JSON.parse(readFileSync(f, "utf8")) as SourceDocument)]);
}

/**
 * The documents of `packs` that the encounter file names (`<pack>/<name or _id>`, wherever a
 * string in the file reads so), by pack: what the worker is sent, as the tracker sends only the
 * combat's actors, not every compendium.
 */
function namedIn(raw: unknown, packs: [string, SourceDocument[]][]): [string, SourceDocument[]][] {
  const refs = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === "string") refs.add(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(raw);
  return packs
    .map(([pack, docs]): [string, SourceDocument[]] => [
      pack,
      docs.filter((d) => refs.has(`${pack}/${d.name}`) || refs.has(`${pack}/${d._id}`)),
    ])
    .filter(([, docs]) => docs.length > 0);
}

/** The tracker's pool (src/foundry/forecast/pool.ts) as one ES module for the page, built with Vite. */
async function poolModule(): Promise<string> {
  const { build } = await import("vite");
  const out = await build({
    configFile: false,
    logLevel: "silent",
    build: {
      write: false,
      minify: true,
      target: "es2022",
      lib: { entry: join(ROOT, "src", "foundry", "forecast", "pool.ts"), formats: ["es"], fileName: () => "pool.mjs" },
    },
  });
  const chunk = (Array.isArray(out) ? out[0] : out) as { output: { type: string; code?: string }[] };
  const code = chunk.output.find((o) => o.type === "chunk")?.code;
  if (!code) throw new Error("Vite built no module of src/foundry/forecast/pool.ts");
  return code;
}

/**
 * The page's driver of the pool, plain JavaScript (a function handed to `page.evaluate` would
 * carry tsx's name helpers): `runPooled(request, size)` runs the forecast twice in one kept pool,
 * as a GM who forecasts again, then once in a new pool warmed up (`WorkerPool.warm`) for
 * {@link WARM_MS} first, as the tracker warms it while the GM fills in the settings; it answers
 * the time of each from its start to the merged forecast, in milliseconds, with the forecasts,
 * or the error.
 */
const RUN_POOL = `import { WorkerPool } from "/pool.mjs";
export async function runPooled(request, size, warmMs) {
  const spawn = () => new Worker("/forecast-worker.mjs", { type: "module" });
  const pool = new WorkerPool({ size, spawn });
  const warmed = new WorkerPool({ size, spawn });
  try {
    const t0 = performance.now();
    const forecast = await pool.run(request, { id: "bench-pool" }).result;
    const t1 = performance.now();
    const again = await pool.run(request, { id: "bench-pool-again" }).result;
    const t2 = performance.now();
    pool.dispose();
    warmed.warm({ file: request.file, packs: request.packs, seed: request.seed });
    await new Promise((resolve) => setTimeout(resolve, warmMs));
    const t3 = performance.now();
    const afterWarm = await warmed.run(request, { id: "bench-pool-warmed" }).result;
    return { ms: t1 - t0, forecast, againMs: t2 - t1, again, warmedMs: performance.now() - t3, afterWarm };
  } catch (error) {
    return { ms: 0, error: String(error?.message ?? error) };
  } finally {
    pool.dispose();
    warmed.dispose();
  }
}
`;

/** A page, the worker bundle, the pool module and its driver on 127.0.0.1, on a port the system picks. */
async function serve(): Promise<{ server: Server; origin: string }> {
  const bundle = readFileSync(WORKER_BUNDLE);
  const pool = await poolModule();
  const server = createServer((req, res) => {
    const script = { "/forecast-worker.mjs": bundle, "/pool.mjs": pool, "/run-pool.mjs": RUN_POOL }[req.url ?? ""];
    if (script) {
      res.writeHead(200, { "content-type": "text/javascript" });
      res.end(script);
    } else {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<!doctype html><title>Fray forecast bench</title>");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * The forecast as a GM runs it from the command line: `npm run forecast -- FILE --runs N --seed S
 * --json OUT` in a child process (`node scripts/bundled.mjs scripts/forecast.ts`, its default
 * worker threads: the machine's cores, at most 8), timed from the spawn to its exit, Node's start
 * and the bundle's load included; its `--json` checked equal to `expected`. The bundle is the one
 * an earlier run kept (`scripts/bundled.mjs`), as for a GM's every run but the first after a
 * change: a one-fight run builds it first, untimed. Only for the full 10,000 fights (a process's
 * start would swamp fewer), as a line to print under the example's.
 */
function cliLine(file: string, fights: number, seed: number, expected: Forecast): string {
  if (fights !== GOAL.fights) return "";
  const out = join(tmpdir(), `fray-bench-forecast-${process.pid}.json`);
  const threads = Math.min(8, availableParallelism());
  const forecastCli = (runs: number) =>
    spawnSync(
      process.execPath,
      [
        join(ROOT, "scripts", "bundled.mjs"),
        join(ROOT, "scripts", "forecast.ts"),
        join(ROOT, file),
        "--runs",
        String(runs),
        "--seed",
        String(seed),
        "--json",
        out,
      ],
      // A forecast that hangs fails its line instead of the bench.
      { cwd: ROOT, encoding: "utf8", timeout: 300_000 },
    );
  forecastCli(1);
  const start = performance.now();
  const run = forecastCli(fights);
  const ms = performance.now() - start;
  try {
    if (run.status !== 0)
      return `\n  ${"".padEnd(32)} npm run forecast failed: ${(run.error?.message || run.stderr || run.stdout || "").trim().split("\n").at(-1)}`;
    const got = JSON.parse(readFileSync(out, "utf8")) as Forecast;
    return (
      `\n  ${"".padEnd(32)} npm run forecast (${threads} worker threads) ${seconds(ms).padStart(6)} s, Node's start included, ${verdict(ms / 1000)};` +
      ` its --json ${same(got, expected) ? "equals" : "DIFFERS from"} the forecast above`
    );
  } finally {
    rmSync(out, { force: true });
  }
}

/** Whether two forecasts are the same, figure for figure (as JSON: every number printed in full). */
const same = (a: Forecast, b: Forecast) => JSON.stringify(a) === JSON.stringify(b);
const seconds = (ms: number) => (ms / 1000).toFixed(ms >= 10_000 ? 1 : 2);
const verdict = (s: number) => (s < GOAL.seconds ? "met" : `missed (${(s / GOAL.seconds).toFixed(1)}x the goal)`);

/**
 * Prints the forecast section: per example, the Node, Chromium worker, Chromium pool and command
 * line time of a 10,000-fight forecast against the 2 s goal, and whether each forecast equals Node's.
 * @param runs fights actually played per forecast (1 to 10,000; 10,000 when unset).
 * @param only one ruleset id, or every one when unset.
 */
export async function forecastBench(runs: number = GOAL.fights, only?: string): Promise<void> {
  const fights = Math.max(1, Math.min(GOAL.fights, Math.floor(runs)));
  const scale = GOAL.fights / fights;
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(", ");
  console.log(
    `\nForecast of ${GOAL.fights.toLocaleString("en-US")} fights, five against five (goal under ${GOAL.seconds} s in Node and in Chromium's worker; load average ${load})`,
  );
  if (fights < GOAL.fights)
    console.log(
      `  ${fights.toLocaleString("en-US")} fights played per forecast; the ${GOAL.fights.toLocaleString("en-US")}-fight times below are extrapolated (x${scale.toFixed(1)})`,
    );
  const packs = allPacks();
  const content = new PackContent(packs);
  const chromium = existsSync(CHROMIUM) && existsSync(WORKER_BUNDLE);
  if (!existsSync(CHROMIUM)) console.log(`  Chromium's worker skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);
  else if (!existsSync(WORKER_BUNDLE)) console.log(`  Chromium's worker skipped: ${WORKER_BUNDLE} is missing (npm run build)`);
  let browser: import("playwright-core").Browser | undefined;
  let served: { server: Server; origin: string } | undefined;
  try {
    if (chromium) {
      const { chromium: launcher } = await import("playwright-core");
      const { CHROMIUM_ARGS } = await import("../test/support/render/bench.js");
      browser = await launcher.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      served = await serve();
    }
    for (const id of RULESETS.filter((r) => !only || r === only)) {
      const file = `examples/${id}-skirmish.yaml`;
      const raw = parseYaml(readFileSync(join(ROOT, file), "utf8")) as unknown;
      const spec = parseEncounter(raw);
      const sent = namedIn(raw, packs);
      const cpu = process.cpuUsage();
      const start = performance.now();
      const inNode = await forecast(spec, content, { runs: fights, seed: spec.seed });
      const nodeMs = (performance.now() - start) * scale;
      const used = process.cpuUsage(cpu);
      const nodeCpuMs = ((used.user + used.system) / 1000) * scale;
      let line =
        `  ${file.padEnd(32)} Node ${seconds(nodeMs).padStart(6)} s (processor ${seconds(nodeCpuMs)} s)  ${verdict(nodeMs / 1000)}` +
        (chromium ? ";" : "");
      if (browser && served) {
        const page = await browser.newPage();
        try {
          await page.goto(`${served.origin}/`);
          const request: ForecastRequest = {
            type: "run",
            id: "bench",
            file: raw,
            packs: sent,
            runs: fights,
            seed: spec.seed,
          };
          const got = await page.evaluate(async (req) => {
            const t0 = performance.now();
            const worker = new Worker("/forecast-worker.mjs", { type: "module" });
            try {
              const reply = await new Promise<ForecastReply>((resolve, reject) => {
                worker.onmessage = (event: MessageEvent<ForecastReply>) => {
                  if (event.data.type !== "progress") resolve(event.data);
                };
                worker.onerror = (event) => reject(new Error(event.message));
                worker.postMessage(req);
              });
              return { ms: performance.now() - t0, reply };
            } finally {
              worker.terminate();
            }
          }, request);
          if (got.reply.type !== "done" || !got.reply.forecast) {
            line += ` Chromium worker failed: ${got.reply.type === "error" ? got.reply.message : "no forecast"}`;
          } else {
            const workerMs = got.ms * scale;
            line +=
              ` Chromium worker ${seconds(workerMs).padStart(6)} s  ${verdict(workerMs / 1000)};` +
              ` its forecast ${same(got.reply.forecast, inNode) ? "equals Node's" : "DIFFERS from Node's"}`;
          }
          // The tracker's pool in the same page: the workers taking chunks, the tallies merged.
          const pooled = (await page.evaluate(
            `import("/run-pool.mjs").then((m) => m.runPooled(${JSON.stringify({ file: raw, packs: sent, runs: fights, seed: spec.seed })}, ${POOL}, ${WARM_MS}))`,
          )) as {
            ms: number;
            forecast?: Forecast;
            againMs?: number;
            again?: Forecast;
            warmedMs?: number;
            afterWarm?: Forecast;
            error?: string;
          };
          line += pooled.forecast
            ? `\n  ${"".padEnd(32)} Chromium pool of ${POOL} workers ${seconds(pooled.ms * scale).padStart(6)} s  ${verdict((pooled.ms * scale) / 1000)};` +
              ` its merged forecast ${same(pooled.forecast, inNode) ? "equals Node's" : "DIFFERS from Node's"}` +
              `\n  ${"".padEnd(32)} again in the kept pool ${seconds(pooled.againMs! * scale).padStart(6)} s  ${verdict((pooled.againMs! * scale) / 1000)};` +
              ` ${same(pooled.again!, inNode) ? "the same forecast" : "a DIFFERENT forecast"}` +
              `\n  ${"".padEnd(32)} in a new pool warmed up for ${seconds(WARM_MS)} s first (the settings dialog) ${seconds(pooled.warmedMs! * scale).padStart(6)} s  ${verdict((pooled.warmedMs! * scale) / 1000)};` +
              ` ${same(pooled.afterWarm!, inNode) ? "the same forecast" : "a DIFFERENT forecast"}`
            : `\n  ${"".padEnd(32)} Chromium pool failed: ${pooled.error}`;
        } finally {
          await page.close();
        }
      }
      line += cliLine(file, fights, spec.seed, inNode);
      console.log(line);
    }
  } finally {
    await browser?.close();
    served?.server.close();
  }
}
