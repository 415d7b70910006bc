/**
 * Renders every Handlebars template of the system in headless Chromium with the system CSS in
 * a Foundry-like window, using contexts from the same functions the sheets and cards use:
 * - the character sheet (each tab; armor per body zone and averaged), the NPC stat block, the
 *   generic view of the other rulesets, the weapon, armor and generic item sheets;
 * - the attack chat card from a real core attack (UD-ATK-01, UD-DMG-01) and every other
 *   template under templates/ (chat, dialog) that has no known context, with an empty context.
 * Checks that each expected button and field is there (by data-action / name), that no i18n key
 * shows raw, and that nothing overflows horizontally at the sheet's default size. Screenshots go
 * to test-artifacts/render/ for a person to look at.
 *
 * Needs Debian's chromium at /usr/bin/chromium (`.ci/run` installs it). Without it the test
 * fails under CI=true and is skipped with a notice otherwise.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import Handlebars from "handlebars";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ud10 } from "../src/rules/ud10/index.js";
import { ScriptedRoller } from "../src/rules/core/dice/port.js";
import { attackCardContext } from "../src/foundry/attack-card.js";
import { fighter, target } from "./rules/ud10-fixtures.js";
import { handlebars, readLang, ROOT, StubI18n } from "./support/foundry-stub.js";
import { actorCases, itemCases, systemCss, type RenderCase } from "./support/render/contexts.js";
import { chatPage, PLACEHOLDER_SVG, windowPage } from "./support/render/frame.js";

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

/** The attack card of a real UD10 attack with scripted dice: a hit with a burst. */
async function attackCardCase(): Promise<RenderCase> {
  const input = { attacker: fighter(), target: target(), weaponId: "rifle", modeId: "burst", rangeMetres: 60 };
  const options = ud10.defaults();
  const plan = ud10.planAttack(input, options);
  const result = await ud10.resolveAttack(plan, input, new ScriptedRoller([9, 7, 3, 10, 2, 5]), options);
  const context = attackCardContext(result, { attacker: "Ana", target: "Bo", weapon: "Rifle", mode: "Burst", range: 60 }, i18n as never, ud10.odds(plan, input, options));
  return {
    id: "chat-attack-card",
    title: "attack card",
    kind: "chat",
    classes: [],
    width: 300,
    height: 0,
    templates: ["templates/chat/attack-card.hbs"],
    // The card shows one section per target: this attack's context is the one target.
    context: { ...(context as unknown as Record<string, unknown>), targets: [{ ...(context as unknown as Record<string, unknown>), index: 0 }] },
    expect: [{ selector: ".fray-card" }, { selector: ".fray-lines tr" }],
  };
}

let browser: Browser | undefined;
const cases: RenderCase[] = [];

beforeAll(async () => {
  if (!haveChromium) {
    if (CI) throw new Error(`${CHROMIUM} is missing: the render test needs Debian's chromium (apt-get install -y chromium; .ci/run installs it).`);
    return;
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  cases.push(...actorCases(sheetI18n), ...itemCases(sheetI18n), await attackCardCase());
  const covered = new Set(cases.flatMap((c) => c.templates));
  for (const t of allTemplates().filter((t) => !covered.has(t))) {
    cases.push({ id: t.replace(/^templates\//, "").replace(/\.hbs$/, "").replace(/\//g, "-"), title: t, kind: "chat", classes: [], width: 300, height: 0, templates: [t], context: {}, expect: [] });
  }
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
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
      if (/\bFRAY\.[A-Z]/.test(body.replace(/data-[a-z-]+="[^"]*"/g, ""))) problems.push(`${c.id}: raw i18n key in ${body.match(/FRAY\.[\w.]+/)?.[0]}`);
      const sheet = c.kind === "sheet";
      const html = sheet
        ? windowPage({ title: c.title, classes: c.classes, width: c.width, height: c.height, body, css, form: true })
        : chatPage({ body, css });
      const page = await open(html, sheet ? c.width + 32 : 332, sheet ? c.height + 32 : 900);
      try {
        for (const e of c.expect) {
          const n = await page.locator(e.selector).count();
          if (e.count === undefined ? n < 1 : n !== e.count) problems.push(`${c.id}: ${e.selector} found ${n}, expected ${e.count ?? "at least 1"}`);
        }
        const overflow = await page.evaluate((isSheet) => {
          const root = document.querySelector<HTMLElement>(isSheet ? ".application" : ".chat-log")!;
          const content = (root.querySelector<HTMLElement>(".window-content") ?? root) as HTMLElement;
          const bounds = content.getBoundingClientRect();
          const out: string[] = [];
          if (content.scrollWidth > content.clientWidth + 1) out.push(`content scrollWidth ${content.scrollWidth} > ${content.clientWidth}`);
          if (isSheet && root.scrollHeight > root.clientHeight + 1) out.push(`window scrollHeight ${root.scrollHeight} > ${root.clientHeight}`);
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
  }, 120_000);
});
