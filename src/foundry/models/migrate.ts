/**
 * Source migrations of Fray's actor and item data (the generic helpers, Hitbox, Zones and
 * Critical; UD10's live in `rulesets/ud10/migrate.ts`), and the helpers that tell which
 * ruleset a document or compendium belongs to. Pure: no Foundry globals, so the data models call
 * these from `migrateData` and the tests run them on compendium sources directly.
 *
 * Every migration rewrites older or looser shapes into the shape the data model stores and
 * keeps every value it does not understand, so nothing a world holds is lost. The shorthand
 * forms mirror what the rules core's parsers accept (a skill given as a bare number is trained
 * at that rating; a pool given as a number is full).
 */
import { RULESETS, type RulesetChoice } from "../config.js";

type Raw = Record<string, unknown>;

/** True for a plain object. */
export function isRecord(v: unknown): v is Raw {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A numeric string (`"5"`) as a number; anything else unchanged. */
export function numeric(v: unknown): unknown {
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  return v;
}

/** Turns numeric strings among `keys` of `raw` into numbers. */
export function numbers(raw: Raw, keys: readonly string[]): void {
  for (const k of keys) if (k in raw) raw[k] = numeric(raw[k]);
}

/**
 * A value/max pool: a bare number becomes a full pool; numeric strings become numbers. A pool
 * given as `{ max }` alone keeps only that key: `migrateData` also sees the partial data of an
 * update, where `hp.max` alone is a change of the maximum, never a reset of the value.
 */
export function migrateTrack(v: unknown): unknown {
  const n = numeric(v);
  if (typeof n === "number") return { value: n, max: n };
  if (!isRecord(v)) return v;
  numbers(v, ["value", "max"]);
  return v;
}

/** Migrates a Hitbox actor system source in place: hitboxes given as numbers are full. */
export function migrateHitboxActor(source: Raw): Raw {
  if (isRecord(source.hitboxes)) for (const [k, v] of Object.entries(source.hitboxes)) source.hitboxes[k] = migrateTrack(v);
  return source;
}

/** Migrates a Zones actor system source in place: skills given as `{ ranks }`, pools given as numbers. */
export function migrateZonesActor(source: Raw): Raw {
  if (isRecord(source.skills)) {
    for (const [k, v] of Object.entries(source.skills)) if (isRecord(v) && "ranks" in v) source.skills[k] = numeric(v.ranks);
  }
  for (const key of ["hp", "speed", "effort"]) if (key in source) source[key] = migrateTrack(source[key]);
  return source;
}

/**
 * Migrates a Critical actor system source in place: hits given as a number are the current
 * hits (`{ value }`). The maximum is left alone, never taken from `physique.total`:
 * `migrateData` also sees the partial data of updates, and the core reads the maximum from the
 * total Physique anyway (CR-HIT-01).
 */
export function migrateCriticalActor(source: Raw): Raw {
  const hits = numeric(source.hits);
  if (typeof hits === "number") source.hits = { value: hits };
  else if (isRecord(hits)) numbers(hits, ["value", "max"]);
  return source;
}

/**
 * The ruleset a document's system data is for: its `ruleset` field, `ud10` when it has none
 * (UD10 content predates the field).
 */
export function rulesetOfSystem(system: unknown): RulesetChoice {
  const r = isRecord(system) ? system.ruleset : undefined;
  return typeof r === "string" && (RULESETS as readonly string[]).includes(r) ? (r as RulesetChoice) : "ud10";
}

/**
 * The ruleset of a compendium pack of this system, from its name (`hitbox-weapons` → `hitbox`);
 * undefined for packs that belong to no ruleset.
 */
export function rulesetOfPack(name: string): RulesetChoice | undefined {
  const prefix = name.split("-")[0] ?? "";
  return (RULESETS as readonly string[]).includes(prefix) ? (prefix as RulesetChoice) : undefined;
}

/**
 * The ruleset of a document given by UUID when it lives in one of this system's packs
 * (`Compendium.fray.hitbox-weapons.Item.x` → `hitbox`).
 */
export function rulesetOfUuid(uuid: string | null | undefined): RulesetChoice | undefined {
  const m = /^Compendium\.fray\.([^.]+)\./.exec(uuid ?? "");
  return m ? rulesetOfPack(m[1]!) : undefined;
}
