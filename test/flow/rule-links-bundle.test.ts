/**
 * The rule links wired in the built bundle, in a German world: the `@Rule[...]` enricher is in
 * `CONFIG.TextEditor.enrichers`, and the render hooks of applications and chat messages turn the
 * rule IDs a sheet or card shows into links to the German pages (UD-DMG-03, UD-ATK-03).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, installFoundryStub, type FoundryStub } from "../support/foundry-stub.js";
import { RULE_CATALOG, rulePageUuid } from "../../src/foundry/rules-compendium/pages.js";

const BUNDLE = join(ROOT, "dist", "fray.mjs");

let stub: FoundryStub;

beforeAll(async () => {
  if (!existsSync(BUNDLE)) throw new Error(`dist/fray.mjs is missing: run "npm run build" first.`);
  stub = installFoundryStub("de");
  await import(pathToFileURL(BUNDLE).href);
  for (const hook of ["init", "i18nInit", "setup", "ready"]) stub.Hooks.callAll(hook);
});

/** An element stand-in with what the rule links read and write. */
class El {
  innerHTML: string;
  constructor(
    public textContent: string,
    public dataset: Record<string, string> = {},
    public kids: Record<string, El[]> = {},
  ) {
    this.innerHTML = textContent;
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

function callHook(name: string, ...args: unknown[]): void {
  for (const h of stub.Hooks.handlers.get(name) ?? []) h.fn(...(args as never[]));
}

describe("rule links in the bundle", () => {
  it("registers the @Rule enricher with a global pattern", () => {
    const enrichers = (
      (stub.CONFIG as unknown as { TextEditor?: { enrichers?: { id?: string; pattern: RegExp }[] } }).TextEditor?.enrichers ?? []
    ).filter((e) => e.id === "frayRule");
    expect(enrichers).toHaveLength(1);
    expect(enrichers[0]!.pattern.flags).toContain("g");
    expect("@Rule[UD-DMG-03]".match(enrichers[0]!.pattern)).toEqual(["@Rule[UD-DMG-03]"]);
  });

  it("UD-DMG-03: a card's rule column links to the German page when a German reader's chat renders it", () => {
    const rule = new El("UD-DMG-03");
    callHook("renderChatMessageHTML", { type: "base" }, new El("", {}, { ".fray-rule": [rule] }));
    expect(rule.innerHTML).toContain(`data-uuid="${rulePageUuid("UD-DMG-03", "de")}"`);
    expect(rule.innerHTML).toContain(RULE_CATALOG["UD-DMG-03"]!.summary.de);
  });

  it("UD-ATK-03: a sheet field whose tooltip is a bare rule ID gets the German summary when the sheet renders", () => {
    const label = new El("Verteidigung");
    const field = new El("", { tooltip: "UD-ATK-03" }, { ":scope > span, :scope > dt, :scope > legend": [label] });
    callHook("renderApplicationV2", {}, new El("", {}, { "[data-tooltip]": [field] }));
    expect(field.dataset.tooltip).toBe(`UD-ATK-03 · ${RULE_CATALOG["UD-ATK-03"]!.summary.de}`);
    expect(label.innerHTML).toContain(`data-uuid="${rulePageUuid("UD-ATK-03", "de")}"`);
  });
});
