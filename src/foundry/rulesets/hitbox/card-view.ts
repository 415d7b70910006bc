/**
 * Hitbox's own parts of the attack card's view, free of Foundry globals (the render test builds
 * them): the range header in feet (HB-MOD-01) and the mark of an application held until its
 * resolution step ends (HB-ACT-01).
 */
import { decimal, type Localizer } from "../../attack-card.js";
import type { TargetState } from "../../logic/card.js";
import type { CardView } from "../../play/card-rules.js";
import type { MovementUnits } from "../../registry.js";

/** The mark a held target carries on the card. */
export interface HeldMark {
  round: number;
  step: number;
}

/** The card's held mark of a target, when it is held. */
export function heldMark(t: TargetState): HeldMark | undefined {
  const held = (t as TargetState & { held?: unknown }).held as Partial<HeldMark> | undefined;
  return held && typeof held.round === "number" && typeof held.step === "number" ? { round: held.round, step: held.step } : undefined;
}

/**
 * The card's part of a held target (HB-ACT-01): "held until the step ends" in place of the Apply
 * button, until the GM ends the step.
 */
export function heldView(
  t: TargetState,
  i18n: { localize(key: string): string; format(key: string, data: Record<string, string>): string },
): { sections: { title: string; rule: string; lines: never[]; text: string; kind: string }[]; hiddenActions: "applyDamage"[] } | undefined {
  const mark = heldMark(t);
  if (!mark || t.applied) return undefined;
  return {
    sections: [
      {
        title: i18n.localize("FRAY.Hitbox.Step.HeldTitle"),
        rule: "HB-ACT-01",
        lines: [],
        text: i18n.format("FRAY.Hitbox.Step.Held", { step: String(mark.step) }),
        kind: "held",
      },
    ],
    hiddenActions: ["applyDamage"],
  };
}

/** Hitbox's scenes measure in feet, 5 ft squares (HB-MOD-01, HB-ACT-02); the binding's `movementUnits`. */
export const HITBOX_MOVEMENT_UNITS: MovementUnits = { units: "ft", metresPerUnit: 0.3048, gridDistance: 5 };

/**
 * Hitbox's part of a target's card (HB-MOD-01, HB-ACT-01): the range header in feet (the measured
 * metres through {@link HITBOX_MOVEMENT_UNITS}), and a held application's mark in place of the
 * Apply button until the step ends.
 */
export function hitboxCardView(t: TargetState, i18n: Localizer): CardView {
  const metres = t.request.distanceMetres;
  const range =
    typeof metres === "number"
      ? { value: decimal(metres / HITBOX_MOVEMENT_UNITS.metresPerUnit, i18n.lang), unit: i18n.localize("FRAY.Chat.Feet") }
      : undefined;
  return { ...(heldView(t, i18n) ?? {}), ...(range ? { range } : {}) };
}
