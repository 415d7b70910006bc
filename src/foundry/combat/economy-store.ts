/**
 * The round economy stored on each Combatant (`flags.fray.economy`) and spent by what the
 * combatant does (UD-ACT-01, UD-ACT-02, UD-REA-01, UD-MOV-03, UD-OPT-01, UD-OPT-02). Spending on a
 * combatant the user does not own goes through the active GM, who authorizes the requester against
 * the combatant's actor and recomputes the cost from the event's kind through the core: no cost a
 * client sends is ever spent.
 */
import { FrayError } from "../../rules/core/errors.js";
import { affordable, createEconomy, type ActionCost, type Economy } from "../../rules/core/economy.js";
import { disengage, movementCharge, economy as ud10Economy } from "../../rules/ud10/movement.js";
import { ud10Options } from "../../rules/ud10/options.js";
import { actorSource } from "../attack.js";
import { actionEvent, FREE_ATTACK_EVENT, readEconomy, spendEvent, toggledSlot, type RoundEvent } from "../logic/economy.js";
import { warn } from "../notify.js";
import { askGM, QUERIES, refusal, type Requester, type RequestAnswer } from "../queries.js";
import { ud10OptionValues } from "../settings.js";
import { ud10CombatantFromActor } from "../sources.js";

/** What the store reads and writes on a Combatant. */
export interface CombatantLike {
  id: string | null;
  isOwner: boolean;
  actorId?: string | null;
  tokenId?: string | null;
  actor?: { uuid?: string; id?: string | null } | null;
  combat?: { id: string | null; round?: number } | null;
  getFlag(scope: string, key: string): unknown;
  setFlag(scope: string, key: string, value: unknown): Promise<unknown>;
}

/** The UD10 economy spec (UD-ACT-01). */
export const ECONOMY_SPEC = ud10Economy();

/** A combatant's economy this round. */
export function economyOf(combatant: CombatantLike): Economy {
  return readEconomy(combatant.getFlag("fray", "economy"), ECONOMY_SPEC);
}

/** The active combat as the flow reads it. */
export interface CombatView {
  id: string | null;
  started: boolean;
  round: number;
  combatants: Iterable<unknown> & { get(id: string): unknown };
}

/** The active combat, if any. */
export function activeCombat(): CombatView | undefined {
  return (game.combat ?? undefined) as unknown as CombatView | undefined;
}

/** A fresh economy, as written at the start of each round. */
export function freshEconomy(): Economy {
  return createEconomy(ECONOMY_SPEC);
}

/**
 * The combatant of an actor (or its token) in the active combat, when there is one.
 * @param actor the actor acting.
 * @param tokenId its token's id on the combat's scene, when known.
 */
export function combatantFor(actor: { id?: string | null; uuid?: string } | null | undefined, tokenId?: string | null): CombatantLike | undefined {
  const combat = activeCombat();
  if (!combat || !actor) return undefined;
  const list = Array.from(combat.combatants) as CombatantLike[];
  return (tokenId ? list.find((c) => c.tokenId === tokenId) : undefined) ?? list.find((c) => c.actor?.uuid === actor.uuid || c.actorId === actor.id);
}

/**
 * What a move covered, for the GM to recompute its charge through the core (UD-MOV-02, UD-MOV-03,
 * UD-OPT-01, UD-OPT-02): metres moved this round before and after it, and the disengagement taken.
 */
export interface MoveBasis {
  fromMetres: number;
  toMetres: number;
  disengage?: "flee" | "retreat";
}

/**
 * Spends an event on a combatant's economy: on the owner's client directly, else through the
 * active GM (request `fray.spend` with the event's kind, never its cost).
 * @param basis for a move, what it covered (the GM recomputes the charge from it).
 * @returns the slot that was short (nothing spent), or `undefined` when paid.
 */
export async function spendOn(combatant: CombatantLike, event: RoundEvent, basis?: MoveBasis): Promise<string | undefined> {
  const { economy, short } = spendEvent(economyOf(combatant), event);
  if (short) return short;
  if (combatant.isOwner) await combatant.setFlag("fray", "economy", economy);
  else {
    const answer = await askGM(QUERIES.spend, { combatId: combatant.combat?.id ?? "", combatantId: combatant.id ?? "", kind: event.kind, action: event.action, move: basis });
    return answer?.short ?? (answer?.ok ? undefined : "refused");
  }
  return undefined;
}

function finite(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * The cost of a requested event, recomputed through the core from its kind: an action's cost
 * from `ACTIONS` (UD-ACT-02), a reaction's (UD-REA-01: one reaction slot, the cost of every UD10
 * reaction option), nothing for a free attack (UD-OPT-01), a move's charge from the metres it
 * covered and the disengagement's cost (UD-MOV-02, UD-MOV-03, UD-OPT-01, UD-OPT-02).
 * @throws FrayError `FRAY.Error.Field` naming the field that does not describe an event.
 */
export function requestedCost(data: Record<string, unknown>, actor: unknown): ActionCost {
  const bad = (field: string, expected: string) => new FrayError("FRAY.Error.Field", { field, expected }, `Field "${field}": expected ${expected}`);
  switch (data.kind) {
    case "attack":
    case "action": {
      if (typeof data.action !== "string") throw bad("action", "one of the core's actions");
      try {
        return actionEvent(data.action).cost;
      } catch {
        throw bad("action", "one of the core's actions");
      }
    }
    case "freeAttack":
      return FREE_ATTACK_EVENT.cost;
    case "reaction":
      return { slots: { reaction: 1 } };
    case "move": {
      const move = (data.move ?? {}) as Record<string, unknown>;
      const from = finite(move.fromMetres);
      const to = finite(move.toMetres);
      if (from === undefined || to === undefined || to < from) throw bad("move", "metres moved this round, before and after, 0 or more");
      const mode = move.disengage;
      if (mode !== undefined && mode !== "flee" && mode !== "retreat") throw bad("move.disengage", "flee or retreat");
      const stats = ud10CombatantFromActor(actorSource(actor as never));
      const also = mode ? disengage([], mode, ud10Options(ud10OptionValues())).cost : undefined;
      return movementCharge(stats, from, to, { also });
    }
    default:
      throw bad("kind", "attack, action, freeAttack, reaction or move");
  }
}

/**
 * The active GM's side of {@link spendOn}: the requester must own the combatant's actor (or be a
 * GM); the cost is recomputed from the event's kind ({@link requestedCost}); a shortfall spends
 * nothing.
 */
export async function handleSpendQuery(data: Record<string, unknown>, requester: Requester): Promise<RequestAnswer> {
  const combat = game.combats?.get(String(data.combatId)) as unknown as { combatants: { get(id: string): CombatantLike | undefined } } | undefined;
  const combatant = combat?.combatants.get(String(data.combatantId));
  if (!combatant) return refusal("FRAY.Flow.Error.Refused");
  const actor = combatant.actor as (CombatantLike["actor"] & { testUserPermission?(user: unknown, level: "OWNER"): boolean }) | null | undefined;
  const user = (game.users as unknown as { get(id: string): unknown } | undefined)?.get(requester.id);
  if (!requester.isGM && !(actor && user && actor.testUserPermission?.(user, "OWNER"))) {
    return refusal("FRAY.Flow.Error.NotYourCombatant");
  }
  const cost = requestedCost(data, actor);
  const { economy, short } = spendEvent(economyOf(combatant), { kind: "action", cost });
  if (short) return { ok: false, short };
  await combatant.setFlag("fray", "economy", economy);
  return { ok: true };
}

/**
 * Spends an event, or when the economy is short, what it can still pay of it (a move or a
 * retreat already made is paid as far as the round allows, UD-MOV-03, UD-OPT-02).
 * @returns the slot that was short, or `undefined` when fully paid.
 */
export async function spendAvailable(combatant: CombatantLike, event: RoundEvent, basis?: MoveBasis): Promise<string | undefined> {
  const short = await spendOn(combatant, event, basis);
  if (!short) return undefined;
  const part = affordable(economyOf(combatant), event.cost);
  // What is still affordable is only spent on the owner's client: the GM spends whole events.
  if ((part.slots || part.pools) && combatant.isOwner) await spendOn(combatant, { ...event, cost: part });
  return short;
}

/**
 * The GM marks one slot of a combatant's round (movement, action, reaction) used or unused from
 * the tracker's pips (UD-ACT-01, UD-REA-01), to correct what play spent. Players are refused
 * with a localized warning.
 * @returns true when the economy was written.
 */
export async function toggleSlotOn(combatant: CombatantLike, slot: string): Promise<boolean> {
  if (!game.user?.isGM) {
    warn("FRAY.Flow.Tracker.GMOnly");
    return false;
  }
  const before = economyOf(combatant);
  const after = toggledSlot(before, slot);
  if (after === before) return false;
  await combatant.setFlag("fray", "economy", after);
  return true;
}
