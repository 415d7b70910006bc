/**
 * The plumbing every encounter driver shares: building a combatant's Actor source from its
 * encounter entry, the dice roller that records each roll for the summary, and the end of a
 * fight (the side-down check, the `end` event and the {@link EncounterResult}).
 */
import { ScriptedRoller, seededSource, type DiceRoller } from "../rules/core/dice/port.js";
import { FrayError } from "../rules/core/errors.js";
import { fieldError, hasKeys, isRecord, type Raw } from "../rules/core/parse.js";
import type { Economy } from "../rules/core/economy.js";
import type { RoundEngine, RoundEntry, RoundFighter } from "../rules/core/round.js";
import type { InitiativeRoll, RulesetOptions } from "../rules/core/ruleset.js";
import type { ActorSource, ItemSource } from "../rules/core/sources.js";
import type { RulesetId, VitalState } from "../rules/core/types.js";
import { inputError } from "../rules/core/validate.js";
import { validateCombatant } from "../rules/validate.js";
import type { EncounterContent, SourceDocument } from "./library.js";
import type { CombatantSpec, EncounterSpec } from "./schema.js";
import type { CombatantSummary, EncounterEvent, EncounterResult } from "./types.js";

/**
 * Refuses a field of an encounter file.
 * @param field the path of the field, e.g. `rounds[0].guard.shots`.
 * @param expected what the field should hold.
 * @throws FrayError `FRAY.Error.Field` with `{ field, expected }`, always.
 */
export function fail(field: string, expected: string): never {
  throw fieldError(field, expected);
}

/**
 * Deep-merges `over` into a copy of `base`: where both hold a plain object under a key the two
 * are merged, anything else in `over` (numbers, texts, lists, null) replaces the value of `base`.
 * Neither argument is changed. Used to lay an entry's inline `stats` over its actor's `system`.
 */
export function mergeSystem(base: Raw, over: Raw): Raw {
  const out: Raw = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = isRecord(v) && isRecord(b) ? mergeSystem(b, v) : v;
  }
  return out;
}

/** The rulesets' names as their seeds write them. */
const RULESET_NAMES: Record<RulesetId, string> = { ud10: "UD10", hitbox: "Hitbox", critical: "Critical", zones: "Zones" };

/** Ruleset-specific steps of {@link combatantSource}. */
export interface CombatantSourceHooks {
  /**
   * The driver's ruleset: a referenced actor marked with another ruleset (`system.ruleset`) is
   * refused naming `combatants[i].ref`, and the combatant built is checked against the ruleset's
   * combatant shape and bounds (`validateCombatant`), so that stats laid over a reference, or a
   * saved combat's own documents, play only within what a sheet allows.
   */
  ruleset?: RulesetId;
  /**
   * Checks the document `ref` names (called only when the entry has a `ref`), e.g. that it
   * belongs to the driver's ruleset; throws to refuse it. `field` is `combatants[i].ref`.
   */
  checkRef?(doc: SourceDocument, field: string): void;
  /**
   * Checks one extra item right after it is resolved; throws to refuse it. `field` is
   * `combatants[i].items[j]`.
   */
  checkItem?(doc: SourceDocument, field: string): void;
  /** The items the base document brings along; by default its `items` (none when unset). */
  baseItems?(base: SourceDocument): ItemSource[];
}

/**
 * The Actor source of encounter entry `index`: the compendium actor its `ref` names (or an empty
 * `character` named after the entry), renamed to the entry's `name` when it has one, with the
 * entry's inline `stats` deep-merged over its `system` ({@link mergeSystem}) and the entry's
 * `items` resolved and appended to its own items, in order.
 * @param hooks ruleset checks on the referenced actor and the extra items, and which of the base
 *   document's items to keep.
 * @throws FrayError `FRAY.Error.Reference` naming `combatants[i].ref` or `combatants[i].items[j]`
 *   for a reference that does not exist; whatever the hooks throw.
 */
export function combatantSource(
  spec: CombatantSpec,
  index: number,
  content: EncounterContent,
  hooks: CombatantSourceHooks = {},
): ActorSource {
  const path = `combatants[${index}]`;
  let base: SourceDocument = { name: spec.name ?? spec.id, type: "character", system: {}, items: [] };
  if (spec.ref) {
    base = content.resolve(spec.ref, `${path}.ref`);
    const marked = base.system?.ruleset;
    if (hooks.ruleset && marked !== undefined && marked !== hooks.ruleset)
      throw inputError(
        `${path}.ref`,
        "FRAY.Error.Input.RefRuleset",
        { ruleset: RULESET_NAMES[hooks.ruleset] },
        `an actor of the ${RULESET_NAMES[hooks.ruleset]} ruleset`,
      );
    hooks.checkRef?.(base, `${path}.ref`);
  }
  const items = hooks.baseItems ? hooks.baseItems(base) : ((base as ActorSource).items ?? []);
  const extra = (spec.items ?? []).map((ref, i) => {
    const item = content.resolve(ref, `${path}.items[${i}]`);
    hooks.checkItem?.(item, `${path}.items[${i}]`);
    return item;
  });
  return {
    ...base,
    name: spec.name ?? base.name,
    system: mergeSystem(base.system ?? {}, spec.stats ?? {}),
    items: [...items, ...extra],
  };
}

/**
 * Runs a ruleset's Actor parser on the source of encounter entry `index` and returns what it
 * builds. A `FRAY.Error.Field` style FrayError of the parser, whose field is relative to the
 * actor (`Guard.attributes.str`), is thrown again with the field of the file
 * (`combatants[0].stats.attributes.str`) and a message naming it; other errors pass unchanged.
 * @throws FrayError with the field rewritten as above; anything else `parse` throws.
 */
export function parseCombatantSource<C>(index: number, parse: () => C): C {
  try {
    return parse();
  } catch (error) {
    if (error instanceof FrayError && typeof error.data.field === "string") {
      const field = `combatants[${index}].stats.${error.data.field.replace(/^[^.[]*\.?/, "")}`.replace(/\.$/, "");
      throw new FrayError(error.key, { ...error.data, field }, `Field "${field}": expected ${String(error.data.expected)}`);
    }
    throw error;
  }
}

/**
 * Builds the combatant of encounter entry `index`: its Actor source ({@link combatantSource})
 * read by the ruleset's parser with the entry's `id` and its `group` (the `side` when unset).
 * @param fromActor the ruleset's Actor parser, e.g. `ud10CombatantFromActor`.
 * @param play with `combatants`, the entry is built once and the same (frozen) combatant returned
 *   to every later call for the same entry ({@link CombatantCache}).
 * @throws FrayError `FRAY.Error.Reference` for a missing reference, the parser's field errors
 *   rewritten to `combatants[i].stats.…` ({@link parseCombatantSource}), whatever the hooks throw.
 */
export function buildEntryCombatant<C>(
  spec: CombatantSpec,
  index: number,
  content: EncounterContent,
  fromActor: (actor: ActorSource, overrides: { id: string; group: string }) => C,
  hooks?: CombatantSourceHooks,
  play: PlayOptions = {},
): C {
  const cached = play.combatants?.get(spec);
  if (cached !== undefined) return cached as C;
  const actor = combatantSource(spec, index, content, hooks);
  const built = parseCombatantSource(index, () => {
    const c = fromActor(actor, { id: spec.id, group: spec.group ?? spec.side });
    // Checked, not replaced: the combatant plays as the parser built it.
    if (hooks?.ruleset) validateCombatant(hooks.ruleset, c, "combatant");
    return c;
  });
  if (!play.combatants) return built;
  return play.combatants.set(spec, built);
}

/**
 * How a driver plays one fight besides the file: what a forecast, which plays the same file
 * thousands of times, leaves out or reuses. Every fight plays the same rules and dice either way.
 */
export interface PlayOptions {
  /**
   * Keep no record a single fight's log needs and a forecast does not read: the result's `events`
   * hold only the `end` event and its `dice` come back empty, no roll is wrapped to be recorded,
   * and the exact odds of an attack (only shown in the log) are never computed.
   */
  quiet?: boolean;
  /** Combatants built once and shared by the fights that hold this cache ({@link CombatantCache}). */
  combatants?: CombatantCache;
}

/**
 * Combatants built from their encounter entries once and handed to every fight of a forecast:
 * the compendium sources are resolved, merged and validated once per entry instead of once per
 * fight. One cache serves the fights of one encounter file (its ruleset and options), keyed by
 * the file's combatant entries. Every object it holds is frozen ({@link freezeShared}), so that a
 * fight cannot change what the next fight starts from: the rules core's transitions build new
 * states (`withVitals`, `applyDamage`), and a change in place would throw a TypeError instead of
 * leaking into later fights. Its lists are left unfrozen for speed and, like every list of the
 * rules, never changed in place (the rules build the next list). The drivers start each fight
 * from a shallow unfrozen copy of each combatant (a frozen object slows V8's reads of the
 * others); its nested parts (lists, tracks, weapons) stay the shared ones.
 */
export class CombatantCache {
  private readonly built = new Map<CombatantSpec, unknown>();
  /** Each driver's set-up from the file alone ({@link fileSetup}), by the driver's key, with the file parts it was built from. */
  private readonly setups = new Map<object, { spec: Pick<EncounterSpec, "combatants" | "options" | "rounds">; value: unknown }>();

  /**
   * What a driver works out from the file alone (its options read, its actions parsed and
   * checked), built by `build` once and handed to every later fight of the forecast while the
   * file's combatants, options and rounds are the same objects (a forecast plays `withSeed(spec,
   * seed)`). `key` names the driver's set-up. The value is shared by the fights and frozen as
   * the combatants are ({@link freezeShared}), so that no fight can change what the next one
   * reads. An error `build` throws is not kept: the next fight throws it again.
   */
  fileSetup<T>(key: object, spec: EncounterSpec, build: () => T): T {
    const known = this.setups.get(key);
    if (known && known.spec.combatants === spec.combatants && known.spec.options === spec.options && known.spec.rounds === spec.rounds)
      return known.value as T;
    const value = freezeShared(build());
    this.setups.set(key, { spec: { combatants: spec.combatants, options: spec.options, rounds: spec.rounds }, value });
    return value;
  }

  /** The combatant built for the entry `spec`, if any. */
  get(spec: CombatantSpec): unknown {
    return this.built.get(spec);
  }

  /** Keeps `combatant` (frozen, {@link freezeShared}) as built for the entry `spec`, and returns it. */
  set<C>(spec: CombatantSpec, combatant: C): C {
    this.built.set(spec, freezeShared(combatant));
    return combatant;
  }
}

/**
 * The file's `distances` as a table by place in the file: the metres between the combatants at
 * places `i` and `j` at `[i * n + j]` (and `[j * n + i]`), `undefined` where the file gives none;
 * `undefined` for a file without distances. A pair given both ways takes the later one.
 */
export function distanceTable(spec: EncounterSpec): (number | undefined)[] | undefined {
  const given = spec.distances;
  // (Asked once per fight: a file without distances answers without a list built.)
  if (given === undefined || !hasKeys(given)) return undefined;
  const rows = Object.entries(given);
  const n = spec.combatants.length;
  const place = new Map(spec.combatants.map((c, i) => [c.id, i]));
  const table = new Array<number | undefined>(n * n).fill(undefined);
  for (const [a, row] of rows)
    for (const [b, metres] of Object.entries(row)) {
      const i = place.get(a);
      const j = place.get(b);
      if (i === undefined || j === undefined) continue;
      table[i * n + j] = table[j * n + i] = metres;
    }
  return table;
}

/**
 * The file's `initiative` as the round engine's first rolls (`RoundConfig.firstRolls`): one roll
 * per combatant it names, with its total, ties kept in the file's order (the tracker's turn
 * order); `undefined` for a file without initiative (rolled in the first round as ever).
 */
export function givenInitiative(spec: EncounterSpec): InitiativeRoll[] | undefined {
  const given = spec.initiative;
  if (given === undefined || !hasKeys(given)) return undefined;
  const n = spec.combatants.length;
  const rolls: InitiativeRoll[] = [];
  spec.combatants.forEach((c, i) => {
    if (!Object.hasOwn(given, c.id)) return;
    const total = given[c.id]!;
    // A roll given, not rolled: no formula, no dice (the log shows its total alone).
    const roll = { formula: "", total, dice: [], constant: total };
    rolls.push({ members: [c.id], check: { roll, natural: 0, modifiers: [], total }, total, tiebreak: [n - i] });
  });
  return rolls;
}

/**
 * The round engine's entries for the file's combatants, in the file's order, `build` giving each
 * one's combatant (by its entry and index). Built by push, not by `map`: V8's `map` hands back a
 * list of another kind once it is compiled into its caller than before, and code that had met only
 * the first kind (the engine's constructor in every ruleset) was thrown away and compiled again.
 */
export function engineEntries<C>(spec: EncounterSpec, build: (cs: CombatantSpec, index: number) => C): RoundEntry<C>[] {
  const entries: RoundEntry<C>[] = [];
  const combatants = spec.combatants;
  for (let i = 0; i < combatants.length; i++) {
    const cs = combatants[i]!;
    entries.push({ id: cs.id, side: cs.side, combatant: build(cs, i), spent: cs.spent });
  }
  return entries;
}

/**
 * A driver's set-up from the file alone: the forecast's, built once ({@link CombatantCache.fileSetup}),
 * or `build()` for a single fight.
 */
export function fileSetup<T>(key: object, spec: EncounterSpec, play: PlayOptions, build: () => T): T {
  return play.combatants ? play.combatants.fileSetup(key, spec, build) : build();
}

/**
 * Starts a fight from shallow unfrozen copies of the frozen combatants a forecast's cache shares
 * between its fights ({@link CombatantCache}): each fighter whose combatant is frozen takes
 * `copy(c)` (the ruleset's one-literal copy; the nested parts stay the shared ones). A frozen
 * object takes a shape of its own in V8, and the rules' reads of combatants, meeting it besides the
 * copies every transition builds, slow down. Fighters of a single fight (not frozen) are left alone.
 */
export function unfreezeStart<C>(fighters: Iterable<{ c: C }>, copy: (c: C) => C): void {
  for (const f of fighters) if (Object.isFrozen(f.c)) f.c = copy(f.c);
}

/**
 * Freezes every object reachable from `value`, each one's strings first swapped for their
 * interned copies ({@link internOwnStrings}); returns `value`. What a forecast's fights share is
 * frozen so (the cache's combatants and set-ups, Hitbox's starting vitals). Lists are walked but
 * left unfrozen: V8's optimizing compiler reads each item of a frozen list through a generic
 * lookup, and a forecast reads its combatants' lists (weapons, armor, conditions, held items)
 * on every attack, Hitbox's fights 7.7% slower for it. The rules never change a list in place
 * (they build the next one), and the forecast's tests check that fights leave the shared lists
 * as they were.
 */
export function freezeShared<T>(value: T, seen = new Set<object>()): T {
  if (value === null || typeof value !== "object" || Object.isFrozen(value) || seen.has(value)) return value;
  seen.add(value);
  internOwnStrings(value);
  if (!Array.isArray(value)) Object.freeze(value);
  for (const v of Object.values(value as object)) freezeShared(v, seen);
  return value;
}

/** A dice roller that records what it rolls, and the record. */
export interface RecordingRoller {
  /** Rolls through the underlying roller and appends each roll to `history`. */
  logged: DiceRoller;
  /** Each roll in order: its purpose, formula, the faces of all its dice and the total. */
  history: EncounterResult["dice"];
}

/**
 * The roller a driver rolls with: `dice` when given, else the file's scripted faces followed by
 * the roller seeded with the file's seed. Every roll is recorded for the summary's `dice`, unless
 * `play.quiet` (then `logged` is the roller itself and `history` stays empty). Throws nothing itself; a roll fails as the underlying roller does.
 */
export function recordingRoller(spec: EncounterSpec, dice?: DiceRoller, play: PlayOptions = {}): RecordingRoller {
  const roller = dice ?? new ScriptedRoller(spec.dice, seededSource(spec.seed));
  const history: EncounterResult["dice"] = [];
  if (play.quiet) return { logged: roller, history };
  const logged: DiceRoller = {
    async roll(formula, purpose) {
      const outcome = await roller.roll(formula, purpose);
      history.push({ purpose, formula: outcome.formula, faces: outcome.dice.flatMap((d) => d.results), total: outcome.total });
      return outcome;
    },
  };
  return { logged, history };
}

/** What the end of a fight needs to know of a combatant. */
export interface Fielded {
  spec: CombatantSpec;
  c: { name: string };
}

/** The `end` event of an encounter. */
export type EndEvent = Extract<EncounterEvent, { type: "end" }>;

/** The sides that still have a combatant who is not out. */
export function standingSides<F extends Fielded>(fighters: Iterable<F>, isOut: (f: F) => boolean): Set<string> {
  return new Set([...fighters].filter((f) => !isOut(f)).map((f) => f.spec.side));
}

/**
 * The `end` event when at most one side is standing after `round` (`side-down`, the winner
 * being that side, or null when none is left); `undefined` while the fight goes on.
 */
export function sideDown<F extends Fielded>(fighters: Iterable<F>, isOut: (f: F) => boolean, round: number): EndEvent | undefined {
  const sides = standingSides(fighters, isOut);
  return sides.size <= 1 ? { type: "end", round, winner: [...sides][0] ?? null, reason: "side-down" } : undefined;
}

/**
 * Each combatant's vitals as the round engine holds them now, by entry id: taken before the
 * first round, they are the `start` of {@link finishEncounter}'s summary.
 * @param vitals the ruleset's `vitals` (e.g. `ud10.vitals`).
 */
export function vitalsNow<C>(engine: Pick<RoundEngine<C, unknown>, "all">, vitals: (c: C) => VitalState): Map<string, VitalState> {
  const out = new Map<string, VitalState>();
  for (const f of engine.all()) out.set(f.id, vitals(f.combatant));
  return out;
}

/**
 * Closes an encounter: appends the `end` event to `events` (`ended`, or a `max-rounds` end at
 * `spec.maxRounds` with no winner when the fight did not end earlier) and returns the result
 * with each combatant's final vitals, its vitals at the start when `state.start` holds them
 * (from {@link vitalsNow}) and whether it is out.
 */
export function finishEncounter<F extends Fielded>(
  spec: EncounterSpec,
  options: RulesetOptions,
  ended: EndEvent | undefined,
  fighters: Iterable<F>,
  state: { vitals: (f: F) => VitalState; isOut: (f: F) => boolean; start?: ReadonlyMap<string, VitalState> },
  events: EncounterEvent[],
  dice: EncounterResult["dice"],
): EncounterResult {
  const end: EndEvent = ended ?? { type: "end", round: spec.maxRounds, winner: null, reason: "max-rounds" };
  events.push(end);
  const combatants: CombatantSummary[] = [];
  const start = state.start;
  for (const f of fighters) {
    const id = f.spec.id;
    // The same keys in the same order either way (the summary is printed as JSON): `start` only when known.
    const began = start?.get(id);
    combatants.push(
      began !== undefined || start?.has(id)
        ? { id, name: f.c.name, side: f.spec.side, vitals: state.vitals(f), start: began, out: state.isOut(f) }
        : { id, name: f.c.name, side: f.spec.side, vitals: state.vitals(f), out: state.isOut(f) },
    );
  }
  return {
    name: spec.name,
    ruleset: spec.ruleset,
    seed: spec.seed,
    options,
    rounds: end.round,
    winner: end.winner,
    combatants,
    events,
    dice,
  };
}

/** A driver's view of one entry of the core's round engine: reads and writes reach the engine. */
export interface FighterView<C> {
  spec: CombatantSpec;
  /** The engine's fighter it views (for `RoundEngine.isFighterOut`). */
  readonly fighter: RoundFighter<C>;
  /** The combatant the engine holds. */
  c: C;
  /** Its economy this round, as the engine holds it. */
  economy: Economy;
}

/**
 * The drivers' views of the round engine's combatants, by entry id: `c` and `economy` read and
 * write the engine's own state, so a driver's tactics and log see what the core's rules did.
 */
export function fighterViews<C>(
  specs: readonly CombatantSpec[],
  engine: Pick<RoundEngine<C, unknown>, "get">,
): Map<string, FighterView<C>> {
  const views = new Map<string, FighterView<C>>();
  for (const cs of specs) views.set(cs.id, new EngineView(cs, engine.get(cs.id)));
  return views;
}

/**
 * A {@link FighterView} onto one fighter of the round engine: its accessors live on the class, so
 * a fight's views cost one small object each, not four closures. The drivers' own fighters extend
 * it with what they keep per fighter.
 */
export class EngineView<C> implements FighterView<C> {
  constructor(
    readonly spec: CombatantSpec,
    /** The engine's fighter it views (for `RoundEngine.isFighterOut`). */
    readonly fighter: RoundFighter<C>,
  ) {}

  get c(): C {
    return this.fighter.combatant;
  }
  set c(c: C) {
    this.fighter.combatant = c;
  }
  get economy(): Economy {
    return this.fighter.economy;
  }
  set economy(e: Economy) {
    this.fighter.economy = e;
  }
}

/**
 * The copy of `s` that V8 keeps in its table of interned strings, the one every string literal of
 * the code with the same characters is: two interned strings are equal only when they are the same
 * string, so `===` and a `Map` lookup compare them at once. A string read from a file, a JSON
 * document or a structured clone is a copy of its own, and each comparison with an equal string
 * then compares their characters (about 5% of a quiet Hitbox fight's instructions, counted with
 * callgrind, before a forecast interned its strings). V8 interns every property name it stores;
 * this reads the name back. Equal to `s` in every case (an array index such as `"12"` comes back
 * as a new copy).
 */
export function intern(s: string): string {
  const named: Record<string, 0> = Object.create(null) as Record<string, 0>;
  named[s] = 0;
  for (const k in named) return k;
  return s;
}

/**
 * Swaps each string held by `value` itself (an array's items, an object's own enumerable fields)
 * for its interned copy ({@link intern}): equal strings, so nothing a reader can see changes.
 * Frozen objects are left as they are.
 */
export function internOwnStrings(value: object): void {
  if (Object.isFrozen(value)) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (typeof value[i] === "string") value[i] = intern(value[i] as string);
    return;
  }
  const record = value as Record<string, unknown>;
  for (const k of Object.keys(record)) {
    const v = record[k];
    if (typeof v === "string") record[k] = intern(v);
  }
}

/**
 * {@link internOwnStrings} on `value` and every object reachable from it that is not frozen (a
 * forecast's file, once, before its fights); returns `value`.
 */
export function internStrings<T>(value: T, seen = new Set<object>()): T {
  if (value === null || typeof value !== "object" || seen.has(value)) return value;
  seen.add(value);
  internOwnStrings(value);
  for (const v of Object.values(value as object)) internStrings(v, seen);
  return value;
}
