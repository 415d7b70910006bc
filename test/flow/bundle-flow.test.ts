/**
 * The play flow in the built bundle, inside the typed Foundry stand-in: attack card buttons from
 * the reaction to undo (UD-REA-01 to UD-REA-03, UD-DMG-01 to UD-DMG-05), the GM query a player
 * goes through, several targets, the Combat subclass's initiative and round reset (UD-INI-01 to
 * UD-INI-03, UD-ACT-01), the ruler's colours (UD-MOV-01 to UD-MOV-03) and refusing a move past
 * full movement, the sheets' Actions row and skill rolls in combat (UD-ACT-02), the GM's pip
 * toggle in the tracker, and range and firing mode from the dialog to the card and the damage
 * rolled (UD-RNG-01, UD-RNG-02). Extra stand-in pieces (documents with `update`, UUID lookup, Combat,
 * TokenRuler) are set up here, on top of `test/support/foundry-stub.ts`.
 */
import { mergedFlag } from "../support/data-model.js";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ud10 } from "../../src/rules/ud10/index.js";
import { ud10CombatantFromActor } from "../../src/foundry/rulesets/ud10/translate.js";
import { BAND_COLOURS } from "../../src/foundry/rulesets/ud10/ruler.js";
import type { TargetState } from "../../src/foundry/logic/card.js";
import { StubRoll, diceQueue, lookup, readLang, stubToken, type FoundryStub, type StubUser } from "../support/foundry-stub.js";
import { BaseRuler, FakeElement, FlowWorld, storedAnswer, writeRequest } from "../support/flow-world.js";
import { combatantSystem } from "../support/actors.js";

const en = readLang("en");

type Dict = Record<string, unknown>;

/** A chat message of the stand-in, with `update` and an id. */
interface Message {
  id: string;
  type?: string;
  isOwner: boolean;
  content: string;
  rolls: unknown[];
  system: Dict & { targets: TargetState[] };
  flags?: Dict;
  speaker?: Dict;
  update(changes: Dict): Promise<Message>;
}

/**
 * Starts a combat in the stand-in with one Combatant per entry (ids as given, all owned); their
 * flags (`economy`, `moved` ...) live in the returned map under `<combatant id>.<key>`.
 */
function startCombat(entries: readonly { id: string; actor: { id: unknown }; token: { id: string } }[]): Map<string, unknown> {
  const flags = new Map<string, unknown>();
  const list = entries.map(({ id, actor, token }) => ({
    id,
    tokenId: token.id,
    token,
    actor,
    actorId: actor.id,
    get isOwner() {
      return (actor as { isOwner?: boolean }).isOwner ?? true;
    },
    combat: { id: "combat1" },
    getFlag: (_s: string, k: string) => flags.get(`${id}.${k}`),
    setFlag: async (_s: string, k: string, v: unknown) => flags.set(`${id}.${k}`, mergedFlag(flags.get(`${id}.${k}`), v)),
  }));
  (stub.game as unknown as Dict).combat = {
    started: true,
    round: 1,
    combatants: Object.assign(list, { get: (id: string) => list.find((c) => c.id === id) }),
  };
  return flags;
}

interface FlowApi {
  runCardAction(message: Message, index: number, action: string): Promise<void>;
  onPreMoveToken(doc: unknown, movement: unknown): boolean | void;
}
interface FrayApi {
  rollAttack(request: Dict): Promise<{ results: { hit: boolean }[]; message: Message } | undefined>;
  flow: FlowApi;
}

/** A base Combat / Combatant for the subclasses; records embedded updates. */
class BaseCombatant {
  _getInitiativeFormula(): string {
    return "1d10";
  }
}
class BaseCombat {
  round = 1;
  started = true;
  id = "combat1";
  combatants = new Map<string, Dict>();
  embedded: unknown[][] = [];
  async updateEmbeddedDocuments(_type: string, updates: unknown[]) {
    this.embedded.push(updates);
    return updates;
  }
  async _preUpdate() {
    return undefined;
  }
  async startCombat() {
    return this;
  }
}

const flowWorld = new FlowWorld<Message>({
  Combat: BaseCombat,
  Combatant: BaseCombatant,
  TokenRuler: BaseRuler,
  config: { time: { roundTime: 6 } },
  recordCreated: true,
  queryData: true,
  prepare: ({ stub }) => {
    const game = stub.game as unknown as Dict;
    game.combats = { get: (id: string) => ((game.combat as Dict | undefined)?.id === id || id === "combat1" ? game.combat : undefined) };
    gm2 = stub.game.users.add("gm2", "Second GM", true);
  },
});
const { messages, docs } = flowWorld;
/** Requests the active GM's client saw written on a User, with the writer the server reported. */
const queries = flowWorld.queries as { name: string; data: Dict; userId: string }[];
let stub: FoundryStub;
let gm: StubUser;
/** A player and a second GM, connected. */
let player: StubUser;
let gm2: StubUser;

beforeAll(async () => {
  ({ stub, gm, player } = await flowWorld.boot());
});

const api = () => flowWorld.api<FrayApi>();

const sword = {
  _id: "sword",
  name: "Sabre",
  type: "weapon",
  system: {
    kind: "melee",
    attackModifier: 1,
    damage: "2+1d10",
    penetration: 0,
    rangeIncrement: 0,
    modes: [],
    canParry: true,
    shield: false,
    description: "",
  },
};

/** Every actor update of a test, with its options (the floating numbers' before and after). */
const updates: { uuid: string; changes: Dict; options: Dict }[] = [];

/** An actor of the stand-in that can be updated and have statuses toggled, registered by UUID; its updates are recorded. */
function actor(id: string, name: string, type: string, system: Dict, items: Dict[] = [sword]) {
  return flowWorld.actor(
    { _id: id, name, type, system, items },
    {
      onUpdate: (a, changes, options) =>
        updates.push({ uuid: a.uuid, changes: structuredClone(changes), options: structuredClone(options) }),
    },
  ).actor;
}

function world() {
  const ayla = actor("ayla", "Ayla", "character", combatantSystem(6));
  const bandit = actor("bandit", "Bandit", "npc", { ...combatantSystem(3), group: "bandits" }, [
    sword,
    {
      _id: "jerkin",
      name: "Leather Jerkin",
      type: "armor",
      system: { zones: { torso: { rating: 2, buffer: 1 } }, equipped: true, description: "" },
    },
  ]);
  const thug = actor("thug", "Thug", "npc", { ...combatantSystem(2), group: "bandits" });
  const aylaToken = stubToken(ayla, 0, 0);
  const banditToken = stubToken(bandit, 1, 0);
  const thugToken = stubToken(thug, 0, 1);
  flowWorld.register(aylaToken, banditToken, thugToken);
  return { ayla, bandit, thug, aylaToken, banditToken, thugToken };
}

const system = (m: Message) => m.system;

beforeEach(() => {
  messages.length = 0;
  queries.length = 0;
  StubRoll.evaluated.length = 0;
  stub.ui.notifications.messages.length = 0;
  stub.game.users.current = gm;
  gm.isGM = true;
  gm.active = true;
  gm2.active = true;
  player.flags = {};
  stub.game.user.targets.clear();
  diceQueue.length = 0;
  stub.game.settings.values.clear();
  (stub.game as unknown as Dict).combat = undefined;
});

describe("registration", () => {
  it("registers the request hook (no identity-less v13 query), the flow's hooks, the movement setting and the Combat classes", () => {
    const config = stub.CONFIG as unknown as Dict;
    expect(config.queries).toBeUndefined();
    // One hook of the system, one of this test's request log.
    expect(stub.Hooks.handlers.get("updateUser")?.length).toBe(2);
    for (const hook of ["renderCombatTracker", "preMoveToken", "moveToken"]) expect(stub.Hooks.handlers.get(hook)?.length, hook).toBe(1);
    // The card's buttons, its folds (test/flow/card-fold.test.ts), and the rule links (test/flow/rule-links-bundle.test.ts).
    expect(stub.Hooks.handlers.get("renderChatMessageHTML")?.length).toBe(3);
    const setting = stub.game.settings.registered.get("fray.beyondFullMovement")!;
    expect(setting.default).toBe("show");
    expect(Object.keys(setting.choices!)).toEqual(["show", "refuse"]);
    expect(lookup(en, setting.name!)).toBeDefined();
    expect((config.Combat as Dict).documentClass).toBeTypeOf("function");
    expect((config.Combatant as Dict).documentClass).toBeTypeOf("function");
    expect((config.Token as Dict).rulerClass).toBeTypeOf("function");
    expect(stub.templatesLoaded).toContain("systems/fray/templates/dialog/attack-dialog.hbs");
  });

  it("UD-RND-01: the round length option sets CONFIG.time.roundTime", () => {
    expect(((stub.CONFIG as unknown as Dict).time as Dict).roundTime).toBe(10);
  });
});

describe("attack card buttons", () => {
  it("UD-REA-01 to UD-REA-03, UD-DMG-01 to UD-DMG-05: parry, damage, apply, undo, each once", async () => {
    const { ayla, bandit, banditToken } = world();
    stub.game.user.targets.add(banditToken);
    diceQueue.push(7, 5); // attack 7 + 6 + 1 = 14 against 13: hit; body zone 5: torso
    const outcome = await api().rollAttack({ actor: ayla, weaponId: "sword" });
    const message = outcome!.message;
    expect(system(message).targets).toHaveLength(1);
    expect(system(message).targets[0]).toMatchObject({
      hit: true,
      result: { hit: true, check: { total: 14 }, plan: { difficulty: { total: 13 } } },
      actorUuid: "Actor.bandit",
    });
    // UD-REA-04: the dodge is offered too (the allowDodge option is on by default).
    for (const action of ["parry", "dodge", "noReaction", "rollDamage"]) expect(message.content).toContain(`data-action="fray-${action}"`);
    const flow = api().flow;

    diceQueue.push(2); // parry 2 + 4 = 6: does not beat 14
    await flow.runCardAction(message, 0, "parry");
    expect(system(message).targets[0]!.result.reaction).toMatchObject({ id: "parry", check: { natural: 2, total: 6 }, success: false });
    expect(message.rolls).toHaveLength(3);
    expect(message.content).toContain(lookup(en, "FRAY.Reaction.parry"));
    await flow.runCardAction(message, 0, "parry");
    expect(stub.ui.notifications.messages.at(-1)?.level).toBe("error");

    diceQueue.push(6); // 2 + 6 = 8
    await flow.runCardAction(message, 0, "rollDamage");
    expect(system(message).targets[0]!.damage).toMatchObject({ amount: 8, roll: { dice: [{ results: [6] }] }, location: "torso" });
    expect(message.content).toContain('data-action="fray-applyDamage"');
    expect(message.content).not.toContain('data-action="fray-parry"');

    const expected = ud10.applyDamage(
      ud10CombatantFromActor(bandit.toObject() as never),
      { roll: { formula: "8", total: 8, dice: [], constant: 8 }, amount: 8, location: "torso", penetration: 0 },
      ud10.defaults(),
    );
    await flow.runCardAction(message, 0, "applyDamage");
    const applied = system(message).targets[0]!.applied!;
    expect(applied.after.hp.value).toBe(expected.after.hp!.value);
    expect(applied.after.ep.value).toBe(expected.after.ep!.value);
    expect((bandit.system as Dict as { hp: { value: number } }).hp.value).toBe(expected.after.hp!.value);
    expect((bandit.system as Dict as { ep: { value: number } }).ep.value).toBe(expected.after.ep!.value);
    expect(applied.steps.map((s) => s.rule)).toEqual(expected.steps.map((s) => s.rule));
    for (const rule of ["UD-ZON-01", "UD-DMG-03"]) expect(message.content).toContain(rule);

    const hpAfter = (bandit.system as Dict as { hp: { value: number } }).hp.value;
    await flow.runCardAction(message, 0, "applyDamage"); // a second click: refused, nothing changes
    expect((bandit.system as Dict as { hp: { value: number } }).hp.value).toBe(hpAfter);

    await flow.runCardAction(message, 0, "undoDamage");
    expect((bandit.system as Dict as { hp: { value: number } }).hp).toEqual({ value: 20, max: 20 });
    expect((bandit.system as Dict as { ep: { value: number } }).ep).toEqual({ value: 10, max: 10 });
    expect(system(message).targets[0]!.applied).toBeUndefined();
    expect(system(message).targets[0]!.undone).toBe(true);
    expect(message.content).toContain(lookup(en, "FRAY.Flow.Card.Undone"));
    expect(message.content).not.toMatch(/FRAY\./);
  });

  it("UD-DMG-02: a player who does not own the target applies through the active GM, who learns who asked from the server", async () => {
    const { ayla, bandit, banditToken } = world();
    stub.game.user.targets.add(banditToken);
    diceQueue.push(9, 5, 6);
    const { message } = (await api().rollAttack({ actor: ayla, weaponId: "sword" }))!;
    await api().flow.runCardAction(message, 0, "noReaction");
    await api().flow.runCardAction(message, 0, "rollDamage");
    ayla.ownership = { default: 0, p1: 3 };
    bandit.ownership = { default: 0 };
    stub.game.users.current = player;
    await api().flow.runCardAction(message, 0, "applyDamage");
    expect(queries.map((q) => [q.name, q.userId])).toEqual([["fray.applyDamage", "p1"]]);
    // The request names the card and the target, nothing the GM writes.
    expect(Object.keys(queries[0]!.data).sort()).toEqual(["index", "messageId"]);
    const applied = system(message).targets[0]!.applied!;
    expect(applied.userId).toBe("p1");
    const hpApplied = (bandit.system as Dict as { hp: { value: number } }).hp.value;
    expect(hpApplied).toBe(applied.after.hp.value);
    expect(hpApplied).toBeLessThan(20);
    // The answer is written back by the GM on the player's User and the request cleared.
    expect(player.getFlag("fray", "requests")).toEqual({});
    expect(Object.values(player.getFlag("fray", "answers") as Dict)).toMatchObject([{ ok: true }]);
    // A second request reaches the GM, who refuses it from the card's state; the player sees why.
    await api().flow.runCardAction(message, 0, "applyDamage");
    expect(queries).toHaveLength(2);
    expect(stub.ui.notifications.messages.at(-1)).toEqual({ level: "error", text: "Apply damage is no longer possible on this card." });
    expect((bandit.system as Dict as { hp: { value: number } }).hp.value).toBe(hpApplied);
  });

  it("UD-DMG-02: two quick Apply clicks on two cards reach the GM whole and both answers come back; a refusal repeated shows each time", async () => {
    const { ayla, bandit, thug, banditToken, thugToken } = world();
    const first = await damageCard(ayla, banditToken, [6]);
    const second = await damageCard(ayla, thugToken, [7]);
    ayla.ownership = { default: 0, p1: 3 };
    bandit.ownership = { default: 0 };
    thug.ownership = { default: 0 };
    stub.game.users.current = player;
    // The second click comes before the first is answered: its request is written while the first is still stored.
    await Promise.all([api().flow.runCardAction(first, 0, "applyDamage"), api().flow.runCardAction(second, 0, "applyDamage")]);
    expect(queries.map((q) => [q.name, Object.keys(q.data).sort()])).toEqual([
      ["fray.applyDamage", ["index", "messageId"]],
      ["fray.applyDamage", ["index", "messageId"]],
    ]);
    expect(system(first).targets[0]!.applied?.userId).toBe("p1");
    expect(system(second).targets[0]!.applied?.userId).toBe("p1");
    expect(vitalsOf(bandit).hp.value).toBe(system(first).targets[0]!.applied!.after.hp.value);
    expect(vitalsOf(thug).hp.value).toBe(system(second).targets[0]!.applied!.after.hp.value);
    expect(vitalsOf(bandit).hp.value).toBeLessThan(20);
    expect(vitalsOf(thug).hp.value).toBeLessThan(20);
    expect(stub.ui.notifications.messages).toEqual([]);
    // Two equal refusals in a row: the second answer equals the first and still reaches the player.
    await api().flow.runCardAction(first, 0, "applyDamage");
    await api().flow.runCardAction(first, 0, "applyDamage");
    const refused = { level: "error", text: "Apply damage is no longer possible on this card." };
    expect(stub.ui.notifications.messages).toEqual([refused, refused]);
    // Every request was removed by the GM once answered.
    expect(player.getFlag("fray", "requests")).toEqual({});
  });

  it("UD-DMG-01: a player who may not update the card sends the action and its dice; the GM computes the state through the core", async () => {
    const { ayla, bandit, banditToken } = world();
    stub.game.user.targets.add(banditToken);
    diceQueue.push(9, 5);
    const { message } = (await api().rollAttack({ actor: ayla, weaponId: "sword" }))!;
    ayla.ownership = { default: 0, p1: 3 };
    bandit.ownership = { default: 0, p1: 3 };
    stub.game.users.current = player;
    expect(message.isOwner).toBe(false);
    await api().flow.runCardAction(message, 0, "noReaction");
    diceQueue.push(10, 4);
    await api().flow.runCardAction(message, 0, "rollDamage");
    expect(queries.map((q) => q.name)).toEqual(["fray.cardUpdate", "fray.cardUpdate"]);
    // The user sends the action and the Rolls, never a state of its own.
    expect(queries.every((q) => !("next" in q.data))).toBe(true);
    const t = system(message).targets[0]!;
    expect(t.result.reaction).toBeUndefined();
    expect(t.damage).toMatchObject({ roll: { dice: [{ results: [10, 4] }] } });
    // A second damage roll is refused from the card's state; nothing changes.
    diceQueue.push(3);
    await api().flow.runCardAction(message, 0, "rollDamage");
    expect(system(message).targets[0]!.damage).toEqual(t.damage);
  });

  it("UD-REA-01: a player who owns neither side cannot press the defender's Parry", async () => {
    const { ayla, bandit, banditToken } = world();
    stub.game.user.targets.add(banditToken);
    diceQueue.push(9, 5);
    const { message } = (await api().rollAttack({ actor: ayla, weaponId: "sword" }))!;
    stub.game.user.isGM = false;
    (bandit as unknown as Dict).isOwner = false;
    await api().flow.runCardAction(message, 0, "parry");
    expect(system(message).targets[0]!.result.reaction).toBeUndefined();
    expect(stub.ui.notifications.messages.at(-1)).toEqual({ level: "warn", text: "“Parry” is not yours to press on this card." });
  });

  it("UD-ATK-02: one check per target, each with its own card section", async () => {
    const { ayla, banditToken, thugToken } = world();
    stub.game.user.targets.add(banditToken);
    stub.game.user.targets.add(thugToken);
    diceQueue.push(7, 5, 1);
    const outcome = await api().rollAttack({ actor: ayla, weaponId: "sword" });
    expect(outcome!.results.map((r) => r.hit)).toEqual([true, false]);
    expect(system(outcome!.message).targets.map((t) => t.name)).toEqual(["Bandit", "Thug"]);
    expect(outcome!.message.content.match(/class="fray-target /g)).toHaveLength(2);
    expect(outcome!.message.content).toContain("Ayla attacks Thug with Sabre");
  });

  it("UD-ACT-02, UD-REA-01: in combat the attack spends the action and the parry the reaction; a second attack is refused", async () => {
    const { ayla, bandit, aylaToken, banditToken } = world();
    const flags = startCombat([
      { id: "c1", actor: ayla, token: aylaToken },
      { id: "c2", actor: bandit, token: banditToken },
    ]);
    stub.game.user.targets.add(banditToken);
    diceQueue.push(7, 5);
    const { message } = (await api().rollAttack({ actor: ayla, weaponId: "sword" }))!;
    expect((flags.get("c1.economy") as { slots: Dict }).slots.action).toMatchObject({ used: 1 });
    diceQueue.push(3);
    await api().flow.runCardAction(message, 0, "parry");
    expect((flags.get("c2.economy") as { slots: Dict }).slots.reaction).toMatchObject({ used: 1 });
    const again = await api().rollAttack({ actor: ayla, weaponId: "sword" });
    expect(again).toBeUndefined();
    expect(stub.ui.notifications.messages.at(-1)?.text).toBe("Ayla has no action left this round.");
  });
});

/** A name a hostile player might give a token, and how it must reach HTML. */
const XSS = "<img src=x onerror=alert(1)>";
const ESCAPED = "&lt;img src=x onerror=alert(1)&gt;";

/** HP and EP of a stand-in actor. */
const vitalsOf = (a: unknown) =>
  (a as { system: unknown }).system as { hp: { value: number; max: number }; ep: { value: number; max: number } };

/** The update and flags of a stand-in actor of {@link actor}. */
const docOf = (a: unknown) => a as { update(changes: Dict): Promise<unknown>; getFlag(scope: string, key: string): unknown };

/** An attack by `attacker` on one token, taken to the damage phase by the GM (attack 9, zone 5: torso). */
async function damageCard(attacker: unknown, targetToken: unknown, damageFaces: number[]): Promise<Message> {
  const asBefore = stub.game.users.current;
  stub.game.users.current = gm;
  gm.targets.clear();
  gm.targets.add(targetToken);
  diceQueue.push(9, 5);
  const { message } = (await api().rollAttack({ actor: attacker, weaponId: "sword" }))!;
  await api().flow.runCardAction(message, 0, "noReaction");
  diceQueue.push(...damageFaces);
  await api().flow.runCardAction(message, 0, "rollDamage");
  gm.targets.clear();
  stub.game.users.current = asBefore;
  return message;
}

/**
 * Writes a request straight into a user's own User document, as a hostile client could from the
 * console, and waits for the active GM's answer there.
 */
async function rawRequest(as: StubUser, name: string, data: Dict): Promise<Dict> {
  const id = `forged${Math.floor(Math.random() * 1e9)}`;
  await stub.game.users.as(as, () => writeRequest(as, id, name, data));
  for (let i = 0; i < 500; i++) {
    const answer = storedAnswer(as, id);
    if (answer) return answer;
    await new Promise((r) => setTimeout(r, 1));
  }
  throw new Error("no answer");
}

/**
 * Registers hook handlers for one test and removes them after. The stand-in's `Hooks` has no
 * `call`; it gets Foundry's documented one: handlers in order, the first `false` stops the rest
 * and is returned.
 */
async function withHooks(handlers: Record<string, (...args: unknown[]) => unknown>, body: () => Promise<void>): Promise<void> {
  const hooks = stub.Hooks as unknown as {
    handlers: Map<string, { fn: (...a: unknown[]) => unknown; once: boolean }[]>;
    call?: (name: string, ...args: unknown[]) => boolean;
  };
  const hadCall = Boolean(hooks.call);
  hooks.call ??= (name, ...args) => {
    for (const h of [...(hooks.handlers.get(name) ?? [])]) if (h.fn(...args) === false) return false;
    return true;
  };
  for (const [name, fn] of Object.entries(handlers)) stub.Hooks.on(name, fn as never);
  try {
    await body();
  } finally {
    for (const [name, fn] of Object.entries(handlers)) {
      const list = hooks.handlers.get(name) ?? [];
      hooks.handlers.set(
        name,
        list.filter((h) => h.fn !== fn),
      );
    }
    if (!hadCall) delete hooks.call;
  }
}

describe("play pipeline hooks", () => {
  it("UD-ATK-02: a fray.preAttack handler returning false stops the attack before it pays or rolls; fray.attack sees the workflow and the outcome", async () => {
    const { ayla, banditToken } = world();
    stub.game.user.targets.add(banditToken);
    const seen: Dict[] = [];
    await withHooks(
      {
        "fray.preAttack": (w) => {
          seen.push(w as Dict);
          return false;
        },
      },
      async () => {
        diceQueue.push(9, 5);
        expect(await api().rollAttack({ actor: ayla, weaponId: "sword" })).toBeUndefined();
      },
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ stage: "stopped", choices: { targets: [banditToken.id] } });
    expect(messages).toHaveLength(0);
    expect(StubRoll.evaluated).toHaveLength(0);
    expect(diceQueue).toEqual([9, 5]);
    diceQueue.length = 0;

    const after: unknown[][] = [];
    await withHooks({ "fray.preAttack": () => true, "fray.attack": (...args) => void after.push(args) }, async () => {
      diceQueue.push(9, 5);
      const outcome = await api().rollAttack({ actor: ayla, weaponId: "sword" });
      expect(outcome?.message).toBeDefined();
      expect(after).toHaveLength(1);
      expect(after[0]![0]).toMatchObject({ stage: "done", message: outcome!.message });
      expect(after[0]![1]).toBe(outcome);
    });
  });

  it("UD-DMG-02: fray.preApplyDamage returning false stops the application; fray.applyDamage sees the core's report; fray.undoDamage follows the undo", async () => {
    const { ayla, bandit, banditToken } = world();
    const message = await damageCard(ayla, banditToken, [6]);
    const applied: Dict[] = [];
    const undone: Dict[] = [];
    await withHooks({ "fray.preApplyDamage": () => false }, async () => {
      await api().flow.runCardAction(message, 0, "applyDamage");
    });
    expect(vitalsOf(bandit).hp.value).toBe(20);
    expect(system(message).targets[0]!.applied).toBeUndefined();
    const expected = ud10.applyDamage(
      ud10CombatantFromActor(bandit.toObject() as never),
      system(message).targets[0]!.damage!,
      ud10.defaults(),
    );
    updates.length = 0;
    await withHooks(
      { "fray.applyDamage": (c) => void applied.push(c as Dict), "fray.undoDamage": (c) => void undone.push(c as Dict) },
      async () => {
        await api().flow.runCardAction(message, 0, "applyDamage");
        await api().flow.runCardAction(message, 0, "undoDamage");
      },
    );
    expect(applied).toHaveLength(1);
    expect(applied[0]).toMatchObject({ index: 0, userId: gm.id, report: { after: expected.after, steps: expected.steps } });
    expect(system(message).targets[0]!.report).toEqual(JSON.parse(JSON.stringify(expected)));
    // The vitals are written as the ruleset's nested update, with the floating numbers' options.
    const write = updates.find((u) => u.uuid === bandit.uuid)!;
    expect(write.changes).toMatchObject({ system: { hp: { value: expected.after.hp!.value }, ep: { value: expected.after.ep!.value } } });
    expect(write.options).toEqual({
      fray: { vitals: { before: JSON.parse(JSON.stringify(expected.before)), after: JSON.parse(JSON.stringify(expected.after)) } },
    });
    expect(undone).toHaveLength(1);
    expect(undone[0]).toMatchObject({ index: 0, after: { hp: { value: 20 }, ep: { value: 10 } } });
    expect(vitalsOf(bandit).hp.value).toBe(20);
  });
});

describe("authority: requests as a hostile player or a busy GM would send them", () => {
  it("UD-DMG-02: a request naming another user is judged by the writer the server reports, not by its fields", async () => {
    const { ayla, bandit, banditToken } = world();
    const message = await damageCard(ayla, banditToken, [6]);
    ayla.ownership = { default: 0 };
    bandit.ownership = { default: 0 };
    const answer = await rawRequest(player, "fray.applyDamage", {
      messageId: message.id,
      index: 0,
      userId: "gm",
      requester: { id: "gm", isGM: true },
    });
    expect(answer).toMatchObject({ ok: false, error: { key: "FRAY.Flow.Error.NotYours" } });
    expect(queries.at(-1)?.userId).toBe("p1");
    expect(vitalsOf(bandit).hp.value).toBe(20);
    expect(system(message).targets[0]!.applied).toBeUndefined();
  });

  it("UD-DMG-02: a request written on someone else's User is refused by the server, and one a GM writes on a player's User is ignored", async () => {
    const { ayla, bandit, banditToken } = world();
    const message = await damageCard(ayla, banditToken, [6]);
    await expect(
      stub.game.users.as(player, () => writeRequest(gm, "x1", "fray.applyDamage", { messageId: message.id, index: 0 })),
    ).rejects.toThrow(/permission/);
    await stub.game.users.as(gm2, () => writeRequest(player, "x2", "fray.applyDamage", { messageId: message.id, index: 0 }));
    await new Promise((r) => setTimeout(r, 20));
    expect(storedAnswer(player, "x2")).toBeUndefined();
    expect(vitalsOf(bandit).hp.value).toBe(20);
  });

  it("UD-DMG-04: HP, a before record and a target list in the payload are ignored; the GM writes what the core gives", async () => {
    const { ayla, bandit, banditToken } = world();
    const message = await damageCard(ayla, banditToken, [6]);
    ayla.ownership = { default: 0, p1: 3 };
    const expected = ud10.applyDamage(
      ud10CombatantFromActor(bandit.toObject() as never),
      { roll: { formula: "8", total: 8, dice: [], constant: 8 }, amount: 8, location: "torso", penetration: 0 },
      ud10.defaults(),
    );
    const answer = await rawRequest(player, "fray.applyDamage", {
      messageId: message.id,
      index: 0,
      hp: -50,
      before: { hp: { value: 999, max: 999 } },
      targets: ["Actor.thug"],
      amount: 99,
    });
    expect(answer).toMatchObject({ ok: true });
    expect(vitalsOf(bandit).hp.value).toBe(expected.after.hp!.value);
    expect(vitalsOf(bandit).ep.value).toBe(expected.after.ep!.value);
  });

  it("UD-DMG-01: an edited card (damage total, reaction success, attacker) is refused; nothing is applied", async () => {
    const { ayla, bandit, thug, banditToken } = world();
    ayla.ownership = { default: 0, p1: 3 };
    const message = await damageCard(ayla, banditToken, [6]);
    const t = system(message).targets[0]!;
    // The author edits their own card from the console.
    await message.update({ "system.targets": [{ ...t, damage: { ...t.damage!, amount: 99 } }] });
    await rawRequest(player, "fray.applyDamage", { messageId: message.id, index: 0 }).then((a) =>
      expect(a).toMatchObject({ ok: false, error: { key: "FRAY.Flow.Error.CardMismatch" } }),
    );
    const forged = {
      id: "parry",
      rule: "UD-REA-03",
      check: {
        roll: { formula: "1d10x10", total: 20, dice: [{ faces: 10, results: [10, 10] }], constant: 0 },
        natural: 20,
        modifiers: [],
        total: 20,
      },
      success: false,
      effect: "negate",
    };
    await message.update({ "system.targets": [{ ...t, reactedOnCard: true, result: { ...t.result, reaction: forged } }] });
    await rawRequest(player, "fray.applyDamage", { messageId: message.id, index: 0 }).then((a) =>
      expect(a).toMatchObject({ ok: false, error: { key: "FRAY.Flow.Error.CardMismatch" } }),
    );
    // A card speaking for an attacker its author does not own.
    (message as unknown as Dict).author = player;
    thug.ownership = { default: 0 };
    await message.update({ "system.attackerUuid": "Actor.thug", "system.targets": [t] });
    await rawRequest(player, "fray.applyDamage", { messageId: message.id, index: 0 }).then((a) =>
      expect(a).toMatchObject({ ok: false, error: { key: "FRAY.Flow.Error.CardForged" } }),
    );
    expect(vitalsOf(bandit).hp.value).toBe(20);
  });

  it("UD-REA-01: a card step for a target the player does not own is refused by the GM", async () => {
    const { ayla, bandit, banditToken } = world();
    gm.targets.add(banditToken);
    diceQueue.push(9, 5);
    const { message } = (await api().rollAttack({ actor: ayla, weaponId: "sword" }))!;
    bandit.ownership = { default: 0 };
    diceQueue.push(1);
    const answer = await rawRequest(player, "fray.cardUpdate", { messageId: message.id, index: 0, action: "parry", rolls: [] });
    expect(answer).toMatchObject({ ok: false, error: { key: "FRAY.Flow.Error.NotYours" } });
    expect(system(message).targets[0]!.result.reaction).toBeUndefined();
  });

  it("UD-DMG-02: two GM clients pressing Apply at once apply once", async () => {
    const { ayla, bandit, banditToken } = world();
    const message = await damageCard(ayla, banditToken, [6]);
    await Promise.all([
      stub.game.users.as(gm2, () => api().flow.runCardAction(message, 0, "applyDamage")),
      stub.game.users.as(gm, () => api().flow.runCardAction(message, 0, "applyDamage")),
    ]);
    const applied = system(message).targets[0]!.applied!;
    expect(vitalsOf(bandit).hp.value).toBe(applied.after.hp.value);
    expect(applied.after.hp.value).toBe(applied.before.hp.value - (applied.before.hp.value - applied.after.hp.value));
    expect(Object.keys((docOf(bandit).getFlag("fray", "ledger") as Dict) ?? {})).toHaveLength(1);
    expect(stub.ui.notifications.messages.filter((m) => m.level === "error")).toHaveLength(1);
    // The second GM's press went to the active GM as a request, with its own id.
    expect(queries.map((q) => q.userId)).toEqual(["gm2"]);
  });

  it("UD-DMG-04: undo in the other order keeps the newer hit; undo twice does nothing; an edited card cannot apply twice", async () => {
    const { ayla, bandit, banditToken } = world();
    const first = await damageCard(ayla, banditToken, [6]);
    const second = await damageCard(ayla, banditToken, [8]);
    await api().flow.runCardAction(first, 0, "applyDamage");
    await api().flow.runCardAction(second, 0, "applyDamage");
    const a = system(first).targets[0]!.applied!;
    const b = system(second).targets[0]!.applied!;
    const lossB = b.before.hp.value - b.after.hp.value;
    expect(lossB).toBeGreaterThan(0);
    await api().flow.runCardAction(first, 0, "undoDamage");
    expect(vitalsOf(bandit).hp.value).toBe(20 - lossB);
    // The author puts the card back to "applied" and asks again: the target's ledger says it is undone.
    await first.update({ "system.targets": [{ ...system(first).targets[0]!, applied: a }] });
    await api().flow.runCardAction(first, 0, "undoDamage");
    expect(vitalsOf(bandit).hp.value).toBe(20 - lossB);
    // ... and a card edited back to "damage" after its application is not applied again.
    const { applied: _b, ...unapplied } = system(second).targets[0]!;
    await second.update({ "system.targets": [unapplied] });
    await api().flow.runCardAction(second, 0, "applyDamage");
    expect(vitalsOf(bandit).hp.value).toBe(20 - lossB);
    await second.update({ "system.targets": [{ ...unapplied, applied: b }] });
    await api().flow.runCardAction(second, 0, "undoDamage");
    expect(vitalsOf(bandit).hp).toEqual({ value: 20, max: 20 });
    expect(vitalsOf(bandit).ep).toEqual({ value: 10, max: 10 });
  });

  it("UD-DMG-02: a card re-aimed at another actor after its application is not applied again: one attack, one victim", async () => {
    const { ayla, bandit, banditToken } = world();
    const jerkin = { ...bandit.toObject().items.find((i) => i._id === "jerkin")! };
    const twin = actor("twin", "Bandit Twin", "npc", { ...combatantSystem(3), group: "bandits" }, [sword, jerkin]);
    const twinToken = stubToken(twin, 2, 0);
    flowWorld.register(twinToken);
    const reaim = (m: Message) => {
      const { applied: _applied, report: _report, ...unapplied } = system(m).targets[0]!;
      return m.update({ "system.targets": [{ ...unapplied, actorUuid: twin.uuid, tokenUuid: twinToken.document.uuid, name: twin.name }] });
    };
    // A card aimed at the twin before any application applies to it: its dice follow against the twin too.
    const fresh = await damageCard(ayla, banditToken, [6]);
    await reaim(fresh);
    await api().flow.runCardAction(fresh, 0, "applyDamage");
    const twinHit = vitalsOf(twin).hp.value;
    expect(twinHit).toBeLessThan(20);
    // A card applied to the bandit, then re-aimed at the twin by its author, is refused.
    const message = await damageCard(ayla, banditToken, [6]);
    await api().flow.runCardAction(message, 0, "applyDamage");
    expect(vitalsOf(bandit).hp.value).toBeLessThan(20);
    await reaim(message);
    await api().flow.runCardAction(message, 0, "applyDamage");
    expect(vitalsOf(twin).hp.value).toBe(twinHit);
    expect(stub.ui.notifications.messages.at(-1)).toEqual({
      level: "error",
      text: "This attack was already applied to another actor; the GM refuses to apply it to Bandit Twin.",
    });
  });

  it("UD-DMG-04: HP never exceeds its maximum after healing in between; an edited before record changes nothing", async () => {
    const { ayla, bandit, banditToken } = world();
    const message = await damageCard(ayla, banditToken, [6]);
    await api().flow.runCardAction(message, 0, "applyDamage");
    const t = system(message).targets[0]!;
    await docOf(bandit).update({ "system.hp.value": 19 }); // healed by hand
    await message.update({
      "system.targets": [{ ...t, applied: { ...t.applied!, before: { ...t.applied!.before, hp: { value: 500, max: 500 } } } }],
    });
    await api().flow.runCardAction(message, 0, "undoDamage");
    expect(vitalsOf(bandit).hp).toEqual({ value: 20, max: 20 });
  });

  it("UD-DMG-04: statuses follow the vitals after undo: still at HP 0 or below stays incapacitated", async () => {
    const { ayla, bandit, banditToken } = world();
    await docOf(bandit).update({ "system.hp.value": 4 });
    const first = await damageCard(ayla, banditToken, [10, 9]); // 2 + 19 = 21
    const second = await damageCard(ayla, banditToken, [10, 9]);
    await api().flow.runCardAction(first, 0, "applyDamage");
    expect(bandit.statuses.has("incapacitated")).toBe(true);
    await api().flow.runCardAction(second, 0, "applyDamage");
    await api().flow.runCardAction(first, 0, "undoDamage");
    expect(vitalsOf(bandit).hp.value).toBeLessThanOrEqual(0);
    expect(bandit.statuses.has("incapacitated")).toBe(true);
    await api().flow.runCardAction(second, 0, "undoDamage");
    expect(vitalsOf(bandit).hp.value).toBe(4);
    expect(bandit.statuses.has("incapacitated")).toBe(false);
  });

  it("UD-ACT-01: a spend request for a foreign combatant, or with a cost of -5, never spends what was sent", async () => {
    const { ayla, bandit, aylaToken, banditToken } = world();
    const flags = startCombat([
      { id: "c1", actor: ayla, token: aylaToken },
      { id: "c2", actor: bandit, token: banditToken },
    ]);
    ayla.ownership = { default: 0, p1: 3 };
    bandit.ownership = { default: 0 };
    const foreign = await rawRequest(player, "fray.spend", { combatId: "combat1", combatantId: "c2", kind: "action", action: "attack" });
    expect(foreign).toMatchObject({ ok: false, error: { key: "FRAY.Flow.Error.NotYourCombatant" } });
    expect(flags.get("c2.economy")).toBeUndefined();
    const negative = await rawRequest(player, "fray.spend", {
      combatId: "combat1",
      combatantId: "c1",
      kind: "action",
      action: "reload",
      cost: { slots: { action: -5, movement: -5 } },
    });
    expect(negative).toMatchObject({ ok: true });
    const slots = (flags.get("c1.economy") as { slots: Record<string, { used: number }> }).slots;
    expect(slots.action!.used).toBe(1);
    expect(slots.movement!.used).toBe(0);
    const badMove = await rawRequest(player, "fray.spend", {
      combatId: "combat1",
      combatantId: "c1",
      kind: "move",
      move: { fromMetres: 5, toMetres: -20 },
    });
    expect(badMove).toMatchObject({ ok: false, error: { key: "FRAY.Error.Field", data: { field: "move" } } });
    const unknown = await rawRequest(player, "fray.spend", { combatId: "combat1", combatantId: "c1", kind: "refund" });
    expect(unknown).toMatchObject({ ok: false, error: { key: "FRAY.Error.Field", data: { field: "kind" } } });
  });

  it("UD-ATK-02, UD-ACT-02: a name like <img src=x onerror=alert(1)> reaches the card and the notifications as text", async () => {
    const { bandit, banditToken } = world();
    const evil = actor("evil", XSS, "character", combatantSystem(6));
    const evilToken = stubToken(evil, 2, 0);
    docs.set(evilToken.document.uuid, { ...evilToken.document, object: evilToken, actor: evil, isOwner: true });
    const flags = startCombat([
      { id: "c1", actor: evil, token: evilToken },
      { id: "c2", actor: bandit, token: banditToken },
    ]);
    gm.targets.add(banditToken);
    diceQueue.push(9, 5);
    const { message } = (await api().rollAttack({ actor: evil, weaponId: "sword" }))!;
    expect(message.content).not.toContain("<img");
    // Handlebars escapes `=` too.
    expect(message.content).toContain("&lt;img src&#x3D;x onerror&#x3D;alert(1)&gt;");
    expect((flags.get("c1.economy") as { slots: Dict }).slots.action).toMatchObject({ used: 1 });
    await (api().flow as unknown as { takeAction(a: unknown, action: string): Promise<unknown> }).takeAction(evil, "reload");
    const warning = stub.ui.notifications.messages.at(-1)!;
    expect(warning.level).toBe("warn");
    expect(warning.text).not.toContain("<img");
    expect(warning.text).toContain(ESCAPED);
  });

  it("UD-DMG-02: an unknown request is refused and a request with a malformed id is ignored", async () => {
    const { ayla, bandit, banditToken } = world();
    const message = await damageCard(ayla, banditToken, [6]);
    expect(await rawRequest(player, "fray.setHp", { actorUuid: "Actor.bandit", hp: 0 })).toMatchObject({
      ok: false,
      error: { key: "FRAY.Flow.Error.Refused" },
    });
    await stub.game.users.as(player, () => writeRequest(player, "../../x", "fray.applyDamage", { messageId: message.id, index: 0 }));
    await new Promise((r) => setTimeout(r, 20));
    expect(system(message).targets[0]!.applied).toBeUndefined();
    expect(vitalsOf(bandit).hp.value).toBe(20);
  });

  it("with no GM connected a player's apply is refused with a notification", async () => {
    const { ayla, bandit, banditToken } = world();
    const message = await damageCard(ayla, banditToken, [6]);
    gm.active = false;
    gm2.active = false;
    stub.game.users.current = player;
    await api().flow.runCardAction(message, 0, "applyDamage");
    gm.active = true;
    expect(stub.ui.notifications.messages.at(-1)).toMatchObject({ level: "error", text: lookup(en, "FRAY.Flow.Error.NoGM") });
    expect(vitalsOf(bandit).hp.value).toBe(20);
  });
});

describe("actions of the round (UD-ACT-02)", () => {
  type Handler = (this: unknown, event: unknown, target: unknown) => Promise<void>;
  interface SheetClass {
    new (options: { document: unknown }): unknown;
    DEFAULT_OPTIONS: { actions: Record<string, Handler> };
  }
  /** Presses a button of the actor's sheet: its `data-action` handler with a button carrying `dataset`. */
  async function press(actor: unknown, action: string, dataset: Record<string, string>) {
    const Sheet = stub.actors.registrations[0]!.sheetClass as SheetClass;
    const button = { dataset, closest: () => ({ dataset }) };
    await Sheet.DEFAULT_OPTIONS.actions[action]!.call(new Sheet({ document: actor }), {}, button);
  }
  /** Puts the actors in the active combat; each combatant keeps its economy in a flag. */
  function inCombat(...actors: { id: string; token: { id: string } }[]) {
    const flags = startCombat(actors.map((a, i) => ({ id: `c${i + 1}`, actor: a, token: a.token })));
    return (id: string) => (flags.get(`${id}.economy`) as { slots: Record<string, { used: number }> } | undefined)?.slots;
  }

  it("the sheet registers the Actions row's handler; macros get takeAction and toggleSlotOn on game.fray.flow", () => {
    const Sheet = stub.actors.registrations[0]!.sheetClass as SheetClass;
    expect(Sheet.DEFAULT_OPTIONS.actions.roundAction).toBeTypeOf("function");
    expect((api().flow as unknown as Dict).takeAction).toBeTypeOf("function");
    expect((api().flow as unknown as Dict).toggleSlotOn).toBeTypeOf("function");
  });

  it("outside combat an action only posts its chat line", async () => {
    const { ayla } = world();
    await press(ayla, "roundAction", { roundAction: "reload" });
    expect(messages).toHaveLength(1);
    expect(messages[0]!.content).toContain("Ayla takes an action: Reload");
    expect(messages[0]!.content).toContain("UD-ACT-02");
    expect(messages[0]!.content).not.toContain("fray-action-spent");
    expect(stub.ui.notifications.messages).toEqual([]);
  });

  it("in combat a reload spends the action; a second action and an attack are refused with a warning", async () => {
    const { ayla, aylaToken, bandit, banditToken } = world();
    const slots = inCombat({ ...ayla, id: ayla.id, token: aylaToken } as never, { ...bandit, id: bandit.id, token: banditToken } as never);
    await press(ayla, "roundAction", { roundAction: "reload" });
    expect(slots("c1")).toMatchObject({ action: { used: 1 }, movement: { used: 0 }, reaction: { used: 0 } });
    expect(messages).toHaveLength(1);
    expect(messages[0]!.content).toContain("Ayla takes an action: Reload");
    expect(messages[0]!.content).toContain(lookup(en, "FRAY.Flow.Action.Spent"));

    await press(ayla, "roundAction", { roundAction: "useItem" });
    expect(messages).toHaveLength(1);
    expect(stub.ui.notifications.messages.at(-1)).toEqual({ level: "warn", text: "Ayla has no action left this round." });
    expect(slots("c1")!.action!.used).toBe(1);

    stub.game.user.targets.add(banditToken);
    expect(await api().rollAttack({ actor: ayla, weaponId: "sword" })).toBeUndefined();
    expect(stub.ui.notifications.messages.at(-1)?.text).toBe("Ayla has no action left this round.");
    expect(slots("c2")).toBeUndefined();
  });

  it("UD-ATK-04: aiming is an action of the sheet; it sets the aim, and the next round's shot spends it", async () => {
    const { ayla, aylaToken, bandit, banditToken } = world();
    const statuses = ayla.statuses as Set<string>;
    (ayla as unknown as Dict).toggleStatusEffect = async (id: string, o: { active: boolean }) =>
      o.active ? statuses.add(id) : statuses.delete(id);
    const flags = startCombat([
      { id: "c1", actor: ayla, token: aylaToken },
      { id: "c2", actor: bandit, token: banditToken },
    ]);
    await press(ayla, "roundAction", { roundAction: "aim" });
    expect([...statuses]).toContain("aiming1");
    expect((flags.get("c1.economy") as { slots: Dict }).slots.action).toMatchObject({ used: 1 });
    // The next round: a fresh economy; the shot spends the action and the aim.
    flags.delete("c1.economy");
    stub.game.user.targets.add(banditToken);
    await api().rollAttack({ actor: ayla, weaponId: "sword" });
    expect((flags.get("c1.economy") as { slots: Dict }).slots.action).toMatchObject({ used: 1 });
    expect([...statuses]).not.toContain("aiming1");
  });

  it("a skill roll in combat is the skill action: it spends the action, then further skill rolls are refused", async () => {
    const { ayla, aylaToken } = world();
    const slots = inCombat({ ...ayla, id: ayla.id, token: aylaToken } as never);
    diceQueue.push(4);
    await press(ayla, "rollSkill", { skill: "melee" });
    expect(slots("c1")!.action!.used).toBe(1);
    expect(messages).toHaveLength(1);
    expect((messages[0] as unknown as { flavor: string }).flavor).toContain("UD-ACT-02");
    expect(StubRoll.evaluated).toHaveLength(1);

    await press(ayla, "rollSkill", { skill: "ranged" });
    expect(StubRoll.evaluated).toHaveLength(1);
    expect(messages).toHaveLength(1);
    expect(stub.ui.notifications.messages.at(-1)).toEqual({ level: "warn", text: "Ayla has no action left this round." });

    // A Parry rolled from the sheet is a reaction, not the skill action (UD-REA-01): it still rolls.
    diceQueue.push(6);
    await press(ayla, "rollSkill", { skill: "parry" });
    expect(StubRoll.evaluated).toHaveLength(2);
    expect(slots("c1")!.action!.used).toBe(1);
    expect((messages[1] as unknown as { flavor: string }).flavor).not.toContain("UD-ACT-02");
  });

  it("outside combat a skill roll spends nothing and is not marked as an action", async () => {
    const { ayla } = world();
    await press(ayla, "rollSkill", { skill: "melee" });
    expect(messages).toHaveLength(1);
    expect((messages[0] as unknown as { flavor: string }).flavor).not.toContain("UD-ACT-02");
  });
});

describe("combat tracker", () => {
  function tracker() {
    const { ayla, bandit, thug } = world();
    const Combat = (stub.CONFIG as unknown as { Combat: { documentClass: new () => BaseCombat & Dict } }).Combat.documentClass;
    const combat = new Combat();
    const entry = (id: string, a: unknown) => ({ id, name: (a as Dict).name, actor: a, initiative: null, flags: {} });
    for (const [id, a] of [
      ["c1", ayla],
      ["c2", bandit],
      ["c3", thug],
    ] as const)
      combat.combatants.set(id, entry(id, a));
    // Foundry's collections iterate their documents, not [id, document] pairs.
    Object.defineProperty(combat.combatants, Symbol.iterator, {
      value: function* () {
        yield* combat.combatants.values();
      },
    });
    return combat;
  }

  it("UD-INI-01, UD-INI-02: the group option gives the bandits one shared roll; one summary message", async () => {
    await stub.game.settings.set("fray", "ud10-npcInitiative", "group");
    const combat = tracker();
    diceQueue.push(4, 8);
    await (combat as unknown as { rollInitiative(ids: string[]): Promise<unknown> }).rollInitiative(["c1", "c2", "c3"]);
    const updates = combat.embedded[0] as { _id: string; initiative: number }[];
    expect(Object.fromEntries(updates.map((u) => [u._id, u.initiative]))).toEqual({ c1: 7, c2: 11, c3: 11 });
    expect(messages).toHaveLength(1);
    expect(messages[0]!.content).toContain("Bandit, Thug");
  });

  it("UD-INI-01: rollInitiative honours a given formula (one roll each, no groups) and the summary's message options", async () => {
    await stub.game.settings.set("fray", "ud10-npcInitiative", "group");
    const combat = tracker();
    diceQueue.push(5, 2);
    await (combat as unknown as { rollInitiative(ids: string[], o: Dict): Promise<unknown> }).rollInitiative(["c2", "c3"], {
      formula: "1d6 + 10",
      messageOptions: { flavor: "Ambush", rollMode: "gmroll" },
    });
    const updates = combat.embedded[0] as { _id: string; initiative: number }[];
    expect(Object.fromEntries(updates.map((u) => [u._id, u.initiative]))).toEqual({ c2: 15, c3: 12 });
    expect(messages).toHaveLength(1);
    // The stand-in's applyRollMode records the mode it was given.
    expect(messages[0]).toMatchObject({ flavor: "Ambush", rollMode: "gmroll" });
  });

  it("UD-INI-01, UD-ACT-01: a new round re-rolls everyone in the same update and resets each economy", async () => {
    const combat = tracker();
    diceQueue.push(1, 2, 3);
    const changed: Dict = { round: 2 };
    await (combat as unknown as { _preUpdate(c: Dict, o: Dict, u: unknown): Promise<unknown> })._preUpdate(changed, {}, {});
    const rows = changed.combatants as Dict[];
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      // Nested objects, not dotted keys, and stamped with the new round.
      expect(Object.keys(row).some((k) => k.includes("."))).toBe(false);
      expect((row.flags as { fray: Dict }).fray.economy).toMatchObject({ round: 2, slots: { action: { used: 0 }, reaction: { used: 0 } } });
      expect(row.initiative).toBeTypeOf("number");
    }
    expect(changed.turn).toBe(0);
  });

  it("UD-INI-03: with carry-over the round only resets the economy", async () => {
    await stub.game.settings.set("fray", "ud10-initiativeCarryOver", true);
    const combat = tracker();
    const changed: Dict = { round: 2 };
    await (combat as unknown as { _preUpdate(c: Dict, o: Dict, u: unknown): Promise<unknown> })._preUpdate(changed, {}, {});
    expect((changed.combatants as Dict[]).every((r) => r.initiative === undefined && (r.flags as { fray: Dict }).fray.economy)).toBe(true);
    expect(messages).toHaveLength(0);
  });
});

describe("token movement", () => {
  it("UD-MOV-01 to UD-MOV-03: the ruler colours by band (STR 5: standard 10 m, full 20 m)", () => {
    const { aylaToken } = world();
    const Ruler = (stub.CONFIG as unknown as { Token: { rulerClass: new (t: unknown) => BaseRuler } }).Token.rulerClass;
    const ruler = new Ruler(aylaToken);
    const colour = (cost: number) => ruler._getSegmentStyle({ measurement: { cost } } as never).color;
    expect(colour(1.5)).toBe(BAND_COLOURS.step);
    expect(colour(9)).toBe(BAND_COLOURS.standard);
    expect(colour(19.5)).toBe(BAND_COLOURS.full);
    expect(colour(21)).toBe(BAND_COLOURS.beyond);
    expect((ruler._getGridHighlightStyle as (w: unknown, o: unknown) => Dict)({ measurement: { cost: 12 } }, {})).toMatchObject({
      color: BAND_COLOURS.full,
      alpha: 0.5,
    });
  });

  it("UD-MOV-03: with the refuse setting a move past full movement is refused with a notification", async () => {
    const { ayla, aylaToken } = world();
    await stub.game.settings.set("fray", "beyondFullMovement", "refuse");
    const list = [
      { id: "c1", tokenId: aylaToken.id, actor: ayla, isOwner: true, getFlag: () => undefined, setFlag: async () => undefined },
    ];
    (stub.game as unknown as Dict).combat = { started: true, round: 1, combatants: Object.assign(list, { get: () => list[0] }) };
    const doc = {
      id: aylaToken.id,
      uuid: aylaToken.document.uuid,
      name: "Ayla",
      x: 0,
      y: 0,
      width: 1,
      height: 1,
      disposition: 1,
      actor: ayla,
    };
    const move = (metres: number) => ({
      origin: { x: 0, y: 0 },
      destination: { x: (metres / 1.5) * 100, y: 0 },
      passed: { cost: metres },
      pending: { cost: 0 },
    });
    expect(api().flow.onPreMoveToken(doc, move(18))).toBeUndefined();
    expect(api().flow.onPreMoveToken(doc, move(24))).toBe(false);
    expect(stub.ui.notifications.messages.at(-1)).toEqual({
      level: "warn",
      text: "Ayla cannot move 24 m this round: full movement is 20 m.",
    });
    await stub.game.settings.set("fray", "beyondFullMovement", "show");
    expect(api().flow.onPreMoveToken(doc, move(24))).toBeUndefined();
  });
});

describe("leaving melee", () => {
  function engagedWorld() {
    const { ayla, bandit, thug, aylaToken, banditToken, thugToken } = world();
    const tokenDoc = (t: typeof aylaToken, disposition: number) => ({
      id: t.id,
      uuid: t.document.uuid,
      name: t.name,
      x: t.center.x - 50,
      y: t.center.y - 50,
      width: 1,
      height: 1,
      disposition,
      actor: t.actor,
    });
    const docsById = { ayla: tokenDoc(aylaToken, 1), bandit: tokenDoc(banditToken, -1), thug: tokenDoc(thugToken, -1) };
    const flags = startCombat([
      { id: "c1", actor: ayla, token: docsById.ayla },
      { id: "c2", actor: bandit, token: docsById.bandit },
      { id: "c3", actor: thug, token: docsById.thug },
    ]);
    return { docsById, flags };
  }

  const api = (stub: FoundryStub) =>
    (stub.game.fray as { flow: { onMoveToken(doc: unknown, movement: unknown, op: unknown, user: unknown): Promise<void> } }).flow;
  const dialogs = (answer: string) => {
    const apps = ((globalThis as Dict).foundry as { applications: { api: Dict } }).applications.api;
    apps.DialogV2 = { wait: async () => answer };
    return () => delete apps.DialogV2;
  };

  it("UD-OPT-01: fleeing from two engaged opponents posts a free-attack prompt for each; UD-MOV-02 the move spends the movement", async () => {
    const { docsById, flags } = engagedWorld();
    const restore = dialogs("flee");
    try {
      const movement = { origin: { x: 0, y: 0 }, destination: { x: 0, y: 400 }, passed: { cost: 6 }, pending: { cost: 0 } };
      await api(stub).onMoveToken(docsById.ayla, movement, {}, { id: "gm" });
    } finally {
      restore();
    }
    const prompt = messages.at(-1)!;
    expect(
      (prompt.flags as { fray: { freeAttack: { attackers: { name: string }[] } } }).fray.freeAttack.attackers.map((a) => a.name),
    ).toEqual(["Bandit", "Thug"]);
    expect(prompt.content).toContain('data-action="fray-freeAttack"');
    expect(prompt.content).toContain("UD-OPT-01");
    expect((flags.get("c1.economy") as { slots: Dict }).slots.movement).toMatchObject({ used: 1 });
    expect(flags.get("c1.moved")).toEqual({ round: 1, metres: 6, paid: { slots: { movement: 1 } } });
  });

  it("UD-OPT-01: a player's move passed with the GM's revert option (from the console) still flees: free attacks posted, movement spent", async () => {
    const { docsById, flags } = engagedWorld();
    const restore = dialogs("flee");
    try {
      const movement = { origin: { x: 0, y: 0 }, destination: { x: 0, y: 400 }, passed: { cost: 6 }, pending: { cost: 0 } };
      // The user who moved is this client's, not a GM: the option counts for nothing.
      await api(stub).onMoveToken(docsById.ayla, movement, { fray: { revert: true } }, { id: stub.game.user.id, isGM: false });
    } finally {
      restore();
    }
    const prompt = messages.at(-1)!;
    expect(
      (prompt.flags as { fray?: { freeAttack?: { attackers: { name: string }[] } } }).fray?.freeAttack?.attackers.map((a) => a.name),
    ).toEqual(["Bandit", "Thug"]);
    expect((flags.get("c1.economy") as { slots: Dict }).slots.movement).toMatchObject({ used: 1 });
  });

  it("UD-OPT-02: retreating spends the round's movement, action and reaction", async () => {
    const { docsById, flags } = engagedWorld();
    const restore = dialogs("retreat");
    try {
      await api(stub).onMoveToken(
        docsById.ayla,
        { origin: { x: 0, y: 0 }, destination: { x: 0, y: 400 }, passed: { cost: 6 } },
        {},
        { id: "gm" },
      );
    } finally {
      restore();
    }
    expect((flags.get("c1.economy") as { slots: Dict }).slots).toMatchObject({
      movement: { used: 1 },
      action: { used: 1 },
      reaction: { used: 1 },
    });
    expect(messages.at(-1)!.content).toContain("UD-OPT-02");
  });

  it("UD-OPT-02: a token named like HTML reaches the retreat dialog and its chat line as text", async () => {
    const { docsById } = engagedWorld();
    docsById.ayla.name = XSS;
    const apps = ((globalThis as Dict).foundry as { applications: { api: Dict } }).applications.api;
    let content = "";
    apps.DialogV2 = {
      wait: async (options: { content: string }) => {
        content = options.content;
        return "retreat";
      },
    };
    try {
      await api(stub).onMoveToken(
        docsById.ayla,
        { origin: { x: 0, y: 0 }, destination: { x: 0, y: 400 }, passed: { cost: 6 } },
        {},
        { id: "gm" },
      );
    } finally {
      delete apps.DialogV2;
    }
    for (const html of [content, messages.at(-1)!.content]) {
      expect(html).not.toContain("<img");
      expect(html).toContain(ESCAPED);
    }
  });

  it("UD-MOV-03: moving on past standard movement spends the action too; nothing is asked when no opponent is left behind", async () => {
    const { docsById, flags } = engagedWorld();
    const restore = dialogs("flee");
    try {
      // Only Ayla is in this combat: nobody is engaged, so no Flee or Retreat is asked.
      (stub.game as unknown as { combat: { combatants: Dict[] } }).combat.combatants.splice(1, 2);
      await api(stub).onMoveToken(
        docsById.ayla,
        { origin: { x: 0, y: 0 }, destination: { x: 0, y: 400 }, passed: { cost: 6 } },
        {},
        { id: "gm" },
      );
      await api(stub).onMoveToken(
        docsById.ayla,
        { origin: { x: 0, y: 400 }, destination: { x: 0, y: 1000 }, passed: { cost: 9 } },
        {},
        { id: "gm" },
      );
    } finally {
      restore();
    }
    expect((flags.get("c1.economy") as { slots: Dict }).slots).toMatchObject({ movement: { used: 1 }, action: { used: 1 } });
    expect(flags.get("c1.moved")).toEqual({ round: 1, metres: 15, paid: { slots: { movement: 1, action: 1 } } });
    expect(messages).toHaveLength(0);
  });

  it("UD-MOV-03: a full move made in two drags in round 2 spends the action, whatever round 1's movement paid", async () => {
    const { docsById, flags } = engagedWorld();
    const combat = (stub.game as unknown as { combat: { round: number; combatants: Dict[] } }).combat;
    combat.combatants.splice(1, 2);
    const move = (from: number, to: number, metres: number) =>
      api(stub).onMoveToken(
        docsById.ayla,
        { origin: { x: 0, y: from }, destination: { x: 0, y: to }, passed: { cost: metres } },
        {},
        { id: "gm" },
      );
    await move(0, 1000, 15);
    expect(flags.get("c1.moved")).toEqual({ round: 1, metres: 15, paid: { slots: { movement: 1, action: 1 } } });
    combat.round = 2;
    flags.delete("c1.economy");
    await move(1000, 600, 6);
    expect(flags.get("c1.moved")).toEqual({ round: 2, metres: 6, paid: { slots: { movement: 1 } } });
    await move(600, 0, 9);
    expect(flags.get("c1.moved")).toEqual({ round: 2, metres: 15, paid: { slots: { movement: 1, action: 1 } } });
    expect((flags.get("c1.economy") as { slots: Dict }).slots).toMatchObject({ movement: { used: 1 }, action: { used: 1 } });
  });

  it("UD-MOV-02: a stopped and continued movement counts only what each part passed, not what was still pending", async () => {
    const { docsById, flags } = engagedWorld();
    (stub.game as unknown as { combat: { combatants: Dict[] } }).combat.combatants.splice(1, 2);
    // The first part passes 3 m with 3 m still pending; the continuation then passes those 3 m.
    await api(stub).onMoveToken(
      docsById.ayla,
      { origin: { x: 0, y: 0 }, destination: { x: 0, y: 200 }, passed: { cost: 3 }, pending: { cost: 3 } },
      {},
      { id: "gm" },
    );
    expect(flags.get("c1.moved")).toMatchObject({ metres: 3 });
    await api(stub).onMoveToken(
      docsById.ayla,
      { origin: { x: 0, y: 200 }, destination: { x: 0, y: 400 }, passed: { cost: 3 }, pending: { cost: 0 } },
      {},
      { id: "gm" },
    );
    expect(flags.get("c1.moved")).toEqual({ round: 1, metres: 6, paid: { slots: { movement: 1 } } });
    expect((flags.get("c1.economy") as { slots: Dict }).slots).toMatchObject({ movement: { used: 1 }, action: { used: 0 } });
  });
});

/** The buttons of a card's content as fake elements, one row per target. */
function cardElement(content: string): FakeElement {
  const root = new FakeElement("div");
  const rows = new Map<string, FakeElement>();
  for (const m of content.matchAll(/<button type="button" data-action="(fray-\w+)" data-target-index="(\d+)"/g)) {
    let row = rows.get(m[2]!);
    if (!row) {
      row = new FakeElement("div", ["fray-card-buttons"]);
      rows.set(m[2]!, row);
      root.append(row);
    }
    const button = new FakeElement("button");
    button.dataset = { action: m[1]!, targetIndex: m[2]! };
    row.append(button);
  }
  return root;
}

describe("card buttons per user (renderChatMessageHTML)", () => {
  const render = (message: Message, element: FakeElement) => {
    for (const h of stub.Hooks.handlers.get("renderChatMessageHTML") ?? []) h.fn(message, element);
  };

  it("UD-REA-01: the defender's owner keeps Parry, Dodge and No reaction; the attacker's Roll damage is removed", async () => {
    const { ayla, banditToken } = world();
    stub.game.user.targets.add(banditToken);
    diceQueue.push(9, 5);
    const { message } = (await api().rollAttack({ actor: ayla, weaponId: "sword" }))!;
    stub.game.user.isGM = false;
    (ayla as unknown as Dict).isOwner = false;
    const element = cardElement(message.content);
    render(message, element);
    expect(element.querySelectorAll("button").map((b) => b.dataset.action)).toEqual(["fray-parry", "fray-dodge", "fray-noReaction"]);
  });

  it("UD-OPT-01: a player's own free-attack prompt naming their own actor offers them no attack; the opponent's owner keeps theirs", async () => {
    const { ayla, bandit } = world();
    ayla.ownership = { default: 0, p1: 3 };
    bandit.ownership = { default: 0, p1: 3 };
    const prompt = {
      moverTokenUuid: "Scene.s1.Token.token-thug",
      moverName: "Thug",
      attackers: [
        { actorUuid: "Actor.ayla", tokenUuid: "Scene.s1.Token.token-ayla", name: "Ayla" },
        { actorUuid: "Actor.bandit", tokenUuid: "Scene.s1.Token.token-bandit", name: "Bandit" },
      ],
    };
    const element = () => {
      const root = new FakeElement("div");
      const row = new FakeElement("div", ["fray-card-buttons"]);
      root.append(row);
      for (const i of [0, 1]) {
        const b = new FakeElement("button");
        b.dataset = { action: "fray-freeAttack", index: String(i) };
        row.append(b);
      }
      return root;
    };
    // Posted by the player, who owns both: no free attack for their own actors.
    const forged = { id: "fa1", type: "base", author: player, flags: { fray: { freeAttack: prompt } } } as unknown as Message;
    stub.game.users.current = player;
    const mine = element();
    render(forged, mine);
    expect(mine.querySelectorAll("button")).toHaveLength(0);
    // Posted by the GM (a mover the GM controls): the player keeps the buttons of actors they own.
    const real = { ...forged, author: gm } as unknown as Message;
    const theirs = element();
    render(real, theirs);
    expect(theirs.querySelectorAll("button").map((b) => b.dataset.index)).toEqual(["0", "1"]);
  });

  it("a click disables the row at once and runs the action once; the GM sees every button", async () => {
    const { ayla, banditToken } = world();
    stub.game.user.targets.add(banditToken);
    diceQueue.push(9, 5);
    const { message } = (await api().rollAttack({ actor: ayla, weaponId: "sword" }))!;
    const element = cardElement(message.content);
    render(message, element);
    const buttons = element.querySelectorAll("button");
    expect(buttons.map((b) => b.dataset.action)).toEqual(["fray-parry", "fray-dodge", "fray-noReaction", "fray-rollDamage"]);
    const decline = buttons[2]!;
    decline.click();
    decline.click();
    expect(buttons.every((b) => b.disabled)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(system(message).targets[0]!.reactionDeclined).toBe(true);
    expect(stub.ui.notifications.messages).toEqual([]);
  });
});

describe("combat tracker pips (renderCombatTracker)", () => {
  /** A tracker with one combatant row; the combatant keeps its economy in a flag. */
  function trackerRow(economy: Dict) {
    const flags: Dict = { economy: structuredClone(economy) };
    const combatant = {
      id: "c1",
      isOwner: true,
      getFlag: (_s: string, k: string) => flags[k],
      setFlag: async (_s: string, k: string, v: unknown) => (flags[k] = mergedFlag(flags[k], v)),
    };
    const row = new FakeElement("li");
    row.dataset = { combatantId: "c1" };
    const name = new FakeElement("div", ["token-name"]);
    row.append(name);
    const html = new FakeElement("ol").append(row);
    for (const h of stub.Hooks.handlers.get("renderCombatTracker") ?? []) h.fn({ viewed: { combatants: { get: () => combatant } } }, html);
    return { flags, row, name };
  }
  const spentAction = {
    slots: { movement: { used: 0, max: 1 }, action: { used: 1, max: 1 }, reaction: { used: 0, max: 1 }, free: { used: 0, max: null } },
    pools: {},
  };
  /** A click event on a pip of a slot, as the row's listener receives it. */
  const clickOn = (slot: string) => {
    let stopped = false;
    const pip = { dataset: { fraySlot: slot }, closest: () => pip };
    return { event: { target: pip, preventDefault() {}, stopPropagation: () => (stopped = true) }, stopped: () => stopped };
  };

  it("UD-ACT-01, UD-REA-01: movement, action and reaction pips; spent ones hollow; a player's are not buttons", () => {
    stub.game.user.isGM = false;
    const { name, row } = trackerRow(spentAction);
    expect(name.html).toContain('class="fray-pip fray-pip-movement ready"');
    expect(name.html).toContain('class="fray-pip fray-pip-action spent"');
    expect(name.html).toContain('class="fray-pip fray-pip-reaction ready"');
    expect(name.html).not.toContain("fray-pip-free");
    expect(name.html).toContain(`data-tooltip="${lookup(en, "FRAY.Slot.action")}"`);
    expect(name.html).not.toContain("data-fray-slot");
    expect(row.listeners).toHaveLength(0);
  });

  it("UD-ACT-01, UD-REA-01: the GM clicks a pip to mark its slot unused or used, through the economy store", async () => {
    const { name, row, flags } = trackerRow(spentAction);
    for (const slot of ["movement", "action", "reaction"]) expect(name.html).toContain(`data-fray-slot="${slot}"`);
    expect(name.html).toContain('role="button"');
    expect(name.html).toContain(
      `data-tooltip="${lookup(en, "FRAY.Flow.Tracker.Toggle")!.replace("{slot}", lookup(en, "FRAY.Slot.action")!)}"`,
    );
    expect(row.listeners).toHaveLength(1);
    const click = async (slot: string) => {
      const c = clickOn(slot);
      row.listeners[0]!(c.event as never);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return c;
    };
    const first = await click("action");
    expect(first.stopped()).toBe(true);
    const slots = () => (flags.economy as { slots: Record<string, { used: number }> }).slots;
    expect(slots().action!.used).toBe(0);
    await click("reaction");
    expect(slots().reaction!.used).toBe(1);
    await click("action");
    expect(slots().action!.used).toBe(1);
    expect(slots().movement!.used).toBe(0);
    expect(stub.ui.notifications.messages).toEqual([]);
  });

  it("a player who reaches the store directly is refused with a warning; nothing changes", async () => {
    const { row, flags } = trackerRow(spentAction);
    stub.game.user.isGM = false;
    row.listeners[0]!(clickOn("action").event as never);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((flags.economy as { slots: Record<string, { used: number }> }).slots.action!.used).toBe(1);
    expect(stub.ui.notifications.messages.at(-1)).toEqual({ level: "warn", text: lookup(en, "FRAY.Flow.Tracker.GMOnly") });
  });
});

describe("attack dialog", () => {
  it("UD-ATK-02, UD-COV-01, UD-DEF-01: the dialog's choices reach the card; the odds update as options change", async () => {
    const { ayla, banditToken, thugToken } = world();
    stub.game.user.targets.add(banditToken);
    stub.game.user.targets.add(thugToken);
    const apps = ((globalThis as Dict).foundry as { applications: { api: Dict } }).applications.api;
    let content = "";
    let oddsBefore = "";
    let oddsAfter = "";
    const values: Record<string, { checked?: boolean; value?: string }> = {
      [`target-${banditToken.id}`]: { checked: true },
      [`target-${thugToken.id}`]: { checked: false },
      [`situation.${banditToken.id}.cover`]: { value: "0" },
      "situation.misc": { value: "0" },
      declared: { value: "parry" },
    };
    const form = Object.assign(new FakeElement("form"), { elements: { namedItem: (name: string) => values[name] ?? null } });
    const odds = new FakeElement("output");
    odds.dataset = { oddsFor: banditToken.id };
    Object.assign(odds, { textContent: "" });
    form.append(odds);
    const element = new FakeElement("div").append(form);
    apps.DialogV2 = {
      wait: async (config: {
        content: string;
        render(e: unknown, d: unknown): void;
        buttons: { callback?(e: unknown, b: unknown): unknown }[];
      }) => {
        content = config.content;
        config.render(null, { element });
        oddsBefore = (odds as unknown as { textContent: string }).textContent;
        values[`situation.${banditToken.id}.cover`] = { value: "2" };
        values[`situation.${banditToken.id}.immobilized`] = { checked: false };
        form.listeners.length = 0;
        config.render(null, { element });
        for (const fn of form.listeners) fn({ preventDefault() {} });
        oddsAfter = (odds as unknown as { textContent: string }).textContent;
        return config.buttons[0]!.callback!(null, { form });
      },
    };
    try {
      diceQueue.push(9, 5);
      const outcome = await api().rollAttack({ actor: ayla, weaponId: "sword" });
      expect(content).toContain(`name="target-${banditToken.id}"`);
      // Generated from UD10's situation fields; the declared reaction names the core's rule of the parry.
      for (const rule of ["UD-ATK-03", "UD-DEF-01", "UD-ATK-04", "UD-COV-01", "UD-REA-02"]) expect(content).toContain(rule);
      for (const name of [`situation.${banditToken.id}.cover`, `situation.${thugToken.id}.cover`, "situation.misc"])
        expect(content).toContain(`name="${name}"`);
      expect(content).not.toMatch(/FRAY\./);
      expect(oddsBefore).toBe("");
      // d10 + 7 against 13 + cover 2 = 15: 30 % to hit; through a parry (d10 + 4) less.
      expect(oddsAfter).toMatch(/^30\.0% to hit, \d+\.\d% through a Parry \(modifier 7 vs\. difficulty 15\)$/);
      expect(system(outcome!.message).targets.map((t) => t.name)).toEqual(["Bandit"]);
      expect(system(outcome!.message).targets[0]).toMatchObject({
        hit: true,
        result: { check: { total: 16 }, plan: { difficulty: { total: 15 } } },
      });
      expect(outcome!.message.content).toContain("UD-COV-01");
    } finally {
      delete apps.DialogV2;
    }
  });
});

describe("range and firing mode through the dialog (UD-RNG-01, UD-RNG-02)", () => {
  const rifle = {
    _id: "rifle",
    name: "Rifle",
    type: "weapon",
    system: {
      kind: "ranged",
      attackModifier: 0,
      damage: "4+2d10",
      penetration: 0,
      rangeIncrement: 50,
      modes: [{ id: "burst", label: "Burst", damage: "6+3d10", attackModifier: -1, shots: 3 }],
      canParry: false,
      shield: false,
      description: "",
    },
  };

  it("a target 120 m away (80 squares of 1.5 m) gets -2 in the dialog's odds and on the card; Burst changes the card's line and the damage rolled", async () => {
    const shooter = actor("shooter", "Ayla", "character", combatantSystem(6), [rifle]);
    const { bandit } = world();
    const shooterToken = stubToken(shooter, 0, 0);
    const farToken = stubToken(bandit, 80, 0);
    stub.game.user.targets.add(farToken);
    const apps = ((globalThis as Dict).foundry as { applications: { api: Dict } }).applications.api;
    let content = "";
    let oddsAfter = "";
    const values: Record<string, { checked?: boolean; value?: string }> = {
      [`target-${farToken.id}`]: { checked: true },
      [`situation.${farToken.id}.cover`]: { value: "0" },
      "situation.misc": { value: "0" },
      modeId: { value: "" },
    };
    const form = Object.assign(new FakeElement("form"), { elements: { namedItem: (name: string) => values[name] ?? null } });
    const odds = Object.assign(new FakeElement("output"), { textContent: "" });
    odds.dataset = { oddsFor: farToken.id };
    form.append(odds);
    const element = new FakeElement("div").append(form);
    apps.DialogV2 = {
      wait: async (config: {
        content: string;
        render(e: unknown, d: unknown): void;
        buttons: { callback?(e: unknown, b: unknown): unknown }[];
      }) => {
        content = config.content;
        config.render(null, { element });
        values.modeId = { value: "burst" };
        for (const fn of form.listeners) fn({ preventDefault() {} });
        oddsAfter = odds.textContent;
        return config.buttons[0]!.callback!(null, { form });
      },
    };
    try {
      diceQueue.push(10, 5); // the attack d10, then the body zone 5 (torso)
      const outcome = await api().rollAttack({ actor: shooter, weaponId: "rifle", token: shooterToken });
      // The dialog: the range measured between the tokens and the odds with the -2.
      expect(content).toContain("120.0");
      const before = /(\d+\.\d)% to hit \(modifier (-?\d+) vs\. difficulty (\d+)\)/.exec(content)!;
      const after = /(\d+\.\d)% to hit \(modifier (-?\d+) vs\. difficulty (\d+)\)/.exec(oddsAfter)!;
      // Untrained Ranged Combat: DEX 6; range -2 (UD-RNG-01); Burst -1 (UD-RNG-02).
      expect(Number(before[2])).toBe(6 - 2);
      expect(Number(after[2])).toBe(6 - 2 - 1);
      const message = outcome!.message;
      expect(system(message).modeId).toBe("burst");
      expect(system(message).targets[0]!.request.distanceMetres).toBe(120);
      expect(message.content).toContain("Range 120 m (increment 50 m)");
      expect(message.content).toContain("UD-RNG-01");
      expect(message.content).toContain("Firing mode: Burst");
      expect(message.content).toContain("UD-RNG-02");
      expect(message.content).toContain("(Burst)");
      diceQueue.push(2, 3, 4);
      await api().flow.runCardAction(message, 0, "noReaction");
      await api().flow.runCardAction(message, 0, "rollDamage");
      expect(system(message).targets[0]!.damage).toMatchObject({ roll: { formula: "3d10x10 + 6" }, amount: 6 + 2 + 3 + 4 });
    } finally {
      delete apps.DialogV2;
    }
  });

  it("without a mode the weapon's own damage code is rolled and no mode line is shown", async () => {
    const shooter = actor("shooter", "Ayla", "character", combatantSystem(6), [rifle]);
    const { bandit } = world();
    const shooterToken = stubToken(shooter, 0, 0);
    const farToken = stubToken(bandit, 80, 0);
    stub.game.user.targets.add(farToken);
    diceQueue.push(10, 5);
    const outcome = await api().rollAttack({ actor: shooter, weaponId: "rifle", token: shooterToken, skipDialog: true });
    const message = outcome!.message;
    expect(message.content).toContain("Range 120 m (increment 50 m)");
    expect(message.content).not.toContain("UD-RNG-02");
    diceQueue.push(2, 3);
    await api().flow.runCardAction(message, 0, "noReaction");
    await api().flow.runCardAction(message, 0, "rollDamage");
    expect(system(message).targets[0]!.damage).toMatchObject({ roll: { formula: "2d10x10 + 4" }, amount: 4 + 2 + 3 });
  });
});
