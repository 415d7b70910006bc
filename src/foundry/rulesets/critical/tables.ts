/**
 * The tables a Critical world plays with (CR-ATK-03, CR-CRT-01, CR-CRT-02): a GM replaces a
 * built-in critical table by flagging a world RollTable with the same `flags.fray.tableKey`
 * (`critical.crit.S` ...), as the compendium's tables are flagged; the core reads whichever the
 * world provides, and the card links each result to the table it came from.
 */
import {
  CRITICAL_TABLE_SOURCES,
  parseCriticalTable,
  type CriticalTable,
  type CriticalTableSet,
  type CritType,
} from "../../../rules/critical/index.js";

/** The compendium holding the built-in critical tables (system.json `critical-tables`). */
export const CRITICAL_TABLE_PACK = "fray.critical-tables";

/** A world RollTable as this module reads it. */
interface TableDoc {
  uuid?: string;
  name?: string | null;
  getFlag?(scope: string, key: string): unknown;
  toObject?(): unknown;
}

/** The world's RollTables (`game.tables`), none outside a running world. */
function worldTableDocs(): TableDoc[] {
  const tables = (globalThis as { game?: { tables?: Iterable<TableDoc> | null } }).game?.tables;
  if (!tables || typeof (tables as Partial<Iterable<TableDoc>>)[Symbol.iterator] !== "function") return [];
  return Array.from(tables);
}

/** The world RollTable flagged with a table key, when there is one. */
function worldTable(key: string): TableDoc | undefined {
  return worldTableDocs().find((t) => t.getFlag?.("fray", "tableKey") === key);
}

/**
 * The critical tables the world provides in place of the built-in ones (CR-CRT-01, CR-CRT-02):
 * every world RollTable flagged `critical.crit.<type>`, read by the core's parser. A table the
 * parser refuses as a whole is left out (the built-in one plays) and logged; broken rows are left
 * out by the parser itself.
 */
export function worldCriticalTables(): Partial<Record<CritType, CriticalTable>> {
  const out: Partial<Record<CritType, CriticalTable>> = {};
  for (const doc of worldTableDocs()) {
    const key = doc.getFlag?.("fray", "tableKey");
    if (typeof key !== "string" || !key.startsWith("critical.crit.") || typeof doc.toObject !== "function") continue;
    try {
      const { table, problems } = parseCriticalTable(doc.toObject());
      if (problems.length) console.warn(`Fray | ${key}: ${problems.length} row(s) left out`, problems);
      out[table.type] = table;
    } catch (err) {
      console.warn(`Fray | ${key} is not a critical table`, err);
    }
  }
  return out;
}

/** The tables the world's attacks read: the world's own critical tables over the built-in ones. */
export function worldTables(): Partial<CriticalTableSet> | undefined {
  const crit = worldCriticalTables();
  return Object.keys(crit).length ? { crit } : undefined;
}

/**
 * Where a table result came from, for a content link on the card: the world's RollTable of that
 * key, else the compendium's built-in critical table; `undefined` for a table with no RollTable
 * (the attack tables are core data).
 */
export function tableLink(key: string): { uuid: string; name: string } | undefined {
  const own = worldTable(key);
  if (own?.uuid) return { uuid: own.uuid, name: own.name ?? key };
  const m = /^critical\.crit\.([FIKPSU])$/.exec(key);
  if (!m) return undefined;
  const source = CRITICAL_TABLE_SOURCES[m[1] as CritType] as { _id?: string; name?: string } | undefined;
  if (!source?._id) return undefined;
  return { uuid: `Compendium.${CRITICAL_TABLE_PACK}.RollTable.${source._id}`, name: source.name ?? key };
}
