/**
 * Floating numbers: what a change of vitals shows over a token (`-5 HP`, `+2 EP`, `-3 Head`).
 * Pure: the display (`play/floating.ts`) localizes the labels and draws the text on each client.
 */
import type { Track, VitalState } from "../../rules/core/types.js";

/** One number to float over a token. */
export interface FloatingChange {
  /** i18n key of what changed (`FRAY.Floating.hp`, `FRAY.Hitbox.head` ...). */
  label: string;
  /** The change, negative for damage. */
  delta: number;
}

/** i18n keys of the tracks every ruleset may use; hitboxes are labelled by their hitbox id. */
const LABELS = { hp: "FRAY.Floating.hp", ep: "FRAY.Floating.ep", bleeding: "FRAY.Floating.bleeding", stun: "FRAY.Floating.stun" } as const;

const change = (label: string, before: number | undefined, after: number | undefined): FloatingChange[] => {
  const delta = (after ?? 0) - (before ?? 0);
  return delta === 0 || !Number.isFinite(delta) ? [] : [{ label, delta }];
};

const tracks = (
  before: Record<string, Track> | undefined,
  after: Record<string, Track> | undefined,
  label: (id: string) => string,
): FloatingChange[] => Object.keys({ ...before, ...after }).flatMap((id) => change(label(id), before?.[id]?.value, after?.[id]?.value));

/**
 * The changes between two vital states, in a fixed order: HP, EP, each hitbox, bleeding, stun.
 * Armor worn down is not floated (it is on the card).
 */
export function floatingChanges(before: VitalState, after: VitalState): FloatingChange[] {
  return [
    ...change(LABELS.hp, before.hp?.value, after.hp?.value),
    ...change(LABELS.ep, before.ep?.value, after.ep?.value),
    ...tracks(before.hitboxes, after.hitboxes, (id) => `FRAY.Hitbox.${id}`),
    ...change(LABELS.bleeding, before.bleeding, after.bleeding),
    ...change(LABELS.stun, before.stun, after.stun),
  ];
}

/** The text of one change: the signed number and its label, e.g. `−5 HP`. */
export function floatingText(c: FloatingChange, localize: (key: string) => string): string {
  const sign = c.delta > 0 ? "+" : "\u2212";
  return `${sign}${Math.abs(c.delta)} ${localize(c.label)}`;
}
