/**
 * Source migrations of UD10's actor and item data. Pure: no Foundry globals, so the data models
 * call these from `migrateData` and the tests run them on compendium sources directly. Every
 * migration rewrites older or looser shapes into the shape the data model stores and keeps
 * every value it does not understand; it only reshapes the keys present, since `migrateData`
 * also sees the partial data of updates.
 */
import { ATTRIBUTES, SKILLS, ZONES } from "../../../rules/ud10/model.js";
import { isRecord, migrateTrack, numbers, numeric } from "../../models/migrate.js";

type Raw = Record<string, unknown>;

/** Upper-cases the keys of an attribute block (`str` → `STR`) without overwriting a present key. */
function upperKeys(raw: Raw, known: readonly string[]): void {
  for (const key of Object.keys(raw)) {
    const upper = key.toUpperCase();
    if (upper !== key && known.includes(upper) && raw[upper] === undefined) {
      raw[upper] = raw[key];
      delete raw[key];
    }
  }
}

/**
 * Migrates a UD10 `character` or `npc` system source in place and returns it: lower-case or
 * string attributes, a skill given as a bare rating (trained at it), numeric strings of a
 * rating, HP/EP given as numbers, a size in other letter case. A skill given as `{ rating }`
 * keeps `trained` absent: `migrateData` also sees the partial data of updates, where a new
 * rating must never set or reset `trained` (the schema's default fills it in a full source).
 */
export function migrateUd10Actor(source: Raw): Raw {
  if (isRecord(source.attributes)) {
    upperKeys(source.attributes, ATTRIBUTES);
    numbers(source.attributes, ATTRIBUTES);
  }
  if (isRecord(source.skills)) {
    for (const id of SKILLS) {
      const v = numeric(source.skills[id]);
      if (typeof v === "number") source.skills[id] = { rating: v, trained: true };
      else if (isRecord(v)) numbers(v, ["rating"]);
    }
  }
  for (const key of ["hp", "ep"]) if (key in source) source[key] = migrateTrack(source[key]);
  if (typeof source.size === "string") source.size = source.size.toLowerCase();
  return source;
}

/**
 * Migrates a UD10 `weapon` system source in place: a numeric damage becomes a damage code,
 * `thrown` weapons are `ranged` (they use Ranged Combat), numeric strings become numbers, and
 * modes stored as an object become a list and get an id. Whether it parries is never derived
 * here: `migrateData` also sees an update's partial data, where a new `kind` alone must not set
 * `canParry` ({@link defaultUd10Parry} fills a whole source).
 */
export function migrateUd10Weapon(source: Raw): Raw {
  if (typeof source.damage === "number") source.damage = String(source.damage);
  if (source.kind === "thrown") source.kind = "ranged";
  numbers(source, ["attackModifier", "penetration", "rangeIncrement"]);
  if (isRecord(source.modes)) source.modes = Object.entries(source.modes).map(([id, m]) => (isRecord(m) ? { id, ...m } : m));
  if (Array.isArray(source.modes)) {
    source.modes.forEach((m: unknown, i) => {
      if (!isRecord(m)) return;
      if (typeof m.damage === "number") m.damage = String(m.damage);
      numbers(m, ["attackModifier", "shots"]);
      if (m.id === undefined || m.id === null || m.id === "") m.id = `mode${i}`;
      if (m.label === undefined || m.label === null) m.label = String(m.id);
    });
  }
  return source;
}

/**
 * A whole UD10 `weapon` system source that never said whether it parries gets the core's default
 * in place (melee weapons can, ranged ones cannot; UD-REA-01), before the schema's initial value
 * would make every such weapon parry. Only for a whole source (created or loaded), never for an
 * update's partial data.
 */
export function defaultUd10Parry(source: Raw): Raw {
  if (source.canParry === undefined && typeof source.kind === "string") source.canParry = source.kind !== "ranged";
  return source;
}

/**
 * Migrates a UD10 `armor` system source in place: a zone given as a bare rating gets a buffer
 * of 0; numeric strings become numbers.
 */
export function migrateUd10Armor(source: Raw): Raw {
  if (isRecord(source.zones)) {
    for (const z of ZONES) {
      const v = numeric(source.zones[z]);
      if (typeof v === "number") source.zones[z] = { rating: v, buffer: 0 };
      else if (isRecord(v)) numbers(v, ["rating", "buffer"]);
    }
  }
  return source;
}
