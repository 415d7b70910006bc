/**
 * The forecast's input from a running combat: the tracker's combatants, each as an encounter
 * entry whose actor is the combatant's own (its current vitals, statuses, conditions and lasting
 * effects, its items), its side from its token's disposition, and the simple default tactics
 * (the nearest enemy by token distance in metres, a ranged weapon when that enemy is not
 * adjacent). Pure: the Foundry glue reads the documents and the canvas into a
 * {@link CombatSnapshot}; this turns it into an encounter file the forecast plays
 * (src/forecast/forecast.ts) and says what it could not carry.
 *
 * The forecast's first round is the round under way: what each combatant already spent of its
 * economy (UD-ACT-01, HB-RND-01, CR-AP-01, ZN-ACT-01) is its entry's `spent`; a declaration made
 * this round (HB-ACT-01, CR-INI-02, ZN-INI-01) that names an action is played in it as
 * {@link declaredAction} reads it; a Critical parry allocation declared this round (on the actor,
 * OB by foe token) is played in it by the foes' combatant ids (CR-PAR-01); and the round's
 * initiative, of those who rolled, is its order (UD-INI-01, CR-INI-01, ZN-INI-01). What an
 * encounter file cannot hold is listed, not guessed: a declaration of free text alone, or one
 * still sealed until the reveal, and an initiative not yet rolled come back in `notCarried`;
 * combatants without an actor, of neutral disposition, marked defeated or whose actor the ruleset
 * cannot read come back in `left`; and no combatant moves. Each combatant reacts when the rules
 * allow, with the reaction the shared tactics give (`DEFAULT_REACTIONS`).
 */
import { createEconomy, type ActionCost, type Economy, type EconomySpec } from "../../rules/core/economy.js";
import type { InitiativeTiming, RulesetOptions } from "../../rules/core/ruleset.js";
import type { ActorSource } from "../../rules/core/sources.js";
import type { RulesetId, VitalState } from "../../rules/core/types.js";
import { inputError } from "../../rules/core/validate.js";
import { COMMON_BOUNDS } from "../../rules/core/bounds.js";
import type { SourceDocument } from "../../encounter/library.js";
import { DEFAULT_REACTIONS, DEFAULT_TACTICS, type Tactics } from "../../encounter/tactics.js";

/** The pack the combatants' actors are handed to the forecast in (`combat/<combatant id>`). */
export const FORECAST_PACK = "combat";

/** Farthest distance in metres still counted as adjacent (melee reach on a 1.5 m or 5 ft grid, diagonals included). */
export const ADJACENT_METRES = 2.2;

/** One Combatant of the tracker as the glue read it. */
export interface SnapshotCombatant {
  /** The Combatant's id: the entry's id in the forecast. */
  id: string;
  /** Its token's id, as a Critical parry allocation names the foes it parries (CR-PAR-01). */
  tokenId?: string;
  /** Its initiative in the round under way, once rolled (UD-INI-01, CR-INI-01, ZN-INI-01). */
  initiative?: number;
  /** The name the tracker shows. */
  name: string;
  /** The actor's source with its current statuses (`actorSource`); absent when it has none. */
  actor?: ActorSource;
  /** Its token's disposition: 1 friendly, 0 neutral, -1 hostile, -2 secret. */
  disposition: number;
  /** Marked defeated in the tracker. */
  defeated: boolean;
  /** Its round economy as stored for the current round, when the tracker holds one. */
  economy?: Economy;
  /**
   * This round's declaration (HB-ACT-01, CR-INI-02, ZN-INI-01), when it made one; `sealed` while
   * it waits in a whisper for the reveal (its text and action unknown to the Combatant).
   */
  declaration?: { text: string; action?: string; sealed?: boolean };
}

/** A combat as the forecast reads it. */
export interface CombatSnapshot {
  /** What to call the forecast (the scene's or the combat's name). */
  name: string;
  ruleset: RulesetId;
  /** The world's option values of the ruleset. */
  options: RulesetOptions;
  /** The combat's current round (0 before it starts). */
  round: number;
  combatants: SnapshotCombatant[];
  /** Distance between two combatants' tokens in metres, by Combatant id; a pair left out is unknown. */
  distances: Record<string, Record<string, number>>;
  /** Rounds after which a fight counts as a draw; 20 when unset. */
  maxRounds?: number;
}

/** An encounter file as the encounter schema reads it (src/encounter/schema.ts), before its check. */
export interface EncounterFile {
  name: string;
  ruleset: RulesetId;
  seed: number;
  options: RulesetOptions;
  maxRounds: number;
  combatants: {
    id: string;
    name: string;
    side: ForecastSide;
    /** `combat/<id>`: the combatant's actor in {@link ForecastInput.packs}. */
    ref: string;
    tactics?: { weapon?: string };
    /** The reaction it declares whenever it is attacked and the rules allow one. */
    react?: string;
    /** What it already spent of the round under way, the forecast's first round. */
    spent?: ActionCost;
  }[];
  /** The first round's declared actions, by combatant id: the declarations made this round. */
  rounds?: Record<string, FirstRoundAction>[];
  /** Metres between the combatants' tokens (0.1 m), by id and id, each pair once: the nearest target and a ranged attack's range. */
  distances?: Record<string, Record<string, number>>;
  /** The initiative of the round under way by id, of those who rolled: the first round's order (the others roll as the rules allow). */
  initiative?: Record<string, number>;
}

/**
 * What a combatant does in the forecast's first round beyond its tactics: it waits (it declared
 * an action the forecast does not play), and parries as it declared (Critical: OB by foe's
 * combatant id, CR-PAR-01).
 */
export interface FirstRoundAction {
  wait?: true;
  parry?: Record<string, number>;
}

/** What the state function needs of a ruleset binding. */
export interface ForecastBinding {
  readonly id: string;
  /** The binding's `combatantFromActor`. */
  combatantFromActor(actor: ActorSource, overrides?: { id?: string; group?: string }): unknown;
  /** The binding's `declaredParry`, where the ruleset has one (Critical, CR-PAR-01). */
  readonly declaredParry?: {
    read(c: never): Readonly<Record<string, number>> | undefined;
    accepts(c: never, split: Record<string, number>): boolean;
  };
  readonly ruleset: {
    vitals(c: never): VitalState;
    isOut(state: VitalState): boolean;
    /** The round economy's slots and pools for a combatant (what a round starts from). */
    economy(c: never, options: RulesetOptions): EconomySpec;
    /** When initiative is rolled; `none` for a ruleset without it (HB-ACT-01). */
    initiativeTiming(options: RulesetOptions): InitiativeTiming;
  };
}

/** The side a combatant fights on in the forecast. */
export type ForecastSide = "friendly" | "hostile";

/** One combatant the forecast plays. */
export interface ForecastCombatant {
  id: string;
  name: string;
  side: ForecastSide;
  /** The core's combatant, from the binding. */
  core: unknown;
  /** Its vitals now (the core's `vitals`). */
  vitals: VitalState;
  /** The enemy the tactics attack first: the nearest by token distance, when any distance is known. */
  target?: string;
  /** Metres to {@link target}. */
  metres?: number;
  /** The weapon id the tactics attack with, when the combatant has weapons. */
  weapon?: string;
  /** Whether that weapon attacks from range (the entry's `range` then is {@link metres}). */
  ranged?: boolean;
  /** The reaction it declares when attacked (`DEFAULT_REACTIONS` of src/encounter/tactics.ts). */
  react?: string;
  /** What it already spent of the round under way ({@link spentOf}), paid in the forecast's first round. */
  spent?: ActionCost;
  /** Its declaration of this round names an action the forecast does not play: it waits in the first round. */
  waits?: boolean;
}

/** Why a combatant of the tracker is not in the forecast. */
export type LeftReason = "noActor" | "neutral" | "defeated" | "out" | "unreadable";

/** What the forecast leaves out or cannot carry. */
export interface ForecastInput {
  /**
   * The encounter file the forecast plays, as a parsed YAML file would hold it: the worker checks
   * it with the encounter schema (`parseEncounter`), so that the main bundle carries no driver.
   */
  file: EncounterFile;
  /** The documents the file's references name: one pack, {@link FORECAST_PACK}. */
  packs: [string, SourceDocument[]][];
  combatants: ForecastCombatant[];
  left: { id: string; name: string; reason: LeftReason; error?: unknown }[];
  /**
   * What the combatants already did this round that the forecast cannot carry: a declaration of
   * free text alone, or one still sealed; an initiative not yet rolled; a Critical parry split
   * that names a foe left out or that the rules refuse now.
   */
  notCarried: { id: string; name: string; what: "declaration" | "sealed" | "initiative" | "parry" }[];
  /** The tactics every combatant follows (target: the nearest enemy, then the first standing). */
  tactics: Tactics;
}

/** A weapon as far as the tactics look at it: any ruleset's core weapon. */
interface AnyWeapon {
  id: string;
  kind?: string;
  category?: string;
}

/** True when a core weapon attacks at a distance (not melee; a grenade attacks an area, not a target). */
function isRangedWeapon(w: AnyWeapon): boolean {
  if (w.kind === "grenade") return false;
  if (w.kind !== undefined) return w.kind !== "melee";
  return w.category !== undefined && w.category !== "melee";
}

/** True when a core weapon strikes in melee. */
function isMeleeWeapon(w: AnyWeapon): boolean {
  return w.kind === "melee" || (w.kind === undefined && (w.category === undefined || w.category === "melee"));
}

/** Most of a slot or pool an entry's `spent` names (the encounter schema's bound). */
const MOST_SPENT = COMMON_BOUNDS.spent.max;

/**
 * What an economy of the round under way shows spent, as an entry's `spent`: each slot's uses,
 * and each pool's points below what `fresh` (the economy the ruleset gives the combatant as it
 * stands, which the forecast's first round starts from) holds: a pool that refills each round
 * (Critical's AP) counts from its maximum, one carried from round to round (Zones' effort, its
 * speed without a recovery each round) from the value the actor carries, never twice. Whole, at
 * most the schema's bound; `undefined` when nothing is spent (UD-ACT-01, HB-RND-01, CR-AP-01,
 * ZN-ACT-01).
 * @param fresh the ruleset's economy for the combatant; by default each pool counts from its maximum.
 */
export function spentOf(e: Economy, fresh?: Economy): ActionCost | undefined {
  const whole = (n: number) => Math.min(MOST_SPENT, Math.max(0, Math.round(n)));
  const slots: Record<string, number> = {};
  const pools: Record<string, number> = {};
  for (const [id, s] of Object.entries(e.slots)) if (whole(s.used) > 0) slots[id] = whole(s.used);
  for (const [id, p] of Object.entries(e.pools)) {
    const from = fresh ? (fresh.pools[id]?.value ?? p.max) : p.max;
    if (whole(from - p.value) > 0) pools[id] = whole(from - p.value);
  }
  const out: ActionCost = {
    ...(Object.keys(slots).length ? { slots } : {}),
    ...(Object.keys(pools).length ? { pools } : {}),
  };
  return out.slots || out.pools ? out : undefined;
}

/**
 * The actions a declaration may name that the forecast plays as its tactics: an attack, a parry
 * (Critical: the OB split is the tactics' default, CR-PAR-01) and a delay (Critical: the order is
 * not played, CR-INI-03).
 */
const PLAYED_AS_TACTICS: readonly string[] = ["attack", "parry", "delay"];

/**
 * How the forecast plays a declaration of this round (HB-ACT-01, CR-INI-02, ZN-INI-01) in its
 * first round: `tactics` for an action it plays as its tactics (attack, parry, delay), `wait`
 * for any other action (a task, a move, a reload, a treatment: the combatant spends the round on
 * it, which the forecast does not play, and attacks from the next round on), `none` for free text
 * alone or a declaration still sealed (not carried: the forecast cannot read it).
 */
export function declaredAction(declaration: { text: string; action?: string }): "tactics" | "wait" | "none" {
  if (!declaration.action) return "none";
  return PLAYED_AS_TACTICS.includes(declaration.action) ? "tactics" : "wait";
}

/** Metres between two combatants' tokens, in either order; undefined where the snapshot has none (or not a distance). */
function metresBetween(snapshot: CombatSnapshot, a: string, b: string): number | undefined {
  const d = snapshot.distances[a]?.[b] ?? snapshot.distances[b]?.[a];
  return typeof d === "number" && Number.isFinite(d) && d >= 0 ? d : undefined;
}

/**
 * Turns a combat into the forecast's input. Each combatant with an actor, a friendly or hostile
 * token (secret counts as hostile, as engagement reads it) and not defeated nor out by its vitals
 * becomes an entry `combat/<id>` whose actor is its own source (current vitals, statuses,
 * lasting effects, items). The file carries the distances between the tokens: every attack
 * goes at the nearest standing enemy, a ranged one from where the two stand. Its weapon: with
 * its nearest enemy farther than {@link ADJACENT_METRES} and a ranged weapon at hand, that ranged
 * weapon, else its first melee weapon (no movement is played; melee assumes reach). Its reaction:
 * the shared tactics' `DEFAULT_REACTIONS`.
 * @throws FrayError `FRAY.Error.Input.Sides` (field `combatants`) when fewer than two sides are
 *   left to fight. The encounter schema checks the rest where the forecast runs (a name too
 *   long, an option the ruleset refuses), naming the field.
 */
export function forecastInput(snapshot: CombatSnapshot, binding: ForecastBinding): ForecastInput {
  const left: ForecastInput["left"] = [];
  const notCarried: ForecastInput["notCarried"] = [];
  const fighters: ForecastCombatant[] = [];
  const docs: SourceDocument[] = [];
  let firstRound: Record<string, FirstRoundAction> | undefined;
  /** Each fighter's own parry allocation this round (OB by foe token id), where its actor holds one. */
  const parries: { id: string; parry: Readonly<Record<string, number>> }[] = [];
  for (const c of snapshot.combatants) {
    if (!c.actor) {
      left.push({ id: c.id, name: c.name, reason: "noActor" });
      continue;
    }
    if (c.disposition === 0) {
      left.push({ id: c.id, name: c.name, reason: "neutral" });
      continue;
    }
    if (c.defeated) {
      left.push({ id: c.id, name: c.name, reason: "defeated" });
      continue;
    }
    let core: unknown;
    let vitals: VitalState;
    try {
      core = binding.combatantFromActor(c.actor, { id: c.id });
      vitals = binding.ruleset.vitals(core as never);
    } catch (error) {
      left.push({ id: c.id, name: c.name, reason: "unreadable", error });
      continue;
    }
    if (binding.ruleset.isOut(vitals)) {
      left.push({ id: c.id, name: c.name, reason: "out" });
      continue;
    }
    const declared = c.declaration ? declaredAction(c.declaration) : undefined;
    if (declared === "none") notCarried.push({ id: c.id, name: c.name, what: c.declaration?.sealed ? "sealed" : "declaration" });
    if (declared === "wait") (firstRound ??= {})[c.id] = { wait: true };
    const parry = binding.declaredParry?.read(core as never);
    if (parry) parries.push({ id: c.id, parry });
    let spent: ActionCost | undefined;
    if (c.economy) {
      // Counted from the economy the forecast's first round starts from (the ruleset's, for the combatant as it stands).
      let fresh: Economy | undefined;
      try {
        fresh = createEconomy(binding.ruleset.economy(core as never, snapshot.options));
      } catch {
        fresh = undefined;
      }
      spent = spentOf(c.economy, fresh);
    }
    fighters.push({
      id: c.id,
      name: c.name,
      side: c.disposition > 0 ? "friendly" : "hostile",
      core,
      vitals,
      ...(spent ? { spent } : {}),
      ...(declared === "wait" ? { waits: true } : {}),
    });
    docs.push({ ...structuredClone(c.actor), _id: c.id } as SourceDocument);
  }
  for (const f of fighters) {
    let best: ForecastCombatant | undefined;
    let metres = Infinity;
    for (const e of fighters) {
      if (e.side === f.side) continue;
      const d = metresBetween(snapshot, f.id, e.id);
      if (d !== undefined && d < metres) [best, metres] = [e, d];
    }
    const weapons = ((f.core as { weapons?: AnyWeapon[] }).weapons ?? []).filter((w) => typeof w?.id === "string");
    const ranged = weapons.find(isRangedWeapon);
    const melee = weapons.find(isMeleeWeapon);
    if (best) {
      f.target = best.id;
      f.metres = Math.round(metres * 10) / 10;
    }
    const shoot = ranged && (!melee || (best !== undefined && metres > ADJACENT_METRES));
    const weapon = shoot ? ranged : (melee ?? weapons[0]);
    if (weapon) {
      f.weapon = weapon.id;
      f.ranged = Boolean(shoot);
    }
    const reactions = DEFAULT_REACTIONS[snapshot.ruleset];
    if (reactions) f.react = weapon !== undefined && !shoot && isMeleeWeapon(weapon) ? reactions.melee : reactions.ranged;
  }
  // A parry allocation declared this round (Critical, CR-PAR-01) names the foes by token: played
  // in the first round by their combatant ids.
  const byToken = new Map<string, string>();
  for (const c of snapshot.combatants) if (c.tokenId && fighters.some((f) => f.id === c.id)) byToken.set(c.tokenId, c.id);
  for (const { id, parry } of parries) {
    const f = fighters.find((x) => x.id === id)!;
    const mapped: Record<string, number> = {};
    let lost = false;
    for (const [token, ob] of Object.entries(parry)) {
      const foe = byToken.get(token);
      if (foe !== undefined && foe !== id && Number.isInteger(ob) && ob > 0) mapped[foe] = ob;
      else if (ob > 0) lost = true;
    }
    // OB moved against a foe the forecast leaves out would come back to the attack: the split is
    // not carried, nor one the rules now refuse (more OB than the combatant has, CR-PAR-01).
    const playable = !lost && Object.keys(mapped).length > 0 && binding.declaredParry!.accepts(f.core as never, mapped);
    if (playable) (firstRound ??= {})[id] = { ...firstRound[id], parry: mapped };
    else notCarried.push({ id, name: f.name, what: "parry" });
  }
  // The round's initiative, where the ruleset rolls one (a combat started, round 1 on): the first
  // round is played in the tracker's order; who has not rolled (yet, or not at all in a surprise
  // round, ZN-SUR-01) rolls in each fight as the rules allow, and is listed.
  const initiative: Record<string, number> = {};
  if (snapshot.round > 0 && binding.ruleset.initiativeTiming(snapshot.options) !== "none") {
    const rolled = new Map(snapshot.combatants.map((c) => [c.id, c.initiative]));
    for (const f of fighters) {
      const value = rolled.get(f.id);
      if (typeof value === "number" && Number.isFinite(value))
        initiative[f.id] = Math.max(COMMON_BOUNDS.initiative.min, Math.min(COMMON_BOUNDS.initiative.max, value));
      else notCarried.push({ id: f.id, name: f.name, what: "initiative" });
    }
  }
  // The distances between the fighters' tokens, for the drivers' nearest target and ranged ranges.
  const distances: Record<string, Record<string, number>> = {};
  for (const [i, f] of fighters.entries())
    for (const e of fighters.slice(i + 1)) {
      const d = metresBetween(snapshot, f.id, e.id);
      if (d !== undefined) (distances[f.id] ??= {})[e.id] = Math.min(COMMON_BOUNDS.rangeMetres.max, Math.round(d * 10) / 10);
    }
  if (new Set(fighters.map((f) => f.side)).size < 2)
    throw inputError("combatants", "FRAY.Error.Input.Sides", {}, "combatants on at least two sides");
  const file: EncounterFile = {
    name: snapshot.name.slice(0, COMMON_BOUNDS.nameLength.max) || "combat",
    ruleset: snapshot.ruleset,
    seed: 1,
    options: snapshot.options,
    maxRounds: snapshot.maxRounds ?? 20,
    combatants: fighters.map((f) => ({
      id: f.id,
      name: f.name.slice(0, COMMON_BOUNDS.nameLength.max) || f.id,
      side: f.side,
      ref: `${FORECAST_PACK}/${f.id}`,
      ...(f.weapon ? { tactics: { weapon: f.weapon } } : {}),
      ...(f.react ? { react: f.react } : {}),
      ...(f.spent ? { spent: f.spent } : {}),
    })),
    ...(firstRound ? { rounds: [firstRound] } : {}),
    ...(Object.keys(distances).length ? { distances } : {}),
    ...(Object.keys(initiative).length ? { initiative } : {}),
  };
  return { file, packs: [[FORECAST_PACK, docs]], combatants: fighters, left, notCarried, tactics: DEFAULT_TACTICS };
}

/** The `format` of a combat saved from the tracker's forecast ({@link forecastExport}). */
export const FORECAST_EXPORT_FORMAT = "fray-forecast";

/**
 * A combat as the tracker's forecast played it, saved for `npm run forecast`: the encounter file
 * (its `seed` the forecast's), the documents it names and the fights played. The CLI plays it with
 * those documents for its content, so that it gives the tracker's numbers for the same state and
 * seed (issue: the tracker's worker and the CLI agree).
 */
export interface ForecastExport {
  format: typeof FORECAST_EXPORT_FORMAT;
  file: EncounterFile;
  packs: [string, SourceDocument[]][];
  /** The fights the tracker played (the CLI's default `--runs` for this file). */
  runs: number;
}

/** The forecast's input with the fights and the seed the GM chose, as a file `npm run forecast` plays. */
export function forecastExport(input: ForecastInput, settings: { runs: number; seed: number }): ForecastExport {
  return { format: FORECAST_EXPORT_FORMAT, file: { ...input.file, seed: settings.seed }, packs: input.packs, runs: settings.runs };
}
