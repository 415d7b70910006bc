/**
 * The tables a Critical world plays with (CR-ATK-02, CR-ATK-03, CR-CRT-01, CR-CRT-02): a GM
 * replaces a built-in attack table (one weapon class against one armor type,
 * `critical.attack.sword.plate` ...) or critical table (`critical.crit.S` ...) by flagging a world
 * RollTable with the same `flags.fray.tableKey`, as the compendium's tables are flagged; the core
 * reads whichever the world provides, and the card links each result to the table it came from.
 */
import {
  DEFAULT_TABLES,
  parseAttackColumn,
  parseCriticalTable,
  withAttackColumn,
  withCriticalSeverity,
  type AttackTable,
  type CriticalTable,
  type CriticalTableSet,
  type CritType,
} from "../../../rules/critical/index.js";
import type { Severity } from "../../../rules/critical/model.js";

/** The compendium holding the built-in critical tables (system.json `critical-tables`). */
export const CRITICAL_TABLE_PACK = "fray.critical-tables";

/** The compendium holding the built-in attack tables (system.json `critical-attack-tables`). */
export const ATTACK_TABLE_PACK = "fray.critical-attack-tables";

/**
 * The compendium document id of the attack table of a weapon class against an armor type
 * (CR-ATK-03): `fRc4A`, the first three letters of each, padded with `0` to 16 characters
 * (scripts/critical-tables.ts writes the pack with these ids).
 */
export function attackTableId(weaponClass: string, armorType: string): string {
  return `fRc4A${weaponClass.slice(0, 3)}${armorType.slice(0, 3)}`.padEnd(16, "0");
}

/**
 * The compendium document id of the critical table of a type and severity (CR-CRT-01):
 * `fRc3CritTable`, the type and the severity letters, `0` (scripts/critical-tables.ts writes the
 * pack with these ids).
 */
export function criticalTableId(type: CritType, severity: Severity): string {
  return `fRc3CritTable${type}${severity}0`;
}

/** Armor types as the compendium's attack tables name them (content, English). */
const ARMOR_NAMES: Record<string, string> = {
  none: "No Armor",
  soft: "Soft Armor",
  rigid: "Rigid Armor",
  mesh: "Mesh Armor",
  ballistic: "Ballistic Armor",
  plate: "Plate Armor",
};

/** The compendium name of an attack table against an armor type, e.g. `Sword vs. Plate Armor` (CR-ATK-03). */
export function attackTableName(table: Pick<AttackTable, "name">, armorType: string): string {
  return `${table.name} vs. ${ARMOR_NAMES[armorType] ?? armorType}`;
}

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
 * every world RollTable flagged `critical.crit.<type>` (all five severities, the shape of earlier
 * releases) replaces that type's table; then every one flagged `critical.crit.<type>.<severity>`
 * (the compendium's shape) replaces that severity's entries of the type's table, the world's or
 * the built-in one. Tables are read by the core's parser; one it refuses as a whole is left out
 * (the built-in one plays) and logged; broken rows are left out by the parser itself.
 */
export function worldCriticalTables(): Partial<Record<CritType, CriticalTable>> {
  const out: Partial<Record<CritType, CriticalTable>> = {};
  const parts: CriticalTable[] = [];
  for (const doc of worldTableDocs()) {
    const key = doc.getFlag?.("fray", "tableKey");
    if (typeof key !== "string" || !key.startsWith("critical.crit.") || typeof doc.toObject !== "function") continue;
    try {
      const { table, problems } = parseCriticalTable(doc.toObject());
      if (problems.length) console.warn(`Fray | ${key}: ${problems.length} row(s) left out`, problems);
      if (table.severity) parts.push(table);
      else out[table.type] = table;
    } catch (err) {
      console.warn(`Fray | ${key} is not a critical table`, err);
    }
  }
  for (const part of parts) {
    const base = out[part.type] ?? DEFAULT_TABLES.crit[part.type];
    if (base) out[part.type] = withCriticalSeverity(base, part);
  }
  return out;
}

/**
 * The attack tables the world changes (CR-ATK-02, CR-ATK-03): for every world RollTable flagged
 * `critical.attack.<weaponClass>.<armorType>` of a weapon class and armor type the core knows, the
 * built-in table of that class with that column replaced by the world table's bands. A table the
 * parser refuses as a whole is left out (the built-in column plays) and logged; broken rows are
 * left out by the parser itself.
 */
export function worldAttackTables(): Record<string, AttackTable> {
  const out: Record<string, AttackTable> = {};
  for (const doc of worldTableDocs()) {
    const key = doc.getFlag?.("fray", "tableKey");
    if (typeof key !== "string" || !key.startsWith("critical.attack.") || typeof doc.toObject !== "function") continue;
    try {
      const { column, problems } = parseAttackColumn(doc.toObject());
      const base = out[column.weaponClass] ?? DEFAULT_TABLES.attack[column.weaponClass];
      if (!base || !base.armorTypes.includes(column.armorType)) {
        console.warn(`Fray | ${key}: no built-in attack table ${column.weaponClass} with a column ${column.armorType}`);
        continue;
      }
      if (problems.length) console.warn(`Fray | ${key}: ${problems.length} row(s) with problems`, problems);
      out[column.weaponClass] = withAttackColumn(base, column);
    } catch (err) {
      console.warn(`Fray | ${key} is not an attack table`, err);
    }
  }
  return out;
}

/**
 * The tables the world's attacks read: the world's own attack and critical tables over the
 * built-in ones; `undefined` when the world changes none.
 */
export function worldTables(): Partial<CriticalTableSet> | undefined {
  const crit = worldCriticalTables();
  const attack = worldAttackTables();
  if (!Object.keys(crit).length && !Object.keys(attack).length) return undefined;
  return { ...(Object.keys(attack).length ? { attack } : {}), ...(Object.keys(crit).length ? { crit } : {}) };
}

/**
 * Where a table result came from, for a content link on the card (CR-ATK-03, CR-CRT-01): the
 * world's RollTable of that key, else the compendium's built-in table of it: an attack table
 * `critical.attack.<weaponClass>.<armorType>` of a class and armor type the core knows, or a
 * critical table `critical.crit.<type>.<severity>` (for which a world table of the whole type,
 * `critical.crit.<type>`, comes before the compendium); `undefined` for any other key.
 */
export function tableLink(key: string): { uuid: string; name: string } | undefined {
  const own = worldTable(key);
  if (own?.uuid) return { uuid: own.uuid, name: own.name ?? key };
  const atk = /^critical\.attack\.([a-z0-9-]+)\.([a-z0-9-]+)$/.exec(key);
  if (atk) {
    const table = DEFAULT_TABLES.attack[atk[1]!];
    if (!table?.armorTypes.includes(atk[2]!)) return undefined;
    return { uuid: `Compendium.${ATTACK_TABLE_PACK}.RollTable.${attackTableId(atk[1]!, atk[2]!)}`, name: attackTableName(table, atk[2]!) };
  }
  const m = /^critical\.crit\.([FIKPSU])\.([A-E])$/.exec(key);
  if (!m) return undefined;
  const whole = worldTable(`critical.crit.${m[1]}`);
  if (whole?.uuid) return { uuid: whole.uuid, name: whole.name ?? key };
  const type = m[1] as CritType;
  const severity = m[2] as Severity;
  const name = DEFAULT_TABLES.crit[type]?.name ?? key;
  return { uuid: `Compendium.${CRITICAL_TABLE_PACK}.RollTable.${criticalTableId(type, severity)}`, name: `${name} ${severity}` };
}
