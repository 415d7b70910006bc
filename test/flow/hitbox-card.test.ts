/**
 * Hitbox played through the built bundle in the typed stand-in (a world whose ruleset setting is
 * `hitbox`): the seed's own example (Zeven and the security guard) card by card with scripted
 * dice and the tie setting of its example file, the dodge that stands for the whole turn, the
 * Blackout test on the card, armor used up on the armor item, apply and undo through the active
 * GM, never saw it coming and a damaged limb's halving on the card.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BEYOND_COLOUR, bandColourAt } from "../../src/foundry/logic/ruler.js";
import { armorTracks } from "../../src/rules/hitbox/damage.js";
import type { HitboxCombatant } from "../../src/rules/hitbox/model.js";
import { ROOT, diceQueue, readLang, lookup, stubCanvas, type FoundryStub, type StubUser } from "../support/foundry-stub.js";
import { FlowWorld, cardText, packSource as pack, type CardApi, type CardMessage, type Dict } from "../support/flow-world.js";
import { BaseRuler, boxes, clearHitboxSettings, hitboxOptions, zevenAndGuard, type Hitboxes } from "../support/flow-hitbox.js";

const en = readLang("en");

type Message = CardMessage;

type FrayApi = CardApi;

const flowWorld = new FlowWorld<Message>(hitboxOptions());
const { messages, queries } = flowWorld;
let stub: FoundryStub;
let player: StubUser;

/** A Combat of the stand-in, started, with one Combatant per actor (owned as its actor is). */
const startCombat = (entries: Parameters<typeof flowWorld.startCombat>[0]) => flowWorld.startCombat(entries, { ownerFromActor: true });
/** Zeven and the guard 15 ft apart on a 5 ft grid (3 squares). */
const world = () => zevenAndGuard(flowWorld);
const api = () => flowWorld.api<FrayApi>();
/** The card's visible text for the English reader (tags stripped). */
const text = (m: Message) => cardText(m);

beforeAll(async () => {
  ({ stub, player } = await flowWorld.boot());
});

beforeEach(async () => {
  flowWorld.reset();
  clearHitboxSettings(flowWorld);
});

describe("a Hitbox world", () => {
  it("HB-RND-01: raises no 'not implemented' warning and plays its attack card", () => {
    expect(stub.ui.notifications.messages.filter((m) => m.level === "warn")).toEqual([]);
    const fray = stub.game.fray as { binding: { id: string; implemented: boolean } };
    expect(fray.binding).toMatchObject({ id: "hitbox", implemented: true });
  });
});

describe("the seed's example, card by card (seed 002, examples/hitbox-zeven.yaml)", () => {
  it("HB-ATK-01, HB-ATK-02, HB-ATK-03, HB-ATK-04, HB-MOD-01, HB-MOD-02, HB-MOD-03, HB-MOD-04, HB-LOC-01, HB-LOC-02, HB-DMG-01, HB-DMG-03, HB-DMG-04, HB-ACT-01, HB-ACT-04: both turns with the seed's numbers", async () => {
    await stub.game.settings.set("fray", "hitbox-hitboxReactionTies", "defender");
    const { zeven, guard, zevenToken, guardToken } = world();
    const { combat, flags } = startCombat([
      { actor: zeven.actor, token: zevenToken },
      { actor: guard.actor, token: guardToken },
    ]);
    const flow = api().flow;

    // Turn 1: Zeven's called shot at the left leg, 15 ft: 7 + 3 + 1 = 11, called -2, close +1: 10.
    diceQueue.push(3, 4, 4, 4); // attack 3 + 4; called-shot table 4 + 4 = 8
    const shot = await api().rollAttack({
      actor: zeven.actor,
      weaponId: "hBw1HoldoutPis01",
      token: zevenToken,
      target: guardToken,
      situation: { calledShot: "leftLeg" },
    });
    const m1 = shot!.message;
    const t1 = () => m1.system.targets[0]!;
    expect(t1().request.distanceMetres).toBeCloseTo(4.572, 6);
    expect(t1().result.check).toMatchObject({ natural: 7, total: 10 });
    expect(t1().result.check.modifiers.map((m) => [m.rule, m.value])).toEqual([
      ["HB-ATK-02", 3],
      ["HB-ATK-02", 1],
      ["HB-MOD-03", -2],
      ["HB-MOD-01", 1],
    ]);
    expect(t1().result.plan.difficulty.total).toBe(9);
    expect(m1.content).toContain('data-action="fray-dodge"');
    // The guard answers with a dodge on the card: 5 + 3 + 1 = 9 is the difficulty; 10 hits.
    diceQueue.push(2, 3);
    await flow.runCardAction(m1, 0, "dodge");
    expect(t1().result.reaction).toMatchObject({ id: "dodge", check: { natural: 5, total: 9 }, success: false });
    expect(t1().result).toMatchObject({ hit: true, lands: true, plan: { difficulty: { total: 9 } } });
    expect(t1().result.location).toMatchObject({ id: "leftLeg", rule: "HB-LOC-02", roll: { total: 8 } });
    expect(text(m1)).toMatch(/10 vs\. difficulty 9/);
    // No cover nearby: the dodge drops him (HB-ACT-04), and the total stands for the turn.
    expect(guard.actor.statuses.has("goingProne")).toBe(true);
    await flow.runCardAction(m1, 0, "rollDamage");
    expect(t1().damage).toMatchObject({ amount: 1, location: "leftLeg" });
    await flow.runCardAction(m1, 0, "applyDamage");
    expect(boxes(guard.actor).leftLeg).toEqual({ value: 1, max: 2 });
    expect(guard.actor.statuses.has("prone")).toBe(true);
    expect(t1().report?.forced ?? []).toEqual([]);
    expect(m1.content).not.toContain('data-action="fray-forcedCheck"');

    // Turn 2: the guard lies prone; Zeven's called shot at the head: 8 + 3 + 1 = 12, called -2,
    // prone -1, close +1: 10 against 9, and the guard cannot dodge (HB-MOD-04).
    combat.round = 2;
    // A new round's economies are fresh, as the tracker's round start writes them.
    for (const key of [...flags.keys()]) if (key.endsWith(".economy")) flags.delete(key);
    diceQueue.push(4, 4, 5, 5);
    const m2 = (await api().rollAttack({
      actor: zeven.actor,
      weaponId: "hBw1HoldoutPis01",
      token: zevenToken,
      target: guardToken,
      situation: { calledShot: "head" },
    }))!.message;
    const t2 = () => m2.system.targets[0]!;
    expect(t2().result.check).toMatchObject({ natural: 8, total: 10 });
    expect(t2().result.check.modifiers.some((m) => m.rule === "HB-MOD-02" && m.value === -1)).toBe(true);
    expect(t2().reactions.find((r) => r.id === "dodge")).toMatchObject({ available: false, reason: "FRAY.Reason.HitboxProne" });
    expect(t2().result.location).toMatchObject({ id: "head", roll: { total: 10 } });

    // HB-ACT-01: the same step: the guard fires before Zeven's hit takes effect (applied below),
    // twice at Zeven (HB-MOD-03: -2 on each shot): 8 + 3 + 0 - 2 + 1 = 10.
    diceQueue.push(4, 4, 1, 3); // attack 4 + 4; regular table 1 + 3 = 4: left arm
    const m3 = (await api().rollAttack({
      actor: guard.actor,
      weaponId: "hBi1SecuriDuty01",
      token: guardToken,
      target: zevenToken,
      situation: { shots: 2 },
    }))!.message;
    const t3 = () => m3.system.targets[0]!;
    expect(t3().result.check).toMatchObject({ natural: 8, total: 10 });
    expect(t3().result.location).toMatchObject({ id: "leftArm", rule: "HB-LOC-01", roll: { total: 4 } });
    diceQueue.push(1, 4); // Zeven dodges as she drops: 5 + 3 + 1 = 9; 10 still hits
    await flow.runCardAction(m3, 0, "dodge");
    expect(t3().result).toMatchObject({ hit: true, reaction: { id: "dodge", check: { total: 9 } } });
    // The second shot meets the same dodge, not a new one: 7 + 3 - 2 + 1 = 9 ties 9, and ties go to the defender.
    diceQueue.push(3, 4);
    const second = await api().rollAttack({
      actor: guard.actor,
      weaponId: "hBi1SecuriDuty01",
      token: guardToken,
      target: zevenToken,
      situation: { shots: 2 },
    });
    expect(stub.ui.notifications.messages.filter((n) => n.level === "error")).toEqual([]);
    const t4 = second!.message.system.targets[0]!;
    expect(t4.result.check.total).toBe(9);
    expect(t4.result).toMatchObject({ hit: false, lands: false, reaction: { id: "dodge", check: { total: 9 }, success: true } });
    expect(second!.message.content).not.toContain('data-action="fray-dodge"');
    expect(text(second!.message)).toContain(lookup(en, "FRAY.Chat.Dodged")!);

    // The hits of the turn land: Zeven's left arm, the guard's head.
    await flow.runCardAction(m3, 0, "rollDamage");
    await flow.runCardAction(m3, 0, "applyDamage");
    expect(boxes(zeven.actor).leftArm).toEqual({ value: 1, max: 2 });
    await flow.runCardAction(m2, 0, "rollDamage");
    await flow.runCardAction(m2, 0, "applyDamage");
    expect(boxes(guard.actor).head).toEqual({ value: 1, max: 2 });
    // The head is vital: the card prompts the Blackout (Fortitude) 12 test: 5 + 3 + 2 = 10, shock.
    expect(t2().report?.forced).toEqual([expect.objectContaining({ id: "blackout", rule: "HB-DMG-04", difficulty: 12 })]);
    expect(m2.content).toContain('data-action="fray-forcedCheck"');
    diceQueue.push(1, 4);
    await flow.runCardAction(m2, 0, "forcedCheck");
    expect(t2().forced).toEqual([
      expect.objectContaining({ needed: 12, success: false, check: expect.objectContaining({ natural: 5, total: 10 }) }),
    ]);
    expect(guard.actor.statuses.has("shock")).toBe(true);
    expect(m2.content).not.toContain('data-action="fray-forcedCheck"');
    expect(text(m2)).toContain(lookup(en, "FRAY.Condition.shock")!);

    // Undo restores all of it: the head point and the shock the Blackout test brought.
    await flow.runCardAction(m2, 0, "undoDamage");
    expect(boxes(guard.actor).head).toEqual({ value: 2, max: 2 });
    expect(guard.actor.statuses.has("shock")).toBe(false);
    expect(t2().forced).toBeUndefined();
    expect(m2.content).not.toMatch(/FRAY\./);
  });
});

describe("the turn's start", () => {
  it("HB-ACT-04, HB-RND-01: whoever dropped to dodge lies prone when the next turn starts; the shock count runs (HB-DMG-04)", async () => {
    const { guard } = world();
    guard.actor.statuses.add("goingProne");
    const binding = (
      stub.game.fray as { registry: { get(id: string): { startRoundOn?(a: unknown, r: number, o: Dict): Promise<void> } } }
    ).registry.get("hitbox")!;
    await binding.startRoundOn!(guard.actor, 2, { hitboxShockTurns: 2 });
    expect([...guard.actor.statuses].sort()).toEqual(["prone"]);
    guard.actor.statuses.add("shock");
    await binding.startRoundOn!(guard.actor, 3, { hitboxShockTurns: 2 });
    expect((guard.actor.system as { shockTurnsLeft?: number }).shockTurnsLeft).toBe(1);
    await binding.startRoundOn!(guard.actor, 4, { hitboxShockTurns: 2 });
    await binding.startRoundOn!(guard.actor, 5, { hitboxShockTurns: 2 });
    expect(guard.actor.statuses.has("dead")).toBe(true);
  });
});

describe("movement, quick actions and durations", () => {
  it("HB-ACT-02: the ruler colours walk 10 ft (action kept), 20 ft and run 40 ft in feet; a full leg stops walking and running", () => {
    const { zeven, guard, zevenToken, guardToken } = world();
    const Ruler = (stub.CONFIG as unknown as { Token: { rulerClass: new (t: unknown) => BaseRuler } }).Token.rulerClass;
    const colourAt = (token: unknown, feet: number) => new Ruler(token)._getSegmentStyle({ measurement: { cost: feet } }).color;
    expect([10, 20, 40, 45].map((ft) => colourAt(zevenToken, ft))).toEqual([
      bandColourAt(0),
      bandColourAt(1),
      bandColourAt(2),
      BEYOND_COLOUR,
    ]);
    (guard.source.system as { hitboxes: Hitboxes }).hitboxes.leftLeg = { value: 0, max: 2 };
    expect(colourAt(guardToken, 5)).toBe(BEYOND_COLOUR);
    expect(zeven.actor.name).toBe("Zeven");
  });

  it("HB-ACT-02: on a scene measured in metres the ruler converts to feet: 3 m keeps the action, 6 m walks, 12 m runs, 12.5 m is beyond", () => {
    const { zevenToken } = world();
    const g = globalThis as Dict;
    const feetScene = stub.canvas;
    stub.canvas = stubCanvas(100, 1.5, "m");
    g.canvas = stub.canvas;
    try {
      const Ruler = (stub.CONFIG as unknown as { Token: { rulerClass: new (t: unknown) => BaseRuler } }).Token.rulerClass;
      const colourAt = (metres: number) => new Ruler(zevenToken)._getSegmentStyle({ measurement: { cost: metres } }).color;
      // 3 m = 9.8 ft, 6 m = 19.7 ft, 12 m = 39.4 ft, 12.5 m = 41 ft.
      expect([3, 6, 12, 12.5].map(colourAt)).toEqual([bandColourAt(0), bandColourAt(1), bandColourAt(2), BEYOND_COLOUR]);
      // 3.1 m is 10.2 ft: past the step that keeps the action.
      expect(colourAt(3.1)).toBe(bandColourAt(1));
    } finally {
      stub.canvas = feetScene;
      g.canvas = feetScene;
    }
  });

  it("HB-ACT-02, HB-DMG-03: with a full right leg the combatant can neither walk nor run: the sheet's moves are refused and the ruler shows every distance beyond", async () => {
    const { guard, guardToken } = world();
    (guard.source.system as { hitboxes: Hitboxes }).hitboxes.rightLeg = { value: 0, max: 2 };
    const Ruler = (stub.CONFIG as unknown as { Token: { rulerClass: new (t: unknown) => BaseRuler } }).Token.rulerClass;
    expect([5, 10, 20, 40].map((ft) => new Ruler(guardToken)._getSegmentStyle({ measurement: { cost: ft } }).color)).toEqual(
      Array(4).fill(BEYOND_COLOUR),
    );
    const flow = api().flow as unknown as { takeAction(actor: unknown, id: string, o: Dict): Promise<{ ok: boolean }> };
    for (const id of ["step", "walk", "run"])
      expect((await flow.takeAction(guard.actor, id, { tokenId: guardToken.id })).ok, id).toBe(false);
    // The leg healed by a point: walking is possible again.
    (guard.source.system as { hitboxes: Hitboxes }).hitboxes.rightLeg = { value: 1, max: 2 };
    expect(new Ruler(guardToken)._getSegmentStyle({ measurement: { cost: 20 } }).color).toBe(bandColourAt(1));
  });

  it("HB-ACT-02: a new scene in a Hitbox world gets 5 ft squares unless its creator gives a grid", () => {
    const made: Dict[] = [];
    const scene = (data: Dict) => ({ updateSource: (c: Dict) => made.push(c), data });
    stub.Hooks.callAll("preCreateScene", scene({}), {}, {}, "gm");
    stub.Hooks.callAll("preCreateScene", scene({}), { grid: { distance: 1, units: "m" } }, {}, "gm");
    expect(made).toEqual([{ grid: { distance: 5, units: "ft" } }]);
  });

  it("HB-ACT-04, HB-MOD-02, HB-MOD-04: going prone as a quick action lets Zeven dodge the guard's shots of the turn without cover and without the prone -1; from the next turn she lies prone and cannot", async () => {
    const { zeven, guard, zevenToken, guardToken } = world();
    const { combat, flags } = startCombat([
      { actor: zeven.actor, token: zevenToken },
      { actor: guard.actor, token: guardToken },
    ]);
    const flow = api().flow as unknown as {
      takeAction(actor: unknown, id: string, o: Dict): Promise<{ ok: boolean }>;
      runCardAction(m: Message, i: number, a: string): Promise<void>;
    };
    expect((await flow.takeAction(zeven.actor, "prone", { tokenId: zevenToken.id })).ok).toBe(true);
    const shoot = async (dice: number[]) => {
      diceQueue.push(...dice);
      return (await api().rollAttack({ actor: guard.actor, weaponId: "hBi1SecuriDuty01", token: guardToken, target: zevenToken }))!.message;
    };
    // The guard's first shot: 4 + 4 + Dex 3 + close 1 = 12; no -1 for a target dropping this turn.
    const m1 = await shoot([4, 4, 3, 4]);
    const t1 = () => m1.system.targets[0]!;
    expect(t1().result.check.total).toBe(12);
    expect(t1().result.check.modifiers.some((m) => m.rule === "HB-MOD-02")).toBe(false);
    // No cover near her, yet the dodge is offered: she is going prone (HB-ACT-04).
    expect(t1().reactions.find((r) => r.id === "dodge")).toMatchObject({ available: true });
    // She dodges: 6 + 6 + Dex 3 + Dodge 1 = 16: the shot misses.
    diceQueue.push(6, 6);
    await flow.runCardAction(m1, 0, "dodge");
    expect(t1().result).toMatchObject({ hit: false, reaction: { id: "dodge", check: { total: 16 } } });
    // The second shot of the turn meets the same dodge at once.
    const m2 = await shoot([5, 5, 3, 4]);
    expect(m2.system.targets[0]!.result).toMatchObject({ hit: false, plan: { difficulty: { total: 16 } } });
    // The next turn starts: she lies prone; a shot takes the prone -1, and she cannot dodge it.
    // The Combat's round change starts a fresh economy (the reaction is back).
    combat.round = 2;
    for (const t of [zevenToken, guardToken]) flags.delete(`c-${t.id}.economy`);
    await (stub.game.fray as { binding: { startRoundOn(a: unknown, r: number, o: Dict): Promise<void> } }).binding.startRoundOn(
      zeven.actor,
      2,
      {},
    );
    expect(zeven.actor.statuses.has("prone")).toBe(true);
    expect(zeven.actor.statuses.has("goingProne")).toBe(false);
    const m3 = await shoot([4, 4, 3, 4]);
    const t3 = m3.system.targets[0]!;
    expect(t3.result.check.modifiers.find((m) => m.rule === "HB-MOD-02")).toMatchObject({ value: -1 });
    expect(t3.reactions.find((r) => r.id === "dodge")).toMatchObject({ available: false, reason: "FRAY.Reason.HitboxProne" });
  });

  it("HB-ACT-03: quick actions stay possible for a combatant whose action a hit interrupted; one in shock has none", async () => {
    const { zeven, guard, zevenToken, guardToken } = world();
    const { flags } = startCombat([
      { actor: zeven.actor, token: zevenToken },
      { actor: guard.actor, token: guardToken },
    ]);
    const flow = api().flow as unknown as {
      takeAction(actor: unknown, id: string, o: Dict): Promise<{ ok: boolean }>;
      runCardAction(m: Message, i: number, a: string): Promise<void>;
    };
    // The guard's shot lands on Zeven's left arm (regular table 4), which interrupts her action.
    diceQueue.push(6, 6, 1, 3);
    const m = (await api().rollAttack({ actor: guard.actor, weaponId: "hBi1SecuriDuty01", token: guardToken, target: zevenToken }))!
      .message;
    await flow.runCardAction(m, 0, "noReaction");
    await flow.runCardAction(m, 0, "rollDamage");
    await flow.runCardAction(m, 0, "applyDamage");
    expect(boxes(zeven.actor).leftArm!.value).toBe(boxes(zeven.actor).leftArm!.max - 1);
    // Still: she lets go of the pistol, shouts, draws it again and drops to the ground.
    for (const [id, item] of [
      ["letGo", "hBw1HoldoutPis01"],
      ["communicate", undefined],
      ["draw", "hBw1HoldoutPis01"],
      ["prone", undefined],
    ] as const)
      expect((await flow.takeAction(zeven.actor, id, { tokenId: zevenToken.id, ...(item ? { itemId: item } : {}) })).ok, id).toBe(true);
    expect(zeven.actor.statuses.has("goingProne")).toBe(true);
    // The guard in shock is out of the fight: not even a quick action.
    guard.actor.statuses.add("shock");
    expect((await flow.takeAction(guard.actor, "communicate", { tokenId: guardToken.id })).ok).toBe(false);
    expect(stub.ui.notifications.messages.at(-1)).toMatchObject({ level: "error", text: "Security Guard cannot act." });
    expect(
      (flags.get(`c-${guardToken.id}.economy`) as { slots: Record<string, { used: number }> } | undefined)?.slots.quick?.used ?? 0,
    ).toBe(0);
  });

  it("HB-ACT-03, HB-ACT-04: quick actions spend no action; going prone marks the combatant for the turn, and the attack is still possible", async () => {
    const { zeven, guard, zevenToken, guardToken } = world();
    const { flags } = startCombat([
      { actor: zeven.actor, token: zevenToken },
      { actor: guard.actor, token: guardToken },
    ]);
    const flow = api().flow as unknown as { takeAction(actor: unknown, id: string, o: Dict): Promise<{ ok: boolean }> };
    for (const id of ["communicate", "draw", "prone"])
      expect((await flow.takeAction(zeven.actor, id, { tokenId: zevenToken.id })).ok, id).toBe(true);
    expect(zeven.actor.statuses.has("goingProne")).toBe(true);
    const economy = flags.get(`c-${zevenToken.id}.economy`) as { slots: Record<string, { used: number }> };
    expect(economy.slots.action?.used ?? 0).toBe(0);
    diceQueue.push(4, 4, 4, 4);
    const outcome = await api().rollAttack({ actor: zeven.actor, weaponId: "hBw1HoldoutPis01", token: zevenToken, target: guardToken });
    expect(outcome?.message).toBeDefined();
  });

  it("HB-ACT-05: the GM's opposed test between two tokens rolls 2d6 + ability + skill each, a tie rolls again", async () => {
    const { zevenToken, guardToken } = world();
    const tools = (
      stub.game.fray as { binding: { tools: { opposedTest(...args: unknown[]): Promise<{ winner: string; rounds: unknown[] }> } } }
    ).binding.tools;
    diceQueue.push(3, 3, 3, 3, 6, 6, 1, 1); // 6 + 4 against 6 + 4: a tie; then 12 + 4 against 2 + 4
    const result = await tools.opposedTest(zevenToken, "firearms", guardToken, "dodge");
    expect(result).toMatchObject({ winner: "a" });
    expect(result.rounds).toHaveLength(2);
    const card = text(messages.at(-1)!);
    expect(card).toContain("Zeven wins");
    expect(card).toContain("Zeven · Firearms (2d6 + 4) 10, 16");
    stub.game.users.current = player;
    expect(await tools.opposedTest(zevenToken, "firearms", guardToken, "dodge")).toBeUndefined();
    expect(stub.ui.notifications.messages.at(-1)?.text).toBe("Only the GM rolls opposed tests.");
  });

  it("HB-RND-02: an effect started in play acts from the next turn on", async () => {
    const { zeven } = world();
    const created: Dict[] = [];
    Object.assign(zeven.actor, { effects: [], createEmbeddedDocuments: async (_t: string, rows: Dict[]) => created.push(...rows) });
    const combat = { id: "combat1", round: 3, turn: 0, turns: [{}, {}], combatants: [] };
    await (stub.game.fray as { startEffect(a: unknown, s: Dict, c: unknown): Promise<unknown> }).startEffect(
      zeven.actor,
      { name: "Stunned", rounds: 1 },
      combat,
    );
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ disabled: true, duration: { startRound: 4, rounds: 1 } });
  });
});

describe("the compendium's items dropped on a sheet", () => {
  it("HB-DMG-01, HB-DMG-02: dropping the compendium's helmet and plate carrier on Zeven's sheet fills her hitbox armor; a weapon joins her weapons; a UD10 vest is refused", async () => {
    const { zeven } = world();
    Object.assign(zeven.actor, {
      async createEmbeddedDocuments(_type: string, rows: Dict[]) {
        for (const row of rows) (zeven.source.items as unknown as Dict[]).push(structuredClone(row));
        return rows;
      },
    });
    const Sheet = stub.actors.registrations[0]!.sheetClass as new (o: Dict) => { _onDropItem(e: unknown, item: unknown): Promise<unknown> };
    const sheet = new Sheet({ document: zeven.actor });
    const dropped = (dir: string, file: string) => {
      const source = pack(dir, file);
      return {
        uuid: `Compendium.fray.${dir}.Item.${String(source._id)}`,
        type: source.type,
        system: source.system,
        _source: source,
        parent: null,
        toObject: () => structuredClone(source),
      };
    };
    const core = () =>
      (stub.game.fray as { binding: { combatantFromActor(a: unknown): unknown } }).binding.combatantFromActor({
        ...zeven.actor.toObject(),
        statuses: [],
      } as never) as HitboxCombatant;
    expect(armorTracks(core())).toEqual({});
    await sheet._onDropItem({}, dropped("hitbox-armor", "Tactical_Helmet_hBa1TacticalHe02.json"));
    await sheet._onDropItem({}, dropped("hitbox-armor", "Plate_Carrier_hBa1PlateCarri03.json"));
    expect(armorTracks(core())).toEqual({ head: { value: 1, max: 1 }, torso: { value: 2, max: 2 }, groin: { value: 1, max: 1 } });
    const shotgun = readdirSync(join(ROOT, "packs", "_source", "hitbox-weapons")).find((f) => f.startsWith("Riot_Shotgun"))!;
    await sheet._onDropItem({}, dropped("hitbox-weapons", shotgun));
    expect(core().weapons.map((w) => w.name)).toContain("Riot Shotgun");
    // An item of another ruleset is refused with a warning and nothing is created.
    const ud10 = readdirSync(join(ROOT, "packs", "_source", "ud10-armor"))[0]!;
    const count = zeven.source.items.length;
    expect(await sheet._onDropItem({}, dropped("ud10-armor", ud10))).toBeNull();
    expect(zeven.source.items).toHaveLength(count);
    expect(stub.ui.notifications.messages.at(-1)).toMatchObject({ level: "warn" });
  });
});

describe("damage points", () => {
  it("HB-DMG-02: the holdout pistol deals 1 point; the compendium's riot shotgun deals 1 more within 20 ft, as the card shows", async () => {
    const { zeven, zevenToken, guardToken } = world();
    const shotgun = pack("hitbox-weapons", "Riot_Shotgun_hBw1RiotShotgu05.json");
    (zeven.source.items as unknown as Dict[]).push(structuredClone(shotgun));
    (zeven.source.system as { held: string[] }).held = ["Riot Shotgun"];
    zeven.actor.items.push(
      Object.assign(structuredClone(shotgun), { id: String(shotgun._id), toObject: () => structuredClone(shotgun) }) as never,
    );
    const damage = async (weaponId: string) => {
      diceQueue.push(6, 6, 4, 4); // 12 + 4 hits; regular table 8: torso
      const m = (await api().rollAttack({ actor: zeven.actor, weaponId, token: zevenToken, target: guardToken }))!.message;
      await api().flow.runCardAction(m, 0, "noReaction");
      await api().flow.runCardAction(m, 0, "rollDamage");
      return m.system.targets[0]!.damage!;
    };
    expect((await damage("hBw1HoldoutPis01")).amount).toBe(1);
    const close = await damage("hBw1RiotShotgu05");
    expect(close.amount).toBe(2);
    expect(close.steps!.map((s) => s.rule)).toContain("HB-DMG-02");
  });
});

describe("durations through the effect service", () => {
  it("HB-RND-02, HB-DMG-03: painkillers taken on turn 3 for one turn act on turn 4 only: the damaged arm halves on turns 3 and 5, not on 4", async () => {
    const { zeven, zevenToken, guardToken } = world();
    (zeven.source.system as { hitboxes?: Hitboxes }).hitboxes = { rightArm: { value: 1, max: 2 } } as Hitboxes;
    // As in Foundry, the actor's statuses are those of its enabled effects.
    type Effect = {
      id: string;
      disabled: boolean;
      statuses: string[];
      duration: Dict;
      flags: Dict;
      getFlag(s: string, k: string): unknown;
    };
    const effects: (Effect & { update(u: Dict): Promise<void>; delete(): Promise<void> })[] = [];
    Object.defineProperty(zeven.actor, "statuses", {
      configurable: true,
      get: () => new Set(effects.filter((e) => !e.disabled).flatMap((e) => e.statuses)),
    });
    Object.assign(zeven.actor, {
      effects,
      async createEmbeddedDocuments(_type: string, rows: Dict[]) {
        for (const row of rows) {
          const effect = {
            ...(structuredClone(row) as unknown as Effect),
            id: `e${effects.length}`,
            getFlag: (scope: string, key: string) => ((row.flags as Record<string, Dict>)[scope] ?? {})[key],
            async update(u: Dict) {
              Object.assign(effect, u);
            },
            async delete() {
              effects.splice(effects.indexOf(effect), 1);
            },
          };
          effects.push(effect);
        }
      },
    });
    const combat = { id: "combat1", round: 3, turn: 0, turns: [{}, {}], combatants: [{ actor: zeven.actor }] };
    const halving = async () => {
      diceQueue.push(4, 4);
      const m = (await api().rollAttack({ actor: zeven.actor, weaponId: "hBw1HoldoutPis01", token: zevenToken, target: guardToken }))!
        .message;
      return m.system.targets[0]!.result.check.modifiers.find((l) => l.rule === "HB-DMG-03")?.value;
    };
    // Turn 3: taken now, for one turn; the service starts it disabled.
    expect(
      await (stub.game.fray as { startEffect(a: unknown, s: Dict, c: unknown): Promise<unknown> }).startEffect(
        zeven.actor,
        { name: "Painkillers", statuses: ["medicated"], rounds: 1 },
        combat,
      ),
    ).toBe(true);
    expect(effects[0]).toMatchObject({ disabled: true, duration: { startRound: 4, rounds: 1 } });
    expect(await halving()).toBe(-2);
    // The GM advances to turn 4: the active GM's service enables it; the arm counts in full.
    const advance = async (round: number) => {
      combat.round = round;
      stub.Hooks.callAll("updateCombat", combat, { round }, {}, "gm");
      for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 0));
    };
    await advance(4);
    expect(effects[0]?.disabled).toBe(false);
    expect(await halving()).toBeUndefined();
    // Turn 5: it has run out and is deleted; the arm halves again.
    await advance(5);
    expect(effects).toHaveLength(0);
    expect(await halving()).toBe(-2);
  });
});

describe("the card's own steps", () => {
  it("HB-DMG-01: ablative armor is used up on the armor item first, and undo gives the point back", async () => {
    const { zeven, guard, zevenToken, guardToken } = world();
    diceQueue.push(6, 6, 4, 4); // 12 + 4 = 16 hits; regular table 8: torso (the vest covers it)
    const m = (await api().rollAttack({ actor: zeven.actor, weaponId: "hBw1HoldoutPis01", token: zevenToken, target: guardToken }))!
      .message;
    await api().flow.runCardAction(m, 0, "noReaction");
    await api().flow.runCardAction(m, 0, "rollDamage");
    await api().flow.runCardAction(m, 0, "applyDamage");
    const vest = () =>
      (guard.source.items as { _id: string; system: { damage?: Record<string, number> } }[]).find((i) => i._id === "hBi1SecuriPatr03")!;
    expect(vest().system.damage?.torso).toBe(1);
    expect(boxes(guard.actor).torso).toEqual({ value: 3, max: 3 });
    expect(m.system.targets[0]!.report!.steps.map((s) => s.label)).toContain("FRAY.Step.HitboxArmor");
    // A second hit finds the vest used up and reaches the torso.
    diceQueue.push(6, 6, 4, 4);
    const m2 = (await api().rollAttack({ actor: zeven.actor, weaponId: "hBw1HoldoutPis01", token: zevenToken, target: guardToken }))!
      .message;
    await api().flow.runCardAction(m2, 0, "noReaction");
    await api().flow.runCardAction(m2, 0, "rollDamage");
    await api().flow.runCardAction(m2, 0, "applyDamage");
    expect(boxes(guard.actor).torso).toEqual({ value: 2, max: 3 });
    await api().flow.runCardAction(m2, 0, "undoDamage");
    await api().flow.runCardAction(m, 0, "undoDamage");
    expect(boxes(guard.actor).torso).toEqual({ value: 3, max: 3 });
    expect(vest().system.damage?.torso).toBe(0);
  });

  it("HB-ATK-05: an unaware, unthreatened target never saw it coming: one point more, and no dodge or parry", async () => {
    const { zeven, guard, zevenToken, guardToken } = world();
    guard.actor.statuses.add("unaware");
    diceQueue.push(5, 5, 4, 4);
    const m = (await api().rollAttack({ actor: zeven.actor, weaponId: "hBw1HoldoutPis01", token: zevenToken, target: guardToken }))!
      .message;
    const t = () => m.system.targets[0]!;
    expect(t().reactions.every((r) => !r.available && r.reason === "FRAY.Reason.Unanticipated")).toBe(true);
    await api().flow.runCardAction(m, 0, "rollDamage");
    expect(t().damage).toMatchObject({ amount: 2 });
    expect(t().damage!.steps!.map((s) => s.rule)).toContain("HB-ATK-05");
  });

  it("HB-DMG-03: a damaged arm halves the weapon's bonus on the card until the character is medicated", async () => {
    const { zeven, zevenToken, guardToken } = world();
    (zeven.source.system as { hitboxes?: Hitboxes }).hitboxes = { rightArm: { value: 1, max: 2 } } as Hitboxes;
    diceQueue.push(4, 4);
    const m = (await api().rollAttack({ actor: zeven.actor, weaponId: "hBw1HoldoutPis01", token: zevenToken, target: guardToken }))!
      .message;
    const lines = m.system.targets[0]!.result.check.modifiers;
    expect(lines.find((l) => l.rule === "HB-DMG-03")).toMatchObject({ value: -2 }); // (3 + 1) halved: -2
    expect(m.system.targets[0]!.result.check.total).toBe(8 + 4 - 2 + 1);
    zeven.actor.statuses.add("medicated");
    diceQueue.push(4, 4);
    const m2 = (await api().rollAttack({ actor: zeven.actor, weaponId: "hBw1HoldoutPis01", token: zevenToken, target: guardToken }))!
      .message;
    expect(m2.system.targets[0]!.result.check.modifiers.some((l) => l.rule === "HB-DMG-03")).toBe(false);
  });

  it("HB-DMG-04: a player who owns the target rolls the Blackout test through the active GM; a player who does not is refused", async () => {
    const { zeven, guard, zevenToken, guardToken } = world();
    diceQueue.push(6, 6, 6, 6); // 16 hits; called-shot table 12: head
    const m = (await api().rollAttack({
      actor: zeven.actor,
      weaponId: "hBw1HoldoutPis01",
      token: zevenToken,
      target: guardToken,
      situation: { calledShot: "head" },
    }))!.message;
    await api().flow.runCardAction(m, 0, "noReaction");
    await api().flow.runCardAction(m, 0, "rollDamage");
    await api().flow.runCardAction(m, 0, "applyDamage");
    zeven.actor.ownership = { default: 0 };
    guard.actor.ownership = { default: 0 };
    stub.game.users.current = player;
    await api().flow.runCardAction(m, 0, "forcedCheck");
    expect(queries).toEqual([]);
    expect(m.system.targets[0]!.forced).toBeUndefined();
    guard.actor.ownership = { default: 0, p1: 3 };
    diceQueue.push(6, 6); // 12 + 3 + 2 = 17 against 12: passes
    await api().flow.runCardAction(m, 0, "forcedCheck");
    expect(queries).toEqual([{ name: "fray.forcedCheck", userId: "p1" }]);
    expect(m.system.targets[0]!.forced).toEqual([
      expect.objectContaining({ success: true, check: expect.objectContaining({ total: 17 }) }),
    ]);
    expect(guard.actor.statuses.has("shock")).toBe(false);
  });
});
