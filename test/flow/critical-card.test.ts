/**
 * Critical played through the built bundle in the typed Foundry stand-in: a Critical world raises
 * no warning; the attack card shows the open-ended roll, the attack table row read against the
 * defender's armor and the code, then the critical rolled on its table with the wound text and a
 * link to the table; Apply (through the active GM, recomputed from the card's dice) writes hits,
 * bleeding, stun and penalties onto the actor; Undo takes all of it back; a fumble ends the
 * attacker's round; a world table flagged with a table key replaces the built-in one. The duel of
 * `examples/critical-duel.yaml` is replayed card by card with its scripted dice and gives the
 * encounter runner's numbers.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ContentIndex } from "../../src/encounter/content.js";
import { playEncounter } from "../../src/encounter/engine.js";
import { parseEncounter } from "../../src/encounter/schema.js";
import { ROOT, StubChatMessage, diceQueue, lookup, readLang, type FoundryStub, type StubUser } from "../support/foundry-stub.js";
import { FlowWorld, type CardApi, type CardMessage, type Dict } from "../support/flow-world.js";
import { combatOf as combatOfIn, criticalActor, criticalOptions, pressButton } from "../support/flow-critical.js";

const en = readLang("en");

type Message = CardMessage;
type FrayApi = CardApi;

const flowWorld = new FlowWorld<Message>(criticalOptions());
const { messages, queries } = flowWorld;
let stub: FoundryStub;
let gm: StubUser;
let player: StubUser;

beforeAll(async () => {
  ({ stub, gm, player } = await flowWorld.boot());
});

const api = () => flowWorld.api<FrayApi>();

/** An actor of the stand-in with a token, both registered by UUID. */
const actor = (id: string, file: string, name?: string, system: Dict = {}) => criticalActor(flowWorld, id, file, name, system);

/** Kara (the example's Sword Fighter) with 20 OB held back as parry against the guard's token, and the Pistol Guard. */
function duel() {
  const guard = actor("guard", "Pistol_Guard_fRc2NpcPistolGrd.json");
  const kara = actor("kara", "Sword_Fighter_fRc2NpcSwordFtr0.json", "Kara Voss", { parry: { [guard.token.id]: 20 } });
  return { kara, guard };
}

const SWORD = "fRc2SwordFtItm10";
const PISTOL = "fRc2PistolGItm10";
type Vitals = { hits: { value: number; max: number }; stun: number; effects: Dict[] };
const vitalsOf = (a: unknown) => (a as { system: Vitals }).system;

/** The vitals after each application of the example's encounter run, in order (`hits` events). */
async function encounterHits(): Promise<{ actor: string; vitals: { hp: { value: number }; stun: number; effects: Dict[] } }[]> {
  const file = parse(readFileSync(join(ROOT, "examples", "critical-duel.yaml"), "utf8")) as Dict;
  const result = await playEncounter(parseEncounter(file), new ContentIndex(join(ROOT, "packs", "_source")));
  return result.events
    .filter((e) => e.type === "custom" && e.kind === "hits")
    .map((e) => (e as { data: unknown }).data as Awaited<ReturnType<typeof encounterHits>>[number]);
}

beforeEach(() => {
  flowWorld.reset();
  flowWorld.resetUsers();
  StubChatMessage.created.length = 0;
  (stub.game as unknown as Dict).tables = [];
});

describe("a Critical world", () => {
  it("CR-ATK-01: raises no warning at ready and plays attacks (the binding is implemented)", async () => {
    const binding = (stub.game.fray as { registry: { get(id: string): { implemented: boolean } } }).registry.get("critical")!;
    expect(binding.implemented).toBe(true);
    const { kara, guard } = duel();
    diceQueue.push(50);
    const outcome = await api().rollAttack({
      actor: kara.actor,
      weaponId: SWORD,
      token: kara.token,
      target: guard.token,
      skipDialog: true,
    });
    expect(stub.ui.notifications.messages).toEqual([]);
    expect(outcome?.message.system.ruleset).toBe("critical");
  });
});

describe("the duel of examples/critical-duel.yaml, card by card", () => {
  it("CR-ATK-01, CR-ATK-02, CR-ATK-04, CR-PAR-02, CR-CRT-02, CR-BLD-01, CR-STN-02: round 1's three attacks give the encounter runner's vitals", async () => {
    const expected = await encounterHits();
    const { kara, guard } = duel();
    const flow = api().flow;

    // The guard's first shot: 45 + 55 OB - 15 DB - 10 parry (20 OB at 2:1 against a pistol) = 75: 9 hits.
    diceQueue.push(45);
    const first = (await api().rollAttack({
      actor: guard.actor,
      weaponId: PISTOL,
      token: guard.token,
      target: kara.token,
      skipDialog: true,
    }))!.message;
    const t1 = first.system.targets[0]!;
    expect(t1.result).toMatchObject({ hits: 9, detail: { total: 75, armorType: "rigid", code: { code: "9" } } });
    expect(t1.result.plan.difficulty.modifiers).toContainEqual(
      expect.objectContaining({ label: "FRAY.Mod.Parry", value: 10, rule: "CR-PAR-02" }),
    );
    expect(first.content).toContain(lookup(en, "FRAY.Critical.Card.TakeHits"));
    await flow.runCardAction(first, 0, "rollDamage");
    await flow.runCardAction(first, 0, "applyDamage");
    expect(vitalsOf(kara.actor).hits.value).toBe(expected[0]!.vitals.hp.value);
    // The card names the track as Critical does: hits, not HP (CR-ATK-02).
    expect(first.content).toMatch(new RegExp(`fray-vitals">[^<]*${lookup(en, "FRAY.Flow.Card.Hits")} \\d+/\\d+`));
    expect(first.content).not.toMatch(/fray-vitals">[^<]*HP /);

    // The second shot: 70 + 40 = 100 on the pistol table: 13BP; Puncture B critical 30.
    diceQueue.push(70);
    const second = (await api().rollAttack({
      actor: guard.actor,
      weaponId: PISTOL,
      token: guard.token,
      target: kara.token,
      skipDialog: true,
    }))!.message;
    expect(second.system.targets[0]!.result).toMatchObject({ hits: 13, critical: "BP" });
    expect(second.content).toContain("13BP");
    diceQueue.push(30);
    await flow.runCardAction(second, 0, "rollDamage");
    expect(second.content).toContain("The point slides between two ribs, shallow.");
    await flow.runCardAction(second, 0, "applyDamage");
    expect(vitalsOf(kara.actor).hits.value).toBe(expected[1]!.vitals.hp.value);
    expect(vitalsOf(kara.actor).stun).toBe(expected[1]!.vitals.stun);
    expect(vitalsOf(kara.actor).effects).toEqual(expected[1]!.vitals.effects);

    // Kara's cut goes open-ended: 98 + 37 = 135, + 55 OB - 5 DB = 185: 23EP, +3 to the critical; Puncture E, 4 + 3 = 7.
    diceQueue.push(98, 37);
    const cut = (await api().rollAttack({ actor: kara.actor, weaponId: SWORD, token: kara.token, target: guard.token, skipDialog: true }))!
      .message;
    const t3 = cut.system.targets[0]!;
    expect(t3.result).toMatchObject({
      check: { natural: 135 },
      detail: { total: 185, openEnded: true, critBonus: 3, code: { code: "23EP" } },
    });
    expect(cut.content).toContain("23EP");
    expect(cut.content).toContain("98 + 37");
    expect(cut.content).toContain("CR-ATK-04");
    diceQueue.push(4);
    await flow.runCardAction(cut, 0, "rollDamage");
    expect(cut.system.targets[0]!.damage).toMatchObject({ critical: { unmodified: 4, bonus: 3, value: 7, severity: "E", type: "P" } });
    expect(cut.content).toContain("A deep stab between the ribs.");
    expect(cut.content).toContain('data-uuid="Compendium.fray.critical-tables.RollTable.fRc3CritTablePE0"');
    await flow.runCardAction(cut, 0, "applyDamage");
    expect(vitalsOf(guard.actor).hits.value).toBe(expected[2]!.vitals.hp.value);
    expect(vitalsOf(guard.actor).stun).toBe(expected[2]!.vitals.stun);
    expect(vitalsOf(guard.actor).effects).toEqual(expected[2]!.vitals.effects);
    for (const m of [first, second, cut]) {
      expect(m.content).not.toMatch(/FRAY\./);
      // The parry is declared before the attack (CR-PAR-01): the card offers none.
      expect(m.content).not.toContain('data-action="fray-parry"');
    }
  });
});

describe("apply and undo", () => {
  it("CR-CRT-02, CR-STN-02, CR-BLD-01: undo takes back the hits, the stun, the bleeding wound and the penalty; a second undo changes nothing", async () => {
    const { kara, guard } = duel();
    diceQueue.push(98, 37);
    const { message } = (await api().rollAttack({
      actor: kara.actor,
      weaponId: SWORD,
      token: kara.token,
      target: guard.token,
      skipDialog: true,
    }))!;
    diceQueue.push(4);
    await api().flow.runCardAction(message, 0, "rollDamage");
    await api().flow.runCardAction(message, 0, "applyDamage");
    expect(vitalsOf(guard.actor)).toMatchObject({ hits: { value: 9 }, stun: 3 });
    expect(vitalsOf(guard.actor).effects.map((e) => e.kind)).toEqual(["bleed", "penalty"]);
    await api().flow.runCardAction(message, 0, "undoDamage");
    expect(vitalsOf(guard.actor)).toMatchObject({ hits: { value: 40, max: 40 }, stun: 0, effects: [] });
    expect(message.system.targets[0]!.undone).toBe(true);
    await api().flow.runCardAction(message, 0, "undoDamage");
    expect(vitalsOf(guard.actor)).toMatchObject({ hits: { value: 40 }, stun: 0, effects: [] });
  });

  it("CR-HIT-01: a player who owns only the attacker applies through the active GM, who recomputes the critical from the card's dice", async () => {
    const { kara, guard } = duel();
    kara.actor.ownership = { default: 0, p1: 3 };
    guard.actor.ownership = { default: 0 };
    diceQueue.push(70);
    const { message } = (await api().rollAttack({
      actor: kara.actor,
      weaponId: SWORD,
      token: kara.token,
      target: guard.token,
      skipDialog: true,
    }))!;
    diceQueue.push(30);
    await api().flow.runCardAction(message, 0, "rollDamage");
    // A card edited to carry a harsher critical than its dice gave is refused by the GM.
    const honest = structuredClone(message.system.targets);
    const forged = structuredClone(honest);
    (forged[0]!.damage as unknown as { amount: number }).amount = 99;
    message.system.targets = forged;
    stub.game.users.current = player;
    await api().flow.runCardAction(message, 0, "applyDamage");
    expect(vitalsOf(guard.actor).hits.value).toBe(40);
    expect(stub.ui.notifications.messages.at(-1)?.level).toBe("error");
    message.system.targets = honest;
    await api().flow.runCardAction(message, 0, "applyDamage");
    expect(queries.map((q) => [q.name, q.userId])).toEqual([
      ["fray.applyDamage", "p1"],
      ["fray.applyDamage", "p1"],
    ]);
    const amount = (honest[0]!.damage as unknown as { amount: number }).amount;
    expect(amount).toBeGreaterThan(0);
    expect(vitalsOf(guard.actor).hits.value).toBe(40 - amount);
    expect(message.system.targets[0]!.applied?.userId).toBe("p1");
  });
});

/** Starts a combat of one combatant for an actor's token; its flags live in the returned map. */
const combatOf = (who: ReturnType<typeof actor>) => combatOfIn(flowWorld, who);

describe("the sheet's treatments", () => {
  it("CR-BLD-02, CR-AP-01: a bandage from the sheet stops up to 5 hits a round and spends its 2 AP; a treatment that does not fit is refused", async () => {
    const wound = { id: "bleed-1", kind: "bleed", rule: "CR-BLD-01", label: "FRAY.Critical.Effect.bleed", value: 7, location: "chest" };
    const kara = actor("kara", "Sword_Fighter_fRc2NpcSwordFtr0.json", "Kara Voss", { effects: [wound] });
    const flags = combatOf(kara);
    const binding = (
      stub.game.fray as { registry: { get(id: string): { sheetAction(a: unknown, d: Dict, t?: string): Promise<void> } } }
    ).registry.get("critical")!;
    // The sheet reports the core's refusal as a notification; nothing is spent or written.
    await expect(
      binding.sheetAction(kara.actor, { op: "treat", effectId: "bleed-1", method: "smother" }, kara.token.id),
    ).rejects.toMatchObject({
      key: "FRAY.Error.Treatment",
    });
    expect(flags.get("economy")).toBeUndefined();
    expect(vitalsOf(kara.actor).effects).toEqual([wound]);
    await binding.sheetAction(kara.actor, { op: "treat", effectId: "bleed-1", method: "bandage" }, kara.token.id);
    expect(vitalsOf(kara.actor).effects).toEqual([{ ...wound, value: 2, treated: ["bandage"] }]);
    expect((flags.get("economy") as { pools: { ap: { value: number } } }).pools.ap.value).toBe(2);
  });
});

/** Presses a chat button as its rendered message's hooks wired it (the stand-in renders no DOM). */
const press = (message: Dict, action: string) => pressButton(flowWorld, message, action);

describe("Self Discipline at 0 hits", () => {
  it("CR-HIT-01, CR-HIT-02: a critical that takes the hits below 0 prompts the owner; the test (d100 + SD - hits below zero vs 101) fails and knocks out, once", async () => {
    const guard = actor("guard", "Pistol_Guard_fRc2NpcPistolGrd.json", undefined, { hits: { value: 20, max: 40 } });
    const kara = actor("kara", "Sword_Fighter_fRc2NpcSwordFtr0.json", "Kara Voss", { parry: { [guard.token.id]: 20 } });
    diceQueue.push(98, 37);
    const { message } = (await api().rollAttack({
      actor: kara.actor,
      weaponId: SWORD,
      token: kara.token,
      target: guard.token,
      skipDialog: true,
    }))!;
    diceQueue.push(4);
    await api().flow.runCardAction(message, 0, "rollDamage");
    await api().flow.runCardAction(message, 0, "applyDamage");
    const hits = vitalsOf(guard.actor).hits.value;
    expect(hits).toBe(20 - 31);
    const prompt = messages.at(-1) as unknown as Dict & { flags: { fray: { selfDiscipline: { key: string } } } };
    expect(prompt.flags.fray.selfDiscipline).toMatchObject({ actorUuid: guard.actor.uuid, hits });
    expect(prompt.content).toContain(lookup(en, "FRAY.Critical.SelfDiscipline.Roll"));
    // A player who owns neither side sees no button.
    guard.actor.ownership = { default: 0 };
    stub.game.users.current = player;
    expect(await press(prompt, "fray-selfDiscipline")).toBe(false);
    stub.game.users.current = gm;
    diceQueue.push(99); // 99 + 5 SD - 11 = 93: below 101
    expect(await press(prompt, "fray-selfDiscipline")).toBe(true);
    const result = messages.at(-1) as unknown as Dict & { flags: { fray: { selfDiscipline: { result: Dict } } }; rolls: unknown[] };
    expect(result.flags.fray.selfDiscipline.result).toMatchObject({ natural: 99, total: 93, success: false });
    expect(result.rolls).toHaveLength(1);
    expect(guard.actor.statuses.has("unconscious")).toBe(true);
    expect(vitalsOf(guard.actor).effects.map((e) => e.kind)).toContain("unconscious");
    // The same prompt again: refused, nothing rolled.
    const count = messages.length;
    await press(prompt, "fray-selfDiscipline");
    expect(messages.length).toBe(count);
    expect(stub.ui.notifications.messages.at(-1)?.level).toBe("warn");
  });
});

/** Calls the `updateCombat` hooks for a combat advanced to `round`, and lets what they start finish. */
async function advance(combat: Dict, round: number): Promise<void> {
  combat.round = round;
  stub.Hooks.callAll("updateCombat", combat, { round }, {}, "gm");
  for (let i = 0; i < 50; i++) await new Promise((r) => setTimeout(r, 5));
}

describe("upkeep at each new round", () => {
  it("CR-BLD-01, CR-STN-02, CR-HIT-02: the active GM ticks bleeding and stun once per round, stamped; the encounter runner's numbers; the Self Discipline test below 0", async () => {
    const upkeepEvents = await (async () => {
      const file = parse(readFileSync(join(ROOT, "examples", "critical-duel.yaml"), "utf8")) as Dict;
      const result = await playEncounter(parseEncounter(file), new ContentIndex(join(ROOT, "packs", "_source")));
      return result.events.filter((e) => e.type === "custom" && e.kind === "upkeep").map((e) => (e as { data: Dict }).data);
    })();
    const { kara, guard } = duel();
    diceQueue.push(98, 37);
    const { message } = (await api().rollAttack({
      actor: kara.actor,
      weaponId: SWORD,
      token: kara.token,
      target: guard.token,
      skipDialog: true,
    }))!;
    diceQueue.push(4);
    await api().flow.runCardAction(message, 0, "rollDamage");
    await api().flow.runCardAction(message, 0, "applyDamage");
    const combat = { id: "combat1", round: 1, combatants: [{ actor: guard.actor }, { actor: kara.actor }] };
    const count = messages.length;
    await advance(combat, 2);
    const expected = upkeepEvents.find((e) => e.actor === "guard")!.vitals as { hp: { value: number }; stun: number };
    expect(vitalsOf(guard.actor).hits.value).toBe(expected.hp.value);
    expect(vitalsOf(guard.actor).stun).toBe(expected.stun);
    expect(messages).toHaveLength(count + 1);
    const summary = messages.at(-1)!;
    for (const rule of ["CR-BLD-01", "CR-STN-02"]) expect(summary.content).toContain(rule);
    expect(summary.content).toContain("Pistol Guard");
    expect(summary.content).not.toContain("Kara Voss");
    // Back to round 1 and on to round 2 again: nothing ticks twice.
    await advance(combat, 1);
    await advance(combat, 2);
    expect(vitalsOf(guard.actor).hits.value).toBe(expected.hp.value);
    expect(messages).toHaveLength(count + 1);
    // Round 3: 5 more bleeding takes him to -1; Self Discipline 40 + 5 - 1 = 44 fails.
    diceQueue.push(40);
    await advance(combat, 3);
    expect(vitalsOf(guard.actor)).toMatchObject({ hits: { value: expected.hp.value - 5 }, stun: expected.stun - 1 });
    expect(guard.actor.statuses.has("unconscious")).toBe(true);
    expect(messages.at(-1)!.content).toContain("CR-HIT-02");
  });
});

describe("fumbles", () => {
  it("CR-ATK-01: an unmodified roll in the weapon's fumble range is a fumble: no table lookup, nothing to roll, the attacker's round ends", async () => {
    const { kara, guard } = duel();
    const flags = combatOf(guard);
    diceQueue.push(2);
    const { message } = (await api().rollAttack({
      actor: guard.actor,
      weaponId: PISTOL,
      token: guard.token,
      target: kara.token,
      skipDialog: true,
    }))!;
    const t = message.system.targets[0]!;
    expect(t.result).toMatchObject({ hit: false, lands: false, detail: { fumble: true, unmodified: 2 } });
    expect(t.result.lookups).toEqual([]);
    expect(message.content).toContain(lookup(en, "FRAY.Critical.Card.Fumble"));
    // Handlebars escapes the apostrophe.
    expect(message.content).toContain(lookup(en, "FRAY.Critical.Card.FumbleEnds")!.replace("'", "&#x27;"));
    expect(message.content).not.toContain('data-action="fray-rollDamage"');
    // 4 AP, 2 paid for the attack, the other 2 lost to the fumble.
    expect((flags.get("economy") as { pools: { ap: { value: number; max: number } } }).pools.ap).toMatchObject({ value: 0, max: 4 });
  });
});

describe("the world's tables", () => {
  it("CR-CRT-01, CR-CRT-02, CR-ATK-03: a world RollTable flagged critical.crit.P replaces the built-in Puncture table on the card and in what is applied", async () => {
    const source = JSON.parse(readFileSync(join(ROOT, "src", "rules", "critical", "tables", "critical-puncture.json"), "utf8")) as Dict & {
      results: Dict[];
    };
    const row = source.results.find(
      (r) => (r.flags as { fray: { severity: string } }).fray.severity === "E" && (r.range as number[])[0] === 1,
    )!;
    row.description = "The house rule: a clean wound that only stuns.";
    (row.flags as { fray: Dict }).fray.effects = [{ type: "stun", rounds: 5 }];
    const world = {
      uuid: "RollTable.houseP",
      name: "House Puncture Criticals",
      getFlag: (scope: string, key: string) => (scope === "fray" ? (source.flags as { fray: Dict }).fray[key] : undefined),
      toObject: () => structuredClone(source),
    };
    (stub.game as unknown as Dict).tables = [world];
    const { kara, guard } = duel();
    diceQueue.push(98, 37);
    const { message } = (await api().rollAttack({
      actor: kara.actor,
      weaponId: SWORD,
      token: kara.token,
      target: guard.token,
      skipDialog: true,
    }))!;
    diceQueue.push(4);
    await api().flow.runCardAction(message, 0, "rollDamage");
    expect(message.content).toContain("The house rule: a clean wound that only stuns.");
    expect(message.content).toContain('data-uuid="RollTable.houseP"');
    await api().flow.runCardAction(message, 0, "applyDamage");
    expect(vitalsOf(guard.actor)).toMatchObject({ hits: { value: 40 - 23 }, stun: 5, effects: [] });
  });
});

describe("the world's attack tables", () => {
  it("CR-ATK-02, CR-ATK-03: the card links the compendium's attack table read; a world RollTable flagged critical.attack.sword.ballistic replaces it on the card, in the GM's replay and in what is applied", async () => {
    (stub.game as unknown as Dict).tables = [];
    const before = duel();
    diceQueue.push(98, 37);
    const plain = (await api().rollAttack({
      actor: before.kara.actor,
      weaponId: SWORD,
      token: before.kara.token,
      target: before.guard.token,
      skipDialog: true,
    }))!.message;
    expect(plain.system.targets[0]!.result).toMatchObject({ detail: { total: 185, armorType: "ballistic", code: { code: "23EP" } } });
    expect(plain.content).toContain('data-uuid="Compendium.fray.critical-attack-tables.RollTable.fRc4Aswobal00000"');
    expect(plain.content).toContain("Sword vs. Ballistic Armor");

    const dir = join(ROOT, "packs", "_source", "critical-attack-tables");
    const source = JSON.parse(readFileSync(join(dir, "Sword_vs__Ballistic_Armor_fRc4Aswobal00000.json"), "utf8")) as Dict & {
      flags: { fray: Dict };
      results: Dict[];
    };
    // The GM edits the top band's cell: 151 and above is now 7 hits and no critical.
    source.results.at(-1)!.name = "7";
    const world = {
      uuid: "RollTable.houseSword",
      name: "House Sword vs. Ballistic",
      getFlag: (scope: string, key: string) => (scope === "fray" ? source.flags.fray[key] : undefined),
      toObject: () => structuredClone(source),
    };
    (stub.game as unknown as Dict).tables = [world];
    const { kara, guard } = duel();
    diceQueue.push(98, 37);
    const { message } = (await api().rollAttack({
      actor: kara.actor,
      weaponId: SWORD,
      token: kara.token,
      target: guard.token,
      skipDialog: true,
    }))!;
    const t = message.system.targets[0]!;
    expect(t.result).toMatchObject({ hits: 7, detail: { total: 185, code: { code: "7", hits: 7 } } });
    expect(t.result.lookups![0]).toMatchObject({ table: "critical.attack.sword", column: "ballistic", range: [151, null], result: "7" });
    expect(message.content).toContain('data-uuid="RollTable.houseSword"');
    expect(message.content).toContain(lookup(en, "FRAY.Critical.Card.TakeHits"));
    expect(message.content).not.toContain("23EP");
    await api().flow.runCardAction(message, 0, "rollDamage");
    await api().flow.runCardAction(message, 0, "applyDamage");
    expect(vitalsOf(guard.actor)).toMatchObject({ hits: { value: 40 - 7 }, stun: 0, effects: [] });
    (stub.game as unknown as Dict).tables = [];
  });
});
