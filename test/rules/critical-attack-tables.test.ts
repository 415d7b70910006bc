/**
 * Critical's attack tables as compendium RollTables (packs/_source/critical-attack-tables, written
 * by scripts/critical-tables.ts from the core's tables): every table of a weapon class against an
 * armor type reads back as the core's column; a replaced column is what the lookup, the attack
 * and the odds read; a world RollTable with the same key replaces it (rulesets/critical/tables.ts).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ScriptedRoller } from "../../src/rules/core/dice/port.js";
import { FrayError } from "../../src/rules/core/errors.js";
import {
  ARMOR_TYPES,
  DEFAULT_TABLES,
  attackColumnBands,
  critical,
  lookupAttack,
  parseAttackColumn,
  parseCombatant,
  withAttackColumn,
  type CriticalAttackInput,
  type CriticalAttackResult,
} from "../../src/rules/critical/index.js";
import {
  ATTACK_TABLE_PACK,
  attackTableId,
  attackTableName,
  tableLink,
  worldAttackTables,
  worldTables,
} from "../../src/foundry/rulesets/critical/tables.js";

type Raw = { _id: string; name: string; flags: { fray: { tableKey: string } }; results: { name: string; range: number[] }[] };

const DIR = join(import.meta.dirname, "..", "..", "packs", "_source", "critical-attack-tables");
const sources = (): Raw[] =>
  readdirSync(DIR)
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(join(DIR, f), "utf8")) as Raw);
const source = (key: string): Raw => structuredClone(sources().find((s) => s.flags.fray.tableKey === key)!);

const opts = critical.defaults();

/** A swordsman with OB 0, so the d100 alone is the total, against an undefended target in plate. */
const input = (tables?: CriticalAttackInput["tables"]): CriticalAttackInput => ({
  attacker: parseCombatant({
    id: "a",
    name: "A",
    quickness: 0,
    selfDiscipline: 0,
    physique: { ranks: 5, total: 30 },
    skills: { blades: 0 },
    weapons: [{ id: "sword", name: "Sword", weaponClass: "sword", category: "melee", skill: "blades", bonus: 0 }],
  }),
  target: parseCombatant({
    id: "t",
    name: "T",
    quickness: 0,
    selfDiscipline: 0,
    physique: { ranks: 5, total: 30 },
    defense: 0,
    armor: [{ id: "p", name: "Plate", armorType: "plate", defense: 0 }],
  }),
  weaponId: "sword",
  ...(tables ? { tables } : {}),
});

/** The Sword vs. Plate Armor table with every band's entry replaced by `code`. */
function allBands(code: string): Raw {
  const s = source("critical.attack.sword.plate");
  for (const r of s.results) r.name = code;
  return s;
}

describe("Critical attack tables in the compendium", () => {
  it("CR-ATK-02, CR-ATK-03: one RollTable per weapon class and armor type (48), each reading back as the core's column", () => {
    const all = sources();
    const classes = Object.keys(DEFAULT_TABLES.attack);
    expect(classes.length).toBe(8);
    expect(all.length).toBe(classes.length * ARMOR_TYPES.length);
    expect(all.map((s) => s.flags.fray.tableKey).sort()).toEqual(
      classes.flatMap((c) => ARMOR_TYPES.map((a) => `critical.attack.${c}.${a}`)).sort(),
    );
    for (const raw of all) {
      const { column, problems } = parseAttackColumn(raw);
      expect(problems, raw.name).toEqual([]);
      const table = DEFAULT_TABLES.attack[column.weaponClass]!;
      expect(column.bands, raw.name).toEqual(attackColumnBands(table, column.armorType));
      expect(raw._id).toBe(attackTableId(column.weaponClass, column.armorType));
      expect(raw.name).toBe(attackTableName(table, column.armorType));
    }
    // A cell as the stock sheet shows it: the Sword against no armor, totals 56-60, is 9AS.
    expect(source("critical.attack.sword.none").results.find((r) => r.range[0] === 56)).toMatchObject({ name: "9AS", range: [56, 60] });
  });

  it("CR-ATK-02: the lowest band reads every total below it and the highest every total above it", () => {
    const { column } = parseAttackColumn(allBands("7"));
    const table = withAttackColumn(DEFAULT_TABLES.attack.sword!, column);
    expect(lookupAttack(table, "plate", -40).lookup.range).toEqual([null, 20]);
    expect(lookupAttack(table, "plate", 400).lookup.range).toEqual([151, null]);
  });

  it("CR-ATK-02: a broken band is left out and reported, a gap between bands is reported, a table with no key is refused naming the field", () => {
    const s = source("critical.attack.sword.plate");
    s.results[3]!.name = "20XS";
    s.results.splice(5, 1);
    const { column, problems } = parseAttackColumn(s);
    expect(column.bands.length).toBe(s.results.length - 1);
    // The band left out leaves a gap of its own.
    expect(problems.map((p) => p.problem)).toEqual([
      "FRAY.Critical.Problem.Code",
      "FRAY.Critical.Problem.Gap",
      "FRAY.Critical.Problem.Gap",
    ]);
    expect(problems[0]).toMatchObject({ field: "name", data: { code: "20XS" } });
    const bad = { ...s, flags: { fray: { tableKey: "critical.attack.sword" } } };
    expect(() => parseAttackColumn(bad)).toThrow(FrayError);
    try {
      parseAttackColumn(bad);
    } catch (err) {
      expect((err as FrayError).data).toMatchObject({ field: "flags.fray.tableKey" });
    }
  });

  it("CR-ATK-02, CR-ATK-03: the odds of a column with a gap read it total by total: a reachable gap is refused, as the roll is", async () => {
    const s = source("critical.attack.sword.plate");
    // The band holding 40 left out: totals 36 to 40 fall in no band.
    const at = s.results.findIndex((r) => r.range[0]! <= 40 && 40 <= r.range[1]!);
    s.results.splice(at, 1);
    const { column } = parseAttackColumn(s);
    const i = input({ attack: { sword: withAttackColumn(DEFAULT_TABLES.attack.sword!, column) } });
    const plan = critical.planAttack(i, opts);
    const refusal = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        return (err as FrayError).key;
      }
      return undefined;
    };
    expect(refusal(() => critical.odds(plan, i, opts))).toBe("FRAY.Error.TableGap");
    await expect(critical.resolveAttack(plan, i, new ScriptedRoller([40]), opts)).rejects.toMatchObject({ key: "FRAY.Error.TableGap" });
    // Out of the roll's reach (a modifier of +200 puts every unfumbled total in the top band), it reads as the built-in column.
    const far = { ...i, situation: { modifier: 200 } };
    const plain = { ...input(), situation: { modifier: 200 } };
    const farPlan = critical.planAttack(far, opts);
    const got = critical.odds(farPlan, far, opts).outcomes!;
    const want = critical.odds(critical.planAttack(plain, opts), plain, opts).outcomes!;
    expect(want.C).toBeGreaterThan(0.9);
    // Read total by total or band by band, each chance is added on its own in the same order: bit for bit.
    expect(got).toEqual(want);
  });

  it("CR-ATK-02: odds of unusual columns read total by total as lookupAttack does: a fractional offset is refused, an inverted band read first-match", () => {
    const key = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        return (err as FrayError).key;
      }
      return undefined;
    };
    // A modifier of 2.5 puts every total between two whole-numbered bands.
    const half = { ...input(), situation: { modifier: 2.5 } };
    expect(key(() => critical.odds(critical.planAttack(half, opts), half, opts))).toBe("FRAY.Error.TableGap");
    // Bands [..9], [10..5] (inverted), [6..]: lookupAttack takes the first band holding a total, so 6 to 9 are read once.
    const code = (c: string) => lookupAttack(DEFAULT_TABLES.attack.sword!, "none", c === "low" ? 1 : 200).code;
    const sword = withAttackColumn(DEFAULT_TABLES.attack.sword!, {
      key: "critical.attack.sword.plate",
      weaponClass: "sword",
      armorType: "plate",
      name: "Inverted",
      bands: [
        { range: [null, 9], code: code("low") },
        { range: [10, 5], code: code("high") },
        { range: [6, null], code: code("high") },
      ],
    });
    const i = input({ attack: { sword } });
    const o = critical.odds(critical.planAttack(i, opts), i, opts).outcomes!;
    expect(Math.abs(Object.values(o).reduce((a, b) => a + b, 0) - 1)).toBeLessThan(1e-12);
  });

  it("CR-ATK-03: a replaced column is what the attack and the odds read; the other columns stay", async () => {
    const { column } = parseAttackColumn(allBands("30EK"));
    const sword = withAttackColumn(DEFAULT_TABLES.attack.sword!, column);
    const tables = { attack: { sword } };
    const i = input(tables);
    const plan = critical.planAttack(i, opts);
    const result = (await critical.resolveAttack(plan, i, new ScriptedRoller([40]), opts)) as CriticalAttackResult;
    expect(result.detail.code).toMatchObject({ code: "30EK", hits: 30, severity: "E", type: "K" });
    expect(result.lookups![0]).toMatchObject({ table: "critical.attack.sword", column: "plate", range: [36, 40], result: "30EK" });
    // Built in, 40 against plate is no effect.
    const plain = (await critical.resolveAttack(
      critical.planAttack(input(), opts),
      input(),
      new ScriptedRoller([40]),
      opts,
    )) as CriticalAttackResult;
    expect(plain.detail.code?.code).toBe("-");
    // Every unfumbled total is an E now.
    const o = critical.odds(plan, i, opts);
    expect(o.outcomes!.E).toBeCloseTo(0.97, 12);
    expect(lookupAttack(sword, "none", 58).code.code).toBe("9AS");
  });
});

describe("Critical attack tables of the world", () => {
  const g = globalThis as { game?: unknown };
  afterEach(() => {
    delete g.game;
  });
  const world = (raw: Raw, uuid: string) => ({
    uuid,
    name: "House Sword vs. Plate",
    getFlag: (scope: string, key: string) => (scope === "fray" ? (raw.flags.fray as Record<string, unknown>)[key] : undefined),
    toObject: () => structuredClone(raw),
  });

  it("CR-ATK-03: a world RollTable flagged critical.attack.sword.plate replaces that column for the world's attacks and the card's link", () => {
    expect(worldTables()).toBeUndefined();
    expect(tableLink("critical.attack.sword.plate")).toEqual({
      uuid: `Compendium.${ATTACK_TABLE_PACK}.RollTable.${attackTableId("sword", "plate")}`,
      name: "Sword vs. Plate Armor",
    });
    expect(tableLink("critical.attack.sword.felt")).toBeUndefined();
    g.game = { tables: [world(allBands("12"), "RollTable.house")] };
    const tables = worldTables()!;
    expect(Object.keys(tables.attack!)).toEqual(["sword"]);
    expect(lookupAttack(tables.attack!.sword!, "plate", 90).code.code).toBe("12");
    expect(lookupAttack(tables.attack!.sword!, "none", 90).code.code).toBe(
      lookupAttack(DEFAULT_TABLES.attack.sword!, "none", 90).code.code,
    );
    expect(tableLink("critical.attack.sword.plate")).toEqual({ uuid: "RollTable.house", name: "House Sword vs. Plate" });
  });

  it("CR-ATK-03: a world table of an unknown weapon class or one that is not an attack table leaves the built-in tables playing", () => {
    const unknown = allBands("12");
    unknown.flags.fray.tableKey = "critical.attack.halberd.plate";
    const empty = { ...allBands("12"), results: [] };
    g.game = { tables: [world(unknown, "RollTable.a"), world(empty, "RollTable.b")] };
    expect(worldAttackTables()).toEqual({});
    expect(worldTables()).toBeUndefined();
  });
});
