/**
 * The arithmetic of Critical's upkeep undo (CR-BLD-01, CR-STN-02, CR-DTH-01): the lasting effects
 * given back, the stamp read from the actor's records, and a damaged record counting as none,
 * whatever order the summaries are undone in.
 */
import { describe, expect, it } from "vitest";
import { effectsUndone, standingRound, upkeepRecord } from "../../src/foundry/rulesets/critical/upkeep.js";
import type { LastingEffect } from "../../src/rules/core/types.js";

const dying = (rounds: number): LastingEffect => ({
  id: "dying-1",
  kind: "dying",
  rule: "CR-DTH-01",
  label: "FRAY.Critical.Dying",
  rounds,
});
const vitals = (hits: number, stun: number, effects: LastingEffect[]) => ({ hits, stun, effects });
const record = (before: number, after: number, undone = false) => ({
  before: vitals(10, 0, [dying(before)]),
  after: vitals(8, 0, [dying(after)]),
  added: [],
  removed: [],
  stamp: null,
  undone,
});

describe("upkeep undo (CR-BLD-01, CR-STN-02, CR-DTH-01)", () => {
  it("CR-DTH-01: two rounds' count-downs of a dying count come back in either order", () => {
    // Round 2 counted 3 to 2, round 3 counted 2 to 1.
    const r2 = { before: [dying(3)], after: [dying(2)] };
    const r3 = { before: [dying(2)], after: [dying(1)] };
    const now = [dying(1)];
    const olderFirst = effectsUndone(effectsUndone(now, r2.before, r2.after), r3.before, r3.after);
    const newerFirst = effectsUndone(effectsUndone(now, r3.before, r3.after), r2.before, r2.after);
    expect(olderFirst).toEqual([dying(3)]);
    expect(newerFirst).toEqual([dying(3)]);
  });

  it("CR-DTH-01: rounds given back keep a later treatment of the effect", () => {
    const treated = { ...dying(1), treated: ["firstAid"] };
    expect(effectsUndone([treated], [dying(2)], [dying(1)])).toEqual([{ ...treated, rounds: 2 }]);
  });

  it("CR-BLD-01: the stamp is the latest round still upkept, 0 when none is", () => {
    const records = { c1r2: record(3, 2), c1r3: record(2, 1), c1r4: record(1, 0, true), c2r9: record(3, 2) };
    expect(standingRound(records, "c1", "c1r2")).toBe(3);
    expect(standingRound(records, "c1", "c1r3")).toBe(2);
    expect(standingRound({ c1r2: record(3, 2, true), c1r3: record(2, 1) }, "c1", "c1r3")).toBe(0);
    // Another combat's records, and keys that only start alike, do not count.
    expect(standingRound({ c1xr7: record(3, 2), c1r7x: record(3, 2) }, "c1", "c1r2")).toBe(0);
  });

  it("CR-BLD-01: a record whose vitals are not numbers counts as none", () => {
    expect(upkeepRecord(record(3, 2))).toMatchObject({ before: { hits: 10 }, after: { hits: 8 }, undone: false });
    expect(upkeepRecord({ ...record(3, 2), after: { hits: "8", stun: 0, effects: [] } })).toBeUndefined();
    expect(upkeepRecord({ ...record(3, 2), before: { hits: 10, stun: Number.NaN, effects: [] } })).toBeUndefined();
    expect(upkeepRecord(null)).toBeUndefined();
    expect(standingRound({ c1r5: { before: 1 } }, "c1", "c1r2")).toBe(0);
  });
});
