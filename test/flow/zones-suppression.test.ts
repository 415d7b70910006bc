/**
 * Zones suppressing fire through the built bundle in the typed Foundry stand-in: the shooter's
 * owner starts it from the carbine's row on the sheet (the action paid, the GM's bullets per
 * action and the lane from the form), the tracker shows it under the shooter, the GM marks each
 * action taken under fire (the weapon item loses the bullets), it ends when the weapon holds too
 * few (a chat line says the shooter must reload), and the out-of-turn shot follows the world
 * setting **Shots at suppressed enemies**.
 */
import { mergedFlag } from "../support/data-model.js";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { lookup, readLang, stubActor, type FoundryStub, type StubUser } from "../support/foundry-stub.js";
import { FakeElement, FlowWorld, storedAnswer, writeRequest } from "../support/flow-world.js";
import { CARBINE, zonesOptions, zonesSheetAction } from "../support/flow-zones.js";

const en = readLang("en");

type Dict = Record<string, unknown>;

interface Message {
  id: string;
  content: string;
  update(changes: Dict): Promise<Message>;
}

interface ZonesApi {
  startSuppressing(
    actor: unknown,
    itemId: string,
    tokenId?: string,
    ask?: (weapon: string) => Promise<Dict | undefined>,
  ): Promise<Dict | undefined>;
  suppressedAction(combat: unknown, shooterId: string, askBullets?: (weapon: string) => Promise<unknown>): Promise<Dict | undefined>;
}

let stub: FoundryStub;
let gm: StubUser;
let player: StubUser;

const flowWorld = new FlowWorld<Message>(zonesOptions({ recordCreated: false, sequentialIds: true }));
const { messages } = flowWorld;

beforeAll(async () => {
  ({ stub, gm, player } = await flowWorld.boot());
});

beforeEach(() => {
  flowWorld.reset();
  flowWorld.resetUsers();
});

const zonesApi = () => (stub.game.fray as { zones: ZonesApi }).zones;
const sheetAction = () => zonesSheetAction(flowWorld);

/** A Zones character with a carbine whose item updates reach its source. */
function shooterActor() {
  const source = {
    _id: "rifleman",
    name: "Rifleman <Vex>",
    type: "character",
    system: {
      ruleset: "zones",
      attributes: { STR: 0, DEX: 1, CON: 0, PER: 1 },
      skills: { firearms: 3, melee: 1, throwing: 1, dodge: 1, stealth: 1, notice: 2 },
      hp: { value: 28, max: 28 },
      speed: { value: 8, max: 8 },
      effort: { value: 3, max: 3 },
      stance: "standing",
    },
    items: [CARBINE() as Dict],
  };
  const a = stubActor(source as never) as ReturnType<typeof stubActor> & Dict;
  for (const item of a.items as unknown as Dict[]) {
    item.update = async (changes: { system?: Dict }) => {
      const stored = source.items.find((i) => i._id === item.id)!;
      Object.assign(stored.system as Dict, changes.system ?? {});
      item.system = stored.system;
      return item;
    };
  }
  a.ownership = { default: 0, p1: 3 };
  return { actor: a, loaded: () => (source.items[0]!.system as { loaded: number }).loaded, source };
}

/** A started combat in round 1 with the rifleman (Pat's) and a guard; flags kept per combatant. */
function fight() {
  const rifleman = shooterActor();
  const flags: Record<string, Dict> = { shooter: {}, guard: {} };
  const combatant = (id: string, name: string, a: unknown, owner?: string) => ({
    id,
    name,
    actor: a,
    actorId: (a as { id?: string } | null)?.id ?? null,
    tokenId: null,
    combat: { id: "combat1", round: 1 },
    get isOwner() {
      return stub.game.user.isGM || stub.game.user.id === owner;
    },
    getFlag: (_s: string, k: string) => flags[id]![k],
    /** Foundry's update: refused to a user who does not own the Combatant. */
    setFlag: async (_s: string, k: string, v: unknown) => {
      if (!stub.game.user.isGM && stub.game.user.id !== owner)
        throw new Error(`User ${stub.game.user.id} lacks permission to update Combatant ${id}`);
      return (flags[id]![k] = mergedFlag(flags[id]![k], v));
    },
  });
  const list = [combatant("shooter", "Rifleman <Vex>", rifleman.actor, "p1"), combatant("guard", "Guard", null)];
  // The Combat's flags: only a GM may write them in Foundry (A11); the stand-in keeps the GM's writes.
  const combatFlags: Dict = {};
  const combat = {
    id: "combat1",
    started: true,
    round: 1,
    turn: 0,
    turns: list,
    combatants: Object.assign(list, { get: (id: string) => list.find((c) => c.id === id) }),
    getFlag: (_s: string, k: string) => combatFlags[k],
    setFlag: async (_s: string, k: string, v: unknown) => {
      if (!stub.game.user.isGM) throw new Error("only a GM updates a Combat");
      combatFlags[k] = mergedFlag(combatFlags[k], v);
    },
  };
  (stub.game as unknown as Dict).combat = combat;
  return { rifleman, flags, combat, combatFlags };
}

/** Renders the tracker for the current user; the rows by combatant id. */
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

/** Clicks a button of a tracker row by its data attribute (`data-zones-...`) and waits for its work. */
async function click(row: FakeElement, attribute: string) {
  const target = { closest: (sel: string) => (sel === `[${attribute}]` ? target : null) };
  for (const fn of row.listeners) fn({ target, preventDefault() {}, stopPropagation() {} });
  await new Promise((resolve) => setTimeout(resolve, 20));
}

/** The suppression form's answer the stand-in's DialogV2 gives. */
let formAnswer: Dict | undefined;

describe("suppressing fire (ZN-SUP-01)", () => {
  beforeAll(() => {
    const api = (globalThis as unknown as { foundry: { applications: { api: Dict } } }).foundry.applications.api;
    api.DialogV2 = { wait: async () => formAnswer };
  });

  it("ZN-SUP-01, ZN-ACT-02: the owner starts it from the carbine's row; the GM marks actions under fire, each spending the bullets from the weapon, until it must reload", async () => {
    const { rifleman, flags, combat } = fight();
    stub.game.users.current = player;
    formAnswer = { lane: "the <street>" };
    await sheetAction()(rifleman.actor, { rulesetAction: "suppress", itemId: "carbine" });
    expect(stub.ui.notifications.messages).toEqual([]);
    expect(flags.shooter!.zonesSuppression).toMatchObject({
      rule: "ZN-SUP-01",
      weaponId: "carbine",
      active: true,
      actions: 0,
      lane: "the <street>",
    });
    // Starting takes the shooter's action (ZN-ACT-02); it fires nothing yet.
    expect((flags.shooter!.economy as { slots: Record<string, { used: number }> }).slots.action!.used).toBe(1);
    expect(rifleman.loaded()).toBe(30);
    // The owner sees it with End only; a player cannot mark actions.
    let row = renderTracker(combat).shooter!.children[0]!.html;
    expect(row).toContain("the &lt;street&gt;");
    // The bullets per action are the GM's call, not yet made.
    expect(row).toContain(lookup(en, "FRAY.Zones.Suppression.FactsPending")!.replace("{loaded}", "30"));
    expect(row).toContain("data-zones-suppress-end");
    expect(row).not.toContain("data-zones-suppressed");
    expect(await zonesApi().suppressedAction(combat, "shooter")).toBeUndefined();
    expect(stub.ui.notifications.messages.map((m) => m.text)).toContain(lookup(en, "FRAY.Zones.Suppression.GMOnly"));
    expect(rifleman.loaded()).toBe(30);

    // The GM marks an action taken under fire from the tracker and is asked the bullets per
    // action on this first press: 3 bullets leave the carbine.
    stub.game.users.current = gm;
    const rows = renderTracker(combat);
    expect(rows.shooter!.children[0]!.html).toContain("data-zones-suppressed");
    formAnswer = "3" as never;
    await click(rows.shooter!, "data-zones-suppressed");
    expect(rifleman.loaded()).toBe(27);
    expect(flags.shooter!.zonesSuppression).toMatchObject({ actions: 1, fired: 3, active: true });
    expect(renderTracker(combat).shooter!.children[0]!.html).toContain("3 per action · 27 loaded · 9 more actions");
    // Later presses reuse the GM's ruling without asking again.
    await zonesApi().suppressedAction(combat, "shooter", async () => {
      throw new Error("asked again");
    });
    expect(rifleman.loaded()).toBe(24);
    await (rifleman.actor.items.get("carbine") as unknown as { update(c: Dict): Promise<unknown> }).update({ system: { loaded: 27 } });

    // Down to 4 rounds: one more action is covered, then the weapon holds too few and it ends.
    await (rifleman.actor.items.get("carbine") as unknown as { update(c: Dict): Promise<unknown> }).update({ system: { loaded: 4 } });
    expect(renderTracker(combat).shooter!.children[0]!.html).toContain("3 per action · 4 loaded · 1 more actions");
    await zonesApi().suppressedAction(combat, "shooter");
    expect(rifleman.loaded()).toBe(1);
    await zonesApi().suppressedAction(combat, "shooter");
    expect(rifleman.loaded()).toBe(1);
    expect(flags.shooter!.zonesSuppression).toMatchObject({ actions: 3, fired: 9, active: false });
    expect(messages.at(-1)!.content).toContain(
      lookup(en, "FRAY.Zones.Suppression.Ended")!.replace("{actor}", "Rifleman &lt;Vex&gt;").replace("{weapon}", "Harrow Carbine"),
    );
    row = renderTracker(combat).shooter!.children[0]!.html;
    expect(row).toContain(lookup(en, "FRAY.Zones.Suppression.EndedShort"));
    const part = /<div class="fray-zones-suppression[^]*?<\/div>/.exec(row)![0];
    expect(part).toContain('class="fray-zones-suppression ended"');
    expect(part).not.toContain("<button");
    // Ended: no more actions are marked.
    await expect(zonesApi().suppressedAction(combat, "shooter")).rejects.toMatchObject({ key: "FRAY.Zones.Suppression.None" });
  });

  it("ZN-SUP-01: a hostile shooter's own bullets per action, written into their Combatant, are never spent; only the GM's ruling is", async () => {
    const { rifleman, flags, combat, combatFlags } = fight();
    stub.game.users.current = player;
    // An old form or a macro still sends a number: it is not asked and not stored.
    await zonesApi().startSuppressing(rifleman.actor, "carbine", undefined, async () => ({ bullets: 1, lane: "the hall" }) as Dict);
    expect(flags.shooter!.zonesSuppression).toMatchObject({ bulletsPerAction: 0, active: true });
    // The player writes 1 bullet per action into their own Combatant's flag (Foundry lets them).
    const own = flags.shooter!.zonesSuppression as Dict;
    flags.shooter!.zonesSuppression = { ...own, bulletsPerAction: 1 };
    expect(renderTracker(combat).shooter!.children[0]!.html).toContain(
      lookup(en, "FRAY.Zones.Suppression.FactsPending")!.replace("{loaded}", "30"),
    );
    // The player cannot write the GM's ruling: the Combat is the GM's.
    await expect(
      (combat as unknown as { setFlag(s: string, k: string, v: unknown): Promise<unknown> }).setFlag("fray", "zonesSuppressionRates", {
        shooter: { key: own.key, weaponId: "carbine", bulletsPerAction: 1 },
      }),
    ).rejects.toThrow();
    // The GM rules 5 on the first action under fire: 5 leave, not the player's 1.
    stub.game.users.current = gm;
    const asked: string[] = [];
    await zonesApi().suppressedAction(combat, "shooter", async (weapon) => (asked.push(weapon), "5"));
    expect(asked).toEqual(["Harrow Carbine"]);
    expect(rifleman.loaded()).toBe(25);
    expect(combatFlags.zonesSuppressionRates).toEqual({ shooter: { key: own.key, weaponId: "carbine", bulletsPerAction: 5 } });
    // The player rewrites the flag again (bullets 1, and 2 actions fewer): still 5 per action.
    stub.game.users.current = player;
    flags.shooter!.zonesSuppression = { ...(flags.shooter!.zonesSuppression as Dict), bulletsPerAction: 1, actions: 0 };
    stub.game.users.current = gm;
    await zonesApi().suppressedAction(combat, "shooter", async () => "1");
    expect(rifleman.loaded()).toBe(20);
    // A new key (a restart by hand, its action unpaid) is no start the GM made: nothing is asked
    // and nothing spent.
    flags.shooter!.zonesSuppression = { ...(flags.shooter!.zonesSuppression as Dict), key: "forged", bulletsPerAction: 1 };
    await expect(
      zonesApi().suppressedAction(combat, "shooter", async () => {
        throw new Error("asked");
      }),
    ).rejects.toMatchObject({ key: "FRAY.Zones.Suppression.None" });
    expect(rifleman.loaded()).toBe(20);
  });

  it("ZN-SUP-01: a suppression that ended, switched back on by the shooter's flag write (from the console), fires nothing; a new start pays its action again", async () => {
    const { rifleman, flags, combat } = fight();
    stub.game.users.current = player;
    await zonesApi().startSuppressing(rifleman.actor, "carbine", undefined, async () => ({ lane: "the hall" }));
    stub.game.users.current = gm;
    // The GM rules 10 per action: three actions, then 0 left; it ends (the shooter must reload).
    await zonesApi().suppressedAction(combat, "shooter", async () => "10");
    await zonesApi().suppressedAction(combat, "shooter");
    await zonesApi().suppressedAction(combat, "shooter");
    await zonesApi().suppressedAction(combat, "shooter");
    expect(flags.shooter!.zonesSuppression).toMatchObject({ active: false });
    expect(rifleman.loaded()).toBe(0);
    // Pat reloads and switches the old suppression back on in the Combatant's flag.
    stub.game.users.current = player;
    await (rifleman.actor.items.get("carbine") as unknown as { update(c: Dict): Promise<unknown> }).update({ system: { loaded: 30 } });
    await (combat.turns[0] as { setFlag(s: string, k: string, v: unknown): Promise<unknown> }).setFlag("fray", "zonesSuppression", {
      active: true,
      actions: 0,
      fired: 0,
    });
    stub.game.users.current = gm;
    const row = renderTracker(combat).shooter!.children[0]!.html;
    expect(row).not.toContain("data-zones-suppressed");
    expect(row).not.toContain("data-zones-suppress-shot");
    await expect(zonesApi().suppressedAction(combat, "shooter")).rejects.toMatchObject({ key: "FRAY.Zones.Suppression.None" });
    expect(rifleman.loaded()).toBe(30);
    // Ended by the shooter, the same: the start is dropped, a flag write does not bring it back.
    await stub.game.settings.set("fray", "zones-suppressionShots", true);
    const used = () => (flags.shooter!.economy as { slots: Record<string, { used: number }> }).slots.action!.used;
    (flags.shooter!.economy as { slots: Record<string, { used: number }> }).slots.action!.used = 0;
    stub.game.users.current = player;
    await zonesApi().startSuppressing(rifleman.actor, "carbine", undefined, async () => ({ lane: "the hall" }));
    expect(used()).toBe(1);
    const endButton = renderTracker(combat).shooter!;
    await click(endButton, "data-zones-suppress-end");
    expect(flags.shooter!.zonesSuppression).toMatchObject({ active: false });
    await (combat.turns[0] as { setFlag(s: string, k: string, v: unknown): Promise<unknown> }).setFlag("fray", "zonesSuppression", {
      active: true,
    });
    stub.game.users.current = gm;
    await expect(zonesApi().suppressedAction(combat, "shooter", async () => "1")).rejects.toMatchObject({
      key: "FRAY.Zones.Suppression.None",
    });
    expect(rifleman.loaded()).toBe(30);
  });

  it("ZN-SUP-01, ZN-ACT-02: a start request that names another combatant's token spends the shooter's action, never that token's", async () => {
    const { flags, combat } = fight();
    Object.assign(combat.turns[0]!, { tokenId: "t-shooter" });
    Object.assign(combat.turns[1]!, { tokenId: "t-guard" });
    stub.game.users.current = player;
    // Written from the console: Pat's own shooter, with the guard's token added to the request.
    await writeRequest(player, "s1", "fray.zones.suppressionStart", {
      combatId: "combat1",
      combatantId: "shooter",
      itemId: "carbine",
      lane: "the street",
      tokenId: "t-guard",
    });
    for (let i = 0; i < 200 && !storedAnswer(player, "s1"); i++) await new Promise((r) => setTimeout(r, 1));
    expect(storedAnswer(player, "s1")).toMatchObject({ ok: true });
    expect((flags.shooter!.economy as { slots: Record<string, { used: number }> }).slots.action!.used).toBe(1);
    expect(flags.guard!.economy).toBeUndefined();
  });

  it("ZN-SUP-01: the out-of-turn shot is offered to the GM only while Shots at suppressed enemies is on", async () => {
    const { rifleman, combat } = fight();
    await zonesApi().startSuppressing(rifleman.actor, "carbine", undefined, async () => ({ lane: "the corridor" }));
    expect(renderTracker(combat).shooter!.children[0]!.html).toContain("data-zones-suppress-shot");
    await stub.game.settings.set("fray", "zones-suppressionShots", false);
    try {
      expect(renderTracker(combat).shooter!.children[0]!.html).not.toContain("data-zones-suppress-shot");
      expect(renderTracker(combat).shooter!.children[0]!.html).toContain("data-zones-suppressed");
    } finally {
      await stub.game.settings.set("fray", "zones-suppressionShots", true);
    }
  });

  it("ZN-SUP-01: the GM's bullets per action below 1 or not whole are refused naming the field, nothing spent; beyond the rounds loaded it ends at once; an empty weapon cannot start", async () => {
    const { rifleman, flags, combat } = fight();
    await (rifleman.actor.items.get("carbine") as unknown as { update(c: Dict): Promise<unknown> }).update({ system: { loaded: 0 } });
    await expect(zonesApi().startSuppressing(rifleman.actor, "carbine", undefined, async () => ({ lane: "" }))).rejects.toMatchObject({
      key: "FRAY.Error.Zones.Empty",
    });
    expect(flags.shooter!.economy).toBeUndefined();
    expect(flags.shooter!.zonesSuppression).toBeUndefined();
    await (rifleman.actor.items.get("carbine") as unknown as { update(c: Dict): Promise<unknown> }).update({ system: { loaded: 30 } });
    await zonesApi().startSuppressing(rifleman.actor, "carbine", undefined, async () => ({ lane: "" }));
    for (const bad of ["0", "many", 2.5, -3])
      await expect(zonesApi().suppressedAction(combat, "shooter", async () => bad)).rejects.toMatchObject({
        key: "FRAY.Error.Field",
        data: { field: "bulletsPerAction" },
      });
    expect(rifleman.loaded()).toBe(30);
    await zonesApi().suppressedAction(combat, "shooter", async () => 31);
    expect(rifleman.loaded()).toBe(30);
    expect(flags.shooter!.zonesSuppression).toMatchObject({ active: false, actions: 0 });
    // Outside combat there is nothing to suppress.
    (stub.game as unknown as Dict).combat = undefined;
    expect(await zonesApi().startSuppressing(rifleman.actor, "carbine", undefined, async () => ({ lane: "" }))).toBeUndefined();
    expect(stub.ui.notifications.messages.map((m) => m.text)).toContain(lookup(en, "FRAY.Zones.Suppression.NotInCombat"));
  });
});
