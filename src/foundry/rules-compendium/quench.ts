/**
 * The Quench batch of the rules compendium and the rule links (docs/foundry-assumptions.md, L1 to
 * L5): the enricher registered in `CONFIG.TextEditor.enrichers`, the pack's page ids, Foundry's
 * click handler on content links, the `renderApplicationV2` hook and the tooltip attribute.
 * Run it as a GM in a world of any ruleset; it opens and closes one journal sheet.
 */
import type { Quench } from "../quench.js";
import { activeRuleset } from "../registry.js";
import { until } from "../quench-wait.js";
import { RULE_CATALOG, ruleLang, rulePageUuid, rulesPackName, type RulesRuleset } from "./pages.js";

/** A rule of the world's ruleset (its pack is the one loaded in this world). */
function worldRule(): string {
  const ruleset = activeRuleset() as RulesRuleset;
  const id = Object.keys(RULE_CATALOG).find((r) => RULE_CATALOG[r]!.ruleset === ruleset);
  if (!id) throw new Error(`The rules compendium has no rule of ${ruleset}`);
  return id;
}

/** `TextEditor.implementation.enrichHTML`, typed for what the batch uses. */
async function enrich(html: string): Promise<string> {
  const editor = foundry.applications.ux.TextEditor.implementation as unknown as { enrichHTML(html: string): Promise<string> };
  return editor.enrichHTML(html);
}

/** Registers the batch `fray.rules-compendium`. */
export function registerRulesCompendiumQuench(quench: Quench): void {
  quench.registerBatch(
    "fray.rules-compendium",
    (context) => {
      const { describe, it, assert } = context;
      describe("Rules compendium and rule links", () => {
        it("L1: an enricher pushed to CONFIG.TextEditor.enrichers turns @Rule[...] into a content link with the summary as tooltip; an unknown ID stays text", async () => {
          const id = worldRule();
          const lang = ruleLang((game.i18n as unknown as { lang?: string }).lang);
          const div = document.createElement("div");
          div.innerHTML = await enrich(`<p>See @Rule[${id}] and @Rule[${["UD", "ZZZ", "99"].join("-")}].</p>`);
          const link = div.querySelector<HTMLAnchorElement>("a.content-link");
          assert.ok(link, "a content link is rendered");
          assert.equal(link!.dataset.uuid, rulePageUuid(id, lang));
          assert.ok((link!.dataset.tooltip ?? "").includes(RULE_CATALOG[id]!.summary[lang]), "the summary is the tooltip");
          assert.equal(div.querySelectorAll("a.content-link").length, 1, "the unknown ID is no link");
          assert.ok((div.textContent ?? "").includes("ZZZ"), "the unknown ID stays as text");
        });
        it("L2: the pack of the world's ruleset holds the page at the UUID the links compute, in both languages", async () => {
          const id = worldRule();
          for (const lang of ["en", "de"] as const) {
            const page = (await fromUuid(rulePageUuid(id, lang) as never)) as {
              documentName?: string;
              flags?: { fray?: { rule?: string } };
            } | null;
            assert.equal(page?.documentName, "JournalEntryPage", `${lang} page`);
            assert.equal(page?.flags?.fray?.rule, id);
          }
          assert.ok(game.packs?.get(`fray.${rulesPackName(RULE_CATALOG[id]!.ruleset)}`), "the pack is listed");
        });
        it("L3: a click on an a.content-link with data-uuid anywhere in the page opens the journal at that page", async () => {
          const id = worldRule();
          const lang = ruleLang((game.i18n as unknown as { lang?: string }).lang);
          const holder = document.createElement("div");
          holder.className = "fray";
          holder.innerHTML = `<span class="fray-rule">${id}</span>`;
          document.body.append(holder);
          try {
            (Hooks.callAll as unknown as (name: string, ...args: unknown[]) => void)("renderApplicationV2", {}, holder);
            const link = holder.querySelector<HTMLAnchorElement>("a.content-link");
            assert.ok(link, "the rule ID became a link");
            link!.click();
            const entryId = rulePageUuid(id, lang).split(".")[4]!;
            const open = () =>
              Array.from(foundry.applications.instances.values()).find(
                (app) => (app as unknown as { document?: { id?: string } }).document?.id === entryId,
              ) as { close(): Promise<unknown> } | undefined;
            assert.ok(await until(() => Boolean(open())), "the journal sheet opened");
            await open()?.close();
          } finally {
            holder.remove();
          }
        });
        it("L4: rendering an ApplicationV2 (a throwaway actor's sheet) calls renderApplicationV2 with its element", async () => {
          type Sheet = { render(force: boolean): Promise<unknown>; close(): Promise<unknown> };
          const create = (Actor as unknown as { create(data: object): Promise<unknown> }).create.bind(Actor);
          const actor = (await create({ name: "Quench Rules", type: "npc" })) as { sheet: Sheet; delete(): Promise<unknown> };
          let seen: unknown;
          const hook = Hooks.on(
            "renderApplicationV2" as never,
            ((_app: unknown, element: unknown) => {
              seen = element;
            }) as never,
          );
          try {
            await actor.sheet.render(true);
            assert.ok(await until(() => seen instanceof HTMLElement), "the hook got the sheet's element");
          } finally {
            Hooks.off("renderApplicationV2" as never, hook);
            await actor.sheet.close();
            await actor.delete();
          }
        });
        it("L5: Foundry's tooltip shows a data-tooltip's text on hover", async () => {
          const el = document.createElement("span");
          el.dataset.tooltip = "Fray · tooltip probe";
          el.textContent = "probe";
          document.body.append(el);
          try {
            const tooltip = game.tooltip as unknown as { activate(el: HTMLElement): void; deactivate(): void; tooltip: HTMLElement };
            tooltip.activate(el);
            assert.ok((tooltip.tooltip.textContent ?? "").includes("tooltip probe"), "the tooltip shows the text");
            tooltip.deactivate();
          } finally {
            el.remove();
          }
        });
      });
    },
    { displayName: "Fray: rules compendium and rule links" },
  );
}
