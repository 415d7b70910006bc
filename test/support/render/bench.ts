/**
 * The character sheet's render time in headless Chromium for `npm run bench`, with the render
 * test's harness: the first character-sheet case of {@link actorCases}, its templates compiled
 * and rendered with Handlebars, put in the Foundry-like window of {@link windowPage} with the
 * system CSS, and laid out by the browser. "First" is the first render in a fresh Handlebars
 * instance and a fresh page (templates compiled then); "later" is the median of later renders
 * of the same sheet into pages already open, templates compiled once.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { handlebars, readLang, ROOT, StubI18n } from "../foundry-stub.js";
import { actorCases, systemCss } from "./contexts.js";
import { windowPage } from "./frame.js";

/** Chromium's flags for the harness (no network, no GPU, no sandbox inside containers). */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Times the character sheet's render: milliseconds from the context to a laid-out page.
 * @param executablePath the Chromium binary.
 * @returns `first` and `later` (median of 15) in milliseconds.
 */
export async function renderSheetTimes(executablePath: string): Promise<{ first: number; later: number }> {
  const i18n = new StubI18n(readLang("en"), "en");
  const sheetI18n = { localize: (k: string) => i18n.localize(k), format: (k: string, d: Record<string, string>) => i18n.format(k, d) };
  const sheet = actorCases(sheetI18n).find((c) => c.kind === "sheet")!;
  const css = systemCss();
  const sources = sheet.templates.map((t) => readFileSync(join(ROOT, t), "utf8"));
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: sheet.width + 32, height: sheet.height + 32 } });
    const once = async (compiled?: ((ctx: unknown) => string)[]) => {
      const page = await context.newPage();
      const start = performance.now();
      const templates = compiled ?? sources.map((s) => handlebars(i18n).compile(s));
      const body = templates.map((t) => t(sheet.context)).join("\n");
      const html = windowPage({
        title: sheet.title,
        classes: sheet.classes,
        width: sheet.width,
        height: sheet.height,
        body,
        css,
        form: true,
      });
      await page.setContent(html, { waitUntil: "load" });
      await page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(document.body.offsetHeight))));
      const time = performance.now() - start;
      await page.close();
      return { time, templates };
    };
    const first = await once();
    const later: number[] = [];
    for (let i = 0; i < 15; i++) later.push((await once(first.templates)).time);
    later.sort((a, b) => a - b);
    return { first: first.time, later: later[7]! };
  } finally {
    await browser.close();
  }
}
