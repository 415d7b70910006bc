/**
 * Critical's play contract (src/rules/core/contract.ts): the attack input built from a neutral
 * request, the situation fields of an attack, the actions and conditions as data, vitals written
 * back to an actor, and the round's lifecycle (start of round, after an action, the forced Self
 * Discipline test) as pure transitions both hosts call.
 */
import { pluralKey } from "../core/i18n.js";
import type {
  ActionDef,
  ActionKind,
  ActionOutcome,
  AttackRequest,
  ConditionSpec,
  ForcedCheckResult,
  LifecycleEvent,
  RoundState,
  SituationContext,
  SituationField,
  VitalsUpdate,
} from "../core/contract.js";
import type { FaceSource } from "../core/dice/formula.js";
import type { DiceRoller, SyncDiceRoller } from "../core/dice/port.js";
import type { Economy } from "../core/economy.js";
import { bool, hasKeys, int, isRecord } from "../core/parse.js";
import type { RulesetOptions } from "../core/ruleset.js";
import type { ForcedCheck, VitalState } from "../core/types.js";
import { ACTIONS, actionCost, apFor, recomputeEconomy, withAp } from "./actions.js";
import { isCriticalResult, type CriticalAttackInput, type CriticalSituation } from "./attack.js";
import { selfDisciplineAfter, selfDisciplineCheckSync, selfDisciplineTest } from "./damage.js";
import { fieldError, isIncapacitated, restate, type CriticalCombatant } from "./model.js";
import type { CriticalTableSet } from "./tables/index.js";

/** Bounds of the number fields of a Critical attack's situation. */
const MODIFIER_BOUNDS = { min: -200, max: 200 } as const;
const COVER_BOUNDS = { min: 0, max: 200 } as const;

/** Ids of the situation fields, in dialog order (CR-ATK-01, CR-PAR-03). */
export const SITUATION_IDS = ["modifier", "cover", "unseen"] as const;
export type CriticalSituationId = (typeof SITUATION_IDS)[number];

/**
 * The situation fields of a Critical attack (CR-ATK-01, CR-PAR-03): the GM's situational
 * `modifier` (added to the roll, -200 to 200), the target's `cover` (deducted with the DB, 0 to
 * 200, per target) and `unseen` (the target cannot see the attack, so its parry does not count;
 * per target). Every Critical attack, melee, missile or energy, has all three: the seed limits
 * none of them to a kind of weapon (RULES.md). The defaults are what `planAttack` reads when a
 * field is absent (0, 0, not unseen): no Critical condition changes them. The parry allocation is
 * not a field: it is the defender's declaration for the round, kept on the defender (`parry`,
 * CR-PAR-01), see {@link criticalInput}. Distance plays no part in Critical's attack tables.
 */
export function criticalSituation(_context: SituationContext<CriticalCombatant>, _options: RulesetOptions = {}): SituationField[] {
  return [
    {
      id: "modifier",
      label: "FRAY.Situation.Critical.modifier",
      hint: "FRAY.Situation.Critical.modifierHint",
      rule: "CR-ATK-01",
      kind: "number",
      ...MODIFIER_BOUNDS,
      step: 1,
      default: 0,
      perTarget: false,
    },
    {
      id: "cover",
      label: "FRAY.Situation.Critical.cover",
      hint: "FRAY.Situation.Critical.coverHint",
      rule: "CR-ATK-01",
      kind: "number",
      ...COVER_BOUNDS,
      step: 1,
      default: 0,
      perTarget: true,
    },
    {
      id: "unseen",
      label: "FRAY.Situation.Critical.unseen",
      hint: "FRAY.Situation.Critical.unseenHint",
      rule: "CR-PAR-03",
      kind: "boolean",
      default: false,
      perTarget: true,
    },
  ];
}

/**
 * Reads the situation values of a Critical attack (CR-ATK-01, CR-PAR-03); a field left out takes
 * its default (0, 0, not unseen).
 * @param values situation values by field id, as a dialog or an encounter file gives them.
 * @param path prefix of the field names in errors (`situation`, `rounds[0].kara.situation`).
 * @throws FrayError `FRAY.Error.Field` naming `<path>.<id>` for an unknown field, a value of the
 *   wrong kind or a number out of bounds.
 */
export function parseCriticalSituation(values: unknown, path = "situation"): Required<CriticalSituation> {
  if (values === undefined || values === null) return { modifier: 0, cover: 0, unseen: false };
  if (!isRecord(values)) throw fieldError(path, "an object of situation values by field id");
  // No value given (every attack of a forecast): every field at its default (what the reads below give for it).
  if (!hasKeys(values)) return { modifier: 0, cover: 0, unseen: false };
  const keys = Object.keys(values);
  for (const id of keys) {
    if (!(SITUATION_IDS as readonly string[]).includes(id))
      throw fieldError(`${path}.${id}`, `one of the situation fields ${SITUATION_IDS.join(", ")}`);
  }
  const bounded = (id: CriticalSituationId, b: { min: number; max: number }): number => {
    const v = int(values, id, path, 0, -Infinity, `a whole number from ${b.min} to ${b.max}`);
    if (v < b.min || v > b.max) throw fieldError(`${path}.${id}`, `a whole number from ${b.min} to ${b.max}`);
    return v;
  };
  return {
    modifier: bounded("modifier", MODIFIER_BOUNDS),
    cover: bounded("cover", COVER_BOUNDS),
    unseen: bool(values, "unseen", path, false),
  };
}

/** Reactions a request may name: a Critical parry is declared in advance, so only it (or none). */
const REQUEST_REACTIONS = ["parry", "none"];

/**
 * Builds a Critical attack input from a neutral request (CR-ATK-01, CR-PAR-01 to CR-PAR-03).
 * The situation values go through {@link parseCriticalSituation}; the distance is checked but
 * not used, since Critical's attack tables do not read it. The defender's parry is the
 * allocation it declared for the round (its `parry`, OB by foe id, set by `declareParry`):
 * `reaction` may name `parry` or `none` and changes nothing, as the allocation already counts
 * against every attack of the foes it names. Critical weapons have no modes.
 * @param tables a GM's own attack and critical tables, laid over the built-in ones; a host
 *   passes them through {@link criticalWithTables}.
 * @throws FrayError `FRAY.Error.Field` naming `targetId` (no target: Critical has no area
 *   attacks), `modeId`, `distanceMetres`, `reaction` or `situation.<id>`.
 */
export function criticalInput(
  request: AttackRequest,
  attacker: CriticalCombatant,
  target: CriticalCombatant | undefined,
  _options: RulesetOptions = {},
  tables?: Partial<CriticalTableSet>,
): CriticalAttackInput {
  if (!target) throw fieldError("targetId", "a target combatant (Critical attacks one target)");
  if (request.modeId !== undefined && request.modeId !== "") throw fieldError("modeId", "no mode (Critical weapons have none)");
  const d = request.distanceMetres;
  if (d !== undefined && (typeof d !== "number" || !Number.isFinite(d) || d < 0)) throw fieldError("distanceMetres", "metres, 0 or more");
  if (request.reaction !== undefined && !REQUEST_REACTIONS.includes(request.reaction))
    throw fieldError("reaction", REQUEST_REACTIONS.join(" or "));
  const input: CriticalAttackInput = {
    attacker,
    target,
    weaponId: request.weaponId,
    situation: parseCriticalSituation(request.situation ?? {}),
  };
  if (tables) input.tables = tables;
  return input;
}

const ACTION_KINDS: Record<string, ActionKind> = { attack: "attack", move: "move", parry: "reaction" };
/** Actions aimed at one combatant: an attack, first aid to a dying ally, a treatment of oneself or another (CR-BLD-02). */
const ONE_TARGET = ["attack", "firstAid", "staunch", "bandage", "tourniquet", "medkit", "smother", "dropAndRoll"];

/**
 * The actions of a Critical round with their AP costs (CR-AP-01, RULES.md), from {@link ACTIONS}:
 * an attack 2 AP, a maneuver 2, each further Base Move 1, readying 1, reloading 2, treatments
 * 1 to 4, first aid 4, the parry declaration and a delay 0. Costs are in the `ap` pool.
 */
export function criticalActions(_c: CriticalCombatant, _options: RulesetOptions = {}): ActionDef[] {
  return ACTIONS.map((a) => ({
    id: a.id,
    label: a.label,
    rule: a.rule,
    kind: ACTION_KINDS[a.id] ?? "other",
    cost: actionCost(a.id),
    target: ONE_TARGET.includes(a.id) ? "one" : "none",
  }));
}

/**
 * The conditions the Critical core reads (RULES.md): `unconscious` (a knock-out or a failed Self
 * Discipline test, CR-HIT-02), `blackout` (more stun than Physique ranks, until the stun has run
 * out, CR-STN-03), `down` (dying, CR-DTH-01), `dead` (CR-CRT-02) take a combatant out of the
 * fight; `constrained` stops parrying and moving (CR-PAR-03). Stun is a count of rounds
 * (`stun`), not a condition.
 */
export function criticalConditions(): ConditionSpec[] {
  return [
    {
      id: "unconscious",
      label: "FRAY.Condition.unconscious",
      icon: "icons/svg/unconscious.svg",
      rule: "CR-HIT-02",
      duration: "permanent",
      out: true,
    },
    { id: "blackout", label: "FRAY.Condition.blackout", icon: "icons/svg/daze.svg", rule: "CR-STN-03", duration: "rounds", out: true },
    { id: "down", label: "FRAY.Condition.down", icon: "icons/svg/blood.svg", rule: "CR-DTH-01", duration: "permanent", out: true },
    { id: "dead", label: "FRAY.Condition.dead", icon: "icons/svg/skull.svg", rule: "CR-CRT-02", duration: "permanent", out: true },
    { id: "constrained", label: "FRAY.Condition.constrained", icon: "icons/svg/net.svg", rule: "CR-PAR-03", duration: "permanent" },
  ];
}

/**
 * The actor source update that stores a Critical vital state (CR-HIT-01, CR-STN-02, CR-CRT-02):
 * `system.hits.value`, `system.stun` and `system.effects` (bleeding and burning wounds,
 * penalties, injuries, knock-outs, dying), the fields `criticalCombatantFromActor` reads back.
 * Maximum hits come from Physique and are not written; bleeding is the sum of the wounds;
 * conditions are status effects, not system fields.
 */
export function criticalVitalsUpdate(state: VitalState): VitalsUpdate {
  const system: Record<string, unknown> = {
    stun: state.stun ?? 0,
    effects: (state.effects ?? []).map((e) => ({
      ...e,
      ...(e.stops ? { stops: [...e.stops] } : {}),
      ...(e.treated ? { treated: [...e.treated] } : {}),
    })),
  };
  if (state.hp) system.hits = { value: state.hp.value };
  return { system };
}

const apOf = (e: Economy) => e.pools.ap ?? { value: 0, max: 0 };

/**
 * The start of a round for one combatant (CR-AP-01, CR-STN-01, CR-PAR-01): 4 AP, 2 while
 * stunned, none while out of the fight; AP are not carried over, so `previous` is not read. The
 * parry of the last round ends: a new one is declared with this round's declarations. Run it
 * after the round's `upkeep` (bleeding, stun, dying, Self Discipline), so the AP follow the stun
 * left after the count-down.
 * @returns the combatant (parry cleared), its fresh economy, and events: the parry ended, the AP
 *   halved by stun, no AP while out of the fight.
 */
export function criticalStartRound(
  c: CriticalCombatant,
  _previous: Economy | undefined,
  _round: number,
  _options: RulesetOptions = {},
): RoundState<CriticalCombatant> {
  const events: LifecycleEvent[] = [];
  let combatant = c;
  if (hasKeys(c.parry)) {
    combatant = restate(c, c.hits, c.stun, c.conditions, c.effects, {});
    events.push({ rule: "CR-PAR-01", label: "FRAY.Critical.Lifecycle.ParryEnds", data: { actor: c.name } });
  }
  const ap = apFor(combatant);
  // `createEconomy(economy(combatant))`, built at once: the one pool, full (every combatant, every round).
  const fresh: Economy = { slots: {}, pools: { ap: { value: ap, max: ap } } };
  if (isIncapacitated(combatant)) events.push({ rule: "CR-AP-01", label: "FRAY.Critical.Lifecycle.NoAp", data: { actor: c.name } });
  else if (combatant.stun > 0)
    events.push({
      rule: "CR-STN-01",
      label: pluralKey("FRAY.Critical.Lifecycle.StunnedRound", combatant.stun),
      data: { actor: c.name, ap, stun: combatant.stun },
    });
  return { combatant, economy: fresh, events };
}

/**
 * After an action, for every combatant it changed: the actor, and each target once its damage
 * and any forced check are applied (CR-AP-02: effects apply at once).
 * - A fumble ends the attacker's round: its AP left are lost (CR-ATK-01, RULES.md *Fumbles*).
 * - The round's AP follow the combatant's state: a stun or a knock-out that arrived shrinks them
 *   to what it now has (half while stunned, none out of the fight) less what it already spent,
 *   never growing ({@link recomputeEconomy}, CR-STN-01, CR-AP-02).
 * @param c the combatant as it stands after the action (after `withVitals` of the damage).
 * @returns the combatant unchanged, its economy, and events: `Fumble` (`lost` AP), `ApCut`
 *   (stunned, `ap` of `max`), `NoAp` (out of the fight).
 */
export function criticalAfterAction(
  c: CriticalCombatant,
  outcome: ActionOutcome,
  economyNow: Economy,
  _options: RulesetOptions = {},
): RoundState<CriticalCombatant> {
  const events: LifecycleEvent[] = [];
  let next = economyNow;
  if (
    outcome.kind === "attack" &&
    outcome.result.plan.attackerId === c.id &&
    isCriticalResult(outcome.result) &&
    outcome.result.detail.fumble
  ) {
    const ap = apOf(next);
    next = withAp(next, { value: 0, max: ap.max });
    events.push({ rule: "CR-ATK-01", label: "FRAY.Critical.Lifecycle.Fumble", data: { actor: c.name, lost: ap.value } });
  }
  const before = apOf(next).max;
  next = recomputeEconomy(next, c);
  const after = apOf(next);
  if (after.max < before) {
    if (isIncapacitated(c)) events.push({ rule: "CR-AP-02", label: "FRAY.Critical.Lifecycle.NoAp", data: { actor: c.name } });
    else
      events.push({
        rule: "CR-STN-01",
        label: "FRAY.Critical.Log.ApCut",
        data: { actor: c.name, ap: after.value, max: after.max, stun: c.stun },
      });
  }
  return { combatant: c, economy: next, events };
}

/**
 * Rolls the Self Discipline test that `applyDamage` asks for when the hits reach 0 or below
 * (CR-HIT-02): d100 + the SD bonus - the hits below zero, 101 or more stays conscious for the
 * round; a failure leaves the combatant unconscious for the rest of the fight. The later tests,
 * one each round, are part of `upkeep`.
 * @returns the test, and the vital state before and after it (`after.conditions` holds
 *   `unconscious` on a failure); the host puts it back with `withVitals`.
 * @throws FrayError `FRAY.Error.Field` naming `forced.id` for a check other than `selfDiscipline`.
 */
export async function criticalForcedCheck(
  c: CriticalCombatant,
  forced: ForcedCheck,
  dice: DiceRoller,
  _options: RulesetOptions = {},
): Promise<ForcedCheckResult> {
  if (forced.id !== "selfDiscipline") throw fieldError("forced.id", "selfDiscipline (CR-HIT-02)");
  return forcedCheckFrom(forced, await selfDisciplineTest(c, dice));
}

/**
 * {@link criticalForcedCheck} rolled at once, with a roller that rolls so: the same faces drawn,
 * the same result (CR-HIT-02).
 * @throws FrayError as {@link criticalForcedCheck}.
 */
export function criticalForcedCheckSync(
  c: CriticalCombatant,
  forced: ForcedCheck,
  dice: SyncDiceRoller,
  _options: RulesetOptions = {},
): ForcedCheckResult {
  if (forced.id !== "selfDiscipline") throw fieldError("forced.id", "selfDiscipline (CR-HIT-02)");
  // The combatant's next state is the host's to build (`withVitals` of `after`): not built here.
  const sd = selfDisciplineCheckSync(c, dice);
  return {
    forced,
    check: sd.test.check,
    needed: sd.test.needed,
    success: sd.test.success,
    report: { before: sd.before, after: sd.after, steps: [], added: sd.added },
  };
}

/**
 * {@link criticalForcedCheckSync} rolled quietly (`QuietRuleset.quietForcedCheck`): the combatant
 * after the Self Discipline test from the same faces, drawn from `next`; no result is built (CR-HIT-02).
 * @throws FrayError as {@link criticalForcedCheckSync}.
 */
export function criticalQuietForcedCheck(c: CriticalCombatant, forced: ForcedCheck, next: FaceSource): CriticalCombatant {
  if (forced.id !== "selfDiscipline") throw fieldError("forced.id", "selfDiscipline (CR-HIT-02)");
  return selfDisciplineAfter(c, next);
}

/** The forced check's result from the Self Discipline test rolled. */
function forcedCheckFrom(forced: ForcedCheck, sd: Awaited<ReturnType<typeof selfDisciplineTest>>): ForcedCheckResult {
  return {
    forced,
    check: sd.test.check,
    needed: sd.test.needed,
    success: sd.test.success,
    report: { before: sd.report.before, after: sd.report.after, steps: sd.report.steps, added: sd.report.added },
  };
}
