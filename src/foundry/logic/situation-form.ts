/**
 * The attack dialog's form, generated from the active ruleset's situation fields
 * (`Ruleset.situation`, src/rules/core/contract.ts) instead of being written per ruleset: the
 * template context of each field, and the form's values read back into the neutral request's
 * situation values. Form values arrive as strings; they are checked here, at the boundary,
 * against each field's kind, choices and bounds. Pure: no Foundry globals.
 */
import type { SituationField, SituationValue, SituationValues } from "../../rules/core/contract.js";
import { FrayError } from "../../rules/core/errors.js";

/** One field as the dialog template renders it. */
export interface SituationInput {
  /** Form control name: `situation.<id>`, or `situation.<targetId>.<id>` for a per-target field. */
  name: string;
  id: string;
  /** i18n keys; the template localizes them. */
  label: string;
  hint?: string;
  rule: string;
  kind: SituationField["kind"];
  isBoolean: boolean;
  isNumber: boolean;
  isChoice: boolean;
  isMulti: boolean;
  checked: boolean;
  value: string;
  min?: number;
  max?: number;
  step?: number;
  choices: { value: string; label: string; selected: boolean }[];
}

/** The form control name of a field, global or for one target. */
export function inputName(field: Pick<SituationField, "id" | "perTarget">, targetId?: string): string {
  return field.perTarget && targetId !== undefined ? `situation.${targetId}.${field.id}` : `situation.${field.id}`;
}

/** The template context of one field with its current value (its default when none is given). */
export function situationInput(field: SituationField, value: SituationValue | undefined, targetId?: string): SituationInput {
  const v = value ?? field.default;
  const selected = new Set(Array.isArray(v) ? v : [String(v)]);
  return {
    name: inputName(field, targetId),
    id: field.id,
    label: field.label,
    hint: field.hint,
    rule: field.rule,
    kind: field.kind,
    isBoolean: field.kind === "boolean",
    isNumber: field.kind === "number",
    isChoice: field.kind === "choice",
    isMulti: field.kind === "multi",
    checked: v === true,
    value: Array.isArray(v) ? v.join(",") : String(v),
    min: field.min,
    max: field.max,
    step: field.step,
    choices: (field.choices ?? []).map((c) => ({ value: c.value, label: c.label, selected: selected.has(c.value) })),
  };
}

/** A value of the form: a text, several texts (a multi-select), or a checkbox's state. */
export type FormValue = string | string[] | boolean | undefined;

/**
 * Reads one field's value from the form.
 * @param raw what the form holds under the field's name (a checkbox: true/false or absent).
 * @throws FrayError `FRAY.Error.Field` naming `situation.<id>` and what was expected, for a
 *   number that is not one or is outside the field's bounds, or a choice the field does not offer.
 */
export function readSituationValue(field: SituationField, raw: FormValue): SituationValue {
  const path = `situation.${field.id}`;
  const fail = (expected: string) => new FrayError("FRAY.Error.Field", { field: path, expected }, `${path}: expected ${expected}`);
  switch (field.kind) {
    case "boolean":
      return raw === true || raw === "on" || raw === "true";
    case "number": {
      const text = Array.isArray(raw) ? raw[0] : raw;
      if (text === undefined || text === "" || typeof text === "boolean") return field.default;
      const n = Number(String(text).trim().replace(",", "."));
      const bounds = `${field.min ?? "-\u221e"} \u2026 ${field.max ?? "\u221e"}`;
      if (!Number.isFinite(n)) throw fail(`a number (${bounds})`);
      if ((field.min !== undefined && n < field.min) || (field.max !== undefined && n > field.max)) throw fail(`a number (${bounds})`);
      if ((field.step ?? 1) >= 1 && !Number.isInteger(n)) throw fail(`a whole number (${bounds})`);
      return n;
    }
    case "choice": {
      const text = Array.isArray(raw) ? raw[0] : raw;
      if (text === undefined || typeof text === "boolean") return field.default;
      if (!(field.choices ?? []).some((c) => c.value === text)) throw fail((field.choices ?? []).map((c) => c.value).join(", "));
      return text;
    }
    case "multi": {
      const list = raw === undefined || typeof raw === "boolean" ? [] : Array.isArray(raw) ? raw : [raw];
      for (const v of list) if (!(field.choices ?? []).some((c) => c.value === v)) throw fail((field.choices ?? []).map((c) => c.value).join(", "));
      return [...list];
    }
  }
}

/**
 * The situation values of one target from the form: each global field, then the target's own
 * per-target fields.
 * @param read the form's value under a control name.
 * @throws FrayError naming the first field whose value is refused.
 */
export function readSituation(fields: readonly SituationField[], read: (name: string) => FormValue, targetId?: string): SituationValues {
  const out: SituationValues = {};
  for (const f of fields) out[f.id] = readSituationValue(f, read(inputName(f, targetId)));
  return out;
}
