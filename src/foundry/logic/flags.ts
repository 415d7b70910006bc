/**
 * Writing a flag whose new value replaces the old one. Foundry's `setFlag` merges the value into
 * what is stored, as `foundry.utils.mergeObject` does: objects key by key, so a key the new value
 * leaves out stays (docs/foundry-assumptions.md, A17). A round's movement with the `paid` of an
 * earlier round, a declaration that keeps `sealed` or `action` of the last one, a pool reset to
 * `{}` that resets nothing: each is that merge. {@link replaceFlag} writes the new value with a
 * `-=name` deletion key for each key it leaves out, at every depth, so the stored flag ends up
 * equal to the value, in one update that every client sees as one change.
 */

/** A document with flags, as Foundry's `getFlag` and `setFlag` read and write them. */
export interface FlagDocument {
  getFlag?(scope: string, key: string): unknown;
  setFlag(scope: string, key: string, value: unknown): Promise<unknown>;
}

function isPlain(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The value that, merged into `stored` as Foundry merges an update, leaves exactly `next`: `next`
 * itself, with `-=name: null` beside it for each key of a stored object that `next`'s object at
 * the same place lacks. Arrays and other values replace what is stored and need nothing more.
 */
export function replacement(stored: unknown, next: unknown): unknown {
  if (!isPlain(stored) || !isPlain(next)) return next;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(stored)) if (!Object.hasOwn(next, key) && !key.startsWith("-=")) out[`-=${key}`] = null;
  for (const [key, value] of Object.entries(next)) out[key] = replacement(stored[key], value);
  return out;
}

/**
 * Sets `flags.fray.<key>` of a document to `value` whole (see {@link replacement}); the writer
 * needs the permission `setFlag` needs.
 */
export function replaceFlag(doc: FlagDocument, key: string, value: unknown): Promise<unknown> {
  return doc.setFlag("fray", key, replacement(doc.getFlag?.("fray", key), value));
}

/** True when a document can have its flags set (a stand-in or partial document may lack `setFlag`). */
export function canSetFlags<T extends object>(doc: T): doc is T & FlagDocument {
  return typeof (doc as Partial<FlagDocument>).setFlag === "function";
}
