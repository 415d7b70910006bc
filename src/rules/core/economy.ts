import { FrayError } from "./errors.js";
import type { RuleId, Track } from "./types.js";

/**
 * A per-round action economy, shared by every ruleset: slots (UD10 movement/action/reaction/free,
 * Zones action/reaction/free, Hitbox one action) and point pools (Critical's 4 AP, Zones speed
 * points and effort points).
 */
export interface SlotSpec {
  id: string;
  /** i18n key, `FRAY.Slot.*`. */
  label: string;
  /** Uses per round; `null` for "within reason" (UD10 free actions). */
  max: number | null;
  rule: RuleId;
}

/** A pool of points per round (AP, speed points). */
export interface PoolSpec {
  id: string;
  label: string;
  max: number;
  rule: RuleId;
  /**
   * Points at the start of the round when the pool does not refill every round (Zones speed
   * points, regained by an action, and effort points); `max` when absent.
   */
  value?: number;
}

/** The economy a combatant starts each round with. */
export interface EconomySpec {
  slots: SlotSpec[];
  pools: PoolSpec[];
}

/** Spent and remaining uses in a round. */
export interface Economy {
  slots: Record<string, { used: number; max: number | null }>;
  pools: Record<string, Track>;
}

/** What something costs: slot uses and pool points. */
export interface ActionCost {
  slots?: Record<string, number>;
  pools?: Record<string, number>;
}

/** A fresh economy for the start of a round. */
export function createEconomy(spec: EconomySpec): Economy {
  // Plain loops: every combatant of every fight gets a fresh economy each round.
  const slots: Economy["slots"] = {};
  for (const s of spec.slots) slots[s.id] = { used: 0, max: s.max };
  const pools: Economy["pools"] = {};
  for (const p of spec.pools) pools[p.id] = { value: Math.min(p.value ?? p.max, p.max), max: p.max };
  return { slots, pools };
}

/** The first slot or pool the cost cannot be paid from, or `undefined` when it can be paid. */
export function shortfall(economy: Economy, cost: ActionCost): string | undefined {
  // Plain loops over the keys: the round engine checks a cost on every action of every fight.
  // `for in` over plain records, which lists their own keys as `Object.keys` does, without the array.
  const slots = cost.slots;
  if (slots)
    for (const id in slots) {
      const slot = economy.slots[id];
      if (!slot) return id;
      if (slot.max !== null && slot.used + slots[id]! > slot.max) return id;
    }
  const pools = cost.pools;
  if (pools)
    for (const id in pools) {
      const pool = economy.pools[id];
      if (!pool || pool.value < pools[id]!) return id;
    }
  return undefined;
}

/**
 * Pays a cost, returning the new economy (the input is not changed).
 * @throws FrayError `FRAY.Error.Economy` naming the slot or pool that is spent.
 */
export function spend(economy: Economy, cost: ActionCost): Economy {
  const missing = shortfall(economy, cost);
  if (missing) {
    throw new FrayError("FRAY.Error.Economy", { slot: missing }, `No ${missing} left this round`);
  }
  return charge(economy, cost);
}

/**
 * {@link spend} for a cost already known to be affordable ({@link shortfall} said so): the new
 * economy, the input not changed. Only the records the cost touches are copied, and in them only
 * the slots and pools it touches; everything else is shared with `economy`, which nothing changes
 * in place (every change goes through a new economy). A cost of nothing gives `economy` itself.
 * Unchecked: a cost beyond the economy leaves a slot over its `max` or a pool below 0.
 */
export function charge(economy: Economy, cost: ActionCost): Economy {
  const slots = cost.slots;
  const pools = cost.pools;
  let nextSlots = economy.slots;
  let nextPools = economy.pools;
  // `for in` over plain records, as `shortfall` walks them: the round engine pays on every action of every fight.
  if (slots)
    for (const id in slots) {
      if (nextSlots === economy.slots) nextSlots = { ...nextSlots };
      const slot = nextSlots[id]!;
      nextSlots[id] = { used: slot.used + slots[id]!, max: slot.max };
    }
  if (pools)
    for (const id in pools) {
      if (nextPools === economy.pools) nextPools = { ...nextPools };
      const pool = nextPools[id]!;
      nextPools[id] = { value: pool.value - pools[id]!, max: pool.max };
    }
  return nextSlots === economy.slots && nextPools === economy.pools ? economy : { slots: nextSlots, pools: nextPools };
}

/**
 * The part of a cost the economy can still pay, slot by slot and pool by pool (a retreat after
 * the action was spent takes what is left of the round, UD-OPT-02).
 */
export function affordable(economy: Economy, cost: ActionCost): ActionCost {
  const out: ActionCost = {};
  for (const [id, n] of Object.entries(cost.slots ?? {})) {
    const slot = economy.slots[id];
    const left = !slot ? 0 : slot.max === null ? n : Math.max(0, slot.max - slot.used);
    if (Math.min(n, left) > 0) (out.slots ??= {})[id] = Math.min(n, left);
  }
  for (const [id, n] of Object.entries(cost.pools ?? {})) {
    const left = Math.max(0, economy.pools[id]?.value ?? 0);
    if (Math.min(n, left) > 0) (out.pools ??= {})[id] = Math.min(n, left);
  }
  return out;
}
