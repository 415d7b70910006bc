/**
 * The built system in a stand-in Foundry: loads `dist/fray.mjs` (built by `npm run build`, which
 * `npm test` runs first), runs the `init`, `setup` and `ready` hooks, and checks what the system
 * registered: data models and their schemas, settings, sheets, and one attack from a sheet's
 * Attack button to a chat message.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ud10 } from "../src/rules/ud10/index.js";
import {
  ROOT,
  SchemaField,
  StubChatMessage,
  StubRoll,
  diceQueue,
  installFoundryStub,
  lookup,
  readLang,
  renderTemplateFrom,
  schemaPaths,
  stubActor,
  stubToken,
  type FoundryStub,
  type ModelClass,
} from "./support/foundry-stub.js";
import { combatantSystem } from "./support/actors.js";

const BUNDLE = join(ROOT, "dist", "fray.mjs");

let stub: FoundryStub;

/** The API the bundle puts on `game.fray`, as far as the tests use it. */
interface FrayApi {
  rollAttack(request: {
    actor: unknown;
    weaponId: string;
    token?: unknown;
    target?: unknown;
  }): Promise<{ result: { hit: boolean; lands: boolean; check: { total: number } }; message: unknown } | undefined>;
  registry: {
    get(id: string): ({ id: string; implemented: boolean } & Record<string, unknown>) | undefined;
    register(binding: object): void;
  };
}

/** A sheet class as registered, as far as the tests use it. */
interface SheetClass {
  new (options: { document: unknown }): { _prepareContext(options: object): Promise<Record<string, unknown>> };
  DEFAULT_OPTIONS: { actions: Record<string, (this: unknown, event: unknown, target: unknown) => Promise<void>> };
  PARTS: Record<string, { template: string }>;
}

beforeAll(async () => {
  if (!existsSync(BUNDLE)) {
    throw new Error(`dist/fray.mjs is missing: run "npm run build" before this test (npm test does it).`);
  }
  stub = installFoundryStub("en");
  await import(pathToFileURL(BUNDLE).href);
  stub.Hooks.callAll("init");
  stub.Hooks.callAll("i18nInit");
  stub.Hooks.callAll("setup");
  stub.Hooks.callAll("ready");
});

const en = readLang("en");
const de = readLang("de");

function schemaOf(model: ModelClass | undefined) {
  expect(model, "data model registered").toBeTypeOf("function");
  return model!.defineSchema();
}

describe("init: data models", () => {
  it("registers character and npc actor models with the combatant fields", () => {
    for (const type of ["character", "npc"]) {
      const schema = schemaOf(stub.CONFIG.Actor.dataModels[type]);
      expect(Object.keys(schema).sort()).toEqual(["attributes", "biography", "ep", "group", "hp", "ruleset", "size", "skills"]);
      expect(Object.keys((schema.attributes as SchemaField).fields).sort()).toEqual(["CON", "DEX", "STR"]);
      const skills = (schema.skills as SchemaField).fields;
      expect(Object.keys(skills).sort()).toEqual(["dodge", "initiative", "melee", "parry", "ranged"]);
      for (const skill of Object.values(skills)) expect(Object.keys((skill as SchemaField).fields).sort()).toEqual(["rating", "trained"]);
      expect(Object.keys((schema.hp as SchemaField).fields).sort()).toEqual(["max", "value"]);
      expect(Object.keys((schema.ep as SchemaField).fields).sort()).toEqual(["max", "value"]);
      expect(schema.size!.options.choices).toEqual(["small", "normal", "large"]);
      expect(schema.biography!.kind).toBe("HTMLField");
    }
    expect(schemaOf(stub.CONFIG.Actor.dataModels.npc).group!.options.initial).toBe("npc");
    expect(schemaOf(stub.CONFIG.Actor.dataModels.character).group!.options.initial).toBe("players");
  });

  it("registers the weapon and armor item models", () => {
    const weapon = schemaOf(stub.CONFIG.Item.dataModels.weapon);
    expect(Object.keys(weapon).sort()).toEqual(
      ["attackModifier", "canParry", "damage", "description", "kind", "modes", "penetration", "rangeIncrement", "ruleset", "shield"].sort(),
    );
    expect(weapon.kind!.options.choices).toEqual(["melee", "ranged"]);
    const modes = schemaPaths(weapon)
      .filter(([p]) => p.startsWith("modes.element."))
      .map(([p]) => p.replace("modes.element.", ""));
    expect(modes.sort()).toEqual(["attackModifier", "damage", "id", "label", "shots"]);

    const armor = schemaOf(stub.CONFIG.Item.dataModels.armor);
    expect(Object.keys(armor).sort()).toEqual(["description", "equipped", "ruleset", "zones"]);
    expect(Object.keys((armor.zones as SchemaField).fields).sort()).toEqual([
      "head",
      "leftArm",
      "leftLeg",
      "rightArm",
      "rightLeg",
      "torso",
    ]);
    expect(armor.equipped!.options.initial).toBe(true);
  });

  it("registers the attack chat message model", () => {
    const schema = schemaOf(stub.CONFIG.ChatMessage.dataModels.attack);
    expect(Object.keys(schema)).toEqual(expect.arrayContaining(["attackerUuid", "weaponId", "targets"]));
    expect(schema.targets!.kind).toBe("ArrayField");
  });

  it("labels every field in English and German through LOCALIZATION_PREFIXES", () => {
    const all = [
      ...Object.values(stub.CONFIG.Actor.dataModels),
      ...Object.values(stub.CONFIG.Item.dataModels),
      ...Object.values(stub.CONFIG.ChatMessage.dataModels),
    ];
    const missing: string[] = [];
    for (const model of all) {
      const [prefix] = model.LOCALIZATION_PREFIXES;
      expect(prefix).toMatch(/^FRAY\./);
      for (const [path] of schemaPaths(model.defineSchema())) {
        if (path.endsWith(".element")) continue;
        const key = `${prefix}.FIELDS.${path}.label`;
        if (!lookup(en, key) || !lookup(de, key)) missing.push(key);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe("init: settings", () => {
  it("registers the ruleset setting, UD10 by default, with all four rulesets", () => {
    const ruleset = stub.game.settings.registered.get("fray.ruleset");
    expect(ruleset).toBeDefined();
    expect(ruleset!.default).toBe("ud10");
    expect(ruleset!.scope).toBe("world");
    expect(Object.keys(ruleset!.choices ?? {})).toEqual(["ud10", "hitbox", "critical", "zones"]);
    for (const label of [ruleset!.name, ruleset!.hint, ...Object.values(ruleset!.choices ?? {})]) {
      expect(lookup(en, label!), label).toBeDefined();
    }
  });

  it("registers one world setting per UD10 option with the core's default", () => {
    expect(ud10.options.length).toBeGreaterThan(0);
    for (const spec of ud10.options) {
      const setting = stub.game.settings.registered.get(`fray.ud10-${spec.id}`);
      expect(setting, spec.id).toBeDefined();
      expect(setting!.default).toBe(spec.default);
      expect(setting!.scope).toBe("world");
      expect(setting!.name).toBe(spec.label);
      expect(setting!.hint).toBe(spec.hint);
      expect(setting!.type).toBe(spec.type === "boolean" ? Boolean : spec.type === "number" ? Number : String);
      if (spec.type === "choice") {
        expect(Object.keys(setting!.choices ?? {})).toEqual(spec.choices);
        for (const label of Object.values(setting!.choices ?? {})) expect(lookup(en, label), label).toBeDefined();
      }
    }
  });
});

describe("init: sheets and templates", () => {
  it("registers the actor sheet as default for character and npc", () => {
    const reg = stub.actors.registrations.find((r) => r.scope === "fray");
    expect(reg).toBeDefined();
    expect(reg!.options.types).toEqual(["character", "npc"]);
    expect(reg!.options.makeDefault).toBe(true);
    expect((reg!.sheetClass as SheetClass).DEFAULT_OPTIONS.actions.attack).toBeTypeOf("function");
  });

  it("registers the item sheet as default for weapon and armor", () => {
    const reg = stub.items.registrations.find((r) => r.scope === "fray");
    expect(reg!.options.types).toEqual(["weapon", "armor"]);
    expect(reg!.options.makeDefault).toBe(true);
  });

  it("preloads the chat card template", () => {
    expect(stub.templatesLoaded).toContain("systems/fray/templates/chat/attack-card.hbs");
  });

  it("logs through setup and ready without warnings in a UD10 world", () => {
    expect(stub.ui.notifications.messages).toEqual([]);
  });
});

/* -------------------------------------------------------------------------------------------- */

function sword(id = "sword") {
  return {
    _id: id,
    name: "Sabre",
    type: "weapon",
    system: {
      kind: "melee",
      attackModifier: 1,
      damage: "2+1d10",
      penetration: 0,
      rangeIncrement: 0,
      modes: [],
      canParry: true,
      shield: false,
      description: "",
    },
  };
}

function world() {
  const ayla = stubActor({ _id: "ayla", name: "Ayla", type: "character", system: combatantSystem(6, "<p>Veteran.</p>"), items: [sword()] });
  const bandit = stubActor({
    _id: "bandit",
    name: "Bandit",
    type: "npc",
    system: { ...combatantSystem(3, "<p>Veteran.</p>"), group: "bandits" },
    items: [
      {
        _id: "jerkin",
        name: "Leather Jerkin",
        type: "armor",
        system: { zones: { torso: { rating: 2, buffer: 1 } }, equipped: true, description: "" },
      },
    ],
  });
  const aylaToken = stubToken(ayla, 0, 0);
  const banditToken = stubToken(bandit, 1, 0);
  return { ayla, bandit, aylaToken, banditToken };
}

function api(): FrayApi {
  return stub.game.fray as FrayApi;
}

describe("the Attack button", () => {
  beforeEach(() => {
    StubChatMessage.created.length = 0;
    StubRoll.evaluated.length = 0;
    stub.ui.notifications.messages.length = 0;
    stub.game.user.targets.clear();
    diceQueue.length = 0;
    stub.game.settings.values.clear();
  });

  it("prepares the sheet context: attributes, skills, defense, weapons", async () => {
    const { ayla } = world();
    const Sheet = stub.actors.registrations[0]!.sheetClass as SheetClass;
    const context = await new Sheet({ document: ayla })._prepareContext({});
    expect((context.attributes as { id: string; value: number }[]).map((a) => [a.id, a.value])).toEqual([
      ["STR", 5],
      ["DEX", 6],
      ["CON", 4],
    ]);
    expect((context.skills as unknown[]).length).toBe(5);
    expect(context.defense).toBe(16);
    expect((context.weapons as { id: string; damage: string }[])[0]).toMatchObject({ id: "sword", damage: "2+1d10" });

    const render = renderTemplateFrom(stub.game.i18n);
    const html = (await Promise.all(Object.values(Sheet.PARTS).map((p) => render(p.template, context)))).join("");
    expect(html).toContain('data-action="attack"');
    expect(html).toContain('data-item-id="sword"');
    expect(html).toContain("Sabre");
    expect(html).toContain(lookup(en, "FRAY.Sheet.NoArmor"));
    expect(html).not.toMatch(/FRAY\./);
  });

  it("attacks the first target and posts an attack message with the real rolls and every line", async () => {
    const { ayla, banditToken } = world();
    stub.game.user.targets.add(banditToken);
    diceQueue.push(7, 5); // attack d10, then the body-zone d10 (5: torso)
    const Sheet = stub.actors.registrations[0]!.sheetClass as SheetClass;
    const sheet = new Sheet({ document: ayla });
    const button = { dataset: {}, closest: () => ({ dataset: { itemId: "sword" } }) };
    await Sheet.DEFAULT_OPTIONS.actions.attack!.call(sheet, {}, button);

    expect(stub.ui.notifications.messages).toEqual([]);
    expect(StubChatMessage.created).toHaveLength(1);
    const message = StubChatMessage.created[0]!;
    expect(message.type).toBe("attack");
    expect(message.rolls).toEqual(StubRoll.evaluated);
    expect(message.rolls!.length).toBeGreaterThanOrEqual(1);
    expect(message.rollMode).toBe("publicroll");

    // 7 + melee 6 + AM 1 = 14 against 10 + DEX 3 = 13: a hit on the torso.
    const system = message.system as {
      targets: { result: Record<string, unknown>; actorUuid: string }[];
      attackerUuid: string;
      weaponId: string;
    };
    expect(system.targets[0]!.result).toMatchObject({ hit: true, lands: true, check: { total: 14 }, location: { id: "torso" } });
    expect(JSON.stringify(system.targets[0]!.result)).not.toContain("native");
    expect(system).toMatchObject({ attackerUuid: "Actor.ayla", weaponId: "sword" });
    expect(system.targets[0]!.actorUuid).toBe("Actor.bandit");

    const content = message.content!;
    expect(content).toContain("Ayla attacks Bandit with Sabre");
    for (const rule of ["UD-ATK-01", "UD-ATK-03", "UD-ZON-01"]) expect(content).toContain(rule);
    expect(content).toContain("Attack modifier (Sabre)");
    expect(content).toContain("Base defense");
    expect(content).toContain("14 vs. difficulty 13");
    expect(content).toContain(lookup(en, "FRAY.Chat.Hit"));
    expect(content).toContain("Torso");
    expect(content).not.toMatch(/FRAY\./);
  });

  it("measures the range between the tokens in metres", async () => {
    const { ayla, bandit } = world();
    stubToken(ayla, 0, 0);
    const far = stubToken(bandit, 4, 0);
    stub.game.user.targets.add(far);
    diceQueue.push(1);
    await api().rollAttack({ actor: ayla, weaponId: "sword" });
    expect(StubChatMessage.created[0]!.content).toContain("Range: 6.0 m");
  });

  it("reports a missing target with a localized error and posts nothing", async () => {
    const { ayla } = world();
    await api().rollAttack({ actor: ayla, weaponId: "sword" });
    expect(StubChatMessage.created).toHaveLength(0);
    expect(stub.ui.notifications.messages).toEqual([{ level: "error", text: lookup(en, "FRAY.Notify.NoTarget") }]);
  });

  it("shows the rules core's errors localized, with their data", async () => {
    const { ayla, banditToken } = world();
    stub.game.user.targets.add(banditToken);
    await api().rollAttack({ actor: ayla, weaponId: "no-such-weapon" });
    expect(StubChatMessage.created).toHaveLength(0);
    expect(stub.ui.notifications.messages).toEqual([{ level: "error", text: 'Ayla has no weapon "no-such-weapon".' }]);
  });

  it("refuses to attack in a world whose ruleset is not implemented yet", async () => {
    const { ayla, banditToken } = world();
    stub.game.user.targets.add(banditToken);
    // Every shipped ruleset plays; a module's binding that does not play yet stands in for one.
    const shipped = api().registry.get("critical")!;
    api().registry.register({ ...shipped, implemented: false });
    try {
      await stub.game.settings.set("fray", "ruleset", "critical");
      await api().rollAttack({ actor: ayla, weaponId: "sword" });
      expect(StubChatMessage.created).toHaveLength(0);
      expect(stub.ui.notifications.messages[0]!.level).toBe("warn");
      expect(stub.ui.notifications.messages[0]!.text).toContain("Critical");
    } finally {
      api().registry.register(shipped);
    }
  });
});
