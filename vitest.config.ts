import { defineConfig } from "vitest/config";

/** Unit and bundle tests: every `*.test.ts` under `test/`, run in Node (no browser, no Foundry). */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    // Encounter plays and bundle loads take seconds on a busy two-core machine; a hang still fails.
    testTimeout: 30_000,
  },
});
