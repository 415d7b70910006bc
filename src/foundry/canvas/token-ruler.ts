/**
 * The token ruler coloured by the round's movement budget (UD-MOV-01 to UD-MOV-03): green for
 * one step, blue within standard movement (5 m + STR), amber within full movement (twice that),
 * red beyond. In a started combat the distance is what the combatant already moved this round
 * (the count the move check and the movement hook use) plus the ruler's planned path; otherwise
 * the ruler's measured cost, converted to metres.
 */
import type { Ud10Combatant } from "../../rules/ud10/index.js";
import { actorSource } from "../attack.js";
import { activeCombat, combatantFor } from "../combat/economy-store.js";
import { bandColour, rulerMetres, type RulerWaypoint } from "../logic/ruler.js";
import { toMetres } from "../measure.js";
import { ud10CombatantFromActor } from "../sources.js";
import { movedThisRound } from "./movement.js";

/** A ruler waypoint as far as the colouring goes. */
type WaypointLike = RulerWaypoint;

/** The token the ruler belongs to, as far as the colouring goes. */
interface RulerToken {
  actor: Actor.Implementation | null;
  document?: { id: string | null } | null;
}

/** A style the base ruler returns. */
type Style = { color?: number | unknown } & Record<string, unknown>;

/** The UD10 stats of a token's actor, or undefined when they cannot be read. */
export function statsOf(actor: Actor.Implementation | null | undefined): Ud10Combatant | undefined {
  if (!actor) return undefined;
  try {
    return ud10CombatantFromActor(actorSource(actor));
  } catch {
    return undefined;
  }
}

/**
 * The colour a waypoint gets from the budget, or undefined to keep the base colour. In a started
 * combat the distance counts what the combatant already moved this round as the move check
 * does (`movedThisRound`).
 */
function colourFor(token: RulerToken, waypoint: WaypointLike): number | undefined {
  const stats = statsOf(token.actor);
  if (!stats) return undefined;
  const combatant = activeCombat()?.started ? combatantFor(token.actor, token.document?.id) : undefined;
  const before = combatant ? movedThisRound(combatant).metres : undefined;
  const metres = rulerMetres(waypoint, before, (units) => toMetres(units, canvas?.grid?.units));
  return metres === undefined ? undefined : bandColour(metres, stats);
}

/**
 * Builds the TokenRuler subclass (the canvas classes exist only once Foundry has loaded, so the
 * class is made in `init`).
 */
export function createTokenRuler(): unknown {
  const Base = foundry.canvas.placeables.tokens.TokenRuler as unknown as new (...args: never[]) => {
    token: RulerToken;
    _getSegmentStyle(waypoint: WaypointLike): Style;
    _getGridHighlightStyle(waypoint: WaypointLike, offset: unknown): Style;
  };
  return class FrayTokenRuler extends Base {
    /** The segment coloured by the band reached (UD-MOV-01 to UD-MOV-03). */
    override _getSegmentStyle(waypoint: WaypointLike): Style {
      const style = super._getSegmentStyle(waypoint);
      const color = colourFor(this.token, waypoint);
      return color === undefined ? style : { ...style, color };
    }

    /** The grid highlight coloured by the band reached. */
    override _getGridHighlightStyle(waypoint: WaypointLike, offset: unknown): Style {
      const style = super._getGridHighlightStyle(waypoint, offset);
      const color = colourFor(this.token, waypoint);
      return color === undefined || !style ? style : { ...style, color };
    }
  };
}

/** Registers the ruler class on CONFIG.Token. Call from `init`. */
export function registerTokenRuler(): void {
  if (!foundry.canvas?.placeables?.tokens?.TokenRuler) return;
  (CONFIG.Token as unknown as { rulerClass: unknown }).rulerClass = createTokenRuler();
}
