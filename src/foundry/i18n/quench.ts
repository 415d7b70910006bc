/**
 * The Quench batch of the compendium translations (docs/foundry-assumptions.md, B1 to B3): Babele
 * reads Fray's files for the client's language, translates a pack's index and documents through
 * the mapping each file names (Fray's converters included) and its table results by range.
 * Run it as a GM in a world whose language is German, with Babele active; otherwise it is skipped.
 */
import type { Quench } from "../quench.js";
import { BABELE_LANGS } from "./babele.js";

/** A compendium pack as the batch reads it. */
interface PackLike {
  getIndex(): Promise<{ contents?: { _id: string; name: string }[] } & Iterable<{ _id: string; name: string }>>;
  getDocument(id: string): Promise<{
    name: string;
    system?: { description?: string; biography?: string; modes?: { id: string; label?: string }[] };
    items?: Iterable<{ name: string; system?: { description?: string } }>;
    results?: Iterable<{ range: [number, number]; description?: string; text?: string; name?: string }>;
  } | null>;
}

/** Well-known documents of the packs and their German names (lang/babele/de). */
const PROBES = {
  weapon: { pack: "fray.ud10-weapons", id: "fRw1AssaultRfl17", name: "Sturmgewehr", english: "Assault Rifle" },
  npc: { pack: "fray.ud10-npcs", id: "fRn1ThugNpc00002", english: "Thug" },
  table: { pack: "fray.ud10-tables", id: "fRt1BodyZones001", english: "Body Zones" },
} as const;

/** Registers the batch `fray.compendium-translations`. */
export function registerTranslationsQuench(quench: Quench): void {
  quench.registerBatch(
    "fray.compendium-translations",
    (context) => {
      const { describe, it, assert } = context;
      const active = () =>
        BABELE_LANGS.includes(game.i18n.lang) && Boolean(game.modules.get("babele")?.active) && game.packs?.get(PROBES.weapon.pack);
      describe("Compendium content in the reader's language (Babele)", () => {
        it("B1: Babele reads lang/babele/<lang>/fray.<pack>.json (setSystemTranslationsDir) and translates a pack's index by original name", async function (this: {
          skip(): void;
        }) {
          if (!active()) this.skip();
          const pack = game.packs?.get(PROBES.weapon.pack) as unknown as PackLike;
          const index = [...(await pack.getIndex())];
          assert.equal(index.find((e) => e._id === PROBES.weapon.id)?.name, PROBES.weapon.name);
        });
        it("B2: a document of the pack gets the mapped fields: system.description, the firing modes through frayModes, an NPC's items through frayItems", async function (this: {
          skip(): void;
        }) {
          if (!active()) this.skip();
          const weapon = await (game.packs?.get(PROBES.weapon.pack) as unknown as PackLike).getDocument(PROBES.weapon.id);
          assert.equal(weapon?.name, PROBES.weapon.name);
          assert.ok(!(weapon?.system?.description ?? "").includes("select-fire"), "the description is German");
          assert.ok(
            (weapon?.system?.modes ?? []).every((m) => m.label !== "Full auto"),
            "the mode labels are German",
          );
          const npc = await (game.packs?.get(PROBES.npc.pack) as unknown as PackLike).getDocument(PROBES.npc.id);
          assert.ok(npc && npc.name !== PROBES.npc.english, `the NPC is named ${npc?.name}`);
          assert.ok(![...(npc?.items ?? [])].some((i) => i.name === "Hardwood Club"), "the embedded items are German");
        });
        it("B3: a RollTable's results are translated by their range (`<low>-<high>`)", async function (this: { skip(): void }) {
          if (!active()) this.skip();
          const table = await (game.packs?.get(PROBES.table.pack) as unknown as PackLike).getDocument(PROBES.table.id);
          assert.ok(table && table.name !== PROBES.table.english, `the table is named ${table?.name}`);
          const first = [...(table?.results ?? [])].find((r) => r.range[0] === 1);
          const text = first?.description ?? first?.text ?? first?.name;
          assert.ok(text && text !== "Head", `the result reads ${text}`);
        });
      });
    },
    { displayName: "Fray: compendium translations (Babele)" },
  );
}
