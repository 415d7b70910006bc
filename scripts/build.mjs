#!/usr/bin/env node
/**
 * Builds the installable system into `dist/`:
 *
 * 1. cleans `dist/`;
 * 2. bundles `src/foundry/main.ts` with Vite into a minified `dist/fray.mjs` (+ a source map holding
 *    the TypeScript sources, so stack traces and the debugger stay readable), and the forecast's
 *    Web Worker into `dist/forecast-worker.mjs` the same way;
 * 3. concatenates `styles/*.css` into `dist/fray.css`;
 * 4. copies `system.json` (with the version from package.json and the release URLs of
 *    `release-manifest.mjs`: `FRAY_REPOSITORY=owner/name FRAY_RELEASE_TAG=v<version>` as the
 *    release workflow sets them, else the checked-in repository and `v<version>`), `LICENSE`,
 *    `templates/` and `lang/`;
 * 5. compiles every folder `packs/_source/<name>/` (JSON sources, nested folders allowed) into
 *    the LevelDB pack `dist/packs/<name>/`;
 * 6. zips everything into `dist/fray-<version>.zip` with `system.json` at the zip root.
 *
 * Usage: `node scripts/build.mjs` (or `npm run build`). Exits non-zero on any failure.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { compilePack } from "@foundryvtt/foundryvtt-cli";
import { zipSync } from "fflate";
import { build as viteBuild } from "vite";
import { releaseManifest } from "./release-manifest.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
const packSources = join(root, "packs", "_source");

/** Reads and parses a JSON file. */
function readJson(path) {
  return JSON.parse(readFileSync(path, "utf8"));
}

/** Every file below `dir`, as paths relative to `dir` with forward slashes, sorted. */
function listFiles(dir) {
  const out = [];
  const walk = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) out.push(relative(dir, full).split(sep).join("/"));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out.sort();
}

/**
 * Step 2: the Vite library build of the Foundry entry point, then of the forecast's Web Worker
 * (`src/foundry/forecast/worker-entry.ts`) as its own self-contained, minified module beside it.
 */
async function bundle() {
  await viteBuild({ configFile: join(root, "vite.config.ts"), logLevel: "warn" });
  if (!existsSync(join(dist, "fray.mjs"))) throw new Error("Vite did not produce dist/fray.mjs");
  await viteBuild({
    configFile: join(root, "vite.config.ts"),
    logLevel: "warn",
    build: { lib: { entry: join(root, "src", "foundry", "forecast", "worker-entry.ts"), fileName: () => "forecast-worker.mjs" } },
  });
  if (!existsSync(join(dist, "forecast-worker.mjs"))) throw new Error("Vite did not produce dist/forecast-worker.mjs");
}

/** Step 3: plain CSS, concatenated: the base `fray.css` first, then each ruleset's in file-name order. */
function styles() {
  const dir = join(root, "styles");
  const files = listFiles(dir)
    .filter((f) => f.endsWith(".css"))
    .sort((a, b) => (a === "fray.css" ? -1 : b === "fray.css" ? 1 : a.localeCompare(b)));
  const css = files.map((f) => `/* ${f} */\n${readFileSync(join(dir, f), "utf8").trimEnd()}\n`).join("\n");
  writeFileSync(join(dist, "fray.css"), css);
}

/** Step 4: manifest (version from package.json, release URLs), licence, templates and languages. */
function copyStatic(version) {
  const source = readJson(join(root, "system.json"));
  if (source.version !== version) {
    console.warn(`system.json has version ${source.version}; the build writes ${version} from package.json`);
  }
  const manifest = releaseManifest(source, version, process.env);
  writeFileSync(join(dist, "system.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  cpSync(join(root, "LICENSE"), join(dist, "LICENSE"));
  for (const dir of ["templates", "lang"]) {
    if (existsSync(join(root, dir))) cpSync(join(root, dir), join(dist, dir), { recursive: true });
  }
  return manifest;
}

/** Step 5: one LevelDB pack per source folder. Returns the names compiled. */
async function packs(manifest) {
  const declared = new Set((manifest.packs ?? []).map((p) => p.name));
  const folders = existsSync(packSources)
    ? readdirSync(packSources, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort()
    : [];
  for (const name of folders) {
    const src = join(packSources, name);
    const sources = listFiles(src).filter((f) => f.endsWith(".json"));
    const withoutKey = sources.filter((f) => {
      try {
        return !readJson(join(src, f))._key;
      } catch (error) {
        throw new Error(`packs/_source/${name}/${f}: ${error.message}`);
      }
    });
    for (const f of withoutKey) console.warn(`packs/_source/${name}/${f} has no _key and is not packed`);
    let count = 0;
    await compilePack(src, join(dist, "packs", name), {
      recursive: true,
      transformEntry: () => {
        count += 1;
      },
    });
    if (!declared.has(name)) console.warn(`Pack ${name} is compiled but not declared in system.json`);
    console.log(`pack ${name}: ${count} document(s)`);
  }
  for (const name of declared) {
    if (!folders.includes(name)) console.warn(`Pack ${name} is declared in system.json but packs/_source/${name} does not exist`);
  }
  return folders;
}

/** LevelDB's lock and log files: created when a pack is opened, not part of its data. */
const LEVELDB_RUNTIME = /^packs\/[^/]+\/(LOCK|LOG|LOG\.old)$/;

/**
 * Step 6: the release zip, `system.json` at its root beside every other built file (LevelDB
 * lock and log files left out).
 */
function zip(version) {
  const name = `fray-${version}.zip`;
  const entries = {};
  for (const file of listFiles(dist)) {
    if (file === name || LEVELDB_RUNTIME.test(file)) continue;
    entries[file] = [readFileSync(join(dist, file)), { level: 9 }];
  }
  writeFileSync(join(dist, name), zipSync(entries));
  return { name, files: Object.keys(entries).length };
}

async function main() {
  const started = Date.now();
  const { version } = readJson(join(root, "package.json"));
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  await bundle();
  styles();
  const manifest = copyStatic(version);
  const compiled = await packs(manifest);
  const archive = zip(version);
  const size = (statSync(join(dist, archive.name)).size / 1024).toFixed(1);
  const bundleSize = (statSync(join(dist, "fray.mjs")).size / 1024).toFixed(1);
  const workerSize = (statSync(join(dist, "forecast-worker.mjs")).size / 1024).toFixed(1);
  console.log(
    `Built Fray ${version} in ${Date.now() - started} ms: fray.mjs (${bundleSize} KiB, minified), forecast-worker.mjs (${workerSize} KiB), fray.css, ${compiled.length} pack(s), ` +
      `dist/${archive.name} (${archive.files} files, ${size} KiB)`,
  );
}

main().catch((error) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
