/**
 * Pure preparation of the actor and item sheets' rendering context: the sheets gather the
 * document's source, statuses and settings, then call these functions; the render test calls
 * them on compendium sources. No Foundry globals.
 */
import { ATTRIBUTES, SKILL_ATTRIBUTE, SKILLS, ZONES, parseCombatant } from "../../rules/ud10/model.js";
import { skillValue } from "../../rules/ud10/attack.js";
import { localizeError } from "../../rules/core/errors.js";
import { critical, hitbox, ud10, zones } from "../../rules/index.js";
import { statusEffectsOf, type StatusEffectSpec } from "../conditions.js";
import type { RulesetChoice } from "../config.js";
import { actionButtons } from "../logic/round-actions.js";
import { ud10Derived, type Ud10Derived } from "../rulesets/ud10/derived.js";
import type { ActorSource, ItemSource } from "../sources.js";

/** Localization as the sheets use it (`game.i18n` or a test's reader of `lang/*.json`). */
export interface SheetI18n {
  localize(key: string): string;
  format(key: string, data: Record<string, string>): string;
}

type Raw = Record<string, unknown>;

/** i18n keys of the attributes' names and abbreviations. */
export const ATTRIBUTE_LABELS: Record<(typeof ATTRIBUTES)[number], { label: string; abbr: string }> = {
  STR: { label: "FRAY.Attribute.STR.label", abbr: "FRAY.Attribute.STR.abbr" },
  DEX: { label: "FRAY.Attribute.DEX.label", abbr: "FRAY.Attribute.DEX.abbr" },
  CON: { label: "FRAY.Attribute.CON.label", abbr: "FRAY.Attribute.CON.abbr" },
};

/** i18n keys of the skills' names. */
export const SKILL_LABELS: Record<(typeof SKILLS)[number], string> = {
  initiative: "FRAY.Skill.initiative",
  melee: "FRAY.Skill.melee",
  ranged: "FRAY.Skill.ranged",
  parry: "FRAY.Skill.parry",
  dodge: "FRAY.Skill.dodge",
};

/** i18n keys of the body zones' names. */
export const ZONE_LABELS: Record<(typeof ZONES)[number], string> = {
  head: "FRAY.Zone.head",
  leftArm: "FRAY.Zone.leftArm",
  rightArm: "FRAY.Zone.rightArm",
  torso: "FRAY.Zone.torso",
  leftLeg: "FRAY.Zone.leftLeg",
  rightLeg: "FRAY.Zone.rightLeg",
};

/** i18n keys of the size choices. */
export const SIZE_LABELS = { small: "FRAY.Size.small", normal: "FRAY.Size.normal", large: "FRAY.Size.large" } as const;

/** i18n keys of the weapon kinds. */
export const KIND_LABELS = { melee: "FRAY.Weapon.Kind.melee", ranged: "FRAY.Weapon.Kind.ranged" } as const;

/** The tabs of the character sheet: id, i18n key, Font Awesome icon. */
export const ACTOR_TABS = [
  { id: "attributes", label: "FRAY.Sheet.Tab.attributes", icon: "fa-solid fa-dumbbell" },
  { id: "combat", label: "FRAY.Sheet.Tab.combat", icon: "fa-solid fa-swords" },
  { id: "conditions", label: "FRAY.Sheet.Tab.conditions", icon: "fa-solid fa-heart-crack" },
  { id: "biography", label: "FRAY.Sheet.Tab.biography", icon: "fa-solid fa-book-open" },
] as const;

/** The parts of the actor sheet, each a template `templates/actor/<part>.hbs`. */
export const ACTOR_PARTS = ["header", "tabs", "attributes", "combat", "conditions", "biography", "npc", "generic"] as const;

/** A part of the actor sheet. */
export type ActorPart = (typeof ACTOR_PARTS)[number];

/**
 * The parts each kind of actor sheet shows: a character the header, tabs and tab pages; an NPC
 * the compact stat block; any actor of a ruleset without its own sheet yet the generic view.
 */
export function actorParts(type: string, ruleset: RulesetChoice, foreignRuleset?: string): ActorPart[] {
  if (ruleset !== "ud10" || foreignRuleset) return ["generic"];
  if (type === "npc") return ["npc"];
  return ["header", "tabs", "attributes", "combat", "conditions", "biography"];
}

/** The rules core's ruleset of each id, for what a sheet lists without the registry (conditions). */
const CORE_RULESETS = { ud10, hitbox, critical, zones } as const;

/** `+3`, `-2`, `0`. */
export function signedNumber(value: number): string {
  return value > 0 ? `+${value}` : String(value);
}

/** A number of metres for display, at most one decimal (`6`, `7.5`). */
export function metres(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/** What {@link actorSheetContext} needs. */
export interface ActorSheetInput {
  /** The actor's source with embedded items and current statuses. */
  actor: ActorSource & { img?: string | null; uuid?: string };
  /** The world's ruleset. */
  ruleset: RulesetChoice;
  /** The user may edit the actor. */
  editable: boolean;
  /** The UD10 body-zone rule is on (UD-ZON-01); off shows averaged armor (UD-ZON-02). */
  bodyZones: boolean;
  /** The biography, enriched for display. */
  enrichedBiography: string;
  /** The active tab of the character sheet. */
  activeTab?: string;
  /** The model's derived values, when the actor was prepared by Foundry; computed otherwise. */
  derived?: Ud10Derived | null;
  /**
   * Why the core refuses the stored actor (the FrayError of reading or checking it, naming the
   * field); shown as a warning on the sheet. Absent when the actor reads cleanly.
   */
  coreError?: unknown;
  /** The ruleset the actor belongs to when it is not the world's: shown as such, never cleaned. */
  foreignRuleset?: string;
  /**
   * The status effects the world registered (`CONFIG.statusEffects`), listed on the Conditions
   * tab; the world ruleset's core conditions when absent.
   */
  conditions?: readonly StatusEffectSpec[];
  i18n: SheetI18n;
}

/** The localized message of a core error, for a sheet. */
export function sheetErrorText(error: unknown, i18n: SheetI18n): string {
  const message = localizeError(error, (key, data) => i18n.format(key, Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)]))));
  return i18n.format("FRAY.Sheet.CoreRefused", { error: message });
}

/** The localized name of a ruleset id (`FRAY.Ruleset.<id>`), the id itself when unknown. */
function rulesetName(id: string, i18n: SheetI18n): string {
  const key = `FRAY.Ruleset.${id}`;
  const text = i18n.localize(key);
  return text === key ? id : text;
}

/** A weapon row of the actor sheet. */
export interface WeaponRow {
  id: string;
  name: string;
  img: string;
  kind: string;
  damage: string;
  attackModifier: string;
  range: string;
  penetration: number;
  modes: { id: string; label: string }[];
}

/** Loose view of an item source's system. */
type ItemSystem = {
  kind?: string;
  damage?: string;
  attackModifier?: number;
  penetration?: number;
  rangeIncrement?: number;
  equipped?: boolean;
  modes?: { id: string; label?: string }[];
  zones?: Record<string, { rating: number; buffer: number }>;
};

/** The weapon rows of an actor's items. */
function weaponRows(items: ItemSource[], i18n: SheetI18n): WeaponRow[] {
  return items
    .filter((i) => i.type === "weapon")
    .map((i) => {
      const s = (i.system ?? {}) as ItemSystem;
      const ranged = s.kind === "ranged";
      const modes = s.modes ?? [];
      return {
        id: i._id ?? "",
        name: i.name,
        img: (i as { img?: string }).img ?? "icons/svg/sword.svg",
        kind: i18n.localize(ranged ? KIND_LABELS.ranged : KIND_LABELS.melee),
        damage: s.damage ?? "",
        attackModifier: signedNumber(s.attackModifier ?? 0),
        range: ranged ? i18n.format("FRAY.Sheet.RangeIncrement", { metres: metres(s.rangeIncrement ?? 0) }) : "",
        penetration: s.penetration ?? 0,
        modes: modes.length ? [{ id: "standard", label: i18n.localize("FRAY.Sheet.StandardMode") }, ...modes.map((m) => ({ id: m.id, label: m.label || m.id }))] : [],
      };
    });
}

/**
 * The context of the character and NPC sheets: identity, HP/EP, the core's derived values
 * (defense, movement, armor per zone), attributes and skills with the value a check adds,
 * weapons with their firing modes, the Actions row (UD-ACT-02), armor pieces, conditions and tabs.
 */
export function actorSheetContext(input: ActorSheetInput) {
  const { actor, i18n } = input;
  const system = (actor.system ?? {}) as Raw;
  const items = actor.items ?? [];
  const statuses = new Set(actor.statuses ?? []);
  const isNpc = actor.type === "npc";
  const activeTab = ACTOR_TABS.some((t) => t.id === input.activeTab) ? input.activeTab! : "attributes";
  const base = {
    actor: { name: actor.name, img: actor.img ?? "icons/svg/mystery-man.svg", uuid: actor.uuid ?? "" },
    systemSource: system,
    editable: input.editable,
    isNpc,
    ruleset: input.ruleset,
    isUd10: input.ruleset === "ud10",
    enrichedBiography: input.enrichedBiography,
    foreignNotice: input.foreignRuleset ? i18n.format("FRAY.Sheet.ForeignRuleset", { ruleset: rulesetName(input.foreignRuleset, i18n) }) : "",
    coreError: input.coreError !== undefined && !input.foreignRuleset ? sheetErrorText(input.coreError, i18n) : "",
    conditions: (input.conditions ?? statusEffectsOf(CORE_RULESETS[input.ruleset])).map((c) => ({ id: c.id, label: i18n.localize(c.name), img: c.img, active: statuses.has(c.id) })),
    tabs: ACTOR_TABS.map((t) => ({ ...t, label: i18n.localize(t.label), active: t.id === activeTab, cssClass: t.id === activeTab ? "active" : "" })),
    tab: Object.fromEntries(ACTOR_TABS.map((t) => [t.id, t.id === activeTab ? "active" : ""])),
  };
  if (input.foreignRuleset) return { ...base, generic: genericRows(system, i18n, fieldPrefix(asRuleset(input.foreignRuleset), "Actor")) };
  if (input.ruleset !== "ud10") return { ...base, generic: genericRows(system, i18n, fieldPrefix(input.ruleset, "Actor")) };

  const derivedResult = input.derived !== undefined ? { derived: input.derived } : ud10Derived(actor);
  const derived = derivedResult.derived;
  let combatant: ReturnType<typeof parseCombatant> | null = null;
  try {
    combatant = parseCombatant({ ...system, name: actor.name, weapons: [], armor: [] }, actor.name);
  } catch {
    combatant = null;
  }
  const attrs = (system.attributes ?? {}) as Record<string, number>;
  const skills = (system.skills ?? {}) as Record<string, { rating: number; trained: boolean }>;
  const pool = (key: string) => {
    const t = (system[key] ?? { value: 0, max: 0 }) as { value: number; max: number };
    return { value: t.value, max: t.max, percent: t.max > 0 ? Math.max(0, Math.min(100, Math.round((100 * t.value) / t.max))) : 0 };
  };
  return {
    ...base,
    hp: pool("hp"),
    ep: pool("ep"),
    attributes: ATTRIBUTES.map((id) => ({
      id,
      label: i18n.localize(ATTRIBUTE_LABELS[id].label),
      abbr: i18n.localize(ATTRIBUTE_LABELS[id].abbr),
      value: attrs[id] ?? 0,
      name: `system.attributes.${id}`,
    })),
    skills: SKILLS.map((id) => {
      const check = combatant ? skillValue(combatant, id) : { value: 0, trained: false };
      return {
        id,
        label: i18n.localize(SKILL_LABELS[id]),
        rating: skills[id]?.rating ?? 0,
        trained: skills[id]?.trained ?? false,
        name: `system.skills.${id}`,
        check: check.value,
        formula: `d10 ${signedNumber(check.value)}`,
        hint: check.trained
          ? i18n.format("FRAY.Sheet.SkillRollHint", { value: String(check.value) })
          : i18n.format("FRAY.Sheet.UntrainedRollHint", { attribute: i18n.localize(ATTRIBUTE_LABELS[SKILL_ATTRIBUTE[id]].abbr), value: String(check.value) }),
      };
    }),
    sizes: Object.fromEntries(Object.entries(SIZE_LABELS).map(([k, v]) => [k, i18n.localize(v)])),
    defense: derived ? derived.defense : null,
    movement: derived ? { standard: metres(derived.standardMovement), full: metres(derived.fullMovement) } : null,
    derivedError: derived ? "" : i18n.localize("FRAY.Sheet.DerivedUnavailable"),
    bodyZones: input.bodyZones,
    armorZones: ZONES.map((z) => ({ id: z, label: i18n.localize(ZONE_LABELS[z]), rating: derived?.zones[z].rating ?? 0, buffer: derived?.zones[z].buffer ?? 0 })),
    averagedArmor: derived?.averagedArmor ?? { rating: 0, buffer: 0 },
    weapons: weaponRows(items, i18n),
    /** The core's actions besides the attack, one button each (UD-ACT-02). */
    actions: actionButtons(i18n),
    armor: items
      .filter((i) => i.type === "armor")
      .map((i) => {
        const s = (i.system ?? {}) as ItemSystem;
        return {
          id: i._id ?? "",
          name: i.name,
          img: (i as { img?: string }).img ?? "icons/svg/shield.svg",
          equipped: s.equipped !== false,
          zones: ZONES.map((z) => ({ label: i18n.localize(ZONE_LABELS[z]), rating: s.zones?.[z]?.rating ?? 0, buffer: s.zones?.[z]?.buffer ?? 0 })),
        };
      }),
  };
}

/** The actor sheet context's type. */
export type ActorSheetContext = ReturnType<typeof actorSheetContext>;

/** A ruleset id as a choice; ids nobody knows read as UD10 (content that predates the field). */
function asRuleset(id: string): RulesetChoice {
  return (["ud10", "hitbox", "critical", "zones"] as const).find((r) => r === id) ?? "ud10";
}

/** The i18n prefix of each ruleset's documents' field labels, e.g. `FRAY.Hitbox.Actor`. */
export function fieldPrefix(ruleset: RulesetChoice, document: "Actor" | "Weapon" | "Armor"): string {
  if (ruleset === "ud10") return `FRAY.${document}`;
  const name = { hitbox: "Hitbox", zones: "Zones", critical: "Critical" }[ruleset];
  return `FRAY.${name}.${document}`;
}

/** The label of a field path: each segment's field label, joined (`Hitboxes · Head`). */
export function fieldLabel(prefix: string, path: string, i18n: SheetI18n): string {
  const segments = path.split(".");
  return segments
    .map((segment, i) => {
      const key = `${prefix}.FIELDS.${segments.slice(0, i + 1).join(".")}.label`;
      const text = i18n.localize(key);
      return text === key ? segment : text;
    })
    .join(" · ");
}

/**
 * Rows of a generic stat view (rulesets whose sheets are not built yet): every number, text and
 * value/max pool of the system data, flattened, with the fields' localized labels.
 * @param prefix the i18n prefix of the document's field labels ({@link fieldPrefix}).
 */
export function genericRows(system: Raw, i18n: SheetI18n, prefix: string, path = ""): { path: string; label: string; value: string }[] {
  const rows: { path: string; label: string; value: string }[] = [];
  for (const [key, v] of Object.entries(system)) {
    if (key === "ruleset" || key === "biography" || key === "description") continue;
    const p = path ? `${path}.${key}` : key;
    const label = () => fieldLabel(prefix, p, i18n);
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const r = v as Raw;
      if (typeof r.value === "number" && typeof r.max === "number") rows.push({ path: p, label: label(), value: `${r.value} / ${r.max}` });
      else rows.push(...genericRows(r, i18n, prefix, p));
    } else if (Array.isArray(v)) {
      if (v.length && v.every((x) => typeof x !== "object")) rows.push({ path: p, label: label(), value: v.join(", ") });
    } else if (typeof v === "boolean") {
      rows.push({ path: p, label: label(), value: i18n.localize(v ? "FRAY.Sheet.Yes" : "FRAY.Sheet.No") });
    } else if (v !== null && v !== undefined && v !== "") rows.push({ path: p, label: label(), value: String(v) });
  }
  return rows;
}

/** What {@link itemSheetContext} needs. */
export interface ItemSheetInput {
  item: ItemSource & { img?: string | null; uuid?: string };
  ruleset: RulesetChoice;
  editable: boolean;
  enrichedDescription: string;
  i18n: SheetI18n;
}

/**
 * The context of the weapon and armor sheets: the item's fields, the kind choices, firing
 * modes with their index, armor rating and buffer per body zone.
 */
export function itemSheetContext(input: ItemSheetInput) {
  const { item, i18n } = input;
  const system = (item.system ?? {}) as Raw & ItemSystem;
  const ud10 = input.ruleset === "ud10";
  return {
    item: { name: item.name, img: item.img ?? "icons/svg/item-bag.svg", uuid: item.uuid ?? "" },
    systemSource: system,
    editable: input.editable,
    isWeapon: ud10 && item.type === "weapon",
    isArmor: ud10 && item.type === "armor",
    isGeneric: !ud10,
    typeLabel: i18n.localize(item.type === "armor" ? "TYPES.Item.armor" : "TYPES.Item.weapon"),
    kinds: { melee: i18n.localize(KIND_LABELS.melee), ranged: i18n.localize(KIND_LABELS.ranged) },
    modes: (system.modes ?? []).map((mode, index) => ({ ...mode, index })),
    zones: ZONES.map((id) => ({
      id,
      label: i18n.localize(ZONE_LABELS[id]),
      rating: system.zones?.[id]?.rating ?? 0,
      buffer: system.zones?.[id]?.buffer ?? 0,
    })),
    generic: ud10 ? [] : genericRows(system, i18n, fieldPrefix(input.ruleset, item.type === "armor" ? "Armor" : "Weapon")),
    enrichedDescription: input.enrichedDescription,
  };
}

/** The item sheet context's type. */
export type ItemSheetContext = ReturnType<typeof itemSheetContext>;
