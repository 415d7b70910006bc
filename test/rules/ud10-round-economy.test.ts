/**
 * UD10's round economy written out as one literal against `createEconomy` of the round's spec:
 * the same slots in the same order, one movement, action and reaction, free actions within
 * reason, no pools, and a new object every round (UD-ACT-01, UD-REA-01).
 */
import { describe, expect, it } from "vitest";
import { createEconomy } from "../../src/rules/core/economy.js";
import { economy } from "../../src/rules/ud10/movement.js";
import { ud10RoundEconomy, ud10StartRound } from "../../src/rules/ud10/play.js";
import { fixture as ud10 } from "../contract/fixtures/ud10.js";

describe("UD10 round economy", () => {
  it("UD-ACT-01, UD-REA-01: ud10RoundEconomy is createEconomy of the round's spec, key for key and in order", () => {
    const fast = ud10RoundEconomy();
    const long = createEconomy(economy());
    expect(fast).toEqual(long);
    expect(Object.keys(fast.slots)).toEqual(Object.keys(long.slots));
    expect(Object.keys(fast.pools)).toEqual(Object.keys(long.pools));
    expect(JSON.stringify(fast)).toBe(JSON.stringify(long));
  });

  it("UD-ACT-01: every round start hands out an economy of its own", () => {
    const a = ud10StartRound(ud10.attacker, undefined).economy;
    const b = ud10StartRound(ud10.attacker, a).economy;
    expect(b).toEqual(a);
    expect(b).not.toBe(a);
    expect(b.slots.action).not.toBe(a.slots.action);
    a.slots.action!.used = 1;
    expect(ud10RoundEconomy().slots.action!.used).toBe(0);
  });
});
