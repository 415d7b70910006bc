/**
 * Data models: for every ruleset, the registered models hold every field its compendium
 * sources use (so a pack loads without losing data), `migrateData` leaves current sources as
 * they are and turns older or partial ones into data the rules core reads the same way, the
 * damage code is validated by the core with a localized message, derived values come from the
 * core (UD-ATK-03, UD-DEF-01, UD-MOV-02, UD-MOV-03, UD-ZON-02), conditions are registered with
 * the ids the core reads, and other rulesets' packs are recognized.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { hitboxCombatantFromActor } from "../src/rules/hitbox/model.js";
import { zonesCombatantFromActor } from "../src/rules/zones/model.js";
import { criticalCombatantFromActor } from "../src/rules/critical/model.js";
import { parseArmor, parseCombatant, parseWeapon } from "../src/rules/ud10/model.js";
import { defenseRating, OUT_CONDITIONS, planAttack } from "../src/rules/ud10/attack.js";
import { ud10Options } from "../src/rules/ud10/options.js";
import { ud10CombatantFromActor } from "../src/foundry/rulesets/ud10/translate.js";
import {
  ArrayField,
  BooleanField,
  HTMLField,
  installFoundryStub,
  lookup,
  NumberField,
  ObjectField,
  readLang,
  SchemaField,
  StringField,
  StubField,
  TypedObjectField,
  type FoundryStub,
  type ModelClass,
} from "./support/foundry-stub.js";
import { packFolders, readSources, type PackDoc } from "./support/packs.js";

type Raw = Record<string, unknown>;
type Models = typeof import("../src/foundry/data-models.js");
type Migrate = typeof import("../src/foundry/models/migrate.js");

let stub: FoundryStub;
let models: Models;
let migrate: Migrate;

beforeAll(async () => {
  stub = installFoundryStub("en");
  await import("../src/foundry/rulesets/index.js");
  models = await import("../src/foundry/data-models.js");
  migrate = await import("../src/foundry/models/migrate.js");
});

/**
 * The paths of `value` that the schema field would not keep as they are: unknown keys, or a
 * value of another kind than the field stores.
 */
function misfits(field: StubField, value: unknown, path: string): string[] {
  const nullable = field.options.nullable === true;
  if (value === null) return nullable ? [] : [`${path}: null`];
  if (field instanceof SchemaField) {
    if (typeof value !== "object" || Array.isArray(value)) return [`${path}: not an object`];
    return Object.entries(value as Raw).flatMap(([k, v]) =>
      field.fields[k] ? misfits(field.fields[k]!, v, `${path}.${k}`) : [`${path}.${k}: no field`],
    );
  }
  if (field instanceof ArrayField) {
    if (!Array.isArray(value)) return [`${path}: not a list`];
    return value.flatMap((v, i) => misfits(field.element, v, `${path}[${i}]`));
  }
  if (field instanceof TypedObjectField) {
    if (typeof value !== "object" || Array.isArray(value)) return [`${path}: not an object`];
    return Object.entries(value as Raw).flatMap(([k, v]) => misfits(field.element, v, `${path}.${k}`));
  }
  if (field instanceof ObjectField) return typeof value === "object" ? [] : [`${path}: not an object`];
  if (field instanceof NumberField) {
    if (typeof value !== "number") return [`${path}: not a number`];
    if (field.options.integer && !Number.isInteger(value)) return [`${path}: not whole`];
    const { min, max } = field.options as { min?: number; max?: number };
    if ((min !== undefined && value < min) || (max !== undefined && value > max)) return [`${path}: ${value} outside ${min} to ${max}`];
    return [];
  }
  if (field instanceof BooleanField) return typeof value === "boolean" ? [] : [`${path}: not a boolean`];
  if (field instanceof StringField || field instanceof HTMLField) {
    if (typeof value !== "string") return [`${path}: not a text`];
    const choices = field.options.choices as string[] | undefined;
    return choices && !choices.includes(value) ? [`${path}: "${value}" is not one of ${choices.join(", ")}`] : [];
  }
  return [];
}

/** Misfits of a whole system source against a model's schema. */
function schemaMisfits(model: unknown, system: Raw): string[] {
  const schema = new SchemaField((model as ModelClass).defineSchema());
  return misfits(schema, system, "system");
}

/** The ruleset's model class for a document type. */
type ModelStatics = ModelClass & { migrateData(source: Raw): Raw; cleanData(source: Raw, options?: { partial?: boolean }): Raw };

function modelFor(ruleset: string, type: string): ModelStatics {
  const set = models.rulesetModels()[ruleset as keyof ReturnType<Models["rulesetModels"]>];
  return set[type as keyof typeof set] as ModelStatics;
}

/** Every document of a ruleset's weapon, armor and NPC packs, with embedded items. */
function docsOf(ruleset: string): PackDoc[] {
  const out: PackDoc[] = [];
  for (const folder of packFolders().filter((f) => f.startsWith(`${ruleset}-`) && !f.endsWith("-tables") && !f.endsWith("-rules"))) {
    for (const { doc } of readSources(folder)) {
      out.push(doc);
      for (const item of (doc.items ?? []) as PackDoc[]) out.push(item);
    }
  }
  return out;
}

const RULESETS = ["ud10", "hitbox", "zones", "critical"] as const;

describe("every ruleset's packs load into its models without losing data", () => {
  for (const ruleset of RULESETS) {
    it(`${ruleset}: each source fits the schema and migrateData keeps it unchanged`, () => {
      const docs = docsOf(ruleset);
      expect(docs.length).toBeGreaterThan(5);
      for (const doc of docs) {
        const model = modelFor(ruleset, doc.type!);
        expect(model, `${doc.name}: a model for ${doc.type}`).toBeTypeOf("function");
        const migrated = model.migrateData(structuredClone(doc.system ?? {}));
        expect(migrated, `${doc.name}: migration keeps a current source`).toEqual(doc.system);
        expect(schemaMisfits(model, migrated), doc.name).toEqual([]);
      }
    });
  }

  it("each ruleset's parser reads its NPCs after migration", () => {
    const parse: Record<string, (actor: never) => unknown> = {
      ud10: ud10CombatantFromActor as never,
      hitbox: hitboxCombatantFromActor as never,
      zones: zonesCombatantFromActor as never,
      critical: criticalCombatantFromActor as never,
    };
    for (const ruleset of RULESETS) {
      for (const doc of docsOf(ruleset).filter((d) => d.type === "npc")) {
        const system = modelFor(ruleset, "npc").migrateData(structuredClone(doc.system ?? {}));
        const items = ((doc.items ?? []) as PackDoc[]).map((i) => ({
          ...i,
          system: modelFor(ruleset, i.type!).migrateData(structuredClone(i.system ?? {})),
        }));
        expect(() => parse[ruleset]!({ ...doc, system, items } as never), `${ruleset} ${doc.name}`).not.toThrow();
      }
    }
  });
});

describe("UD10 migrateData: older and partial sources", () => {
  it("an actor with bare skill ratings, numeric pools and lower-case attributes reads as the core reads the original", () => {
    const old = {
      attributes: { str: 6, dex: "4", CON: 5 },
      skills: { melee: 5, parry: { rating: 3 }, dodge: { rating: 0 } },
      hp: 22,
      ep: { max: 12 },
      size: "Large",
      group: "raiders",
      biography: "<p>Old.</p>",
    };
    const migrated = modelFor("ud10", "character").migrateData(structuredClone(old) as Raw);
    expect(migrated).toMatchObject({
      attributes: { STR: 6, DEX: 4, CON: 5 },
      skills: { melee: { rating: 5, trained: true }, parry: { rating: 3 }, dodge: { rating: 0 } },
      hp: { value: 22, max: 22 },
      // A maximum alone is never turned into a value too: migrateData also sees partial updates.
      ep: { max: 12 },
      size: "large",
      group: "raiders",
      biography: "<p>Old.</p>",
    });
    expect(schemaMisfits(modelFor("ud10", "character"), migrated)).toEqual([]);
    const core = parseCombatant({ ...migrated, name: "Old" });
    expect(core.skills.melee).toEqual({ rating: 5, trained: true });
    expect(core.hp).toEqual({ value: 22, max: 22 });
    expect(core.attributes).toEqual({ STR: 6, DEX: 4, CON: 5 });
  });

  it("a partial actor keeps what it has; missing fields are left to the schema's defaults", () => {
    const migrated = modelFor("ud10", "npc").migrateData({ attributes: { DEX: 7 } });
    expect(migrated).toEqual({ attributes: { DEX: 7 } });
  });

  it("a weapon with a numeric damage, modes as an object and no parry flag reads as the core reads it", () => {
    const old = { kind: "ranged", damage: 4, rangeIncrement: "20", modes: { burst: { damage: "4+2d10", attackModifier: -1 } } };
    const model = modelFor("ud10", "weapon");
    const migrated = model.cleanData(model.migrateData(structuredClone(old) as Raw));
    expect(migrated).toMatchObject({
      kind: "ranged",
      damage: "4",
      rangeIncrement: 20,
      canParry: false,
      modes: [{ id: "burst", label: "burst", damage: "4+2d10", attackModifier: -1 }],
    });
    expect(schemaMisfits(modelFor("ud10", "weapon"), migrated)).toEqual([]);
    const weapon = parseWeapon({ ...migrated, name: "Carbine" });
    expect(weapon.canParry).toBe(false);
    expect(weapon.modes[0]).toMatchObject({ id: "burst", damage: "4+2d10", shots: 1 });
  });

  it("a thrown weapon becomes ranged; a melee weapon without the flag parries", () => {
    const model = modelFor("ud10", "weapon");
    const whole = (source: Raw) => model.cleanData(model.migrateData(source));
    expect(whole({ kind: "thrown", damage: "1d10", rangeIncrement: 5 })).toMatchObject({ kind: "ranged", canParry: false });
    expect(whole({ kind: "melee", damage: "2+1d10" })).toMatchObject({ canParry: true });
  });

  it("UD-REA-01: a partial update of a weapon's kind never sets canParry (migrateData and cleanData see the partial data)", () => {
    const model = modelFor("ud10", "weapon");
    for (const kind of ["ranged", "melee", "thrown"]) {
      const changes = model.cleanData(model.migrateData({ kind }), { partial: true });
      expect(changes, kind).not.toHaveProperty("canParry");
    }
  });

  it("armor zones given as a bare rating get a buffer of 0 (UD-DMG-02, UD-DMG-03)", () => {
    const migrated = modelFor("ud10", "armor").migrateData({ zones: { torso: 3, head: { rating: "2", buffer: 1 } }, equipped: true });
    expect(migrated.zones).toEqual({ torso: { rating: 3, buffer: 0 }, head: { rating: 2, buffer: 1 } });
    expect(parseArmor({ ...migrated, name: "Vest" }).zones.torso).toEqual({ rating: 3, buffer: 0 });
  });

  it("other rulesets: Hitbox hitboxes, Zones skills and pools, Critical hits given in short form", () => {
    expect(modelFor("hitbox", "npc").migrateData({ hitboxes: { head: 2, torso: { value: 1, max: 3 } } })).toEqual({
      hitboxes: { head: { value: 2, max: 2 }, torso: { value: 1, max: 3 } },
    });
    expect(modelFor("zones", "character").migrateData({ skills: { firearms: { ranks: 3 } }, hp: 14 })).toEqual({
      skills: { firearms: 3 },
      hp: { value: 14, max: 14 },
    });
    expect(modelFor("critical", "npc").migrateData({ physique: { ranks: 5, total: 40 }, hits: 31 })).toEqual({
      physique: { ranks: 5, total: 40 },
      hits: { value: 31 },
    });
  });

  it("UD-REA-02: a partial update of a skill's rating leaves its trained flag absent", () => {
    for (const type of ["character", "npc"]) {
      const migrated = modelFor("ud10", type).migrateData({ skills: { melee: { rating: 3 } } });
      expect(migrated).toEqual({ skills: { melee: { rating: 3 } } });
      expect("trained" in (migrated.skills as Record<string, Raw>).melee!).toBe(false);
    }
    // A numeric string is still read as the rating, and a given flag is kept as it is.
    expect(modelFor("ud10", "character").migrateData({ skills: { parry: { rating: "2", trained: false } } })).toEqual({
      skills: { parry: { rating: 2, trained: false } },
    });
  });

  it("CR-HIT-01: a partial update of the total Physique leaves hits absent", () => {
    for (const type of ["character", "npc"]) {
      expect(modelFor("critical", type).migrateData({ physique: { total: 40 } })).toEqual({ physique: { total: 40 } });
      // Hits given alone never take their maximum from a sibling.
      expect(modelFor("critical", type).migrateData({ hits: { value: 12 } })).toEqual({ hits: { value: 12 } });
      expect(modelFor("critical", type).migrateData({ hits: "12" })).toEqual({ hits: { value: 12 } });
    }
  });
});

describe("UD10 weapon damage code validation (UD-DMG-01)", () => {
  it("accepts core damage codes and refuses malformed ones with the localized message", async () => {
    const { validateDamageCode } = await import("../src/foundry/rulesets/ud10/models.js");
    expect(validateDamageCode("2+1d10")).toBe(true);
    expect(validateDamageCode("3W10+2")).toBe(true);
    expect(() => validateDamageCode("2d6+banana")).toThrow(/2d6\+banana/);
    const message = (() => {
      try {
        validateDamageCode("xyz");
        return "";
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(message).not.toMatch(/FRAY\./);
  });

  it("the damage fields carry the validator", () => {
    const schema = (modelFor("ud10", "weapon") as ModelClass).defineSchema();
    expect(typeof schema.damage!.options.validate).toBe("function");
    const mode = (schema.modes as ArrayField).element as SchemaField;
    expect(typeof mode.fields.damage!.options.validate).toBe("function");
  });
});

describe("derived values come from the core", () => {
  it("defense, movement and armor per zone of an armored NPC (UD-ATK-03, UD-MOV-02, UD-MOV-03, UD-ZON-02)", async () => {
    const { ud10Derived } = await import("../src/foundry/rulesets/ud10/derived.js");
    const armor = (id: string, zones: Record<string, { rating: number; buffer: number }>, equipped = true) => ({
      _id: id,
      name: id,
      type: "armor",
      system: { zones, equipped },
    });
    const npc = {
      name: "Guard",
      type: "npc",
      system: { attributes: { STR: 4, DEX: 3, CON: 5 }, hp: 10, ep: 10 },
      items: [
        armor("vest", { torso: { rating: 4, buffer: 5 }, leftArm: { rating: 2, buffer: 2 }, rightArm: { rating: 2, buffer: 2 } }),
        armor("plate", { torso: { rating: 2, buffer: 1 } }),
        armor("helmet", { head: { rating: 3, buffer: 4 } }),
        armor("greaves", { leftLeg: { rating: 5, buffer: 5 } }, false),
      ],
    };
    const { derived } = ud10Derived(npc as never);
    expect(derived).toEqual({
      defense: 13,
      standardMovement: 9,
      fullMovement: 18,
      zones: {
        head: { rating: 3, buffer: 4 },
        leftArm: { rating: 2, buffer: 2 },
        rightArm: { rating: 2, buffer: 2 },
        torso: { rating: 6, buffer: 6 },
        leftLeg: { rating: 0, buffer: 0 },
        rightLeg: { rating: 0, buffer: 0 },
      },
      averagedArmor: { rating: 2, buffer: 2 },
    });
  });

  it("the pack NPCs' derived values can be read", async () => {
    const { ud10Derived } = await import("../src/foundry/rulesets/ud10/derived.js");
    for (const npc of docsOf("ud10").filter((d) => d.type === "npc")) expect(ud10Derived(npc as never).error, npc.name).toBeUndefined();
  });

  it("conditions change the defense: immobilized loses DEX and takes -2 (UD-DEF-01)", async () => {
    const { ud10Derived } = await import("../src/foundry/rulesets/ud10/derived.js");
    const actor = { name: "A", type: "character", system: { attributes: { STR: 5, DEX: 6, CON: 5 }, hp: 10, ep: 10 }, items: [] };
    expect(ud10Derived(actor).derived!.defense).toBe(16);
    expect(ud10Derived({ ...actor, statuses: ["immobilized"] }).derived!.defense).toBe(8);
  });

  it("unreadable data gives no derived values and the core's error", async () => {
    const { ud10Derived } = await import("../src/foundry/rulesets/ud10/derived.js");
    const result = ud10Derived({ name: "B", type: "npc", system: { attributes: {} } });
    expect(result.derived).toBeNull();
    expect(result.error).toBeDefined();
  });
});

describe("registration per ruleset", () => {
  for (const ruleset of RULESETS) {
    it(`${ruleset}: registers that ruleset's four models and the attack message`, () => {
      models.registerDataModels(ruleset);
      expect(stub.CONFIG.Actor.dataModels.character).toBe(models.rulesetModels()[ruleset].character);
      expect(stub.CONFIG.Actor.dataModels.npc).toBe(models.rulesetModels()[ruleset].npc);
      expect(stub.CONFIG.Item.dataModels.weapon).toBe(models.rulesetModels()[ruleset].weapon);
      expect(stub.CONFIG.Item.dataModels.armor).toBe(models.rulesetModels()[ruleset].armor);
      expect(stub.CONFIG.ChatMessage.dataModels.attack).toBeTypeOf("function");
      for (const type of ["character", "npc", "weapon", "armor"]) {
        expect((modelFor(ruleset, type) as ModelClass).defineSchema().ruleset!.options.initial).toBe(ruleset);
      }
    });
  }
  it("new NPCs default to the npc group, characters to players", () => {
    for (const ruleset of RULESETS) {
      expect((modelFor(ruleset, "npc") as ModelClass).defineSchema().group!.options.initial).toBe("npc");
      expect((modelFor(ruleset, "character") as ModelClass).defineSchema().group!.options.initial).toBe("players");
    }
    models.registerDataModels("ud10");
  });
});

describe("conditions", () => {
  it("registers exactly the ids the core reads, with localized names and core icons", async () => {
    const { registerConditions } = await import("../src/foundry/conditions.js");
    registerConditions();
    const effects = (stub.CONFIG as unknown as { statusEffects: { id: string; name: string; img: string }[] }).statusEffects;
    const ids = effects.map((e) => e.id);
    expect(ids).toEqual([
      "prone",
      "crouching",
      "moving",
      "immobilized",
      "surprised",
      "aiming1",
      "aiming2",
      "unconscious",
      "incapacitated",
      "dead",
    ]);
    for (const out of OUT_CONDITIONS) expect(ids).toContain(out);
    const en = readLang("en");
    const de = readLang("de");
    for (const e of effects) {
      expect(lookup(en, e.name), e.name).toBeTruthy();
      expect(lookup(de, e.name), e.name).toBeTruthy();
      expect(e.img).toMatch(/^icons\/svg\/.+\.svg$/);
    }
  });
  it("each registered condition changes what the core computes when an actor has it (UD-ATK-03, UD-ATK-04, UD-DEF-01)", async () => {
    const { statusEffects } = await import("../src/foundry/conditions.js");
    const rifle = {
      _id: "rifle",
      name: "Rifle",
      type: "weapon",
      system: { kind: "ranged", attackModifier: 0, damage: "4+2d10", penetration: 0, rangeIncrement: 50 },
    };
    const fighter = (id: string, statuses: string[]) =>
      ud10CombatantFromActor({
        _id: id,
        name: id,
        type: "character",
        system: { attributes: { STR: 5, DEX: 6, CON: 5 }, hp: 10, ep: 10 },
        items: [rifle],
        statuses,
      } as never);
    /** The plan of a rifle shot with the condition on the target, and on the attacker (or why it cannot attack). */
    const outcome = (condition?: string) => {
      const on = condition ? [condition] : [];
      const atTarget = planAttack({ attacker: fighter("a", []), target: fighter("t", on), weaponId: "rifle" }, ud10Options());
      let byAttacker: unknown;
      try {
        byAttacker = planAttack({ attacker: fighter("a", on), target: fighter("t", []), weaponId: "rifle" }, ud10Options());
      } catch (e) {
        byAttacker = (e as { key?: string }).key;
      }
      return { atTarget, byAttacker };
    };
    const none = outcome();
    const labels = (mods: { label: string }[]) => mods.map((m) => m.label);
    for (const { id } of statusEffects()) expect(outcome(id), id).not.toEqual(none);
    expect(defenseRating(fighter("t", ["immobilized"]))).toBe(8);
    expect(defenseRating(fighter("t", ["surprised"]))).toBe(10);
    expect(defenseRating(fighter("t", []))).toBe(16);
    for (const id of ["crouching", "prone"]) expect(labels(outcome(id).atTarget.modifiers)).toContain("FRAY.Mod.TargetCrouching");
    expect(labels(outcome("moving").atTarget.modifiers)).toContain("FRAY.Mod.TargetMoving");
    expect(labels((outcome("moving").byAttacker as { modifiers: { label: string }[] }).modifiers)).toContain("FRAY.Mod.ShooterMoving");
    expect(labels((outcome("aiming1").byAttacker as { modifiers: { label: string }[] }).modifiers)).toContain("FRAY.Mod.Aim1");
    expect(labels((outcome("aiming2").byAttacker as { modifiers: { label: string }[] }).modifiers)).toContain("FRAY.Mod.Aim2");
    for (const id of OUT_CONDITIONS) expect(outcome(id).byAttacker, id).toBe("FRAY.Error.CannotAct");
  });
});

describe("rulesets of packs and items", () => {
  it("recognizes this system's packs of other rulesets", async () => {
    const { isForeignPack } = await import("../src/foundry/models/packs.js");
    expect(isForeignPack({ name: "hitbox-weapons", packageName: "fray", packageType: "system" }, "ud10")).toBe(true);
    expect(isForeignPack({ name: "ud10-weapons", packageName: "fray", packageType: "system" }, "ud10")).toBe(false);
    expect(isForeignPack({ name: "hitbox-weapons", packageName: "some-module", packageType: "module" }, "ud10")).toBe(false);
    expect(isForeignPack({ name: "ud10-npcs", packageName: "fray" }, "zones")).toBe(true);
  });

  it("tells an item's ruleset by its data or by the pack it comes from", () => {
    expect(migrate.rulesetOfSystem({ ruleset: "critical" })).toBe("critical");
    expect(migrate.rulesetOfSystem({ damage: "1d10" })).toBe("ud10");
    expect(migrate.rulesetOfUuid("Compendium.fray.zones-armor.Item.abc")).toBe("zones");
    expect(migrate.rulesetOfUuid("Item.abc")).toBeUndefined();
  });
});

describe("sheet context preparation (pure, as the sheets call it)", () => {
  const en = readLang("en");
  const i18n = {
    localize: (k: string) => lookup(en, k) ?? k,
    format: (k: string, d: Record<string, string>) => (lookup(en, k) ?? k).replace(/\{(\w+)\}/g, (_, n: string) => d[n] ?? ""),
  };
  const actor = {
    _id: "ayla",
    name: "Ayla",
    type: "character",
    system: {
      attributes: { STR: 5, DEX: 6, CON: 4 },
      skills: {
        initiative: { rating: 3, trained: true },
        melee: { rating: 6, trained: true },
        ranged: { rating: 0, trained: false },
        parry: { rating: 4, trained: true },
        dodge: { rating: 0, trained: false },
      },
      hp: { value: 15, max: 20 },
      ep: { value: 10, max: 10 },
      size: "normal",
      group: "players",
      biography: "",
    },
    items: [
      {
        _id: "rifle",
        name: "Rifle",
        type: "weapon",
        system: {
          kind: "ranged",
          attackModifier: 0,
          damage: "4+2d10",
          penetration: 2,
          rangeIncrement: 50,
          modes: [{ id: "burst", label: "Burst", damage: "6+3d10", attackModifier: -1, shots: 3 }],
          canParry: false,
          shield: false,
        },
      },
      { _id: "vest", name: "Vest", type: "armor", system: { zones: { torso: { rating: 4, buffer: 5 } }, equipped: true } },
      { _id: "spare", name: "Spare helmet", type: "armor", system: { zones: { head: { rating: 2, buffer: 3 } }, equipped: false } },
    ],
    statuses: ["prone"],
  };

  it("skills carry the value the core adds: the rating when trained, DEX when not (UD-REA-02)", async () => {
    const { ud10ActorSheetContext } = await import("../src/foundry/rulesets/ud10/sheet-context.js");
    const c = ud10ActorSheetContext({
      actor: actor as never,
      ruleset: "ud10",
      editable: true,
      bodyZones: true,
      enrichedBiography: "",
      i18n,
    }) as Record<string, unknown>;
    const skills = c.skills as { id: string; check: number; formula: string; hint: string }[];
    expect(skills.find((s) => s.id === "melee")).toMatchObject({ check: 6, formula: "d10 +6" });
    expect(skills.find((s) => s.id === "ranged")).toMatchObject({ check: 6 });
    expect(skills.find((s) => s.id === "ranged")!.hint).toContain("DEX");
  });

  it("defense, movement and armor come from the core; only equipped armor counts (UD-ATK-03, UD-MOV-02, UD-ZON-02)", async () => {
    const { ud10ActorSheetContext } = await import("../src/foundry/rulesets/ud10/sheet-context.js");
    const c = ud10ActorSheetContext({
      actor: actor as never,
      ruleset: "ud10",
      editable: true,
      bodyZones: false,
      enrichedBiography: "",
      i18n,
    }) as Record<string, unknown>;
    expect(c.defense).toBe(16);
    expect(c.movement).toEqual({ standard: "10", full: "20" });
    expect((c.armorZones as { id: string; rating: number; buffer: number }[]).find((z) => z.id === "torso")).toMatchObject({
      rating: 4,
      buffer: 5,
    });
    expect((c.armorZones as { id: string; rating: number }[]).find((z) => z.id === "head")!.rating).toBe(0);
    expect(c.averagedArmor).toEqual({ rating: 1, buffer: 1 });
    expect(c.hp).toEqual({ value: 15, max: 20, percent: 75 });
  });

  it("weapons list their firing modes after the standard one; armor pieces say whether they are worn", async () => {
    const { ud10ActorSheetContext } = await import("../src/foundry/rulesets/ud10/sheet-context.js");
    const c = ud10ActorSheetContext({
      actor: actor as never,
      ruleset: "ud10",
      editable: true,
      bodyZones: true,
      enrichedBiography: "",
      i18n,
    }) as Record<string, unknown>;
    const [rifle] = c.weapons as { id: string; modes: { id: string }[]; range: string }[];
    expect(rifle!.modes.map((m) => m.id)).toEqual(["standard", "burst"]);
    expect(rifle!.range).toBe("50 m");
    expect((c.armor as { id: string; equipped: boolean }[]).map((a) => [a.id, a.equipped])).toEqual([
      ["vest", true],
      ["spare", false],
    ]);
  });

  it("conditions show which are on; tabs mark the active one", async () => {
    const { ud10ActorSheetContext } = await import("../src/foundry/rulesets/ud10/sheet-context.js");
    const c = ud10ActorSheetContext({
      actor: actor as never,
      ruleset: "ud10",
      editable: true,
      bodyZones: true,
      activeTab: "combat",
      enrichedBiography: "",
      i18n,
    });
    expect(c.conditions.filter((x) => x.active).map((x) => x.id)).toEqual(["prone"]);
    expect(c.conditions.map((x) => x.label)).not.toContain("FRAY.Condition.prone");
    expect(c.tabs.filter((t) => t.active).map((t) => t.id)).toEqual(["combat"]);
    expect(c.tab.combat).toBe("active");
  });

  it("a prepared model's derived values are used as given; unreadable data shows a notice instead of numbers", async () => {
    const { ud10ActorSheetContext } = await import("../src/foundry/rulesets/ud10/sheet-context.js");
    const zone = (rating: number, buffer: number) => ({ rating, buffer });
    const given = {
      defense: 21,
      standardMovement: 7,
      fullMovement: 13,
      zones: { head: zone(1, 2), leftArm: zone(0, 0), rightArm: zone(0, 0), torso: zone(9, 8), leftLeg: zone(0, 0), rightLeg: zone(0, 0) },
      averagedArmor: zone(3, 4),
    };
    const prepared = ud10ActorSheetContext({
      actor: actor as never,
      ruleset: "ud10",
      editable: true,
      bodyZones: false,
      derived: given,
      enrichedBiography: "",
      i18n,
    }) as Record<string, unknown>;
    expect(prepared.defense).toBe(21);
    expect(prepared.movement).toEqual({ standard: "7", full: "13" });
    expect((prepared.armorZones as { id: string; rating: number; buffer: number }[]).find((z) => z.id === "torso")).toMatchObject({
      rating: 9,
      buffer: 8,
    });
    expect(prepared.averagedArmor).toEqual({ rating: 3, buffer: 4 });
    expect(prepared.derivedError).toBe("");
    const broken = { ...actor, items: [{ _id: "bad", name: "Bad", type: "weapon", system: { kind: "melee", damage: "2d6+banana" } }] };
    const c = ud10ActorSheetContext({
      actor: broken as never,
      ruleset: "ud10",
      editable: true,
      bodyZones: true,
      enrichedBiography: "",
      i18n,
    }) as Record<string, unknown>;
    expect(c.defense).toBeNull();
    expect(c.derivedError).toBe(lookup(en, "FRAY.Sheet.DerivedUnavailable"));
    const preparedBroken = ud10ActorSheetContext({
      actor: actor as never,
      ruleset: "ud10",
      editable: true,
      bodyZones: true,
      derived: null,
      enrichedBiography: "",
      i18n,
    }) as Record<string, unknown>;
    expect(preparedBroken.defense).toBeNull();
    expect(preparedBroken.derivedError).toBe(lookup(en, "FRAY.Sheet.DerivedUnavailable"));
  });

  it("other rulesets get a generic view with localized field labels", async () => {
    const { actorSheetContext, itemSheetContext, actorParts } = await import("../src/foundry/sheets/context.js");
    const { UD10_SHEET_PARTS } = await import("../src/foundry/rulesets/ud10/sheet-context.js");
    const npc = docsOf("hitbox").find((d) => d.type === "npc")!;
    const c = actorSheetContext({
      actor: npc as never,
      ruleset: "hitbox",
      editable: true,
      bodyZones: false,
      enrichedBiography: "",
      i18n,
    }) as Record<string, unknown>;
    const rows = c.generic as { path: string; label: string }[];
    expect(rows.find((r) => r.path === "hitboxes.torso")!.label).toBe("Hitboxes · Torso");
    expect(rows.every((r) => !r.label.startsWith("FRAY."))).toBe(true);
    expect(actorParts("npc", undefined)).toEqual(["generic"]);
    expect(actorParts("npc", UD10_SHEET_PARTS)).toEqual(["npc"]);
    expect(actorParts("character", UD10_SHEET_PARTS)).toContain("combat");
    const knife = docsOf("hitbox").find((d) => d.type === "weapon")!;
    const item = itemSheetContext({ item: knife as never, ruleset: "hitbox", editable: true, enrichedDescription: "", i18n });
    expect(item.isGeneric).toBe(true);
    expect((item as { generic: { label: string }[] }).generic.length).toBeGreaterThan(3);
  });

  it("the item sheet lists firing modes with their index and armor per body zone", async () => {
    const { itemSheetContext } = await import("../src/foundry/sheets/context.js");
    const { ud10ItemSheetContext } = await import("../src/foundry/rulesets/ud10/sheet-context.js");
    const ud10ItemSheet = (input: Parameters<typeof itemSheetContext>[0]) =>
      itemSheetContext(input, ud10ItemSheetContext) as ReturnType<typeof ud10ItemSheetContext>;
    const weapon = ud10ItemSheet({ item: actor.items[0] as never, ruleset: "ud10", editable: true, enrichedDescription: "", i18n });
    expect(weapon.isWeapon).toBe(true);
    expect(weapon.modes).toEqual([{ id: "burst", label: "Burst", damage: "6+3d10", attackModifier: -1, shots: 3, index: 0 }]);
    const armor = ud10ItemSheet({ item: actor.items[1] as never, ruleset: "ud10", editable: true, enrichedDescription: "", i18n });
    expect(armor.isArmor).toBe(true);
    expect(armor.zones.find((z) => z.id === "torso")).toMatchObject({ rating: 4, buffer: 5, label: "Torso" });
  });
});
