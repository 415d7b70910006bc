/**
 * The token ruler's budget for any ruleset: the core's movement bands of a combatant this round
 * (`Ruleset.movement`: any number of bands, each with its reach in metres and its cost), which
 * band a distance falls in, and its colour. Pure. The budget is computed once per drag
 * ({@link rulerBudget}) and then only looked up per waypoint and grid square.
 */
import type { MovementBand, Ruleset, RulesetOptions } from "../../rules/core/ruleset.js";

/** Colours of the bands in order: green, blue, amber; further bands keep amber; red beyond all. */
export const BAND_PALETTE: readonly number[] = [0x33cc66, 0x3388ff, 0xffaa00];

/** Colour past the last band. */
export const BEYOND_COLOUR = 0xdd2222;

/** The budget of one drag: the combatant's bands, what it moved before, and the scene's unit scale. */
export interface RulerBudget {
  /** The core's bands, nearest first (metres). */
  bands: readonly MovementBand[];
  /** Metres already moved this round (in a started combat); undefined outside combat. */
  movedBefore: number | undefined;
  /** Metres per grid unit of the scene (1 for metres, 0.3048 for feet). */
  metresPerUnit: number;
}

/**
 * The budget of one drag.
 * @param ruleset the world's ruleset (the active binding's).
 * @param c the moving combatant, as the ruleset reads it.
 * @param options the world's option values of that ruleset.
 * @param movedBefore metres moved this round before the drag; undefined outside combat.
 * @param metresPerUnit metres per grid unit of the scene.
 */
export function rulerBudget<C>(
  ruleset: Pick<Ruleset<C, unknown>, "movement">,
  c: C,
  options: RulesetOptions,
  movedBefore: number | undefined,
  metresPerUnit: number,
): RulerBudget {
  return { bands: ruleset.movement(c, options), movedBefore, metresPerUnit };
}

/** The band a distance in metres falls in, or `undefined` past every band. */
export function bandAt(bands: readonly MovementBand[], metres: number): MovementBand | undefined {
  return bands.find((b) => metres <= b.maxMetres + 1e-9);
}

/** The colour of the band at `index` of a band list (see {@link BAND_PALETTE}); beyond for -1. */
export function bandColourAt(index: number): number {
  if (index < 0) return BEYOND_COLOUR;
  return BAND_PALETTE[Math.min(index, BAND_PALETTE.length - 1)]!;
}

/** The colour of a distance in metres against a budget's bands. */
export function budgetColour(budget: Pick<RulerBudget, "bands">, metres: number): number {
  const band = bandAt(budget.bands, metres);
  return bandColourAt(band ? budget.bands.indexOf(band) : -1);
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
export function rulerMetres(
  waypoint: RulerWaypoint,
  movedBefore: number | undefined,
  toMetres: (units: number) => number,
): number | undefined {
  const at = unitsAt(waypoint);
  if (at === undefined) return undefined;
  if (movedBefore === undefined || waypoint.stage === "passed") return toMetres(at);
  let passed = waypoint.previous;
  while (passed && passed.stage !== "passed") passed = passed.previous;
  return movedBefore + toMetres(at - (unitsAt(passed) ?? 0));
}

/** The colour of a waypoint under a drag's budget, or `undefined` when it has no measurement. */
export function waypointColour(budget: RulerBudget, waypoint: RulerWaypoint): number | undefined {
  const metres = rulerMetres(waypoint, budget.movedBefore, (units) => units * budget.metresPerUnit);
  return metres === undefined ? undefined : budgetColour(budget, metres);
}

/** The world setting for moves past full movement: only shown in red, or refused. */
export type BeyondFullPolicy = "show" | "refuse";
