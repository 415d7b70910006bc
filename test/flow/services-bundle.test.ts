/**
 * The play services wired in the built bundle, inside the typed Foundry stand-in: a weapon
 * dropped on the hotbar makes one attack macro that attacks with it (UD-ATK-01), a vitals change
 * carried by an actor update floats over the token in the client's language (UD-DMG-02), an
 * effect started with a delay is enabled and later deleted on round changes by the active GM
 * only (HB-RND-02), and the `game.fray` API refuses bad plain data with a localized error naming
 * the field before anything is rolled or written.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  ROOT,
  StubChatMessage,
  StubI18n,
  StubRoll,
  diceQueue,
  installFoundryStub,
  installServiceStubs,
  lookup,
  readLang,
  stubActor,
  stubToken,
  type FoundryStub,
  type ServiceStubs,
  type StubUser,
} from "../support/foundry-stub.js";
import { combatantSystem } from "../support/actors.js";

const BUNDLE = join(ROOT, "dist", "fray.mjs");
const en = readLang("en");

type Dict = Record<string, unknown>;

interface FrayApi {
  rollAttack(request: unknown): Promise<{ results: { hit: boolean }[]; message: { system: Dict } } | undefined>;
  rollItemMacro(uuid: unknown): Promise<unknown>;
  startEffect(actor: unknown, start: unknown, combat?: unknown): Promise<true | undefined>;
  optionValues(id?: unknown): Dict;
}

let stub: FoundryStub;
let services: ServiceStubs;
const docs = new Map<string, unknown>();

beforeAll(async () => {
  if (!existsSync(BUNDLE)) throw new Error(`dist/fray.mjs is missing: run "npm run build" first.`);
  stub = installFoundryStub("en");
  services = installServiceStubs(stub);
  const foundry = (globalThis as Dict).foundry as Dict;
  foundry.utils = {
    ...(foundry.utils as object),
    fromUuid: async (uuid: string) => docs.get(uuid) ?? null,
    fromUuidSync: (uuid: string) => docs.get(uuid) ?? null,
  };
  await import(pathToFileURL(BUNDLE).href);
  for (const hook of ["init", "i18nInit", "setup", "ready"]) stub.Hooks.callAll(hook);
});

beforeEach(() => {
  StubChatMessage.created.length = 0;
  StubRoll.evaluated.length = 0;
  stub.ui.notifications.messages.length = 0;
  stub.game.user.targets.clear();
  services.macros.length = 0;
  services.hotbar.length = 0;
  services.scrolling.length = 0;
  docs.clear();
});

const api = () => stub.game.fray as FrayApi;

/** Calls every handler of a hook and returns what each returned (`Hooks.call` stops on false). */
function callHook(name: string, ...args: unknown[]): unknown[] {
  return (stub.Hooks.handlers.get(name) ?? []).map((h) => h.fn(...args));
}

/** Lets the handlers a hook started without awaiting them finish. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 0));
}

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
const vest = {
  _id: "vest",
  name: "Vest",
  type: "armor",
  system: { zones: { torso: { rating: 2, buffer: 1 } }, equipped: true, description: "" },
};

/** Ayla (with a sabre and a vest, both findable by UUID) and a targeted bandit. */
function world() {
  const ayla = stubActor({ _id: "ayla", name: "Ayla", type: "character", system: combatantSystem(6), items: [sword, vest] });
  const bandit = stubActor({ _id: "bandit", name: "Bandit", type: "npc", system: combatantSystem(3), items: [] });
  const aylaToken = stubToken(ayla, 0, 0);
  const banditToken = stubToken(bandit, 1, 0);
  for (const item of ayla.items) {
    const doc = { ...item, uuid: `Actor.ayla.Item.${item.id}`, actor: ayla };
    docs.set(doc.uuid, doc);
  }
  docs.set("Item.loose", { id: "loose", uuid: "Item.loose", name: "Loose Sabre", type: "weapon", img: null });
  stub.game.user.targets.add(banditToken);
  return { ayla, bandit, aylaToken, banditToken };
}

describe("hotbar macros", () => {
  it("UD-ATK-01: a dropped weapon makes one macro; a second drop reuses it; the macro attacks with that weapon", async () => {
    world();
    const drop = { type: "Item", uuid: "Actor.ayla.Item.sword" };
    expect(callHook("hotbarDrop", {}, drop, 3)).toEqual([false]);
    await settle();
    expect(services.macros).toHaveLength(1);
    const macro = services.macros[0]!;
    expect(macro).toMatchObject({ name: "Sabre", type: "script", command: 'game.fray.rollItemMacro("Actor.ayla.Item.sword");' });
    expect(services.hotbar).toEqual([{ user: "gm", macro, slot: 3 }]);

    expect(callHook("hotbarDrop", {}, drop, 5)).toEqual([false]);
    await settle();
    expect(services.macros).toHaveLength(1);
    expect(services.hotbar.at(-1)).toEqual({ user: "gm", macro, slot: 5 });

    // The macro's script, run as Foundry runs a script macro, attacks with the sabre.
    diceQueue.push(10, 1);
    const run = new Function("game", `return ${macro.command}`) as (game: unknown) => Promise<unknown>;
    await run(stub.game);
    expect(StubChatMessage.created).toHaveLength(1);
    expect(StubChatMessage.created[0]!.system).toMatchObject({ weaponId: "sword", weaponName: "Sabre", attackerUuid: "Actor.ayla" });
    expect(stub.ui.notifications.messages).toEqual([]);
  });

  it("a drop that is not an actor's weapon is left to Foundry, without an error: a weapon of a compendium or the Items sidebar", async () => {
    world();
    // A compendium weapon resolves at once to its index entry (`fromUuidSync`): a type, no actor.
    docs.set("Compendium.fray.ud10-weapons.Item.axe", {
      _id: "axe",
      uuid: "Compendium.fray.ud10-weapons.Item.axe",
      name: "Axe",
      type: "weapon",
      img: null,
    });
    expect(callHook("hotbarDrop", {}, { type: "Item", uuid: "Actor.ayla.Item.vest" }, 1)).toEqual([true]);
    expect(callHook("hotbarDrop", {}, { type: "Actor", uuid: "Actor.ayla" }, 1)).toEqual([true]);
    expect(callHook("hotbarDrop", {}, { type: "Item", uuid: "Compendium.fray.ud10-weapons.Item.axe" }, 1)).toEqual([true]);
    // An item that does not resolve at once keeps Foundry's own macro too.
    expect(callHook("hotbarDrop", {}, { type: "Item", uuid: "Compendium.fray.ud10-weapons.Item.x" }, 1)).toEqual([true]);
    expect(callHook("hotbarDrop", {}, { type: "Item", uuid: "Item.loose" }, 1)).toEqual([true]);
    await settle();
    expect(services.macros).toEqual([]);
    expect(stub.ui.notifications.messages).toEqual([]);
  });

  it("a player dropping the weapon of an actor they do not own gets no macro", async () => {
    const { ayla } = world();
    const pat = stub.game.users.get("p9") ?? stub.game.users.add("p9", "Pip");
    ayla.ownership = { default: 0 };
    expect(stub.game.users.as(pat, () => callHook("hotbarDrop", {}, { type: "Item", uuid: "Actor.ayla.Item.sword" }, 2))).toEqual([false]);
    await settle();
    expect(services.macros).toEqual([]);
    expect(stub.ui.notifications.messages).toEqual([{ level: "error", text: lookup(en, "FRAY.Macro.NotOwned") }]);
  });

  it("a macro whose weapon is gone, or called with no UUID text, shows a localized error and rolls nothing", async () => {
    world();
    await api().rollItemMacro("Actor.ayla.Item.gone");
    await api().rollItemMacro(42);
    expect(StubRoll.evaluated).toHaveLength(0);
    expect(StubChatMessage.created).toHaveLength(0);
    expect(stub.ui.notifications.messages.map((m) => m.text)).toEqual([
      lookup(en, "FRAY.Macro.WeaponGone"),
      'Field "uuid": expected a text.',
    ]);
  });
});

describe("floating numbers", () => {
  const before = { hp: { value: 20, max: 20 }, ep: { value: 10, max: 10 }, conditions: [] };
  const after = { hp: { value: 15, max: 20 }, ep: { value: 10, max: 10 }, conditions: [] };

  it("UD-DMG-02: an updateActor carrying fray.vitals floats the change over the token, in the client's language", () => {
    const { ayla, aylaToken } = world();
    callHook("updateActor", ayla, { system: { hp: { value: 15 } } }, { fray: { vitals: { before, after } } }, "gm");
    expect(services.scrolling).toHaveLength(1);
    expect(services.scrolling[0]).toMatchObject({ point: aylaToken.center, text: "\u22125 HP" });

    const english = stub.game.i18n;
    (stub.game as { i18n: StubI18n }).i18n = new StubI18n(readLang("de"), "de");
    try {
      callHook("updateActor", ayla, {}, { fray: { vitals: { before, after } } }, "gm");
    } finally {
      (stub.game as { i18n: StubI18n }).i18n = english;
    }
    expect(services.scrolling[1]!.text).toBe("\u22125 LP");
  });

  it("an update without vitals, or with unchanged vitals, floats nothing", () => {
    const { ayla } = world();
    callHook("updateActor", ayla, { name: "Ayla B" }, {}, "gm");
    callHook("updateActor", ayla, {}, { fray: { vitals: { before, after: before } } }, "gm");
    expect(services.scrolling).toEqual([]);
  });
});

/** An ActiveEffect of the stand-in. */
interface Effect {
  id: string;
  name: string;
  disabled: boolean;
  duration: Dict;
  flags: Dict;
  getFlag(scope: string, key: string): unknown;
  update(data: Dict): Promise<Effect>;
  delete(): Promise<void>;
}

/** An actor holding ActiveEffects, recording who wrote them. */
function effectHolder() {
  const effects: Effect[] = [];
  const writes: string[] = [];
  const holder = {
    effects,
    writes,
    async createEmbeddedDocuments(_type: string, data: Dict[]) {
      for (const d of data) {
        const effect: Effect = {
          ...(structuredClone(d) as unknown as Effect),
          id: `e${effects.length + 1}`,
          getFlag: (scope, key) => ((effect.flags[scope] as Dict | undefined) ?? {})[key],
          async update(changes) {
            writes.push(`update:${stub.game.user.id}`);
            Object.assign(effect, changes);
            return effect;
          },
          async delete() {
            writes.push(`delete:${stub.game.user.id}`);
            effects.splice(effects.indexOf(effect), 1);
          },
        };
        effects.push(effect);
      }
      return effects;
    },
  };
  return holder;
}

describe("the effect service", () => {
  let player: StubUser;
  let gm2: StubUser;
  beforeAll(() => {
    player = stub.game.users.add("p1", "Pat");
    gm2 = stub.game.users.add("gm2", "Second GM", true);
  });

  it("HB-RND-02: an effect started with a delay is enabled on its round and deleted when it has run out, by the active GM only", async () => {
    const holder = effectHolder();
    const combat = { id: "c1", round: 3, turn: 0, turns: [{}], combatants: [{ actor: holder }] };
    expect(await api().startEffect(holder, { name: "Rally", rounds: 1, delayRounds: 1, statuses: ["rallied"] }, combat)).toBe(true);
    expect(holder.effects).toHaveLength(1);
    expect(holder.effects[0]).toMatchObject({
      name: "Rally",
      disabled: true,
      statuses: ["rallied"],
      duration: { combat: "c1", rounds: 1 },
    });

    // Every connected client sees the round change; only the active GM ("gm") writes.
    combat.round = 4;
    stub.game.users.broadcast("updateCombat", combat, { round: 4 }, {}, "gm");
    await settle();
    expect(holder.effects[0]!.disabled).toBe(false);
    expect(holder.writes).toEqual(["update:gm"]);

    // A change that is neither round nor turn ticks nothing.
    combat.round = 5;
    stub.game.users.broadcast("updateCombat", combat, { active: true }, {}, "gm");
    await settle();
    expect(holder.effects).toHaveLength(1);

    stub.game.users.broadcast("updateCombat", combat, { round: 5 }, {}, "gm");
    await settle();
    expect(holder.effects).toHaveLength(0);
    expect(holder.writes).toEqual(["update:gm", "delete:gm"]);
    expect([player.id, gm2.id]).not.toContain(holder.writes[1]!.split(":")[1]);
  });

  it("a bad effect start shows a localized error naming the field and creates nothing", async () => {
    const holder = effectHolder();
    const combat = { id: "c1", round: 1, turn: 0, turns: [{}], combatants: [{ actor: holder }] };
    expect(await api().startEffect(holder, { name: "Rally", rounds: -1 }, combat)).toBeUndefined();
    expect(await api().startEffect(holder, { name: "Rally", rounds: 1 })).toBeUndefined();
    expect(await api().startEffect({}, { name: "Rally", rounds: 1 }, combat)).toBeUndefined();
    expect(holder.effects).toEqual([]);
    expect(stub.ui.notifications.messages.map((m) => m.text)).toEqual([
      'Field "start.rounds": expected a whole number from 0 to 1000.',
      'Field "combat": expected a combat (start one first).',
      'Field "actor": expected an actor.',
    ]);
  });
});

describe("the game.fray API boundary", () => {
  it("UD-ATK-01: a well-formed request attacks; form texts in the situation become numbers", async () => {
    const { ayla } = world();
    diceQueue.push(10, 1);
    const outcome = await api().rollAttack({ actor: ayla, weaponId: "sword", situation: { misc: "2" } });
    expect(outcome?.results).toHaveLength(1);
    expect(StubChatMessage.created).toHaveLength(1);
  });

  it("bad plain data gets a localized error naming the field; nothing is rolled or posted", async () => {
    const { ayla, banditToken } = world();
    const bad: [unknown, string][] = [
      [null, 'Field "request": expected a mapping of named values.'],
      [{ actor: ayla, weaponId: "sword", wepaon: "x" }, 'Field "wepaon" is not known'],
      [{ actor: { name: "Ayla" }, weaponId: "sword" }, 'Field "actor": expected an actor.'],
      [{ actor: ayla, weaponId: 7 }, 'Field "weaponId": expected a text.'],
      [{ actor: ayla, weaponId: "sword", target: "bandit" }, 'Field "target": expected a token.'],
      [{ actor: ayla, weaponId: "sword", targets: [banditToken, 3] }, 'Field "targets": expected a list of tokens.'],
      [{ actor: ayla, weaponId: "sword", skipDialog: "yes" }, 'Field "skipDialog": expected true or false.'],
      [{ actor: ayla, weaponId: "sword", reaction: "run" }, 'Field "reaction"'],
      [{ actor: ayla, weaponId: "sword", situation: { misc: "lots" } }, 'Field "situation.misc"'],
      [{ actor: ayla, weaponId: "sword", situation: { aim: 1 } }, 'Field "situation.aim"'],
    ];
    for (const [request, text] of bad) {
      stub.ui.notifications.messages.length = 0;
      expect(await api().rollAttack(request), JSON.stringify(text)).toBeUndefined();
      expect(stub.ui.notifications.messages).toHaveLength(1);
      expect(stub.ui.notifications.messages[0]!.level).toBe("error");
      expect(stub.ui.notifications.messages[0]!.text).toContain(text);
    }
    expect(StubRoll.evaluated).toHaveLength(0);
    expect(StubChatMessage.created).toHaveLength(0);
  });

  it("optionValues refuses an id that is not a ruleset, naming the field", () => {
    expect(() => api().optionValues("constructor")).toThrow();
    expect(stub.ui.notifications.messages.at(-1)?.text).toContain('Field "ruleset"');
    expect(api().optionValues("ud10")).toEqual(api().optionValues());
  });
});
