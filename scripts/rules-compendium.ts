/**
 * `npm run compendium` (`tsx scripts/rules-compendium.ts [--check]`): writes the rules compendium
 * from its one source.
 *
 * The source is `docs/rules-index.md` (every rule ID and its English one-line summary) and one
 * file per ruleset, `packs/rules/<ruleset>.yaml`, holding per rule ID the page title in English
 * and German, the German summary and the page text in both languages. The world settings that
 * change a rule come from the rulesets' option specs (each names its rule ID) and the file's
 * `settings` list; the interpretations from the bullets of RULES.md that cite the ID.
 *
 * Written from it:
 * - `packs/_source/<ruleset>-rules/`: one JournalEntry per language (English, German), one text
 *   page per rule ID, in the index's order;
 * - `src/foundry/rules-compendium/catalog.json`: per rule ID its ruleset, titles and summaries,
 *   which the links in play and the `@Rule[...]` enricher show.
 *
 * With `--check` nothing is written; the command fails when a written file differs from what the
 * source gives (test/rules-compendium.test.ts checks the same).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { nestedLookup } from "../src/rules/core/i18n.js";
import type { OptionSpec } from "../src/rules/core/ruleset.js";
import { CRITICAL_OPTIONS } from "../src/rules/critical/options.js";
import { HITBOX_OPTIONS } from "../src/rules/hitbox/options.js";
import { UD10_OPTIONS } from "../src/rules/ud10/options.js";
import { ZONES_OPTIONS } from "../src/rules/zones/options.js";
import {
  RULE_ID,
  RULE_LANGS,
  rulePageId,
  rulesEntryId,
  rulesetOfRule,
  rulesPackName,
  type RuleCatalogEntry,
  type RuleLang,
  type RulesRuleset,
} from "../src/foundry/rules-compendium/pages.js";

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The rulesets whose compendium is written, in the order of docs/rules-index.md. */
export const COMPENDIUM_RULESETS: readonly RulesRuleset[] = ["ud10", "hitbox", "critical", "zones"];

/** Each ruleset's option specs (world settings `<ruleset>-<option id>`). */
const OPTIONS: Record<RulesRuleset, readonly OptionSpec[]> = {
  ud10: UD10_OPTIONS,
  hitbox: HITBOX_OPTIONS,
  critical: CRITICAL_OPTIONS,
  zones: ZONES_OPTIONS,
};

/** The system's own world settings a rule page may name, with their i18n keys. */
const SYSTEM_SETTINGS: Record<string, { name: string; hint: string }> = {
  beyondFull: { name: "FRAY.Flow.Setting.BeyondFull.Name", hint: "FRAY.Flow.Setting.BeyondFull.Hint" },
};

/** Fixed words of the pages, per language. */
const WORDS: Record<RuleLang, { settings: string; where: string; interpretation: string; none: string; path: string }> = {
  en: {
    settings: "World settings",
    where: "Game Settings › Configure Settings › System",
    interpretation: "Recorded in RULES.md",
    none: "No world setting changes this rule.",
    path: "§",
  },
  de: {
    settings: "Welteinstellungen",
    where: "Spieleinstellungen › Einstellungen konfigurieren › System",
    interpretation: "Festgehalten in RULES.md",
    none: "Keine Welteinstellung ändert diese Regel.",
    path: "§",
  },
};

/** One rule of a ruleset file. */
export interface RuleSource {
  title: Record<RuleLang, string>;
  /** The German summary; the English one is the index's line. */
  summary: { de: string };
  /** Page text per language: paragraphs separated by blank lines; `@Rule[ID]` cites another rule. */
  text: Record<RuleLang, string>;
  /** World settings that change the rule beyond the options that name it (`ud10-buffer`, `beyondFull`). */
  settings?: string[];
}

/** A ruleset file, `packs/rules/<ruleset>.yaml`. */
export interface RulesetSource {
  ruleset: RulesRuleset;
  name: Record<RuleLang, string>;
  rules: Record<string, RuleSource>;
}

/** A rule of docs/rules-index.md: its ID and English line, in the index's order. */
export interface IndexRule {
  id: string;
  summary: string;
}

/** Reads the rules of docs/rules-index.md (`- ID text` lines). */
export function readIndex(root = ROOT): IndexRule[] {
  const text = readFileSync(join(root, "docs", "rules-index.md"), "utf8");
  return Array.from(text.matchAll(/^- ((?:UD|HB|CR|ZN)-[A-Z]{2,3}-\d{2}) (.+)$/gm), (m) => ({ id: m[1]!, summary: m[2]!.trim() }));
}

/**
 * Reads and checks one ruleset file.
 * @throws Error naming the file and field when a rule lacks a title, summary or text in a language.
 */
export function readRulesetSource(ruleset: RulesRuleset, root = ROOT): RulesetSource {
  const file = join("packs", "rules", `${ruleset}.yaml`);
  const data = parseYaml(readFileSync(join(root, file), "utf8")) as RulesetSource;
  const fail = (field: string): never => {
    throw new Error(`${file}: ${field} is missing or empty`);
  };
  if (data?.ruleset !== ruleset) fail("ruleset");
  for (const lang of RULE_LANGS) if (!data.name?.[lang]) fail(`name.${lang}`);
  for (const [id, rule] of Object.entries(data.rules ?? {})) {
    for (const lang of RULE_LANGS) {
      if (!rule?.title?.[lang]?.trim()) fail(`rules.${id}.title.${lang}`);
      if (!rule.text?.[lang]?.trim()) fail(`rules.${id}.text.${lang}`);
    }
    if (!rule.summary?.de?.trim()) fail(`rules.${id}.summary.de`);
    const keys = (o: object) => Object.keys(o).sort().join(",");
    if (keys(rule.title) !== "de,en") fail(`rules.${id}.title (only en and de)`);
    if (keys(rule.summary) !== "de") fail(`rules.${id}.summary (only de)`);
    if (keys(rule.text) !== "de,en") fail(`rules.${id}.text (only en and de)`);
  }
  return data;
}

/** A bullet of RULES.md: its section path, its bold lead and the rule IDs its lead and body cite. */
export interface Interpretation {
  section: string;
  lead: string;
  leadIds: string[];
  bodyIds: string[];
}

/** The bullets of RULES.md (`- **Lead (IDs).** body`), each with the `##`/`###` headings above it. */
export function readInterpretations(root = ROOT): Interpretation[] {
  const lines = readFileSync(join(root, "RULES.md"), "utf8").split("\n");
  const out: Interpretation[] = [];
  let h2 = "";
  let h3 = "";
  let current: { section: string; text: string } | undefined;
  const flush = () => {
    if (!current) return;
    const m = /^\*\*(.+?)\*\*(.*)$/s.exec(current.text);
    const lead = (m?.[1] ?? current.text.slice(0, 60)).replace(/\.$/, "");
    const ids = (s: string) => Array.from(new Set(s.match(/\b(?:UD|HB|CR|ZN)-[A-Z]{2,3}-\d{2}\b/g) ?? []));
    out.push({ section: current.section, lead: lead.replace(/\s*\([^)]*\)\s*$/, ""), leadIds: ids(lead), bodyIds: ids(m?.[2] ?? "") });
    current = undefined;
  };
  for (const line of lines) {
    if (line.startsWith("## ")) {
      flush();
      h2 = line.slice(3).trim();
      h3 = "";
    } else if (line.startsWith("### ")) {
      flush();
      h3 = line.slice(4).trim();
    } else if (line.startsWith("- ")) {
      flush();
      current = { section: h3 ? `${h2} › ${h3}` : h2, text: line.slice(2).trim() };
    } else if (current && /^\s+\S/.test(line)) {
      current.text += ` ${line.trim()}`;
    } else if (line.trim() === "") {
      flush();
    }
  }
  flush();
  return out;
}

/** The RULES.md bullets a rule's page refers to: those whose lead names the ID, else those whose text does. */
export function interpretationsOf(id: string, all: readonly Interpretation[]): Interpretation[] {
  const lead = all.filter((i) => i.leadIds.includes(id));
  return lead.length > 0 ? lead : all.filter((i) => i.bodyIds.includes(id));
}

/** A world setting as a page names it. */
interface SettingRef {
  key: string;
  name: string;
  hint: string;
}

/** Every world setting key a rule page may name, with the i18n keys of its name and hint. */
export function knownSettings(): Map<string, { name: string; hint: string; rule?: string }> {
  const map = new Map<string, { name: string; hint: string; rule?: string }>();
  for (const [ruleset, specs] of Object.entries(OPTIONS)) {
    for (const spec of specs) map.set(`${ruleset}-${spec.id}`, { name: spec.label, hint: spec.hint, rule: spec.rule });
  }
  for (const [key, s] of Object.entries(SYSTEM_SETTINGS)) map.set(key, s);
  return map;
}

/** Escapes text for HTML. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}

/** Page text to HTML: blank lines part paragraphs; `**bold**` becomes `<strong>`; `@Rule[...]` stays for the enricher. */
function paragraphs(text: string): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((p) => `<p>${escapeHtml(p.replace(/\s*\n\s*/g, " ")).replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")}</p>`)
    .join("");
}

/** The HTML of one rule's page in one language. */
function pageHtml(
  id: string,
  summary: string,
  rule: RuleSource,
  lang: RuleLang,
  settings: SettingRef[],
  interpretations: Interpretation[],
): string {
  const w = WORDS[lang];
  const parts = [`<p class="fray-rule-summary"><strong>${id}</strong> ${escapeHtml(summary)}</p>`, paragraphs(rule.text[lang])];
  parts.push(`<h3>${w.settings}</h3>`);
  if (settings.length === 0) parts.push(`<p>${w.none}</p>`);
  else {
    parts.push(`<p><em>${w.where}</em></p>`);
    parts.push(`<ul>${settings.map((s) => `<li><strong>${escapeHtml(s.name)}</strong>: ${escapeHtml(s.hint)}</li>`).join("")}</ul>`);
  }
  if (interpretations.length > 0) {
    parts.push(`<h3>${w.interpretation}</h3>`);
    parts.push(
      `<ul>${interpretations.map((i) => `<li>${escapeHtml(i.lead)} <em>(${w.path} ${escapeHtml(i.section)})</em></li>`).join("")}</ul>`,
    );
  }
  return parts.join("");
}

/** The file name the Foundry CLI's extract gives a document: `<Name>_<id>.json`. */
function sourceFileName(name: string, id: string): string {
  return `${name.replace(/[^a-zA-Z0-9]/g, "_")}_${id}.json`;
}

/** Everything the generator writes: repository-relative path to file content. */
export interface Generated {
  files: Map<string, string>;
  /** Folders the generator owns entirely (files in them that it does not write are stale). */
  folders: string[];
}

/**
 * Builds the compendium sources and the catalog from the one source.
 * @throws Error when a ruleset file and the index disagree (an ID in one and not the other, a rule
 *   of another ruleset) or a setting it names does not exist.
 */
export function generate(root = ROOT): Generated {
  const index = readIndex(root);
  const interpretations = readInterpretations(root);
  const settings = knownSettings();
  const langFiles = Object.fromEntries(
    RULE_LANGS.map((l) => [l, nestedLookup(JSON.parse(readFileSync(join(root, "lang", `${l}.json`), "utf8")) as Record<string, unknown>)]),
  ) as Record<RuleLang, (key: string) => string | undefined>;
  const files = new Map<string, string>();
  const folders: string[] = [];
  const catalog: Record<string, RuleCatalogEntry> = {};
  for (const ruleset of COMPENDIUM_RULESETS) {
    const source = readRulesetSource(ruleset, root);
    const rules = index.filter((r) => rulesetOfRule(r.id) === ruleset);
    const missing = rules.filter((r) => !source.rules[r.id]).map((r) => r.id);
    const extra = Object.keys(source.rules).filter((id) => !rules.some((r) => r.id === id));
    if (missing.length || extra.length) {
      throw new Error(
        `packs/rules/${ruleset}.yaml and docs/rules-index.md disagree: missing ${missing.join(", ") || "none"}; not in the index ${extra.join(", ") || "none"}`,
      );
    }
    const pack = rulesPackName(ruleset);
    const folder = `packs/_source/${pack}`;
    folders.push(folder);
    for (const lang of RULE_LANGS) {
      const entryId = rulesEntryId(ruleset, lang);
      const pages = rules.map((r, i) => {
        const rule = source.rules[r.id]!;
        const summary = lang === "en" ? r.summary : rule.summary.de;
        const named = [
          ...[...settings].filter(([, s]) => s.rule === r.id).map(([key]) => key),
          ...(rule.settings ?? []).filter((key) => settings.get(key)?.rule !== r.id),
        ];
        const refs = named.map((key) => {
          const s = settings.get(key);
          if (!s) throw new Error(`packs/rules/${ruleset}.yaml: rules.${r.id}.settings names no world setting "${key}"`);
          const t = langFiles[lang];
          return { key, name: t(s.name) ?? s.name, hint: t(s.hint) ?? s.hint };
        });
        const pageId = rulePageId(r.id, lang);
        return {
          _id: pageId,
          _key: `!journal.pages!${entryId}.${pageId}`,
          name: `${r.id} ${rule.title[lang]}`,
          type: "text",
          title: { show: true, level: 1 },
          text: { format: 1, content: pageHtml(r.id, summary, rule, lang, refs, interpretationsOf(r.id, interpretations)) },
          sort: (i + 1) * 100,
          ownership: { default: -1 },
          flags: { fray: { rule: r.id } },
        };
      });
      const entry = {
        _id: entryId,
        _key: `!journal!${entryId}`,
        name: source.name[lang],
        pages,
        folder: null,
        sort: lang === "en" ? 100 : 200,
        ownership: { default: 0 },
        flags: { fray: { rules: ruleset, lang } },
      };
      files.set(`${folder}/${sourceFileName(entry.name, entryId)}`, `${JSON.stringify(entry, null, 2)}\n`);
    }
    for (const r of rules) {
      const rule = source.rules[r.id]!;
      catalog[r.id] = { ruleset, title: { en: rule.title.en, de: rule.title.de }, summary: { en: r.summary, de: rule.summary.de } };
    }
  }
  for (const id of Object.keys(catalog)) if (!RULE_ID.test(id)) throw new Error(`Not a rule ID: ${id}`);
  files.set("src/foundry/rules-compendium/catalog.json", `${JSON.stringify(catalog, null, 2)}\n`);
  return { files, folders };
}

/** Files on disk under the generator's folders that it would not write (left from removed rules). */
export function staleFiles(generated: Generated, root = ROOT): string[] {
  return generated.folders.flatMap((folder) => {
    const dir = join(root, folder);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .map((f) => `${folder}/${f}`)
      .filter((path) => !generated.files.has(path));
  });
}

function main(argv: string[]): number {
  const check = argv.includes("--check");
  const generated = generate();
  const differ = [...generated.files].filter(([path, content]) => {
    const file = join(ROOT, path);
    return !existsSync(file) || readFileSync(file, "utf8") !== content;
  });
  const stale = staleFiles(generated);
  if (check) {
    for (const [path] of differ) console.error(`${path} differs from its source; run npm run compendium`);
    for (const path of stale) console.error(`${path} has no source; run npm run compendium`);
    return differ.length + stale.length === 0 ? 0 : 1;
  }
  for (const path of stale) rmSync(join(ROOT, path));
  for (const [path, content] of differ) {
    mkdirSync(dirname(join(ROOT, path)), { recursive: true });
    writeFileSync(join(ROOT, path), content);
  }
  console.log(
    `rules compendium: ${generated.files.size} file(s), ${differ.length} written, ${stale.length} removed (${relative(ROOT, join(ROOT, "packs", "rules"))})`,
  );
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
