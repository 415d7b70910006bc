/** The tracker's round economy (UD-ACT-01, UD-ACT-02, UD-REA-01, UD-MOV-03, UD-OPT-01, UD-OPT-02). */
import { describe, expect, it } from "vitest";
import { createEconomy } from "../../src/rules/core/economy.js";
import { economy } from "../../src/rules/ud10/movement.js";
import { disengage, ud10, ud10Actions, ud10Options } from "../../src/rules/ud10/index.js";
import { critical } from "../../src/rules/critical/index.js";
import {
  actionEvent,
  addCosts,
  bandCharge,
  FREE_ATTACK_EVENT,
  moveEvent,
  pips,
  poolBadges,
  reactionCost,
  reactionEvent,
  readEconomy,
  spendEvent,
  type RoundEvent,
} from "../../src/foundry/logic/economy.js";
import { fixture as criticalFixture } from "../contract/fixtures/critical.js";
import { fighter } from "../rules/ud10-fixtures.js";

const spec = economy();
/** The economy after paying events in order; events that cannot be paid are skipped. */
const after = (events: readonly RoundEvent[]) => events.reduce((e, ev) => spendEvent(e, ev).economy, createEconomy(spec));
const opts = ud10Options({ fleeing: true, retreat: true });
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
    const once = spendEvent(createEconomy(spec), actionEvent("attack", ud10Actions(fighter({ id: "a" }), {})));
    expect(used(once.economy)).toMatchObject({ action: 1 });
    expect(spendEvent(once.economy, actionEvent("attack", ud10Actions(fighter({ id: "a" }), {}))).short).toBe("action");
  });

  it("UD-REA-01: one reaction per round", () => {
    const parry = { cost: { slots: { reaction: 1 } } };
    const e = after([reactionEvent(parry)]);
    expect(used(e)).toMatchObject({ reaction: 1 });
    expect(spendEvent(e, reactionEvent(parry)).short).toBe("reaction");
  });

  it("UD-MOV-03: full movement spends movement and action", () => {
    const e = after([moveEvent({ slots: { movement: 1, action: 1 } })]);
    expect(used(e)).toMatchObject({ movement: 1, action: 1, reaction: 0 });
    expect(
      pips(e, spec)
        .filter((p) => p.spent)
        .map((p) => p.slot),
    ).toEqual(["movement", "action"]);
  });

  it("UD-OPT-01/02: fleeing costs the movement; retreating the movement, action and reaction; a free attack nothing", () => {
    const foes = [fighter({ id: "foe" })];
    expect(used(after([moveEvent(disengage(foes, "flee", opts).cost)]))).toMatchObject({ movement: 1, action: 0, reaction: 0 });
    expect(used(after([moveEvent(disengage(foes, "retreat", opts).cost)]))).toMatchObject({ movement: 1, action: 1, reaction: 1 });
    expect(used(after([FREE_ATTACK_EVENT]))).toMatchObject({ movement: 0, action: 0, reaction: 0 });
  });

  it("reads a stored economy back and falls back to a fresh one", () => {
    expect(used(readEconomy({ slots: { action: { used: 1 } } }, spec))).toMatchObject({ action: 1, movement: 0 });
    expect(used(readEconomy(null, spec))).toMatchObject({ action: 0 });
    expect(used(readEconomy({ slots: { action: { used: "x" } } }, spec))).toMatchObject({ action: 0 });
  });
});

describe("round economy of any ruleset", () => {
  const thug = criticalFixture.attacker;
  const critSpec = critical.economy(thug, critical.defaults());

  it("CR-AP-01: Critical's action points show as a value/max badge, spent by what actions cost", () => {
    const attack = critical.actions(thug, critical.defaults()).find((a) => a.kind === "attack")!;
    const paid = spendEvent(createEconomy(critSpec), actionEvent(attack.id, critical.actions(thug, critical.defaults()))).economy;
    const [ap] = poolBadges(paid, critSpec);
    expect(ap).toMatchObject({ pool: "ap", label: "FRAY.Pool.ap", max: 4 });
    expect(ap!.value).toBe(4 - (attack.cost.pools?.ap ?? 0));
    expect(ap!.value).toBeLessThan(4);
  });

  it("CR-MOV-01, CR-MOV-02: a move is charged through the ruleset's bands, only for the band it newly reaches", () => {
    const bands = critical.movement(thug, {});
    const band = (m: number) => critical.movementBand(thug, m, {});
    const bm = bands[0]!.maxMetres;
    expect(bandCharge(band, bands, 0, bm)).toEqual({});
    expect(bandCharge(band, bands, 0, bm + 1)).toEqual({ pools: { ap: 1 } });
    expect(bandCharge(band, bands, bm + 1, 2 * bm + 1)).toEqual({ pools: { ap: 1 } });
    expect(bandCharge(band, bands, bm + 1, bm + 2)).toEqual({});
  });

  it("UD-MOV-03, UD-OPT-02: a disengagement's cost is folded into the band's charge", () => {
    const stats = fighter({ id: "a" });
    const band = (m: number) => ud10.movementBand(stats, m, {});
    const bands = ud10.movement(stats, {});
    expect(bandCharge(band, bands, 0, 1, disengage([], "retreat", opts).cost)).toEqual({ slots: { movement: 1, action: 1, reaction: 1 } });
    expect(addCosts({ slots: { action: 1 } }, { slots: { action: 1 }, pools: { ap: 2 } })).toEqual({
      slots: { action: 2 },
      pools: { ap: 2 },
    });
  });

  it("UD-REA-01, ZN-REA-01: a reaction costs the ruleset's reaction action", () => {
    expect(reactionCost(ud10Actions(fighter({ id: "a" }), {}), "parry")).toEqual({ slots: { reaction: 1 } });
    expect(reactionCost([], undefined)).toEqual({ slots: { reaction: 1 } });
  });

  it("UD-ACT-02: an id that is not one of the ruleset's actions is refused", () => {
    expect(() => actionEvent("dance", ud10Actions(fighter({ id: "a" }), {}))).toThrow(/dance/);
  });
});
