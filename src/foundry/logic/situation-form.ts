/**
 * The attack dialog's form, generated from the active ruleset's situation fields
 * (`Ruleset.situation`, src/rules/core/contract.ts) instead of being written per ruleset: the
 * template context of each field, and the form's values read back into the neutral request's
 * situation values. Form values arrive as strings; the core's validator of situation values checks
 * them at this boundary against each field's kind, choices and bounds. Pure: no Foundry globals.
 */
import type { SituationField, SituationValue, SituationValues } from "../../rules/core/contract.js";
import type { RulesetId } from "../../rules/core/types.js";
import { validateDialogSituation } from "../../rules/validate.js";

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
 * Reads one field's value from the form through the core's validator of situation values
 * (`validateDialogSituation`, src/rules/validate.ts), the one check of dialog and macro values:
 * texts become numbers there, an empty field takes its default.
 * @param raw what the form holds under the field's name (a checkbox: true/false or absent).
 * @param ruleset the ruleset whose bounds apply to a number field without its own.
 * @throws FrayError naming `situation.<id>` and what was expected, for a number that is not one
 *   or is outside the field's bounds, or a choice the field does not offer.
 */
export function readSituationValue(field: SituationField, raw: FormValue, ruleset: RulesetId): SituationValue {
  let value: unknown = raw;
  if (field.kind === "boolean") value = raw === true || raw === "on" || raw === "true";
  else if (field.kind === "multi") value = raw === undefined || typeof raw === "boolean" ? [] : Array.isArray(raw) ? raw : [raw];
  else if (Array.isArray(raw)) value = raw[0];
  if (value === undefined || value === "" || (typeof value === "boolean" && field.kind !== "boolean")) return field.default;
  const checked = validateDialogSituation(ruleset, [field], { [field.id]: value });
  return checked[field.id] ?? field.default;
}

/**
 * The situation values of one target from the form: each global field, then the target's own
 * per-target fields.
 * @param read the form's value under a control name.
 * @throws FrayError naming the first field whose value is refused.
 */
export function readSituation(
  fields: readonly SituationField[],
  read: (name: string) => FormValue,
  ruleset: RulesetId,
  targetId?: string,
): SituationValues {
  const out: SituationValues = {};
  for (const f of fields) out[f.id] = readSituationValue(f, read(inputName(f, targetId)), ruleset);
  return out;
}
