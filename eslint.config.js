// @ts-check
/**
 * Lint configuration (ESLint 9 flat config): JavaScript recommended rules and the
 * typescript-eslint recommended rules (type-unaware, so linting stays fast and needs no project
 * service). Node globals for build scripts and tests, browser globals for the Foundry glue.
 */
import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig(
  {
    ignores: ["dist/**", "node_modules/**", "test-artifacts/**", "out/**", "coverage/**", "scripts/.*.bundle.mjs"],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.node },
    },
    rules: {
      // Unused parameters that start with an underscore are deliberate (interface conformance).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["src/foundry/**/*.ts", "test/support/**/*.ts"],
    languageOptions: { globals: { ...globals.browser } },
  },
  // Layers run one way: foundry -> forecast/encounter -> rules. The rules core imports nothing
  // outside itself; the encounter runner and the forecast nothing of the Foundry glue.
  {
    files: ["src/rules/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [{ regex: "^\\.\\./(\\.\\./)*(foundry|encounter|forecast)/", message: "src/rules imports nothing outside src/rules." }],
        },
      ],
    },
  },
  {
    files: ["src/encounter/**/*.ts", "src/forecast/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "^\\.\\./(\\.\\./)*foundry/", message: "The encounter runner and the forecast import nothing of src/foundry." },
          ],
        },
      ],
    },
  },
  // The generic glue reaches a ruleset only through the registry; main.ts registers the bindings.
  {
    files: ["src/foundry/**/*.ts"],
    ignores: ["src/foundry/rulesets/**", "src/foundry/main.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "(^|/)rulesets/",
              message: "Generic glue imports no ruleset binding: read it from the registry (registry.ts).",
            },
          ],
        },
      ],
    },
  },
);
