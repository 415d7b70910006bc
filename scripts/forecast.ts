/**
 * `npm run forecast -- FILE [--runs N] [--seed S] [--json OUT]`: plays an encounter file N times
 * (default 10,000) through the encounter runner and prints each side's chance to win with a 95%
 * interval, the distribution of rounds, each combatant's chance to end the fight out and the
 * damage it can expect to take; `--json` writes the forecast. Fight i (from 0) is
 * `npm run encounter -- FILE --seed <S + i>` (S: `--seed`, else the file's seed). A progress bar
 * runs on a terminal.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { ContentIndex } from "../src/encounter/content.js";
import { parseEncounter, validateSeed } from "../src/encounter/schema.js";
import { DEFAULT_RUNS, forecast, MAX_RUNS } from "../src/forecast/forecast.js";
import { formatForecast } from "../src/forecast/format.js";
import { FrayError, localizeError } from "../src/rules/core/errors.js";
import { formatKey, nestedLookup } from "../src/rules/core/i18n.js";
import { bounded, check } from "../src/rules/core/validate.js";

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
const t = (key: string, data?: Record<string, string | number>) => formatKey(lookup, key, data);

/** Options that take a value. */
const VALUED = ["--runs", "--seed", "--json"];

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

async function main(argv: string[]): Promise<number> {
  const args = [...argv];
  const file = args.find((a, i) => !a.startsWith("--") && !VALUED.includes(args[i - 1] ?? ""));
  if (!file) {
    console.error(t("FRAY.Forecast.Usage"));
    return 2;
  }
  const value = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? (args[i + 1] ?? "") : undefined;
  };
  const runsArg = value("--runs");
  const seedArg = value("--seed");
  const out = value("--json");
  const runs = runsArg === undefined ? DEFAULT_RUNS : check(bounded({ min: 1, max: MAX_RUNS, integer: true }), Number(runsArg), "--runs");
  const seed = seedArg === undefined ? undefined : validateSeed(Number(seedArg), "--seed");
  if (out === "") throw new FrayError("FRAY.Error.Field", { field: "--json", expected: "a file name" }, "--json needs a file name");
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
  const spec = parseEncounter(raw);
  const content = new ContentIndex(join(root, "packs", "_source"));
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  const result = await forecast(spec, content, { runs, seed, onProgress: progressBar() });
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  console.log(formatForecast(result, lookup).join("\n"));
  console.log(
    "\n" +
      t("FRAY.Forecast.Time", {
        runs: result.runs,
        seconds: seconds.toFixed(2),
        cpu: ((cpu.user + cpu.system) / 1e6).toFixed(2),
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

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(localizeError(error, (key, data) => formatKey(lookup, key, data)));
    process.exit(1);
  },
);
