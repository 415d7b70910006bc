import { FrayError } from "../rules/core/errors.js";
import type { RulesetId } from "../rules/core/types.js";
import { DRIVERS } from "./drivers.js";

/** What a combatant does in a round. */
export interface ActionSpec {
  /** Attack this combatant id. */
  attack?: string;
  /** Weapon id or name. */
  weapon?: string;
  /** Firing mode id. */
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
  /** What it does in rounds without a declared action: attack the first standing enemy. */
  tactics?: ActionSpec;
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
}

type Raw = Record<string, unknown>;
const isRecord = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);

function fail(field: string, expected: string): never {
  throw new FrayError("FRAY.Error.Field", { field, expected }, `Field "${field}": expected ${expected}`);
}

/** `path.key`, or `key` alone at the top of the file. */
const at = (path: string, key: string) => (path ? `${path}.${key}` : key);

function optString(raw: Raw, key: string, path: string): string | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string" && typeof v !== "number") fail(at(path, key), "a text");
  return String(v);
}

function optNumber(raw: Raw, key: string, path: string): number | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) fail(at(path, key), "a number");
  return v;
}

const ACTION_KEYS = ["attack", "weapon", "mode", "range", "situation", "wait"];
const COMBATANT_KEYS = ["id", "name", "side", "group", "ref", "stats", "items", "react", "tactics"];

function parseAction(raw: unknown, path: string, ids: Set<string>, extraKeys: string[]): ActionSpec {
  if (!isRecord(raw)) fail(path, "an action such as { attack: <id>, weapon: <name> }");
  const allowed = [...ACTION_KEYS, ...extraKeys];
  for (const k of Object.keys(raw)) if (!allowed.includes(k)) fail(`${path}.${k}`, `one of ${allowed.join(", ")}`);
  const attack = optString(raw, "attack", path);
  if (attack !== undefined && !ids.has(attack)) fail(`${path}.attack`, `a combatant id (${[...ids].join(", ")})`);
  const disengage = optString(raw, "disengage", path);
  if (disengage !== undefined && disengage !== "flee" && disengage !== "retreat") fail(`${path}.disengage`, "flee or retreat");
  if (raw.situation !== undefined && !isRecord(raw.situation)) fail(`${path}.situation`, "an object");
  const range = optNumber(raw, "range", path);
  if (range !== undefined && range < 0) fail(`${path}.range`, "metres, 0 or more");
  const move = optNumber(raw, "move", path);
  if (move !== undefined && move < 0) fail(`${path}.move`, "metres, 0 or more");
  const extra = Object.fromEntries(Object.entries(raw).filter(([k]) => !ACTION_KEYS.includes(k)));
  return {
    ...extra,
    attack,
    weapon: optString(raw, "weapon", path),
    mode: optString(raw, "mode", path),
    range,
    situation: raw.situation as Raw | undefined,
    aim: raw.aim === undefined ? undefined : Boolean(raw.aim),
    move,
    disengage: disengage as ActionSpec["disengage"],
    wait: raw.wait === undefined ? undefined : Boolean(raw.wait),
  };
}

/**
 * Validates a parsed encounter file (YAML or JSON).
 * @throws FrayError `FRAY.Error.Field` naming the first field that is wrong.
 */
export function parseEncounter(raw: unknown): EncounterSpec {
  if (!isRecord(raw)) fail("(file)", "a mapping with name, ruleset, combatants");
  const ruleset = optString(raw, "ruleset", "") ?? "ud10";
  const driver = DRIVERS[ruleset as RulesetId];
  if (!driver) fail("ruleset", `one of ${Object.keys(DRIVERS).join(", ")}`);
  const seed = optNumber(raw, "seed", "") ?? 1;
  if (!Number.isInteger(seed)) fail("seed", "an integer");
  const options = raw.options ?? {};
  if (!isRecord(options)) fail("options", "a mapping of option ids to values");
  for (const [k, v] of Object.entries(options)) {
    if (!["boolean", "number", "string"].includes(typeof v)) fail(`options.${k}`, "true/false, a number or a text");
  }
  const maxRounds = optNumber(raw, "maxRounds", "") ?? 20;
  if (!Number.isInteger(maxRounds) || maxRounds < 1 || maxRounds > 200) fail("maxRounds", "an integer from 1 to 200");
  const dice = raw.dice ?? [];
  if (!Array.isArray(dice) || dice.some((d) => !Number.isInteger(d) || (d as number) < 1)) fail("dice", "a list of die faces (whole numbers from 1)");
  const list = raw.combatants;
  if (!Array.isArray(list) || list.length < 2) fail("combatants", "a list of at least two combatants");
  const ids = new Set<string>();
  const combatants = list.map((c: unknown, i): CombatantSpec => {
    const path = `combatants[${i}]`;
    if (!isRecord(c)) fail(path, "a mapping");
    const id = optString(c, "id", path) ?? fail(`${path}.id`, "an id");
    if (ids.has(id)) fail(`${path}.id`, `an id not used before ("${id}" is taken)`);
    ids.add(id);
    const side = optString(c, "side", path) ?? fail(`${path}.side`, "a side name (players, npcs ...)");
    if (c.ref === undefined && c.stats === undefined) fail(`${path}.ref`, "a compendium reference or inline stats");
    if (c.stats !== undefined && !isRecord(c.stats)) fail(`${path}.stats`, "a mapping of actor data");
    const items = c.items ?? [];
    if (!Array.isArray(items) || items.some((x) => typeof x !== "string")) fail(`${path}.items`, "a list of pack/name references");
    const react = optString(c, "react", path) ?? "none";
    if (!driver.reactions.includes(react)) fail(`${path}.react`, driver.reactions.join(", "));
    const allowed = [...COMBATANT_KEYS, ...driver.combatantKeys];
    for (const k of Object.keys(c)) if (!allowed.includes(k)) fail(`${path}.${k}`, `one of ${allowed.join(", ")}`);
    return {
      id,
      side,
      name: optString(c, "name", path),
      group: optString(c, "group", path),
      ref: optString(c, "ref", path),
      stats: c.stats as Raw | undefined,
      items: items as string[],
      react: react as CombatantSpec["react"],
      tactics: undefined,
      extra: Object.fromEntries(Object.entries(c).filter(([k]) => !COMBATANT_KEYS.includes(k))),
    };
  });
  // Tactics are actions too; parse them once every id is known.
  list.forEach((c: Raw, i: number) => {
    if (c.tactics !== undefined) combatants[i]!.tactics = parseAction(c.tactics, `combatants[${i}].tactics`, ids, driver.actionKeys);
  });
  if (new Set(combatants.map((c) => c.side)).size < 2) fail("combatants", "combatants on at least two sides");
  const roundsRaw = raw.rounds ?? [];
  if (!Array.isArray(roundsRaw)) fail("rounds", "a list of rounds");
  const rounds = roundsRaw.map((r: unknown, i) => {
    const path = `rounds[${i}]`;
    if (r === null) return {};
    if (!isRecord(r)) fail(path, "a mapping of combatant ids to actions");
    return Object.fromEntries(
      Object.entries(r).map(([id, a]) => {
        if (!ids.has(id)) fail(`${path}.${id}`, `a combatant id (${[...ids].join(", ")})`);
        return [id, parseAction(a, `${path}.${id}`, ids, driver.actionKeys)];
      }),
    );
  });
  return {
    name: optString(raw, "name", "") ?? "encounter",
    ruleset: driver.ruleset,
    seed,
    options: options as EncounterSpec["options"],
    maxRounds,
    dice: dice as number[],
    combatants,
    rounds,
  };
}
