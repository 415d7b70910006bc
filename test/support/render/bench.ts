/**
 * The character sheet's render time in headless Chromium for `npm run bench`, measured the way
 * Foundry pays it when a player opens a sheet.
 *
 * What is timed (inside the page, with `performance.now`): the first character-sheet case of
 * {@link actorCases} (the UD10 character, all six parts) going from its context to a laid-out
 * window in a page that is already loaded, as Foundry's page is when a sheet opens:
 * 1. template: the parts compiled (on the first render) and rendered by Handlebars running in
 *    the page (`handlebars.min.js` from node_modules, as Foundry runs it in the browser), with
 *    the stand-in's helpers (`localize`, `selectOptions`, ...);
 * 2. insert: the window's HTML parsed through a `<template>` element (as Foundry's Handlebars
 *    application builds its parts) and appended to the body;
 * 3. style: the style recalculation that `getComputedStyle` forces;
 * 4. layout: the layout that reading `offsetHeight` forces (Foundry's `setPosition` reads sizes
 *    the same way). Paint and the next frame are the compositor's, not the sheet's: not timed.
 *
 * The page before the timer is the Foundry-like frame of {@link windowPage} without the sheet:
 * the base styles and the whole system stylesheet (parsed once, as Foundry loads the system's
 * CSS at startup), Handlebars and the language file loaded, one frame drawn.
 *
 * "First" is a sheet opened the first time in a Foundry-like page: a fresh page, a fresh
 * Handlebars instance for the sheet, so its templates are compiled inside the timer, and its
 * first insertion into that page. Before the timer the page has drawn the system's other windows
 * {@link WARM_PASSES} times (the NPC, generic and item sheets: every sheet case sharing no
 * template with this one, compiled in a fresh Handlebars instance each pass, rendered, inserted,
 * laid out, closed), as Foundry has drawn its sidebar, chat log and directories with the same
 * Handlebars and CSS before a player can open a sheet; without it the figure times V8 warming up
 * Handlebars' compiler and Chromium's style and font caches, which Foundry's page has done at
 * startup. That cold figure is measured too ("first in a cold page": the same page with no
 * warm-up) and printed, so the difference stays visible. Each is the median of
 * {@link FIRST_PAGES} fresh pages, cold and Foundry-like pages alternating, so one stall of the
 * shared machine does not make the figure. "Later" is the median of {@link LATER_RUNS} renders
 * of the same sheet into the last page with the templates compiled, the previous window removed
 * (and the page laid out again) before the timer.
 *
 * Not timed, and why: the page's creation, navigation and load, the parse of the system
 * stylesheet, Playwright's round trips between Node and the page, and the wait for an animation
 * frame; paint and compositing. Foundry pays the first ones once at startup and the last ones
 * after the sheet's code has run, in the next frame. The earlier measure of this bench (a Node
 * timer around compiling the templates in Node, `page.setContent` of a whole new page with the
 * CSS inlined, then a `requestAnimationFrame` round trip) counted them all; docs/performance.md,
 * "Goals and where they stand" gives its breakdown.
 *
 * The in-page Handlebars must render what the render test's Node Handlebars renders: the first
 * render's HTML is compared with it and a difference throws.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Page } from "playwright-core";
import { handlebars, readLang, ROOT, StubI18n } from "../foundry-stub.js";
import { actorCases, itemCases, systemCss } from "./contexts.js";
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

/** Fresh pages whose first render makes "first" (their median). */
export const FIRST_PAGES = 5;
/** Passes over the other sheets' templates (fresh Handlebars each) before the timer: Foundry's startup. */
export const WARM_PASSES = 10;
/** Renders into an open page whose median makes "later". */
export const LATER_RUNS = 15;

/** One timed render, in milliseconds; `total` is the sum of the four stages. */
export interface SheetRenderTime {
  total: number;
  /** Handlebars: compile (first render only) and render of every part. */
  template: number;
  /** The window's HTML parsed into elements and appended to the page. */
  insert: number;
  /** Style recalculation of the page with the new window. */
  style: number;
  /** Layout of the page with the new window. */
  layout: number;
}

/** The sheet's render times: each a median, in milliseconds. */
export interface SheetRenderTimes {
  /** The first render in a Foundry-like page (Handlebars and the page's styles used before). */
  first: SheetRenderTime;
  /** The first render in a cold page: Handlebars never run there, no window styled before. */
  firstCold: SheetRenderTime;
  later: SheetRenderTime;
  /** Each Foundry-like page's first render total, in the order measured. */
  firsts: number[];
}

/** The frame's body tag, where the window starts. */
const BODY = '<body class="theme-light">';
/** Where the rendered parts go in the window's markup. */
const MARK = "<!--fray-sheet-parts-->";

/**
 * The page's side, loaded once per page (Foundry's startup): `fraySheet.setup(...)` takes the
 * templates' sources, the context, the language tree and the window's markup;
 * `fraySheet.render()` times one render and returns its stages and HTML. The helpers are those
 * of the render test's Handlebars (`handlebars()` of the Foundry stand-in).
 */
const PAGE_SCRIPT = `
window.fraySheet = (() => {
  const MARK = ${JSON.stringify(MARK)};
  let sources, context, lang, windowHtml, warm, compiled, current;
  const lookup = (key) => {
    let node = lang;
    for (const part of key.split(".")) {
      if (typeof node !== "object") return undefined;
      node = node[part];
    }
    return typeof node === "string" ? node : undefined;
  };
  const withHelpers = (hb) => {
    hb.registerHelper("localize", (key) => lookup(key) ?? key);
    hb.registerHelper("not", (v) => !v);
    hb.registerHelper("eq", (a, b) => a === b);
    hb.registerHelper("checked", (v) => (v ? "checked" : ""));
    hb.registerHelper("disabled", (v) => (v ? "disabled" : ""));
    hb.registerHelper("selectOptions", (choices, options) => {
      const html = Object.entries(choices)
        .map(([value, label]) => '<option value="' + value + '"' + (value === options.hash.selected ? " selected" : "") + ">" + label + "</option>")
        .join("");
      return new hb.SafeString(html);
    });
    return hb;
  };
  return {
    setup(data) {
      ({ sources, context, lang, windowHtml, warm } = data);
      compiled = undefined;
    },
    warmUp(passes) {
      for (let i = 0; i < passes; i++) {
        const hb = withHelpers(Handlebars.create());
        const cache = new Map();
        for (const w of warm) {
          const html = w.sources.map((s) => (cache.get(s) ?? cache.set(s, hb.compile(s)).get(s))(w.context)).join("\\n");
          const holder = document.createElement("template");
          holder.innerHTML = windowHtml.replace(MARK, () => html);
          const element = holder.content.firstElementChild;
          document.body.append(element);
          void element.offsetHeight;
          element.remove();
        }
        void document.body.offsetHeight;
      }
    },
    render() {
      if (current) {
        current.remove();
        void document.body.offsetHeight;
      }
      const t0 = performance.now();
      let templates = compiled;
      if (!templates) {
        const hb = withHelpers(Handlebars.create());
        templates = sources.map((s) => hb.compile(s));
      }
      const html = templates.map((t) => t(context)).join("\\n");
      const t1 = performance.now();
      const holder = document.createElement("template");
      holder.innerHTML = windowHtml.replace(MARK, () => html);
      current = holder.content.firstElementChild;
      document.body.append(current);
      const t2 = performance.now();
      void getComputedStyle(current).color;
      const t3 = performance.now();
      void current.offsetHeight;
      const t4 = performance.now();
      compiled = templates;
      return { time: { total: t4 - t0, template: t1 - t0, insert: t2 - t1, style: t3 - t2, layout: t4 - t3 }, html };
    },
  };
})();
`;

/**
 * Times the character sheet's render (see the module's description for what is timed).
 * @param executablePath the Chromium binary.
 * @param warmPasses passes over the other sheets before a "first" render (Foundry's startup).
 * @returns medians in milliseconds: the first render in a Foundry-like page, the first in a cold
 *   page, later renders.
 * @throws Error when the page's Handlebars renders other HTML than the render test's.
 */
export async function renderSheetTimes(executablePath: string, warmPasses = WARM_PASSES): Promise<SheetRenderTimes> {
  const i18n = new StubI18n(readLang("en"), "en");
  const sheetI18n = { localize: (k: string) => i18n.localize(k), format: (k: string, d: Record<string, string>) => i18n.format(k, d) };
  const sheets = [...actorCases(sheetI18n), ...itemCases(sheetI18n)];
  const sheet = sheets.find((c) => c.kind === "sheet")!;
  const sources = sheet.templates.map((t) => readFileSync(join(ROOT, t), "utf8"));
  const expected = sources
    .map((s) => handlebars(i18n).compile(s))
    .map((t) => t(sheet.context))
    .join("\n");
  const whole = windowPage({
    title: sheet.title,
    classes: sheet.classes,
    width: sheet.width,
    height: sheet.height,
    body: MARK,
    css: systemCss(),
    form: true,
  });
  // The frame's page cut around its window: the page with no sheet open, and the window's markup.
  const open = whole.indexOf(BODY) + BODY.length;
  const shell = `${whole.slice(0, open)}</body></html>`;
  const windowHtml = whole.slice(open, whole.lastIndexOf("</body>"));
  const handlebarsJs = readFileSync(join(ROOT, "node_modules", "handlebars", "dist", "handlebars.min.js"), "utf8");
  // Foundry's other windows, drawn before the sheet opens: every sheet case sharing no template with it.
  const warm = sheets
    .filter((c) => c.kind === "sheet" && !c.templates.some((t) => sheet.templates.includes(t)))
    .map((c) => ({ sources: c.templates.map((t) => readFileSync(join(ROOT, t), "utf8")), context: c.context }));
  const data = { sources, context: sheet.context, lang: i18n.tree, windowHtml, warm };

  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: sheet.width + 32, height: sheet.height + 32 } });
    /** A page loaded and drawn with no sheet open, after `passes` passes over the other sheets. */
    const loaded = async (passes: number): Promise<Page> => {
      const page = await context.newPage();
      await page.setContent(shell, { waitUntil: "load" });
      await page.addScriptTag({ content: handlebarsJs });
      await page.addScriptTag({ content: PAGE_SCRIPT });
      await page.evaluate((d) => (window as unknown as { fraySheet: SheetPage }).fraySheet.setup(d), data);
      await page.evaluate((n) => (window as unknown as { fraySheet: SheetPage }).fraySheet.warmUp(n), passes);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      return page;
    };
    const renderOnce = async (page: Page): Promise<SheetRenderTime> => {
      const { time, html } = await page.evaluate(() => (window as unknown as { fraySheet: SheetPage }).fraySheet.render());
      if (html !== expected) throw new Error("render bench: the page's Handlebars rendered other HTML than the render test's");
      return time;
    };

    // Cold and Foundry-like pages alternate, so a stall of the shared machine hits both alike.
    const firsts: SheetRenderTime[] = [];
    const colds: SheetRenderTime[] = [];
    let page: Page | undefined;
    for (let i = 0; i < FIRST_PAGES; i++) {
      const cold = await loaded(0);
      colds.push(await renderOnce(cold));
      await cold.close();
      await page?.close();
      page = await loaded(warmPasses);
      firsts.push(await renderOnce(page));
    }
    const later: SheetRenderTime[] = [];
    for (let i = 0; i < LATER_RUNS; i++) later.push(await renderOnce(page!));
    return { first: median(firsts), firstCold: median(colds), later: median(later), firsts: firsts.map((t) => t.total) };
  } finally {
    await browser.close();
  }
}

/** The page side's functions, as `PAGE_SCRIPT` defines them on `window.fraySheet`. */
interface SheetPage {
  setup(data: unknown): void;
  warmUp(passes: number): void;
  render(): { time: SheetRenderTime; html: string };
}

/** The run with the median total (its stages as measured, so they add up to its total). */
function median(times: SheetRenderTime[]): SheetRenderTime {
  return [...times].sort((a, b) => a.total - b.total)[Math.floor(times.length / 2)]!;
}
