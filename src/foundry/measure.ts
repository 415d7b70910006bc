/**
 * Distances on the canvas in metres, whatever unit a scene's grid uses. Pure helpers plus one
 * reader of the canvas.
 */

/** Metres per grid unit for the unit names scenes commonly use (lower case, without dots). */
const METRES_PER_UNIT: Record<string, number> = {
  m: 1,
  meter: 1,
  meters: 1,
  metre: 1,
  metres: 1,
  km: 1000,
  cm: 0.01,
  ft: 0.3048,
  feet: 0.3048,
  foot: 0.3048,
  yd: 0.9144,
  yard: 0.9144,
  yards: 0.9144,
  mi: 1609.344,
  mile: 1609.344,
  miles: 1609.344,
};

/**
 * Converts a distance in a scene's grid units to metres.
 * @param distance the distance in `units`.
 * @param units the scene's grid units (`m`, `ft`, `km` ...); empty or unknown units are taken
 *   to be metres, as Fray's scenes default to 1.5 m squares (UD-RND-02).
 */
export function toMetres(distance: number, units: string | null | undefined): number {
  const key = (units ?? "").trim().toLowerCase().replace(/\.$/, "");
  return distance * (METRES_PER_UNIT[key] ?? 1);
}

/** A token as far as measuring goes: its center on the canvas, in pixels. */
export interface Measurable {
  center: { x: number; y: number };
}

/**
 * The distance between two tokens' centers in metres, measured along the grid by
 * `canvas.grid.measurePath` (so diagonals follow the scene's grid rules).
 * @returns `undefined` when no canvas is ready or either token is missing.
 */
export function measureMetres(from: Measurable | null | undefined, to: Measurable | null | undefined): number | undefined {
  if (!from || !to || !canvas?.ready || !canvas.grid) return undefined;
  const path = canvas.grid.measurePath([from.center, to.center], {});
  return toMetres(path.distance, canvas.grid.units);
}
