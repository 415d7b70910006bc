/**
 * The token ruler's budget: which of the core's movement bands a distance falls in this round and
 * its colour (UD-MOV-01 to UD-MOV-03, UD-RND-02); what it costs is the core's `movementCharge`.
 * Pure.
 */
import type { Ud10Combatant } from "../../rules/ud10/model.js";
import { movementBand } from "../../rules/ud10/movement.js";

/** A band id, or `beyond` past full movement. */
export type BandId = "step" | "standard" | "full" | "beyond";

/** Ruler colours per band: green step, blue standard, amber full, red beyond. */
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

/** A ruler waypoint as far as the budget goes: its stage and its measurement from the path's start. */
export interface RulerWaypoint {
  stage?: "passed" | "pending" | "planned";
  measurement?: { cost?: number; distance?: number };
  previous?: RulerWaypoint | null;
}

/** The measured cost (else distance) at a waypoint, in grid units. */
function unitsAt(w: RulerWaypoint | null | undefined): number | undefined {
  const v = w?.measurement?.cost ?? w?.measurement?.distance;
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

/**
 * The metres moved this round once the token reaches a waypoint: what the movement hook counted
 * this round (`movedBefore`, the same source the move check reads) plus the ruler's distance
 * past the last waypoint already passed. Passed waypoints, and tokens without a count (outside
 * combat), use the ruler's own measurement.
 * @param toMetres converts grid units to metres.
 */
export function rulerMetres(waypoint: RulerWaypoint, movedBefore: number | undefined, toMetres: (units: number) => number): number | undefined {
  const at = unitsAt(waypoint);
  if (at === undefined) return undefined;
  if (movedBefore === undefined || waypoint.stage === "passed") return toMetres(at);
  let passed = waypoint.previous;
  while (passed && passed.stage !== "passed") passed = passed.previous;
  return movedBefore + toMetres(at - (unitsAt(passed) ?? 0));
}

/** The world setting for moves past full movement: only shown in red, or refused. */
export type BeyondFullPolicy = "show" | "refuse";

/**
 * Whether a move must be refused: only with the `refuse` setting, and only when the move would
 * end past full movement this round (UD-MOV-03).
 */
export function refuseMove(policy: BeyondFullPolicy, totalMetres: number, c: Ud10Combatant): boolean {
  return policy === "refuse" && bandFor(totalMetres, c) === "beyond";
}
