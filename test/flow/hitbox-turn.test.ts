/**
 * The Hitbox turn through the built bundle in the typed stand-in (a world whose ruleset setting is
 * `hitbox`): what an attack and a move spend of the turn's economy (HB-RND-01, HB-ACT-02), and the
 * declaration phase and resolution steps of the tracker (HB-ACT-01): two combatants who shoot
 * each other in one step both fire, and the damage is applied when the GM ends the step.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { StubChatMessage, diceQueue, readLang, lookup, stubToken, type FoundryStub, type StubUser } from "../support/foundry-stub.js";
import { FlowWorld, cardText, type CardApi, type CardMessage, type Dict } from "../support/flow-world.js";
import { boxes, clearHitboxSettings, hitboxOptions, zevenAndGuard, zevenSource } from "../support/flow-hitbox.js";

const en = readLang("en");

type Message = CardMessage;

type FrayApi = CardApi;

// Foundry sends a whisper to its author and recipients only; GMs receive every message (H-W1).
const flowWorld = new FlowWorld<Message>(hitboxOptions({ whispers: true, deletable: true }));
const { messages, docs } = flowWorld;
let stub: FoundryStub;
let gm: StubUser;
let player: StubUser;

/** A Combat of the stand-in, started, with one Combatant per actor (owned as its actor is). */
const startCombat = (entries: Parameters<typeof flowWorld.startCombat>[0]) => flowWorld.startCombat(entries, { ownerFromActor: true });
/** Zeven and the guard 15 ft apart on a 5 ft grid (3 squares). */
const world = () => zevenAndGuard(flowWorld);
const api = () => flowWorld.api<FrayApi>();
/** The card's visible text for the English reader (tags stripped). */
const text = (m: Message) => cardText(m);

beforeAll(async () => {
  ({ stub, gm, player } = await flowWorld.boot());
});

beforeEach(async () => {
  flowWorld.reset();
  clearHitboxSettings(flowWorld);
});

type Economy = { slots: Record<string, { used: number; max: number | null }> };

describe("the turn's economy in combat", () => {
  it("HB-RND-01, HB-ACT-02, HB-ACT-03: an attack, a 10 ft step, a quick action and a walk each spend their cost once, and nothing is logged short", async () => {
    const { zeven, guard, zevenToken, guardToken } = world();
    const { flags } = startCombat([
      { actor: zeven.actor, token: zevenToken },
      { actor: guard.actor, token: guardToken },
    ]);
    const warned: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warned.push(args.map(String).join(" "));
    const flow = api().flow as unknown as {
      takeAction(actor: unknown, id: string, o: Dict): Promise<{ ok: boolean }>;
      onMoveToken(doc: unknown, movement: unknown, op: unknown, user: unknown): Promise<void>;
    };
    try {
      diceQueue.push(4, 4);
      await api().rollAttack({ actor: zeven.actor, weaponId: "hBw1HoldoutPis01", token: zevenToken, target: guardToken });
      const move = { origin: { x: 0, y: 0 }, destination: { x: 0, y: 200 }, passed: { cost: 10 } };
      await flow.onMoveToken(docs.get(zevenToken.document.uuid), move, {}, { id: "gm" });
      expect((await flow.takeAction(zeven.actor, "draw", { tokenId: zevenToken.id })).ok).toBe(true);
      expect((await flow.takeAction(guard.actor, "walk", { tokenId: guardToken.id })).ok).toBe(true);
    } finally {
      console.warn = warn;
    }
    const economy = (token: { id: string }) => (flags.get(`c-${token.id}.economy`) as Economy).slots;
    expect(economy(zevenToken)).toMatchObject({ action: { used: 1 }, reaction: { used: 0 }, quick: { used: 1 } });
    expect(economy(guardToken)).toMatchObject({ action: { used: 1 }, reaction: { used: 0 } });
    expect(warned).toEqual([]);
    expect(stub.ui.notifications.messages.filter((m) => m.level === "warn")).toEqual([]);
  });
});

/** A tracker element of the stand-in: what the binding's `renderTracker` writes, and its click listener. */
function trackerHtml() {
  const el = {
    html: "",
    dataset: {} as Record<string, string>,
    listener: undefined as ((event: unknown) => void) | undefined,
    querySelector: () => null,
    insertAdjacentHTML(_where: string, html: string) {
      el.html += html;
    },
    addEventListener(_type: string, fn: (event: unknown) => void) {
      el.listener = fn;
    },
  };
  return el;
}

/** Clicks the End step button of a rendered tracker and waits for the step to be ended. */
async function clickEndStep(el: ReturnType<typeof trackerHtml>): Promise<void> {
  const target = { closest: (sel: string) => (sel === "[data-fray-end-step]" && el.html.includes("data-fray-end-step") ? {} : null) };
  el.listener?.({ target, preventDefault() {}, stopPropagation() {} });
  for (let i = 0; i < 50; i++) await new Promise((r) => setTimeout(r, 0));
}

describe("the resolution step in the tracker", () => {
  it("HB-ACT-01, HB-RND-01: two combatants shoot each other in one step, both hit, and both take the damage when the GM ends the step", async () => {
    const { zeven, guard, zevenToken, guardToken } = world();
    const { combat, flags } = startCombat([
      { actor: zeven.actor, token: zevenToken },
      { actor: guard.actor, token: guardToken },
    ]);
    const binding = stub.game.fray as { binding: { renderTracker(combat: unknown, html: unknown): void } };
    const flow = api().flow;
    expect((stub.CONFIG as unknown as { time: { roundTime: number } }).time.roundTime).toBe(5);

    // Declaring: no step is open yet, the tracker shows none.
    const declaring = trackerHtml();
    binding.binding.renderTracker(combat, declaring);
    expect(declaring.html).toBe("");
    // The GM reveals the declarations: the turn's step 1 is open.
    await combat.setFlag("fray", "phase", { round: 1, phase: "resolve" });

    // Zeven shoots the guard: 4 + 4 + 3 + 1 + close 1 = 13; regular table 1 + 3: left arm.
    diceQueue.push(4, 4, 1, 3);
    const m1 = (await api().rollAttack({ actor: zeven.actor, weaponId: "hBw1HoldoutPis01", token: zevenToken, target: guardToken }))!
      .message;
    await flow.runCardAction(m1, 0, "noReaction");
    await flow.runCardAction(m1, 0, "rollDamage");
    await flow.runCardAction(m1, 0, "applyDamage");
    // Held: the guard is untouched and still fires back in the same step.
    expect(boxes(guard.actor).leftArm).toEqual({ value: 2, max: 2 });
    expect(m1.system.targets[0]!.applied).toBeUndefined();
    expect(text(m1)).toContain(lookup(en, "FRAY.Hitbox.Step.HeldTitle")!);
    // HB-MOD-01: the range header in feet, as the scene measures it (15 ft = 4.572 m).
    expect(text(m1)).toContain("Range: 15.0 ft");
    expect(m1.content).not.toContain('data-action="fray-applyDamage"');

    const zevenBefore = structuredClone(zeven.source.system);
    // The guard shoots Zeven: 4 + 4 + 3 + 0 + close 1 = 12; left arm.
    diceQueue.push(4, 4, 1, 3);
    const m2 = (await api().rollAttack({ actor: guard.actor, weaponId: "hBi1SecuriDuty01", token: guardToken, target: zevenToken }))!
      .message;
    expect(m2.system.targets[0]!.result.hit).toBe(true);
    await flow.runCardAction(m2, 0, "noReaction");
    await flow.runCardAction(m2, 0, "rollDamage");
    await flow.runCardAction(m2, 0, "applyDamage");
    expect(zeven.source.system).toEqual(zevenBefore);
    expect(flags.get("combat.hitboxStep")).toMatchObject({ round: 1, step: 1, held: [{ messageId: m1.id }, { messageId: m2.id }] });

    // The tracker shows the step and what it holds; the GM ends it: both take their damage.
    const el = trackerHtml();
    binding.binding.renderTracker(combat, el);
    expect(el.html).toContain("Step 1");
    expect(el.html).toContain("2 held");
    expect(el.html).toContain('data-fray-end-step="1"');
    await clickEndStep(el);
    expect(boxes(guard.actor).leftArm).toEqual({ value: 1, max: 2 });
    expect(boxes(zeven.actor).leftArm!.value).toBe(boxes(zeven.actor).leftArm!.max - 1);
    expect(m1.system.targets[0]!.applied).toBeDefined();
    expect(m2.system.targets[0]!.applied).toBeDefined();
    expect(text(m1)).not.toContain(lookup(en, "FRAY.Hitbox.Step.HeldTitle")!);
    expect(flags.get("combat.hitboxStep")).toEqual({ round: 1, step: 2, held: [] });
    expect(stub.ui.notifications.messages.filter((m) => m.level === "error" || m.level === "warn")).toEqual([]);
  });

  it("HB-ACT-01: a held hit whose card its author re-wrote to speak for someone else's actor is not committed when the step ends", async () => {
    const { zeven, guard, zevenToken, guardToken } = world();
    const twin = flowWorld.actor({ ...zevenSource(), _id: "twin", name: "Zeven's Twin" });
    flowWorld.register(stubToken(twin.actor, 0, 1));
    zeven.actor.ownership = { default: 0, p1: 3 };
    twin.actor.ownership = { default: 0 };
    guard.actor.ownership = { default: 0 };
    const { combat, flags } = startCombat([
      { actor: zeven.actor, token: zevenToken },
      { actor: guard.actor, token: guardToken },
    ]);
    await combat.setFlag("fray", "phase", { round: 1, phase: "resolve" });
    const flow = api().flow;
    stub.game.users.current = player;
    diceQueue.push(4, 4, 1, 3);
    const m1 = (await api().rollAttack({ actor: zeven.actor, weaponId: "hBw1HoldoutPis01", token: zevenToken, target: guardToken }))!
      .message;
    stub.game.users.current = gm;
    await flow.runCardAction(m1, 0, "noReaction");
    stub.game.users.current = player;
    await flow.runCardAction(m1, 0, "rollDamage");
    await flow.runCardAction(m1, 0, "applyDamage");
    expect(flags.get("combat.hitboxStep")).toMatchObject({ held: [{ messageId: m1.id, userId: "p1" }] });
    // Pat's card now names the twin, whom Pat does not own, as the attacker: the same dice, someone else's hit.
    await m1.update({ "system.attackerUuid": twin.actor.uuid });
    stub.game.users.current = gm;
    const el = trackerHtml();
    (stub.game.fray as { binding: { renderTracker(combat: unknown, html: unknown): void } }).binding.renderTracker(combat, el);
    await clickEndStep(el);
    expect(boxes(guard.actor).leftArm).toEqual({ value: 2, max: 2 });
    expect(m1.system.targets[0]!.applied).toBeUndefined();
    expect(stub.ui.notifications.messages.filter((m) => m.level === "error").length).toBe(1);
    expect(flags.get("combat.hitboxStep")).toEqual({ round: 1, step: 2, held: [] });
  });

  it("HB-ACT-01: a player cannot end the step; its held damage stays held", async () => {
    const { zeven, guard, zevenToken, guardToken } = world();
    const { combat } = startCombat([
      { actor: zeven.actor, token: zevenToken },
      { actor: guard.actor, token: guardToken },
    ]);
    await combat.setFlag("fray", "phase", { round: 1, phase: "resolve" });
    diceQueue.push(4, 4, 1, 3);
    const m1 = (await api().rollAttack({ actor: zeven.actor, weaponId: "hBw1HoldoutPis01", token: zevenToken, target: guardToken }))!
      .message;
    await api().flow.runCardAction(m1, 0, "noReaction");
    await api().flow.runCardAction(m1, 0, "rollDamage");
    await api().flow.runCardAction(m1, 0, "applyDamage");
    const el = trackerHtml();
    (stub.game.fray as { binding: { renderTracker(combat: unknown, html: unknown): void } }).binding.renderTracker(combat, el);
    stub.game.users.current = player;
    const seen = trackerHtml();
    (stub.game.fray as { binding: { renderTracker(combat: unknown, html: unknown): void } }).binding.renderTracker(combat, seen);
    expect(seen.html).toContain("Step 1");
    expect(seen.html).not.toContain("data-fray-end-step");
    await clickEndStep(el);
    expect(stub.ui.notifications.messages).toContainEqual({ level: "warn", text: lookup(en, "FRAY.Hitbox.Step.GMOnly")! });
    expect(boxes(guard.actor).leftArm).toEqual({ value: 2, max: 2 });
  });
});

interface DeclarationFlow {
  trackerDeclarations(combat: unknown): { rows: { id: string; declared: boolean; visible?: Dict }[] } | undefined;
  declareFor(
    combat: unknown,
    combatant: unknown,
    ask: (name: string, labels: { id: string }[], current: unknown, quick?: { legend: string; actions: { id: string }[] }) => Promise<Dict>,
  ): Promise<boolean>;
  revealDeclarations(combat: unknown): Promise<boolean>;
}

/** The tracker's visible text, without the spaces the tags leave before a colon or a comma. */
const plain = (html: string) => text({ content: html } as Message).replace(/\s+([:,])/g, "$1");

/** Clicks a Pre-empts toggle of a rendered tracker and waits for the marks to be written. */
async function clickPreempt(el: ReturnType<typeof trackerHtml>, id: string): Promise<void> {
  const target = { closest: (sel: string) => (sel === "[data-fray-preempt]" ? { dataset: { frayPreempt: id } } : null) };
  el.listener?.({ target, preventDefault() {}, stopPropagation() {} });
  for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 0));
}

describe("declarations and the order of resolution", () => {
  it("HB-ACT-01, HB-ACT-03: an action and its quick actions are declared sealed, other players learn only that they were, the GM reveals them and rules which pre-empt; the steps follow", async () => {
    const { zeven, guard, zevenToken, guardToken } = world();
    // Pat plays Zeven; the guard is the GM's; Kim plays someone else.
    (zeven.actor as unknown as { ownership: Dict }).ownership = { default: 0, p1: 3 };
    (guard.actor as unknown as { ownership: Dict }).ownership = { default: 0 };
    const kim = stub.game.users.get("p2") ?? stub.game.users.add("p2", "Kim");
    const { combat, flags } = startCombat([
      { actor: zeven.actor, token: zevenToken },
      { actor: guard.actor, token: guardToken },
    ]);
    const flow = api().flow as unknown as DeclarationFlow;
    const [zc, gc] = combat.combatants;

    // Pat declares for Zeven: the form offers the action (no dodge, parry or quick action there)
    // and the quick actions as ticks.
    stub.game.users.current = player;
    let offered: { main: string[]; quick: string[]; legend?: string } = { main: [], quick: [] };
    const ask =
      (answer: Dict) =>
      async (_n: string, labels: { id: string }[], _c: unknown, quick?: { legend: string; actions: { id: string }[] }) => {
        offered = { main: labels.map((l) => l.id), quick: quick?.actions.map((q) => q.id) ?? [], legend: quick?.legend };
        return answer;
      };
    expect(await flow.declareFor(combat, zc, ask({ text: "Shoot the guard's leg", action: "attack", quick: ["draw", "prone"] }))).toBe(
      true,
    );
    expect(offered.quick).toEqual(["draw", "letGo", "communicate", "prone"]);
    expect(offered.main).toContain("attack");
    expect(offered.main).not.toContain("dodge");
    expect(offered.main).not.toContain("parry");
    expect(offered.main).not.toContain("prone");
    expect(lookup(en, offered.legend!)).toBeDefined();
    // Sealed: the Combatant only says it declared; the content is in a whisper to the GM, by Pat.
    const sealedId = (flags.get(`${zc!.id}.declaration`) as { sealed: string }).sealed;
    expect(flags.get(`${zc!.id}.declaration`)).toEqual({ round: 1, text: "", sealed: sealedId });
    const whisper = messages.find((m) => m.id === sealedId) as unknown as { whisper: string[]; author: { id: string }; content: string };
    expect(whisper.whisper).toEqual(["gm"]);
    expect(whisper.author.id).toBe("p1");
    expect(whisper.content).toContain("<strong>Attack</strong> Shoot the guard's leg + Draw an item, Go prone");
    // Pat reads Zeven's declaration back.
    const row = (id: string) => flow.trackerDeclarations(combat)!.rows.find((r) => r.id === id)!;
    expect(row(zc!.id).visible).toEqual({ round: 1, text: "Shoot the guard's leg", action: "attack", quick: ["draw", "prone"] });
    // Kim sees that Zeven declared, not what: the whisper never reached her client.
    stub.game.users.current = kim;
    expect(row(zc!.id)).toMatchObject({ declared: true });
    expect(row(zc!.id).visible).toBeUndefined();
    // A quick action the ruleset does not have is refused with the field named; nothing is stored.
    stub.game.users.current = gm;
    await expect(flow.declareFor(combat, gc, ask({ text: "", action: "", quick: ["reload"] }))).rejects.toThrow(/quick/);
    expect(flags.get(`${gc!.id}.declaration`)).toBeUndefined();
    // The GM declares the guard's run for the alarm.
    expect(await flow.declareFor(combat, gc, ask({ text: "Run to the alarm", action: "run" }))).toBe(true);
    expect(row(gc!.id).visible).toMatchObject({ text: "Run to the alarm", action: "run" });

    // The GM reveals: the declarations are written open on the Combatants; Kim reads them now.
    expect(await flow.revealDeclarations(combat)).toBe(true);
    expect(flags.get(`${zc!.id}.declaration`)).toEqual({
      round: 1,
      text: "Shoot the guard's leg",
      action: "attack",
      quick: ["draw", "prone"],
    });
    stub.game.users.current = kim;
    expect(row(zc!.id).visible).toMatchObject({ action: "attack", quick: ["draw", "prone"] });
    expect(row(gc!.id).visible).toMatchObject({ action: "run" });

    // The tracker lists the steps: all at the same time until the GM rules otherwise.
    const render = (api() as unknown as { binding: { renderTracker(c: unknown, h: unknown): void } }).binding;
    const kimView = trackerHtml();
    render.renderTracker(combat, kimView);
    expect(plain(kimView.html)).toContain(`Step 1 ${lookup(en, "FRAY.Hitbox.Plan.Together")}: Zeven, Security Guard`);
    expect(kimView.html).not.toContain("data-fray-preempt");
    // HB-ACT-01 (seed example): the GM rules that Zeven's shot pre-empts the guard's run.
    stub.game.users.current = gm;
    const gmView = trackerHtml();
    render.renderTracker(combat, gmView);
    expect(gmView.html).toContain(`data-fray-preempt="${zc!.id}"`);
    await clickPreempt(gmView, zc!.id);
    expect(flags.get("combat.hitboxPreempt")).toEqual({ round: 1, ids: [zc!.id] });
    const after = trackerHtml();
    render.renderTracker(combat, after);
    const plan = plain(after.html);
    expect(plan).toContain(`Step 1 ${lookup(en, "FRAY.Hitbox.Plan.Preempts")}: Zeven`);
    expect(plan).toContain(`Step 2 ${lookup(en, "FRAY.Hitbox.Plan.Together")}: Security Guard`);
    expect(after.html).toMatch(/fray-plan-step current preempts/);

    // Zeven's shot resolves in step 1: 7 + 4 (Dex 3 + Firearms 1) + close 1 = 12; regular table 3 + 3: left leg.
    diceQueue.push(3, 4, 3, 3);
    const m1 = (await api().rollAttack({ actor: zeven.actor, weaponId: "hBw1HoldoutPis01", token: zevenToken, target: guardToken }))!
      .message;
    await api().flow.runCardAction(m1, 0, "noReaction");
    await api().flow.runCardAction(m1, 0, "rollDamage");
    await api().flow.runCardAction(m1, 0, "applyDamage");
    // Damage is on its way: the order is set.
    await clickPreempt(after, gc!.id);
    expect(stub.ui.notifications.messages).toContainEqual({ level: "warn", text: lookup(en, "FRAY.Hitbox.Plan.Locked")! });
    expect(flags.get("combat.hitboxPreempt")).toEqual({ round: 1, ids: [zc!.id] });
    await clickEndStep(after);
    expect(boxes(guard.actor).leftLeg!.value).toBe(boxes(guard.actor).leftLeg!.max - 1);
    // Step 1 is done; the guard's run is what remains, in step 2.
    const step2 = trackerHtml();
    render.renderTracker(combat, step2);
    expect(step2.html).toMatch(/fray-plan-step done preempts/);
    expect(step2.html).toMatch(/fray-plan-step current"><strong>Step 2/);
    expect(step2.html).not.toContain("data-fray-preempt");
  });

  it("HB-ACT-01: at the reveal a sealed declaration whose whisper was written by someone who does not own the combatant stays sealed", async () => {
    const { zeven, guard, zevenToken, guardToken } = world();
    (guard.actor as unknown as { ownership: Dict }).ownership = { default: 0 };
    const { combat, flags } = startCombat([
      { actor: zeven.actor, token: zevenToken },
      { actor: guard.actor, token: guardToken },
    ]);
    const [, gc] = combat.combatants;
    // Pat forges a whisper that claims to hold the guard's declaration, and the mark points to it.
    stub.game.users.current = player;
    const forged = await (StubChatMessage.implementation.create as unknown as (d: Dict) => Promise<Message>)({
      whisper: ["gm"],
      content: "",
      flags: {
        fray: {
          sealedDeclaration: { combatId: "combat1", combatantId: gc!.id, declaration: { round: 1, text: "Surrender", action: "task" } },
        },
      },
    });
    await gc!.setFlag("fray", "declaration", { round: 1, text: "", sealed: forged.id });
    stub.game.users.current = gm;
    expect(await (api().flow as unknown as DeclarationFlow).revealDeclarations(combat)).toBe(true);
    expect(flags.get(`${gc!.id}.declaration`)).toEqual({ round: 1, text: "", sealed: forged.id });
    expect(
      (api().flow as unknown as DeclarationFlow).trackerDeclarations(combat)!.rows.find((r) => r.id === gc!.id)!.visible,
    ).toBeUndefined();
  });
});

describe("the GM's opposed test in the tracker", () => {
  it("HB-ACT-05: the Opposed test button asks for two combatants and their skills and posts the card; players get no button and are refused", async () => {
    const { zeven, guard, zevenToken, guardToken } = world();
    const { combat } = startCombat([
      { actor: zeven.actor, token: zevenToken },
      { actor: guard.actor, token: guardToken },
    ]);
    const [zc, gc] = combat.combatants;
    await combat.setFlag("fray", "phase", { round: 1, phase: "resolve" });
    const render = (api() as unknown as { binding: { renderTracker(c: unknown, h: unknown): void } }).binding;
    // The form the DialogV2 shows, submitted with the guard's Melee against Zeven's Dodge.
    const apps = (globalThis as unknown as { foundry: { applications: { api: Dict } } }).foundry.applications.api;
    let content = "";
    apps.DialogV2 = {
      wait: async (o: { content: string; buttons: { callback(e: unknown, b: unknown): unknown }[] }) => {
        content = o.content;
        const elements = { a: { value: gc!.id }, skillA: { value: "melee" }, b: { value: zc!.id }, skillB: { value: "dodge" } };
        return o.buttons[0]!.callback({}, { form: { elements } });
      },
    };
    try {
      const el = trackerHtml();
      render.renderTracker(combat, el);
      expect(el.html).toContain('data-fray-opposed="1"');
      // 10 on the guard's dice against 2 on Zeven's: the guard wins whatever the bonuses.
      diceQueue.push(5, 5, 1, 1);
      const target = { closest: (sel: string) => (sel === "[data-fray-opposed]" ? {} : null) };
      el.listener?.({ target, preventDefault() {}, stopPropagation() {} });
      for (let i = 0; i < 30; i++) await new Promise((r) => setTimeout(r, 0));
      // The form offers both combatants and every skill, Firearms against Dodge by default.
      expect(content).toContain(`<option value="${zc!.id}" selected>Zeven</option>`);
      expect(content).toContain(`<option value="${gc!.id}" selected>Security Guard</option>`);
      expect(content).toContain('<option value="firearms" selected>');
      const card = text(messages.at(-1)!);
      expect(card).toContain("Security Guard wins");
      expect(card).toContain(`Security Guard · ${lookup(en, "FRAY.Hitbox.Skill.melee")}`);
      expect(card).toContain(`Zeven · ${lookup(en, "FRAY.Hitbox.Skill.dodge")}`);
      // One combatant against itself is refused, naming the field.
      const count = messages.length;
      apps.DialogV2 = { wait: async () => ({ a: zc!.id, skillA: "melee", b: zc!.id, skillB: "dodge" }) };
      el.listener?.({ target, preventDefault() {}, stopPropagation() {} });
      for (let i = 0; i < 30; i++) await new Promise((r) => setTimeout(r, 0));
      expect(messages.length).toBe(count);
      expect(stub.ui.notifications.messages.at(-1)).toMatchObject({ level: "error" });
      expect(stub.ui.notifications.messages.at(-1)!.text).toContain('"b"');
      // A player sees the step, not the button.
      stub.game.users.current = player;
      const seen = trackerHtml();
      render.renderTracker(combat, seen);
      expect(seen.html).not.toContain("data-fray-opposed");
    } finally {
      delete apps.DialogV2;
    }
  });
});
