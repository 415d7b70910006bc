/**
 * Renders every Handlebars template of the system in headless Chromium with the system CSS in
 * a Foundry-like window, using contexts from the same functions the sheets and cards use:
 * - the character sheet (each tab; armor per body zone and averaged), the NPC stat block, the
 *   generic view of the other rulesets, the weapon, armor and generic item sheets;
 * - the attack chat card in each phase a target goes through (hit awaiting the reaction,
 *   parried, no reaction, damage rolled, applied, undone) and with two targets, each state made
 *   by the card's own transitions from real UD10 results with scripted dice;
 * - the attack dialog (ranged at two targets, melee with a declared parry) with the core's odds,
 *   and every other dialog, each with the buttons its code passes to DialogV2;
 * - the free-attack prompt and the initiative summary from the pure functions behind them.
 * Each case is written into a reused page (`setContent`), its images pointed at a placeholder.
 * A template under templates/ that no case renders fails the coverage check.
 * Checks that each expected button and field is there (by data-action / name) with the text or
 * value expected, that no i18n key shows raw (tooltips and dialog buttons included), that the
 * page is in standards mode, that nothing overflows horizontally at the sheet's default size
 * or the chat sidebar's width, and that no list box hides options and no drop-down or text field
 * cuts its value. A chat card is drawn as it arrives (its details folded), measured (at most
 * 350 px tall in the 300 px sidebar; the heights go to card-heights.json) and drawn again with
 * every fold open (`<id>-open.png`), where the expectations are checked. Screenshots go to
 * test-artifacts/render/ for a person to look at.
 *
 * Needs Debian's chromium at /usr/bin/chromium (`.ci/run` installs it). Without it the test
 * fails under CI=true and is skipped with a notice otherwise.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import Handlebars from "handlebars";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handlebars, readLang, ROOT, StubI18n } from "./support/foundry-stub.js";
import {
  actorCases,
  attackCardCases,
  attackDialogCases,
  freeAttackCase,
  initiativeCase,
  itemCases,
  systemCss,
  type RenderCase,
} from "./support/render/contexts.js";
import { hitboxCases } from "./support/render/hitbox.js";
import { forecastCases } from "./support/render/forecast.js";
import { chatPage, dialogFooter, FONT_AWESOME_URL, fontAwesomeHead, PLACEHOLDER_SVG, windowPage } from "./support/render/frame.js";
import { criticalCases } from "./support/render/critical.js";
import { zonesCases } from "./support/render/zones.js";
import { zonesBlastCases } from "./support/render/zones-blast.js";
import { zonesReactionCases } from "./support/render/zones-reactions.js";
import { playPartCases } from "./support/render/play-parts.js";

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = join(ROOT, "test-artifacts", "render");
const CI = process.env.CI === "true";
/** Font Awesome Free from its npm package: the icon font Foundry's icon classes draw with. */
const FONT_AWESOME = join(ROOT, "node_modules", "@fortawesome", "fontawesome-free");
const haveChromium = existsSync(CHROMIUM);

if (!haveChromium && !CI) {
  console.warn(`render.test: ${CHROMIUM} is missing; skipping. Install it with: apt-get update && apt-get install -y chromium`);
}

/** Every template under templates/, as repository-relative paths with forward slashes. */
function allTemplates(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith(".hbs")) out.push(relative(ROOT, full).split(sep).join("/"));
    }
  };
  walk(join(ROOT, "templates"));
  return out.sort();
}

const i18n = new StubI18n(readLang("en"), "en");
const hb: typeof Handlebars = handlebars(i18n);
const i18nDe = new StubI18n(readLang("de"), "de");
const hbDe: typeof Handlebars = handlebars(i18nDe);
const sheetI18n = { localize: (k: string) => i18n.localize(k), format: (k: string, d: Record<string, string>) => i18n.format(k, d) };

/** Renders repository templates with a context in the reader's language, joined as Foundry joins a sheet's parts. */
function render(templates: string[], context: Record<string, unknown>, lang: RenderCase["lang"] = "en"): string {
  const hbs = lang === "de" ? hbDe : hb;
  return templates.map((t) => hbs.compile(readFileSync(join(ROOT, t), "utf8"))(context)).join("\n");
}

let browser: Browser | undefined;
const cases: RenderCase[] = [];

beforeAll(async () => {
  if (!haveChromium) {
    if (CI)
      throw new Error(
        `${CHROMIUM} is missing: the render test needs Debian's chromium (apt-get install -y chromium; .ci/run installs it).`,
      );
    return;
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  cases.push(
    ...actorCases(sheetI18n),
    ...itemCases(sheetI18n),
    ...(await attackCardCases(i18n)),
    ...attackDialogCases(i18n),
    freeAttackCase(),
    ...(await forecastCases(i18n)),
    await initiativeCase(i18n),
    ...(await hitboxCases(sheetI18n, i18n)),
    ...(await criticalCases(sheetI18n, i18n, i18nDe)),
    ...(await zonesCases(sheetI18n, i18n)),
    ...zonesBlastCases(i18n),
    ...zonesReactionCases(i18n),
    ...playPartCases(i18n, i18nDe),
  );
  // A few surfaces again in Foundry's dark theme: a sheet, a dialog, cards of two rulesets, a tracker part.
  for (const id of DARK_CASES) {
    const light = cases.find((c) => c.id === id);
    if (!light) throw new Error(`no render case ${id} to draw in the dark theme`);
    cases.push({ ...light, id: `${id}-dark`, title: light.title, theme: "dark" });
  }
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

/** The cases drawn again in Foundry's dark theme. */
const DARK_CASES = [
  "actor-character-combat-zones",
  "dialog-attack-ranged",
  "chat-attack-card-applied",
  "chat-critical-card-applied",
  "zones-attack-card-burst-applied",
  "tracker-economy-critical",
  "critical-tracker-declare",
  "dialog-declare-hitbox-again",
  "tracker-follow",
];

/** Pages rendering cases side by side: Chromium lays out one while Node checks another. */
const LANES = 3;

/** The placeholder icon as a data URL, written into the pages in place of each image file. */
const PLACEHOLDER_URL = `data:image/svg+xml;base64,${Buffer.from(PLACEHOLDER_SVG).toString("base64")}`;

/**
 * A case's page with every `src` naming an image file pointed at the placeholder icon, so the
 * page loads without a request per image (a request through the route below costs a round trip
 * to Node while the page waits for its load event).
 */
function withPlaceholders(html: string): string {
  return html.replace(/(?<![\w-])src="[^"]*\.(?:svg|webp|png|jpe?g)"/g, `src="${PLACEHOLDER_URL}"`);
}

/** The fake origin's root: an empty page each lane opens once. */
const BLANK = "http://fray.test/";

/**
 * A browser context whose pages live under a fake origin (`http://fray.test/`): the origin's
 * root is an empty page, each case's HTML is written into a page with `setContent` (a document
 * written in place, not a navigation per case), and an image the page still requests (a CSS
 * `url()`) gets the placeholder icon; anything else is refused. Pages are reused from case to case.
 */
async function renderContext() {
  const context = await browser!.newContext();
  await context.route("**/*", async (route) => {
    const url = route.request().url();
    if (url === BLANK) await route.fulfill({ contentType: "text/html", body: "<!doctype html><title>Fray</title>" });
    else if (
      url.startsWith(FONT_AWESOME_URL) &&
      /^(css\/[\w.-]+\.css|webfonts\/[\w.-]+\.woff2)$/.test(url.slice(FONT_AWESOME_URL.length))
    ) {
      const file = url.slice(FONT_AWESOME_URL.length);
      await route.fulfill({ contentType: file.endsWith(".css") ? "text/css" : "font/woff2", body: readFileSync(join(FONT_AWESOME, file)) });
    } else if (/\.(svg|webp|png|jpe?g)$/.test(url)) await route.fulfill({ contentType: "image/svg+xml", body: PLACEHOLDER_SVG });
    else await route.abort();
  });
  return context;
}

/** What one expectation found on the page: matches, their visible text, the first one's value. */
interface Found {
  n: number;
  text: string;
  /** The first match's value; null when it is not a form control (`inputValue` would refuse it). */
  value: string | null;
  /** The selector is not plain CSS: checked through Playwright's locator instead. */
  locator?: boolean;
}

/** The most a chat card may measure as it arrives (folded), in CSS pixels, in a 300 px sidebar. */
const MAX_FOLDED_CARD = 350;

/** What {@link scanPage} is asked: the selectors to look up, the kind of page. */
interface ScanArgs {
  selectors: string[];
  isSheet: boolean;
  scrollable: boolean;
}

/**
 * Runs in the page: every expectation's matches and the overflow scan in one round trip, the
 * clip of the window (or the chat column), the chat message's height and its folds.
 */
const scanPage = async ({ selectors, isSheet, scrollable }: ScanArgs) => {
  // The icon font loads once an icon asks for it.
  await document.fonts.ready;
  const found = selectors.map((selector): Found => {
    let matches: Element[];
    try {
      matches = Array.from(document.querySelectorAll(selector));
    } catch {
      return { n: 0, text: "", value: null, locator: true };
    }
    const first = matches[0];
    const control = first instanceof HTMLInputElement || first instanceof HTMLSelectElement || first instanceof HTMLTextAreaElement;
    return {
      n: matches.length,
      text: matches.map((m) => (m as HTMLElement).innerText).join(" "),
      value: control ? (first as HTMLInputElement).value : null,
    };
  });
  const root = document.querySelector<HTMLElement>(isSheet ? ".application" : ".chat-log")!;
  const content = (root.querySelector<HTMLElement>(".window-content") ?? root) as HTMLElement;
  const bounds = content.getBoundingClientRect();
  const out: string[] = [];
  // A doctype written into the page must still give standards mode, as a navigation does.
  if (document.compatMode !== "CSS1Compat") out.push(`quirks mode (${document.compatMode})`);
  if (content.scrollWidth > content.clientWidth + 1) out.push(`content scrollWidth ${content.scrollWidth} > ${content.clientWidth}`);
  if (isSheet && root.scrollHeight > root.clientHeight + 1) out.push(`window scrollHeight ${root.scrollHeight} > ${root.clientHeight}`);
  const measure = document.createElement("canvas");
  for (const el of Array.from(content.querySelectorAll<HTMLElement>("*"))) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    // Inside a closed fold: not drawn (a closed `details` keeps a box for what it hides).
    if (el.closest("details:not([open]) > :not(summary)")) continue;
    // A control too small for what it shows: a list box hiding options, a drop-down or text
    // field cutting its value (the text measured in the control's own font).
    if (el instanceof HTMLSelectElement && (el.multiple || el.size > 1)) {
      if (el.scrollHeight > el.clientHeight + 1)
        out.push(`select[name=${el.name}] hides some of its options (${el.scrollHeight} > ${el.clientHeight})`);
    } else if (el instanceof HTMLSelectElement || (el instanceof HTMLInputElement && el.type === "text")) {
      const text = el instanceof HTMLSelectElement ? (el.selectedOptions[0]?.text ?? "") : el.value;
      const ctx = measure.getContext("2d")!;
      const cs = getComputedStyle(el);
      ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      // A drop-down's arrow takes about 20 px of its inner width.
      const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - (el instanceof HTMLSelectElement ? 20 : 0);
      const need = ctx.measureText(text).width;
      if (need > room + 1)
        out.push(
          `${el.tagName.toLowerCase()}[name=${el.getAttribute("name")}] cuts its value "${text}" (${Math.ceil(need)} > ${Math.floor(room)}px)`,
        );
    }
    const style = getComputedStyle(el);
    if (style.overflowX !== "visible" && el.scrollWidth > el.clientWidth + 1 && el.tagName !== "SELECT" && el.tagName !== "INPUT") {
      out.push(`${el.tagName.toLowerCase()}.${el.className} scrolls sideways (${el.scrollWidth} > ${el.clientWidth})`);
    }
    const name = `${el.tagName.toLowerCase()}.${String(el.className)}`;
    if (r.right > bounds.right + 1 && !el.closest("[data-tab]:not(.active)")) {
      out.push(`${name} sticks out by ${Math.round(r.right - bounds.right)}px`);
    }
    // A table cell's text wider than the cell runs over its neighbour.
    if ((el.tagName === "TD" || el.tagName === "TH") && el.scrollWidth > el.clientWidth + 1)
      out.push(`${name} spills out of its cell (${el.scrollWidth} > ${el.clientWidth})`);
    if (r.left < bounds.left - 1) out.push(`${name} sticks out left by ${Math.round(bounds.left - r.left)}px`);
    // A card, dialog or panel grows with its content: nothing in it hides or scrolls
    // what it holds. A sheet's tab body scrolls on purpose; nothing else hides content.
    const control = el.tagName === "SELECT" || el.tagName === "INPUT" || el.tagName === "TEXTAREA";
    if (!control && style.overflowY !== "visible" && el.scrollHeight > el.clientHeight + 1) {
      const scrolls = style.overflowY === "auto" || style.overflowY === "scroll";
      if (!(scrollable && scrolls)) out.push(`${name} cuts its content (scrollHeight ${el.scrollHeight} > ${el.clientHeight})`);
    }
    if (!isSheet && r.bottom > bounds.bottom + 1) out.push(`${name} sticks out below by ${Math.round(r.bottom - bounds.bottom)}px`);
  }
  // Every icon drawn with a glyph of the icon font, as Foundry draws it.
  for (const icon of Array.from(root.querySelectorAll<HTMLElement>('i[class*="fa-"]'))) {
    const glyph = getComputedStyle(icon, "::before");
    const family = getComputedStyle(icon).fontFamily;
    if (!/^"[^"]/.test(glyph.content) || !/Font Awesome/.test(family))
      out.push(`icon ${icon.className} has no glyph (content ${glyph.content}, font ${family})`);
  }
  if (root.querySelector('i[class*="fa-"]') && !document.fonts.check('900 16px "Font Awesome 6 Free"'))
    out.push("the icon font did not load");
  const box = root.getBoundingClientRect();
  const [x, y] = [Math.floor(box.left), Math.floor(box.top)];
  const clip = { x, y, width: Math.ceil(box.right) - x, height: Math.ceil(box.bottom) - y };
  // The message as the sidebar shows it, and the folds it has (`details` of a card).
  const message = document.querySelector<HTMLElement>(".chat-message");
  const height = message ? Math.round(message.getBoundingClientRect().height) : 0;
  const folds = document.querySelectorAll("details.fray-fold").length;
  return { found, overflow: out.slice(0, 5), clip, height, folds };
};

/**
 * The window (or the chat column) as the page already laid it out: a clip of the page, without
 * the waits and scrolling of an element screenshot; the whole element, however tall (a taller
 * page where it reaches below the viewport).
 */
async function shoot(
  page: Page,
  clip: { x: number; y: number; width: number; height: number },
  width: number,
  height: number,
  file: string,
) {
  if (clip.y + clip.height > height) await page.setViewportSize({ width, height: clip.y + clip.height + 16 });
  // A frame drawn at the page's size before the capture (else a tile of the last case's size may show in it).
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.screenshot({ path: join(ARTIFACTS, file), clip, caret: "initial" });
}

/** Each chat card's height as it arrives, written beside the screenshots. */
const heights: { id: string; folded: number; folds: number }[] = [];

describe.skipIf(!haveChromium && !CI)("templates render in Chromium", () => {
  it("every template under templates/ is rendered by some case", () => {
    const covered = new Set(cases.flatMap((c) => c.templates));
    expect(allTemplates().filter((t) => !covered.has(t))).toEqual([]);
  });

  it("renders each sheet with every expected control, no raw i18n key and no horizontal overflow", async () => {
    const css = systemCss();
    const head = fontAwesomeHead(readFileSync(join(FONT_AWESOME, "css", "fontawesome.min.css"), "utf8"));
    const problems: string[] = [];
    const rendered = cases.map((c) => {
      const body = render(c.templates, c.context, c.lang);
      // A dialog's own buttons, with their labels in the reader's language.
      const footer = c.kind === "dialog" ? dialogFooter(c.buttons ?? [], (k) => (c.lang === "de" ? i18nDe : i18n).localize(k)) : "";
      if (c.kind === "dialog" && !c.buttons?.length) problems.push(`${c.id}: a dialog case names no buttons`);
      // Data attributes carry ids and keys on purpose; a tooltip is shown to the user.
      const shown = (body + footer).replace(/data-(?!tooltip)[a-z-]+="[^"]*"/g, "");
      if (/\bFRAY\.[A-Z]/.test(shown)) problems.push(`${c.id}: raw i18n key in ${shown.match(/FRAY\.[\w.]+/)?.[0]}`);
      const sheet = c.kind !== "chat";
      const html = sheet
        ? windowPage({
            title: c.title,
            classes: c.classes,
            width: c.width,
            height: c.height,
            body,
            css,
            form: true,
            footer,
            head,
            theme: c.theme,
          })
        : chatPage({ body, css, head, theme: c.theme });
      return {
        c,
        html: withPlaceholders(html),
        sheet,
        width: sheet ? c.width + 32 : 332,
        height: c.kind === "sheet" ? c.height + 32 : Math.max(900, c.height),
      };
    });
    const context = await renderContext();
    const perCase: string[][] = rendered.map(() => []);
    let next = 0;
    const lane = async () => {
      const page = await context.newPage();
      try {
        await page.goto(BLANK);
        for (let i = next++; i < rendered.length; i = next++) {
          const { c, html, sheet, width, height } = rendered[i]!;
          const out = perCase[i]!;
          await page.setViewportSize({ width, height });
          await page.setContent(html);
          const args = { selectors: c.expect.map((e) => e.selector), isSheet: sheet, scrollable: c.kind === "sheet" };
          if (!sheet) {
            // A card as it arrives: folded. Drawn and measured so, then opened for the checks.
            const first = await page.evaluate(scanPage, { ...args, selectors: [] });
            out.push(...first.overflow.map((o) => `${c.id} (folded): ${o}`));
            heights.push({ id: c.id, folded: first.height, folds: first.folds });
            if (first.height > MAX_FOLDED_CARD)
              out.push(`${c.id}: the card is ${first.height}px tall as it arrives, over ${MAX_FOLDED_CARD}px (fold its details)`);
            if (first.folds > 0) {
              await shoot(page, first.clip, width, height, `${c.id}.png`);
              await page.evaluate(() => {
                for (const d of Array.from(document.querySelectorAll("details"))) d.open = true;
              });
            }
          }
          // Every expectation and the overflow scan in one round trip to the page.
          const { found, overflow, clip, folds } = await page.evaluate(scanPage, args);
          for (const [k, e] of c.expect.entries()) {
            let f = found[k]!;
            if (f.locator) {
              // A selector beyond plain CSS (Playwright's own syntax): asked through a locator.
              const loc = page.locator(e.selector);
              const n = await loc.count();
              const value = e.value !== undefined && n > 0 ? await loc.first().inputValue() : null;
              f = { n, text: (await loc.allInnerTexts()).join(" "), value };
            }
            const n = f.n;
            if (e.count === undefined ? n < 1 : n !== e.count)
              out.push(`${c.id}: ${e.selector} found ${n}, expected ${e.count ?? "at least 1"}`);
            if (e.text !== undefined) {
              const text = f.text.replace(/\s+/g, " ").trim();
              const ok = typeof e.text === "string" ? text.includes(e.text) : e.text.test(text);
              if (!ok) out.push(`${c.id}: ${e.selector} reads "${text}", expected ${typeof e.text === "string" ? `"${e.text}"` : e.text}`);
            }
            if (e.value !== undefined && n > 0) {
              if (f.value === null) out.push(`${c.id}: ${e.selector} is not a form control, expected the value "${e.value}"`);
              else if (f.value !== e.value) out.push(`${c.id}: ${e.selector} has value "${f.value}", expected "${e.value}"`);
            }
          }
          out.push(...overflow.map((o) => `${c.id}: ${o}`));
          // A folded card opened: its open state beside the folded one.
          await shoot(page, clip, width, height, !sheet && folds > 0 ? `${c.id}-open.png` : `${c.id}.png`);
        }
      } finally {
        await page.close();
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(LANES, rendered.length) }, lane));
    } finally {
      await context.close();
    }
    problems.push(...perCase.flat());
    heights.sort((x, y) => x.id.localeCompare(y.id));
    writeFileSync(join(ARTIFACTS, "card-heights.json"), `${JSON.stringify(heights, null, 2)}\n`);
    // Each case shows something of its own: two identical pictures mean a state that draws as another.
    const seen = new Map<string, string>();
    for (const { c } of rendered) {
      const digest = createHash("sha256")
        .update(readFileSync(join(ARTIFACTS, `${c.id}.png`)))
        .digest("hex");
      const twin = seen.get(digest);
      if (twin) problems.push(`${c.id}: its screenshot is identical to ${twin}'s`);
      else seen.set(digest, c.id);
    }
    expect(problems).toEqual([]);
  }, 300_000);
});
