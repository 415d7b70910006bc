/**
 * `npm run encounter -- FILE [--out SUMMARY.json] [--seed N] [--quiet]`: plays an encounter file
 * through the rules core with the compendium sources, prints the round-by-round log and writes
 * a JSON summary (default `out/<file name>.json`); `--quiet` prints only how the fight ended (the
 * winner, each combatant's final state).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { ContentIndex } from "../src/encounter/content.js";
import { playEncounter } from "../src/encounter/engine.js";
import { formatLog, formatOutcome } from "../src/encounter/format.js";
import { parseEncounter } from "../src/encounter/schema.js";
import { COMMON_BOUNDS } from "../src/rules/core/bounds.js";
import { FrayError, localizeError } from "../src/rules/core/errors.js";
import { formatKey, nestedLookup } from "../src/rules/core/i18n.js";
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

async function main(argv: string[]): Promise<number> {
  const line = readCommandLine(argv, ["--out", "--seed"], ["--quiet"]);
  const file = line.file;
  if (!file) {
    console.error(formatKey(lookup, "FRAY.Cli.Usage"));
    return 2;
  }
  const outArg = line.values.get("--out");
  const seedArg = line.values.get("--seed");
  const out = outputFile(outArg ?? join("out", `${basename(file, extname(file))}.json`), "--out");
  const seed = seedArg === undefined ? undefined : numberOption(seedArg, COMMON_BOUNDS.seed, "--seed");
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
  if (seed !== undefined) spec.seed = seed;
  const result = await playEncounter(spec, new ContentIndex(join(root, "packs", "_source")));
  // Quiet: how the fight ended and where everyone stands, without the rounds.
  console.log((line.switches.has("--quiet") ? formatOutcome(result, lookup, lang) : formatLog(result, lookup, lang)).join("\n"));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(result, null, 2) + "\n");
  console.log("\n" + formatKey(lookup, "FRAY.Cli.Summary", { file: out }));
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(localizeError(error, (key, data) => formatKey(lookup, key, data)));
    process.exit(1);
  },
);
