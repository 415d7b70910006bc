/**
 * Critical's critical tables as compendium RollTables of one type and severity
 * (packs/_source/critical-tables, written by scripts/critical-tables.ts from the core's tables):
 * each reads back as that severity of the core's table, a draw over 1-100 finds exactly one
 * result and never the UM66 one; the core's lookup keeps the over-150 bonus and UM66 on an
 * unmodified 66; world tables of one severity or of a whole type replace the built-in entries.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FrayError } from "../../src/rules/core/errors.js";
import {
  CRIT_TYPES,
  CRITICAL_TABLE_SOURCES,
  DEFAULT_TABLES,
  SEVERITIES,
  checkCriticalTable,
  lookupCritical,
  parseCriticalTable,
  withCriticalSeverity,
  type CriticalTable,
} from "../../src/rules/critical/index.js";
import { CRITICAL_TABLE_PACK, criticalTableId, tableLink, worldCriticalTables } from "../../src/foundry/rulesets/critical/tables.js";

type Result = { _id: string; name: string; description: string; range: number[]; flags: { fray: Record<string, unknown> } };
type Raw = { _id: string; name: string; formula: string; flags: { fray: { tableKey: string } }; results: Result[] };

const DIR = join(import.meta.dirname, "..", "..", "packs", "_source", "critical-tables");
const sources = (): Raw[] =>
  readdirSync(DIR)
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(join(DIR, f), "utf8")) as Raw);
const source = (key: string): Raw => structuredClone(sources().find((s) => s.flags.fray.tableKey === key)!);
const byId = (t: CriticalTable) => [...t.entries].sort((a, b) => a.id.localeCompare(b.id));

describe("Critical tables in the compendium, one per type and severity", () => {
  it("CR-CRT-01, CR-CRT-02, CR-CRT-03: 30 RollTables, each reading back as its severity of the core's table", () => {
    const all = sources();
    expect(all.length).toBe(CRIT_TYPES.length * SEVERITIES.length);
    expect(all.map((s) => s.flags.fray.tableKey).sort()).toEqual(
      CRIT_TYPES.flatMap((t) => SEVERITIES.map((s) => `critical.crit.${t}.${s}`)).sort(),
    );
    for (const type of CRIT_TYPES) {
      let merged: CriticalTable = { ...DEFAULT_TABLES.crit[type]!, entries: [] };
      for (const sev of SEVERITIES) {
        const raw = source(`critical.crit.${type}.${sev}`);
        expect(raw._id).toBe(criticalTableId(type, sev));
        expect(raw.formula).toBe("1d100");
        expect(raw.results.length, raw.name).toBe(9);
        const { table, problems } = parseCriticalTable(raw);
        expect(problems, raw.name).toEqual([]);
        expect(table).toMatchObject({ type, severity: sev });
        expect(table.entries.every((e) => e.severity === sev)).toBe(true);
        merged = withCriticalSeverity(merged, table);
      }
      expect(checkCriticalTable(merged), type).toEqual([]);
      expect(byId(merged), type).toEqual(byId(DEFAULT_TABLES.crit[type]!));
    }
  });

  it("CR-CRT-02, CR-CRT-03: a draw of 1-100 finds exactly one result of each table, never the UM66 one (it lies outside the d100)", () => {
    for (const raw of sources()) {
      const um = raw.results.filter((r) => r.flags.fray.um66 === true);
      expect(um.length, raw.name).toBe(1);
      expect(um[0]!.range[1]! < 1 || um[0]!.range[0]! > 100, raw.name).toBe(true);
      for (let roll = 1; roll <= 100; roll++) {
        const drawn = raw.results.filter((r) => roll >= r.range[0]! && roll <= r.range[1]!);
        expect(drawn.length, `${raw.name} ${roll}`).toBe(1);
        expect(drawn[0]!.flags.fray.um66, `${raw.name} ${roll}`).toBeUndefined();
      }
    }
  });

  it("CR-CRT-03, CR-ATK-04: the core's lookup on the tables built from the packs: UM66 only on an unmodified 66, the bonus moves the row", () => {
    let slash: CriticalTable = { ...DEFAULT_TABLES.crit.S!, entries: [] };
    for (const sev of SEVERITIES) slash = withCriticalSeverity(slash, parseCriticalTable(source(`critical.crit.S.${sev}`)).table);
    expect(lookupCritical(slash, "C", 66, 66).entry).toMatchObject({ um66: true, name: "C UM66" });
    // 56 + 10 over 150 reads the ordinary 66-80 row.
    expect(lookupCritical(slash, "C", 66, 56).entry).toMatchObject({ um66: false, range: [66, 80] });
    expect(lookupCritical(slash, "E", 130, 95).entry.range).toEqual([96, 100]);
  });

  it("CR-CRT-02, CR-CRT-03: a result of another severity or a UM66 row inside the d100 other than 66 is left out and reported; a key of no type is refused", () => {
    const raw = source("critical.crit.P.B");
    raw.results[0]!.flags.fray.severity = "C";
    raw.results.find((r) => r.flags.fray.um66)!.range = [60, 70];
    const { table, problems } = parseCriticalTable(raw);
    expect(table.entries.length).toBe(7);
    expect(problems.map((p) => [p.field, p.problem])).toEqual([
      ["flags.fray.severity", "FRAY.Critical.Problem.Severity"],
      ["range", "FRAY.Critical.Problem.Um66Range"],
    ]);
    // A UM66 row at 66-66 (the shape of earlier releases) still reads.
    const old = source("critical.crit.P.B");
    old.results.find((r) => r.flags.fray.um66)!.range = [66, 66];
    expect(parseCriticalTable(old).problems).toEqual([]);
    expect(() => parseCriticalTable({ ...raw, flags: { fray: { tableKey: "critical.crit.X.B" } } })).toThrow(FrayError);
    expect(() => withCriticalSeverity(DEFAULT_TABLES.crit.S!, parseCriticalTable(source("critical.crit.P.B")).table)).toThrow(FrayError);
  });
});

describe("Critical tables of the world", () => {
  const g = globalThis as { game?: unknown };
  afterEach(() => {
    delete g.game;
  });
  const world = (raw: unknown, uuid: string, name: string) => ({
    uuid,
    name,
    getFlag: (scope: string, key: string) => (scope === "fray" ? ((raw as Raw).flags.fray as Record<string, unknown>)[key] : undefined),
    toObject: () => structuredClone(raw),
  });
  /** The severity's table of a type with every wound text replaced. */
  const house = (key: string, text: string) => {
    const raw = source(key);
    for (const r of raw.results) r.description = text;
    return raw;
  };

  it("CR-CRT-01: a world table flagged critical.crit.P.E replaces only that severity; the card links it, the others the compendium's", () => {
    expect(tableLink("critical.crit.P.E")).toEqual({
      uuid: `Compendium.${CRITICAL_TABLE_PACK}.RollTable.${criticalTableId("P", "E")}`,
      name: "Puncture Criticals E",
    });
    g.game = { tables: [world(house("critical.crit.P.E", "House E"), "RollTable.houseE", "House Puncture E")] };
    const p = worldCriticalTables().P!;
    expect(p.key).toBe("critical.crit.P");
    expect(lookupCritical(p, "E", 7, 7).entry.text).toBe("House E");
    expect(lookupCritical(p, "D", 7, 7).entry.text).toBe(lookupCritical(DEFAULT_TABLES.crit.P!, "D", 7, 7).entry.text);
    expect(tableLink("critical.crit.P.E")).toEqual({ uuid: "RollTable.houseE", name: "House Puncture E" });
    expect(tableLink("critical.crit.P.D")?.uuid).toBe(`Compendium.${CRITICAL_TABLE_PACK}.RollTable.${criticalTableId("P", "D")}`);
  });

  it("CR-CRT-01: a world table of a whole type (critical.crit.P, earlier releases' key) still plays, and a severity table is laid over it", () => {
    const whole = structuredClone(CRITICAL_TABLE_SOURCES.P) as Raw;
    for (const r of whole.results) r.description = "Whole house";
    g.game = {
      tables: [world(house("critical.crit.P.E", "House E"), "RollTable.houseE", "House E"), world(whole, "RollTable.houseP", "House P")],
    };
    const p = worldCriticalTables().P!;
    expect(lookupCritical(p, "D", 7, 7).entry.text).toBe("Whole house");
    expect(lookupCritical(p, "E", 7, 7).entry.text).toBe("House E");
    expect(tableLink("critical.crit.P.D")).toEqual({ uuid: "RollTable.houseP", name: "House P" });
    expect(tableLink("critical.crit.P.E")?.uuid).toBe("RollTable.houseE");
  });
});
