import type { Ruleset } from "../core/ruleset.js";
import * as actions from "./actions.js";
import * as attack from "./attack.js";
import type { CriticalAttackInput } from "./attack.js";
import * as damage from "./damage.js";
import * as initiative from "./initiative.js";
import { vitals, type CriticalCombatant } from "./model.js";
import { CRITICAL_OPTIONS, criticalOptions } from "./options.js";

export * from "./model.js";
export { CRITICAL_OPTIONS, criticalOptions, type CriticalOptions } from "./options.js";
export {
  OPEN_ENDED_D100,
  attackTableOf,
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
} from "./attack.js";
export {
  TREATMENTS,
  applyEffect,
  isDying,
  selfDisciplineDue,
  selfDisciplineTest,
  stabilize,
  treat,
  upkeep,
  type CriticalDamagePacket,
  type CriticalOutcome,
  type Treatment,
} from "./damage.js";
export { ACTIONS, AP_PER_ROUND, actionCost, apFor, checkMove, recomputeEconomy, type CriticalAction, type MoveCheck } from "./actions.js";
export { declarationOrder, delay, initiativeGroups } from "./initiative.js";
export { canConcentrate, maneuverPenaltyEffect, rollManeuver, settleManeuver, type ManeuverInput, type ManeuverOutcome, type ManeuverResult } from "./maneuver.js";
export { declareParry, offensiveBonus, parriedOb, parryBlocked, parryLine, parryPool } from "./parry.js";
export {
  EFFECT_TYPES,
  checkAttackTable,
  checkCriticalTable,
  isCritType,
  lookupAttack,
  lookupCritical,
  parseAttackCode,
  parseAttackTable,
  parseCriticalTable,
  type AttackCode,
  type AttackRow,
  type AttackTable,
  type CriticalEffect,
  type CriticalEntry,
  type CriticalTable,
  type TableProblem,
} from "./tables.js";
export { ATTACK_TABLE_SOURCES, CRITICAL_TABLE_SOURCES, DEFAULT_TABLES, DEFAULT_TABLE_PROBLEMS, tableSet, type CriticalTableSet } from "./tables/index.js";

/**
 * The Critical ruleset (seed 003): open-ended d100 attacks looked up on attack tables by weapon
 * class and armor type, criticals rolled on tables by type and severity, parry moving OB into
 * DB, 4 AP a round, initiative once per combat with the lowest declaring first and the highest
 * resolving first. Every `CR-*` rule of `rules-index.md` is implemented by the modules
 * re-exported here.
 */
export const critical: Ruleset<CriticalCombatant, CriticalAttackInput> = {
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
  reactions: (input) => attack.reactions(input),
  resolveAttack: (plan, input, dice, options) => attack.resolveAttack(plan, input, dice, criticalOptions(options)),
  rollDamage: (result, input, dice) => damage.rollDamage(result, input, dice),
  applyDamage: (target, packet) => damage.applyDamage(target, packet),
  vitals,
  isOut: damage.isOut,
  upkeep: async (c, dice) => (await damage.upkeep(c, dice)).report,
};
