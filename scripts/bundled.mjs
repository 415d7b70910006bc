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
 * milliseconds). A bundle is never
 * rewritten in place (runs at the same time each read a whole one); bundles of a script older
 * than an hour and no longer current are removed. Every imported module keeps
 * its own `import.meta.url` (the URL of its source file), as under tsx; the script itself sees
 * the bundle's, so that it can start itself again (a worker thread, a child process) with Node.
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
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

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

/** The hash of the files' paths and contents; null when one is gone. */
function keyOf(files) {
  const hash = createHash("sha256");
  for (const file of [...files].sort()) {
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
    return key && existsSync(bundleOf(key)) ? bundleOf(key) : undefined;
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
            if (path === source) return { contents: text, loader: "ts" };
            return { contents: text.replaceAll("import.meta.url", JSON.stringify(pathToFileURL(path).href)), loader: "ts" };
          });
        },
      },
    ],
  });
  const inputs = Object.keys(built.metafile.inputs).map((p) => resolve(p));
  const key = keyOf(inputs);
  const file = bundleOf(key ?? `${process.pid}`);
  writeWhole(file, built.outputFiles[0].text);
  writeWhole(manifest, JSON.stringify({ inputs }));
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
