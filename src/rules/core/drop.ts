/**
 * The chance to drop the target: the exact chance that one attack leaves its target out (the
 * ruleset's `isOut`: down, unconscious, in shock, dying, dead) and the points each vital track is
 * expected to lose, from the target's current vitals, armor and every situation value of the
 * attack. Each ruleset computes it from the distributions of its own rolls and passes every
 * outcome through its own damage functions; this module holds the shared shape and the tally.
 */
import type { Pmf } from "./dice/distribution.js";
import type { RollOutcome, VitalState } from "./types.js";

/** The tracks whose expected loss is reported, in the order a line shows them. */
export const DROP_TRACKS = ["hp", "ep", "hitboxes"] as const;
/** A track of {@link DropOdds.expected}: HP, EP, or all hitboxes together (Hitbox). */
export type DropTrack = (typeof DROP_TRACKS)[number];

/** The exact outcome chances of one attack on one target. */
export interface DropOdds {
  /** P(the attack lands: it hits and no declared reaction stops it). */
  lands: number;
  /** P(the target is out once the attack, its damage and any check it forces are done). */
  out: number;
  /**
   * Expected points lost per track the ruleset uses (a miss counts as 0): `hp`, `ep`, or
   * `hitboxes` (the sum over every hitbox). Points below 0 count where the track goes below 0.
   */
  expected: Partial<Record<DropTrack, number>>;
}

/**
 * Adds up the outcomes of an attack, each with its chance, into {@link DropOdds}. The chances
 * added must sum to 1 (a miss included), less any cut tail the caller names.
 */
export class DropTally {
  private out = 0;
  private readonly loss: Partial<Record<DropTrack, number>> = {};

  /**
   * @param before the target's vital state before the attack (which tracks it has).
   * @param lands P(the attack lands), reported as is.
   */
  constructor(
    private readonly before: VitalState,
    private readonly lands: number,
  ) {
    if (before.hp) this.loss.hp = 0;
    if (before.ep) this.loss.ep = 0;
    if (before.hitboxes) this.loss.hitboxes = 0;
  }

  /** One outcome of chance `p`: the state it leaves and whether the target is out in it. */
  add(p: number, after: VitalState, out: boolean): void {
    if (p === 0) return;
    if (out) this.out += p;
    const b = this.before;
    if (b.hp && after.hp) this.loss.hp! += p * (b.hp.value - after.hp.value);
    if (b.ep && after.ep) this.loss.ep! += p * (b.ep.value - after.ep.value);
    if (b.hitboxes && after.hitboxes) {
      let lost = 0;
      for (const [id, t] of Object.entries(b.hitboxes)) lost += t.value - (after.hitboxes[id]?.value ?? t.value);
      this.loss.hitboxes! += p * lost;
    }
  }

  /** The outcome where nothing changes (a miss), of chance `p`. */
  addUnchanged(p: number, out: boolean): void {
    if (out) this.out += p;
  }

  /** The chances added up; `out` is kept within 0..1 against rounding. */
  result(): DropOdds {
    return { lands: this.lands, out: Math.min(1, Math.max(0, this.out)), expected: { ...this.loss } };
  }
}

/** A roll outcome that stands for the total `total` of `formula` (what damage functions read). */
export function totalOutcome(formula: string, total: number): RollOutcome {
  return { formula, total, dice: [], constant: 0 };
}

/** The chance of each key, `key(total)` over the totals of `pmf` (a table read with a roll). */
export function byKey<K>(pmf: Pmf, key: (total: number) => K): Map<K, number> {
  const out = new Map<K, number>();
  for (const [x, p] of pmf) {
    const k = key(x);
    out.set(k, (out.get(k) ?? 0) + p);
  }
  return out;
}
