/**
 * The UD10 play contract (src/rules/core/contract.ts): the attack input built from a neutral
 * request, the attack dialog's situation fields, the round's actions with their costs, the
 * conditions as status effects, vitals written back, and the round's lifecycle (aim set by the
 * aim action and spent by the shot, UD-ATK-04; a fresh economy each round, UD-ACT-01).
 */
import { pluralKey } from "../core/i18n.js";
import type {
  ActionDef,
  ActionOutcome,
  AttackRequest,
  ConditionSpec,
  LifecycleEvent,
  RoundState,
  SituationContext,
  SituationField,
  SituationValues,
  VitalsUpdate,
} from "../core/contract.js";
import type { Economy } from "../core/economy.js";
import { bool, fieldError, hasKeys, int, isRecord, type Raw } from "../core/parse.js";
import type { RulesetOptions } from "../core/ruleset.js";
import type { VitalState } from "../core/types.js";
import { declaredReaction } from "../core/reaction.js";
import type { SyncDiceRoller } from "../core/dice/port.js";
import type { QuietAttack } from "../core/quiet.js";
import { sumModifiers } from "../core/types.js";
import {
  actingWith,
  AIM_COST,
  aimRounds,
  attackModifiers,
  defenseRating,
  findWeapon,
  isIncapacitated,
  OUT_CONDITIONS,
  REACTION_COST,
  reactions,
  rollAttack,
  situationDefaults,
  weaponAndMode,
} from "./attack.js";
import { rollDamageOf, takeHit, withHit } from "./damage.js";
import type { Ud10AttackInput, Ud10Situation } from "./input.js";
import { copyCombatant, type Ud10Combatant, type Ud10Weapon } from "./model.js";
import { ACTIONS, disengage } from "./movement.js";
import { ud10Options, ud10OptionsOf } from "./options.js";

/** Conditions of the aim (UD-ATK-04): one round or two rounds spent aiming. */
const AIM_CONDITIONS = ["aiming1", "aiming2"] as const;

/** The path of a situation value in errors: `situation.<id>`. */
const SITUATION = "situation";

/** The weapon an attack or a dialog names. @throws FrayError `FRAY.Error.NoWeapon`. */
function weaponOf(attacker: Ud10Combatant, weaponId: string): Ud10Weapon {
  return weaponAndMode({ attacker, target: attacker, weaponId }).weapon;
}

/**
 * The situation fields of a UD10 attack (UD-ATK-01, UD-ATK-03, UD-ATK-04, UD-DEF-01, UD-COV-01),
 * in the order the attack dialog shows them. Every attack: `unanticipated` (default: the target
 * is surprised), `immobilized` (default: the target's condition), `cover` (a whole number from 0)
 * and `misc` (a whole number). Melee only: `higherGround`. Ranged only: `targetCrouching` (the
 * target crouches or lies prone), `targetMoving`, `shooterMoving` (from the `moving` conditions),
 * `badVisibility`, and `aim` (0, 1 or 2 rounds, from `aiming1`/`aiming2`). Defaults are what
 * `planAttack` reads from the conditions when a value is left out (`situationDefaults`).
 * @throws FrayError `FRAY.Error.NoWeapon` when the weapon is not the attacker's.
 */
export function ud10Situation(context: SituationContext<Ud10Combatant>): SituationField[] {
  const weapon = weaponOf(context.attacker, context.weaponId);
  const target: Pick<Ud10Combatant, "conditions"> = context.target ?? { conditions: [] };
  const d = situationDefaults(context.attacker, target);
  const flag = (
    id: keyof Ud10Situation | "immobilized",
    label: string,
    rule: SituationField["rule"],
    value: boolean,
    perTarget: boolean,
  ): SituationField => ({
    id,
    label,
    rule,
    kind: "boolean",
    default: value,
    perTarget,
  });
  const fields: SituationField[] = [
    flag("unanticipated", "FRAY.Flow.Dialog.Unanticipated", "UD-ATK-03", d.unanticipated, true),
    flag("immobilized", "FRAY.Flow.Dialog.Immobilized", "UD-DEF-01", target.conditions.includes("immobilized"), true),
  ];
  if (weapon.kind === "melee") {
    fields.push(flag("higherGround", "FRAY.Flow.Dialog.HigherGround", "UD-ATK-04", false, true));
  } else {
    fields.push(
      flag("targetCrouching", "FRAY.Flow.Dialog.TargetCrouching", "UD-ATK-04", d.targetCrouching, true),
      flag("targetMoving", "FRAY.Flow.Dialog.TargetMoving", "UD-ATK-04", d.targetMoving, true),
      flag("shooterMoving", "FRAY.Flow.Dialog.ShooterMoving", "UD-ATK-04", d.shooterMoving, false),
      flag("badVisibility", "FRAY.Flow.Dialog.BadVisibility", "UD-ATK-04", false, false),
      {
        id: "aim",
        label: "FRAY.Flow.Dialog.Aim",
        hint: "FRAY.Situation.Ud10.AimHint",
        rule: "UD-ATK-04",
        kind: "number",
        min: 0,
        max: 2,
        step: 1,
        default: d.aim,
        perTarget: false,
      },
    );
  }
  fields.push(
    { id: "cover", label: "FRAY.Flow.Dialog.Cover", rule: "UD-COV-01", kind: "number", min: 0, step: 1, default: 0, perTarget: true },
    { id: "misc", label: "FRAY.Flow.Dialog.Misc", rule: "UD-ATK-01", kind: "number", step: 1, default: 0, perTarget: false },
  );
  return fields;
}

/**
 * The UD10 attack input for a neutral request (UD-ATK-01 to UD-ATK-04, UD-DEF-01, UD-COV-01,
 * UD-RNG-01, UD-REA-02, UD-REA-04): weapon, firing mode and distance in metres as given, and the
 * situation values read against {@link ud10Situation}; a value left out takes its default. The
 * `immobilized` value sets or clears the target's `immobilized` condition, and `unanticipated:
 * false` clears a `surprised` one, so the value given wins over the condition (the core reads
 * both from the target's conditions).
 * @throws FrayError `FRAY.Error.Field` naming `targetId` when there is no target, `distanceMetres`
 *   when it is not a distance from 0, `reaction` when it is not `parry` or `dodge`, `situation`
 *   when it is not an object, and `situation.<id>` for a field this attack does not have or a
 *   value of the wrong kind or out of bounds; `FRAY.Error.NoWeapon` for a weapon that is not the
 *   attacker's.
 */
export function ud10Input(request: AttackRequest, attacker: Ud10Combatant, target: Ud10Combatant | undefined): Ud10AttackInput {
  if (!target) throw fieldError("targetId", "a target combatant");
  const distance = request.distanceMetres;
  if (distance !== undefined && (typeof distance !== "number" || !Number.isFinite(distance) || distance < 0)) {
    throw fieldError("distanceMetres", "a distance in metres from 0");
  }
  const reaction = request.reaction;
  if (reaction !== undefined && reaction !== "parry" && reaction !== "dodge") throw fieldError("reaction", "parry or dodge");
  const raw: unknown = request.situation ?? NO_SITUATION;
  if (!isRecord(raw)) throw fieldError(SITUATION, "an object");
  // The fields are only needed to read given values; without any, the weapon is still checked.
  if (raw === NO_SITUATION || !hasKeys(raw)) {
    // No situation values (a forecast's every attack): the weapon is still checked, nothing else changes.
    if (!findWeapon(attacker, request.weaponId)) weaponOf(attacker, request.weaponId);
    return { attacker, target, weaponId: request.weaponId, modeId: request.modeId, rangeMetres: distance, situation: {}, reaction };
  }
  const fields = ud10Situation({ attacker, target, weaponId: request.weaponId, modeId: request.modeId, distanceMetres: distance });
  const values = readSituation(raw, fields);

  const situation: Ud10Situation = {};
  let conditions = target.conditions;
  for (const id in values) {
    const value = values[id];
    if (id === "immobilized") {
      if (value === true && !conditions.includes("immobilized")) conditions = [...conditions, "immobilized"];
      if (value === false) conditions = conditions.filter((s) => s !== "immobilized");
    } else if (id === "aim") {
      situation.aim = value as 0 | 1 | 2;
    } else if (id === "cover" || id === "misc") {
      situation[id] = value as number;
    } else {
      (situation as Record<string, boolean>)[id] = value as boolean;
    }
  }
  if (values.unanticipated === false && conditions.includes("surprised")) conditions = conditions.filter((s) => s !== "surprised");
  return {
    attacker,
    target: conditions === target.conditions ? target : withConditions(target, conditions),
    weaponId: request.weaponId,
    modeId: request.modeId,
    rangeMetres: distance,
    situation,
    reaction,
  };
}

/**
 * {@link ud10Input} of the same request with the defender's declared `reaction` (UD-REA-01,
 * UD-REA-02), from `input`, the input of that request without one (or with another): the same
 * fields in the same order, the reaction checked as {@link ud10Input} checks it, nothing rebuilt.
 * The round engine uses it once a reaction is chosen for an attack (`Ruleset.withReaction`).
 * @throws FrayError `FRAY.Error.Field` (field `reaction`) for anything but `parry` or `dodge`.
 */
export function ud10WithReaction(input: Ud10AttackInput, reaction: string): Ud10AttackInput {
  if (reaction !== "parry" && reaction !== "dodge") throw fieldError("reaction", "parry or dodge");
  return {
    attacker: input.attacker,
    target: input.target,
    weaponId: input.weaponId,
    modeId: input.modeId,
    rangeMetres: input.rangeMetres,
    situation: input.situation,
    reaction,
  };
}

/** The situation of a request that gives none. */
const NO_SITUATION: Raw = Object.freeze({});

/**
 * Reads the situation values given for the fields of one attack with the core's parsers.
 * @throws FrayError `FRAY.Error.Field` naming `situation.<id>`.
 */
function readSituation(raw: Raw, fields: SituationField[]): SituationValues {
  const out: SituationValues = {};
  for (const id of Object.keys(raw)) {
    const field = fields.find((f) => f.id === id);
    if (!field) throw fieldError(`${SITUATION}.${id}`, `one of ${fields.map((f) => f.id).join(", ")}`);
    if (raw[id] === undefined || raw[id] === null) continue;
    if (field.kind === "boolean") {
      out[id] = bool(raw, id, SITUATION, false);
    } else {
      const min = field.min ?? -Infinity;
      const value = int(raw, id, SITUATION, undefined, min);
      if (field.max !== undefined && value > field.max)
        throw fieldError(`${SITUATION}.${id}`, `a whole number from ${min} to ${field.max}`);
      out[id] = value;
    }
  }
  return out;
}

/**
 * The actions of a UD10 round with their costs in the round's slots (UD-ACT-01, UD-ACT-02,
 * UD-ATK-04, UD-REA-01 to UD-REA-04, UD-OPT-01, UD-OPT-02): attack, aim, ready, reload, use an
 * item and a skill action take the action; parry, and dodge when allowed, the reaction; fleeing
 * (when on) the movement, retreating (when on) the whole round. Moving is charged by distance
 * through `movement`/`movementBand`, not here. A combatant out of the fight has none.
 */
export function ud10Actions(c: Ud10Combatant, options: RulesetOptions): ActionDef[] {
  if (isIncapacitated(c)) return [];
  const opts = ud10Options(options);
  const table = (id: string) => ACTIONS.find((a) => a.id === id)!;
  const other = (id: string): ActionDef => ({ ...table(id), kind: "other", target: "none" });
  const out: ActionDef[] = [
    { ...table("attack"), kind: "attack", target: "one" },
    { id: "aim", label: "FRAY.Situation.Ud10.Action.aim", rule: "UD-ATK-04", kind: "other", cost: AIM_COST, target: "none" },
    other("ready"),
    other("reload"),
    other("useItem"),
    other("skill"),
    { id: "parry", label: "FRAY.Reaction.parry", rule: "UD-REA-02", kind: "reaction", cost: { slots: { reaction: 1 } }, target: "none" },
  ];
  if (opts.allowDodge)
    out.push({
      id: "dodge",
      label: "FRAY.Reaction.dodge",
      rule: "UD-REA-04",
      kind: "reaction",
      cost: { slots: { reaction: 1 } },
      target: "none",
    });
  if (opts.fleeing)
    out.push({
      id: "flee",
      label: "FRAY.Flow.Flee.Button",
      rule: "UD-OPT-01",
      kind: "move",
      cost: disengage([], "flee", opts).cost,
      target: "none",
    });
  if (opts.retreat)
    out.push({
      id: "retreat",
      label: "FRAY.Flow.Retreat.Button",
      rule: "UD-OPT-02",
      kind: "move",
      cost: disengage([], "retreat", opts).cost,
      target: "none",
    });
  return out;
}

/**
 * The conditions the UD10 core reads, as status effects (UD-ATK-03, UD-ATK-04, UD-DEF-01,
 * UD-DMG-03, UD-DMG-04): prone and crouching (-2 to ranged attacks on them), moving (target -2,
 * shooter -4; it lasts the round), immobilized (no DEX, -2 defense), surprised (no DEX, no
 * reaction), aiming one or two rounds (+2/+4, until the shot spends it), and unconscious,
 * incapacitated and dead, which take the combatant out (`isOut`).
 */
export function ud10Conditions(): ConditionSpec[] {
  const out = new Set<string>(OUT_CONDITIONS);
  const spec = (
    id: string,
    icon: string,
    rule: ConditionSpec["rule"],
    duration: ConditionSpec["duration"] = "permanent",
  ): ConditionSpec => ({
    id,
    label: `FRAY.Condition.${id}`,
    icon,
    rule,
    duration,
    ...(out.has(id) ? { out: true } : {}),
  });
  return [
    spec("prone", "icons/svg/falling.svg", "UD-ATK-04"),
    spec("crouching", "icons/svg/downgrade.svg", "UD-ATK-04"),
    spec("moving", "icons/svg/wingfoot.svg", "UD-ATK-04", "round"),
    spec("immobilized", "icons/svg/net.svg", "UD-DEF-01"),
    spec("surprised", "icons/svg/daze.svg", "UD-ATK-03"),
    spec("aiming1", "icons/svg/target.svg", "UD-ATK-04"),
    spec("aiming2", "icons/svg/eye.svg", "UD-ATK-04"),
    spec("unconscious", "icons/svg/unconscious.svg", "UD-DMG-03"),
    spec("incapacitated", "icons/svg/paralysis.svg", "UD-DMG-04"),
    spec("dead", "icons/svg/skull.svg", "UD-DMG-04"),
  ];
}

/**
 * The combatant with a vital state: HP, EP and conditions where the state has them (after
 * damage or an undo). `vitals(ud10WithVitals(c, s))` is `s` for HP, EP and conditions.
 */
export function ud10WithVitals(c: Ud10Combatant, state: VitalState): Ud10Combatant {
  const next = copyCombatant(c);
  if (state.hp) next.hp = { ...state.hp };
  if (state.ep) next.ep = { ...state.ep };
  next.conditions = [...state.conditions];
  return next;
}

/**
 * The actor source update that stores a vital state: `{ system: { hp: { value }, ep: { value } } }`,
 * the fields `ud10CombatantFromActor` reads HP and EP from. Maximums are the sheet's and stay;
 * conditions are status effects, not system data, and are left out.
 */
export function ud10VitalsUpdate(state: VitalState): VitalsUpdate {
  const system: Record<string, unknown> = {};
  if (state.hp) system.hp = { value: state.hp.value };
  if (state.ep) system.ep = { value: state.ep.value };
  return { system };
}

/** True when the combatant has aimed (UD-ATK-04). */
export const hasAim = (c: Ud10Combatant) => {
  // A loop: asked after every attack.
  const conditions = c.conditions;
  for (let i = 0; i < conditions.length; i++) if (conditions[i] === AIM_CONDITIONS[0] || conditions[i] === AIM_CONDITIONS[1]) return true;
  return false;
};
/** The combatant with its aim dropped (UD-ATK-04). */
export const withoutAim = (c: Ud10Combatant): Ud10Combatant =>
  withConditions(
    c,
    c.conditions.filter((s) => !(AIM_CONDITIONS as readonly string[]).includes(s)),
  );

/** The combatant with these conditions: a copy of one shape for every state (`copyCombatant`). */
function withConditions(c: Ud10Combatant, conditions: string[]): Ud10Combatant {
  const next = copyCombatant(c);
  next.conditions = conditions;
  return next;
}

/**
 * The start of a round for one combatant (UD-ACT-01, UD-REA-01, UD-ATK-04): a fresh economy
 * (one movement, one action, one reaction, free actions; nothing carries over) and, from the
 * second round on, the `moving` condition of the last round dropped: a combatant moves, or not,
 * anew each round. The aim is kept: it is spent by the shot (see {@link ud10AfterAction}).
 */
export function ud10StartRound(c: Ud10Combatant, previous: Economy | undefined): RoundState<Ud10Combatant> {
  const combatant = roundCombatant(c, previous);
  if (combatant !== c) {
    return {
      combatant,
      economy: ud10RoundEconomy(),
      events: [{ rule: "UD-ATK-04", label: "FRAY.Situation.Ud10.Event.MovingEnds" }],
    };
  }
  // Most rounds start with nothing to report: one frozen empty list for all of them.
  return { combatant: c, economy: ud10RoundEconomy(), events: NO_EVENTS };
}

/**
 * The combatant at a round's start: from the second round on (a `previous` economy), without the
 * last round's `moving` (UD-ATK-04); `c` itself when nothing changes.
 */
function roundCombatant(c: Ud10Combatant, previous: Economy | undefined): Ud10Combatant {
  if (!previous || !c.conditions.includes("moving")) return c;
  return withConditions(
    c,
    c.conditions.filter((s) => s !== "moving"),
  );
}

/**
 * A fresh economy for a UD10 round: `createEconomy` of the round's spec (`economy()`: slots
 * `movement`, `action`, `reaction` one use each, `free` within reason, no pools; UD-ACT-01,
 * UD-REA-01), written out as one literal, since it is built for every combatant every round. A
 * new object each time: a host may keep and change it (the Foundry tracker stores it).
 */
export function ud10RoundEconomy(): Economy {
  return {
    slots: {
      movement: { used: 0, max: 1 },
      action: { used: 0, max: 1 },
      reaction: { used: 0, max: 1 },
      free: { used: 0, max: null },
    },
    pools: {},
  };
}

/** The lifecycle events of a round start that has none: one frozen empty list, shared. */
const NO_EVENTS: LifecycleEvent[] = Object.freeze([]) as unknown as LifecycleEvent[];

/**
 * What an action leaves behind (UD-ATK-04, UD-ACT-02). Aiming sets `aiming1`, or `aiming2` after
 * a round of aim already (two rounds at most); an attack spends the aim; another action that
 * takes the round's action (ready, reload, use an item, a skill action, a retreat) ends it too,
 * since the aim counts only for the rounds spent aiming right before the shot. The cost itself is
 * paid by the host from `actions`: the economy comes back as given.
 * @throws FrayError `FRAY.Error.Field` naming `action` for an id that is not one of `actions`.
 */
export function ud10AfterAction(
  c: Ud10Combatant,
  outcome: ActionOutcome,
  economy: Economy,
  options: RulesetOptions,
): RoundState<Ud10Combatant> {
  const events: LifecycleEvent[] = [];
  const spendAim = (label: string): Ud10Combatant => {
    if (!hasAim(c)) return c;
    events.push({ rule: "UD-ATK-04", label });
    return withoutAim(c);
  };
  if (outcome.kind === "attack") return ud10AfterAttack(c, economy, events);
  if (outcome.id === "aim") {
    const rounds = aimRounds(c);
    events.push({ rule: "UD-ATK-04", label: pluralKey("FRAY.Situation.Ud10.Event.Aimed", rounds), data: { rounds } });
    return { combatant: withConditions(c, [...withoutAim(c).conditions, `aiming${rounds}`]), economy, events };
  }
  const actions = ud10Actions({ ...c, conditions: [] }, options);
  const action = actions.find((a) => a.id === outcome.id);
  if (!action) throw fieldError("action", `one of ${actions.map((a) => a.id).join(", ")}`);
  const takesAction = (action.cost.slots?.action ?? 0) > 0;
  return { combatant: takesAction ? spendAim("FRAY.Situation.Ud10.Event.AimLost") : c, economy, events };
}

/**
 * One UD10 attack played to its end with totals only (the round engine's outcome step,
 * `QuietRuleset` in ../core/quiet.ts): the attack's modifiers against the defense
 * (`attackModifiers`, `defenseRating`), the declared reaction as `planAttack` finds it, the rolls
 * of `rollAttack`, the damage of `rollDamageOf` applied by `takeHit`: the outcome of `planAttack`,
 * `resolveAttack`, `rollDamage` and `applyDamage` with the same dice (UD-ATK-01 to UD-ATK-04,
 * UD-REA-01 to UD-REA-04, UD-ZON-01/02, UD-DMG-01 to UD-DMG-05).
 * @throws FrayError as `planAttack`: `FRAY.Error.CannotAct`, `FRAY.Error.NoWeapon`,
 *   `FRAY.Error.NoMode`, `FRAY.Error.ReactionUnavailable`.
 */
export function ud10AttackOutcome(
  input: Ud10AttackInput,
  dice: SyncDiceRoller,
  options: RulesetOptions,
  economy?: Economy,
): QuietAttack<Ud10Combatant> {
  const o = ud10OptionsOf(options);
  const { target } = input;
  const { weapon, mode } = actingWith(input);
  const modifier = attackModifiers(input, weapon, mode);
  const reaction = input.reaction ? declaredReaction(reactions(input, economy, o), input.reaction, target.name) : undefined;
  const rolled = rollAttack(
    modifier,
    defenseRating(target, input.situation),
    reaction?.id,
    reaction ? sumModifiers(reaction.modifiers) : 0,
    o.bodyZones,
    dice,
  );
  let damage = 0;
  let after: Ud10Combatant | undefined;
  if (rolled.lands) {
    damage = rollDamageOf(weapon, mode, dice);
    after = withHit(target, takeHit(target, damage, rolled.zone, weapon.penetration, o));
  }
  // Every field in place, in the order of `QuietAttack` (see there).
  return {
    weaponId: weapon.id,
    modeId: mode?.id,
    hit: rolled.hit,
    reacted: rolled.reacted,
    reactionCost: reaction ? REACTION_COST : undefined,
    reactionSuccess: rolled.reacted ? rolled.stopped : undefined,
    lands: rolled.lands,
    location: rolled.zone,
    damage,
    target: after,
    forced: undefined,
  };
}

/**
 * What an attack leaves behind (UD-ATK-04): the shot spends the aim. With `events`, that is
 * reported there; without, the state's events are none.
 */
export function ud10AfterAttack(c: Ud10Combatant, economy: Economy, events?: LifecycleEvent[]): RoundState<Ud10Combatant> {
  if (!hasAim(c)) return { combatant: c, economy, events: events ?? NO_EVENTS };
  if (events) events.push({ rule: "UD-ATK-04", label: "FRAY.Situation.Ud10.Event.AimSpent" });
  return { combatant: withoutAim(c), economy, events: events ?? NO_EVENTS };
}
