/**
 * The Foundry-level contract every ruleset binding keeps, run for each binding the registry of
 * the built bundle holds (`game.fray.registry.list()`), each in a world of its own loaded in the
 * typed stand-in with that ruleset chosen: its data models register for the four document types;
 * every compendium NPC of the ruleset becomes a combatant the core's validator accepts; the token
 * ruler colours the core's movement bands; its options are world settings read back by
 * `optionValues`; its conditions make valid status effects (and are the status effects of a
 * world whose ruleset is implemented); its economy spec gives fresh economies the tracker reads;
 * and, once implemented, an attack through `game.fray.rollAttack` posts a card. No ruleset is
 * named here: a new binding is checked by being registered.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createEconomy, type EconomySpec } from "../../src/rules/core/economy.js";
import type { ConditionSpec } from "../../src/rules/core/contract.js";
import type { MovementBand, OptionSpec, RulesetOptions } from "../../src/rules/core/ruleset.js";
import { validateCombatant, RULESET_IDS } from "../../src/rules/validate.js";
import { BEYOND_COLOUR, bandColourAt } from "../../src/foundry/logic/ruler.js";
import { pips, readEconomy, stamped } from "../../src/foundry/logic/economy.js";
import {
  ROOT,
  StubChatMessage,
  installFoundryStub,
  lookup,
  readLang,
  stubActor,
  stubToken,
  type FoundryStub,
} from "../support/foundry-stub.js";

const BUNDLE = join(ROOT, "dist", "fray.mjs");
const en = readLang("en");
const de = readLang("de");

type Dict = Record<string, unknown>;

/** A binding as the bundle hands it out, as far as the contract reads it. */
interface Binding {
  id: (typeof RULESET_IDS)[number];
  implemented: boolean;
  models: Record<"character" | "npc" | "weapon" | "armor", unknown>;
  movementUnits: { units: string; metresPerUnit: number };
  combatantFromActor(actor: unknown, overrides?: Dict): unknown;
  rulerBands?(c: unknown, options: RulesetOptions): MovementBand[];
  ruleset: {
    options: OptionSpec[];
    movement(c: unknown, options: RulesetOptions): MovementBand[];
    conditions(): ConditionSpec[];
    economy(c: unknown, options: RulesetOptions): EconomySpec;
  };
}

interface FrayApi {
  registry: { list(): Binding[]; get(id: string): Binding | undefined };
  optionValues(id?: string): RulesetOptions;
  rollAttack(request: unknown): Promise<{ results: unknown[]; message: { system: Dict } } | undefined>;
}

/** A ruler the bundle registers: the stand-in base keeps the token and returns white styles. */
interface Ruler {
  _getSegmentStyle(waypoint: unknown): { color?: number };
}

class BaseRuler {
  constructor(readonly token: unknown) {}
  _getSegmentStyle(_waypoint?: unknown) {
    return { width: 4, color: 0xffffff };
  }
  _getGridHighlightStyle(_waypoint?: unknown, _offset?: unknown) {
    return { color: 0xffffff, alpha: 0.5 };
  }
}

interface World {
  stub: FoundryStub;
  api: FrayApi;
  binding: Binding;
}

let loads = 0;

/**
 * Loads the bundle into a fresh stand-in world whose `ruleset` setting is `rulesetId` (a new
 * module instance each time, so `init` registers that ruleset's models and status effects).
 */
async function loadWorld(rulesetId?: string): Promise<World> {
  const stub = installFoundryStub("en");
  const g = globalThis as Dict;
  const foundry = g.foundry as Dict;
  foundry.canvas = { placeables: { tokens: { TokenRuler: BaseRuler } } };
  foundry.utils = {
    ...(foundry.utils as object),
    fromUuid: async () => null,
    fromUuidSync: () => null,
    randomID: () => Math.random().toString(36).slice(2, 12),
  };
  const config = stub.CONFIG as unknown as Dict;
  config.Token = {};
  config.Combat = {};
  config.Combatant = {};
  config.statusEffects = [];
  config.specialStatusEffects = {};
  if (rulesetId) await stub.game.settings.set("fray", "ruleset", rulesetId);
  await import(`${pathToFileURL(BUNDLE).href}?world=${++loads}`);
  for (const hook of ["init", "i18nInit", "setup", "ready"]) stub.Hooks.callAll(hook);
  const api = stub.game.fray as FrayApi;
  const binding = api.registry.get(rulesetId ?? api.registry.list()[0]!.id)!;
  return { stub, api, binding };
}

if (!existsSync(BUNDLE)) throw new Error(`dist/fray.mjs is missing: run "npm run build" first.`);
const bindings = (await loadWorld()).api.registry.list().map((b) => ({ id: b.id, implemented: b.implemented }));

/** The compendium NPC sources of a ruleset (`packs/_source/<id>-npcs/*.json`). */
function packActors(
  id: string,
): { _id: string; name: string; type: string; system: Dict; items: { _id: string; name: string; type: string; system: Dict }[] }[] {
  const dir = join(ROOT, "packs", "_source", `${id}-npcs`);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as ReturnType<typeof packActors>[number]);
}

it("the registry holds every ruleset the validators know", () => {
  expect(bindings.map((b) => b.id).sort()).toEqual([...RULESET_IDS].sort());
});

describe.each(bindings)("binding $id", ({ id, implemented }) => {
  let world: World;
  let options: RulesetOptions;
  // Loading a bundle instance is slow on a busy machine; the default hook timeout is too short.
  beforeAll(async () => {
    world = await loadWorld(id);
    options = world.api.optionValues(id);
  }, 60_000);
  beforeEach(() => {
    StubChatMessage.created.length = 0;
    world.stub.ui.notifications.messages.length = 0;
  });

  it("its models register for character, npc, weapon and armor", () => {
    const { CONFIG } = world.stub;
    expect(world.binding.id).toBe(id);
    for (const type of ["character", "npc"] as const) {
      expect(CONFIG.Actor.dataModels[type], type).toBe(world.binding.models[type]);
      expect(CONFIG.Actor.dataModels[type]).toBeTypeOf("function");
    }
    for (const type of ["weapon", "armor"] as const) {
      expect(CONFIG.Item.dataModels[type], type).toBe(world.binding.models[type]);
      expect(CONFIG.Item.dataModels[type]).toBeTypeOf("function");
    }
  });

  it("every compendium NPC becomes a combatant the core's validator accepts", () => {
    const actors = packActors(id);
    expect(actors.length).toBeGreaterThan(0);
    for (const actor of actors) {
      const combatant = world.binding.combatantFromActor(actor);
      expect(() => validateCombatant(id, combatant), actor.name).not.toThrow();
      expect(combatant).toMatchObject({ name: actor.name });
    }
  });

  it("the token ruler colours a compendium NPC's drag by the core's movement bands (or the binding's ruler bands)", () => {
    const { units, metresPerUnit } = world.binding.movementUnits;
    (world.stub.canvas.grid as { units: string }).units = units;
    const RulerClass = (world.stub.CONFIG as unknown as { Token: { rulerClass: new (token: unknown) => Ruler } }).Token.rulerClass;
    expect(RulerClass).toBeTypeOf("function");
    for (const source of packActors(id)) {
      const actor = stubActor(source);
      const token = stubToken(actor, 0, 0);
      const c = world.binding.combatantFromActor(source);
      // A binding may measure the ruler in its own bands (Zones: speed points).
      const bands = world.binding.rulerBands ? world.binding.rulerBands(c, options) : world.binding.ruleset.movement(c, options);
      expect(bands.length, source.name).toBeGreaterThan(0);
      const ruler = new RulerClass(token);
      const colourAt = (metres: number) => ruler._getSegmentStyle({ measurement: { cost: metres / metresPerUnit } }).color;
      for (const band of bands) {
        const first = bands.findIndex((b) => b.maxMetres >= band.maxMetres - 1e-9);
        expect(colourAt(band.maxMetres), `${source.name} ${band.maxMetres} m`).toBe(bandColourAt(first));
      }
      expect(colourAt(bands.at(-1)!.maxMetres + 1)).toBe(BEYOND_COLOUR);
    }
  });

  it("its options are world settings, read back by optionValues", async () => {
    const { settings } = world.stub.game;
    for (const spec of world.binding.ruleset.options) {
      const setting = settings.registered.get(`fray.${id}-${spec.id}`);
      expect(setting, spec.id).toMatchObject({ scope: "world", default: spec.default, config: true });
      const other =
        spec.type === "boolean"
          ? !spec.default
          : spec.type === "number"
            ? Number(spec.default) + 1
            : (spec.choices ?? []).find((c) => c !== spec.default);
      expect(other, spec.id).toBeDefined();
      await settings.set("fray", `${id}-${spec.id}`, other);
      expect(world.api.optionValues(id)[spec.id], spec.id).toBe(other);
    }
    for (const spec of world.binding.ruleset.options) settings.values.delete(`fray.${id}-${spec.id}`);
    expect(world.api.optionValues(id)).toEqual(options);
  });

  it("its conditions make status effects: unique ids, localized names, core icons", () => {
    const conditions = world.binding.ruleset.conditions();
    expect(conditions.length).toBeGreaterThan(0);
    expect(new Set(conditions.map((c) => c.id)).size).toBe(conditions.length);
    for (const c of conditions) {
      expect(lookup(en, c.label), c.label).toBeDefined();
      expect(lookup(de, c.label), c.label).toBeDefined();
      expect(c.icon, c.id).toMatch(/^icons\//);
    }
    if (implemented) {
      const status = (world.stub.CONFIG as unknown as { statusEffects: { id: string }[] }).statusEffects;
      expect(status.map((s) => s.id)).toEqual(conditions.map((c) => c.id));
    }
  });

  it("its economy spec gives each compendium NPC a fresh economy the tracker reads", () => {
    for (const source of packActors(id)) {
      const spec = world.binding.ruleset.economy(world.binding.combatantFromActor(source), options);
      expect(spec.slots.length + spec.pools.length, source.name).toBeGreaterThan(0);
      const fresh = createEconomy(spec);
      // What a round's reset writes, read back as the tracker reads it: full pools, no slot used.
      const read = readEconomy(stamped(fresh, 2), spec, 2);
      expect(read).toEqual({ ...fresh, round: 2 });
      for (const pool of spec.pools) {
        expect(read.pools[pool.id], pool.id).toBeDefined();
        expect(lookup(en, pool.label), pool.label).toBeDefined();
        expect(lookup(de, pool.label), pool.label).toBeDefined();
      }
      const shown = pips(read, spec);
      expect(shown.map((p) => p.slot)).toEqual(spec.slots.map((s) => s.id));
      for (const p of shown) {
        expect(p.spent, p.slot).toBe(false);
        expect(lookup(en, p.label), p.label).toBeDefined();
        expect(lookup(de, p.label), p.label).toBeDefined();
      }
    }
  });

  it.runIf(implemented)("an attack through game.fray.rollAttack posts a card", async () => {
    const [first, second] = packActors(id);
    const attacker = stubActor(first!);
    const defender = stubActor(second!);
    const token = stubToken(attacker, 0, 0);
    const target = stubToken(defender, 1, 0);
    const weapon = first!.items.find((i) => i.type === "weapon")!;
    const outcome = await world.api.rollAttack({ actor: attacker, weaponId: weapon._id, token, target, skipDialog: true });
    expect(world.stub.ui.notifications.messages).toEqual([]);
    expect(outcome?.results).toHaveLength(1);
    expect(StubChatMessage.created).toHaveLength(1);
    expect(StubChatMessage.created[0]!.system).toMatchObject({ ruleset: id, weaponId: weapon._id, attackerUuid: attacker.uuid });
    expect((StubChatMessage.created[0]!.system as { targets: unknown[] }).targets).toHaveLength(1);
  });
});
