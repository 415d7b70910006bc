/**
 * The compendium content in German (issue "Table-ready", Language): every document of every
 * Item, Actor and RollTable pack has its translation in the Babele file of its pack
 * (lang/babele/de), the generated files are what their data gives (Critical's tables from the
 * strings the cards show), and Fray's Babele converters translate firing modes and an NPC's
 * items as Babele calls them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  MAPPINGS,
  ROOT,
  babelePath,
  englishEntry,
  problemsOf,
  readBabele,
  readPack,
  resultKey,
  run,
  translatablePacks,
  type BabeleFile,
} from "../scripts/pack-translations.js";
import { BABELE_TRANSLATIONS_DIR, registerBabele, translateItems, translateModes, type BabeleApi } from "../src/foundry/i18n/babele.js";

describe("German compendium content (Babele files)", () => {
  it("every pack's file is complete and the generated ones equal their data (npm run translations -- --check)", () => {
    expect(run(true)).toEqual([]);
  });

  it("covers every Item, Actor and RollTable pack of system.json and none of the rules journals", () => {
    const packs = translatablePacks();
    expect(packs.map((p) => p.name)).toEqual(expect.arrayContaining(["ud10-weapons", "hitbox-npcs", "critical-tables", "zones-tables"]));
    expect(packs.some((p) => p.name.endsWith("-rules"))).toBe(false);
    for (const pack of packs) {
      const file = readBabele(babelePath("de", pack.name));
      expect(file, pack.name).toBeDefined();
      expect(Object.keys(file!.entries).sort()).toEqual(
        readPack(pack.name)
          .map((d) => d.name)
          .sort(),
      );
    }
  });

  it("CR-CRT-01: the critical tables' German results are the strings the cards show, keyed by range", () => {
    const de = JSON.parse(readFileSync(join(ROOT, "lang", "de.json"), "utf8")) as {
      FRAY: { Critical: { Wound: Record<string, Record<string, string>> } };
    };
    const file = readBabele(babelePath("de", "critical-tables"))!;
    const fireA = readPack("critical-tables").find((d) => d.name === "Fire Criticals A")!;
    const thigh = fireA.results!.find((r) => r.description === "A burn on the thigh.")!;
    expect(file.entries["Fire Criticals A"]!.results![resultKey(thigh.range)]).toBe(de.FRAY.Critical.Wound.F!.A04);
    expect(file.entries["Fire Criticals A"]!.name).toContain(" A");
  });

  it("the check finds a missing entry, an untranslated description, a mode left in English and an entry of no document", () => {
    const pack = translatablePacks().find((p) => p.name === "ud10-weapons")!;
    const docs = readPack(pack.name);
    const good = readBabele(babelePath("de", pack.name))!;
    expect(problemsOf(pack, docs, good, "f")).toEqual([]);
    const rifle = docs.find((d) => d.name === "Assault Rifle")!;
    const bad: BabeleFile = JSON.parse(JSON.stringify(good)) as BabeleFile;
    delete bad.entries[docs[1]!.name];
    bad.entries["Assault Rifle"] = {
      ...bad.entries["Assault Rifle"]!,
      description: rifle.system!.description!,
      modes: { ...englishEntry(rifle, "Item").modes },
    };
    bad.entries["Ray Gun"] = { name: "Strahlenpistole" };
    const problems = problemsOf(pack, docs, bad, "f").map((p) => p.problem);
    expect(problems).toEqual(
      expect.arrayContaining([
        `"${docs[1]!.name}" has no entry`,
        '"Assault Rifle": description not translated',
        '"Assault Rifle": mode burst not translated',
        'entry "Ray Gun" names no document',
      ]),
    );
  });

  it("each file names the mapping of its document type (descriptions at system.description and system.biography)", () => {
    for (const pack of translatablePacks()) {
      const file = readBabele(babelePath("de", pack.name))!;
      expect(file.mapping, pack.name).toEqual(MAPPINGS[pack.type]);
    }
    expect((MAPPINGS.Item as Record<string, unknown>).description).toBe("system.description");
    expect((MAPPINGS.Actor as Record<string, unknown>).description).toBe("system.biography");
  });

  it("HB-ATK-02: an NPC holds its items by id, so a translated name keeps them held", () => {
    for (const doc of readPack("hitbox-npcs")) {
      const held = ((doc.system as { held?: string[] }).held ?? []) as string[];
      const ids = new Set((doc.items ?? []).map((i) => i._id));
      for (const h of held) expect(ids.has(h), `${doc.name} holds ${h}`).toBe(true);
    }
  });
});

describe("Fray's Babele converters", () => {
  it("frayModes replaces the labels of translated modes by id and keeps the rest of each mode", () => {
    const modes = [
      { id: "burst", label: "Three-round burst", shots: 3 },
      { id: "auto", label: "Full auto", shots: 10 },
    ];
    expect(translateModes(modes, { burst: "3-Schuss-Feuerstoß" })).toEqual([
      { id: "burst", label: "3-Schuss-Feuerstoß", shots: 3 },
      { id: "auto", label: "Full auto", shots: 10 },
    ]);
    expect(translateModes("not a list", { burst: "x" })).toBe("not a list");
    expect(translateModes(modes, undefined)).toBe(modes);
  });

  it("frayItems translates an NPC's items by original name: name, description, modes; others stay", () => {
    const items = [
      { _id: "a", name: "Hardwood Club", system: { description: "<p>A club.</p>", damage: "2+1d10" } },
      { _id: "b", name: "Pocket Pistol", system: { description: "<p>A pistol.</p>", modes: [{ id: "burst", label: "Burst" }] } },
      { _id: "c", name: "Unlisted", system: { description: "<p>Stays.</p>" } },
    ];
    const out = translateItems(items, {
      "Hardwood Club": { name: "Hartholzknüppel", description: "<p>Ein Knüppel.</p>" },
      "Pocket Pistol": { name: "Taschenpistole", modes: { burst: "Feuerstoß" } },
    }) as typeof items;
    expect(out[0]).toEqual({ _id: "a", name: "Hartholzknüppel", system: { description: "<p>Ein Knüppel.</p>", damage: "2+1d10" } });
    expect(out[1]!.name).toBe("Taschenpistole");
    expect(out[1]!.system.description).toBe("<p>A pistol.</p>");
    expect(out[1]!.system.modes).toEqual([{ id: "burst", label: "Feuerstoß" }]);
    expect(out[2]).toBe(items[2]);
    expect(items[0]!.name).toBe("Hardwood Club");
  });

  it("registers at babele.init: the translations folder and both converters", () => {
    let handler: ((b: BabeleApi) => void) | undefined;
    registerBabele({
      once: (name, fn) => {
        expect(name).toBe("babele.init");
        handler = fn;
      },
    });
    const seen: { dir?: string; converters?: string[] } = {};
    handler!({
      setSystemTranslationsDir: (dir) => (seen.dir = dir),
      registerConverters: (c) => (seen.converters = Object.keys(c)),
    });
    expect(seen.dir).toBe(BABELE_TRANSLATIONS_DIR);
    expect(seen.converters).toEqual(["frayModes", "frayItems"]);
    expect(MAPPINGS.Item).toMatchObject({ modes: { converter: "frayModes" } });
    expect(MAPPINGS.Actor).toMatchObject({ items: { converter: "frayItems" } });
  });
});
