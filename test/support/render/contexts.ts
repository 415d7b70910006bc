/**
 * The cases the render test draws: each template with a context produced by the functions the
 * sheets and chat cards use, from the compendium sources.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { actorParts, actorSheetContext, itemSheetContext, ACTOR_TABS, type SheetI18n } from "../../../src/foundry/sheets/context.js";
import { readSources, type PackDoc } from "../packs.js";
import { ROOT } from "../foundry-stub.js";

/** One rendering: the parts (template paths relative to the repository) and their context. */
export interface RenderCase {
  id: string;
  title: string;
  kind: "sheet" | "chat";
  classes: string[];
  width: number;
  height: number;
  templates: string[];
  context: Record<string, unknown>;
  /** Selectors that must be present, with the count expected (at least 1 when undefined). */
  expect: { selector: string; count?: number }[];
}

/** A pack document by name. */
export function packDoc(pack: string, name: string): PackDoc {
  const found = readSources(pack).find((s) => s.doc.name === name);
  if (!found) throw new Error(`${pack} has no "${name}"`);
  return found.doc;
}

/** Template path of an actor part. */
const actorTemplate = (part: string) => `templates/actor/${part}.hbs`;

/** The cases of the actor sheet: a character (each tab), an NPC stat block, a generic view. */
export function actorCases(i18n: SheetI18n): RenderCase[] {
  const veteran = structuredClone(packDoc("ud10-npcs", "Veteran"));
  const weaponDocs = [packDoc("ud10-weapons", "Assault Rifle"), packDoc("ud10-weapons", "Machete"), packDoc("ud10-weapons", "Round Shield")];
  const character = {
    ...veteran,
    _id: "hero",
    name: "Ayla Brandt",
    type: "character",
    img: "icons/svg/mystery-man.svg",
    system: { ...veteran.system, group: "players", biography: "<p>A former border guard who <strong>never misses</strong> a chance.</p>" },
    items: [...((veteran.items ?? []) as PackDoc[]).filter((i) => i.type === "armor"), ...weaponDocs.map((w) => structuredClone(w))],
    statuses: ["crouching", "aiming1"],
  };
  const cases: RenderCase[] = [];
  for (const tab of ACTOR_TABS) {
    for (const bodyZones of tab.id === "combat" ? [true, false] : [true]) {
      const context = actorSheetContext({
        actor: character as never,
        ruleset: "ud10",
        editable: true,
        bodyZones,
        activeTab: tab.id,
        enrichedBiography: String((character.system as { biography: string }).biography),
        i18n,
      });
      const weapons = character.items.filter((i) => i.type === "weapon");
      const withModes = weapons.filter((w) => ((w.system as { modes?: unknown[] }).modes ?? []).length > 0).length;
      const expectations: Record<string, RenderCase["expect"]> = {
        attributes: [
          { selector: '[data-action="rollSkill"]', count: 5 },
          ...["STR", "DEX", "CON"].map((a) => ({ selector: `input[name="system.attributes.${a}"]`, count: 1 })),
          ...["initiative", "melee", "ranged", "parry", "dodge"].flatMap((s) => [
            { selector: `input[name="system.skills.${s}.rating"]`, count: 1 },
            { selector: `input[name="system.skills.${s}.trained"]`, count: 1 },
          ]),
        ],
        combat: [
          { selector: '[data-action="attack"]', count: weapons.length },
          { selector: "select[data-mode-select]", count: withModes },
          { selector: '[data-action="createItem"][data-type="weapon"]', count: 1 },
          { selector: '[data-action="createItem"][data-type="armor"]', count: 1 },
          { selector: '[data-action="toggleEquipped"]' },
          { selector: bodyZones ? "[data-zone]" : ".fray-averaged", count: bodyZones ? 6 : 1 },
        ],
        conditions: [
          { selector: '[data-action="toggleCondition"]', count: 10 },
          { selector: '[data-action="toggleCondition"].active', count: 2 },
        ],
        biography: [{ selector: 'prose-mirror[name="system.biography"]', count: 1 }],
      };
      cases.push({
        id: `actor-character-${tab.id}${tab.id === "combat" ? (bodyZones ? "-zones" : "-averaged") : ""}`,
        title: character.name,
        kind: "sheet",
        classes: ["fray", "sheet", "actor"],
        width: 720,
        height: 780,
        templates: actorParts("character", "ud10").map(actorTemplate),
        context,
        expect: [
          { selector: 'input[name="name"]', count: 1 },
          { selector: 'input[name="system.hp.value"]', count: 1 },
          { selector: 'input[name="system.hp.max"]', count: 1 },
          { selector: 'input[name="system.ep.value"]', count: 1 },
          { selector: 'input[name="system.ep.max"]', count: 1 },
          { selector: 'select[name="system.size"]', count: 1 },
          { selector: '[data-action="tab"]', count: 4 },
          { selector: `.fray-tab.active[data-tab="${tab.id}"]`, count: 1 },
          ...expectations[tab.id]!,
        ],
      });
    }
  }

  for (const name of ["Veteran", "Guard"]) {
    const npc = { ...packDoc("ud10-npcs", name), statuses: ["prone"] };
    const weapons = ((npc.items ?? []) as PackDoc[]).filter((i) => i.type === "weapon");
    cases.push({
      id: `actor-npc-${name.toLowerCase()}`,
      title: npc.name,
      kind: "sheet",
      classes: ["fray", "sheet", "actor"],
      width: 560,
      height: 640,
      templates: actorParts("npc", "ud10").map(actorTemplate),
      context: actorSheetContext({ actor: npc as never, ruleset: "ud10", editable: true, bodyZones: false, enrichedBiography: "", i18n }),
      expect: [
        { selector: '[data-action="attack"]', count: weapons.length },
        { selector: '[data-action="rollSkill"]', count: 5 },
        { selector: '[data-action="toggleCondition"]', count: 10 },
        { selector: 'input[name="system.hp.value"]', count: 1 },
        { selector: 'input[name="system.ep.value"]', count: 1 },
        { selector: 'input[name="system.attributes.DEX"]', count: 1 },
      ],
    });
  }

  for (const [ruleset, pack, name] of [
    ["hitbox", "hitbox-npcs", "Riot Officer"],
    ["zones", "zones-npcs", "Breacher"],
    ["critical", "critical-npcs", "Sword Fighter"],
  ] as const) {
    const npc = packDoc(pack, name);
    cases.push({
      id: `actor-generic-${ruleset}`,
      title: npc.name,
      kind: "sheet",
      classes: ["fray", "sheet", "actor"],
      width: 560,
      height: 640,
      templates: actorParts("npc", ruleset).map(actorTemplate),
      context: actorSheetContext({ actor: npc as never, ruleset, editable: true, bodyZones: false, enrichedBiography: "", i18n }),
      expect: [
        { selector: 'input[name="name"]', count: 1 },
        { selector: ".fray-generic-list > div" },
        { selector: '[data-action="toggleCondition"]', count: 10 },
      ],
    });
  }
  return cases;
}

/** The cases of the item sheet: a weapon with firing modes, a melee weapon, an armor, a generic item. */
export function itemCases(i18n: SheetI18n): RenderCase[] {
  const items: [string, PackDoc, "ud10" | "hitbox"][] = [
    ["weapon-modes", packDoc("ud10-weapons", "Assault Rifle"), "ud10"],
    ["weapon-melee", packDoc("ud10-weapons", "Machete"), "ud10"],
    ["armor", packDoc("ud10-armor", readSources("ud10-armor")[0]!.doc.name), "ud10"],
    ["generic-hitbox", packDoc("hitbox-weapons", "Combat Knife"), "hitbox"],
  ];
  return items.map(([id, doc, ruleset]) => {
    const system = (doc.system ?? {}) as { modes?: unknown[] };
    const expect: RenderCase["expect"] =
      ruleset !== "ud10"
        ? [{ selector: ".fray-generic-list > div" }]
        : doc.type === "weapon"
          ? [
              ...["kind", "attackModifier", "damage", "penetration", "rangeIncrement", "canParry", "shield"].map((f) => ({ selector: `[name="system.${f}"]`, count: 1 })),
              { selector: '[data-action="addMode"]', count: 1 },
              { selector: '[data-action="deleteMode"]', count: (system.modes ?? []).length },
              { selector: 'prose-mirror[name="system.description"]', count: 1 },
            ]
          : [
              { selector: 'input[name="system.equipped"]', count: 1 },
              ...["head", "leftArm", "rightArm", "torso", "leftLeg", "rightLeg"].flatMap((z) => [
                { selector: `input[name="system.zones.${z}.rating"]`, count: 1 },
                { selector: `input[name="system.zones.${z}.buffer"]`, count: 1 },
              ]),
            ];
    return {
      id: `item-${id}`,
      title: doc.name,
      kind: "sheet" as const,
      classes: ["fray", "sheet", "item"],
      width: 560,
      height: 640,
      templates: ["templates/item/item-sheet.hbs"],
      context: itemSheetContext({
        item: { ...doc, img: doc.img ?? null } as never,
        ruleset,
        editable: true,
        enrichedDescription: String((doc.system as { description?: string })?.description ?? ""),
        i18n,
      }),
      expect: [{ selector: 'input[name="name"]', count: 1 }, ...expect],
    };
  });
}

/** The system stylesheet. */
export function systemCss(): string {
  return readFileSync(join(ROOT, "styles", "fray.css"), "utf8");
}
