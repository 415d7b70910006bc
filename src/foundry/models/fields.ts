/**
 * Field builders shared by the data models. They read `foundry.data.fields` when called, so
 * they are only used inside `defineSchema`. Every number field takes its limits from a
 * {@link Bound} of the rules core's bounds table (`src/rules/core/bounds.ts`), the table the
 * core's validators check, so a sheet allows exactly what the core accepts.
 */
import type { Bound } from "../../rules/core/bounds.js";

/**
 * A number field limited by `bound`: `min` to `max`, whole numbers only when `bound.integer`;
 * never null.
 * @param bound the allowed values (a row of `RULESET_BOUNDS` or `COMMON_BOUNDS`).
 * @param initial the value of a new document, within `bound`.
 */
export function bounded(bound: Bound, initial: number) {
  return new foundry.data.fields.NumberField({
    required: true,
    nullable: false,
    integer: bound.integer,
    min: bound.min,
    max: bound.max,
    initial,
  });
}

/**
 * A number field limited by `bound` that may also be null (null when not set, the initial value).
 * @param bound the allowed values when set.
 */
export function boundedOrNull(bound: Bound) {
  return new foundry.data.fields.NumberField({
    required: true,
    nullable: true,
    integer: bound.integer,
    min: bound.min,
    max: bound.max,
    initial: null,
  });
}

/**
 * A value/max pool (HP, EP, hits, a hitbox's points).
 * @param initial the value and maximum of a new document.
 * @param max the allowed maxima.
 * @param value the allowed current values (may reach below 0 where the ruleset allows it).
 */
export function track(initial: number, max: Bound, value: Bound) {
  const { SchemaField } = foundry.data.fields;
  return new SchemaField({ value: bounded(value, initial), max: bounded(max, initial) });
}

/** A text field with a fixed set of choices. */
export function choice<const C extends readonly string[]>(choices: C, initial: C[number]) {
  return new foundry.data.fields.StringField({ required: true, blank: false, initial, choices: [...choices] });
}

/** The `ruleset` field every document carries, so content of another ruleset is recognized. */
export function rulesetField(initial: string) {
  return new foundry.data.fields.StringField({ required: true, blank: false, initial });
}

/** A schema of one field per id, each made by `make`. */
export function perId<const K extends readonly string[], F extends foundry.data.fields.DataField.Any>(ids: K, make: (id: K[number]) => F) {
  return new foundry.data.fields.SchemaField(Object.fromEntries(ids.map((id) => [id, make(id)])) as Record<K[number], F>);
}
