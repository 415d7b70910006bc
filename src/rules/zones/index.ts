import type { QuietRuleset } from "../core/quiet.js";
import type { SyncInitiative } from "../core/round.js";
import type { Ruleset } from "../core/ruleset.js";
import * as attack from "./attack.js";
import * as damage from "./damage.js";
import * as drop from "./drop.js";
import type { ZonesAttackInput } from "./input.js";
import * as initiative from "./initiative.js";
import * as play from "./play.js";
import { sourceRoller } from "../core/dice/port.js";
import type { ZonesCombatant } from "./model.js";
import { ZONES_OPTIONS, zonesOptionsOf } from "./options.js";
import * as turn from "./turn.js";

export { parseSituation, type ZonesAttackInput, type ZonesSituation, type TargetArea } from "./input.js";
export * from "./model.js";
export { ZONES_OPTIONS, zonesOptions, zonesOptionsOf, type ZonesOptions } from "./options.js";
export {
  AIM_BONUS,
  BASE_DIFFICULTY,
  ENVIRONMENT_MODIFIER,
  MOVEMENT_MODIFIER,
  SIZE_RANGE_TABLE,
  STANCE_MODIFIER,
  STANCE_SIZE_STEPS,
  aimedZoneSize,
  rangeBand,
  rangeBands,
  rangedDifficulty,
  rangedDifficultyTotal,
  shiftSize,
  sizeFromStance,
  type EnvironmentId,
  type RangeBandBounds,
  type RangedFactors,
} from "./difficulty.js";
export {
  CHECK_DIE,
  CONTEST_REROLLS,
  SEARCH_BONUS,
  attributeLine,
  blockLines,
  chanceToMeet,
  checkFormula,
  contest,
  contestLines,
  hideWeapon,
  assertConcealable,
  hiddenWeapons,
  rollCheck,
  skillCheck,
  skillLines,
  skillModifier,
  type ContestResult,
  type HidingResult,
  type SkillCheckResult,
} from "./checks.js";
export {
  ADJACENT_SQUARES,
  DEFAULT_AUTO_BULLETS,
  MELEE_REACH,
  attackDifficulty,
  attackModifier,
  declaredReactionId,
  reactionCost,
  reactionModifier,
  reactionReason,
  rollAttack,
  usableWeapon,
  bulletDifficulties,
  bulletsHit,
  bulletsOf,
  isIncapacitated,
  targetMovementOf,
  weaponOf,
  withMovedLegs,
  type ZonesAttackResult,
  type ZonesRolled,
} from "./attack.js";
export {
  HIT_ZONE_DICE,
  HIT_ZONE_TABLE,
  SURROUNDING,
  ZONE_MULTIPLIER,
  damageTypeOf,
  hasFullBodyArmor,
  hitLocation,
  hitPoints,
  isVital,
  rollBullet,
  rollHitZone,
  vitalOutcome,
  zoneArmor,
  zoneForRoll,
  type HitZoneRow,
  type VitalOutcome,
  type ZonesDamagePacket,
} from "./damage.js";
export {
  DRAW_ACTIONS,
  STOPPAGES,
  SUPPRESSION_GUIDE,
  afterShot,
  catastrophicDamage,
  clearMalfunction,
  draw,
  reload,
  startSuppression,
  suppressAction,
  suppressionActionsLeft,
  type Suppression,
  type TaskProgress,
} from "./firearms.js";
export { FIRING_MODES, NONE, SITUATION_IDS, afterAttack, attackOutcome, type ZonesAttackOutcome } from "./play.js";
export { resolveBlast, type BlastCover, type BlastOutcome, type BlastVictim } from "./grenades.js";
export { endSurprise, initiativeLines, rollInitiativeSync, spendInitiativeEffort, startSurprise } from "./initiative.js";
export {
  REACTION_RESPONSES,
  TRIGGER_MAX_LENGTH,
  playReaction,
  reactionStatus,
  reactionVisible,
  readReaction,
  storedReactions,
  type ReactionClock,
  type ReactionResponse,
  type ReactionStatus,
  type StoredReaction,
} from "./reactions.js";
export {
  ACTIONS,
  ATTACK_COST,
  FREE_TALK_WORDS,
  MOVE_RATES,
  declareReaction,
  expireReactions,
  isSurprised,
  legPoints,
  planMove,
  regainSpeed,
  rollsInitiative,
  roundEconomy,
  stanceCost,
  talkCost,
  triggerReaction,
  type ActionDef,
  type DeclaredReaction,
  type MoveLeg,
  type MoveMode,
  type MovePlan,
  type StanceLeg,
} from "./turn.js";

/**
 * The Zones ruleset (seed 004): d10 checks against itemized difficulties from effective-range
 * bands, size, movement, stance and aim; bursts with recoil; 2d6 hit zones with multipliers and
 * vital organs; speed and effort points; initiative every round (or fixed) after the players
 * plot. Every `ZN-*` rule of `rules-index.md` is implemented by the modules re-exported here.
 * The play contract (`./play.ts`): attack input from a neutral request, situation fields,
 * actions, conditions, vitals written back, and the round's lifecycle (aim lost, movement reset,
 * speed and effort carried over, ammunition spent); no forced checks (Zones damage forces none).
 * Its attacks also play with totals only (`attackOutcome`, the same functions without their
 * itemized lines) and its initiative rolls synchronously (`SyncInitiative`) for a forecast.
 */
export const zones: Ruleset<ZonesCombatant, ZonesAttackInput> &
  QuietRuleset<ZonesCombatant, ZonesAttackInput> &
  SyncInitiative<ZonesCombatant> = {
  id: "zones",
  label: "FRAY.Ruleset.zones",
  options: ZONES_OPTIONS,
  defaults: () => Object.fromEntries(ZONES_OPTIONS.map((o) => [o.id, o.default])),
  initiativeTiming: (options) => (zonesOptionsOf(options).fixedInitiative ? "combat" : "round"),
  declaration: "players-first",
  groupModes: ["each"],
  initiativeFormula: initiative.initiativeFormula,
  rollInitiative: initiative.rollInitiative,
  rollInitiativeSync: initiative.rollInitiativeSync,
  order: initiative.order,
  economy: (c, options) => turn.economy(c, zonesOptionsOf(options)),
  movement: (c, options) => turn.movement(c, zonesOptionsOf(options)),
  movementBand: (c, metres, options) => turn.movementBand(c, metres, zonesOptionsOf(options)),
  planAttack: (input, options, economy) => attack.planAttack(input, zonesOptionsOf(options), economy),
  odds: (plan, input) => attack.odds(plan, input),
  dropOdds: (plan, input, options) => drop.dropOdds(plan, input, zonesOptionsOf(options)),
  reactions: (input, economy, options) => attack.reactions(input, economy, zonesOptionsOf(options)),
  resolveAttack: (plan, input, dice) => attack.resolveAttack(plan, input, dice),
  rollDamage: (result, input, dice) =>
    damage.rollDamage(result, attack.weaponOf(input), dice, input.damageType, Boolean(input.situation?.exposedVitals)),
  applyDamage: (target, packet, options) => damage.applyDamage(target, packet, zonesOptionsOf(options)),
  vitals: damage.vitals,
  isOut: damage.isOut,
  isOutOf: damage.isOutOf,
  input: play.input,
  withReaction: play.withReaction,
  situation: play.situation,
  actions: play.actions,
  conditions: play.conditions,
  withVitals: play.withVitals,
  vitalsUpdate: play.vitalsUpdate,
  startRound: play.startRound,
  startRoundQuiet: play.startRoundQuiet,
  afterAction: play.afterAction,
  quietAttack: (input, faces, options, economy, base) => play.attackOutcome(input, sourceRoller(faces), options, economy, base),
  quietAfterAttack: (c, done, economy) => play.afterAttack(c, done.weaponId, done as play.ZonesAttackOutcome, economy),
};
