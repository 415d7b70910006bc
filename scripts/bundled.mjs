#!/usr/bin/env node
/**
 * `node scripts/bundled.mjs scripts/<name>.ts [args...]`: runs a TypeScript script the way the
 * system ships its code, for the scripts whose speed is measured (`npm run bench`, `npm run
 * forecast`). The script and the sources it imports are bundled by esbuild into
 * `scripts/.<name>.<pid>.bundle.mjs` (beside the script, so paths it works out from its own URL
 * stay the same; one per process, so runs at the same time do not share one; removed when the
 * process exits; npm packages stay imports; an inline source map keeps stack traces pointing at
 * the TypeScript), then run in this process with the given arguments. Every imported module keeps
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
import { build } from "esbuild";
import { rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [entry, ...args] = process.argv.slice(2);
if (!entry || !entry.endsWith(".ts")) {
  console.error("Usage: node scripts/bundled.mjs scripts/<name>.ts [args...]");
  process.exit(2);
}
const source = resolve(entry);
const out = join(dirname(source), `.${basename(source, ".ts")}.${process.pid}.bundle.mjs`);
process.on("exit", () => rmSync(out, { force: true }));
await build({
  entryPoints: [source],
  outfile: out,
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
// Stack traces through the inline source map, pointing at the TypeScript.
process.setSourceMapsEnabled(true);
process.argv = [process.argv[0], out, ...args];
await import(pathToFileURL(out).href);
