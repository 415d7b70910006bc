import { defineConfig } from "vitest/config";

/**
 * Unit and bundle tests: every `*.test.ts` under `test/`, run in Node (no browser, no Foundry).
 * Two projects: the rules core, encounter runner and forecast tests share one module graph per
 * worker thread (`isolate: false`: they import pure modules and set no globals, and re-importing
 * the rules for each file was a third of the suite's time); everything else (the Foundry
 * stand-in, the built bundle, globals such as `game`) runs each file in a fresh module graph.
 */
const pure = ["test/rules/**/*.test.ts", "test/encounter/**/*.test.ts", "test/forecast/**/*.test.ts", "test/validate/**/*.test.ts"];
/** Core-folder files that install Foundry stand-in globals: isolated with the glue. */
const withGlobals = [
  "test/rules/dice-foundry.test.ts",
  "test/rules/critical-attack-tables.test.ts",
  "test/rules/critical-severity-tables.test.ts",
];

export default defineConfig({
  test: {
    environment: "node",
    // Encounter plays and bundle loads take seconds on a busy two-core machine; a hang still fails.
    testTimeout: 30_000,
    // A flow file's beforeAll loads the built bundle (about 700 KiB) into a fresh module graph:
    // on a loaded two-core machine that passed the default 10 s.
    hookTimeout: 60_000,
    // Worker threads start faster than child processes; no test needs a process of its own.
    pool: "threads",
    // One worker per core. Vitest's own default leaves a core to its main process, which on a
    // two-core machine ran the whole suite in one worker (95 s against 70 s with two).
    maxWorkers: "100%",
    // Transformed modules are kept in node_modules/.vite/vitest between runs, keyed by each
    // file's content, id and the Vite config (no plugin here reads other files): a run with few
    // changes skips most of the TypeScript transform. `vitest --clearCache` empties it.
    experimental: { fsModuleCache: true },
    projects: [
      {
        extends: true,
        test: { name: "core", include: pure, exclude: withGlobals, isolate: false },
      },
      {
        extends: true,
        // A VM context per file instead of a new worker thread: the same isolation (each file its
        // own globals and module graph) at about 10% less of the suite's time. Vitest's caveat:
        // an error thrown inside a Node built-in is not an instance of the file's own Error.
        test: {
          name: "glue",
          pool: "vmThreads",
          include: ["test/*.test.ts", "test/flow/**/*.test.ts", "test/contract/**/*.test.ts", ...withGlobals],
        },
      },
    ],
  },
});
