/**
 * Zones' movement actions on the token ruler (ZN-MOV-01, ZN-MOV-02): each of Foundry's movement
 * actions (`CONFIG.Token.movement.actions`) measures speed points instead of metres: walk 1 per
 * metre, run 1 per 2 m, crawl 2 per metre (prone only), climb 3, jump 2, running jump 1. Run and
 * running jump are added; fly, swim, burrow and blink are hidden in a Zones world. Difficult
 * terrain doubles the cost through Foundry's terrain difficulty, which the cost function
 * receives already applied (ZN-MOV-02). A token's combatant reads its movement category from the
 * legs it moved this round (ZN-RNG-04).
 */
import type { MovementBand, RulesetOptions } from "../../../rules/core/ruleset.js";
import type { ActorSource } from "../../../rules/core/sources.js";
import { withMovedLegs } from "../../../rules/zones/attack.js";
import { zonesCombatantFromActor, type ZonesCombatant } from "../../../rules/zones/model.js";
import { movedThisRound } from "../../canvas/movement.js";
import { activeCombat, type CombatantLike } from "../../combat/economy-store.js";
import { tryCombatantOf } from "../../documents/actor.js";
import type { ActorLike } from "../../documents/source.js";
import type { CombatantOverrides } from "../../registry.js";

/** Speed points per metre of each movement action (ZN-MOV-01). */
export const ZONES_MOVE_COST: Readonly<Record<string, number>> = {
  walk: 1,
  run: 0.5,
  crawl: 2,
  climb: 3,
  jump: 2,
  runningJump: 1,
};

/** Foundry's movement actions a Zones world does not offer (the seed has none of them). */
export const ZONES_HIDDEN_ACTIONS: readonly string[] = ["fly", "swim", "burrow", "blink"];

/** A token as the movement actions read it. */
interface MoverToken {
  actor?: ActorLike | null;
}

/** A movement action's configuration, as far as Fray sets it. */
interface MovementAction {
  label?: string;
  icon?: string;
  order?: number;
  canSelect?(token: MoverToken): boolean;
  getCostFunction?(token: MoverToken, options?: unknown): (baseCost: number, ...rest: unknown[]) => number;
  [key: string]: unknown;
}

/**
 * The speed points of a segment (ZN-MOV-01, ZN-MOV-02): the base cost (grid units already
 * multiplied by the terrain's difficulty) times the action's points per metre.
 * @param baseCost the segment's cost in metres of walking (the scene's units are metres).
 * @param action a movement action id; an unknown one costs as walking.
 */
export function zonesSegmentCost(action: string, baseCost: number): number {
  return baseCost * (ZONES_MOVE_COST[action] ?? 1);
}

/** True when the token's actor lies prone (either prone stance): crawling needs it (ZN-MOV-01). */
export function isProne(token: MoverToken | null | undefined): boolean {
  const c = tryCombatantOf<ZonesCombatant>(token?.actor ?? null);
  return Boolean(c && String(c.stance).startsWith("prone"));
}

/**
 * Sets Zones' movement actions on `CONFIG.Token.movement.actions` (call in `init` of a Zones
 * world, before Foundry prepares the tokens): each action's cost in speed points, run and running jump added after walk and jump,
 * crawl selectable only when prone, fly, swim, burrow and blink hidden.
 */
export function registerZonesMovement(): void {
  const movement = (CONFIG.Token as unknown as { movement?: { actions?: Record<string, MovementAction> } }).movement;
  const actions = movement?.actions;
  if (!actions) return;
  const walk = actions.walk ?? {};
  const jump = actions.jump ?? walk;
  actions.run = { ...walk, label: "FRAY.Zones.MoveAction.run", icon: "fa-solid fa-person-running", order: (walk.order ?? 0) + 0.5 };
  actions.runningJump = {
    ...jump,
    label: "FRAY.Zones.MoveAction.runningJump",
    icon: "fa-solid fa-person-running-fast",
    order: (jump.order ?? 0) + 0.5,
  };
  for (const [id, rate] of Object.entries(ZONES_MOVE_COST)) {
    const action = actions[id];
    if (!action) continue;
    action.getCostFunction = () => (baseCost: number) => baseCost * rate;
    if (id === "crawl") action.canSelect = (token: MoverToken) => isProne(token);
  }
  for (const id of ZONES_HIDDEN_ACTIONS) {
    const action = actions[id];
    if (action) action.canSelect = () => false;
  }
}

/**
 * The ruler's bands of a Zones combatant (ZN-MOV-01, ZN-MOV-03, ZN-MOV-04), measured in speed
 * points (the movement actions' costs): green while the speed points left pay the move, blue
 * while effort points top them up, red beyond both. With **Speed points come back** "every
 * round" the speed points are full each round.
 */
export function zonesRulerBands(c: ZonesCombatant, options: RulesetOptions): MovementBand[] {
  const speed = options.speedRecovery === "round" ? c.speed.max : c.speed.value;
  const effort = c.effort.value;
  return [
    { id: "speed", label: "FRAY.Zones.Pool.speed", rule: "ZN-MOV-03", maxMetres: speed, cost: { pools: { speed } } },
    { id: "effort", label: "FRAY.Zones.Pool.effort", rule: "ZN-MOV-04", maxMetres: speed + effort, cost: { pools: { speed, effort } } },
  ];
}

/**
 * The binding's `combatantFromActor` (ZN-RNG-04): the core's combatant of the actor, its movement
 * category raised by how its token moved since the round began, as the movement hook recorded
 * it with each leg's movement action (`movedThisRound`): a run or running jump makes it fast,
 * any other way of moving slow (the core's `withMovedLegs`). Outside a started combat, or
 * without a token id, the actor's own category stands. The attack dialog's target and shooter
 * movement default to it; the GM or the attacker may pick another there.
 * @param overrides `id` is the token's id (the workflow reads attacker and targets by token).
 * @throws FrayError as `zonesCombatantFromActor`.
 */
export function zonesCombatantWithMoves(actor: ActorSource, overrides: CombatantOverrides = {}): ZonesCombatant {
  const c = zonesCombatantFromActor(actor, overrides);
  const combat = activeCombat() as { started?: boolean; combatants?: Iterable<CombatantLike> } | undefined;
  if (!overrides.id || !combat?.started || !combat.combatants) return c;
  const combatant = Array.from(combat.combatants).find((x) => x.tokenId === overrides.id);
  if (!combatant) return c;
  return withMovedLegs(c, movedThisRound(combatant).legs);
}
