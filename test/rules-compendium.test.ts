/**
 * The rules compendium and the rule links: the compendium (packs/_source/<ruleset>-rules) and the
 * catalog the links read are what `scripts/rules-compendium.ts` makes of their one source
 * (docs/rules-index.md and packs/rules/*.yaml); the source and the index agree one to one; every
 * rule ID in src/ has a page; links point at pages that exist, in the reader's language.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  COMPENDIUM_RULESETS,
  generate,
  interpretationsOf,
  knownSettings,
  readIndex,
  readInterpretations,
  readRulesetSource,
  staleFiles,
} from "../scripts/rules-compendium.js";
import { RULE_ENRICHER_PATTERN, linkRuleIds } from "../src/foundry/rules-compendium/links.js";
import {
  RULE_CATALOG,
  RULE_LANGS,
  ruleLinkHtml,
  ruleListHtml,
  rulePageUuid,
  ruleRef,
  rulesetOfRule,
  type RuleLang,
} from "../src/foundry/rules-compendium/pages.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const RULE_ID_G = /\b(?:UD|HB|CR|ZN)-[A-Z]{2,3}-\d{2}\b/g;
/** An ID shaped like a rule that the index does not hold (built, so the repository cites no unknown rule). */
const UNKNOWN = ["UD", "XXX", "99"].join("-");

interface Page {
  _id: string;
  name: string;
  text: { content: string };
  flags: { fray: { rule: string } };
}
interface Entry {
  _id: string;
  name: string;
  pages: Page[];
  flags: { fray: { rules: string; lang: RuleLang } };
}

const generated = generate(root);

/** The journal entries written for a ruleset, by language. */
function entries(ruleset: string): Record<RuleLang, Entry> {
  const out = {} as Record<RuleLang, Entry>;
  for (const [path, content] of generated.files) {
    if (!path.startsWith(`packs/_source/${ruleset}-rules/`)) continue;
    const entry = JSON.parse(content) as Entry;
    out[entry.flags.fray.lang] = entry;
  }
  return out;
}

function page(id: string, lang: RuleLang): Page {
  const ruleset = rulesetOfRule(id)!;
  const found = entries(ruleset)[lang].pages.find((p) => p.flags.fray.rule === id);
  if (!found) throw new Error(`no page for ${id} (${lang})`);
  return found;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [".ts", ".hbs"].includes(extname(name)) ? [path] : [];
  });
}

describe("one source", () => {
  it("each ruleset file holds exactly the index's rules of that ruleset, and the index's line is the English summary", () => {
    const index = readIndex(root);
    for (const ruleset of COMPENDIUM_RULESETS) {
      const ids = index.filter((r) => rulesetOfRule(r.id) === ruleset).map((r) => r.id);
      expect(Object.keys(readRulesetSource(ruleset, root).rules).sort(), ruleset).toEqual([...ids].sort());
      for (const r of index.filter((x) => rulesetOfRule(x.id) === ruleset)) expect(RULE_CATALOG[r.id]?.summary.en, r.id).toBe(r.summary);
    }
  });

  it("the compendium holds a page for each of the index's 120 rules, and no other", () => {
    expect([...COMPENDIUM_RULESETS].sort()).toEqual(["critical", "hitbox", "ud10", "zones"]);
    expect(Object.keys(RULE_CATALOG).sort()).toEqual(
      readIndex(root)
        .map((r) => r.id)
        .sort(),
    );
    expect(Object.keys(RULE_CATALOG)).toHaveLength(120);
  });

  it("the compendium sources and the catalog on disk are what the source gives (npm run compendium writes them)", () => {
    for (const [path, content] of generated.files) expect(readFileSync(join(root, path), "utf8"), path).toBe(content);
    expect(staleFiles(generated, root)).toEqual([]);
  });

  it("every rule ID the code and templates name (src/, templates/) has a page", () => {
    const covered = new Set<string>(COMPENDIUM_RULESETS);
    const missing: string[] = [];
    for (const path of [...files(join(root, "src")), ...files(join(root, "templates"))]) {
      for (const m of readFileSync(path, "utf8").matchAll(RULE_ID_G)) {
        if (covered.has(rulesetOfRule(m[0])!) && !RULE_CATALOG[m[0]]) missing.push(`${relative(root, path)}: ${m[0]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("each ruleset's pack is declared in system.json as a JournalEntry pack in the ruleset's folder", () => {
    const manifest = JSON.parse(readFileSync(join(root, "system.json"), "utf8")) as {
      packs: { name: string; type: string; path: string }[];
      packFolders: { packs: string[] }[];
    };
    for (const ruleset of COMPENDIUM_RULESETS) {
      const pack = manifest.packs.find((p) => p.name === `${ruleset}-rules`);
      expect(pack, ruleset).toMatchObject({ type: "JournalEntry", path: `packs/${ruleset}-rules` });
      expect(
        manifest.packFolders.some((f) => f.packs.includes(`${ruleset}-rules`) && f.packs.includes(`${ruleset}-weapons`)),
        ruleset,
      ).toBe(true);
    }
  });
});

describe("pages", () => {
  const ids = Object.keys(RULE_CATALOG);

  it("each ruleset has an English and a German journal entry with one page per rule, in the index's order", () => {
    const index = readIndex(root).map((r) => r.id);
    for (const ruleset of COMPENDIUM_RULESETS) {
      const byLang = entries(ruleset);
      for (const lang of RULE_LANGS) {
        const order = byLang[lang].pages.map((p) => p.flags.fray.rule);
        expect(order, `${ruleset} ${lang}`).toEqual(index.filter((id) => rulesetOfRule(id) === ruleset));
      }
      expect(byLang.en.name).not.toBe(byLang.de.name);
    }
  });

  it("every page opens with its ID and summary in its language, and the two languages' texts differ", () => {
    for (const id of ids) {
      for (const lang of RULE_LANGS) {
        const p = page(id, lang);
        expect(p.name, id).toBe(`${id} ${RULE_CATALOG[id]!.title[lang]}`);
        expect(p.text.content, id).toContain(
          `<strong>${id}</strong> ${RULE_CATALOG[id]!.summary[lang].replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")}`,
        );
      }
      expect(page(id, "de").text.content, id).not.toBe(page(id, "en").text.content);
    }
  });

  it("every @Rule[...] a page cites names a rule with a page", () => {
    for (const id of ids) {
      for (const lang of RULE_LANGS) {
        for (const m of page(id, lang).text.content.matchAll(/@Rule\[([^\]]+)\]/g))
          expect(RULE_CATALOG[m[1]!], `${id} ${lang} cites ${m[1]}`).toBeDefined();
      }
    }
  });

  it("UD-DMG-03: the buffer page names the world setting that turns it off, in each language", () => {
    const en = JSON.parse(readFileSync(join(root, "lang", "en.json"), "utf8")) as { FRAY: { Option: Record<string, { label: string }> } };
    const de = JSON.parse(readFileSync(join(root, "lang", "de.json"), "utf8")) as { FRAY: { Option: Record<string, { label: string }> } };
    expect(page("UD-DMG-03", "en").text.content).toContain(`<strong>${en.FRAY.Option.buffer!.label}</strong>`);
    expect(page("UD-DMG-03", "de").text.content).toContain(`<strong>${de.FRAY.Option.buffer!.label}</strong>`);
    expect(page("UD-ATK-01", "en").text.content).toContain("No world setting changes this rule.");
  });

  it("every world option of a ruleset with a compendium is named on its rule's page", () => {
    for (const [key, setting] of knownSettings()) {
      if (!setting.rule || !COMPENDIUM_RULESETS.some((r) => key.startsWith(`${r}-`))) continue;
      const en = JSON.parse(readFileSync(join(root, "lang", "en.json"), "utf8")) as Record<string, unknown>;
      const label = setting.name.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], en) as string;
      expect(page(setting.rule, "en").text.content, key).toContain(`<strong>${label.replace(/&/g, "&amp;")}</strong>`);
    }
  });

  it("a page refers to the RULES.md bullets whose lead names its rule (UD-DMG-03: Buffer)", () => {
    const all = readInterpretations(root);
    expect(interpretationsOf("UD-DMG-03", all).map((i) => i.lead)).toContain("Buffer");
    for (const id of ids) {
      for (const i of interpretationsOf(id, all))
        expect(page(id, "en").text.content, id).toContain(`${i.lead.replace(/&/g, "&amp;")} <em>(§ `);
    }
  });
});

describe("links to rules", () => {
  it("UD-DMG-03: a link points at the page of the reader's language that the pack holds, with its summary as tooltip", () => {
    for (const lang of RULE_LANGS) {
      const ref = ruleRef("UD-DMG-03", lang)!;
      const p = page("UD-DMG-03", lang);
      expect(ref.uuid).toBe(`Compendium.fray.ud10-rules.JournalEntry.${entries("ud10")[lang]._id}.JournalEntryPage.${p._id}`);
      const html = ruleLinkHtml("UD-DMG-03", lang);
      expect(html).toContain(`class="content-link fray-rule-link"`);
      expect(html).toContain(`data-uuid="${ref.uuid}"`);
      expect(html).toContain(`data-tooltip="UD-DMG-03 · ${ref.summary}"`);
      expect(html).toMatch(/>UD-DMG-03<\/a>$/);
    }
    expect(ruleRef("UD-DMG-03", "fr")!.uuid).toBe(rulePageUuid("UD-DMG-03", "en"));
  });

  it("an unknown ID and other text stay plain, escaped text; a rule of another ruleset than the world's is no link", () => {
    expect(ruleLinkHtml(UNKNOWN, "en")).toBe(UNKNOWN);
    expect(ruleLinkHtml("UD-DMG-03", "en", { label: "<b>Buffer</b>" })).toContain("&lt;b&gt;Buffer&lt;/b&gt;</a>");
    expect(ruleListHtml("see UD-DMG-03", "en")).toBeUndefined();
    const foreign = ruleLinkHtml("UD-DMG-03", "en", { world: "zones" });
    expect(foreign).toMatch(/^<span class="fray-rule-link"/);
    expect(foreign).not.toContain("data-uuid");
  });

  it("UD-ATK-03, UD-DEF-01: a list of IDs becomes one link each, the separator kept", () => {
    const html = ruleListHtml("UD-ATK-03, UD-DEF-01", "de")!;
    expect(html.match(/<a /g)).toHaveLength(2);
    expect(html).toContain("</a>, <a ");
    expect(html).toContain(`data-uuid="${rulePageUuid("UD-DEF-01", "de")}"`);
  });

  it("the @Rule enricher pattern takes the ID and an optional label", () => {
    const matches = Array.from("See @Rule[UD-DMG-03] and @Rule[UD-DMG-05]{penetration}.".matchAll(RULE_ENRICHER_PATTERN));
    expect(matches.map((m) => [m[1], m[2]])).toEqual([
      ["UD-DMG-03", undefined],
      ["UD-DMG-05", "penetration"],
    ]);
    expect(RULE_ENRICHER_PATTERN.flags).toContain("g");
  });
});

/** An element stand-in with what {@link linkRuleIds} reads and writes. */
class El {
  innerHTML: string;
  dataset: Record<string, string>;
  constructor(
    public textContent: string,
    dataset: Record<string, string> = {},
    public kids: Record<string, El[]> = {},
  ) {
    this.innerHTML = textContent;
    this.dataset = dataset;
  }
  querySelectorAll(selector: string): El[] {
    return this.kids[selector] ?? [];
  }
  querySelector(selector: string): El | null {
    return this.kids[selector]?.[0] ?? null;
  }
  insertAdjacentHTML(_where: string, html: string): void {
    this.innerHTML += html;
  }
}

describe("rule IDs in rendered HTML", () => {
  const g = globalThis as Record<string, unknown>;
  let saved: unknown;
  beforeEach(() => {
    saved = g.game;
    g.game = { i18n: { lang: "de" }, settings: { get: () => "ud10" } };
  });
  afterEach(() => {
    g.game = saved;
  });

  it("UD-OPT-01: a .fray-rule element's ID becomes a link to the German page for a German reader, once", () => {
    const rule = new El("UD-OPT-01");
    const root = new El("", {}, { ".fray-rule": [rule] });
    linkRuleIds(root);
    expect(rule.innerHTML).toContain(`data-uuid="${rulePageUuid("UD-OPT-01", "de")}"`);
    expect(rule.innerHTML).toContain(RULE_CATALOG["UD-OPT-01"]!.summary.de);
    const once = rule.innerHTML;
    linkRuleIds(root);
    expect(rule.innerHTML).toBe(once);
  });

  it("UD-ATK-03: a bare-ID tooltip gets the summary and a book link in its label", () => {
    const label = new El("Defense");
    const field = new El("", { tooltip: "UD-ATK-03" }, { ":scope > span, :scope > dt, :scope > legend": [label] });
    const other = new El("", { tooltip: "Not a rule" });
    linkRuleIds(new El("", {}, { "[data-tooltip]": [field, other] }));
    expect(field.dataset.tooltip).toBe(`UD-ATK-03 · ${RULE_CATALOG["UD-ATK-03"]!.summary.de}`);
    expect(label.innerHTML).toContain(`data-uuid="${rulePageUuid("UD-ATK-03", "de")}"`);
    expect(label.innerHTML).toContain('aria-label="UD-ATK-03"');
    expect(other.dataset.tooltip).toBe("Not a rule");
  });

  it("ZN-RNG-07: a sheet's round-action button whose tooltip is a rule ID gets the summary, and no link inside it", () => {
    const button = Object.assign(new El("Zielen", { tooltip: "ZN-RNG-07" }), { tagName: "BUTTON" });
    linkRuleIds(new El("", {}, { "[data-tooltip]": [button] }));
    expect(button.dataset.tooltip).toBe(`ZN-RNG-07 · ${RULE_CATALOG["ZN-RNG-07"]!.summary.de}`);
    expect(button.innerHTML).toBe("Zielen");
  });

  it("UD-ACT-01: a tracker pip (a button, not a link) gets its rule and summary in its tooltip", () => {
    const pip = new El("", { tooltip: "Aktion", frayRule: "UD-ACT-01" });
    linkRuleIds(new El("", {}, { "[data-fray-rule]": [pip] }));
    expect(pip.dataset.tooltip).toBe(`Aktion (UD-ACT-01 · ${RULE_CATALOG["UD-ACT-01"]!.summary.de})`);
    expect(pip.innerHTML).toBe("");
  });

  it("text in a .fray-rule element that is not a list of rule IDs is left alone", () => {
    const rule = new El(UNKNOWN);
    linkRuleIds(new El("", {}, { ".fray-rule": [rule] }));
    expect(rule.innerHTML).toBe(UNKNOWN);
  });
});
