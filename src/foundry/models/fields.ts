/**
 * Field builders shared by the data models. They read `foundry.data.fields` when called, so
 * they are only used inside `defineSchema`.
 */

/** A whole number field that is never null. */
export function integer(initial: number, options: { min?: number; max?: number } = {}) {
  return new foundry.data.fields.NumberField({ required: true, nullable: false, integer: true, initial, ...options });
}

/** A number field (decimals allowed) that is never null. */
export function decimal(initial: number, options: { min?: number; max?: number } = {}) {
  return new foundry.data.fields.NumberField({ required: true, nullable: false, initial, ...options });
}

/** A value/max pool (HP, EP, hits ...). */
export function track(initial: number) {
  const { SchemaField } = foundry.data.fields;
  return new SchemaField({ value: integer(initial), max: integer(initial, { min: 0 }) });
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
