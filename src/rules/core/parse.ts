/**
 * Reading untrusted document data (an Actor's or Item's `system`, a compendium source, an
 * encounter file) into the rules core's shapes. Every failure is a `FRAY.Error.Field` FrayError
 * naming the field path (`Guard.skills.melee.rating`), so bad input gets a clear, localized
 * error and nothing is silently changed.
 */
import { FrayError } from "./errors.js";
import type { Track } from "./types.js";

/** A plain record read from JSON-like data. */
export type Raw = Record<string, unknown>;

/** True for a plain object (not null, not an array). */
export function isRecord(v: unknown): v is Raw {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * True when a record has an own enumerable key: `Object.keys(o).length > 0` without the list
 * built (asked in tight paths: a request's situation, a combatant's parry, a file's distances).
 */
export function hasKeys(o: object): boolean {
  for (const key in o) if (Object.hasOwn(o, key)) return true;
  return false;
}

/**
 * The error for a field that cannot be used.
 * @param field the path of the field, e.g. `Rifle.effectiveRange`.
 * @param expected what the field should hold (shown after the field's name).
 */
export function fieldError(field: string, expected: string): FrayError {
  return new FrayError("FRAY.Error.Field", { field, expected }, `Field "${field}": expected ${expected}`);
}

const missing = (v: unknown) => v === undefined || v === null || v === "";

/**
 * Reads a number (numeric strings too); a missing value takes the fallback.
 * @throws FrayError naming `path.key` when it is missing without a fallback or not a number.
 */
export function num(raw: Raw, key: string, path: string, fallback?: number): number {
  const v = raw[key];
  if (missing(v)) {
    if (fallback !== undefined) return fallback;
    throw fieldError(`${path}.${key}`, "a number");
  }
  const n = typeof v === "string" ? Number(v) : v;
  if (typeof n !== "number" || !Number.isFinite(n)) throw fieldError(`${path}.${key}`, "a number");
  return n;
}

/**
 * Reads a whole number of at least `min`.
 * @throws FrayError naming `path.key` with `expected` (default "a whole number [from min]").
 */
export function int(raw: Raw, key: string, path: string, fallback?: number, min = -Infinity, expected?: string): number {
  const n = num(raw, key, path, fallback);
  if (!Number.isInteger(n) || n < min)
    throw fieldError(`${path}.${key}`, expected ?? (min > -Infinity ? `a whole number from ${min}` : "a whole number"));
  return n;
}

/**
 * Reads a text (numbers are turned into text); a missing or empty value takes the fallback.
 * @throws FrayError naming `path.key` when it is missing without a fallback or not a text.
 */
export function str(raw: Raw, key: string, path: string, fallback?: string): string {
  const v = raw[key];
  if (missing(v)) {
    if (fallback !== undefined) return fallback;
    if (v === "") return "";
    throw fieldError(`${path}.${key}`, "a text");
  }
  if (typeof v !== "string" && typeof v !== "number") throw fieldError(`${path}.${key}`, "a text");
  return String(v);
}

/**
 * Reads one of a fixed set of texts.
 * @throws FrayError naming `path.key` and the allowed values.
 */
export function oneOf<T extends string>(raw: Raw, key: string, path: string, values: readonly T[], fallback?: T): T {
  const v = str(raw, key, path, fallback);
  if (!(values as readonly string[]).includes(v)) throw fieldError(`${path}.${key}`, `one of ${values.join(", ")}`);
  return v as T;
}

/**
 * Reads true or false; a missing value takes the fallback.
 * @throws FrayError naming `path.key` for anything else.
 */
export function bool(raw: Raw, key: string, path: string, fallback: boolean): boolean {
  const v = raw[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== "boolean") throw fieldError(`${path}.${key}`, "true or false");
  return v;
}

/**
 * Reads a list; a missing value is an empty list.
 * @throws FrayError naming `path.key` when it is not a list.
 */
export function list(raw: Raw, key: string, path: string): unknown[] {
  const v = raw[key] ?? [];
  if (!Array.isArray(v)) throw fieldError(`${path}.${key}`, "a list");
  return v;
}

/** The identity every combatant carries: id, display name, character or NPC, and its side. */
export interface Identity {
  id: string;
  name: string;
  kind: "character" | "npc";
  group: string;
}

/**
 * Reads a combatant's identity: `name` (default `combatant`), `id` (default the name), `kind`
 * (`npc`, anything else a character) and `group` (default `npc` for an NPC, else `players`).
 * The rulesets' combatant parsers write these four fields out in their literal rather than
 * spread it: once a spread had met a few shapes, V8 gave every combatant it built a shape of its
 * own, and each read of a forecast's combatants met all of them (Zones 2.8% more instructions).
 * @throws FrayError naming `path.key` when one of them is not a text.
 */
export function parseIdentity(raw: Raw, path: string): Identity {
  const kind = str(raw, "kind", path, "character");
  const name = str(raw, "name", path, "combatant");
  return {
    id: str(raw, "id", path, name),
    name,
    kind: kind === "npc" ? "npc" : "character",
    group: str(raw, "group", path, kind === "npc" ? "npc" : "players"),
  };
}

/**
 * Reads a pool such as HP: `{ value, max }`, or a bare number meaning a full pool. A missing
 * value is a full pool of `fallback` when one is given.
 * @throws FrayError naming `path.key` when it is neither.
 */
export function track(raw: Raw, key: string, path: string, fallback?: number): Track {
  const v = raw[key];
  if ((v === undefined || v === null) && fallback !== undefined) return { value: fallback, max: fallback };
  if (typeof v === "number" && Number.isFinite(v)) return { value: v, max: v };
  if (!isRecord(v)) throw fieldError(`${path}.${key}`, "{ value, max }");
  const max = num(v, "max", `${path}.${key}`);
  return { value: num(v, "value", `${path}.${key}`, max), max };
}
