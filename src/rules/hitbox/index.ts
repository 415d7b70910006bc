import type { QuietRuleset } from "../core/quiet.js";
import type { SyncForcedCheck } from "../core/round.js";
import type { Ruleset } from "../core/ruleset.js";
import * as attack from "./attack.js";
import * as damage from "./damage.js";
import * as drop from "./drop.js";
import type { HitboxAttackInput } from "./input.js";
import { metresToFeet, type HitboxCombatant } from "./model.js";
import { HITBOX_OPTIONS, hitboxOptionsOf } from "./options.js";
import * as play from "./play.js";
import { sourceRoller } from "../core/dice/port.js";
import * as turn from "./turn.js";

export type { HitboxAttackInput, HitboxSituation, RolledReaction } from "./input.js";
export * from "./model.js";
export { HITBOX_OPTIONS, hitboxOptions, hitboxOptionsOf, type HitboxOptions } from "./options.js";
export {
  BASE_DIFFICULTY,
  CLOSE_FEET,
  FAR_FEET,
  attackModifier,
  baseDifficulty,
  beats,
  circumstanceModifier,
  circumstances,
  declaredOption,
  disabledLimb,
  isDamaged,
  isDisabled,
  isDown,
  limbsFor,
  mainArm,
  neverSawItComing,
  reactAfterAttack,
  rangeModifier,
  rangeValue,
  rapidFireModifier,
  rapidFireValue,
  reactionDifficulty,
  reactionDifficultyTotal,
  reactionReason,
  rollAttack,
  testBonus,
  testModifier,
  usableWeapon,
  testPmf,
  weaponOf,
  type HitboxAttackResult,
  type HitboxReactionOption,
  type HitboxRolled,
} from "./attack.js";
export {
  BLACKOUT_CHECK,
  BLACKOUT_DIFFICULTY,
  SHOCK_EFFECT,
  applyVitals,
  armorTracks,
  blackoutOutcome,
  blackoutTest,
  blackoutTestSync,
  damageOf,
  shockEffect,
  takeHit,
  type BlackoutResult,
  type HitboxHit,
} from "./damage.js";
export {
  HITBOX_ACTIONS,
  HITBOX_REACTIONS,
  REGULAR_SHOT,
  SITUATION_IDS,
  actionDefs,
  afterAction,
  afterAttack,
  attackOutcome,
  armorItemUpdates,
  attackInput,
  conditionSpecs,
  forcedCheck,
  forcedCheckDue,
  forcedCheckSync,
  quietAfterAttack,
  reactionRefusal,
  situationFields,
  startRound,
  vitalsUpdate,
  type HitboxAttackRequest,
  type HitboxQuietAttack,
} from "./play.js";
export {
  CALLABLE,
  CALLED_THRESHOLDS,
  REGULAR_LOCATIONS,
  calledChance,
  calledLocation,
  locationFor,
  locationOf,
  regularLocation,
  rollLocation,
} from "./location.js";
export {
  MOVES,
  QUICK_ACTIONS,
  TURN_SECONDS,
  activeOn,
  checkDeclarations,
  durationWindow,
  elapsedSeconds,
  endTurn,
  interrupts,
  movementBandFeet,
  opposedTest,
  quickAction,
  resolutionSteps,
  simultaneousInitiative,
  type Declaration,
  type DeclaredAction,
  type OpposedResult,
  type OpposedSide,
  type QuickAction,
  type QuickActionId,
  type ResolutionStep,
  type TurnWindow,
} from "./turn.js";

/**
 * The Hitbox ruleset (seed 002): 2d6 tests against 9 or the defender's dodge or parry, called
 * shots, per-hitbox damage with armor first, the Blackout test, and turns of 5 s where all declare
 * and then resolve together. Ranges are in feet (the play contract's requests give metres).
 * Every `HB-*` rule of `rules-index.md` is implemented by the modules re-exported here. Its
 * attacks also play with totals only (`attackOutcome`, the same functions without their itemized
 * lines) for a forecast.
 */
export const hitbox: Ruleset<HitboxCombatant, HitboxAttackInput> &
  QuietRuleset<HitboxCombatant, HitboxAttackInput> &
  SyncForcedCheck<HitboxCombatant> = {
  id: "hitbox",
  label: "FRAY.Ruleset.hitbox",
  options: HITBOX_OPTIONS,
  defaults: () => Object.fromEntries(HITBOX_OPTIONS.map((o) => [o.id, o.default])),
  initiativeTiming: () => "none",
  declaration: "simultaneous",
  groupModes: ["all"],
  initiativeFormula: () => "0",
  rollInitiative: (members) => Promise.resolve(turn.simultaneousInitiative(members)),
  order: (rolls) => [...rolls],
  economy: () => turn.economy(),
  movement: (c) => turn.movement(c),
  movementBand: (c, metres) => turn.movementBandFeet(c, metresToFeet(metres)),
  planAttack: (input, options, economy) => attack.planAttack(input, hitboxOptionsOf(options), economy),
  odds: (plan, input, options) => attack.odds(plan, input, hitboxOptionsOf(options)),
  dropOdds: (plan, input, options) => drop.dropOdds(plan, input, hitboxOptionsOf(options)),
  reactions: (input, economy, options) => attack.reactions(input, economy, hitboxOptionsOf(options)),
  resolveAttack: (plan, input, dice, options) => attack.resolveAttack(plan, input, dice, hitboxOptionsOf(options)),
  rollDamage: (result, input, dice) => damage.rollDamage(result, input, dice),
  applyDamage: (target, packet, options) => damage.applyDamage(target, packet, hitboxOptionsOf(options)),
  vitals: damage.vitals,
  isOut: damage.isOut,
  isOutOf: damage.isOutOf,
  input: (request, attacker, target) => play.attackInput(request, attacker, target),
  situation: (context) => play.situationFields(context),
  actions: (c) => play.actionDefs(c),
  conditions: () => play.conditionSpecs(),
  withVitals: damage.applyVitals,
  vitalsUpdate: play.vitalsUpdate,
  startRound: (c, _previous, _round, options) => play.startRound(c, hitboxOptionsOf(options)),
  afterAction: (c, outcome, economy) => play.afterAction(c, outcome, economy),
  forcedCheck: (c, forced, dice) => play.forcedCheck(c, forced, dice),
  forcedCheckSync: (c, forced, dice) => play.forcedCheckSync(c, forced, dice),
  quietForcedCheck: (c, forced, faces) => play.quietForcedCheck(c, forced, faces),
  quietAttack: (input, faces, options, economy, base) => play.attackOutcome(input, sourceRoller(faces), options, economy, base),
  quietAfterAttack: (c, done, economy) => play.quietAfterAttack(c, done, economy),
};
