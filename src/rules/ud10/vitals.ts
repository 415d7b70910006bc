/**
 * The UD10 conditions that follow from the vitals (RULES.md "EP and HP at zero", UD-DMG-03,
 * UD-DMG-04): *unconscious* at EP 0, *incapacitated* at HP 0 or below. `applyDamage` adds them
 * when a hit crosses 0; after an undo they are set from the state again (see
 * `recomputeConditions` in `core/ledger.ts`), so a target still at HP 0 or below stays
 * incapacitated even when the undone hit was the one that added it. Death is the GM's call in
 * UD10 and is never derived.
 */
import type { VitalState } from "../core/types.js";

/** Every UD10 condition derived from vitals. */
export const VITAL_CONDITIONS: readonly string[] = ["unconscious", "incapacitated"];

/**
 * The UD10 vital-derived conditions a state implies: `unconscious` when EP is 0 or below
 * (UD-DMG-03), `incapacitated` when HP is 0 or below (UD-DMG-04). A state without a track implies
 * nothing for it.
 * @param state a UD10 vital state (`hp`, `ep`).
 * @returns condition ids, in the order of {@link VITAL_CONDITIONS}.
 */
export function vitalConditions(state: VitalState): string[] {
  const out: string[] = [];
  if (state.ep !== undefined && state.ep.value <= 0) out.push("unconscious");
  if (state.hp !== undefined && state.hp.value <= 0) out.push("incapacitated");
  return out;
}
