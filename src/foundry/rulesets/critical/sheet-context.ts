/**
 * Critical's sheet contexts, built on the generic part of `sheets/context.ts`: the character sheet
 * and the compact NPC stat block (Quickness, Self Discipline, Physique ranks and total, Base Move,
 * the weapons with their OB and Attack buttons, the DB with armor and shield, hits, stun, the
 * bleeding and burning wounds with their treatment buttons, injuries, penalties and the dying
 * count-down) and the weapon and armor sheets (weapon class and so attack table, category and so
 * parry exchange rate, skill, bonus, fumble range; armor type, DB, maneuver penalty). Pure: no
 * Foundry globals; the binding hands them to the generic sheets.
 */
import { pluralKey } from "../../../rules/core/i18n.js";
import {
  ACTIONS,
  ARMOR_TYPES,
  PARRY_RATES,
  WEAPON_CATEGORIES,
  armorTypeOf,
  criticalCombatantFromActor,
  fumbleRange,
  isDying,
  offensiveBonus,
  tableSet,
  type CriticalCombatant,
  type Treatment,
} from "../../../rules/critical/index.js";
import type { LastingEffect } from "../../../rules/core/types.js";
import { SYSTEM_PATH } from "../../config.js";
import { woundText } from "./card.js";
import {
  actorSheetBase,
  sheetErrorText,
  signedNumber,
  type ActorSheetBase,
  type ActorSheetInput,
  type ItemSheetInput,
  type SheetI18n,
} from "../../sheets/context.js";

type Raw = Record<string, unknown>;

/** Critical's actor sheet parts: one page, a compact stat block for an NPC (no biography). */
export const CRITICAL_SHEET_PARTS = { character: ["critical"], npc: ["critical"] } as const;

/** The template of that part (`templates/critical/`). */
export const CRITICAL_SHEET_TEMPLATES = { critical: `${SYSTEM_PATH}/templates/critical/actor.hbs` } as const;

/** The weapon and armor sheet of Critical. */
export const CRITICAL_ITEM_TEMPLATE = `${SYSTEM_PATH}/templates/critical/item.hbs`;

/** The skills a Critical weapon can use, with their i18n keys (`FRAY.Critical.Skill.*`). */
export const CRITICAL_SKILLS = ["blades", "blunt", "brawling", "pistols", "longarms", "energy"] as const;

/** Treatments that fit a wound's kind (CR-BLD-02). */
const FITTING: Record<string, readonly Treatment[]> = {
  bleed: ["staunch", "bandage", "tourniquet", "medkit"],
  burn: ["smother", "dropAndRoll"],
};

/** The AP an action costs (CR-AP-01, RULES.md). */
const apOf = (id: string): number => ACTIONS.find((a) => a.id === id)?.ap ?? 0;

/** Localized `{key}` with data. */
function fmt(i18n: SheetI18n, key: string, data: Record<string, string | number>): string {
  return i18n.format(key, Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)])));
}

/** An effect's label: an i18n key is localized, a built-in wound text in the reader's language, a world table's text is kept (CR-CRT-02, {@link woundText}). */
function effectLabel(e: LastingEffect, i18n: SheetI18n): string {
  if (/^FRAY\./.test(e.label)) return i18n.localize(e.label);
  return woundText(e.label, i18n);
}

/** A wound with the treatments left for it (CR-BLD-01, CR-BLD-02). */
export interface WoundRow {
  id: string;
  kind: string;
  label: string;
  treatments: { method: Treatment; label: string; ap: number }[];
}

/** The combatant's effects as the sheet lists them: wounds, injuries, penalties, the dying count-down, knock-outs. */
function effectRows(c: CriticalCombatant, i18n: SheetI18n) {
  const where = (e: LastingEffect) => i18n.localize(`FRAY.Critical.Location.${e.location ?? "general"}`);
  const wounds: WoundRow[] = c.effects
    .filter((e) => e.kind === "bleed" || e.kind === "burn")
    .map((e) => ({
      id: e.id,
      kind: e.kind,
      label: fmt(i18n, e.kind === "bleed" ? "FRAY.Step.Bleeding" : e.rounds ? "FRAY.Step.BurningFor" : "FRAY.Step.Burning", {
        perRound: e.value ?? 0,
        rounds: e.rounds ?? 0,
        location: where(e),
      }),
      treatments: (FITTING[e.kind] ?? [])
        .filter((m) => !e.treated?.includes(m))
        .map((method) => ({ method, label: i18n.localize(`FRAY.Critical.Sheet.Treat.${method}`), ap: apOf(method) })),
    }));
  const injuries = c.effects
    .filter((e) => e.kind === "injury")
    .map((e) => ({
      label: effectLabel(e, i18n),
      detail: (e.stops ?? [])
        .map((s) => fmt(i18n, "FRAY.Step.Injury", { location: where(e), stop: i18n.localize(`FRAY.Critical.Stop.${s}`) }))
        .join("; "),
    }));
  const others = c.effects
    .filter((e) => e.kind === "penalty" || e.kind === "noParry" || e.kind === "unconscious")
    .map((e) => ({
      label: effectLabel(e, i18n),
      value: e.kind === "penalty" ? signedNumber(e.value ?? 0) : "",
      rounds: e.rounds === undefined ? "" : fmt(i18n, pluralKey("FRAY.Critical.Sheet.RoundsLeft", e.rounds), { rounds: e.rounds }),
    }));
  const dying = c.effects.find((e) => e.kind === "dying");
  return {
    wounds,
    injuries,
    others,
    dying: dying && isDying(c) ? fmt(i18n, pluralKey("FRAY.Step.DyingCount", dying.rounds ?? 0), { rounds: dying.rounds ?? 0 }) : "",
  };
}

/** What the Critical actor sheets render beyond the generic part. */
export interface CriticalSheetContext {
  hits: { value: number; max: number };
  stun: number;
  /** Stun above the Physique ranks blacks out (CR-STN-03). */
  blackoutAbove: number;
  defense: { base: number; total: number; lines: { name: string; value: string; type: string }[] };
  armorType: string;
  weapons: {
    id: string;
    name: string;
    img: string;
    table: string;
    category: string;
    skill: string;
    ob: string;
    fumble: number;
    parryRate: string;
  }[];
  armor: { id: string; name: string; type: string; defense: string; maneuverPenalty: string; equipped: boolean }[];
  skills: { id: string; label: string; name: string; value: number }[];
  parry: { foe: string; ob: number }[];
  wounds: WoundRow[];
  injuries: { label: string; detail: string }[];
  others: { label: string; value: string; rounds: string }[];
  dying: string;
}

/**
 * The Critical actor sheets' context: the generic part and the ruleset's own rows. An actor the
 * core cannot read shows its stored values with the core's error (from the generic part) and
 * empty rows.
 */
export function criticalActorSheetContext(input: ActorSheetInput): ActorSheetBase & { critical: CriticalSheetContext | undefined } {
  const base = actorSheetBase(input);
  const { i18n } = input;
  let c: CriticalCombatant;
  try {
    c = criticalCombatantFromActor(input.actor);
  } catch (err) {
    return { ...base, coreError: base.coreError || sheetErrorText(err, i18n), critical: undefined };
  }
  const items = (input.actor.items ?? []) as { _id?: string; name?: string; img?: string; type?: string; system?: Raw }[];
  const imgOf = (id: string) => items.find((i) => i._id === id)?.img ?? "icons/svg/sword.svg";
  const tables = tableSet();
  const armorRows = items
    .filter((i) => i.type === "armor")
    .map((i) => {
      const s = i.system ?? {};
      const type = typeof s.armorType === "string" ? s.armorType : "";
      return {
        id: i._id ?? "",
        name: i.name ?? "",
        type: type ? i18n.localize(`FRAY.Critical.Armor.${type}`) : i18n.localize("FRAY.Critical.Sheet.Shield"),
        defense: signedNumber(Number(s.defense ?? 0)),
        maneuverPenalty: signedNumber(Number(s.maneuverPenalty ?? 0)),
        equipped: s.equipped !== false,
      };
    });
  const armorDb = c.armor.reduce((sum, a) => sum + a.defense, 0);
  const effects = effectRows(c, i18n);
  return {
    ...base,
    critical: {
      hits: { value: c.hits.value, max: c.hits.max },
      stun: c.stun,
      blackoutAbove: c.physique.ranks,
      defense: {
        base: c.defense,
        total: c.defense + armorDb,
        lines: c.armor.filter((a) => a.defense).map((a) => ({ name: a.name, value: signedNumber(a.defense), type: a.armorType ?? "" })),
      },
      armorType: i18n.localize(`FRAY.Critical.Armor.${armorTypeOf(c)}`),
      weapons: c.weapons.map((w) => {
        const ob = offensiveBonus(c, w);
        const table = tables.attack[w.weaponClass];
        return {
          id: w.id,
          name: w.name,
          img: imgOf(w.id),
          table: i18n.localize(`FRAY.Critical.WeaponClass.${w.weaponClass}`),
          category: i18n.localize(`FRAY.Critical.Category.${w.category}`),
          skill: i18n.localize(`FRAY.Critical.Skill.${w.skill}`),
          ob: signedNumber(ob.total),
          fumble: table ? fumbleRange(w, table) : (w.fumble ?? 0),
          parryRate: `${PARRY_RATES[w.category]}:1`,
        };
      }),
      armor: armorRows,
      skills: Object.entries(c.skills).map(([id, value]) => ({
        id,
        label: i18n.localize(`FRAY.Critical.Skill.${id}`),
        name: `system.skills.${id}`,
        value,
      })),
      parry: Object.entries(c.parry).map(([foe, ob]) => ({ foe, ob })),
      ...effects,
    },
  };
}

/** Choices of a select, localized: `{ value: label }`. */
function choices(ids: readonly string[], key: (id: string) => string, i18n: SheetI18n): Record<string, string> {
  return Object.fromEntries(ids.map((id) => [id, i18n.localize(key(id))]));
}

/**
 * The Critical weapon and armor sheets' context: the weapon's class (its attack table,
 * CR-ATK-03), category (its parry exchange rate, CR-PAR-02), skill, bonus and fumble range
 * (the table's when left empty); the armor's type (its attack-table column, CR-ATK-02; none for
 * a shield), DB and maneuver penalty.
 */
export function criticalItemSheetContext(input: ItemSheetInput): Record<string, unknown> {
  const { item, i18n } = input;
  const s = (item.system ?? {}) as Raw;
  const isWeapon = item.type === "weapon";
  const tables = tableSet();
  const weaponClass = typeof s.weaponClass === "string" ? s.weaponClass : "";
  const table = tables.attack[weaponClass];
  return {
    isGeneric: false,
    isWeapon,
    isArmor: !isWeapon,
    critical: {
      weaponClasses: choices(Object.keys(tables.attack), (id) => `FRAY.Critical.WeaponClass.${id}`, i18n),
      categories: choices(WEAPON_CATEGORIES, (id) => `FRAY.Critical.Category.${id}`, i18n),
      skills: choices(CRITICAL_SKILLS, (id) => `FRAY.Critical.Skill.${id}`, i18n),
      armorTypes: { "": i18n.localize("FRAY.Critical.Sheet.Shield"), ...choices(ARMOR_TYPES, (id) => `FRAY.Critical.Armor.${id}`, i18n) },
      tableFumble: table ? table.fumble : "",
      parryRate:
        isWeapon && typeof s.category === "string" && s.category in PARRY_RATES
          ? `${PARRY_RATES[s.category as keyof typeof PARRY_RATES]}:1`
          : "",
      armorType: typeof s.armorType === "string" ? s.armorType : "",
    },
  };
}
