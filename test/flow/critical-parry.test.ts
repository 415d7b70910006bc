/**
 * The parry allocation of Critical through the built bundle in the stand-in (CR-PAR-01 to
 * CR-PAR-03): declared in the tracker with the round's declarations, lowest initiative first
 * (CR-INI-02), through the parry dialog; written to the combatant's own actor; read by every
 * attack (the defender's DB line, the attacker's OB less the OB moved); refused when constrained;
 * ignored by an unseen attack; a value written around the dialog above the OB refused with the
 * field named, on the attacker's client and on the GM's replay; cleared at the next round. The
 * attack dialog shows the OB and DB with the parry that applies and the exact chance of each
 * outcome (miss, hits only, criticals A to E, fumble), the core's numbers (CR-ATK-01, CR-ATK-02).
 */
import { mergedFlag } from "../support/data-model.js";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { critical, criticalCombatantFromActor, OUTCOME_ORDER } from "../../src/rules/critical/index.js";
import { StubChatMessage, diceQueue, lookup, readLang, type FoundryStub } from "../support/foundry-stub.js";
import { FakeElement, FlowWorld, type CardApi, type CardMessage, type Dict } from "../support/flow-world.js";
import { criticalActor, criticalOptions } from "../support/flow-critical.js";

const en = readLang("en");

type Message = CardMessage;

type FrayApi = CardApi;

const flowWorld = new FlowWorld<Message>(criticalOptions());
let stub: FoundryStub;

beforeAll(async () => {
  ({ stub } = await flowWorld.boot());
});

const api = () => flowWorld.api<FrayApi>();

/** An actor of the stand-in with a token, both registered by UUID. */
const actor = (id: string, file: string, name?: string, system: Dict = {}) => criticalActor(flowWorld, id, file, name, system);

/** Kara (the example's Sword Fighter) and the Pistol Guard, no parry declared yet. */
function duel() {
  const guard = actor("guard", "Pistol_Guard_fRc2NpcPistolGrd.json");
  const kara = actor("kara", "Sword_Fighter_fRc2NpcSwordFtr0.json", "Kara Voss");
  return { kara, guard };
}

beforeEach(() => {
  flowWorld.reset();
  flowWorld.resetUsers();
  StubChatMessage.created.length = 0;
  (stub.game as unknown as Dict).tables = [];
});

const SWORD = "fRc2SwordFtItm10";
const PISTOL = "fRc2PistolGItm10";

type Duel = ReturnType<typeof duel>;

/** A tracker combatant of one side of the duel (its id is its token's, as the attacks name it). */
function combatantOf(side: Duel["kara"], initiative: number, owner: boolean) {
  const flags: Dict = {};
  return {
    id: side.token.id,
    tokenId: side.token.id,
    name: side.actor.name,
    initiative,
    defeated: false,
    hasPlayerOwner: owner,
    isOwner: owner || stub.game.user.isGM,
    actor: side.actor,
    flags: { fray: {} },
    getFlag: (_s: string, k: string) => flags[k],
    setFlag: async (_s: string, k: string, v: unknown) => (flags[k] = mergedFlag(flags[k], v)),
  };
}

/** A combat in round 1, declaring (CR-INI-02): Kara (initiative 30) declares before the guard (60). */
function fight(d: Duel) {
  const list = [combatantOf(d.kara, 30, true), combatantOf(d.guard, 60, false)];
  const flags: Dict = {};
  return {
    id: "combat1",
    round: 1,
    list,
    combatants: Object.assign(list, { get: (id: string) => list.find((c) => c.id === id) }),
    getFlag: (_s: string, k: string) => flags[k],
    setFlag: async (_s: string, k: string, v: unknown) => (flags[k] = mergedFlag(flags[k], v)),
  };
}

/** Renders the tracker: one row per combatant, through every `renderCombatTracker` handler. */
function renderTracker(combat: ReturnType<typeof fight>) {
  const rows = combat.list.map((c) => {
    const row = new FakeElement("li");
    row.dataset = { combatantId: c.id };
    row.append(new FakeElement("div", ["token-name"]));
    return row;
  });
  const html = new FakeElement("ol").append(...rows);
  for (const h of stub.Hooks.handlers.get("renderCombatTracker") ?? []) h.fn({ viewed: combat }, html);
  return rows.map((r) => ({ row: r, html: r.querySelector(".token-name")!.html }));
}

/** Clicks the Parry button of a row; waits for the dialog and the write. */
async function clickParry(row: FakeElement, id: string) {
  const button = { closest: (sel: string) => (sel === "[data-fray-parry]" ? { dataset: { frayParry: id } } : null) };
  for (const fn of row.listeners) fn({ target: button, preventDefault() {}, stopPropagation() {} });
  await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Answers the next dialog with `answer` (through the button's callback on a form of `values`), keeping what it was shown. */
function answerDialog(values: Record<string, string> | null) {
  const seen: { content: string; title: string }[] = [];
  const apps = ((globalThis as Dict).foundry as { applications: { api: Dict } }).applications.api;
  apps.DialogV2 = {
    wait: async (config: { content: string; window: { title: string }; buttons: { callback?: (e: unknown, b: unknown) => unknown }[] }) => {
      seen.push({ content: config.content, title: config.window.title });
      if (!values) return null;
      const form = { elements: { namedItem: (name: string) => (name in values ? { value: values[name] } : null) } };
      return config.buttons[0]!.callback!({}, { form });
    },
  };
  return seen;
}

const parryOf = (a: unknown) => (a as { system: { parry: Record<string, number> } }).system.parry;
const lastError = () => stub.ui.notifications.messages.filter((m) => m.level === "error").at(-1)?.text;

describe("the parry declared in the tracker", () => {
  it("CR-PAR-01, CR-PAR-02, CR-INI-02: the declaring combatant's row offers Parry; the dialog lists the foe at its rate; the split is written to its actor", async () => {
    const d = duel();
    const combat = fight(d);
    const [karaRow, guardRow] = renderTracker(combat);
    // Kara declares first (lowest initiative): only her row has the button.
    expect(karaRow!.html).toContain(`data-fray-parry="${d.kara.token.id}"`);
    expect(karaRow!.html).toContain(`>${lookup(en, "FRAY.Critical.Parry.Button")}<`);
    expect(guardRow!.html).not.toContain("data-fray-parry");
    const seen = answerDialog({ [`parry.${d.guard.token.id}`]: "20" });
    await clickParry(karaRow!.row, d.kara.token.id);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.title).toBe("Parry: Kara Voss");
    // The guard's pistol is a missile weapon: 2 OB make 1 DB (CR-PAR-02); Kara's sword has 75 OB to move.
    expect(seen[0]!.content).toContain("Pistol Guard");
    expect(seen[0]!.content).toContain("2:1 (missile)");
    expect(seen[0]!.content).toContain(`name="parry.${d.guard.token.id}"`);
    expect(seen[0]!.content).toContain("OB left to attack with: 75 of 75");
    expect(stub.ui.notifications.messages).toEqual([]);
    expect(parryOf(d.kara.actor)).toEqual({ [d.guard.token.id]: 20 });
    // The button now says what is moved.
    expect(renderTracker(combat)[0]!.html).toContain("Parry (20 OB)");
  });

  it("CR-PAR-01, CR-PAR-02: the guard's shot reads Kara's parry in the DB lines (20 OB at 2:1 = 10); Kara's own cut loses the 20 OB", async () => {
    const d = duel();
    const combat = fight(d);
    answerDialog({ [`parry.${d.guard.token.id}`]: "20" });
    await clickParry(renderTracker(combat)[0]!.row, d.kara.token.id);
    diceQueue.push(45);
    const shot = (await api().rollAttack({
      actor: d.guard.actor,
      weaponId: PISTOL,
      token: d.guard.token,
      target: d.kara.token,
      skipDialog: true,
    }))!.message;
    // 45 + 55 OB - 15 DB - 10 parry = 75.
    expect(shot.system.targets[0]!.result).toMatchObject({ detail: { total: 75 } });
    expect(shot.content).toContain("Parry: 20 OB at 2:1 (missile)");
    diceQueue.push(50);
    const cut = (await api().rollAttack({
      actor: d.kara.actor,
      weaponId: SWORD,
      token: d.kara.token,
      target: d.guard.token,
      skipDialog: true,
    }))!.message;
    // 50 + 75 OB - 20 moved - 5 DB = 100.
    expect(cut.system.targets[0]!.result.plan.modifiers).toContainEqual(
      expect.objectContaining({ label: "FRAY.Mod.ParryMoved", value: -20 }),
    );
    expect(cut.system.targets[0]!.result).toMatchObject({ detail: { total: 100 } });
    expect(cut.content).toContain(lookup(en, "FRAY.Mod.ParryMoved"));
  });

  it("CR-PAR-03: an unseen shot ignores the parry (a 0 line saying why)", async () => {
    const d = duel();
    answerDialog({ [`parry.${d.guard.token.id}`]: "20" });
    await clickParry(renderTracker(fight(d))[0]!.row, d.kara.token.id);
    diceQueue.push(45);
    const shot = (await api().rollAttack({
      actor: d.guard.actor,
      weaponId: PISTOL,
      token: d.guard.token,
      target: d.kara.token,
      situation: { unseen: true },
    }))!.message;
    expect(shot.system.targets[0]!.result).toMatchObject({ detail: { total: 85 } });
    expect(shot.content).toContain("Parry of 20 OB does not count: the attack is not seen");
  });

  it("CR-PAR-03: a constrained combatant cannot declare a parry: a localized error, nothing written", async () => {
    const d = duel();
    d.kara.actor.statuses.add("constrained");
    const seen = answerDialog({ [`parry.${d.guard.token.id}`]: "20" });
    await clickParry(renderTracker(fight(d))[0]!.row, d.kara.token.id);
    expect(seen).toHaveLength(0);
    expect(lastError()).toContain("Kara Voss cannot parry");
    expect(lastError()).not.toContain("FRAY.");
    expect(parryOf(d.kara.actor) ?? {}).toEqual({});
  });

  it("CR-PAR-01: more OB than the weapon has, or a negative split, is refused in the dialog with the field named; nothing written", async () => {
    const d = duel();
    const row = renderTracker(fight(d))[0]!.row;
    answerDialog({ [`parry.${d.guard.token.id}`]: "80" });
    await clickParry(row, d.kara.token.id);
    expect(lastError()).toContain("moves 80 OB into parrying but has only 75");
    answerDialog({ [`parry.${d.guard.token.id}`]: "-5" });
    await clickParry(row, d.kara.token.id);
    expect(lastError()).toContain(`parry.${d.guard.token.id}`);
    expect(parryOf(d.kara.actor) ?? {}).toEqual({});
  });

  it("CR-PAR-01, CR-INI-02: the guard cannot declare its parry before its turn to declare", async () => {
    const d = duel();
    const combat = fight(d);
    const seen = answerDialog({ [`parry.${d.kara.token.id}`]: "10" });
    const tools = (
      stub.game.fray as { registry: { get(id: string): { tools: { declareParry(c: unknown, x: unknown): Promise<boolean> } } } }
    ).registry.get("critical")!.tools;
    expect(await tools.declareParry(combat, combat.list[1])).toBe(false);
    expect(seen).toHaveLength(0);
    expect(parryOf(d.guard.actor) ?? {}).toEqual({});
  });

  it("CR-PAR-01: an allocation written around the dialog above the OB is refused naming system.parry on the attack and in the GM's replay of the card", async () => {
    const d = duel();
    // The guard shoots while Kara holds a legal parry; the card is posted.
    await (d.kara.actor.update as (c: Dict) => Promise<unknown>)({ "system.parry": { [d.guard.token.id]: 20 } });
    diceQueue.push(45);
    const shot = (await api().rollAttack({
      actor: d.guard.actor,
      weaponId: PISTOL,
      token: d.guard.token,
      target: d.kara.token,
      skipDialog: true,
    }))!.message;
    // Kara's owner writes 500 OB straight onto her actor.
    await (d.kara.actor.update as (c: Dict) => Promise<unknown>)({ "system.parry": { [d.guard.token.id]: 500 } });
    stub.ui.notifications.messages.length = 0;
    diceQueue.push(45);
    const refused = await api().rollAttack({
      actor: d.guard.actor,
      weaponId: PISTOL,
      token: d.guard.token,
      target: d.kara.token,
      skipDialog: true,
    });
    expect(refused?.message).toBeUndefined();
    expect(lastError()).toContain('Field "system.parry"');
    expect(lastError()).toContain("500 OB");
    const hits = (d.kara.actor.system as { hits: { value: number } }).hits.value;
    stub.ui.notifications.messages.length = 0;
    await api().flow.runCardAction(shot, 0, "rollDamage");
    await api().flow.runCardAction(shot, 0, "applyDamage");
    // The GM replays the card against Kara as she is now: the replay refuses naming the parry, nothing is applied.
    expect(lastError()).toContain('Field "system.parry"');
    expect(lastError()).toContain("500 OB");
    expect((d.kara.actor.system as { hits: { value: number } }).hits.value).toBe(hits);
  });

  it("CR-PAR-01: the parry of the last round ends when the next starts (the GM's round start)", async () => {
    const d = duel();
    answerDialog({ [`parry.${d.guard.token.id}`]: "20" });
    await clickParry(renderTracker(fight(d))[0]!.row, d.kara.token.id);
    expect(parryOf(d.kara.actor)).toEqual({ [d.guard.token.id]: 20 });
    const binding = (
      stub.game.fray as { registry: { get(id: string): { startRoundOn(a: unknown, r: number, o: unknown): Promise<void> } } }
    ).registry.get("critical")!;
    await binding.startRoundOn(d.kara.actor, 2, {});
    expect(parryOf(d.kara.actor) ?? {}).toEqual({});
  });
});

describe("the attack dialog of Critical", () => {
  it("CR-ATK-01, CR-ATK-02, CR-PAR-01, CR-PAR-02: it shows the OB less the OB moved, the DB with the parry, and the exact chance of each outcome", async () => {
    const d = duel();
    // Both have declared: Kara 20 OB against the guard's pistol, the guard 10 OB against Kara's sword.
    await (d.kara.actor.update as (c: Dict) => Promise<unknown>)({ "system.parry": { [d.guard.token.id]: 20 } });
    await (d.guard.actor.update as (c: Dict) => Promise<unknown>)({ "system.parry": { [d.kara.token.id]: 10 } });
    const seen = answerDialog(null);
    const outcome = await api().rollAttack({ actor: d.guard.actor, weaponId: PISTOL, token: d.guard.token, target: d.kara.token });
    expect(outcome).toBeUndefined();
    expect(seen).toHaveLength(1);
    const html = seen[0]!.content;
    // The core's numbers for the same attack, from the same actors.
    const source = (a: unknown, id: string) =>
      criticalCombatantFromActor({ ...((a as { toObject(): Dict }).toObject() as Dict), statuses: [] } as never, { id });
    const guard = source(d.guard.actor, d.guard.token.id);
    const kara = source(d.kara.actor, d.kara.token.id);
    const input = critical.input({ attackerId: guard.id, targetId: kara.id, weaponId: PISTOL }, guard, kara, critical.defaults());
    const plan = critical.planAttack(input, critical.defaults());
    const odds = critical.odds(plan, input, critical.defaults());
    // OB 55 - 10 moved = 45; DB 15 + 10 (Kara's 20 OB at 2:1) = 25.
    expect(html).toMatch(/OB in all<\/span> <span class="fray-value">\+45<\/span>/);
    expect(html).toMatch(/OB moved into parrying<\/span> <span class="fray-value">-10<\/span> <span class="fray-rule">CR-PAR-01/);
    expect(html).toMatch(/Defender&#x27;s DB in all<\/span> <span class="fray-value">\+25<\/span>/);
    expect(html).toMatch(/Parry: 20 OB at 2:1 \(missile\)<\/span> <span class="fray-value">\+10<\/span> <span class="fray-rule">CR-PAR-02/);
    const labels: Record<string, string> = { miss: "Miss", hitsOnly: "Hits only", fumble: "Fumble" };
    let sum = 0;
    for (const id of OUTCOME_ORDER) {
      const p = odds.outcomes![id]!;
      sum += p;
      const label = labels[id] ?? `Critical ${id}`;
      const pct = new Intl.NumberFormat("en", { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(p * 100);
      expect(html, id).toContain(`<span class="fray-label">${label}</span> <span class="fray-value">${pct}%</span>`);
    }
    expect(sum).toBeCloseTo(1, 12);
    // The pistol fumbles on 01-02 unmodified: 2 %.
    expect(html).toContain('<span class="fray-label">Fumble</span> <span class="fray-value">2.0%</span>');
  });
});
