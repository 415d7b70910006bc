import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ItemSource } from "../src/foundry/sources.js";
import { ud10ArmorFromItem, ud10CombatantFromActor, ud10WeaponFromItem } from "../src/foundry/rulesets/ud10/translate.js";
import { parseDamageCode, ZONES, type ZoneId } from "../src/rules/ud10/model.js";
import { compileAndRead, embedded, packFolders, readSources, splitKey, topLevel, type PackDoc, type SourceFile } from "./support/packs.js";
import {
  HIT_ZONE_TABLE,
  ZONE_MULTIPLIER,
  zonesArmorFromItem,
  zonesCombatantFromActor,
  zonesWeaponFromItem,
  type ZonesItemSource,
} from "../src/rules/zones/index.js";
import {
  CALLED_THRESHOLDS,
  HITBOXES,
  hitboxArmorFromItem,
  hitboxCombatantFromActor,
  hitboxWeaponFromItem,
  regularLocation,
  type HitboxItemSource,
} from "../src/rules/hitbox/index.js";
import {
  ARMOR_TYPES,
  CRIT_TYPES,
  DEFAULT_TABLES,
  SEVERITIES,
  attackColumnBands,
  checkCriticalTable,
  criticalCombatantFromActor,
  parseArmor as parseCriticalArmor,
  parseAttackColumn,
  parseCriticalTable,
  parseWeapon as parseCriticalWeapon,
  withCriticalSeverity,
  type CriticalEntry,
  type CriticalItemSource,
} from "../src/rules/critical/index.js";

/** Valid document types per primary collection (RollTables have none). */
const VALID_TYPES: Record<string, string[] | null> = {
  items: ["weapon", "armor"],
  actors: ["npc", "character"],
  tables: null,
  journal: null,
};

/** The embedded collections of the packs' documents (NPCs' items, tables' results, journals' pages). */
const EMBEDDED = ["items", "results", "pages"] as const;

/** The UD10 packs and the collection each holds. */
const UD10_PACKS = { weapons: "ud10-weapons", armor: "ud10-armor", tables: "ud10-tables", npcs: "ud10-npcs" } as const;
const EXPECTED_COLLECTION: Record<string, string> = {
  [UD10_PACKS.weapons]: "items",
  [UD10_PACKS.armor]: "items",
  [UD10_PACKS.tables]: "tables",
  [UD10_PACKS.npcs]: "actors",
};

const ID = /^[A-Za-z0-9]{16}$/;

let tmp = "";
const sources = new Map<string, SourceFile[]>();
const compiled = new Map<string, Map<string, PackDoc>>();
/** Failures while reading or compiling a pack, reported by the tests that need that pack. */
const failures = new Map<string, Error>();

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "fray-packs-"));
  for (const pack of packFolders()) {
    try {
      sources.set(pack, readSources(pack));
      compiled.set(pack, await compileAndRead(pack, tmp));
    } catch (err) {
      failures.set(pack, err as Error);
    }
  }
});

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

function sourcesOf(pack: string): SourceFile[] {
  const s = sources.get(pack);
  if (!s) throw new Error(`Sources of ${pack} could not be read: ${failures.get(pack)?.message ?? "missing"}`);
  return s;
}

function entriesOf(pack: string): Map<string, PackDoc> {
  const e = compiled.get(pack);
  if (!e) throw new Error(`Pack ${pack} did not compile: ${failures.get(pack)?.message ?? "missing"}`);
  return e;
}

/** Primary documents read back from a compiled pack. */
function docsOf(pack: string): PackDoc[] {
  return topLevel(entriesOf(pack)).map(([, doc]) => doc);
}

/** Every document of a source file with its embedded documents, depth first. */
function withEmbedded(doc: PackDoc): PackDoc[] {
  const children = EMBEDDED.flatMap((field) => (Array.isArray(doc[field]) ? doc[field] : [])) as PackDoc[];
  return [doc, ...children.flatMap(withEmbedded)];
}

/** Mean of one exploding d10 (a 10 is rolled again and added): 5.5 / (1 - 1/10). */
const EXPLODING_D10_MEAN = 5.5 / 0.9;

function meanDamage(code: string): number {
  const { fixed, dice } = parseDamageCode(code);
  return fixed + dice * EXPLODING_D10_MEAN;
}

describe("pack sources", () => {
  it("has the four UD10 pack folders", () => {
    expect(packFolders()).toEqual(expect.arrayContaining(Object.values(UD10_PACKS)));
  });

  it("every source file is valid JSON with a _key, a 16-character _id and the common fields", () => {
    for (const pack of packFolders()) {
      const files = sourcesOf(pack);
      expect(files.length, pack).toBeGreaterThan(0);
      for (const { file, doc } of files) {
        expect(typeof doc._key, `${file}: _key`).toBe("string");
        expect(doc._id, `${file}: _id`).toMatch(ID);
        expect(doc._key, file).toMatch(new RegExp(`^![a-z]+!${doc._id}$`));
        expect(doc.name, `${file}: name`).toBeTruthy();
        expect(doc.folder, `${file}: folder`).toBeNull();
        expect(typeof doc.sort, `${file}: sort`).toBe("number");
        expect(doc.ownership, `${file}: ownership`).toEqual({ default: 0 });
        expect(doc.flags, `${file}: flags`).toBeTypeOf("object");
        // Journal entries have no image; their pages carry the content.
        if (!doc._key?.startsWith("!journal!")) expect(doc.img, `${file}: img`).toMatch(/^icons\/.+\.(webp|svg)$/);
      }
    }
  });

  it("embedded documents carry their own _key under the parent's id", () => {
    for (const pack of packFolders()) {
      for (const { file, doc } of sourcesOf(pack)) {
        if (!doc._key) continue; // reported by the _key test
        const [collection] = splitKey(doc._key);
        for (const [field, list] of EMBEDDED.map((f) => [f, doc[f]] as const)) {
          if (!Array.isArray(list)) continue;
          for (const child of list as PackDoc[]) {
            expect(child._id, `${file}: ${field} _id`).toMatch(ID);
            expect(child._key, `${file}: ${field} ${child._id}`).toBe(`!${collection}.${field}!${doc._id}.${child._id}`);
          }
        }
      }
    }
  });

  it("ids are unique across each pack, embedded documents included", () => {
    for (const pack of packFolders()) {
      const ids = sourcesOf(pack).flatMap(({ doc }) => withEmbedded(doc).map((d) => d._id));
      expect(new Set(ids).size, pack).toBe(ids.length);
    }
  });

  it("file names follow the CLI's extract naming <Name>_<id>.json", () => {
    for (const pack of packFolders()) {
      for (const { file, doc } of sourcesOf(pack)) {
        expect(path.basename(file)).toBe(`${doc.name.replace(/[^a-zA-Z0-9]/g, "_")}_${doc._id}.json`);
      }
    }
  });
});

describe("compiled packs", () => {
  it("every pack folder parses and compiles with compilePack", () => {
    expect(Object.fromEntries([...failures].map(([pack, err]) => [pack, err.message]))).toEqual({});
  });

  it("every source becomes one primary document (a source without _key would be skipped silently)", () => {
    for (const pack of packFolders()) {
      const keys = topLevel(entriesOf(pack))
        .map(([key]) => key)
        .sort();
      const sourceKeys = sourcesOf(pack)
        .map(({ doc }) => doc._key)
        .sort();
      expect(keys, pack).toEqual(sourceKeys);
    }
  });

  it("keys have the collection prefix of the pack and documents a valid type", () => {
    for (const pack of packFolders()) {
      const expected = EXPECTED_COLLECTION[pack];
      for (const [key, doc] of topLevel(entriesOf(pack))) {
        const [collection, id] = splitKey(key);
        if (expected) expect(collection, key).toBe(expected);
        expect(Object.keys(VALID_TYPES), key).toContain(collection);
        expect(id, key).toBe(doc._id);
        const types = VALID_TYPES[collection];
        if (types) expect(types, `${key} type`).toContain(doc.type);
        else expect(doc.type, `${key} type`).toBeUndefined();
        expect(doc._key, key).toBeUndefined();
      }
    }
  });

  it("embedded entries are stored under their own keys and the parent lists their ids", () => {
    for (const pack of packFolders()) {
      const entries = entriesOf(pack);
      const nested = [...entries.keys()].filter((k) => splitKey(k)[0].includes("."));
      let listed = 0;
      for (const [key, doc] of topLevel(entries)) {
        const [collection] = splitKey(key);
        for (const child of EMBEDDED) {
          if (!Array.isArray(doc[child])) continue;
          expect(
            (doc[child] as unknown[]).every((v) => typeof v === "string"),
            `${key} ${child}`,
          ).toBe(true);
          listed += embedded(entries, collection, child, doc).length;
        }
      }
      expect(nested.length, pack).toBe(listed);
    }
  });
});

describe("UD10 weapons", () => {
  const weapons = (): PackDoc[] => docsOf(UD10_PACKS.weapons);
  const named = (re: RegExp): PackDoc[] => weapons().filter((w) => re.test(w.name));

  it("UD-DMG-01, UD-DMG-05, UD-RNG-01: every weapon reads through ud10WeaponFromItem", () => {
    for (const doc of weapons()) {
      expect(doc.type).toBe("weapon");
      const w = ud10WeaponFromItem(doc as ItemSource);
      expect(w.id).toBe(doc._id);
      expect(() => parseDamageCode(w.damage), doc.name).not.toThrow();
      expect(w.damage, doc.name).toMatch(/^\d+\+\d+d10$|^\d*d10$/);
      expect(Number.isInteger(w.attackModifier) && w.attackModifier >= -2 && w.attackModifier <= 2, doc.name).toBe(true);
      expect(w.penetration >= 0 && w.penetration <= 4, doc.name).toBe(true);
      if (w.kind === "melee") {
        expect(w.rangeIncrement, doc.name).toBe(0);
        expect(w.modes, doc.name).toEqual([]);
      } else {
        expect(w.rangeIncrement, doc.name).toBeGreaterThan(0);
        expect(w.canParry, doc.name).toBe(false);
      }
      expect(w.shield, doc.name).toBe(doc.system?.shield === true);
      expect(typeof doc.system?.description, doc.name).toBe("string");
    }
  });

  it("has at least 12 weapons including a blade, a blunt weapon, a pistol, a rifle, a shotgun and a bow", () => {
    expect(weapons().length).toBeGreaterThanOrEqual(12);
    expect(named(/knife|sword|blade|machete/i).length).toBeGreaterThan(0);
    expect(named(/club|baton|hammer/i).length).toBeGreaterThan(0);
    expect(named(/pistol|revolver/i).length).toBeGreaterThan(0);
    expect(named(/rifle/i).length).toBeGreaterThan(0);
    expect(named(/shotgun/i).length).toBeGreaterThan(0);
    expect(named(/bow/i).length).toBeGreaterThan(0);
  });

  it("UD-RNG-02: the SMG and the assault rifle have burst and auto modes with their own damage codes", () => {
    for (const re of [/smg/i, /assault rifle/i]) {
      const [doc] = named(re);
      expect(doc, String(re)).toBeDefined();
      const w = ud10WeaponFromItem(doc as ItemSource);
      expect(w.kind).toBe("ranged");
      expect(w.modes.map((m) => m.id)).toEqual(["burst", "auto"]);
      for (const m of w.modes) {
        expect(m.label).toMatch(/\w/);
        expect(m.shots).toBeGreaterThan(1);
        expect(meanDamage(m.damage)).toBeGreaterThan(meanDamage(w.damage));
        expect(w.attackModifier + m.attackModifier).toBeLessThan(w.attackModifier);
      }
    }
  });

  it("UD-RNG-02: the shotgun fires buckshot by default and slugs as an alternative mode", () => {
    const [doc] = named(/shotgun/i);
    const w = ud10WeaponFromItem(doc as ItemSource);
    expect(w.modes.map((m) => m.id)).toEqual(["slug"]);
    expect(() => parseDamageCode(w.modes[0]!.damage)).not.toThrow();
  });

  it("UD-DEF-01: melee weapons can parry, and one shield exists", () => {
    const parsed = weapons().map((d) => ud10WeaponFromItem(d as ItemSource));
    for (const w of parsed.filter((x) => x.kind === "melee")) expect(w.canParry, w.name).toBe(true);
    const shields = parsed.filter((w) => w.shield);
    expect(shields.length).toBe(1);
    expect(shields[0]!.kind).toBe("melee");
    expect(shields[0]!.canParry).toBe(true);
  });

  it("UD-ATK-02, UD-DMG-04: an armed guard hits Defense 12 about half the time; a pistol hit takes a few HP off an unarmored person", () => {
    const guard = docsOf(UD10_PACKS.npcs).find((d) => d.name === "Guard")!;
    const entries = entriesOf(UD10_PACKS.npcs);
    const c = ud10CombatantFromActor({ ...(guard as ItemSource), items: embedded(entries, "actors", "items", guard) as ItemSource[] });
    const pistol = c.weapons.find((w) => w.kind === "ranged")!;
    const need = 12 - c.skills.ranged.rating - pistol.attackModifier;
    const pHit = Math.min(10, Math.max(0, 11 - need)) / 10;
    expect(pHit).toBeGreaterThanOrEqual(0.35);
    expect(pHit).toBeLessThanOrEqual(0.6);
    for (const w of named(/pistol/i).map((d) => ud10WeaponFromItem(d as ItemSource))) {
      for (const con of [2, 3]) {
        const hp = meanDamage(w.damage) - con;
        expect(hp, `${w.name} vs CON ${con}`).toBeGreaterThanOrEqual(2);
        expect(hp, `${w.name} vs CON ${con}`).toBeLessThanOrEqual(8);
      }
    }
  });
});

describe("UD10 armor", () => {
  const armor = (): PackDoc[] => docsOf(UD10_PACKS.armor);

  it("UD-DMG-02, UD-DMG-03, UD-ZON-01: every armor reads through ud10ArmorFromItem with rating and buffer per zone", () => {
    expect(armor().length).toBeGreaterThanOrEqual(6);
    for (const doc of armor()) {
      expect(doc.type).toBe("armor");
      expect(doc.system?.equipped, doc.name).toBe(true);
      const zonesRaw = doc.system?.zones as Record<string, unknown>;
      expect(Object.keys(zonesRaw).sort(), doc.name).toEqual([...ZONES].sort());
      const a = ud10ArmorFromItem(doc as ItemSource);
      const covered = ZONES.filter((z) => a.zones[z].rating > 0);
      expect(covered.length, doc.name).toBeGreaterThan(0);
      for (const z of ZONES) {
        const { rating, buffer } = a.zones[z];
        if (rating === 0) expect(buffer, `${doc.name} ${z}`).toBe(0);
        else {
          expect(rating >= 1 && rating <= 6, `${doc.name} ${z} rating`).toBe(true);
          expect(buffer >= 2 && buffer <= 8, `${doc.name} ${z} buffer`).toBe(true);
        }
      }
    }
  });

  it("UD-ZON-01: the vest covers only the torso and the helmet only the head", () => {
    const covered = (re: RegExp): ZoneId[] => {
      const doc = armor().find((d) => re.test(d.name));
      expect(doc, String(re)).toBeDefined();
      const a = ud10ArmorFromItem(doc as ItemSource);
      return ZONES.filter((z) => a.zones[z].rating > 0);
    };
    expect(covered(/vest/i)).toEqual(["torso"]);
    expect(covered(/helmet/i)).toEqual(["head"]);
  });
});

describe("UD10 tables", () => {
  it("UD-ZON-01: Body Zones covers every face of the d10 exactly once and names the six zones", () => {
    const entries = entriesOf(UD10_PACKS.tables);
    const table = docsOf(UD10_PACKS.tables).find((d) => d.name === "Body Zones");
    expect(table).toBeDefined();
    expect(table!.formula).toBe("1d10");
    expect(table!.replacement).toBe(true);
    expect(table!.displayRoll).toBe(true);
    expect(table!.flags).toEqual({ fray: { tableKey: "ud10.bodyZones" } });
    const results = embedded(entries, "tables", "results", table!);
    expect(results.length).toBe(6);
    const faces = new Map<number, string>();
    for (const r of results) {
      expect(r.type).toBe("text");
      expect(r.weight).toBe(1);
      expect(r.drawn).toBe(false);
      expect(r.name).toBeTruthy();
      expect(r.description).toBeTruthy();
      const zone = (r.flags as { fray?: { zone?: string } }).fray?.zone ?? "";
      const [lo, hi] = r.range as [number, number];
      for (let f = lo; f <= hi; f++) {
        expect(faces.has(f), `face ${f}`).toBe(false);
        faces.set(f, zone);
      }
    }
    expect([...faces.keys()].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(new Set(faces.values())).toEqual(new Set(ZONES));
    expect(Object.fromEntries(faces)).toEqual({
      1: "head",
      2: "leftArm",
      3: "rightArm",
      4: "torso",
      5: "torso",
      6: "torso",
      7: "leftLeg",
      8: "leftLeg",
      9: "rightLeg",
      10: "rightLeg",
    });
  });
});

describe("UD10 NPCs", () => {
  const npcs = (): PackDoc[] => docsOf(UD10_PACKS.npcs);

  it("UD-ATK-01: every UD10 weapon, armor and NPC, and every item an NPC carries, is marked ud10", () => {
    for (const pack of [UD10_PACKS.weapons, UD10_PACKS.armor, UD10_PACKS.npcs]) {
      const entries = entriesOf(pack);
      for (const doc of docsOf(pack)) {
        expect(doc.system?.ruleset, `${pack}: ${doc.name}`).toBe("ud10");
        if (doc.type === "npc")
          for (const item of embedded(entries, "actors", "items", doc))
            expect(item.system?.ruleset, `${doc.name}: ${item.name}`).toBe("ud10");
      }
    }
  });

  it("has the Guard, Thug and Veteran templates", () => {
    expect(npcs().map((d) => d.name)).toEqual(expect.arrayContaining(["Guard", "Thug", "Veteran"]));
    for (const doc of npcs()) expect(doc.type).toBe("npc");
  });

  it("UD-DMG-03, UD-ZON-01: each NPC reads through ud10CombatantFromActor with its embedded weapons and armor", () => {
    const entries = entriesOf(UD10_PACKS.npcs);
    for (const doc of npcs()) {
      const items = embedded(entries, "actors", "items", doc) as ItemSource[];
      const c = ud10CombatantFromActor({ ...(doc as ItemSource), items });
      expect(c.kind).toBe("npc");
      expect(c.weapons.length, doc.name).toBeGreaterThan(0);
      expect(c.armor.length, doc.name).toBeGreaterThan(0);
      for (const a of Object.values(c.attributes)) expect(a >= 1 && a <= 6, doc.name).toBe(true);
      for (const s of Object.values(c.skills)) expect(s.rating >= 0 && s.rating <= 10, doc.name).toBe(true);
      for (const t of [c.hp, c.ep]) {
        expect(t.max >= 12 && t.max <= 25, doc.name).toBe(true);
        expect(t.value).toBe(t.max);
      }
      expect(c.size).toBe("normal");
      // The actor data model does not accept a blank group; NPC templates use the default side.
      expect(c.group).toBe("npc");
      expect(ZONES.some((z) => c.armor.some((a) => a.zones[z].rating > 0))).toBe(true);
    }
  });

  it("embedded items are copies of pack items with their own ids", () => {
    const packItems = [...docsOf(UD10_PACKS.weapons), ...docsOf(UD10_PACKS.armor)];
    const entries = entriesOf(UD10_PACKS.npcs);
    for (const doc of npcs()) {
      for (const item of embedded(entries, "actors", "items", doc)) {
        const original = packItems.find((p) => p.name === item.name);
        expect(original, `${doc.name}: ${item.name}`).toBeDefined();
        expect(item._id).not.toBe(original!._id);
        expect(item.type).toBe(original!.type);
        expect(item.system).toEqual(original!.system);
      }
    }
  });

  it("prototype tokens are unlinked with HP and EP bars", () => {
    for (const doc of npcs()) {
      const token = doc.prototypeToken as { actorLink: boolean; bar1: { attribute: string }; bar2: { attribute: string } };
      expect(token.actorLink).toBe(false);
      expect(token.bar1.attribute).toBe("hp");
      expect(token.bar2.attribute).toBe("ep");
    }
  });
});

/** The Zones packs and the collection each holds. */
const ZONES_PACKS = { weapons: "zones-weapons", armor: "zones-armor", tables: "zones-tables", npcs: "zones-npcs" } as const;

describe("Zones packs", () => {
  const collectionOf = (pack: string) => new Set(topLevel(entriesOf(pack)).map(([key]) => splitKey(key)[0]));

  it("has the four Zones pack folders, each with the right collection and every document marked zones", () => {
    expect(packFolders()).toEqual(expect.arrayContaining(Object.values(ZONES_PACKS)));
    expect(collectionOf(ZONES_PACKS.weapons)).toEqual(new Set(["items"]));
    expect(collectionOf(ZONES_PACKS.armor)).toEqual(new Set(["items"]));
    expect(collectionOf(ZONES_PACKS.tables)).toEqual(new Set(["tables"]));
    expect(collectionOf(ZONES_PACKS.npcs)).toEqual(new Set(["actors"]));
    for (const pack of [ZONES_PACKS.weapons, ZONES_PACKS.armor, ZONES_PACKS.npcs]) {
      for (const doc of docsOf(pack)) expect(doc.system?.ruleset, `${pack}: ${doc.name}`).toBe("zones");
    }
  });

  it("ZN-RNG-02, ZN-BST-01, ZN-THR-01, ZN-GRN-01: at least 10 weapons read through zonesWeaponFromItem, with bursts, a thrown weapon and a grenade", () => {
    const weapons = docsOf(ZONES_PACKS.weapons).map((d) => ({ doc: d, w: zonesWeaponFromItem(d as ZonesItemSource) }));
    expect(weapons.length).toBeGreaterThanOrEqual(10);
    for (const { doc, w } of weapons) {
      expect(doc.type).toBe("weapon");
      expect(w.id).toBe(doc._id);
      expect(typeof doc.system?.description, doc.name).toBe("string");
      if (w.kind === "melee") expect(w.effectiveRange, doc.name).toBe(0);
      else expect(w.effectiveRange, doc.name).toBeGreaterThan(0);
      if (w.kind === "firearm") expect(w.magazine, doc.name).toBeGreaterThan(0);
      if (w.burst > 0 || w.auto) expect(w.recoil, doc.name).toBeGreaterThan(0);
      else expect(w.recoil, doc.name).toBe(0);
      expect(w.loaded).toBe(w.magazine);
      expect(w.malfunction).toBeNull();
    }
    expect(weapons.filter(({ w }) => w.burst >= 3).length).toBeGreaterThanOrEqual(2);
    expect(weapons.some(({ w }) => w.auto)).toBe(true);
    expect(weapons.some(({ w }) => w.kind === "thrown")).toBe(true);
    expect(weapons.some(({ w }) => w.kind === "melee")).toBe(true);
    const grenade = weapons.find(({ w }) => w.kind === "grenade")!.w;
    expect(grenade.effectiveRadius).toBeGreaterThan(0);
    expect(grenade.casualtyRadius).toBeGreaterThan(grenade.effectiveRadius);
    expect(grenade.damageTypes).toEqual(expect.arrayContaining(["bludgeoning", "piercing"]));
    // The carbine of the seed's worked example: effective range 300 m, recoil 2, three-round bursts.
    const carbine = weapons.find(({ doc }) => doc.name === "Harrow Carbine")!.w;
    expect(carbine).toMatchObject({ effectiveRange: 300, recoil: 2, burst: 3 });
    // Pistols and PDWs can be hidden on the body (ZN-HID-01); long guns cannot.
    for (const { doc, w } of weapons) if (/rifle|shotgun|machine gun|carbine/i.test(doc.name)) expect(w.concealable, doc.name).toBe(false);
  });

  it("ZN-ZON-02, ZN-GRN-01: at least 5 armor pieces with damage reduction per zone; one is full body armor", () => {
    const armor = docsOf(ZONES_PACKS.armor).map((d) => ({ doc: d, a: zonesArmorFromItem(d as ZonesItemSource) }));
    expect(armor.length).toBeGreaterThanOrEqual(5);
    for (const { doc, a } of armor) {
      expect(doc.type).toBe("armor");
      expect(doc.system?.equipped, doc.name).toBe(true);
      expect(Object.keys(doc.system?.zones as object).sort(), doc.name).toEqual(["arms", "head", "legs", "torso"]);
      expect(
        Object.values(a.zones).some((v) => v > 0),
        doc.name,
      ).toBe(true);
      for (const v of Object.values(a.zones)) expect(v >= 0 && v <= 10, doc.name).toBe(true);
    }
    expect(armor.filter(({ a }) => a.fullBody).length).toBe(1);
  });

  it("ZN-ZON-01: the Hit Zones table covers 2-12 of 2d6 with the zones and multipliers of the rules core", () => {
    const entries = entriesOf(ZONES_PACKS.tables);
    const table = docsOf(ZONES_PACKS.tables).find((d) => d.name === "Hit Zones");
    expect(table).toBeDefined();
    expect(table!.formula).toBe("2d6");
    expect(table!.flags).toEqual({ fray: { tableKey: "zones.hitZone" } });
    const faces = new Map<number, { zone: string; multiplier: number }>();
    for (const r of embedded(entries, "tables", "results", table!)) {
      const fray = (r.flags as { fray: { zone: string; multiplier: number } }).fray;
      const [lo, hi] = r.range as [number, number];
      for (let f = lo; f <= hi; f++) {
        expect(faces.has(f), `face ${f}`).toBe(false);
        faces.set(f, { zone: fray.zone, multiplier: fray.multiplier });
      }
    }
    for (const row of HIT_ZONE_TABLE) {
      for (let f = row.from; f <= row.to; f++)
        expect(faces.get(f), `face ${f}`).toEqual({ zone: row.zone, multiplier: ZONE_MULTIPLIER[row.zone] });
    }
    expect([...faces.keys()].sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it("ZN-RNG-06, ZN-MOV-01: NPC templates read through zonesCombatantFromActor with their embedded weapons and armor", () => {
    const entries = entriesOf(ZONES_PACKS.npcs);
    const npcs = docsOf(ZONES_PACKS.npcs);
    expect(npcs.length).toBeGreaterThanOrEqual(3);
    const packItems = [...docsOf(ZONES_PACKS.weapons), ...docsOf(ZONES_PACKS.armor)];
    for (const doc of npcs) {
      expect(doc.type).toBe("npc");
      const items = embedded(entries, "actors", "items", doc) as ZonesItemSource[];
      const c = zonesCombatantFromActor({ ...(doc as ZonesItemSource), items });
      expect(c.kind).toBe("npc");
      expect(c.group).toBe("npc");
      expect(c.weapons.length, doc.name).toBeGreaterThan(0);
      expect(c.armor.length, doc.name).toBeGreaterThan(0);
      expect(c.hp.max >= 20 && c.hp.max <= 40, doc.name).toBe(true);
      expect(c.speed.max, doc.name).toBeGreaterThan(0);
      for (const v of Object.values(c.attributes)) expect(v >= -2 && v <= 3, doc.name).toBe(true);
      for (const item of embedded(entries, "actors", "items", doc)) {
        const original = packItems.find((p) => p.name === item.name);
        expect(original, `${doc.name}: ${item.name}`).toBeDefined();
        expect(item._id).not.toBe(original!._id);
        expect(item.system).toEqual(original!.system);
      }
    }
    // The sentry of the burst example kneels: a small target (ZN-RNG-06).
    expect(npcs.find((d) => d.name === "Perimeter Sentry")?.system?.stance).toBe("kneeling");
  });
});

/** The Hitbox packs and the collection each holds. */
const HITBOX_PACKS = { weapons: "hitbox-weapons", armor: "hitbox-armor", tables: "hitbox-tables", npcs: "hitbox-npcs" } as const;

describe("Hitbox packs", () => {
  const collectionOf = (pack: string) => new Set(topLevel(entriesOf(pack)).map(([key]) => splitKey(key)[0]));

  it("has the four Hitbox pack folders, each with the right collection and every document marked hitbox", () => {
    expect(packFolders()).toEqual(expect.arrayContaining(Object.values(HITBOX_PACKS)));
    expect(collectionOf(HITBOX_PACKS.weapons)).toEqual(new Set(["items"]));
    expect(collectionOf(HITBOX_PACKS.armor)).toEqual(new Set(["items"]));
    expect(collectionOf(HITBOX_PACKS.tables)).toEqual(new Set(["tables"]));
    expect(collectionOf(HITBOX_PACKS.npcs)).toEqual(new Set(["actors"]));
    for (const pack of [HITBOX_PACKS.weapons, HITBOX_PACKS.armor, HITBOX_PACKS.npcs]) {
      for (const doc of docsOf(pack)) expect(doc.system?.ruleset, `${pack}: ${doc.name}`).toBe("hitbox");
    }
  });

  it("HB-DMG-02, HB-MOD-03, HB-ATK-03: at least 10 weapons read through hitboxWeaponFromItem; most deal 1 point", () => {
    const weapons = docsOf(HITBOX_PACKS.weapons).map((d) => ({ doc: d, w: hitboxWeaponFromItem(d as HitboxItemSource) }));
    expect(weapons.length).toBeGreaterThanOrEqual(10);
    for (const { doc, w } of weapons) {
      expect(doc.type).toBe("weapon");
      expect(w.id).toBe(doc._id);
      expect(typeof doc.system?.description, doc.name).toBe("string");
      expect(w.damage >= 1 && w.damage <= 2, doc.name).toBe(true);
      if (w.kind === "melee") expect(w.rangeFeet, doc.name).toBe(5);
      else expect(w.canParry, doc.name).toBe(false);
    }
    expect(weapons.filter(({ w }) => w.damage === 1).length).toBeGreaterThan(weapons.length / 2);
    expect(weapons.some(({ w }) => w.maxShots > 1)).toBe(true);
    expect(weapons.some(({ w }) => w.closeBonus)).toBe(true);
    expect(new Set(weapons.map(({ w }) => w.kind))).toEqual(new Set(["melee", "ranged", "thrown"]));
  });

  it("HB-DMG-01: at least 5 armor pieces with armor points per hitbox", () => {
    const armor = docsOf(HITBOX_PACKS.armor).map((d) => ({ doc: d, a: hitboxArmorFromItem(d as HitboxItemSource) }));
    expect(armor.length).toBeGreaterThanOrEqual(5);
    for (const { doc, a } of armor) {
      expect(doc.type).toBe("armor");
      expect(doc.system?.equipped, doc.name).toBe(true);
      expect(Object.keys(doc.system?.protection as object).sort(), doc.name).toEqual([...HITBOXES].sort());
      expect(
        HITBOXES.some((h) => a.protection[h] > 0),
        doc.name,
      ).toBe(true);
      for (const h of HITBOXES) expect(a.protection[h] >= 0 && a.protection[h] <= 2, `${doc.name} ${h}`).toBe(true);
    }
  });

  it("HB-LOC-01, HB-LOC-02: the location tables match the rules core: the regular 2d6 table and one called-shot table per hitbox", () => {
    const entries = entriesOf(HITBOX_PACKS.tables);
    const tables = docsOf(HITBOX_PACKS.tables);
    const faces = (table: PackDoc) => {
      expect(table.formula).toBe("2d6");
      const out = new Map<number, string>();
      for (const r of embedded(entries, "tables", "results", table)) {
        const [lo, hi] = r.range as [number, number];
        for (let f = lo; f <= hi; f++) {
          expect(out.has(f), `${table.name} face ${f}`).toBe(false);
          out.set(f, (r.flags as { fray: { location: string } }).fray.location);
        }
      }
      expect([...out.keys()].sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      return out;
    };
    const regular = tables.find((t) => (t.flags as { fray?: { tableKey?: string } }).fray?.tableKey === "hitbox.location.regular");
    expect(regular).toBeDefined();
    for (const [f, loc] of faces(regular!)) expect(loc, `face ${f}`).toBe(regularLocation(f));
    for (const [called, need] of Object.entries(CALLED_THRESHOLDS)) {
      const table = tables.find((t) => (t.flags as { fray?: { tableKey?: string } }).fray?.tableKey === `hitbox.location.called.${called}`);
      expect(table, called).toBeDefined();
      for (const [f, loc] of faces(table!)) expect(loc, `${called} face ${f}`).toBe(f >= need ? called : "torso");
    }
    expect(tables.length).toBe(1 + Object.keys(CALLED_THRESHOLDS).length);
  });

  it("HB-ATK-02, HB-DMG-04: NPC templates read through hitboxCombatantFromActor; the security guard of seed 002 is among them", () => {
    const entries = entriesOf(HITBOX_PACKS.npcs);
    const npcs = docsOf(HITBOX_PACKS.npcs);
    expect(npcs.length).toBeGreaterThanOrEqual(3);
    const packItems = [...docsOf(HITBOX_PACKS.weapons), ...docsOf(HITBOX_PACKS.armor)];
    for (const doc of npcs) {
      expect(doc.type).toBe("npc");
      const items = embedded(entries, "actors", "items", doc) as HitboxItemSource[];
      const c = hitboxCombatantFromActor({ ...(doc as HitboxItemSource), items });
      expect(c.kind).toBe("npc");
      expect(c.group).toBe("npc");
      expect(c.weapons.length, doc.name).toBeGreaterThan(0);
      expect(c.armor.length, doc.name).toBeGreaterThan(0);
      for (const h of HITBOXES) expect(c.hitboxes[h].value).toBe(c.hitboxes[h].max);
      for (const v of Object.values(c.abilities)) expect(v >= 1 && v <= 4, doc.name).toBe(true);
      for (const held of c.held)
        expect(
          c.weapons.some((w) => w.id === held),
          `${doc.name} holds ${held}`,
        ).toBe(true);
      for (const item of embedded(entries, "actors", "items", doc)) {
        const original = packItems.find((p) => p.name === item.name);
        expect(original, `${doc.name}: ${item.name}`).toBeDefined();
        expect(item._id).not.toBe(original!._id);
        expect(item.system).toEqual(original!.system);
      }
      const token = doc.prototypeToken as { actorLink: boolean; bar1: { attribute: string }; bar2: { attribute: string } };
      expect(token.actorLink).toBe(false);
      expect([token.bar1.attribute, token.bar2.attribute]).toEqual(["hitboxes.head", "hitboxes.torso"]);
    }
    const guard = npcs.find((d) => d.name === "Security Guard")!;
    const c = hitboxCombatantFromActor({
      ...(guard as HitboxItemSource),
      items: embedded(entries, "actors", "items", guard) as HitboxItemSource[],
    });
    expect(c.abilities).toMatchObject({ dexterity: 3, fortitude: 3 });
    expect(c.skills).toMatchObject({ dodge: 1, blackout: 2, firearms: 0 });
    expect(c.held).toEqual([]);
    expect(c.weapons.map((w) => w.name)).toContain("Duty Pistol");
  });
});

describe("Critical packs", () => {
  const CRITICAL = { weapons: "critical-weapons", armor: "critical-armor", tables: "critical-tables", npcs: "critical-npcs" } as const;
  const critWeapon = (d: PackDoc) => parseCriticalWeapon({ ...(d.system ?? {}), id: d._id, name: d.name }, d.name);
  const critArmor = (d: PackDoc) => parseCriticalArmor({ ...(d.system ?? {}), id: d._id, name: d.name }, d.name);

  it("has the four Critical packs, each holding its collection", () => {
    expect(packFolders()).toEqual(expect.arrayContaining(Object.values(CRITICAL)));
    const collection = { [CRITICAL.weapons]: "items", [CRITICAL.armor]: "items", [CRITICAL.tables]: "tables", [CRITICAL.npcs]: "actors" };
    for (const [pack, expected] of Object.entries(collection)) {
      for (const [key] of topLevel(entriesOf(pack))) expect(splitKey(key)[0], key).toBe(expected);
    }
  });

  it("CR-ATK-03: at least 8 weapons, each with system.ruleset critical and an attack table the core has", () => {
    const docs = docsOf(CRITICAL.weapons);
    expect(docs.length).toBeGreaterThanOrEqual(8);
    const classes = new Set<string>();
    for (const doc of docs) {
      expect(doc.type).toBe("weapon");
      expect(doc.system?.ruleset, doc.name).toBe("critical");
      const w = critWeapon(doc);
      expect(DEFAULT_TABLES.attack[w.weaponClass], doc.name).toBeDefined();
      expect(w.category, doc.name).toBe(DEFAULT_TABLES.attack[w.weaponClass]!.category);
      expect(Math.abs(w.bonus), doc.name).toBeLessThanOrEqual(10);
      expect(typeof doc.system?.description, doc.name).toBe("string");
      classes.add(w.weaponClass);
    }
    expect([...classes].sort()).toEqual(Object.keys(DEFAULT_TABLES.attack).sort());
  });

  it("CR-ATK-02: at least 5 armor items covering the armor types above none, and a shield that only adds DB", () => {
    const docs = docsOf(CRITICAL.armor);
    expect(docs.length).toBeGreaterThanOrEqual(5);
    const parsed = docs.map((d) => {
      expect(d.type).toBe("armor");
      expect(d.system?.ruleset, d.name).toBe("critical");
      expect(d.system?.equipped, d.name).toBe(true);
      return critArmor(d);
    });
    expect(new Set(parsed.map((a) => a.armorType).filter(Boolean))).toEqual(new Set(ARMOR_TYPES.filter((t) => t !== "none")));
    const shields = parsed.filter((a) => !a.armorType);
    expect(shields.length).toBe(1);
    expect(shields[0]!.defense).toBeGreaterThan(0);
    for (const a of parsed) expect(a.maneuverPenalty, a.name).toBeLessThanOrEqual(0);
  });

  it("CR-CRT-01, CR-CRT-02, CR-CRT-03: the 30 critical tables (type and severity) read back from the compiled pack as the tables the core uses", () => {
    const entries = entriesOf(CRITICAL.tables);
    const docs = docsOf(CRITICAL.tables);
    const keyOf = (d: PackDoc) => (d.flags as { fray: { tableKey: string } }).fray.tableKey;
    expect(docs.map(keyOf).sort()).toEqual(CRIT_TYPES.flatMap((t) => SEVERITIES.map((s) => `critical.crit.${t}.${s}`)));
    for (const type of CRIT_TYPES) {
      let merged = { ...DEFAULT_TABLES.crit[type]!, entries: [] as CriticalEntry[] };
      for (const doc of docs.filter((d) => keyOf(d).startsWith(`critical.crit.${type}.`))) {
        expect(doc.formula, doc.name).toBe("1d100");
        const results = embedded(entries, "tables", "results", doc);
        expect(results.length, doc.name).toBe(9);
        const { table, problems } = parseCriticalTable({ ...doc, results });
        expect(problems, doc.name).toEqual([]);
        merged = withCriticalSeverity(merged, table);
      }
      expect(checkCriticalTable(merged), type).toEqual([]);
      const byId = (e: CriticalEntry[]) => [...e].sort((a, b) => a.id.localeCompare(b.id));
      expect(byId(merged.entries), type).toEqual(byId(DEFAULT_TABLES.crit[type]!.entries));
    }
  });

  it("CR-ATK-02, CR-ATK-03: the 48 attack tables (weapon class and armor type) read back from the compiled pack as the core's columns", () => {
    const entries = entriesOf("critical-attack-tables");
    const docs = docsOf("critical-attack-tables");
    expect(docs.length).toBe(Object.keys(DEFAULT_TABLES.attack).length * ARMOR_TYPES.length);
    for (const doc of docs) {
      const { column, problems } = parseAttackColumn({ ...doc, results: embedded(entries, "tables", "results", doc) });
      expect(problems, doc.name).toEqual([]);
      expect(column.bands, doc.name).toEqual(attackColumnBands(DEFAULT_TABLES.attack[column.weaponClass]!, column.armorType));
    }
  });

  it("has a sword fighter and a pistol-armed guard that read through criticalCombatantFromActor", () => {
    const entries = entriesOf(CRITICAL.npcs);
    const npcs = docsOf(CRITICAL.npcs);
    expect(npcs.map((d) => d.name)).toEqual(expect.arrayContaining(["Sword Fighter", "Pistol Guard"]));
    const packItems = [...docsOf(CRITICAL.weapons), ...docsOf(CRITICAL.armor)];
    for (const doc of npcs) {
      expect(doc.type).toBe("npc");
      expect(doc.system?.ruleset).toBe("critical");
      const items = embedded(entries, "actors", "items", doc);
      for (const item of items) {
        const original = packItems.find((p) => p.name === item.name);
        expect(original, `${doc.name}: ${item.name}`).toBeDefined();
        expect(item._id).not.toBe(original!._id);
        expect(item.system).toEqual(original!.system);
      }
      const c = criticalCombatantFromActor({ ...doc, items: items as CriticalItemSource[] } as Parameters<
        typeof criticalCombatantFromActor
      >[0]);
      expect(c.kind).toBe("npc");
      expect(c.hits).toEqual({ value: c.physique.total, max: c.physique.total });
      expect(c.weapons.length, doc.name).toBeGreaterThan(0);
      for (const w of c.weapons) expect(c.skills[w.skill], `${doc.name} ${w.name}`).toBeGreaterThan(0);
      expect((doc.prototypeToken as { bar1: { attribute: string } }).bar1.attribute).toBe("hits");
    }
    const fighter = criticalCombatantFromActor({
      ...npcs.find((d) => d.name === "Sword Fighter")!,
      items: embedded(
        entries,
        "actors",
        "items",
        npcs.find((d) => d.name === "Sword Fighter")!,
      ) as CriticalItemSource[],
    } as Parameters<typeof criticalCombatantFromActor>[0]);
    expect(fighter.weapons.map((w) => w.weaponClass)).toContain("sword");
    const guard = criticalCombatantFromActor({
      ...npcs.find((d) => d.name === "Pistol Guard")!,
      items: embedded(
        entries,
        "actors",
        "items",
        npcs.find((d) => d.name === "Pistol Guard")!,
      ) as CriticalItemSource[],
    } as Parameters<typeof criticalCombatantFromActor>[0]);
    expect(guard.weapons.map((w) => w.weaponClass)).toContain("pistol");
  });
});
