/**
 * Melee engagement on the scene: who is engaged with whom and who a move leaves behind
 * (UD-OPT-01 fleeing, UD-OPT-02 retreat). Pure: positions come in as points in metres, with the
 * grid spaces a token occupies where the scene has a grid; whether two tokens are adjacent is an
 * {@link Adjacency} the caller gives (Foundry's grid helpers on a canvas, a reach in metres
 * otherwise).
 */

/** A grid space's offset (row `i`, column `j`), as Foundry's grids give it. */
export interface GridOffset {
  i: number;
  j: number;
}

/** A point in metres, with the grid spaces a token there occupies when known. */
export interface Spot {
  x: number;
  y: number;
  /** The grid spaces a token occupies there (several for a large token); absent on gridless scenes. */
  offsets?: GridOffset[];
}

/** A token as far as engagement goes. */
export interface Placed extends Spot {
  id: string;
  /** Token disposition: 1 friendly, 0 neutral, -1 hostile, -2 secret. */
  disposition: number;
  /** Out of the fight (unconscious, incapacitated, dead): engages nobody. */
  out?: boolean;
}

/** Whether a token at `a` is in melee reach of the token `b`. */
export type Adjacency = (a: Spot, b: Placed) => boolean;

/** The grid square of a scene when nothing else is known: 1.5 m (UD-RND-02). */
export const DEFAULT_SQUARE_METRES = 1.5;

/** Grid distance in metres: squares counted with diagonals like straight moves, `square` m each. */
export function gridMetres(a: { x: number; y: number }, b: { x: number; y: number }, square = DEFAULT_SQUARE_METRES): number {
  const dx = Math.round(Math.abs(a.x - b.x) / square);
  const dy = Math.round(Math.abs(a.y - b.y) / square);
  return Math.max(dx, dy) * square;
}

/**
 * Adjacency by distance: within `reach` metres of each other as `distance` measures it (one grid
 * square by default). For gridless scenes and wherever grid spaces are not known.
 */
export function withinReach(
  reach = DEFAULT_SQUARE_METRES,
  distance: (a: Spot, b: Spot) => number = (a, b) => gridMetres(a, b, reach),
): Adjacency {
  return (a, b) => distance(a, b) <= reach + 1e-9;
}

/**
 * Adjacency by grid spaces: some space one token occupies is the same as, or adjacent to, one
 * the other occupies (`adjacent`, Foundry's `grid.testAdjacency`), so large tokens and hex grids
 * count right. Falls back to `otherwise` when either side's spaces are unknown.
 */
export function bySpaces(adjacent: (a: GridOffset, b: GridOffset) => boolean, otherwise: Adjacency = withinReach()): Adjacency {
  return (a, b) => {
    if (!a.offsets?.length || !b.offsets?.length) return otherwise(a, b);
    return a.offsets.some((p) => b.offsets!.some((q) => (p.i === q.i && p.j === q.j) || adjacent(p, q)));
  };
}

/** Opponents: dispositions on different sides (friendly against hostile); neutral engages nobody. */
export function areOpponents(a: Placed, b: Placed): boolean {
  return a.disposition * b.disposition < 0;
}

/** The opponents engaged in melee with `mover` where it stands: adjacent and able to fight. */
export function engagedWith(mover: Placed, others: readonly Placed[], adjacent: Adjacency = withinReach()): Placed[] {
  return others.filter((o) => o.id !== mover.id && !o.out && areOpponents(mover, o) && adjacent(mover, o));
}

/**
 * The opponents a move leaves: engaged at the start, no longer adjacent at the end. When any
 * are left the mover is fleeing or retreating (UD-OPT-01, UD-OPT-02).
 */
export function leftBehind(from: Placed, to: Spot, others: readonly Placed[], adjacent: Adjacency = withinReach()): Placed[] {
  return engagedWith(from, others, adjacent).filter((o) => !adjacent(to, o));
}

/** The disengagement choices the world's options offer (UD-OPT-01, UD-OPT-02). */
export function disengageChoices(options: { fleeing: boolean; retreat: boolean }): ("flee" | "retreat")[] {
  const out: ("flee" | "retreat")[] = [];
  if (options.fleeing) out.push("flee");
  if (options.retreat) out.push("retreat");
  return out;
}
