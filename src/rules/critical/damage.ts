import { pluralKey } from "../core/i18n.js";
import type { FaceSource } from "../core/dice/formula.js";
import type { DiceRoller, SyncDiceRoller } from "../core/dice/port.js";
import { FrayError } from "../core/errors.js";
import { withConditions } from "../core/lists.js";
import type { AttackResult, DamagePacket, UpkeepCheck, UpkeepReport } from "../core/ruleset.js";
import type { DamageReport, DamageStep, LastingEffect, Modifier, RollOutcome, VitalState } from "../core/types.js";
import { isCriticalResult, type CriticalAttackInput } from "./attack.js";
import {
  LIMBS,
  OUT_CONDITIONS,
  restate,
  vitals,
  withVitals,
  type CritType,
  type CriticalCombatant,
  type Location,
  type Severity,
} from "./model.js";
import type { CriticalOptions } from "./options.js";
import { lookupCritical, type CriticalEffect, type CriticalEntry, type CriticalTable } from "./tables.js";
import { tableSet } from "./tables/index.js";

/** A critical as rolled and looked up (CR-CRT-02, CR-CRT-03, CR-ATK-04). */
export interface CriticalOutcome {
  type: CritType;
  severity: Severity;
  /** Critical table key, `critical.crit.<type>`. */
  table: string;
  roll: RollOutcome;
  /** The d100 as rolled. */
  unmodified: number;
  /** Added for an attack total over 150 (CR-ATK-04). */
  bonus: number;
  /** The value looked up: unmodified + bonus. */
  value: number;
  /** The UM66 row was used (CR-CRT-03). */
  um66: boolean;
  entry: CriticalEntry;
}

/** Damage of a Critical attack: the attack table's hits and the critical, if any. */
export interface CriticalDamagePacket extends DamagePacket {
  /** Hits from the attack table (CR-ATK-02). */
  attackHits: number;
  critical?: CriticalOutcome;
}

function isCriticalPacket(p: DamagePacket): p is CriticalDamagePacket {
  return typeof (p as Partial<CriticalDamagePacket>).attackHits === "number";
}

const constantRoll = (n: number): RollOutcome => ({ formula: String(n), total: n, dice: [], constant: n });

/**
 * Rolls the critical of an attack that lands (CR-CRT-02, CR-CRT-03, CR-ATK-04): d100 on the
 * table of the critical's type in its severity's column, plus 1 per full 10 of the attack total
 * over 150; the UM66 row when the d100 shows 66. Without a critical the packet carries the
 * attack table's hits alone.
 * @throws FrayError `FRAY.Error.NoHit` when the attack did not land, `FRAY.Error.NotCritical`
 *   for a result of another ruleset, `FRAY.Error.NoCriticalTable` when the type has no table.
 */
export async function rollDamage(result: AttackResult, input: CriticalAttackInput, dice: DiceRoller): Promise<CriticalDamagePacket> {
  if (!result.lands) throw new FrayError("FRAY.Error.NoHit", {}, "The attack did not land: there is no damage to roll");
  if (!isCriticalResult(result)) throw new FrayError("FRAY.Error.NotCritical", {}, "Not the result of a Critical attack");
  const hits = result.hits ?? 0;
  const code = result.detail.code;
  if (!code?.severity || !code.type) return hitsPacket(hits);
  const table = criticalTableOf(code.type, input);
  return criticalPacket(hits, code.type, code.severity, table, result.detail.critBonus, await dice.roll("1d100", "FRAY.Roll.Critical"));
}

/** The packet of an attack that lands without a critical: the attack table's hits alone (CR-ATK-02). */
export function hitsPacket(hits: number): CriticalDamagePacket {
  return { roll: constantRoll(hits), amount: hits, attackHits: hits, lookups: [] };
}

/**
 * The critical table of a type, the attack's own tables laid over the built-in ones (CR-CRT-02).
 * @throws FrayError `FRAY.Error.NoCriticalTable` when the type has no table.
 */
export function criticalTableOf(type: CritType, input: Pick<CriticalAttackInput, "tables">): CriticalTable {
  const table = tableSet(input.tables).crit[type];
  if (!table)
    throw new FrayError("FRAY.Error.NoCriticalTable", { table: `critical.crit.${type}` }, `No critical table critical.crit.${type}`);
  return table;
}

/**
 * The packet of an attack's table hits and its critical read from the critical's rolled d100
 * (CR-CRT-02, CR-CRT-03, CR-ATK-04), as {@link rollDamage} reads it: the d100 plus `bonus` looked
 * up in the `severity` column of `table`, the table of critical type `type` (its UM66 row on a 66);
 * the entry's hits added to `hits`.
 * @throws FrayError `FRAY.Error.TableGap` from `lookupCritical`.
 */
export function criticalPacket(
  hits: number,
  type: CritType,
  severity: Severity,
  table: CriticalTable,
  bonus: number,
  roll: RollOutcome,
): CriticalDamagePacket {
  const unmodified = roll.dice[0]?.results[0] ?? roll.total;
  const value = unmodified + bonus;
  const { entry, lookup } = lookupCritical(table, severity, value, unmodified);
  const extra = entry.effects.reduce((s, e) => s + (e.type === "hits" ? e.value : 0), 0);
  return {
    roll,
    amount: hits + extra,
    type,
    attackHits: hits,
    lookups: [lookup],
    critical: { type, severity, table: table.key, roll, unmodified, bonus, value, um66: entry.um66, entry },
  };
}

/** A fresh id for a new effect of a kind, unique within the list. */
function nextId(effects: LastingEffect[], kind: string): string {
  const prefix = `${kind}-`;
  for (let n = 1; ; n++) {
    const id = prefix + n;
    if (!effects.some((e) => e.id === id)) return id;
  }
}

const step = (rule: DamageStep["rule"], label: string, value: number, data?: Record<string, string | number>): DamageStep => ({
  rule,
  label,
  value,
  remaining: 0,
  data,
});

/** Sets the bleeding total (hits per round from bleeding and burning) from the effects. */
function refreshBleeding(v: VitalState): VitalState {
  v.bleeding = (v.effects ?? []).filter((e) => e.kind === "bleed" || e.kind === "burn").reduce((s, e) => s + (e.value ?? 0), 0);
  return v;
}

function addCondition(v: VitalState, added: string[], condition: string): void {
  if (!v.conditions.includes(condition)) {
    // By `concat`, not pushed (see `withConditions` in core/lists.ts).
    v.conditions = withConditions(v.conditions, condition);
    added.push(condition);
  }
}

/** Keeps the `unconscious` condition in step with the knock-out effects (RULES.md). */
function syncUnconscious(v: VitalState, added: string[], removed: string[]): void {
  const ko = (v.effects ?? []).some((e) => e.kind === "unconscious");
  if (ko) addCondition(v, added, "unconscious");
  else if (v.conditions.includes("unconscious")) {
    v.conditions = v.conditions.filter((x) => x !== "unconscious");
    removed.push("unconscious");
  }
}

/**
 * Applies one critical effect to a vital state (CR-CRT-02, CR-BLD-01, CR-STN-02, CR-STN-03,
 * CR-DTH-01), returning the steps it took. `hits` effects are counted in the packet's amount
 * and add no step here.
 */
export function applyEffect(
  v: VitalState,
  effect: CriticalEffect,
  where: { location: Location; text: string; ranks: number },
  added: string[],
): DamageStep[] {
  const effects = (v.effects ??= []);
  // Each effect gets the first free id of its kind (`bleed-1`, `bleed-2` ...), its first key.
  switch (effect.type) {
    case "hits":
      return [];
    case "bleed":
      effects.push({
        id: nextId(effects, "bleed"),
        kind: "bleed",
        rule: "CR-BLD-01",
        label: "FRAY.Critical.Effect.bleed",
        value: effect.value,
        location: where.location,
      });
      return [
        step("CR-BLD-01", "FRAY.Step.Bleeding", effect.value, {
          perRound: effect.value,
          location: `FRAY.Critical.Location.${where.location}`,
        }),
      ];
    case "burn":
      effects.push({
        id: nextId(effects, "burn"),
        kind: "burn",
        rule: "CR-BLD-01",
        label: "FRAY.Critical.Effect.burn",
        value: effect.value,
        location: where.location,
        ...(effect.rounds ? { rounds: effect.rounds } : {}),
      });
      return [
        step("CR-BLD-01", effect.rounds ? "FRAY.Step.BurningFor" : "FRAY.Step.Burning", effect.value, {
          perRound: effect.value,
          rounds: effect.rounds ?? 0,
          location: `FRAY.Critical.Location.${where.location}`,
        }),
      ];
    case "stun": {
      v.stun = (v.stun ?? 0) + effect.rounds;
      const out = [step("CR-STN-02", pluralKey("FRAY.Step.Stun", effect.rounds), effect.rounds, { rounds: effect.rounds, total: v.stun })];
      if (v.stun > where.ranks && !v.conditions.includes("blackout")) {
        addCondition(v, added, "blackout");
        out.push(step("CR-STN-03", "FRAY.Step.Blackout", 0, { stun: v.stun, ranks: where.ranks }));
      }
      return out;
    }
    case "noParry":
      effects.push({
        id: nextId(effects, "noParry"),
        kind: "noParry",
        rule: "CR-CRT-02",
        label: "FRAY.Critical.Effect.noParry",
        rounds: effect.rounds,
      });
      return [step("CR-CRT-02", pluralKey("FRAY.Step.NoParry", effect.rounds), 0, { rounds: effect.rounds })];
    case "penalty":
      effects.push({
        id: nextId(effects, "penalty"),
        kind: "penalty",
        rule: "CR-CRT-02",
        label: "FRAY.Critical.Effect.penalty",
        value: effect.value,
        ...(effect.rounds ? { rounds: effect.rounds } : {}),
      });
      return [
        step("CR-CRT-02", effect.rounds ? pluralKey("FRAY.Step.PenaltyFor", effect.rounds) : "FRAY.Step.Penalty", 0, {
          penalty: effect.value,
          rounds: effect.rounds ?? 0,
        }),
      ];
    case "injury":
      effects.push({
        id: nextId(effects, "injury"),
        kind: "injury",
        rule: "CR-CRT-02",
        label: where.text,
        location: effect.location,
        stops: [...effect.stops],
      });
      return effect.stops.map((s) =>
        step("CR-CRT-02", "FRAY.Step.Injury", 0, {
          location: `FRAY.Critical.Location.${effect.location}`,
          stop: `FRAY.Critical.Stop.${s}`,
        }),
      );
    case "unconscious":
      effects.push({
        id: nextId(effects, "unconscious"),
        kind: "unconscious",
        rule: "CR-CRT-02",
        label: "FRAY.Critical.Effect.unconscious",
        ...(effect.rounds ? { rounds: effect.rounds } : {}),
      });
      addCondition(v, added, "unconscious");
      return [
        step("CR-CRT-02", effect.rounds ? pluralKey("FRAY.Step.KnockedOutFor", effect.rounds) : "FRAY.Step.KnockedOut", 0, {
          rounds: effect.rounds ?? 0,
        }),
      ];
    case "dying":
      effects.push({
        id: nextId(effects, "dying"),
        kind: "dying",
        rule: "CR-DTH-01",
        label: "FRAY.Critical.Effect.dying",
        rounds: effect.rounds,
      });
      addCondition(v, added, "down");
      return [step("CR-DTH-01", pluralKey("FRAY.Step.Dying", effect.rounds), 0, { rounds: effect.rounds })];
    case "death":
      addCondition(v, added, "dead");
      return [step("CR-CRT-02", "FRAY.Step.Death", 0)];
  }
}

/**
 * Applies a Critical attack's damage (CR-AP-02: at once): the table's hits and the critical's
 * extra hits come off the hits (CR-HIT-01; they may go below 0), then each effect of the
 * critical: bleeding or burning per round, stun rounds added to any stun already running with a
 * blackout above the Physique ranks, a penalty, injuries, a knock-out, dying in N rounds,
 * instant death. Pure: returns the state before and after and every step; when the hits drop to
 * 0 or below the report's `forced` asks for the Self Discipline test (CR-HIT-02). A plain packet
 * of another shape takes `amount` hits.
 */
export function applyDamage(target: CriticalCombatant, packet: DamagePacket): DamageReport {
  const before = vitals(target);
  const after = vitals(target);
  const steps: DamageStep[] = [];
  const added: string[] = [];
  const crit = isCriticalPacket(packet) ? packet.critical : undefined;
  const attackHits = isCriticalPacket(packet) ? packet.attackHits : packet.amount;
  const extra = Math.max(0, packet.amount - attackHits);
  steps.push(step("CR-ATK-02", "FRAY.Step.AttackHits", attackHits, { hits: attackHits }));
  if (crit) steps.push(step("CR-CRT-02", "FRAY.Step.CriticalHits", extra, { hits: extra }));
  const hp = after.hp!;
  hp.value -= Math.max(0, packet.amount);
  steps.push(step("CR-HIT-01", "FRAY.Step.Hits", Math.max(0, packet.amount), { hits: hp.value, max: hp.max }));
  if (crit) {
    for (const e of crit.entry.effects) {
      steps.push(...applyEffect(after, e, { location: crit.entry.location, text: crit.entry.text, ranks: target.physique.ranks }, added));
    }
  }
  const report: DamageReport = { before, after: refreshBleeding(after), steps, added };
  if (selfDisciplineDue(report)) {
    steps.push(step("CR-HIT-02", "FRAY.Step.AtZero", 0, { hits: hp.value }));
    report.forced = [{ id: "selfDiscipline", label: "FRAY.Check.SelfDiscipline", rule: "CR-HIT-02", difficulty: 101 }];
  }
  return report;
}

/** True when the damage took the hits from above 0 to 0 or below: the Self Discipline test is due at once (CR-HIT-02, RULES.md). */
export function selfDisciplineDue(report: Pick<DamageReport, "before" | "after">): boolean {
  return (report.before.hp?.value ?? 1) > 0 && (report.after.hp?.value ?? 1) <= 0 && !isOutState(report.after);
}

function isOutState(state: VitalState): boolean {
  return state.conditions.some((c) => (OUT_CONDITIONS as readonly string[]).includes(c));
}

/** True when the state can no longer fight: unconscious, blacked out, down (dying) or dead (RULES.md). */
export function isOut(state: VitalState): boolean {
  return isOutState(state);
}

/** {@link isOut} of the combatant's vital state, read from the combatant directly (its conditions). */
export function isOutOf(c: CriticalCombatant): boolean {
  const conditions = c.conditions;
  for (let i = 0; i < conditions.length; i++) if ((OUT_CONDITIONS as readonly string[]).includes(conditions[i]!)) return true;
  return false;
}

/**
 * The Self Discipline test at 0 hits or below (CR-HIT-02): d100 + SD bonus - the hits below
 * zero; 101 or more stays conscious for the round, anything less leaves the combatant
 * unconscious (for the rest of the fight, RULES.md).
 * @returns the test and the combatant after it.
 */
export async function selfDisciplineTest(
  c: CriticalCombatant,
  dice: DiceRoller,
): Promise<{ test: UpkeepCheck; combatant: CriticalCombatant; report: UpkeepReport }> {
  return selfDisciplineFrom(c, await dice.roll("1d100", "FRAY.Roll.SelfDiscipline"));
}

/**
 * {@link selfDisciplineTest} rolled at once, with a roller that rolls so: the same faces drawn,
 * the same result (CR-HIT-02).
 */
export function selfDisciplineTestSync(
  c: CriticalCombatant,
  dice: SyncDiceRoller,
): { test: UpkeepCheck; combatant: CriticalCombatant; report: UpkeepReport } {
  return selfDisciplineFrom(c, dice.rollSync("1d100", "FRAY.Roll.SelfDiscipline"));
}

/**
 * {@link selfDisciplineTestSync} without the combatant's next state built: the test and the vital
 * states before and after it (`after.conditions` holds `unconscious` on a failure), with the
 * conditions it added, for a host that puts the state back itself (CR-HIT-02).
 */
export function selfDisciplineCheckSync(
  c: CriticalCombatant,
  dice: SyncDiceRoller,
): { test: UpkeepCheck; before: VitalState; after: VitalState; added: string[] } {
  return selfDisciplineRead(c, dice.rollSync("1d100", "FRAY.Roll.SelfDiscipline"));
}

/**
 * The combatant after the Self Discipline test (CR-HIT-02), rolled quietly: the d100 of
 * {@link selfDisciplineTest} drawn from `next`, the same total against 101, and the same state
 * as `withVitals` of the test's `after` (unconscious, with the knock-out effect, when failed; the
 * combatant itself when passed); no test or report is built.
 */
export function selfDisciplineAfter(c: CriticalCombatant, next: FaceSource): CriticalCombatant {
  const total = next(100) + c.selfDiscipline + Math.min(0, c.hits.value);
  if (total >= 101) return c;
  const effects = [
    ...c.effects,
    {
      id: nextId(c.effects, "unconscious"),
      kind: "unconscious",
      rule: "CR-HIT-02",
      label: "FRAY.Critical.Effect.failedTest",
    } as LastingEffect,
  ];
  const conditions = c.conditions.includes("unconscious") ? [...c.conditions] : [...c.conditions, "unconscious"];
  return restate(c, { ...c.hits }, c.stun, conditions, effects, c.parry);
}

/** The Self Discipline test (CR-HIT-02) read from its rolled d100. */
function selfDisciplineFrom(
  c: CriticalCombatant,
  roll: RollOutcome,
): { test: UpkeepCheck; combatant: CriticalCombatant; report: UpkeepReport } {
  const { test, before, after, added } = selfDisciplineRead(c, roll);
  return { test, combatant: withVitals(c, after), report: { before, after, steps: [], checks: [test], added, removed: [] } };
}

/** The Self Discipline test (CR-HIT-02) from its rolled d100: the test, the states before and after, the conditions added. */
function selfDisciplineRead(
  c: CriticalCombatant,
  roll: RollOutcome,
): { test: UpkeepCheck; before: VitalState; after: VitalState; added: string[] } {
  const before = vitals(c);
  const mods: Modifier[] = [
    { label: "FRAY.Mod.SelfDiscipline", value: c.selfDiscipline, rule: "CR-HIT-02" },
    { label: "FRAY.Mod.HitsBelowZero", value: Math.min(0, c.hits.value), rule: "CR-HIT-02" },
  ];
  const total = roll.total + mods.reduce((s, m) => s + m.value, 0);
  const test: UpkeepCheck = {
    rule: "CR-HIT-02",
    label: "FRAY.Check.SelfDiscipline",
    check: { roll, natural: roll.total, modifiers: mods, total },
    needed: 101,
    success: total >= 101,
  };
  const after = vitals(c);
  const added: string[] = [];
  if (!test.success) {
    (after.effects ??= []).push({
      id: nextId(after.effects, "unconscious"),
      kind: "unconscious",
      rule: "CR-HIT-02",
      label: "FRAY.Critical.Effect.failedTest",
    });
    addCondition(after, added, "unconscious");
  }
  return { test, before, after, added };
}

/**
 * Upkeep at the start of each round after the first (RULES.md), in this order: bleeding and
 * burning deal their hits (CR-BLD-01; timed burns run down); timed penalties, lost parries and
 * knock-outs run down; stun runs down by one and a blackout ends once no stun is left
 * (CR-STN-02, CR-STN-03); dying runs down and kills at 0 (CR-DTH-01); at 0 hits or below a
 * conscious combatant takes the Self Discipline test (CR-HIT-02). The dead are left alone.
 */
export async function upkeep(c: CriticalCombatant, dice: DiceRoller): Promise<{ combatant: CriticalCombatant; report: UpkeepReport }> {
  const ticked = upkeepTicks(c);
  return upkeepTested(ticked, ticked.test ? await selfDisciplineTest(ticked.combatant, dice) : undefined);
}

/**
 * {@link upkeep} rolled at once, with a roller that rolls so: the same faces drawn (the Self
 * Discipline test's d100, CR-HIT-02), the same combatant and report (CR-BLD-01, CR-STN-02,
 * CR-STN-03, CR-DTH-01).
 */
export function upkeepSync(c: CriticalCombatant, dice: SyncDiceRoller): { combatant: CriticalCombatant; report: UpkeepReport } {
  const ticked = upkeepTicks(c);
  return upkeepTested(ticked, ticked.test ? selfDisciplineTestSync(ticked.combatant, dice) : undefined);
}

/**
 * The combatant after {@link upkeep}, rolled at once, for a forecast that reads no report: the
 * same combatant (equal by value) and the same faces drawn, in the same order: bleeding and
 * burning deal their hits (CR-BLD-01); timed effects run down and end; stun runs down and a
 * blackout ends with it (CR-STN-02, CR-STN-03); dying runs down and kills at 0 (CR-DTH-01); the
 * `unconscious` condition follows the knock-outs left; at 0 hits or below a conscious combatant
 * takes the Self Discipline test (CR-HIT-02). No vital state, step or report is built, and the
 * effects nothing changed are kept, not copied; one with nothing to tick (standing with hits
 * above 0, no effect, no stun, not knocked out) and the dead come back as they are.
 * `test/rules/critical-upkeep-state.test.ts` holds it equal to {@link upkeep}.
 */
export function quietUpkeep(c: CriticalCombatant, dice: SyncDiceRoller): CriticalCombatant {
  const conditions = c.conditions;
  if (conditions.includes("dead")) return c;
  const before = c.effects;
  if (before.length === 0 && c.stun === 0 && c.hits.value > 0 && !conditions.includes("unconscious")) return c;
  let hits = c.hits.value;
  // Indexed loops: V8 steps a frozen list through an iterator in a `for of`, and lists reach here
  // frozen or not (with the other loops of this kind, 2.8% of a Critical fight's instructions when
  // a forecast's starting effects were frozen, counted with callgrind).
  for (let i = 0; i < before.length; i++) {
    const e = before[i]!;
    if (e.kind === "bleed" || e.kind === "burn") hits -= e.value ?? 0;
  }
  // Timed effects run down (dying has its own count); those that reach 0 end, by id.
  let ended: string[] | undefined;
  let effects: LastingEffect[] = [];
  for (let i = 0; i < before.length; i++) {
    const e = before[i]!;
    if (e.rounds === undefined || e.kind === "dying") effects.push(e);
    else {
      if (e.rounds - 1 <= 0) (ended ??= []).push(e.id);
      effects.push({ ...e, rounds: e.rounds - 1 });
    }
  }
  if (ended) effects = effects.filter((e) => !ended.includes(e.id));
  let stun = c.stun;
  // A spread, not `slice`: V8 slices a frozen list many times slower, and lists reach here frozen or not.
  let next = [...conditions];
  if (stun > 0) {
    stun -= 1;
    if (stun === 0 && next.includes("blackout")) next = next.filter((x) => x !== "blackout");
  }
  let dies = false;
  let ko = false;
  for (let i = 0; i < effects.length; i++) {
    const e = effects[i]!;
    if (e.kind === "unconscious") ko = true;
    if (e.kind !== "dying" || e.rounds === undefined) continue;
    if (e.rounds - 1 <= 0) dies = true;
    effects[i] = { ...e, rounds: e.rounds - 1 };
  }
  // Conditions added by `concat`, not pushed (see `withConditions` in core/lists.ts).
  if (dies && !next.includes("dead")) next = withConditions(next, "dead");
  if (ko) {
    if (!next.includes("unconscious")) next = withConditions(next, "unconscious");
  } else if (next.includes("unconscious")) next = next.filter((x) => x !== "unconscious");
  const after = restate(c, { value: hits, max: c.hits.max }, stun, next, effects, c.parry);
  if (dies || hits > 0 || next.some((x) => (OUT_CONDITIONS as readonly string[]).includes(x))) return after;
  // The Self Discipline test (CR-HIT-02): d100 + SD bonus - the hits below zero, 101 or more stays conscious.
  if (dice.rollTotal("1d100") + c.selfDiscipline + Math.min(0, hits) >= 101) return after;
  const id = nextId(effects, "unconscious");
  next = withConditions(next, "unconscious");
  const failed: LastingEffect = { id, kind: "unconscious", rule: "CR-HIT-02", label: "FRAY.Critical.Effect.failedTest" };
  return restate(after, after.hits, stun, next, [...effects, failed], after.parry);
}

/** What {@link upkeep} does before its Self Discipline test, and whether the test is due. */
interface UpkeepTicked {
  combatant: CriticalCombatant;
  report: UpkeepReport;
  /** The dead are left alone: the report is final. */
  dead: boolean;
  /** At 0 hits or below, still in the fight and not dying of it: the Self Discipline test is due (CR-HIT-02). */
  test: boolean;
}

/** {@link upkeep}'s ticks: bleeding, effects counting down, stun and blackout, dying (CR-BLD-01, CR-STN-02, CR-STN-03, CR-DTH-01). */
function upkeepTicks(c: CriticalCombatant): UpkeepTicked {
  const before = vitals(c);
  const v = vitals(c);
  const steps: DamageStep[] = [];
  const checks: UpkeepCheck[] = [];
  const added: string[] = [];
  const removed: string[] = [];
  if (v.conditions.includes("dead"))
    return { combatant: c, report: { before, after: v, steps, checks, added, removed }, dead: true, test: false };
  const hp = v.hp!;
  let effects = v.effects ?? [];
  for (const e of effects.filter((x) => x.kind === "bleed" || x.kind === "burn")) {
    hp.value -= e.value ?? 0;
    steps.push(
      step("CR-BLD-01", e.kind === "bleed" ? "FRAY.Step.BleedTick" : "FRAY.Step.BurnTick", e.value ?? 0, {
        hits: e.value ?? 0,
        location: `FRAY.Critical.Location.${e.location ?? "general"}`,
      }),
    );
  }
  const ended: LastingEffect[] = [];
  effects = effects.map((e) => {
    if (e.rounds === undefined || e.kind === "dying") return e;
    const next = { ...e, rounds: e.rounds - 1 };
    if (next.rounds <= 0) ended.push(e);
    return next;
  });
  for (const e of ended) steps.push(step(e.rule, "FRAY.Step.EffectEnds", 0, { effect: e.label }));
  effects = effects.filter((e) => !ended.some((x) => x.id === e.id));
  if ((v.stun ?? 0) > 0) {
    v.stun = v.stun! - 1;
    steps.push(step("CR-STN-02", "FRAY.Step.StunCount", 1, { stun: v.stun }));
    if (v.stun === 0 && v.conditions.includes("blackout")) {
      v.conditions = v.conditions.filter((x) => x !== "blackout");
      removed.push("blackout");
      steps.push(step("CR-STN-03", "FRAY.Step.BlackoutEnds", 0));
    }
  }
  let dies = false;
  effects = effects.map((e) => {
    if (e.kind !== "dying" || e.rounds === undefined) return e;
    const rounds = e.rounds - 1;
    if (rounds <= 0) dies = true;
    else steps.push(step("CR-DTH-01", pluralKey("FRAY.Step.DyingCount", rounds), 0, { rounds }));
    return { ...e, rounds };
  });
  v.effects = effects;
  if (dies) {
    addCondition(v, added, "dead");
    steps.push(step("CR-DTH-01", "FRAY.Step.Died", 0));
  }
  syncUnconscious(v, added, removed);
  return {
    combatant: withVitals(c, v),
    report: { before, after: v, steps, checks, added, removed },
    dead: false,
    test: !dies && hp.value <= 0 && !isOutState(v),
  };
}

/** {@link upkeep}'s end: the Self Discipline test taken when due, and the state after it. */
function upkeepTested(
  ticked: UpkeepTicked,
  sd: { test: UpkeepCheck; combatant: CriticalCombatant; report: UpkeepReport } | undefined,
): { combatant: CriticalCombatant; report: UpkeepReport } {
  const { report } = ticked;
  if (ticked.dead) return { combatant: ticked.combatant, report };
  let combatant = ticked.combatant;
  if (sd) {
    report.checks.push(sd.test);
    combatant = sd.combatant;
    report.added.push(...sd.report.added);
  }
  return { combatant, report: { ...report, after: vitals(combatant) } };
}

/** Ways to treat a bleeding or burning wound (CR-BLD-02). */
export const TREATMENTS = ["staunch", "bandage", "tourniquet", "medkit", "smother", "dropAndRoll"] as const;
export type Treatment = (typeof TREATMENTS)[number];

/**
 * Treats one wound (CR-BLD-02, RULES.md): staunching halves the bleeding (rounded up), a bandage
 * stops up to 5 hits a round, a tourniquet or a medical kit stops it; smothering or dropping and
 * rolling puts out a burn. Each treatment works once per wound; a tourniquet needs an arm or a
 * leg unless that option is off. A wound down to 0 is gone.
 * @throws FrayError `FRAY.Error.NoEffect` for an unknown wound, `FRAY.Error.Treatment` for a
 *   treatment that does not fit it, `FRAY.Error.AlreadyTreated`, `FRAY.Error.TourniquetLimb`.
 */
export function treat(
  c: CriticalCombatant,
  effectId: string,
  method: Treatment,
  options: Pick<CriticalOptions, "tourniquetLimbsOnly">,
): { combatant: CriticalCombatant; step: DamageStep } {
  const wound = c.effects.find((e) => e.id === effectId);
  if (!wound) throw new FrayError("FRAY.Error.NoEffect", { id: effectId, actor: c.name }, `${c.name} has no wound "${effectId}"`);
  const fits =
    wound.kind === "bleed" ? ["staunch", "bandage", "tourniquet", "medkit"] : wound.kind === "burn" ? ["smother", "dropAndRoll"] : [];
  if (!fits.includes(method)) {
    throw new FrayError(
      "FRAY.Error.Treatment",
      { method: `FRAY.Action.${method}`, effect: wound.label },
      `${method} does not treat ${wound.kind}`,
    );
  }
  if (wound.treated?.includes(method))
    throw new FrayError("FRAY.Error.AlreadyTreated", { method: `FRAY.Action.${method}` }, `The wound was already treated with ${method}`);
  if (method === "tourniquet" && options.tourniquetLimbsOnly && !LIMBS.includes((wound.location ?? "general") as Location)) {
    throw new FrayError(
      "FRAY.Error.TourniquetLimb",
      { location: `FRAY.Critical.Location.${wound.location ?? "general"}` },
      "A tourniquet needs an arm or a leg",
    );
  }
  const rate = wound.value ?? 0;
  const next = method === "staunch" ? Math.ceil(rate / 2) : method === "bandage" ? Math.max(0, rate - 5) : 0;
  const effects =
    next > 0
      ? c.effects.map((e) => (e.id === effectId ? { ...e, value: next, treated: [...(e.treated ?? []), method] } : e))
      : c.effects.filter((e) => e.id !== effectId);
  return {
    combatant: restate(c, c.hits, c.stun, c.conditions, effects, c.parry),
    step: {
      rule: "CR-BLD-02",
      label: "FRAY.Step.Treated",
      value: rate - next,
      remaining: next,
      data: { method: `FRAY.Action.${method}`, location: `FRAY.Critical.Location.${wound.location ?? "general"}`, perRound: next },
    },
  };
}

/**
 * Saves a dying combatant (CR-DTH-01): the countdown to death stops. The combatant stays down
 * and out of the fight (RULES.md).
 * @throws FrayError `FRAY.Error.NotDying` when nothing is counting down.
 */
export function stabilize(c: CriticalCombatant): CriticalCombatant {
  if (!c.effects.some((e) => e.kind === "dying")) throw new FrayError("FRAY.Error.NotDying", { actor: c.name }, `${c.name} is not dying`);
  return restate(
    c,
    c.hits,
    c.stun,
    c.conditions,
    c.effects.filter((e) => e.kind !== "dying"),
    c.parry,
  );
}

/** True when the combatant is dying: down with a countdown to death (CR-DTH-01). */
export function isDying(c: CriticalCombatant): boolean {
  return !c.conditions.includes("dead") && c.effects.some((e) => e.kind === "dying");
}
