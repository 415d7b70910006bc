/**
 * The declaration phase in the combat tracker (HB-ACT-01, CR-INI-02, ZN-INI-01): the phase stored
 * on the Combat, declarations on the Combatants, who declares now, the GM's reveal, and what each
 * reader sees; UD10 (UD-INI-01) declares nothing and the tracker shows nothing of it. Driven
 * through the tracker's functions with stand-in bindings whose rulesets are the cores of Hitbox,
 * Critical and Zones.
 */
import { mergedFlag } from "../support/data-model.js";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { critical } from "../../src/rules/critical/index.js";
import type { ActionDef } from "../../src/rules/core/contract.js";
import { FrayError } from "../../src/rules/core/errors.js";
import { hitbox } from "../../src/rules/hitbox/index.js";
import { zones } from "../../src/rules/zones/index.js";
import { declarationOf, declarationRowHtml, phaseOf, readDeclaration } from "../../src/foundry/combat/declarations.js";
import { installFoundryStub, type FoundryStub } from "../support/foundry-stub.js";
import { fixture as criticalFixture } from "../contract/fixtures/critical.js";
import { fixture as hitboxFixture } from "../contract/fixtures/hitbox.js";
import { fixture as zonesFixture } from "../contract/fixtures/zones.js";

/** The core combatant each stand-in binding reads from any actor. */
const FIXTURES: Record<string, { attacker: object }> = { hitbox: hitboxFixture, critical: criticalFixture, zones: zonesFixture };

type Dict = Record<string, unknown>;
type Tracker = typeof import("../../src/foundry/combat/tracker.js");
type Registry = typeof import("../../src/foundry/registry.js");

let stub: FoundryStub;
let tracker: Tracker;
let reg: Registry;

beforeAll(async () => {
  stub = installFoundryStub("en");
  await import("../../src/foundry/rulesets/index.js");
  reg = await import("../../src/foundry/registry.js");
  tracker = await import("../../src/foundry/combat/tracker.js");
  // Stand-in bindings: the core rulesets, nothing of Foundry's data models.
  for (const ruleset of [hitbox, critical, zones]) {
    reg.registry.register({
      id: ruleset.id,
      ruleset: ruleset as never,
      implemented: false,
      models: { character: null, npc: null, weapon: null, armor: null },
      combatantFromActor: (_actor, overrides) =>
        ({ ...FIXTURES[ruleset.id]!.attacker, ...(overrides?.id ? { id: overrides.id } : {}) }) as never,
      sheetParts: { character: [], npc: [] },
      templates: [],
      movementUnits: { units: "m", metresPerUnit: 1, gridDistance: 1.5 },
      tokenBars: { bar1: null, bar2: null, bars: [], values: [] },
    });
  }
});

/** Makes the stand-in of `id` the world's ruleset. */
const world = (id: string) => (stub.game.settings as unknown as { values: Map<string, unknown> }).values.set("fray.ruleset", id);

/** A Combatant with flags, owner and initiative as the tracker reads it. */
function combatant(id: string, o: { player?: boolean; owner?: boolean; initiative?: number; defeated?: boolean; actor?: boolean } = {}) {
  const flags: Dict = {};
  return {
    id,
    name: id,
    isOwner: o.owner ?? false,
    hasPlayerOwner: o.player ?? false,
    initiative: o.initiative ?? null,
    defeated: o.defeated ?? false,
    actor: o.actor
      ? {
          id: `actor-${id}`,
          uuid: `Actor.${id}`,
          toObject: () => ({ _id: id, name: id, type: "character", system: {}, items: [] }),
          statuses: [],
        }
      : null,
    flags: { fray: {} },
    getFlag: (_s: string, k: string) => flags[k],
    setFlag: async (_s: string, k: string, v: unknown) => (flags[k] = mergedFlag(flags[k], v)),
  };
}

/** A started combat in round `round` with the given combatants. */
function combat(round: number, list: ReturnType<typeof combatant>[]) {
  const flags: Dict = {};
  const map = new Map(list.map((c) => [c.id, c]));
  return {
    id: "combat1",
    round,
    combatants: Object.assign(list, { get: (id: string) => map.get(id) }),
    flags,
    getFlag: (_s: string, k: string) => flags[k],
    setFlag: async (_s: string, k: string, v: unknown) => (flags[k] = mergedFlag(flags[k], v)),
  };
}

const asGM = (isGM: boolean) => ((stub.game.user as unknown as { isGM: boolean }).isGM = isGM);
const ids = (rows: { id: string }[] | undefined) => rows?.map((r) => r.id);

beforeEach(() => {
  asGM(true);
  stub.ui.notifications.messages.length = 0;
});

describe("declaration phase in the tracker", () => {
  it("HB-ACT-01: everyone declares at once; others' declarations stay hidden until the GM reveals them", async () => {
    world("hitbox");
    const ayla = combatant("ayla", { player: true, owner: true, actor: true });
    const bo = combatant("bo", { player: true });
    const thug = combatant("thug");
    const c = combat(1, [ayla, bo, thug]);
    asGM(false);
    let view = tracker.trackerDeclarations(c);
    expect(view?.phase).toBe("declare");
    expect(view?.rows.filter((r) => r.declaresNow).map((r) => r.id)).toEqual(["ayla", "bo", "thug"]);
    expect(view?.rows.filter((r) => r.canDeclare).map((r) => r.id)).toEqual(["ayla"]);
    // Ayla's player declares; Bo's declaration is made too but Ayla's player may not read it.
    let offered: string[] = [];
    const ask = async (_name: string, labels: { id: string }[]) => {
      offered = labels.map((l) => l.id);
      return { text: "Shoot the thug", action: "attack" };
    };
    expect(await tracker.declareFor(c, ayla, ask)).toBe(true);
    // The form offers the ruleset's actions (`actions()`).
    expect(offered).toEqual(hitbox.actions(hitboxFixture.attacker, {}).map((a) => a.id));
    await bo.setFlag("fray", "declaration", { round: 1, text: "Run for the door" });
    view = tracker.trackerDeclarations(c);
    const row = (id: string) => view!.rows.find((r) => r.id === id)!;
    expect(row("ayla").visible).toEqual({ round: 1, text: "Shoot the thug", action: "attack" });
    expect(row("bo")).toMatchObject({ declared: true });
    expect(row("bo").visible).toBeUndefined();
    expect(declarationRowHtml(row("bo"), stub.game.i18n)).not.toContain("Run for the door");
    expect(view?.complete).toBe(false);
    // A player cannot reveal.
    expect(await tracker.revealDeclarations(c)).toBe(false);
    expect(stub.ui.notifications.messages.map((m) => m.text)).toContain("Only the GM can reveal the declarations.");
    // The GM sees all, reveals, and then everyone reads them.
    asGM(true);
    expect(tracker.trackerDeclarations(c)?.rows.find((r) => r.id === "bo")?.visible?.text).toBe("Run for the door");
    await thug.setFlag("fray", "declaration", { round: 1, text: "Hold" });
    expect(tracker.trackerDeclarations(c)).toMatchObject({ complete: true, canReveal: true });
    expect(await tracker.revealDeclarations(c)).toBe(true);
    expect(c.flags.phase).toEqual({ round: 1, phase: "resolve" });
    asGM(false);
    view = tracker.trackerDeclarations(c);
    expect(view).toMatchObject({ phase: "resolve", canReveal: false });
    expect(view?.rows.map((r) => r.visible?.text)).toEqual(["Shoot the thug", "Run for the door", "Hold"]);
    expect(view?.rows.some((r) => r.declaresNow)).toBe(false);
  });

  it("HB-ACT-01: a new round starts declaring again with no declarations, without any write", () => {
    world("hitbox");
    const ayla = combatant("ayla", { player: true, owner: true });
    const c = combat(2, [ayla]);
    c.flags.phase = { round: 1, phase: "resolve" };
    void ayla.setFlag("fray", "declaration", { round: 1, text: "old" });
    const view = tracker.trackerDeclarations(c);
    expect(view?.phase).toBe("declare");
    expect(view?.rows[0]).toMatchObject({ declared: false, canDeclare: true });
  });

  it("CR-INI-02: the lowest initiative declares first; the faster ones read the slower ones' declarations", async () => {
    world("critical");
    const fast = combatant("fast", { player: true, owner: true, initiative: 80 });
    const slow = combatant("slow", { initiative: 20 });
    const mid = combatant("mid", { player: true, initiative: 50 });
    const c = combat(1, [fast, slow, mid]);
    asGM(false);
    let view = tracker.trackerDeclarations(c);
    expect(ids(view?.rows.filter((r) => r.declaresNow))).toEqual(["slow"]);
    // Not its turn to declare: refused with a warning, nothing stored.
    expect(await tracker.declareFor(c, fast, async () => ({ text: "Charge", action: "" }))).toBe(false);
    expect(fast.getFlag("fray", "declaration")).toBeUndefined();
    expect(stub.ui.notifications.messages.map((m) => m.text)).toContain("This combatant does not declare now.");
    await slow.setFlag("fray", "declaration", { round: 1, text: "Fire at the fast one" });
    await mid.setFlag("fray", "declaration", { round: 1, text: "Parry" });
    view = tracker.trackerDeclarations(c);
    expect(ids(view?.rows.filter((r) => r.declaresNow))).toEqual(["fast"]);
    // Under lowest-first the declarations are open as soon as they are made.
    expect(view?.rows.find((r) => r.id === "slow")?.visible?.text).toBe("Fire at the fast one");
    expect(await tracker.declareFor(c, fast, async () => ({ text: "Charge", action: "" }))).toBe(true);
    expect(tracker.trackerDeclarations(c)?.complete).toBe(true);
  });

  it("ZN-INI-01: next round's declaration with fewer keys keeps none of the last round's", async () => {
    world("zones");
    const only = combatant("only", { player: true, owner: true, actor: true });
    const c = combat(1, [only, combatant("other", { player: true })]);
    asGM(false);
    let offered = "";
    expect(
      await tracker.declareFor(c, only, async (_name, main) => {
        offered = main[0]!.id;
        return { text: "Cut him down", action: offered };
      }),
    ).toBe(true);
    expect(stub.ui.notifications.messages).toEqual([]);
    expect(only.getFlag("fray", "declaration")).toMatchObject({ round: 1, text: "Cut him down", action: offered });
    c.round = 2;
    expect(await tracker.declareFor(c, only, async () => ({ text: "Hold", action: "" }))).toBe(true);
    expect(only.getFlag("fray", "declaration")).toEqual({ round: 2, text: "Hold" });
  });

  it("ZN-INI-01: players declare first, the GM's combatants once all players have; out combatants declare nothing", async () => {
    world("zones");
    const p1 = combatant("p1", { player: true, owner: true });
    const p2 = combatant("p2", { player: true });
    const npc = combatant("npc");
    const down = combatant("down", { player: true, defeated: true });
    const c = combat(3, [p1, p2, npc, down]);
    expect(ids(tracker.trackerDeclarations(c)?.rows.filter((r) => r.declaresNow))).toEqual(["p1", "p2"]);
    await p1.setFlag("fray", "declaration", { round: 3, text: "Take cover" });
    await p2.setFlag("fray", "declaration", { round: 3, text: "Throw a grenade" });
    const view = tracker.trackerDeclarations(c);
    expect(ids(view?.rows.filter((r) => r.declaresNow))).toEqual(["npc"]);
    await npc.setFlag("fray", "declaration", { round: 3, text: "Advance" });
    expect(tracker.trackerDeclarations(c)?.complete).toBe(true);
  });

  it("UD-INI-01: UD10 declares nothing: no phase, nothing in the tracker", () => {
    world("ud10");
    const c = combat(1, [combatant("a", { player: true, owner: true })]);
    expect(tracker.trackerDeclarations(c)).toBeUndefined();
    expect(phaseOf("none", undefined, 1)).toBeUndefined();
  });

  it("HB-ACT-01: the tracker shows the phase banner with the GM's Reveal button and a Declare button on the row", () => {
    world("hitbox");
    const a = combatant("a", { player: true });
    const c = combat(1, [a]);
    const row = {
      dataset: { combatantId: "a" } as Record<string, string>,
      html: "",
      querySelector: () => null,
      insertAdjacentHTML(_w: string, h: string) {
        this.html += h;
      },
      addEventListener() {},
    };
    const root = {
      dataset: {} as Record<string, string>,
      html: "",
      querySelector: () => null,
      querySelectorAll: () => [row],
      insertAdjacentHTML(_w: string, h: string) {
        this.html += h;
      },
      addEventListener() {},
    };
    tracker.onRenderCombatTracker({ viewed: c }, root as never);
    expect(root.html).toContain("Declaring actions");
    expect(root.html).toContain('<span class="fray-rule">HB-ACT-01</span>');
    expect(root.html).toContain('data-fray-reveal="1"');
    expect(row.html).toContain('data-fray-declare="a"');
    asGM(false);
    const other = { ...row, html: "", dataset: { combatantId: "a" } as Record<string, string> };
    tracker.onRenderCombatTracker({ viewed: c }, { ...root, html: "", dataset: {}, querySelectorAll: () => [other] } as never);
    expect(other.html).not.toContain("data-fray-declare");
    expect(other.html).toContain("declares now");
  });
});

describe("declarations stored on the Combatant", () => {
  const actions: ActionDef[] = [{ id: "attack", label: "FRAY.Action.attack", rule: "HB-ATK-01", kind: "attack", cost: {}, target: "one" }];

  it("HB-ACT-01: text is trimmed; an action must be one of the ruleset's; something must be declared", () => {
    expect(readDeclaration({ text: "  Shoot  ", action: "attack" }, actions, 2)).toEqual({ round: 2, text: "Shoot", action: "attack" });
    expect(readDeclaration({ text: "Hold", action: "" }, actions, 2)).toEqual({ round: 2, text: "Hold" });
    const field = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        return err instanceof FrayError ? (err.data as { field?: string }).field : "other";
      }
      return undefined;
    };
    expect(field(() => readDeclaration({ text: "x", action: "dance" }, actions, 2))).toBe("action");
    expect(field(() => readDeclaration({ text: " ", action: "" }, actions, 2))).toBe("text");
    expect(field(() => readDeclaration({ text: "x".repeat(501) }, actions, 2))).toBe("text");
  });

  it("HB-ACT-03: quick actions go beside the action, each one the binding names, and show escaped after it", () => {
    const quick: ActionDef[] = [
      { id: "prone", label: "FRAY.Hitbox.Play.Action.prone", rule: "HB-ACT-04", kind: "other", cost: {}, target: "none" },
    ];
    expect(readDeclaration({ text: "", action: "attack", quick: ["prone", "prone"] }, actions, 3, quick)).toEqual({
      round: 3,
      text: "",
      action: "attack",
      quick: ["prone"],
    });
    // A quick action alone is a declaration; one the ruleset does not have names the field.
    expect(readDeclaration({ quick: ["prone"] }, actions, 3, quick)).toEqual({ round: 3, text: "", quick: ["prone"] });
    expect(() => readDeclaration({ text: "x", quick: ["reload"] }, actions, 3, quick)).toThrow(/quick/);
    expect(() => readDeclaration({ text: "x", quick: "prone" }, actions, 3, quick)).toThrow(/quick/);
    expect(declarationOf({ round: 3, text: "", quick: ["prone", 7] }, 3)).toEqual({ round: 3, text: "", quick: ["prone"] });
    const html = declarationRowHtml(
      {
        id: "a",
        declaresNow: false,
        canDeclare: false,
        declared: true,
        visible: { round: 3, text: "", action: "attack", quick: ["<i>x</i>"] },
      },
      { localize: (k) => k, format: (k) => k },
      new Map([["attack", "FRAY.Action.attack"]]),
    );
    expect(html).toContain("+ &lt;i&gt;x&lt;/i&gt;");
  });

  it("HB-ACT-01: a declaration of an older round reads as none; text is escaped in the tracker", () => {
    expect(declarationOf({ round: 1, text: "old" }, 2)).toBeUndefined();
    expect(declarationOf({ round: 2, text: "<b>x</b>" }, 2)).toEqual({ round: 2, text: "<b>x</b>" });
    const html = declarationRowHtml(
      { id: "a", declaresNow: false, canDeclare: false, declared: true, visible: { round: 2, text: "<b>x</b>" } },
      { localize: (k) => k, format: (k) => k },
    );
    expect(html).toContain("&lt;b&gt;x&lt;/b&gt;");
    expect(html).not.toContain("<b>x</b>");
  });
});
