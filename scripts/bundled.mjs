#!/usr/bin/env node
/**
 * `node scripts/bundled.mjs scripts/<name>.ts [args...]`: runs a TypeScript script the way the
 * system ships its code, for the scripts whose speed is measured (`npm run bench`, `npm run
 * forecast`). The script and the sources it imports are bundled by esbuild into
 * `scripts/.<name>.<key>.bundle.mjs` (beside the script, so paths it works out from its own URL
 * stay the same; npm packages stay imports; an inline source map keeps stack traces pointing at
 * the TypeScript), then run in this process with the given arguments. The bundle is kept for the
 * next run: `key` is a hash of the path and contents of every file it was built from (listed in
 * `scripts/.<name>.bundle.json`), so a run after a source changed builds a new one, and a run
 * with nothing changed skips esbuild (a quarter of a second; hashing the sources takes
 * milliseconds; the hash also covers this file and esbuild's version). A bundle is kept only when
 * no source changed while it was built, and is never rewritten in place (runs at the same time
 * each read a whole one); bundles of a script unused for an hour and no longer current are
 * removed. Every imported module keeps its own `import.meta.url` (the URL of its source file), as
 * under tsx; the script itself sees the bundle's, so that it can start itself again (a worker
 * thread, a child process) with Node.
 *
 * Why not `tsx` as for the other scripts: tsx compiles with esbuild's `keepNames`, which wraps
 * every named inner function in a naming call each time its enclosing function runs. The
 * shipped bundle (Vite, `npm run build`) has no such calls, and in the rules' hot paths they
 * cost up to half the time, so timings under tsx would measure the development loader rather
 * than the rules. Results are the same either way: the code is the same.
 *
 * Exits with status 2 and a usage line when no script is given.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { readFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const [entry, ...args] = process.argv.slice(2);
if (!entry || !entry.endsWith(".ts")) {
  console.error("Usage: node scripts/bundled.mjs scripts/<name>.ts [args...]");
  process.exit(2);
}
const source = resolve(entry);
const dir = dirname(source);
const name = basename(source, ".ts");
const manifest = join(dir, `.${name}.bundle.json`);
const bundleOf = (key) => join(dir, `.${name}.${key}.bundle.mjs`);

/**
 * What else decides a bundle besides its sources: this file (the build's options) and esbuild's
 * version (its package.json), hashed with them.
 */
const BUILDER = [fileURLToPath(import.meta.url), createRequire(import.meta.url).resolve("esbuild/package.json")];

/** The hash of the files' paths and contents (with {@link BUILDER}'s); null when one is gone. */
function keyOf(files) {
  const hash = createHash("sha256");
  for (const file of [...BUILDER, ...[...files].sort()]) {
    if (!existsSync(file)) return null;
    hash.update(`${file}\0`).update(readFileSync(file)).update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

/** The kept bundle when every file it was built from is as it was then; else undefined. */
function keptBundle() {
  try {
    const { inputs } = JSON.parse(readFileSync(manifest, "utf8"));
    const key = keyOf(inputs);
    if (!key || !existsSync(bundleOf(key))) return undefined;
    // Used now: not among the stale bundles another run's build removes (an hour unused).
    const now = new Date();
    utimesSync(bundleOf(key), now, now);
    return bundleOf(key);
  } catch {
    return undefined;
  }
}

/** Writes `text` to `file` whole: a reader at the same time sees the old file or the new one. */
function writeWhole(file, text) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

const out = keptBundle() ?? (await bundle());

/** Builds the bundle, keeps it under its key, lists its inputs, and removes bundles of this script no longer current. */
async function bundle() {
  // Loaded only to build: a run with a kept bundle does without it.
  const { build } = await import("esbuild");
  /** The text of each TypeScript source as the build read it. */
  const read = new Map();
  const built = await build({
    entryPoints: [source],
    // Named as kept (beside the script), so that the source map's paths hold from there.
    outfile: join(dir, `.${name}.bundle.mjs`),
    write: false,
    metafile: true,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: "inline",
    logLevel: "warning",
    plugins: [
      {
        name: "source-urls",
        setup(b) {
          b.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
            const text = await readFile(path, "utf8");
            read.set(path, text);
            if (path === source) return { contents: text, loader: "ts" };
            return { contents: text.replaceAll("import.meta.url", JSON.stringify(pathToFileURL(path).href)), loader: "ts" };
          });
        },
      },
    ],
  });
  const inputs = Object.keys(built.metafile.inputs).map((p) => resolve(p));
  const key = keyOf(inputs);
  // Kept only when every source is still what the build read (none saved meanwhile); else this
  // run's own bundle, removed when it exits.
  const unchanged = key !== null && [...read].every(([path, text]) => readFileSync(path, "utf8") === text);
  const file = unchanged ? bundleOf(key) : bundleOf(`${process.pid}`);
  if (!unchanged) process.on("exit", () => rmSync(file, { force: true }));
  writeWhole(file, built.outputFiles[0].text);
  if (unchanged) writeWhole(manifest, JSON.stringify({ inputs }));
  const hourAgo = Date.now() - 3_600_000;
  for (const f of readdirSync(dir))
    if (f.startsWith(`.${name}.`) && f.endsWith(".bundle.mjs") && join(dir, f) !== file) {
      try {
        if (statSync(join(dir, f)).mtimeMs < hourAgo) rmSync(join(dir, f), { force: true });
      } catch {
        // Removed by another run meanwhile.
      }
    }
  return file;
}
// Stack traces through the inline source map, pointing at the TypeScript.
process.setSourceMapsEnabled(true);
process.argv = [process.argv[0], out, ...args];
await import(pathToFileURL(out).href);
