/**
 * The combat tracker's side of the forecast: what the GM's Forecast button reads of a stand-in
 * combat on the stand-in canvas (src/foundry/forecast/dialog.ts: actors with their statuses,
 * token dispositions, distances between tokens in metres on a 1.5 m grid, this round's economy
 * and declaration), and the button itself, shown to the GM only.
 */
import { mergedFlag } from "../support/data-model.js";
import { join } from "node:path";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ContentIndex } from "../../src/encounter/content.js";
import type { ActorSource } from "../../src/rules/core/sources.js";
import { ud10, ud10CombatantFromActor } from "../../src/rules/ud10/index.js";
import { installFoundryStub, ROOT, type FoundryStub } from "../support/foundry-stub.js";

type Dict = Record<string, unknown>;
let stub: FoundryStub;
let dialog: typeof import("../../src/foundry/forecast/dialog.js");
let tracker: typeof import("../../src/foundry/combat/tracker.js");
let state: typeof import("../../src/foundry/logic/forecast-state.js");

const packs = new ContentIndex(join(ROOT, "packs", "_source"));
const npc = (name: string) => packs.resolve(`ud10-npcs/${name}`, "test") as unknown as ActorSource;

beforeAll(async () => {
  stub = installFoundryStub("en");
  const reg = await import("../../src/foundry/registry.js");
  // A stand-in UD10 binding: the core's ruleset and actor translation, no data models.
  reg.registry.register({
    id: "ud10",
    ruleset: ud10 as never,
    implemented: true,
    models: { character: null, npc: null, weapon: null, armor: null },
    combatantFromActor: ud10CombatantFromActor as never,
    sheetParts: { character: [], npc: [] },
    templates: [],
    movementUnits: { units: "m", metresPerUnit: 1, gridDistance: 1.5 },
    tokenBars: { bar1: null, bar2: null, bars: [], values: [] },
  });
  (stub.game.settings as unknown as { values: Map<string, unknown> }).values.set("fray.ruleset", "ud10");
  dialog = await import("../../src/foundry/forecast/dialog.js");
  tracker = await import("../../src/foundry/combat/tracker.js");
  state = await import("../../src/foundry/logic/forecast-state.js");
});

const asGM = (isGM: boolean) => ((stub.game.user as unknown as { isGM: boolean }).isGM = isGM);
beforeEach(() => asGM(true));

/** A Combatant whose token stands at grid square (x, y) of 100 px. */
function combatant(id: string, actor: ActorSource | null, disposition: number, x: number, y: number, flags: Dict = {}) {
  return {
    id,
    name: id,
    isOwner: true,
    defeated: false,
    // Rolled this round: the initiative is its id's length plus its column (hero 4, guard 6, thug 12).
    initiative: (id.length + x) as number | null,
    actor: actor ? { id: `actor-${id}`, uuid: `Actor.${id}`, toObject: () => structuredClone(actor), statuses: new Set(["prone"]) } : null,
    token: { disposition, object: { center: { x: x * 100 + 50, y: y * 100 + 50 } } },
    getFlag: (_s: string, k: string) => flags[k],
    setFlag: async (_s: string, k: string, v: unknown) => (flags[k] = mergedFlag(flags[k], v)),
  };
}

function combat() {
  const list = [
    combatant("hero", npc("Veteran"), 1, 0, 0, { economy: { round: 3, slots: { action: { used: 1 } } } }),
    combatant("guard", npc("Guard"), -1, 1, 0, { declaration: { round: 3, text: "shoot" } }),
    combatant("thug", npc("Thug"), -1, 8, 0),
  ];
  // The tracker's turn order: by initiative, highest first.
  const turns = [...list].sort((a, b) => (b.initiative ?? 0) - (a.initiative ?? 0));
  return { id: "c1", round: 3, turns, combatants: Object.assign(list, { get: (id: string) => list.find((c) => c.id === id) }) };
}

describe("forecast from the combat tracker", () => {
  it("UD-RND-02: reads dispositions, statuses, this round's economy and declaration, and token distances in metres", () => {
    const snap = dialog.readCombatSnapshot(combat());
    expect(snap.ruleset).toBe("ud10");
    expect(snap.round).toBe(3);
    // In the tracker's turn order, with each one's initiative.
    expect(snap.combatants.map((c) => [c.id, c.disposition, c.initiative])).toEqual([
      ["thug", -1, 12],
      ["guard", -1, 6],
      ["hero", 1, 4],
    ]);
    const of = (id: string) => snap.combatants.find((c) => c.id === id)!;
    expect(of("hero").actor?.statuses).toEqual(["prone"]);
    expect(of("hero").economy?.slots.action?.used).toBe(1);
    expect(of("guard").declaration).toEqual({ text: "shoot" });
    // One square is 1.5 m: the guard stands beside the hero, the thug eight squares off.
    expect(snap.distances).toEqual({ thug: { guard: 10.5, hero: 12 }, guard: { hero: 1.5 } });
    const input = state.forecastInput(snap, { id: "ud10", combatantFromActor: ud10CombatantFromActor, ruleset: ud10 as never });
    expect(input.combatants.map((c) => [c.id, c.target, c.metres, c.ranged])).toEqual([
      ["thug", "hero", 12, true],
      ["guard", "hero", 1.5, false],
      ["hero", "guard", 1.5, false],
    ]);
    // The hero's spent action is paid in the first round; the guard's declaration, free text alone,
    // is listed; the round's initiative is the first round's order.
    expect(input.combatants.find((c) => c.id === "hero")!.spent).toEqual({ slots: { action: 1 } });
    expect(input.notCarried.map((n) => [n.id, n.what])).toEqual([["guard", "declaration"]]);
    expect(input.file.initiative).toEqual({ thug: 12, guard: 6, hero: 4 });
  });

  /** A tracker element as the button reads it: the HTML put in, and the click listener added (last). */
  function trackerRoot() {
    const root = {
      dataset: {} as Record<string, string>,
      html: "",
      click: undefined as ((event: unknown) => void) | undefined,
      querySelector: () => null,
      querySelectorAll: () => [],
      insertAdjacentHTML(_w: string, h: string) {
        root.html += h;
      },
      addEventListener(_type: string, listener: (event: unknown) => void) {
        root.click = listener;
      },
    };
    return root;
  }

  it("UD-ACT-01: the tracker shows the Forecast button to the GM only", () => {
    const root = trackerRoot();
    tracker.onRenderCombatTracker({ viewed: combat() }, root as never);
    expect(root.html).toContain('data-fray-forecast="1"');
    expect(root.html).toContain("Forecast");
    expect(root.dataset.frayForecastClicks).toBe("1");
    asGM(false);
    const other = trackerRoot();
    tracker.onRenderCombatTracker({ viewed: combat() }, other as never);
    expect(other.html).not.toContain("data-fray-forecast");
  });

  it("UD-ACT-01: the button forecasts the combat the tracker shows now, not the one of the render that added it", async () => {
    const root = trackerRoot();
    const click = (event: unknown) => root.click!(event);
    tracker.onRenderCombatTracker({ viewed: combat() }, root as never);
    // The GM views another combat, of one side only: the same element renders it.
    const lonely = combat();
    lonely.combatants.splice(1, 2);
    tracker.onRenderCombatTracker({ viewed: lonely }, root as never);
    const before = stub.ui.notifications.messages.length;
    click({ target: { closest: (s: string) => (s === "[data-fray-forecast]" ? {} : null) }, preventDefault() {}, stopPropagation() {} });
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The forecast read the combat shown now: one side only, refused naming the field.
    expect(stub.ui.notifications.messages.slice(before).map((m) => m.level)).toEqual(["error"]);
    expect(stub.ui.notifications.messages.at(-1)?.text).toContain("combatants");
    // No combat viewed any more: the button goes, and a click on what is left forecasts nothing.
    root.html = "";
    tracker.onRenderCombatTracker({ viewed: null }, root as never);
    const after = stub.ui.notifications.messages.length;
    click({ target: { closest: (s: string) => (s === "[data-fray-forecast]" ? {} : null) }, preventDefault() {}, stopPropagation() {} });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stub.ui.notifications.messages.length).toBe(after);
    expect(root.html).not.toContain("data-fray-forecast");
  });

  it("UD-RND-02: the settings form names who attacks whom at what distance, escaped, with runs and seed", () => {
    const c = combat();
    c.combatants[2]!.name = "<img src=x onerror=alert(1)>";
    // It declared a reload this round: it spends the forecast's first round on it.
    void c.combatants[2]!.setFlag("fray", "declaration", { round: 3, text: "reloads", action: "reload" });
    const input = state.forecastInput(dialog.readCombatSnapshot(c), {
      id: "ud10",
      combatantFromActor: ud10CombatantFromActor,
      ruleset: ud10 as never,
    });
    const html = dialog.settingsHtml(input);
    expect(html).not.toContain("<img");
    expect(html).toContain("<strong>&lt;img src=x onerror=alert(1)&gt;</strong> (Hostile): shoots at hero from 12 m");
    expect(html).toContain("<strong>hero</strong> (Friendly): strikes at guard (1.5 m)");
    expect(html).toContain("<li>guard's declaration for this round names no action and is not carried");
    expect(html).toContain("<li>&lt;img src=x onerror=alert(1)&gt; declared an action the forecast does not play");
    expect(html).toMatch(/name="runs"[^>]*value="1000"/);
    // A field left empty is no number (refused, naming the field), never a seed of 0.
    expect(dialog.wholeOf("")).toBeNaN();
    expect(dialog.wholeOf(" 12 ")).toBe(12);
    expect(html).toMatch(/name="seed"[^>]*value="1"/);
  });
});
