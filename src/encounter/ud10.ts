import type { AttackRequest, SituationValues } from "../rules/core/contract.js";
import type { DiceRoller } from "../rules/core/dice/port.js";
import { holds } from "../rules/core/lists.js";
import type { ActionCost } from "../rules/core/economy.js";
import { declaring, RoundEngine, type AttackOptions, type RoundFighter } from "../rules/core/round.js";
import type { ReactionOption, RulesetOptions } from "../rules/core/ruleset.js";
import {
  copyCombatant,
  disengage,
  initiativeGroups,
  declaredReactionFor,
  isIncapacitated,
  SQUARE_METRES,
  ud10,
  ud10Actions,
  ud10CombatantFromActor,
  ud10Options,
  type Ud10Combatant,
  type Ud10Options,
  type Ud10Weapon,
} from "../rules/ud10/index.js";
import {
  buildEntryCombatant,
  type CombatantCache,
  type EndEvent,
  distanceTable,
  engineEntries,
  fail,
  givenInitiative,
  type FighterView,
  fighterViews,
  finishEncounter,
  type PlayOptions,
  recordingRoller,
  unfreezeStart,
  vitalsNow,
} from "./common.js";
import type { EncounterContent } from "./library.js";
import type { ActionSpec, CombatantSpec, EncounterSpec } from "./schema.js";
import type { EncounterDriver, EncounterEvent, EncounterResult } from "./types.js";
import { chooseTarget, chooseWeapon, DEFAULT_TACTICS } from "./tactics.js";

type Fighter = FighterView<Ud10Combatant>;

/**
 * Builds the UD10 combatant of an encounter entry from its compendium reference, inline stats
 * and extra items.
 * @throws FrayError naming the field (`combatants[2].ref`, `combatants[0].stats.attributes`).
 */
export function buildCombatant(spec: CombatantSpec, index: number, content: EncounterContent, play?: PlayOptions): Ud10Combatant {
  return buildEntryCombatant(spec, index, content, ud10CombatantFromActor, { ruleset: "ud10" }, play);
}

/** Out of the fight besides the core's vitals: unable to act (the core's out conditions) or fled. */
const outBeyondVitals = (c: Ud10Combatant) => isIncapacitated(c) || holds(c.conditions, "fled");

/**
 * What each action of the core's round costs (UD-ACT-02, UD-ATK-04), by action id: set by the
 * options alone, the same for every combatant able to act, so a fight looks them up once.
 */
function actionCosts(c: Ud10Combatant, options: RulesetOptions): Map<string, ActionCost> {
  // The option values decide them: worked out once per set of values, not once per fight.
  const key = JSON.stringify(ud10Options(options));
  let costs = COSTS.get(key);
  if (!costs) COSTS.set(key, (costs = new Map(ud10Actions({ ...c, conditions: [] }, options).map((a) => [a.id, a.cost]))));
  return costs;
}
/** {@link actionCosts} by the option values (as JSON) they were worked out for. */
const COSTS = new Map<string, Map<string, ActionCost>>();

/**
 * Plays an encounter through the UD10 rules core on the core's round engine: initiative each
 * round (or once, UD-INI-03), each combatant's declared action or its tactics, reactions, body
 * zones, damage, until one side is down or `maxRounds` is reached. The driver keeps the file's
 * actions, the tactics (targets, engagement, disengaging) and the log. Deterministic for a given
 * file and seed.
 * @param dice defaults to the file's scripted faces followed by the seeded roller.
 * @param play quiet mode and shared combatants for a forecast ({@link PlayOptions}).
 * @throws FrayError when the file names something that does not exist.
 */
export async function playUd10(
  spec: EncounterSpec,
  content: EncounterContent,
  dice?: DiceRoller,
  play: PlayOptions = {},
): Promise<EncounterResult> {
  const shared = sharedFor(spec, play);
  const { options, opts, index, foes, planned, attackOptions, distances } = shared;
  const { logged, history } = recordingRoller(spec, dice, play);
  const engine = new RoundEngine(
    ud10,
    engineEntries(spec, (cs, i) => buildCombatant(cs, i, content, play)),
    logged,
    {
      options,
      maxRounds: spec.maxRounds,
      out: outBeyondVitals,
      groups: shared.groups,
      lazyOdds: play.quiet,
      keepEvents: !play.quiet,
      // The first round's order as the file gives it (the tracker's round under way), else rolled.
      firstRolls: givenInitiative(spec),
    },
  );
  // One view per combatant for the whole fight: `c` reads the engine's current state.
  const views = fighterViews<Ud10Combatant>(spec.combatants, engine);
  unfreezeStart(views.values(), copyCombatant);
  const start = vitalsNow(engine, ud10.vitals);
  const fighter = (id: string): Fighter => views.get(id)!;
  // The views, and the engine's fighters (their states read directly, without the views' getters),
  // in file order. Lists built by push, not by map: V8's map hands back a list of another kind once
  // it is compiled into its caller than before, and the code reading these lists was compiled again.
  const all: Fighter[] = [];
  const fighters: RoundFighter<Ud10Combatant>[] = [];
  for (const cs of spec.combatants) {
    all.push(views.get(cs.id)!);
    fighters.push(engine.get(cs.id));
  }
  const events: EncounterEvent[] = [];
  // Who is engaged in melee with whom, both ways: `engaged[i * n + j]` for the combatants at `i` and `j` in file order.
  const n = all.length;
  const engaged: number[] = new Array<number>(n * n).fill(0);
  const isEngaged = (a: string, b: string) => engaged[index.get(a)! * n + index.get(b)!] === 1;
  const engage = (a: string, b: string, on: boolean) => {
    const i = index.get(a)!;
    const j = index.get(b)!;
    engaged[i * n + j] = engaged[j * n + i] = on ? 1 : 0;
  };
  const isOut = (f: Fighter) => engine.isFighterOut(f.fighter);
  // Whether the combatant at a place is out, worked out again only for a new state: the engine's
  // answer is a function of the state alone, and the tactics ask it for every enemy on every attack.
  const seen: (Ud10Combatant | undefined)[] = new Array<Ud10Combatant | undefined>(n);
  const outs: boolean[] = new Array<boolean>(n).fill(false);
  const outAt = (j: number): boolean => {
    const f = fighters[j]!;
    const c = f.combatant;
    if (seen[j] === c) return outs[j]!;
    seen[j] = c;
    return (outs[j] = engine.isFighterOut(f));
  };
  const costOf = (c: Ud10Combatant, id: string) => (shared.costs ??= actionCosts(c, options)).get(id)!;
  // What a fighter's action settles before the target is known (`shared.planned`): worked out
  // again only for another action (a declared round, a free attack) or another weapon list than
  // last time.
  const planOf = (i: number, action: ActionSpec): AttackPlan => {
    const known = planned[i];
    if (known && known.action === action && known.weapons === fighters[i]!.combatant.weapons) return known;
    const plan = planFor(all[i]!, action, n);
    // A firing mode the weapon lacks is the file's error, named where it was written (UD-RNG-02).
    const w = plan.weapon;
    if (w && plan.modeId !== undefined && plan.modeId !== "standard" && !w.modes.some((m) => m.id === plan.modeId)) {
      const where =
        action.mode !== undefined && action !== all[i]!.spec.tactics
          ? `rounds[${round - 1}].${all[i]!.spec.id}`
          : `combatants[${i}].tactics`;
      fail(`${where}.mode`, `a firing mode of ${w.name} (${["standard", ...w.modes.map((m) => m.id)].join(", ")})`);
    }
    return (planned[i] = plan);
  };
  // The attack options against each target (its declared reaction), free or not (`shared.attackOptions`).
  const optionsAgainst = (t: number, attacker: Ud10Combatant, free: boolean): AttackOptions => {
    const both = (attackOptions[t] ??= optionsFor(all[t]!.spec, costOf(attacker, "attack")));
    return both[free ? 1 : 0];
  };
  // The attack options without a reaction chooser, not free and free: a quiet attack whose
  // reaction the driver works out itself (see `attack`).
  const plainAgainst = (attacker: Ud10Combatant, free: boolean): AttackOptions => {
    const cost = costOf(attacker, "attack");
    return (shared.plainOptions ??= [
      { free: false, cost },
      { free: true, cost },
    ])[free ? 1 : 0];
  };
  // What the target choice reads (`chooseTarget`), refilled for each attack.
  const choice: { declared?: Fighter; engaged?: Fighter; enemies: Fighter[]; distance?: (enemy: Fighter) => number | undefined } = {
    declared: undefined,
    engaged: undefined,
    enemies: [],
    distance: undefined,
  };
  /**
   * The range of an attack of `plan` by the fighter at place `i` at the one at `t`: a ranged
   * weapon's, where the file gives their distance and the round declares no range (the tactics'
   * range gives way to it), is that distance; else the plan's (declared, the tactics', a melee
   * weapon's reach: melee assumes it).
   */
  const rangeTo = (plan: AttackPlan, i: number, t: number): number | undefined =>
    (distances !== undefined && !plan.melee && (plan.action === all[i]!.spec.tactics || plan.action.range === undefined)
      ? distances[i * n + t]
      : undefined) ?? plan.range;
  const quietSync = play.quiet === true && engine.canQuietSync;
  const quietAsync = play.quiet === true && !quietSync && engine.canQuiet;

  let round = 0;

  /** Marks the two engaged when the attack was made with a melee weapon. */
  const engageByWeapon = (f: Fighter, target: Fighter, weaponId: string) => {
    const w = engine.get(f.spec.id).combatant.weapons.find((x) => x.id === weaponId)!;
    if (w.kind === "melee") engage(f.spec.id, target.spec.id, true);
    return w;
  };

  /** The attack itself once the target is chosen: quietly, or in detail with its log. */
  const strike = async (f: Fighter, target: Fighter, request: AttackRequest, options: AttackOptions, range?: number) => {
    // A forecast reads no detail of the attack: it is played quietly, with the same outcome.
    if (quietAsync) {
      const quiet = await engine.quietAttack(request, options);
      if (quiet) engageByWeapon(f, target, quiet.attack.weaponId);
      return;
    }
    const done = await engine.attack(request, options);
    if (!done) {
      events.push({ type: "skip", round, actor: f.spec.id, reason: "FRAY.Log.NoAction" });
      return;
    }
    const { plan, result, packet, report } = done.step;
    const w = engageByWeapon(f, target, plan.weaponId);
    if (play.quiet) return;
    events.push({
      type: "attack",
      round,
      attacker: f.spec.id,
      target: target.spec.id,
      weapon: w.name,
      mode: plan.modeId,
      // The weapon's own name for the mode (UD-RNG-02), as the modifier names it.
      ...(plan.modeId ? { modeLabel: w.modes.find((m) => m.id === plan.modeId)?.label ?? plan.modeId } : {}),
      range,
      melee: w.kind === "melee",
      plan,
      odds: done.step.odds,
      result,
      free: options.free ?? false,
    });
    if (packet && report) events.push({ type: "damage", round, target: target.spec.id, packet, report });
  };

  /** One attack by the fighter's action or tactics: synchronous when played quietly and synchronously. */
  const attack = (i: number, action: ActionSpec, free = false): void | Promise<void> => {
    const f = all[i]!;
    const declared = action.attack ? fighter(action.attack) : undefined;
    // The weapon and target the tactics choose (declared first, see tactics.ts).
    const plan = planOf(i, action);
    // The standing enemies in file order, and the first of them engaged with the fighter when it
    // fights in melee, in one pass.
    const enemies = choice.enemies;
    let count = 0;
    let engagedFoe: Fighter | undefined;
    let t = -1;
    for (const j of foes[i]!) {
      if (outAt(j)) continue;
      const o = all[j]!;
      enemies[count++] = o;
      if (plan.melee && engagedFoe === undefined && engaged[i * n + j] === 1) {
        engagedFoe = o;
        t = j;
      }
    }
    // The list shrinks only when an enemy falls, by `pop`: V8 sets an array's length through a
    // call into its runtime.
    while (enemies.length > count) enemies.pop();
    choice.declared = declared && !isOut(declared) ? declared : undefined;
    choice.engaged = engagedFoe;
    // The nearest by the file's distances, where it gives them.
    if (distances !== undefined) choice.distance = (o) => distances[i * n + index.get(o.spec.id)!];
    const target = chooseTarget(DEFAULT_TACTICS.target, choice);
    choice.declared = choice.engaged = choice.distance = undefined;
    if (!target) return;
    if (declared && target.spec !== declared.spec)
      events.push({ type: "retarget", round, actor: f.spec.id, from: declared.spec.id, to: target.spec.id });
    if (!plan.weaponRef) {
      events.push({ type: "skip", round, actor: f.spec.id, reason: "FRAY.Log.NoWeapon" });
      return;
    }
    if (target !== engagedFoe) t = index.get(target.spec.id)!;
    const attacker = fighters[i]!;
    const defender = fighters[t]!;
    // Every request a literal with the same fields in the same order (the reaction last, undefined
    // when none), so that the engine's and the input's reads of requests see one shape.
    const request = (plan.requests[t] ??= {
      attackerId: attacker.combatant.id,
      targetId: defender.combatant.id,
      weaponId: plan.weaponId!,
      modeId: plan.modeId,
      distanceMetres: rangeTo(plan, i, t),
      // No situation rather than an empty one: the input reads the same without looking for values.
      situation: plan.plain ? undefined : plan.situation,
      reaction: undefined,
    });
    if (quietSync) {
      let quietRequest = request;
      let options: AttackOptions;
      if (plan.weapon && plan.plain) {
        // The target's declared reaction chosen here, as the engine's chooser would take it from
        // the offered options (`declaredReactionFor`), and named in the request: the engine then
        // neither lists the reactions nor builds the attack input twice.
        const react = target.spec.react;
        const reaction =
          react && react !== "none" ? declaredReactionFor(defender.combatant, plan.weapon, defender.economy, react, opts) : undefined;
        // (`declaring` builds it as the same literal as the request, the reaction set.)
        if (reaction) quietRequest = plan.requests[n * (reaction === "parry" ? 1 : 2) + t] ??= declaring(request, reaction);
        options = plainAgainst(attacker.combatant, free);
      } else options = optionsAgainst(t, attacker.combatant, free);
      const quiet = engine.quietOutcomeSync(quietRequest, options);
      if (quiet) {
        // The plan's weapon when the attack used it (the usual case), else the weapon it names.
        const weapons = attacker.combatant.weapons;
        const melee =
          quiet.weaponId === plan.weaponId && weapons === plan.weapons
            ? plan.meleeById
            : weapons.find((x) => x.id === quiet.weaponId)!.kind === "melee";
        if (melee) engaged[i * n + t] = engaged[t * n + i] = 1;
      }
      return;
    }
    return strike(f, target, request, optionsAgainst(t, f.c, free), rangeTo(plan, i, t));
  };

  /** Leaving melee (UD-OPT-01, UD-OPT-02): the free attacks of the foes left behind, then fled or not. */
  const leave = async (id: string, mode: "flee" | "retreat"): Promise<void> => {
    const foes = engine.all().filter((o) => !engine.isOut(o.id) && isEngaged(id, o.id));
    const d = disengage(
      foes.map((o) => o.combatant),
      mode,
      opts,
    );
    engine.act(id, d.mode, d.cost);
    events.push({ type: "disengage", round, actor: id, mode: d.mode, freeAttacks: d.freeAttacks, rule: d.rule });
    for (const o of foes) engage(id, o.id, false);
    for (const foe of d.freeAttacks) {
      const o = fighter(foe);
      const melee = o.c.weapons.find((w) => w.kind === "melee");
      if (melee && !engine.isOut(id)) await attack(index.get(foe)!, { attack: id, weapon: melee.id, range: SQUARE_METRES }, true);
    }
    const now = engine.get(id).combatant;
    if (d.mode === "flee" && !engine.isOut(id)) engine.update(id, { ...now, conditions: [...now.conditions, "fled"] });
  };

  const act = (i: number, action: ActionSpec): void | Promise<void> => {
    const f = all[i]!;
    const id = f.spec.id;
    if (action.wait) {
      events.push({ type: "skip", round, actor: id, reason: "FRAY.Log.Waits" });
      return;
    }
    if (action.disengage) return leave(id, action.disengage);
    if (action.move !== undefined) {
      const band = ud10.movementBand(f.c, action.move, options);
      if (!band || !engine.pay(id, "move", band.cost)) {
        events.push({ type: "skip", round, actor: id, reason: "FRAY.Log.TooFar", data: { metres: action.move } });
      } else {
        events.push({ type: "move", round, actor: id, metres: action.move, band: band.label, rule: band.rule });
      }
    }
    if (action.aim) {
      const aimed = engine.act(id, "aim", costOf(engine.get(id).combatant, "aim"));
      if (!aimed) {
        events.push({ type: "skip", round, actor: id, reason: "FRAY.Log.NoAction" });
        return;
      }
      const rounds = aimed.find((e) => e.data?.rounds !== undefined);
      events.push({ type: "aim", round, actor: id, rounds: Number(rounds?.data?.rounds) });
      return;
    }
    if (action.attack !== undefined || action.move === undefined) return attack(i, action);
  };

  /** What a combatant does when the file declares nothing for it this round: its tactics, or nothing. */
  const NO_ACTION: ActionSpec = {};
  const initSync = engine.canRollInitiativeSync;
  let ended: EndEvent | undefined;
  while (!ended) {
    round = engine.nextRound();
    if (!play.quiet) events.push({ type: "round", round, seconds: opts.roundSeconds });
    // At once where the dice allow (a forecast): no promise per round.
    const init = initSync ? engine.rollInitiativeSync() : await engine.rollInitiative();
    if (!play.quiet) events.push({ type: "initiative", round, rolls: init.rolls, order: init.order, kept: init.kept });
    engine.startRound();
    const declared = spec.rounds[round - 1];
    const order = init.order;
    // The round's turns in acting order (`engine.turns`), walked without a generator.
    for (let k = engine.nextTurn(order, 0); k >= 0; k = engine.nextTurn(order, k + 1, undefined, true)) {
      const id = order[k]!;
      const i = index.get(id)!;
      const acting = act(i, declared?.[id] ?? all[i]!.spec.tactics ?? NO_ACTION);
      if (acting) await acting;
    }
    const over = engine.isOver();
    // Field by field, in the order of a spread: a spread adding `type` takes V8's slow path.
    if (over) ended = { type: "end", round: over.round, winner: over.winner, reason: over.reason };
  }
  return finishEncounter(spec, options, ended, all, { vitals: (f) => ud10.vitals(f.c), isOut, start }, play.quiet ? [] : events, history);
}

/**
 * What every fight of one forecast sets up alike: the options read, the places of the
 * combatants in the file, the plans of their actions and the attack options. Kept by the
 * forecast's combatant cache ({@link PlayOptions.combatants}), which serves the fights of one
 * file, for the file's entries and options it was built for; a fight without a cache (a single
 * encounter) builds its own.
 */
interface Shared {
  /** The file's entries and options it was built for. */
  entries: readonly CombatantSpec[];
  fileOptions: EncounterSpec["options"];
  /** The ruleset's defaults with the file's options laid over them, and their values read. */
  options: RulesetOptions;
  opts: Ud10Options;
  /** The initiative groups of the standing combatants by the file's NPC setting (UD-INI-02). */
  groups: (standing: Ud10Combatant[]) => Ud10Combatant[][];
  /** Each combatant's place in the file, by id. */
  index: Map<string, number>;
  /** The places of each combatant's enemies (the other sides), in file order, by place. */
  foes: number[][];
  /** What each action costs ({@link actionCosts}), once asked. */
  costs?: Map<string, ActionCost>;
  /** The plan of each combatant's last action, by place in the file. */
  planned: (AttackPlan | undefined)[];
  /** The attack options against each combatant (its declared reaction), not free and free, by place. */
  attackOptions: ([AttackOptions, AttackOptions] | undefined)[];
  /** The attack options without a reaction chooser, not free and free. */
  plainOptions?: [AttackOptions, AttackOptions];
  /** The file's distances it was built for, and as a table by place ({@link distanceTable}); undefined without any. */
  fileDistances: EncounterSpec["distances"];
  distances: (number | undefined)[] | undefined;
}
/** {@link Shared} by the forecast's combatant cache. */
const SHARED = new WeakMap<CombatantCache, Shared>();

/** The {@link Shared} set-up of a fight: the forecast's, or a new one. */
function sharedFor(spec: EncounterSpec, play: PlayOptions): Shared {
  const cache = play.combatants;
  const known = cache ? SHARED.get(cache) : undefined;
  if (known && known.entries === spec.combatants && known.fileOptions === spec.options && known.fileDistances === spec.distances)
    return known;
  const options: RulesetOptions = { ...ud10.defaults(), ...spec.options };
  const opts = ud10Options(options);
  const n = spec.combatants.length;
  const shared: Shared = {
    entries: spec.combatants,
    fileOptions: spec.options,
    options,
    opts,
    groups: (standing) => initiativeGroups(standing, opts),
    index: new Map(spec.combatants.map((cs, i) => [cs.id, i])),
    foes: spec.combatants.map((cs) => spec.combatants.flatMap((o, j) => (o.side !== cs.side ? [j] : []))),
    planned: new Array<AttackPlan | undefined>(n),
    attackOptions: new Array<[AttackOptions, AttackOptions] | undefined>(n),
    fileDistances: spec.distances,
    distances: distanceTable(spec),
  };
  if (cache) SHARED.set(cache, shared);
  return shared;
}

/** What an action settles of an attack before its target is known. */
interface AttackPlan {
  /** The action it was worked out for. */
  action: ActionSpec;
  /** The weapon list it was worked out for: a new list means a new plan. */
  weapons: readonly Ud10Weapon[];
  /** The weapon reference the tactics choose (declared first, see tactics.ts); undefined when none. */
  weaponRef?: string;
  /**
   * The reference the attack request names: the chosen weapon's id when that id finds the same
   * weapon (ids compare at once, names letter by letter), else {@link weaponRef} as written.
   */
  weaponId?: string;
  /** Whether that weapon is a melee weapon (which looks for an engaged foe first). */
  melee: boolean;
  /** Whether the first weapon with the chosen weapon's id is a melee weapon: the attack's engagement. */
  meleeById: boolean;
  /** The weapon the request's {@link weaponId} finds (`findWeapon`), if any. */
  weapon?: Ud10Weapon;
  /** True when the situation gives no value: the attack input is the combatants as they are. */
  plain: boolean;
  modeId?: string;
  /** Distance in metres: the action's, the tactics', one square for a melee weapon, else none. */
  range?: number;
  situation: SituationValues;
  /**
   * The attack requests, built on first use: against the target at place `t` in the file at
   * `[t]`, the same with the reaction `parry` at `[n + t]` and `dodge` at `[2n + t]`.
   */
  requests: (AttackRequest | undefined)[];
}

/**
 * The weapon, mode, range and situation of a fighter's action (declared first, then its tactics).
 * @param n the number of combatants in the file (the targets a request is kept for).
 */
function planFor(f: Fighter, action: ActionSpec, n: number): AttackPlan {
  const weapons = f.c.weapons;
  const weaponRef = chooseWeapon(DEFAULT_TACTICS.weapon, { declared: action.weapon, tactics: f.spec.tactics?.weapon, weapons });
  const weapon = weapons.find((w) => w.id === weaponRef || w.name === weaponRef);
  const weaponId = weapon && weapons.find((w) => w.id === weapon.id || w.name === weapon.id) === weapon ? weapon.id : weaponRef;
  const situation = { ...(f.spec.tactics?.situation ?? {}), ...(action.situation ?? {}) } as SituationValues;
  return {
    action,
    weapons,
    weaponRef,
    weaponId,
    melee: weapon?.kind === "melee",
    meleeById: weapon !== undefined && weapons.find((w) => w.id === weapon.id)!.kind === "melee",
    weapon: weaponId === undefined ? undefined : weapons.find((w) => w.id === weaponId || w.name === weaponId),
    plain: Object.keys(situation).length === 0,
    modeId: action.mode ?? (action.weapon === undefined ? f.spec.tactics?.mode : undefined),
    range: action.range ?? f.spec.tactics?.range ?? (weapon?.kind === "melee" ? SQUARE_METRES : undefined),
    situation,
    requests: new Array<AttackRequest | undefined>(3 * n),
  };
}

/**
 * The attack options against a target, not free and free: its declared reaction (`react`, none
 * for `none`) chosen whenever it is offered and available, and the attack's cost.
 */
function optionsFor(target: CombatantSpec, cost: ActionCost): [AttackOptions, AttackOptions] {
  const react = target.react && target.react !== "none" ? target.react : undefined;
  const choose = react
    ? (available: ReactionOption[]) => {
        for (const r of available) if (r.id === react) return r.id;
        return undefined;
      }
    : undefined;
  return [
    { free: false, cost, react: choose },
    { free: true, cost, react: choose },
  ];
}

/** The UD10 encounter driver: actions `attack`, `aim`, `move`, `disengage`, `wait`; reactions parry and dodge. */
export const ud10Driver: EncounterDriver = {
  ruleset: "ud10",
  actionKeys: ["mode", "aim", "move", "disengage"],
  combatantKeys: [],
  reactions: ["parry", "dodge", "none"],
  play: playUd10,
};
