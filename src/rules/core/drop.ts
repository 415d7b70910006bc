/**
 * The chance to drop the target: the exact chance that one attack leaves its target out (the
 * ruleset's `isOut`: down, unconscious, in shock, dying, dead) and the points each vital track is
 * expected to lose, from the target's current vitals, armor and every situation value of the
 * attack. Each ruleset computes it from the distributions of its own rolls and passes every
 * outcome through its own damage functions; this module holds the shared shape and the tally.
 */
import type { ForcedCheckResult } from "./contract.js";
import type { Pmf } from "./dice/distribution.js";
import { SourceRoller, type SyncDiceRoller } from "./dice/port.js";
import { FrayError } from "./errors.js";
import type { AttackOdds } from "./ruleset.js";
import type { ForcedCheck, RollOutcome, RuleId, VitalState } from "./types.js";

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
  /** The rules the computation follows, for the line's tooltip. */
  rules: RuleId[];
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
   * @param rules the rules the computation follows.
   */
  constructor(
    private readonly before: VitalState,
    private readonly lands: number,
    private readonly rules: RuleId[],
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

  /**
   * A tally of an attack that lands with chance `lands`, its miss (nothing changes, chance
   * `1 - lands`) already added.
   * @param beforeOut whether the target is out before the attack.
   */
  static withMiss(before: VitalState, lands: number, beforeOut: boolean, rules: RuleId[]): DropTally {
    const tally = new DropTally(before, lands, rules);
    tally.addUnchanged(1 - lands, beforeOut);
    return tally;
  }

  /** The outcome where nothing changes (a miss), of chance `p`. */
  addUnchanged(p: number, out: boolean): void {
    if (out) this.out += p;
  }

  /** The chances added up; `out` is kept within 0..1 against rounding. */
  result(): DropOdds {
    return { lands: this.lands, out: Math.min(1, Math.max(0, this.out)), expected: { ...this.loss }, rules: [...this.rules] };
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

/** One way a roll can go: its chance and what came of it. */
export interface Branch<T> {
  p: number;
  value: T;
}

/**
 * Every way a synchronous computation that rolls dice can go, each with its chance: `run` is
 * called once per sequence of faces its rolls can draw (each face of each die in turn), with a
 * roller that draws them, so the rules are played as written. Meant for short rolls (a 2d6 test,
 * a d100): a run that draws an exploding die follows each explosion as a further die.
 * @param maxRuns the most sequences followed.
 * @throws FrayError `FRAY.Error.DropWork` when the rolls have more than `maxRuns` sequences; what
 *   `run` throws.
 */
export function everyFace<T>(run: (dice: SyncDiceRoller) => T, maxRuns = 10_000): Branch<T>[] {
  const faces: number[] = [];
  const sides: number[] = [];
  const out: Branch<T>[] = [];
  for (;;) {
    if (out.length >= maxRuns)
      throw new FrayError("FRAY.Error.DropWork", { max: maxRuns }, `The exact chance to drop the target needs more than ${maxRuns} runs`);
    let at = 0;
    const value = run(
      new SourceRoller((n) => {
        if (at < faces.length) return faces[at++]!;
        faces.push(1);
        sides.push(n);
        at++;
        return 1;
      }),
    );
    let p = 1;
    for (let i = 0; i < at; i++) p /= sides[i]!;
    out.push({ p, value });
    // The next sequence: the last face that can still go up goes up, the faces after it are drawn anew.
    faces.length = sides.length = at;
    while (faces.length && faces[faces.length - 1] === sides[sides.length - 1]) {
      faces.pop();
      sides.pop();
    }
    if (!faces.length) return out;
    faces[faces.length - 1]!++;
  }
}

/**
 * Every state a combatant can be left in by the checks a hit forced on it (Hitbox Blackout
 * HB-DMG-04, Critical Self Discipline CR-HIT-02), rolled in order through the ruleset's own
 * `forcedCheckSync`, each with its chance (the state alone when none were forced).
 * @throws FrayError what the ruleset's check throws, and as {@link everyFace}.
 */
export function afterForced<C>(
  c: C,
  forced: readonly ForcedCheck[] | undefined,
  check: (c: C, forced: ForcedCheck, dice: SyncDiceRoller) => ForcedCheckResult,
  withVitals: (c: C, state: VitalState) => C,
): Branch<C>[] {
  let states: Branch<C>[] = [{ p: 1, value: c }];
  for (const f of forced ?? []) {
    states = states.flatMap((s) =>
      everyFace((dice) => check(s.value, f, dice)).map((b) => ({ p: s.p * b.p, value: withVitals(s.value, b.value.report.after) })),
    );
  }
  return states;
}

/** P(an attack lands): past the declared reaction when one is rolled, else its chance to hit. */
export function landsChance(odds: Pick<AttackOdds, "hit" | "throughReaction">): number {
  return odds.throughReaction ?? odds.hit;
}
