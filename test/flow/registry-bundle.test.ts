/**
 * The ruleset registry in the built bundle, inside the typed Foundry stand-in: four bindings on
 * `game.fray`, every ruleset's options as world settings with only the world's shown, the option
 * values read per ruleset, and the Actor class caching its core combatant per preparation
 * (UD-ATK-03 defense through the cached combatant) and recognising actors of another ruleset.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { critical } from "../../src/rules/critical/index.js";
import { hitbox } from "../../src/rules/hitbox/index.js";
import { ud10 } from "../../src/rules/ud10/index.js";
import { zones } from "../../src/rules/zones/index.js";
import { ROOT, installFoundryStub, type FoundryStub } from "../support/foundry-stub.js";
import { combatantSystem } from "../support/actors.js";
import { fighter, target } from "../rules/ud10-fixtures.js";
import type { CheckedRuleset } from "../../src/foundry/play/api.js";

const BUNDLE = join(ROOT, "dist", "fray.mjs");

type Dict = Record<string, unknown>;
let stub: FoundryStub;

/** A base Actor for the document class: keeps its source, prepares through `prepareDerivedData`. */
class BaseActor {
  readonly _source: Dict;
  readonly statuses = new Set<string>();
  constructor(source: Dict) {
    this._source = source;
  }
  get name(): string {
    return String(this._source.name);
  }
  get system(): unknown {
    return this._source.system;
  }
  toObject(): Dict {
    return structuredClone(this._source);
  }
  prepareDerivedData(): void {}
}
class BaseItem extends BaseActor {}

/** The API the bundle puts on `game.fray`, as far as these tests use it. */
interface FrayApi {
  registry: { list(): { id: string; implemented: boolean; ruleset: { id: string } }[]; ids(): string[] };
  rulesets: Record<string, CheckedRuleset>;
  binding: { id: string; movementUnits: { units: string } };
  optionValues(id?: string): Dict;
  ud10Options(): Dict;
  sources: { ud10CombatantFromActor: unknown };
}

interface ActorDoc {
  prepareDerivedData(): void;
  frayCore(): { combatant?: unknown; foreign?: string; error?: unknown };
  readonly combatant: unknown;
  readonly foreignRuleset: string | undefined;
}

beforeAll(async () => {
  if (!existsSync(BUNDLE)) throw new Error(`dist/fray.mjs is missing: run "npm run build" first.`);
  stub = installFoundryStub("en");
  const g = globalThis as Dict;
  g.Actor = BaseActor;
  g.Item = BaseItem;
  await import(pathToFileURL(BUNDLE).href);
  for (const hook of ["init", "i18nInit", "setup", "ready"]) stub.Hooks.callAll(hook);
});

const api = () => stub.game.fray as FrayApi;

describe("registry", () => {
  it("game.fray lists four rulesets, each binding holding its core ruleset; the world's binding is UD10", () => {
    expect(api().registry.ids()).toEqual(["ud10", "hitbox", "critical", "zones"]);
    for (const b of api().registry.list()) expect(b.ruleset.id).toBe(b.id);
    expect(
      api()
        .registry.list()
        .filter((b) => b.implemented)
        .map((b) => b.id),
    ).toEqual(["ud10", "hitbox", "critical", "zones"]);
    expect(api().rulesets).toMatchObject({
      ud10: { id: "ud10" },
      hitbox: { id: "hitbox" },
      critical: { id: "critical" },
      zones: { id: "zones" },
    });
    expect(api().binding.id).toBe("ud10");
    expect(api().sources.ud10CombatantFromActor).toBeTypeOf("function");
  });

  it("UD-ATK-01: game.fray.rulesets hands macros checked entry points: a modifier given as text is refused naming the field", async () => {
    const input = { attacker: fighter(), target: target(), weaponId: "sword", rangeMetres: 1, situation: { misc: 10 } };
    const checked = api().rulesets.ud10!;
    // A valid input plans as the core does, with the default options when none are given.
    expect(checked.planAttack(structuredClone(input))).toEqual(ud10.planAttack(structuredClone(input), ud10.defaults()));
    const messages = stub.ui.notifications.messages;
    messages.length = 0;
    const bad: [() => unknown, string][] = [
      [() => checked.planAttack({ ...input, situation: { misc: "10" } }), "situation.misc"],
      [() => checked.odds(checked.planAttack(input), { ...input, rangeMetres: -5 }), "rangeMetres"],
      [() => checked.reactions({ ...input, attacker: { ...input.attacker, hp: { value: 5, max: 1 } } }), "attacker.hp.value"],
      [() => checked.planAttack(input, { buffer: "yes" }), "options.buffer"],
      [() => checked.applyDamage({ ...input.target, ep: { value: -2, max: 15 } }, {} as never), "target.ep.value"],
    ];
    for (const [call, field] of bad) {
      expect(call, field).toThrow(expect.objectContaining({ data: expect.objectContaining({ field }) }));
      expect(messages.at(-1)).toMatchObject({ level: "error" });
      expect(messages.at(-1)!.text).toContain(field);
      expect(messages.at(-1)!.text).not.toMatch(/FRAY\./);
    }
    await expect(checked.resolveAttack({} as never, { ...input, weaponId: 5 }, {} as never)).rejects.toMatchObject({
      data: { field: "weaponId" },
    });
  });

  it("the ruleset setting offers exactly the registered rulesets", () => {
    expect(Object.keys(stub.game.settings.registered.get("fray.ruleset")!.choices!)).toEqual(["ud10", "hitbox", "critical", "zones"]);
  });
});

describe("settings of every ruleset", () => {
  const cores = { ud10, hitbox, critical, zones };

  it("UD-INI-02, CR-INI-01: each ruleset's options are world settings <ruleset>-<option>; only the world's are shown", () => {
    for (const [id, core] of Object.entries(cores)) {
      for (const spec of core.options) {
        const setting = stub.game.settings.registered.get(`fray.${id}-${spec.id}`);
        expect(setting, `${id}-${spec.id}`).toBeDefined();
        expect(setting!.scope).toBe("world");
        expect(setting!.default).toBe(spec.default);
        expect(setting!.config, `${id}-${spec.id} shown`).toBe(id === "ud10");
      }
    }
    // Two rulesets with an option of the same id keep separate settings.
    expect(stub.game.settings.registered.get("fray.critical-npcInitiative")).toBeDefined();
    expect(stub.game.settings.registered.get("fray.ud10-npcInitiative")).toBeDefined();
  });

  it("UD-INI-02, CR-INI-01: optionValues reads one ruleset's stored values; ud10Options stays UD10's", async () => {
    await stub.game.settings.set("fray", "critical-npcInitiative", "all");
    await stub.game.settings.set("fray", "ud10-npcInitiative", "group");
    await stub.game.settings.set("fray", "hitbox-hitboxPoints", "three");
    expect(api().optionValues("critical")).toMatchObject({ npcInitiative: "all", fumbles: true });
    expect(api().optionValues("ud10")).toMatchObject({ npcInitiative: "group" });
    expect(api().optionValues()).toEqual(api().ud10Options());
    // A stored value of the wrong type falls back to the core's default.
    expect(api().optionValues("hitbox").hitboxPoints).toBe(2);
    stub.game.settings.values.clear();
  });
});

describe("the Actor class", () => {
  function actorClass(): new (source: Dict) => ActorDoc {
    return (stub.CONFIG.Actor as unknown as { documentClass: new (source: Dict) => ActorDoc }).documentClass;
  }

  it("UD-ATK-03: the core combatant is read once per preparation and handed out cached", () => {
    const Actor = actorClass();
    const ayla = new Actor({ _id: "ayla", name: "Ayla", type: "character", system: combatantSystem(6), items: [] });
    ayla.prepareDerivedData();
    const first = ayla.frayCore();
    expect(ayla.frayCore()).toBe(first);
    expect(first.combatant).toMatchObject({ id: "ayla", name: "Ayla", attributes: { DEX: 6 } });
    // A new preparation reads the actor again.
    ayla.prepareDerivedData();
    expect(ayla.frayCore()).not.toBe(first);
    expect(ayla.foreignRuleset).toBeUndefined();
  });

  it("an actor of another ruleset is recognised: no combatant, its ruleset named", () => {
    const Actor = actorClass();
    const bruiser = new Actor({
      _id: "b",
      name: "Bruiser",
      type: "npc",
      system: { ruleset: "hitbox", abilities: { strength: 2 } },
      items: [],
    });
    bruiser.prepareDerivedData();
    expect(bruiser.combatant).toBeUndefined();
    expect(bruiser.foreignRuleset).toBe("hitbox");
    expect(bruiser.frayCore().error).toMatchObject({ key: "FRAY.Error.WrongRuleset" });
  });
});
