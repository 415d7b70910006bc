/**
 * The effect service: durations in combat rounds and turns, started and expired by the active
 * GM (HB-RND-02 for durations that start on the turn after they begin).
 */
import { describe, expect, it } from "vitest";
import { durationFrom, durationState, type CombatClock } from "../../src/foundry/logic/durations.js";
import { startEffect, tickEffects, type CombatLike, type EffectHolder, type EffectLike } from "../../src/foundry/play/effects.js";

const clock = (round: number, turn = 0, turnsPerRound = 3): CombatClock => ({ id: "c1", round, turn, turnsPerRound });

describe("durations in rounds and turns", () => {
  it("a two-round effect started on round 2, turn 1 acts until round 4, turn 1", () => {
    const d = durationFrom(clock(2, 1), { rounds: 2 });
    expect(durationState(d, clock(2, 1))).toBe("active");
    expect(durationState(d, clock(3, 2))).toBe("active");
    expect(durationState(d, clock(4, 0))).toBe("active");
    expect(durationState(d, clock(4, 1))).toBe("expired");
    expect(durationState(d, clock(5, 0))).toBe("expired");
  });

  it("turns count across rounds: a 4-turn effect in a 3-turn round ends a round and a turn later", () => {
    const d = durationFrom(clock(1, 2), { turns: 4 });
    expect(durationState(d, clock(2, 2))).toBe("active");
    expect(durationState(d, clock(3, 0))).toBe("expired");
  });

  it("HB-RND-02: a one-turn effect used on turn 3 acts on turn 4 and has run out on turn 5", () => {
    const d = durationFrom(clock(3, 0, 1), { rounds: 1 }, 1);
    expect(durationState(d, clock(3, 0, 1))).toBe("pending");
    expect(durationState(d, clock(4, 0, 1))).toBe("active");
    expect(durationState(d, clock(5, 0, 1))).toBe("expired");
  });

  it("an effect counted in another combat, or without a combat duration, is left active", () => {
    expect(durationState({ ...durationFrom(clock(1), { rounds: 1 }), combat: "other" }, clock(9))).toBe("active");
    expect(durationState({}, clock(9))).toBe("active");
  });

  it("refuses negative or fractional lengths", () => {
    expect(() => durationFrom(clock(1), { rounds: -1 })).toThrow(RangeError);
    expect(() => durationFrom(clock(1), { turns: 1.5 })).toThrow(RangeError);
    expect(() => durationFrom(clock(1), { rounds: 1 }, -2)).toThrow(RangeError);
  });
});

/** An actor holding effects in memory, with the ActiveEffect calls the service makes. */
function holder(): EffectHolder & { list: (EffectLike & { name: string; flags: Record<string, unknown> })[] } {
  const list: (EffectLike & { name: string; flags: Record<string, unknown> })[] = [];
  return {
    list,
    get effects() {
      return list;
    },
    async createEmbeddedDocuments(_type, data) {
      for (const d of data) {
        const effect = {
          id: `e${list.length}`,
          name: String(d.name),
          disabled: Boolean(d.disabled),
          duration: d.duration as EffectLike["duration"],
          flags: d.flags as Record<string, unknown>,
          getFlag: (scope: string, key: string) => (d.flags as Record<string, Record<string, unknown>>)[scope]?.[key],
          async update(u: Record<string, unknown>) {
            Object.assign(effect, u);
          },
          async delete() {
            list.splice(list.indexOf(effect), 1);
          },
        };
        list.push(effect);
      }
    },
  };
}

describe("the effect service", () => {
  it("HB-RND-02: starts a delayed effect disabled, enables it when its round comes, deletes it when it has run out", async () => {
    const actor = holder();
    const combat: CombatLike = { id: "c1", round: 3, turn: 0, turns: [{}], combatants: [{ actor }, { actor }] };
    await startEffect(actor, { name: "Dazed", statuses: ["dazed"], rounds: 1, delayRounds: 1 }, combat);
    expect(actor.list).toHaveLength(1);
    expect(actor.list[0]!.disabled).toBe(true);
    expect(await tickEffects(combat)).toEqual({ enabled: 0, deleted: 0 });
    expect(await tickEffects({ ...combat, round: 4 })).toEqual({ enabled: 1, deleted: 0 });
    expect(actor.list[0]!.disabled).toBe(false);
    expect(await tickEffects({ ...combat, round: 5 })).toEqual({ enabled: 0, deleted: 1 });
    expect(actor.list).toHaveLength(0);
  });

  it("leaves effects without a combat duration and effects of another combat alone", async () => {
    const actor = holder();
    await actor.createEmbeddedDocuments("ActiveEffect", [{ name: "Blessed", disabled: false, duration: {}, flags: {} }]);
    const combat: CombatLike = { id: "c1", round: 1, turn: 0, turns: [{}], combatants: [{ actor }] };
    await startEffect(actor, { name: "Elsewhere", rounds: 1 }, { ...combat, id: "c2" });
    expect(await tickEffects({ ...combat, round: 9 })).toEqual({ enabled: 0, deleted: 0 });
    expect(actor.list.map((e) => e.name)).toEqual(["Blessed", "Elsewhere"]);
  });
});
