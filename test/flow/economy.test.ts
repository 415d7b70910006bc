/** The tracker's round economy (UD-ACT-01, UD-ACT-02, UD-REA-01, UD-MOV-03, UD-OPT-01, UD-OPT-02). */
import { describe, expect, it } from "vitest";
import { createEconomy } from "../../src/rules/core/economy.js";
import { economy } from "../../src/rules/ud10/movement.js";
import { economyFromEvents, hasReaction, pips, readEconomy, spendEvent } from "../../src/foundry/logic/economy.js";

const spec = economy();
const used = (e: ReturnType<typeof createEconomy>) => Object.fromEntries(Object.entries(e.slots).map(([k, v]) => [k, v.used]));

describe("round economy", () => {
  it("UD-ACT-01: a round starts with movement, action, reaction and free actions", () => {
    expect(pips(createEconomy(spec), spec).map((p) => [p.slot, p.max, p.spent])).toEqual([
      ["movement", 1, false],
      ["action", 1, false],
      ["reaction", 1, false],
      ["free", null, false],
    ]);
  });

  it("UD-ACT-02: an attack spends the action; a second attack is short of it", () => {
    const once = spendEvent(createEconomy(spec), { kind: "attack" });
    expect(used(once.economy)).toMatchObject({ action: 1 });
    expect(spendEvent(once.economy, { kind: "attack" }).short).toBe("action");
  });

  it("UD-REA-01: one reaction per round", () => {
    const e = economyFromEvents(spec, [{ kind: "reaction" }]);
    expect(hasReaction(e)).toBe(false);
    expect(spendEvent(e, { kind: "reaction" }).short).toBe("reaction");
  });

  it("UD-MOV-03: full movement spends movement and action", () => {
    const e = economyFromEvents(spec, [{ kind: "move", cost: { slots: { movement: 1, action: 1 } } }]);
    expect(used(e)).toMatchObject({ movement: 1, action: 1, reaction: 0 });
    expect(pips(e, spec).filter((p) => p.spent).map((p) => p.slot)).toEqual(["movement", "action"]);
  });

  it("UD-OPT-01/02: fleeing costs the movement; retreating the movement, action and reaction; a free attack nothing", () => {
    expect(used(economyFromEvents(spec, [{ kind: "flee" }]))).toMatchObject({ movement: 1, action: 0, reaction: 0 });
    expect(used(economyFromEvents(spec, [{ kind: "retreat" }]))).toMatchObject({ movement: 1, action: 1, reaction: 1 });
    expect(used(economyFromEvents(spec, [{ kind: "freeAttack" }]))).toMatchObject({ movement: 0, action: 0, reaction: 0 });
  });

  it("reads a stored economy back and falls back to a fresh one", () => {
    expect(used(readEconomy({ slots: { action: { used: 1 } } }, spec))).toMatchObject({ action: 1, movement: 0 });
    expect(used(readEconomy(null, spec))).toMatchObject({ action: 0 });
    expect(used(readEconomy({ slots: { action: { used: "x" } } }, spec))).toMatchObject({ action: 0 });
  });
});
