/**
 * Zones grenades and movement through the built bundle in the typed Foundry stand-in, with
 * scripted dice: a grenade thrown at a point of the scene, its template and blast card listing
 * every token caught (both radii, grenade-proof cover and full body armor to tick), the GM's
 * apply to all (killed, incapacitated as the world setting says, shock wave through a blast
 * suit, unharmed behind grenade-proof cover) and undo; a missed throw landing off by the margin
 * and the GM moving the template; the movement actions' costs in speed points.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  StubRoll,
  diceQueue,
  lookup,
  readLang,
  stubToken,
  withOwnership,
  type FoundryStub,
  type StubUser,
} from "../support/foundry-stub.js";
import { FlowWorld, packSource } from "../support/flow-world.js";
import { RIFLEMAN, hp, zonesActor, zonesOptions } from "../support/flow-zones.js";

const en = readLang("en");

type Dict = Record<string, unknown>;

interface Row {
  tokenId: string;
  actorUuid: string;
  name: string;
  distance: number;
  zone: string;
  grenadeProof: boolean;
  fullBody: boolean;
  effect?: string;
  hpBefore?: number;
  hpAfter?: number;
}

interface BlastState {
  check: number;
  difficulty: number;
  hit: boolean;
  deviation?: number;
  centre: { x: number; y: number };
  templateUuid: string | null;
  grenade: { effectiveRadius: number; casualtyRadius: number };
  rows: Row[];
  applied: boolean;
}

interface Message {
  id: string;
  content: string;
  rolls: unknown[];
  flags: { fray: { zonesBlast: BlastState } };
  update(changes: Dict): Promise<Message>;
}

interface MoveAction {
  label?: string;
  order?: number;
  canSelect?(token: unknown): boolean;
  getCostFunction?(token: unknown): (baseCost: number) => number;
}

interface FrayApi {
  zones: {
    throwGrenade(actor: unknown, itemId: string, aim: { x: number; y: number }, opts?: Dict): Promise<Message>;
    blastAction(
      message: Message,
      action: "apply" | "undo",
      ticks?: Record<string, { grenadeProof: boolean; fullBody?: boolean }>,
    ): Promise<boolean>;
  };
  registry: { get(id: string): { sheetAction?(actor: unknown, data: Dict, tokenId?: string): Promise<void> } | undefined };
}

/** Templates as created; `_stats.lastModifiedBy` is set as Foundry's server does, to the writing user. */
const templates: {
  uuid: string;
  x: number;
  y: number;
  distance: number;
  t: string;
  _stats: { lastModifiedBy: string };
  update(changes: Dict): Promise<unknown>;
}[] = [];
const placeables: unknown[] = [];
const flowWorld = new FlowWorld<Message>(
  zonesOptions({
    config: {
      Token: {
        movement: {
          actions: Object.fromEntries(
            ["walk", "fly", "swim", "burrow", "crawl", "climb", "jump", "blink", "displace"].map((id, order) => [id, { label: id, order }]),
          ),
        },
      },
    },
    TokenRuler: class {
      _getSegmentStyle() {
        return { width: 4 };
      }
      _getGridHighlightStyle() {
        return { alpha: 0.5 };
      }
    },
    prepare: ({ stub, docs }) => {
      const canvas = stub.canvas as unknown as Dict;
      canvas.scene = {
        id: "s1",
        async createEmbeddedDocuments(type: string, data: Dict[]) {
          expect(type).toBe("MeasuredTemplate");
          return data.map((d) => {
            const doc = {
              ...(d as { x: number; y: number; distance: number; t: string }),
              uuid: `Scene.s1.MeasuredTemplate.t${templates.length + 1}`,
              _stats: { lastModifiedBy: stub.game.user.id },
              async update(changes: Dict) {
                Object.assign(doc, changes);
                doc._stats.lastModifiedBy = stub.game.user.id;
                return doc;
              },
            };
            templates.push(doc);
            docs.set(doc.uuid, doc);
            return doc;
          });
        },
      };
      canvas.tokens = { placeables };
    },
  }),
);
const { messages } = flowWorld;
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
  templates.length = 0;
  placeables.length = 0;
});

const api = () => flowWorld.api<FrayApi>();

const GRENADE = () => ({ ...packSource("zones-weapons", "Hornet_Fragmentation_Grenade_zNw1HornetGren15.json"), _id: "grenade" });
const BLAST_SUIT = () => ({ ...packSource("zones-armor", "Blast_Suit_zNa1BlastSuit006.json"), _id: "suit" });

/** An actor of the stand-in whose document, items and statuses can be updated, registered by UUID; items it is given keep their id. */
const actor = (id: string, name: string, type: string, system: Dict, items: Dict[]) =>
  zonesActor(flowWorld, id, name, type, system, items, {
    onCreateEmbedded: (type, _data, options) => {
      expect(type).toBe("Item");
      expect(options.keepId).toBe(true);
    },
  });

/** Pixels of a grid square's centre (100 px squares of 1.5 m). */
const at = (col: number, row: number) => ({ x: col * 100 + 50, y: row * 100 + 50 });

/** A Zones body on the scene at a square; `hp` hit points, items as given. */
function body(id: string, name: string, col: number, row: number, items: Dict[] = [], system: Dict = {}) {
  const a = actor(id, name, "character", { ...RIFLEMAN, ...system }, items);
  const token = stubToken(a.actor, col, row);
  placeables.push(token);
  flowWorld.register(token);
  return a;
}

/**
 * The thrower at (0, 0) with the Hornet (effective radius 5 m, casualty radius 15 m) aiming at
 * the square (11, 0), 16.5 m away; around the aim point: Able 3 m, Baker 9 m, Cole in a blast
 * suit 9 m, Dana 12.7 m, Eddie 18 m (outside).
 */
function scene() {
  const thrower = body("thrower", "Thrower", 0, 0, [GRENADE()], { skills: { ...RIFLEMAN.skills, throwing: 3 } });
  return {
    thrower,
    able: body("able", "Able", 11, 2),
    baker: body("baker", "Baker", 11, 6),
    cole: body("cole", "Cole", 17, 0, [BLAST_SUIT()]),
    dana: body("dana", "Dana", 5, 6),
    eddie: body("eddie", "Eddie", 23, 0),
    aim: at(11, 0),
  };
}

const stateOf = (m: Message) => m.flags.fray.zonesBlast;
const statuses = (a: { actor: { statuses: Set<string> } }) => [...a.actor.statuses].sort();

/** The scene, and the thrower's grenade thrown by Pat, who owns the thrower and so authors the card (a hit, 10 on the d10). */
async function playersThrow() {
  const s = scene();
  withOwnership(s.thrower.actor, { default: 0, [player.id]: 3 });
  stub.game.users.current = player;
  diceQueue.push(10);
  const message = await api().zones.throwGrenade(s.thrower.actor, "grenade", s.aim);
  stub.game.users.current = gm;
  return { s, message };
}

describe("Zones grenades through the bundle", () => {
  it("ZN-THR-01, ZN-GRN-01: a throw that hits marks the blast with a template and lists every token caught with both radii", async () => {
    const s = scene();
    diceQueue.push(10); // Throwing d10 10 + DEX 1 + PER 1 + 3 ranks = 15
    const message = await api().zones.throwGrenade(s.thrower.actor, "grenade", s.aim);
    const state = stateOf(message);
    expect(state.check).toBe(15);
    expect(state.hit).toBe(state.check >= state.difficulty);
    expect(state.hit).toBe(true);
    expect(state.deviation).toBeUndefined();
    // The template: a circle of the casualty radius in the scene's units (metres) on the aim point.
    expect(templates).toHaveLength(1);
    expect(templates[0]).toMatchObject({ t: "circle", x: s.aim.x, y: s.aim.y, distance: 15 });
    expect(state.templateUuid).toBe(templates[0]!.uuid);
    expect(state.rows.map((r) => [r.name, r.distance, r.zone, r.fullBody])).toEqual([
      ["Able", 3, "effective", false],
      ["Baker", 9, "casualty", false],
      ["Cole", 9, "casualty", true],
      ["Dana", 12.7, "casualty", false],
    ]);
    expect(message.content).toContain("5 m");
    expect(message.content).toContain("15 m");
    expect(message.content).toContain(lookup(en, "FRAY.Zones.Blast.zone.effective")!);
    expect(message.content.match(/data-blast-token=/g)).toHaveLength(4);
    // The grenade has left the thrower's hands (ZN-GRN-01): it stays on the actor, marked thrown,
    // out of its weapons, until the GM applies the blast from its stats.
    const item = s.thrower.source.items.find((i) => i._id === "grenade");
    expect((item?.system as Dict | undefined)?.thrown).toBe(true);
    await expect(api().zones.throwGrenade(s.thrower.actor, "grenade", s.aim)).rejects.toMatchObject({ key: "FRAY.Error.NoWeapon" });
  });

  it("ZN-GRN-01: the GM applies to all (killed, incapacitated, shock wave through a blast suit, grenade-proof cover) and undoes it", async () => {
    const s = scene();
    diceQueue.push(10);
    const message = await api().zones.throwGrenade(s.thrower.actor, "grenade", s.aim);
    const dana = stateOf(message).rows.find((r) => r.name === "Dana")!;
    diceQueue.push(6, 6); // Cole's shock wave: 2d6 = 12 bludgeoning to the torso
    expect(await api().zones.blastAction(message, "apply", { [dana.tokenId]: { grenadeProof: true } })).toBe(true);
    const applied = stateOf(message);
    expect(applied.applied).toBe(true);
    expect(applied.rows.map((r) => [r.name, r.effect])).toEqual([
      ["Able", "killed"],
      ["Baker", "incapacitated"],
      ["Cole", "shockwave"],
      ["Dana", "unharmed"],
    ]);
    expect(statuses(s.able)).toEqual(["dead"]);
    expect(statuses(s.baker)).toEqual(["incapacitated"]);
    expect(statuses(s.dana)).toEqual([]);
    expect(statuses(s.eddie)).toEqual([]);
    // 12 - 8 (the suit's torso) = 4, torso x2 = 8 hit points off 28.
    expect(hp(s.cole)).toBe(20);
    expect(message.content).toContain(lookup(en, "FRAY.Zones.Blast.effect.killed")!);
    expect(message.content).toContain("28 → 20");
    // The GM's apply removed the thrown grenade from the thrower.
    expect(s.thrower.source.items.some((i) => i._id === "grenade")).toBe(false);
    // A second apply is refused.
    await expect(api().zones.blastAction(message, "apply")).rejects.toMatchObject({ key: "FRAY.Zones.BlastCard.AlreadyApplied" });
    expect(await api().zones.blastAction(message, "undo")).toBe(true);
    expect(statuses(s.able)).toEqual([]);
    expect(statuses(s.baker)).toEqual([]);
    expect(hp(s.cole)).toBe(28);
    expect(stateOf(message).applied).toBe(false);
    expect(message.content).toContain(lookup(en, "FRAY.Zones.BlastCard.Apply")!);
    // Undo gives the grenade back, still thrown, so the GM can apply again.
    const back = s.thrower.source.items.find((i) => i._id === "grenade");
    expect((back?.system as Dict | undefined)?.thrown).toBe(true);
    diceQueue.push(6, 6);
    expect(await api().zones.blastAction(message, "apply", { [dana.tokenId]: { grenadeProof: true } })).toBe(true);
    expect(hp(s.cole)).toBe(20);
    expect(s.thrower.source.items.some((i) => i._id === "grenade")).toBe(false);
  });

  it("ZN-GRN-01: a hostile thrower's card claiming a bigger blast changes nothing: the GM reads the grenade item", async () => {
    const { s, message } = await playersThrow();
    // The player edits their own message: radii and damage enlarged, Eddie (18 m) listed.
    const forged = stateOf(message);
    forged.grenade = { ...forged.grenade, effectiveRadius: 30, casualtyRadius: 40, damage: "20d6" } as never;
    forged.rows = [...forged.rows, { ...forged.rows[0]!, tokenId: "token-eddie", name: "Eddie", zone: "effective" }];
    diceQueue.push(6, 6);
    expect(await api().zones.blastAction(message, "apply")).toBe(true);
    const applied = stateOf(message);
    expect(applied.rows.map((r) => [r.name, r.effect])).toEqual([
      ["Able", "killed"],
      ["Baker", "incapacitated"],
      ["Cole", "shockwave"],
      ["Dana", "incapacitated"],
    ]);
    expect(statuses(s.eddie)).toEqual([]);
    expect(hp(s.cole)).toBe(20);
    expect(applied.grenade).toMatchObject({ effectiveRadius: 5, casualtyRadius: 15, damage: "2d6" });
    expect(message.content).not.toContain("40 m");
  });

  it("ZN-GRN-01, ZN-ZON-02: undo reads the victims' ledgers, not the thrower's card: edited rows, a reset applied mark and a heal in between change nothing", async () => {
    const { s, message } = await playersThrow();
    diceQueue.push(6, 6);
    expect(await api().zones.blastAction(message, "apply")).toBe(true);
    expect(hp(s.cole)).toBe(20);
    const eddieBefore = hp(s.eddie);
    // The thrower edits their own card: the blast reads as not applied, and Eddie, never hit, is listed as having lost 20.
    const forged = stateOf(message);
    forged.applied = false;
    forged.rows = [
      ...forged.rows,
      {
        ...forged.rows[0]!,
        tokenId: "token-eddie",
        actorUuid: s.eddie.actor.uuid,
        name: "Eddie",
        hpBefore: eddieBefore - 20,
        hpAfter: eddieBefore,
      },
    ];
    await expect(api().zones.blastAction(message, "apply")).rejects.toMatchObject({ key: "FRAY.Zones.BlastCard.AlreadyApplied" });
    expect(hp(s.cole)).toBe(20);
    // Cole is patched up by 6 before the GM undoes: the undo gives back the 8 the blast took, up to his maximum of 28.
    await (s.cole.actor as unknown as { update(c: Dict): Promise<unknown> }).update({ "system.hp.value": 26 });
    forged.applied = true;
    expect(await api().zones.blastAction(message, "undo")).toBe(true);
    expect(hp(s.cole)).toBe(28);
    expect(hp(s.eddie)).toBe(eddieBefore);
    expect(statuses(s.able)).toEqual([]);
    expect(statuses(s.baker)).toEqual([]);
    // Undone once: a second undo is refused, whatever the card says.
    forged.applied = true;
    await expect(api().zones.blastAction(message, "undo")).rejects.toMatchObject({ key: "FRAY.Zones.BlastCard.NotApplied" });
    expect(hp(s.cole)).toBe(28);
  });

  it("ZN-GRN-01: the GM refuses a blast whose grenade is missing, not thrown, or whose thrower is not the card author's", async () => {
    const s = scene();
    withOwnership(s.thrower.actor, { default: 0, [player.id]: 3 });
    withOwnership(s.able.actor, { default: 0 });
    stub.game.users.current = player;
    diceQueue.push(10);
    const message = await api().zones.throwGrenade(s.thrower.actor, "grenade", s.aim);
    stub.game.users.current = gm;
    const state = stateOf(message) as BlastState & { actorUuid: string; itemId: string };
    // Naming someone else's actor as the thrower.
    state.actorUuid = s.able.actor.uuid;
    await expect(api().zones.blastAction(message, "apply")).rejects.toMatchObject({ key: "FRAY.Flow.Error.CardForged" });
    state.actorUuid = s.thrower.actor.uuid;
    // The grenade not marked thrown (the player cleared the mark to throw it again).
    const item = s.thrower.source.items.find((i) => i._id === "grenade")!;
    (item.system as Dict).thrown = false;
    await expect(api().zones.blastAction(message, "apply")).rejects.toMatchObject({ key: "FRAY.Zones.BlastCard.NoGrenade" });
    // The grenade gone.
    s.thrower.source.items.splice(s.thrower.source.items.indexOf(item), 1);
    (s.thrower.actor.items as unknown as Dict[]).splice(0, 1);
    await expect(api().zones.blastAction(message, "apply")).rejects.toMatchObject({ key: "FRAY.Zones.BlastCard.NoGrenade" });
    expect(statuses(s.able)).toEqual([]);
    expect(stateOf(message).applied).toBe(false);
  });

  it("ZN-GRN-01: with the casualty radius set to kill, the casualty radius kills; full body armor unticked lets the fragments through", async () => {
    await stub.game.settings.set("fray", "zones-grenadeCasualty", "kill");
    try {
      const s = scene();
      diceQueue.push(10);
      const message = await api().zones.throwGrenade(s.thrower.actor, "grenade", s.aim);
      const cole = stateOf(message).rows.find((r) => r.name === "Cole")!;
      await api().zones.blastAction(message, "apply", { [cole.tokenId]: { grenadeProof: false, fullBody: false } });
      expect(stateOf(message).rows.map((r) => [r.name, r.effect])).toEqual([
        ["Able", "killed"],
        ["Baker", "killed"],
        ["Cole", "killed"],
        ["Dana", "killed"],
      ]);
      expect(statuses(s.baker)).toEqual(["dead"]);
    } finally {
      await stub.game.settings.set("fray", "zones-grenadeCasualty", "incapacitate");
    }
  });

  it("ZN-GRN-01: a missed throw lands off by the margin beyond the aim point; apply reads the template where the GM moved it", async () => {
    const s = scene();
    diceQueue.push(1); // 1 + 5 = 6
    const message = await api().zones.throwGrenade(s.thrower.actor, "grenade", s.aim);
    const state = stateOf(message);
    expect(state.hit).toBe(false);
    expect(state.deviation).toBe(state.difficulty - 6);
    expect(state.deviation).toBeGreaterThan(0);
    // Along the throw (east), deviation metres at 100 px per 1.5 m.
    expect(state.centre.x).toBeCloseTo(s.aim.x + (state.deviation! * 100) / 1.5, 6);
    expect(state.centre.y).toBe(s.aim.y);
    expect(templates[0]).toMatchObject({ x: state.centre.x, y: state.centre.y });
    expect(message.content).toContain(`${state.deviation} m`);
    // The GM drags the template onto Eddie's square: only those within 15 m of it are caught.
    await templates[0]!.update(at(23, 0));
    expect(templates[0]!._stats.lastModifiedBy).toBe("gm");
    await api().zones.blastAction(message, "apply");
    expect(stateOf(message).rows.map((r) => [r.name, r.distance, r.effect])).toEqual([
      ["Eddie", 0, "killed"],
      ["Cole", 9, "shockwave"],
    ]);
  });

  it("ZN-GRN-01: a hostile thrower who drags the template after seeing the dice changes nothing: the blast goes off where the throw landed", async () => {
    const s = scene();
    withOwnership(s.thrower.actor, { default: 0, [player.id]: 3 });
    stub.game.users.current = player;
    diceQueue.push(10); // a hit: it lands on the aim point, (11, 0)
    const message = await api().zones.throwGrenade(s.thrower.actor, "grenade", s.aim);
    // The landing point is recorded on the thrown grenade at the throw.
    const item = s.thrower.source.items.find((i) => i._id === "grenade") as { flags?: { fray?: Dict }; system: Dict };
    expect(item.system.thrown).toBe(true);
    expect(item.flags?.fray?.zonesLanding).toMatchObject({ x: s.aim.x, y: s.aim.y });
    // The player, who authored the template, drags it onto Eddie alone (to spare their friends).
    await templates[0]!.update(at(23, 0));
    expect(templates[0]!._stats.lastModifiedBy).toBe("p1");
    stub.game.users.current = gm;
    diceQueue.push(6, 6);
    expect(await api().zones.blastAction(message, "apply")).toBe(true);
    expect(stateOf(message).rows.map((r) => [r.name, r.effect])).toEqual([
      ["Able", "killed"],
      ["Baker", "incapacitated"],
      ["Cole", "shockwave"],
      ["Dana", "incapacitated"],
    ]);
    expect(statuses(s.eddie)).toEqual([]);
    expect(stateOf(message).centre).toEqual({ x: s.aim.x, y: s.aim.y });
    // The GM is told, and the template is put back where the grenade landed.
    expect(stub.ui.notifications.messages.map((m) => m.text)).toContain(lookup(en, "FRAY.Zones.BlastCard.PlayerMoved"));
    expect(templates[0]).toMatchObject({ x: s.aim.x, y: s.aim.y });
  });

  it("ZN-GRN-01: a template a GM moved after a player's drag is followed; a player's drag after the GM's is not", async () => {
    const s = scene();
    withOwnership(s.thrower.actor, { default: 0, [player.id]: 3 });
    stub.game.users.current = player;
    diceQueue.push(10);
    const message = await api().zones.throwGrenade(s.thrower.actor, "grenade", s.aim);
    await templates[0]!.update(at(30, 0));
    stub.game.users.current = gm;
    await templates[0]!.update(at(23, 0)); // the GM rules it landed by Eddie
    stub.game.users.current = player;
    await templates[0]!.update(at(40, 0)); // the player drags it away again
    stub.game.users.current = gm;
    diceQueue.push(6, 6);
    await api().zones.blastAction(message, "apply");
    // The player's drag is the last: the recorded landing point counts, not the GM's earlier move.
    expect(stateOf(message).centre).toEqual({ x: s.aim.x, y: s.aim.y });
    expect(statuses(s.eddie)).toEqual([]);
    expect(statuses(s.able)).toEqual(["dead"]);
  });

  it("ZN-THR-01: a grenade is thrown only by its owner's token at a point in range", async () => {
    const s = scene();
    await expect(api().zones.throwGrenade(s.thrower.actor, "nothing", s.aim)).rejects.toMatchObject({ key: "FRAY.Error.NoWeapon" });
    await expect(api().zones.throwGrenade(s.thrower.actor, "grenade", at(40, 0))).rejects.toMatchObject({
      key: "FRAY.Error.Zones.OutOfRange",
    });
    expect(templates).toHaveLength(0);
    expect(messages).toHaveLength(0);
  });
});

describe("Zones grenade from the sheet through the bundle", () => {
  it("ZN-GRN-01, ZN-THR-01: the sheet's throw aims at the targeted token; without a target or template it is refused", async () => {
    const s = scene();
    const sheetAction = api().registry.get("zones")!.sheetAction!;
    await expect(sheetAction(s.thrower.actor, { rulesetAction: "throwGrenade", itemId: "grenade" })).rejects.toMatchObject({
      key: "FRAY.Zones.BlastCard.NoAim",
    });
    expect(messages).toHaveLength(0);
    stub.game.user.targets.add(s.baker.actor.getActiveTokens()[0] as never);
    diceQueue.push(10);
    await sheetAction(s.thrower.actor, { rulesetAction: "throwGrenade", itemId: "grenade" });
    expect(messages).toHaveLength(1);
    const state = stateOf(messages[0]!);
    expect(state.centre).toEqual(at(11, 6));
    expect(state.rows.find((r) => r.name === "Baker")).toMatchObject({ distance: 0, zone: "effective" });
  });
});

describe("Zones movement actions through the bundle", () => {
  const actions = () => (stub.CONFIG as unknown as { Token: { movement: { actions: Record<string, MoveAction> } } }).Token.movement.actions;

  it("ZN-MOV-01, ZN-MOV-02: each action costs its speed points per metre of (terrain-weighted) cost", () => {
    const cost = (id: string, base: number) => actions()[id]!.getCostFunction!({})(base);
    expect(cost("walk", 6)).toBe(6);
    expect(cost("run", 6)).toBe(3);
    expect(cost("crawl", 3)).toBe(6);
    expect(cost("climb", 3)).toBe(9);
    expect(cost("jump", 3)).toBe(6);
    expect(cost("runningJump", 3)).toBe(3);
    // Difficult terrain reaches the cost function doubled: walking 3 m costs 6.
    expect(cost("walk", 6)).toBe(2 * cost("walk", 3));
    expect(actions().run!.label).toBe("FRAY.Zones.MoveAction.run");
    expect(actions().runningJump!.order).toBeGreaterThan(actions().jump!.order!);
  });

  it("ZN-MOV-01: fly, swim, burrow and blink are hidden; crawling only when prone", () => {
    for (const id of ["fly", "swim", "burrow", "blink"]) expect(actions()[id]!.canSelect!({})).toBe(false);
    const standing = body("stand", "Standing", 0, 0);
    const prone = body("prone", "Prone", 1, 0, [], { stance: "prone" });
    expect(actions().crawl!.canSelect!({ actor: standing.actor })).toBe(false);
    expect(actions().crawl!.canSelect!({ actor: prone.actor })).toBe(true);
  });

  it("ZN-MOV-01, ZN-MOV-03, ZN-MOV-04: the ruler is green within the speed points left, blue when effort tops them up, red beyond", () => {
    const runner = body("runner", "Runner", 0, 0, [], { speed: { value: 5, max: 8 }, effort: { value: 3, max: 3 } });
    const Ruler = (stub.CONFIG as unknown as { Token: { rulerClass: new () => Dict } }).Token.rulerClass;
    const ruler = new Ruler() as Dict & { _getSegmentStyle(w: Dict): { color?: number; width?: number } };
    ruler.token = { actor: runner.actor, document: { id: "token-runner" } };
    const colour = (cost: number) => ruler._getSegmentStyle({ stage: "planned", measurement: { cost } }).color;
    const run = actions().run!.getCostFunction!({});
    const walk = actions().walk!.getCostFunction!({});
    expect(colour(run(8))).toBe(0x33cc66); // running 8 m: 4 points of 5
    expect(colour(walk(5))).toBe(0x33cc66); // walking 5 m: all 5 speed points
    expect(colour(walk(7))).toBe(0x3388ff); // 7 points: 2 topped up from effort
    expect(colour(actions().climb!.getCostFunction!({})(3))).toBe(0xdd2222); // climbing 3 m: 9 points, past 5 + 3
    expect(ruler._getSegmentStyle({ stage: "planned", measurement: { cost: 1 } }).width).toBe(4);
  });
});
