/**
 * Rule IDs in play open their page in the rules compendium. One pass over rendered HTML
 * ({@link linkRuleIds}) turns what the templates show into links: the text of every
 * `.fray-rule` element (card lines, dialog fields, sheet headings) becomes Foundry content links
 * to the rule pages, with the one-line summary as tooltip; an element whose `data-tooltip` is a
 * bare rule ID (sheet fields) gets the summary as tooltip and a small book link to the page.
 * The `@Rule[UD-DMG-03]` enricher ({@link enrichRule}) gives GMs the same link in journals and
 * chat. Pages and summaries are in the reader's language (German for `de`, else English).
 */
import { activeRuleset } from "../registry.js";
import { RULE_ID, ruleLinkHtml, ruleListHtml, ruleRef, ruleTooltip } from "./pages.js";

/** `@Rule[UD-DMG-03]` or `@Rule[UD-DMG-03]{label}`. */
export const RULE_ENRICHER_PATTERN = /@Rule\[([A-Z]{2}-[A-Z]{2,3}-\d{2})\](?:\{([^}]{1,80})\})?/g;

/** The reader's language. */
function readerLang(): string | undefined {
  return (game.i18n as unknown as { lang?: string } | undefined)?.lang;
}

/** The world's ruleset, or `undefined` before settings are registered. */
function worldRuleset(): string | undefined {
  try {
    return activeRuleset();
  } catch {
    return undefined;
  }
}

/** The element a piece of HTML parses to (its first element child). */
function htmlElement(html: string): HTMLElement {
  const template = document.createElement("template");
  template.innerHTML = html;
  return template.content.firstElementChild as HTMLElement;
}

/**
 * The `@Rule[...]` enricher (`CONFIG.TextEditor.enrichers`): a content link to the rule's page
 * with its summary as tooltip and the ID (or the given label) as text. An ID the compendium does
 * not hold comes back as plain text, never as a broken link.
 */
export async function enrichRule(match: RegExpMatchArray): Promise<HTMLElement | null> {
  const [text, id = "", label] = match;
  const lang = readerLang();
  const world = worldRuleset();
  if (!ruleRef(id, lang)) {
    const span = document.createElement("span");
    span.className = "fray-rule-unknown";
    span.textContent = text;
    return span;
  }
  return htmlElement(ruleLinkHtml(id, lang, { icon: true, ...(label ? { label } : {}), ...(world ? { world } : {}) }));
}

/** The parts of an element {@link linkRuleIds} uses (tests hand in stand-ins with these). */
interface ElementLike {
  tagName?: string;
  textContent: string | null;
  innerHTML: string;
  dataset: DOMStringMap;
  children?: HTMLCollection | ArrayLike<ElementLike>;
  querySelector?(selector: string): ElementLike | null;
  querySelectorAll?(selector: string): ArrayLike<ElementLike>;
  insertAdjacentHTML?(position: InsertPosition, html: string): void;
}

/** Elements a link must not go inside. */
const CONTROLS = ["A", "BUTTON", "INPUT", "SELECT", "TEXTAREA"];

/** The elements of `root` (itself included) matching `selector`; none when the root cannot be queried. */
function select(root: ElementLike, selector: string): ElementLike[] {
  try {
    const found = Array.from(root.querySelectorAll?.(selector) ?? []);
    const self = (root as unknown as { matches?: (s: string) => boolean }).matches?.(selector) ? [root] : [];
    return [...self, ...found];
  } catch {
    return [];
  }
}

/**
 * Turns the rule IDs rendered inside `root` into links to their pages, in the reader's language.
 * Safe to run again on the same HTML: a handled element is marked (`data-rule-linked`).
 * - `.fray-rule` whose text is one or more rule IDs: each ID becomes a link.
 * - `[data-tooltip]` that is a bare rule ID: the tooltip becomes `ID · summary`, and a book link
 *   to the page goes at the end of its first `span`, `dt` or `legend` (else of the element);
 *   a control (button, field, link) gets the tooltip only.
 * - `[data-fray-rule]` (the tracker's pips and pools, which are buttons, not links): the rule's
 *   ID and summary join the control's tooltip.
 */
export function linkRuleIds(root: unknown): void {
  if (!root || typeof root !== "object") return;
  const lang = readerLang();
  const world = worldRuleset();
  for (const el of select(root as ElementLike, ".fray-rule")) {
    if (el.dataset?.ruleLinked) continue;
    const html = ruleListHtml(el.textContent ?? "", lang, world);
    if (html === undefined) continue;
    el.innerHTML = html;
    el.dataset.ruleLinked = "1";
  }
  for (const el of select(root as ElementLike, "[data-tooltip]")) {
    const id = el.dataset?.tooltip ?? "";
    if (el.dataset.ruleLinked || !RULE_ID.test(id)) continue;
    const ref = ruleRef(id, lang);
    if (!ref) continue;
    el.dataset.tooltip = ruleTooltip(ref);
    el.dataset.ruleLinked = "1";
    // A control (a sheet's round-action button, a field) keeps its own click: no link goes inside it.
    if (CONTROLS.includes(el.tagName ?? "")) continue;
    let holder = el;
    try {
      holder = el.querySelector?.(":scope > span, :scope > dt, :scope > legend") ?? el;
    } catch {
      holder = el;
    }
    holder.insertAdjacentHTML?.("beforeend", ` ${ruleLinkHtml(id, lang, { label: "", icon: true, ...(world ? { world } : {}) })}`);
  }
  for (const el of select(root as ElementLike, "[data-fray-rule]")) {
    const ref = ruleRef(el.dataset?.frayRule ?? "", lang);
    if (!ref || el.dataset.ruleLinked) continue;
    el.dataset.tooltip = el.dataset.tooltip ? `${el.dataset.tooltip} (${ruleTooltip(ref)})` : ruleTooltip(ref);
    el.dataset.ruleLinked = "1";
  }
}

/**
 * Registers the `@Rule[...]` enricher and the render hooks that link rule IDs: every
 * ApplicationV2 (sheets, dialogs, the combat tracker: `renderApplicationV2`) and every chat
 * message (`renderChatMessageHTML`). Call from the `init` hook.
 */
export function registerRuleLinks(): void {
  const config = CONFIG as unknown as { TextEditor?: { enrichers?: unknown[] } };
  config.TextEditor ??= {};
  config.TextEditor.enrichers ??= [];
  config.TextEditor.enrichers.push({ id: "frayRule", pattern: RULE_ENRICHER_PATTERN, enricher: enrichRule });
  const on = Hooks.on.bind(Hooks) as unknown as (name: string, fn: (...args: unknown[]) => unknown) => number;
  on("renderApplicationV2", (_app, element) => linkRuleIds(element));
  on("renderChatMessageHTML", (_message, html) => linkRuleIds(html));
}
