/**
 * Critical's round transitions built without their general helpers, against those helpers: the
 * round's fresh economy of `criticalStartRound` is `createEconomy(economy(c))` for any state
 * (CR-AP-01, CR-STN-01: 4 AP, 2 while stunned, none out of the fight), and `declareParry` keeps
 * the allocation's positive entries in their order and refuses what it refused (CR-PAR-01,
 * CR-PAR-03).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createEconomy } from "../../src/rules/core/economy.js";
import { FrayError } from "../../src/rules/core/errors.js";
import type { ActorSource } from "../../src/rules/core/sources.js";
import { checkCanAttack } from "../../src/rules/critical/attack.js";
import {
  canAttack,
  critical,
  criticalCombatantFromActor,
  criticalStartRound,
  declareParry,
  parryBlocked,
  parryPool,
  restate,
  withVitals,
  type CriticalCombatant,
} from "../../src/rules/critical/index.js";
import { packSources } from "../support/sources.js";

const npcs = packSources<ActorSource>("critical-npcs");

const state = fc
  .record({
    npc: fc.integer({ min: 0, max: npcs.length - 1 }),
    stun: fc.integer({ min: 0, max: 3 }),
    conditions: fc.subarray(["unconscious", "blackout", "down", "dead", "constrained"], { maxLength: 2 }),
    parry: fc.dictionary(fc.constantFrom("a", "b", "c", "7"), fc.integer({ min: 0, max: 30 }), { maxKeys: 3 }),
    noParry: fc.boolean(),
  })
  .map(({ npc, stun, conditions, parry, noParry }): CriticalCombatant => {
    const c = criticalCombatantFromActor(npcs[npc]! as never, { id: "me" });
    const effects = noParry ? [{ id: "noParry-1", kind: "noParry", rule: "CR-CRT-02" as const, label: "n", rounds: 1 }] : [];
    return { ...c, stun, conditions, parry, effects };
  });

/** `declareParry` as the seed's rules read (CR-PAR-01, CR-PAR-03), written with the list helpers. */
function declared(c: CriticalCombatant, allocation: Record<string, number>, weaponId?: string): CriticalCombatant | string {
  const total = Object.values(allocation).reduce((s, v) => s + (typeof v === "number" ? v : 0), 0);
  if (total === 0) return { ...c, parry: {} };
  if (parryBlocked(c)) return "FRAY.Error.CannotParry";
  for (const v of Object.values(allocation)) if (!Number.isInteger(v) || v < 0) return "FRAY.Error.Field";
  if (total > parryPool(c, weaponId)) return "FRAY.Error.ParryTooMuch";
  return { ...c, parry: Object.fromEntries(Object.entries(allocation).filter(([, v]) => v > 0)) };
}

describe("Critical round transitions", () => {
  it("CR-AP-01, CR-STN-01, CR-PAR-01: the start of a round gives createEconomy(economy(c)) and ends the parry", () => {
    fc.assert(
      fc.property(state, (c) => {
        const next = criticalStartRound(c, undefined, 2);
        expect(next.economy).toEqual(createEconomy(critical.economy(c, {})));
        expect(next.combatant.parry).toEqual({});
        expect(next.events.some((e) => e.rule === "CR-PAR-01")).toBe(Object.keys(c.parry).length > 0);
      }),
      { numRuns: 500 },
    );
  });

  it("CR-PAR-01, CR-PAR-03: declareParry keeps the positive entries in order and refuses as the rules say", () => {
    const kinds = new Set<string>();
    fc.assert(
      fc.property(
        state,
        fc.dictionary(fc.constantFrom("x", "y", "z", "12", "3"), fc.integer({ min: -2, max: 60 }), { maxKeys: 4 }),
        (c, allocation) => {
          const want = declared(c, allocation);
          let got: CriticalCombatant | string;
          try {
            got = declareParry(c, allocation);
          } catch (error) {
            got = (error as FrayError).key;
          }
          kinds.add(typeof want === "string" ? want : "ok");
          expect(got).toEqual(want);
          if (typeof got !== "string" && typeof want !== "string") expect(Object.keys(got.parry)).toEqual(Object.keys(want.parry));
        },
      ),
      { numRuns: 1000 },
    );
    expect([...kinds].sort()).toEqual(["FRAY.Error.CannotParry", "FRAY.Error.Field", "FRAY.Error.ParryTooMuch", "ok"]);
  });

  it("CR-AP-02: restate gives the spread of the combatant with its new state, and keeps a field a host added", () => {
    fc.assert(
      fc.property(state, fc.boolean(), fc.integer({ min: -10, max: 40 }), (c, extra, hits) => {
        const base = extra ? { ...c, note: "kept" } : c;
        const next = restate(base, { value: hits, max: c.hits.max }, 1, ["constrained"], [], { x: 3 });
        const spread = {
          ...base,
          hits: { value: hits, max: c.hits.max },
          stun: 1,
          conditions: ["constrained"],
          effects: [],
          parry: { x: 3 },
        };
        expect(next).toEqual(spread);
        expect(Object.keys(next)).toEqual(Object.keys(spread));
        expect(withVitals(Object.freeze(base), critical.vitals(base))).toEqual(base);
      }),
      { numRuns: 300 },
    );
  });

  it("CR-CRT-02: canAttack is true exactly where checkCanAttack lets the attack through", () => {
    const seen = new Set<boolean>();
    fc.assert(
      fc.property(state, fc.subarray(["attack", "parry", "move"]), fc.boolean(), (c, stops, injured) => {
        const effects = injured
          ? [...c.effects, { id: "injury-1", kind: "injury", rule: "CR-CRT-02" as const, label: "i", stops }]
          : c.effects;
        const a = { ...c, effects };
        let through = true;
        try {
          checkCanAttack(a);
        } catch (error) {
          expect(["FRAY.Error.CannotAct", "FRAY.Error.CannotAttack"]).toContain((error as FrayError).key);
          through = false;
        }
        expect(canAttack(a)).toBe(through);
        seen.add(through);
      }),
      { numRuns: 300 },
    );
    expect(seen.size).toBe(2);
  });
});
