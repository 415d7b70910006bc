/**
 * Token bars per ruleset, through the built bundle in the Foundry stand-in (a Zones world): each
 * binding declares its bars, the world's become `CONFIG.Actor.trackableAttributes`, and a new
 * actor's prototype token gets the ruleset's bar1 and bar2 in the Actor's `_preCreate` (Zones:
 * hit points and effort points, never UD10's endurance points), unless the creation data names
 * its own. Each ruleset's bars are those of its compendium NPCs.
 */
import { readdirSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { type FoundryStub } from "../support/foundry-stub.js";
import { FlowWorld, type Dict } from "../support/flow-world.js";
import { zonesOptions } from "../support/flow-zones.js";

/** Foundry's Actor base as the Fray Actor class extends it: `_preCreate` allows, `updateSource` merges. */
class BaseActor {
  source: Dict = {};
  async _preCreate(): Promise<boolean | void> {}
  updateSource(changes: Dict) {
    Object.assign(this.source, changes);
  }
  prepareDerivedData() {}
}

const flowWorld = new FlowWorld(zonesOptions());
let stub: FoundryStub;

beforeAll(async () => {
  (globalThis as Dict).Actor = BaseActor;
  ({ stub } = await flowWorld.boot());
});

interface Bars {
  bar1: string | null;
  bar2: string | null;
  bars: string[];
  values: string[];
}
const bindingBars = (id: string) => (stub.game.fray as { registry: { get(id: string): { tokenBars: Bars } } }).registry.get(id).tokenBars;

/** Runs the Fray Actor class's `_preCreate` on creation data; returns the source update it made. */
async function preCreate(data: Dict): Promise<Dict> {
  const Cls = (stub.CONFIG as unknown as { Actor: { documentClass: { prototype: BaseActor } } }).Actor.documentClass;
  const doc = Object.create(Cls.prototype) as BaseActor;
  doc.source = {};
  await (doc as unknown as { _preCreate(d: Dict, o: Dict, u: unknown): Promise<unknown> })._preCreate(data, {}, stub.game.user);
  return doc.source;
}

describe("token bars per ruleset", () => {
  it("a new Zones character's token shows hit points and effort points, no endurance points", async () => {
    expect(await preCreate({ name: "Rifleman", type: "character", system: {} })).toEqual({
      prototypeToken: { bar1: { attribute: "hp" }, bar2: { attribute: "effort" } },
    });
  });

  it("a new actor of another ruleset gets that ruleset's bars: Critical shows hits and no second bar", async () => {
    expect(await preCreate({ name: "Guard", type: "npc", system: { ruleset: "critical" } })).toEqual({
      prototypeToken: { bar1: { attribute: "hits" }, bar2: { attribute: null } },
    });
  });

  it("bars the creation data names stay; an actor type without bars gets none", async () => {
    const data = { name: "Sentry", type: "npc", system: {}, prototypeToken: { bar1: { attribute: "speed" } } };
    expect(await preCreate(data)).toEqual({ prototypeToken: { bar2: { attribute: "effort" } } });
    expect(await preCreate({ name: "Loot", type: "base", system: {} })).toEqual({});
  });

  it("the world's bars are what a token's configuration offers for characters and NPCs", () => {
    const trackable = (stub.CONFIG as unknown as { Actor: { trackableAttributes?: Dict } }).Actor.trackableAttributes;
    for (const type of ["character", "npc"])
      expect(trackable?.[type]).toEqual({ bar: ["hp", "effort", "speed"], value: ["aim", "initiativeBonus"] });
  });

  it("each ruleset's bar1 and bar2 are those of its compendium NPCs, and both are among its bars", () => {
    for (const id of ["ud10", "hitbox", "critical", "zones"]) {
      const bars = bindingBars(id);
      const dir = `packs/_source/${id}-npcs`;
      for (const file of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
        const token = (JSON.parse(readFileSync(`${dir}/${file}`, "utf8")) as Dict).prototypeToken as Dict;
        const attribute = (bar: string) => ((token[bar] as Dict | undefined)?.attribute as string | null | undefined) ?? null;
        expect([id, attribute("bar1"), attribute("bar2")]).toEqual([id, bars.bar1, bars.bar2]);
      }
      for (const bar of [bars.bar1, bars.bar2]) if (bar) expect(bars.bars).toContain(bar);
    }
  });
});
