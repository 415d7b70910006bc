import type { QuietRuleset } from "../core/quiet.js";
import type { SyncInitiative } from "../core/round.js";
import type { Ruleset } from "../core/ruleset.js";
import * as attack from "./attack.js";
import * as damage from "./damage.js";
import * as drop from "./drop.js";
import type { Ud10AttackInput } from "./input.js";
import * as initiative from "./initiative.js";
import type { Ud10Combatant } from "./model.js";
import * as move from "./movement.js";
import { UD10_OPTIONS, ud10Flag, ud10Options } from "./options.js";
import * as play from "./play.js";
import { sourceRoller } from "../core/dice/port.js";

export type { Ud10AttackInput, Ud10Situation } from "./input.js";
export * from "./model.js";
export { UD10_OPTIONS, ud10Options, type Ud10Options } from "./options.js";
export {
  AIM_COST,
  aimRounds,
  CHECK_DICE,
  checkFormula,
  actingWith,
  attackModifiers,
  declaredReactionFor,
  defenseRating,
  defenseLines,
  OUT_CONDITIONS,
  rangePenalty,
  reactionOutcome,
  reactionReason,
  resolveReaction,
  rollAttack,
  situationDefaults,
  skillValue,
  withReactionResult,
  isIncapacitated,
} from "./attack.js";
export { initiativeGroups, initiativeValue, rerollEachRound } from "./initiative.js";
export {
  ACTIONS,
  disengage,
  movementBand,
  movementCharge,
  movementCost,
  movementPaid,
  skillRollIsAction,
  standardMovement,
  SQUARE_METRES,
  type Disengagement,
} from "./movement.js";
export {
  ud10Actions,
  ud10AfterAction,
  ud10Conditions,
  ud10Input,
  ud10Situation,
  ud10StartRound,
  ud10AttackOutcome,
  ud10AfterAttack,
  ud10VitalsUpdate,
  ud10WithVitals,
} from "./play.js";
export { BODY_ZONE_TABLE, bodyZone, zoneForFace, zoneArmor, averagedArmor, armorFor, rollBodyZone } from "./zones.js";
export { rollDamageOf, takeHit, withHit, type Ud10Hit } from "./damage.js";

/** What `reactions` reads of the options: the dodge allowed or not (UD-REA-04). */
const DODGE = Object.freeze({ allowDodge: true });
const NO_DODGE = Object.freeze({ allowDodge: false });

/**
 * The UD10 ruleset (seeds 000 and 001; 001 stands where they differ). Every `UD-*` rule of
 * `rules-index.md` is implemented by the modules re-exported here. Its attacks also play with totals
 * only (`ud10AttackOutcome`, the same functions without their itemized lines) and its initiative rolls synchronously (`SyncInitiative`) for a forecast.
 */
export const ud10: Ruleset<Ud10Combatant, Ud10AttackInput> & QuietRuleset<Ud10Combatant, Ud10AttackInput> & SyncInitiative<Ud10Combatant> =
  {
    id: "ud10",
    label: "FRAY.Ruleset.ud10",
    options: UD10_OPTIONS,
    defaults: () => Object.fromEntries(UD10_OPTIONS.map((o) => [o.id, o.default])),
    initiativeTiming: (options) =>
      initiative.rerollEachRound({ initiativeCarryOver: ud10Flag(options, "initiativeCarryOver") }) ? "round" : "combat",
    declaration: "none",
    groupModes: ["each", "group", "all"],
    initiativeFormula: initiative.initiativeFormula,
    rollInitiative: initiative.rollInitiative,
    rollInitiativeSync: initiative.rollInitiativeSync,
    order: initiative.order,
    economy: () => move.economy(),
    movement: (c) => move.movement(c),
    movementBand: (c, metres) => move.movementBand(c, metres),
    planAttack: (input, options, economy) => attack.planAttack(input, ud10Options(options), economy),
    odds: (plan) => attack.odds(plan),
    dropOdds: (plan, input, options) => drop.dropOdds(plan, input, ud10Options(options)),
    reactions: (input, economy, options) => attack.reactions(input, economy, ud10Flag(options, "allowDodge") ? DODGE : NO_DODGE),
    resolveAttack: (plan, _input, dice, options) => attack.resolveAttack(plan, dice, ud10Options(options)),
    rollDamage: (result, input, dice, options) => damage.rollDamage(result, input, dice, ud10Options(options)),
    applyDamage: (target, packet, options) => damage.applyDamage(target, packet, ud10Options(options)),
    input: play.ud10Input,
    withReaction: play.ud10WithReaction,
    situation: (context) => play.ud10Situation(context),
    actions: (c, options) => play.ud10Actions(c, options),
    conditions: play.ud10Conditions,
    withVitals: play.ud10WithVitals,
    vitalsUpdate: play.ud10VitalsUpdate,
    startRound: (c, previous) => play.ud10StartRound(c, previous),
    afterAction: (c, outcome, economy, options) => play.ud10AfterAction(c, outcome, economy, options),
    vitals: damage.vitals,
    isOut: damage.isOut,
    isOutOf: damage.isOutOf,
    quietAttack: (input, faces, options, economy) => play.ud10AttackOutcome(input, sourceRoller(faces), options, economy),
    quietAfterAttack: (c, _done, economy) => play.ud10AfterAttack(c, economy),
  };
export { VITAL_CONDITIONS, vitalConditions } from "./vitals.js";
