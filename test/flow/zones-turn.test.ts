/**
 * The Zones turn through the built bundle in the typed Foundry stand-in, with scripted dice: the
 * target's and shooter's movement category read from how their tokens moved this round (the
 * movement hook's record of each leg's movement action, ZN-RNG-04) and overridden in the dialog;
 * initiative with effort points spent before the roll (ZN-INI-01 to ZN-INI-03); the surprise round
 * (ZN-SUR-01); the round's slots and talking (ZN-ACT-01, ZN-FRE-01); range bands and the target's
 * size from its stance (ZN-RNG-02, ZN-RNG-06); bludgeoning and slashing on vital organs
 * (ZN-VIT-02, ZN-VIT-03); moves paid from speed and effort and Regain speed (ZN-MOV-01, ZN-MOV-03,
 * ZN-MOV-04); a thrown hatchet (ZN-THR-01), card by card.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { StubRoll, diceQueue, lookup, readLang, stubToken, type FoundryStub, type StubUser } from "../support/foundry-stub.js";
import { FlowWorld, packSource, type CardApi, type CardMessage, type Dict } from "../support/flow-world.js";
import { RIFLEMAN, firefight as firefightIn, zonesActor, zonesOptions } from "../support/flow-zones.js";

const en = readLang("en");

type Message = CardMessage;

interface FrayApi extends CardApi {
  flow: CardApi["flow"] & {
    onMoveToken(doc: unknown, movement: unknown, operation: unknown, user: unknown): Promise<void>;
  };
  registry: { get(id: string): { sheetAction?(actor: unknown, data: Dict, tokenId?: string): Promise<void> } | undefined };
}

/** Foundry's Combat as far as Fray's Combat class calls up to it. */
class BaseCombat {
  round = 1;
  started = true;
  id = "combat1";
  combatants = new Map<string, Dict>();
  embedded: Dict[][] = [];
  async updateEmbeddedDocuments(_type: string, updates: Dict[]) {
    this.embedded.push(updates);
    for (const u of updates) Object.assign(this.combatants.get(String(u._id)) ?? {}, { initiative: u.initiative });
    return updates;
  }
  async _preUpdate() {
    return undefined;
  }
  async startCombat() {
    return this;
  }
}

const flowWorld = new FlowWorld<Message>(zonesOptions({ Combat: BaseCombat }));
const { messages } = flowWorld;
let stub: FoundryStub;
let gm: StubUser;

beforeAll(async () => {
  ({ stub, gm } = await flowWorld.boot());
});

beforeEach(() => {
  flowWorld.reset();
  flowWorld.resetUsers();
  StubRoll.evaluated.length = 0;
});

const api = () => flowWorld.api<FrayApi>();

/** An actor of the stand-in whose document, items and statuses can be updated, registered by UUID. */
const actor = (id: string, name: string, type: string, system: Dict, items: Dict[]) => zonesActor(flowWorld, id, name, type, system, items);

/** The rifleman and the compendium's Perimeter Sentry (kneeling, soft body vest) `squares` apart. */
const firefight = (squares: number) => firefightIn(flowWorld, squares);

/** A started Combat of the stand-in, round 1, with a Combatant per token (their flags kept here). */
const startCombat = (entries: Parameters<typeof flowWorld.startCombat>[0]) => flowWorld.startCombat(entries);

/** The token document the movement hook reads, for a stand-in token. */
function tokenDoc(token: { id: string; name: string; actor: unknown; center: { x: number; y: number }; document: { uuid: string } }) {
  return {
    id: token.id,
    uuid: token.document.uuid,
    name: token.name,
    x: token.center.x - 50,
    y: token.center.y - 50,
    width: 1,
    height: 1,
    disposition: -1,
    actor: token.actor,
  };
}

/**
 * Moves a token through the system's `moveToken` handler as v13 reports a finished move: the
 * passed waypoints, each with the movement action of the segment ending there (squares east).
 */
async function move(token: Parameters<typeof tokenDoc>[0], legs: readonly [action: string, squares: number][]) {
  const doc = tokenDoc(token);
  let x = doc.x;
  const waypoints = legs.map(([action, squares]) => {
    x += squares * 100;
    return { x, y: doc.y, action };
  });
  const metres = legs.reduce((sum, [, squares]) => sum + squares * 1.5, 0);
  // v13's cost is the movement action's (Zones' cost functions: speed points, a run half its metres).
  const rate: Record<string, number> = { run: 0.5, runningJump: 1, jump: 2, crawl: 2, climb: 3 };
  const cost = legs.reduce((sum, [action, squares]) => sum + squares * 1.5 * (rate[action] ?? 1), 0);
  const movement = { origin: { x: doc.x, y: doc.y }, destination: waypoints.at(-1), passed: { cost, distance: metres, waypoints } };
  await api().flow.onMoveToken(doc, movement, {}, { id: stub.game.user.id });
}

/** The difficulty lines of a card's first target: [rule, value]. */
const lines = (m: Message) =>
  (m.system.targets[0]!.result.plan.difficulty.modifiers as { rule?: string; value: number; label?: string }[]).map((x) => [
    x.label,
    x.value,
  ]);

const TARGET_MOVES = "FRAY.Mod.Zones.TargetMovement";
const SHOOTER_MOVES = "FRAY.Mod.Zones.ShooterMovement";
const movementLines = (m: Message) => lines(m).filter(([label]) => label === TARGET_MOVES || label === SHOOTER_MOVES);

describe("Zones movement category from the tokens' moves", () => {
  it("ZN-RNG-04, ZN-MOV-01: a target that ran this round is fast (+4), a shooter who walked slow (+2); both are the dialog's defaults", async () => {
    const { rifleman, sentry, riflemanToken, sentryToken } = firefight(10);
    startCombat([
      { actor: rifleman.actor, token: riflemanToken },
      { actor: sentry.actor, token: sentryToken },
    ]);
    // Before anyone moved: both subtle, no movement line.
    stub.game.user.targets.add(sentryToken);
    diceQueue.push(5, 3, 4);
    const before = (await api().rollAttack({ actor: rifleman.actor, weaponId: "carbine", skipDialog: true, free: true }))!.message;
    expect(movementLines(before)).toEqual([]);
    expect(before.system.targets[0]!.request.situation).toMatchObject({ targetMovement: "subtle", shooterMovement: "subtle" });
    // The sentry runs 4 squares (6 m); the rifleman walks one square (1.5 m).
    await move(sentryToken, [["run", 4]]);
    await move(riflemanToken, [["walk", 1]]);
    diceQueue.push(5, 3, 4);
    const after = (await api().rollAttack({ actor: rifleman.actor, weaponId: "carbine", skipDialog: true, free: true }))!.message;
    expect(after.system.targets[0]!.request.situation).toMatchObject({ targetMovement: "fast", shooterMovement: "slow" });
    expect(movementLines(after)).toEqual([
      [TARGET_MOVES, 4],
      [SHOOTER_MOVES, 2],
    ]);
    expect(after.system.targets[0]!.result.plan.difficulty.total - before.system.targets[0]!.result.plan.difficulty.total).toBe(6);
  });

  it("ZN-RNG-04: the GM's or attacker's choice in the dialog wins over the moves; a crawl or climb is slow; a displacement is no movement", async () => {
    const { rifleman, sentry, riflemanToken, sentryToken } = firefight(10);
    startCombat([
      { actor: rifleman.actor, token: riflemanToken },
      { actor: sentry.actor, token: sentryToken },
    ]);
    stub.game.user.targets.add(sentryToken);
    await move(sentryToken, [["run", 2]]);
    diceQueue.push(5, 3, 4);
    const overridden = (await api().rollAttack({
      actor: rifleman.actor,
      weaponId: "carbine",
      free: true,
      situation: { targetMovement: "still", shooterMovement: "fast" },
    }))!.message;
    expect(movementLines(overridden)).toEqual([
      [TARGET_MOVES, -2],
      [SHOOTER_MOVES, 4],
    ]);
    // The rifleman is displaced by the GM (Foundry's displace action): not movement.
    await move(riflemanToken, [["displace", 3]]);
    diceQueue.push(5, 3, 4);
    const displaced = (await api().rollAttack({ actor: rifleman.actor, weaponId: "carbine", skipDialog: true, free: true }))!.message;
    expect(displaced.system.targets[0]!.request.situation).toMatchObject({ shooterMovement: "subtle" });
    await move(riflemanToken, [["climb", 1]]);
    diceQueue.push(5, 3, 4);
    const climbed = (await api().rollAttack({ actor: rifleman.actor, weaponId: "carbine", skipDialog: true, free: true }))!.message;
    expect(climbed.system.targets[0]!.request.situation).toMatchObject({ shooterMovement: "slow" });
  });

  it("ZN-RNG-04: a new round starts everyone at their own category again; a helpless target stays still however it moved", async () => {
    const { rifleman, sentry, riflemanToken, sentryToken } = firefight(10);
    const { combat } = startCombat([
      { actor: rifleman.actor, token: riflemanToken },
      { actor: sentry.actor, token: sentryToken },
    ]);
    stub.game.user.targets.add(sentryToken);
    await move(sentryToken, [["run", 2]]);
    combat.round = 2;
    diceQueue.push(5, 3, 4);
    const next = (await api().rollAttack({ actor: rifleman.actor, weaponId: "carbine", skipDialog: true, free: true }))!.message;
    expect(next.system.targets[0]!.request.situation).toMatchObject({ targetMovement: "subtle" });
    await move(sentryToken, [["run", 2]]);
    sentry.actor.statuses.add("incapacitated");
    (sentry.source.system as Dict).hp = { value: 0, max: 26 };
    diceQueue.push(5, 3, 4);
    const helpless = (await api().rollAttack({ actor: rifleman.actor, weaponId: "carbine", skipDialog: true, free: true }))!.message;
    expect(helpless.system.targets[0]!.request.situation).toMatchObject({ targetMovement: "still" });
  });
});

type TrackerCombat = BaseCombat & {
  rollInitiative(ids: string[]): Promise<unknown>;
  _preUpdate(changed: Dict, options: Dict, user: unknown): Promise<unknown>;
};

/** A Combat of Fray's class with the given combatants (`c1`, `c2` ...), as the tracker rolls them. */
function tracker(actors: readonly { actor: { name: string } }[]): TrackerCombat {
  const Combat = (stub.CONFIG as unknown as { Combat: { documentClass: new () => TrackerCombat } }).Combat.documentClass;
  const combat = new Combat();
  actors.forEach((a, i) =>
    combat.combatants.set(`c${i + 1}`, { id: `c${i + 1}`, name: a.actor.name, actor: a.actor, initiative: null, flags: {} }),
  );
  Object.defineProperty(combat.combatants, Symbol.iterator, {
    value: function* () {
      yield* combat.combatants.values();
    },
  });
  return combat;
}

const effortOf = (a: { source: { system: Dict } }) => [
  (a.source.system.effort as { value: number }).value,
  a.source.system.initiativeEffort ?? 0,
];
const initiatives = (combat: TrackerCombat) => Object.fromEntries([...combat.combatants.values()].map((c) => [c.id, c.initiative]));

describe("Zones initiative through the tracker", () => {
  it("ZN-INI-01, ZN-INI-02: effort points committed on the sheet add +1 each and are paid from the effort pool by the roll; NPCs roll alike", async () => {
    const { rifleman, sentry } = firefight(10);
    (rifleman.source.system as Dict).initiativeEffort = 2; // effort 3
    (sentry.source.system as Dict).initiativeEffort = 1; // effort 2
    const combat = tracker([rifleman, sentry]);
    diceQueue.push(5, 7); // rifleman 5 + DEX 1 + 2 effort = 8; sentry 7 + DEX 0 + 1 effort = 8
    await combat.rollInitiative(["c1", "c2"]);
    expect(initiatives(combat)).toEqual({ c1: 8, c2: 8 });
    // The tie goes to the higher DEX modifier: the rifleman first.
    expect(combat.embedded[0]!.map((u) => u._id)).toEqual(["c1", "c2"]);
    expect(effortOf(rifleman)).toEqual([1, 0]);
    expect(effortOf(sentry)).toEqual([1, 0]);
    // The summary shows each d10 and its modifiers, the effort included.
    expect(messages.at(-1)!.content).toContain('<td class="fray-label">Rifleman</td><td class="fray-value">5 + 3</td>');
    // Nothing committed the next time: the plain d10 + DEX, nothing paid.
    diceQueue.push(5);
    await combat.rollInitiative(["c1"]);
    expect(initiatives(combat).c1).toBe(6);
    expect(effortOf(rifleman)).toEqual([1, 0]);
  });

  it("ZN-INI-02: more effort committed than is left is refused with a localized error; nothing is rolled or paid", async () => {
    const { rifleman } = firefight(10);
    (rifleman.source.system as Dict).initiativeEffort = 4; // effort 3
    const combat = tracker([rifleman]);
    diceQueue.push(5);
    await combat.rollInitiative(["c1"]);
    expect(initiatives(combat)).toEqual({ c1: null });
    expect(effortOf(rifleman)).toEqual([3, 4]);
    expect(stub.ui.notifications.messages.at(-1)?.level).toBe("error");
    expect(stub.ui.notifications.messages.at(-1)?.text).toBe(
      lookup(en, "FRAY.Error.Zones.NotEnoughPoints")!.replace("{needed}", "4").replace("{speed}", "0").replace("{effort}", "3"),
    );
  });

  it("ZN-INI-01, ZN-INI-03: each new round rolls again and pays the effort committed for it; fixed initiative keeps the first roll", async () => {
    const { rifleman, sentry } = firefight(10);
    const combat = tracker([rifleman, sentry]);
    diceQueue.push(5, 7);
    await combat.rollInitiative(["c1", "c2"]);
    (rifleman.source.system as Dict).initiativeEffort = 3;
    diceQueue.push(2, 9); // round 2: rifleman 2 + 1 + 3 = 6, sentry 9
    const changed: Dict = { round: 2 };
    await combat._preUpdate(changed, {}, gm);
    const rows = changed.combatants as Dict[];
    expect(Object.fromEntries(rows.map((r) => [r._id, r.initiative]))).toEqual({ c1: 6, c2: 9 });
    expect(changed.turn).toBe(0);
    expect(effortOf(rifleman)).toEqual([0, 0]);

    await stub.game.settings.set("fray", "zones-fixedInitiative", true);
    try {
      const fixed: Dict = { round: 3 };
      combat.round = 2;
      await combat._preUpdate(fixed, {}, gm);
      expect((fixed.combatants as Dict[]).every((r) => r.initiative === undefined)).toBe(true);
      expect(fixed.turn).toBeUndefined();
    } finally {
      await stub.game.settings.set("fray", "zones-fixedInitiative", false);
    }
  });
});

describe("Zones surprise round", () => {
  it("ZN-SUR-01, ZN-MEL-02: the GM marks the sentry surprised: it cannot attack or act in round 1, and the knife attack on it allows no dodge or block", async () => {
    const { rifleman, sentry, riflemanToken, sentryToken } = firefight(1);
    const { flags } = startCombat([
      { actor: rifleman.actor, token: riflemanToken },
      { actor: sentry.actor, token: sentryToken },
    ]);
    // Begin Combat wrote a full round 1 economy before the GM marked the sentry surprised.
    flags.set(`c-${sentryToken.id}.economy`, {
      round: 1,
      slots: { action: { used: 0, max: 1 }, reaction: { used: 0, max: 1 }, free: { used: 0, max: 1 } },
      pools: { speed: { value: 8, max: 8 }, effort: { value: 2, max: 2 } },
    });
    sentry.actor.statuses.add("surprised");
    // The surprised sentry's attack is refused with a localized warning; nothing is rolled.
    expect(await api().rollAttack({ actor: sentry.actor, weaponId: sentry.source.items[0]!._id, target: riflemanToken })).toBeUndefined();
    expect(stub.ui.notifications.messages.at(-1)?.level).toMatch(/warn|error/);
    expect(stub.ui.notifications.messages.at(-1)?.text).not.toMatch(/FRAY\./);
    expect(messages).toHaveLength(0);
    // So is an action from its sheet (aiming takes the action it does not have this round).
    const sheetAction = api().registry.get("zones")!.sheetAction!;
    const warned = stub.ui.notifications.messages.length;
    await sheetAction(sentry.actor, { rulesetAction: "aim" }, sentryToken.id);
    expect(sentry.source.system.aim ?? 0).toBe(0);
    expect(stub.ui.notifications.messages.length).toBe(warned + 1);
    expect(stub.ui.notifications.messages.at(-1)?.level).toBe("warn");
    // The rifleman's knife: a surprise attack, dodge and block shown disabled with the reason.
    diceQueue.push(3, 3, 4); // 3 + 2 = 5 against 5: hits
    const { message } = (await api().rollAttack({ actor: rifleman.actor, weaponId: "knife", target: sentryToken, skipDialog: true }))!;
    const t = message.system.targets[0]!;
    expect(t.request.situation).toMatchObject({ surprise: true });
    expect(t.hit).toBe(true);
    for (const action of ["fray-dodge", "fray-block"])
      expect(message.content).toContain(
        `data-action="${action}" data-target-index="0" disabled data-tooltip="${lookup(en, "FRAY.Zones.Reason.Surprise")}"`,
      );
    // Pressing Dodge anyway (a stale card, a macro) makes no dodge.
    diceQueue.push(10);
    await api()
      .flow.runCardAction(message, 0, "dodge")
      .catch(() => undefined);
    expect(message.system.targets[0]!.result.reaction).toBeUndefined();
    expect(message.system.targets[0]!.result.lands ?? message.system.targets[0]!.hit).toBe(true);
  });

  it("ZN-SUR-01: when the GM advances to round 2 the surprise is over: the status comes off and the sentry acts", async () => {
    const { rifleman, sentry, riflemanToken, sentryToken } = firefight(1);
    sentry.actor.statuses.add("surprised");
    (rifleman.source.system as Dict).aim = 1;
    const { combat } = startCombat([
      { actor: rifleman.actor, token: riflemanToken },
      { actor: sentry.actor, token: sentryToken },
    ]);
    const round1: Dict = { round: 1 };
    await tracker([rifleman, sentry])._preUpdate(round1, {}, gm);
    expect(sentry.actor.statuses.has("surprised")).toBe(true);
    diceQueue.push(5, 7);
    const tracked = tracker([rifleman, sentry]);
    tracked.round = 1;
    await tracked._preUpdate({ round: 2 }, {}, gm);
    expect(sentry.actor.statuses.has("surprised")).toBe(false);
    // Aim not fired in the round it was taken is lost (ZN-RNG-07).
    expect(rifleman.source.system.aim).toBe(0);
    combat.round = 2;
    diceQueue.push(9, 3, 4);
    const outcome = await api().rollAttack({
      actor: sentry.actor,
      weaponId: sentry.source.items[0]!._id,
      target: riflemanToken,
      skipDialog: true,
    });
    expect(outcome?.message).toBeDefined();
  });
});

const BATON = () => ({ ...packSource("zones-weapons", "Collapsible_Baton_zNw1Collapsibl11.json"), _id: "baton" });
const hpOf = (a: { source: { system: Dict } }) => (a.source.system.hp as { value: number }).value;

describe("Zones turn, ranges and vital organs played through the bundle", () => {
  it("ZN-ACT-01, ZN-FRE-01: a round holds one action, one reaction and one free action; talking takes the free action; a perk's second action allows a second", async () => {
    const { rifleman, sentry, riflemanToken, sentryToken } = firefight(10);
    const { flags } = startCombat([
      { actor: rifleman.actor, token: riflemanToken },
      { actor: sentry.actor, token: sentryToken },
    ]);
    const flow = api().flow as unknown as { takeAction(actor: unknown, id: string, o: Dict): Promise<{ ok: boolean }> };
    expect((await flow.takeAction(rifleman.actor, "talk", { tokenId: riflemanToken.id })).ok).toBe(true);
    expect((await flow.takeAction(rifleman.actor, "talk", { tokenId: riflemanToken.id })).ok).toBe(false);
    stub.game.user.targets.add(sentryToken);
    diceQueue.push(5, 3, 4);
    expect(await api().rollAttack({ actor: rifleman.actor, weaponId: "carbine", skipDialog: true })).toBeDefined();
    // The one action is spent: a second attack is refused.
    expect(await api().rollAttack({ actor: rifleman.actor, weaponId: "carbine", skipDialog: true })).toBeUndefined();
    const slots = (flags.get(`c-${riflemanToken.id}.economy`) as { slots: Record<string, { used: number; max: number }> }).slots;
    expect(slots).toMatchObject({ action: { used: 1, max: 1 }, reaction: { used: 0, max: 1 }, free: { used: 1, max: 1 } });
    // The sentry with a perk of two actions (system.actions): two shots in one round.
    (sentry.source.system as Dict).actions = { action: 2, reaction: 1, free: 1 };
    stub.game.user.targets.clear();
    stub.game.user.targets.add(riflemanToken);
    const carbine = sentry.source.items.find((i) => (i.system as Dict).kind === "firearm")!._id as string;
    diceQueue.push(5, 3, 4, 5, 3, 4);
    expect(await api().rollAttack({ actor: sentry.actor, weaponId: carbine, skipDialog: true })).toBeDefined();
    expect(await api().rollAttack({ actor: sentry.actor, weaponId: carbine, skipDialog: true })).toBeDefined();
    expect(await api().rollAttack({ actor: sentry.actor, weaponId: carbine, skipDialog: true })).toBeUndefined();
  });

  it("ZN-RNG-02, ZN-RNG-06: the range band follows the measured distance and the weapon's effective range; the target's stance sets its size", async () => {
    // The carbine's effective range is 300 m: close below 37.5 m, medium to 75, far to 150, maximum to 300.
    const sizeRange = async (squares: number, stance: string) => {
      const { rifleman, sentry, sentryToken } = firefight(squares);
      (sentry.source.system as Dict).stance = stance;
      diceQueue.push(5, 3, 4);
      const outcome = await api().rollAttack({ actor: rifleman.actor, weaponId: "carbine", target: sentryToken, skipDialog: true });
      if (!outcome) return undefined;
      const t = outcome.message.system.targets[0]!;
      return [t.request.situation!.targetSize, t.result.plan.difficulty.modifiers[0]!.value];
    };
    // Kneeling: small (+2, +4, +8, +12 by band).
    expect(await sizeRange(20, "kneeling")).toEqual(["small", 2]); // 30 m
    expect(await sizeRange(30, "kneeling")).toEqual(["small", 4]); // 45 m
    expect(await sizeRange(67, "kneeling")).toEqual(["small", 8]); // 100.5 m
    expect(await sizeRange(120, "kneeling")).toEqual(["small", 12]); // 180 m
    // Standing: medium; prone: tiny (far: +4, +12).
    expect(await sizeRange(67, "standing")).toEqual(["medium", 4]);
    expect(await sizeRange(67, "prone")).toEqual(["tiny", 12]);
    // Beyond the effective range there is no band: the shot is refused.
    expect(await sizeRange(201, "standing")).toBeUndefined();
    expect(stub.ui.notifications.messages.at(-1)?.text).not.toMatch(/FRAY\./);
  });

  it("ZN-VIT-02: bludgeoning below 10 on a vital organ is a hit on the surrounding zone, through its armor and multiplier", async () => {
    const { rifleman, sentry, sentryToken } = firefight(1);
    rifleman.source.items.push(BATON());
    const baton = async (damage: number) => {
      (sentry.source.system as Dict).hp = { value: 26, max: 26 };
      diceQueue.push(9, 1, 1); // 9 + 1 = 10 against 5; hit zone 1 + 1 = 2: the heart
      const { message } = (await api().rollAttack({ actor: rifleman.actor, weaponId: "baton", target: sentryToken, skipDialog: true }))!;
      expect(message.system.targets[0]!.result.locations?.map((l) => l.id)).toEqual(["heart"]);
      await api().flow.runCardAction(message, 0, "noReaction");
      diceQueue.push(damage - 2); // 1d6 + 2
      await api().flow.runCardAction(message, 0, "rollDamage");
      await api().flow.runCardAction(message, 0, "applyDamage");
      return message.system.targets[0]!.applied!.steps.map((s) => s.rule);
    };
    // 7 bludgeoning: the torso takes it, 7 - 4 (vest) = 3, x2 = 6.
    expect(await baton(7)).toContain("ZN-VIT-02");
    expect(hpOf(sentry)).toBe(20);
  });

  it("ZN-VIT-03: slashing cannot harm a covered vital organ (the surrounding zone takes it, as the world setting says); exposed, it counts in full", async () => {
    const { rifleman, sentry, sentryToken } = firefight(1);
    const slash = async (exposedVitals: boolean) => {
      (sentry.source.system as Dict).hp = { value: 26, max: 26 };
      diceQueue.push(9, 6, 6); // hit; 6 + 6 = 12: the brain
      const { message } = (await api().rollAttack({
        actor: rifleman.actor,
        weaponId: "knife",
        target: sentryToken,
        situation: { damageType: "slashing", exposedVitals },
      }))!;
      expect(message.system.targets[0]!.result.locations?.map((l) => l.id)).toEqual(["brain"]);
      await api().flow.runCardAction(message, 0, "noReaction");
      diceQueue.push(5); // 1d6 + 1 = 6 slashing
      await api().flow.runCardAction(message, 0, "rollDamage");
      await api().flow.runCardAction(message, 0, "applyDamage");
      return message.system.targets[0]!.applied!.steps.map((s) => s.rule);
    };
    // Covered: the head takes it, 6 - 0 (no helmet) = 6, x3 = 18.
    expect(await slash(false)).toContain("ZN-VIT-03");
    expect(hpOf(sentry)).toBe(8);
    // Exposed: the brain, x6 = 36.
    expect(await slash(true)).toContain("ZN-VIT-03");
    expect(hpOf(sentry)).toBe(-10);
  });
});

const HATCHET = () => ({ ...packSource("zones-weapons", "Throwing_Hatchet_zNw1ThrowingHa13.json"), _id: "hatchet" });

describe("Zones moving and throwing through the bundle", () => {
  it("ZN-MOV-01, ZN-MOV-04, ZN-MOV-03, ZN-ACT-02: a move pays speed points, topped up from effort; out of points, Regain speed spends the action and refills them", async () => {
    await stub.game.settings.set("fray", "zones-moveTakesAction", false);
    try {
      const { rifleman, sentry, riflemanToken, sentryToken } = firefight(10);
      const { flags } = startCombat([
        { actor: rifleman.actor, token: riflemanToken },
        { actor: sentry.actor, token: sentryToken },
      ]);
      const economy = () =>
        flags.get(`c-${riflemanToken.id}.economy`) as {
          slots: Record<string, { used: number }>;
          pools: Record<string, { value: number }>;
        };
      // Walking 6 squares (9 m) costs 9 points: the 8 speed points and 1 effort point.
      await move(riflemanToken, [["walk", 6]]);
      expect(economy().pools).toMatchObject({ speed: { value: 0 }, effort: { value: 2 } });
      expect(economy().slots.action!.used).toBe(0);
      await api().registry.get("zones")!.sheetAction!(rifleman.actor, { rulesetAction: "regainSpeed" }, riflemanToken.id);
      expect(economy().pools.speed!.value).toBe(8);
      expect(economy().slots.action!.used).toBe(1);
      // Running 6 m more costs 3 of them.
      await move(riflemanToken, [["run", 4]]);
      expect(economy().pools.speed!.value).toBe(5);
    } finally {
      await stub.game.settings.set("fray", "zones-moveTakesAction", true);
    }
  });

  it("ZN-THR-01: a hatchet is thrown with Throwing within its effective range; it leaves the hand and cannot be thrown again until picked up", async () => {
    const { sentry, sentryToken } = firefight(8); // 12 m, within the hatchet's 15 m
    const rifleman = actor("thrower", "Thrower", "character", { ...RIFLEMAN, skills: { ...RIFLEMAN.skills, throwing: 2 } }, [HATCHET()]);
    stubToken(rifleman.actor, 0, 0);
    diceQueue.push(6, 3, 4);
    const { message } = (await api().rollAttack({ actor: rifleman.actor, weaponId: "hatchet", target: sentryToken, skipDialog: true }))!;
    const check = message.system.targets[0]!.result.check;
    // d10 6 + DEX 1 + PER 1 + Throwing 2 ranks.
    expect(check.total).toBe(10);
    expect(check.modifiers.map((m) => m.value)).toEqual([1, 1, 2]);
    expect(rifleman.source.items.find((i) => i._id === "hatchet")?.system).toMatchObject({ drawn: false });
    expect(await api().rollAttack({ actor: rifleman.actor, weaponId: "hatchet", target: sentryToken, skipDialog: true })).toBeUndefined();
    // Out of its effective range the throw is refused.
    const far = firefight(11); // 16.5 m
    const second = actor("thrower2", "Second thrower", "character", RIFLEMAN, [HATCHET()]);
    stubToken(second.actor, 0, 0);
    expect(await api().rollAttack({ actor: second.actor, weaponId: "hatchet", target: far.sentryToken, skipDialog: true })).toBeUndefined();
    expect(second.source.items[0]!.system).toMatchObject({ drawn: true });
    expect(hpOf(sentry)).toBe(26);
  });
});

describe("Zones surprise round and initiative", () => {
  it("ZN-SUR-01: a surprised combatant does not roll initiative in round 1 (a warning says why); it rolls from round 2, or once the GM takes the status off", async () => {
    const { rifleman, sentry } = firefight(10);
    const combat = tracker([rifleman, sentry]);
    combat.round = 1;
    sentry.actor.statuses.add("surprised");
    diceQueue.push(5, 7);
    await combat.rollInitiative(["c1", "c2"]);
    // Only the rifleman rolled (5 + DEX 1); the sentry's d10 was not used.
    expect(initiatives(combat)).toEqual({ c1: 6, c2: null });
    expect(diceQueue).toEqual([7]);
    const warning = lookup(en, "FRAY.Zones.Surprise.NoInitiative")!.replace("{name}", "Perimeter Sentry");
    expect(stub.ui.notifications.messages.map((m) => m.text)).toContain(warning);
    // The sentry's own roll button is refused the same way.
    stub.ui.notifications.messages.length = 0;
    await combat.rollInitiative(["c2"]);
    expect(initiatives(combat).c2).toBeNull();
    expect(diceQueue).toEqual([7]);
    expect(stub.ui.notifications.messages.map((m) => [m.level, m.text])).toEqual([["warn", warning]]);
    diceQueue.length = 0;

    // Round 2's roll happens as the round advances, before its start takes the status off: the
    // sentry rolls in it all the same.
    diceQueue.push(2, 9); // rifleman 2 + 1 = 3, sentry 9 + 0 = 9
    const changed: Dict = { round: 2 };
    await combat._preUpdate(changed, {}, gm);
    expect(Object.fromEntries((changed.combatants as Dict[]).map((r) => [r._id, r.initiative]))).toEqual({ c1: 3, c2: 9 });

    // The GM's override in round 1: with the status taken off, the sentry rolls.
    const again = tracker([rifleman, sentry]);
    again.round = 1;
    sentry.actor.statuses.delete("surprised");
    diceQueue.push(4);
    await again.rollInitiative(["c2"]);
    expect(initiatives(again).c2).toBe(4);
  });
});

describe("Zones free action", () => {
  it("ZN-FRE-01: talking (up to ten words) is the one free action of the turn: it leaves the action, a second is refused, a perk's second free action allows it, the surprised have none", async () => {
    const { rifleman, sentry, riflemanToken, sentryToken } = firefight(10);
    const { flags } = startCombat([
      { actor: rifleman.actor, token: riflemanToken },
      { actor: sentry.actor, token: sentryToken },
    ]);
    // What the binding offers: talk, priced at the free action by the core.
    const zonesBinding = (
      stub.game.fray as { registry: { get(id: string): { standingActions(o: Dict): { id: string; rule?: string; cost: Dict }[] } } }
    ).registry.get("zones");
    const talk = zonesBinding.standingActions({}).find((a) => a.id === "talk")!;
    expect(talk).toMatchObject({ rule: "ZN-FRE-01", cost: { slots: { free: 1 } } });

    // The sheet's Actions row takes it (the flow's takeAction): a chat line names it; the free slot is spent.
    const flow = api().flow as unknown as { takeAction(actor: unknown, id: string, o: Dict): Promise<{ ok: boolean }> };
    const economy = () => (flags.get(`c-${riflemanToken.id}.economy`) as { slots: Record<string, { used: number; max: number }> }).slots;
    const before = messages.length;
    expect((await flow.takeAction(rifleman.actor, "talk", { tokenId: riflemanToken.id })).ok).toBe(true);
    expect(messages.length).toBe(before + 1);
    expect(messages.at(-1)!.content).toContain(
      lookup(en, "FRAY.Flow.Action.Line")!.replace("{actor}", "Rifleman").replace("{action}", lookup(en, "FRAY.Zones.Action.talk")!),
    );
    expect(economy()).toMatchObject({ action: { used: 0, max: 1 }, free: { used: 1, max: 1 } });

    // The free action does not take the action: the rifleman still shoots this turn.
    stub.game.user.targets.add(sentryToken);
    diceQueue.push(5, 3, 4);
    expect(await api().rollAttack({ actor: rifleman.actor, weaponId: "carbine", skipDialog: true })).toBeDefined();
    expect(economy()).toMatchObject({ action: { used: 1, max: 1 }, free: { used: 1, max: 1 } });

    // A second free action in the turn is refused with a localized warning naming the slot; nothing is posted.
    stub.ui.notifications.messages.length = 0;
    const posted = messages.length;
    expect((await flow.takeAction(rifleman.actor, "talk", { tokenId: riflemanToken.id })).ok).toBe(false);
    expect(messages.length).toBe(posted);
    const warning = stub.ui.notifications.messages.at(-1)!;
    expect(warning.level).toBe("warn");
    expect(warning.text).toContain(lookup(en, "FRAY.Slot.free")!);
    expect(warning.text).not.toMatch(/FRAY\./);

    // "Usually one": a perk of two free actions (system.actions) lets the sentry talk twice, not three times.
    (sentry.source.system as Dict).actions = { action: 1, reaction: 1, free: 2 };
    expect((await flow.takeAction(sentry.actor, "talk", { tokenId: sentryToken.id })).ok).toBe(true);
    expect((await flow.takeAction(sentry.actor, "talk", { tokenId: sentryToken.id })).ok).toBe(true);
    expect((await flow.takeAction(sentry.actor, "talk", { tokenId: sentryToken.id })).ok).toBe(false);

    // A surprised combatant has no free action in the surprise round (ZN-SUR-01).
    sentry.actor.statuses.add("surprised");
    (sentry.source.system as Dict).actions = { action: 1, reaction: 1, free: 1 };
    flags.delete(`c-${sentryToken.id}.economy`);
    expect((await flow.takeAction(sentry.actor, "talk", { tokenId: sentryToken.id })).ok).toBe(false);
  });
});
