/**
 * The round economy stored on each Combatant (`flags.fray.economy`) and spent by what the
 * combatant does (UD-ACT-01, UD-ACT-02, UD-REA-01, UD-MOV-03, UD-OPT-01, UD-OPT-02). Spending on a
 * combatant the user does not own goes through the active GM.
 */
import { affordable, createEconomy, type Economy } from "../../rules/core/economy.js";
import { economy as ud10Economy } from "../../rules/ud10/movement.js";
import { readEconomy, spendEvent, toggledSlot, type RoundEvent } from "../logic/economy.js";
import { warn } from "../notify.js";
import { askGM, QUERIES } from "../queries.js";

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
 * Spends an event on a combatant's economy.
 * @returns the slot that was short (nothing spent), or `undefined` when paid.
 */
export async function spendOn(combatant: CombatantLike, event: RoundEvent): Promise<string | undefined> {
  const { economy, short } = spendEvent(economyOf(combatant), event);
  if (short) return short;
  if (combatant.isOwner) await combatant.setFlag("fray", "economy", economy);
  else await askGM(QUERIES.spend, { combatId: combatant.combat?.id ?? "", combatantId: combatant.id ?? "", event });
  return undefined;
}

/** The GM's side of {@link spendOn} for a combatant the requesting user does not own. */
export async function handleSpendQuery(data: Record<string, unknown>): Promise<{ short?: string }> {
  const combat = game.combats?.get(String(data.combatId)) as unknown as { combatants: { get(id: string): CombatantLike | undefined } } | undefined;
  const combatant = combat?.combatants.get(String(data.combatantId));
  if (!combatant) return { short: "combatant" };
  const { economy, short } = spendEvent(economyOf(combatant), data.event as RoundEvent);
  if (!short) await combatant.setFlag("fray", "economy", economy);
  return { short };
}

/**
 * Spends an event, or when the economy is short, what it can still pay of it (a move or a
 * retreat already made is paid as far as the round allows, UD-MOV-03, UD-OPT-02).
 * @returns the slot that was short, or `undefined` when fully paid.
 */
export async function spendAvailable(combatant: CombatantLike, event: RoundEvent): Promise<string | undefined> {
  const short = await spendOn(combatant, event);
  if (!short) return undefined;
  const part = affordable(economyOf(combatant), event.cost);
  if (part.slots || part.pools) await spendOn(combatant, { ...event, cost: part });
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
