/**
 * Maneuvers from the Critical sheet through the built bundle in the stand-in (CR-MAN-01, CR-AP-01):
 * the dialog's skill, difficulty and concentration; the open-ended d100 with the maneuver bonus,
 * skill, difficulty and armor penalty on a chat card with its roll; 100 % or more completes it;
 * below 100 what the world's setting says (the GM decides, not completed, or completed with the
 * shortfall as a penalty written to the actor); 2 AP spent in combat; bad input refused with the
 * field named and nothing spent.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { StubChatMessage, diceQueue, lookup, readLang, withOwnership, type FoundryStub } from "../support/foundry-stub.js";
import { FlowWorld, type CardMessage, type Dict } from "../support/flow-world.js";
import { combatOf as combatOfIn, criticalActor, criticalOptions, pressButton } from "../support/flow-critical.js";

const en = readLang("en");

type Message = CardMessage;

const flowWorld = new FlowWorld<Message>(criticalOptions());
const { messages } = flowWorld;
let stub: FoundryStub;

beforeAll(async () => {
  ({ stub } = await flowWorld.boot());
});

/** An actor of the stand-in with a token, both registered by UUID. */
const actor = (id: string, file: string, name?: string, system: Dict = {}) => criticalActor(flowWorld, id, file, name, system);

/** Kara, the Sword Fighter, with a maneuver bonus of 15 (her cuirass costs 5 on maneuvers). */
const kara = () => actor("kara", "Sword_Fighter_fRc2NpcSwordFtr0.json", "Kara Voss", { maneuver: 15 });

beforeEach(async () => {
  flowWorld.reset();
  flowWorld.resetUsers();
  StubChatMessage.created.length = 0;
  await stub.game.settings.set("fray", "critical-maneuverShortfall", "gm");
});

/** Starts a combat of one combatant for an actor's token; its flags live in the returned map. */
const combatOf = (who: ReturnType<typeof actor>) => combatOfIn(flowWorld, who);

/** Answers the maneuver dialog with the given form values, keeping what it showed. */
function answerDialog(values: { skill?: string; difficulty?: string; concentration?: boolean } | null) {
  const seen: string[] = [];
  const apps = ((globalThis as Dict).foundry as { applications: { api: Dict } }).applications.api;
  apps.DialogV2 = {
    wait: async (config: { content: string; buttons: { callback?: (e: unknown, b: unknown) => unknown }[] }) => {
      seen.push(config.content);
      if (!values) return null;
      const elements = {
        skill: { value: values.skill ?? "" },
        difficulty: { value: values.difficulty ?? "0" },
        concentration: { checked: values.concentration ?? false },
      };
      return config.buttons[0]!.callback!({}, { form: { elements } });
    },
  };
  return seen;
}

const binding = () =>
  (stub.game.fray as { registry: { get(id: string): { sheetAction(a: unknown, d: Dict, t?: string): Promise<void> } } }).registry.get(
    "critical",
  )!;
const ap = (flags: Map<string, unknown>) => (flags.get("economy") as { pools: { ap: { value: number } } } | undefined)?.pools.ap.value;
const card = () => messages.find((m) => (m as unknown as { flags?: { fray?: { maneuver?: unknown } } }).flags?.fray?.maneuver);
const effectsOf = (a: unknown) => (a as { system: { effects: Dict[] } }).system.effects ?? [];

describe("maneuvers from the sheet", () => {
  it("CR-MAN-01, CR-AP-01: 60 + 15 bonus + 30 brawling - 20 difficulty - 5 armor = 80 %: below 100 the GM decides (the default); 2 AP spent; the roll is on the card", async () => {
    const k = kara();
    const flags = combatOf(k);
    const seen = answerDialog({ skill: "brawling", difficulty: "-20" });
    diceQueue.push(60);
    await binding().sheetAction(k.actor, { op: "maneuver" }, k.token.id);
    // The dialog offers the sheet's skills with their bonus.
    expect(seen[0]).toContain('<option value="brawling">Brawling (30)</option>');
    const m = card()!;
    expect(m.rolls).toHaveLength(1);
    expect(m.content).toContain("Kara Voss tries a maneuver");
    expect(m.content).toContain("CR-MAN-01");
    expect(m.content).toContain("80 %");
    expect(m.content).toContain("80 %: below 100, the GM decides: not completed, or completed with -20 to the next action");
    expect(m.content).not.toMatch(/FRAY\./);
    expect(ap(flags)).toBe(2);
    expect(effectsOf(k.actor)).toEqual([]);
  });

  it("CR-MAN-01: 100 % or more completes it (open-ended: 98 + 40)", async () => {
    const k = kara();
    answerDialog({});
    diceQueue.push(98, 40);
    await binding().sheetAction(k.actor, { op: "maneuver" }, k.token.id);
    // 138 + 15 - 5 = 148.
    expect(card()!.content).toContain("148 %: completed");
  });

  it("CR-MAN-01: under the world setting 'penalty' a 70 % maneuver completes with -30 to the next action, written to the actor for the round; under 'incomplete' it is not completed", async () => {
    await stub.game.settings.set("fray", "critical-maneuverShortfall", "penalty");
    const k = kara();
    answerDialog({});
    diceQueue.push(60);
    await binding().sheetAction(k.actor, { op: "maneuver" }, k.token.id);
    expect(card()!.content).toContain("70 %: completed, with -30 to the next action this round");
    expect(effectsOf(k.actor)).toEqual([expect.objectContaining({ kind: "penalty", value: -30, rounds: 1, rule: "CR-MAN-01" })]);
    messages.length = 0;
    await stub.game.settings.set("fray", "critical-maneuverShortfall", "incomplete");
    const other = actor("kara2", "Sword_Fighter_fRc2NpcSwordFtr0.json", "Kara Voss", { maneuver: 15 });
    answerDialog({});
    diceQueue.push(60);
    await binding().sheetAction(other.actor, { op: "maneuver" }, other.token.id);
    expect(card()!.content).toContain(lookup(en, "FRAY.Critical.Maneuver.Outcome.incomplete")!.replace("{percent}", "70"));
    expect(effectsOf(other.actor)).toEqual([]);
  });

  it("CR-MAN-01, CR-STN-01: a difficulty that is no whole number is refused naming the field, a concentration maneuver while stunned is refused; nothing spent or posted", async () => {
    const k = kara();
    const flags = combatOf(k);
    answerDialog({ difficulty: "1e3" });
    await expect(binding().sheetAction(k.actor, { op: "maneuver" }, k.token.id)).rejects.toMatchObject({
      key: "FRAY.Error.Field",
      data: { field: "difficulty" },
    });
    const stunned = actor("kara3", "Sword_Fighter_fRc2NpcSwordFtr0.json", "Kara Voss", { stun: 2 });
    answerDialog({ concentration: true });
    await expect(binding().sheetAction(stunned.actor, { op: "maneuver" })).rejects.toMatchObject({
      key: "FRAY.Error.StunnedConcentration",
    });
    expect(ap(flags)).toBeUndefined();
    expect(card()).toBeUndefined();
  });
});

describe("the GM's ruling on a maneuver below 100 %", () => {
  /** A maneuver card at 80 % under "the GM decides" (60 + 15 + 30 - 20 - 5). */
  async function openCard() {
    const k = kara();
    answerDialog({ skill: "brawling", difficulty: "-20" });
    diceQueue.push(60);
    await binding().sheetAction(k.actor, { op: "maneuver" }, k.token.id);
    return { k, m: card()! };
  }

  it("CR-MAN-01: the active GM rules 'completed with -20': the penalty is written to the actor and the card shows the ruling, its buttons gone", async () => {
    const { k, m } = await openCard();
    expect(m.content).toContain("data-maneuver-ruling");
    expect(await pressButton(flowWorld, m, 'data-maneuver-ruling="penalty"')).toBe(true);
    expect(effectsOf(k.actor)).toEqual([expect.objectContaining({ kind: "penalty", value: -20, rounds: 1, rule: "CR-MAN-01" })]);
    expect(m.content).toContain("80 %: completed, with -20 to the next action this round");
    expect(m.content).toMatch(/<em class="fray-ruled">\(the GM('|&#39;|&#x27;)s ruling\)<\/em>/);
    expect(m.content).not.toContain("data-maneuver-ruling");
    // A second press (a second GM's click on the card drawn before the update) changes nothing.
    expect(await pressButton(flowWorld, m, 'data-maneuver-ruling="penalty"')).toBe(true);
    expect(effectsOf(k.actor)).toHaveLength(1);
  });

  it("CR-MAN-01: 'not completed' and 'completed' write no penalty; a ruled card cannot be ruled again", async () => {
    const { k, m } = await openCard();
    expect(await pressButton(flowWorld, m, 'data-maneuver-ruling="incomplete"')).toBe(true);
    expect(m.content).toContain("80 %: not completed");
    expect(effectsOf(k.actor)).toEqual([]);
    // The stored outcome is ruled: the buttons are not drawn again, and a forged press is refused.
    expect(await pressButton(flowWorld, m, 'data-maneuver-ruling="complete"')).toBe(true);
    expect(m.content).toContain("80 %: not completed");
    messages.length = 0;
    const second = await openCard();
    expect(await pressButton(flowWorld, second.m, 'data-maneuver-ruling="complete"')).toBe(true);
    expect(second.m.content).toContain("80 %: completed");
    expect(effectsOf(second.k.actor)).toEqual([]);
  });

  it("CR-MAN-01: a player sees no ruling buttons and cannot rule", async () => {
    const { k, m } = await openCard();
    stub.game.users.current = flowWorld.player;
    try {
      expect(await pressButton(flowWorld, m, 'data-maneuver-ruling="penalty"')).toBe(false);
    } finally {
      stub.game.users.current = flowWorld.gm;
    }
    expect(effectsOf(k.actor)).toEqual([]);
    expect(m.content).toContain("data-maneuver-ruling");
  });

  it("CR-MAN-01: a card its author edited to name another's actor is refused: no penalty is written to that actor", async () => {
    const { m } = await openCard();
    const victim = actor("guard", "Sword_Fighter_fRc2NpcSwordFtr0.json", "Guard");
    withOwnership(victim.actor, { default: 0 });
    const stored = (m as unknown as { flags: { fray: { maneuver: Dict } } }).flags.fray.maneuver;
    stored.actorUuid = (victim.actor as { uuid: string }).uuid;
    (m as unknown as { author: unknown }).author = flowWorld.player;
    expect(await pressButton(flowWorld, m, 'data-maneuver-ruling="penalty"')).toBe(true);
    expect(effectsOf(victim.actor)).toEqual([]);
    expect(m.content).toContain("data-maneuver-ruling");
  });
});
