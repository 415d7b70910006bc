/**
 * The effect dialog through the built bundle in a Hitbox world of the stand-in (HB-RND-02): the
 * dialog opened from the sheet and the token HUD starts a timed effect with the entered name,
 * statuses and duration in rounds or turns, delayed by the ruleset's default; bad input is refused
 * naming the field and the form comes back with what was entered; a player may start effects on
 * their own actor only, and the HUD offers the dialog only where it is allowed.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { StubChatMessage, withOwnership, type FoundryStub } from "../support/foundry-stub.js";
import { FlowWorld, type Dict } from "../support/flow-world.js";
import { hitboxOptions, zevenSource } from "../support/flow-hitbox.js";
import { renderTokenHud } from "../support/token-hud.js";
import { settle } from "../support/flow-critical.js";
import { stubToken } from "../support/foundry-stub.js";

/** An ActiveEffect as the stand-in actor keeps it. */
interface Effect {
  name: string;
  img: string;
  statuses: string[];
  disabled: boolean;
  duration: Dict;
  flags: Dict;
}

/** What the next effect dialog answers (form values by control name), in order; `null` closes it. */
const answers: (Record<string, string | boolean> | null)[] = [];
/** Each effect dialog shown: its title and content. */
const shown: { title: string; content: string }[] = [];

const flowWorld = new FlowWorld(
  hitboxOptions({
    prepare: () => {
      (((globalThis as Dict).foundry as { applications: { api: Dict } }).applications.api as Dict).DialogV2 = {
        wait: async (config: {
          window: { title: string };
          content: string;
          buttons: { callback?: (e: unknown, b: unknown) => unknown }[];
        }) => {
          shown.push({ title: config.window.title, content: config.content });
          const answer = answers.shift();
          if (!answer) return null;
          const elements = Object.fromEntries(
            Object.entries(answer).map(([k, v]) => [k, typeof v === "boolean" ? { checked: v } : { value: v }]),
          );
          return config.buttons[0]!.callback!({}, { form: { elements } });
        },
      };
    },
  }),
);
let stub: FoundryStub;

beforeAll(async () => {
  ({ stub } = await flowWorld.boot());
});

beforeEach(() => {
  flowWorld.reset();
  answers.length = 0;
  shown.length = 0;
  StubChatMessage.created.length = 0;
});

const api = () => flowWorld.api<{ openEffectDialog(actor: unknown): Promise<Dict | undefined> }>();
const messages = () => stub.ui.notifications.messages;

/** Zeven, owned by `owner` only (and the GM), with the ActiveEffects created on her, and her token; a combat in round 2 as `game.combat`. */
function zevenInCombat(owner = "p1") {
  const { actor } = flowWorld.actor(zevenSource());
  withOwnership(actor, { default: 0, [owner]: 3 });
  const effects: Effect[] = [];
  Object.assign(actor, {
    effects,
    async createEmbeddedDocuments(type: string, data: Dict[]) {
      if (type !== "ActiveEffect") throw new Error(`unexpected ${type}`);
      for (const d of data) effects.push(structuredClone(d) as unknown as Effect);
      return data;
    },
  });
  const token = stubToken(actor, 0, 0);
  const { combat } = flowWorld.startCombat([{ actor, token }]);
  Object.assign(combat, { round: 2, turn: 0, turns: [{}] });
  return { actor, token, effects, combat };
}

describe("the effect dialog", () => {
  it("HB-RND-02: shows the ruleset's statuses localized and its delay of 1 round; starts 2 turns of Prone from the next round, disabled until then", async () => {
    const { actor, effects } = zevenInCombat();
    answers.push({ effectName: "Knocked flat", duration: "2", unit: "turns", delay: "1", "status.prone": true, "status.shock": false });
    const started = await api().openEffectDialog(actor);
    expect(shown).toHaveLength(1);
    expect(shown[0]!.title).toBe("Timed effect on Zeven");
    // Every Hitbox condition is offered as a checkbox with its English name; the delay field holds Hitbox's 1.
    for (const label of ["Prone", "Going prone", "Medicated", "In shock", "Dead"]) expect(shown[0]!.content).toContain(label);
    expect(shown[0]!.content).toContain('name="status.prone"');
    expect(shown[0]!.content).toMatch(/name="delay" value="1"/);
    expect(shown[0]!.content).toContain("default: 1).");
    expect(started).toMatchObject({ name: "Knocked flat", statuses: ["prone"], turns: 2, delayRounds: 1 });
    expect(effects).toHaveLength(1);
    expect(effects[0]).toMatchObject({
      name: "Knocked flat",
      statuses: ["prone"],
      img: "icons/svg/falling.svg",
      disabled: true,
      duration: { combat: "combat1", startRound: 3, startTurn: 0, rounds: 0, turns: 2 },
      flags: { fray: { managed: true } },
    });
    expect(messages().at(-1)).toEqual({ level: "info", text: "Knocked flat started on Zeven." });
  });

  it("starts 3 rounds at once with a delay of 0 and no status", async () => {
    const { actor, effects } = zevenInCombat();
    answers.push({ effectName: "Rallied", duration: "3", unit: "rounds", delay: "0" });
    await api().openEffectDialog(actor);
    expect(effects).toHaveLength(1);
    expect(effects[0]).toMatchObject({
      name: "Rallied",
      statuses: [],
      disabled: false,
      duration: { combat: "combat1", startRound: 2, startTurn: 0, rounds: 3, turns: 0 },
    });
  });

  it("refuses bad input naming the field, shows the form again with what was entered, and creates nothing until it fits", async () => {
    const { actor, effects } = zevenInCombat();
    answers.push(
      { effectName: "Dazed", duration: "0", unit: "rounds", delay: "1", "status.shock": true },
      { effectName: "  ", duration: "2", unit: "rounds", delay: "1" },
      { effectName: "Dazed", duration: "2", unit: "rounds", delay: "-1" },
      { effectName: "Dazed", duration: "1.5", unit: "turns", delay: "" },
      null,
    );
    expect(await api().openEffectDialog(actor)).toBeUndefined();
    expect(effects).toEqual([]);
    expect(messages().map((m) => m.text)).toEqual([
      'Field "Duration": expected a whole number from 1 to 1000.',
      'Field "Name": expected a name of 1 to 100 characters.',
      'Field "Delay in rounds": expected a whole number from 0 to 1000.',
      'Field "Duration": expected a whole number from 1 to 1000.',
    ]);
    expect(messages().every((m) => m.level === "error")).toBe(true);
    // The second form shows what the first held: the name, the duration and the checked status.
    expect(shown).toHaveLength(5);
    expect(shown[1]!.content).toMatch(/name="effectName" value="Dazed"/);
    expect(shown[1]!.content).toMatch(/name="duration" value="0"/);
    expect(shown[1]!.content).toMatch(/name="status.shock" checked/);
    expect(shown[1]!.content).not.toMatch(/name="status.prone" checked/);
  });

  it("an empty delay takes the ruleset's default (HB-RND-02: 1 round)", async () => {
    const { actor, effects } = zevenInCombat();
    answers.push({ effectName: "Dazed", duration: "1", unit: "rounds", delay: " " });
    await api().openEffectDialog(actor);
    expect(effects[0]?.duration).toMatchObject({ startRound: 3, rounds: 1 });
    expect(effects[0]?.disabled).toBe(true);
  });

  it("a player starts an effect on their own actor; on another's the dialog does not open, and the macro path refuses too", async () => {
    const own = zevenInCombat("p1");
    stub.game.users.current = flowWorld.player;
    answers.push({ effectName: "Aim steady", duration: "1", unit: "turns", delay: "0" });
    await api().openEffectDialog(own.actor);
    expect(own.effects.map((e) => e.name)).toEqual(["Aim steady"]);

    const other = zevenInCombat("p2");
    expect(await api().openEffectDialog(other.actor)).toBeUndefined();
    expect(shown).toHaveLength(1);
    expect(messages().at(-1)).toEqual({ level: "error", text: "You do not own Zeven: you cannot start an effect on it." });
    const startEffect = (stub.game.fray as { startEffect(a: unknown, s: Dict): Promise<unknown> }).startEffect;
    expect(await startEffect(other.actor, { name: "Sneaky", rounds: 1 })).toBeUndefined();
    expect(other.effects).toEqual([]);
    expect(messages().at(-1)?.text).toBe("You do not own Zeven: you cannot start an effect on it.");
  });

  it("without a combat it says to start one and shows no form", async () => {
    const { actor, effects } = zevenInCombat();
    (stub.game as unknown as Dict).combat = undefined;
    expect(await api().openEffectDialog(actor)).toBeUndefined();
    expect(shown).toEqual([]);
    expect(effects).toEqual([]);
    expect(messages()).toEqual([{ level: "warn", text: "Start a combat first: a timed effect counts its rounds and turns." }]);
  });
});

describe("the effect dialog's buttons on the sheet and in the token HUD", () => {
  it("the sheet's conditions part shows the button to whoever may edit the sheet, and the sheet's action opens the dialog", async () => {
    const render = (
      ((globalThis as Dict).foundry as Dict).applications as { handlebars: { renderTemplate(p: string, d: Dict): Promise<string> } }
    ).handlebars.renderTemplate;
    const editable = await render("systems/fray/templates/actor/conditions.hbs", { editable: true, tab: {}, conditions: [] });
    expect(editable).toMatch(
      /<button type="button" class="fray-effect-start" data-action="startEffect" aria-label="Start a timed effect on this actor"/,
    );
    expect(editable).toContain("fa-solid fa-hourglass-half");
    const readOnly = await render("systems/fray/templates/actor/conditions.hbs", { editable: false, tab: {}, conditions: [] });
    expect(readOnly).not.toContain("startEffect");

    const { actor, effects } = zevenInCombat();
    const Sheet = stub.actors.registrations[0]!.sheetClass as {
      new (o: Dict): unknown;
      DEFAULT_OPTIONS: { actions: Record<string, (this: unknown, e: unknown, t: unknown) => Promise<void>> };
    };
    answers.push({ effectName: "Rallied", duration: "1", unit: "rounds", delay: "0" });
    await Sheet.DEFAULT_OPTIONS.actions.startEffect!.call(new Sheet({ document: actor }), {}, {});
    expect(effects.map((e) => e.name)).toEqual(["Rallied"]);
  });

  it("the token HUD offers the dialog to the GM and the actor's owner only; a click opens it for the token's actor", async () => {
    const { actor, token, effects } = zevenInCombat("p1");
    const asGM = renderTokenHud(stub, token);
    const button = asGM.button("effect")!;
    expect(button).toBeDefined();
    expect(asGM.right.children).toContain(button);
    expect(button.tagName).toBe("BUTTON");
    expect(button.type).toBe("button");
    expect(button.getAttribute("aria-label")).toBe("Start a timed effect on this actor");
    expect(button.innerHTML).toContain("fa-solid fa-hourglass-half");

    stub.game.users.current = flowWorld.player;
    expect(renderTokenHud(stub, token).button("effect")).toBeDefined();
    withOwnership(actor, { default: 0, p2: 3 });
    expect(renderTokenHud(stub, token).buttons).toEqual([]);

    stub.game.users.current = flowWorld.gm;
    answers.push({ effectName: "Pinned", duration: "2", unit: "rounds", delay: "0" });
    button.click();
    await settle();
    expect(shown.at(-1)?.title).toBe("Timed effect on Zeven");
    expect(effects.map((e) => e.name)).toEqual(["Pinned"]);
  });
});
