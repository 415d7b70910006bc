import { pluralKey } from "../core/i18n.js";
import type {
  ActionDef as PlayAction,
  ActionKind,
  ActionOutcome,
  AttackRequest,
  ConditionSpec,
  LifecycleEvent,
  RoundState,
  SituationField,
  SituationContext,
  SituationValue,
  VitalsUpdate,
} from "../core/contract.js";
import { RULESET_BOUNDS } from "../core/bounds.js";
import type { Economy } from "../core/economy.js";
import { FrayError } from "../core/errors.js";
import type { SyncDiceRoller } from "../core/dice/port.js";
import { holds, withConditions } from "../core/lists.js";
import type { QuietAttack } from "../core/quiet.js";
import type { RulesetOptions } from "../core/ruleset.js";
import type { VitalState } from "../core/types.js";
import {
  ADJACENT_SQUARES,
  attackDifficulty,
  attackModifier,
  declaredReactionId,
  DEFAULT_AUTO_BULLETS,
  MELEE_REACH,
  reactionCost,
  reactionModifier,
  rollAttack,
  targetMovementOf,
  usableWeapon,
  weaponOf,
  type ZonesAttackResult,
} from "./attack.js";
import { damageTypeOf, hitPoints, rollBullet } from "./damage.js";
import { sizeFromStance } from "./difficulty.js";
import { afterShot } from "./firearms.js";
import { parseSituation, type ZonesAttackInput, type ZonesSituation } from "./input.js";
import {
  DAMAGE_TYPES,
  HIT_ZONES,
  MALFUNCTIONS,
  MOVEMENTS,
  SIZES,
  STANCES,
  copyCombatant,
  fieldError,
  restate,
  type DamageType,
  type HitZoneId,
  type Malfunction,
  type SizeCategory,
  type ZonesCombatant,
  type ZonesWeapon,
} from "./model.js";
import { zonesOptions, zonesOptionsOf } from "./options.js";
import { ACTIONS, roundEconomy } from "./turn.js";

/**
 * The Zones play contract (src/rules/core/contract.ts): the neutral attack request turned into
 * a {@link ZonesAttackInput}, the attack dialog's situation fields, the round's actions and the
 * conditions the core reads, vitals written back to an actor, and the round's lifecycle
 * (ZN-RNG-04, ZN-RNG-07, ZN-MOV-03, ZN-SUR-01, ZN-BST-01, ZN-MAL-01, ZN-THR-01, ZN-GRN-01) as
 * pure transitions. Zones forces no checks after damage, so it offers no `forcedCheck`.
 */

/** Firing modes of ZN-BST-01. */
export const FIRING_MODES = ["single", "burst", "auto"] as const;
type FiringMode = (typeof FIRING_MODES)[number];

/** Environment conditions of ZN-RNG-01, with the labels of their difficulty lines. */
const ENVIRONMENT_CHOICES = [
  { value: "lowLight", label: "FRAY.Mod.Zones.LowLight" },
  { value: "darkness", label: "FRAY.Mod.Zones.Darkness" },
  { value: "strongWind", label: "FRAY.Mod.Zones.StrongWind" },
  { value: "impairedVision", label: "FRAY.Mod.Zones.ImpairedVision" },
];

/** The value of the `aimedZone` and `malfunction` fields that chooses nothing. */
export const NONE = "none";

/**
 * Situation field ids that are not fields of `ZonesSituation`: `malfunctionAfter` (the bullets
 * that leave before the malfunction), `bullets` of full auto (ZN-BST-01), `damageType` (ZN-DMG-01)
 * and `areaSize`, the size of a grenade's target area (ZN-GRN-01).
 */
const EXTRA_IDS = ["malfunction", "malfunctionAfter", "bullets", "damageType", "areaSize"] as const;

/** Every situation field id Zones knows: the fields of `ZonesSituation` and {@link EXTRA_IDS}. */
export const SITUATION_IDS: readonly string[] = [
  "targetSize",
  "targetMovement",
  "shooterMovement",
  "stance",
  "aim",
  "environment",
  "environmentModifier",
  "misc",
  "aimedZone",
  "surprise",
  "exposedVitals",
  ...EXTRA_IDS,
];

/** True when an attack on the target is a surprise attack by its conditions (ZN-MEL-02). */
function surprisedByConditions(target: ZonesCombatant | undefined): boolean {
  return Boolean(target && (holds(target.conditions, "unaware") || holds(target.conditions, "surprised")));
}

const choices = (values: readonly string[], label: (value: string) => string) => values.map((value) => ({ value, label: label(value) }));

/** A situation field of the whole vocabulary, and whether it applies to the attack at hand. */
interface VocabularyEntry {
  field: SituationField;
  applies: boolean;
}

/** Every Zones situation field for one attack, with the defaults the core reads when a field is absent. */
function vocabulary(context: SituationContext<ZonesCombatant>, weapon: ZonesWeapon): VocabularyEntry[] {
  const { attacker, target } = context;
  const ranged = weapon.kind !== "melee";
  const firearm = weapon.kind === "firearm";
  const grenade = weapon.kind === "grenade";
  const area = grenade && !target;
  const label = (id: string) => `FRAY.Situation.Zones.${id}`;
  const field = (f: Omit<SituationField, "label" | "perTarget"> & { perTarget?: boolean }, applies: boolean): VocabularyEntry => ({
    field: { label: label(f.id), perTarget: false, ...f },
    applies,
  });
  return [
    field(
      {
        id: "targetSize",
        rule: "ZN-RNG-06",
        kind: "choice",
        choices: choices(SIZES, (v) => `FRAY.Zones.Size.${v}`),
        default: target ? sizeFromStance(target.size, target.stance) : "medium",
        perTarget: true,
      },
      ranged && !area,
    ),
    field(
      {
        id: "targetMovement",
        rule: "ZN-RNG-04",
        kind: "choice",
        choices: choices(MOVEMENTS, (v) => `FRAY.Zones.Movement.${v}`),
        default: target ? targetMovementOf(target) : "subtle",
        perTarget: true,
      },
      ranged && !area,
    ),
    field(
      {
        id: "shooterMovement",
        rule: "ZN-RNG-04",
        kind: "choice",
        choices: choices(MOVEMENTS, (v) => `FRAY.Zones.Movement.${v}`),
        default: attacker.movement,
      },
      ranged,
    ),
    field(
      {
        id: "stance",
        rule: "ZN-RNG-05",
        kind: "choice",
        choices: choices(STANCES, (v) => `FRAY.Zones.Stance.${v}`),
        default: attacker.stance,
      },
      ranged,
    ),
    field({ id: "aim", rule: "ZN-RNG-07", kind: "number", min: 0, step: 1, default: attacker.aim }, ranged),
    field({ id: "environment", rule: "ZN-RNG-01", kind: "multi", choices: ENVIRONMENT_CHOICES, default: [] }, ranged),
    field({ id: "environmentModifier", rule: "ZN-RNG-01", kind: "number", step: 1, default: 0 }, ranged),
    field({ id: "misc", rule: ranged ? "ZN-RNG-01" : "ZN-MEL-01", kind: "number", step: 1, default: 0 }, true),
    field(
      {
        id: "aimedZone",
        rule: "ZN-ZON-03",
        kind: "choice",
        choices: [{ value: NONE, label: label("aimedZoneNone") }, ...choices(HIT_ZONES, (v) => `FRAY.Zones.Zone.${v}`)],
        default: NONE,
        perTarget: true,
      },
      ranged && !grenade && Boolean(target),
    ),
    field(
      { id: "surprise", rule: "ZN-MEL-02", kind: "boolean", default: surprisedByConditions(target), perTarget: true },
      !ranged && Boolean(target),
    ),
    field(
      { id: "exposedVitals", rule: "ZN-VIT-03", kind: "boolean", default: false, perTarget: true },
      !grenade && Boolean(target) && weapon.damageTypes.includes("slashing"),
    ),
    field(
      {
        id: "malfunction",
        rule: "ZN-MAL-01",
        kind: "choice",
        choices: [{ value: NONE, label: label("malfunctionNone") }, ...choices(MALFUNCTIONS, (v) => `FRAY.Zones.Malfunction.${v}`)],
        default: NONE,
      },
      firearm,
    ),
    field(
      {
        id: "malfunctionAfter",
        hint: label("malfunctionAfterHint"),
        rule: "ZN-MAL-01",
        kind: "number",
        min: RULESET_BOUNDS.zones.malfunctionAfter.min,
        max: RULESET_BOUNDS.zones.malfunctionAfter.max,
        step: 1,
        default: 1,
      },
      firearm,
    ),
    field(
      {
        id: "bullets",
        rule: "ZN-BST-01",
        kind: "number",
        min: 2,
        max: Math.max(DEFAULT_AUTO_BULLETS, weapon.magazine),
        step: 1,
        default: DEFAULT_AUTO_BULLETS,
      },
      firearm && weapon.auto && context.modeId === "auto",
    ),
    field(
      {
        id: "damageType",
        rule: "ZN-DMG-01",
        kind: "choice",
        choices: choices(weapon.damageTypes, (v) => `FRAY.Zones.DamageType.${v}`),
        default: weapon.damageTypes[0]!,
      },
      !grenade && weapon.damageTypes.length > 1,
    ),
    field(
      { id: "areaSize", rule: "ZN-GRN-01", kind: "choice", choices: choices(SIZES, (v) => `FRAY.Zones.Size.${v}`), default: "medium" },
      area,
    ),
  ];
}

/**
 * The situation fields of one Zones attack, in dialog order, each with the value the core reads
 * when the field is left out: the target's size from its stance (ZN-RNG-06) and its movement
 * (ZN-RNG-04, still when bound or out), the shooter's movement, stance and aim this round
 * (ZN-RNG-04, ZN-RNG-05, ZN-RNG-07), a surprise attack on an `unaware` or `surprised` target
 * (ZN-MEL-02), the weapon's first damage type (ZN-DMG-01), ten bullets of full auto
 * (ZN-BST-01), a medium area for a grenade without a target (ZN-GRN-01). Only fields that apply
 * to the weapon and attack are given: ranged fields for firearms, thrown weapons and grenades,
 * `surprise` for melee, malfunctions for firearms, `bullets` for full auto, `damageType` for a
 * weapon with several, `exposedVitals` for a weapon that slashes (ZN-VIT-03).
 * @throws FrayError `FRAY.Error.NoWeapon` when the weapon is not the attacker's.
 */
export function situation(context: SituationContext<ZonesCombatant>, _options: RulesetOptions = {}): SituationField[] {
  const weapon = weaponOf({ attacker: context.attacker, weaponId: context.weaponId });
  return vocabulary(context, weapon)
    .filter((e) => e.applies)
    .map((e) => e.field);
}

/** The situation ids of a request without any. */
const NO_IDS: readonly string[] = Object.freeze([]);

const wholeNumber = (v: SituationValue, min: number): v is number => typeof v === "number" && Number.isInteger(v) && v >= min;

/**
 * The Zones attack input of a neutral request (ZN-RNG-01 to ZN-RNG-08, ZN-BST-01, ZN-MEL-01 to
 * ZN-MEL-04, ZN-ZON-03, ZN-DMG-01, ZN-MAL-01, ZN-GRN-01): the distance in metres is the range
 * (a melee attack between adjacent squares, up to {@link ADJACENT_SQUARES}, is within reach),
 * `modeId` one of `single`, `burst`, `auto`, the reaction `dodge` or `block`. Situation values are
 * checked by {@link parseSituation} (fields of `ZonesSituation`) and here (`malfunction` with
 * `malfunctionAfter`, `bullets`, `damageType`, `areaSize`). A value left out stays absent and the
 * core reads it from the combatants, the weapon and the distance, as `situation()` gives the
 * defaults; a `malfunction` without `malfunctionAfter` takes the core's default (after one bullet
 * for a stoppage, at once for a squib load). Without a target a grenade is thrown at an area of
 * `areaSize` (medium by default).
 * @param target absent only for a grenade thrown at an area.
 * @throws FrayError `FRAY.Error.Field` naming `situation.<id>` for an unknown field or a value of
 *   the wrong kind, or `reaction`; `FRAY.Error.NoMode` for a firing mode Zones does not know;
 *   `FRAY.Error.NoWeapon` when the weapon is not the attacker's.
 */
export function input(
  request: AttackRequest,
  attacker: ZonesCombatant,
  target: ZonesCombatant | undefined,
  _options: RulesetOptions = {},
): ZonesAttackInput {
  const weapon = weaponOf({ attacker, weaponId: request.weaponId });
  const mode = request.modeId;
  if (mode !== undefined && !(FIRING_MODES as readonly string[]).includes(mode)) {
    throw new FrayError("FRAY.Error.NoMode", { mode, weapon: weapon.name }, `${weapon.name} has no firing mode "${mode}"`);
  }
  const reaction = request.reaction;
  if (reaction !== undefined && reaction !== "dodge" && reaction !== "block")
    throw fieldError("reaction", "dodge or block (ZN-MEL-03, ZN-MEL-04)");
  const raw: Record<string, unknown> = {};
  let malfunction: Malfunction | undefined;
  let malfunctionAfter: number | undefined;
  let bullets: number | undefined;
  let damageType: DamageType | undefined;
  let areaSize: SizeCategory | undefined;
  // Most attacks give no situation at all (a forecast's): nothing to read.
  const given = request.situation;
  const ids = given ? Object.keys(given) : NO_IDS;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    const value = given![id]!;
    const path = `situation.${id}`;
    switch (id as (typeof EXTRA_IDS)[number]) {
      case "malfunction":
        if (value === NONE) break;
        if (typeof value !== "string" || !(MALFUNCTIONS as readonly string[]).includes(value))
          throw fieldError(path, `one of ${NONE}, ${MALFUNCTIONS.join(", ")}`);
        malfunction = value as Malfunction;
        break;
      case "malfunctionAfter":
        if (!wholeNumber(value, 0) || value > RULESET_BOUNDS.zones.malfunctionAfter.max)
          throw fieldError(path, `a whole number of bullets, 0 to ${RULESET_BOUNDS.zones.malfunctionAfter.max}`);
        malfunctionAfter = value;
        break;
      case "bullets":
        if (!wholeNumber(value, 2)) throw fieldError(path, "a whole number of bullets, 2 or more");
        bullets = value;
        break;
      case "damageType":
        if (
          typeof value !== "string" ||
          !(DAMAGE_TYPES as readonly string[]).includes(value) ||
          !weapon.damageTypes.includes(value as DamageType)
        ) {
          throw fieldError(path, `one of ${weapon.damageTypes.join(", ")}`);
        }
        damageType = value as DamageType;
        break;
      case "areaSize":
        if (typeof value !== "string" || !(SIZES as readonly string[]).includes(value))
          throw fieldError(path, `one of ${SIZES.join(", ")}`);
        areaSize = value as SizeCategory;
        break;
      default:
        if (!SITUATION_IDS.includes(id)) throw fieldError(path, `one of ${SITUATION_IDS.join(", ")}`);
        if (id === "aimedZone" && value === NONE) break;
        raw[id] = value;
    }
  }
  if (malfunction) raw.malfunction = { kind: malfunction, afterBullets: malfunctionAfter };
  const parsed: ZonesSituation = ids.length ? parseSituation(raw, "situation") : {};
  const area = weapon.kind === "grenade" && !target;
  // Tokens on adjacent squares are 1.5 m apart centre to centre: within the 1 m reach (ZN-MEL-01, RULES.md).
  const distance = request.distanceMetres;
  const rangeMetres =
    weapon.kind === "melee" && distance !== undefined && distance <= ADJACENT_SQUARES ? Math.min(distance, MELEE_REACH) : distance;
  const out: ZonesAttackInput = { attacker, target, weaponId: weapon.id, rangeMetres, situation: parsed };
  if (mode !== undefined) out.modeId = mode as FiringMode;
  if (area) out.area = { size: areaSize };
  if (bullets !== undefined) out.bullets = bullets;
  if (damageType !== undefined) out.damageType = damageType;
  if (reaction !== undefined) out.reaction = reaction;
  return out;
}

/**
 * {@link input} of the same request with the defender's declared `reaction` (ZN-MEL-03,
 * ZN-MEL-04), from `input`, the input of that request without one (or with another): the same
 * fields in the same order, the reaction checked as {@link input} checks it, nothing parsed again.
 * The round engine uses it once a reaction is chosen for an attack (`Ruleset.withReaction`).
 * @throws FrayError `FRAY.Error.Field` (field `reaction`) for anything but `dodge` or `block`.
 */
export function withReaction(input: ZonesAttackInput, reaction: string): ZonesAttackInput {
  if (reaction !== "dodge" && reaction !== "block") throw fieldError("reaction", "dodge or block (ZN-MEL-03, ZN-MEL-04)");
  const out: ZonesAttackInput = {
    attacker: input.attacker,
    target: input.target,
    weaponId: input.weaponId,
    rangeMetres: input.rangeMetres,
    situation: input.situation,
  };
  if (input.modeId !== undefined) out.modeId = input.modeId;
  if (input.area !== undefined) out.area = input.area;
  if (input.bullets !== undefined) out.bullets = input.bullets;
  if (input.damageType !== undefined) out.damageType = input.damageType;
  out.reaction = reaction;
  return out;
}

/** What each action of {@link ACTIONS} is and what it is aimed at. */
const ACTION_KIND: Readonly<Record<string, { kind: ActionKind; target: PlayAction["target"] }>> = {
  move: { kind: "move", target: "none" },
  useItem: { kind: "other", target: "none" },
  attack: { kind: "attack", target: "one" },
  aim: { kind: "other", target: "one" },
  skill: { kind: "other", target: "none" },
  regainSpeed: { kind: "other", target: "none" },
  dodge: { kind: "reaction", target: "none" },
  clearMalfunction: { kind: "other", target: "none" },
  reload: { kind: "other", target: "none" },
  draw: { kind: "other", target: "none" },
  suppress: { kind: "other", target: "none" },
};

/**
 * The actions of a Zones round with their costs in slots `action`, `reaction`, `free` (ZN-ACT-01,
 * ZN-ACT-02): every action of {@link ACTIONS} takes the action (dodging too, ZN-MEL-03); moving
 * takes it only with the option `moveTakesAction`, its speed and effort points being priced by the
 * movement bands (ZN-MOV-01). Then declaring a reaction, which spends the reaction (ZN-REA-01),
 * a few words of talk, the free action (ZN-FRE-01), and, for a combatant carrying a grenade, a
 * throw at an area (ZN-GRN-01).
 */
export function actions(c: ZonesCombatant, options: RulesetOptions = {}): PlayAction[] {
  // The list depends only on the options and on whether a grenade is carried: built once for each
  // (the round engine asks for an action's cost at every attack), a new array on each call.
  let built = actionLists.get(options);
  if (!built) actionLists.set(options, (built = [buildActions(false, options), buildActions(true, options)]));
  let grenade = 0;
  for (let i = 0; i < c.weapons.length && !grenade; i++) if (c.weapons[i]!.kind === "grenade") grenade = 1;
  return [...built[grenade]!];
}

/** The action lists of {@link actions} by the options object they were built for: without and with a grenade. */
const actionLists = new WeakMap<RulesetOptions, [PlayAction[], PlayAction[]]>();

function buildActions(grenade: boolean, options: RulesetOptions): PlayAction[] {
  const o = zonesOptions(options);
  const out: PlayAction[] = ACTIONS.map((a) => ({
    id: a.id,
    label: a.label,
    rule: a.rule,
    ...(ACTION_KIND[a.id] ?? { kind: "other" as const, target: "none" as const }),
    cost: a.id === "move" && !o.moveTakesAction ? {} : a.cost,
  }));
  if (grenade) {
    out.push({
      id: "attackArea",
      label: "FRAY.Zones.Action.attackArea",
      rule: "ZN-GRN-01",
      kind: "attack",
      target: "area",
      cost: { slots: { action: 1 } },
    });
  }
  out.push(
    {
      id: "declareReaction",
      label: "FRAY.Zones.Action.declareReaction",
      rule: "ZN-REA-01",
      kind: "reaction",
      target: "none",
      cost: { slots: { reaction: 1 } },
    },
    { id: "talk", label: "FRAY.Zones.Action.talk", rule: "ZN-FRE-01", kind: "other", target: "none", cost: { slots: { free: 1 } } },
  );
  return out;
}

/**
 * The conditions the Zones core reads from `conditions`: `surprised` for the surprise round
 * (ZN-SUR-01), `unaware` (no dodge or block, ZN-MEL-02), `bound` (a still target, ZN-RNG-04), and
 * the three that put a combatant out of the fight: `incapacitated` (0 HP, ZN-ZON-02; a grenade's
 * casualty radius, ZN-GRN-01), `unconscious` and `dead` (ZN-GRN-01).
 */
export function conditions(): ConditionSpec[] {
  return [
    { id: "surprised", label: "FRAY.Condition.surprised", icon: "icons/svg/daze.svg", rule: "ZN-SUR-01", duration: "round" },
    { id: "unaware", label: "FRAY.Condition.unaware", icon: "icons/svg/blind.svg", rule: "ZN-MEL-02", duration: "permanent" },
    { id: "bound", label: "FRAY.Condition.bound", icon: "icons/svg/net.svg", rule: "ZN-RNG-04", duration: "permanent" },
    {
      id: "incapacitated",
      label: "FRAY.Condition.incapacitated",
      icon: "icons/svg/paralysis.svg",
      rule: "ZN-ZON-02",
      duration: "permanent",
      out: true,
    },
    {
      id: "unconscious",
      label: "FRAY.Condition.unconscious",
      icon: "icons/svg/unconscious.svg",
      rule: "ZN-ZON-02",
      duration: "permanent",
      out: true,
    },
    { id: "dead", label: "FRAY.Condition.dead", icon: "icons/svg/skull.svg", rule: "ZN-GRN-01", duration: "permanent", out: true },
  ];
}

/** The combatant with a vital state: its hit points and conditions (the parts Zones tracks, ZN-ZON-02). */
export function withVitals(c: ZonesCombatant, state: VitalState): ZonesCombatant {
  return restate(c, { hp: state.hp ? { value: state.hp.value, max: state.hp.max } : c.hp, conditions: [...state.conditions] });
}

/**
 * The actor source update that stores a vital state: `{ system: { hp: { value } } }` (ZN-ZON-02),
 * as `zonesCombatantFromActor` reads it back. Conditions are status effects, not written here;
 * a state without hit points updates nothing.
 */
export function vitalsUpdate(state: VitalState): VitalsUpdate {
  return state.hp ? { system: { hp: { value: state.hp.value } } } : {};
}

/**
 * The start of a round for one combatant (ZN-SUR-01, ZN-RNG-04, ZN-RNG-07, ZN-INI-02, ZN-MOV-03):
 * from round 2 the surprise round is over; movement goes back to `subtle` (a standing person moves
 * subtly), aim taken and not fired last round is lost, no effort is committed to initiative yet;
 * the speed and effort points left at the end of the last round carry over into the combatant and
 * the new economy (speed full again with the option `speedRecovery: round`). In the first round
 * (`previous` absent) the economy starts from the combatant's own points.
 * @param previous the economy at the end of the last round.
 */
export function startRound(
  c: ZonesCombatant,
  previous: Economy | undefined,
  round: number,
  options: RulesetOptions = {},
): RoundState<ZonesCombatant> {
  return roundStart(c, previous, round, options, []);
}

const NO_EVENTS: LifecycleEvent[] = Object.freeze([]) as unknown as LifecycleEvent[];

/**
 * {@link startRound} without its events, for an engine that keeps none (a quiet forecast): the
 * same combatant and economy (held equal by a property test), `events` always empty, and no event
 * objects built (ZN-SUR-01, ZN-RNG-04, ZN-RNG-07, ZN-INI-02, ZN-MOV-03).
 */
export function startRoundQuiet(
  c: ZonesCombatant,
  previous: Economy | undefined,
  round: number,
  options: RulesetOptions = {},
): RoundState<ZonesCombatant> {
  return roundStart(c, previous, round, options, undefined);
}

/** The work of {@link startRound}; its events pushed onto `events` when given, else none (`NO_EVENTS`). */
function roundStart(
  c: ZonesCombatant,
  previous: Economy | undefined,
  round: number,
  options: RulesetOptions,
  events: LifecycleEvent[] | undefined,
): RoundState<ZonesCombatant> {
  const o = zonesOptionsOf(options);
  const surpriseOver = round > 1 && holds(c.conditions, "surprised");
  if (events) {
    if (surpriseOver) events.push({ rule: "ZN-SUR-01", label: "FRAY.Zones.Event.SurpriseOver" });
    if (c.aim > 0) events.push({ rule: "ZN-RNG-07", label: pluralKey("FRAY.Zones.Event.AimLost", c.aim), data: { actions: c.aim } });
    if (c.movement !== "subtle")
      events.push({ rule: "ZN-RNG-04", label: "FRAY.Zones.Event.MovementReset", data: { movement: `FRAY.Zones.Movement.${c.movement}` } });
  }
  // One new state, built once (this runs for every combatant every round): the points carried
  // over from the last round's economy, as the new round's economy holds them (`economy`, with
  // `createEconomy`'s cap at the maximum).
  // When nothing changes, the state stays the one it was (states are values; the engine reads a
  // state it has seen before from its cache).
  const carried = previous?.pools.speed?.value ?? c.speed.value;
  const speed = Math.min(o.speedRecovery === "round" ? c.speed.max : carried, c.speed.max);
  const effort = Math.min(previous?.pools.effort?.value ?? c.effort.value, c.effort.max);
  const points = speed !== c.speed.value || effort !== c.effort.value;
  const same = !surpriseOver && !points && c.movement === "subtle" && c.aim === 0 && c.initiativeEffort === 0;
  let next = c;
  if (!same) {
    // A copy with its fields set, as `restate` builds it (one shape for every state), field by field.
    next = copyCombatant(c);
    if (surpriseOver) next.conditions = c.conditions.filter((s) => s !== "surprised");
    next.movement = "subtle";
    next.aim = 0;
    next.initiativeEffort = 0;
    if (speed !== c.speed.value) next.speed = { value: speed, max: c.speed.max };
    if (effort !== c.effort.value) next.effort = { value: effort, max: c.effort.max };
  }
  if (points && events) events.push({ rule: "ZN-MOV-03", label: "FRAY.Zones.Event.Points", data: { speed, effort } });
  return { combatant: next, economy: roundEconomy(next, o), events: events ?? NO_EVENTS };
}

/**
 * After an action, its follow-up in the rules; the host has charged the action's cost
 * (`actions()`). Aiming raises the aiming actions of the round by one (ZN-RNG-07); regaining speed
 * fills the speed points (ZN-MOV-03). An attack spends the aim (ZN-RNG-07); a thrown weapon or
 * grenade leaves the thrower's hands (ZN-THR-01, ZN-GRN-01); a firearm loses the rounds that left
 * the magazine (ZN-BST-01), keeps a malfunction of the shot until cleared and is destroyed by a
 * shot behind a squib load (ZN-MAL-01). Other actions change nothing here.
 * @throws FrayError `FRAY.Error.NoWeapon` when the attack's weapon is not the combatant's.
 */
export function afterAction(
  c: ZonesCombatant,
  outcome: ActionOutcome,
  economyNow: Economy,
  _options: RulesetOptions = {},
): RoundState<ZonesCombatant> {
  const events: LifecycleEvent[] = [];
  if (outcome.kind === "action") {
    if (outcome.id === "aim") {
      const next = restate(c, { aim: c.aim + 1 });
      events.push({ rule: "ZN-RNG-07", label: pluralKey("FRAY.Zones.Event.Aimed", next.aim), data: { actions: next.aim } });
      return { combatant: next, economy: economyNow, events };
    }
    if (outcome.id === "regainSpeed") {
      const pools = { ...economyNow.pools };
      const pool = pools.speed;
      if (pool) pools.speed = { value: pool.max, max: pool.max };
      const speed = pools.speed?.value ?? c.speed.max;
      events.push({ rule: "ZN-MOV-03", label: "FRAY.Zones.Event.SpeedRegained", data: { speed } });
      return { combatant: restate(c, { speed: { value: speed, max: c.speed.max } }), economy: { ...economyNow, pools }, events };
    }
    return { combatant: c, economy: economyNow, events };
  }
  return afterAttack(c, outcome.weaponId, outcome.result as ZonesAttackResult, economyNow, events);
}

/**
 * What an attack leaves behind ({@link afterAction}; ZN-RNG-07, ZN-THR-01, ZN-GRN-01, ZN-BST-01,
 * ZN-MAL-01): the aim spent, a thrown weapon or grenade gone from the hands, a firearm's rounds
 * spent, a malfunction kept, a weapon burst by a squib load. With `events`, each is reported
 * there; without, the state's events are none, and a combatant the attack left as it was is
 * handed back itself.
 * @param shot what `afterShot` reads of the attack: catastrophic, the malfunction, the rounds spent.
 * @throws FrayError `FRAY.Error.NoWeapon` when the attack's weapon is not the combatant's.
 */
export function afterAttack(
  c: ZonesCombatant,
  weaponId: string,
  shot: Parameters<typeof afterShot>[1],
  economy: Economy,
  events?: LifecycleEvent[],
): RoundState<ZonesCombatant> {
  const weapon = weaponOf({ attacker: c, weaponId });
  const gone = weapon.kind === "thrown" || weapon.kind === "grenade";
  const after = gone ? undefined : afterShot(weapon, shot);
  if (!gone && after === weapon && c.aim === 0) return { combatant: c, economy, events: events ?? NO_EVENTS };
  if (c.aim > 0 && events)
    events.push({ rule: "ZN-RNG-07", label: pluralKey("FRAY.Zones.Event.AimSpent", c.aim), data: { actions: c.aim } });
  if (gone && events)
    events.push({
      rule: weapon.kind === "grenade" ? "ZN-GRN-01" : "ZN-THR-01",
      label: "FRAY.Zones.Event.Thrown",
      data: { weapon: weapon.name },
    });
  if (after && events) {
    const spent = weapon.loaded - after.loaded;
    if (spent > 0)
      events.push({
        rule: "ZN-BST-01",
        label: pluralKey("FRAY.Zones.Event.Ammunition", spent),
        data: { weapon: weapon.name, spent, loaded: after.loaded },
      });
    if (after.broken && !weapon.broken) {
      events.push({ rule: "ZN-MAL-01", label: "FRAY.Zones.Event.Broken", data: { weapon: weapon.name } });
    } else if (after.malfunction && after.malfunction !== weapon.malfunction) {
      events.push({
        rule: "ZN-MAL-01",
        label: "FRAY.Zones.Event.Malfunction",
        data: { weapon: weapon.name, malfunction: `FRAY.Zones.Malfunction.${after.malfunction}` },
      });
    }
  }
  // A spread, not `slice`: lists reach here frozen or not.
  const weapons = [...c.weapons];
  const index = c.weapons.indexOf(weapon);
  if (after) weapons[index] = after;
  else weapons.splice(index, 1);
  const next = copyCombatant(c);
  next.weapons = weapons;
  if (c.aim > 0) next.aim = 0;
  return { combatant: next, economy, events: events ?? NO_EVENTS };
}

/** A Zones attack played to its end with totals only: the outcome plus what the weapon went through. */
export interface ZonesAttackOutcome extends QuietAttack<ZonesCombatant> {
  location?: HitZoneId;
  /** Bullets that left the barrel and bullets that hit (ZN-BST-01); 1 and 0 or 1 for a blow or a throw. */
  fired: number;
  hits: number;
  /** Rounds that left the magazine (a firearm's; a squib round too, ZN-MAL-01). */
  spent?: number;
  /** The malfunction the GM ruled for this shot (ZN-MAL-01). */
  malfunction?: Malfunction;
  /** A shot behind a squib load: the weapon bursts, nothing is rolled (ZN-MAL-01); the host deals the shooter's damage. */
  catastrophic?: boolean;
  /** A grenade that missed lands this many metres off (ZN-GRN-01, RULES.md); the host plays the blast. */
  deviation?: number;
}

/**
 * One Zones attack played to its end with totals only (the round engine's outcome step,
 * `QuietRuleset` in ../core/quiet.ts): `usableWeapon`, `attackModifier` against
 * `attackDifficulty`, the declared reaction (`declaredReactionId`, `reactionModifier`), the rolls
 * of `rollAttack`, each bullet's `rollBullet` taken by `hitPoints`: the outcome of `planAttack`,
 * `resolveAttack`, `rollDamage`, `applyDamage` and `withVitals` with the same dice. A squib load's
 * catastrophic failure and a grenade's blast are the host's to play: the outcome says so
 * (`catastrophic`, `deviation`).
 * @param base the combatant the damage applies to when it is not the input's target (the held
 *   state within a simultaneous step); the input's target by default.
 * @throws FrayError as `planAttack`; as `rollDamage` for a damage type the weapon cannot deal.
 */
export function attackOutcome(
  input: ZonesAttackInput,
  dice: SyncDiceRoller,
  options: RulesetOptions,
  economy?: Economy,
  base?: ZonesCombatant,
): ZonesAttackOutcome {
  const o = zonesOptionsOf(options);
  const weapon = usableWeapon(input);
  const difficulty = attackDifficulty(input, weapon, o);
  const modifier = attackModifier(input.attacker, weapon);
  const reaction = input.reaction ? declaredReactionId(input, weapon, economy) : undefined;
  const r = rollAttack(input, weapon, modifier, difficulty, reaction, reaction ? reactionModifier(input.target!, reaction) : 0, dice);
  const firearm = weapon.kind === "firearm";
  // Every field in place, in the order of `QuietAttack` then Zones' own.
  const out: ZonesAttackOutcome = {
    weaponId: weapon.id,
    modeId: input.modeId,
    hit: r.hit,
    reacted: r.reacted,
    reactionCost: reaction ? reactionCost(reaction) : undefined,
    reactionSuccess: r.reacted ? r.reactionSuccess : undefined,
    lands: r.lands,
    location: undefined,
    damage: 0,
    target: undefined,
    forced: undefined,
    fired: r.fired,
    hits: r.hits,
    spent: firearm ? r.spent : undefined,
    malfunction: r.malfunction,
    catastrophic: r.catastrophic || undefined,
    deviation: r.deviation,
  };
  if (!r.lands) return out;
  const type = damageTypeOf(weapon, input.damageType);
  const exposed = Boolean(input.situation?.exposedVitals);
  const target = base ?? input.target!;
  const before = target.hp.value;
  let hp = before;
  let amount = 0;
  for (let i = 0; i < r.zones.length; i++) {
    const part = rollBullet(weapon, r.halve, dice);
    amount += part;
    hp -= hitPoints(target, part, r.zones[i]!, type, exposed, o);
  }
  out.location = r.zones[0];
  out.damage = amount;
  // A copy, with `incapacitated` added by `concat` where due (see `withConditions` in core/lists.ts).
  const after = copyCombatant(target);
  after.hp = { value: hp, max: target.hp.max };
  after.conditions = withConditions(
    target.conditions,
    hp <= 0 && before > 0 && !holds(target.conditions, "incapacitated") ? "incapacitated" : undefined,
  );
  out.target = after;
  return out;
}
