/**
 * Critical's quiet attack step (`../core/quiet.ts`): the attack of `planAttack`, `resolveAttack`,
 * `rollDamage`, `applyDamage` and `withVitals` with totals only, for a forecast. The same rules,
 * in the same order, drawing the same faces: the open-ended d100 (96-100 roll again and add, the
 * first die the unmodified roll) with OB, the OB moved to parry, wound penalties and the GM's
 * modifier, against DB with armor, the target's parry and cover (CR-ATK-01, CR-PAR-01 to
 * CR-PAR-03, CR-CRT-02); a fumble on a low unmodified roll; else the total read on the weapon's
 * attack table in the target's armor column (CR-ATK-02, CR-ATK-03); on a critical the d100 on
 * the critical table with 1 per full 10 over 150 and the UM66 row (CR-ATK-04, CR-CRT-02,
 * CR-CRT-03); then the hits and each effect at once (CR-AP-02, CR-HIT-01, CR-BLD-01, CR-STN-02,
 * CR-STN-03, CR-DTH-01) and the Self Discipline test it forces at 0 hits (CR-HIT-02).
 * `test/rules/quiet-critical.test.ts` checks it against the detailed step.
 */
import type { LifecycleEvent, RoundState } from "../core/contract.js";
import { MAX_EXPLOSIONS, type FaceSource } from "../core/dice/formula.js";
import type { Economy } from "../core/economy.js";
import { FrayError } from "../core/errors.js";
import { holds } from "../core/lists.js";
import type { QuietAttack } from "../core/quiet.js";
import type { RulesetOptions } from "../core/ruleset.js";
import type { ForcedCheck, VitalState } from "../core/types.js";
import { attackTableOf, checkCanAttack, criticalBonus, fumbleRange, weaponOf, type CriticalAttackInput } from "./attack.js";
import { apFor, recomputeEconomy, withAp } from "./actions.js";
import { applyEffect } from "./damage.js";
import {
  OUT_CONDITIONS,
  PARRY_RATES,
  UNTRAINED_OB,
  armorTypeOf,
  isIncapacitated,
  restate,
  type CritType,
  type CriticalCombatant,
  type CriticalWeapon,
  type Severity,
} from "./model.js";
import { criticalOptions, type CriticalOptions } from "./options.js";
import { checkParry, parriedOb, parryBlocked } from "./parry.js";
import {
  attackColumnBands,
  lookupAttack,
  lookupCritical,
  type AttackBand,
  type AttackCode,
  type AttackTable,
  type CriticalEntry,
  type CriticalTable,
} from "./tables.js";
import { tableSet } from "./tables/index.js";

/** A Critical attack played quietly: the outcome, with the roll, the table entry and the critical. */
export interface CriticalQuietAttack extends QuietAttack<CriticalCombatant> {
  attackerId: string;
  targetId: string;
  /** The open-ended d100 as rolled, re-rolls added (CR-ATK-01). */
  roll: number;
  /** Its first die (CR-ATK-01). */
  unmodified: number;
  /** The roll went open-ended. */
  openEnded: boolean;
  /** The unmodified roll fell in the weapon's fumble range: the attacker's round ends (CR-ATK-01). */
  fumble: boolean;
  /** The value looked up on the attack table: roll + OB - DB (CR-ATK-01, CR-ATK-02). */
  total: number;
  /** The attack table entry; absent on a fumble (CR-ATK-02). */
  code?: AttackCode;
  /** The attack table's hits (CR-ATK-02); 0 on a fumble. */
  hits: number;
  /** The critical rolled, when the entry has one (CR-CRT-02, CR-CRT-03, CR-ATK-04). */
  critical?: { type: CritType; severity: Severity; unmodified: number; bonus: number; value: number; um66: boolean; entry: CriticalEntry };
}

/** Option values by the options object they were read from: read once per fight, not per attack. */
const optionsRead = new WeakMap<RulesetOptions, CriticalOptions>();
function read(options: RulesetOptions): CriticalOptions {
  let o = optionsRead.get(options);
  if (!o) optionsRead.set(options, (o = criticalOptions(options)));
  return o;
}

/**
 * One armor type's column of an attack table, read by index: `codes[total - from]` is the
 * entry of each total from the lowest to the highest bound any band names (`from` to `to`). Every
 * total below `from` falls in the same bands, those open below, and so has one entry, `below`;
 * every total above `to` likewise has `above`. A column too wide to index goes through its bands
 * (`attackColumnBands`) between `from` and `to`.
 */
interface AttackColumnIndex {
  bands: readonly AttackBand[];
  from: number;
  to: number;
  codes: (AttackCode | undefined)[];
  below: AttackCode | undefined;
  above: AttackCode | undefined;
}

/** The most totals an attack column is indexed for. */
const MAX_INDEXED = 4096;

/** The first band that holds `total`, as `lookupAttack` finds it. */
function bandCode(bands: readonly AttackBand[], total: number): AttackCode | undefined {
  for (let i = 0; i < bands.length; i++) {
    const b = bands[i]!;
    const lo = b.range[0];
    const hi = b.range[1];
    if ((lo === null || total >= lo) && (hi === null || total <= hi)) return b.code;
  }
  return undefined;
}

/** Each attack table's columns, indexed once per table and armor type; null for a column the table lacks. */
const columnsRead = new WeakMap<AttackTable, Map<string, AttackColumnIndex | null>>();
function columnOf(table: AttackTable, armorType: string): AttackColumnIndex | null {
  let byType = columnsRead.get(table);
  if (!byType) columnsRead.set(table, (byType = new Map()));
  let column = byType.get(armorType);
  if (column === undefined) {
    column = null;
    if (table.armorTypes.includes(armorType)) {
      const bands = attackColumnBands(table, armorType);
      let from = Infinity;
      let to = -Infinity;
      for (const b of bands)
        for (const bound of b.range)
          if (bound !== null) {
            from = Math.min(from, bound);
            to = Math.max(to, bound);
          }
      const codes: (AttackCode | undefined)[] = [];
      // (A column whose bounds lie further apart than any table's totals is read through its bands.)
      if (from <= to && to - from <= MAX_INDEXED) for (let total = from; total <= to; total++) codes.push(bandCode(bands, total));
      // (No bound at all: every band is open at both ends, and `below` holds for every total.)
      column = { bands, from, to, codes, below: bandCode(bands, from - 1), above: bandCode(bands, to + 1) };
    }
    byType.set(armorType, column);
  }
  return column;
}

/** `lookupAttack`'s entry for a total, without its lookup record; its errors through `lookupAttack` itself. */
function entryFor(table: AttackTable, armorType: string, total: number): AttackCode {
  const column = columnOf(table, armorType);
  if (column) {
    const i = total - column.from;
    // Read by index, not through the bands: the bands are frozen, and V8's optimizing compiler
    // reads a frozen list's items through a generic lookup.
    const code =
      i < 0 ? column.below : i < column.codes.length ? column.codes[i] : total > column.to ? column.above : bandCode(column.bands, total);
    if (code) return code;
  }
  return lookupAttack(table, armorType, total).code;
}

/** A critical table's rows of one severity by the value read (1 to 100), and its UM66 row. */
interface SeverityRows {
  byValue: (CriticalEntry | undefined)[];
  um66?: CriticalEntry;
}

/** Each critical table's rows by severity, indexed once per table. */
const rowsRead = new WeakMap<CriticalTable, Map<Severity, SeverityRows>>();
function rowsOf(table: CriticalTable, severity: Severity): SeverityRows {
  let bySeverity = rowsRead.get(table);
  if (!bySeverity) rowsRead.set(table, (bySeverity = new Map()));
  let rows = bySeverity.get(severity);
  if (!rows) {
    rows = { byValue: new Array<CriticalEntry | undefined>(101).fill(undefined) };
    // The first row that holds a value wins, as `lookupCritical` finds it.
    for (const e of table.entries) {
      if (e.severity !== severity) continue;
      if (e.um66) {
        rows.um66 ??= e;
        continue;
      }
      for (let v = Math.max(1, e.range[0]); v <= Math.min(100, e.range[1]); v++) rows.byValue[v] ??= e;
    }
    bySeverity.set(severity, rows);
  }
  return rows;
}

/**
 * `lookupCritical`'s entry (CR-CRT-02, CR-CRT-03): the UM66 row on an unmodified 66, else the
 * row of the value read (kept to 1 to 100), without its lookup record; a gap through
 * `lookupCritical` itself, which throws `FRAY.Error.TableGap`.
 */
function criticalEntryFor(table: CriticalTable, severity: Severity, value: number, unmodified: number): CriticalEntry {
  const rows = rowsOf(table, severity);
  const entry = (unmodified === 66 ? rows.um66 : undefined) ?? rows.byValue[Math.min(100, Math.max(1, value))];
  return entry ?? lookupCritical(table, severity, value, unmodified).entry;
}

/** The Self Discipline test `applyDamage` asks for at 0 hits or below (CR-HIT-02). */
const SELF_DISCIPLINE: ForcedCheck = { id: "selfDiscipline", label: "FRAY.Check.SelfDiscipline", rule: "CR-HIT-02", difficulty: 101 };

/** `sumModifiers` of `planAttack`'s attack lines (CR-ATK-01, CR-PAR-01, CR-CRT-02): the OB, less the OB moved to parry, the wound penalties, the GM's modifier. */
function attackBonus(input: CriticalAttackInput, weapon: CriticalWeapon): number {
  const { attacker } = input;
  // `offensiveBonus`: the skill's OB (untrained -25) and the weapon's bonus.
  let sum = (Object.hasOwn(attacker.skills, weapon.skill) ? attacker.skills[weapon.skill]! : UNTRAINED_OB) + weapon.bonus;
  sum -= parriedOb(attacker);
  const effects = attacker.effects;
  for (let i = 0; i < effects.length; i++) if (effects[i]!.kind === "penalty") sum += effects[i]!.value ?? 0;
  return sum + (input.situation?.modifier ?? 0);
}

/** The difficulty's total of `planAttack` (`defenseLines`): DB, armor, parry against this attacker, cover (CR-ATK-01, CR-PAR-02, CR-PAR-03). */
function defenseTotal(input: CriticalAttackInput, weapon: CriticalWeapon): number {
  const { target, attacker } = input;
  const s = input.situation ?? {};
  let total = 0;
  if (!isIncapacitated(target)) {
    total += target.defense;
    const armor = target.armor;
    for (let i = 0; i < armor.length; i++) if (armor[i]!.defense) total += armor[i]!.defense;
    // `parryLine`'s value: the OB moved against this attacker over the category's rate, when seen and able to parry.
    const points = target.parry[attacker.id] ?? 0;
    if (points > 0 && !s.unseen && !parryBlocked(target)) total += Math.floor(points / PARRY_RATES[weapon.category]);
  }
  return total + (s.cover ?? 0);
}

/**
 * Plays a Critical attack quietly (see `../core/quiet.ts`): the outcome of `planAttack`,
 * `resolveAttack`, `rollDamage` and `applyDamage` with the same faces (the open-ended d100, then
 * the critical's d100 when the entry has one). Critical declares no reaction that rolls (its
 * parry is moved OB, already on the combatants): `reacted` is always false.
 * @param base the combatant the damage applies to; the input's target by default.
 * @throws FrayError as `planAttack`, `resolveAttack` and `rollDamage`: `FRAY.Error.CannotAct`,
 *   `FRAY.Error.CannotAttack`, `FRAY.Error.NoWeapon`, `FRAY.Error.NoAttackTable`,
 *   `FRAY.Critical.Parry.TooMuch`, `FRAY.Error.TableColumn`, `FRAY.Error.TableGap`,
 *   `FRAY.Error.NoCriticalTable`.
 */
export function quietAttack(
  input: CriticalAttackInput,
  next: FaceSource,
  options: RulesetOptions,
  _economy?: Economy,
  base?: CriticalCombatant,
): CriticalQuietAttack {
  const o = read(options);
  const { attacker, target } = input;
  // `planAttack`'s checks, in its order.
  checkCanAttack(attacker);
  const weapon = weaponOf(input);
  const tables = tableSet(input.tables);
  const table = attackTableOf(weapon, tables);
  checkParry(attacker);
  checkParry(target);
  const offset = attackBonus(input, weapon) - defenseTotal(input, weapon);
  // `resolveAttack`: the open-ended d100 as the compiled `1d100x>95` rolls it.
  const armorType = armorTypeOf(target);
  let face = next(100);
  const unmodified = face;
  let roll = face;
  let rerolls = 0;
  while (rerolls < MAX_EXPLOSIONS && face > 95) {
    face = next(100);
    roll += face;
    rerolls++;
  }
  const total = roll + offset;
  const fumble = o.fumbles && unmodified <= fumbleRange(weapon, table);
  // Every field in place from the start, in the order of `QuietAttack` then Critical's own.
  const out: CriticalQuietAttack = {
    weaponId: weapon.id,
    modeId: undefined,
    hit: false,
    reacted: false,
    reactionCost: undefined,
    reactionSuccess: undefined,
    lands: false,
    location: undefined,
    damage: 0,
    target: undefined,
    forced: undefined,
    attackerId: attacker.id,
    targetId: target.id,
    roll,
    unmodified,
    openEnded: rerolls > 0,
    fumble,
    total,
    code: undefined,
    hits: 0,
    critical: undefined,
  };
  if (fumble) return out;
  const code = entryFor(table, armorType, total);
  out.code = code;
  out.hits = code.hits;
  out.hit = out.lands = code.hits > 0 || code.severity !== undefined;
  if (!out.lands) return out;
  // `rollDamage`: the critical, when the entry has one; `applyDamage`: the hits first, then each
  // effect of the critical; `withVitals`. The lists the damage leaves as they were are kept.
  const c = base ?? target;
  let amount = code.hits;
  let hits: number;
  let stun = c.stun;
  let conditions = c.conditions;
  let effects = c.effects;
  if (code.severity && code.type) {
    const critTable = tables.crit[code.type];
    if (!critTable)
      throw new FrayError(
        "FRAY.Error.NoCriticalTable",
        { table: `critical.crit.${code.type}` },
        `No critical table critical.crit.${code.type}`,
      );
    const d100 = next(100);
    const bonus = criticalBonus(total);
    const value = d100 + bonus;
    const entry = criticalEntryFor(critTable, code.severity, value, d100);
    let lasting = false;
    const entryEffects = entry.effects;
    for (let i = 0; i < entryEffects.length; i++) {
      const e = entryEffects[i]!;
      if (e.type === "hits") amount += e.value;
      else lasting = true;
    }
    out.critical = { type: code.type, severity: code.severity, unmodified: d100, bonus, value, um66: entry.um66, entry };
    hits = c.hits.value - Math.max(0, amount);
    if (lasting) {
      const v: VitalState = { hp: { value: hits, max: c.hits.max }, bleeding: 0, stun, conditions: [...conditions], effects: [...effects] };
      const added: string[] = [];
      const where = { location: entry.location, text: entry.text, ranks: c.physique.ranks };
      for (const e of entry.effects) applyEffect(v, e, where, added);
      hits = v.hp!.value;
      stun = v.stun ?? 0;
      conditions = v.conditions;
      effects = v.effects!;
    }
  } else hits = c.hits.value - Math.max(0, amount);
  out.damage = amount;
  // `selfDisciplineDue`: from above 0 to 0 or below, and still in the fight.
  if (c.hits.value > 0 && hits <= 0 && !outIn(conditions)) out.forced = [{ ...SELF_DISCIPLINE }];
  out.target = restate(c, { value: hits, max: c.hits.max }, stun, conditions, effects, c.parry);
  return out;
}

/** Whether the conditions hold one that takes a combatant out of the fight (RULES.md). */
function outIn(conditions: readonly string[]): boolean {
  for (let i = 0; i < conditions.length; i++) if (holds(OUT_CONDITIONS as readonly string[], conditions[i]!)) return true;
  return false;
}

/**
 * `criticalAfterAction` after an attack, without its events (CR-ATK-01, CR-STN-01, CR-AP-02): a
 * fumble ends the attacker's round (its AP left are lost); the round's AP follow the
 * combatant's state (half while stunned, none out of the fight), never growing.
 */
export function quietAfterAttack(
  c: CriticalCombatant,
  attack: QuietAttack<CriticalCombatant>,
  economy: Economy,
): RoundState<CriticalCombatant> {
  const a = attack as CriticalQuietAttack;
  let next = economy;
  if (a.fumble && a.attackerId === c.id) {
    const ap = next.pools.ap ?? { value: 0, max: 0 };
    next = withAp(next, { value: 0, max: ap.max });
  }
  // `recomputeEconomy` leaves a pool whose AP the combatant still has as it is: kept, not copied.
  const ap = next.pools.ap;
  if (ap && ap.value >= 0 && apFor(c) >= ap.max) return { combatant: c, economy: next, events: NO_EVENTS };
  return { combatant: c, economy: recomputeEconomy(next, c), events: NO_EVENTS };
}

/** The lifecycle events of a quiet transition: none, one frozen list for all. */
const NO_EVENTS: LifecycleEvent[] = Object.freeze([]) as unknown as LifecycleEvent[];
