/**
 * The token ruler coloured by the round's movement budget of the world's ruleset: each of the
 * core's movement bands (`Ruleset.movement`, UD-MOV-01 to UD-MOV-03 for UD10: step, standard,
 * full; Critical's base move and AP steps; Hitbox's step, walk and run ...) in turn green, blue,
 * amber, and red beyond the last. In a started combat the distance is what the combatant already
 * moved this round (the count the move check and the movement hook use) plus the ruler's planned
 * path; otherwise the ruler's measured cost. The scene's grid units are converted to metres.
 *
 * The budget (bands, distance moved before, unit scale) is computed once per drag and reused for
 * every waypoint and highlighted grid square; it is read again only when what it depends on
 * changes (the actor's preparation, the round, the distance moved, the combatant's economy, the
 * scene's units).
 */
import { activeCombat, combatantFor } from "../combat/economy-store.js";
import { tryCombatantOf, type FrayActorApi } from "../documents/actor.js";
import type { ActorLike } from "../documents/source.js";
import { rulerBudget, waypointColour, type RulerBudget, type RulerWaypoint } from "../logic/ruler.js";
import { toMetres } from "../measure.js";
import { activeBinding } from "../registry.js";
import { optionValues } from "../settings.js";
import { movedThisRound } from "./movement.js";

/** The token the ruler belongs to, as far as the colouring goes. */
interface RulerToken {
  actor: (Actor.Implementation & ActorLike) | null;
  document?: { id: string | null } | null;
}

/** A style the base ruler returns. */
type Style = { color?: number | unknown } & Record<string, unknown>;

/** The core's combatant of a token's actor for the world's ruleset, or undefined when it cannot be read. */
export function statsOf(actor: ActorLike | null | undefined): unknown {
  return tryCombatantOf(actor);
}

/** One ruler's cached budget and what it was computed from. */
interface Cached {
  actor: unknown;
  core: unknown;
  round: number | undefined;
  movedBefore: number | undefined;
  units: string | undefined;
  /** The combatant's stored economy, as JSON (a ruleset's bands may follow the pools left, CR-MOV-02). */
  economy: string | undefined;
  budget: RulerBudget | undefined;
}

const budgets = new WeakMap<object, Cached>();

/**
 * The budget of a ruler's drag: reused while the actor's preparation, the round, the distance
 * moved before and the scene's units stay the same (a drag changes none of them).
 */
export function budgetFor(ruler: object, token: RulerToken): RulerBudget | undefined {
  const actor = token.actor;
  if (!actor) return undefined;
  const combat = activeCombat();
  const combatant = combat?.started ? combatantFor(actor, token.document?.id) : undefined;
  const movedBefore = combatant ? movedThisRound(combatant).metres : undefined;
  const economy = combatant ? JSON.stringify(combatant.getFlag("fray", "economy") ?? null) : undefined;
  const units = canvas?.grid?.units;
  const core = typeof (actor as Partial<FrayActorApi>).frayCore === "function" ? (actor as unknown as FrayActorApi).frayCore() : undefined;
  const cached = budgets.get(ruler);
  if (
    cached &&
    cached.actor === actor &&
    cached.core === core &&
    cached.round === combat?.round &&
    cached.movedBefore === movedBefore &&
    cached.units === units &&
    cached.economy === economy
  )
    return cached.budget;
  const stats = statsOf(actor);
  const binding = activeBinding();
  const budget =
    stats === undefined
      ? undefined
      : rulerBudget(
          binding.rulerBands ? { movement: binding.rulerBands } : binding.ruleset,
          stats,
          optionValues(binding.id),
          movedBefore,
          toMetres(1, units),
        );
  budgets.set(ruler, { actor, core, round: combat?.round, movedBefore, units, economy, budget });
  return budget;
}

/** The colour a waypoint gets from the drag's budget, or undefined to keep the base colour. */
function colourFor(ruler: object, token: RulerToken, waypoint: RulerWaypoint): number | undefined {
  const budget = budgetFor(ruler, token);
  return budget ? waypointColour(budget, waypoint) : undefined;
}

/**
 * Builds the TokenRuler subclass (the canvas classes exist only once Foundry has loaded, so the
 * class is made in `init`).
 */
export function createTokenRuler(): unknown {
  const Base = foundry.canvas.placeables.tokens.TokenRuler as unknown as new (...args: never[]) => {
    token: RulerToken;
    _getSegmentStyle(waypoint: RulerWaypoint): Style;
    _getGridHighlightStyle(waypoint: RulerWaypoint, offset: unknown): Style;
  };
  return class FrayTokenRuler extends Base {
    /** The segment coloured by the band reached. */
    override _getSegmentStyle(waypoint: RulerWaypoint): Style {
      const style = super._getSegmentStyle(waypoint);
      const color = colourFor(this, this.token, waypoint);
      return color === undefined ? style : { ...style, color };
    }

    /** The grid highlight coloured by the band reached. */
    override _getGridHighlightStyle(waypoint: RulerWaypoint, offset: unknown): Style {
      const style = super._getGridHighlightStyle(waypoint, offset);
      const color = colourFor(this, this.token, waypoint);
      return color === undefined || !style ? style : { ...style, color };
    }
  };
}

/** Registers the ruler class on CONFIG.Token. Call from `init`. */
export function registerTokenRuler(): void {
  if (!foundry.canvas?.placeables?.tokens?.TokenRuler) return;
  (CONFIG.Token as unknown as { rulerClass: unknown }).rulerClass = createTokenRuler();
}
