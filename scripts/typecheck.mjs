#!/usr/bin/env node
/**
 * Type-checks the rules core on its own (`tsconfig.rules.json`: no DOM, no Foundry or Node types)
 * and the whole repository (`tsconfig.json`) in tsc's build mode, which stops at once when no
 * project file changed since the last check (each project's build info is kept in
 * `node_modules/.cache/tsc`).
 *
 * Build mode compares the projects' own files and tsconfigs by their times, not the declarations
 * installed under `node_modules`: a build info older than the last install (npm rewrites
 * `node_modules/.package-lock.json` on each) is dropped first, so that changed dependency types
 * are checked. `--force` checks everything, for files copied with their old times.
 *
 * Usage: `node scripts/typecheck.mjs [--force]` (`npm run typecheck`). Exits with tsc's code.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const cache = join(root, "node_modules", ".cache", "tsc");
const installed = join(root, "node_modules", ".package-lock.json");

if (existsSync(cache) && existsSync(installed)) {
  const since = statSync(installed).mtimeMs;
  for (const name of readdirSync(cache)) {
    const file = join(cache, name);
    if (statSync(file).mtimeMs < since) rmSync(file, { force: true });
  }
}

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const run = spawnSync(process.execPath, [tsc, "-b", "tsconfig.rules.json", "tsconfig.json", ...process.argv.slice(2)], {
  cwd: root,
  stdio: "inherit",
});
process.exit(run.status ?? 1);
