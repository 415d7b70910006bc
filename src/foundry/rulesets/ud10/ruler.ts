/**
 * UD10's named movement bands (UD-MOV-01 to UD-MOV-03, UD-RND-02): which band a distance falls in
 * this round, its colour, and whether the `refuse` setting stops a move; what it costs is the
 * core's `movementCharge`. Pure. The token ruler itself colours by any ruleset's bands
 * (`logic/ruler.ts`); the movement hook reads these names.
 */
import type { Ud10Combatant } from "../../../rules/ud10/model.js";
import { movementBand } from "../../../rules/ud10/movement.js";
import type { BeyondFullPolicy } from "../../logic/ruler.js";

/** A band id, or `beyond` past full movement. */
export type BandId = "step" | "standard" | "full" | "beyond";

/** Ruler colours per band: green step, blue standard, amber full, red beyond (the generic ruler's palette in UD10's band order). */
export const BAND_COLOURS: Record<BandId, number> = {
  step: 0x33cc66,
  standard: 0x3388ff,
  full: 0xffaa00,
  beyond: 0xdd2222,
};

/** i18n key of each band's label. */
export const BAND_LABELS: Record<BandId, string> = {
  step: "FRAY.Move.step",
  standard: "FRAY.Move.standard",
  full: "FRAY.Move.full",
  beyond: "FRAY.Flow.Move.beyond",
};

/**
 * The band of a total distance moved this round (UD-MOV-01 to UD-MOV-03): the core's band,
 * `beyond` past full movement.
 * @param metres distance moved this round, history included.
 */
export function bandFor(metres: number, c: Ud10Combatant): BandId {
  return (movementBand(c, metres)?.id as BandId | undefined) ?? "beyond";
}

/** The ruler colour of a distance moved this round. */
export function bandColour(metres: number, c: Ud10Combatant): number {
  return BAND_COLOURS[bandFor(metres, c)];
}

export type { BeyondFullPolicy } from "../../logic/ruler.js";

/**
 * Whether a move must be refused: only with the `refuse` setting, and only when the move would
 * end past full movement this round (UD-MOV-03).
 */
export function refuseMove(policy: BeyondFullPolicy, totalMetres: number, c: Ud10Combatant): boolean {
  return policy === "refuse" && bandFor(totalMetres, c) === "beyond";
}
