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
