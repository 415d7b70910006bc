/**
 * Renders every Handlebars template of the system in headless Chromium with the system CSS in
 * a Foundry-like window, using contexts from the same functions the sheets and cards use:
 * - the character sheet (each tab; armor per body zone and averaged), the NPC stat block, the
 *   generic view of the other rulesets, the weapon, armor and generic item sheets;
 * - the attack chat card in each phase a target goes through (hit awaiting the reaction,
 *   parried, no reaction, damage rolled, applied, undone) and with two targets, each state made
 *   by the card's own transitions from real UD10 results with scripted dice;
 * - the attack dialog (ranged at two targets, melee with a declared parry) with the core's odds;
 * - the free-attack prompt and the initiative summary from the pure functions behind them.
 * A template under templates/ that no case renders fails the coverage check.
 * Checks that each expected button and field is there (by data-action / name) with the text or
 * value expected, that no i18n key shows raw (tooltips included), and that nothing overflows
 * horizontally at the sheet's default size or the chat sidebar's width. Screenshots go to
 * test-artifacts/render/ for a person to look at.
 *
 * Needs Debian's chromium at /usr/bin/chromium (`.ci/run` installs it). Without it the test
 * fails under CI=true and is skipped with a notice otherwise.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import Handlebars from "handlebars";
import { chromium, type Browser } from "playwright-core";
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
import { chatPage, DIALOG_FOOTER, PLACEHOLDER_SVG, windowPage } from "./support/render/frame.js";

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = join(ROOT, "test-artifacts", "render");
const CI = process.env.CI === "true";
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
const sheetI18n = { localize: (k: string) => i18n.localize(k), format: (k: string, d: Record<string, string>) => i18n.format(k, d) };

/** Renders repository templates with a context, joined as Foundry joins a sheet's parts. */
function render(templates: string[], context: Record<string, unknown>): string {
  return templates.map((t) => hb.compile(readFileSync(join(ROOT, t), "utf8"))(context)).join("\n");
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
    await initiativeCase(i18n),
    ...(await hitboxCases(sheetI18n, i18n)),
  );
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

/** Loads a page under a fake origin; every image request gets the placeholder icon. */
async function open(html: string, width: number, height: number) {
  const page = await browser!.newPage({ viewport: { width, height } });
  await page.route("**/*", async (route) => {
    const url = route.request().url();
    if (url === "http://fray.test/") await route.fulfill({ contentType: "text/html", body: html });
    else if (/\.(svg|webp|png|jpe?g)$/.test(url)) await route.fulfill({ contentType: "image/svg+xml", body: PLACEHOLDER_SVG });
    else await route.abort();
  });
  await page.goto("http://fray.test/");
  return page;
}

describe.skipIf(!haveChromium && !CI)("templates render in Chromium", () => {
  it("every template under templates/ is rendered by some case", () => {
    const covered = new Set(cases.flatMap((c) => c.templates));
    expect(allTemplates().filter((t) => !covered.has(t))).toEqual([]);
  });

  it("renders each sheet with every expected control, no raw i18n key and no horizontal overflow", async () => {
    const css = systemCss();
    const problems: string[] = [];
    for (const c of cases) {
      const body = render(c.templates, c.context);
      // Data attributes carry ids and keys on purpose; a tooltip is shown to the user.
      const shown = body.replace(/data-(?!tooltip)[a-z-]+="[^"]*"/g, "");
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
            footer: c.kind === "dialog" ? DIALOG_FOOTER : "",
          })
        : chatPage({ body, css });
      const page = await open(html, sheet ? c.width + 32 : 332, c.kind === "sheet" ? c.height + 32 : 900);
      try {
        for (const e of c.expect) {
          const found = page.locator(e.selector);
          const n = await found.count();
          if (e.count === undefined ? n < 1 : n !== e.count)
            problems.push(`${c.id}: ${e.selector} found ${n}, expected ${e.count ?? "at least 1"}`);
          if (e.text !== undefined) {
            const text = (await found.allInnerTexts()).join(" ").replace(/\s+/g, " ").trim();
            const ok = typeof e.text === "string" ? text.includes(e.text) : e.text.test(text);
            if (!ok)
              problems.push(`${c.id}: ${e.selector} reads "${text}", expected ${typeof e.text === "string" ? `"${e.text}"` : e.text}`);
          }
          if (e.value !== undefined && n > 0) {
            const value = await found.first().inputValue();
            if (value !== e.value) problems.push(`${c.id}: ${e.selector} has value "${value}", expected "${e.value}"`);
          }
        }
        const overflow = await page.evaluate((isSheet) => {
          const root = document.querySelector<HTMLElement>(isSheet ? ".application" : ".chat-log")!;
          const content = (root.querySelector<HTMLElement>(".window-content") ?? root) as HTMLElement;
          const bounds = content.getBoundingClientRect();
          const out: string[] = [];
          if (content.scrollWidth > content.clientWidth + 1)
            out.push(`content scrollWidth ${content.scrollWidth} > ${content.clientWidth}`);
          if (isSheet && root.scrollHeight > root.clientHeight + 1)
            out.push(`window scrollHeight ${root.scrollHeight} > ${root.clientHeight}`);
          for (const el of Array.from(content.querySelectorAll<HTMLElement>("*"))) {
            const r = el.getBoundingClientRect();
            if (r.width === 0 || r.height === 0) continue;
            const style = getComputedStyle(el);
            if (style.overflowX !== "visible" && el.scrollWidth > el.clientWidth + 1 && el.tagName !== "SELECT" && el.tagName !== "INPUT") {
              out.push(`${el.tagName.toLowerCase()}.${el.className} scrolls sideways (${el.scrollWidth} > ${el.clientWidth})`);
            }
            if (r.right > bounds.right + 1 && !el.closest("[data-tab]:not(.active)")) {
              out.push(`${el.tagName.toLowerCase()}.${String(el.className)} sticks out by ${Math.round(r.right - bounds.right)}px`);
            }
          }
          return out.slice(0, 5);
        }, sheet);
        problems.push(...overflow.map((o) => `${c.id}: ${o}`));
        const target = sheet ? page.locator(".application") : page.locator(".chat-log");
        await target.screenshot({ path: join(ARTIFACTS, `${c.id}.png`) });
      } finally {
        await page.close();
      }
    }
    expect(problems).toEqual([]);
    // Every case opens its own page; on a busy machine the whole set needs more than two minutes.
  }, 300_000);
});
