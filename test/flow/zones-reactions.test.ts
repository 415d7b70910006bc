/**
 * Zones reactions through the built bundle in the typed Foundry stand-in, with scripted dice: a
 * player plots a reaction with its trigger in the declaration phase (the reaction is paid and
 * becomes the plot), the tracker lists it escaped (hidden from other players until the GM's
 * reveal), the GM triggers it from the tracker and a reaction card is posted, a reaction lapses
 * once its declarer's next turn begins, and the GM rolls the contest between action and
 * reaction (d10 + DEX each, a tie rolled again) on the card.
 */
import { mergedFlag } from "../support/data-model.js";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  StubRoll,
  diceQueue,
  lookup,
  readLang,
  stubActor,
  withOwnership,
  type FoundryStub,
  type StubUser,
} from "../support/foundry-stub.js";
import { FakeElement, FlowWorld } from "../support/flow-world.js";
import { zonesOptions } from "../support/flow-zones.js";

const en = readLang("en");

type Dict = Record<string, unknown>;

interface Message {
  id: string;
  content: string;
  rolls: unknown[];
  author: { isGM: boolean };
  flags: { fray: { zonesReaction: { reaction: Dict; contest?: { actorId: string; result: { winner: string; rounds: unknown[] } } } } };
  update(changes: Dict): Promise<Message>;
}

interface ZonesApi {
  declareReaction(combat: unknown, combatant: unknown, ask?: (name: string) => Promise<Dict | undefined>): Promise<Dict | undefined>;
  triggerReaction(combat: unknown, combatantId: string, reactionId: string): Promise<Message | undefined>;
  contestReaction(message: Message, actorId?: string): Promise<{ winner: string; rounds: unknown[] } | undefined>;
}

let stub: FoundryStub;
let gm: StubUser;
let player: StubUser;
let other: StubUser;

const flowWorld = new FlowWorld<Message>(
  zonesOptions({
    recordCreated: false,
    sequentialIds: true,
    prepare: ({ stub }) => {
      other = stub.game.users.add("p2", "Ola");
    },
  }),
);
const { messages } = flowWorld;

beforeAll(async () => {
  ({ stub, gm, player } = await flowWorld.boot());
});

beforeEach(() => {
  flowWorld.reset();
  flowWorld.resetUsers();
  StubRoll.evaluated.length = 0;
});

const zonesApi = () => (stub.game.fray as { zones: ZonesApi }).zones;

/** A Zones character of the stand-in with DEX `dex`. */
function actor(id: string, name: string, dex: number) {
  const system = {
    ruleset: "zones",
    attributes: { STR: 0, DEX: dex, CON: 0, PER: 0 },
    skills: { firearms: 2, melee: 1, throwing: 1, dodge: 1, stealth: 1, notice: 1 },
    hp: { value: 20, max: 20 },
    speed: { value: 8, max: 8 },
    effort: { value: 2, max: 2 },
    stance: "standing",
  };
  return stubActor({ _id: id, name, type: "character", system, items: [] } as never);
}

/** A Combatant whose flags are kept, owned by the users in `owners` (the GM owns all). */
function combatant(id: string, name: string, dex: number, o: { player?: string } = {}) {
  const flags: Dict = {};
  const a = actor(`a-${id}`, name, dex);
  withOwnership(a, { default: 0, ...(o.player ? { [o.player]: 3 } : {}) });
  return {
    id,
    name,
    actor: a,
    actorId: a.id,
    tokenId: null,
    hasPlayerOwner: Boolean(o.player),
    initiative: null as number | null,
    defeated: false,
    flags: { fray: {} },
    combat: { id: "combat1", round: 1 },
    get isOwner() {
      return stub.game.user.isGM || stub.game.user.id === o.player;
    },
    getFlag: (_s: string, k: string) => flags[k],
    /** Foundry's update: refused to a user who does not own the Combatant. */
    setFlag: async (_s: string, k: string, v: unknown) => {
      if (!stub.game.user.isGM && stub.game.user.id !== o.player)
        throw new Error(`User ${stub.game.user.id} lacks permission to update Combatant ${id}`);
      return (flags[k] = mergedFlag(flags[k], v));
    },
    stored: flags,
  };
}

/** A started combat in round 1, in the plot (declare phase), with Ayla (Pat's) and the guard. */
function fight() {
  const ayla = combatant("ayla", "Ayla <the Quick>", 1, { player: "p1" });
  const guard = combatant("guard", "Guard", 0);
  const list = [ayla, guard];
  const flags: Dict = {};
  const combat = {
    id: "combat1",
    round: 1,
    turn: 0,
    turns: list,
    combatant: list[0] as { id: string } | null,
    combatants: Object.assign(list, { get: (id: string) => list.find((c) => c.id === id) }),
    getFlag: (_s: string, k: string) => flags[k],
    /** Only a GM updates a Combat (A11). */
    setFlag: async (_s: string, k: string, v: unknown) => {
      if (!stub.game.user.isGM) throw new Error(`User ${stub.game.user.id} lacks permission to update Combat combat1`);
      return (flags[k] = mergedFlag(flags[k], v));
    },
    flags,
  };
  (stub.game as unknown as Dict).combat = combat;
  return { ayla, guard, combat };
}

/** Renders the tracker for the current user: rows with a `.token-name` each. */
function renderTracker(combat: ReturnType<typeof fight>["combat"]) {
  const rows = combat.turns.map((c) => {
    const row = new FakeElement("li");
    row.dataset = { combatantId: c.id };
    row.append(new FakeElement("div", ["token-name"]));
    return row;
  });
  const html = new FakeElement("ol").append(...rows);
  for (const h of stub.Hooks.handlers.get("renderCombatTracker") ?? []) h.fn({ viewed: combat }, html);
  return Object.fromEntries(rows.map((r) => [r.dataset.combatantId!, r]));
}

/** Clicks a button of a tracker row by its data attribute and waits for the work it starts. */
async function click(row: FakeElement, data: string, value: string) {
  const target = {
    dataset: { [data]: value },
    closest: (sel: string) => (sel === `[data-${data.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}]` ? target : null),
  };
  for (const fn of row.listeners) fn({ target, preventDefault() {}, stopPropagation() {} });
  await new Promise((resolve) => setTimeout(resolve, 20));
}

const economy = (c: { stored: Dict }) => c.stored.economy as { slots: Record<string, { used: number }> } | undefined;

describe("declared reactions in the tracker (ZN-REA-01)", () => {
  it("ZN-REA-01, ZN-INI-01, ZN-ACT-01: a player plots a reaction with its trigger; it is paid, becomes the plot, and other players see it only after the reveal", async () => {
    const { ayla, combat } = fight();
    stub.game.users.current = player;
    const reaction = await zonesApi().declareReaction(combat, ayla, async () => ({
      trigger: "  the guard <b>reaches</b> for his radio ",
      response: "shoot",
    }));
    expect(reaction).toMatchObject({ round: 1, trigger: "the guard <b>reaches</b> for his radio", response: "shoot", plotted: true });
    // ZN-ACT-01: declaring takes the round's one reaction.
    expect(economy(ayla)!.slots.reaction!.used).toBe(1);
    // ZN-INI-01: Ayla's player declares now; the reaction is Ayla's plot.
    expect(ayla.stored.declaration).toEqual({ round: 1, text: "the guard <b>reaches</b> for his radio", action: "declareReaction" });
    // A second reaction this round is refused: none left; nothing stored.
    const again = await zonesApi().declareReaction(combat, ayla, async () => ({ trigger: "a door opens", response: "move" }));
    expect(again).toBeUndefined();
    expect(stub.ui.notifications.messages.map((m) => m.text)).toContain(
      lookup(en, "FRAY.Zones.Reaction.NoneLeft")!.replace("{actor}", "Ayla &lt;the Quick&gt;"),
    );
    expect(((combat.flags.zonesReactions as Dict).ayla as unknown[]).length).toBe(1);

    // Her player sees it in the tracker, escaped, with no Trigger button.
    let rows = renderTracker(combat);
    const mine = rows.ayla!.children[0]!.html;
    expect(mine).toContain("the guard &lt;b&gt;reaches&lt;/b&gt; for his radio");
    expect(mine).not.toContain("<b>");
    expect(mine).toContain(lookup(en, "FRAY.Zones.Reaction.Responses.shoot"));
    expect(mine).not.toContain("data-zones-trigger");
    // Another player does not see the plotted reaction before the reveal, nor a React button for Ayla.
    stub.game.users.current = other;
    rows = renderTracker(combat);
    expect(rows.ayla!.children[0]!.html).not.toContain("radio");
    expect(rows.ayla!.children[0]!.html).not.toContain("data-zones-react");
    // The GM sees it with the Trigger button.
    stub.game.users.current = gm;
    rows = renderTracker(combat);
    expect(rows.ayla!.children[0]!.html).toContain(`data-zones-trigger="${reaction!.id as string}"`);
    // After the reveal everyone reads it.
    await combat.setFlag("fray", "phase", { round: 1, phase: "resolve" });
    stub.game.users.current = other;
    rows = renderTracker(combat);
    expect(rows.ayla!.children[0]!.html).toContain("the guard &lt;b&gt;reaches&lt;/b&gt; for his radio");
  });

  it("ZN-REA-01: a bad trigger or response is refused naming the field, and nothing is paid", async () => {
    const { guard, combat } = fight();
    await expect(zonesApi().declareReaction(combat, guard, async () => ({ trigger: "   ", response: "shoot" }))).rejects.toMatchObject({
      key: "FRAY.Error.Field",
      data: { field: "trigger" },
    });
    await expect(
      zonesApi().declareReaction(combat, guard, async () => ({ trigger: "x".repeat(201), response: "shoot" })),
    ).rejects.toMatchObject({
      data: { field: "trigger" },
    });
    await expect(zonesApi().declareReaction(combat, guard, async () => ({ trigger: "he runs", response: "fly" }))).rejects.toMatchObject({
      data: { field: "response" },
    });
    expect(economy(guard)).toBeUndefined();
    expect(combat.flags.zonesReactions).toBeUndefined();
    // A player may not declare for a combatant they do not own.
    stub.game.users.current = player;
    expect(await zonesApi().declareReaction(combat, guard, async () => ({ trigger: "he runs", response: "shoot" }))).toBeUndefined();
    expect(stub.ui.notifications.messages.map((m) => m.text)).toContain(lookup(en, "FRAY.Zones.Reaction.NotYours"));
  });

  it("ZN-REA-01: the GM triggers the reaction from the tracker; a card is posted and it is played once; a player cannot trigger", async () => {
    const { ayla, combat } = fight();
    await combat.setFlag("fray", "phase", { round: 1, phase: "resolve" });
    await zonesApi().declareReaction(combat, ayla, async () => ({ trigger: "the guard draws", response: "draw" }));
    stub.game.users.current = player;
    expect(await zonesApi().triggerReaction(combat, "ayla", "r1")).toBeUndefined();
    expect(stub.ui.notifications.messages.map((m) => m.text)).toContain(lookup(en, "FRAY.Zones.Reaction.GMOnly"));
    stub.game.users.current = gm;
    const rows = renderTracker(combat);
    const id = /data-zones-trigger="([^"]+)"/.exec(rows.ayla!.children[0]!.html)![1]!;
    await click(rows.ayla!, "zonesTrigger", id);
    expect(messages).toHaveLength(1);
    const card = messages[0]!;
    expect(card.flags.fray.zonesReaction.reaction).toMatchObject({ trigger: "the guard draws", response: "draw", playedRound: 1 });
    expect(card.content).toContain(lookup(en, "FRAY.Zones.Reaction.CardTitle")!.replace("{actor}", "Ayla &lt;the Quick&gt;"));
    expect(card.content).toContain("the guard draws");
    expect(card.content).toContain("data-zones-contest");
    // Played: the tracker says so and offers no Trigger; triggering again is refused.
    expect(renderTracker(combat).ayla!.children[0]!.html).toContain(lookup(en, "FRAY.Zones.Reaction.Played"));
    expect(renderTracker(combat).ayla!.children[0]!.html).not.toContain("data-zones-trigger");
    await expect(zonesApi().triggerReaction(combat, "ayla", id)).rejects.toMatchObject({ key: "FRAY.Error.Zones.NoReaction" });
  });

  it("ZN-REA-01: two triggers pressed at once play the reaction once (the active GM's queue)", async () => {
    const { ayla, combat } = fight();
    await combat.setFlag("fray", "phase", { round: 1, phase: "resolve" });
    const r = (await zonesApi().declareReaction(combat, ayla, async () => ({ trigger: "a shot is fired", response: "dodge" })))!;
    const both = await Promise.allSettled([
      zonesApi().triggerReaction(combat, "ayla", r.id as string),
      zonesApi().triggerReaction(combat, "ayla", r.id as string),
    ]);
    expect(both.map((b) => b.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(messages).toHaveLength(1);
  });

  it("ZN-REA-01, ZN-ACT-01: three reactions a hostile player writes on her own Combatant (from the console, unpaid) are never listed nor triggered", async () => {
    const { ayla, combat } = fight();
    await combat.setFlag("fray", "phase", { round: 1, phase: "resolve" });
    stub.game.users.current = player;
    const forged = ["a", "b", "c"].map((id) => ({ id, round: 1, trigger: `forged ${id}`, response: "shoot", plotted: false }));
    await ayla.setFlag("fray", "zonesReactions", forged);
    // Nor can she write them where the GM keeps the reactions: only a GM updates the Combat.
    await expect(combat.setFlag("fray", "zonesReactions", { ayla: forged })).rejects.toThrow(/lacks permission/);
    stub.game.users.current = gm;
    const row = renderTracker(combat).ayla!.children[0]?.html ?? "";
    expect(row).not.toContain("forged");
    expect(row).not.toContain("data-zones-trigger");
    for (const id of ["a", "b", "c"])
      await expect(zonesApi().triggerReaction(combat, "ayla", id)).rejects.toMatchObject({ key: "FRAY.Error.Zones.NoReaction" });
    expect(messages).toHaveLength(0);
    // A reaction she declares is paid first: one, then none left this round.
    stub.game.users.current = player;
    expect(await zonesApi().declareReaction(combat, ayla, async () => ({ trigger: "the guard draws", response: "draw" }))).toBeDefined();
    expect(await zonesApi().declareReaction(combat, ayla, async () => ({ trigger: "a door opens", response: "move" }))).toBeUndefined();
    expect(economy(ayla)!.slots.reaction!.used).toBe(1);
    expect(((combat.flags.zonesReactions as Dict).ayla as unknown[]).length).toBe(1);
  });

  it("ZN-REA-01: a reaction not triggered lapses when its declarer's next turn begins", async () => {
    const { guard, combat } = fight();
    await combat.setFlag("fray", "phase", { round: 1, phase: "resolve" });
    combat.turn = 1; // the guard's turn in round 1
    const r = (await zonesApi().declareReaction(combat, guard, async () => ({ trigger: "someone leaves cover", response: "shoot" })))!;
    expect(renderTracker(combat).guard!.children[0]!.html).toContain("someone leaves cover");
    // Round 2, the plot: still pending; revealed, Ayla acts first: still pending.
    combat.round = 2;
    combat.turn = 0;
    expect(renderTracker(combat).guard!.children[0]!.html).toContain("someone leaves cover");
    await combat.setFlag("fray", "phase", { round: 2, phase: "resolve" });
    expect(renderTracker(combat).guard!.children[0]!.html).toContain("someone leaves cover");
    // The guard's turn begins: lost.
    combat.turn = 1;
    expect(renderTracker(combat).guard!.children[0]!.html).not.toContain("someone leaves cover");
    await expect(zonesApi().triggerReaction(combat, "guard", r.id as string)).rejects.toMatchObject({ key: "FRAY.Error.Zones.NoReaction" });
  });
});

describe("contest between action and reaction (ZN-REA-02)", () => {
  it("ZN-REA-02: the GM rolls the contest on the card: d10 + DEX each, the tie rolled again, the higher total first", async () => {
    const { ayla, combat } = fight();
    await combat.setFlag("fray", "phase", { round: 1, phase: "resolve" });
    const r = (await zonesApi().declareReaction(combat, ayla, async () => ({ trigger: "the guard draws", response: "draw" })))!;
    const card = (await zonesApi().triggerReaction(combat, "ayla", r.id as string))!;
    combat.combatant = combat.turns[1]!; // the guard acts
    stub.game.users.current = player;
    expect(await zonesApi().contestReaction(card)).toBeUndefined();
    stub.game.users.current = gm;
    // Guard d10 5 + DEX 0 = 5, Ayla d10 4 + DEX 1 = 5: a tie; again: guard 3, Ayla 7 + 1 = 8.
    diceQueue.push(5, 4, 3, 7);
    const result = (await zonesApi().contestReaction(card))!;
    expect(result.winner).toBe("reactor");
    expect(result.rounds).toHaveLength(2);
    expect(StubRoll.evaluated.map((r) => [r.formula, r.total])).toEqual([
      ["1d10", 5],
      ["1d10", 4],
      ["1d10", 3],
      ["1d10", 7],
    ]);
    expect(card.rolls).toHaveLength(4);
    expect(card.flags.fray.zonesReaction.contest).toMatchObject({ actorId: "guard", result: { winner: "reactor" } });
    expect(card.content).toContain('class="fray-contest-round tie"');
    expect(card.content).toMatch(/fray-contest-actor"[^>]*>5</);
    expect(card.content).toMatch(/fray-contest-reactor"[^>]*>8</);
    expect(card.content).toContain(lookup(en, "FRAY.Zones.Reaction.Winner")!.replace("{name}", "Ayla &lt;the Quick&gt;"));
    expect(card.content).not.toContain("data-zones-contest");
    // Once only.
    await expect(zonesApi().contestReaction(card)).rejects.toMatchObject({ key: "FRAY.Zones.Reaction.Contested" });
    expect(card.rolls).toHaveLength(4);
  });

  it("ZN-REA-02: with Dice So Nice active, the contest's dice added to the card are shown once each, with the card's whisper (U1)", async () => {
    const world = stub.game as unknown as Record<string, unknown>;
    const shown: unknown[][] = [];
    world.modules = new Map([["dice-so-nice", { id: "dice-so-nice", active: true }]]);
    world.dice3d = {
      showForRoll: async (...args: unknown[]) => {
        shown.push(args);
        return true;
      },
    };
    try {
      const { ayla, combat } = fight();
      await combat.setFlag("fray", "phase", { round: 1, phase: "resolve" });
      const r = (await zonesApi().declareReaction(combat, ayla, async () => ({ trigger: "the guard draws", response: "draw" })))!;
      const card = (await zonesApi().triggerReaction(combat, "ayla", r.id as string))! as Message & {
        whisper?: string[];
        speaker?: unknown;
      };
      card.whisper = ["gm"];
      combat.combatant = combat.turns[1]!;
      diceQueue.push(5, 4, 3, 7);
      await zonesApi().contestReaction(card);
      expect(shown.map((c) => (c[0] as { total: number }).total)).toEqual([5, 4, 3, 7]);
      for (const call of shown) expect(call.slice(1)).toEqual([gm, true, ["gm"], false, card.id, card.speaker]);
    } finally {
      delete world.modules;
      delete world.dice3d;
    }
  });

  it("ZN-REA-02: the card's Contest button is wired for the GM and removed for players", async () => {
    const { ayla, combat } = fight();
    await combat.setFlag("fray", "phase", { round: 1, phase: "resolve" });
    combat.combatant = combat.turns[1]!;
    const r = (await zonesApi().declareReaction(combat, ayla, async () => ({ trigger: "the guard draws", response: "draw" })))!;
    const card = (await zonesApi().triggerReaction(combat, "ayla", r.id as string))!;
    const cardHtml = () => {
      const button = new FakeElement("button");
      button.dataset = { zonesContest: "1" };
      return { button, html: new FakeElement("div").append(button) };
    };
    stub.game.users.current = player;
    const seen = cardHtml();
    for (const h of stub.Hooks.handlers.get("renderChatMessageHTML") ?? []) h.fn(card, seen.html);
    expect(seen.html.children).toHaveLength(0);
    stub.game.users.current = gm;
    const gmView = cardHtml();
    for (const h of stub.Hooks.handlers.get("renderChatMessageHTML") ?? []) h.fn(card, gmView.html);
    expect(gmView.html.children).toHaveLength(1);
    diceQueue.push(2, 9);
    for (const fn of gmView.button.listeners) fn({ preventDefault() {} });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(card.flags.fray.zonesReaction.contest).toMatchObject({ actorId: "guard", result: { winner: "reactor" } });
  });

  it("ZN-REA-02: the acting side wins with the higher total; the reacting one cannot contest itself", async () => {
    const { ayla, combat } = fight();
    await combat.setFlag("fray", "phase", { round: 1, phase: "resolve" });
    const r = (await zonesApi().declareReaction(combat, ayla, async () => ({ trigger: "the guard draws", response: "draw" })))!;
    const card = (await zonesApi().triggerReaction(combat, "ayla", r.id as string))!;
    await expect(zonesApi().contestReaction(card, "ayla")).rejects.toMatchObject({ data: { field: "actor" } });
    diceQueue.push(9, 2); // guard 9, Ayla 2 + 1 = 3
    expect((await zonesApi().contestReaction(card, "guard"))!.winner).toBe("actor");
    expect(card.content).toContain(lookup(en, "FRAY.Zones.Reaction.Winner")!.replace("{name}", "Guard"));
  });
});
