/**
 * Melee engagement on the grid: who is engaged with whom and who a move leaves behind
 * (UD-OPT-01 fleeing, UD-OPT-02 retreat). Pure: positions come in as points in metres; melee
 * reach is the adjacent squares, one step of the core's SQUARE_METRES (UD-RND-02).
 */

import { SQUARE_METRES } from "../../rules/ud10/movement.js";

/** A token as far as engagement goes. */
export interface Placed {
  id: string;
  /** Token disposition: 1 friendly, 0 neutral, -1 hostile, -2 secret. */
  disposition: number;
  /** Center in metres. */
  x: number;
  y: number;
  /** Out of the fight (unconscious, incapacitated, dead): engages nobody. */
  out?: boolean;
}

/** Grid distance in metres: squares counted with diagonals like straight moves, 1.5 m each. */
export function gridMetres(a: { x: number; y: number }, b: { x: number; y: number }, square = SQUARE_METRES): number {
  const dx = Math.round(Math.abs(a.x - b.x) / square);
  const dy = Math.round(Math.abs(a.y - b.y) / square);
  return Math.max(dx, dy) * square;
}

/** Opponents: dispositions on different sides (friendly against hostile); neutral engages nobody. */
export function areOpponents(a: Placed, b: Placed): boolean {
  return a.disposition * b.disposition < 0;
}

/** The opponents engaged in melee with `mover` where it stands: adjacent and able to fight. */
export function engagedWith(mover: Placed, others: readonly Placed[], distance = gridMetres): Placed[] {
  return others.filter((o) => o.id !== mover.id && !o.out && areOpponents(mover, o) && distance(mover, o) <= SQUARE_METRES + 1e-9);
}

/**
 * The opponents a move leaves: engaged at the start, no longer adjacent at the end. When any
 * are left the mover is fleeing or retreating (UD-OPT-01, UD-OPT-02).
 */
export function leftBehind(from: Placed, to: { x: number; y: number }, others: readonly Placed[], distance = gridMetres): Placed[] {
  return engagedWith(from, others, distance).filter((o) => distance(to, o) > SQUARE_METRES + 1e-9);
}

/** The disengagement choices the world's options offer (UD-OPT-01, UD-OPT-02). */
export function disengageChoices(options: { fleeing: boolean; retreat: boolean }): ("flee" | "retreat")[] {
  const out: ("flee" | "retreat")[] = [];
  if (options.fleeing) out.push("flee");
  if (options.retreat) out.push("retreat");
  return out;
}
