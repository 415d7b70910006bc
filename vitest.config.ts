import { defineConfig } from "vitest/config";

/** Unit and bundle tests: every `*.test.ts` under `test/`, run in Node (no browser, no Foundry). */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
  },
});
