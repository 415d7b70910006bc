/**
 * Every rule ID the repository cites (code, tests, templates, language files, packs, RULES.md,
 * README) exists in the rules index kept in the repository (`docs/rules-index.md`), so one grep
 * for an ID always finds its rule, and no comment or test names a rule that does not exist.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const RULE_ID = /\b(?:UD|HB|CR|ZN)-[A-Z]{2,3}-\d{2}\b/g;
const SCANNED = [".ts", ".mjs", ".hbs", ".json", ".md", ".yaml"];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : SCANNED.includes(extname(name)) ? [path] : [];
  });
}

/** The IDs the index defines: each rule line starts with `- ID`. */
function indexIds(): Set<string> {
  const text = readFileSync(join(root, "docs", "rules-index.md"), "utf8");
  return new Set(Array.from(text.matchAll(/^- ((?:UD|HB|CR|ZN)-[A-Z]{2,3}-\d{2})\b/gm), (m) => m[1]!));
}

describe("rule IDs", () => {
  const ids = indexIds();

  it("the index in the repository defines all 120 rules", () => {
    expect(ids.size).toBe(120);
  });

  it("every rule ID cited in the repository exists in the index", () => {
    const sources = [
      ...["src", "test", "templates", "lang", "packs/_source", "packs/rules", "examples", "scripts"].flatMap((d) => files(join(root, d))),
      join(root, "RULES.md"),
      join(root, "README.md"),
      ...files(join(root, "docs")),
    ];
    const unknown: string[] = [];
    for (const path of sources) {
      for (const match of readFileSync(path, "utf8").matchAll(RULE_ID)) {
        if (!ids.has(match[0])) unknown.push(`${relative(root, path)}: ${match[0]}`);
      }
    }
    expect(unknown).toEqual([]);
  });
});

describe("Hitbox rules played through the Foundry flow", () => {
  it("every HB-* rule of the index is named by a test title of the bundle's Hitbox flow tests (test/flow/hitbox-*.test.ts)", () => {
    const hb = [...indexIds()].filter((id) => id.startsWith("HB-"));
    expect(hb).toHaveLength(22);
    const dir = join(root, "test", "flow");
    const titles = readdirSync(dir)
      .filter((name) => /^hitbox-.*\.test\.ts$/.test(name))
      .flatMap((name) => Array.from(readFileSync(join(dir, name), "utf8").matchAll(/\bit\(\s*"([^"]*)"/g), (m) => m[1]!))
      .join("\n");
    expect(hb.filter((id) => !titles.includes(id))).toEqual([]);
  });
});
