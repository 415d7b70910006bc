/**
 * A combatant's round economy as the tracker shows it and as play spends it, for any ruleset:
 * slots (UD-ACT-01 movement, action, reaction; ZN-ACT-01) and pools (CR-AP-01 action points,
 * ZN-MOV-01 speed points), costs from the ruleset's `actions()` (UD-ACT-02), reactions
 * (UD-REA-01), moves (UD-MOV-02, UD-MOV-03) and disengagements (UD-OPT-01, UD-OPT-02). Pure: the
 * Foundry glue stores the {@link Economy} on the combatant's flags.
 */
import type { ActionDef, ActionOutcome } from "../../rules/core/contract.js";
import { createEconomy, shortfall, spend, type ActionCost, type Economy, type EconomySpec } from "../../rules/core/economy.js";
import type { MovementBand, ReactionOption } from "../../rules/core/ruleset.js";

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
  /**
   * What the attack turned out to be, for the ruleset's `afterAction` on the owner's side (a
   * Critical fumble ends the round, CR-ATK-01); absent, the action is passed by its id.
   */
  outcome?: ActionOutcome;
}

/**
 * What an action costs where the caller does not know the combatant's actions: the round's one
 * action (UD-ACT-02). The economy store recomputes the real cost from the ruleset's `actions()`
 * before it spends anything, so this only serves an early check.
 */
export const ONE_ACTION: ActionCost = { slots: { action: 1 } };

/**
 * The event of one of the ruleset's actions (UD-ACT-02, CR-AP-01, ZN-ACT-01): its cost as the
 * ruleset's `actions()` give it. Without `defs` the cost is {@link ONE_ACTION}.
 * @param defs the acting combatant's actions (`ruleset.actions(c, options)`).
 * @throws Error for an id that is not one of `defs`.
 */
export function actionEvent(action: string, defs?: readonly ActionDef[]): RoundEvent {
  const kind = action === "attack" ? "attack" : "action";
  if (!defs) return { kind, action, cost: ONE_ACTION };
  const def = defs.find((a) => a.id === action);
  if (!def) throw new Error(`Unknown action "${action}"`);
  return { kind: def.kind === "attack" ? "attack" : kind, action, cost: def.cost };
}

/**
 * The cost of the ruleset's reaction (UD-REA-01, HB-ACT-01, ZN-REA-01): the action of kind
 * `reaction` with the given id, else the first one; one reaction slot when the ruleset lists none.
 */
export function reactionCost(defs: readonly ActionDef[], id?: string): ActionCost {
  const reactions = defs.filter((a) => a.kind === "reaction");
  return (reactions.find((a) => a.id === id) ?? reactions[0])?.cost ?? { slots: { reaction: 1 } };
}

/** Adds two costs slot by slot and pool by pool. */
export function addCosts(a: ActionCost, b: ActionCost): ActionCost {
  const out: ActionCost = {};
  for (const key of ["slots", "pools"] as const) {
    const sum: Record<string, number> = { ...(a[key] ?? {}) };
    for (const [id, n] of Object.entries(b[key] ?? {})) sum[id] = (sum[id] ?? 0) + n;
    if (Object.keys(sum).length) out[key] = sum;
  }
  return out;
}

/** Slot by slot and pool by pool, the larger of two costs. */
export function largerCost(a: ActionCost, b: ActionCost): ActionCost {
  const out: ActionCost = {};
  for (const key of ["slots", "pools"] as const) {
    const max: Record<string, number> = { ...(a[key] ?? {}) };
    for (const [id, n] of Object.entries(b[key] ?? {})) max[id] = Math.max(max[id] ?? 0, n);
    if (Object.keys(max).length) out[key] = max;
  }
  return out;
}

/**
 * The charge of a move through the ruleset's movement bands (UD-MOV-02, UD-MOV-03, ZN-MOV-01,
 * CR-MOV-02): what the band of the metres moved this round after the move costs, with `also` (a
 * disengagement's cost, which takes the movement it needs) folded in slot by slot, beyond what
 * the round's movement has paid (`paid`, else the band reached before the move). A move beyond
 * every band is charged as the furthest band.
 * @param band the ruleset's `movementBand` for the mover (metres to band).
 * @param bands the mover's bands, nearest first, for a move beyond them.
 * @param fromMetres metres moved this round before the move, 0 or more.
 * @param toMetres metres moved this round after it, `fromMetres` or more.
 * @param paidBefore what the round's movement has paid already, when known.
 */
export function bandCharge(
  band: (metres: number) => MovementBand | undefined,
  bands: readonly MovementBand[],
  fromMetres: number,
  toMetres: number,
  also: ActionCost = {},
  paidBefore?: ActionCost,
): ActionCost {
  const costOf = (metres: number): ActionCost => (metres <= 0 ? {} : ((band(metres) ?? bands[bands.length - 1])?.cost ?? {}));
  const paid = paidBefore ?? costOf(fromMetres);
  const due = largerCost(costOf(toMetres), also);
  const out: ActionCost = {};
  for (const key of ["slots", "pools"] as const) {
    const extra: Record<string, number> = {};
    for (const [id, n] of Object.entries(due[key] ?? {})) {
      const more = n - (paid[key]?.[id] ?? 0);
      if (more > 0) extra[id] = more;
    }
    if (Object.keys(extra).length) out[key] = extra;
  }
  return out;
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

/** One pool of the tracker, shown as a `value/max` badge (CR-AP-01 AP, ZN-MOV-01 speed points). */
export interface PoolBadge {
  pool: string;
  /** i18n key of the pool. */
  label: string;
  value: number;
  max: number;
  /** True when nothing is left. */
  empty: boolean;
  /** The rule ID of the pool (CR-AP-01, ZN-MOV-03 ...). */
  rule: string;
}

/** The tracker's pool badges for an economy, in the spec's pool order. */
export function poolBadges(economy: Economy, spec: EconomySpec): PoolBadge[] {
  return spec.pools.map((p) => {
    const pool = economy.pools[p.id] ?? { value: p.value ?? p.max, max: p.max };
    return { pool: p.id, label: p.label, value: pool.value, max: pool.max, empty: pool.value <= 0, rule: p.rule };
  });
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
  /** The rule ID of the slot (UD-ACT-01, ZN-ACT-01 ...). */
  rule: string;
}

/** The tracker's pips for an economy, in the spec's slot order. */
export function pips(economy: Economy, spec: EconomySpec): Pip[] {
  return spec.slots.map((s) => {
    const slot = economy.slots[s.id] ?? { used: 0, max: s.max };
    return { slot: s.id, label: s.label, used: slot.used, max: slot.max, spent: slot.max !== null && slot.used >= slot.max, rule: s.rule };
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
