import { FrayError } from "../core/errors.js";
import type { TableLookup } from "../core/ruleset.js";
import {
  ARMOR_TYPES,
  CRIT_TYPES,
  LOCATIONS,
  SEVERITIES,
  STOPS,
  WEAPON_CATEGORIES,
  isRecord,
  type CritType,
  type Location,
  type Severity,
  type Stop,
  type WeaponCategory,
} from "./model.js";

/** A parsed attack-table entry (CR-ATK-02): hits and maybe a critical, e.g. `20AS`, `12`, `-`. */
export interface AttackCode {
  /** The entry as written. */
  code: string;
  hits: number;
  severity?: Severity;
  type?: CritType;
}

/** One row of an attack table: a range of totals and an entry per armor type. */
export interface AttackRow {
  /** Lowest and highest total of the row; `null` for an open end. */
  range: [number | null, number | null];
  results: Record<string, AttackCode>;
}

/** One band of totals of a single armor type's column and its entry (CR-ATK-02). */
export interface AttackBand {
  /** Lowest and highest total of the band; `null` for an open end. */
  range: [number | null, number | null];
  code: AttackCode;
}

/** A weapon class's attack table (CR-ATK-02, CR-ATK-03): totals by row, armor types by column. */
export interface AttackTable {
  /** `critical.attack.<weaponClass>`. */
  key: string;
  weaponClass: string;
  /** Content name, e.g. `Sword`. */
  name: string;
  category: WeaponCategory;
  /** Unmodified rolls up to this fumble (RULES.md). */
  fumble: number;
  armorTypes: string[];
  rows: AttackRow[];
  /**
   * Columns replaced by a table of their own (a world RollTable of one weapon class and armor
   * type, {@link parseAttackColumn}): read instead of `rows` for that armor type.
   */
  columns?: Partial<Record<string, AttackBand[]>>;
}

/** A critical effect as data (CR-CRT-02); the core applies each one. */
export type CriticalEffect =
  | { type: "hits"; value: number }
  | { type: "bleed"; value: number }
  | { type: "burn"; value: number; rounds?: number }
  | { type: "stun"; rounds: number }
  | { type: "noParry"; rounds: number }
  | { type: "penalty"; value: number; rounds?: number }
  | { type: "injury"; location: Location; stops: Stop[] }
  | { type: "unconscious"; rounds?: number }
  | { type: "dying"; rounds: number }
  | { type: "death" };

/** Effect types the core applies. */
export const EFFECT_TYPES = ["hits", "bleed", "burn", "stun", "noParry", "penalty", "injury", "unconscious", "dying", "death"] as const;

/** One result of a critical table: a wound text and its effects (CR-CRT-02, CR-CRT-03). */
export interface CriticalEntry {
  /** The RollTable result's id. */
  id: string;
  /** e.g. `A 01-10`, `C UM66`. */
  name: string;
  severity: Severity;
  range: [number, number];
  /** The UM66 row: only on an unmodified 66 (CR-CRT-03). */
  um66: boolean;
  /** Wound text (content, English). */
  text: string;
  location: Location;
  effects: CriticalEffect[];
}

/** A critical table of one type with severities A-E and the UM66 rows (CR-CRT-01, CR-CRT-02). */
export interface CriticalTable {
  /** `critical.crit.<type>`, or `critical.crit.<type>.<severity>` for a table of one severity. */
  key: string;
  type: CritType;
  /** Set for a table of one severity: every entry is of that severity. */
  severity?: Severity;
  name: string;
  entries: CriticalEntry[];
}

/** Something wrong with a table entry, reported instead of crashing. */
export interface TableProblem {
  table: string;
  /** The entry (row range, result id or name), or `-` for the whole table. */
  entry: string;
  /** The field at fault. */
  field: string;
  /** i18n key, `FRAY.Critical.Problem.*`. */
  problem: string;
  data?: Record<string, string | number>;
}

const CODE = /^(\d+)(?:([A-E])([FIKPSU]))?$/;

/**
 * Parses an attack-table entry: `-` (no effect), `12` (hits only) or `20AS` (hits, severity,
 * type; Krush is `K`, so a C-severity Krush reads `CK`) (CR-ATK-02).
 * @throws FrayError `FRAY.Error.AttackCode` naming the entry.
 */
export function parseAttackCode(code: string): AttackCode {
  const c = code.trim();
  if (c === "-" || c === "") return { code: "-", hits: 0 };
  const m = CODE.exec(c);
  if (!m) throw new FrayError("FRAY.Error.AttackCode", { code }, `Malformed attack result "${code}"`);
  const out: AttackCode = { code: c, hits: Number(m[1]) };
  if (m[2]) {
    out.severity = m[2] as Severity;
    out.type = m[3] as CritType;
  }
  return out;
}

const bound = (v: unknown): number | null | undefined => (v === null ? null : typeof v === "number" && Number.isInteger(v) ? v : undefined);

/**
 * Reads an attack table (the JSON of `src/rules/critical/tables/attack-*.json`, or a GM's own in
 * that shape). Rows or entries of a broken shape are left out and reported as problems; the
 * coverage check ({@link checkAttackTable}) reports gaps and overlaps.
 * @throws FrayError `FRAY.Error.Field` when the table as a whole is unusable (no key, no rows).
 */
export function parseAttackTable(raw: unknown): { table: AttackTable; problems: TableProblem[] } {
  if (!isRecord(raw)) throw new FrayError("FRAY.Error.Field", { field: "table", expected: "an attack table" }, "Not an attack table");
  const key = typeof raw.key === "string" ? raw.key : "";
  const weaponClass = typeof raw.weaponClass === "string" ? raw.weaponClass : "";
  if (!weaponClass || key !== `critical.attack.${weaponClass}`) {
    throw new FrayError(
      "FRAY.Error.Field",
      { field: "table.key", expected: "critical.attack.<weaponClass>" },
      `Attack table key "${key}" does not match its weapon class`,
    );
  }
  if (!Array.isArray(raw.rows) || !Array.isArray(raw.armorTypes)) {
    throw new FrayError(
      "FRAY.Error.Field",
      { field: `${key}.rows`, expected: "rows and armorTypes lists" },
      `Attack table ${key} has no rows`,
    );
  }
  const problems: TableProblem[] = [];
  const report = (entry: string, field: string, problem: string, data?: Record<string, string | number>) =>
    problems.push({ table: key, entry, field, problem, data });
  const armorTypes = raw.armorTypes.filter((a): a is string => typeof a === "string");
  const category = WEAPON_CATEGORIES.includes(raw.category as WeaponCategory) ? (raw.category as WeaponCategory) : "melee";
  if (category !== raw.category) report("-", "category", "FRAY.Critical.Problem.Category", { value: String(raw.category) });
  const fumble = typeof raw.fumble === "number" && Number.isInteger(raw.fumble) && raw.fumble >= 0 && raw.fumble <= 95 ? raw.fumble : 0;
  if (fumble !== raw.fumble) report("-", "fumble", "FRAY.Critical.Problem.Fumble", { value: String(raw.fumble) });
  const rows: AttackRow[] = [];
  raw.rows.forEach((r: unknown, i) => {
    const entry = `rows[${i}]`;
    if (!isRecord(r) || !Array.isArray(r.range) || r.range.length !== 2 || !isRecord(r.results)) {
      report(entry, "range", "FRAY.Critical.Problem.RowShape");
      return;
    }
    const lo = bound(r.range[0]);
    const hi = bound(r.range[1]);
    if (lo === undefined || hi === undefined || (lo !== null && hi !== null && lo > hi)) {
      report(entry, "range", "FRAY.Critical.Problem.Range", { range: JSON.stringify(r.range) });
      return;
    }
    const results: Record<string, AttackCode> = {};
    for (const a of armorTypes) {
      const v = r.results[a];
      try {
        if (typeof v !== "string") throw new Error();
        results[a] = parseAttackCode(v);
      } catch {
        report(`${entry} ${a}`, `results.${a}`, "FRAY.Critical.Problem.Code", { code: String(v) });
      }
    }
    rows.push({ range: [lo, hi], results });
  });
  rows.sort((a, b) => (a.range[0] ?? -Infinity) - (b.range[0] ?? -Infinity));
  return {
    table: { key, weaponClass, name: typeof raw.name === "string" ? raw.name : weaponClass, category, fumble, armorTypes, rows },
    problems,
  };
}

const rangeText = (r: [number | null, number | null]) => `${r[0] ?? "-inf"}..${r[1] ?? "+inf"}`;

/**
 * Checks an attack table's coverage (CR-ATK-02): rows ascend without gaps or overlaps from an
 * open lowest row to an open highest row, so every total maps to exactly one row, and every
 * armor type has an entry in every row.
 * @returns the problems found; empty for a sound table.
 */
export function checkAttackTable(table: AttackTable): TableProblem[] {
  const problems: TableProblem[] = [];
  const report = (entry: string, field: string, problem: string, data?: Record<string, string | number>) =>
    problems.push({ table: table.key, entry, field, problem, data });
  if (!table.rows.length) report("-", "rows", "FRAY.Critical.Problem.Empty");
  const first = table.rows[0];
  const last = table.rows.at(-1);
  if (first && first.range[0] !== null) report(rangeText(first.range), "range", "FRAY.Critical.Problem.OpenLow");
  if (last && last.range[1] !== null) report(rangeText(last.range), "range", "FRAY.Critical.Problem.OpenHigh");
  for (let i = 1; i < table.rows.length; i++) {
    const prev = table.rows[i - 1]!.range[1];
    const lo = table.rows[i]!.range[0];
    const entry = rangeText(table.rows[i]!.range);
    if (prev === null || lo === null || lo <= prev) report(entry, "range", "FRAY.Critical.Problem.Overlap", { after: prev ?? "+inf" });
    else if (lo > prev + 1) report(entry, "range", "FRAY.Critical.Problem.Gap", { from: prev + 1, to: lo - 1 });
  }
  for (const a of ARMOR_TYPES) if (!table.armorTypes.includes(a)) report("-", "armorTypes", "FRAY.Critical.Problem.Column", { column: a });
  for (const row of table.rows) {
    for (const a of table.armorTypes)
      if (!row.results[a]) report(`${rangeText(row.range)} ${a}`, `results.${a}`, "FRAY.Critical.Problem.Missing");
  }
  return problems;
}

/** An attack table column read from a RollTable: one weapon class against one armor type. */
export interface AttackColumn {
  /** `critical.attack.<weaponClass>.<armorType>`. */
  key: string;
  weaponClass: string;
  armorType: string;
  name: string;
  /** Ascending; the lowest band open below, the highest open above. */
  bands: AttackBand[];
}

const ATTACK_COLUMN_KEY = /^critical\.attack\.([a-z][a-z0-9-]*)\.([a-z][a-z0-9-]*)$/;

/**
 * Reads one column of an attack table from a RollTable source (the `critical-attack-tables`
 * compendium's JSON, a world table's `toObject()`) (CR-ATK-02, CR-ATK-03): `flags.fray.tableKey`
 * `critical.attack.<weaponClass>.<armorType>`, and per result a band of totals in `range` and the
 * entry (`20AS`, `12`, `-`) as its `name`. The lowest band reads every total below it and the
 * highest every total above it (RULES.md). Results of a broken shape are left out and reported,
 * as are gaps and overlaps between the bands.
 * @throws FrayError `FRAY.Error.Field` naming `flags.fray.tableKey` when the document is not an
 *   attack table column, or `results` when it has no usable band.
 */
export function parseAttackColumn(raw: unknown): { column: AttackColumn; problems: TableProblem[] } {
  const notTable = () =>
    new FrayError(
      "FRAY.Error.Field",
      { field: "flags.fray.tableKey", expected: "critical.attack.<weaponClass>.<armorType>" },
      "Not an attack table",
    );
  if (!isRecord(raw) || !isRecord(raw.flags) || !isRecord(raw.flags.fray)) throw notTable();
  const key = raw.flags.fray.tableKey;
  const m = typeof key === "string" ? ATTACK_COLUMN_KEY.exec(key) : null;
  if (!m || !Array.isArray(raw.results)) throw notTable();
  const problems: TableProblem[] = [];
  const bands: AttackBand[] = [];
  raw.results.forEach((r: unknown, i) => {
    const entry = isRecord(r) && typeof r._id === "string" ? r._id : `results[${i}]`;
    const report = (field: string, problem: string, data?: Record<string, string | number>) =>
      problems.push({ table: key as string, entry, field, problem, data });
    if (!isRecord(r)) return report("-", "FRAY.Critical.Problem.RowShape");
    const range = r.range;
    if (!Array.isArray(range) || range.length !== 2 || !range.every((v) => Number.isInteger(v)) || range[0] > range[1])
      return report("range", "FRAY.Critical.Problem.Range", { range: JSON.stringify(range) });
    const text = typeof r.name === "string" ? r.name : "";
    try {
      bands.push({ range: [range[0] as number, range[1] as number], code: parseAttackCode(text) });
    } catch {
      report("name", "FRAY.Critical.Problem.Code", { code: text });
    }
  });
  if (!bands.length)
    throw new FrayError(
      "FRAY.Error.Field",
      { field: `${key as string}.results`, expected: "bands of totals" },
      `${key as string} has no bands`,
    );
  bands.sort((a, b) => a.range[0]! - b.range[0]!);
  for (let i = 1; i < bands.length; i++) {
    const prev = bands[i - 1]!.range[1]!;
    const lo = bands[i]!.range[0]!;
    const entry = rangeText(bands[i]!.range);
    if (lo <= prev)
      problems.push({ table: key as string, entry, field: "range", problem: "FRAY.Critical.Problem.Overlap", data: { after: prev } });
    else if (lo > prev + 1)
      problems.push({
        table: key as string,
        entry,
        field: "range",
        problem: "FRAY.Critical.Problem.Gap",
        data: { from: prev + 1, to: lo - 1 },
      });
  }
  bands[0]!.range[0] = null;
  bands.at(-1)!.range[1] = null;
  return {
    column: {
      key: key as string,
      weaponClass: m[1]!,
      armorType: m[2]!,
      name: typeof raw.name === "string" ? raw.name : (key as string),
      bands,
    },
    problems,
  };
}

/** {@link attackColumnBands} by table and armor type, once read. */
const columnBands = new WeakMap<AttackTable, Map<string, readonly AttackBand[]>>();

/**
 * One armor type's column of an attack table as bands (CR-ATK-02): the table's own column when
 * it was replaced, else its rows read in that column. Read once per table and armor type (tables
 * are not changed once parsed) and shared: the list, its bands and their ranges are frozen.
 */
export function attackColumnBands(table: AttackTable, armorType: string): readonly AttackBand[] {
  const own = table.columns?.[armorType];
  if (own) return own;
  let byType = columnBands.get(table);
  if (!byType) columnBands.set(table, (byType = new Map()));
  let bands = byType.get(armorType);
  if (!bands) {
    const read: AttackBand[] = [];
    for (const r of table.rows) {
      const code = r.results[armorType];
      if (code) read.push(Object.freeze({ range: Object.freeze([r.range[0], r.range[1]]) as [number | null, number | null], code }));
    }
    byType.set(armorType, (bands = Object.freeze(read)));
  }
  return bands;
}

/** An attack table with one armor type's column replaced by a column of its own (CR-ATK-03). */
export function withAttackColumn(table: AttackTable, column: AttackColumn): AttackTable {
  return { ...table, columns: { ...table.columns, [column.armorType]: column.bands } };
}

/**
 * Looks a total up on an attack table in the column of an armor type (CR-ATK-02), a replaced
 * column ({@link withAttackColumn}) read in place of the rows.
 * @throws FrayError `FRAY.Error.TableColumn` when the table has no such column,
 *   `FRAY.Error.TableGap` when no row holds the total (a broken table).
 */
export function lookupAttack(table: AttackTable, armorType: string, total: number): { code: AttackCode; lookup: TableLookup } {
  if (!table.armorTypes.includes(armorType)) {
    throw new FrayError("FRAY.Error.TableColumn", { table: table.key, column: armorType }, `${table.key} has no column "${armorType}"`);
  }
  let band: AttackBand | undefined;
  for (const b of attackColumnBands(table, armorType)) {
    const [lo, hi] = b.range;
    if ((lo === null || total >= lo) && (hi === null || total <= hi)) {
      band = b;
      break;
    }
  }
  if (!band) {
    throw new FrayError(
      "FRAY.Error.TableGap",
      { table: table.key, column: armorType, value: total },
      `${table.key} has no entry for ${total} (${armorType})`,
    );
  }
  return {
    code: band.code,
    lookup: { rule: "CR-ATK-02", table: table.key, column: armorType, value: total, range: [...band.range], result: band.code.code },
  };
}

function parseEffect(raw: unknown): CriticalEffect | string {
  if (!isRecord(raw)) return "FRAY.Critical.Problem.EffectShape";
  const posInt = (v: unknown) => typeof v === "number" && Number.isInteger(v) && v > 0;
  const optRounds = (v: unknown) => v === undefined || posInt(v);
  switch (raw.type) {
    case "hits":
    case "bleed":
      return posInt(raw.value) ? { type: raw.type, value: raw.value as number } : "FRAY.Critical.Problem.EffectValue";
    case "burn":
      if (!posInt(raw.value) || !optRounds(raw.rounds)) return "FRAY.Critical.Problem.EffectValue";
      return raw.rounds === undefined
        ? { type: "burn", value: raw.value as number }
        : { type: "burn", value: raw.value as number, rounds: raw.rounds as number };
    case "stun":
    case "noParry":
    case "dying":
      return posInt(raw.rounds) ? { type: raw.type, rounds: raw.rounds as number } : "FRAY.Critical.Problem.EffectValue";
    case "penalty":
      if (typeof raw.value !== "number" || !Number.isInteger(raw.value) || raw.value >= 0 || !optRounds(raw.rounds))
        return "FRAY.Critical.Problem.EffectValue";
      return raw.rounds === undefined
        ? { type: "penalty", value: raw.value }
        : { type: "penalty", value: raw.value, rounds: raw.rounds as number };
    case "injury": {
      const stops = raw.stops;
      if (!LOCATIONS.includes(raw.location as Location)) return "FRAY.Critical.Problem.EffectLocation";
      if (!Array.isArray(stops) || !stops.length || stops.some((s) => !STOPS.includes(s as Stop)))
        return "FRAY.Critical.Problem.EffectStops";
      return { type: "injury", location: raw.location as Location, stops: [...new Set(stops as Stop[])] };
    }
    case "unconscious":
      if (!optRounds(raw.rounds)) return "FRAY.Critical.Problem.EffectValue";
      return raw.rounds === undefined ? { type: "unconscious" } : { type: "unconscious", rounds: raw.rounds as number };
    case "death":
      return { type: "death" };
    default:
      return "FRAY.Critical.Problem.EffectType";
  }
}

/**
 * Reads a critical table from a RollTable source (a compendium JSON source, a world table's
 * `toObject()`): `flags.fray.tableKey` `critical.crit.<type>` (all severities) or
 * `critical.crit.<type>.<severity>` (one severity, the compendium's shape), and per result
 * `range`, `description` (the wound text), `flags.fray.severity` (the table's own when absent),
 * `flags.fray.um66`, `flags.fray.location` and `flags.fray.effects`. The UM66 row's range is
 * 66-66 or lies outside 1-100 so that a draw never picks it (CR-CRT-03); it reads as 66-66. Results of a broken or old shape are left out
 * and reported as problems; {@link checkCriticalTable} reports gaps and overlaps.
 * @throws FrayError `FRAY.Error.Field` when the document is not a critical table at all.
 */
export function parseCriticalTable(raw: unknown): { table: CriticalTable; problems: TableProblem[] } {
  const notTable = () =>
    new FrayError(
      "FRAY.Error.Field",
      { field: "flags.fray.tableKey", expected: "critical.crit.<F|I|K|P|S|U>[.<A-E>]" },
      "Not a critical table",
    );
  if (!isRecord(raw) || !isRecord(raw.flags) || !isRecord(raw.flags.fray)) throw notTable();
  const key = raw.flags.fray.tableKey;
  const m = typeof key === "string" ? /^critical\.crit\.([FIKPSU])(?:\.([A-E]))?$/.exec(key) : null;
  if (!m || !Array.isArray(raw.results)) throw notTable();
  const type = m[1] as CritType;
  const tableSeverity = m[2] as Severity | undefined;
  const problems: TableProblem[] = [];
  const entries: CriticalEntry[] = [];
  raw.results.forEach((r: unknown, i) => {
    const entry = isRecord(r) && typeof r._id === "string" ? r._id : `results[${i}]`;
    const report = (field: string, problem: string, data?: Record<string, string | number>) =>
      problems.push({ table: key as string, entry, field, problem, data });
    if (!isRecord(r)) return report("-", "FRAY.Critical.Problem.RowShape");
    const fray = isRecord(r.flags) && isRecord(r.flags.fray) ? r.flags.fray : undefined;
    if (!fray) return report("flags.fray", "FRAY.Critical.Problem.NoFlags");
    const um66 = fray.um66 === true;
    const range = r.range;
    if (!Array.isArray(range) || range.length !== 2 || !range.every((v) => Number.isInteger(v)) || range[0] > range[1]) {
      return report("range", "FRAY.Critical.Problem.Range", { range: JSON.stringify(range) });
    }
    // The UM66 row is 66-66 or lies outside the d100 (where a draw never picks it); the others lie within.
    const inside = range[0] >= 1 && range[1] <= 100;
    if (um66 && inside && (range[0] !== 66 || range[1] !== 66))
      return report("range", "FRAY.Critical.Problem.Um66Range", { range: JSON.stringify(range) });
    if (!um66 && !inside) return report("range", "FRAY.Critical.Problem.Range", { range: JSON.stringify(range) });
    const severity = fray.severity ?? tableSeverity;
    if (!SEVERITIES.includes(severity as Severity) || (tableSeverity && severity !== tableSeverity))
      return report("flags.fray.severity", "FRAY.Critical.Problem.Severity", { value: String(severity) });
    const location = fray.location === undefined ? "general" : fray.location;
    if (!LOCATIONS.includes(location as Location))
      return report("flags.fray.location", "FRAY.Critical.Problem.EffectLocation", { value: String(location) });
    if (!Array.isArray(fray.effects)) return report("flags.fray.effects", "FRAY.Critical.Problem.EffectShape");
    const effects: CriticalEffect[] = [];
    for (const [j, e] of fray.effects.entries()) {
      const parsed = parseEffect(e);
      if (typeof parsed === "string") return report(`flags.fray.effects[${j}]`, parsed, { value: JSON.stringify(e) });
      effects.push(parsed);
    }
    entries.push({
      id: entry,
      name: typeof r.name === "string" ? r.name : entry,
      severity: severity as Severity,
      range: um66 ? [66, 66] : [range[0] as number, range[1] as number],
      um66,
      text: typeof r.description === "string" ? r.description : typeof r.text === "string" ? r.text : "",
      location: location as Location,
      effects,
    });
  });
  const name = typeof raw.name === "string" ? raw.name : (key as string);
  return { table: { key: key as string, type, ...(tableSeverity ? { severity: tableSeverity } : {}), name, entries }, problems };
}

/**
 * A critical table with one severity's entries replaced by a table of that severity
 * (`critical.crit.<type>.<severity>`, CR-CRT-01, CR-CRT-02); the key and name stay the type's.
 * @throws FrayError `FRAY.Error.Field` naming `flags.fray.tableKey` when the part is not a table
 *   of one severity of the same type.
 */
export function withCriticalSeverity(table: CriticalTable, part: CriticalTable): CriticalTable {
  const sev = part.severity;
  if (!sev || part.type !== table.type) {
    throw new FrayError(
      "FRAY.Error.Field",
      { field: "flags.fray.tableKey", expected: `critical.crit.${table.type}.<A-E>` },
      `${part.key} is not a severity of ${table.key}`,
    );
  }
  return { ...table, entries: [...table.entries.filter((e) => e.severity !== sev), ...part.entries] };
}

/**
 * Checks a critical table (CR-CRT-02, CR-CRT-03): for each severity A-E the rows cover 1-100
 * exactly once, and there is exactly one UM66 row.
 * @returns the problems found; empty for a sound table.
 */
export function checkCriticalTable(table: CriticalTable): TableProblem[] {
  const problems: TableProblem[] = [];
  for (const sev of SEVERITIES) {
    const rows = table.entries.filter((e) => e.severity === sev && !e.um66);
    const count = new Array<number>(101).fill(0);
    for (const r of rows) for (let v = r.range[0]; v <= r.range[1]; v++) count[v]!++;
    for (let v = 1; v <= 100; v++) {
      if (count[v] === 0)
        problems.push({ table: table.key, entry: sev, field: "range", problem: "FRAY.Critical.Problem.Gap", data: { from: v, to: v } });
      if (count[v]! > 1)
        problems.push({ table: table.key, entry: sev, field: "range", problem: "FRAY.Critical.Problem.Overlap", data: { after: v } });
    }
    const um = table.entries.filter((e) => e.severity === sev && e.um66).length;
    if (um !== 1)
      problems.push({
        table: table.key,
        entry: sev,
        field: "flags.fray.um66",
        problem: "FRAY.Critical.Problem.Um66Count",
        data: { count: um },
      });
  }
  return problems;
}

/**
 * Finds the critical result for a roll (CR-CRT-02, CR-CRT-03, CR-ATK-04): the UM66 row of the
 * severity when the unmodified roll is 66, else the row holding the modified roll; rolls above
 * 100 read the 100 row, below 1 the 1 row (RULES.md).
 * @throws FrayError `FRAY.Error.TableGap` when the table has no row for the roll.
 */
export function lookupCritical(
  table: CriticalTable,
  severity: Severity,
  value: number,
  unmodified: number,
): { entry: CriticalEntry; lookup: TableLookup } {
  const um = unmodified === 66 ? table.entries.find((e) => e.severity === severity && e.um66) : undefined;
  const read = Math.min(100, Math.max(1, value));
  const entry = um ?? table.entries.find((e) => e.severity === severity && !e.um66 && read >= e.range[0] && read <= e.range[1]);
  if (!entry) {
    throw new FrayError(
      "FRAY.Error.TableGap",
      { table: table.key, column: severity, value },
      `${table.key} has no ${severity} entry for ${value}`,
    );
  }
  return {
    entry,
    lookup: {
      rule: um ? "CR-CRT-03" : "CR-CRT-02",
      table: table.key,
      column: severity,
      value,
      range: [...entry.range],
      result: entry.text,
    },
  };
}

/** True when the letter is a critical type (CR-CRT-01). */
export function isCritType(v: string): v is CritType {
  return (CRIT_TYPES as readonly string[]).includes(v);
}
