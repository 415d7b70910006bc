import type { AttackRequest, SituationValues } from "../rules/core/contract.js";
import { shortfall, type Economy } from "../rules/core/economy.js";
import { FrayError } from "../rules/core/errors.js";
import type { DiceRoller, SyncDiceRoller } from "../rules/core/dice/port.js";
import { pluralKey, type Lookup } from "../rules/core/i18n.js";
import { isRecord, type Raw } from "../rules/core/parse.js";
import { RoundEngine, type AttackOptions, type RoundFighter, type Settled } from "../rules/core/round.js";
import type { RulesetOptions } from "../rules/core/ruleset.js";
import type { CheckResult, DamageStep, Modifier, RollOutcome, VitalState } from "../rules/core/types.js";
import {
  actionCost,
  canAttack,
  checkMove,
  critical,
  criticalCombatantFromActor,
  criticalOptions,
  declarationOrder,
  declareParry,
  firstAid,
  delay,
  initiativeGroups,
  isCriticalResult,
  isDying,
  maneuverPenaltyEffect,
  offensiveTotal,
  parseCriticalSituation,
  parryBlocked,
  quietUpkeep,
  restate,
  parryPool,
  rollManeuver,
  treat,
  TREATMENTS,
  woundTextKey,
  type CriticalCombatant,
  type CriticalDamagePacket,
  type CriticalQuietAttack,
  type Treatment,
} from "../rules/critical/index.js";
import {
  buildEntryCombatant,
  type EndEvent,
  distanceTable,
  engineEntries,
  givenInitiative,
  fail,
  fighterViews,
  fileSetup,
  finishEncounter,
  type PlayOptions,
  recordingRoller,
  unfreezeStart,
  vitalsNow,
} from "./common.js";
import type { EncounterContent } from "./library.js";
import { pct } from "./percent.js";
import type { ActionSpec, CombatantSpec, EncounterSpec } from "./schema.js";
import type { EncounterDriver, EncounterEvent, EncounterResult } from "./types.js";
import { chooseTarget, chooseWeapon, DEFAULT_TACTICS } from "./tactics.js";

/** The action of a combatant whose file declares nothing for it and who has no tactics: attack while the AP last. */
const NO_ACTION: ActionSpec = Object.freeze({});

interface Fighter {
  spec: CombatantSpec;
  readonly fighter: RoundFighter<CriticalCombatant>;
  c: CriticalCombatant;
  economy: Economy;
}

/**
 * Builds the Critical combatant of an encounter entry from its compendium reference, inline
 * stats (merged over the reference's `system`) and extra items.
 * @throws FrayError naming the field (`combatants[1].ref`, `combatants[0].stats.physique`).
 */
export function buildCriticalCombatant(
  spec: CombatantSpec,
  index: number,
  content: EncounterContent,
  play?: PlayOptions,
): CriticalCombatant {
  return buildEntryCombatant(spec, index, content, criticalCombatantFromActor, { ruleset: "critical" }, play);
}

/** A treatment as written in an encounter file: `{ method, wound?, target? }`. */
interface TreatSpec {
  method: Treatment;
  wound?: string;
  target?: string;
}

function parseTreat(raw: unknown, path: string, ids: string[]): TreatSpec {
  if (!isRecord(raw)) fail(path, "{ method, wound, target }");
  const method = raw.method;
  if (typeof method !== "string" || !(TREATMENTS as readonly string[]).includes(method)) fail(`${path}.method`, TREATMENTS.join(", "));
  if (raw.wound !== undefined && typeof raw.wound !== "string") fail(`${path}.wound`, "a wound id such as bleed-1");
  if (raw.target !== undefined && (typeof raw.target !== "string" || !ids.includes(raw.target)))
    fail(`${path}.target`, `a combatant id (${ids.join(", ")})`);
  return { method: method as Treatment, wound: raw.wound as string | undefined, target: raw.target as string | undefined };
}

function parseParry(raw: unknown, path: string, ids: string[]): Record<string, number> {
  if (!isRecord(raw)) fail(path, "a mapping of foe ids to OB points");
  for (const [k, v] of Object.entries(raw)) {
    if (!ids.includes(k)) fail(`${path}.${k}`, `a combatant id (${ids.join(", ")})`);
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0) fail(`${path}.${k}`, "a whole number of OB points, 0 or more");
  }
  return raw as Record<string, number>;
}

/** A shallow copy of a frozen combatant, not frozen itself: the same fields, the same values. */
function thawed(c: CriticalCombatant): CriticalCombatant {
  return restate(c, c.hits, c.stun, c.conditions, c.effects, c.parry);
}

/**
 * A quiet fight's snapshot of a combatant's vital state: the values of `critical.vitals(c)`
 * (CR-HIT-01, CR-BLD-01), sharing the combatant's hits, conditions and effects instead of copying
 * them. Safe only where nothing changes them in place: every transition of a fight builds new
 * ones, and a forecast only reads the snapshots it is given.
 */
function sharedVitals(c: CriticalCombatant): VitalState {
  let bleeding = 0;
  const effects = c.effects;
  for (let i = 0; i < effects.length; i++) {
    const e = effects[i]!;
    if (e.kind === "bleed" || e.kind === "burn") bleeding += e.value ?? 0;
  }
  return { hp: c.hits, bleeding, stun: c.stun, conditions: c.conditions, effects };
}

const signed = (n: number) => (n < 0 ? `- ${-n}` : `+ ${n}`);

/** Keys of the Critical driver's set-ups from the file alone ({@link fileSetup}): its options, and its actions checked. */
const OPTIONS_SETUP = {};
const ACTIONS_CHECKED = {};

/**
 * Plays an encounter through the Critical rules core. Initiative is rolled once (CR-INI-01);
 * each round the combatants declare lowest initiative first, including their parry (CR-INI-02,
 * CR-PAR-01), and act highest first, delaying when told to (CR-INI-03), spending 4 AP (half
 * while stunned) on moves, attacks, maneuvers and treatments (CR-AP-01, CR-STN-01). Every
 * attack is resolved and applied at once (CR-AP-02); from round 2 on, bleeding, stun, dying and
 * Self Discipline tests run at the start of the round. Deterministic for a file and seed.
 * @param dice defaults to the file's scripted faces followed by the seeded roller.
 * @throws FrayError naming the field of the file that is wrong.
 */
export async function playCritical(
  spec: EncounterSpec,
  content: EncounterContent,
  dice?: DiceRoller,
  play: PlayOptions = {},
): Promise<EncounterResult> {
  // The file's options, read once per forecast.
  const { options, opts } = fileSetup(OPTIONS_SETUP, spec, play, () => {
    const options: RulesetOptions = { ...critical.defaults(), ...spec.options };
    return { options, opts: criticalOptions(options) };
  });
  const { logged, history } = recordingRoller(spec, dice, play);
  const ids = spec.combatants.map((c) => c.id);
  const engine = new RoundEngine(
    critical,
    engineEntries(spec, (cs, i) => buildCriticalCombatant(cs, i, content, play)),
    logged,
    {
      options,
      maxRounds: spec.maxRounds,
      groups: (standing) => initiativeGroups(standing, opts),
      lazyOdds: play.quiet,
      keepEvents: !play.quiet,
      // The first round's order as the file gives it (the tracker's round under way), else rolled.
      firstRolls: givenInitiative(spec),
    },
  );
  // Each entry's view of its combatant and economy in the engine.
  const fighters = new Map<string, Fighter>(fighterViews(spec.combatants, engine));
  // The same views in the order of the file, walked on every attack and declaration.
  const list = [...fighters.values()];
  // Each fighter's foes (the fighters of the other sides, in the order of the file), by its place
  // in the engine (its place in `list`): walked on every attack and declaration instead of the
  // whole list with a side compared for each.
  const foesAt: Fighter[][] = [];
  for (const f of list) foesAt[f.fighter.place] = list.filter((o) => o.spec.side !== f.spec.side);
  unfreezeStart(list, thawed);
  // A forecast's snapshots share the states they read; the log's and the tracker's are copies.
  const snapshot = play.quiet ? sharedVitals : critical.vitals;
  const start = vitalsNow(engine, snapshot);
  // A forecast plays attacks quietly, at once where the dice roll so (the Self Discipline test too, CR-HIT-02).
  const quietSync = play.quiet === true && engine.canQuietSync;
  // Check the Critical-specific action keys up front, so a bad file fails before any roll.
  // The file's rounds read only within their count: a read past an array's end is a slow lookup in V8,
  // and the compiled reader that first meets one is thrown away.
  // (By the fighter, found once by its caller, not by id again.)
  const actionAt = (round: number, f: Fighter): ActionSpec =>
    (round <= spec.rounds.length ? spec.rounds[round - 1]?.[f.spec.id] : undefined) ?? f.spec.tactics ?? NO_ACTION;
  const checkAction = (a: ActionSpec, path: string) => {
    if (a.parry !== undefined) parseParry(a.parry, `${path}.parry`, ids);
    if (a.situation !== undefined) parseCriticalSituation(a.situation, `${path}.situation`);
    if (a.treat !== undefined) parseTreat(a.treat, `${path}.treat`, ids);
    if (a.delay !== undefined && (typeof a.delay !== "string" || !ids.includes(a.delay)))
      fail(`${path}.delay`, `a combatant id (${ids.join(", ")})`);
    if (a.attacks !== undefined && (typeof a.attacks !== "number" || !Number.isInteger(a.attacks) || a.attacks < 0))
      fail(`${path}.attacks`, "a whole number of attacks");
    if (a.maneuver !== undefined && !isRecord(a.maneuver)) fail(`${path}.maneuver`, "{ bonus, difficulty, concentration }");
    if (a.firstAid !== undefined && (typeof a.firstAid !== "string" || !ids.includes(a.firstAid)))
      fail(`${path}.firstAid`, `a combatant id (${ids.join(", ")})`);
  };
  // Once per forecast: the same file passes the same checks.
  fileSetup(ACTIONS_CHECKED, spec, play, () => {
    spec.rounds.forEach((r, i) => Object.entries(r).forEach(([id, a]) => checkAction(a, `rounds[${i}].${id}`)));
    spec.combatants.forEach((c, i) => c.tactics && checkAction(c.tactics, `combatants[${i}].tactics`));
    return true;
  });

  const events: EncounterEvent[] = [];
  const out = (f: Fighter) => engine.isFighterOut(f.fighter);
  const enemiesOf = (f: Fighter) => {
    const enemies: Fighter[] = [];
    for (const o of list) if (o.spec.side !== f.spec.side && !out(o)) enemies.push(o);
    return enemies;
  };
  const hasEnemy = (f: Fighter) => {
    for (const o of list) if (o.spec.side !== f.spec.side && !out(o)) return true;
    return false;
  };
  const custom = (kind: string, data: Record<string, unknown>) => events.push({ type: "custom", round, kind, data });
  const state = (f: Fighter) => ({ actor: f.spec.id, name: f.c.name, vitals: critical.vitals(f.c) });

  let round = 0;

  /**
   * Logs the AP a combatant lost after an action (a fumble ends the round, stun or a knock-out
   * shrink the AP, CR-ATK-01, CR-STN-01, CR-AP-02), as it stood at that stage of the attack.
   */
  const logCut = (f: Fighter, at: Settled<CriticalCombatant>) => {
    if (!at.events.some((e) => e.label === "FRAY.Critical.Log.ApCut") || critical.isOut(critical.vitals(at.combatant))) return;
    custom("apCut", {
      actor: f.spec.id,
      name: at.combatant.name,
      ap: at.economy.pools.ap?.value ?? 0,
      max: at.economy.pools.ap?.max ?? 0,
      stun: at.combatant.stun,
    });
  };
  const stateAt = (f: Fighter, at: Settled<CriticalCombatant>) => ({
    actor: f.spec.id,
    name: at.combatant.name,
    vitals: critical.vitals(at.combatant),
  });

  /** What an action's attacks share: the same for each attack of the action, in every round it is taken. */
  interface AttackPlan {
    /** The action the plan is for. */
    action: ActionSpec;
    range: number | undefined;
    situation: SituationValues;
    options: AttackOptions;
  }
  const COST_ATTACK = actionCost("attack");
  const attackPlan = (f: Fighter, action: ActionSpec): AttackPlan => ({
    action,
    range: typeof action.range === "number" ? action.range : typeof f.spec.tactics?.range === "number" ? f.spec.tactics.range : undefined,
    situation: { ...(f.spec.tactics?.situation ?? {}), ...(action.situation ?? {}) } as SituationValues,
    // Resolved and applied at once (CR-AP-02): the target's round settled after the damage and
    // after each Self Discipline test, then the attacker's (a fumble ends its round, CR-ATK-01).
    options: {
      cost: COST_ATTACK,
      settleTarget: true,
      refuse: (error: FrayError) => {
        if (error.key !== "FRAY.Error.CannotAttack" && error.key !== "FRAY.Error.CannotAct") return false;
        events.push({ type: "skip", round, actor: f.spec.id, reason: "FRAY.Critical.Log.CannotAttack" });
        return true;
      },
    },
  });

  // The file's distances (the nearest target, a ranged weapon's range), by place: none in most files.
  const distances = distanceTable(spec);
  const placeCount = spec.combatants.length;
  /** The nearest rule's distance from `f`, where the file gives distances. */
  const distanceFrom = (f: Fighter) =>
    distances === undefined ? undefined : (o: Fighter) => distances[f.fighter.place * placeCount + o.fighter.place];
  /**
   * The range of an attack of `f` at `target` with the weapon `weaponRef` in a file with distances: a ranged weapon's, where
   * the file gives their distance and the round declares no range (the tactics' range gives way
   * to it), is that distance; else the plan's.
   */
  const rangeOf = (f: Fighter, target: Fighter, weaponRef: string, shared: AttackPlan): number | undefined => {
    if (shared.action !== f.spec.tactics && typeof shared.action.range === "number") return shared.range;
    const weapon = f.c.weapons.find((w) => w.id === weaponRef || w.name === weaponRef);
    if (weapon?.category === "melee") return shared.range;
    return distances![f.fighter.place * placeCount + target.fighter.place] ?? shared.range;
  };

  // Each fighter's last plan, kept while it takes the same action (its tactics, round after round):
  // the plan reads only the action and the fighter's entry, which stay the same all fight.
  const plans = new Map<Fighter, AttackPlan>();
  const planOf = (f: Fighter, action: ActionSpec): AttackPlan => {
    let plan = plans.get(f);
    if (plan === undefined || plan.action !== action) plans.set(f, (plan = attackPlan(f, action)));
    return plan;
  };

  /**
   * {@link attackOnce} in a forecast whose attacks and checks roll at once (`quietSync`): the same
   * target and weapon, played by the engine's synchronous quiet attack, without a promise; no
   * event is kept (a forecast keeps none).
   */
  const standing: Fighter[] = [];
  const attackNow = (f: Fighter, action: ActionSpec, shared: AttackPlan): boolean => {
    const declared = typeof action.attack === "string" ? fighters.get(action.attack) : undefined;
    // The standing enemies, gathered in one list kept for the fight (the choice keeps none of it).
    // Emptied by `pop`, not by setting its length: V8 sets an array's length through a call into
    // its runtime (1.1% of a Critical forecast's instructions).
    while (standing.length !== 0) standing.pop();
    const foes = foesAt[f.fighter.place]!;
    for (let i = 0; i < foes.length; i++) if (!out(foes[i]!)) standing.push(foes[i]!);
    // No enemy standing ends the action ({@link act}'s `hasEnemy`, asked here from the same list).
    if (standing.length === 0) return false;
    const target = chooseTarget(DEFAULT_TACTICS.target, {
      declared: declared && !out(declared) ? declared : undefined,
      enemies: standing,
      distance: distanceFrom(f),
    });
    if (!target) return false;
    const weaponRef = chooseWeapon(DEFAULT_TACTICS.weapon, {
      declared: action.weapon,
      tactics: f.spec.tactics?.weapon,
      weapons: f.c.weapons,
    });
    if (!weaponRef || shortfall(f.economy, COST_ATTACK)) return false;
    // The rules refuse an attacker out of the fight or stopped by an injury (`checkCanAttack`,
    // CR-CRT-02), which the attack options accept: known here without an error built. (Only a
    // range the request would refuse first is left to the engine.)
    // (The range asked first, for every attack: asked only after a refusal, a rare one, the compiled
    // code met its reads for the first time there and was thrown away.)
    const range = distances === undefined ? shared.range : rangeOf(f, target, weaponRef, shared);
    const rangeAccepted = range === undefined || (Number.isFinite(range) && range >= 0);
    if (rangeAccepted && !canAttack(f.c)) return false;
    const request: AttackRequest = {
      attackerId: f.c.id,
      targetId: target.c.id,
      weaponId: weaponRef,
      distanceMetres: range,
      situation: shared.situation,
    };
    // Only the outcome is read: its Self Discipline tests are rolled quietly too.
    const quiet = engine.quietOutcomeSync(request, shared.options);
    return quiet ? !(quiet as CriticalQuietAttack).fumble : false;
  };

  const attackOnce = async (f: Fighter, action: ActionSpec, quiet: boolean, shared: AttackPlan): Promise<boolean> => {
    const declared = typeof action.attack === "string" ? fighters.get(action.attack) : undefined;
    const target = chooseTarget(DEFAULT_TACTICS.target, {
      declared: declared && !out(declared) ? declared : undefined,
      enemies: enemiesOf(f),
      distance: distanceFrom(f),
    });
    if (!target) return false;
    if (declared && target !== declared)
      events.push({ type: "retarget", round, actor: f.spec.id, from: declared.spec.id, to: target.spec.id });
    const weaponRef = chooseWeapon(DEFAULT_TACTICS.weapon, {
      declared: action.weapon,
      tactics: f.spec.tactics?.weapon,
      weapons: f.c.weapons,
    });
    if (!weaponRef) {
      events.push({ type: "skip", round, actor: f.spec.id, reason: "FRAY.Log.NoWeapon" });
      return false;
    }
    if (shortfall(f.economy, COST_ATTACK)) {
      if (!quiet)
        events.push({
          type: "skip",
          round,
          actor: f.spec.id,
          reason: "FRAY.Critical.Log.NoAp",
          data: { ap: f.economy.pools.ap?.value ?? 0 },
        });
      return false;
    }
    const { situation, options: attackOptions } = shared;
    const range = distances === undefined ? shared.range : rangeOf(f, target, weaponRef, shared);
    const request: AttackRequest = {
      attackerId: f.c.id,
      targetId: target.c.id,
      weaponId: weaponRef,
      distanceMetres: range,
      situation,
    };
    // A forecast reads no detail of the attack: it is played quietly, with the same outcome
    // (`src/rules/critical/quiet.ts`); only what it means for the turn is needed (a fumble ends it).
    if (play.quiet && engine.canQuiet) {
      const quiet = quietSync ? engine.quietAttackSync(request, attackOptions) : await engine.quietAttack(request, attackOptions);
      return quiet ? !(quiet.attack as CriticalQuietAttack).fumble : false;
    }
    const done = await engine.attack(request, attackOptions);
    if (!done) return false;
    const step = done.step;
    const { plan, result } = step;
    // A quiet fight keeps no log (and so never computes the odds, shown only there): only what the
    // attack means for the turn is needed (a fumble ends it).
    if (play.quiet)
      return isCriticalResult(result) && (!step.packet || !step.report || !done.target) ? !result.detail.fumble : isCriticalResult(result);
    const weapon = f.c.weapons.find((w) => w.id === plan.weaponId)!;
    events.push({
      type: "attack",
      round,
      attacker: f.spec.id,
      target: target.spec.id,
      weapon: weapon.name,
      range: range ?? (weapon.category === "melee" ? 1.5 : undefined),
      melee: weapon.category === "melee",
      plan,
      odds: step.odds,
      result,
    });
    if (!isCriticalResult(result)) return false;
    const d = result.detail;
    const lookup = result.lookups?.[0];
    custom("attackTable", {
      attacker: f.c.name,
      target: target.c.name,
      table: d.table,
      weaponClass: d.weaponClass,
      armorType: d.armorType,
      unmodified: d.unmodified,
      openEnded: d.openEnded,
      faces: result.check.roll.dice[0]?.results ?? [],
      total: d.total,
      range: lookup?.range ?? null,
      result: d.code?.code ?? null,
      critBonus: d.critBonus,
      fumble: d.fumble,
      outcomes: step.odds.outcomes ?? {},
    });
    if (!step.packet || !step.report || !done.target) return !d.fumble;
    const packet = step.packet as CriticalDamagePacket;
    if (packet.critical) {
      const k = packet.critical;
      custom("criticalTable", {
        target: target.c.name,
        table: k.table,
        type: k.type,
        severity: k.severity,
        unmodified: k.unmodified,
        bonus: k.bonus,
        value: k.value,
        um66: k.um66,
        entry: k.entry.name,
        range: k.entry.range,
        text: k.entry.text,
      });
    }
    const report = step.report;
    custom("hits", { ...stateAt(target, done.target), steps: report.steps, added: report.added });
    logCut(target, done.target);
    for (const { result: sd, after } of done.forced) {
      custom("selfDiscipline", { ...stateAt(target, after), check: sd.check, needed: sd.needed, success: sd.success });
      logCut(target, after);
    }
    return true;
  };

  /** Whether an action's parts that roll (first aid, a maneuver) call for the async path: none does in most turns. */
  const rollsDice = (action: ActionSpec) => typeof action.firstAid === "string" || action.maneuver !== undefined;

  /** The start of an action: a wait ends it (false); a treatment is applied (CR-BLD-02). */
  const actFirst = (f: Fighter, action: ActionSpec): boolean => {
    if (action.wait) {
      events.push({ type: "skip", round, actor: f.spec.id, reason: "FRAY.Log.Waits" });
      return false;
    }
    if (action.treat !== undefined) {
      const t = parseTreat(action.treat, "treat", ids);
      const patient = fighters.get(t.target ?? f.spec.id)!;
      const kind = t.method === "smother" || t.method === "dropAndRoll" ? "burn" : "bleed";
      const wound =
        t.wound ??
        [...patient.c.effects]
          .filter((e) => e.kind === kind && !e.treated?.includes(t.method))
          .sort((a, b) => (b.value ?? 0) - (a.value ?? 0))[0]?.id;
      const cost = actionCost(t.method);
      if (!wound) events.push({ type: "skip", round, actor: f.spec.id, reason: "FRAY.Critical.Log.NothingToTreat" });
      else if (!engine.pay(f.spec.id, t.method, cost))
        events.push({
          type: "skip",
          round,
          actor: f.spec.id,
          reason: "FRAY.Critical.Log.NoAp",
          data: { ap: f.economy.pools.ap?.value ?? 0 },
        });
      else {
        const done = treat(patient.c, wound, t.method, opts);
        patient.c = done.combatant;
        custom("treat", { actor: f.spec.id, name: f.c.name, patient: patient.c.name, step: done.step, vitals: critical.vitals(patient.c) });
      }
    }
    return true;
  };

  /** First aid (CR-DTH-01) and a maneuver (CR-MAN-01), which roll. */
  const actRolls = async (f: Fighter, action: ActionSpec): Promise<void> => {
    if (typeof action.firstAid === "string") {
      const patient = fighters.get(action.firstAid)!;
      const cost = actionCost("firstAid");
      if (!isDying(patient.c) || !engine.pay(f.spec.id, "firstAid", cost))
        events.push({ type: "skip", round, actor: f.spec.id, reason: "FRAY.Critical.Log.NoFirstAid" });
      else {
        const aid = await firstAid(f.c, patient.c, logged);
        patient.c = aid.patient;
        const m = aid.maneuver;
        custom("firstAid", { actor: f.spec.id, name: f.c.name, patient: patient.c.name, check: m.check, success: m.success });
      }
    }
    if (action.maneuver !== undefined) {
      const m = action.maneuver as Raw;
      const cost = actionCost("maneuver");
      if (!engine.pay(f.spec.id, "maneuver", cost))
        events.push({
          type: "skip",
          round,
          actor: f.spec.id,
          reason: "FRAY.Critical.Log.NoAp",
          data: { ap: f.economy.pools.ap?.value ?? 0 },
        });
      else {
        const shortfallChoice =
          typeof m.shortfall === "string" && ["incomplete", "penalty", "gm"].includes(m.shortfall)
            ? (m.shortfall as "incomplete" | "penalty" | "gm")
            : opts.maneuverShortfall;
        const r = await rollManeuver(
          f.c,
          { bonus: Number(m.bonus ?? 0), difficulty: Number(m.difficulty ?? 0), concentration: Boolean(m.concentration) },
          logged,
          { maneuverShortfall: shortfallChoice },
        );
        const pen = maneuverPenaltyEffect(r, `maneuver-${round}`);
        if (pen) f.c = restate(f.c, f.c.hits, f.c.stun, f.c.conditions, [...f.c.effects, pen], f.c.parry);
        custom("maneuver", {
          actor: f.spec.id,
          name: f.c.name,
          label: typeof m.label === "string" ? m.label : "",
          check: r.check,
          percent: r.percent,
          outcome: r.outcome,
          penalty: r.penalty ?? 0,
        });
      }
    }
  };

  /** A move (CR-MOV-01, CR-MOV-02), then how many attacks the action makes and what they share. */
  const actMove = (f: Fighter, action: ActionSpec): { attacks: number; shared: AttackPlan | undefined } => {
    if (typeof action.move === "number") {
      const check = checkMove(f.c, action.move, { opposed: Boolean(action.opposed) });
      if (!check.allowed || !check.band) {
        events.push({ type: "skip", round, actor: f.spec.id, reason: check.reason ?? "FRAY.Log.TooFar", data: { metres: action.move } });
      } else if (!engine.pay(f.spec.id, "move", check.band.cost)) {
        events.push({
          type: "skip",
          round,
          actor: f.spec.id,
          reason: "FRAY.Critical.Log.NoAp",
          data: { ap: f.economy.pools.ap?.value ?? 0 },
        });
      } else {
        events.push({ type: "move", round, actor: f.spec.id, metres: action.move, band: check.band.label, rule: check.band.rule });
      }
    }
    const attacks =
      typeof action.attacks === "number"
        ? action.attacks
        : action.attack !== undefined ||
            (action.treat === undefined && action.maneuver === undefined && action.firstAid === undefined && action.move === undefined)
          ? Infinity
          : 0;
    // Without a count, attack while the AP last (CR-AP-01); only a count that cannot be met is logged.
    return { attacks, shared: attacks > 0 ? planOf(f, action) : undefined };
  };

  /** An action: the treatment, first aid, a maneuver, the move, then the attacks, each applied at once (CR-AP-02). */
  const act = async (f: Fighter, action: ActionSpec): Promise<void> => {
    if (!actFirst(f, action)) return;
    await actRolls(f, action);
    const { attacks, shared } = actMove(f, action);
    for (let i = 0; i < attacks && !out(f) && hasEnemy(f); i++) {
      if (!(await attackOnce(f, action, attacks === Infinity && i > 0, shared!))) break;
    }
  };

  /** {@link act} at once, in a forecast whose attacks roll so (`quietSync`), for an action that rolls no other dice. */
  const actNow = (f: Fighter, action: ActionSpec): void => {
    if (!actFirst(f, action)) return;
    const { attacks, shared } = actMove(f, action);
    // Whether an enemy still stands is asked by `attackNow` itself, from the list it gathers anyway.
    for (let i = 0; i < attacks && !out(f); i++) if (!attackNow(f, action, shared!)) break;
  };

  let ended: EndEvent | undefined;
  while (!ended) {
    round = engine.nextRound();
    if (!play.quiet) events.push({ type: "round", round });
    // Initiative rolled once and kept (CR-INI-01); from round 2 on, bleeding, stun, dying and
    // Self Discipline tests first (CR-HIT-02).
    const init = await engine.rollInitiative();
    if (!play.quiet) events.push({ type: "initiative", round, rolls: init.rolls, order: init.order, kept: init.kept });
    // A forecast reads no upkeep report: each combatant's upkeep rolled at once, without one.
    // Indexed loops in this function: in a function that awaits, V8 leaves a `for of` over a list
    // uncompiled, a call for each item that builds a result object.
    if (quietSync) {
      if (round >= 2)
        for (let k = 0; k < init.order.length; k++) {
          const id = init.order[k]!;
          // Most combatants have nothing to tick and come back as they are: nothing to put back.
          const c = engine.get(id).combatant;
          const next = quietUpkeep(c, logged as SyncDiceRoller);
          if (next !== c) engine.update(id, next);
        }
    } else
      for (const [id, report] of await engine.upkeep(init.order)) {
        const f = fighters.get(id)!;
        if (!play.quiet && (report.steps.length || report.checks.length)) {
          custom("upkeep", { ...state(f), steps: report.steps, showState: !report.checks.length });
          for (const chk of report.checks)
            custom("selfDiscipline", { ...state(f), check: chk.check, needed: chk.needed, success: chk.success, showState: true });
        }
      }
    // The round's AP and the end of the last parry (CR-AP-01, CR-STN-01), after the upkeep.
    engine.startRound(true);
    const rolls = engine.rolls;
    // Declarations, lowest initiative first (CR-INI-02), with each parry (CR-PAR-01).
    // (The fighters themselves, each found once by id.)
    const declaring: Fighter[] = [];
    const declarers = declarationOrder(rolls);
    for (let r = 0; r < declarers.length; r++) {
      const members = declarers[r]!.members;
      for (let m = 0; m < members.length; m++) {
        const f = fighters.get(members[m]!)!;
        if (!out(f)) declaring.push(f);
      }
    }
    if (!play.quiet) custom("declarations", { order: declaring.map((f) => f.c.name) });
    let sequence: string[] = [];
    const acting = critical.order(rolls);
    for (let r = 0; r < acting.length; r++) {
      const members = acting[r]!.members;
      for (let m = 0; m < members.length; m++) sequence.push(members[m]!);
    }
    for (let d = 0; d < declaring.length; d++) {
      const f = declaring[d]!;
      const id = f.spec.id;
      const action = actionAt(round, f);
      let allocation: Record<string, number> | undefined = action.parry !== undefined ? parseParry(action.parry, "parry", ids) : undefined;
      if (!allocation && f.spec.react === "parry") {
        // The standing foes, in the order of the file, gathered in the fight's one list (emptied by `pop`, see attackNow).
        while (standing.length !== 0) standing.pop();
        const foes = foesAt[f.fighter.place]!;
        for (let i = 0; i < foes.length; i++) if (!out(foes[i]!)) standing.push(foes[i]!);
        if (standing.length && !parryBlocked(f.c)) {
          // Default parry: half the OB, split equally over the standing foes (the seed's example).
          const weapons = f.c.weapons;
          let weapon = weapons[0];
          for (let i = 0; i < weapons.length; i++) {
            const w = weapons[i]!;
            if (w.id === action.weapon || w.name === action.weapon) {
              weapon = w;
              break;
            }
          }
          const half = Math.floor((weapon ? offensiveTotal(f.c, weapon) : parryPool(f.c)) / 2);
          const share = Math.floor(half / standing.length);
          allocation = {};
          for (let i = 0; i < standing.length; i++) allocation[standing[i]!.spec.id] = share;
        }
      }
      let parryNote: string | undefined;
      if (allocation) {
        try {
          f.c = declareParry(f.c, allocation, { weaponId: typeof action.weapon === "string" ? action.weapon : undefined });
        } catch (error) {
          if (!(error instanceof FrayError) || error.key !== "FRAY.Error.CannotParry") throw error;
          parryNote = String(error.data.reason);
        }
      }
      if (!play.quiet)
        custom("declare", {
          actor: id,
          name: f.c.name,
          attack: typeof action.attack === "string" ? fighters.get(action.attack)!.c.name : null,
          weapon: typeof action.weapon === "string" ? action.weapon : null,
          move: typeof action.move === "number" ? action.move : null,
          wait: Boolean(action.wait),
          treat: isRecord(action.treat) ? String(action.treat.method) : null,
          maneuver: isRecord(action.maneuver) ? String(action.maneuver.label ?? "") : null,
          firstAid: typeof action.firstAid === "string" ? fighters.get(action.firstAid)!.c.name : null,
          delay: typeof action.delay === "string" ? fighters.get(action.delay)!.c.name : null,
          parry: Object.entries(f.c.parry).map(([foe, ob]) => ({ foe: fighters.get(foe)?.c.name ?? foe, ob })),
          parryNote: parryNote ?? null,
        });
      if (typeof action.delay === "string") {
        sequence = delay(sequence, id, action.delay);
        if (!play.quiet) custom("delay", { actor: id, name: f.c.name, after: fighters.get(action.delay)!.c.name });
      }
    }
    // Resolution, highest initiative first (CR-INI-02); each attack applies at once (CR-AP-02).
    // The round's turns (`engine.turns`), walked without a generator.
    for (let k = engine.nextTurn(sequence, 0); k >= 0; k = engine.nextTurn(sequence, k + 1, undefined, true)) {
      const id = sequence[k]!;
      const f = fighters.get(id)!;
      const action = actionAt(round, f);
      if (quietSync && !rollsDice(action)) actNow(f, action);
      else await act(f, action);
    }
    const over = engine.isOver();
    if (over) ended = { type: "end", ...over };
  }
  return finishEncounter(
    spec,
    options,
    ended,
    fighters.values(),
    { vitals: (f) => snapshot(f.c), isOut: out, start },
    play.quiet ? [] : events,
    history,
  );
}

type T = (key: string, data?: Record<string, string | number>) => string;

const facesOf = (roll: RollOutcome) => roll.dice.map((d) => `d${d.faces}[${d.results.join(",")}]`).join(" ") || String(roll.total);

function checkText(c: CheckResult, t: T): string {
  const mod = (m: Modifier) => `${signed(m.value)} ${t(m.label, m.data)} (${m.rule})`;
  return `${facesOf(c.roll)} ${c.modifiers.map(mod).join(" ")} = ${c.total}`.replace(/ +/g, " ");
}

function stateText(name: string, v: VitalState, t: T): string {
  const parts = [t("FRAY.Critical.Log.Hits", { hits: v.hp?.value ?? 0, max: v.hp?.max ?? 0 })];
  if (v.bleeding) parts.push(t("FRAY.Log.Bleeding", { hits: v.bleeding }));
  if (v.stun) parts.push(t(pluralKey("FRAY.Log.Stun", v.stun), { rounds: v.stun }));
  for (const e of v.effects ?? []) {
    if (e.kind === "penalty") parts.push(t("FRAY.Critical.Log.PenaltyState", { value: e.value ?? 0 }));
    if (e.kind === "injury")
      parts.push(t("FRAY.Critical.Log.InjuryState", { location: `FRAY.Critical.Location.${e.location ?? "general"}` }));
    if (e.kind === "dying") parts.push(t(pluralKey("FRAY.Critical.Log.DyingState", e.rounds ?? 0), { rounds: e.rounds ?? 0 }));
  }
  const conds = v.conditions.length ? " — " + v.conditions.map((x) => t(`FRAY.Condition.${x}`)).join(", ") : "";
  return `${name}: ${parts.join(", ")}${conds}`;
}

function stepLines(steps: DamageStep[], t: T, indent: string): string[] {
  return steps.map((s) => `${indent}${t(s.label, { ...(s.data ?? {}), value: s.value })} (${s.rule})`);
}

/**
 * Log lines for the Critical events: declarations and delays, each attack-table and
 * critical-table lookup, hits and effects, upkeep, Self Discipline tests, treatments and
 * maneuvers.
 */
export function formatCriticalEvent(event: Extract<EncounterEvent, { type: "custom" }>, t: T, _lookup: Lookup, lang = "en"): string[] {
  const d = event.data;
  const s = (k: string) => String(d[k] ?? "");
  const n = (k: string) => Number(d[k] ?? 0);
  switch (event.kind) {
    case "declarations":
      return [`${t("FRAY.Critical.Log.Declarations", { order: (d.order as string[]).join(", ") })} (CR-INI-02)`];
    case "declare": {
      const parts: string[] = [];
      if (d.wait) parts.push(t("FRAY.Critical.Log.DeclareWait"));
      if (d.move !== null) parts.push(t("FRAY.Critical.Log.DeclareMove", { metres: n("move") }));
      if (d.treat !== null) parts.push(t("FRAY.Critical.Log.DeclareTreat", { method: `FRAY.Action.${s("treat")}` }));
      if (d.firstAid !== null) parts.push(t("FRAY.Critical.Log.DeclareFirstAid", { target: s("firstAid") }));
      if (d.maneuver !== null) parts.push(t("FRAY.Critical.Log.DeclareManeuver", { maneuver: s("maneuver") || "-" }));
      // A declaration without a target or a weapon leaves the choice to the tactics when it acts.
      if (d.attack !== null || (!parts.length && !d.wait))
        parts.push(
          d.attack === null
            ? d.weapon === null
              ? t("FRAY.Critical.Log.DeclareAttackOpen")
              : t("FRAY.Critical.Log.DeclareAttackWith", { weapon: s("weapon") })
            : d.weapon === null
              ? t("FRAY.Critical.Log.DeclareAttackOn", { target: s("attack") })
              : t("FRAY.Critical.Log.DeclareAttack", { target: s("attack"), weapon: s("weapon") }),
        );
      // One phrase per share of OB: the usual even split names every foe once.
      const shares = new Map<number, string[]>();
      for (const p of d.parry as { foe: string; ob: number }[]) shares.set(p.ob, [...(shares.get(p.ob) ?? []), p.foe]);
      for (const [ob, foes] of shares)
        parts.push(
          `${t(foes.length === 1 ? "FRAY.Critical.Log.DeclareParry" : "FRAY.Critical.Log.DeclareParryEach", { foe: foes.join(", "), ob })} (CR-PAR-01)`,
        );
      if (d.parryNote !== null) parts.push(`${t("FRAY.Critical.Log.ParryRefused", { reason: s("parryNote") })} (CR-PAR-03)`);
      if (d.delay !== null) parts.push(t("FRAY.Critical.Log.DeclareDelay", { after: s("delay") }));
      return [`  ${t("FRAY.Critical.Log.Declare", { actor: s("name") })} ${parts.join("; ")}`];
    }
    case "delay":
      return [`${t("FRAY.Critical.Log.Delay", { actor: s("name"), after: s("after") })} (CR-INI-03)`];
    case "attackTable": {
      const lines: string[] = [];
      const faces = d.faces as number[];
      if (d.openEnded)
        lines.push(
          `  ${t("FRAY.Critical.Log.OpenEnded", { faces: faces.join(" + "), total: faces.reduce((a, b) => a + b, 0) })} (CR-ATK-01)`,
        );
      if (d.fumble) {
        lines.push(`  ${t("FRAY.Critical.Log.Fumble", { unmodified: n("unmodified") })} (CR-ATK-01)`);
        return lines;
      }
      const range = d.range as [number | null, number | null] | null;
      const row = range ? `${range[0] ?? "…"}–${range[1] ?? "…"}` : "-";
      lines.push(
        `  ${t("FRAY.Critical.Log.AttackTable", { table: `FRAY.Critical.WeaponClass.${s("weaponClass")}`, armor: `FRAY.Critical.Armor.${s("armorType")}`, total: n("total"), row, result: s("result") })} (CR-ATK-02, ${s("table")})`,
      );
      if (n("critBonus") > 0) lines.push(`  ${t("FRAY.Critical.Log.Over150", { bonus: n("critBonus"), total: n("total") })} (CR-ATK-04)`);
      const o = d.outcomes as Record<string, number>;
      lines.push(
        `  ${t("FRAY.Critical.Log.SeverityOdds", { fumble: pct(o.fumble, lang), miss: pct(o.miss, lang), hits: pct(o.hitsOnly, lang), a: pct(o.A, lang), b: pct(o.B, lang), c: pct(o.C, lang), d: pct(o.D, lang), e: pct(o.E, lang) })}`,
      );
      return lines;
    }
    case "criticalTable": {
      const wound = (text: string) => {
        const key = woundTextKey(text);
        const shown = key ? t(key) : text;
        return shown === key ? text : shown;
      };
      const range = d.range as [number, number];
      const lines = [
        `  ${t("FRAY.Critical.Log.CriticalTable", { severity: s("severity"), type: `FRAY.Critical.Type.${s("type")}`, unmodified: n("unmodified"), bonus: n("bonus"), value: n("value"), entry: s("entry") })} (${d.um66 ? "CR-CRT-03" : "CR-CRT-02"}, ${s("table")} ${range[0]}-${range[1]})`,
        // A built-in wound text in the log's language, a world table's as written (CR-CRT-02).
        `    "${wound(s("text"))}"`,
      ];
      if (d.um66) lines.push(`  ${t("FRAY.Critical.Log.Um66")} (CR-CRT-03)`);
      return lines;
    }
    case "hits":
      return [...stepLines(d.steps as DamageStep[], t, "    "), `  ${stateText(s("name"), d.vitals as VitalState, t)}`];
    case "selfDiscipline":
      return [
        `  ${t("FRAY.Critical.Log.SelfDiscipline", { actor: s("name"), check: checkText(d.check as CheckResult, t), needed: n("needed") })} (CR-HIT-02): ${t(d.success ? "FRAY.Critical.Log.StaysConscious" : "FRAY.Critical.Log.FallsUnconscious")}`,
        ...(d.showState ? [`  ${stateText(s("name"), d.vitals as VitalState, t)}`] : []),
      ];
    case "upkeep":
      return [
        t("FRAY.Critical.Log.Upkeep", { actor: s("name") }),
        ...stepLines(d.steps as DamageStep[], t, "    "),
        ...(d.showState === false ? [] : [`  ${stateText(s("name"), d.vitals as VitalState, t)}`]),
      ];
    case "apCut":
      return [`  ${t("FRAY.Critical.Log.ApCut", { actor: s("name"), ap: n("ap"), max: n("max") })} (CR-STN-01)`];
    case "treat": {
      const st = d.step as DamageStep;
      return [
        `${t("FRAY.Critical.Log.Treat", { actor: s("name"), patient: s("patient"), step: t(st.label, { ...(st.data ?? {}), value: st.value }) })} (CR-BLD-02)`,
        `  ${stateText(s("patient"), d.vitals as VitalState, t)}`,
      ];
    }
    case "firstAid":
      return [
        `${t("FRAY.Critical.Log.FirstAid", { actor: s("name"), patient: s("patient"), check: checkText(d.check as CheckResult, t) })} (CR-DTH-01): ${t(d.success ? "FRAY.Critical.Log.Saved" : "FRAY.Critical.Log.NotSaved")}`,
      ];
    case "maneuver":
      return [
        `${t("FRAY.Critical.Log.Maneuver", { actor: s("name"), maneuver: s("label") || "-", check: checkText(d.check as CheckResult, t), percent: n("percent") })} (CR-MAN-01): ${t(`FRAY.Critical.Log.Maneuver_${s("outcome")}`, { penalty: n("penalty") })}`,
      ];
    default:
      return [`${event.kind}: ${JSON.stringify(d)}`];
  }
}

/**
 * The Critical encounter driver: actions `attack` (with `attacks`, how many), `parry` (OB per foe
 * id), `move` (metres, `opposed`), `delay` (act after a combatant id), `treat` (`{ method,
 * wound, target }`), `firstAid` (a dying combatant's id), `maneuver` (`{ label, bonus,
 * difficulty, concentration, shortfall }`), `wait`; `react: parry` puts half the OB into parry
 * against the standing foes whenever no parry is declared.
 */
export const criticalDriver: EncounterDriver = {
  ruleset: "critical",
  actionKeys: ["parry", "move", "opposed", "attacks", "delay", "treat", "firstAid", "maneuver"],
  combatantKeys: [],
  reactions: ["parry", "none"],
  play: playCritical,
  formatCustom: formatCriticalEvent,
};
