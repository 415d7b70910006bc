import type { ActionOutcome, RoundState, SituationValues } from "../rules/core/contract.js";
import { shortfall, spend } from "../rules/core/economy.js";
import { FrayError } from "../rules/core/errors.js";
import { RoundEngine, type AttackOptions } from "../rules/core/round.js";
import type { DiceRoller } from "../rules/core/dice/port.js";
import type { RulesetOptions } from "../rules/core/ruleset.js";
import type { CheckResult, Modifier, VitalState } from "../rules/core/types.js";
import {
  actionDefs,
  afterAction,
  attackInput,
  CALLABLE,
  CALLED_THRESHOLDS,
  checkDeclarations,
  elapsedSeconds,
  endTurn,
  feetToMetres,
  forcedCheckDue,
  hasCondition,
  hitbox,
  hitboxCombatantFromActor,
  hitboxOptions,
  interrupts,
  isDisabled,
  isDown,
  isHitbox,
  limbsFor,
  LIMBS,
  metresToFeet,
  movementBandFeet,
  QUICK_ACTIONS,
  quickAction,
  quietAfterAttack,
  reactionRefusal,
  resolutionSteps,
  TURN_SECONDS,
  type Declaration,
  type DeclaredAction,
  type HitboxAttackInput,
  type HitboxAttackRequest,
  type HitboxAttackResult,
  type HitboxCombatant,
  type HitboxId,
  type HitboxQuietAttack,
  type HitboxSituation,
  type HitboxWeapon,
  type QuickAction,
  type RolledReaction,
  restate,
} from "../rules/hitbox/index.js";
import {
  buildEntryCombatant,
  type EndEvent,
  distanceTable,
  engineEntries,
  EngineView,
  fail,
  fileSetup,
  finishEncounter,
  freezeShared,
  type PlayOptions,
  recordingRoller,
} from "./common.js";
import type { EncounterContent } from "./library.js";
import type { ActionSpec, CombatantSpec, EncounterSpec } from "./schema.js";
import type { EncounterDriver, EncounterEvent, EncounterResult } from "./types.js";
import { chooseTarget, chooseWeapon, DEFAULT_TACTICS } from "./tactics.js";

/** Action keys a Hitbox encounter file accepts beyond the common ones. */
const ACTION_KEYS = ["called", "shots", "feet", "walk", "run", "task", "quick", "first", "react"];
/**
 * How the driver's attacks go through the engine: within the step the attack meets the target as
 * it stood when the step began and its damage is held until the step ends (HB-ACT-01); the action
 * and reaction are paid by the core's `afterAction` (HB-ATK-03, HB-MOD-03); a disabled limb, a
 * target out of range or an attacker who cannot act refuses the attack.
 */
const ATTACK_OPTIONS: AttackOptions = {
  free: true,
  payReaction: false,
  refuse: (error) =>
    error.key === "FRAY.Error.HitboxLimbDisabled" || error.key === "FRAY.Error.HitboxOutOfRange" || error.key === "FRAY.Error.CannotAct",
};

/** What declaring an action takes of a turn's economy (HB-RND-01). */
const ONE_ACTION = { slots: { action: 1 } };

/** Situation keys of a Hitbox attack (HB-MOD-02, HB-ATK-03, HB-ATK-05). */
const SITUATION_KEYS: (keyof HitboxSituation)[] = ["halfHidden", "dark", "targetNearCover", "targetUnaware", "targetThreatened", "misc"];

/**
 * An entry's view of its combatant and economy in the engine (which holds a step's damage until
 * the step ends, HB-ACT-01), with what the driver keeps of it for the turn. One class, so that
 * every fighter has the same shape and `c` reads through one getter (a forecast reads it on
 * every attack).
 */
class Fighter extends EngineView<HitboxCombatant> {
  /** This turn's dodge or parry, once rolled. */
  rolled?: RolledReaction;
  /** The situation of its attacks for the action last played ({@link attackSituation}), built once per action. */
  situation?: AttackSituation;
  /** This turn's declaration and the file's action behind it; absent for a fighter out at the turn's start. */
  declared?: { decl: Declaration; action: HbAction };
  /** The reaction this turn's action declares (`react`), if any. */
  react?: string;
  /**
   * A frozen starting combatant (a forecast's `CombatantCache`) and the fight's own unfrozen copy
   * of it: while the engine still holds that copy, nothing has touched the fighter and its vital
   * state is the frozen one's ({@link vitalsOf}).
   */
  thawedFrom?: { frozen: HitboxCombatant; copy: HitboxCombatant };
  /** Out of the fight when the turn's declarations were made. */
  outAtTurn = false;
  /** Out of the fight when the current step began (HB-ACT-01). */
  outAtStart = false;
  /** Damage of the current step interrupts its action (HB-ACT-03). */
  hitInStep = false;
  /** Damage of an earlier step of this turn interrupts its action (HB-ACT-03). */
  hitThisTurn = false;
  /** The reaction it could not make has been logged this turn. */
  refused = false;
  /** Its side's place among the file's sides, in the order their first combatant comes. */
  sideIndex = 0;
  /** Its tactics in the file, if any. */
  tactics: HbAction | undefined = undefined;
  /** Metres to an enemy by id, and to an enemy, where the file gives distances (the nearest target, a ranged range). */
  distanceById: ((id: string) => number | undefined) | undefined = undefined;
  distanceTo: ((o: Fighter) => number | undefined) | undefined = undefined;
}

/** The situation of a fighter's attacks under one action of the file: the same for every turn it plays it. */
interface AttackSituation {
  /** The action it was built for. */
  action: HbAction;
  /** The situation values of the requests (tactics, then the action's own; shots; the called shot). */
  values: SituationValues;
  /** The same as the attack input reads them (`attackInput`'s `situation`), for the defender's reaction. */
  hitbox: HitboxSituation;
}

/**
 * The step's options: a Blackout test held for its end is rolled only while still due (HB-DMG-04);
 * in a quiet fight (a forecast, which reads none of them) rolled quietly.
 */
const STEP_OPTIONS = { due: forcedCheckDue };
const QUIET_STEP_OPTIONS = { due: forcedCheckDue, quiet: true };

/** The cost of a quick action (HB-ACT-03): what `actionDefs` lists for each of them. */
const QUICK_COST = { slots: { quick: 1 } };

/**
 * A quick action (HB-ACT-03, HB-ACT-04) through the engine (so that it also holds for the damage
 * a step holds): its cost paid from the core's `actionDefs`, its rule from `afterAction`, the item drawn or let go from
 * `quickAction`.
 */
function doQuick(engine: RoundEngine<HitboxCombatant, HitboxAttackInput>, id: string, q: QuickAction): void {
  engine.transition(id, (c, economy): RoundState<HitboxCombatant> => {
    const cost = (QUICK_ACTIONS as readonly string[]).includes(q.id) ? QUICK_COST : (actionDefs(c).find((a) => a.id === q.id)?.cost ?? {});
    const done = afterAction(c, { kind: "action", id: q.id }, spend(economy, cost));
    return q.item ? { ...done, combatant: quickAction(done.combatant, q, false) } : done;
  });
}

/** The situation values of the file (HitboxSituation keys are the core's situation field ids). */
function situationValues(s: HitboxSituation): SituationValues {
  return Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)) as SituationValues;
}

/** One action of the file, checked once before play. */
interface HbAction {
  wait: boolean;
  attack?: string;
  weapon?: string;
  called?: HitboxId;
  shots?: number;
  feet?: number;
  walk?: number;
  run?: number;
  task?: string;
  quick: QuickAction[];
  first?: number;
  react?: "dodge" | "parry" | "none";
  situation: HitboxSituation;
  /** `situation` as the core's situation values ({@link situationValues}), built once. */
  values: SituationValues;
}

function feetValue(v: unknown, field: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0) fail(field, "feet, 0 or more");
  return v;
}

function parseQuick(raw: unknown, path: string): QuickAction[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw))
    fail(path, "a list of quick actions (communicate, prone, { draw: item }, { letGo: item }, { communicate: text })");
  return raw.map((q: unknown, i): QuickAction => {
    const p = `${path}[${i}]`;
    if (typeof q === "string") {
      if (q === "communicate" || q === "prone") return { id: q };
      fail(p, `one of ${QUICK_ACTIONS.join(", ")} (draw and letGo name an item: { draw: item })`);
    }
    if (typeof q !== "object" || q === null || Array.isArray(q) || Object.keys(q).length !== 1)
      fail(p, "one quick action such as { draw: Service Pistol }");
    const [id, value] = Object.entries(q as Record<string, unknown>)[0]!;
    if (!(QUICK_ACTIONS as readonly string[]).includes(id)) fail(`${p}.${id}`, QUICK_ACTIONS.join(", "));
    if (typeof value !== "string" || !value) fail(`${p}.${id}`, id === "communicate" ? "what is said" : "an item name");
    return id === "communicate" ? { id: "communicate", text: value } : { id: id as QuickAction["id"], item: value };
  });
}

/**
 * Reads one action of a Hitbox encounter file (a round's action or a combatant's tactics).
 * Keys: `attack`, `weapon`, `called` (hitbox), `shots`, `feet` (range in feet; the common `range`
 * is metres and converted), `walk`/`run` (feet), `task` (text), `quick` (list), `first` (the GM
 * rules it pre-empts: true or an order number), `react` (dodge, parry, none: this turn's reaction),
 * `situation` (halfHidden, dark, targetNearCover, targetUnaware, targetThreatened, misc), `wait`.
 * @throws FrayError `FRAY.Error.Field` naming the field.
 */
function readAction(a: ActionSpec, path: string): HbAction {
  const called = a.called;
  if (called !== undefined && (!isHitbox(called) || called === "torso")) fail(`${path}.called`, CALLABLE.join(", "));
  const shots = a.shots;
  if (shots !== undefined && (typeof shots !== "number" || !Number.isInteger(shots) || shots < 1))
    fail(`${path}.shots`, "a whole number of shots, 1 or more");
  const feet = feetValue(a.feet, `${path}.feet`) ?? (a.range !== undefined ? metresToFeet(a.range) : undefined);
  const walk = feetValue(a.walk, `${path}.walk`);
  const run = feetValue(a.run, `${path}.run`);
  if (walk !== undefined && run !== undefined) fail(`${path}.run`, "either walk or run, not both");
  const task = a.task;
  if (task !== undefined && (typeof task !== "string" || !task)) fail(`${path}.task`, "a text");
  let first: number | undefined;
  if (a.first === true) first = 1;
  else if (typeof a.first === "number" && Number.isInteger(a.first)) first = a.first;
  else if (a.first !== undefined && a.first !== false) fail(`${path}.first`, "true or an order number");
  const react = a.react;
  if (react !== undefined && react !== "dodge" && react !== "parry" && react !== "none") fail(`${path}.react`, "dodge, parry, none");
  const situation: HitboxSituation = {};
  for (const [k, v] of Object.entries(a.situation ?? {})) {
    if (!(SITUATION_KEYS as string[]).includes(k)) fail(`${path}.situation.${k}`, `one of ${SITUATION_KEYS.join(", ")}`);
    if (k === "misc") {
      if (typeof v !== "number" || !Number.isInteger(v)) fail(`${path}.situation.misc`, "a whole number");
      situation.misc = v;
    } else if (typeof v !== "boolean") fail(`${path}.situation.${k}`, "true or false");
    else (situation as Record<string, boolean>)[k] = v;
  }
  if (a.attack !== undefined && (walk !== undefined || run !== undefined || task !== undefined))
    fail(`${path}.attack`, "one action a turn: attack, or walk/run/task (HB-RND-01)");
  return {
    wait: Boolean(a.wait),
    attack: a.attack,
    weapon: a.weapon,
    called: called as HitboxId | undefined,
    shots: shots as number | undefined,
    feet,
    walk,
    run,
    task: task as string | undefined,
    quick: parseQuick(a.quick, `${path}.quick`),
    first,
    react: react as HbAction["react"],
    situation,
    values: situationValues(situation),
  };
}

/** The weapon of `c` whose id or name is `ref` (the first such), by a plain loop: every attack asks. */
function weaponNamed(c: HitboxCombatant, ref: string): HitboxCombatant["weapons"][number] | undefined {
  const weapons = c.weapons;
  for (let i = 0; i < weapons.length; i++) if (weapons[i]!.id === ref || weapons[i]!.name === ref) return weapons[i];
  return undefined;
}

/** The ruleset's default option values, read once (a fight's options are these with the file's on top). */
const HITBOX_DEFAULTS: Readonly<RulesetOptions> = Object.freeze(hitbox.defaults());

/**
 * The vital states of frozen combatants (a forecast builds its combatants once, frozen, and every
 * fight starts from them, `CombatantCache`): read once and frozen in turn (`freezeShared`), so
 * that no fight can change what the next one reads.
 */
const FROZEN_VITALS = new WeakMap<HitboxCombatant, VitalState>();

/**
 * `hitbox.vitals(c)`; for a frozen combatant (its hitboxes frozen too; its armor and conditions
 * lists are never changed in place) the one frozen state read once ({@link FROZEN_VITALS}): a
 * forecast's start of every fight, and the end of a fighter nothing touched.
 */
function vitalsOf(c: HitboxCombatant): VitalState {
  // Read first: a state found there was frozen when it was added, and stays so.
  const known = FROZEN_VITALS.get(c);
  if (known) return known;
  if (!(Object.isFrozen(c) && Object.isFrozen(c.hitboxes))) return hitbox.vitals(c);
  const v = freezeShared(hitbox.vitals(c));
  FROZEN_VITALS.set(c, v);
  return v;
}

/** The weapon at hand: the weapon of the first held item that is one. */
function readyWeapon(c: HitboxCombatant): HitboxCombatant["weapons"][number] | undefined {
  // Indexed loops: every declaration asks, and a `for of` builds an iterator where V8 cannot optimize it away.
  const held = c.held;
  const weapons = c.weapons;
  for (let i = 0; i < held.length; i++) for (let j = 0; j < weapons.length; j++) if (weapons[j]!.id === held[i]) return weapons[j];
  return undefined;
}

/** The action of a combatant whose file declares nothing for it and who has no tactics. */
const NO_ACTION: HbAction = Object.freeze({ wait: false, quick: [], situation: {}, values: {} });

/**
 * Builds the Hitbox combatant of an encounter entry from its compendium reference, inline stats
 * and extra items.
 * @throws FrayError naming the field (`combatants[1].ref`, `combatants[0].stats.abilities` ...).
 */
export function buildHitboxCombatant(
  spec: CombatantSpec,
  index: number,
  content: EncounterContent,
  options: RulesetOptions,
  play?: PlayOptions,
): HitboxCombatant {
  return buildEntryCombatant(
    spec,
    index,
    content,
    (actor, overrides) => hitboxCombatantFromActor(actor, overrides, { hitboxPoints: hitboxOptions(options).hitboxPoints }),
    {
      ruleset: "hitbox",
      baseItems: (base) => ("items" in base && Array.isArray(base.items) ? base.items : []),
    },
    play,
  );
}

/** Keys of the Hitbox driver's set-ups from the file alone ({@link fileSetup}). */
const OPTIONS_SETUP = {};
const ACTIONS_SETUP = {};

/**
 * The file's actions read and checked: each combatant's tactics by id, and each declared round's
 * actions by combatant. Shared by the fights of a forecast: read, never changed.
 * @throws FrayError `FRAY.Error.Field` naming the first bad action key.
 */
function fileActions(spec: EncounterSpec): { tactics: Map<string, HbAction | undefined>; rounds: Record<string, HbAction>[] } {
  const tactics = new Map<string, HbAction | undefined>();
  spec.combatants.forEach((cs, i) => tactics.set(cs.id, cs.tactics ? readAction(cs.tactics, `combatants[${i}].tactics`) : undefined));
  const rounds = spec.rounds.map((r, i) =>
    Object.fromEntries(Object.entries(r).map(([id, a]) => [id, readAction(a, `rounds[${i}].${id}`)])),
  );
  return { tactics, rounds };
}

/**
 * Plays an encounter through the Hitbox rules core (HB-RND-01, HB-ACT-01): each turn of 5 s every
 * standing combatant declares an action and its quick actions; actions the GM puts `first`
 * resolve one by one, the rest simultaneously (damage of a step takes effect when the step ends,
 * so someone shot in the same step still acts). An actor hurt in an earlier step is interrupted
 * but keeps its quick actions (HB-ACT-03). Attacks roll 2d6 against 9 or the defender's dodge or
 * parry, rolled once a turn and standing against every attack (HB-ATK-03); hits roll their
 * location, deal damage through armor, and Blackout tests forced by a step are rolled at its end
 * (HB-DMG-04). Ends when one side is down or after `maxRounds` turns. Deterministic for a given
 * file and seed.
 * @param dice defaults to the file's scripted faces followed by the seeded roller.
 * @throws FrayError `FRAY.Error.Field` naming what is wrong in the file.
 */
export async function playHitbox(
  spec: EncounterSpec,
  content: EncounterContent,
  dice?: DiceRoller,
  play: PlayOptions = {},
): Promise<EncounterResult> {
  // The file's options, read once per forecast.
  const { options, opts } = fileSetup(OPTIONS_SETUP, spec, play, () => {
    const options: RulesetOptions = { ...HITBOX_DEFAULTS, ...spec.options };
    return { options, opts: hitboxOptions(options) };
  });
  const { logged, history } = recordingRoller(spec, dice, play);
  const engine = new RoundEngine(
    hitbox,
    engineEntries(spec, (cs, i) => buildHitboxCombatant(cs, i, content, options, play)),
    logged,
    { options, maxRounds: spec.maxRounds, lazyOdds: play.quiet, keepEvents: !play.quiet },
  );
  // Each entry's view of its combatant and economy in the engine (which holds a step's damage
  // until the step ends, HB-ACT-01); the turn's rolled reaction stays with the driver.
  const fighters = new Map<string, Fighter>();
  for (const cs of spec.combatants) fighters.set(cs.id, new Fighter(cs, engine.get(cs.id)));
  /** The fighters in file order, walked every turn and step. */
  const list = [...fighters.values()];
  const start = new Map<string, VitalState>();
  for (const f of list) start.set(f.spec.id, vitalsOf(f.c));
  // Each fight plays on its own shallow unfrozen copy of a frozen starting combatant: the next
  // states are built from it (`restate`), and a frozen object takes a shape of its own, which
  // would slow every read of combatants that met it.
  for (const f of list)
    if (Object.isFrozen(f.c)) {
      const frozen = f.c;
      f.c = restate(frozen, frozen.hitboxes, frozen.armor, frozen.conditions, frozen.shockTurnsLeft);
      f.thawedFrom = { frozen, copy: f.c };
    }
  // A forecast plays attacks quietly, at once where the dice roll so (the Blackout test too, HB-DMG-04).
  const quietSync = play.quiet === true && engine.canQuietSync;
  const stepOptions = play.quiet ? QUIET_STEP_OPTIONS : STEP_OPTIONS;
  // The file's tactics and declared rounds, read and checked once per forecast.
  const { tactics, rounds } = fileSetup(ACTIONS_SETUP, spec, play, () => fileActions(spec));

  const events: EncounterEvent[] = [];
  // (A quiet fight keeps no log, which alone reads them.)
  const names = play.quiet ? {} : Object.fromEntries([...fighters.values()].map((f) => [f.spec.id, f.c.name]));
  /** A Hitbox event; `names` lets the log show names instead of ids. A quiet fight keeps no log: one shared stand-in. */
  const quietEvent: EncounterEvent = { type: "custom", round: 0, kind: "hitbox.quiet", data: {} };
  const hbEvent = (round: number, kind: string, data: Record<string, unknown>): EncounterEvent =>
    play.quiet ? quietEvent : { type: "custom", round, kind: `hitbox.${kind}`, data: { ...data, names } };
  const isOut = (f: Fighter) => engine.isFighterOut(f.fighter);
  let turn = 0;
  let ended: EndEvent | undefined;

  // Each fighter's side by its place among the file's sides, and its tactics, looked up once a
  // fight: the enemies of each side are then kept by that place, not in maps by name.
  const sides: string[] = [];
  for (const f of list) {
    let i = sides.indexOf(f.spec.side);
    if (i < 0) i = sides.push(f.spec.side) - 1;
    f.sideIndex = i;
    f.tactics = tactics.get(f.spec.id);
  }
  /** Empties `lists`, one entry per side, for the next turn or step. */
  const forget = (lists: unknown[]) => {
    for (let i = 0; i < sides.length; i++) lists[i] = undefined;
  };

  // The file's distances (the nearest target, a ranged weapon's range), by place: none in most files.
  const distances = distanceTable(spec);
  const placeOf = distances ? new Map(spec.combatants.map((c, i) => [c.id, i])) : undefined;
  const n = spec.combatants.length;
  /** Metres from the fighter to the combatant with this id, where the file gives them. */
  const metresTo = (f: Fighter, id: string): number | undefined =>
    distances === undefined ? undefined : distances[f.fighter.place * n + placeOf!.get(id)!];
  for (const f of list)
    if (distances !== undefined) {
      f.distanceById = (id) => metresTo(f, id);
      f.distanceTo = (o) => metresTo(f, o.spec.id);
    }
  /**
   * The range in feet of an attack of `f` at `target` in a file with distances: a ranged weapon's,
   * where the file gives their distance and the round declares none (`details` is its action; the
   * tactics' range gives way), is that distance; else the declared one.
   */
  const rangeFeetOf = (f: Fighter, target: Fighter, weapon: HitboxWeapon | undefined, declared: number | undefined, details: HbAction) => {
    const apart =
      weapon?.kind !== "melee" && (details === f.tactics || details.feet === undefined) ? metresTo(f, target.spec.id) : undefined;
    return apart !== undefined ? metresToFeet(apart) : declared;
  };

  /** The ids of the standing enemies of each side this turn, in file order: worked out once a turn, as declarations are made. */
  const turnFoes: (string[] | undefined)[] = [];
  const foeIdsOf = (f: Fighter): string[] => {
    let ids = turnFoes[f.sideIndex];
    if (!ids) {
      ids = [];
      for (const o of list) if (o.sideIndex !== f.sideIndex && !o.outAtTurn) ids.push(o.spec.id);
      turnFoes[f.sideIndex] = ids;
    }
    return ids;
  };

  /** The enemies of each side not out when the step began, in file order (worked out once a step). */
  const stepFoes: (Fighter[] | undefined)[] = [];
  const foesAtStart = (f: Fighter): Fighter[] => {
    let foes = stepFoes[f.sideIndex];
    if (!foes) {
      foes = [];
      for (const o of list) if (o.sideIndex !== f.sideIndex && !o.outAtStart) foes.push(o);
      stepFoes[f.sideIndex] = foes;
    }
    return foes;
  };

  /** The declaration of a fighter for this turn, with the action's details. */
  const declare = (f: Fighter): { decl: Declaration; action: HbAction } => {
    // Read only within the file's rounds: a read past an array's end is a slow lookup in V8.
    const given = turn <= rounds.length ? rounds[turn - 1]?.[f.spec.id] : undefined;
    const tac = f.tactics;
    const a: HbAction = given ?? tac ?? NO_ACTION;
    const enemies = foeIdsOf(f);
    let action: DeclaredAction;
    // A first turn taken up under way (`spent`): without its action left, it declares none (HB-RND-01).
    if (a.wait || (turn === 1 && f.spec.spent !== undefined && shortfall(f.economy, ONE_ACTION) !== undefined)) action = { kind: "none" };
    else if (a.task !== undefined)
      action = {
        kind: "task",
        text: a.task,
        feet: a.run ?? a.walk,
        pace: a.run !== undefined ? "run" : a.walk !== undefined ? "walk" : undefined,
      };
    else if (a.run !== undefined || a.walk !== undefined)
      action = { kind: "move", feet: (a.run ?? a.walk)!, pace: a.run !== undefined ? "run" : "walk" };
    else {
      // The target and weapon the tactics choose (declared first, see tactics.ts); the weapon at
      // hand is the first held one.
      const target = chooseTarget(DEFAULT_TACTICS.target, { declared: a.attack ?? tac?.attack, enemies, distance: f.distanceById });
      const c = f.c;
      const weapon = chooseWeapon(DEFAULT_TACTICS.weapon, {
        declared: a.weapon,
        tactics: tac?.weapon,
        weapons: c.weapons,
        ready: readyWeapon(c),
      });
      action =
        target && weapon
          ? { kind: "attack", target, weapon, calledShot: a.called, shots: a.shots, rangeFeet: a.feet ?? tac?.feet }
          : { kind: "none" };
    }
    return { decl: { actor: f.spec.id, action, quick: a.quick, first: a.first }, action: a };
  };

  /**
   * A quick action through the engine; when the core refuses it because the combatant cannot act
   * (`FRAY.Error.CannotAct`), a `skip` event (down) instead and false.
   */
  const tryQuick = (id: string, q: QuickAction): boolean => {
    try {
      doQuick(engine, id, q);
      return true;
    } catch (error) {
      if (!(error instanceof FrayError) || error.key !== "FRAY.Error.CannotAct") throw error;
      events.push({ type: "skip", round: turn, actor: id, reason: "FRAY.Hitbox.Log.Down" });
      return false;
    }
  };

  /**
   * True when the core would refuse `f` a quick action as out of the fight (`FRAY.Error.CannotAct`):
   * down now, or in the state the open step holds for it (a transition applies to both).
   */
  const downInStep = (f: Fighter): boolean => {
    if (isDown(f.c)) return true;
    const held = engine.heldState(f.spec.id);
    return held !== undefined && isDown(held);
  };

  /** The situation of `f`'s attacks under the action `details` (with its tactics' situation first), built once per action. */
  const attackSituation = (f: Fighter, details: HbAction): AttackSituation => {
    if (f.situation?.action === details) return f.situation;
    const tac = f.tactics;
    const values: SituationValues = { ...tac?.values, ...details.values, shots: details.shots ?? 1 };
    if (details.called) values.calledShot = details.called;
    return (f.situation = { action: details, values, hitbox: { ...tac?.situation, ...details.situation } });
  };

  /**
   * The request of one shot at `t`: the turn's reaction it already rolled, else the reaction it
   * declared when it can still make it (HB-ATK-03).
   */
  const shotRequest = (f: Fighter, t: Fighter, weapon: string, sit: AttackSituation, distanceMetres: number | undefined) => {
    const request: HitboxAttackRequest = {
      attackerId: f.c.id,
      targetId: t.c.id,
      weaponId: weapon,
      distanceMetres,
      situation: sit.values,
      rolledReaction: t.rolled,
      // In place from the start (one shape for every request): set below when one is declared.
      reaction: undefined,
    };
    if (!t.rolled) {
      const reaction = reactionFor(f, t, weapon, sit, request);
      if (reaction) request.reaction = reaction;
    }
    return request;
  };

  /**
   * The reaction `t` declares against this attack when it has not rolled one yet this turn and
   * can make it (HB-ATK-03); undefined otherwise. A reaction it cannot make is logged once a turn.
   */
  const reactionFor = (
    f: Fighter,
    t: Fighter,
    weaponId: string,
    sit: AttackSituation,
    request: HitboxAttackRequest,
  ): "dodge" | "parry" | undefined => {
    const react = t.react ?? t.spec.react ?? "none";
    if (react !== "dodge" && react !== "parry") return undefined;
    // A forecast asks only whether the reaction is possible (and why not), not for its details,
    // of the input `attackInput` builds from the request: the same combatants, weapon and situation.
    const reason = play.quiet
      ? reactionRefusal({ attacker: f.c, target: t.c, weaponId, situation: sit.hitbox }, react, t.economy, options)
      : hitbox.reactions(attackInput(request, f.c, t.c), t.economy, options).find((r) => r.id === react)!.reason;
    if (!reason) return react;
    if (!t.refused) {
      t.refused = true;
      if (!play.quiet)
        events.push(
          hbEvent(turn, "noReaction", {
            actor: t.spec.id,
            reaction: `FRAY.Reaction.${react}`,
            reason,
            rule: reason === "FRAY.Reason.HitboxProne" ? "HB-MOD-04" : "HB-ATK-03",
          }),
        );
    }
    return undefined;
  };

  /**
   * The attack of `f` this step: its target (the declared one while standing at the step's
   * start, HB-ACT-01), drawing the weapon (HB-ACT-03), then each shot (HB-MOD-03). Played at once
   * (no promise) where the engine plays quiet attacks synchronously (a forecast); else returns
   * the promise of the detailed shots.
   */
  const attack = (f: Fighter, action: Extract<DeclaredAction, { kind: "attack" }>, details: HbAction): Promise<void> | undefined => {
    const declared = fighters.get(action.target);
    const target = chooseTarget(DEFAULT_TACTICS.target, {
      declared: declared && !declared.outAtStart ? declared : undefined,
      enemies: foesAtStart(f),
      distance: f.distanceTo,
    });
    if (!target) return;
    if (declared && target !== declared && !play.quiet)
      events.push({ type: "retarget", round: turn, actor: f.spec.id, from: declared.spec.id, to: target.spec.id });
    const weapon = weaponNamed(f.c, action.weapon);
    if (weapon && !f.c.held.includes(weapon.id)) {
      // Drawing from a holster is a quick action that goes with the attack (HB-ACT-03). The core
      // refuses it when the attacker is down, or the state the step holds for it is (hit earlier
      // in the step); the attack goes too. A forecast asks first, and builds no error for it.
      if (quietSync && downInStep(f)) return;
      if (!tryQuick(f.spec.id, { id: "draw", item: weapon.id })) return;
      if (!play.quiet) events.push(hbEvent(turn, "quick", { actor: f.spec.id, quick: { id: "draw", item: weapon.name } }));
    }
    const rangeFeet =
      (f.distanceTo === undefined ? action.rangeFeet : rangeFeetOf(f, target, weapon, action.rangeFeet, details)) ??
      (weapon?.kind === "melee" ? 5 : undefined);
    const shots = action.shots ?? 1;
    // Prone since before the step and going prone this turn are the core's defaults from the
    // target's conditions (HB-MOD-02, HB-MOD-04, HB-ACT-04). The same for every shot.
    const sit = attackSituation(f, details);
    const distanceMetres = rangeFeet === undefined ? undefined : feetToMetres(rangeFeet);
    if (!quietSync) return shotsDetailed(f, target, action, sit, distanceMetres, rangeFeet, shots);
    // A forecast reads no detail of the attack: it is played quietly and at once, with the same
    // outcome (the step's damage held the same way, HB-ACT-01).
    const t = target;
    // The core refuses the attack of someone who cannot act, or whose weapon needs a full limb
    // (`FRAY.Error.CannotAct`, `FRAY.Error.HitboxLimbDisabled`: HB-DMG-03), before anything is
    // rolled or paid; asked here first, so that a forecast builds no error for it each turn.
    const c = f.c;
    if (isDown(c) || (weapon && limbsFor(c, weapon).some((l) => isDisabled(c, l)))) return;
    for (let shot = 1; shot <= shots; shot++) {
      const request = shotRequest(f, t, action.weapon, sit, distanceMetres);
      const quiet = engine.quietOutcomeSync(request, ATTACK_OPTIONS);
      if (!quiet) return;
      const done = quiet as HitboxQuietAttack;
      if (done.interrupts) t.hitInStep = true;
      // The defender's side of the attack: the reaction this attack rolled spent, a dodge without
      // cover dropping it (HB-ATK-03, HB-ACT-04). An attack that rolled none changes nothing there.
      if ((done.reactionRolledNow && done.rolledReaction) || done.attackerId === done.targetId) {
        if (done.reactionRolledNow && done.rolledReaction) t.rolled = done.rolledReaction;
        engine.transition(t.spec.id, (c, economy) => quietAfterAttack(c, done, economy));
      }
    }
    return;
  };

  /** The shots of {@link attack}, played in detail (or quietly with promises, where the dice roll so). */
  const shotsDetailed = async (
    f: Fighter,
    target: Fighter,
    action: Extract<DeclaredAction, { kind: "attack" }>,
    sit: AttackSituation,
    distanceMetres: number | undefined,
    rangeFeet: number | undefined,
    shots: number,
  ): Promise<void> => {
    for (let shot = 1; shot <= shots; shot++) {
      const t = target;
      const request = shotRequest(f, t, action.weapon, sit, distanceMetres);
      // A forecast reads no detail of the attack: it is played quietly, with the same outcome
      // (the step's damage held the same way, HB-ACT-01).
      if (play.quiet && engine.canQuiet) {
        const quiet = await engine.quietAttack(request, ATTACK_OPTIONS);
        if (!quiet) return;
        const done = quiet.attack as HitboxQuietAttack;
        if (done.reactionRolledNow && done.rolledReaction) t.rolled = done.rolledReaction;
        if (done.interrupts) t.hitInStep = true;
        engine.transition(t.spec.id, (c, economy) => quietAfterAttack(c, done, economy));
        continue;
      }
      const record = await engine.attack(request, ATTACK_OPTIONS);
      if (!record) {
        const refusal = engine.events.at(-1);
        if (refusal?.type === "refused")
          events.push({
            type: "skip",
            round: turn,
            actor: f.spec.id,
            reason: refusal.missing,
            data: refusal.data as Record<string, string | number> | undefined,
          });
        return;
      }
      const { packet, report } = record.step;
      const result = record.step.result as HitboxAttackResult;
      const outcome: ActionOutcome = { kind: "attack", weaponId: result.plan.weaponId, result };
      if (result.reactionRolledNow && result.rolledReaction) t.rolled = result.rolledReaction;
      const w = f.c.weapons.find((x) => x.id === result.plan.weaponId)!;
      // The odds are for the log alone: a quiet fight never reads them, so they are never computed.
      if (!play.quiet)
        events.push({
          type: "attack",
          round: turn,
          attacker: f.spec.id,
          target: t.spec.id,
          weapon: w.name,
          range: rangeFeet === undefined ? undefined : Math.round(feetToMetres(rangeFeet) * 10) / 10,
          melee: w.kind === "melee",
          feet: rangeFeet === undefined ? undefined : Math.round(rangeFeet * 10) / 10,
          plan: result.plan,
          odds: record.step.odds,
          result,
        });
      if (!play.quiet) events.push(hbEvent(turn, "summary", summary(f, t, result, rangeFeet, shot, shots)));
      if (packet && report) {
        events.push({ type: "damage", round: turn, target: t.spec.id, packet, report });
        if (interrupts(report)) t.hitInStep = true;
        for (const limb of LIMBS) {
          const was = report.before.hitboxes![limb]!;
          const now = report.after.hitboxes![limb]!;
          if (now.value < was.value && was.value === was.max)
            events.push(hbEvent(turn, "limb", { actor: t.spec.id, limb: `FRAY.Hitbox.${limb}`, disabled: now.value === 0 ? 1 : 0 }));
        }
      }
      // The defender's side of the attack, after its damage: the reaction spent, and a dodge
      // without cover drops it to the ground (HB-ATK-03, HB-ACT-04).
      engine.afterAction(t.spec.id, outcome);
    }
  };

  const summary = (
    f: Fighter,
    t: Fighter,
    r: HitboxAttackResult,
    rangeFeet: number | undefined,
    shot: number,
    shots: number,
  ): Record<string, unknown> => {
    const bonus = r.check.modifiers
      .filter((m) => m.rule === "HB-ATK-02" && m.label !== "FRAY.Mod.HitboxMisc")
      .concat(r.check.modifiers.filter((m) => m.rule === "HB-DMG-03"));
    const circumstances = r.check.modifiers.filter((m) => !bonus.includes(m));
    const loc = r.location;
    return {
      attacker: f.spec.id,
      target: t.spec.id,
      shot,
      shots,
      natural: r.check.natural,
      bonus,
      subtotal: r.check.natural + bonus.reduce((s, m) => s + m.value, 0),
      circumstances,
      total: r.check.total,
      difficulty: r.plan.difficulty.total,
      reaction: r.reaction ? `FRAY.Reaction.${r.reaction.id}` : "",
      hit: r.hit ? 1 : 0,
      feet: rangeFeet === undefined ? "" : Math.round(rangeFeet * 10) / 10,
      called: loc?.called ? `FRAY.Hitbox.${loc.called}` : "",
      need: loc?.called ? CALLED_THRESHOLDS[loc.called as Exclude<HitboxId, "torso">] : "",
      locationRoll: loc?.roll?.total ?? "",
      location: loc ? `FRAY.Hitbox.${loc.id}` : "",
      locationRule: loc?.rule ?? "",
      never: r.neverSawItComing && r.hit ? 1 : 0,
      drops: r.reactionRolledNow && r.rolledReaction?.dropsProne ? 1 : 0,
    };
  };

  /**
   * The actions of a step's actors from place `from` on, in order: quick actions, then the
   * declared action unless interrupted (HB-ACT-03). Returns at once, without a promise, unless an
   * attack's shots are played in detail: then the promise of them and of the actors after.
   * (A forecast plays its steps at once, `RoundEngine.stepSync`: no promise for each turn.)
   */
  const playStep = (actors: readonly string[], from: number): Promise<void> | undefined => {
    for (let k = from; k < actors.length; k++) {
      const id = actors[k]!;
      const f = fighters.get(id)!;
      const { decl, action: details } = f.declared!;
      if (f.outAtStart) {
        events.push({ type: "skip", round: turn, actor: id, reason: "FRAY.Hitbox.Log.Down" });
        continue;
      }
      // (An indexed loop, see readyWeapon.)
      const quick = decl.quick;
      for (let i = 0; i < quick.length; i++)
        if (tryQuick(id, quick[i]!) && !play.quiet) events.push(hbEvent(turn, "quick", { actor: id, quick: quick[i]! }));
      if (f.hitThisTurn) {
        events.push(hbEvent(turn, "interrupted", { actor: id, action: decl.action }));
        continue;
      }
      const a = decl.action;
      if (a.kind === "attack") {
        const shooting = attack(f, a, details);
        if (shooting) return shooting.then(() => playStep(actors, k + 1));
      } else if (a.kind === "move" || (a.kind === "task" && a.feet !== undefined)) {
        const feet = a.kind === "move" ? a.feet : a.feet!;
        const band = movementBandFeet(f.c, feet);
        if (!band) events.push({ type: "skip", round: turn, actor: id, reason: "FRAY.Hitbox.Log.TooFar", data: { feet } });
        else {
          engine.transition(id, (c, economy) => afterAction(c, { kind: "action", id: band.id }, spend(economy, band.cost)));
          events.push(hbEvent(turn, "move", { actor: id, feet, band: band.label, task: a.kind === "task" ? a.text : "" }));
        }
      } else if (a.kind === "task") events.push(hbEvent(turn, "move", { actor: id, feet: "", band: "", task: a.text }));
      else events.push({ type: "skip", round: turn, actor: id, reason: "FRAY.Log.Waits" });
    }
    return undefined;
  };

  while (!ended) {
    turn = engine.nextRound();
    if (!play.quiet) {
      events.push({ type: "round", round: turn });
      events.push(hbEvent(turn, "turn", { turn, from: elapsedSeconds(turn - 1), to: elapsedSeconds(turn), seconds: TURN_SECONDS }));
    }
    // The turn's start from the core: a fresh economy, prone from the last turn, the shock count (HB-DMG-04).
    const seen = engine.events.length;
    engine.startRound();
    // Indexed loops in this function: in a function that awaits, V8 leaves a `for of` over a list
    // uncompiled, a call for each item that builds a result object (2% of a quiet Hitbox fight's
    // instructions, counted with callgrind, with the step's loop when it was an async function).
    for (let i = 0; i < list.length; i++) list[i]!.rolled = undefined;
    // (A quiet engine keeps no events.)
    if (!play.quiet)
      for (const e of engine.events.slice(seen)) {
        if (e.type !== "lifecycle") continue;
        if (e.events.some((x) => x.label === "FRAY.Hitbox.Play.Event.ShockDeath"))
          events.push(hbEvent(turn, "shockDeath", { actor: e.actor, turns: opts.shockTurns }));
      }
    const standing: Fighter[] = [];
    for (let i = 0; i < list.length; i++) {
      const f = list[i]!;
      f.declared = undefined;
      f.react = undefined;
      f.hitThisTurn = false;
      f.refused = false;
      f.outAtTurn = isOut(f);
      if (!f.outAtTurn) standing.push(f);
    }
    forget(turnFoes);
    // Lists built by push, not by map: V8's map hands back a list of another kind once it is
    // compiled into this loop than before, and the compiled loop, having met only the first kind,
    // was thrown away and compiled again (three times in a forecast's first thousand fights).
    const declared: ReturnType<typeof declare>[] = [];
    const decls: Declaration[] = [];
    const ids: string[] = [];
    for (let i = 0; i < standing.length; i++) {
      const d = declare(standing[i]!);
      declared.push(d);
      decls.push(d.decl);
      ids.push(standing[i]!.spec.id);
    }
    checkDeclarations(decls, ids);
    for (let i = 0; i < declared.length; i++) {
      const d = declared[i]!;
      const f = standing[i]!;
      f.declared = d;
      if (d.action.react) f.react = d.action.react;
      if (play.quiet) continue;
      const a = d.decl.action;
      const shown =
        a.kind === "attack" ? { ...a, weapon: f.c.weapons.find((w) => w.id === a.weapon || w.name === a.weapon)?.name ?? a.weapon } : a;
      events.push(hbEvent(turn, "declare", { actor: d.decl.actor, action: shown, quick: d.decl.quick }));
    }
    const steps = resolutionSteps(decls);
    for (let s = 0; s < steps.length; s++) {
      const step = steps[s]!;
      if (!play.quiet) events.push(hbEvent(turn, "step", { actors: step.actors, simultaneous: step.simultaneous ? 1 : 0 }));
      for (let i = 0; i < list.length; i++) {
        const f = list[i]!;
        f.outAtStart = isOut(f);
        f.hitInStep = false;
      }
      forget(stepFoes);
      // The step's damage takes effect together when it ends; then the Blackout tests it forced
      // (HB-ACT-01, HB-DMG-04).
      const run = () => playStep(step.actors, 0);
      const { forced } = quietSync ? engine.stepSync(run, stepOptions) : await engine.step(run, stepOptions);
      for (let i = 0; i < list.length; i++) if (list[i]!.hitInStep) list[i]!.hitThisTurn = true;
      if (!play.quiet)
        for (const { actor, result: test } of forced)
          events.push(hbEvent(turn, "blackout", { actor, check: test.check, difficulty: test.needed, passed: test.success ? 1 : 0 }));
    }
    // Whoever went prone or dropped to dodge lies prone from the next turn (HB-ACT-04).
    // (Only whoever went prone changes: the others keep their state, and what the engine knows of it.)
    for (let i = 0; i < list.length; i++) {
      const f = list[i]!;
      if (hasCondition(f.c, "goingProne")) f.c = endTurn(f.c, false);
    }
    const over = engine.isOver();
    if (over) ended = { type: "end", ...over };
  }
  return finishEncounter(
    spec,
    options,
    ended,
    fighters.values(),
    { vitals: (f) => vitalsOf(f.thawedFrom && f.c === f.thawedFrom.copy ? f.thawedFrom.frozen : f.c), isOut, start },
    play.quiet ? [] : events,
    history,
  );
}

type Translate = (key: string, data?: Record<string, string | number>) => string;
const signed = (n: number) => (n < 0 ? `- ${-n}` : `+ ${n}`);

function describeAction(a: DeclaredAction, t: Translate, name: (id: string) => string): string {
  switch (a.kind) {
    case "attack": {
      let s = t("FRAY.Hitbox.Action.attack", { target: name(a.target), weapon: a.weapon });
      if (a.calledShot) s += t("FRAY.Hitbox.Action.called", { location: `FRAY.Hitbox.${a.calledShot}` });
      if (a.shots && a.shots > 1) s += t("FRAY.Hitbox.Action.shots", { shots: a.shots });
      if (a.rangeFeet !== undefined) s += t("FRAY.Hitbox.Action.range", { feet: Math.round(a.rangeFeet * 10) / 10 });
      return s;
    }
    case "move":
      return t(`FRAY.Hitbox.Action.${a.pace}`, { feet: a.feet });
    case "task":
      return a.feet !== undefined ? `${t(`FRAY.Hitbox.Action.${a.pace ?? "walk"}`, { feet: a.feet })}: ${a.text}` : a.text;
    default:
      return t("FRAY.Hitbox.Action.none");
  }
}

function describeQuick(q: QuickAction, t: Translate): string {
  if (q.id === "communicate") return q.text ? t("FRAY.Hitbox.Quick.say", { text: q.text }) : t("FRAY.Hitbox.Quick.communicate");
  return t(`FRAY.Hitbox.Quick.${q.id}`, { item: q.item ?? "" });
}

/**
 * Log lines of the Hitbox events: the turn's time, declarations, resolution steps, quick and
 * interrupted actions, movement, each attack in the seed's own arithmetic (dice + ability + skill
 * = test; circumstances; total against the difficulty; the location table roll), damaged limbs,
 * Blackout tests and deaths from shock.
 */
export function formatHitbox(e: Extract<EncounterEvent, { type: "custom" }>, t: Translate): string[] {
  const d = e.data;
  const names = (d.names ?? {}) as Record<string, string>;
  const byId = (id: string) => names[id] ?? id;
  const name = (v: unknown) => byId(String(v));
  const compact = (n: number) => (n < 0 ? `-${-n}` : `+${n}`);
  /** "7 + 3 + 1 = 11 (Dexterity 3, Firearms 1)": the dice, each bonus, the test before circumstances. */
  const arithmetic = (natural: number, lines: Modifier[], subtotal: number) =>
    `${natural} ${lines.map((m) => signed(m.value)).join(" ")} = ${subtotal}`.replace(/ +/g, " ") +
    (lines.length ? ` (${lines.map((m) => `${t(m.label, m.data)} ${m.value}`).join(", ")})` : "");
  switch (e.kind) {
    case "hitbox.turn":
      return [t("FRAY.Hitbox.Log.Turn", { turn: Number(d.turn), from: Number(d.from), to: Number(d.to), seconds: Number(d.seconds) })];
    case "hitbox.declare": {
      const quick = (d.quick as QuickAction[]).map((q) => describeQuick(q, t)).join(", ");
      return [
        t("FRAY.Hitbox.Log.Declare", { actor: name(d.actor), action: describeAction(d.action as DeclaredAction, t, byId) }) +
          (quick ? t("FRAY.Hitbox.Log.QuickList", { quick }) : ""),
      ];
    }
    case "hitbox.step": {
      const actors = d.actors as string[];
      const key = !d.simultaneous
        ? "FRAY.Hitbox.Log.StepFirst"
        : actors.length === 1
          ? "FRAY.Hitbox.Log.StepRest"
          : "FRAY.Hitbox.Log.StepSimultaneous";
      return [t(key, { actors: actors.map(byId).join(", ") })];
    }
    case "hitbox.quick": {
      const q = d.quick as QuickAction;
      return [
        t("FRAY.Hitbox.Log.QuickDone", {
          actor: name(d.actor),
          quick: describeQuick(q, t),
          rule: q.id === "prone" ? "HB-ACT-03, HB-ACT-04" : "HB-ACT-03",
        }),
      ];
    }
    case "hitbox.interrupted":
      return [t("FRAY.Hitbox.Log.Interrupted", { actor: name(d.actor), action: describeAction(d.action as DeclaredAction, t, byId) })];
    case "hitbox.move":
      return [
        d.band
          ? t("FRAY.Hitbox.Log.Move", {
              actor: name(d.actor),
              feet: Number(d.feet),
              band: t(String(d.band)),
              task: d.task ? `: ${String(d.task)}` : "",
            })
          : `${name(d.actor)}: ${String(d.task)}`,
      ];
    case "hitbox.noReaction":
      return [
        t("FRAY.Hitbox.Log.NoReaction", {
          actor: name(d.actor),
          reaction: String(d.reaction),
          reason: t(String(d.reason)),
          rule: String(d.rule),
        }),
      ];
    case "hitbox.summary": {
      const circ = (d.circumstances as Modifier[]).map((m) => `${t(m.label, m.data)} ${compact(m.value)}`).join(", ");
      const against = d.reaction
        ? t("FRAY.Hitbox.Log.AgainstReaction", { target: name(d.target), reaction: String(d.reaction), total: Number(d.difficulty) })
        : t("FRAY.Hitbox.Log.AgainstBase", { total: Number(d.difficulty) });
      const lines = [
        "  " +
          t("FRAY.Hitbox.Log.Summary", {
            actor: name(d.attacker),
            shot: Number(d.shots) > 1 ? t("FRAY.Hitbox.Log.Shot", { shot: Number(d.shot), shots: Number(d.shots) }) : "",
            test: arithmetic(Number(d.natural), d.bonus as Modifier[], Number(d.subtotal)),
            circumstances: circ ? `; ${circ}` : "",
            total: Number(d.total),
            against,
            outcome: t(d.hit ? "FRAY.Hitbox.Log.Hit" : d.reaction ? "FRAY.Hitbox.Log.Avoided" : "FRAY.Hitbox.Log.Miss", {
              reaction: String(d.reaction),
            }),
          }),
      ];
      if (d.drops) lines.push("  " + t("FRAY.Hitbox.Log.Drops", { actor: name(d.target) }));
      if (d.location) {
        lines.push(
          "  " +
            (d.called
              ? t("FRAY.Hitbox.Log.CalledTable", {
                  roll: Number(d.locationRoll),
                  called: String(d.called),
                  need: Number(d.need),
                  location: String(d.location),
                })
              : t("FRAY.Hitbox.Log.RegularTable", { roll: Number(d.locationRoll), location: String(d.location) })),
        );
      }
      if (d.never) lines.push("  " + t("FRAY.Hitbox.Log.NeverSaw"));
      return lines;
    }
    case "hitbox.limb":
      return [
        "  " + t(d.disabled ? "FRAY.Hitbox.Log.LimbDisabled" : "FRAY.Hitbox.Log.Limb", { actor: name(d.actor), limb: String(d.limb) }),
      ];
    case "hitbox.blackout": {
      const c = d.check as CheckResult;
      return [
        t("FRAY.Hitbox.Log.Blackout", {
          actor: name(d.actor),
          test: arithmetic(c.natural, c.modifiers, c.total),
          difficulty: Number(d.difficulty),
          outcome: t(d.passed ? "FRAY.Hitbox.Log.BlackoutPassed" : "FRAY.Hitbox.Log.BlackoutFailed"),
        }),
      ];
    }
    case "hitbox.shockDeath":
      return [t("FRAY.Hitbox.Log.ShockDeath", { actor: name(d.actor), turns: Number(d.turns) })];
    default:
      return [];
  }
}

/**
 * The Hitbox encounter driver: actions `attack` (with `called`, `shots`, `feet`), `walk`/`run`
 * (feet), `task`, `quick`, `first`, `react`, `wait`; reactions dodge and parry.
 */
export const hitboxDriver: EncounterDriver = {
  ruleset: "hitbox",
  actionKeys: ACTION_KEYS,
  combatantKeys: [],
  reactions: ["dodge", "parry", "none"],
  play: playHitbox,
  headsRounds: true,
  locatesHits: true,
  reactionSetsDifficulty: true,
  turns: true,
  formatCustom: (e, t) => formatHitbox(e, t),
};
