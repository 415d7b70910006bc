/**
 * The Hitbox play contract (src/rules/core/contract.ts): a neutral attack request becomes a
 * {@link HitboxAttackInput} (metres to feet), the attack dialog's situation fields, the turn's
 * actions with their costs, the conditions the core reads, vitals written back to an actor
 * source, and the turn's lifecycle (HB-RND-01, HB-ACT-03, HB-ACT-04, HB-ATK-03, HB-DMG-04) as
 * pure transitions. Distances arrive in **metres** and are worked in **feet**.
 */
import { pluralKey } from "../core/i18n.js";
import type {
  ActionDef,
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
import { canRollSync, sourceRoller, type DiceRoller, type SyncDiceRoller } from "../core/dice/port.js";
import { spend, type ActionCost, type Economy } from "../core/economy.js";
import type { QuietAttack } from "../core/quiet.js";
import type { RulesetOptions } from "../core/ruleset.js";
import { FrayError } from "../core/errors.js";
import { fieldError, int, isRecord, oneOf } from "../core/parse.js";
import { sumModifiers, type ForcedCheck, type RuleId, type VitalState } from "../core/types.js";
import {
  attackModifier,
  BASE_DIFFICULTY,
  declaredOption,
  isDown,
  reactionReason,
  rollAttack,
  usableWeapon,
  weaponOf,
  type HitboxAttackResult,
} from "./attack.js";
import {
  BLACKOUT_DIFFICULTY,
  blackoutOutcome,
  damageOf,
  takeHit,
  blackoutTest,
  blackoutTestSync,
  SHOCK_EFFECT,
  vitals,
  vitalsAfter,
  type BlackoutResult,
} from "./damage.js";
import type { HitboxAttackInput, HitboxSituation, RolledReaction } from "./input.js";
import { CALLABLE } from "./location.js";
import { hasCondition, HITBOXES, metresToFeet, restate, type HitboxCombatant, type HitboxId } from "./model.js";
import { hitboxOptionsOf, type HitboxOptions } from "./options.js";
import { endTurn, movement, QUICK_ACTIONS, quickAction, type QuickActionId } from "./turn.js";

/**
 * A Hitbox attack request: the neutral request plus, optionally, the defender's dodge or parry
 * when it was already rolled this turn (HB-ATK-03: one reaction a turn, its total standing
 * against every attack). It is state of the turn, not a dialog choice: a host that keeps the
 * turn's rolled reactions (the attack result's `rolledReaction`) passes it back here.
 */
export interface HitboxAttackRequest extends AttackRequest {
  rolledReaction?: RolledReaction;
}

/** The value of the `calledShot` situation field for a regular shot (HB-ATK-01). */
export const REGULAR_SHOT = "none";

/** The boolean situation fields: the flags of {@link HitboxSituation}. */
const FLAGS = ["halfHidden", "dark", "targetProne", "targetWentProne", "targetNearCover", "targetUnaware", "targetThreatened"] as const;
type Flag = (typeof FLAGS)[number];

/** The values of the `calledShot` situation field: a regular shot or a callable hitbox. */
const CALLED_CHOICES = [REGULAR_SHOT, ...CALLABLE] as const;

/** Every situation field id `input` accepts. */
export const SITUATION_IDS = ["calledShot", "shots", ...FLAGS, "misc"] as const;

/** Feet kept to a millionth, so that feet given as metres (4.572 m = 15 ft) come back whole. */
const roundFeet = (feet: number) => Math.round(feet * 1e6) / 1e6;

const label = (id: string) => `FRAY.Situation.Hitbox.${id}`;

/**
 * Reads a dodge or parry already rolled this turn.
 * @throws FrayError `FRAY.Error.Field` (field `rolledReaction`) when it is not one.
 */
function readRolledReaction(v: unknown): RolledReaction | undefined {
  if (v === undefined || v === null) return undefined;
  const ok =
    isRecord(v) &&
    (v.id === "dodge" || v.id === "parry") &&
    typeof v.dropsProne === "boolean" &&
    isRecord(v.check) &&
    typeof v.check.total === "number" &&
    Array.isArray(v.check.modifiers);
  if (!ok) throw fieldError("rolledReaction", "a dodge or parry rolled this turn ({ id, check, dropsProne })");
  return v as unknown as RolledReaction;
}

/**
 * The Hitbox attack input for a neutral request (HB-ATK-01 to HB-ATK-05, HB-MOD-01 to HB-MOD-03,
 * HB-LOC-02). The distance in metres becomes `rangeFeet` (kept to a millionth of a foot). The
 * situation values by field id ({@link situationFields}): `calledShot` (`none` or a callable
 * hitbox), `shots` (shots fired this turn, 1 or more), the flags of {@link HitboxSituation} and
 * `misc`; a value left out is left to the core's defaults (the target's `prone`, `unaware`). A
 * `rolledReaction` on the request ({@link HitboxAttackRequest}) is passed on as it is.
 * Weapon range, shots per weapon and reactions are checked by `planAttack`.
 * @throws FrayError `FRAY.Error.Field` naming `targetId` (no target), `modeId` (Hitbox weapons
 *   have no modes), `distanceMetres`, `situation.<id>` (unknown id or a value of the wrong kind),
 *   `reaction` or `rolledReaction`.
 */
export function attackInput(request: AttackRequest, attacker: HitboxCombatant, target: HitboxCombatant | undefined): HitboxAttackInput {
  if (!target) throw fieldError("targetId", "a combatant: a Hitbox attack is made on one target");
  if (request.modeId !== undefined && request.modeId !== "") throw fieldError("modeId", "no firing mode: Hitbox weapons have none");
  let rangeFeet: number | undefined;
  const metres = request.distanceMetres;
  if (metres !== undefined) {
    if (typeof metres !== "number" || !Number.isFinite(metres) || metres < 0) throw fieldError("distanceMetres", "metres, 0 or more");
    rangeFeet = roundFeet(metresToFeet(metres));
  }
  const values = request.situation ?? {};
  if (!isRecord(values)) throw fieldError("situation", "situation values by field id");
  const situation: HitboxSituation = {};
  let calledShot: HitboxId | undefined;
  let shots: number | undefined;
  for (const id of Object.keys(values)) {
    const v = values[id];
    if (id === "calledShot") {
      if (typeof v !== "string") throw fieldError(`situation.${id}`, `one of ${REGULAR_SHOT}, ${CALLABLE.join(", ")}`);
      const called = oneOf(values, id, "situation", CALLED_CHOICES);
      calledShot = called === REGULAR_SHOT ? undefined : called;
    } else if (id === "shots") {
      if (typeof v !== "number") throw fieldError(`situation.${id}`, "a whole number of shots, 1 or more");
      shots = int(values, id, "situation", undefined, 1, "a whole number of shots, 1 or more");
    } else if (id === "misc") {
      if (typeof v !== "number") throw fieldError(`situation.${id}`, "a whole number");
      situation.misc = int(values, id, "situation", undefined, -Infinity, "a whole number");
    } else if ((FLAGS as readonly string[]).includes(id)) {
      if (typeof v !== "boolean") throw fieldError(`situation.${id}`, "true or false");
      situation[id as Flag] = v;
    } else throw fieldError(`situation.${id}`, `one of ${SITUATION_IDS.join(", ")}`);
  }
  const input: HitboxAttackInput = { attacker, target, weaponId: request.weaponId, situation };
  if (rangeFeet !== undefined) input.rangeFeet = rangeFeet;
  if (calledShot !== undefined) input.calledShot = calledShot;
  if (shots !== undefined) input.shots = shots;
  const reaction = request.reaction;
  if (reaction !== undefined && reaction !== "none") {
    if (reaction !== "dodge" && reaction !== "parry") throw fieldError("reaction", "dodge, parry or none");
    input.reaction = reaction;
  }
  const rolled = readRolledReaction((request as HitboxAttackRequest).rolledReaction);
  if (rolled) input.rolledReaction = rolled;
  return input;
}

/**
 * The situation fields of a Hitbox attack, in dialog order (HB-ATK-01, HB-MOD-02, HB-MOD-03,
 * HB-ATK-03, HB-ACT-04, HB-ATK-05, HB-ATK-02): the called shot (`none` or a hitbox other than the
 * torso), the shots fired this turn (only for a weapon that fires more than one a turn, up to its
 * most), half hidden, darkness, target prone (default: the target's `prone`), target went prone
 * this turn (default: its `goingProne`), cover near the target, target unaware (default: its
 * `unaware`), target threatened, and the GM's modifier. Defaults are what `planAttack` reads when
 * the field is left out. Range is not a field: it comes from the measured distance (HB-MOD-01).
 * @throws FrayError `FRAY.Error.NoWeapon` when the weapon is not the attacker's.
 */
export function situationFields(context: SituationContext<HitboxCombatant>): SituationField[] {
  const weapon = weaponOf({ attacker: context.attacker, weaponId: context.weaponId });
  const target = context.target;
  const has = (condition: string) => target?.conditions.includes(condition) ?? false;
  const flag = (id: Flag, rule: RuleId, value: boolean): SituationField => ({
    id,
    label: label(id),
    rule,
    kind: "boolean",
    default: value,
    perTarget: true,
  });
  const fields: SituationField[] = [
    {
      id: "calledShot",
      label: label("calledShot"),
      rule: "HB-ATK-01",
      kind: "choice",
      choices: [{ value: REGULAR_SHOT, label: label("regularShot") }, ...CALLABLE.map((h) => ({ value: h, label: `FRAY.Hitbox.${h}` }))],
      default: REGULAR_SHOT,
      perTarget: true,
    },
  ];
  if (weapon.maxShots > 1) {
    fields.push({
      id: "shots",
      label: label("shots"),
      rule: "HB-MOD-03",
      kind: "number",
      min: 1,
      max: weapon.maxShots,
      step: 1,
      default: 1,
      perTarget: false,
    });
  }
  fields.push(
    flag("halfHidden", "HB-MOD-02", false),
    flag("dark", "HB-MOD-02", false),
    flag("targetProne", "HB-MOD-02", has("prone")),
    flag("targetWentProne", "HB-ACT-04", has("goingProne")),
    flag("targetNearCover", "HB-ATK-03", false),
    flag("targetUnaware", "HB-ATK-05", has("unaware")),
    flag("targetThreatened", "HB-ATK-05", false),
    { id: "misc", label: label("misc"), rule: "HB-ATK-02", kind: "number", step: 1, default: 0, perTarget: false },
  );
  return fields;
}

/** The actions of a turn besides movement, quick actions and reactions (HB-RND-01, HB-ATK-01). */
export const HITBOX_ACTIONS: readonly ActionDef[] = [
  { id: "attack", label: "FRAY.Action.attack", rule: "HB-ATK-01", kind: "attack", cost: { slots: { action: 1 } }, target: "one" },
  { id: "task", label: "FRAY.Hitbox.Play.Action.task", rule: "HB-RND-01", kind: "other", cost: { slots: { action: 1 } }, target: "none" },
];

/** The reactions: one dodge or parry a turn (HB-ATK-03). */
export const HITBOX_REACTIONS: readonly ActionDef[] = (["dodge", "parry"] as const).map((id) => ({
  id,
  label: `FRAY.Reaction.${id}`,
  rule: "HB-ATK-03" as RuleId,
  kind: "reaction" as const,
  cost: { slots: { reaction: 1 } },
  target: "none" as const,
}));

/**
 * The actions of a Hitbox turn with their costs in the turn's slots (HB-RND-01, HB-ATK-01,
 * HB-ACT-02, HB-ACT-03, HB-ACT-04, HB-ATK-03): an attack or another task takes the action; walking
 * 10 ft costs nothing, walking 20 ft or running 40 ft takes the action (none with a full leg);
 * quick actions (draw, let go, communicate, go prone) use the unlimited quick slot; a dodge or
 * parry uses the reaction.
 */
export function actionDefs(c: HitboxCombatant): ActionDef[] {
  const moves: ActionDef[] = movement(c).map((b) => ({
    id: b.id,
    label: b.label,
    rule: b.rule,
    kind: "move",
    cost: b.cost,
    target: "none",
  }));
  const quick: ActionDef[] = QUICK_ACTIONS.map((id) => ({
    id,
    label: `FRAY.Hitbox.Play.Action.${id}`,
    rule: id === "prone" ? "HB-ACT-04" : "HB-ACT-03",
    kind: "other",
    cost: { slots: { quick: 1 } },
    target: "none",
  }));
  return [...HITBOX_ACTIONS, ...moves, ...quick, ...HITBOX_REACTIONS];
}

/**
 * The conditions the Hitbox core reads, as status effects: `prone` (since before the turn: -1 to
 * be hit, no dodge; HB-MOD-02, HB-MOD-04), `goingProne` (this turn; prone from the next,
 * HB-ACT-04), `unaware` (no dodge or parry, never saw it coming; HB-ATK-05), `medicated` (damaged
 * limbs count in full, HB-DMG-03), and the ones that put a combatant out of the fight as `isOut`
 * reads them: `shock` (HB-DMG-04), `unconscious` (HB-DMG-04) and `dead` (HB-DMG-01).
 */
export function conditionSpecs(): ConditionSpec[] {
  return [
    { id: "prone", label: "FRAY.Condition.prone", icon: "icons/svg/falling.svg", rule: "HB-MOD-02", duration: "permanent" },
    { id: "goingProne", label: "FRAY.Condition.goingProne", icon: "icons/svg/downgrade.svg", rule: "HB-ACT-04", duration: "round" },
    { id: "unaware", label: "FRAY.Condition.unaware", icon: "icons/svg/blind.svg", rule: "HB-ATK-05", duration: "permanent" },
    { id: "medicated", label: "FRAY.Condition.medicated", icon: "icons/svg/regen.svg", rule: "HB-DMG-03", duration: "permanent" },
    { id: "shock", label: "FRAY.Condition.shock", icon: "icons/svg/paralysis.svg", rule: "HB-DMG-04", duration: "permanent", out: true },
    {
      id: "unconscious",
      label: "FRAY.Condition.unconscious",
      icon: "icons/svg/unconscious.svg",
      rule: "HB-DMG-04",
      duration: "permanent",
      out: true,
    },
    { id: "dead", label: "FRAY.Condition.dead", icon: "icons/svg/skull.svg", rule: "HB-DMG-01", duration: "permanent", out: true },
  ];
}

/**
 * The actor source update that stores a Hitbox vital state (HB-DMG-01, HB-DMG-04):
 * `{ system: { hitboxes: { <id>: { value, max } }, shockTurnsLeft } }`, the inverse of how
 * `hitboxCombatantFromActor` reads `system.hitboxes` and `system.shockTurnsLeft` (`null` when no
 * shock count runs). Conditions are status effects and are left out. The armor points used up
 * live on the armor items, not on the actor: see {@link armorItemUpdates}.
 */
export function vitalsUpdate(state: VitalState): VitalsUpdate {
  const hitboxes: Record<string, { value: number; max: number }> = {};
  for (const h of HITBOXES) {
    const t = state.hitboxes?.[h];
    if (t) hitboxes[h] = { value: t.value, max: t.max };
  }
  const shock = state.effects?.find((e) => e.kind === SHOCK_EFFECT);
  return { system: { hitboxes, shockTurnsLeft: shock?.rounds ?? null } };
}

/**
 * The armor item updates that store the armor points a vital state has used up (HB-DMG-01):
 * `{ _id, system: { damage: { <hitbox>: points } } }` per armor piece of `c` whose used-up points
 * change, the pieces used up in the order they are worn (as `applyVitals`). For
 * `Actor.updateEmbeddedDocuments("Item", ...)`, next to {@link vitalsUpdate}.
 */
export function armorItemUpdates(
  c: HitboxCombatant,
  after: HitboxCombatant,
): { _id: string; system: { damage: Record<HitboxId, number> } }[] {
  return after.armor
    .filter((piece, i) => HITBOXES.some((h) => piece.damage[h] !== c.armor[i]?.damage[h]))
    .map((piece) => ({ _id: piece.id, system: { damage: { ...piece.damage } } }));
}

const has = hasCondition;

/**
 * The start of a turn for one combatant (HB-RND-01, HB-ACT-04, HB-DMG-04, HB-RND-02): a fresh
 * economy (one action, one reaction, quick actions; nothing carries over); whoever went prone or
 * dropped to dodge last turn (`goingProne`) now lies `prone`; and under the `hitboxShockTurns`
 * setting N, a combatant in shock and not dead lives N turns counted from the turn after the
 * shock: a shock found at a turn's start (it began in the turn before) starts the count with this
 * turn as the first of the N, each later turn takes one, and the turn after the last one it dies.
 * The count stops when the shock is gone, the combatant is dead, or the setting is 0.
 */
export function startRound(c: HitboxCombatant, options: HitboxOptions): RoundState<HitboxCombatant> {
  const events: LifecycleEvent[] = [];
  return { combatant: turnStart(c, options, events), economy: freshEconomy(), events };
}

const NO_EVENTS: LifecycleEvent[] = Object.freeze([]) as unknown as LifecycleEvent[];

/** The combatant of {@link startRound}; its events pushed onto `events` when given. */
function turnStart(c: HitboxCombatant, options: HitboxOptions, events: LifecycleEvent[] | undefined): HitboxCombatant {
  let next = c;
  if (has(next, "goingProne")) {
    next = endTurn(next, false);
    events?.push({ rule: "HB-ACT-04", label: "FRAY.Hitbox.Play.Event.Prone" });
  }
  const counting = has(next, "shock") && !has(next, "dead") && options.shockTurns > 0;
  if (!counting) {
    if (next.shockTurnsLeft !== undefined) next = restate(next, next.hitboxes, next.armor, next.conditions, undefined);
  } else if (next.shockTurnsLeft === undefined) {
    next = restate(next, next.hitboxes, next.armor, next.conditions, options.shockTurns - 1);
    events?.push({
      rule: "HB-DMG-04",
      label: pluralKey("FRAY.Hitbox.Play.Event.ShockCount", options.shockTurns),
      data: { turns: options.shockTurns },
    });
  } else if (next.shockTurnsLeft <= 0) {
    next = restate(next, next.hitboxes, next.armor, [...next.conditions, "dead"], undefined);
    events?.push({ rule: "HB-DMG-04", label: "FRAY.Hitbox.Play.Event.ShockDeath", data: { turns: options.shockTurns } });
  } else {
    next = restate(next, next.hitboxes, next.armor, next.conditions, next.shockTurnsLeft - 1);
  }
  return next;
}

/**
 * The economy of a turn's start, `createEconomy` of the turn's slots (`economy` of ./turn.ts: one
 * action, one reaction, quick actions without limit; no pools), each turn its own: built as a
 * literal, since every combatant of every fight of a forecast takes one each turn
 * (`test/rules/hitbox-play.test.ts` holds it equal to `createEconomy(economy())`).
 */
export function freshEconomy(): Economy {
  return {
    slots: { action: { used: 0, max: 1 }, reaction: { used: 0, max: 1 }, quick: { used: 0, max: null } },
    pools: {},
  };
}

/** True when an attack result carries Hitbox's reaction bookkeeping. */
function isHitboxResult(result: object): result is HitboxAttackResult {
  return "reactionRolledNow" in result;
}

/**
 * After an action (HB-RND-01, HB-MOD-03, HB-ATK-03, HB-ACT-03, HB-ACT-04):
 * - an attack, for its attacker: takes the turn's action; while the action is already spent the
 *   attack is a further shot of the same turn (HB-MOD-03) and costs nothing more;
 * - the same attack, for its target, when the target's dodge or parry was rolled by it: takes the
 *   reaction, and a dodge without cover nearby drops the target (`goingProne`: it may dodge every
 *   attack this turn and lies prone from the next);
 * - another action of {@link actionDefs} by id: its cost is the host's to pay before (as the
 *   round engine's `act` and the Foundry economy store do), so the economy comes back as given;
 *   going prone marks `goingProne`, the other quick actions change nothing here (the item drawn
 *   or let go is `quickAction`'s).
 * @throws FrayError `FRAY.Error.Field` (field `outcome.id`) for an unknown action,
 *   `FRAY.Error.CannotAct` for a quick action of a combatant out of the fight,
 *   `FRAY.Error.Economy` when the attacker's action cannot be paid.
 */
export function afterAction(c: HitboxCombatant, outcome: ActionOutcome, economy: Economy): RoundState<HitboxCombatant> {
  const events: LifecycleEvent[] = [];
  if (outcome.kind === "attack") {
    const result = outcome.result;
    const rolledNow = isHitboxResult(result) && result.reactionRolledNow ? result.rolledReaction : undefined;
    return afterAttack(c, result.plan.attackerId, result.plan.targetId, rolledNow, economy, events);
  }
  let next = c;
  // A quick action is always one of the turn's actions; the others are looked up.
  const def = (QUICK_ACTIONS as readonly string[]).includes(outcome.id)
    ? { id: outcome.id }
    : actionDefs(c).find((a) => a.id === outcome.id);
  if (!def)
    throw fieldError(
      "outcome.id",
      `one of ${actionDefs(c)
        .map((a) => a.id)
        .join(", ")}`,
    );
  if ((QUICK_ACTIONS as readonly string[]).includes(def.id)) {
    const id = def.id as QuickActionId;
    if (id === "prone") {
      next = quickAction(next, { id }, isDown(c));
      if (next !== c) events.push({ rule: "HB-ACT-04", label: "FRAY.Hitbox.Play.Event.GoingProne" });
    } else if (isDown(c)) throw new FrayError("FRAY.Error.CannotAct", { actor: c.name }, `${c.name} cannot act`);
  }
  return { combatant: next, economy, events };
}

/** The cost of the turn's action (HB-RND-01). */
const ACTION_COST: ActionCost = Object.freeze({ slots: Object.freeze({ action: 1 }) });
/** The cost of a dodge or parry (HB-ATK-03). */
const REACTION_COST: ActionCost = Object.freeze({ slots: Object.freeze({ reaction: 1 }) });

/**
 * After an attack (HB-RND-01, HB-MOD-03, HB-ATK-03, HB-ACT-04), for `c`: as its attacker, it takes
 * the turn's action (a further shot of the same turn costs nothing more); as its target, when this
 * attack rolled its dodge or parry (`rolledNow`), it takes the reaction, and a dodge without cover
 * nearby drops it (`goingProne`: it may dodge every attack this turn and lies prone from the
 * next). With `events`, what happened is reported there; without, the state's events are none.
 * @throws FrayError `FRAY.Error.Economy` when the action or reaction cannot be paid.
 */
export function afterAttack(
  c: HitboxCombatant,
  attackerId: string,
  targetId: string,
  rolledNow: RolledReaction | undefined,
  economy: Economy,
  events?: LifecycleEvent[],
): RoundState<HitboxCombatant> {
  let next = c;
  let left = economy;
  if (attackerId === c.id && (left.slots.action?.used ?? 0) < 1) left = spend(left, ACTION_COST);
  if (targetId === c.id && rolledNow) {
    left = spend(left, REACTION_COST);
    if (rolledNow.dropsProne && !has(next, "goingProne") && !has(next, "prone")) {
      next = restate(next, next.hitboxes, next.armor, [...next.conditions, "goingProne"], next.shockTurnsLeft);
      events?.push({ rule: "HB-ACT-04", label: "FRAY.Hitbox.Play.Event.DropsProne" });
    }
  }
  return { combatant: next, economy: left, events: events ?? NO_EVENTS };
}

/** A Hitbox attack played with totals only: the outcome plus the turn's reaction and what the damage did. */
export interface HitboxQuietAttack extends QuietAttack<HitboxCombatant> {
  attackerId: string;
  targetId: string;
  location?: HitboxId;
  /** The defender's reaction as it stands for the rest of the turn (rolled now or earlier, HB-ATK-03). */
  rolledReaction?: RolledReaction;
  /** True when this attack rolled the reaction (the first attack on the defender this turn). */
  reactionRolledNow: boolean;
  /** The damage reached a hitbox or added a condition: it interrupts the target's action (HB-ACT-03, `interrupts`). */
  interrupts: boolean;
}

/**
 * One Hitbox attack played to its end with totals only (the round engine's outcome step,
 * `QuietRuleset` in ../core/quiet.ts): the weapon as `planAttack` checks it (`usableWeapon`), the
 * test's modifiers (`attackModifier`), the declared reaction (`declaredOption`), the rolls of
 * `rollAttack`, the damage of `damageOf` applied by `takeHit`: the outcome of `planAttack`,
 * `resolveAttack`, `rollDamage` and `applyDamage` with the same dice (HB-ATK-01 to HB-ATK-05,
 * HB-MOD-01 to HB-MOD-04, HB-LOC-01, HB-LOC-02, HB-DMG-01 to HB-DMG-04).
 * @param base the combatant the damage applies to: within a simultaneous step the target with
 *   the damage the step already holds for it (HB-ACT-01); the input's target by default.
 * @throws FrayError as `planAttack`.
 */
export function attackOutcome(
  input: HitboxAttackInput,
  dice: SyncDiceRoller,
  options: RulesetOptions,
  economy?: Economy,
  base?: HitboxCombatant,
): HitboxQuietAttack {
  const o = hitboxOptionsOf(options);
  const { attacker, target } = input;
  const weapon = usableWeapon(input);
  const modifier = attackModifier(input, weapon, o);
  const earlier = input.rolledReaction;
  const declared = !earlier && input.reaction ? declaredOption(input, weapon, economy, o) : undefined;
  const reactionModifier = declared ? sumModifiers(declared.modifiers) : 0;
  const rolled = rollAttack(modifier, BASE_DIFFICULTY, declared?.id, reactionModifier, earlier?.check.total, input.calledShot, o, dice);
  let now = earlier;
  if (declared) {
    // The check as `resolveAttack` keeps it for the turn (what a later attack reads of it: its
    // total and modifiers); the faces of the roll are not kept.
    const natural = rolled.reactionNatural!;
    const roll = { formula: "2d6", total: natural, dice: [], constant: 0 };
    now = {
      id: declared.id,
      check: { roll, natural, modifiers: declared.modifiers, total: natural + reactionModifier },
      dropsProne: declared.dropsProne,
    };
  }
  const reacted = now !== undefined;
  // Every field in place, in the order of `QuietAttack` then Hitbox's own (see there).
  const out: HitboxQuietAttack = {
    weaponId: weapon.id,
    modeId: undefined,
    hit: rolled.hit,
    reacted,
    reactionCost: reacted ? REACTION_COST : undefined,
    reactionSuccess: reacted ? !rolled.hit : undefined,
    lands: rolled.hit,
    location: rolled.location,
    damage: 0,
    target: undefined,
    forced: undefined,
    attackerId: attacker.id,
    targetId: target.id,
    rolledReaction: now,
    reactionRolledNow: declared !== undefined,
    interrupts: false,
  };
  if (rolled.location === undefined) return out;
  const amount = damageOf(weapon, input);
  const hit = takeHit(base ?? target, amount, rolled.location, o);
  out.damage = amount;
  out.target = hit.after;
  out.forced = hit.forced ? [hit.forced] : undefined;
  out.interrupts = hit.added > 0 || hit.reached;
  return out;
}

/** {@link afterAttack} of an attack played by {@link attackOutcome}, without events. */
export function quietAfterAttack(c: HitboxCombatant, attack: QuietAttack<HitboxCombatant>, economy: Economy): RoundState<HitboxCombatant> {
  const a = attack as HitboxQuietAttack;
  return afterAttack(c, a.attackerId, a.targetId, a.reactionRolledNow ? a.rolledReaction : undefined, economy);
}

/**
 * The reason the defender of `input` cannot make the reaction `id` now ({@link reactionReason} of
 * ./attack.ts with the attack's weapon and the ruleset's options), `FRAY.Reason.*`; undefined when
 * it can (HB-ATK-03, HB-ACT-04, HB-MOD-04, HB-DMG-03).
 * @throws FrayError `FRAY.Error.NoWeapon` when the weapon is not the attacker's.
 */
export function reactionRefusal(
  input: HitboxAttackInput,
  id: "dodge" | "parry",
  economy: Economy | undefined,
  options: RulesetOptions,
): string | undefined {
  return reactionReason(input, weaponOf(input), id, economy, hitboxOptionsOf(options));
}

/**
 * True when a forced check still applies to the combatant: a Blackout test is not taken by
 * someone already in shock or dead (HB-DMG-04; RULES.md), e.g. when two hits of one step forced
 * one each and the first test failed.
 */
export function forcedCheckDue(c: HitboxCombatant, forced: ForcedCheck): boolean {
  return forced.id === "blackout" && !has(c, "shock") && !has(c, "dead");
}

/**
 * Rolls a forced Blackout (Fortitude) test (HB-DMG-04): 2d6 + Fortitude + Blackout against 12;
 * a failure means `shock`. The report holds the vital state before and after.
 * @throws FrayError `FRAY.Error.Field` (field `forced.id`) for a check other than `blackout`,
 *   `FRAY.Error.HitboxNoBlackout` when the combatant is already in shock or dead.
 */
export async function forcedCheck(c: HitboxCombatant, forced: ForcedCheck, dice: DiceRoller): Promise<ForcedCheckResult> {
  forcedCheckValid(c, forced);
  // Dice that roll at once (a forecast's) roll the same faces so, without waiting on a roll.
  return forcedCheckFrom(c, forced, canRollSync(dice) ? blackoutTestSync(c, dice) : await blackoutTest(c, dice));
}

/**
 * {@link forcedCheck} rolled at once, with a roller that rolls so: the same faces drawn, the same
 * result (HB-DMG-04).
 * @throws FrayError as {@link forcedCheck}.
 */
export function forcedCheckSync(c: HitboxCombatant, forced: ForcedCheck, dice: SyncDiceRoller): ForcedCheckResult {
  forcedCheckValid(c, forced);
  return forcedCheckFrom(c, forced, blackoutTestSync(c, dice));
}

/**
 * {@link forcedCheck} rolled quietly (`QuietRuleset.quietForcedCheck`): the combatant after the
 * Blackout test from the same faces, drawn from `next`; no result is built (HB-DMG-04).
 * @throws FrayError as {@link forcedCheck}.
 */
export function quietForcedCheck(c: HitboxCombatant, forced: ForcedCheck, next: FaceSource): HitboxCombatant {
  forcedCheckValid(c, forced);
  return blackoutOutcome(c, sourceRoller(next).rollTotal("2d6")).after;
}

/** Throws as {@link forcedCheck} does for a check that is not a Blackout test or no longer due. */
function forcedCheckValid(c: HitboxCombatant, forced: ForcedCheck): void {
  if (forced.id !== "blackout") throw fieldError("forced.id", "blackout");
  if (!forcedCheckDue(c, forced))
    throw new FrayError("FRAY.Error.HitboxNoBlackout", { actor: c.name }, `${c.name} is already in shock or dead: no Blackout test`);
}

/** The forced check's result from the Blackout test rolled. */
function forcedCheckFrom(c: HitboxCombatant, forced: ForcedCheck, test: BlackoutResult): ForcedCheckResult {
  const before = vitals(c);
  // The test changes the conditions alone (shock when failed): the tracks are those of `before`.
  const after = vitalsAfter(before, test.after);
  const added = after.conditions.filter((s) => !before.conditions.includes(s));
  return { forced, check: test.check, needed: BLACKOUT_DIFFICULTY, success: test.passed, report: { before, after, steps: [], added } };
}
