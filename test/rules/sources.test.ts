import { describe, expect, it } from "vitest";
import { FrayError } from "../../src/rules/core/errors.js";
import { int, oneOf, str, track } from "../../src/rules/core/parse.js";
import { belongsTo, combatantData } from "../../src/rules/core/sources.js";
import { hitboxCombatantFromActor } from "../../src/rules/hitbox/model.js";
import { ud10CombatantFromActor } from "../../src/rules/ud10/model.js";
import { zonesWeaponFromItem } from "../../src/rules/zones/model.js";

const ud10Actor = {
  _id: "a1",
  name: "Ana",
  type: "npc",
  system: { attributes: { STR: 2, DEX: 3, CON: 2 }, hp: 12, ep: 10 },
  items: [
    { _id: "w1", name: "Sword", type: "weapon", system: { kind: "melee", damage: "3+1d10" } },
    { _id: "w2", name: "Laser", type: "weapon", system: { ruleset: "critical", weaponClass: "energy" } },
    { _id: "r1", name: "Vest", type: "armor", system: { zones: { torso: { rating: 4, buffer: 5 } } } },
    { _id: "r2", name: "Spare helmet", type: "armor", system: { equipped: false, zones: { head: { rating: 3, buffer: 2 } } } },
  ],
  statuses: ["prone"],
};

describe("document sources", () => {
  it("UD-ZON-01: an actor's weapons and worn armor become the combatant's; other rulesets' items are left out", () => {
    const c = ud10CombatantFromActor(ud10Actor, { group: "guards" });
    expect(c).toMatchObject({ id: "a1", name: "Ana", kind: "npc", group: "guards", conditions: ["prone"] });
    expect(c.weapons.map((w) => w.name)).toEqual(["Sword"]);
    expect(c.armor.map((a) => a.name)).toEqual(["Vest"]);
    expect(c.armor[0]!.zones.torso).toEqual({ rating: 4, buffer: 5 });
  });

  it("refuses an actor or item of another ruleset with a localized error naming both", () => {
    const zonesActor = { ...ud10Actor, system: { ...ud10Actor.system, ruleset: "zones" } };
    expect(() => ud10CombatantFromActor(zonesActor)).toThrow(
      expect.objectContaining({
        key: "FRAY.Error.WrongRuleset",
        data: { name: "Ana", ruleset: "zones", expected: "FRAY.Ruleset.ud10" },
      }) as Error,
    );
    expect(() => hitboxCombatantFromActor(zonesActor)).toThrow(expect.objectContaining({ key: "FRAY.Error.WrongRuleset" }) as Error);
    expect(() => zonesWeaponFromItem({ name: "Sword", type: "weapon", system: { ruleset: "ud10" } })).toThrow(
      expect.objectContaining({ key: "FRAY.Error.WrongRuleset" }) as Error,
    );
    expect(belongsTo({ system: {} }, "hitbox")).toBe(true);
    expect(belongsTo({ system: { ruleset: "" } }, "zones")).toBe(true);
  });

  it("keeps the actor's own fields and names the kind and default group", () => {
    const raw = combatantData({ name: "Bo", type: "character", system: { size: "large" } }, "ud10");
    expect(raw).toMatchObject({
      id: "Bo",
      name: "Bo",
      kind: "character",
      group: "players",
      size: "large",
      weapons: [],
      armor: [],
      conditions: [],
    });
  });

  it("reads fields with errors that name the field", () => {
    const field = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return e instanceof FrayError ? e.data.field : "not a FrayError";
      }
      return "no error";
    };
    expect(field(() => int({ n: 2.5 }, "n", "Rifle"))).toBe("Rifle.n");
    expect(field(() => oneOf({ s: "huge" }, "s", "Bo", ["small", "normal"]))).toBe("Bo.s");
    expect(str({ s: "" }, "s", "x", "fallback")).toBe("fallback");
    expect(track({ hp: 9 }, "hp", "x")).toEqual({ value: 9, max: 9 });
    expect(track({ hp: { max: 9 } }, "hp", "x")).toEqual({ value: 9, max: 9 });
    expect(field(() => track({ hp: "lots" }, "hp", "Bo"))).toBe("Bo.hp");
  });
});
