/**
 * The tables Critical ships with: the attack tables of the eight weapon classes and the six
 * critical tables (one per type, all five severities, in the RollTable shape
 * {@link parseCriticalTable} reads). scripts/critical-tables.ts writes the compendiums from these
 * (`critical-attack-tables`: one RollTable per weapon class and armor type; `critical-tables`:
 * one per critical type and severity). A GM's own tables replace these through
 * {@link CriticalTableSet} overrides in the attack input.
 */
import club from "./attack-club.json";
import dagger from "./attack-dagger.json";
import energy from "./attack-energy.json";
import pistol from "./attack-pistol.json";
import rifle from "./attack-rifle.json";
import shotgun from "./attack-shotgun.json";
import sword from "./attack-sword.json";
import unarmed from "./attack-unarmed.json";
import fire from "./critical-fire.json";
import impact from "./critical-impact.json";
import krush from "./critical-krush.json";
import puncture from "./critical-puncture.json";
import slash from "./critical-slash.json";
import unbalance from "./critical-unbalance.json";
import type { CritType } from "../model.js";
import { parseAttackTable, parseCriticalTable, type AttackTable, type CriticalTable, type TableProblem } from "../tables.js";

/** Attack tables by weapon class and critical tables by type. */
export interface CriticalTableSet {
  attack: Record<string, AttackTable>;
  crit: Partial<Record<CritType, CriticalTable>>;
}

/** The raw JSON of the built-in attack tables, by weapon class (CR-ATK-03). */
export const ATTACK_TABLE_SOURCES: Record<string, unknown> = { dagger, sword, club, unarmed, pistol, rifle, shotgun, energy };

/** The raw RollTable sources of the built-in critical tables, by type (CR-CRT-01). */
export const CRITICAL_TABLE_SOURCES: Record<CritType, unknown> = { F: fire, I: impact, K: krush, P: puncture, S: slash, U: unbalance };

const problems: TableProblem[] = [];
const attack: Record<string, AttackTable> = {};
for (const [cls, raw] of Object.entries(ATTACK_TABLE_SOURCES)) {
  const parsed = parseAttackTable(raw);
  attack[cls] = parsed.table;
  problems.push(...parsed.problems);
}
const crit: Partial<Record<CritType, CriticalTable>> = {};
for (const [type, raw] of Object.entries(CRITICAL_TABLE_SOURCES) as [CritType, unknown][]) {
  const parsed = parseCriticalTable(raw);
  crit[type] = parsed.table;
  problems.push(...parsed.problems);
}

/** The built-in tables, parsed. */
export const DEFAULT_TABLES: CriticalTableSet = { attack, crit };

/** Problems found while reading the built-in tables (none in a sound release; the tests check). */
export const DEFAULT_TABLE_PROBLEMS: readonly TableProblem[] = problems;

/** The built-in tables with a GM's replacements laid over them. */
export function tableSet(overrides?: Partial<CriticalTableSet>): CriticalTableSet {
  if (!overrides) return DEFAULT_TABLES;
  return { attack: { ...DEFAULT_TABLES.attack, ...overrides.attack }, crit: { ...DEFAULT_TABLES.crit, ...overrides.crit } };
}

/**
 * The language key of a built-in critical result (CR-CRT-01, CR-CRT-02) from its RollTable result
 * id, `fRc3<type><severity><01-08|UM>Res…`: `FRAY.Critical.Wound.S.A01`, `FRAY.Critical.Wound.S.AUM`.
 * @returns undefined for an id of another shape (a GM's own result).
 */
export function woundKeyOfId(id: string): string | undefined {
  const m = /^fRc3([FIKPSU])([A-E](?:0[1-9]|UM))Res/.exec(id);
  return m ? `FRAY.Critical.Wound.${m[1]}.${m[2]}` : undefined;
}

/** Built-in English wound text to its language key; the texts of the six tables are unique (the tests check). */
const WOUND_KEYS = new Map<string, string>();
for (const table of Object.values(crit)) {
  for (const e of table.entries) {
    const key = woundKeyOfId(e.id);
    if (key) WOUND_KEYS.set(e.text, key);
  }
}

/**
 * The language key of a wound text when it is a built-in table's own text (CR-CRT-02): the card,
 * the sheet and the log show that key in the reader's language. A text a GM wrote in a world
 * table (any other text) has no key and is shown as written. Works on stored cards and actors
 * alike, since it reads only the text.
 * @param text the wound text as stored (`CriticalEntry.text`, an injury's label).
 * @returns `FRAY.Critical.Wound.<type>.<severity><row>`, or undefined.
 */
export function woundTextKey(text: string): string | undefined {
  return WOUND_KEYS.get(text);
}
