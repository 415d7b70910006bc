/**
 * The document → core boundary: after the lenient translation of a stored actor into the core's
 * combatant, the core's own check (`validateCombatant`) runs. An actor the core refuses has no
 * combatant; its sheet shows a localized warning naming the field, and an attack with it reports
 * the core's error instead of failing with a TypeError.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { FrayError } from "../src/rules/core/errors.js";
import { RULESET_BOUNDS } from "../src/rules/core/bounds.js";
import { installFoundryStub, lookup, readLang, stubActor, stubToken, type FoundryStub } from "./support/foundry-stub.js";
import { combatantSystem } from "./support/actors.js";
import { packFolders, readSources } from "./support/packs.js";

type Actor = typeof import("../src/foundry/documents/actor.js");
type Registry = typeof import("../src/foundry/registry.js");
type Context = typeof import("../src/foundry/sheets/context.js");
type Dict = Record<string, unknown>;

let stub: FoundryStub;
let actorMod: Actor;
let registry: Registry;
let context: Context;

beforeAll(async () => {
  stub = installFoundryStub("en");
  await import("../src/foundry/rulesets/index.js");
  actorMod = await import("../src/foundry/documents/actor.js");
  registry = await import("../src/foundry/registry.js");
  context = await import("../src/foundry/sheets/context.js");
  const { registerSettings } = await import("../src/foundry/settings.js");
  registerSettings();
});

const sword = {
  _id: "sword",
  name: "Sword",
  type: "weapon",
  system: {
    kind: "melee",
    attackModifier: 0,
    damage: "2+1d10",
    penetration: 0,
    rangeIncrement: 0,
    modes: [],
    canParry: true,
    shield: false,
  },
};

/** A UD10 character whose stored melee rating is beyond what the core allows. */
function refusedActor(id = "bad") {
  const system = combatantSystem(5) as Dict;
  (system.skills as Dict).melee = { rating: RULESET_BOUNDS.ud10.skill.max + 69, trained: true };
  return stubActor({ _id: id, name: "Overrated", type: "character", system, items: [structuredClone(sword)] });
}

/** A sheet's localization in a language. */
function i18nOf(code: "en" | "de") {
  const lang = readLang(code);
  return {
    localize: (key: string) => lookup(lang, key) ?? key,
    format: (key: string, data: Record<string, string>) =>
      (lookup(lang, key) ?? key).replace(/\{(\w+)\}/g, (_, k: string) => data[k] ?? `{${k}}`),
  };
}

describe("validation at the document → core boundary", () => {
  it("a stored value beyond the core's bound leaves the actor without a combatant, with the core's error naming the field", () => {
    const core = actorMod.prepareCore(refusedActor() as never, registry.registry.get("ud10")!);
    expect(core.combatant).toBeUndefined();
    expect(core.error).toBeInstanceOf(FrayError);
    expect((core.error as FrayError).message).toContain("combatant.skills.melee.rating");
    expect(() => actorMod.combatantOf(refusedActor() as never, {}, registry.registry.get("ud10")!)).toThrow(FrayError);
    let thrown: unknown;
    try {
      actorMod.combatantOf(refusedActor() as never, {}, registry.registry.get("ud10")!);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).not.toBeInstanceOf(TypeError);
    expect((thrown as FrayError).data).toMatchObject({ field: "combatant.skills.melee.rating" });
  });

  it("the same actor within the bounds is read and checked as before", () => {
    const ok = stubActor({
      _id: "ok",
      name: "Fine",
      type: "character",
      system: combatantSystem(5) as Dict,
      items: [structuredClone(sword)],
    });
    const core = actorMod.prepareCore(ok as never, registry.registry.get("ud10")!);
    expect(core.error).toBeUndefined();
    expect((core.combatant as { weapons: { id: string }[] }).weapons.map((w) => w.id)).toEqual(["sword"]);
  });

  it("the sheet shows a localized warning naming the field, in English and German", () => {
    const core = actorMod.prepareCore(refusedActor() as never, registry.registry.get("ud10")!);
    for (const code of ["en", "de"] as const) {
      const i18n = i18nOf(code);
      const sheet = context.actorSheetContext({
        actor: { ...(refusedActor().toObject() as Dict), statuses: [] } as never,
        ruleset: "ud10",
        editable: true,
        bodyZones: true,
        enrichedBiography: "",
        coreError: core.error,
        i18n,
      });
      expect(sheet.coreError).toContain("combatant.skills.melee.rating");
      expect(sheet.coreError.startsWith(i18n.format("FRAY.Sheet.CoreRefused", { error: "" }).trim())).toBe(true);
      expect(sheet.coreError).not.toContain("FRAY.");
    }
    const clean = context.actorSheetContext({
      actor: { _id: "ok", name: "Fine", type: "character", system: combatantSystem(5) as Dict, items: [], statuses: [] },
      ruleset: "ud10",
      editable: true,
      bodyZones: true,
      enrichedBiography: "",
      i18n: i18nOf("en"),
    });
    expect(clean.coreError).toBe("");
  });

  it("an attack by or at a refused actor reports the core's error and rolls nothing", async () => {
    const { rollAttack } = await import("../src/foundry/attack.js");
    const good = stubActor({
      _id: "good",
      name: "Fine",
      type: "character",
      system: combatantSystem(5) as Dict,
      items: [structuredClone(sword)],
    });
    const bad = refusedActor("bad2");
    const goodToken = stubToken(good, 0, 0);
    const badToken = stubToken(bad, 1, 0);
    for (const [actor, token, target] of [
      [bad, badToken, goodToken],
      [good, goodToken, badToken],
    ] as const) {
      stub.ui.notifications.messages.length = 0;
      const outcome = await rollAttack({
        actor: actor as never,
        token: token as never,
        targets: [target as never],
        weaponId: "sword",
        choices: { targets: [target.id] } as never,
      });
      expect(outcome).toBeUndefined();
      const errors = stub.ui.notifications.messages.filter((m) => m.level === "error");
      expect(errors.map((m) => m.text).join(" ")).toContain("combatant.skills.melee.rating");
      expect(errors.map((m) => m.text).join(" ")).not.toContain("TypeError");
    }
  });

  it("HB-DMG-04: a Hitbox actor in shock with its turn count is accepted", () => {
    const folder = packFolders().find((f) => f.startsWith("hitbox-") && f.endsWith("npcs"))!;
    const { doc } = readSources(folder)[0]!;
    const source = { ...doc, system: { ...(doc.system as Dict), shockTurnsLeft: 2 } };
    const actor = { ...source, statuses: new Set(["shock"]), items: [], toObject: () => structuredClone(source) };
    const core = actorMod.prepareCore(actor as never, registry.registry.get("hitbox")!);
    expect(core.error).toBeUndefined();
    expect((core.combatant as { shockTurnsLeft?: number }).shockTurnsLeft).toBe(2);
  });

  it("every ruleset's pack NPCs pass the core's check", () => {
    for (const binding of registry.registry.list()) {
      const folders = packFolders().filter((f) => f.startsWith(`${binding.id}-`) && f.endsWith("npcs"));
      expect(folders.length, binding.id).toBeGreaterThan(0);
      for (const folder of folders) {
        for (const { doc } of readSources(folder)) {
          const actor = { ...doc, statuses: new Set<string>(), toObject: () => structuredClone(doc) };
          const core = actorMod.prepareCore(actor as never, binding);
          expect(core.error, `${binding.id} ${doc.name}`).toBeUndefined();
        }
      }
    }
  });
});
