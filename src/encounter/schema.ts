import * as v from "valibot";
import { COMMON_BOUNDS, RULESET_BOUNDS } from "../rules/core/bounds.js";
import { bounded, check, choice, flag, inputError, list, mapping, safeName, strict, text, type Schema } from "../rules/core/validate.js";
import type { ActionCost } from "../rules/core/economy.js";
import type { RulesetId } from "../rules/core/types.js";
import { HITBOXES } from "../rules/hitbox/model.js";
import { DAMAGE_TYPES, SIZES, STANCES } from "../rules/zones/model.js";
import { MOVE_RATES, type MoveMode } from "../rules/zones/turn.js";
import { FIRING_MODES } from "../rules/zones/play.js";
import { MANEUVER_DIFFICULTY } from "../rules/critical/maneuver.js";
import * as ud10 from "../rules/ud10/schema.js";
import * as hitbox from "../rules/hitbox/schema.js";
import * as critical from "../rules/critical/schema.js";
import * as zones from "../rules/zones/schema.js";
import { validateRulesetId, validateRulesetOptions } from "../rules/validate.js";
import { DRIVERS } from "./drivers.js";
import type { EncounterDriver } from "./types.js";

/** What a combatant does in a round. */
export interface ActionSpec {
  /** Attack this combatant id. */
  attack?: string;
  /** Weapon id or name. */
  weapon?: string;
  /** Firing mode id (UD10 and Zones, whose weapons have firing modes). */
  mode?: string;
  /** Distance to the target in metres. */
  range?: number;
  /** Situational modifiers (ruleset-specific, e.g. UD10 `aim`, `cover`, `unanticipated`). */
  situation?: Record<string, unknown>;
  /** Spend the action aiming instead of attacking (UD-ATK-04). */
  aim?: boolean;
  /** Move this many metres (UD-MOV-01 to UD-MOV-03). */
  move?: number;
  /** Leave melee: flee (UD-OPT-01) or retreat (UD-OPT-02). */
  disengage?: "flee" | "retreat";
  /** Do nothing this round. */
  wait?: boolean;
  /** Ruleset-specific keys the driver accepts (`calledShot`, `burst`, `parry` ...). */
  [key: string]: unknown;
}

/** A combatant of an encounter: a compendium reference or inline stats, or both (stats override). */
export interface CombatantSpec {
  id: string;
  name?: string;
  side: string;
  /** NPC initiative group (UD-INI-02). */
  group?: string;
  /** `pack/name` of an Actor in the compendium sources. */
  ref?: string;
  /** Inline actor data (`system` fields), merged over the reference. */
  stats?: Record<string, unknown>;
  /** Extra items by `pack/name` reference. */
  items?: string[];
  /** The reaction this combatant declares when attacked, if it can (values per ruleset). */
  react?: string;
  /**
   * What it does in rounds without a declared action; what it leaves open (target, weapon) the
   * shared tactics choose (src/encounter/tactics.ts): by default the first standing enemy.
   */
  tactics?: ActionSpec;
  /**
   * What it already spent of the first round's economy, slot uses and pool points by id: a fight
   * taken up inside a round under way, as the tracker's forecast starts one (UD-ACT-01, HB-RND-01,
   * CR-AP-01, ZN-ACT-01).
   */
  spent?: ActionCost;
  /** Ruleset-specific keys the driver accepts. */
  extra: Record<string, unknown>;
}

/** An encounter file. */
export interface EncounterSpec {
  name: string;
  ruleset: RulesetId;
  seed: number;
  options: Record<string, boolean | number | string>;
  maxRounds: number;
  /** Scripted die faces used first, in order; the seeded roller takes over afterwards. */
  dice: number[];
  combatants: CombatantSpec[];
  /** Declared actions per round, by combatant id. */
  rounds: Record<string, ActionSpec>[];
  /**
   * Metres between combatants where they stand when the fight begins, by id and id (a pair given
   * once, in either order; the tracker's forecast gives the distances between tokens): the
   * tactics' `nearest` target and the range of a ranged attack whose round declares none. Empty
   * when the file gives none. Nobody's move changes them.
   */
  distances: Record<string, Record<string, number>>;
  /**
   * The first round's initiative by combatant id, rolled before the fight (the tracker's round
   * under way): the first round is played in that order, those without one rolling theirs as the
   * rules allow, and the order is kept after it where the ruleset keeps initiative (CR-INI-01,
   * UD-INI-03, ZN-INI-03). Empty when the file gives none.
   */
  initiative: Record<string, number>;
}

/** Absent, `null` (a YAML key left empty) or `schema`; `null` reads as absent. */
const maybe = <S extends Schema>(schema: S) =>
  v.pipe(
    v.nullish(schema),
    v.transform((x) => x ?? undefined),
  );

const SITUATIONS: Record<RulesetId, Schema> = {
  ud10: ud10.situationSchema,
  hitbox: hitbox.situationSchema,
  critical: critical.situationSchema,
  zones: zones.situationSchema,
};
const STATS: Record<RulesetId, Schema> = {
  ud10: ud10.statsSchema,
  hitbox: hitbox.statsSchema,
  critical: critical.statsSchema,
  zones: zones.statsSchema,
};

/**
 * Shapes of the drivers' own action and combatant keys where they are plain values (the
 * drivers check references and combinations themselves when they play); other keys pass as
 * they are to the driver.
 */
const EXTRA_KEYS: Record<string, Schema> = {
  // UD10, Zones: the weapon's firing mode; a mode the weapon lacks is refused when it attacks.
  mode: text(),
  aim: flag(),
  move: bounded(COMMON_BOUNDS.rangeMetres),
  disengage: choice(["flee", "retreat"] as const),
  // Hitbox (feet)
  called: choice(HITBOXES.filter((h) => h !== "torso")),
  shots: bounded(RULESET_BOUNDS.hitbox.shots),
  feet: bounded(RULESET_BOUNDS.hitbox.rangeFeet),
  walk: bounded(RULESET_BOUNDS.hitbox.rangeFeet),
  run: bounded(RULESET_BOUNDS.hitbox.rangeFeet),
  task: text(),
  first: v.union(
    [flag(), bounded({ min: 1, max: COMMON_BOUNDS.combatants.max, integer: true })],
    "\u0000fray:" + JSON.stringify({ key: "FRAY.Error.Input.First", data: {}, en: "expected true or an order number" }),
  ),
  // Zones
  moveMode: choice(Object.keys(MOVE_RATES) as MoveMode[]),
  difficult: flag(),
  stance: choice(STANCES),
  effort: bounded(RULESET_BOUNDS.zones.pool),
  regain: flag(),
  bullets: bounded({ ...RULESET_BOUNDS.zones.bullets, min: 2 }),
  area: choice(SIZES),
  damageType: choice(DAMAGE_TYPES),
  // Critical
  opposed: flag(),
  maneuver: strict({
    label: maybe(text()),
    bonus: maybe(bounded(RULESET_BOUNDS.critical.bonus)),
    difficulty: maybe(bounded({ ...MANEUVER_DIFFICULTY, integer: true })),
    concentration: maybe(flag()),
    shortfall: maybe(choice(["incomplete", "penalty", "gm"] as const)),
  }),
  attacks: bounded({ min: 0, max: 100, integer: true }),
  delay: safeName(),
  firstAid: safeName(),
  parry: mapping(safeName(), bounded({ ...RULESET_BOUNDS.critical.ob, min: 0 })),
  // Zones combatants
  surprised: flag(),
};

/** Keys whose shape differs by ruleset, over {@link EXTRA_KEYS}. */
const RULESET_KEYS: Partial<Record<RulesetId, Record<string, Schema>>> = {
  // Zones knows three firing modes (ZN-BST-01); UD10's weapons name their own (UD-RNG-02).
  zones: { mode: choice(FIRING_MODES) },
};

function actionSchema(ruleset: RulesetId, driver: EncounterDriver) {
  const entries: v.ObjectEntries = {
    attack: maybe(safeName()),
    weapon: maybe(text()),
    range: maybe(bounded(COMMON_BOUNDS.rangeMetres)),
    situation: maybe(SITUATIONS[ruleset]),
    wait: maybe(flag()),
  };
  for (const k of driver.actionKeys) if (!(k in entries)) entries[k] = maybe(RULESET_KEYS[ruleset]?.[k] ?? EXTRA_KEYS[k] ?? v.unknown());
  return strict(entries);
}

function encounterSchema(ruleset: RulesetId, driver: EncounterDriver) {
  const action = actionSchema(ruleset, driver);
  const combatant: v.ObjectEntries = {
    id: safeName(),
    name: maybe(text()),
    side: safeName(),
    group: maybe(safeName()),
    ref: maybe(text()),
    stats: maybe(STATS[ruleset]),
    items: maybe(list(text())),
    react: maybe(choice(driver.reactions)),
    tactics: maybe(action),
    spent: maybe(
      strict({
        slots: maybe(mapping(safeName(), bounded(COMMON_BOUNDS.spent))),
        pools: maybe(mapping(safeName(), bounded(COMMON_BOUNDS.spent))),
      }),
    ),
  };
  for (const k of driver.combatantKeys) combatant[k] = maybe(EXTRA_KEYS[k] ?? v.unknown());
  return strict({
    name: maybe(text()),
    ruleset: choice([ruleset]),
    seed: maybe(bounded(COMMON_BOUNDS.seed)),
    options: maybe(v.unknown()),
    maxRounds: maybe(bounded(COMMON_BOUNDS.maxRounds)),
    dice: maybe(list(bounded(COMMON_BOUNDS.dieFace), COMMON_BOUNDS.diceScript)),
    combatants: list(strict(combatant), COMMON_BOUNDS.combatants),
    rounds: maybe(list(v.nullable(mapping(safeName(), action, COMMON_BOUNDS.combatants)), { ...COMMON_BOUNDS.maxRounds, min: 0 })),
    distances: maybe(
      mapping(safeName(), mapping(safeName(), bounded(COMMON_BOUNDS.rangeMetres), COMMON_BOUNDS.combatants), COMMON_BOUNDS.combatants),
    ),
    initiative: maybe(mapping(safeName(), bounded(COMMON_BOUNDS.initiative), COMMON_BOUNDS.combatants)),
  });
}

const schemas = new Map<RulesetId, ReturnType<typeof encounterSchema>>();

/**
 * Checks a seed for the seeded dice roller (a file's `seed`, the CLI's `--seed`).
 * @throws FrayError naming `field`: not a whole number from 0 to 2^31 - 1.
 */
export function validateSeed(raw: unknown, field = "seed"): number {
  return check(bounded(COMMON_BOUNDS.seed), raw, field);
}

type Raw = Record<string, unknown>;
const isRecord = (x: unknown): x is Raw => typeof x === "object" && x !== null && !Array.isArray(x);

/** A combatant's `spent` with its absent parts left out. */
function spentOf(raw: Raw): ActionCost {
  return {
    ...(raw.slots ? { slots: raw.slots as Record<string, number> } : {}),
    ...(raw.pools ? { pools: raw.pools as Record<string, number> } : {}),
  };
}

/** An action with its absent keys left out and the driver's keys kept. */
function toAction(a: Raw): ActionSpec {
  return Object.fromEntries(Object.entries(a).filter(([, x]) => x !== undefined)) as ActionSpec;
}

/**
 * Validates a parsed encounter file (YAML or JSON) in one pass before anything plays: unknown
 * keys (with the nearest valid key suggested), wrong types, bad choices, negative or
 * out-of-range numbers (bounds in `RULESET_BOUNDS`/`COMMON_BOUNDS`), names that collide with
 * JavaScript object properties (`ruleset: constructor`, an id `__proto__`), option ids and values
 * against the ruleset's options, inline `stats` against the ruleset's stats, the seed, more
 * declared rounds than `maxRounds`, references to combatant ids, duplicate ids, a single side.
 * @throws FrayError naming the first field that is wrong and what it should hold.
 */
export function parseEncounter(raw: unknown): EncounterSpec {
  if (!isRecord(raw)) throw inputError("(file)", "FRAY.Error.Input.File", {}, "a mapping with name, ruleset, combatants");
  const ruleset = validateRulesetId(raw.ruleset ?? "ud10", "ruleset");
  const driver = DRIVERS[ruleset];
  if (!driver)
    throw inputError(
      "ruleset",
      "FRAY.Error.Input.Choice",
      { choices: Object.keys(DRIVERS).join(", ") },
      `one of ${Object.keys(DRIVERS).join(", ")}`,
    );
  let schema = schemas.get(ruleset);
  if (!schema) schemas.set(ruleset, (schema = encounterSchema(ruleset, driver)));
  const file = check(schema, { ...raw, ruleset });
  const options = validateRulesetOptions(ruleset, file.options ?? {}, "options") as EncounterSpec["options"];
  const maxRounds = file.maxRounds ?? 20;
  const declared = file.rounds ?? [];
  if (declared.length > maxRounds) {
    throw inputError(
      "rounds",
      "FRAY.Error.Input.RoundsBeyondMax",
      { count: declared.length, max: maxRounds },
      `at most maxRounds (${maxRounds}) rounds, not ${declared.length}`,
    );
  }
  const ids = new Set<string>();
  file.combatants.forEach((c, i) => {
    if (ids.has(c.id as string))
      throw inputError(
        `combatants[${i}].id`,
        "FRAY.Error.Input.Duplicate",
        { id: c.id as string },
        `an id not used before ("${c.id as string}" is taken)`,
      );
    ids.add(c.id as string);
    if (c.ref === undefined && c.stats === undefined)
      throw inputError(`combatants[${i}].ref`, "FRAY.Error.Input.RefOrStats", {}, "a compendium reference or inline stats");
  });
  const known = [...ids].join(", ");
  const checkAction = (a: Raw, path: string): ActionSpec => {
    if (typeof a.attack === "string" && !ids.has(a.attack))
      throw inputError(`${path}.attack`, "FRAY.Error.Input.Combatant", { ids: known }, `a combatant id (${known})`);
    return toAction(a);
  };
  const combatants = file.combatants.map((c, i): CombatantSpec => {
    const extra = Object.fromEntries(driver.combatantKeys.filter((k) => c[k] !== undefined).map((k) => [k, c[k]]));
    return {
      id: c.id as string,
      side: c.side as string,
      name: c.name as string | undefined,
      group: c.group as string | undefined,
      ref: c.ref as string | undefined,
      stats: c.stats as Raw | undefined,
      items: (c.items as string[] | undefined) ?? [],
      react: (c.react as string | undefined) ?? "none",
      tactics: c.tactics ? checkAction(c.tactics as Raw, `combatants[${i}].tactics`) : undefined,
      spent: c.spent ? spentOf(c.spent as Raw) : undefined,
      extra,
    };
  });
  if (new Set(combatants.map((c) => c.side)).size < 2)
    throw inputError("combatants", "FRAY.Error.Input.Sides", {}, "combatants on at least two sides");
  const rounds = declared.map((r, i) => {
    if (!r) return {};
    return Object.fromEntries(
      Object.entries(r).map(([id, a]) => {
        if (!ids.has(id)) throw inputError(`rounds[${i}].${id}`, "FRAY.Error.Input.Combatant", { ids: known }, `a combatant id (${known})`);
        return [id, checkAction(a as Raw, `rounds[${i}].${id}`)];
      }),
    );
  });
  const distances = (file.distances ?? {}) as Record<string, Record<string, number>>;
  for (const [a, row] of Object.entries(distances)) {
    if (!ids.has(a)) throw inputError(`distances.${a}`, "FRAY.Error.Input.Combatant", { ids: known }, `a combatant id (${known})`);
    for (const b of Object.keys(row))
      if (!ids.has(b) || b === a)
        throw inputError(`distances.${a}.${b}`, "FRAY.Error.Input.Combatant", { ids: known }, `another combatant id (${known})`);
  }
  const initiative = (file.initiative ?? {}) as Record<string, number>;
  for (const id of Object.keys(initiative))
    if (!ids.has(id)) throw inputError(`initiative.${id}`, "FRAY.Error.Input.Combatant", { ids: known }, `a combatant id (${known})`);
  return {
    name: (file.name as string | undefined) ?? "encounter",
    ruleset: driver.ruleset,
    seed: (file.seed as number | undefined) ?? 1,
    options,
    maxRounds,
    dice: (file.dice as number[] | undefined) ?? [],
    combatants,
    rounds,
    distances,
    initiative,
  };
}
