/**
 * The generic pipeline's pure foundations: the round economy stamped with its round and keeping
 * pools (UD-ACT-01, CR-MOV-02, ZN-MOV-01), the ruler's budget over any ruleset's bands
 * (UD-MOV-01 to UD-MOV-03, CR-MOV-01, CR-MOV-02, HB-ACT-02), migrations of partial update data,
 * and sources of another ruleset kept as stored.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createEconomy, spend } from "../../src/rules/core/economy.js";
import { critical } from "../../src/rules/critical/index.js";
import { parseCombatant as parseCritical } from "../../src/rules/critical/model.js";
import { ud10 } from "../../src/rules/ud10/index.js";
import { economy as ud10Economy } from "../../src/rules/ud10/movement.js";
import { isStale, readEconomy, stamped } from "../../src/foundry/logic/economy.js";
import { BAND_COLOURS } from "../../src/foundry/rulesets/ud10/ruler.js";
import { BAND_PALETTE, BEYOND_COLOUR, budgetColour, rulerBudget, waypointColour } from "../../src/foundry/logic/ruler.js";
import { migrateTrack } from "../../src/foundry/models/migrate.js";
import { migrateUd10Actor } from "../../src/foundry/rulesets/ud10/migrate.js";
import { guardForeign, isForeignSource } from "../../src/foundry/models/foreign.js";
import { toMetres } from "../../src/foundry/measure.js";
import { fighter } from "../rules/ud10-fixtures.js";
import { installFoundryStub } from "../support/foundry-stub.js";
import { readSources, packFolders } from "../support/packs.js";

const kara = () =>
  parseCritical({
    id: "kara",
    name: "Kara",
    quickness: 10,
    selfDiscipline: 15,
    physique: { ranks: 8, total: 48 },
    defense: 15,
    baseMove: 10,
    skills: { blades: 70 },
    weapons: [],
    armor: [],
  });

describe("round economy stamped with its round", () => {
  const spec = ud10Economy();

  it("UD-ACT-01: an economy stamped with an older round reads as a fresh one, so a missed reset never freezes a combatant", () => {
    const spent = stamped(spend(createEconomy(spec), { slots: { action: 1, movement: 1 } }), 3);
    expect(readEconomy(spent, spec, 3).slots.action!.used).toBe(1);
    const later = readEconomy(spent, spec, 4);
    expect(later.slots.action!.used).toBe(0);
    expect(later.slots.movement!.used).toBe(0);
    expect(isStale(spent, 4)).toBe(true);
    expect(isStale(spent, 3)).toBe(false);
  });

  it("UD-ACT-01: without a round (the economy store's call) the stored uses are read back and the stamp kept", () => {
    const spent = stamped(spend(createEconomy(spec), { slots: { reaction: 1 } }), 2);
    const read = readEconomy(spent, spec);
    expect(read.slots.reaction!.used).toBe(1);
    expect(read.round).toBe(2);
  });

  it("CR-MOV-02: Critical AP spent stays spent when the economy is read again", () => {
    const k = kara();
    const cspec = critical.economy(k, critical.defaults());
    const fresh = createEconomy(cspec);
    const apBefore = fresh.pools.ap!.value;
    const after = spend(fresh, { pools: { ap: 2 } });
    expect(readEconomy(after, cspec).pools.ap!.value).toBe(apBefore - 2);
    // A stored value out of bounds is clamped to the pool.
    expect(readEconomy({ pools: { ap: { value: 99 } } }, cspec).pools.ap!.value).toBe(fresh.pools.ap!.max);
    expect(readEconomy({ pools: { ap: { value: -3 } } }, cspec).pools.ap!.value).toBe(0);
  });

  it("ZN-MOV-01: Zones speed points spent stay spent when the economy is read again", () => {
    const zspec = { slots: [], pools: [{ id: "speed", label: "FRAY.Zones.Pool.speed", max: 4, rule: "ZN-MOV-01" as const }] };
    const after = spend(createEconomy(zspec), { pools: { speed: 3 } });
    expect(readEconomy(after, zspec).pools.speed).toEqual({ value: 1, max: 4 });
  });
});

describe("ruler budget over any ruleset's bands", () => {
  it("UD-MOV-01 to UD-MOV-03: UD10's three bands get the palette in order, red beyond (STR 3: 8 m, 16 m)", () => {
    const budget = rulerBudget(ud10, fighter(), {}, undefined, 1);
    expect(budget.bands.map((b) => b.id)).toEqual(["step", "standard", "full"]);
    expect(budgetColour(budget, 1.5)).toBe(BAND_COLOURS.step);
    expect(budgetColour(budget, 8)).toBe(BAND_COLOURS.standard);
    expect(budgetColour(budget, 16)).toBe(BAND_COLOURS.full);
    expect(budgetColour(budget, 16.5)).toBe(BEYOND_COLOUR);
  });

  it("CR-MOV-01, CR-MOV-02: Critical's base move and four AP steps are five bands; past 50 m is beyond", () => {
    const budget = rulerBudget(critical, kara(), critical.defaults(), undefined, 1);
    expect(budget.bands).toHaveLength(5);
    expect(budgetColour(budget, 10)).toBe(BAND_PALETTE[0]);
    expect(budgetColour(budget, 15)).toBe(BAND_PALETTE[1]);
    expect(budgetColour(budget, 45)).toBe(BAND_PALETTE[2]);
    expect(budgetColour(budget, 51)).toBe(BEYOND_COLOUR);
  });

  it("HB-ACT-02: on a scene measured in feet, the ruler's units become metres before the bands are compared", () => {
    const budget = {
      bands: [{ id: "step", label: "x", rule: "HB-ACT-02" as const, maxMetres: toMetres(5, "ft"), cost: {} }],
      movedBefore: undefined,
      metresPerUnit: toMetres(1, "ft"),
    };
    expect(waypointColour(budget, { measurement: { cost: 5 } })).toBe(BAND_PALETTE[0]);
    expect(waypointColour(budget, { measurement: { cost: 10 } })).toBe(BEYOND_COLOUR);
    // Moved before in a started combat counts on top of the planned path.
    expect(waypointColour({ ...budget, movedBefore: 0.5 }, { stage: "planned", measurement: { cost: 2 } })).toBe(BAND_PALETTE[0]);
    expect(waypointColour({ ...budget, movedBefore: 1 }, { stage: "planned", measurement: { cost: 2 } })).toBe(BEYOND_COLOUR);
  });

  it("UD-MOV-02: the bands are read once per budget, not per waypoint", () => {
    let calls = 0;
    const counting = { movement: (c: ReturnType<typeof fighter>, o: Record<string, never>) => (calls++, ud10.movement(c, o)) };
    const budget = rulerBudget(counting, fighter(), {}, 0, 1);
    for (let cost = 0; cost < 30; cost += 1.5) waypointColour(budget, { stage: "planned", measurement: { cost } });
    expect(calls).toBe(1);
  });
});

describe("migrations of partial update data", () => {
  it("hp.max alone stays a change of the maximum; the value is not set from it", () => {
    expect(migrateTrack({ max: 30 })).toEqual({ max: 30 });
    expect(migrateUd10Actor({ hp: { max: 30 } })).toEqual({ hp: { max: 30 } });
    expect(migrateUd10Actor({ hp: { value: "12" } })).toEqual({ hp: { value: 12 } });
    // A bare number is still a full pool (the whole pool was given).
    expect(migrateTrack(8)).toEqual({ value: 8, max: 8 });
  });
});

describe("sources of another ruleset", () => {
  beforeAll(() => {
    installFoundryStub("en");
  });

  it("are recognised by their ruleset field; UD10 content without the field is not foreign", () => {
    expect(isForeignSource({ ruleset: "hitbox" }, "ud10")).toBe(true);
    expect(isForeignSource({ ruleset: "ud10" }, "ud10")).toBe(false);
    expect(isForeignSource({ hp: { max: 3 } }, "hitbox")).toBe(false);
    expect(isForeignSource({ ruleset: "unknown" }, "ud10")).toBe(false);
  });

  it("switching the world away and back keeps an actor's source: each ruleset's models leave the others' alone", async () => {
    await import("../../src/foundry/rulesets/index.js");
    const MODELS = (await import("../../src/foundry/data-models.js")).rulesetModels();
    const npcs = packFolders()
      .filter((f) => f.endsWith("-npcs"))
      .flatMap((f) => readSources(f).map((s) => s.doc));
    expect(npcs.length).toBeGreaterThan(3);
    for (const doc of npcs) {
      const own = (doc.system as { ruleset?: string }).ruleset ?? "ud10";
      const stored = structuredClone(doc.system ?? {});
      for (const [ruleset, models] of Object.entries(MODELS)) {
        const model = models.npc as { migrateData(s: unknown): unknown; cleanData?(s: unknown): unknown };
        const migrated = model.migrateData(structuredClone(stored));
        if (ruleset === own) continue;
        if (own === "ud10" && !("ruleset" in stored)) continue;
        expect(migrated, `${doc.name} (${own}) in a ${ruleset} world`).toEqual(stored);
      }
    }
  });

  it("the guard passes a foreign source by cleanData untouched and cleans its own", () => {
    class Model {
      static migrateData(source: Record<string, unknown>) {
        return { ...source, migrated: true };
      }
      static cleanData(source: Record<string, unknown>) {
        return { ruleset: source.ruleset, cleaned: true };
      }
    }
    guardForeign(Model, "ud10");
    const hitboxSource = { ruleset: "hitbox", hitboxes: { head: { value: 1, max: 2 } } };
    expect(Model.cleanData(hitboxSource)).toBe(hitboxSource);
    expect(Model.migrateData(hitboxSource)).toBe(hitboxSource);
    expect(Model.cleanData({ ruleset: "ud10", extra: 1 })).toEqual({ ruleset: "ud10", cleaned: true });
    expect(Model.migrateData({ ruleset: "ud10" })).toEqual({ ruleset: "ud10", migrated: true });
  });
});
