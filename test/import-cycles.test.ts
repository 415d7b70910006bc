/**
 * Layers that hold (issue "Each rule written once", §5): no module of src/ imports itself back
 * through a chain of imports. Type-only imports (`import type`, erased at build) do not count;
 * an import that brings a value does. The layer rules themselves (src/rules imports nothing
 * outside itself, the encounter runner and the forecast nothing of src/foundry, the generic glue
 * no ruleset binding) are lint rules (eslint.config.js).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Every TypeScript module under a folder (declarations left out). */
function modules(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return modules(path);
    return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** `import ... from "./x.js"` and `export ... from "./x.js"`, except whole type-only ones. */
const IMPORT = /^\s*(?:import|export)\s+(type\s+)?(?:[^;"']*?\s+from\s+)?["'](\.[^"']+)["']/gms;

/** The value imports of each module, as module paths. */
export function importGraph(files: readonly string[], read: (path: string) => string): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const deps: string[] = [];
    for (const m of read(file).matchAll(IMPORT)) {
      if (m[1]) continue;
      const target = normalize(join(dirname(file), m[2]!)).replace(/\.js$/, ".ts");
      if (known.has(target)) deps.push(target);
    }
    graph.set(file, deps);
  }
  return graph;
}

/** The strongly connected groups of more than one module (or a module importing itself). */
export function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("import cycles in src/", () => {
  it("no module of src/ imports itself back", () => {
    const files = modules(join(root, "src"));
    expect(files.length).toBeGreaterThan(100);
    const found = cycles(importGraph(files, (p) => readFileSync(p, "utf8"))).map((g) => g.map((f) => relative(root, f)));
    expect(found).toEqual([]);
  });

  it("finds a cycle of value imports and ignores one closed only by a type import", () => {
    const sources: Record<string, string> = {
      "/s/a.ts": 'import { b } from "./b.js";',
      "/s/b.ts": 'import {\n  c,\n  type C,\n} from "./c.js";',
      "/s/c.ts": 'export { a } from "./a.js";',
      "/s/d.ts": 'import type { A } from "./a.js";\nimport "./e.js";',
      "/s/e.ts": 'import type { D } from "./d.js";',
    };
    const graph = importGraph(Object.keys(sources), (p) => sources[p]!);
    expect(cycles(graph)).toEqual([["/s/a.ts", "/s/b.ts", "/s/c.ts"]]);
  });
});
