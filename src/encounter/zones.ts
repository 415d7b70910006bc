import { pluralKey } from "../rules/core/i18n.js";
import type { AttackRequest, SituationValues } from "../rules/core/contract.js";
import { byIdOrName, byKind, hasAnyOf, holds } from "../rules/core/lists.js";
import { shortfall, spend } from "../rules/core/economy.js";
import { FrayError } from "../rules/core/errors.js";
import type { DiceRoller } from "../rules/core/dice/port.js";
import { isRecord } from "../rules/core/parse.js";
import { RoundEngine, type AttackOptions, type InitiativeOptions, type RoundFighter } from "../rules/core/round.js";
import type { ReactionOption, RulesetOptions } from "../rules/core/ruleset.js";
import type { DamageReport, DamageStep } from "../rules/core/types.js";
import {
  ATTACK_COST,
  bulletsOf,
  FIRING_MODES,
  MOVE_RATES,
  SIZES,
  catastrophicDamage,
  clearMalfunction,
  draw,
  parseSituation,
  planMove,
  reload,
  resolveBlast,
  zones,
  zonesCombatantFromActor,
  zonesOptions,
  type BlastCover,
  type DamageType,
  type MoveMode,
  type SizeCategory,
  type Stance,
  type ZonesAttackResult,
  type ZonesCombatant,
  type ZonesDamagePacket,
  type ZonesAttackOutcome,
  type ZonesSituation,
  type ZonesWeapon,
} from "../rules/zones/index.js";
import { DAMAGE_TYPES, STANCES, copyCombatant, restate } from "../rules/zones/model.js";
import {
  buildEntryCombatant,
  type EndEvent,
  distanceTable,
  engineEntries,
  givenInitiative,
  EngineView,
  fail,
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
import { chooseTarget, chooseWeapon, DEFAULT_TACTICS, type TargetChoice, type WeaponChoice } from "./tactics.js";

/**
 * An entry's fighter: its file entry and the round engine's state of it, read and written
 * through (`c`, `economy`), so that the driver's tactics and log see what the core's rules did.
 * One class for every fighter: its accessors are the same functions for all (a forecast reads
 * them many times per attack).
 */
class Fighter extends EngineView<ZonesCombatant> {
  /** The fighters of the other sides, in the order of the file. */
  foes: Fighter[] = [];
  /** The action it played last and that action's situation values (most often its tactics, round after round). */
  lastAction?: ActionSpec;
  lastSituation?: SituationValues;
}

/**
 * Builds the Zones combatant of an encounter entry from its compendium reference, inline stats
 * and extra items.
 * @throws FrayError `FRAY.Error.Field` naming the field (`combatants[0].stats.hp`,
 *   `combatants[1].ref` for an actor of another ruleset, `combatants[1].items[0]` for an item of
 *   another ruleset), `FRAY.Error.Reference` for a reference that does not exist.
 */
export function buildZonesCombatant(spec: CombatantSpec, index: number, content: EncounterContent, play?: PlayOptions): ZonesCombatant {
  return buildEntryCombatant(
    spec,
    index,
    content,
    zonesCombatantFromActor,
    {
      ruleset: "zones",
      checkItem: (doc, field) => {
        if (doc.system?.ruleset !== "zones") fail(field, "an item of the Zones ruleset");
      },
    },
    play,
  );
}

/** One victim of a grenade's blast as an encounter file names it. */
interface BlastSpec {
  id: string;
  distance: number;
  cover?: BlastCover;
}

/** The Zones keys of one declared action, checked. */
interface ZonesAction {
  moveMode: MoveMode;
  difficult: boolean;
  stance?: Stance;
  effort: number;
  reload?: string | true;
  draw?: string;
  clear?: string | true;
  regain: boolean;
  bullets?: number;
  blast?: BlastSpec[];
  area?: SizeCategory;
  damageType?: DamageType;
}

const COVERS: readonly BlastCover[] = ["none", "partial", "full", "grenadeProof"];

/**
 * Reads the Zones keys of an action (`moveMode`, `difficult`, `stance`, `effort`, `reload`,
 * `draw`, `clear`, `regain`, `bullets`, `blast`, `area`, `damageType`).
 * @throws FrayError `FRAY.Error.Field` naming the key that is wrong.
 */
function zonesAction(a: ActionSpec, path: string, ids: Set<string>): ZonesAction {
  const text = (key: string): string | true | undefined => {
    const v = a[key];
    if (v === undefined || v === null || v === false) return undefined;
    if (v === true) return true;
    if (typeof v !== "string") fail(`${path}.${key}`, "true or a weapon name");
    return v;
  };
  const moveMode = a.moveMode ?? "walk";
  if (typeof moveMode !== "string" || !Object.hasOwn(MOVE_RATES, moveMode)) fail(`${path}.moveMode`, Object.keys(MOVE_RATES).join(", "));
  if (a.stance !== undefined && !(STANCES as readonly unknown[]).includes(a.stance)) fail(`${path}.stance`, STANCES.join(", "));
  const effort = a.effort ?? 0;
  if (typeof effort !== "number" || !Number.isInteger(effort) || effort < 0) fail(`${path}.effort`, "a whole number of effort points");
  const bullets = a.bullets;
  if (bullets !== undefined && (typeof bullets !== "number" || !Number.isInteger(bullets) || bullets < 2))
    fail(`${path}.bullets`, "a whole number of bullets, 2 or more");
  if (a.area !== undefined && !(SIZES as readonly unknown[]).includes(a.area)) fail(`${path}.area`, SIZES.join(", "));
  if (a.damageType !== undefined && !(DAMAGE_TYPES as readonly unknown[]).includes(a.damageType))
    fail(`${path}.damageType`, DAMAGE_TYPES.join(", "));
  let blast: BlastSpec[] | undefined;
  if (a.blast !== undefined) {
    if (!Array.isArray(a.blast)) fail(`${path}.blast`, "a list of { id, distance, cover }");
    blast = a.blast.map((b: unknown, i): BlastSpec => {
      const p = `${path}.blast[${i}]`;
      if (!isRecord(b)) fail(p, "{ id, distance, cover }");
      if (typeof b.id !== "string" || !ids.has(b.id)) fail(`${p}.id`, `a combatant id (${[...ids].join(", ")})`);
      if (typeof b.distance !== "number" || !(b.distance >= 0)) fail(`${p}.distance`, "metres, 0 or more");
      if (b.cover !== undefined && !(COVERS as readonly unknown[]).includes(b.cover)) fail(`${p}.cover`, COVERS.join(", "));
      return { id: b.id, distance: b.distance, cover: b.cover as BlastCover | undefined };
    });
  }
  const drawn = text("draw");
  return {
    moveMode: moveMode as MoveMode,
    difficult: Boolean(a.difficult),
    stance: a.stance as Stance | undefined,
    effort,
    reload: text("reload"),
    draw: drawn === true ? fail(`${path}.draw`, "a weapon name") : drawn,
    clear: text("clear"),
    regain: Boolean(a.regain),
    bullets: bullets as number | undefined,
    blast,
    area: a.area as SizeCategory | undefined,
    damageType: a.damageType as DamageType | undefined,
  };
}

const OUT = ["unconscious", "incapacitated", "dead", "fled"];

/** The action of a combatant with neither a declared action nor tactics: attack as the tactics' defaults choose. */
const NO_ACTION: ActionSpec = Object.freeze({});

/** A rule stops a quiet attack (a jammed or empty weapon, out of range): refused, the turn lost; a wrong field still throws. */
const quietRefuse = (error: FrayError): boolean => error.key !== "FRAY.Error.Field";
/** The options of a quiet attack on an area (a grenade's, ZN-GRN-01): no reaction; the attack's cost (ZN-ACT-02). */
const QUIET_AREA: AttackOptions = { refuse: quietRefuse, cost: ATTACK_COST };

/**
 * The situation values of the play contract (`zones.situation()` ids) for an action: the file's
 * situational factors, the bullets of full auto, the damage type and the size of a grenade's
 * target area.
 */
function situationValues(s: ZonesSituation, za: ZonesAction): SituationValues {
  const out: SituationValues = {};
  for (const [key, value] of Object.entries(s)) {
    if (key === "malfunction" || value === undefined) continue;
    out[key] = value as SituationValues[string];
  }
  if (s.malfunction) {
    out.malfunction = s.malfunction.kind;
    if (s.malfunction.afterBullets !== undefined) out.malfunctionAfter = s.malfunction.afterBullets;
  }
  if (za.bullets !== undefined) out.bullets = za.bullets;
  if (za.damageType !== undefined) out.damageType = za.damageType;
  if (za.area !== undefined) out.areaSize = za.area;
  return out;
}

/** A damage step as plain data for the log. */
const stepData = (s: DamageStep) => ({ rule: s.rule, label: s.label, data: s.data ?? {}, value: s.value, remaining: s.remaining });

/** Keys of the Zones driver's set-ups from the file alone ({@link fileSetup}). */
const OPTIONS_SETUP = {};
const ACTIONS_SETUP = {};

/**
 * The file's actions parsed and checked: by round, then by combatant; the tactics by combatant;
 * the action of an entry without either; and whether any of them spends effort on initiative.
 * Shared by the fights of a forecast: read, never changed.
 * @throws FrayError `FRAY.Error.Field` naming the first bad action key.
 */
function fileActions(spec: EncounterSpec, ids: Set<string>) {
  const declaredActions = spec.rounds.map(
    (r, i) => new Map(Object.entries(r).map(([id, a]) => [id, zonesAction(a, `rounds[${i}].${id}`, ids)] as const)),
  );
  const tacticsActions = new Map<string, ZonesAction>();
  spec.combatants.forEach((cs, i) => cs.tactics && tacticsActions.set(cs.id, zonesAction(cs.tactics, `combatants[${i}].tactics`, ids)));
  const noAction = zonesAction({}, "", ids);
  const effortOnInitiative = [...tacticsActions.values(), ...declaredActions.flatMap((r) => [...r.values()])].some((za) => za.effort > 0);
  return { declaredActions, tacticsActions, noAction, effortOnInitiative };
}

/**
 * Plays an encounter through the Zones rules core: the players plot, initiative every round (or
 * once, ZN-INI-03) with effort spent on it (ZN-INI-02), a surprise round for combatants marked
 * `surprised` (ZN-SUR-01), each combatant's declared action or tactics: stance changes and
 * movement with speed and effort points (ZN-MOV-01 to ZN-MOV-04), regaining speed, drawing,
 * reloading, clearing stoppages, aiming, attacks with single shots, bursts and full auto
 * (ZN-BST-01), melee with dodge or block (ZN-MEL-03, ZN-MEL-04), grenades and their blast
 * (ZN-GRN-01), 2d6 hit zones and damage (ZN-ZON-01, ZN-ZON-02), until one side is down or
 * `maxRounds` is reached. Deterministic for a given file and seed. Attacks go through the
 * ruleset's play contract as neutral requests (`input`, `planStep`); what a new round resets and
 * carries over, and what follows aiming, regaining speed and an attack, is the ruleset's
 * (`startRound`, `afterAction`).
 * @param dice defaults to the file's scripted faces followed by the seeded roller.
 * @throws FrayError naming the field of the file that is wrong.
 */
export async function playZones(
  spec: EncounterSpec,
  content: EncounterContent,
  dice?: DiceRoller,
  play: PlayOptions = {},
): Promise<EncounterResult> {
  // The file's options, read once per forecast.
  const { options, opts } = fileSetup(OPTIONS_SETUP, spec, play, () => {
    const options: RulesetOptions = { ...zones.defaults(), ...spec.options };
    return { options, opts: zonesOptions(options) };
  });
  const { logged, history } = recordingRoller(spec, dice, play);
  const ids = new Set(spec.combatants.map((c) => c.id));
  const entries = engineEntries(spec, (cs, i) => {
    const surprised = cs.extra.surprised;
    if (surprised !== undefined && typeof surprised !== "boolean") fail(`combatants[${i}].surprised`, "true or false");
    return buildZonesCombatant(cs, i, content, play);
  });
  const engine = new RoundEngine(zones, entries, logged, {
    options,
    maxRounds: spec.maxRounds,
    out: (c) => hasAnyOf(c.conditions, OUT),
    lazyOdds: play.quiet,
    keepEvents: !play.quiet,
    // The first round's order as the file gives it (the tracker's round under way), else rolled.
    firstRolls: givenInitiative(spec),
  });
  // Each entry's view of its combatant and economy in the engine.
  const fighters = new Map<string, Fighter>(spec.combatants.map((cs) => [cs.id, new Fighter(cs, engine.get(cs.id))]));
  for (const f of fighters.values()) for (const o of fighters.values()) if (o.spec.side !== f.spec.side) f.foes.push(o);
  unfreezeStart(fighters.values(), copyCombatant);
  const start = vitalsNow(engine, zones.vitals);
  // Check every declared action up front, so a bad key fails before any die is rolled (once per forecast).
  const { declaredActions, tacticsActions, noAction, effortOnInitiative } = fileSetup(ACTIONS_SETUP, spec, play, () =>
    fileActions(spec, ids),
  );
  const zonesActionOf = (round: number, f: Fighter): ZonesAction =>
    declaredActions[round - 1]?.get(f.spec.id) ?? tacticsActions.get(f.spec.id) ?? noAction;

  const events: EncounterEvent[] = [];
  const nameOf = (id: string) => fighters.get(id)?.c.name ?? id;
  /** A Zones event; the names of `actor`, `target` and `surprised` travel with it for the log. */
  const custom = (round: number, kind: string, data: Record<string, unknown>) => {
    // A quiet fight keeps no log.
    if (play.quiet) return;
    const named: Record<string, unknown> = { ...data };
    if (typeof data.actor === "string") named.actorName = nameOf(data.actor);
    if (typeof data.target === "string") named.targetName = nameOf(data.target);
    if (Array.isArray(data.surprised)) named.surprisedNames = (data.surprised as string[]).map(nameOf);
    events.push({ type: "custom", round, kind, data: named });
  };
  const isOut = (f: Fighter) => engine.isFighterOut(f.fighter);
  const setWeapon = (f: Fighter, w: ZonesWeapon) => (f.c = restate(f.c, { weapons: f.c.weapons.map((x) => (x.id === w.id ? w : x)) }));
  const findWeapon = (f: Fighter, ref: string | true | undefined, field: string): ZonesWeapon => {
    const w = ref === undefined || ref === true ? (byKind(f.c.weapons, "firearm") ?? f.c.weapons[0]) : byIdOrName(f.c.weapons, ref);
    if (!w) fail(field, `a weapon of ${f.c.name} (${f.c.weapons.map((x) => x.name).join(", ")})`);
    return w;
  };
  /** Logs damage the engine applied. */
  const logHits = (round: number, target: Fighter, packet: ZonesDamagePacket, report: DamageReport, cause: string): void => {
    if (play.quiet) return;
    const parts = packet.parts?.length ? packet.parts : [packet];
    custom(round, "damage", {
      target: target.spec.id,
      cause,
      rolls: parts.map((p) => ({
        formula: p.roll.formula,
        faces: p.roll.dice.flatMap((d) => d.results),
        total: p.roll.total,
        type: p.type,
        zone: p.location,
      })),
      steps: report.steps.map(stepData),
      hp: report.after.hp!.value,
      maxHp: report.after.hp!.max,
      added: report.added,
    });
  };
  /** Applies damage the engine does not deal itself (a catastrophic failure's) and logs it. */
  const applyHits = (round: number, target: Fighter, packet: ZonesDamagePacket, cause: string): void => {
    const report = zones.applyDamage(target.c, packet, options);
    target.c = restate(target.c, { hp: report.after.hp!, conditions: report.after.conditions });
    logHits(round, target, packet, report, cause);
  };

  let round = 0;
  /** Whether the fight keeps its log (not a forecast's quiet fight). */
  const log = !play.quiet;
  /** Every fighter, in the order of the file. */
  const all = [...fighters.values()];
  /** Where an action was declared: this round's entry or the combatant's tactics (for errors). */
  const actionPath = (f: Fighter): string =>
    spec.rounds[round - 1]?.[f.spec.id] !== undefined
      ? `rounds[${round - 1}].${f.spec.id}`
      : `combatants[${spec.combatants.indexOf(f.spec)}].tactics`;
  /**
   * How each target picks its declared reaction among those a melee attack offers it (`defend`:
   * dodge, else block; ZN-MEL-03, ZN-MEL-04); undefined for none. Built once per target.
   */
  const reactions = new Map<Fighter, ((offered: ReactionOption[]) => string | undefined) | undefined>();
  const reactionOf = (target: Fighter): ((offered: ReactionOption[]) => string | undefined) | undefined => {
    if (reactions.has(target)) return reactions.get(target);
    const react = target.spec.react;
    const want = react === "defend" ? ["dodge", "block"] : [react];
    const choose = react && react !== "none" ? (offered: ReactionOption[]) => offered.find((r) => want.includes(r.id))?.id : undefined;
    reactions.set(target, choose);
    return choose;
  };

  /**
   * The situation values of a combatant's action (its tactics' situation, then the action's),
   * read once per combatant and action: the same action (the tactics, most often) is played round
   * after round, and nothing changes them.
   */
  const situations = new Map<Fighter, WeakMap<ActionSpec, SituationValues>>();
  const situationFor = (f: Fighter, action: ActionSpec, za: ZonesAction): SituationValues => {
    if (f.lastAction === action) return f.lastSituation!;
    let own = situations.get(f);
    if (!own) situations.set(f, (own = new WeakMap()));
    let values = own.get(action);
    if (!values) {
      const path = `rounds[${round - 1}].${f.spec.id}.situation`;
      values = situationValues({ ...parseSituation(f.spec.tactics?.situation, path), ...parseSituation(action.situation, path) }, za);
      own.set(action, values);
    }
    f.lastAction = action;
    f.lastSituation = values;
    return values;
  };

  // A forecast reads no detail of an attack: it is played quietly, with the same outcome
  // (`attackOutcome` in src/rules/zones/play.ts), and at once: Zones has no forced check, so a quiet attack only
  // reads faces from the dice.
  const quiet = play.quiet === true && engine.canQuietSync;
  /**
   * The options of a quiet attack on each target, with a melee weapon or not: the target's declared
   * reaction chosen among those offered (a melee attack only, ZN-MEL-03, ZN-MEL-04), the attack's
   * cost (ZN-ACT-02). The same all fight, built once per target.
   */
  const quietOptions = new Map<Fighter, [AttackOptions, AttackOptions]>();
  const quietOptionsOn = (target: Fighter | undefined, melee: boolean): AttackOptions => {
    if (!target) return QUIET_AREA;
    let both = quietOptions.get(target);
    if (!both) {
      const react = reactionOf(target);
      both = [
        { react: undefined, refuse: quietRefuse, cost: ATTACK_COST },
        { react, refuse: quietRefuse, cost: ATTACK_COST },
      ];
      quietOptions.set(target, both);
    }
    return both[melee ? 1 : 0];
  };
  /**
   * The standing enemies of a fighter in the order of the file, in one list reused from attack to
   * attack, emptied by `pop`: V8 sets an array's length through a call into its runtime (1% of a
   * Zones forecast's instructions).
   */
  const enemies: Fighter[] = [];
  const standingEnemies = (f: Fighter): Fighter[] => {
    while (enemies.length !== 0) enemies.pop();
    for (const o of f.foes) if (!isOut(o)) enemies.push(o);
    return enemies;
  };

  /** What the weapon and target choices read (`chooseWeapon`, `chooseTarget`), refilled for each attack. */
  const weaponChoice: WeaponChoice<ZonesWeapon> = { declared: undefined, tactics: undefined, weapons: [] };
  const targetChoice: TargetChoice<Fighter> = { declared: undefined, enemies, distance: undefined };
  // The file's distances (the nearest target, a ranged weapon's range), by place: none in most files.
  const distances = distanceTable(spec);
  const placeCount = spec.combatants.length;

  /**
   * One attack by the fighter's action or tactics. Synchronous when played quietly and at once
   * (a forecast); a promise when it is played in detail or waits on dice (a squib load's burst, a
   * grenade's blast).
   */
  const attack = (f: Fighter, action: ActionSpec, za: ZonesAction): void | Promise<void> => {
    weaponChoice.declared = action.weapon;
    weaponChoice.tactics = f.spec.tactics?.weapon;
    weaponChoice.weapons = f.c.weapons;
    const weaponRef = chooseWeapon(DEFAULT_TACTICS.weapon, weaponChoice);
    if (!weaponRef) {
      if (log) events.push({ type: "skip", round, actor: f.spec.id, reason: "FRAY.Log.NoWeapon" });
      return;
    }
    const weapons = f.c.weapons;
    let weapon: ZonesWeapon | undefined;
    for (let i = 0; i < weapons.length && !weapon; i++)
      if (weapons[i]!.id === weaponRef || weapons[i]!.name === weaponRef) weapon = weapons[i];
    if (!weapon) fail(`rounds[${round - 1}].${f.spec.id}.weapon`, `a weapon of ${f.c.name} (${f.c.weapons.map((x) => x.name).join(", ")})`);
    const declared = action.attack ? fighters.get(action.attack) : undefined;
    const area = weapon.kind === "grenade" && (za.area !== undefined || !declared);
    let target: Fighter | undefined;
    if (!area) {
      targetChoice.declared = declared && !isOut(declared) ? declared : undefined;
      targetChoice.enemies = standingEnemies(f);
      if (distances !== undefined) targetChoice.distance = (o) => distances[f.fighter.place * placeCount + o.fighter.place];
      target = chooseTarget(DEFAULT_TACTICS.target, targetChoice);
      targetChoice.distance = undefined;
    }
    if (!area && !target) return;
    if (log && declared && target && target !== declared)
      events.push({ type: "retarget", round, actor: f.spec.id, from: declared.spec.id, to: target.spec.id });
    // Every attack takes the action (ZN-ACT-02), as the ruleset's `actions()` prices it.
    if (shortfall(f.economy, ATTACK_COST)) {
      if (log) events.push({ type: "skip", round, actor: f.spec.id, reason: "FRAY.Log.NoAction" });
      return;
    }
    // A ranged weapon's range: the round's declared one, else the distance the file gives, else
    // the tactics' (a melee weapon's reach by default: melee assumes it).
    const apart =
      distances !== undefined &&
      target !== undefined &&
      weapon.kind !== "melee" &&
      (action === f.spec.tactics || action.range === undefined)
        ? distances[f.fighter.place * placeCount + target.fighter.place]
        : undefined;
    const range = apart ?? action.range ?? f.spec.tactics?.range ?? (weapon.kind === "melee" ? 1 : undefined);
    if (range === undefined) fail(`${actionPath(f)}.range`, `the distance in metres for ${weapon.name}`);
    if (za.damageType !== undefined && !weapon.damageTypes.includes(za.damageType))
      fail(`${actionPath(f)}.damageType`, weapon.damageTypes.join(", "));
    const modeId = (action.mode ?? (action.weapon === undefined ? f.spec.tactics?.mode : undefined)) as string | undefined;
    // A firing mode the weapon cannot fire is the file's error, named where it was written (ZN-BST-01).
    if (modeId !== undefined && modeId !== "single") {
      try {
        bulletsOf({ modeId: modeId as (typeof FIRING_MODES)[number] }, weapon);
      } catch (error) {
        if (!(error instanceof FrayError) || error.key !== "FRAY.Error.NoMode") throw error;
        const where = action.mode !== undefined ? actionPath(f) : `combatants[${spec.combatants.indexOf(f.spec)}].tactics`;
        fail(`${where}.mode`, `a firing mode ${weapon.name} fires (${error.message})`);
      }
    }
    const request: AttackRequest = {
      attackerId: f.c.id,
      targetId: target?.c.id,
      weaponId: weapon.id,
      modeId,
      distanceMetres: range,
      situation: situationFor(f, action, za),
    };
    // A grenade never lands in a quiet attack either: its blast is played below.
    if (quiet) {
      // An empty firearm is refused (`planAttack`: ZN-BST-01, or an earlier refusal), the turn
      // lost; a quiet fight logs nothing of it, so the attack is not even asked for.
      if (weapon.kind === "firearm" && weapon.loaded <= 0) return;
      const done = engine.quietOutcomeSync(request, quietOptionsOn(target, weapon.kind === "melee"));
      if (!done) return;
      // What follows besides the engine's: a squib load's burst (ZN-MAL-01), a grenade's blast (ZN-GRN-01).
      const attack = done as ZonesAttackOutcome;
      if (attack.catastrophic) return catastrophe(f, weapon);
      if (weapon.kind === "grenade") return blast(f, weapon, target, za, attack.hit, attack.deviation);
      return;
    }
    return attackInDetail(f, weapon, target, za, request, range);
  };

  /** An attack played in detail, with its log (an encounter). */
  const attackInDetail = async (
    f: Fighter,
    weapon: ZonesWeapon,
    target: Fighter | undefined,
    za: ZonesAction,
    request: AttackRequest,
    range: number,
  ): Promise<void> => {
    const react = target && weapon.kind === "melee" ? reactionOf(target) : undefined;
    // A rule stops the attack (a jammed or empty weapon, out of range): the turn is lost, the fight goes on.
    const refuse = (error: FrayError) => {
      if (error.key === "FRAY.Error.Field") return false;
      if (!play.quiet) events.push({ type: "skip", round, actor: f.spec.id, reason: error.key, data: error.data });
      return true;
    };
    // Paid from the economy; aim spent, ammunition used, a malfunction kept, a thrown weapon gone
    // by the ruleset's afterAction (ZN-RNG-07, ZN-BST-01, ZN-MAL-01, ZN-THR-01).
    const done = await engine.attack(request, { react, damage: weapon.kind !== "grenade", refuse });
    if (!done) return;
    const { plan, packet, report } = done.step;
    const result = done.step.result as ZonesAttackResult;
    // The odds are for the log alone: a quiet fight never reads them, so they are never computed.
    const odds = play.quiet ? undefined : done.step.odds;
    if (odds)
      events.push({
        type: "attack",
        round,
        attacker: f.spec.id,
        target: target?.spec.id ?? "area",
        weapon: weapon.name,
        mode: plan.modeId,
        // The mode in the reader's language; a burst with the bullets it fires (ZN-BST-01).
        ...(plan.modeId
          ? {
              modeLabel: `FRAY.Zones.Sheet.Mode.${plan.modeId}`,
              modeData: { bullets: bulletsOf({ modeId: plan.modeId as (typeof FIRING_MODES)[number] }, weapon) },
            }
          : {}),
        range,
        melee: weapon.kind === "melee",
        plan,
        odds,
        result,
      });
    if (odds && result.bullets && (result.bullets.fired > 1 || result.bullets.stoppedBy)) {
      custom(round, "bullets", {
        ...result.bullets,
        total: result.check.total,
        odds: result.bullets.difficulties?.map((_, i) => odds.outcomes?.[`bullet${i + 1}`] ?? (i === 0 ? odds.hit : 0)) ?? [],
      });
    }
    if (result.catastrophic) return catastrophe(f, weapon);
    if (weapon.kind === "grenade") return blast(f, weapon, target, za, result.hit, result.deviation);
    if (target && packet && report) logHits(round, target, packet as ZonesDamagePacket, report, weapon.name);
  };

  /** A shot behind a squib load bursts the weapon: the shooter takes its damage (ZN-MAL-01). */
  const catastrophe = async (f: Fighter, weapon: ZonesWeapon): Promise<void> => {
    const packet = await catastrophicDamage(weapon, logged);
    custom(round, "catastrophic", { actor: f.spec.id, weapon: weapon.name });
    applyHits(round, f, packet, "FRAY.Zones.Malfunction.catastrophic");
  };

  /**
   * A grenade's blast (ZN-GRN-01): on the victims the file names, else on the target, where the
   * grenade landed (on it when the throw hit, `deviation` metres off when it missed).
   */
  const blast = async (
    f: Fighter,
    weapon: ZonesWeapon,
    target: Fighter | undefined,
    za: ZonesAction,
    hit: boolean,
    deviation: number | undefined,
  ): Promise<void> => {
    const victims = za.blast ?? (target ? [{ id: target.spec.id, distance: hit ? 0 : (deviation ?? 0) }] : []);
    custom(round, "grenade", { actor: f.spec.id, weapon: weapon.name, hit, deviation: deviation ?? 0 });
    const outcomes = await resolveBlast(
      weapon,
      victims.map((v) => ({ combatant: fighters.get(v.id)!.c, distance: v.distance, cover: v.cover })),
      logged,
      opts,
    );
    for (const o of outcomes) {
      const victim = fighters.get(o.id)!;
      victim.c = o.after;
      custom(round, "blast", {
        target: o.id,
        distance: o.distance,
        zone: o.zone,
        effect: o.effect,
        reason: o.reason,
        steps: o.report?.steps.map(stepData) ?? [],
        hp: o.after.hp.value,
        maxHp: o.after.hp.max,
      });
    }
  };

  /** Whether `f` still has its action for a step of its turn; a skip logged when not (ZN-ACT-02). */
  const needAction = (f: Fighter): boolean => {
    if (!shortfall(f.economy, ATTACK_COST)) return true;
    events.push({ type: "skip", round, actor: f.spec.id, reason: "FRAY.Log.NoAction" });
    return false;
  };

  /** One combatant's turn: its declared action or tactics. A promise only when the attack is one ({@link attack}). */
  const act = (f: Fighter, action: ActionSpec, za: ZonesAction): void | Promise<void> => {
    if (action.wait) {
      events.push({ type: "skip", round, actor: f.spec.id, reason: "FRAY.Log.Waits" });
      return;
    }
    if (za.stance || action.move !== undefined) {
      const legs = [
        ...(za.stance ? [{ stance: za.stance }] : []),
        ...(action.move !== undefined ? [{ mode: za.moveMode, metres: action.move, difficult: za.difficult }] : []),
      ];
      try {
        const plan = planMove(f.c, f.economy, legs, opts);
        f.economy = spend(f.economy, plan.cost);
        f.c = restate(f.c, { stance: plan.stance, movement: plan.metres > 0 ? plan.movement : f.c.movement });
        // `speed` and `effort` are the points left afterwards; `paidSpeed` and `paidEffort` what the move cost.
        custom(round, "move", {
          actor: f.spec.id,
          metres: plan.metres,
          mode: action.move !== undefined ? za.moveMode : "stance",
          stance: plan.stance,
          points: plan.points,
          paidSpeed: plan.speed,
          paidEffort: plan.effort,
          speed: f.economy.pools.speed!.value,
          effort: f.economy.pools.effort!.value,
          rules: plan.rules,
        });
      } catch (error) {
        if (!(error instanceof FrayError)) throw error;
        events.push({ type: "skip", round, actor: f.spec.id, reason: error.key, data: error.data });
      }
    }
    if (za.regain && needAction(f)) {
      engine.act(f.spec.id, "regainSpeed");
      custom(round, "regain", { actor: f.spec.id, speed: f.economy.pools.speed!.value });
    }
    if (za.draw && needAction(f)) {
      const w = findWeapon(f, za.draw, `rounds[${round - 1}].${f.spec.id}.draw`);
      const p = draw(w, f.economy);
      f.economy = p.economy;
      setWeapon(f, p.weapon);
      custom(round, "draw", { actor: f.spec.id, weapon: w.name, done: p.done, spent: p.spent });
    }
    if (za.clear && needAction(f)) {
      const w = findWeapon(f, za.clear, `rounds[${round - 1}].${f.spec.id}.clear`);
      const r = clearMalfunction(w, f.economy);
      f.economy = r.economy;
      setWeapon(f, r.weapon);
      custom(round, "clear", { actor: f.spec.id, weapon: w.name, malfunction: w.malfunction });
    }
    if (za.reload && needAction(f)) {
      const w = findWeapon(f, za.reload, `rounds[${round - 1}].${f.spec.id}.reload`);
      const p = reload(w, f.economy);
      f.economy = p.economy;
      setWeapon(f, p.weapon);
      custom(round, "reload", { actor: f.spec.id, weapon: w.name, done: p.done, loaded: p.weapon.loaded });
    }
    if (action.aim && needAction(f)) {
      engine.act(f.spec.id, "aim");
      custom(round, "aim", { actor: f.spec.id, actions: f.c.aim });
    }
    const busy = za.stance || action.move !== undefined || za.regain || za.draw || za.clear || za.reload || action.aim;
    if (action.attack !== undefined || !busy) return attack(f, action, za);
  };

  // Who rolls initiative: those not surprised (ZN-SUR-01); the effort each spends on it, committed
  // before the roll and taken from the points after it (ZN-INI-02). The same every round.
  // Without effort spent on initiative anywhere in the file, both hooks do nothing and are left out.
  const initiative: InitiativeOptions<ZonesCombatant> = {
    eligible: (rf) => !holds(rf.combatant.conditions, "surprised"),
    rollMissing: true,
  };
  if (effortOnInitiative) {
    initiative.before = (members) => {
      const f = fighters.get(members[0]!.id)!;
      const za = zonesActionOf(round, f);
      if (za.effort > 0) {
        f.c = restate(f.c, { initiativeEffort: Math.min(za.effort, f.c.effort.value) });
        custom(round, "effort", { actor: f.spec.id, points: f.c.initiativeEffort });
      }
    };
    initiative.after = (members) => {
      const f = fighters.get(members[0]!.id)!;
      // Effort spent on initiative leaves the points (nothing to take when none was spent).
      if (f.c.initiativeEffort === 0) return;
      f.c = restate(f.c, { effort: { value: f.c.effort.value - f.c.initiativeEffort, max: f.c.effort.max } });
      f.economy = spend(f.economy, { pools: { effort: f.c.initiativeEffort } });
    };
  }
  const surprisedNow = (rf: RoundFighter<ZonesCombatant>) => holds(rf.combatant.conditions, "surprised");

  const initSync = engine.canRollInitiativeSync;
  let ended: EndEvent | undefined;
  while (!ended) {
    round = engine.nextRound();
    if (log) events.push({ type: "round", round });
    if (round === 1) {
      const surprised = all.filter((f) => f.spec.extra.surprised === true);
      for (const f of surprised) f.c = restate(f.c, { conditions: [...f.c.conditions, "surprised"] });
      if (surprised.length) custom(round, "surprise", { surprised: surprised.map((f) => f.spec.id) });
    }
    if (log) custom(round, "plot", {});
    // New round (the ruleset's): the surprise round over, movement back to subtle, aim lost, speed
    // and effort points carried over (ZN-SUR-01, ZN-RNG-04, ZN-RNG-07, ZN-MOV-03).
    engine.startRound();
    // Initiative of those not surprised, rolled again each round or kept (ZN-INI-03), with the
    // effort points each spends on it (ZN-INI-02).
    // At once where the dice allow (a forecast): no promise per round.
    const init = initSync ? engine.rollInitiativeSync(initiative) : await engine.rollInitiative(initiative);
    if (log) events.push({ type: "initiative", round, rolls: init.rolls, order: init.order, kept: init.kept });
    const declared = spec.rounds[round - 1];
    const order = init.order;
    // The round's turns (`engine.turns`), walked without a generator.
    for (let k = engine.nextTurn(order, 0, surprisedNow); k >= 0; k = engine.nextTurn(order, k + 1, surprisedNow, true)) {
      const id = order[k]!;
      const f = fighters.get(id)!;
      // Synchronous unless the turn waits on dice (see `attack`).
      const pending = act(f, declared?.[id] ?? f.spec.tactics ?? NO_ACTION, zonesActionOf(round, f));
      if (pending) await pending;
    }
    const over = engine.isOver();
    // Field by field, in the order of a spread: a spread adding `type` takes V8's slow path.
    if (over) ended = { type: "end", round: over.round, winner: over.winner, reason: over.reason };
  }
  return finishEncounter(
    spec,
    options,
    ended,
    fighters.values(),
    { vitals: (f) => zones.vitals(f.c), isOut, start },
    play.quiet ? [] : events,
    history,
  );
}

type Fmt = (key: string, data?: Record<string, string | number>) => string;

type StepData = ReturnType<typeof stepData>;

function formatSteps(t: Fmt, steps: StepData[]): string[] {
  return steps.slice(1).map((s) => {
    const text = t(s.label, { ...s.data, value: s.value });
    if (s.label === "FRAY.Step.Zones.WoundCheck") return `    ${text} (${s.rule})`;
    if (s.label === "FRAY.Step.Zones.HitPoints") return `    ${text} (${s.rule}): -${s.value}`;
    return `    ${text} (${s.rule}): ${s.value ? `-${s.value} ` : ""}-> ${s.remaining}`;
  });
}

/**
 * Log lines of the Zones events: the plot, surprise, effort for initiative, movement, regaining
 * speed, drawing, reloading, clearing, aiming, each bullet of a burst with its difficulty and
 * odds, damage step by step, grenades and their blast.
 */
export function formatZonesEvent(event: Extract<EncounterEvent, { type: "custom" }>, t: Fmt, lang = "en"): string[] {
  const d = event.data;
  const str = (k: string) => String(d[k] ?? "");
  const num = (k: string) => Number(d[k] ?? 0);
  const list = <T>(k: string) => (Array.isArray(d[k]) ? (d[k] as T[]) : []);
  const actor = String(d.actorName ?? d.actor ?? "");
  const target = String(d.targetName ?? d.target ?? "");
  switch (event.kind) {
    case "plot":
      return [t("FRAY.Zones.Log.Plot") + " (ZN-INI-01)"];
    case "surprise":
      return [
        t("FRAY.Zones.Log.Surprise", { names: list<string>(d.surprisedNames ? "surprisedNames" : "surprised").join(", ") }) +
          " (ZN-SUR-01)",
      ];
    case "effort":
      return [t("FRAY.Zones.Log.Effort", { actor, points: num("points") }) + " (ZN-INI-02)"];
    case "move": {
      const data = {
        actor,
        metres: num("metres"),
        mode: `FRAY.Zones.Move.${str("mode")}`,
        stance: `FRAY.Zones.Stance.${str("stance")}`,
        points: num("points"),
        speed: num("speed"),
        effort: num("effort"),
      };
      return [
        t(pluralKey(str("mode") === "stance" ? "FRAY.Zones.Log.Stance" : "FRAY.Zones.Log.Move", data.points, lang), data) +
          ` (${list<string>("rules").join(", ")})`,
      ];
    }
    case "regain":
      return [t("FRAY.Zones.Log.Regain", { actor, speed: num("speed") }) + " (ZN-MOV-03)"];
    case "draw":
      return [t(d.done ? "FRAY.Zones.Log.Drawn" : "FRAY.Zones.Log.Drawing", { actor, weapon: str("weapon") }) + " (ZN-DRW-01)"];
    case "reload":
      return [
        t(d.done ? "FRAY.Zones.Log.Reloaded" : "FRAY.Zones.Log.Reloading", { actor, weapon: str("weapon"), loaded: num("loaded") }) +
          " (ZN-REL-01)",
      ];
    case "clear":
      return [
        t("FRAY.Zones.Log.Cleared", { actor, weapon: str("weapon"), malfunction: `FRAY.Zones.Malfunction.${str("malfunction")}` }) +
          " (ZN-MAL-01)",
      ];
    case "aim":
      return [t(pluralKey("FRAY.Zones.Log.Aim", num("actions"), lang), { actor, actions: num("actions") }) + " (ZN-RNG-07)"];
    case "bullets": {
      const odds = list<number>("odds");
      const total = num("total");
      const lines = [`  ${t("FRAY.Zones.Log.Bullets", { hit: num("hit"), fired: num("fired") })} (ZN-BST-01)`];
      list<number>("difficulties").forEach((diff, i) => {
        const key = total >= diff ? "FRAY.Zones.Log.BulletHit" : "FRAY.Zones.Log.BulletMiss";
        lines.push(`    ${t(key, { n: i + 1, difficulty: diff, total })} (${pct(odds[i] ?? 0, lang)})`);
      });
      if (typeof d.stoppedBy === "string") lines.push(`    ${t("FRAY.Zones.Log.Stopped", { malfunction: d.stoppedBy })} (ZN-MAL-01)`);
      return lines;
    }
    case "catastrophic":
      return [`  ${t("FRAY.Zones.Log.Catastrophic", { actor, weapon: str("weapon") })} (ZN-MAL-01)`];
    case "damage": {
      const lines: string[] = [];
      const steps = list<StepData>("steps");
      // The steps of each hit start with its "rolled" step.
      const starts = steps.map((s, i) => (s.label === "FRAY.Step.Zones.Rolled" ? i : -1)).filter((i) => i >= 0);
      list<{ formula: string; faces: number[]; total: number; type: string; zone: string }>("rolls").forEach((r, i) => {
        lines.push(
          `  ${t("FRAY.Log.Damage")}: ${r.formula} [${r.faces.join(",")}] = ${r.total} (${t(`FRAY.Zones.DamageType.${r.type}`)}, ${t(`FRAY.Zones.Zone.${r.zone}`)})`,
        );
        lines.push(...formatSteps(t, steps.slice(starts[i], starts[i + 1])));
      });
      const added = list<string>("added");
      lines.push(
        `  ${target}: ${t("FRAY.Forecast.Track.hp", { points: `${num("hp")}/${num("maxHp")}` })}${added.length ? " — " + added.map((c) => t(`FRAY.Condition.${c}`)).join(", ") : ""}`,
      );
      return lines;
    }
    case "grenade":
      return [
        `  ${t(d.hit ? "FRAY.Zones.Log.GrenadeOnTarget" : "FRAY.Zones.Log.GrenadeOff", { actor, weapon: str("weapon"), deviation: num("deviation") })} (ZN-GRN-01)`,
      ];
    case "blast": {
      const data = {
        target,
        distance: num("distance"),
        zone: `FRAY.Zones.Blast.zone.${str("zone")}`,
        effect: `FRAY.Zones.Blast.effect.${str("effect")}`,
        reason: str("reason"),
      };
      const lines = [`  ${t("FRAY.Zones.Log.Blast", data)} (ZN-GRN-01)`];
      const steps = list<StepData>("steps");
      if (steps.length)
        lines.push(...formatSteps(t, steps), `  ${target}: ${t("FRAY.Forecast.Track.hp", { points: `${num("hp")}/${num("maxHp")}` })}`);
      return lines;
    }
    default:
      return [];
  }
}

/**
 * The Zones encounter driver. Actions: `attack`, `weapon`, `mode` (`single`, `burst`, `auto`),
 * `bullets`, `range`, `situation`, `aim`, `move` with `moveMode` and `difficult`, `stance`,
 * `effort` (spent on initiative), `regain`, `draw`, `reload`, `clear`, `area` and `blast`
 * (grenades), `damageType`, `wait`. Combatants may be `surprised` (ZN-SUR-01) and react with
 * `defend` (dodge while an action is left, else block), `dodge`, `block` or `none`.
 */
export const zonesDriver: EncounterDriver = {
  ruleset: "zones",
  actionKeys: [
    "mode",
    "aim",
    "move",
    "moveMode",
    "difficult",
    "stance",
    "effort",
    "regain",
    "draw",
    "reload",
    "clear",
    "bullets",
    "blast",
    "area",
    "damageType",
  ],
  combatantKeys: ["surprised"],
  reactions: ["defend", "dodge", "block", "none"],
  play: playZones,
  formatCustom: (event, t, _lookup, lang) => formatZonesEvent(event, t, lang),
};
