/**
 * The round engine's shortcuts held equal to the long way: paying a checked cost without copying
 * what it does not touch, a ruleset's `withReaction` against the input built again, the actions
 * asked once per combatant state, the acting order worked out once per set of rolls, initiative
 * rolled at once against the roll through promises, and turns walked without a generator.
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

  it("UD-DMG-04: isFighterOut, read by place, answers as isOut by id, for every fighter and each new state", () => {
    const e = ud10Engine(ud10.ruleset, 1);
    const fighters = e.all();
    expect(fighters.map((f) => f.place)).toEqual(fighters.map((_, i) => i));
    const answers = () => fighters.map((f) => [e.isFighterOut(f), e.isOut(f.id)]);
    for (const [byPlace, byId] of answers()) expect(byPlace).toBe(byId);
    // One of them down (HP at 0, UD-DMG-04): both ways follow the new state.
    const down = fighters[1]!;
    e.update(down.id, { ...down.combatant, hp: { value: 0, max: down.combatant.hp.max }, conditions: ["dead"] });
    expect(e.isFighterOut(down)).toBe(true);
    for (const [byPlace, byId] of answers()) expect(byPlace).toBe(byId);
    // A fighter object not the engine's own at its place is looked up by its id: here the place of
    // the fighter who is down, with the id of one standing.
    const stranger = { ...down, id: fighters[0]!.id };
    expect(e.isFighterOut(stranger)).toBe(false);
    expect(e.isFighterOut({ ...fighters[0]!, id: down.id })).toBe(true);
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

describe("round engine: initiative at once and turns without a generator", () => {
  /** Four fighters, two a side, with ids of their own. */
  const four = (): RoundEntry<Ud10Combatant>[] =>
    ["p1", "p2", "e1", "e2"].map((id, i) => ({
      id,
      side: i < 2 ? "a" : "b",
      combatant: { ...(i % 2 ? ud10.target : ud10.attacker), id, group: i < 2 ? "pcs" : "foes", kind: "npc" as const },
    }));
  /** The ruleset without its synchronous initiative: the engine takes the long way, a promise per roll. */
  const { rollInitiativeSync: _sync, ...rest } = ud10.ruleset as Ruleset<Ud10Combatant, Ud10AttackInput> & { rollInitiativeSync?: unknown };
  const slow = rest as Ruleset<Ud10Combatant, Ud10AttackInput>;
  const engineOf = (ruleset: Ruleset<Ud10Combatant, Ud10AttackInput>, seed: number, grouped: boolean, carry: boolean) =>
    new RoundEngine(ruleset, four(), new ScriptedRoller([], seededSource(seed)), {
      options: { ...ruleset.defaults(), ...ud10.options, initiativeCarryOver: carry },
      maxRounds: 5,
      groups: grouped
        ? (standing) => [standing.filter((c) => c.group === "pcs"), standing.filter((c) => c.group === "foes")].filter((g) => g.length)
        : undefined,
    });
  const downed = (c: Ud10Combatant): Ud10Combatant => ({
    ...c,
    hp: { ...c.hp, value: -5 },
    conditions: [...c.conditions, "incapacitated"],
  });

  it("UD-INI-01, UD-INI-02, UD-INI-03, ZN-SUR-01: rollInitiativeSync rolls what rollInitiative rolls, with groups, hooks and rolls kept", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.constantFrom("p1", "p2", "e1", "e2"), { maxLength: 3 }),
        async (seed, grouped, carry, missing, falls) => {
          const play = async (sync: boolean) => {
            const e = engineOf(sync ? ud10.ruleset : slow, seed, grouped, carry);
            expect(e.canRollInitiativeSync).toBe(sync);
            const hooks: string[] = [];
            const opts = {
              eligible: (f: { id: string }) => f.id !== "p2" || e.round > 1,
              rollMissing: missing,
              before: (m: { id: string }[]) => hooks.push(`before ${m.map((f) => f.id).join()}`),
              after: (m: { id: string }[]) => hooks.push(`after ${m.map((f) => f.id).join()}`),
            };
            const out: unknown[] = [];
            for (let r = 0; r < 3; r++) {
              e.nextRound();
              out.push(sync ? e.rollInitiativeSync(opts) : await e.rollInitiative(opts));
              const fall = falls[r];
              if (fall) e.update(fall, downed(e.get(fall).combatant));
            }
            out.push(hooks, (e.dice as ScriptedRoller).rollTotal("1d1000"));
            return out;
          };
          expect(await play(true)).toEqual(await play(false));
        },
      ),
      { numRuns: 80 },
    );
  });

  it("UD-INI-01, HB-ACT-01: nextTurn walks the turns turns() yields, skipping and stopping alike", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.array(fc.option(fc.constantFrom("p1", "p2", "e1", "e2"), { nil: undefined }), { minLength: 4, maxLength: 4 }),
        fc.subarray(["p1", "p2", "e1", "e2"], { maxLength: 2 }),
        (seed, falls, skipped) => {
          const skip = (f: { id: string }) => skipped.includes(f.id);
          const walk = (generator: boolean) => {
            const e = engineOf(ud10.ruleset, seed, false, false);
            e.nextRound();
            const order = e.rollInitiativeSync().order;
            const seen: string[] = [];
            // After each turn, the one `falls` names for it goes down (as an attack would).
            const turn = (id: string) => {
              seen.push(id);
              const fall = falls[seen.length - 1];
              if (fall) e.update(fall, downed(e.get(fall).combatant));
            };
            if (generator) for (const id of e.turns(order, skip)) turn(id);
            else for (let k = e.nextTurn(order, 0, skip); k >= 0; k = e.nextTurn(order, k + 1, skip, true)) turn(order[k]!);
            return seen;
          };
          expect(walk(false)).toEqual(walk(true));
        },
      ),
      { numRuns: 150 },
    );
  });
});
