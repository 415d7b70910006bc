/**
 * The round engine's shortcuts held equal to the long way: paying a checked cost without copying
 * what it does not touch, a ruleset's `withReaction` against the input built again, the actions
 * asked once per combatant state, and the acting order worked out once per set of rolls.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ScriptedRoller, seededSource } from "../../src/rules/core/dice/port.js";
import { charge, createEconomy, shortfall, spend, type ActionCost, type Economy } from "../../src/rules/core/economy.js";
import { declaring, RoundEngine, type RoundEntry } from "../../src/rules/core/round.js";
import type { Ruleset } from "../../src/rules/core/ruleset.js";
import type { Ud10AttackInput, Ud10Combatant } from "../../src/rules/ud10/index.js";
import { fixture as ud10 } from "../contract/fixtures/ud10.js";

/** What `spend` gave before `charge`: every record copied, the touched entries replaced. */
function spendAll(economy: Economy, cost: ActionCost): Economy {
  const next: Economy = { slots: { ...economy.slots }, pools: { ...economy.pools } };
  for (const [id, n] of Object.entries(cost.slots ?? {})) next.slots[id] = { ...next.slots[id]!, used: next.slots[id]!.used + n };
  for (const [id, n] of Object.entries(cost.pools ?? {})) next.pools[id] = { ...next.pools[id]!, value: next.pools[id]!.value - n };
  return next;
}

const SLOT_IDS = ["action", "reaction", "free"] as const;
const POOL_IDS = ["ap", "speed"] as const;

const economies = fc.record({
  slots: fc
    .subarray([...SLOT_IDS])
    .chain((ids) => fc.tuple(...ids.map((id) => fc.tuple(fc.constant(id), fc.nat(3), fc.option(fc.nat(3), { nil: null }))))),
  pools: fc.subarray([...POOL_IDS]).chain((ids) => fc.tuple(...ids.map((id) => fc.tuple(fc.constant(id), fc.nat(6), fc.nat(6))))),
});
const costs = fc.record(
  {
    slots: fc.dictionary(fc.constantFrom(...SLOT_IDS), fc.nat(2)),
    pools: fc.dictionary(fc.constantFrom(...POOL_IDS), fc.nat(4)),
  },
  { requiredKeys: [] },
);

describe("economy: paying a cost", () => {
  it("CR-AP-01, UD-ACT-02: charge pays what spend always paid, shares what it does not touch and changes nothing in place", () => {
    fc.assert(
      fc.property(economies, costs, (raw, cost) => {
        const economy: Economy = {
          slots: Object.fromEntries(raw.slots.map(([id, used, max]) => [id, { used, max }])),
          pools: Object.fromEntries(raw.pools.map(([id, value, max]) => [id, { value, max }])),
        };
        const before = structuredClone(economy);
        if (shortfall(economy, cost)) {
          expect(() => spend(economy, cost)).toThrow();
          return;
        }
        const paid = charge(economy, cost);
        expect(paid).toEqual(spendAll(economy, cost));
        expect(spend(economy, cost)).toEqual(paid);
        expect(economy).toEqual(before);
        if (!Object.keys(cost.slots ?? {}).length) expect(paid.slots).toBe(economy.slots);
        if (!Object.keys(cost.pools ?? {}).length) expect(paid.pools).toBe(economy.pools);
      }),
    );
  });
});

type Ud10Engine = RoundEngine<Ud10Combatant, Ud10AttackInput>;

function entries(): RoundEntry<Ud10Combatant>[] {
  return [
    { id: ud10.request.attackerId, side: "a", combatant: ud10.attacker },
    { id: ud10.request.targetId!, side: "b", combatant: ud10.target },
  ];
}

function ud10Engine(ruleset: Ruleset<Ud10Combatant, Ud10AttackInput>, seed: number): Ud10Engine {
  const options = { ...ruleset.defaults(), ...ud10.options };
  return new RoundEngine(ruleset, entries(), new ScriptedRoller([], seededSource(seed)), {
    options,
    maxRounds: 5,
    lazyOdds: true,
    keepEvents: false,
  });
}

describe("round engine: the declared reaction's input", () => {
  it("UD-REA-01, UD-REA-02: with the ruleset's withReaction the quiet attacks play as with the input built again", () => {
    const calls = { withReaction: 0 };
    const withReaction: Ruleset<Ud10Combatant, Ud10AttackInput> = {
      ...ud10.ruleset,
      withReaction(input, reaction) {
        calls.withReaction++;
        return ud10.ruleset.input({ ...ud10.request, reaction }, input.attacker, input.target, ud10.options ?? {});
      },
    };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 3 }), (seed, attacks) => {
        const play = (ruleset: Ruleset<Ud10Combatant, Ud10AttackInput>) => {
          const e = ud10Engine(ruleset, seed);
          const out: unknown[] = [];
          e.nextRound();
          e.startRound();
          // The parry is declared whenever available: from the second attack of a round on it is spent (UD-REA-01).
          for (let k = 0; k < attacks; k++)
            out.push(e.quietAttackSync(ud10.request, { free: true, react: (available) => available.find((r) => r.id === "parry")?.id }));
          out.push((e.dice as ScriptedRoller).rollTotal("1d1000"));
          return out;
        };
        expect(play(withReaction)).toEqual(play(ud10.ruleset));
      }),
      { numRuns: 60 },
    );
    expect(calls.withReaction).toBeGreaterThan(0);
  });
});

describe("round engine: actions and acting order", () => {
  it("UD-ACT-02: costOf asks the ruleset once per state of the combatant and follows a new state", () => {
    let asked = 0;
    const counting: Ruleset<Ud10Combatant, Ud10AttackInput> = {
      ...ud10.ruleset,
      actions(c, options) {
        asked++;
        return ud10.ruleset.actions(c, options);
      },
    };
    const e = ud10Engine(counting, 1);
    const id = ud10.request.attackerId;
    const expected = ud10.ruleset.actions(ud10.attacker, e.config.options).find((a) => a.id === "attack")?.cost;
    expect(expected).toBeDefined();
    expect(e.costOf(id, "attack")).toEqual(expected);
    expect(e.costOf(id, "aim")).toEqual(ud10.ruleset.actions(ud10.attacker, e.config.options).find((a) => a.id === "aim")?.cost);
    expect(e.costOf(id, "no-such-action")).toBeUndefined();
    expect(asked).toBe(1);
    e.update(id, { ...ud10.attacker });
    expect(e.costOf(id, "attack")).toEqual(expected);
    expect(asked).toBe(2);
    expect(() => e.costOf("nobody", "attack")).toThrow(/No combatant nobody/);
  });

  it("UD-INI-03: order() hands out a new list each time; a kept initiative keeps the order and the turns follow it", async () => {
    const options = { ...ud10.ruleset.defaults(), ...ud10.options, initiativeCarryOver: true };
    const e = new RoundEngine(ud10.ruleset, entries(), new ScriptedRoller([], seededSource(5)), { options, maxRounds: 5 });
    e.nextRound();
    const first = await e.rollInitiative();
    const a = e.order();
    a.reverse();
    expect(e.order()).toEqual(first.order);
    e.nextRound();
    const second = await e.rollInitiative();
    expect(ud10.ruleset.initiativeTiming(options)).toBe("combat");
    expect(second.kept).toBe(true);
    expect(second.order).toEqual(first.order);
    expect([...e.turns()]).toEqual(second.order);
    expect(() => [...e.turns(["nobody"])]).toThrow(/No combatant nobody/);
  });

  it("UD-ACT-02: a free attack is paid with nothing and leaves the attacker's economy as it was", () => {
    const e = ud10Engine(ud10.ruleset, 2);
    e.nextRound();
    e.startRound();
    const before = e.get(ud10.request.attackerId).economy;
    const done = e.quietAttackSync(ud10.request, { free: true });
    expect(done).toBeDefined();
    expect(e.get(ud10.request.attackerId).economy.slots).toEqual(before.slots);
    expect(createEconomy(ud10.ruleset.economy(ud10.attacker, e.config.options)).slots).toEqual(before.slots);
  });
});

describe("round engine: the request with a declared reaction", () => {
  it("UD-REA-01: declaring gives what a spread gives: every field of the request, any extra one too, and the reaction", () => {
    const requests = fc.record(
      {
        attackerId: fc.string(),
        targetId: fc.string(),
        weaponId: fc.string(),
        modeId: fc.string(),
        distanceMetres: fc.double({ noNaN: true }),
        situation: fc.dictionary(fc.string(), fc.oneof(fc.boolean(), fc.integer())),
        reaction: fc.constantFrom("parry", "dodge"),
        rolledReaction: fc.integer(),
      },
      { requiredKeys: ["attackerId", "weaponId"] },
    );
    fc.assert(
      fc.property(requests, fc.constantFrom("parry", "dodge", "block"), (request, reaction) => {
        const before = structuredClone(request);
        const out = declaring(request, reaction);
        expect(out).toEqual({ ...request, reaction });
        expect(
          Object.keys(out)
            .filter((k) => out[k as keyof typeof out] !== undefined)
            .sort(),
        ).toEqual(Object.keys({ ...request, reaction }).sort());
        expect(request).toEqual(before);
      }),
    );
  });
});
