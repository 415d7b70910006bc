import type { QuietRuleset } from "../core/quiet.js";
import type { SyncForcedCheck } from "../core/round.js";
import type { Ruleset } from "../core/ruleset.js";
import * as actions from "./actions.js";
import * as attack from "./attack.js";
import type { CriticalAttackInput } from "./attack.js";
import * as damage from "./damage.js";
import * as drop from "./drop.js";
import * as initiative from "./initiative.js";
import { vitals, withVitals, type CriticalCombatant } from "./model.js";
import { CRITICAL_OPTIONS, criticalOptions } from "./options.js";
import * as play from "./play.js";
import * as quiet from "./quiet.js";
import type { CriticalTableSet } from "./tables/index.js";

export * from "./model.js";
export { CRITICAL_OPTIONS, criticalOptions, type CriticalOptions } from "./options.js";
export {
  OPEN_ENDED_D100,
  OUTCOME_ORDER,
  attackSummary,
  attackTableOf,
  canAttack,
  criticalBonus,
  defenseLines,
  fumbleRange,
  isCriticalResult,
  weaponOf,
  woundPenalty,
  type CriticalAttackDetail,
  type CriticalAttackInput,
  type CriticalAttackResult,
  type CriticalSituation,
  type AttackSummary,
  type OutcomeChance,
} from "./attack.js";
export {
  TREATMENTS,
  applyEffect,
  isDying,
  selfDisciplineDue,
  selfDisciplineTest,
  selfDisciplineTestSync,
  stabilize,
  treat,
  quietUpkeep,
  upkeep,
  upkeepSync,
  type CriticalDamagePacket,
  type CriticalOutcome,
  type Treatment,
} from "./damage.js";
export {
  ACTIONS,
  AP_PER_ROUND,
  actionCost,
  afterUpkeepEconomy,
  apFor,
  checkMove,
  recomputeEconomy,
  type CriticalAction,
  type MoveCheck,
} from "./actions.js";
export {
  SITUATION_IDS,
  criticalActions,
  criticalAfterAction,
  criticalConditions,
  criticalForcedCheck,
  criticalForcedCheckSync,
  criticalInput,
  criticalSituation,
  criticalStartRound,
  criticalVitalsUpdate,
  parseCriticalSituation,
  type CriticalSituationId,
} from "./play.js";
export { quietAttack, quietAfterAttack, type CriticalQuietAttack } from "./quiet.js";
export { declarationOrder, delay, initiativeGroups } from "./initiative.js";
export {
  MANEUVER_DIFFICULTY,
  canConcentrate,
  checkManeuver,
  firstAid,
  maneuverInputOf,
  maneuverPenaltyEffect,
  rollManeuver,
  settleManeuver,
  type FirstAidResult,
  type ManeuverInput,
  type ManeuverOutcome,
  type ManeuverResult,
} from "./maneuver.js";
export {
  checkParry,
  declareParry,
  foeCategory,
  offensiveBonus,
  offensiveTotal,
  parriedOb,
  parryAllocation,
  parryBlocked,
  parryLine,
  parryPool,
  type ParryAllocationView,
  type ParryFoe,
  type ParryFoeLine,
} from "./parry.js";
export {
  EFFECT_TYPES,
  checkAttackTable,
  checkCriticalTable,
  attackColumnBands,
  isCritType,
  lookupAttack,
  lookupCritical,
  parseAttackCode,
  parseAttackColumn,
  parseAttackTable,
  parseCriticalTable,
  withAttackColumn,
  withCriticalSeverity,
  type AttackBand,
  type AttackCode,
  type AttackColumn,
  type AttackRow,
  type AttackTable,
  type CriticalEffect,
  type CriticalEntry,
  type CriticalTable,
  type TableProblem,
} from "./tables.js";
export {
  ATTACK_TABLE_SOURCES,
  CRITICAL_TABLE_SOURCES,
  DEFAULT_TABLES,
  DEFAULT_TABLE_PROBLEMS,
  tableSet,
  woundKeyOfId,
  woundTextKey,
  type CriticalTableSet,
} from "./tables/index.js";

/**
 * The Critical ruleset (seed 003): open-ended d100 attacks looked up on attack tables by weapon
 * class and armor type, criticals rolled on tables by type and severity, parry moving OB into
 * DB, 4 AP a round, initiative once per combat with the lowest declaring first and the highest
 * resolving first. Every `CR-*` rule of `rules-index.md` is implemented by the modules
 * re-exported here. The play contract is in `./play.ts`; the built-in tables are used (see
 * {@link criticalWithTables} for a world's own). Its attacks also play quietly
 * (`../core/quiet.ts`, `./quiet.ts`) for a forecast.
 */
export const critical: Ruleset<CriticalCombatant, CriticalAttackInput> &
  QuietRuleset<CriticalCombatant, CriticalAttackInput> &
  SyncForcedCheck<CriticalCombatant> = {
  id: "critical",
  label: "FRAY.Ruleset.critical",
  options: CRITICAL_OPTIONS,
  defaults: () => Object.fromEntries(CRITICAL_OPTIONS.map((o) => [o.id, o.default])),
  initiativeTiming: () => "combat",
  declaration: "lowest-first",
  groupModes: ["each", "group", "all"],
  initiativeFormula: initiative.initiativeFormula,
  rollInitiative: initiative.rollInitiative,
  order: initiative.order,
  economy: (c) => actions.economy(c),
  movement: (c) => actions.movement(c),
  movementBand: (c, metres) => actions.movementBand(c, metres),
  planAttack: (input) => attack.planAttack(input),
  odds: (plan, input, options) => attack.odds(plan, input, criticalOptions(options)),
  dropOdds: (plan, input, options) => drop.dropOdds(plan, input, criticalOptions(options)),
  reactions: (input) => attack.reactions(input),
  resolveAttack: (plan, input, dice, options) => attack.resolveAttack(plan, input, dice, criticalOptions(options)),
  rollDamage: (result, input, dice) => damage.rollDamage(result, input, dice),
  applyDamage: (target, packet) => damage.applyDamage(target, packet),
  vitals,
  isOut: damage.isOut,
  isOutOf: damage.isOutOf,
  upkeep: async (c, dice) => (await damage.upkeep(c, dice)).report,
  upkeepState: (c, dice) => damage.upkeep(c, dice),
  input: (request, attacker, target, options) => play.criticalInput(request, attacker, target, options),
  situation: (context, options) => play.criticalSituation(context, options),
  actions: (c, options) => play.criticalActions(c, options),
  conditions: () => play.criticalConditions(),
  withVitals,
  vitalsUpdate: (state) => play.criticalVitalsUpdate(state),
  startRound: (c, previous, round, options) => play.criticalStartRound(c, previous, round, options),
  afterAction: (c, outcome, economy, options) => play.criticalAfterAction(c, outcome, economy, options),
  forcedCheck: (c, forced, dice, options) => play.criticalForcedCheck(c, forced, dice, options),
  forcedCheckSync: (c, forced, dice, options) => play.criticalForcedCheckSync(c, forced, dice, options),
  quietForcedCheck: (c, forced, faces) => play.criticalQuietForcedCheck(c, forced, faces),
  quietAttack: quiet.quietAttack,
  quietAfterAttack: (c, done, economy) => quiet.quietAfterAttack(c, done, economy),
};

/**
 * The Critical ruleset playing with a world's own tables (CR-ATK-03, CR-CRT-02): the same
 * ruleset whose `input` lays `tables` over the built-in attack and critical tables, so every
 * attack planned, resolved and rolled from a request reads them. Tables are world data, not a
 * choice of one attack, so they are not a situation field: a host reads the world's tables once
 * (the RollTables found by `flags.fray.tableKey`: attack table columns read with
 * {@link parseAttackColumn} and laid in with {@link withAttackColumn}, critical tables with
 * {@link parseCriticalTable} and {@link withCriticalSeverity})
 * and registers this ruleset in place of {@link critical}.
 * @param tables attack tables by weapon class and critical tables by type; absent ones stay built in.
 */
export function criticalWithTables(
  tables: Partial<CriticalTableSet>,
): Ruleset<CriticalCombatant, CriticalAttackInput> & QuietRuleset<CriticalCombatant, CriticalAttackInput> {
  return { ...critical, input: (request, attacker, target, options) => play.criticalInput(request, attacker, target, options, tables) };
}
