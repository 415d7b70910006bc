/**
 * The validation layer of every input boundary (encounter files, the macro and `game.fray` API,
 * dialog values, the rules core's public validators), built on valibot schemas. Every refusal is
 * a localized {@link FrayError} naming the field path (`combatants[1].stats.hp.max`) and what was
 * expected; an unknown key gets the nearest valid key suggested. Numbers are bounded by the
 * table in `./bounds.ts`. Texts become numbers only at the form and macro boundary
 * ({@link formNumber}); everywhere else a text where a number belongs is refused.
 */
import * as v from "valibot";
import { COMMON_BOUNDS, OPTION_BOUNDS, type Bound } from "./bounds.js";
import type { SituationField, SituationValues } from "./contract.js";
import { FrayError } from "./errors.js";
import type { OptionSpec, RulesetOptions } from "./ruleset.js";
import type { RuleId, RulesetId } from "./types.js";

/** Any valibot schema without async parts. */
export type Schema = v.GenericSchema;

/** What a refusal says: an i18n key under `FRAY.Error.Input`, its data and an English fallback. */
interface Refusal {
  key: string;
  data: Record<string, string | number>;
  en: string;
}

const MARK = "\u0000fray:";
const encode = (r: Refusal): string => MARK + JSON.stringify(r);
const decode = (message: string): Refusal | undefined =>
  message.startsWith(MARK) ? (JSON.parse(message.slice(MARK.length)) as Refusal) : undefined;

/** i18n keys of what a field should hold, used as `{expected}` in `FRAY.Error.Input.Type`. */
export const EXPECT = {
  number: "FRAY.Error.Expect.Number",
  integer: "FRAY.Error.Expect.Integer",
  text: "FRAY.Error.Expect.Text",
  boolean: "FRAY.Error.Expect.Boolean",
  object: "FRAY.Error.Expect.Object",
  list: "FRAY.Error.Expect.List",
  value: "FRAY.Error.Expect.Value",
} as const;

const EXPECT_EN: Record<string, string> = {
  [EXPECT.number]: "a number",
  [EXPECT.integer]: "a whole number",
  [EXPECT.text]: "a text",
  [EXPECT.boolean]: "true or false",
  [EXPECT.object]: "a mapping of named values",
  [EXPECT.list]: "a list",
  [EXPECT.value]: "a value",
};

const typeRefusal = (expected: string): Refusal => ({
  key: "FRAY.Error.Input.Type",
  data: { expected },
  en: `expected ${EXPECT_EN[expected] ?? expected}`,
});

/**
 * Names that collide with JavaScript object properties; never accepted as ids, sides, keys or a
 * ruleset, so that no lookup by name can reach the prototype.
 */
export const RESERVED_NAMES: ReadonlySet<string> = new Set([
  ...Object.getOwnPropertyNames(Object.prototype),
  "prototype",
  "__proto__",
  "constructor",
]);

/** True when `name` collides with a JavaScript object property (`constructor`, `__proto__` ...). */
export function isReservedName(name: string): boolean {
  return RESERVED_NAMES.has(name);
}

/**
 * Edit distance between two texts (optimal string alignment: insertions, deletions,
 * substitutions and swaps of two neighbouring characters each count 1; case is ignored), for
 * suggesting the key a typo meant.
 */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) =>
    Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[x.length]![y.length]!;
}

/**
 * The valid key nearest to an unknown one, when it is near enough to be a typo (at most a third
 * of its length changed, at least one character).
 * @returns the suggestion, or `undefined` when no key is close.
 */
export function nearestKey(key: string, keys: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of keys) {
    const d = editDistance(key.slice(0, 64), k);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return bestDistance <= Math.max(1, Math.floor(Math.max(key.length, 3) / 3)) ? best : undefined;
}

/** A text shown in a message, cut short so that a 10 MB input does not make a 10 MB message. */
export function shown(value: string, max = 64): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}

function unknownKey(key: string, keys: readonly string[]): Refusal {
  const suggestion = nearestKey(key, keys);
  if (suggestion)
    return {
      key: "FRAY.Error.Input.UnknownSuggest",
      data: { suggestion, allowed: keys.join(", ") },
      en: `unknown; did you mean "${suggestion}"?`,
    };
  return { key: "FRAY.Error.Input.Unknown", data: { allowed: keys.join(", ") }, en: `unknown; expected one of ${keys.join(", ")}` };
}

/**
 * A number within `bound`: finite, whole when the bound says so, from `min` to `max`. Refuses
 * texts, NaN and infinities.
 */
export function bounded(bound: Bound) {
  const range: Refusal = {
    key: bound.integer ? "FRAY.Error.Input.IntegerRange" : "FRAY.Error.Input.Range",
    data: { min: bound.min, max: bound.max },
    en: `expected ${bound.integer ? "a whole number" : "a number"} from ${bound.min} to ${bound.max}`,
  };
  const kind = encode(typeRefusal(bound.integer ? EXPECT.integer : EXPECT.number));
  return v.pipe(
    v.number(kind),
    v.finite(kind),
    v.check((n) => !bound.integer || Number.isInteger(n), encode(range)),
    v.minValue(bound.min, encode(range)),
    v.maxValue(bound.max, encode(range)),
  );
}

/** A text of at most `bound.max` characters (and at least `bound.min`). */
export function text(bound: Bound = COMMON_BOUNDS.nameLength) {
  const length: Refusal = {
    key: "FRAY.Error.Input.Length",
    data: { min: bound.min, max: bound.max },
    en: `expected a text of ${bound.min} to ${bound.max} characters`,
  };
  return v.pipe(v.string(encode(typeRefusal(EXPECT.text))), v.minLength(bound.min, encode(length)), v.maxLength(bound.max, encode(length)));
}

/** A name used as a key or id: a text within the name length that is not a reserved name. */
export function safeName(bound: Bound = COMMON_BOUNDS.nameLength) {
  return v.pipe(
    text(bound),
    v.rawCheck(({ dataset, addIssue }) => {
      if (dataset.typed && isReservedName(dataset.value)) {
        addIssue({
          message: encode({
            key: "FRAY.Error.Input.Reserved",
            data: { name: dataset.value },
            en: `"${dataset.value}" is a reserved name; choose another`,
          }),
        });
      }
    }),
  );
}

/** True or false. */
export function flag() {
  return v.boolean(encode(typeRefusal(EXPECT.boolean)));
}

/** One of a fixed set of texts. */
export function choice<const T extends readonly string[]>(values: T) {
  return v.picklist(
    values,
    encode({ key: "FRAY.Error.Input.Choice", data: { choices: values.join(", ") }, en: `expected one of ${values.join(", ")}` }),
  );
}

/** A list of `item`s, at most `bound.max` long. */
export function list<S extends Schema>(item: S, bound: Bound = COMMON_BOUNDS.listLength) {
  const length: Refusal = {
    key: "FRAY.Error.Input.Items",
    data: { min: bound.min, max: bound.max },
    en: `expected ${bound.min} to ${bound.max} entries`,
  };
  return v.pipe(
    v.array(item, encode(typeRefusal(EXPECT.list))),
    v.minLength(bound.min, encode(length)),
    v.maxLength(bound.max, encode(length)),
  );
}

/**
 * A mapping with exactly these keys: an unknown key is refused with the nearest valid key
 * suggested, a missing required key is named.
 */
export function strict<E extends v.ObjectEntries>(entries: E) {
  const keys = Object.keys(entries);
  return v.pipe(
    v.custom<Record<string, unknown>>((x) => typeof x === "object" && x !== null && !Array.isArray(x), encode(typeRefusal(EXPECT.object))),
    v.strictObject(entries, (issue) => {
      if (issue.expected === "never") return encode(unknownKey(String(issue.received).replace(/^"|"$/g, ""), keys));
      if (issue.received === "undefined" && issue.expected !== "Object")
        return encode({ key: "FRAY.Error.Input.Missing", data: {}, en: "is missing" });
      return encode(typeRefusal(EXPECT.object));
    }),
  );
}

/** A mapping whose keys are safe names checked by `key` and whose values are `value`s. */
export function mapping<K extends v.GenericSchema<string, string>, S extends Schema>(
  key: K,
  value: S,
  bound: Bound = COMMON_BOUNDS.listLength,
) {
  const tooMany: Refusal = {
    key: "FRAY.Error.Input.Items",
    data: { min: bound.min, max: bound.max },
    en: `expected ${bound.min} to ${bound.max} entries`,
  };
  return v.pipe(
    v.custom<Record<string, unknown>>((x) => typeof x === "object" && x !== null && !Array.isArray(x), encode(typeRefusal(EXPECT.object))),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const keys = Object.keys(dataset.value);
      if (keys.length > bound.max) addIssue({ message: encode(tooMany) });
      for (const k of keys) {
        if (isReservedName(k)) {
          addIssue({
            message: encode({ key: "FRAY.Error.Input.Reserved", data: { name: k }, en: `"${k}" is a reserved name; choose another` }),
            path: [{ type: "object", origin: "key", input: dataset.value, key: k, value: dataset.value[k] }],
          });
        }
      }
    }),
    v.record(key, value, encode(typeRefusal(EXPECT.object))),
  );
}

/** An optional value: absent (`undefined`) or `schema`. */
export const opt = <S extends Schema>(schema: S) => v.optional(schema);

/** The path of an issue as the encounter files and sheets write it: `rounds[0].mara.range`. */
export function issuePath(issue: v.BaseIssue<unknown>, root = ""): string {
  let out = root;
  for (const item of issue.path ?? []) {
    const k = item.key;
    if (typeof k === "number") out += `[${k}]`;
    else out += out ? `.${String(k)}` : String(k);
  }
  return out || "(input)";
}

/** The FrayError for one valibot issue, naming the field at `root` + the issue's path. */
export function issueError(issue: v.BaseIssue<unknown>, root = ""): FrayError {
  // A union names its own type; a sub-issue deeper inside the value says more. Its path is
  // relative to the union's value.
  const base = issue.path ?? [];
  const deeper = (issue.issues ?? []).reduce<v.BaseIssue<unknown> | undefined>(
    (best, i) => ((i.path?.length ?? 0) > (best?.path?.length ?? 0) ? i : best),
    undefined,
  );
  if (deeper?.path?.length) {
    const nested =
      base.length > 0 && deeper.path.length > base.length && base.every((p, i) => deeper.path![i]?.key === p.key)
        ? deeper.path
        : [...base, ...deeper.path];
    return issueError({ ...deeper, path: nested as typeof deeper.path }, root);
  }
  const field = issuePath(issue, root);
  let refusal = decode(issue.message);
  if (!refusal) {
    if (issue.received === "undefined") refusal = { key: "FRAY.Error.Input.Missing", data: {}, en: "is missing" };
    else if (issue.type === "number") refusal = typeRefusal(EXPECT.number);
    else if (issue.type === "string") refusal = typeRefusal(EXPECT.text);
    else if (issue.type === "boolean") refusal = typeRefusal(EXPECT.boolean);
    else if (issue.type === "array") refusal = typeRefusal(EXPECT.list);
    else if (issue.type === "object" || issue.type === "strict_object" || issue.type === "record") refusal = typeRefusal(EXPECT.object);
    else
      refusal = {
        key: "FRAY.Error.Input.Type",
        data: { expected: issue.expected ?? EXPECT.value },
        en: `expected ${issue.expected ?? "a value"}`,
      };
  }
  const expected = typeof refusal.data.expected === "string" ? refusal.data.expected : refusal.en.replace(/^expected /, "");
  return new FrayError(refusal.key, { ...refusal.data, field, expected }, `Field "${field}": ${refusal.en}`);
}

/**
 * Checks `raw` against `schema` and returns the parsed value.
 * @param root the path of `raw` in its document, prefixed to every field named (`combatants[0]`).
 * @throws FrayError naming the first field that is wrong and what was expected.
 */
export function check<S extends Schema>(schema: S, raw: unknown, root = ""): v.InferOutput<S> {
  const result = v.safeParse(schema, raw, { abortEarly: true, abortPipeEarly: true });
  if (result.success) return result.output;
  throw issueError(result.issues[0], root);
}

/**
 * A number typed into a form or given by a macro: a number as it is, or a text holding exactly a
 * decimal number (`"10"`, `" -2.5 "`); an empty text is `undefined`. Anything else comes back
 * unchanged so that the schema refuses it by its type.
 */
export function formNumber(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const t = value.trim();
  if (t === "") return undefined;
  return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t) ? Number(t) : value;
}

/** The number bound of a situation field (its `min`/`max`/`step`), or the modifier bound given. */
function fieldBound(field: SituationField, fallback: Bound): Bound {
  const integer = field.step === undefined ? fallback.integer : Number.isInteger(field.step);
  return { min: field.min ?? fallback.min, max: field.max ?? fallback.max, integer };
}

/**
 * The schema of an attack's situation values for the fields a ruleset offers
 * (`Ruleset.situation`): exactly those ids, each of its kind, numbers within the field's bounds.
 * @param modifier the bound of a number field without its own `min`/`max`.
 */
export function situationValuesSchema(fields: readonly SituationField[], modifier: Bound) {
  const entries: v.ObjectEntries = {};
  for (const f of fields) {
    const values = (f.choices ?? []).map((c) => c.value);
    const s =
      f.kind === "boolean"
        ? flag()
        : f.kind === "number"
          ? bounded(fieldBound(f, modifier))
          : f.kind === "choice"
            ? choice(values)
            : list(choice(values), { min: 0, max: values.length, integer: true });
    entries[f.id] = opt(s);
  }
  return strict(entries);
}

/**
 * Checks an attack's situation values against the fields a ruleset offers.
 * @param form true at the form and macro boundary: numeric texts (`"10"`) become numbers, `"true"`
 *   and `"false"` booleans, empty texts are left out.
 * @throws FrayError naming `situation.<id>` and what it should hold.
 */
export function validateSituationValues(
  fields: readonly SituationField[],
  raw: unknown,
  modifier: Bound,
  form = false,
  root = "situation",
): SituationValues {
  let input = raw ?? {};
  if (form && typeof input === "object" && input !== null && !Array.isArray(input)) {
    const kinds = new Map(fields.map((f) => [f.id, f.kind]));
    input = Object.fromEntries(
      Object.entries(input as Record<string, unknown>)
        .map(([k, x]): [string, unknown] => {
          const kind = kinds.get(k);
          if (kind === "number") return [k, formNumber(x)];
          if (kind === "boolean" && (x === "true" || x === "false")) return [k, x === "true"];
          if (kind === "choice" && x === "") return [k, undefined];
          return [k, x];
        })
        .filter(([, x]) => x !== undefined),
    );
  }
  return check(situationValuesSchema(fields, modifier), input, root) as SituationValues;
}

/**
 * The schema of a ruleset's option values: only the option ids it offers, each of its type,
 * choices among its choices, numbers within `OPTION_BOUNDS` (or the common option bound).
 */
export function optionsSchema(specs: readonly OptionSpec[], ruleset: RulesetId) {
  const entries: v.ObjectEntries = {};
  for (const o of specs) {
    const s =
      o.type === "boolean"
        ? flag()
        : o.type === "number"
          ? bounded(OPTION_BOUNDS[ruleset][o.id] ?? COMMON_BOUNDS.option)
          : choice(o.choices ?? []);
    entries[o.id] = opt(s);
  }
  return strict(entries);
}

/**
 * Checks a ruleset's option values (an encounter file's `options`, a macro's options).
 * @throws FrayError naming `options.<id>`: an unknown option (with the nearest id suggested), a
 *   wrong type, a choice not offered, a number out of bounds.
 */
export function validateOptions(specs: readonly OptionSpec[], ruleset: RulesetId, raw: unknown, root = "options"): RulesetOptions {
  return check(optionsSchema(specs, ruleset), raw ?? {}, root) as RulesetOptions;
}

/**
 * A pool `{ value, max }`: `max` within `maxBound`, `value` within `valueBound` and at most `max`.
 */
export function track(maxBound: Bound, valueBound: Bound) {
  return v.pipe(
    strict({ value: bounded(valueBound), max: bounded(maxBound) }),
    v.rawCheck(({ dataset, addIssue }) => {
      if (dataset.typed && dataset.value.value > dataset.value.max) {
        addIssue({
          message: encode({
            key: "FRAY.Error.Input.AtMost",
            data: { max: dataset.value.max },
            en: `expected at most ${dataset.value.max} (the maximum)`,
          }),
          path: [{ type: "object", origin: "value", input: dataset.value, key: "value", value: dataset.value.value }],
        });
      }
    }),
  );
}

/**
 * A refusal of one field that a schema cannot express (a reference to a combatant that does not
 * exist, more declared rounds than `maxRounds`).
 * @param key an i18n key under `FRAY.Error.Input`; `data` fills it, `en` is the English fallback.
 */
export function inputError(field: string, key: string, data: Record<string, string | number>, en: string): FrayError {
  return new FrayError(key, { ...data, field, expected: en }, `Field "${field}": ${en}`);
}

const finite = bounded({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, integer: false });

/** A rule ID such as `HB-ATK-03`. */
export const ruleIdSchema = v.pipe(
  text(),
  v.regex(
    /^(UD|HB|CR|ZN)-[A-Z0-9]+-[A-Z0-9]+$/,
    encode({ key: "FRAY.Error.Input.RuleId", data: {}, en: "expected a rule ID such as HB-ATK-03" }),
  ),
  v.transform((s) => s as RuleId),
);

/** One itemized modifier line. */
export const modifierSchema = strict({
  label: text(),
  value: finite,
  rule: ruleIdSchema,
  data: opt(mapping(text(), v.union([v.string(), v.number()], encode(typeRefusal(EXPECT.value))))),
});

/** A check as rolled: the roll, its natural total, modifiers and total (a reaction rolled before). */
export const checkResultSchema = strict({
  roll: strict({
    formula: text(),
    total: finite,
    dice: list(
      strict({
        faces: bounded({ min: 1, max: 1000, integer: true }),
        results: list(bounded({ min: 1, max: 1000, integer: true }), COMMON_BOUNDS.diceScript),
      }),
    ),
    constant: finite,
    native: opt(v.unknown()),
  }),
  natural: finite,
  modifiers: list(modifierSchema),
  total: finite,
});

/**
 * A pool as stored on an actor or written in an encounter file's `stats`: a number (a full pool)
 * or `{ value, max }` with either part left out; `max` within `maxBound`, `value` within
 * `valueBound` and at most `max` when both are given.
 */
export function storedTrack(maxBound: Bound, valueBound: Bound) {
  const pool = strict({ value: opt(bounded(valueBound)), max: opt(bounded(maxBound)) });
  return v.union(
    [
      bounded(maxBound),
      v.pipe(
        pool,
        v.rawCheck(({ dataset, addIssue }) => {
          const t = dataset.typed ? dataset.value : undefined;
          if (t && t.value !== undefined && t.max !== undefined && t.value > t.max) {
            addIssue({
              message: encode({ key: "FRAY.Error.Input.AtMost", data: { max: t.max }, en: `expected at most ${t.max} (the maximum)` }),
              path: [{ type: "object", origin: "value", input: t, key: "value", value: t.value }],
            });
          }
        }),
      ),
    ],
    encode({
      key: "FRAY.Error.Input.Pool",
      data: { min: maxBound.min, max: maxBound.max },
      en: `expected a number from ${maxBound.min} to ${maxBound.max} or { value, max }`,
    }),
  );
}

/** A mapping with some of these keys, each optional; unknown keys are refused with a suggestion. */
export function some<K extends string, S extends Schema>(keys: readonly K[], schema: S) {
  return strict(Object.fromEntries(keys.map((k) => [k, opt(schema)])) as Record<K, v.OptionalSchema<S, undefined>>);
}

/** The fields every actor's `system` may hold whatever its ruleset: ruleset, group, biography, conditions. */
export const commonStatsEntries = {
  ruleset: opt(choice(["ud10", "hitbox", "critical", "zones"] as const)),
  group: opt(safeName()),
  biography: opt(text(COMMON_BOUNDS.textLength)),
  conditions: opt(list(text())),
};

/**
 * Type-level checks that a schema and the core's interface stay one shape: `Is<A, B>` is `true`
 * only when each is assignable to the other, `Fits<A, B>` when the schema's output fits the
 * interface. A ruleset's schema module lists them in a tuple typed `true`, so a drift fails to
 * compile.
 */
export type Is<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export type Fits<A, B> = [A] extends [B] ? true : false;
