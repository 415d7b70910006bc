import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));

/**
 * Library build of the Foundry entry point: `src/foundry/main.ts` becomes one minified ES module,
 * `dist/fray.mjs`, with a source map. `scripts/build.mjs` cleans `dist/` first and adds the
 * manifest, styles, templates, languages, compendium packs and the release zip around it.
 */
export default defineConfig(({ mode }) => ({
  root,
  /**
   * `__FRAY_QUENCH__` registers the Quench batches (src/foundry/quench.ts) unconditionally: true in
   * development builds (`vite build --mode development`) or with `FRAY_QUENCH=1`. Releases ship
   * the batches too and register them when the GM turns on the world setting `quenchBatches`.
   */
  define: {
    __FRAY_QUENCH__: JSON.stringify(mode === "development" || process.env.FRAY_QUENCH === "1"),
  },
  publicDir: false,
  logLevel: "warn",
  build: {
    outDir: resolve(root, "dist"),
    emptyOutDir: false,
    // The shipped bundle is minified; the source map (with the TypeScript sources inside) keeps
    // stack traces and the browser's debugger readable. Class and function names are kept:
    // Foundry registers sheets and data models under their class names.
    sourcemap: true,
    minify: true,
    rolldownOptions: { output: { keepNames: true, minify: true } },
    target: "es2022",
    reportCompressedSize: false,
    lib: {
      entry: resolve(root, "src/foundry/main.ts"),
      formats: ["es"],
      fileName: () => "fray.mjs",
    },
  },
}));
