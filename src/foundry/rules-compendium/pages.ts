/**
 * The rules compendium's addresses and summaries, without Foundry globals: which pack, journal
 * entry and page hold a rule ID's page in a language, and the one-line summary shown when a
 * rule ID is hovered. The page ids follow one scheme, used both by `scripts/rules-compendium.ts`
 * (which writes the pack sources from `packs/rules/*.yaml`) and by the links in play, so a link
 * never needs the pack loaded to know where it points.
 */
import catalog from "./catalog.json";

/** A rule ID as docs/rules-index.md writes it: ruleset prefix, topic, two digits (`UD-DMG-03`). */
export const RULE_ID = /^(UD|HB|CR|ZN)-[A-Z]{2,3}-\d{2}$/;

/** The rulesets with a rules compendium, by rule ID prefix. */
export const RULESET_OF_PREFIX = { UD: "ud10", HB: "hitbox", CR: "critical", ZN: "zones" } as const;

/** A ruleset with a rules compendium. */
export type RulesRuleset = (typeof RULESET_OF_PREFIX)[keyof typeof RULESET_OF_PREFIX];

/** The languages the compendium is written in; any other reader gets English. */
export const RULE_LANGS = ["en", "de"] as const;

/** A language of the compendium. */
export type RuleLang = (typeof RULE_LANGS)[number];

/** Short tags that keep the journal entry ids at 16 characters. */
const ENTRY_TAG: Record<RulesRuleset, string> = { ud10: "UD10", hitbox: "HTBX", critical: "CRIT", zones: "ZONE" };

/** One rule's entry in the generated catalog: its ruleset, and per language its page title and summary. */
export interface RuleCatalogEntry {
  ruleset: RulesRuleset;
  title: Record<RuleLang, string>;
  summary: Record<RuleLang, string>;
}

/** Every rule of the compendium by ID, generated from packs/rules/*.yaml and docs/rules-index.md. */
export const RULE_CATALOG = catalog as unknown as Readonly<Record<string, RuleCatalogEntry>>;

/** The compendium language for a Foundry language code (`de` gives German, anything else English). */
export function ruleLang(lang: string | undefined): RuleLang {
  return lang === "de" ? "de" : "en";
}

/** The ruleset a rule ID belongs to, or `undefined` for text that is not a rule ID. */
export function rulesetOfRule(id: string): RulesRuleset | undefined {
  if (!RULE_ID.test(id)) return undefined;
  return RULESET_OF_PREFIX[id.slice(0, 2) as keyof typeof RULESET_OF_PREFIX];
}

/** The name of a ruleset's rules pack in system.json (`ud10-rules`). */
export function rulesPackName(ruleset: RulesRuleset): string {
  return `${ruleset}-rules`;
}

/** The 16-character id of a ruleset's journal entry in one language (`fRuUD10en0000000`). */
export function rulesEntryId(ruleset: RulesRuleset, lang: RuleLang): string {
  return `fRu${ENTRY_TAG[ruleset]}${lang}`.padEnd(16, "0");
}

/** The 16-character id of a rule's page in one language (`UD-DMG-03`, `de` gives `fRpUDDMG03de0000`). */
export function rulePageId(id: string, lang: RuleLang): string {
  return `fRp${id.replaceAll("-", "")}${lang}`.padEnd(16, "0");
}

/**
 * The UUID of a rule's page in one language:
 * `Compendium.fray.<ruleset>-rules.JournalEntry.<entry>.JournalEntryPage.<page>`.
 * @throws Error when `id` is not a rule ID.
 */
export function rulePageUuid(id: string, lang: RuleLang): string {
  const ruleset = rulesetOfRule(id);
  if (!ruleset) throw new Error(`Not a rule ID: "${id}"`);
  return `Compendium.fray.${rulesPackName(ruleset)}.JournalEntry.${rulesEntryId(ruleset, lang)}.JournalEntryPage.${rulePageId(id, lang)}`;
}

/** What a link to a rule shows: the page's UUID, its title and the one-line summary, in one language. */
export interface RuleRef {
  id: string;
  ruleset: RulesRuleset;
  uuid: string;
  title: string;
  summary: string;
}

/** A rule's page and summary in the reader's language, or `undefined` when the compendium has no such rule. */
export function ruleRef(id: string, lang: string | undefined): RuleRef | undefined {
  const entry = Object.hasOwn(RULE_CATALOG, id) ? RULE_CATALOG[id] : undefined;
  if (!entry) return undefined;
  const l = ruleLang(lang);
  return { id, ruleset: entry.ruleset, uuid: rulePageUuid(id, l), title: entry.title[l], summary: entry.summary[l] };
}

/** The tooltip of a rule ID: `UD-DMG-03 · <summary>`. */
export function ruleTooltip(ref: RuleRef): string {
  return `${ref.id} · ${ref.summary}`;
}

/** Escapes text for HTML content and attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/**
 * The HTML of a link to a rule's page: Foundry's content link (`a.content-link` with
 * `data-uuid`, opened by Foundry's own click handler) with the summary as tooltip. A rule of
 * another ruleset than the world's is not loaded in that world: it shows as text with its
 * tooltip. Text that names no rule comes back escaped, without markup.
 * @param id the rule ID.
 * @param lang the reader's language (`game.i18n.lang`).
 * @param options `label` replaces the ID as the link text; `world` is the world's ruleset;
 *   `icon` puts a book icon in front (for links inside prose).
 */
export function ruleLinkHtml(
  id: string,
  lang: string | undefined,
  options: { label?: string; world?: string; icon?: boolean } = {},
): string {
  const label = escapeHtml(options.label ?? id);
  const ref = ruleRef(id, lang);
  if (!ref) return label;
  const tooltip = escapeHtml(ruleTooltip(ref));
  const icon = options.icon ? `<i class="fa-solid fa-book-open"></i>${label ? " " : ""}` : "";
  const aria = label ? "" : ` aria-label="${escapeHtml(ref.id)}"`;
  if (options.world !== undefined && options.world !== ref.ruleset) {
    return `<span class="fray-rule-link" data-rule="${ref.id}" data-tooltip="${tooltip}"${aria}>${icon}${label}</span>`;
  }
  return (
    `<a class="content-link fray-rule-link" draggable="true" data-link data-uuid="${ref.uuid}" data-type="JournalEntryPage" ` +
    `data-rule="${ref.id}" data-tooltip="${tooltip}"${aria}>${icon}${label}</a>`
  );
}

/**
 * The HTML of a text that lists rule IDs (`UD-ATK-03`, `HB-ACT-03, HB-ACT-04`): each ID a link
 * ({@link ruleLinkHtml}), the text between them kept (escaped). `undefined` when the text holds
 * anything but rule IDs and separators, so a caller leaves such text alone.
 */
export function ruleListHtml(text: string, lang: string | undefined, world?: string): string | undefined {
  const parts = text.trim().split(/(\s*[,;/+]\s*|\s+)/);
  if (parts.length === 0 || parts[0] === "") return undefined;
  let html = "";
  for (const [i, part] of parts.entries()) {
    if (i % 2 === 1) html += escapeHtml(part);
    else if (RULE_ID.test(part) && ruleRef(part, lang)) html += ruleLinkHtml(part, lang, world === undefined ? {} : { world });
    else return undefined;
  }
  return html;
}
