/**
 * The effect dialog's form as data: the values it shows and how the entered values become the
 * start of a timed effect (play/effects.ts `EffectStart`), the same for every ruleset. Durations
 * count combat rounds or turns (HB-RND-02 and any status with a duration); the delay before the
 * effect acts defaults to the ruleset's. Pure: no Foundry globals.
 */
import { FrayError } from "../../rules/core/errors.js";
import type { EffectStart } from "../play/effects.js";
import type { DialogButtonFace } from "./dialog-buttons.js";

/** The dialog's buttons, as DialogV2 and the render test draw them. */
export const EFFECT_DIALOG_BUTTONS: readonly DialogButtonFace[] = [
  { action: "start", label: "FRAY.Effect.Dialog.Start", icon: "fa-solid fa-hourglass-half", default: true },
  { action: "cancel", label: "FRAY.Flow.Dialog.Cancel" },
];

/** Longest effect name the dialog accepts, in characters. */
export const EFFECT_NAME_MAX = 100;
/** Longest duration and delay, in rounds or turns (the bound `game.fray.startEffect` checks too). */
export const EFFECT_LENGTH_MAX = 1000;

/** The units a duration counts in. */
export const EFFECT_UNITS = ["rounds", "turns"] as const;
export type EffectUnit = (typeof EFFECT_UNITS)[number];

/** A status the dialog offers as a checkbox: the status id, its i18n key and icon. */
export interface EffectStatusChoice {
  id: string;
  name: string;
  img: string;
}

/** The dialog's values as entered (texts, as a form holds them), kept when input is refused. */
export interface EffectFormValues {
  effectName: string;
  duration: string;
  unit: string;
  delay: string;
  /** Ids of the checked statuses. */
  statuses: string[];
}

/** The values a new dialog shows: no name, 1 round, the ruleset's delay, nothing checked. */
export function defaultEffectValues(delayRounds = 0): EffectFormValues {
  return { effectName: "", duration: "1", unit: "rounds", delay: String(delayRounds), statuses: [] };
}

/** A localizer as the context builder needs it. */
interface Localizer {
  localize(key: string): string;
  format(key: string, data: Record<string, string | number>): string;
}

/** The template context of `templates/dialog/effect-dialog.hbs`. */
export interface EffectDialogContext {
  values: EffectFormValues;
  statuses: { id: string; label: string; img: string; checked: boolean }[];
  units: Record<string, string>;
  delayHint: string;
  max: number;
  nameMax: number;
}

/**
 * The dialog's context: each status localized and checked as entered, the units localized, and
 * a hint naming the ruleset's default delay.
 * @param delayRounds the ruleset's default delay in rounds (Hitbox 1, HB-RND-02; else 0).
 */
export function effectDialogContext(
  values: EffectFormValues,
  statuses: readonly EffectStatusChoice[],
  delayRounds: number,
  i18n: Localizer,
): EffectDialogContext {
  return {
    values,
    statuses: statuses.map((s) => ({ id: s.id, label: i18n.localize(s.name), img: s.img, checked: values.statuses.includes(s.id) })),
    units: Object.fromEntries(EFFECT_UNITS.map((u) => [u, i18n.localize(`FRAY.Effect.Dialog.Units.${u}`)])),
    delayHint: i18n.format("FRAY.Effect.Dialog.DelayHint", { rounds: delayRounds }),
    max: EFFECT_LENGTH_MAX,
    nameMax: EFFECT_NAME_MAX,
  };
}

/** A refusal of a form field, its label and what it expects localized when shown (`FRAY.Error.Field`). */
function fieldError(label: string, expected: string, fallback: string): FrayError {
  return new FrayError(
    "FRAY.Error.Field",
    { field: `FRAY.Effect.Dialog.${label}`, expected: `FRAY.Effect.Dialog.Expect.${label}` },
    fallback,
  );
}

/** A whole number written in a field, or undefined. */
function wholeNumber(text: string): number | undefined {
  const t = text.trim();
  return /^\d{1,4}$/.test(t) ? Number(t) : undefined;
}

/**
 * The effect the entered values describe: its name, the checked statuses (only those offered),
 * its length in rounds or turns and its delay in rounds (an empty delay: the ruleset's).
 * @param offered the status ids the dialog offered.
 * @param delayRounds the ruleset's default delay, for an empty delay field.
 * @throws FrayError `FRAY.Error.Field` naming the field: an empty or too long name, a duration
 *   that is not a whole number from 1 to 1000, a unit that is not rounds or turns, a delay that
 *   is not a whole number from 0 to 1000.
 */
export function parseEffectForm(values: EffectFormValues, offered: readonly string[], delayRounds = 0): EffectStart {
  const name = values.effectName.trim();
  if (!name || name.length > EFFECT_NAME_MAX) throw fieldError("Name", "Name", `Effect name: expected 1 to ${EFFECT_NAME_MAX} characters`);
  const length = wholeNumber(values.duration);
  if (length === undefined || length < 1 || length > EFFECT_LENGTH_MAX)
    throw fieldError("Duration", "Duration", `Duration: expected a whole number from 1 to ${EFFECT_LENGTH_MAX}`);
  if (!(EFFECT_UNITS as readonly string[]).includes(values.unit)) throw fieldError("Unit", "Unit", "Unit: expected rounds or turns");
  const delay = values.delay.trim() === "" ? delayRounds : wholeNumber(values.delay);
  if (delay === undefined || delay > EFFECT_LENGTH_MAX)
    throw fieldError("Delay", "Delay", `Delay: expected a whole number from 0 to ${EFFECT_LENGTH_MAX}`);
  const statuses = offered.filter((id) => values.statuses.includes(id));
  return { name, statuses, [values.unit as EffectUnit]: length, delayRounds: delay };
}
