/**
 * Delaying in the combat tracker (CR-INI-03): a combatant acts right after another that comes
 * later in the order, for one round. The delay is stored on the delaying Combatant
 * (`flags.fray.delay`: the round and the Combatant id it waits for), stamped with its round so a
 * new round forgets it without a write. Pure: the Combat class and the ruleset's tracker part
 * feed it the combatants and the ruleset's `delay` rule.
 */
import { compareInitiative, type Sortable } from "./initiative.js";

/** A delay as stored on a Combatant (`flags.fray.delay`). */
export interface StoredDelay {
  /** The combat round it holds for. */
  round: number;
  /** The Combatant id it acts right after. */
  after: string;
}

/**
 * The ruleset's delay rule (the Critical core's `delay`): the order after `id` moves to act right
 * after `after`.
 * @throws when the move would act earlier, or an id is not in the sequence.
 */
export type DelayRule = (sequence: readonly string[], id: string, after: string) => string[];

/** A combatant as the acting order reads it. */
export interface OrderEntry extends Sortable {
  id: string;
  /** Its `flags.fray.delay`, as stored (any shape). */
  delay?: unknown;
}

/** The delay of a Combatant for `round`; `undefined` when it holds none this round or the flag is malformed. */
export function delayOf(stored: unknown, round: number): StoredDelay | undefined {
  const s = stored as Partial<StoredDelay> | null | undefined;
  if (!s || typeof s !== "object" || s.round !== round || typeof s.after !== "string" || !s.after) return undefined;
  return { round, after: s.after };
}

/**
 * The round's acting order (CR-INI-02, CR-INI-03): by initiative ({@link compareInitiative}),
 * then each delay of this round applied through the ruleset's rule, earliest delayer first. A
 * delay the rule refuses (one that would act earlier, or names a combatant not in the combat) is
 * left out: a stored flag never moves anyone up.
 * @param entries the combat's combatants.
 * @param round the combat's round.
 * @param rule the ruleset's delay rule; without one, delays are ignored.
 * @param skip a Combatant id whose delay is left out (to check a new delay against the order without it).
 * @returns Combatant ids, first to act first.
 */
export function actingOrder(entries: readonly OrderEntry[], round: number, rule?: DelayRule, skip?: string): string[] {
  let order = [...entries].sort(compareInitiative).map((e) => e.id);
  if (!rule) return order;
  const byId = new Map(entries.map((e) => [e.id, e]));
  for (const id of [...order]) {
    if (id === skip) continue;
    const delay = delayOf(byId.get(id)?.delay, round);
    if (!delay) continue;
    try {
      order = rule(order, id, delay.after);
    } catch {
      // Refused by the rule (earlier, unknown): the stored delay does nothing.
    }
  }
  return order;
}

/**
 * Checks a delay (CR-INI-03): `after` must act later than `id` in the round's order without
 * `id`'s own delay.
 * @returns `undefined` when allowed, else the reason: `earlier` or `unknown`.
 */
export function delayRefusal(
  entries: readonly OrderEntry[],
  round: number,
  rule: DelayRule,
  id: string,
  after: string,
): "earlier" | "unknown" | undefined {
  const order = actingOrder(entries, round, rule, id);
  if (!order.includes(id) || !order.includes(after)) return "unknown";
  try {
    rule(order, id, after);
  } catch {
    return "earlier";
  }
  return undefined;
}

/**
 * Checks a change of a combatant's delay against the round as it stands (CR-INI-03): a delay is
 * honoured only for a combatant that has not acted this round, and no change may touch who has
 * acted or whose turn it is. `before` is the round's order with the delays the active GM honoured,
 * `after` the order with the change, `turn` the index of the current turn in `before` (-1 before
 * the first turn). The combatant whose turn it is may still delay: its place passes to the next.
 * @returns `undefined` when honoured, else `acted` (the combatant has acted) or `turn` (the change
 *   would alter who has acted or whose turn it is).
 */
export function delayChangeRefusal(
  before: readonly string[],
  after: readonly string[],
  turn: number,
  id: string,
): "acted" | "turn" | undefined {
  if (turn < 0) return undefined;
  const at = before.indexOf(id);
  if (at >= 0 && at < turn) return "acted";
  // The combatant whose turn it is delays: those before it keep their places.
  const kept = at === turn ? turn : turn + 1;
  for (let i = 0; i < kept; i++) if (before[i] !== after[i]) return "turn";
  return undefined;
}

/**
 * Who a combatant may delay until after (CR-INI-03): nobody once it has acted this round (its
 * place in the round's order is before the current turn); else everyone after it in the round's
 * order (its own delay left out) who has not acted yet: the combatant whose turn it is
 * (`currentId`) and those after it in the round's order.
 */
export function delayChoices(
  entries: readonly OrderEntry[],
  round: number,
  rule: DelayRule,
  id: string,
  currentId?: string | null,
): string[] {
  const order = actingOrder(entries, round, rule, id);
  const now = actingOrder(entries, round, rule);
  const turn = currentId ? now.indexOf(currentId) : -1;
  if (now.indexOf(id) < turn) return [];
  return order.slice(order.indexOf(id) + 1).filter((other) => now.indexOf(other) >= turn);
}
