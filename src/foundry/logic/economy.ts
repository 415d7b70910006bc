/**
 * A combatant's round economy as the tracker shows it and as play spends it (UD-ACT-01,
 * UD-ACT-02, UD-REA-01, UD-MOV-02, UD-MOV-03, UD-OPT-01, UD-OPT-02). Pure: the Foundry glue
 * stores the {@link Economy} on the combatant's flags.
 */
import { createEconomy, shortfall, spend, type ActionCost, type Economy, type EconomySpec } from "../../rules/core/economy.js";
import { ACTIONS } from "../../rules/ud10/movement.js";

/** What a combatant does in a round that costs something. */
export type RoundEvent =
  | { kind: "attack" }
  /** One of the core's other actions (ready, reload, useItem, skill), UD-ACT-02. */
  | { kind: "action"; action: string }
  | { kind: "freeAttack" }
  | { kind: "reaction" }
  | { kind: "move"; cost: ActionCost }
  | { kind: "flee" }
  | { kind: "retreat" };

/** The cost of one event (UD-ACT-02 attack and the core's other actions, UD-REA-01 reaction, UD-OPT-01 flee, UD-OPT-02 retreat). */
export function eventCost(event: RoundEvent): ActionCost {
  switch (event.kind) {
    case "attack":
      return { slots: { action: 1 } };
    case "action":
      return ACTIONS.find((a) => a.id === event.action)?.cost ?? { slots: { action: 1 } };
    case "freeAttack":
      return {};
    case "reaction":
      return { slots: { reaction: 1 } };
    case "move":
      return event.cost;
    case "flee":
      return { slots: { movement: 1 } };
    case "retreat":
      return { slots: { movement: 1, action: 1, reaction: 1 } };
  }
}

/**
 * A stored economy read back; a fresh one when nothing usable is stored (a new combatant, a new
 * round, data of an older version).
 */
export function readEconomy(stored: unknown, spec: EconomySpec): Economy {
  const fresh = createEconomy(spec);
  if (typeof stored !== "object" || stored === null) return fresh;
  const slots = (stored as { slots?: Record<string, { used?: unknown }> }).slots ?? {};
  for (const [id, slot] of Object.entries(fresh.slots)) {
    const used = slots[id]?.used;
    if (typeof used === "number" && used >= 0) slot.used = used;
  }
  return fresh;
}

/**
 * Spends what an event costs, clamping movement costs that were already paid (moving further
 * after a flee). Returns the new economy and the slot that was short, if any: a move past the
 * budget or a second reaction is refused by the caller, other shortfalls are reported.
 */
export function spendEvent(economy: Economy, event: RoundEvent): { economy: Economy; short?: string } {
  const cost = eventCost(event);
  const short = shortfall(economy, cost);
  if (short) return { economy, short };
  return { economy: spend(economy, cost) };
}

/** The economy after replaying a round's events in order; events that cannot be paid are skipped. */
export function economyFromEvents(spec: EconomySpec, events: readonly RoundEvent[]): Economy {
  let economy = createEconomy(spec);
  for (const e of events) economy = spendEvent(economy, e).economy;
  return economy;
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

/** True when the reaction of the round is still there (UD-REA-01). */
export function hasReaction(economy: Economy): boolean {
  const r = economy.slots.reaction;
  return !r || r.max === null || r.used < r.max;
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
