/**
 * Zones played card by card through the built bundle in the typed Foundry stand-in, with
 * scripted dice: the seed's three-round burst (difficulty 13, roll 13, one bullet of three) from
 * the canvas to apply and undo through the GM; each bullet on the card with its hit zone;
 * ammunition spent on the weapon item; a dodge and a block chosen on the card; a stoppage that
 * cuts a burst short and stays on the weapon; an aimed vital organ; a player's apply going
 * through the active GM, who recomputes the damage from the card's dice.
 */
import { mergedFlag } from "../support/data-model.js";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { StubRoll, diceQueue, lookup, readLang, type FoundryStub, type StubUser } from "../support/foundry-stub.js";
import { FlowWorld, type CardApi, type CardMessage, type Dict } from "../support/flow-world.js";
import { firefight as firefightIn, hp, zonesOptions } from "../support/flow-zones.js";

const en = readLang("en");

type Message = CardMessage;

interface FrayApi extends CardApi {
  registry: { get(id: string): { sheetAction?(actor: unknown, data: Dict, tokenId?: string): Promise<void> } | undefined };
}

const flowWorld = new FlowWorld<Message>(zonesOptions());
const { messages, queries } = flowWorld;
let stub: FoundryStub;
let gm: StubUser;
let player: StubUser;

beforeAll(async () => {
  ({ stub, gm, player } = await flowWorld.boot());
});

beforeEach(() => {
  flowWorld.reset();
  flowWorld.resetUsers();
  StubRoll.evaluated.length = 0;
});

const api = () => flowWorld.api<FrayApi>();

/** The rifleman and the compendium's Perimeter Sentry (kneeling, soft body vest) `squares` apart. */
const firefight = (squares: number) => firefightIn(flowWorld, squares);

/** An embedded item of a stand-in actor, with the `update` the stand-in gives it. */
const itemDoc = (a: { actor: { items: { get(id: string): unknown } } }, id: string) =>
  a.actor.items.get(id) as { update(changes: Dict): Promise<unknown> };
const itemSystem = (a: { source: { items: Dict[] } }, id: string) => a.source.items.find((i) => i._id === id)?.system as Dict;

describe("Zones attack card through the bundle", () => {
  it("ZN-RNG-01, ZN-RNG-03, ZN-RNG-05, ZN-RNG-08, ZN-BST-01: the seed's burst at dusk, difficulty 13, roll 13, one bullet of three, then ZN-ZON-01, ZN-ZON-02, ZN-DMG-01 apply and undo", async () => {
    // 67 squares of 1.5 m: 100.5 m, far range for the carbine's 300 m (the seed's "roughly 100 metres").
    const { rifleman, sentry, sentryToken } = firefight(67);
    stub.game.user.targets.add(sentryToken);
    diceQueue.push(8, 3, 4); // attack d10 8; the one bullet's hit zone 3 + 4 = 7, torso
    const outcome = await api().rollAttack({
      actor: rifleman.actor,
      weaponId: "carbine",
      modeId: "burst",
      situation: { environment: ["lowLight"] },
    });
    expect(stub.ui.notifications.messages).toEqual([]);
    const message = outcome!.message;
    const t = message.system.targets[0]!;
    const diff = t.result.plan.difficulty;
    expect([diff.base.value, ...diff.modifiers.map((m) => m.value)]).toEqual([5, 8, 1, -1]);
    expect(diff.total).toBe(13);
    expect([t.result.check.natural, ...t.result.check.modifiers.map((m) => m.value)]).toEqual([8, 1, 1, 3]);
    expect(t.result.check.total).toBe(13);
    expect(t.result.bullets).toMatchObject({ fired: 3, hit: 1, difficulties: [13, 15, 17] });
    expect(t.result.locations?.map((l) => l.id)).toEqual(["torso"]);
    // Every bullet on the card, hit or miss, the hit with its zone roll.
    const bullet = (n: number, d: number) =>
      lookup(en, "FRAY.Zones.Card.Bullet")!.replace("{n}", String(n)).replace("{difficulty}", String(d)).replace("{total}", "13");
    for (const [n, d] of [
      [1, 13],
      [2, 15],
      [3, 17],
    ] as const)
      expect(message.content).toContain(bullet(n, d));
    expect(message.content).toContain(`${bullet(1, 13)} · ${lookup(en, "FRAY.Zones.Zone.torso")} (7)`);
    expect(message.content.match(/outcome-miss/g)).toHaveLength(2);
    // The exact chance of each number of hits, weighed before the roll: one 30 % - 10 %, two 10 %, three never.
    const odds = (hits: number) => lookup(en, "FRAY.Zones.Card.HitsOdds")!.replace("{hits}", String(hits)).replace("{fired}", "3");
    expect(message.content).toMatch(
      new RegExp(`${odds(1)}(?: <span class="fray-rule">[A-Z-0-9]+</span>)?</td><td class="fray-value">20.0 %`),
    );
    expect(message.content).toMatch(
      new RegExp(`${odds(2)}(?: <span class="fray-rule">[A-Z-0-9]+</span>)?</td><td class="fray-value">10.0 %`),
    );
    expect(message.content).not.toContain(odds(3));
    // Rounds spent on the weapon item (ZN-BST-01): 30 - 3.
    expect(itemSystem(rifleman, "carbine").loaded).toBe(27);
    // Ranged: dodge and block are shown disabled with the core's reason (ZN-MEL-03).
    expect(message.content).toContain(
      `data-action="fray-dodge" data-target-index="0" disabled data-tooltip="${lookup(en, "FRAY.Zones.Reason.Ranged")}"`,
    );

    diceQueue.push(4, 5); // 2d6+2 = 11
    await api().flow.runCardAction(message, 0, "rollDamage");
    expect(message.system.targets[0]!.damage).toMatchObject({ amount: 11, location: "torso", type: "piercing" });
    // The damage header cites Zones' own rule, not UD10's damage code (ZN-DMG-01).
    expect(message.content).toContain("ZN-DMG-01");
    expect(message.content).not.toContain("UD-DMG-01");
    await api().flow.runCardAction(message, 0, "applyDamage");
    // 11 - 4 (the vest on the torso) = 7, x2 on the torso: 14 of 26.
    expect(hp(sentry)).toBe(12);
    const steps = message.system.targets[0]!.applied!.steps;
    expect(steps.map((s) => s.rule)).toEqual(["ZN-DMG-01", "ZN-ZON-02", "ZN-ZON-01", "ZN-ZON-02", "ZN-ZON-02"]);
    expect(message.content).not.toMatch(/FRAY\./);
    await api().flow.runCardAction(message, 0, "undoDamage");
    expect(hp(sentry)).toBe(26);
    // The replay of the card reads the carbine as loaded before the shot, though it holds 27 now.
    await api().flow.runCardAction(message, 0, "applyDamage");
    expect(hp(sentry)).toBe(12);
  });

  it("ZN-MAL-01, ZN-BST-01: a failure to feed after the first bullet stops the burst; the weapon keeps it until cleared and refuses the next attack", async () => {
    const { rifleman, sentryToken } = firefight(10);
    stub.game.user.targets.add(sentryToken);
    diceQueue.push(10, 3, 4);
    const outcome = await api().rollAttack({
      actor: rifleman.actor,
      weaponId: "carbine",
      modeId: "burst",
      situation: { malfunction: "failureToFeed", malfunctionAfter: 1 },
    });
    const t = outcome!.message.system.targets[0]!;
    expect(t.result.bullets).toMatchObject({ fired: 1, stoppedBy: "FRAY.Zones.Malfunction.failureToFeed" });
    expect(outcome!.message.content).toContain(lookup(en, "FRAY.Zones.Malfunction.failureToFeed"));
    expect(itemSystem(rifleman, "carbine")).toMatchObject({ loaded: 29, malfunction: "failureToFeed" });
    await api().rollAttack({ actor: rifleman.actor, weaponId: "carbine" });
    expect(stub.ui.notifications.messages.at(-1)?.level).toBe("error");
    expect(messages).toHaveLength(1);
  });

  it("ZN-MEL-01, ZN-MEL-03: a knife between adjacent squares is within reach; the aware defender dodges on the card and beats the attack", async () => {
    const { rifleman, sentry, sentryToken } = firefight(1);
    stub.game.user.targets.add(sentryToken);
    diceQueue.push(7, 3, 4); // d10 7 + STR 0 + DEX 1 + Melee 1 = 9 against 5; zone torso
    const { message } = (await api().rollAttack({ actor: rifleman.actor, weaponId: "knife" }))!;
    const t = message.system.targets[0]!;
    expect(t.request.distanceMetres).toBe(1.5);
    expect(t.result).toMatchObject({ hit: true, lands: true, check: { total: 9 }, plan: { difficulty: { total: 5 } } });
    expect(message.content).toContain('data-action="fray-dodge" data-target-index="0">');
    // The block is offered only once the defender has no action left.
    expect(message.content).toContain('data-action="fray-block" data-target-index="0" disabled');
    diceQueue.push(9); // dodge d10 9 + DEX 0 + Dodge 1 = 10 > 9
    await api().flow.runCardAction(message, 0, "dodge");
    const after = message.system.targets[0]!;
    expect(after.result.reaction).toMatchObject({ id: "dodge", rule: "ZN-MEL-03", success: true, check: { total: 10 } });
    expect(after.result.lands).toBe(false);
    expect(message.content).not.toContain('data-action="fray-rollDamage"');
    expect(hp(sentry)).toBe(26);
  });

  it("ZN-MEL-04, ZN-ZON-02: a defender out of actions blocks on the card (d10 + STR + CON); the damage is halved and the GM applies it", async () => {
    const { rifleman, sentry, riflemanToken, sentryToken } = firefight(1);
    const flags = new Map<string, unknown>();
    const combatant = (id: string, a: Dict, token: { id: string }) => ({
      id,
      tokenId: token.id,
      actor: a,
      actorId: a.id,
      isOwner: true,
      combat: { id: "combat1", round: 1 },
      getFlag: (_s: string, k: string) => flags.get(`${id}.${k}`),
      setFlag: async (_s: string, k: string, v: unknown) => flags.set(`${id}.${k}`, mergedFlag(flags.get(`${id}.${k}`), v)),
    });
    const list = [combatant("c1", rifleman.actor, riflemanToken), combatant("c2", sentry.actor, sentryToken)];
    (stub.game as unknown as Dict).combat = {
      id: "combat1",
      started: true,
      round: 1,
      combatants: Object.assign(list, { get: (id: string) => list.find((c) => c.id === id) }),
    };
    flags.set("c2.economy", { slots: { action: { used: 1 } } });
    stub.game.user.targets.add(sentryToken);
    diceQueue.push(9, 3, 4); // 9 + 2 = 11 against 5; torso
    const { message } = (await api().rollAttack({ actor: rifleman.actor, weaponId: "knife" }))!;
    expect(message.content).toContain('data-action="fray-block" data-target-index="0">');
    expect(message.content).toContain(
      `data-action="fray-dodge" data-target-index="0" disabled data-tooltip="${lookup(en, "FRAY.Zones.Reason.NoAction")}"`,
    );
    diceQueue.push(10); // block d10 10 + STR 0 + CON 1 = 11: not more than 11, fails
    await api().flow.runCardAction(message, 0, "block");
    expect(message.system.targets[0]!.result.reaction).toMatchObject({ id: "block", success: false, check: { total: 11 } });
    expect(message.system.targets[0]!.result.lands).toBe(true);

    diceQueue.push(9, 3, 4);
    const second = (await api().rollAttack({ actor: rifleman.actor, weaponId: "knife", free: true }))!.message;
    diceQueue.push(2); // fails too, the chance was a coin: then a succeeding block below
    await api().flow.runCardAction(second, 0, "block");
    expect(second.system.targets[0]!.result.reaction?.success).toBe(false);

    diceQueue.push(4, 3, 4);
    const third = (await api().rollAttack({ actor: rifleman.actor, weaponId: "knife", free: true }))!.message; // 4 + 2 = 6
    diceQueue.push(8); // 8 + 1 = 9 > 6: the block halves
    await api().flow.runCardAction(third, 0, "block");
    expect(third.system.targets[0]!.result.reaction).toMatchObject({ id: "block", rule: "ZN-MEL-04", success: true });
    diceQueue.push(5); // 1d6+1 = 6, halved to 3
    await api().flow.runCardAction(third, 0, "rollDamage");
    expect(third.system.targets[0]!.damage).toMatchObject({ amount: 3 });
    await api().flow.runCardAction(third, 0, "applyDamage");
    // 3 - 4 (vest): nothing gets through.
    expect(hp(sentry)).toBe(26);
    expect(third.system.targets[0]!.applied!.steps.map((s) => s.rule)).toContain("ZN-MEL-04");
  });

  it("ZN-ZON-03, ZN-VIT-01, ZN-VIT-04: a shot aimed at the brain, a vital organ (size two steps down), needs no zone roll; piercing damage counts in full there, x6; the player applies through the active GM", async () => {
    const { rifleman, sentry, sentryToken } = firefight(4);
    // Kneeling, the sentry is a small target whose brain is too small to aim at: it stands up.
    sentry.source.system.stance = "standing";
    diceQueue.push(10);
    const outcome = await api().rollAttack({
      actor: rifleman.actor,
      weaponId: "carbine",
      target: sentryToken,
      situation: { aimedZone: "brain" },
    });
    expect(stub.ui.notifications.messages).toEqual([]);
    const { message } = outcome!;
    const t = message.system.targets[0]!;
    expect(t.result.plan.difficulty.modifiers.map((m) => m.rule)).toContain("ZN-ZON-03");
    if (!t.result.hit) throw new Error(`the aimed shot missed: ${t.result.check.total} against ${t.result.plan.difficulty.total}`);
    expect(t.result.locations?.map((l) => l.id)).toEqual(["brain"]);
    expect(message.content).toContain(`${lookup(en, "FRAY.Zones.Zone.brain")} (${lookup(en, "FRAY.Zones.Card.Aimed")})`);
    diceQueue.push(6, 6);
    await api().flow.runCardAction(message, 0, "rollDamage");
    rifleman.actor.ownership = { default: 0, p1: 3 };
    sentry.actor.ownership = { default: 0 };
    stub.game.users.current = player;
    await api().flow.runCardAction(message, 0, "applyDamage");
    expect(queries).toEqual([{ name: "fray.applyDamage", userId: "p1" }]);
    // 14 piercing on the brain, no head armor, full damage on the vital organ, x6 (ZN-ZON-01): 84; incapacitated (ZN-ZON-02).
    expect(hp(sentry)).toBe(26 - 84);
    expect(message.system.targets[0]!.applied!.steps.map((s) => s.rule)).toEqual([
      "ZN-DMG-01",
      "ZN-ZON-02",
      "ZN-VIT-04",
      "ZN-ZON-01",
      "ZN-ZON-02",
    ]);
    expect(sentry.actor.statuses.has("incapacitated")).toBe(true);
    stub.game.users.current = gm;
    await api().flow.runCardAction(message, 0, "undoDamage");
    expect(hp(sentry)).toBe(26);
    expect(sentry.actor.statuses.has("incapacitated")).toBe(false);
  });

  it("ZN-MAL-01, ZN-REL-01, ZN-DRW-01, ZN-RNG-07: the sheet's Clear, Reload, Draw and Aim buttons change the weapon and the actor through the core", async () => {
    const { rifleman, sentryToken } = firefight(10);
    const sheetAction = api().registry.get("zones")!.sheetAction!;
    diceQueue.push(10, 3, 4);
    await api().rollAttack({
      actor: rifleman.actor,
      weaponId: "carbine",
      modeId: "burst",
      target: sentryToken,
      situation: { malfunction: "stovepipe" },
    });
    expect(itemSystem(rifleman, "carbine")).toMatchObject({ loaded: 29, malfunction: "stovepipe" });
    await sheetAction(rifleman.actor, { rulesetAction: "clearMalfunction", itemId: "carbine" });
    expect(itemSystem(rifleman, "carbine").malfunction).toBeNull();
    await sheetAction(rifleman.actor, { rulesetAction: "reload", itemId: "carbine" });
    expect(itemSystem(rifleman, "carbine")).toMatchObject({ loaded: 30, spareMagazines: 3 });
    // A weapon carried shouldered is drawn in two actions; outside combat at once.
    await itemDoc(rifleman, "carbine").update({ system: { drawn: false } });
    await sheetAction(rifleman.actor, { rulesetAction: "draw", itemId: "carbine" });
    expect(itemSystem(rifleman, "carbine").drawn).toBe(true);
    await sheetAction(rifleman.actor, { rulesetAction: "aim" });
    await sheetAction(rifleman.actor, { rulesetAction: "aim" });
    expect(rifleman.source.system.aim).toBe(2);
    // Two aiming actions take 4 off the difficulty; the shot spends them.
    diceQueue.push(1);
    const { message } = (await api().rollAttack({ actor: rifleman.actor, weaponId: "carbine", target: sentryToken }))!;
    expect(message.system.targets[0]!.result.plan.difficulty.modifiers.find((m) => m.rule === "ZN-RNG-07")?.value).toBe(-4);
    expect(rifleman.source.system.aim).toBe(0);
    // A squib load cannot be cleared in a fight.
    await itemDoc(rifleman, "carbine").update({ system: { malfunction: "squibLoad" } });
    await expect(sheetAction(rifleman.actor, { rulesetAction: "clearMalfunction", itemId: "carbine" })).rejects.toMatchObject({
      key: "FRAY.Error.Zones.SquibLoad",
    });
  });

  it("ZN-MOV-01, ZN-MOV-04, ZN-ACT-02: a stance change from the sheet in combat costs 1 speed point, 2 up from prone, topped up from effort", async () => {
    const { rifleman, riflemanToken } = firefight(3);
    const flags = new Map<string, unknown>();
    const c1 = {
      id: "c1",
      tokenId: riflemanToken.id,
      actor: rifleman.actor,
      actorId: "rifleman",
      isOwner: true,
      combat: { id: "combat1", round: 1 },
      getFlag: (_s: string, k: string) => flags.get(`c1.${k}`),
      setFlag: async (_s: string, k: string, v: unknown) => flags.set(`c1.${k}`, mergedFlag(flags.get(`c1.${k}`), v)),
    };
    const list = [c1];
    (stub.game as unknown as Dict).combat = {
      id: "combat1",
      started: true,
      round: 1,
      combatants: Object.assign(list, { get: (id: string) => list.find((c) => c.id === id) }),
    };
    // Moving without the action (the option off), 1 speed point left and 3 effort.
    await stub.game.settings.set("fray", "zones-moveTakesAction", false);
    flags.set("c1.economy", { pools: { speed: { value: 1 }, effort: { value: 3 } } });
    const sheetAction = api().registry.get("zones")!.sheetAction!;
    await sheetAction(rifleman.actor, { rulesetAction: "stance", value: "prone" });
    expect(rifleman.source.system.stance).toBe("prone");
    expect(flags.get("c1.economy")).toMatchObject({ pools: { speed: { value: 0 }, effort: { value: 3 } } });
    // Up from prone: 2 points, both from effort now.
    await sheetAction(rifleman.actor, { rulesetAction: "stance", value: "standing" });
    expect(rifleman.source.system.stance).toBe("standing");
    expect(flags.get("c1.economy")).toMatchObject({ pools: { speed: { value: 0 }, effort: { value: 1 } } });
    // Kneeling costs the last effort point; going prone then cannot be paid: refused, the stance stays.
    await sheetAction(rifleman.actor, { rulesetAction: "stance", value: "kneeling" });
    expect(flags.get("c1.economy")).toMatchObject({ pools: { speed: { value: 0 }, effort: { value: 0 } } });
    await expect(sheetAction(rifleman.actor, { rulesetAction: "stance", value: "prone" })).rejects.toMatchObject({
      key: "FRAY.Error.Zones.NotEnoughPoints",
    });
    expect(rifleman.source.system.stance).toBe("kneeling");
    stub.game.settings.values.delete("fray.zones-moveTakesAction");
  });
});
