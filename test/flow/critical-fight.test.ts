/**
 * A Critical fight played to its end card by card through the built bundle in the stand-in: the
 * duel of `examples/critical-duel.yaml` (Kara Voss, her parry of 20 OB declared each round against the
 * guard's pistol, and the Pistol Guard) over three rounds, with the example's scripted dice. Each
 * attack is rolled, its critical rolled and applied from the card; each new round's upkeep runs
 * on the active GM (bleeding, stun, the Self Discipline test below 0); Kara bandages her wound
 * from the sheet at its AP; the guard's Self Discipline prompt is rolled from its message; the
 * fight ends when the guard falls unconscious. Every number is checked against the encounter
 * runner's events for the same file.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ContentIndex } from "../../src/encounter/content.js";
import { playEncounter } from "../../src/encounter/engine.js";
import { parseEncounter } from "../../src/encounter/schema.js";
import { ROOT, StubChatMessage, diceQueue } from "../support/foundry-stub.js";
import { FlowWorld, type Dict } from "../support/flow-world.js";
import {
  CriticalCombat,
  CriticalCombatant,
  advanceRound,
  criticalActor,
  criticalCombat,
  criticalOptions,
  pressButton,
  type FightCombat,
} from "../support/flow-critical.js";

type Vitals = { hp: { value: number }; stun: number; conditions: string[]; effects: Dict[] };

/** A chat message of the stand-in. */
interface WorldMessage extends Dict {
  id: string;
  content: string;
  rolls: unknown[];
  flags?: Dict;
  system: Dict & { targets: Dict[] };
  update(changes: Dict): Promise<WorldMessage>;
}

/** An actor of the world with its token. */
type WorldActor = ReturnType<typeof criticalActor>;

const SWORD = "fRc2SwordFtItm10";
const PISTOL = "fRc2PistolGItm10";

const flowWorld = new FlowWorld<WorldMessage>(
  criticalOptions({ Combat: CriticalCombat, Combatant: CriticalCombatant, actorEffects: true }),
);
/** The fight's world: its messages, actors, combat, new rounds and chat buttons. */
const world = {
  get stub() {
    return flowWorld.stub;
  },
  messages: flowWorld.messages,
  actor: (id: string, file: string, name?: string) => criticalActor(flowWorld, id, file, name),
  combat: (fighters: WorldActor[]) => criticalCombat(flowWorld, fighters),
  advance: (combat: FightCombat, round: number) => advanceRound(flowWorld, combat, round),
  press: (message: Dict, action: string) => pressButton(flowWorld, message, action),
};

beforeAll(async () => {
  await flowWorld.boot();
});

beforeEach(() => {
  flowWorld.reset();
  flowWorld.resetUsers();
  StubChatMessage.created.length = 0;
  (flowWorld.stub.game as unknown as Dict).tables = [];
});

interface Api {
  rollAttack(request: Dict): Promise<{ message: WorldMessage } | undefined>;
  flow: { runCardAction(message: WorldMessage, index: number, action: string): Promise<void> };
  registry: { get(id: string): { sheetAction(a: unknown, d: Dict, t?: string): Promise<void> } };
}
const api = () => world.stub.game.fray as Api;
const system = (who: WorldActor) => who.actor.system as { hits: { value: number }; stun: number; effects: Dict[]; parry: Dict };

/** The encounter runner's events of the example, in order. */
async function encounterEvents(): Promise<(Dict & { type: string; kind?: string; round: number; data?: Dict })[]> {
  const file = parse(readFileSync(join(ROOT, "examples", "critical-duel.yaml"), "utf8")) as Dict;
  const result = await playEncounter(parseEncounter(file), new ContentIndex(join(ROOT, "packs", "_source")));
  return result.events as never;
}

/** One attack card: rolled with `dice`, its critical (or hits) rolled with `crit`, applied by the GM. */
async function attack(attacker: WorldActor, weaponId: string, target: WorldActor, dice: number[], crit: number[] = []) {
  diceQueue.push(...dice);
  const { message } = (await api().rollAttack({
    actor: attacker.actor,
    weaponId,
    token: attacker.token,
    target: target.token,
    skipDialog: true,
  }))!;
  diceQueue.push(...crit);
  await api().flow.runCardAction(message, 0, "rollDamage");
  await api().flow.runCardAction(message, 0, "applyDamage");
  return message;
}

/** Kara's parry declared as the tracker's Parry button does (`tools.declareParry`), the dialog answering `split`. */
async function parry(combat: unknown, who: WorldActor, split: Record<string, number>): Promise<void> {
  const tools = (world.stub.game.fray as { binding: { tools: { declareParry(c: unknown, d: unknown, ask: unknown): Promise<boolean> } } })
    .binding.tools;
  const combatant = (combat as { combatants: Map<string, unknown> }).combatants.get(`c-${who.actor.id}`);
  expect(await tools.declareParry(combat, combatant, async () => split)).toBe(true);
}

describe("a Critical fight to its end, card by card (examples/critical-duel.yaml)", () => {
  it("CR-INI-01, CR-INI-02, CR-ATK-01, CR-ATK-02, CR-ATK-04, CR-PAR-01, CR-PAR-02, CR-CRT-02, CR-BLD-01, CR-BLD-02, CR-STN-01, CR-STN-02, CR-AP-01, CR-HIT-01, CR-HIT-02: three rounds give the encounter runner's numbers and end with the guard unconscious", async () => {
    const events = await encounterEvents();
    const of = (kind: string, actor: string, round: number) =>
      events
        .filter((e) => e.kind === kind && e.round === round && (e.data as Dict).actor === actor)
        .map((e) => (e.data as Dict).vitals as Vitals);
    const guard = world.actor("guard", "Pistol_Guard_fRc2NpcPistolGrd.json");
    const kara = world.actor("kara", "Sword_Fighter_fRc2NpcSwordFtr0.json", "Kara Voss");
    const combat = world.combat([guard, kara]);
    const ap = (who: WorldActor) =>
      (combat.combatants.get(`c-${who.actor.id}`)!.flags as { fray: { economy?: { pools: { ap: { value: number; max: number } } } } }).fray
        .economy?.pools.ap;
    // Initiative, d100 + Quickness once for the combat (CR-INI-01): the guard 80 + 5, Kara 50 + 10; he acts first (CR-INI-02).
    diceQueue.push(80, 50);
    await combat.rollInitiative(["c-guard", "c-kara"]);
    const initiative = events.find((e) => e.type === "initiative")!.rolls as { members: string[]; total: number }[];
    for (const r of initiative) expect(combat.combatants.get(`c-${r.members[0]}`)!.initiative).toBe(r.total);
    expect(combat.turns.map((t) => t.name)).toEqual(["Pistol Guard", "Kara Voss"]);
    // Kara declares first (lowest initiative, CR-INI-02), her parry with it (CR-PAR-01): 20 OB against the guard.
    await parry(combat, kara, { [guard.token.id]: 20 });
    expect(system(kara).parry).toEqual({ [guard.token.id]: 20 });

    // Round 1. The guard resolves first (85 against 60): two shots; the parry counts at 2:1 (CR-PAR-02).
    const first = await attack(guard, PISTOL, kara, [45]);
    expect(first.system.targets[0]!.result).toMatchObject({ hits: 9, detail: { total: 75 } });
    expect(system(kara).hits.value).toBe(of("hits", "kara", 1)[0]!.hp.value);
    const second = await attack(guard, PISTOL, kara, [70], [30]);
    expect(second.content).toContain("13BP");
    expect(system(kara)).toMatchObject({ hits: { value: of("hits", "kara", 1)[1]!.hp.value }, stun: of("hits", "kara", 1)[1]!.stun });
    expect(system(kara).effects).toEqual(of("hits", "kara", 1)[1]!.effects);
    // Kara's cut goes open-ended (98 + 37) to 185: 23EP, +3 to the Puncture E critical (CR-ATK-04).
    const cut = await attack(kara, SWORD, guard, [98, 37], [4]);
    expect(cut.content).toContain("23EP");
    expect(system(guard)).toMatchObject({ hits: { value: of("hits", "guard", 1)[0]!.hp.value }, stun: of("hits", "guard", 1)[0]!.stun });
    expect(system(guard).effects).toEqual(of("hits", "guard", 1)[0]!.effects);

    // Round 2: the active GM's upkeep bleeds both and counts their stun down (CR-BLD-01, CR-STN-02).
    await world.advance(combat, 2);
    for (const [who, id] of [
      [guard, "guard"],
      [kara, "kara"],
    ] as const) {
      const expected = of("upkeep", id, 2)[0]!;
      expect(system(who)).toMatchObject({ hits: { value: expected.hp.value }, stun: expected.stun });
    }
    // The round's AP follow the state the upkeep left: the guard still stunned 2, Kara's stun over 4 (CR-AP-01, CR-STN-01).
    expect(ap(guard)).toEqual({ value: 2, max: 2 });
    expect(ap(kara)).toEqual({ value: 4, max: 4 });
    const summary = world.messages.at(-1)!;
    for (const rule of ["CR-BLD-01", "CR-STN-02"]) expect(summary.content).toContain(rule);
    // A new round ends the parry (CR-PAR-01): Kara declares it again, 20 OB against the guard.
    expect(system(kara).parry).toEqual({});
    await parry(combat, kara, { [guard.token.id]: 20 });
    // The guard, still stunned, has 2 AP (CR-STN-01): one shot, 30: 3 hits.
    await attack(guard, PISTOL, kara, [30]);
    expect(system(kara).hits.value).toBe(of("hits", "kara", 2)[0]!.hp.value);
    // Kara bandages her bleeding from the sheet: 2 of her 4 AP (CR-BLD-02, CR-AP-01).
    const wound = system(kara).effects.find((e) => e.kind === "bleed")!;
    await api().registry.get("critical").sheetAction(kara.actor, { op: "treat", effectId: wound.id, method: "bandage" }, kara.token.id);
    const treated = events.find((e) => e.kind === "treat" && e.round === 2)!.data as { vitals: Vitals };
    expect(system(kara).effects).toEqual(treated.vitals.effects);
    expect(ap(kara)).toEqual({ value: 2, max: 4 });
    // Her cut, 20: 7 hits takes the guard to -3; the prompt asks his Self Discipline (CR-HIT-01, CR-HIT-02).
    await attack(kara, SWORD, guard, [20]);
    expect(system(guard).hits.value).toBe(of("hits", "guard", 2)[0]!.hp.value);
    const prompt = world.messages.at(-1)!;
    expect((prompt.flags as { fray: { selfDiscipline: Dict } }).fray.selfDiscipline).toMatchObject({ hits: -3 });
    diceQueue.push(99); // 99 + 5 SD - 3 = 101: he stays on his feet.
    expect(await world.press(prompt, "fray-selfDiscipline")).toBe(true);
    const held = world.messages.at(-1)!;
    expect((held.flags as { fray: { selfDiscipline: { result: Dict } } }).fray.selfDiscipline.result).toMatchObject({
      total: 101,
      success: true,
    });
    expect(guard.actor.statuses.has("unconscious")).toBe(false);

    // Round 3: bleeding takes him to -8; his Self Discipline 40 + 5 - 8 = 37 fails: unconscious, the fight is over.
    diceQueue.push(40);
    await world.advance(combat, 3);
    const last = of("upkeep", "guard", 3)[0]!;
    expect(system(guard)).toMatchObject({ hits: { value: last.hp.value }, stun: last.stun });
    expect(last.conditions).toContain("unconscious");
    expect(guard.actor.statuses.has("unconscious")).toBe(true);
    expect(world.messages.at(-1)!.content).toContain("CR-HIT-02");
    expect(system(kara).hits.value).toBe(of("upkeep", "kara", 3)[0]?.hp.value ?? of("hits", "kara", 2)[0]!.hp.value);
    expect(events.at(-1)).toMatchObject({ type: "end", winner: "players", reason: "side-down" });
    for (const m of world.messages) expect(m.content).not.toMatch(/FRAY\./);
    expect(world.stub.ui.notifications.messages.filter((n) => n.level !== "info")).toEqual([]);
  });
});
