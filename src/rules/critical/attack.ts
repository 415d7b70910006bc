import { distribution } from "../core/dice/distribution.js";
import type { DiceRoller } from "../core/dice/port.js";
import { FrayError } from "../core/errors.js";
import type { AttackOdds, AttackPlan, AttackResult, ReactionOption } from "../core/ruleset.js";
import { difficulty, sumModifiers, type CheckResult, type Modifier, type RollOutcome } from "../core/types.js";
import {
  PARRY_RATES,
  armorTypeOf,
  isIncapacitated,
  stoppedBy,
  type ArmorType,
  type CriticalCombatant,
  type CriticalWeapon,
} from "./model.js";
import type { CriticalOptions } from "./options.js";
import { checkParry, offensiveBonus, parriedOb, parryBlocked, parryLine, parryPool } from "./parry.js";
import { OPEN_ENDED_D100_RUNS } from "./open-ended.js";
import { attackColumnBands, lookupAttack, type AttackCode, type AttackTable } from "./tables.js";
import { DEFAULT_TABLES, tableSet, type CriticalTableSet } from "./tables/index.js";

/** The open-ended d100 of attacks and maneuvers: 96-100 roll again and add, repeatedly (CR-ATK-01). */
export const OPEN_ENDED_D100 = "1d100x>95";

/** Situational parts of a Critical attack (CR-ATK-01, CR-PAR-03). */
export interface CriticalSituation {
  /** Situational modifiers the GM rules, added to the roll (a maneuver's penalty, surprise ...). */
  modifier?: number;
  /** Cover, deducted from the total. */
  cover?: number;
  /** The target cannot see this attack coming: its parry does not count (CR-PAR-03). */
  unseen?: boolean;
}

/** Everything a Critical attack needs. */
export interface CriticalAttackInput {
  attacker: CriticalCombatant;
  target: CriticalCombatant;
  /** Id or name of one of the attacker's weapons. */
  weaponId: string;
  situation?: CriticalSituation;
  /** A GM's own tables laid over the built-in ones (found by their table keys). */
  tables?: Partial<CriticalTableSet>;
}

/** What a Critical attack roll gave, beyond the shared result. */
export interface CriticalAttackDetail {
  weaponClass: string;
  /** Attack table key, `critical.attack.<class>`. */
  table: string;
  armorType: ArmorType;
  /** The first die of the open-ended roll, before any re-roll (CR-ATK-01). */
  unmodified: number;
  /** The roll went open-ended (96-100 and rolled again). */
  openEnded: boolean;
  /** The unmodified roll fell in the weapon's fumble range (RULES.md). */
  fumble: boolean;
  /** Roll + OB + modifiers - DB - cover: the value looked up (CR-ATK-01, CR-ATK-02). */
  total: number;
  /** The table entry; absent on a fumble. */
  code?: AttackCode;
  /** Added to the critical roll: 1 per full 10 points over 150 (CR-ATK-04). */
  critBonus: number;
}

/** A resolved Critical attack: the shared result plus the roll and table detail. */
export interface CriticalAttackResult extends AttackResult {
  detail: CriticalAttackDetail;
}

/** True when a result carries Critical detail. */
export function isCriticalResult(r: AttackResult): r is CriticalAttackResult {
  return typeof (r as Partial<CriticalAttackResult>).detail === "object";
}

/**
 * The weapon an attack uses.
 * @throws FrayError `FRAY.Error.NoWeapon` when it is not the attacker's.
 */
export function weaponOf(input: Pick<CriticalAttackInput, "attacker" | "weaponId">): CriticalWeapon {
  // A plain loop, not a `find` with a closure: read on every attack.
  const weapons = input.attacker.weapons;
  const ref = input.weaponId;
  let w: CriticalWeapon | undefined;
  for (let i = 0; i < weapons.length; i++) {
    const x = weapons[i]!;
    if (x.id === ref || x.name === ref) {
      w = x;
      break;
    }
  }
  if (!w)
    throw new FrayError(
      "FRAY.Error.NoWeapon",
      { weapon: input.weaponId, actor: input.attacker.name },
      `${input.attacker.name} has no weapon "${input.weaponId}"`,
    );
  return w;
}

/**
 * The attack table of a weapon (CR-ATK-03).
 * @throws FrayError `FRAY.Error.NoAttackTable` when no table has the weapon's class.
 */
export function attackTableOf(weapon: CriticalWeapon, tables: CriticalTableSet): AttackTable {
  const t = tables.attack[weapon.weaponClass];
  if (!t)
    throw new FrayError(
      "FRAY.Error.NoAttackTable",
      { weapon: weapon.name, table: `critical.attack.${weapon.weaponClass}` },
      `No attack table critical.attack.${weapon.weaponClass}`,
    );
  return t;
}

/** The fumble range of a weapon: its own, else its table's. */
export function fumbleRange(weapon: CriticalWeapon, table: AttackTable): number {
  return weapon.fumble ?? table.fumble;
}

/** The bonus to the critical roll for an attack total: 1 per full 10 points over 150 (CR-ATK-04). */
export function criticalBonus(total: number): number {
  return total > 150 ? Math.floor((total - 150) / 10) : 0;
}

/** Sum of the (negative) penalties a combatant carries from criticals (CR-CRT-02). */
export function woundPenalty(c: CriticalCombatant): number {
  return c.effects.filter((e) => e.kind === "penalty").reduce((s, e) => s + (e.value ?? 0), 0);
}

/** The defender's DB as itemized lines (CR-ATK-01, CR-PAR-02, CR-PAR-03); a helpless defender has none (RULES.md). */
export function defenseLines(input: CriticalAttackInput, weapon: CriticalWeapon): { base: Modifier; modifiers: Modifier[] } {
  const { target, attacker } = input;
  const s = input.situation ?? {};
  const mods: Modifier[] = [];
  let base: Modifier;
  if (isIncapacitated(target)) {
    base = { label: "FRAY.Mod.DefenseHelpless", value: 0, rule: "CR-ATK-01" };
  } else {
    base = { label: "FRAY.Mod.DefensiveBonus", value: target.defense, rule: "CR-ATK-01" };
    for (const a of target.armor)
      if (a.defense) mods.push({ label: "FRAY.Mod.ArmorDefense", value: a.defense, rule: "CR-ATK-01", data: { armor: a.name } });
    const parry = parryLine(target, attacker.id, weapon.category, !s.unseen);
    if (parry) mods.push(parry);
  }
  if (s.cover) mods.push({ label: "FRAY.Mod.Cover", value: s.cover, rule: "CR-ATK-01" });
  return { base, modifiers: mods };
}

/**
 * Whether {@link checkCanAttack} lets the combatant attack: not out of the fight, and no injury
 * stops it (CR-CRT-02). Asked without an error built, for a forecast's attackers.
 */
export function canAttack(attacker: CriticalCombatant): boolean {
  return !isIncapacitated(attacker) && !stoppedBy(attacker, "attack");
}

/**
 * Whether a combatant can attack at all (CR-DTH-01, CR-CRT-02): not out of the fight, no injury
 * that stops attacking. The detailed and the quiet step both ask it first.
 * @throws FrayError `FRAY.Error.CannotAct` when incapacitated, `FRAY.Error.CannotAttack` when an
 *   injury stops attacking.
 */
export function checkCanAttack(attacker: CriticalCombatant): void {
  if (isIncapacitated(attacker)) throw new FrayError("FRAY.Error.CannotAct", { actor: attacker.name }, `${attacker.name} cannot act`);
  const injury = stoppedBy(attacker, "attack");
  if (injury)
    throw new FrayError(
      "FRAY.Error.CannotAttack",
      { actor: attacker.name, reason: "FRAY.Reason.Injured" },
      `${attacker.name} cannot attack: ${injury.label}`,
    );
}

/**
 * Plans a Critical attack (CR-ATK-01, CR-PAR-01, CR-PAR-02): the open-ended d100 with OB (skill
 * and weapon bonus), less the OB moved to parry, wound penalties and situational modifiers;
 * against the defender's DB with armor, parry against this attacker, and cover.
 * @throws FrayError `FRAY.Error.CannotAct` for an attacker out of the fight,
 *   `FRAY.Critical.Parry.TooMuch` naming `system.parry` when either side moved more OB into
 *   parrying than it has (CR-PAR-01),
 *   `FRAY.Error.CannotAttack` when an injury stops attacking, `FRAY.Error.NoWeapon`,
 *   `FRAY.Error.NoAttackTable`.
 */
export function planAttack(input: CriticalAttackInput): AttackPlan {
  const { attacker, target } = input;
  checkCanAttack(attacker);
  const weapon = weaponOf(input);
  attackTableOf(weapon, tableSet(input.tables));
  // The parries are stored where their owners write them: more OB moved than there is, refused (CR-PAR-01).
  checkParry(attacker);
  checkParry(target);
  const ob = offensiveBonus(attacker, weapon);
  const mods: Modifier[] = [
    ob.trained
      ? { label: "FRAY.Mod.OffensiveBonus", value: ob.skill, rule: "CR-ATK-01", data: { skill: `FRAY.Critical.Skill.${weapon.skill}` } }
      : { label: "FRAY.Mod.UntrainedOb", value: ob.skill, rule: "CR-ATK-01", data: { skill: `FRAY.Critical.Skill.${weapon.skill}` } },
  ];
  if (ob.bonus) mods.push({ label: "FRAY.Mod.WeaponBonus", value: ob.bonus, rule: "CR-ATK-01", data: { weapon: weapon.name } });
  const parried = parriedOb(attacker);
  if (parried) mods.push({ label: "FRAY.Mod.ParryMoved", value: -parried, rule: "CR-PAR-01" });
  const penalty = woundPenalty(attacker);
  if (penalty) mods.push({ label: "FRAY.Mod.WoundPenalty", value: penalty, rule: "CR-CRT-02" });
  const s = input.situation ?? {};
  if (s.modifier) mods.push({ label: "FRAY.Mod.Situational", value: s.modifier, rule: "CR-ATK-01" });
  const def = defenseLines(input, weapon);
  return {
    ruleset: "critical",
    attackerId: attacker.id,
    targetId: target.id,
    weaponId: weapon.id,
    dice: OPEN_ENDED_D100,
    modifiers: mods,
    difficulty: difficulty(def.base, def.modifiers),
  };
}

/**
 * The parry a defender may declare against this attack (CR-PAR-01 to CR-PAR-03). A Critical
 * parry rolls nothing: it moves OB into DB before the attack, at the exchange rate for the
 * attack's category; it is offered unless the attack is unseen or the defender cannot parry.
 */
export function reactions(input: CriticalAttackInput): ReactionOption[] {
  const weapon = weaponOf(input);
  const blocked = parryBlocked(input.target);
  const reason = input.situation?.unseen ? "FRAY.Reason.Unseen" : blocked?.reason;
  const line = parryLine(input.target, input.attacker.id, weapon.category, !input.situation?.unseen);
  return [
    {
      id: "parry",
      label: "FRAY.Reaction.parry",
      rule: reason === "FRAY.Reason.Unseen" ? "CR-PAR-03" : "CR-PAR-02",
      available: !reason,
      reason,
      formula: "0",
      modifiers: line ? [line] : [],
      cost: {},
      exchange: { rate: PARRY_RATES[weapon.category], maxOb: parryPool(input.target) },
    },
  ];
}

/**
 * Rolls a planned attack (CR-ATK-01 to CR-ATK-04): the open-ended d100 (96-100 roll again and
 * add, the first die kept as the unmodified roll), a fumble on a low unmodified roll, else the
 * total looked up on the weapon's table in the defender's armor column: hits and maybe a
 * critical code. Effects are applied by {@link rollDamage} and `applyDamage` at once (CR-AP-02).
 */
export async function resolveAttack(
  plan: AttackPlan,
  input: CriticalAttackInput,
  dice: DiceRoller,
  options: CriticalOptions,
): Promise<CriticalAttackResult> {
  const weapon = weaponOf(input);
  const table = attackTableOf(weapon, tableSet(input.tables));
  return readAttack(plan, input, options, await dice.roll(plan.dice, "FRAY.Roll.Attack"), weapon, table);
}

/**
 * A planned attack read from its rolled open-ended d100 (CR-ATK-01 to CR-ATK-04), as
 * {@link resolveAttack} reads it: the first die is the unmodified roll (a fumble in the weapon's
 * range), else the total is looked up on the weapon's table in the defender's armor column.
 * @param weapon the attack's weapon and `table` its attack table, as `weaponOf` and `attackTableOf` give them.
 * @throws FrayError `FRAY.Error.TableColumn`, `FRAY.Error.TableGap` from `lookupAttack`.
 */
export function readAttack(
  plan: AttackPlan,
  input: CriticalAttackInput,
  options: CriticalOptions,
  roll: RollOutcome,
  weapon: CriticalWeapon,
  table: AttackTable,
): CriticalAttackResult {
  const armorType = armorTypeOf(input.target);
  const faces = roll.dice[0]?.results ?? [roll.total];
  const unmodified = faces[0]!;
  const check: CheckResult = { roll, natural: roll.total, modifiers: plan.modifiers, total: roll.total + sumModifiers(plan.modifiers) };
  const total = check.total - plan.difficulty.total;
  const fumble = options.fumbles && unmodified <= fumbleRange(weapon, table);
  const detail: CriticalAttackDetail = {
    weaponClass: weapon.weaponClass,
    table: table.key,
    armorType,
    unmodified,
    openEnded: faces.length > 1,
    fumble,
    total,
    critBonus: criticalBonus(total),
  };
  if (fumble) return { plan, check, hit: false, lands: false, hits: 0, lookups: [], detail };
  const { code, lookup } = lookupAttack(table, armorType, total);
  detail.code = code;
  const hit = code.hits > 0 || code.severity !== undefined;
  return {
    plan,
    check,
    hit,
    lands: hit,
    hits: code.hits,
    critical: code.severity ? `${code.severity}${code.type}` : undefined,
    lookups: [lookup],
    detail,
  };
}

/**
 * A roll's distribution as {@link odds} reads it: `at[v - min]` is the chance of the total `v`,
 * for every whole `v` from `min` to `max` (0 for a total the roll cannot give); the totals the
 * roll can give and their chances, ascending, in `totals` and `chance`.
 */
interface Dense {
  min: number;
  max: number;
  at: Float64Array;
  totals: readonly number[];
  chance: readonly number[];
}

/** {@link Dense} of a distribution given as runs `from, count, chance` (totals ascending). */
function dense(runs: readonly number[]): Dense {
  const totals: number[] = [];
  const chance: number[] = [];
  for (let r = 0; r < runs.length; r += 3) {
    for (let v = runs[r]!, end = v + runs[r + 1]!; v < end; v++) {
      totals.push(v);
      chance.push(runs[r + 2]!);
    }
  }
  const min = totals[0]!;
  const max = totals[totals.length - 1]!;
  const at = new Float64Array(max - min + 1);
  for (let k = 0; k < totals.length; k++) at[totals[k]! - min] = chance[k]!;
  return { min, max, at, totals, chance };
}

/** The open-ended d100's {@link Dense}, from its stored table (./open-ended.ts): built with the module. */
const OPEN_ENDED_D100_DENSE = dense(OPEN_ENDED_D100_RUNS);
const denseCache = new Map<string, Dense>();

/**
 * The {@link Dense} distribution of a roll formula, computed once per formula; the open-ended
 * d100's is built from its stored table when the module loads, so the first odds of an attack
 * build nothing.
 */
function denseOf(formula: string): Dense {
  if (formula === OPEN_ENDED_D100) return OPEN_ENDED_D100_DENSE;
  let known = denseCache.get(formula);
  if (!known) {
    const runs: number[] = [];
    for (const [total, p] of distribution(formula)) runs.push(total, 1, p);
    denseCache.set(formula, (known = dense(runs)));
  }
  return known;
}

/**
 * The totals a roll formula can give, ascending, and the chance of each: the distribution
 * {@link odds} reads (the open-ended d100's from its stored table, chains followed until their
 * chance is below 1e-15).
 * @throws FrayError as `distribution` for a formula other than the open-ended d100.
 */
export function rollChances(formula: string): { totals: readonly number[]; chance: readonly number[] } {
  const { totals, chance } = denseOf(formula);
  return { totals, chance };
}

/**
 * A column of an attack table as {@link odds} reads it: whether its bands, with whole-number
 * bounds, follow each other without gap or overlap from an open bottom to an open top
 * (`contiguous`), and each band's lowest and highest total (infinite at the open ends) and the
 * outcome it counts as.
 */
interface ColumnReading {
  contiguous: boolean;
  low: readonly number[];
  high: readonly number[];
  outcome: readonly string[];
}

/** The outcome a code on an attack table counts as in {@link odds}. */
function outcomeOf(code: AttackCode): string {
  return code.severity ?? (code.hits > 0 ? "hitsOnly" : "miss");
}

/** {@link ColumnReading} by table and armor type, once read; the built-in tables' are read when the module loads. */
const columnReadings = new WeakMap<AttackTable, Map<string, ColumnReading>>();

/** The {@link ColumnReading} of a table's column for an armor type (no bands when the table has no such column). */
function columnReading(table: AttackTable, armorType: string): ColumnReading {
  let byType = columnReadings.get(table);
  if (!byType) columnReadings.set(table, (byType = new Map()));
  let known = byType.get(armorType);
  if (known) return known;
  // The column as bands: the table's rows, or the column a world table replaced (CR-ATK-03).
  const bands = table.armorTypes.includes(armorType) ? attackColumnBands(table, armorType) : [];
  // Whole-number bounds, each band's low at or below its high, each band starting right after the last.
  const whole = (v: number | null) => v === null || Number.isInteger(v);
  let contiguous = bands.length > 0 && bands[0]!.range[0] === null && bands[bands.length - 1]!.range[1] === null;
  for (let i = 0; contiguous && i < bands.length; i++) {
    const [lo, hi] = bands[i]!.range;
    contiguous = whole(lo) && whole(hi) && (lo === null || hi === null || lo <= hi);
    if (contiguous && i > 0) {
      const before = bands[i - 1]!.range[1];
      contiguous = before !== null && lo !== null && lo === before + 1;
    }
  }
  known = {
    contiguous,
    low: bands.map((b) => b.range[0] ?? -Infinity),
    high: bands.map((b) => b.range[1] ?? Infinity),
    outcome: bands.map((b) => outcomeOf(b.code)),
  };
  byType.set(armorType, known);
  return known;
}
for (const table of Object.values(DEFAULT_TABLES.attack)) for (const armorType of table.armorTypes) columnReading(table, armorType);

/**
 * Exact odds of a planned attack (CR-ATK-01, CR-ATK-02): the open-ended d100 distribution
 * (chains of 96-100 followed until their chance is below 1e-15; a stored table, ./open-ended.ts)
 * run through the weapon's table in the defender's armor column. `hit` is the chance of any hits
 * or a critical; `outcomes` holds the chance of a `fumble`, a `miss`, `hitsOnly` (hits without a
 * critical), and of each severity `A` to `E`; they sum to 1 (to rounding).
 *
 * A column whose bands follow each other without gap or overlap is read band by band (for a
 * whole-number offset): the chances of the unmodified rolls whose totals land in a band are added
 * to its outcome. Any other column (a world table's, CR-ATK-03) is read total by total through
 * lookupAttack, which finds the same band or throws its error.
 * @throws FrayError `FRAY.Error.TableColumn` when the table has no column for the defender's
 *   armor, `FRAY.Error.TableGap` when a total the roll can reach falls in no band.
 */
export function odds(plan: AttackPlan, input: CriticalAttackInput, options: CriticalOptions): AttackOdds {
  const weapon = weaponOf(input);
  const table = attackTableOf(weapon, tableSet(input.tables));
  const armorType = armorTypeOf(input.target);
  const offset = sumModifiers(plan.modifiers) - plan.difficulty.total;
  // Totals up to 95 come from a single die, so the unmodified roll is the total there.
  const fumbleTop = options.fumbles ? fumbleRange(weapon, table) : 0;
  const outcomes: Record<string, number> = { fumble: 0, miss: 0, hitsOnly: 0, A: 0, B: 0, C: 0, D: 0, E: 0 };
  const d = denseOf(plan.dice);
  const { min, max, at } = d;
  // Every chance is added on its own, the rolls in ascending order: the sums are the same, bit
  // for bit, however the column splits its bands.
  let fumble = 0;
  for (let v = min; v <= max && v <= fumbleTop; v++) fumble += at[v - min]!;
  outcomes.fumble = fumble;
  const column = columnReading(table, armorType);
  // (A fractional offset would land totals between whole bounds: read total by total, as lookupAttack finds them.)
  if (column.contiguous && Number.isInteger(offset)) {
    const { low, high, outcome } = column;
    for (let k = 0; k < high.length; k++) {
      // The unmodified rolls above the fumble range whose totals land in the band.
      const from = Math.max(low[k]! - offset, fumbleTop + 1, min);
      const to = Math.min(high[k]! - offset, max);
      if (to < from) continue;
      const key = outcome[k]!;
      let sum = outcomes[key]!;
      for (let v = from; v <= to; v++) sum += at[v - min]!;
      outcomes[key] = sum;
    }
  } else {
    const { totals, chance } = d;
    for (let k = 0; k < totals.length; k++) {
      if (totals[k]! <= fumbleTop) continue;
      outcomes[outcomeOf(lookupAttack(table, armorType, totals[k]! + offset).code)]! += chance[k]!;
    }
  }
  return { hit: 1 - outcomes.fumble! - outcomes.miss!, outcomes };
}

/** The outcomes of a Critical attack in the order the dialog lists them (CR-ATK-01, CR-ATK-02). */
export const OUTCOME_ORDER = ["miss", "hitsOnly", "A", "B", "C", "D", "E", "fumble"] as const;

/** One outcome of an attack and its exact chance, in [0, 1]. */
export interface OutcomeChance {
  id: (typeof OUTCOME_ORDER)[number];
  chance: number;
}

/** What the attack dialog shows of a planned Critical attack before it is rolled. */
export interface AttackSummary {
  /** The roll's modifiers in all: OB, less the OB moved to parry, wounds, the GM's modifier. */
  ob: number;
  /** The defender's DB in all: base, armor, parry against this attacker, cover. */
  db: number;
  /** The attacker's OB moved into its own parry this round (CR-PAR-01), when any. */
  parryMoved?: Modifier;
  /** The defender's parry line against this attacker (CR-PAR-02, CR-PAR-03), when it declared one. */
  parry?: Modifier;
  /** Every outcome with its chance, in {@link OUTCOME_ORDER}; they sum to 1. */
  outcomes: OutcomeChance[];
}

/**
 * The attack dialog's summary of a planned attack (CR-ATK-01, CR-ATK-02, CR-PAR-01 to
 * CR-PAR-03): the OB and DB in all, the parry lines that apply, and the exact chance of a miss,
 * hits only, each critical severity A to E and a fumble, from {@link odds}.
 */
export function attackSummary(plan: AttackPlan, o: AttackOdds): AttackSummary {
  const parryMoved = plan.modifiers.find((m) => m.label === "FRAY.Mod.ParryMoved");
  const parry = plan.difficulty.modifiers.find(
    (m) => m.rule === "CR-PAR-02" || m.rule === "CR-PAR-03" || m.label.startsWith("FRAY.Mod.Parry"),
  );
  return {
    ob: sumModifiers(plan.modifiers),
    db: plan.difficulty.total,
    ...(parryMoved ? { parryMoved } : {}),
    ...(parry ? { parry } : {}),
    outcomes: OUTCOME_ORDER.map((id) => ({ id, chance: o.outcomes?.[id] ?? 0 })),
  };
}
