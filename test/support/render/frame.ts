/**
 * A minimal Foundry-like page for rendering the system's templates in a browser: a window
 * frame (header bar, content area) with base styles close to Foundry's light theme, and the
 * system's own stylesheet. Not Foundry's CSS: just enough of a frame to see the sheets the way
 * a table would and to measure overflow at the sheet's default size.
 */

import type { DialogButtonFace } from "../../../src/foundry/logic/dialog-buttons.js";

/** Foundry v13's two themes, set as a class on the body. */
export type Theme = "light" | "dark";

/**
 * Where the page finds Font Awesome Free (the npm package @fortawesome/fontawesome-free): the
 * render test serves this path from the package's folder.
 */
export const FONT_AWESOME_URL = "http://fray.test/fontawesome/";

/**
 * Icons of Font Awesome Pro, which Foundry ships and the Free package lacks, each drawn with a
 * Free glyph of the same kind so no icon button shows blank: name -> the Free icon standing in.
 */
export const PRO_ICON_STAND_INS: Readonly<Record<string, string>> = {
  "dice-d10": "dice-d20",
  swords: "khanda",
  "person-running-fast": "person-running",
};

/**
 * The head of a page drawing Foundry's icon classes (`fa-solid fa-dice` ...): Font Awesome's
 * base, solid and regular stylesheets from {@link FONT_AWESOME_URL}, and the Pro icons'
 * stand-ins (their code points read from the base stylesheet `css`).
 */
export function fontAwesomeHead(css: string): string {
  const standIns = Object.entries(PRO_ICON_STAND_INS)
    .map(([pro, free]) => {
      const code = new RegExp(`\\.fa-${free}(?:,[^{]*)?\\{--fa:("[^"]+")`).exec(css)?.[1];
      if (!code) throw new Error(`Font Awesome Free has no icon "${free}" to stand in for "${pro}"`);
      return `.fa-${pro}{--fa:${code}}`;
    })
    .join("");
  const link = (file: string) => `<link rel="stylesheet" href="${FONT_AWESOME_URL}css/${file}">`;
  return link("fontawesome.min.css") + link("solid.min.css") + link("regular.min.css") + `<style>${standIns}</style>`;
}

/**
 * Foundry's `<multi-checkbox>` form element (foundry.applications.elements.HTMLMultiCheckboxElement,
 * https://foundryvtt.com/api/classes/foundry.applications.elements.HTMLMultiCheckboxElement.html:
 * "a multi-select workflow as a grid of input checkbox elements", its choices given as `<option>`
 * children): a stand-in drawing a labelled checkbox per option, ticked where the option is
 * selected, disabled with the element; drawn by a script at the end of the body, once the
 * options are parsed.
 */
export const FOUNDRY_ELEMENTS = `<script>
for (const el of document.querySelectorAll("multi-checkbox")) {
  const disabled = el.hasAttribute("disabled");
  el.replaceChildren(...Array.from(el.querySelectorAll("option"), (o) => {
    const label = document.createElement("label");
    label.className = "checkbox";
    const box = document.createElement("input");
    Object.assign(box, { type: "checkbox", value: o.value, checked: o.selected, disabled });
    label.append(box, o.textContent);
    return label;
  }));
}
</script>`;

/** Base styles standing in for Foundry's application frame and form controls. */
export const BASE_CSS = `
*, *::before, *::after { box-sizing: border-box; }
html, body { margin: 0; padding: 0; }
body { background: #2a2a2e; font-family: "Signika", "Segoe UI", "DejaVu Sans", sans-serif; font-size: 14px; color: #191813; }
.application { position: absolute; top: 16px; left: 16px; display: flex; flex-direction: column; overflow: hidden;
  background: #ede6d6 linear-gradient(180deg, #f2ecdf, #e6dcc6); border-radius: 6px; box-shadow: 0 0 12px #000; }
.application .window-header { flex: 0 0 34px; display: flex; align-items: center; gap: 8px; padding: 0 10px;
  background: #23221d; color: #f0f0e0; font-size: 14px; }
.application .window-header .window-title { flex: 1; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
.application .window-content { flex: 1; display: flex; flex-direction: column; padding: 1rem; overflow: hidden; min-height: 0; }
h3 { font-family: "Modesto Condensed", "Palatino Linotype", serif; font-weight: bold; margin: 0.5rem 0 0.25rem; }
input, select { font: inherit; height: 28px; padding: 1px 4px; border: 1px solid #7a7971; border-radius: 3px;
  background: rgba(255, 255, 255, 0.5); color: inherit; min-width: 0; }
input[type="text"], select { width: 100%; }
input[type="number"] { width: 4rem; }
input[type="checkbox"] { width: 16px; height: 16px; }
input:disabled, select:disabled { opacity: 0.7; }
button { font: inherit; display: inline-flex; align-items: center; justify-content: center; gap: 4px; min-height: 26px;
  padding: 2px 8px; border: 1px solid #7a7971; border-radius: 3px; background: rgba(0, 0, 0, 0.06); color: inherit; cursor: pointer; }
button:hover { box-shadow: 0 0 6px #ff6400; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: 2px 4px; text-align: left; }
img { max-width: 100%; }
a { cursor: pointer; }
label { display: inline-flex; align-items: center; gap: 4px; }
prose-mirror { display: block; border: 1px solid #7a7971; border-radius: 3px; padding: 6px; min-height: 6rem; background: rgba(255,255,255,0.35); }
.chat-log { position: absolute; top: 16px; left: 16px; width: 300px; padding: 6px; background: #d9d2c0; border-radius: 4px; }
.application .form-footer { display: flex; gap: 8px; margin-top: 0.75rem; }
.application .form-footer button { flex: 1; }
fieldset { border: 1px solid #7a7971; border-radius: 4px; margin: 0 0 0.5rem; padding: 0.25rem 0.5rem 0.5rem; min-width: 0; }
legend { padding: 0 4px; }
.form-group { display: flex; align-items: center; gap: 0.5rem; margin: 0.25rem 0; }
.form-group > label { flex: 2; }
.form-group > input, .form-group > select { flex: 1; }
.chat-message { background: #f2ecdf; border: 1px solid #aaa; border-radius: 4px; padding: 6px; font-size: 13px; }
/* Foundry v13's dark theme (\`theme-dark\` on the body): dark windows, sidebar and messages, light text. */
body.theme-dark { background: #0b0a13; color: #e7e1d4; }
.theme-dark .application { background: #1c1d24 linear-gradient(180deg, #23242c, #17181e); color: #e7e1d4; box-shadow: 0 0 12px #000, 0 0 0 1px #3a3b44; }
.theme-dark .application .window-header { background: #0e0f14; color: #e7e1d4; }
.theme-dark input, .theme-dark select, .theme-dark textarea { background: rgba(0, 0, 0, 0.35); border-color: #5e5f6a; color: #e7e1d4; }
.theme-dark button { background: rgba(255, 255, 255, 0.08); border-color: #5e5f6a; color: #e7e1d4; }
.theme-dark fieldset { border-color: #5e5f6a; }
.theme-dark prose-mirror { background: rgba(0, 0, 0, 0.35); border-color: #5e5f6a; }
.theme-dark .chat-log { background: #15161c; }
.theme-dark .chat-message { background: #23242c; border-color: #3a3b44; color: #e7e1d4; }
`;

/**
 * A window holding the given HTML, sized as the sheet's default position; a height of 0 lets
 * the window grow with its content, as a dialog does. `footer` is HTML after the content (a
 * dialog's buttons).
 */
export function windowPage(options: {
  title: string;
  classes: string[];
  width: number;
  height: number;
  body: string;
  css: string;
  form?: boolean;
  footer?: string;
  /** More of the head: the icon font's stylesheets ({@link FONT_AWESOME_HEAD}). */
  head?: string;
  /** Foundry's theme class on the body: `theme-light` (the default) or `theme-dark`. */
  theme?: Theme;
}): string {
  const footer = options.footer ?? "";
  const content = options.form
    ? `<form class="window-content">${options.body}${footer}</form>`
    : `<section class="window-content">${options.body}${footer}</section>`;
  const height = options.height > 0 ? `${options.height}px` : "auto";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${options.title}</title>
<style>${BASE_CSS}</style>${options.head ?? ""}<style>${options.css}</style></head><body class="theme-${options.theme ?? "light"}">
<div class="application ${options.classes.join(" ")}" style="width:${options.width}px;height:${height}">
<header class="window-header"><span class="window-title">${options.title}</span></header>
${content}
</div>${FOUNDRY_ELEMENTS}</body></html>`;
}

/** A chat log column holding one message, as Foundry's sidebar shows chat cards. */
export function chatPage(options: { body: string; css: string; head?: string; theme?: Theme }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><style>${BASE_CSS}</style>${options.head ?? ""}<style>${options.css}</style></head>
<body class="theme-${options.theme ?? "light"}"><div class="chat-log"><ol style="list-style:none;margin:0;padding:0"><li class="chat-message message">
<div class="message-content">${options.body}</div></li></ol></div></body></html>`;
}

/**
 * The footer DialogV2 puts under a dialog's content for its buttons: each a submit button with
 * its action, its icon and its localized label, the default one focused; none without buttons.
 */
export function dialogFooter(buttons: readonly DialogButtonFace[], localize: (key: string) => string): string {
  if (!buttons.length) return "";
  const html = buttons
    .map(
      (b) =>
        `<button type="submit" data-action="${b.action}"${b.default ? " autofocus" : ""}>` +
        `${b.icon ? `<i class="${b.icon}"></i>` : ""}<span>${localize(b.label)}</span></button>`,
    )
    .join("");
  return `<footer class="form-footer">${html}</footer>`;
}

/** A placeholder image served for every `icons/...` path (Foundry's icons are not part of the system). */
export const PLACEHOLDER_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="8" fill="#5b4a3a"/><circle cx="32" cy="26" r="12" fill="#c9b38c"/><rect x="14" y="42" width="36" height="14" rx="7" fill="#c9b38c"/></svg>`;
