/**
 * A model of the part of Foundry VTT v13's data layer that play depends on: how an update's
 * changes are expanded, differenced against the stored source and merged into it, and what the
 * update hooks then receive. Each function follows a public API page, cited beside it; what the
 * pages leave open is modelled the strict way (a test that passes only because the model is more
 * lenient than Foundry would prove nothing) and listed in docs/foundry-assumptions.md.
 *
 * - `expandObject`: https://foundryvtt.com/api/functions/foundry.utils.expandObject.html
 * - `mergeObject`: https://foundryvtt.com/api/functions/foundry.utils.mergeObject.html
 * - `diffObject`: https://foundryvtt.com/api/functions/foundry.utils.diffObject.html
 * - `isDeletionKey`: https://foundryvtt.com/api/functions/foundry.utils.isDeletionKey.html
 * - the update hooks: https://foundryvtt.com/api/functions/hookEvents.updateDocument.html
 *   ("changed: Differential data that was used to update the document") and
 *   https://foundryvtt.com/api/functions/hookEvents.preUpdateDocument.html
 * - the update operation's `diff` and `recursive`:
 *   https://foundryvtt.com/api/interfaces/foundry.abstract.types.DatabaseUpdateOperation.html
 */

/** A plain object of document data. */
export type Dict = Record<string, unknown>;

/** True for a plain object (not an array, not null, not a class instance). */
export function isPlainObject(value: unknown): value is Dict {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  // Any realm's Object.prototype (structuredClone makes objects of the outer realm under vitest).
  const proto = Object.getPrototypeOf(value) as object | null;
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/**
 * `foundry.utils.isDeletionKey`: a key "used for certain deletion or forced replacement
 * operations", `-=name` (delete `name`) or `==name` (replace `name` whole, v13).
 */
export function isDeletionKey(key: string): boolean {
  return key.startsWith("-=") || key.startsWith("==");
}

/**
 * `foundry.utils.expandObject`: an object of dotted keys (`"flags.fray.moved": 1`) as nested
 * objects (`{ flags: { fray: { moved: 1 } } }`); nested objects are expanded too.
 */
export function expandObject(data: Dict): Dict {
  const out: Dict = {};
  for (const [key, raw] of Object.entries(data)) {
    const value = isPlainObject(raw) ? expandObject(raw) : raw;
    const parts = key.split(".");
    let node = out;
    for (const part of parts.slice(0, -1)) {
      if (!isPlainObject(node[part])) node[part] = {};
      node = node[part] as Dict;
    }
    const last = parts.at(-1)!;
    if (isPlainObject(value) && isPlainObject(node[last])) Object.assign(node[last] as Dict, value);
    else node[last] = value;
  }
  return out;
}

/** The options of {@link mergeObject}, as the mergeObject page lists them. */
export interface MergeOptions {
  /** Insert top-level keys the original does not have (default true). */
  insertKeys?: boolean;
  /** Insert nested keys the original does not have (default true). */
  insertValues?: boolean;
  /** Replace values the original has (default true). */
  overwrite?: boolean;
  /** Merge inner objects key by key (true, the default) or replace them whole. */
  recursive?: boolean;
  /** Apply `-=` deletions and `==` replacements (default false; document updates apply them). */
  performDeletions?: boolean;
}

/**
 * `foundry.utils.mergeObject(original, other, options)` in place: objects are merged key by key
 * (when `recursive`), every other value (arrays included) replaces what is there; with
 * `performDeletions`, `-=name` deletes `name` and `==name` sets `name` to the value whole.
 * @returns `original`, changed.
 */
export function mergeObject(original: Dict, other: Dict, options: MergeOptions = {}, depth = 0): Dict {
  const { insertKeys = true, insertValues = true, overwrite = true, recursive = true, performDeletions = false } = options;
  for (const [key, value] of Object.entries(other)) {
    if (performDeletions && key.startsWith("-=")) {
      delete original[key.slice(2)];
      continue;
    }
    if (performDeletions && key.startsWith("==")) {
      original[key.slice(2)] = structuredClone(value);
      continue;
    }
    const exists = Object.hasOwn(original, key);
    if (!exists) {
      const mayInsert = depth === 0 ? insertKeys : insertValues;
      if (!mayInsert) continue;
      // A new object is built by the same merge, so deletion keys inside it are applied, not stored.
      original[key] = isPlainObject(value)
        ? mergeObject({}, value, { ...options, insertKeys: true, insertValues: true }, depth + 1)
        : structuredClone(value);
      continue;
    }
    const current = original[key];
    if (recursive && isPlainObject(current) && isPlainObject(value)) mergeObject(current, value, options, depth + 1);
    else if (overwrite)
      original[key] = isPlainObject(value)
        ? mergeObject({}, value, { ...options, insertKeys: true, insertValues: true }, depth + 1)
        : structuredClone(value);
  }
  return original;
}

/** Deep equality of document data (plain objects, arrays, primitives). */
export function dataEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => dataEqual(v, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && dataEqual(a[k], b[k]));
  }
  return false;
}

/**
 * `foundry.utils.diffObject(original, other, { deletionKeys })`: the data of `other` that differs
 * from `original`. Inner objects are differenced key by key (an inner object with no difference
 * is left out), arrays and other values are kept whole when they differ. With `deletionKeys`, a
 * `-=name` key is kept only when `original` has `name` to delete; a `==name` key is always kept.
 */
export function diffObject(original: Dict, other: Dict, options: { deletionKeys?: boolean } = {}): Dict {
  const out: Dict = {};
  for (const [key, value] of Object.entries(other)) {
    if (options.deletionKeys && key.startsWith("-=")) {
      if (Object.hasOwn(original, key.slice(2))) out[key] = value;
      continue;
    }
    if (options.deletionKeys && key.startsWith("==")) {
      out[key] = value;
      continue;
    }
    const before = original[key];
    if (isPlainObject(before) && isPlainObject(value)) {
      const inner = diffObject(before, value, options);
      if (Object.keys(inner).length) out[key] = inner;
    } else if (!Object.hasOwn(original, key) || !dataEqual(before, value)) out[key] = value;
  }
  return out;
}

/** The options of {@link updateSource} that the update operation page documents. */
export interface UpdateOptions {
  /** Difference the changes against the stored data first (default true). */
  diff?: boolean;
  /** Merge inner objects (true, the default) or replace them whole. */
  recursive?: boolean;
}

/**
 * What a document update does to the stored source: the changes are expanded from dotted keys,
 * differenced against the source (unless `diff: false`), then merged into it with deletions
 * performed. The returned differential data is what the `update*` hooks receive as `changed`;
 * when it is empty nothing changed and Foundry fires no hook.
 * @param source the stored source data, changed in place.
 * @param changes the update's changes, dotted or nested.
 * @returns the differential data applied.
 */
export function updateSource(source: Dict, changes: Dict, options: UpdateOptions = {}): Dict {
  const expanded = expandObject(structuredClone(changes));
  const diff = options.diff === false ? expanded : diffObject(source, expanded, { deletionKeys: true });
  mergeObject(source, structuredClone(diff), { performDeletions: true, recursive: options.recursive !== false });
  return diff;
}

/** Reads a dotted path of document data. */
export function getProperty(source: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((node, key) => (isPlainObject(node) ? node[key] : undefined), source);
}

/**
 * What `setFlag(scope, key, value)` stores when `stored` is the flag's value now: the value
 * merged into it as the update merges it (objects key by key, arrays whole, `-=` keys deleting).
 * For stand-in documents that keep their flags in a plain object or a map.
 */
export function mergedFlag(stored: unknown, value: unknown): unknown {
  const source: Dict = stored === undefined ? {} : { value: structuredClone(stored) };
  updateSource(source, { value });
  return source.value;
}
