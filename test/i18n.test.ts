/**
 * Localization coverage: every `FRAY.*` key the code and templates use exists in both
 * `lang/en.json` and `lang/de.json`, both files hold the same keys, and each translation uses
 * the same `{placeholders}` as its English original.
 *
 * Keys are found as whole quoted string literals (`"FRAY.Mod.Cover"`, `'FRAY.Sheet.Edit'`) in
 * `src/**\/*.ts`, `scripts/**` and `templates/**\/*.hbs`. Keys built at run time
 * (`` `FRAY.Zone.${zone}` ``) cannot be checked one by one; for those the test checks that the
 * fixed part before the interpolation names an existing group of keys.
 */
import { readdirSync, readFileSync } from "node:fs";
import { extname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

type Tree = { [key: string]: string | Tree };

function readLang(code: string): Tree {
  return JSON.parse(readFileSync(join(root, "lang", `${code}.json`), "utf8")) as Tree;
}

/** Every leaf of a nested language file as `a.b.c` => text. */
function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

/**
 * True when the fixed start of a key built at run time (`FRAY.Zone.` or `FRAY.Log.Maneuver_`)
 * names keys that exist: the group before the last dot has a key starting with the rest.
 */
function hasKeysStartingWith(tree: Tree, start: string): boolean {
  const cut = start.lastIndexOf(".");
  const group = start.slice(0, cut);
  const stem = start.slice(cut + 1);
  let node: string | Tree | undefined = tree;
  for (const part of group.split(".")) {
    if (typeof node !== "object") return false;
    node = node[part];
  }
  return typeof node === "object" && Object.keys(node).some((k) => k.startsWith(stem));
}

/** What a dotted path points at in a language file: a text, a group of keys, or nothing. */
function resolve(tree: Tree, path: string): "text" | "group" | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of path.split(".")) {
    if (typeof node !== "object") return undefined;
    node = node[part];
  }
  if (typeof node === "string") return "text";
  return node ? "group" : undefined;
}

function walk(dir: string, extensions: string[]): string[] {
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return walk(path, extensions);
    // Dot files are generated (`scripts/.<name>.<key>.bundle.mjs`, kept an hour by
    // scripts/bundled.mjs): a stale one still holds a key since removed from the sources.
    if (entry.name.startsWith(".")) return [];
    return extensions.includes(extname(entry.name)) ? [path] : [];
  });
}

interface Use {
  key: string;
  file: string;
  line: number;
  text: string;
}

const KEY = /["'](FRAY\.[A-Za-z0-9_.]+)["']/g;
const DYNAMIC = /`(FRAY\.[A-Za-z0-9_.]*)\$\{/g;

function scan(pattern: RegExp): Use[] {
  const files = [...walk("src", [".ts"]), ...walk("scripts", [".ts", ".mjs", ".js"]), ...walk("templates", [".hbs"])];
  const uses: Use[] = [];
  for (const file of files) {
    const lines = readFileSync(join(root, file), "utf8").split("\n");
    lines.forEach((text, i) => {
      for (const match of text.matchAll(pattern)) {
        uses.push({ key: match[1]!, file: relative(root, join(root, file)), line: i + 1, text });
      }
    });
  }
  return uses;
}

const langs = { en: readLang("en"), de: readLang("de") };
const flat = { en: flatten(langs.en), de: flatten(langs.de) };
const uses = scan(KEY);
const dynamicUses = scan(DYNAMIC);

describe("i18n", () => {
  it("finds the keys used in the code and templates", () => {
    expect(uses.length).toBeGreaterThan(50);
    expect(uses.some((u) => u.file.endsWith(".hbs"))).toBe(true);
  });

  for (const code of ["en", "de"] as const) {
    it(`lang/${code}.json has every key the code uses`, () => {
      const missing = uses
        .filter((u) => {
          const found = resolve(langs[code], u.key);
          if (found === "text") return false;
          // A data model's LOCALIZATION_PREFIXES names a group of keys, not a text.
          return !(found === "group" && u.text.includes("LOCALIZATION_PREFIXES"));
        })
        .map((u) => `${u.key} (${u.file}:${u.line})`);
      expect([...new Set(missing)]).toEqual([]);
    });

    it(`lang/${code}.json has a group for every key built at run time`, () => {
      const missing = dynamicUses.filter((u) => !hasKeysStartingWith(langs[code], u.key)).map((u) => `${u.key}* (${u.file}:${u.line})`);
      expect([...new Set(missing)]).toEqual([]);
    });
  }

  it("en and de have the same keys", () => {
    const onlyEn = [...flat.en.keys()].filter((k) => !flat.de.has(k));
    const onlyDe = [...flat.de.keys()].filter((k) => !flat.en.has(k));
    expect({ onlyEn, onlyDe }).toEqual({ onlyEn: [], onlyDe: [] });
  });

  it("every German text uses the placeholders of its English text", () => {
    const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    const differ = [...flat.en].filter(([key, en]) => {
      const de = flat.de.get(key);
      return de !== undefined && placeholders(en).join() !== placeholders(de).join();
    });
    expect(differ.map(([key]) => key)).toEqual([]);
  });

  it("no text is empty", () => {
    const empty = [...flat.en, ...flat.de].filter(([, text]) => !text.trim()).map(([key]) => key);
    expect(empty).toEqual([]);
  });
});
