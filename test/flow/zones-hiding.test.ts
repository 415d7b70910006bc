/**
 * Zones hidden weapons through the built bundle in the typed Foundry stand-in, with scripted
 * dice: the sheet's toggle hides a small weapon on the body (and takes it out of hiding to where
 * it was), refuses a carbine, and takes the action in combat; the GM's search tool rolls the
 * hider's Stealth against the searcher's Notice, the difficulty 5 lower for a search of the body
 * and the full Stealth from a distance, on a card whispered to the GMs with the Foundry Rolls.
 */
import { mergedFlag } from "../support/data-model.js";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { diceQueue, lookup, readLang, stubActor, type FoundryStub, type StubUser } from "../support/foundry-stub.js";
import { FlowWorld, packSource } from "../support/flow-world.js";
import { zonesOptions, zonesSheetAction } from "../support/flow-zones.js";

const en = readLang("en");

type Dict = Record<string, unknown>;

interface Message {
  id: string;
  content: string;
  rolls: { total: number }[];
  whisper?: string[];
  flags: {
    fray: {
      zonesSearch: { mode: string; rows: { weapon: string; stealth: number; notice: number; difficulty: number; found: boolean }[] };
    };
  };
  update(changes: Dict): Promise<Message>;
}

interface ZonesApi {
  toggleHidden(actor: unknown, itemId: string, tokenId?: string): Promise<boolean>;
  searchForWeapons(hider: unknown, searcher: unknown, mode: unknown): Promise<{ rows: Dict[] } | undefined>;
}

let stub: FoundryStub;
let gm: StubUser;
let player: StubUser;

const flowWorld = new FlowWorld<Message>(zonesOptions({ recordCreated: false, sequentialIds: true }));
const { messages } = flowWorld;

beforeAll(async () => {
  ({ stub, gm, player } = await flowWorld.boot());
});

beforeEach(() => {
  flowWorld.reset();
  flowWorld.resetUsers();
});

const zonesApi = () => (stub.game.fray as { zones: ZonesApi }).zones;
const sheetAction = () => zonesSheetAction(flowWorld);

/** A weapon of the Zones pack by file name, with an id. */
function weapon(file: string, id: string, system: Dict = {}): Dict {
  const doc = packSource("zones-weapons", file) as Dict & { system: Dict };
  return { ...doc, _id: id, system: { ...doc.system, ...system } };
}

/** A Zones character whose item updates (system and flags) reach its source. */
function character(id: string, name: string, o: { dex: number; stealth: number; per: number; notice: number }, items: Dict[]) {
  const source = {
    _id: id,
    name,
    type: "character",
    system: {
      ruleset: "zones",
      attributes: { STR: 0, DEX: o.dex, CON: 0, PER: o.per },
      skills: { firearms: 1, melee: 1, throwing: 1, dodge: 1, stealth: o.stealth, notice: o.notice },
      hp: { value: 20, max: 20 },
      speed: { value: 8, max: 8 },
      effort: { value: 2, max: 2 },
      stance: "standing",
    },
    items,
  };
  const a = stubActor(source as never) as ReturnType<typeof stubActor> & Dict;
  for (const item of a.items as unknown as Dict[]) {
    const stored = () => source.items.find((i) => i._id === item.id)! as Dict & { system: Dict; flags?: Dict };
    item.update = async (changes: Dict) => {
      const s = stored();
      for (const [k, v] of Object.entries(changes)) {
        if (k === "system") Object.assign(s.system, v);
        else if (k.startsWith("flags.fray.")) {
          const flags = (s.flags ??= {}) as Record<string, Dict>;
          (flags.fray ??= {})[k.slice(11)] = v;
        }
      }
      item.system = s.system;
      return item;
    };
    item.getFlag = (_scope: string, key: string) => ((stored().flags?.fray ?? {}) as Dict)[key];
  }
  const system = (itemId: string) => source.items.find((i) => i._id === itemId)!.system as Dict;
  return { actor: a, system };
}

/** Ayla (DEX +1, Stealth 2) with a pocket pistol, a revolver and a carbine; the sentry (PER +1, Notice 2). */
function people() {
  const ayla = character("ayla", "Ayla <Quiet>", { dex: 1, stealth: 2, per: 0, notice: 0 }, [
    weapon("Wren_Pocket_Pistol_zNw1WrenPistol02.json", "wren", { carry: "holster" }),
    weapon("Ridgeback_Revolver_zNw1RidgebackR03.json", "revolver", { carry: "holster" }),
    weapon("Harrow_Carbine_zNw1HarrowCarb05.json", "carbine"),
  ]);
  const sentry = character("sentry", "Sentry", { dex: 0, stealth: 0, per: 1, notice: 2 }, []);
  return { ayla, sentry };
}

describe("hiding a small weapon (ZN-HID-01)", () => {
  it("ZN-HID-01, ZN-DRW-01: the sheet's toggle hides a small weapon on the body and brings it back to its holster; a carbine is refused", async () => {
    const { ayla } = people();
    await sheetAction()(ayla.actor, { rulesetAction: "hide", itemId: "wren" });
    expect(ayla.system("wren")).toMatchObject({ carry: "hidden", drawn: false });
    await sheetAction()(ayla.actor, { rulesetAction: "hide", itemId: "wren" });
    expect(ayla.system("wren").carry).toBe("holster");
    await expect(sheetAction()(ayla.actor, { rulesetAction: "hide", itemId: "carbine" })).rejects.toMatchObject({
      key: "FRAY.Error.Zones.NotConcealable",
      data: { field: "weapon" },
    });
    expect(ayla.system("carbine").carry).toBe("shouldered");
  });

  it("ZN-HID-01, ZN-ACT-02: in combat hiding takes the action; without one it is refused and the weapon stays where it was", async () => {
    const { ayla } = people();
    const flags: Dict = {};
    const combatant = {
      id: "c1",
      actor: ayla.actor,
      actorId: ayla.actor.id,
      tokenId: null,
      isOwner: true,
      combat: { id: "combat1", round: 1 },
      getFlag: (_s: string, k: string) => flags[k],
      setFlag: async (_s: string, k: string, v: unknown) => (flags[k] = mergedFlag(flags[k], v)),
    };
    const list = [combatant];
    (stub.game as unknown as Dict).combat = {
      id: "combat1",
      started: true,
      round: 1,
      combatants: Object.assign(list, { get: (id: string) => list.find((c) => c.id === id) }),
    };
    try {
      expect(await zonesApi().toggleHidden(ayla.actor, "wren")).toBe(true);
      expect((flags.economy as { slots: Record<string, { used: number }> }).slots.action!.used).toBe(1);
      expect(await zonesApi().toggleHidden(ayla.actor, "revolver")).toBe(false);
      expect(ayla.system("revolver").carry).toBe("holster");
    } finally {
      (stub.game as unknown as Dict).combat = undefined;
    }
  });

  it("ZN-HID-01: the GM's search of the body: Notice against the Stealth total - 5, per hidden weapon, on a card for the GMs with its Rolls", async () => {
    const { ayla, sentry } = people();
    await zonesApi().toggleHidden(ayla.actor, "wren");
    await zonesApi().toggleHidden(ayla.actor, "revolver");
    // Wren: Stealth 6 + DEX 1 + 2 = 9, difficulty 4; Notice 1 + PER 1 + 2 = 4: found (meets it).
    // Revolver: Stealth 9 + 3 = 12, difficulty 7; Notice 3 + 3 = 6: not found.
    diceQueue.push(6, 1, 9, 3);
    const state = (await zonesApi().searchForWeapons(ayla.actor, sentry.actor, "search"))!;
    expect(state.rows).toEqual([
      { weapon: "Wren Pocket Pistol", stealth: 9, notice: 4, difficulty: 4, found: true },
      { weapon: "Ridgeback Revolver", stealth: 12, notice: 6, difficulty: 7, found: false },
    ]);
    const card = messages.at(-1)!;
    expect(card.rolls.map((r) => r.total)).toEqual([6, 1, 9, 3]);
    expect(card.whisper).toEqual(["gm"]);
    expect(card.content).toContain(
      lookup(en, "FRAY.Zones.Hiding.CardTitle")!.replace("{searcher}", "Sentry").replace("{hider}", "Ayla &lt;Quiet&gt;"),
    );
    expect(card.content).toContain(lookup(en, "FRAY.Zones.Hiding.Mode.search"));
    expect(card.content).toMatch(/class="fray-search-row found"[^]*Wren Pocket Pistol/);
    expect(card.content).toMatch(/class="fray-search-notice fray-fraction">6 \/ 7</);
    // The carbine (not hidden) is not searched for.
    expect(card.content).not.toContain("Harrow");
  });

  it("ZN-HID-01: the GM's search button on the sheet searches with the selected token's actor, on the body", async () => {
    const { ayla, sentry } = people();
    await zonesApi().toggleHidden(ayla.actor, "wren");
    const g = globalThis as unknown as { canvas?: unknown; foundry: { applications: { api: Dict } } };
    const before = g.canvas;
    const dialog = g.foundry.applications.api.DialogV2;
    g.canvas = { tokens: { controlled: [] } };
    g.foundry.applications.api.DialogV2 = { wait: async () => "search" };
    try {
      // No searcher selected: a warning, nothing rolled.
      await sheetAction()(ayla.actor, { rulesetAction: "searchWeapons" });
      expect(stub.ui.notifications.messages.map((m) => m.text)).toContain(lookup(en, "FRAY.Zones.Hiding.NoSearcher"));
      expect(messages).toHaveLength(0);
      g.canvas = { tokens: { controlled: [{ actor: sentry.actor }] } };
      diceQueue.push(2, 10); // Stealth 2 + 3 = 5, difficulty 0; Notice 10 + 3 = 13: found
      await sheetAction()(ayla.actor, { rulesetAction: "searchWeapons" });
      expect(messages.at(-1)!.flags.fray.zonesSearch).toMatchObject({
        mode: "search",
        rows: [{ weapon: "Wren Pocket Pistol", stealth: 5, notice: 13, difficulty: 0, found: true }],
      });
    } finally {
      g.canvas = before;
      g.foundry.applications.api.DialogV2 = dialog;
    }
  });

  it("ZN-HID-01: from a distance the Notice must meet the full Stealth total; players cannot search; nothing hidden says so", async () => {
    const { ayla, sentry } = people();
    await zonesApi().toggleHidden(ayla.actor, "wren");
    diceQueue.push(6, 5); // Stealth 9; Notice 5 + 3 = 8 < 9 from a distance (a body search would find it: 8 >= 4)
    const state = (await zonesApi().searchForWeapons(ayla.actor, sentry.actor, "distance"))!;
    expect(state.rows[0]).toMatchObject({ stealth: 9, notice: 8, difficulty: 9, found: false });
    await expect(zonesApi().searchForWeapons(ayla.actor, sentry.actor, "frisk")).rejects.toMatchObject({ data: { field: "mode" } });
    stub.game.users.current = player;
    gm.isGM = true;
    expect(await zonesApi().searchForWeapons(ayla.actor, sentry.actor, "search")).toBeUndefined();
    expect(stub.ui.notifications.messages.map((m) => m.text)).toContain(lookup(en, "FRAY.Zones.Hiding.GMOnly"));
    stub.game.users.current = gm;
    const bare = people();
    const empty = (await zonesApi().searchForWeapons(bare.sentry.actor, bare.ayla.actor, "search"))!;
    expect(empty.rows).toEqual([]);
    expect(messages.at(-1)!.content).toContain(lookup(en, "FRAY.Zones.Hiding.Nothing"));
  });
});
