/**
 * Token movement in combat, for the world's ruleset: the round's movement bands refused past the
 * last when the world says so (`preMoveToken`, UD-MOV-03), movement spending the combatant's
 * economy through the ruleset's bands or the binding's `moveCharge` (UD-MOV-02, UD-MOV-03,
 * ZN-MOV-01, CR-MOV-02), and moving away from engaged melee opponents handed to the binding's
 * `onLeaveMelee` (UD10: Flee, UD-OPT-01, or Retreat, UD-OPT-02) (`moveToken`). Adjacency uses the
 * scene grid's own spaces (`grid.testAdjacency` on the spaces a token occupies, so large tokens
 * and hex grids count right) and a reach of one grid space on gridless scenes.
 */
import { replaceFlag } from "../logic/flags.js";
import type { ActionCost } from "../../rules/core/economy.js";
import { activeCombat, combatantFor, moveCharge, rulesetView, spendAvailable, type CombatantLike } from "../combat/economy-store.js";
import { combatantOf as coreOf } from "../documents/actor.js";
import type { ActorLike } from "../documents/source.js";
import { addCosts, moveEvent } from "../logic/economy.js";
import { bySpaces, leftBehind, withinReach, type Adjacency, type GridOffset, type Placed, type Spot } from "../logic/engagement.js";
import { bandAt, type BeyondFullPolicy } from "../logic/ruler.js";
import { toMetres } from "../measure.js";
import { isOutOf } from "../conditions.js";
import { reportError, warn } from "../notify.js";
import { activeBinding, type MeleeToken, type RulesetBinding } from "../registry.js";
import { beyondFullPolicy, optionValues } from "../settings.js";

/** A token position as movement data gives it (top-left in pixels, size in grid spaces, v13's movement action). */
export interface Position {
  x: number;
  y: number;
  width?: number;
  height?: number;
  /** v13: the movement action of the segment that ends here (`walk`, `run` ...). */
  action?: string;
}

/** A path section of a movement. */
interface Section {
  cost?: number;
  distance?: number;
  /** v13: the waypoints of the section, each with its movement action. */
  waypoints?: Position[];
}

/** A leg of the round's movement: the movement action and the metres it covered. */
export interface MovedLeg {
  action: string;
  metres: number;
}

/** The movement data the hooks read. */
export interface MovementLike {
  origin: Position;
  destination: Position;
  passed?: Section;
  pending?: Section;
}

/** A TokenDocument as the hooks read it. */
export interface TokenDocLike {
  id: string | null;
  uuid: string;
  name: string | null;
  x: number;
  y: number;
  width: number;
  height: number;
  disposition: number;
  actor: Actor.Implementation | null;
  parent?: { id: string | null } | null;
  /** v13: the grid spaces the token occupies, at its position or the given one. */
  getOccupiedGridSpaceOffsets?(data?: { x?: number; y?: number; width?: number; height?: number }): GridOffset[];
}

function combatantOf(doc: TokenDocLike): CombatantLike | undefined {
  if (!activeCombat()?.started) return undefined;
  return combatantFor(doc.actor, doc.id);
}

/** The core's combatant of a token's actor under the world's binding, going by the token's id. */
function statsOf(binding: RulesetBinding<unknown>, doc: TokenDocLike): unknown {
  if (!doc.actor) return undefined;
  try {
    return coreOf(doc.actor as unknown as ActorLike, doc.id ? { id: doc.id } : {}, binding);
  } catch {
    return undefined;
  }
}

/** Metres along a path of positions, measured on the scene's grid. */
function pathMetres(points: readonly Position[]): number {
  if (!canvas?.grid || points.length < 2) return 0;
  const path = canvas.grid.measurePath(
    points.map((p) => ({ x: p.x, y: p.y })),
    {},
  );
  return toMetres(path.cost ?? path.distance, canvas.grid.units);
}

/** What the movement hook stored for the round: metres moved and what that movement paid. */
interface MovedFlag {
  round?: number;
  metres?: number;
  paid?: ActionCost;
}

/** The legs of the round's movement by movement action (`flags.fray.movedLegs`). */
interface MovedLegsFlag {
  round?: number;
  legs?: MovedLeg[];
}

/**
 * What this token's combatant moved earlier this round, as the movement hook counted it
 * (`flags.fray.moved` of the round, and `flags.fray.movedLegs` with each leg's movement action):
 * the one source the ruler, both movement hooks and a ruleset's movement category (ZN-RNG-04) read. Nothing stored for this round is nothing moved yet.
 */
export function movedThisRound(combatant: CombatantLike | undefined): { metres: number; paid?: ActionCost; legs: MovedLeg[] } {
  const stored = combatant?.getFlag("fray", "moved") as MovedFlag | undefined;
  if (!stored || stored.round !== activeCombat()?.round || typeof stored.metres !== "number") return { metres: 0, legs: [] };
  const byAction = combatant?.getFlag("fray", "movedLegs") as MovedLegsFlag | undefined;
  const stamped = byAction && byAction.round === stored.round ? byAction.legs : undefined;
  const legs = Array.isArray(stamped) ? stamped.filter((l) => l && typeof l.action === "string" && typeof l.metres === "number") : [];
  return { metres: stored.metres, paid: stored.paid, legs };
}

/**
 * The legs of the part of a movement that was passed, by movement action (v13 waypoints carry
 * the action of the segment ending at them): consecutive segments of one action merged. Without
 * waypoints the whole part is one leg of the destination's action (walk when none).
 * @param metres the part's metres as {@link movementMetres} counted them (used without waypoints).
 */
export function movementLegs(movement: MovementLike, metres: number): MovedLeg[] {
  const waypoints = movement.passed?.waypoints;
  if (!Array.isArray(waypoints) || waypoints.length === 0)
    return metres > 0 ? [{ action: movement.destination.action ?? "walk", metres }] : [];
  const legs: MovedLeg[] = [];
  let from: Position = movement.origin;
  for (const to of waypoints) {
    const m = pathMetres([from, to]);
    const action = to.action ?? "walk";
    const last = legs.at(-1);
    if (m > 0) {
      if (last && last.action === action) last.metres += m;
      else legs.push({ action, metres: m });
    }
    from = to;
  }
  return legs;
}

/**
 * Metres of a movement: what was passed, plus what is still pending when `planned` (the whole
 * planned move, for refusing it before it is made). A stopped and continued movement fires
 * `moveToken` again for each part, so once made only the `passed` part counts.
 */
export function movementMetres(movement: MovementLike, planned = false): number {
  const units = canvas?.grid?.units;
  const part = (s: Section | undefined) => s?.cost ?? s?.distance ?? 0;
  const grid = part(movement.passed) + (planned ? part(movement.pending) : 0);
  return grid ? toMetres(grid, units) : pathMetres([movement.origin, movement.destination]);
}

/**
 * `preMoveToken`: with the `refuse` setting, a move that would end past the ruleset's last
 * movement band this round is refused with a localized notification (UD-MOV-03).
 */
export function onPreMoveToken(doc: TokenDocLike, movement: MovementLike): boolean | void {
  const policy: BeyondFullPolicy = beyondFullPolicy();
  const combatant = combatantOf(doc);
  if (policy !== "refuse" || !combatant) return;
  const binding = activeBinding();
  const stats = statsOf(binding, doc);
  if (stats === undefined) return;
  const bands = binding.ruleset.movement(stats, optionValues(binding.id));
  const total = movedThisRound(combatant).metres + movementMetres(movement, true);
  if (!bandAt(bands, total)) {
    warn("FRAY.Flow.Move.Refused", {
      token: doc.name ?? "",
      metres: Math.round(total * 10) / 10,
      full: bands[bands.length - 1]?.maxMetres ?? 0,
    });
    return false;
  }
}

/** Center of a position in metres. */
function centreMetres(p: Position): { x: number; y: number } {
  const grid = canvas!.grid!;
  const scale = toMetres(grid.distance, grid.units) / grid.size;
  return { x: (p.x + ((p.width ?? 1) * grid.size) / 2) * scale, y: (p.y + ((p.height ?? 1) * grid.size) / 2) * scale };
}

/** A token's spot at a position: its centre in metres and the grid spaces it occupies there. */
function spotAt(doc: TokenDocLike, p: Position): Spot {
  const grid = canvas!.grid! as { isGridless?: boolean };
  let offsets: GridOffset[] | undefined;
  if (!grid.isGridless && doc.getOccupiedGridSpaceOffsets) {
    try {
      offsets = doc.getOccupiedGridSpaceOffsets({ x: p.x, y: p.y, width: p.width ?? doc.width, height: p.height ?? doc.height });
    } catch {
      offsets = undefined;
    }
  }
  return { ...centreMetres({ width: doc.width, height: doc.height, ...p }), ...(offsets?.length ? { offsets } : {}) };
}

/**
 * Melee adjacency on the current scene: grid spaces tested with `grid.testAdjacency` where the
 * scene has a grid, else a reach of one grid space measured along `grid.measurePath`.
 */
function sceneAdjacency(): Adjacency {
  const grid = canvas!.grid! as {
    distance: number;
    units: string;
    isGridless?: boolean;
    testAdjacency?(a: GridOffset, b: GridOffset): boolean;
  };
  const reach = toMetres(grid.distance, grid.units);
  const otherwise = withinReach(reach);
  if (grid.isGridless || typeof grid.testAdjacency !== "function") return otherwise;
  return bySpaces((a, b) => grid.testAdjacency!(a, b), otherwise);
}

/** Another token of the combat: its placed point, document and the core's combatant. */
interface Other {
  placed: Placed;
  doc: TokenDocLike;
  stats?: unknown;
}

/** The other tokens of the combat as placed points, with their documents. */
function othersInCombat(binding: RulesetBinding<unknown>, mover: TokenDocLike): Other[] {
  const out: Other[] = [];
  for (const c of Array.from((activeCombat()?.combatants ?? []) as Iterable<{ token?: TokenDocLike | null; defeated?: boolean }>)) {
    const doc = c.token;
    if (!doc || doc.id === mover.id) continue;
    const stats = statsOf(binding, doc);
    const gone = Boolean(c.defeated) || (stats !== undefined && isOutOf(binding, stats));
    out.push({
      placed: { id: doc.id ?? "", disposition: doc.disposition, ...spotAt(doc, doc), out: gone },
      doc,
      ...(stats !== undefined ? { stats } : {}),
    });
  }
  return out;
}

/** A token as the binding's `onLeaveMelee` reads it. */
function meleeToken(doc: TokenDocLike, stats: unknown): MeleeToken<unknown> {
  return { combatant: stats, name: doc.name ?? "", tokenUuid: doc.uuid, actorUuid: doc.actor?.uuid ?? "" };
}

/**
 * The engaged melee opponents a move from `origin` to `destination` leaves behind (UD-OPT-01,
 * CR-MOV-01): standing tokens of the active combat of another disposition, adjacent at the
 * origin and no longer at the destination, read from the scene's documents as they are now.
 * Empty outside a started combat or without a scene grid.
 */
export function meleeLeft(doc: TokenDocLike, origin: Position, destination: Position): MeleeToken<unknown>[] {
  if (!activeCombat()?.started || !canvas?.grid) return [];
  const binding = activeBinding();
  const others = othersInCombat(binding, doc);
  const mover: Placed = { id: doc.id ?? "", disposition: doc.disposition, ...spotAt(doc, origin) };
  return leftBehind(
    mover,
    spotAt(doc, destination),
    others.map((o) => o.placed),
    sceneAdjacency(),
  )
    .map((p) => others.find((o) => o.placed.id === p.id)!)
    .filter((o) => o.stats !== undefined)
    .map((o) => meleeToken(o.doc, o.stats));
}

/**
 * True when two placed tokens stand adjacent on the current scene (grid spaces, or one grid space
 * of reach on a gridless scene), as melee engagement counts it (CR-BLD-02 treating another).
 */
export function tokensAdjacent(a: TokenDocLike, b: TokenDocLike): boolean {
  if (!canvas?.grid) return false;
  return sceneAdjacency()(spotAt(a, a), { id: b.id ?? "", disposition: b.disposition, ...spotAt(b, b) });
}

/**
 * The option a move is made with when the GM only puts a token back (`{ fray: { revert: true } }`):
 * it is not charged. Honoured only on a GM's move (V1): a player's client may pass any option.
 */
export const REVERT_MOVE = { fray: { revert: true } } as const;

/**
 * True when a move is a GM's revert (CR-MOV-01, UD-OPT-01): the update carried {@link REVERT_MOVE}
 * and the user who moved is a GM. The option of a player's move counts for nothing: leave-melee
 * checks and the move's charge apply as to any move.
 */
export function isGMRevert(operation: unknown, user: { isGM?: boolean } | null | undefined): boolean {
  return Boolean(user?.isGM) && (operation as { fray?: { revert?: unknown } } | null | undefined)?.fray?.revert === true;
}

/**
 * `moveToken` on the client that moved the token. A continued movement counts only what was
 * passed in this part (`movement.passed`), added to what the round's movement already covered.
 * When the move leaves engaged opponents and the binding has `onLeaveMelee`, that decides what
 * the move is (UD10: Flee, each left opponent gets a free attack, UD-OPT-01; Retreat, the whole
 * round, UD-OPT-02). Then spends the move's charge with the disengagement's cost folded in
 * (UD-MOV-02, UD-MOV-03, ZN-MOV-01, CR-MOV-02).
 */
export async function onMoveToken(
  doc: TokenDocLike,
  movement: MovementLike,
  operation: unknown,
  user: { id: string | null; isGM?: boolean },
): Promise<void> {
  if (user.id !== game.user?.id) return;
  // A token the GM put back where it was (a refused move undone) moves nothing this round.
  if (isGMRevert(operation, user)) return;
  const combatant = combatantOf(doc);
  if (!combatant || !canvas?.grid) return;
  const binding = activeBinding();
  const stats = statsOf(binding, doc);
  if (stats === undefined) return;
  const options = optionValues(binding.id);
  const moved = movementMetres(movement);
  const before = movedThisRound(combatant);
  let leaving: Awaited<ReturnType<NonNullable<RulesetBinding<unknown>["onLeaveMelee"]>>>;
  if (binding.onLeaveMelee) {
    const left = meleeLeft(doc, movement.origin, movement.destination);
    if (left.length) leaving = await binding.onLeaveMelee({ mover: meleeToken(doc, stats), left, options });
  }
  const basis = {
    fromMetres: before.metres,
    toMetres: before.metres + moved,
    ...(leaving?.disengage ? { disengage: leaving.disengage } : {}),
  };
  let charge: ActionCost = {};
  try {
    charge = moveCharge(rulesetView(combatant), basis, before.paid);
  } catch (err) {
    reportError(err);
  }
  const paid = addCosts(before.paid ?? {}, charge);
  if (combatant.isOwner) {
    const round = activeCombat()?.round ?? 0;
    await replaceFlag(combatant, "moved", { round, metres: before.metres + moved, paid });
    await replaceFlag(combatant, "movedLegs", { round, legs: [...before.legs, ...movementLegs(movement, moved)] });
  }
  if (charge.slots || charge.pools) {
    const short = await spendAvailable(combatant, moveEvent(charge), basis);
    if (short) {
      const band = bandAt(binding.ruleset.movement(stats, options), before.metres + moved);
      warn("FRAY.Flow.Move.OverBudget", { token: doc.name ?? "", band: band?.label ?? "FRAY.Flow.Move.beyond" });
    }
  }
  await leaving?.after?.();
}
