/**
 * Critical's round played through the built bundle in the typed Foundry stand-in: initiative
 * d100 + Quickness per combatant or group, rolled once per combat (CR-INI-01); the tracker lists
 * the declaring combatants from the lowest initiative up and acts from the highest down
 * (CR-INI-02); a combatant delays to later in the order through the tracker's control, never
 * earlier, a hostile player's earlier delay moving no one and undone by the active GM
 * (CR-INI-03); 4 AP a round, 2 while stunned, shown as a pool in the tracker (CR-AP-01,
 * CR-STN-01); an applied stun shrinks the target's AP at once (CR-AP-02). Movement: the ruler
 * coloured by Base Move multiples as far as the AP left reach, each further BM charged 1 AP
 * (CR-MOV-01, CR-MOV-02); leaving an engaged foe goes through the GM, who lets it pass or not,
 * and a player's client that moves anyway is put back by the active GM (CR-MOV-01). The GM undoes
 * an upkeep summary (CR-BLD-01, CR-STN-02); stun above the Physique ranks blacks out until it has
 * run out (CR-STN-03); a dying combatant has no AP and dies when its count ends (CR-DTH-01); UM66
 * only on an unmodified 66 (CR-CRT-03); first aid to a dying combatant from the sheet's dying banner
 * and the token HUD goes through the GM (CR-DTH-01). Upkeep summaries undone in any order and rounds gone back
 * and forward tick no round twice; the dice a card gains by an update reach Dice So Nice (U1).
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { StubChatMessage, diceQueue, stubToken, withOwnership, type FoundryStub, type StubUser } from "../support/foundry-stub.js";
import { BaseRuler, FlowWorld, setPath, storedAnswer, writeRequest } from "../support/flow-world.js";
import { CriticalCombat as BaseCombat, CriticalCombatant as BaseCombatant, packNpc } from "../support/flow-critical.js";
import { renderTokenHud } from "../support/token-hud.js";

type Dict = Record<string, unknown>;

interface Message {
  id: string;
  content: string;
  system: Dict;
  update(changes: Dict): Promise<Message>;
}

interface FrayApi {
  rollAttack(request: Dict): Promise<{ message: Message } | undefined>;
  flow: { runCardAction(message: Message, index: number, action: string): Promise<void> };
}

const dialogs: { title: string; content: string }[] = [];
/** What the next Delay dialog answers: a Combatant id, or a function of the offered content. */
let dialogAnswer: string | undefined;
let stub: FoundryStub;
let gm: StubUser;
let player: StubUser;

const flowWorld = new FlowWorld<Message>({
  ruleset: "critical",
  Combat: BaseCombat,
  Combatant: BaseCombatant,
  TokenRuler: BaseRuler,
  config: { statusEffects: [], specialStatusEffects: {} },
  recordCreated: true,
  actorEffects: true,
  prepare: () => {
    (((globalThis as Dict).foundry as { applications: { api: Dict } }).applications.api as Dict).DialogV2 = {
      wait: async (options: { window: { title: string }; content: string }) => {
        dialogs.push({ title: options.window.title, content: options.content });
        return dialogAnswer ?? null;
      },
    };
  },
});
const { messages, docs } = flowWorld;

beforeAll(async () => {
  ({ stub, gm, player } = await flowWorld.boot());
});

beforeEach(async () => {
  flowWorld.reset();
  dialogs.length = 0;
  dialogAnswer = undefined;
  StubChatMessage.created.length = 0;
  await stub.game.settings.set("fray", "critical-npcInitiative", "each");
  (stub.game as unknown as Dict).tables = [];
});

const api = () => flowWorld.api<FrayApi>();

/** An actor of the stand-in from a compendium NPC of Critical, registered by UUID, with its token. */
function actor(id: string, file: string, o: { name?: string; type?: string; system?: Dict; owner?: string } = {}) {
  const npc = packNpc(file);
  const { actor: a, source } = flowWorld.actor({
    _id: id,
    name: o.name ?? npc.name,
    type: o.type ?? "npc",
    system: { ...npc.system, ...(o.system ?? {}) },
    items: npc.items,
  });
  a.toObject = () => ({ ...structuredClone(source), statuses: [...a.statuses] }) as never;
  withOwnership(a, { default: 0, ...(o.owner ? { [o.owner]: 3 } : {}) });
  const token = stubToken(a, 0, 0);
  flowWorld.register(token);
  return { actor: a, token };
}

/** A Combatant of the stand-in: flags written by the acting client reach every client's `updateCombatant` with that user's id. */
function combatantOf(combat: BaseCombat, id: string, a: ReturnType<typeof actor>, owner?: string): Dict {
  const c: Dict = {
    id,
    name: a.actor.name,
    actor: a.actor,
    actorId: a.actor.id,
    tokenId: a.token.id,
    initiative: null,
    defeated: false,
    hasPlayerOwner: Boolean(owner),
    flags: { fray: {} },
    combat,
    getFlag(scope: string, key: string) {
      return (((c.flags as Dict)[scope] ?? {}) as Dict)[key];
    },
    async setFlag(scope: string, key: string, value: unknown) {
      await write({ [`flags.${scope}.${key}`]: structuredClone(value) });
      return c;
    },
    async unsetFlag(scope: string, key: string) {
      await write({ [`flags.${scope}.-=${key}`]: null });
      return c;
    },
  };
  /** Foundry's update: refused to a user who does not own the Combatant, then broadcast. */
  async function write(changes: Dict) {
    const by = stub.game.user;
    if (!by.isGM && by.id !== owner) throw new Error(`User ${by.id} lacks permission to update Combatant ${id}`);
    for (const [k, v] of Object.entries(changes)) {
      const m = /^(.*)\.-=(\w+)$/.exec(k);
      if (m) delete ((c as Dict & { flags: Dict }).flags.fray as Dict)[m[2]!];
      else setPath(c, k, v);
    }
    await Promise.resolve();
    stub.game.users.broadcast("updateCombatant", c, structuredClone(changes), {}, by.id);
  }
  withOwnership(c, { default: 0, ...(owner ? { [owner]: 3 } : {}) });
  combat.combatants.set(id, c);
  return c;
}

/** A Critical combat of the bundle's Combat class: Kara (Pat's character, Quickness 10), the Pistol Guard (5) and the Enforcer (0). */
function fight(o: { guardStun?: number; karaParry?: Dict } = {}) {
  const Combat = (stub.CONFIG as unknown as { Combat: { documentClass: new () => BaseCombat & Dict } }).Combat.documentClass;
  const combat = new Combat();
  Object.defineProperty(combat.combatants, Symbol.iterator, {
    value: function* () {
      yield* combat.combatants.values();
    },
  });
  const kara = actor("kara", "Sword_Fighter_fRc2NpcSwordFtr0.json", {
    name: "Kara Voss",
    type: "character",
    owner: "p1",
    ...(o.karaParry ? { system: { parry: o.karaParry } } : {}),
  });
  const guard = actor("guard", "Pistol_Guard_fRc2NpcPistolGrd.json", { system: { stun: o.guardStun ?? 0 } });
  const enforcer = actor("enforcer", "Enforcer_fRc2NpcEnforcer0.json");
  const c = {
    kara: combatantOf(combat, "cKara", kara, "p1"),
    guard: combatantOf(combat, "cGuard", guard),
    enforcer: combatantOf(combat, "cEnf", enforcer),
  };
  (stub.game as unknown as Dict).combat = combat;
  return { combat, c, kara, guard, enforcer };
}

type Sorting = { _sortCombatants(a: Dict, b: Dict): number; rollInitiative(ids: string[]): Promise<unknown> };
const turnNames = (combat: BaseCombat) => combat.turns.map((t) => t.name);
const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 2));
};

/** A tracker's DOM as the hooks read it: rows under one list, each with its listeners and added HTML. */
/** A tracker row of the stand-in. */
interface Row {
  dataset: Record<string, string>;
  html: string;
  parentElement: unknown;
  querySelector(): null;
  insertAdjacentHTML(where: string, h: string): void;
  addEventListener(type: string, fn: (e: unknown) => void): void;
  click(selector: string): void;
}

function trackerDom(combat: BaseCombat) {
  const list: { children: Row[]; classList: { add(): void }; append(row: Row): void } = {
    children: [],
    classList: { add() {} },
    append(row: Row) {
      this.children.splice(this.children.indexOf(row), 1);
      this.children.push(row);
    },
  };
  function row(c: Dict): Row {
    const listeners: ((e: unknown) => void)[] = [];
    return {
      dataset: { combatantId: String(c.id) } as Record<string, string>,
      html: "",
      parentElement: list,
      querySelector: () => null,
      insertAdjacentHTML(_where: string, h: string) {
        this.html += h;
      },
      addEventListener(_type: string, fn: (e: unknown) => void) {
        listeners.push(fn);
      },
      /** Clicks an element of the row matching `selector`. */
      click(selector: string) {
        const event = { target: { closest: (s: string) => (s === selector ? {} : null) }, preventDefault() {}, stopPropagation() {} };
        for (const fn of listeners) fn(event);
      },
    };
  }
  list.children = combat.turns.map(row);
  const root = {
    dataset: {} as Record<string, string>,
    html: "",
    querySelector: () => null,
    querySelectorAll: () => [...list.children],
    insertAdjacentHTML(_w: string, h: string) {
      this.html += h;
    },
    addEventListener() {},
  };
  const render = () => stub.Hooks.callAll("renderCombatTracker", { viewed: combat }, root as never);
  const byName = (name: string) => list.children.find((r) => combat.combatants.get(r.dataset.combatantId!)?.name === name)!;
  return { list, root, render, byName, names: () => list.children.map((r) => combat.combatants.get(r.dataset.combatantId!)?.name) };
}

/** Rolls the three initiatives with Kara 50 + 10, the guard 70 + 5, the Enforcer 20 + 0. */
async function rolled() {
  const f = fight();
  diceQueue.push(50, 70, 20);
  await (f.combat as unknown as Sorting).rollInitiative(["cKara", "cGuard", "cEnf"]);
  return f;
}

describe("initiative (CR-INI-01)", () => {
  it("CR-INI-01: d100 + Quickness for each combatant, one summary message", async () => {
    const { c } = await rolled();
    expect([c.kara.initiative, c.guard.initiative, c.enforcer.initiative]).toEqual([60, 75, 20]);
    expect(messages).toHaveLength(1);
    for (const name of ["Kara Voss", "Pistol Guard", "Enforcer"]) expect(messages[0]!.content).toContain(name);
  });

  it("CR-INI-01: per group, the NPCs share one d100 + the best Quickness among them; rolling one rolls the group", async () => {
    await stub.game.settings.set("fray", "critical-npcInitiative", "all");
    const { combat, c } = fight();
    diceQueue.push(30);
    await (combat as unknown as Sorting).rollInitiative(["cEnf"]);
    // The guard's Quickness 5 beats the Enforcer's 0: 30 + 5 for both; Kara has not rolled.
    expect([c.guard.initiative, c.enforcer.initiative, c.kara.initiative]).toEqual([35, 35, null]);
  });

  it("CR-INI-01: rolled once per combat: a new round keeps every initiative and posts no roll", async () => {
    const { combat, c } = await rolled();
    messages.length = 0;
    const changed: Dict = { round: 2 };
    await (combat as unknown as { _preUpdate(c: Dict, o: Dict, u: unknown): Promise<unknown> })._preUpdate(changed, {}, gm);
    const rows = changed.combatants as Dict[];
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.initiative === undefined)).toBe(true);
    expect(changed.turn).toBeUndefined();
    expect(messages).toHaveLength(0);
    expect(c.guard.initiative).toBe(75);
  });
});

describe("declare low, resolve high (CR-INI-02)", () => {
  it("CR-INI-02: the tracker lists the declaring combatants lowest first, then acts from the highest down", async () => {
    const { combat } = await rolled();
    expect(turnNames(combat)).toEqual(["Pistol Guard", "Kara Voss", "Enforcer"]);
    const dom = trackerDom(combat);
    dom.render();
    expect(dom.names()).toEqual(["Enforcer", "Kara Voss", "Pistol Guard"]);
    expect(dom.root.html).toContain("CR-INI-02");
    // The Enforcer declares first: the GM's Declare button is on his row only.
    expect(dom.byName("Enforcer").html).toContain("data-fray-declare");
    expect(dom.byName("Kara Voss").html).not.toContain("data-fray-declare");
    await combat.setFlag("fray", "phase", { round: 1, phase: "resolve" });
    const resolving = trackerDom(combat);
    resolving.render();
    expect(resolving.names()).toEqual(["Pistol Guard", "Kara Voss", "Enforcer"]);
  });
});

describe("delaying (CR-INI-03)", () => {
  it("CR-INI-03: Kara's player delays her until after the Enforcer from the tracker; the order follows; the next round forgets it", async () => {
    const { combat, c } = await rolled();
    await combat.setFlag("fray", "phase", { round: 1, phase: "resolve" });
    // Revealed: the first in the acting order (the guard) acts; Kara has not acted yet.
    combat.turn = 0;
    stub.game.users.current = player;
    const dom = trackerDom(combat);
    dom.render();
    // Pat owns only Kara: no Delay control on the others' rows.
    expect(dom.byName("Kara Voss").html).toContain("data-fray-delay");
    expect(dom.byName("Pistol Guard").html).not.toContain("data-fray-delay");
    expect(dom.byName("Enforcer").html).not.toContain("data-fray-delay");
    dialogAnswer = "cEnf";
    dom.byName("Kara Voss").click("[data-fray-delay]");
    await settle();
    // Only those later in the order are offered.
    expect(dialogs).toHaveLength(1);
    expect(dialogs[0]!.content).toContain("Enforcer");
    expect(dialogs[0]!.content).not.toContain("Pistol Guard");
    expect((c.kara.getFlag as (s: string, k: string) => unknown)("fray", "delay")).toEqual({ round: 1, after: "cEnf" });
    expect(turnNames(combat)).toEqual(["Pistol Guard", "Enforcer", "Kara Voss"]);
    const after = trackerDom(combat);
    after.render();
    expect(after.byName("Kara Voss").html).toContain("delays until after Enforcer");
    expect(after.byName("Kara Voss").html).toContain("CR-INI-03");
    // Round 2: the delay was for round 1 only.
    combat.round = 2;
    expect(turnNames(combat)).toEqual(["Pistol Guard", "Kara Voss", "Enforcer"]);
  });

  it("CR-INI-03: delaying the combatant whose turn it is hands the turn to the next in the order", async () => {
    const { combat } = await rolled();
    combat.turn = 1;
    expect(combat.combatant?.name).toBe("Kara Voss");
    stub.game.users.current = player;
    dialogAnswer = "cEnf";
    const dom = trackerDom(combat);
    dom.render();
    dom.byName("Kara Voss").click("[data-fray-delay]");
    await settle();
    expect(combat.combatant?.name).toBe("Enforcer");
    expect(turnNames(combat).at(-1)).toBe("Kara Voss");
  });

  it("CR-INI-03: never earlier: a hostile player's delay to before her initiative moves no one, and the active GM undoes it", async () => {
    const { combat, c } = await rolled();
    stub.game.users.current = player;
    // Written from the console, past the tracker's check: act after the guard, who acts before her.
    await (c.kara.setFlag as (s: string, k: string, v: unknown) => Promise<unknown>)("fray", "delay", { round: 1, after: "cGuard" });
    expect(turnNames(combat)).toEqual(["Pistol Guard", "Kara Voss", "Enforcer"]);
    await settle();
    expect((c.kara.getFlag as (s: string, k: string) => unknown)("fray", "delay")).toBeUndefined();
    expect(stub.ui.notifications.messages.map((m) => m.text)).toContain(
      "The delay of Kara Voss until after Pistol Guard would act before its initiative: it was undone.",
    );
    // A player cannot delay a combatant they do not own: Foundry refuses the write.
    await expect(
      (c.guard.setFlag as (s: string, k: string, v: unknown) => Promise<unknown>)("fray", "delay", { round: 1, after: "cEnf" }),
    ).rejects.toThrow(/lacks permission/);
    // The dialog's answer is checked too: an earlier combatant is refused with a warning, nothing written.
    dialogAnswer = "cGuard";
    const dom = trackerDom(combat);
    dom.render();
    dom.byName("Kara Voss").click("[data-fray-delay]");
    await settle();
    expect((c.kara.getFlag as (s: string, k: string) => unknown)("fray", "delay")).toBeUndefined();
    expect(stub.ui.notifications.messages.at(-1)?.text).toContain("cannot act before its initiative");
  });

  it("CR-INI-03: after acting, a hostile player's delay (written from the console) takes no one's turn: the active GM undoes it, the Enforcer keeps his turn", async () => {
    const { combat, c } = await rolled();
    await combat.setFlag("fray", "phase", { round: 1, phase: "resolve" });
    // The guard and Kara have acted; it is the Enforcer's turn.
    combat.turn = 2;
    expect(combat.combatant?.name).toBe("Enforcer");
    stub.game.users.current = player;
    // No Delay control for Kara any more: she has acted.
    const dom = trackerDom(combat);
    dom.render();
    expect(dom.byName("Kara Voss").html).not.toContain("data-fray-delay");
    await (c.kara.setFlag as (s: string, k: string, v: unknown) => Promise<unknown>)("fray", "delay", { round: 1, after: "cEnf" });
    await settle();
    expect((c.kara.getFlag as (s: string, k: string) => unknown)("fray", "delay")).toBeUndefined();
    expect(turnNames(combat)).toEqual(["Pistol Guard", "Kara Voss", "Enforcer"]);
    expect(combat.combatant?.name).toBe("Enforcer");
    expect(stub.ui.notifications.messages.map((m) => m.text)).toContain(
      "Kara Voss has acted this round: the delay until after Enforcer was undone.",
    );
  });

  it("CR-INI-03: a delay kept while waiting: a later rewrite that would let Kara act before those now acting is undone back to her delay", async () => {
    const { combat, c } = await rolled();
    await combat.setFlag("fray", "phase", { round: 1, phase: "resolve" });
    combat.turn = 0;
    stub.game.users.current = player;
    dialogAnswer = "cEnf";
    const dom = trackerDom(combat);
    dom.render();
    dom.byName("Kara Voss").click("[data-fray-delay]");
    await settle();
    expect(turnNames(combat)).toEqual(["Pistol Guard", "Enforcer", "Kara Voss"]);
    // The Enforcer acts now; Kara has not acted yet.
    combat.turn = 1;
    // From the console: her delay removed, which would put her back before the Enforcer's turn.
    await (c.kara.unsetFlag as (s: string, k: string) => Promise<unknown>)("fray", "delay");
    await settle();
    expect((c.kara.getFlag as (s: string, k: string) => unknown)("fray", "delay")).toEqual({ round: 1, after: "cEnf" });
    expect(turnNames(combat)).toEqual(["Pistol Guard", "Enforcer", "Kara Voss"]);
    expect(combat.combatant?.name).toBe("Enforcer");
  });

  it("CR-INI-03: the last in the order has no one to delay for: no control", async () => {
    const { combat } = await rolled();
    const dom = trackerDom(combat);
    dom.render();
    expect(dom.byName("Enforcer").html).not.toContain("data-fray-delay");
    expect(dom.byName("Pistol Guard").html).toContain("data-fray-delay");
  });
});

describe("action points (CR-AP-01, CR-AP-02, CR-STN-01)", () => {
  const ap = (c: Dict) =>
    ((c.getFlag as (s: string, k: string) => unknown)("fray", "economy") as { pools: { ap: { value: number; max: number } } })?.pools.ap;

  it("CR-AP-01, CR-STN-01: the combat starts with 4 AP each and 2 for the stunned guard, shown as a pool in the tracker", async () => {
    const { combat, c } = fight({ guardStun: 2 });
    await combat.startCombat();
    expect(ap(c.kara)).toEqual({ value: 4, max: 4 });
    expect(ap(c.guard)).toEqual({ value: 2, max: 2 });
    const dom = trackerDom(combat);
    dom.render();
    expect(dom.byName("Kara Voss").html).toContain(">4/4<");
    expect(dom.byName("Pistol Guard").html).toContain(">2/2<");
    expect(dom.byName("Pistol Guard").html).toContain("Action points");
  });

  it("CR-PAR-01: a new combat starts without the parry split an earlier combat left on an actor", async () => {
    const { combat, kara } = fight({ karaParry: { "t-old": 15 } });
    expect((kara.actor.system as { parry: Dict }).parry).toEqual({ "t-old": 15 });
    await combat.startCombat();
    expect((kara.actor.system as { parry: Dict }).parry).toEqual({});
  });

  it("CR-AP-01, CR-STN-01: a new round refills 4 AP, 2 while stunned; nothing carries over", async () => {
    const { combat, c } = fight({ guardStun: 3 });
    await combat.startCombat();
    const changed: Dict = { round: 2 };
    await (combat as unknown as { _preUpdate(c: Dict, o: Dict, u: unknown): Promise<unknown> })._preUpdate(changed, {}, gm);
    const economyOf = (id: string) =>
      ((changed.combatants as Dict[]).find((r) => r._id === id)!.flags as { fray: { economy: { round: number; pools: { ap: unknown } } } })
        .fray.economy;
    expect(economyOf("cKara")).toMatchObject({ round: 2, pools: { ap: { value: 4, max: 4 } } });
    expect(economyOf("cGuard")).toMatchObject({ round: 2, pools: { ap: { value: 2, max: 2 } } });
    expect(c.enforcer.id).toBe("cEnf");
  });

  it("CR-AP-01, CR-AP-02, CR-STN-01: Kara's attack costs 2 AP; its critical stuns the guard and his AP halve at once, less what he spent", async () => {
    const { combat, c, kara, guard } = fight();
    await combat.startCombat();
    // The guard already spent 1 AP this round (a readied weapon).
    await (c.guard.setFlag as (s: string, k: string, v: unknown) => Promise<unknown>)("fray", "economy", {
      round: 1,
      slots: {},
      pools: { ap: { value: 3, max: 4 } },
    });
    diceQueue.push(98, 37);
    const { message } = (await api().rollAttack({
      actor: kara.actor,
      weaponId: "fRc2SwordFtItm10",
      token: kara.token,
      target: guard.token,
      skipDialog: true,
    }))!;
    expect(ap(c.kara)).toEqual({ value: 2, max: 4 });
    diceQueue.push(4);
    await api().flow.runCardAction(message, 0, "rollDamage");
    expect(ap(c.guard)).toMatchObject({ value: 3, max: 4 });
    await api().flow.runCardAction(message, 0, "applyDamage");
    await settle();
    expect((guard.actor.system as { stun: number }).stun).toBeGreaterThan(0);
    expect(ap(c.guard)).toEqual({ value: 1, max: 2 });
  });
});

/** A placed token document of the stand-in: `update` by a user Foundry lets move it fires `moveToken` on every client. */
function placed(a: ReturnType<typeof actor>, col: number, row: number, disposition: number, owner?: string) {
  const size = 100;
  const doc: Dict & { x: number; y: number } = {
    id: a.token.id,
    uuid: a.token.document.uuid,
    name: a.actor.name,
    actor: a.actor,
    x: col * size,
    y: row * size,
    width: 1,
    height: 1,
    disposition,
    parent: { id: "s1" },
    async update(changes: Dict, options: Dict = {}) {
      const by = stub.game.user;
      if (!by.isGM && by.id !== owner) throw new Error(`User ${by.id} lacks permission to update Token ${doc.id}`);
      const origin = { x: doc.x, y: doc.y, width: 1, height: 1 };
      Object.assign(doc, changes);
      const destination = { x: doc.x, y: doc.y, width: 1, height: 1 };
      const cost = stub.canvas.grid.measurePath([origin, destination]).cost;
      await Promise.resolve();
      stub.game.users.broadcast("moveToken", doc, { origin, destination, passed: { cost } }, options, by);
      return doc;
    },
  };
  docs.set(doc.uuid as string, doc);
  return doc;
}

/** Runs this client's `preMoveToken` handlers as Foundry's `Hooks.call` does; false when one holds the move. */
function preMove(doc: Dict, to: { x: number; y: number }): boolean {
  const movement = {
    origin: { x: doc.x, y: doc.y, width: 1, height: 1 },
    destination: { ...to, width: 1, height: 1 },
    pending: { cost: 0 },
  };
  for (const h of stub.Hooks.handlers.get("preMoveToken") ?? []) if (h.fn(doc, movement, {}) === false) return false;
  return true;
}

/** A fight on a scene: Kara (Pat's, friendly) at (5, 5) next to the guard (hostile) at (6, 5); the Enforcer far off. */
async function onScene() {
  const f = fight();
  const tokens = {
    kara: placed(f.kara, 5, 5, 1, "p1"),
    guard: placed(f.guard, 6, 5, -1),
    enforcer: placed(f.enforcer, 20, 20, -1),
  };
  f.c.kara.token = tokens.kara;
  f.c.guard.token = tokens.guard;
  f.c.enforcer.token = tokens.enforcer;
  await f.combat.startCombat();
  return { ...f, tokens };
}

describe("movement (CR-MOV-01, CR-MOV-02)", () => {
  const ap = (c: Dict) =>
    ((c.getFlag as (s: string, k: string) => unknown)("fray", "economy") as { pools: { ap: { value: number } } }).pools.ap.value;
  const GREEN = 0x33cc66;
  const BLUE = 0x3388ff;
  const AMBER = 0xffaa00;
  const RED = 0xdd2222;

  it("CR-MOV-01, CR-MOV-02: the ruler colours Base Move multiples (10 m) as far as the AP left reach; an attack's 2 AP shorten it", async () => {
    const { kara, guard } = await onScene();
    const Ruler = (
      stub.CONFIG as unknown as { Token: { rulerClass: new (t: unknown) => { _getSegmentStyle(w: unknown): { color: number } } } }
    ).Token.rulerClass;
    const colour = (cost: number) =>
      new Ruler({ actor: kara.actor, document: { id: kara.token.id } })._getSegmentStyle({ measurement: { cost } }).color;
    expect([colour(10), colour(15), colour(25), colour(45), colour(55)]).toEqual([GREEN, BLUE, AMBER, AMBER, RED]);
    diceQueue.push(98, 37);
    await api().rollAttack({ actor: kara.actor, weaponId: "fRc2SwordFtItm10", token: kara.token, target: guard.token, skipDialog: true });
    // 2 AP left: two more BM, to 30 m; 35 m is beyond.
    expect([colour(10), colour(25), colour(30), colour(35)]).toEqual([GREEN, AMBER, AMBER, RED]);
  });

  it("CR-MOV-01, CR-MOV-02: the first BM is free, each further BM 1 AP", async () => {
    const { c, tokens } = await onScene();
    const move = tokens.kara.update as (c: Dict) => Promise<unknown>;
    // The GM moves Kara 10 squares (15 m): the second BM, 1 AP.
    await move({ x: 500, y: 1500 });
    await settle();
    expect(ap(c.kara)).toBe(3);
    // 7 squares more (25.5 m this round): the third BM, 1 AP more.
    await move({ x: 500, y: 2200 });
    await settle();
    expect(ap(c.kara)).toBe(2);
    // 2 squares more (28.5 m): still the third BM, nothing more.
    await move({ x: 500, y: 2400 });
    await settle();
    expect(ap(c.kara)).toBe(2);
  });

  it("CR-MOV-01: leaving the engaged guard asks the GM; let pass, the GM moves the token and the move is charged", async () => {
    const { c, tokens } = await onScene();
    stub.game.users.current = player;
    dialogAnswer = "pass";
    expect(preMove(tokens.kara, { x: 200, y: 500 })).toBe(false);
    await settle();
    expect(dialogs.at(-1)?.content).toContain("Pat moves Kara Voss away from Pistol Guard");
    expect(dialogs.at(-1)?.content).toContain("CR-MOV-01");
    expect([tokens.kara.x, tokens.kara.y]).toEqual([200, 500]);
    // 3 squares, 4.5 m: within the free Base Move.
    expect(ap(c.kara)).toBe(4);
  });

  it("CR-MOV-01: opposed by the GM, the move fails and the player is told; a move that leaves no foe is not held", async () => {
    const { tokens } = await onScene();
    stub.game.users.current = player;
    dialogAnswer = "opposed";
    expect(preMove(tokens.kara, { x: 200, y: 500 })).toBe(false);
    await settle();
    expect([tokens.kara.x, tokens.kara.y]).toEqual([500, 500]);
    expect(stub.ui.notifications.messages.map((m) => m.text)).toContain("Kara Voss cannot get away from Pistol Guard: the move fails.");
    // Staying next to the guard leaves no one behind.
    expect(preMove(tokens.kara, { x: 500, y: 600 })).toBe(true);
  });

  it("CR-MOV-01: a hostile player's client that moves away anyway is put back by the active GM; asking for a token they do not own is refused", async () => {
    const { tokens } = await onScene();
    stub.game.users.current = player;
    await (tokens.kara.update as (c: Dict) => Promise<unknown>)({ x: 100, y: 500 });
    await settle();
    expect([tokens.kara.x, tokens.kara.y]).toEqual([500, 500]);
    expect(stub.ui.notifications.messages.map((m) => m.text)).toContain(
      "Kara Voss left Pistol Guard behind without the GM's leave: the token was put back.",
    );
    // The guard is the GM's: Pat's request to move it away from Kara is refused, nothing asked.
    const asked = dialogs.length;
    await writeRequest(player, "req1", "fray.critical.leaveMelee", { tokenUuid: tokens.guard.uuid, x: 900, y: 900 });
    await settle();
    expect(dialogs.length).toBe(asked);
    expect([tokens.guard.x, tokens.guard.y]).toEqual([600, 500]);
    expect(storedAnswer(player, "req1")).toMatchObject({
      ok: false,
      error: { key: "FRAY.Critical.Move.NotOwner" },
    });
  });
});

describe("trust of movement (CR-MOV-01)", () => {
  it("CR-MOV-01: a hostile player's move passed as a revert (`{ fray: { revert: true } }` from the console) is still put back by the active GM", async () => {
    const { tokens } = await onScene();
    stub.game.users.current = player;
    // Kara's player moves her away from the engaged guard with the option the GM's revert uses.
    await (tokens.kara.update as (c: Dict, o: Dict) => Promise<unknown>)({ x: 100, y: 500 }, { fray: { revert: true } });
    await settle();
    expect([tokens.kara.x, tokens.kara.y]).toEqual([500, 500]);
    expect(stub.ui.notifications.messages.map((m) => m.text)).toContain(
      "Kara Voss left Pistol Guard behind without the GM's leave: the token was put back.",
    );
  });

  it("CR-MOV-02: a player's move made with the revert option is charged as any move", async () => {
    const { c, tokens } = await onScene();
    // The GM moves the guard away first: Kara's move then leaves no foe behind.
    await (tokens.guard.update as (c: Dict) => Promise<unknown>)({ x: 3000, y: 3000 });
    await settle();
    stub.game.users.current = player;
    // 10 squares (15 m) away from no foe: the second BM, 1 AP, revert option or not.
    await (tokens.kara.update as (c: Dict, o: Dict) => Promise<unknown>)({ x: 500, y: 1500 }, { fray: { revert: true } });
    await settle();
    const ap = ((c.kara.getFlag as (s: string, k: string) => unknown)("fray", "economy") as { pools: { ap: { value: number } } }).pools.ap
      .value;
    expect([tokens.kara.x, tokens.kara.y]).toEqual([500, 1500]);
    expect(ap).toBe(3);
  });
});

/** Advances a plain combat to `round` as Foundry's `updateCombat` reports it, and lets the upkeep run. */
async function advance(combat: Dict, round: number): Promise<void> {
  combat.round = round;
  stub.Hooks.callAll("updateCombat", combat, { round }, {}, "gm");
  await settle();
}

/** A rendered upkeep summary on the current client: its Undo button, if left, and a click on it. */
function renderSummary(message: Message) {
  let listener: ((e: unknown) => void) | undefined;
  let removed = false;
  const button = {
    disabled: false,
    isConnected: true,
    remove() {
      removed = true;
    },
    addEventListener(_type: string, fn: (e: unknown) => void) {
      listener = fn;
    },
  };
  const html = { querySelector: (s: string) => (s.includes("fray-undoUpkeep") ? button : null) };
  stub.Hooks.callAll("renderChatMessageHTML", message, html);
  return {
    shown: () => !removed,
    click: async () => {
      listener?.({ preventDefault() {} });
      await settle();
    },
  };
}

/** Kara strikes the guard with her sword (`dice` for the attack, `crit` for the critical), the card rolled and applied. */
async function strike(kara: ReturnType<typeof actor>, guard: ReturnType<typeof actor>, dice: number[], crit: number) {
  diceQueue.push(...dice);
  const { message } = (await api().rollAttack({
    actor: kara.actor,
    weaponId: "fRc2SwordFtItm10",
    token: kara.token,
    target: guard.token,
    skipDialog: true,
  }))!;
  diceQueue.push(crit);
  await api().flow.runCardAction(message, 0, "rollDamage");
  await api().flow.runCardAction(message, 0, "applyDamage");
  return message;
}

/** Stores a combatant's round economy as the round's start would (`flags.fray.economy`), AP only. */
const storeAp = (combatant: Dict, round: number, value: number, max: number) =>
  (combatant.setFlag as (s: string, k: string, v: unknown) => Promise<unknown>)("fray", "economy", {
    round,
    slots: {},
    pools: { ap: { value, max } },
  });

describe("upkeep undo (CR-BLD-01, CR-STN-02)", () => {
  const vitals = (a: { actor: unknown }) =>
    (a.actor as { system: { hits: { value: number }; stun: number; effects: { id: string; kind: string; rounds?: number }[] } }).system;

  it("CR-BLD-01, CR-STN-02: the GM undoes a round's upkeep: its bleeding hits and stun count-down come back, a later change stays; twice does nothing", async () => {
    const { kara, guard } = fight();
    await strike(kara, guard, [98, 37], 4);
    const applied = structuredClone(vitals(guard));
    const bleed = applied.effects.filter((e) => e.kind === "bleed").length;
    expect(bleed).toBeGreaterThan(0);
    expect(applied.stun).toBeGreaterThan(0);
    const combat: Dict = { id: "combatU", round: 1, combatants: [{ actor: guard.actor }, { actor: kara.actor }] };
    await advance(combat, 2);
    const summary = messages.at(-1)!;
    expect(summary.content).toContain("Undo upkeep");
    const upkept = structuredClone(vitals(guard));
    expect(upkept.hits.value).toBeLessThan(applied.hits.value);
    expect(upkept.stun).toBe(applied.stun - 1);
    // Later: 3 more hits from elsewhere.
    await (guard.actor as unknown as { update(c: Dict): Promise<unknown> }).update({ "system.hits.value": upkept.hits.value - 3 });
    // A player sees no Undo button; the GM does.
    stub.game.users.current = player;
    expect(renderSummary(summary).shown()).toBe(false);
    stub.game.users.current = gm;
    const rendered = renderSummary(summary);
    expect(rendered.shown()).toBe(true);
    await rendered.click();
    expect(vitals(guard).hits.value).toBe(applied.hits.value - 3);
    expect(vitals(guard).stun).toBe(applied.stun);
    expect(vitals(guard).effects).toEqual(applied.effects);
    expect((summary as unknown as { flags: { fray: { upkeep: { undone: boolean } } } }).flags.fray.upkeep.undone).toBe(true);
    // Undo again (a second GM's stale button): nothing changes.
    await rendered.click();
    expect(vitals(guard).hits.value).toBe(applied.hits.value - 3);
    expect(vitals(guard).stun).toBe(applied.stun);
    // Once undone the summary shows no button.
    expect(renderSummary(summary).shown()).toBe(false);
    // The round can be upkept again: the stamp went back.
    await advance(combat, 2);
    expect(vitals(guard).stun).toBe(applied.stun - 1);
  });

  it("CR-STN-02, CR-AP-01, CR-STN-01: undoing the upkeep that ended a stun takes back the AP it gave, keeping what was spent since", async () => {
    const { combat, c, guard } = fight({ guardStun: 1 });
    await combat.startCombat();
    const ap = () =>
      (
        (c.guard.getFlag as (s: string, k: string) => unknown)("fray", "economy") as {
          round: number;
          pools: { ap: { value: number; max: number } };
        }
      ).pools.ap;
    // Round 2 starts with the guard still stunned (2 AP); the upkeep then counts his last stun round down.
    const setAp = (round: number, value: number, max: number) => storeAp(c.guard, round, value, max);
    await setAp(2, 2, 2);
    await advance(combat as unknown as Dict, 2);
    expect(vitals(guard).stun).toBe(0);
    expect(ap()).toEqual({ value: 4, max: 4 });
    // He spends 1 AP, then the GM undoes the upkeep: stunned again, 2 AP of which 1 is spent.
    await setAp(2, 3, 4);
    const summary = messages.at(-1)!;
    await renderSummary(summary).click();
    expect(vitals(guard).stun).toBe(1);
    expect(ap()).toEqual({ value: 1, max: 2 });
    expect((c.guard.getFlag as (s: string, k: string) => unknown)("fray", "economy")).toMatchObject({ round: 2 });
  });

  it("CR-AP-01: an upkeep undone once its round is over leaves the new round's AP alone", async () => {
    const { combat, c } = fight({ guardStun: 1 });
    await combat.startCombat();
    await storeAp(c.guard, 2, 2, 2);
    await advance(combat as unknown as Dict, 2);
    const summary = messages.at(-1)!;
    await storeAp(c.guard, 3, 4, 4);
    await renderSummary(summary).click();
    expect((c.guard.getFlag as (s: string, k: string) => unknown)("fray", "economy")).toEqual({
      round: 3,
      slots: {},
      pools: { ap: { value: 4, max: 4 } },
    });
  });

  /** The guard's upkeep stamp for a combat: the last round upkept (`flags.fray.upkeep.<combat id>`). */
  const stampOf = (a: { actor: unknown }, key: string) =>
    ((a.actor as { getFlag(s: string, k: string): unknown }).getFlag("fray", "upkeep") as Dict | undefined)?.[key];

  it("CR-BLD-01, CR-STN-02: two rounds' upkeeps undone older-first: each gives back its own hits and stun, the stamp follows the rounds still upkept, the next round ticks once", async () => {
    const { kara, guard } = fight();
    await strike(kara, guard, [98, 37], 4);
    const applied = structuredClone(vitals(guard));
    const combat: Dict = { id: "combatO", round: 1, combatants: [{ actor: guard.actor }] };
    await advance(combat, 2);
    const round2 = messages.at(-1)!;
    const after2 = structuredClone(vitals(guard));
    await advance(combat, 3);
    const round3 = messages.at(-1)!;
    const after3 = structuredClone(vitals(guard));
    const bleed = applied.hits.value - after2.hits.value;
    expect(bleed).toBeGreaterThan(0);
    expect(after3.hits.value).toBe(after2.hits.value - bleed);
    expect(stampOf(guard, "combatO")).toBe(3);
    // Round 2's summary first: its bleeding and stun come back; round 3's upkeep still stands.
    await renderSummary(round2).click();
    expect(vitals(guard).hits.value).toBe(after3.hits.value + bleed);
    expect(vitals(guard).stun).toBe(after3.stun + (applied.stun - after2.stun));
    expect(stampOf(guard, "combatO")).toBe(3);
    // Then round 3's: the guard is back where the attack left him, and no round stands upkept.
    await renderSummary(round3).click();
    expect(vitals(guard).hits.value).toBe(applied.hits.value);
    expect(vitals(guard).stun).toBe(applied.stun);
    expect(vitals(guard).effects).toEqual(applied.effects);
    expect(stampOf(guard, "combatO")).toBe(0);
    // The next round ticks once.
    const posted = messages.length;
    await advance(combat, 4);
    expect(vitals(guard).hits.value).toBe(applied.hits.value - bleed);
    expect(messages.length).toBe(posted + 1);
    expect(stampOf(guard, "combatO")).toBe(4);
  });

  it("CR-BLD-01: the GM goes back a round and forward again: no round's bleeding ticks twice, before and after an older upkeep is undone", async () => {
    const { kara, guard } = fight();
    await strike(kara, guard, [98, 37], 4);
    const applied = structuredClone(vitals(guard));
    const combat: Dict = { id: "combatB", round: 1, combatants: [{ actor: guard.actor }] };
    await advance(combat, 2);
    const round2 = messages.at(-1)!;
    const bleed = applied.hits.value - vitals(guard).hits.value;
    await advance(combat, 3);
    const upkept = vitals(guard).hits.value;
    expect(upkept).toBe(applied.hits.value - 2 * bleed);
    const posted = messages.length;
    // Previous round, next round.
    await advance(combat, 2);
    await advance(combat, 3);
    expect(vitals(guard).hits.value).toBe(upkept);
    expect(messages.length).toBe(posted);
    // Round 2's bleeding undone; back and forth again: round 2 is not bled again under round 3's upkeep, nor round 3 twice.
    await renderSummary(round2).click();
    expect(vitals(guard).hits.value).toBe(upkept + bleed);
    await advance(combat, 2);
    await advance(combat, 3);
    expect(vitals(guard).hits.value).toBe(upkept + bleed);
    expect(messages.length).toBe(posted);
    // A new round still ticks, once.
    await advance(combat, 4);
    expect(vitals(guard).hits.value).toBe(upkept);
  });

  it("CR-BLD-01: a player's request to undo an upkeep is refused by the active GM; nothing changes", async () => {
    const { kara, guard } = fight();
    await strike(kara, guard, [98, 37], 4);
    await advance({ id: "combatV", round: 1, combatants: [{ actor: guard.actor }] }, 2);
    const summary = messages.at(-1)!;
    const upkept = structuredClone(vitals(guard));
    stub.game.users.current = player;
    await writeRequest(player, "req2", "fray.critical.undoUpkeep", { messageId: summary.id });
    await settle();
    expect(storedAnswer(player, "req2")).toMatchObject({
      ok: false,
      error: { key: "FRAY.Critical.Upkeep.GMOnly" },
    });
    expect(vitals(guard)).toEqual(upkept);
  });
});

describe("stun, blackout, dying and UM66 through the flow (CR-STN-01, CR-STN-03, CR-DTH-01, CR-CRT-03)", () => {
  const system = (a: { actor: unknown }) =>
    (a.actor as { system: { hits: { value: number }; stun: number; effects: { kind: string; rounds?: number }[] } }).system;
  const statuses = (a: { actor: unknown }) => (a.actor as { statuses: Set<string> }).statuses;

  /** Kara's sword attack on the guard with the duel's dice, rolled and applied. */

  it("CR-STN-01, CR-STN-03: stun above the guard's 6 Physique ranks blacks him out (no AP) until every stun round has run out", async () => {
    const { combat, c, kara, guard } = fight({ guardStun: 5 });
    await combat.startCombat();
    await strike(kara, guard, [98, 37], 4);
    const stun = system(guard).stun;
    expect(stun).toBeGreaterThan(6);
    expect(statuses(guard).has("blackout")).toBe(true);
    const ap = () =>
      ((c.guard.getFlag as (s: string, k: string) => unknown)("fray", "economy") as { pools: { ap: { value: number; max: number } } }).pools
        .ap;
    expect(ap()).toEqual({ value: 0, max: 0 });
    const plain: Dict = { id: "combatS", round: 1, combatants: [{ actor: guard.actor }] };
    for (let round = 2; system(guard).stun > 0; round++) {
      await advance(plain, round);
      // Down to the ranks and below, still blacked out while any stun is left.
      if (system(guard).stun > 0) expect(statuses(guard).has("blackout")).toBe(true);
    }
    expect(statuses(guard).has("blackout")).toBe(false);
  });

  it("CR-DTH-01: a dying guard is down: no AP, his attack refused (speech only); the count runs down each round and kills at 0", async () => {
    const { combat, kara, guard } = fight();
    (guard.actor as unknown as { system: Dict }).system.effects = [
      { id: "dying-1", kind: "dying", rule: "CR-DTH-01", label: "FRAY.Critical.Effect.dying", rounds: 2 },
    ];
    statuses(guard).add("down");
    await combat.startCombat();
    const count = messages.length;
    diceQueue.push(50);
    const attack = await api().rollAttack({
      actor: guard.actor,
      weaponId: "fRc2PistolGItm10",
      token: guard.token,
      target: kara.token,
      skipDialog: true,
    });
    expect(attack).toBeUndefined();
    expect(messages).toHaveLength(count);
    const plain: Dict = { id: "combatD", round: 1, combatants: [{ actor: guard.actor }] };
    await advance(plain, 2);
    expect(system(guard).effects.find((e) => e.kind === "dying")?.rounds).toBe(1);
    expect(statuses(guard).has("dead")).toBe(false);
    await advance(plain, 3);
    expect(statuses(guard).has("dead")).toBe(true);
    expect(messages.at(-1)!.content).toContain("CR-DTH-01");
  });

  it("CR-CRT-03: the UM66 row only on an unmodified 66, not on a roll pushed to 66 by the bonus over 150", async () => {
    const { kara, guard } = fight();
    // 98 + 99 + 60 open-ended: a total far over 150, +10 and more on the critical roll.
    const pushed = await strike(kara, guard, [98, 99, 60], 56);
    expect(pushed.content).not.toContain("Unmodified 66");
    const { guard: other } = fight();
    const um = await strike(kara, other, [98, 37], 66);
    expect(um.content).toContain("Unmodified 66: the UM66 result applies");
    expect(um.content).toContain("CR-CRT-03");
  });
});

describe("treating another's wound through the GM (CR-BLD-02, CR-AP-01)", () => {
  const effects = (a: { actor: unknown }) =>
    (a.actor as { system: { effects: { id: string; kind: string; value?: number }[] } }).system.effects;
  const ap = (c: Dict) =>
    ((c.getFlag as (s: string, k: string) => unknown)("fray", "economy") as { pools: { ap: { value: number } } }).pools.ap.value;
  let n = 0;
  async function ask(data: Dict) {
    stub.game.users.current = player;
    const id = `t${++n}`;
    await writeRequest(player, id, "fray.critical.treatOther", data);
    await settle();
    stub.game.users.current = gm;
    return storedAnswer(player, id);
  }

  /** Kara (Pat's) next to the bleeding guard, in a started combat. */
  async function wounded() {
    const f = await onScene();
    diceQueue.push(98, 37);
    const { message } = (await api().rollAttack({
      actor: f.kara.actor,
      weaponId: "fRc2SwordFtItm10",
      token: f.kara.token,
      target: f.guard.token,
      skipDialog: true,
    }))!;
    diceQueue.push(4);
    await api().flow.runCardAction(message, 0, "rollDamage");
    await api().flow.runCardAction(message, 0, "applyDamage");
    const wound = effects(f.guard).find((e) => e.kind === "bleed")!;
    return { ...f, wound };
  }

  it("CR-BLD-02, CR-AP-01: Pat's Kara staunches the guard's wound: the GM halves it and spends Kara's 1 AP", async () => {
    const { c, guard, kara, wound } = await wounded();
    const before = ap(c.kara);
    expect(await ask({ treaterUuid: kara.actor.uuid, patientUuid: guard.actor.uuid, effectId: wound.id, method: "staunch" })).toMatchObject(
      { ok: true },
    );
    expect(effects(guard).find((e) => e.id === wound.id)?.value).toBe(Math.ceil((wound.value ?? 0) / 2));
    expect(ap(c.kara)).toBe(before - 1);
  });

  it("CR-BLD-02: as a hostile player: another's treater, a distant treater, a wrong treatment and too few AP are refused; nothing is written", async () => {
    const { c, guard, kara, enforcer, tokens, wound } = await wounded();
    const before = structuredClone(effects(guard));
    const apBefore = ap(c.kara);
    // Pat does not own the Enforcer.
    expect(
      await ask({ treaterUuid: enforcer.actor.uuid, patientUuid: guard.actor.uuid, effectId: wound.id, method: "staunch" }),
    ).toMatchObject({
      ok: false,
      error: { key: "FRAY.Critical.Treat.NotOwner" },
    });
    // Smothering does not treat bleeding: the core refuses it on the GM's side.
    expect(await ask({ treaterUuid: kara.actor.uuid, patientUuid: guard.actor.uuid, effectId: wound.id, method: "smother" })).toMatchObject(
      {
        ok: false,
        error: { key: "FRAY.Error.Treatment" },
      },
    );
    // A medical kit costs 4 AP; Kara has 2 left after her attack.
    expect(await ask({ treaterUuid: kara.actor.uuid, patientUuid: guard.actor.uuid, effectId: wound.id, method: "medkit" })).toMatchObject({
      ok: false,
      error: { key: "FRAY.Critical.Treat.NoAp" },
    });
    // Far from the guard.
    tokens.kara.x = 1500;
    expect(await ask({ treaterUuid: kara.actor.uuid, patientUuid: guard.actor.uuid, effectId: wound.id, method: "staunch" })).toMatchObject(
      {
        ok: false,
        error: { key: "FRAY.Critical.Treat.NotAdjacent" },
      },
    );
    expect(effects(guard)).toEqual(before);
    expect(ap(c.kara)).toBe(apBefore);
  });
});

describe("first aid to a dying ally through the GM (CR-DTH-01)", () => {
  const effects = (a: { actor: unknown }) => (a.actor as { system: { effects: { kind: string }[] } }).system.effects;
  let n = 0;
  async function ask(data: Dict) {
    stub.game.users.current = player;
    const id = `fa${++n}`;
    await writeRequest(player, id, "fray.critical.firstAid", data);
    await settle();
    stub.game.users.current = gm;
    return storedAnswer(player, id);
  }
  async function dyingGuard() {
    const f = await onScene();
    (f.guard.actor as unknown as { system: Dict }).system.effects = [
      { id: "dying-1", kind: "dying", rule: "CR-DTH-01", label: "FRAY.Critical.Effect.dying", rounds: 3 },
    ];
    (f.guard.actor as unknown as { statuses: Set<string> }).statuses.add("down");
    return f;
  }
  const ap = (c: Dict) =>
    ((c.getFlag as (s: string, k: string) => unknown)("fray", "economy") as { pools: { ap: { value: number } } }).pools.ap.value;

  it("CR-DTH-01, CR-AP-01: Kara's first aid, rolled by the GM at 100% or more, stops the guard's count to death and costs her 4 AP", async () => {
    const { c, kara, guard } = await dyingGuard();
    diceQueue.push(98, 60);
    expect(await ask({ treaterUuid: kara.actor.uuid, patientUuid: guard.actor.uuid })).toMatchObject({ ok: true });
    expect(effects(guard).some((e) => e.kind === "dying")).toBe(false);
    expect(ap(c.kara)).toBe(0);
    expect(messages.at(-1)!.content).toContain("saved, the count to death stops");
    expect(messages.at(-1)!.content).toContain("CR-DTH-01");
  });

  it("CR-DTH-01: below 100% the count runs on; a patient who is not dying is refused", async () => {
    const { c, kara, guard } = await dyingGuard();
    diceQueue.push(20);
    expect(await ask({ treaterUuid: kara.actor.uuid, patientUuid: guard.actor.uuid })).toMatchObject({ ok: true });
    expect(effects(guard).some((e) => e.kind === "dying")).toBe(true);
    expect(messages.at(-1)!.content).toContain("not enough");
    expect(ap(c.kara)).toBe(0);
    expect(await ask({ treaterUuid: kara.actor.uuid, patientUuid: kara.actor.uuid })).toMatchObject({
      ok: false,
      error: { key: "FRAY.Error.NotDying" },
    });
  });
});

describe("first aid from the dying banner and the token HUD (CR-DTH-01)", () => {
  const effects = (a: { actor: unknown }) => (a.actor as { system: { effects: { kind: string }[] } }).system.effects;
  const ap = (c: Dict) =>
    ((c.getFlag as (s: string, k: string) => unknown)("fray", "economy") as { pools: { ap: { value: number } } }).pools.ap.value;
  async function dyingGuard() {
    const f = await onScene();
    (f.guard.actor as unknown as { system: Dict }).system.effects = [
      { id: "dying-1", kind: "dying", rule: "CR-DTH-01", label: "FRAY.Critical.Effect.dying", rounds: 3 },
    ];
    (f.guard.actor as unknown as { statuses: Set<string> }).statuses.add("down");
    return f;
  }
  /** The Critical sheet of an actor as the current user sees it: the sheet's context rendered with its template. */
  async function sheetHtml(a: unknown): Promise<string> {
    const Sheet = stub.actors.registrations[0]!.sheetClass as new (o: Dict) => { _prepareContext(o: Dict): Promise<Dict> };
    const context = await new Sheet({ document: a })._prepareContext({});
    const render = (
      ((globalThis as Dict).foundry as Dict).applications as { handlebars: { renderTemplate(p: string, d: Dict): Promise<string> } }
    ).handlebars.renderTemplate;
    return render("systems/fray/templates/critical/actor.hbs", context);
  }
  const binding = () => (stub.game.fray as { binding: { sheetAction(a: unknown, d: Dict, t?: string): Promise<void> } }).binding;

  it("CR-DTH-01, CR-AP-01: the dying guard's banner offers first aid, Kara's does not; Pat's click has Kara treat through the GM: saved, 4 AP", async () => {
    const { c, kara, guard } = await dyingGuard();
    const html = await sheetHtml(guard.actor);
    expect(html).toMatch(
      /fray-critical-dying[^]*<button type="button" class="fray-first-aid" data-action="rulesetAction" data-op="firstAid" aria-label="First aid"/,
    );
    expect(html).toContain("fa-solid fa-briefcase-medical");
    expect(await sheetHtml(kara.actor)).not.toContain('data-op="firstAid"');
    stub.game.users.current = player;
    diceQueue.push(98, 60);
    // Pat controls no token: her one combatant, Kara, treats; the GM's client rolls and writes.
    await binding().sheetAction(guard.actor, { op: "firstAid" });
    await settle();
    stub.game.users.current = gm;
    expect(flowWorld.queries.map((q) => q.name)).toContain("fray.critical.firstAid");
    expect(effects(guard).some((e) => e.kind === "dying")).toBe(false);
    expect(ap(c.kara)).toBe(0);
    expect(messages.at(-1)!.content).toContain("Kara Voss gives Pistol Guard first aid");
    expect(messages.at(-1)!.content).toContain("saved, the count to death stops");
  });

  it("CR-DTH-01: the HUD of the dying guard's token shows first aid, Kara's does not; the GM picks Kara of the combatants and she treats", async () => {
    const { c, kara, guard } = await dyingGuard();
    const hud = renderTokenHud(stub, guard.token);
    const button = hud.button("first-aid")!;
    expect(button).toBeDefined();
    expect(button.tagName).toBe("BUTTON");
    expect(button.getAttribute("aria-label")).toBe("First aid");
    expect(button.innerHTML).toContain("fa-solid fa-briefcase-medical");
    expect(renderTokenHud(stub, kara.token).button("first-aid")).toBeUndefined();
    dialogAnswer = "0";
    diceQueue.push(20);
    button.click();
    await settle();
    // The GM owns every combatant: the dialog asks who treats, the patient left out.
    expect(dialogs.at(-1)!.title).toBe("First aid to Pistol Guard");
    expect(dialogs.at(-1)!.content).toContain("Kara Voss");
    expect(dialogs.at(-1)!.content).toContain("Enforcer");
    expect(dialogs.at(-1)!.content).not.toContain(">Pistol Guard<");
    expect(messages.at(-1)!.content).toContain("Kara Voss gives Pistol Guard first aid");
    expect(messages.at(-1)!.content).toContain("not enough");
    expect(effects(guard).some((e) => e.kind === "dying")).toBe(true);
    expect(ap(c.kara)).toBe(0);
  });

  it("CR-DTH-01: a patient who is not dying is refused with a localized error and nothing is asked", async () => {
    const { kara } = await onScene();
    await expect(binding().sheetAction(kara.actor, { op: "firstAid" })).rejects.toMatchObject({ key: "FRAY.Error.NotDying" });
    expect(flowWorld.queries).toEqual([]);
  });
});

describe("3D dice for Rolls an update adds to a card (U1)", () => {
  /** Each `game.dice3d.showForRoll` call: roll, user, synchronize, whisper, blind, message id, speaker. */
  let shown: unknown[][];
  const world = () => stub.game as unknown as Dict;
  beforeEach(() => {
    shown = [];
    world().modules = new Map([["dice-so-nice", { id: "dice-so-nice", active: true }]]);
    world().dice3d = {
      showForRoll: async (...args: unknown[]) => {
        shown.push(args);
        return true;
      },
    };
  });
  afterEach(() => {
    delete world().modules;
    delete world().dice3d;
  });

  /** The GM rolls Kara's sword attack on the guard (98, 37): the card, with the Rolls it was created with. */
  async function card(kara: ReturnType<typeof actor>, guard: ReturnType<typeof actor>) {
    diceQueue.push(98, 37);
    const { message } = (await api().rollAttack({
      actor: kara.actor,
      weaponId: "fRc2SwordFtItm10",
      token: kara.token,
      target: guard.token,
      skipDialog: true,
    }))!;
    return message as Message & { rolls: unknown[]; speaker?: unknown; whisper?: string[]; blind?: boolean };
  }
  const totals = (rolls: unknown[]) =>
    rolls.map((r) => (JSON.parse(typeof r === "string" ? r : JSON.stringify(r)) as { total: number }).total);

  it("CR-CRT-01: the critical rolled on the GM's card is shown once as 3D dice, to everyone, with the card's id and speaker; a created card's Rolls are left to the module", async () => {
    const { kara, guard } = fight();
    const message = await card(kara, guard);
    expect(shown).toEqual([]);
    const before = message.rolls.length;
    diceQueue.push(4);
    await api().flow.runCardAction(message, 0, "rollDamage");
    const added = message.rolls.slice(before);
    expect(added.length).toBeGreaterThan(0);
    expect(shown.map((c) => (c[0] as { total: number }).total)).toEqual(totals(added));
    for (const call of shown) expect(call.slice(1)).toEqual([gm, true, null, false, message.id, message.speaker]);
    // Applying rolls nothing: nothing more is shown.
    await api().flow.runCardAction(message, 0, "applyDamage");
    expect(shown.length).toBe(added.length);
  });

  it("CR-CRT-01: a whispered, blind card's critical rolled by Pat through the GM is shown in Pat's dice, to the card's whisper only, blind", async () => {
    const { kara, guard } = fight();
    const message = await card(kara, guard);
    message.whisper = ["gm"];
    message.blind = true;
    stub.game.users.current = player;
    diceQueue.push(4);
    await api().flow.runCardAction(message, 0, "rollDamage");
    await settle();
    stub.game.users.current = gm;
    expect((message.system.targets as Dict[])[0]).toHaveProperty("damage");
    expect(shown.length).toBeGreaterThan(0);
    for (const call of shown) expect(call.slice(1)).toEqual([player, true, ["gm"], true, message.id, message.speaker]);
  });

  it("CR-CRT-01: without Dice So Nice active nothing is shown, even with a `game.dice3d` left behind", async () => {
    world().modules = new Map([["dice-so-nice", { id: "dice-so-nice", active: false }]]);
    const { kara, guard } = fight();
    const message = await card(kara, guard);
    diceQueue.push(4);
    await api().flow.runCardAction(message, 0, "rollDamage");
    expect(message.rolls.length).toBeGreaterThan(1);
    expect(shown).toEqual([]);
  });
});
