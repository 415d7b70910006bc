/**
 * Switching the world's ruleset never loses data: an actor saved under UD10 keeps the same
 * source when the world switches to Hitbox (re-registering the data models as `init` does) and
 * back, and its sheet under Hitbox shows it as a UD10 actor instead of cleaning it into Hitbox
 * defaults. Foundry's loading of a stored source (`migrateData`, then `cleanData`, which drops
 * keys the schema lacks and fills missing ones with their initial value) is emulated on the
 * stand-in's model classes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { installFoundryStub, lookup, readLang, SchemaField, StubField, TypeDataModel, type FoundryStub } from "./support/foundry-stub.js";
import { readSources, packFolders } from "./support/packs.js";

type Raw = Record<string, unknown>;
type Loader = { migrateData(source: Raw): Raw; cleanData(source: Raw): Raw; defineSchema(): Record<string, StubField> };

/** Foundry-like cleaning: only the schema's keys, missing ones at their initial value. */
function clean(field: StubField, value: unknown): unknown {
  if (field instanceof SchemaField) {
    const source = (typeof value === "object" && value !== null && !Array.isArray(value) ? value : {}) as Raw;
    return Object.fromEntries(Object.entries(field.fields).map(([k, f]) => [k, k in source ? clean(f, source[k]) : initialOf(f)]));
  }
  return value;
}

/** A field's initial value (a schema's is its fields' initial values). */
function initialOf(field: StubField): unknown {
  if (field instanceof SchemaField) return clean(field, {});
  const initial = field.options.initial;
  return typeof initial === "function" ? (initial as () => unknown)() : initial;
}

let stub: FoundryStub;
let models: typeof import("../src/foundry/data-models.js");
let config: typeof import("../src/foundry/config.js");

beforeAll(async () => {
  stub = installFoundryStub("en");
  // Foundry's cleaning of a stored source, on every model class (before the rulesets guard them).
  (TypeDataModel as unknown as { cleanData(this: Loader, source: Raw): Raw }).cleanData = function (source: Raw): Raw {
    return clean(new SchemaField(this.defineSchema()), source) as Raw;
  };
  await import("../src/foundry/rulesets/index.js");
  models = await import("../src/foundry/data-models.js");
  config = await import("../src/foundry/config.js");
});

/** Switches the world's ruleset and registers its models, as a reload's `init` does. */
async function switchWorld(ruleset: "ud10" | "hitbox"): Promise<void> {
  await stub.game.settings.set(config.SYSTEM_ID, config.RULESET_SETTING, ruleset);
  models.registerDataModels(ruleset);
}

/** What the world loads from a stored actor source with the registered model of its type. */
function load(type: "character" | "npc", system: Raw): Raw {
  const model = (stub.CONFIG.Actor.dataModels as unknown as Record<string, Loader>)[type]!;
  return model.cleanData(model.migrateData(structuredClone(system)));
}

/** A UD10 NPC of the packs, as saved in a UD10 world (the world is switched to UD10 to save it). */
async function savedUd10Npc(): Promise<{ name: string; system: Raw }> {
  await switchWorld("ud10");
  const folder = packFolders().find((f) => f.startsWith("ud10-") && f.endsWith("npcs"))!;
  const { doc } = readSources(folder)[0]!;
  return { name: doc.name!, system: load("npc", doc.system as Raw) };
}

describe("ruleset switching never loses data", () => {
  it("a UD10 actor keeps the same source through Hitbox and back", async () => {
    const saved = await savedUd10Npc();
    expect(saved.system.ruleset).toBe("ud10");
    expect(saved.system).toHaveProperty("attributes.STR");

    await switchWorld("hitbox");
    const underHitbox = load("npc", saved.system);
    expect(underHitbox).toEqual(saved.system);
    expect(load("character", saved.system)).toEqual(saved.system);

    await switchWorld("ud10");
    expect(load("npc", underHitbox)).toEqual(saved.system);
  });

  it("the emulated loading does reshape a source of the model's own ruleset (the check can fail)", async () => {
    const saved = await savedUd10Npc();
    await switchWorld("hitbox");
    const asHitbox = load("npc", { ...saved.system, ruleset: "hitbox" });
    expect(asHitbox).not.toEqual(saved.system);
    expect(asHitbox).not.toHaveProperty("attributes");
    expect(asHitbox).toHaveProperty("hitboxes.head");
    await switchWorld("ud10");
  });

  it("under Hitbox the sheet shows the actor as a UD10 actor: a notice naming UD10, its own fields, the generic view", async () => {
    const saved = await savedUd10Npc();
    await switchWorld("hitbox");
    const { prepareCore } = await import("../src/foundry/documents/actor.js");
    const { activeBinding } = await import("../src/foundry/registry.js");
    const { actorParts, actorSheetContext } = await import("../src/foundry/sheets/context.js");
    const { UD10_SHEET_PARTS } = await import("../src/foundry/rulesets/ud10/sheet-context.js");
    const source = { _id: "n1", name: saved.name, type: "npc", system: saved.system, items: [] };
    const actor = { ...source, statuses: new Set<string>(), toObject: () => structuredClone(source) };
    const core = prepareCore(actor as never, activeBinding());
    expect(activeBinding().id).toBe("hitbox");
    expect(core.foreign).toBe("ud10");
    expect(core.combatant).toBeUndefined();
    expect(actorParts("npc", undefined, core.foreign)).toEqual(["generic"]);
    expect(actorParts("npc", UD10_SHEET_PARTS, "hitbox")).toEqual(["generic"]);

    const en = readLang("en");
    const i18n = {
      localize: (key: string) => lookup(en, key) ?? key,
      format: (key: string, data: Record<string, string>) =>
        (lookup(en, key) ?? key).replace(/\{(\w+)\}/g, (_, k: string) => data[k] ?? ""),
    };
    const sheet = actorSheetContext({
      actor: { ...source, statuses: [] } as never,
      ruleset: "hitbox",
      editable: true,
      bodyZones: false,
      enrichedBiography: "",
      coreError: core.error,
      foreignRuleset: core.foreign,
      i18n,
    });
    expect(sheet.foreignNotice).toContain(lookup(en, "FRAY.Ruleset.ud10"));
    expect(sheet.foreignNotice).not.toContain("FRAY.");
    // The wrong-ruleset error is not shown as a refusal: the notice says what the actor is.
    expect(sheet.coreError).toBe("");
    const rows = (sheet as { generic?: { path: string; label: string; value: string }[] }).generic ?? [];
    const str = rows.find((r) => r.path === "attributes.STR");
    expect(str?.value).toBe(String((saved.system.attributes as Raw).STR));
    expect(str?.label).toContain(lookup(en, "FRAY.Actor.FIELDS.attributes.STR.label") as string);
    expect(rows.some((r) => r.path.startsWith("hitboxes"))).toBe(false);
    // Nothing the sheet read changed the stored source.
    expect(actor.toObject().system).toEqual(saved.system);
    await switchWorld("ud10");
  });
});
