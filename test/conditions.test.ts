/**
 * Conditions come from the world's ruleset: `registerConditions` puts exactly the conditions
 * the ruleset's core reads on `CONFIG.statusEffects` (id, localized name key, core icon), marks
 * the defeated status from the conditions that put a combatant out of the fight, and the
 * sheet's Conditions tab lists the same, for every registered ruleset binding.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { ConditionSpec } from "../src/rules/core/contract.js";
import type { AnyBinding } from "../src/foundry/registry.js";
import { installFoundryStub, lookup, readLang, type FoundryStub } from "./support/foundry-stub.js";

type Conditions = typeof import("../src/foundry/conditions.js");
type Registry = typeof import("../src/foundry/registry.js");
type Context = typeof import("../src/foundry/sheets/context.js");
type Config = { statusEffects: { id: string; name: string; img: string }[]; specialStatusEffects?: Record<string, string> };

let stub: FoundryStub;
let conditions: Conditions;
let registry: Registry;
let context: Context;

beforeAll(async () => {
  stub = installFoundryStub("en");
  await import("../src/foundry/rulesets/index.js");
  registry = await import("../src/foundry/registry.js");
  conditions = await import("../src/foundry/conditions.js");
  context = await import("../src/foundry/sheets/context.js");
});

const config = () => stub.CONFIG as unknown as Config;
const en = () => readLang("en");
const de = () => readLang("de");
const i18n = { localize: (key: string) => lookup(en(), key) ?? key, format: (key: string) => key };

/** Expected defeated status: `dead` when the ruleset has it, else its first `out` condition. */
const expectedDefeated: Record<string, string> = { ud10: "dead", hitbox: "dead", critical: "dead", zones: "dead" };

describe("conditions come from the world's ruleset", () => {
  it("every ruleset id is registered", () => {
    expect(registry.registry.ids()).toEqual(expect.arrayContaining(["ud10", "hitbox", "critical", "zones"]));
  });

  for (const id of ["ud10", "hitbox", "critical", "zones"] as const) {
    it(`${id}: CONFIG.statusEffects holds exactly the core's conditions, localized, with the defeated status; the sheet lists the same`, () => {
      const binding = registry.registry.get(id)!;
      const specs = binding.ruleset.conditions();
      expect(specs.length).toBeGreaterThan(2);
      conditions.registerConditions(binding);
      const effects = config().statusEffects;
      expect(effects).toEqual(specs.map((c) => ({ id: c.id, name: c.label, img: c.icon })));
      for (const e of effects) {
        expect(lookup(en(), e.name), `${id} ${e.name} (en)`).toBeTruthy();
        expect(lookup(de(), e.name), `${id} ${e.name} (de)`).toBeTruthy();
        expect(e.img).toMatch(/^icons\/svg\/.+\.svg$/);
      }
      const defeated = config().specialStatusEffects?.DEFEATED;
      expect(defeated).toBe(expectedDefeated[id]);
      expect(specs.find((c) => c.id === defeated)?.out).toBe(true);

      // The sheet's Conditions tab of an actor in a world of this ruleset lists the same ids, on where the actor has them.
      const on = specs[1]!.id;
      const sheet = context.actorSheetContext({
        actor: { _id: "a1", name: "Ada", type: "character", system: { ruleset: id }, items: [], statuses: [on] },
        ruleset: id,
        editable: true,
        bodyZones: true,
        enrichedBiography: "",
        i18n,
      });
      expect(sheet.conditions.map((c) => c.id)).toEqual(effects.map((e) => e.id));
      expect(sheet.conditions.map((c) => c.label)).toEqual(effects.map((e) => i18n.localize(e.name)));
      expect(sheet.conditions.filter((c) => c.active).map((c) => c.id)).toEqual([on]);
    });
  }

  it("without a dead condition the first condition marked out is the defeated status; with none, Foundry's stays", () => {
    const base = registry.registry.get("zones")!;
    const fake = (specs: ConditionSpec[]) => ({ ...base, ruleset: { ...base.ruleset, conditions: () => specs } }) as unknown as AnyBinding;
    const spec = (id: string, out?: boolean): ConditionSpec => ({
      id,
      label: `FRAY.Condition.${id}`,
      icon: "icons/svg/daze.svg",
      rule: "ZN-DMG-01",
      duration: "permanent",
      ...(out ? { out } : {}),
    });
    expect(conditions.defeatedStatus(fake([spec("prone"), spec("down", true), spec("unconscious", true)]))).toBe("down");
    expect(conditions.defeatedStatus(fake([spec("unconscious", true), spec("dead", true)]))).toBe("dead");
    config().specialStatusEffects = { DEFEATED: "dead" };
    conditions.registerConditions(fake([spec("prone")]));
    expect(conditions.defeatedStatus(fake([spec("prone")]))).toBeUndefined();
    expect(config().specialStatusEffects!.DEFEATED).toBe("dead");
    expect(config().statusEffects.map((e) => e.id)).toEqual(["prone"]);
  });

  it("the world's ruleset setting picks the binding when none is given", async () => {
    const { RULESET_SETTING, SYSTEM_ID } = await import("../src/foundry/config.js");
    await stub.game.settings.set(SYSTEM_ID, RULESET_SETTING, "critical");
    conditions.registerConditions();
    expect(config().statusEffects.map((e) => e.id)).toEqual(
      registry.registry
        .get("critical")!
        .ruleset.conditions()
        .map((c) => c.id),
    );
    await stub.game.settings.set(SYSTEM_ID, RULESET_SETTING, "ud10");
    conditions.registerConditions();
    expect(config().statusEffects.map((e) => e.id)).toEqual(conditions.CONDITIONS.map((c) => c.id));
  });
});
