/**
 * Pure preparation of the actor and item sheets' rendering context: the sheets gather the
 * document's source, statuses and settings, then call these functions; the render test calls
 * them on compendium sources. No Foundry globals.
 */
import { localizeError } from "../../rules/core/errors.js";
import { critical, hitbox, ud10, zones } from "../../rules/index.js";
import { statusEffectsOf, type StatusEffectSpec } from "../conditions.js";
import type { RulesetChoice } from "../config.js";
import type { ActorSource, ItemSource } from "../sources.js";

/** Localization as the sheets use it (`game.i18n` or a test's reader of `lang/*.json`). */
export interface SheetI18n {
  localize(key: string): string;
  format(key: string, data: Record<string, string>): string;
}

type Raw = Record<string, unknown>;

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

/** The actor sheet parts a ruleset's binding names, per actor type (`binding.sheetParts`). */
export interface SheetParts {
  readonly character: readonly string[];
  readonly npc: readonly string[];
}

/**
 * The parts an actor's sheet shows: those its ruleset's binding names for its type (UD10: a
 * character the header, tabs and tab pages, an NPC the compact stat block), the generic view
 * for an actor of another ruleset or a ruleset without parts of its own.
 * @param parts the world ruleset's `binding.sheetParts`.
 * @param foreignRuleset the ruleset the actor belongs to when it is not the world's.
 * @param ownParts part ids the ruleset brings templates for (`binding.sheetTemplates`).
 */
export function actorParts(
  type: string,
  parts: SheetParts | undefined,
  foreignRuleset?: string,
  ownParts: readonly string[] = [],
): ActorPart[] {
  const own = parts?.[type === "npc" ? "npc" : "character"] ?? [];
  if (foreignRuleset || !own.length) return ["generic"];
  return own.filter((p): p is ActorPart => (ACTOR_PARTS as readonly string[]).includes(p) || ownParts.includes(p));
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
  bodyZones?: boolean;
  /** The biography, enriched for display. */
  enrichedBiography: string;
  /** The active tab of the character sheet. */
  activeTab?: string;
  /** The model's derived values (the data model's `derived`), when the ruleset derives any. */
  derived?: unknown;
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
  const message = localizeError(error, (key, data) =>
    i18n.format(key, Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)]))),
  );
  return i18n.format("FRAY.Sheet.CoreRefused", { error: message });
}

/** The localized name of a ruleset id (`FRAY.Ruleset.<id>`), the id itself when unknown. */
function rulesetName(id: string, i18n: SheetI18n): string {
  const key = `FRAY.Ruleset.${id}`;
  const text = i18n.localize(key);
  return text === key ? id : text;
}

/**
 * The generic part of the actor sheets' context, whatever the ruleset: identity, the notices
 * (an actor of another ruleset, an actor the core refuses, naming the field), conditions and
 * tabs.
 */
export function actorSheetBase(input: ActorSheetInput) {
  const { actor, i18n } = input;
  const system = (actor.system ?? {}) as Raw;
  const statuses = new Set(actor.statuses ?? []);
  const activeTab = ACTOR_TABS.some((t) => t.id === input.activeTab) ? input.activeTab! : "attributes";
  return {
    actor: { name: actor.name, img: actor.img ?? "icons/svg/mystery-man.svg", uuid: actor.uuid ?? "" },
    systemSource: system,
    editable: input.editable,
    isNpc: actor.type === "npc",
    ruleset: input.ruleset,
    isUd10: input.ruleset === "ud10",
    enrichedBiography: input.enrichedBiography,
    foreignNotice: input.foreignRuleset
      ? i18n.format("FRAY.Sheet.ForeignRuleset", { ruleset: rulesetName(input.foreignRuleset, i18n) })
      : "",
    coreError: input.coreError !== undefined && !input.foreignRuleset ? sheetErrorText(input.coreError, i18n) : "",
    conditions: (input.conditions ?? statusEffectsOf(CORE_RULESETS[input.ruleset])).map((c) => ({
      id: c.id,
      label: i18n.localize(c.name),
      img: c.img,
      active: statuses.has(c.id),
    })),
    tabs: ACTOR_TABS.map((t) => ({
      ...t,
      label: i18n.localize(t.label),
      active: t.id === activeTab,
      cssClass: t.id === activeTab ? "active" : "",
    })),
    tab: Object.fromEntries(ACTOR_TABS.map((t) => [t.id, t.id === activeTab ? "active" : ""])),
  };
}

/** The generic part of the actor sheets' context. */
export type ActorSheetBase = ReturnType<typeof actorSheetBase>;

/** A ruleset's own actor sheet context (its binding's `sheetContext`), built on the generic part. */
export type ActorContextBuilder = (input: ActorSheetInput) => ActorSheetBase & Record<string, unknown>;

/**
 * The context of the actor sheets: the ruleset's own context from `build` (its binding's
 * `sheetContext`), or the generic stat view (every stored value with its localized label) for
 * an actor of another ruleset (shown as such, its data untouched) or a ruleset without a sheet.
 * @param build the world ruleset's context builder; absent for the generic view.
 */
export function actorSheetContext(input: ActorSheetInput, build?: ActorContextBuilder): ActorSheetBase & Record<string, unknown> {
  const system = (input.actor.system ?? {}) as Raw;
  if (input.foreignRuleset)
    return { ...actorSheetBase(input), generic: genericRows(system, input.i18n, fieldPrefix(asRuleset(input.foreignRuleset), "Actor")) };
  if (!build) return { ...actorSheetBase(input), generic: genericRows(system, input.i18n, fieldPrefix(input.ruleset, "Actor")) };
  return build(input);
}

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

/**
 * The label of a field path: each segment's field label, joined (`Hitboxes · Head`). A segment
 * without a field label (a key of a record, such as a skill id) takes the ruleset's name for it
 * (`FRAY.Critical.Skill.blades`), else its id in words (`stunRounds` becomes `Stun rounds`),
 * never the raw key.
 */
export function fieldLabel(prefix: string, path: string, i18n: SheetI18n): string {
  const segments = path.split(".");
  const ruleset = prefix.replace(/\.(Actor|Weapon|Armor)$/, "");
  return segments
    .map((segment, i) => {
      const key = `${prefix}.FIELDS.${segments.slice(0, i + 1).join(".")}.label`;
      const text = i18n.localize(key);
      if (text !== key) return text;
      if (segments[i - 1] === "skills") {
        const named = `${ruleset}.Skill.${segment}`;
        const name = i18n.localize(named);
        if (name !== named) return name;
      }
      const words = segment.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
      return words.charAt(0).toUpperCase() + words.slice(1);
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

/** A ruleset's own item sheet context (its binding's `itemSheetContext`). */
export type ItemContextBuilder = (input: ItemSheetInput) => Record<string, unknown>;

/**
 * The context of the weapon and armor sheets: the ruleset's own from `build` (its binding's
 * `itemSheetContext`), or the generic view of every stored value with its localized label.
 * @param build the world ruleset's item context builder; absent for the generic view.
 */
export function itemSheetContext(input: ItemSheetInput, build?: ItemContextBuilder): Record<string, unknown> {
  const { item, i18n } = input;
  const system = (item.system ?? {}) as Raw;
  const base = {
    item: { name: item.name, img: item.img ?? "icons/svg/item-bag.svg", uuid: item.uuid ?? "" },
    systemSource: system,
    editable: input.editable,
    isWeapon: false,
    isArmor: false,
    isGeneric: true,
    typeLabel: i18n.localize(item.type === "armor" ? "TYPES.Item.armor" : "TYPES.Item.weapon"),
    modes: [],
    zones: [],
    generic: genericRows(system, i18n, fieldPrefix(input.ruleset, item.type === "armor" ? "Armor" : "Weapon")),
    enrichedDescription: input.enrichedDescription,
  };
  return build ? { ...base, generic: [], ...build(input) } : base;
}
