/**
 * A combatant's round economy as the tracker shows it and as play spends it (UD-ACT-01,
 * UD-ACT-02, UD-REA-01, UD-MOV-02, UD-MOV-03, UD-OPT-01, UD-OPT-02). Pure: the Foundry glue
 * stores the {@link Economy} on the combatant's flags.
 */
import { createEconomy, shortfall, spend, type ActionCost, type Economy, type EconomySpec } from "../../rules/core/economy.js";
import type { ReactionOption } from "../../rules/core/ruleset.js";
import { ACTIONS } from "../../rules/ud10/movement.js";

/**
 * What a combatant does in a round that costs something, with the cost the core gives it: an
 * action's `ACTIONS[...].cost` (UD-ACT-02), a reaction's `ReactionOption.cost` (UD-REA-01), a
 * movement band's charge (`movementCharge`, UD-MOV-02, UD-MOV-03), a disengagement's
 * `Disengagement.cost` folded into that charge (UD-OPT-01, UD-OPT-02); a free attack costs nothing.
 */
export interface RoundEvent {
  kind: "attack" | "action" | "freeAttack" | "reaction" | "move";
  /** The core's action id, for `attack` and `action`. */
  action?: string;
  cost: ActionCost;
}

/**
 * The event of one of the core's actions (UD-ACT-02): its cost as `ACTIONS` gives it.
 * @throws Error for an id that is not one of the core's actions.
 */
export function actionEvent(action: string): RoundEvent {
  const def = ACTIONS.find((a) => a.id === action);
  if (!def) throw new Error(`Unknown UD10 action "${action}"`);
  return { kind: action === "attack" ? "attack" : "action", action, cost: def.cost };
}

/** The event of a reaction (UD-REA-01): the option's own cost. */
export function reactionEvent(option: Pick<ReactionOption, "cost">): RoundEvent {
  return { kind: "reaction", cost: option.cost };
}

/** The event of a move: the core's charge for it (`movementCharge`). */
export function moveEvent(cost: ActionCost): RoundEvent {
  return { kind: "move", cost };
}

/** The event of a free attack (UD-OPT-01): it costs the attacker nothing. */
export const FREE_ATTACK_EVENT: RoundEvent = { kind: "freeAttack", cost: {} };

/** The cost of one event: what the core gave it. */
export function eventCost(event: RoundEvent): ActionCost {
  return event.cost ?? {};
}

/** An economy as stored on a Combatant: stamped with the combat round it belongs to. */
export interface StoredEconomy extends Economy {
  /** The combat round the economy was written in; absent in data of older versions. */
  round?: number;
}

/**
 * A stored economy read back: the spec's slots with their stored uses, the spec's pools with
 * their stored points (clamped to the pool's bounds), so pools that do not refill (Critical AP
 * spent, Zones speed points) survive a read. A fresh economy when nothing usable is stored (a
 * new combatant, data of an older version), or when it is stamped with an older round than
 * `round`: a round whose reset was missed never freezes a combatant (UD-ACT-01).
 * @param stored what the Combatant's `flags.fray.economy` holds.
 * @param spec the ruleset's economy for the combatant.
 * @param round the combat's current round; without it the stamp is not checked.
 * @returns the economy, keeping the stored stamp (`round`) when there was one.
 */
export function readEconomy(stored: unknown, spec: EconomySpec, round?: number): StoredEconomy {
  const fresh: StoredEconomy = createEconomy(spec);
  if (typeof stored !== "object" || stored === null) return fresh;
  const stamp = (stored as { round?: unknown }).round;
  if (typeof round === "number" && typeof stamp === "number" && stamp < round) return { ...fresh, round };
  const slots = (stored as { slots?: Record<string, { used?: unknown }> }).slots ?? {};
  for (const [id, slot] of Object.entries(fresh.slots)) {
    const used = slots[id]?.used;
    if (typeof used === "number" && used >= 0) slot.used = used;
  }
  const pools = (stored as { pools?: Record<string, { value?: unknown }> }).pools ?? {};
  for (const [id, pool] of Object.entries(fresh.pools)) {
    const value = pools[id]?.value;
    if (typeof value === "number" && Number.isFinite(value)) pool.value = Math.max(0, Math.min(pool.max, value));
  }
  if (typeof stamp === "number") fresh.round = stamp;
  return fresh;
}

/**
 * True when a stored economy belongs to an older round than `round` (its reset was missed); an
 * unstamped economy is taken as current.
 */
export function isStale(stored: unknown, round: number): boolean {
  const stamp = typeof stored === "object" && stored !== null ? (stored as { round?: unknown }).round : undefined;
  return typeof stamp === "number" && stamp < round;
}

/** An economy stamped with the round it is written in, as it is stored. */
export function stamped(economy: Economy, round: number): StoredEconomy {
  return { slots: economy.slots, pools: economy.pools, round };
}

/**
 * Spends what an event costs. Returns the new economy and the slot that was short, if any: a move past the
 * budget or a second reaction is refused by the caller, other shortfalls are reported.
 */
export function spendEvent(economy: Economy, event: RoundEvent): { economy: Economy; short?: string } {
  const cost = eventCost(event);
  const short = shortfall(economy, cost);
  if (short) return { economy, short };
  return { economy: spend(economy, cost) };
}

/** One pip of the tracker: a slot with its uses. */
export interface Pip {
  slot: string;
  /** i18n key of the slot (`FRAY.Slot.action`). */
  label: string;
  used: number;
  /** `null` for free actions, "within reason". */
  max: number | null;
  spent: boolean;
}

/** The tracker's pips for an economy, in the spec's slot order. */
export function pips(economy: Economy, spec: EconomySpec): Pip[] {
  return spec.slots.map((s) => {
    const slot = economy.slots[s.id] ?? { used: 0, max: s.max };
    return { slot: s.id, label: s.label, used: slot.used, max: slot.max, spent: slot.max !== null && slot.used >= slot.max };
  });
}

/** The slots the GM may mark used or unused from the tracker (UD-ACT-01, UD-REA-01). */
export const TOGGLED_SLOTS = ["movement", "action", "reaction"] as const;

/**
 * The economy with one slot toggled by the GM: a spent slot becomes unused, any other is
 * marked fully used (UD-ACT-01, UD-REA-01). Slots without a limit and unknown slots stay as
 * they are; the input is not changed.
 */
export function toggledSlot(economy: Economy, slot: string): Economy {
  const current = economy.slots[slot];
  if (!current || current.max === null || !(TOGGLED_SLOTS as readonly string[]).includes(slot)) return economy;
  const spent = current.used >= current.max;
  return { ...economy, slots: { ...economy.slots, [slot]: { ...current, used: spent ? 0 : current.max } } };
}
