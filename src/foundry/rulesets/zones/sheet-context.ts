/**
 * Zones' sheet context: the character sheet (attributes and their modifiers, skills with their
 * ranks and roll buttons, hit, speed and effort points, stance, armor damage reduction per zone,
 * weapons with magazine and rounds left, how each is carried and the Attack, Reload, Draw and
 * Clear buttons, the Aim and Regain speed actions, armor pieces), the NPC stat block, and the
 * weapon and armor item sheets, built on the generic part of `sheets/context.ts`. The binding
 * hands these to the generic sheets (`sheetContext`, `itemSheetContext`). Pure: no Foundry
 * globals.
 */
import {
  ARMOR_ZONES,
  ATTRIBUTES,
  CARRY,
  DAMAGE_TYPES,
  DRAW_ACTIONS,
  MALFUNCTIONS,
  MOVEMENTS,
  SIZES,
  SKILLS,
  STANCES,
  STOPPAGES,
  WEAPON_KINDS,
  checkFormula,
  skillLines,
  zoneArmor,
  zonesCombatantFromActor,
  type ZonesCombatant,
} from "../../../rules/zones/index.js";
import { SYSTEM_PATH } from "../../config.js";
import type { ItemSource } from "../../sources.js";
import { actorSheetBase, signedNumber, type ActorSheetInput, type ItemSheetInput, type SheetI18n } from "../../sheets/context.js";
import { sentenceCase } from "../../logic/text.js";

type Raw = Record<string, unknown>;

/** Zones' actor sheet parts, by actor type: the character sheet's tabs, the NPC stat block. */
export const ZONES_SHEET_PARTS = {
  character: ["zonesHeader", "tabs", "zonesAttributes", "zonesCombat", "conditions", "biography"],
  npc: ["zonesNpc"],
} as const;

/** Templates of Zones' own parts (`templates/zones/`); `tabs`, `conditions` and `biography` are the generic ones. */
export const ZONES_SHEET_TEMPLATES: Readonly<Record<string, string>> = {
  zonesHeader: `${SYSTEM_PATH}/templates/zones/header.hbs`,
  zonesAttributes: `${SYSTEM_PATH}/templates/zones/attributes.hbs`,
  zonesCombat: `${SYSTEM_PATH}/templates/zones/combat.hbs`,
  zonesNpc: `${SYSTEM_PATH}/templates/zones/npc.hbs`,
};

/** The Zones weapon and armor sheet's template. */
export const ZONES_ITEM_TEMPLATE = `${SYSTEM_PATH}/templates/zones/item-sheet.hbs`;

/** Every template Zones renders, preloaded in `init`. */
export const ZONES_TEMPLATE_PATHS: readonly string[] = [
  ...Object.values(ZONES_SHEET_TEMPLATES),
  ZONES_ITEM_TEMPLATE,
  `${SYSTEM_PATH}/templates/actor/tabs.hbs`,
  `${SYSTEM_PATH}/templates/actor/conditions.hbs`,
  `${SYSTEM_PATH}/templates/actor/biography.hbs`,
  `${SYSTEM_PATH}/templates/zones/blast-card.hbs`,
  `${SYSTEM_PATH}/templates/zones/reaction-card.hbs`,
  `${SYSTEM_PATH}/templates/zones/search-card.hbs`,
];

/** True when the viewing user is a GM (false where no Foundry `game` is loaded). */
function viewerIsGM(): boolean {
  const g = (globalThis as { game?: { user?: { isGM?: boolean } | null } }).game;
  return Boolean(g?.user?.isGM);
}

/** A choice list `{ value: label }` of ids, each labelled by the i18n key `key(id)`. */
function choiceMap(ids: readonly string[], key: (id: string) => string, i18n: SheetI18n): Record<string, string> {
  return Object.fromEntries(ids.map((id) => [id, sentenceCase(i18n.localize(key(id)), langOf(i18n))]));
}

/** The reader's language of a localizer that knows it. */
function langOf(i18n: SheetI18n): string | undefined {
  return (i18n as { lang?: string }).lang;
}

/** A pool as the sheet shows it, with its bar's fill in percent. */
function pool(system: Raw, key: string) {
  const t = (system[key] ?? { value: 0, max: 0 }) as { value: number; max: number };
  const percent = t.max > 0 ? Math.max(0, Math.min(100, Math.round((100 * t.value) / t.max))) : 0;
  return { value: t.value, max: t.max, percent };
}

/** Loose view of a Zones item's system. */
type ItemSystem = {
  kind?: string;
  effectiveRange?: number;
  damage?: string;
  damageTypes?: string[];
  recoil?: number;
  burst?: number;
  auto?: boolean;
  magazine?: number;
  loaded?: number;
  spareMagazines?: number | null;
  reloadActions?: number;
  carry?: string;
  drawn?: boolean;
  concealable?: boolean;
  malfunction?: string | null;
  broken?: boolean;
  effectiveRadius?: number;
  casualtyRadius?: number;
  zones?: Record<string, number>;
  fullBody?: boolean;
  equipped?: boolean;
};

/** A weapon row of the Zones actor sheet. */
export interface ZonesWeaponRow {
  id: string;
  name: string;
  img: string;
  kind: string;
  damage: string;
  types: string;
  range: string;
  isFirearm: boolean;
  isGrenade: boolean;
  /** A grenade thrown whose blast the GM has not applied (ZN-GRN-01): no Attack or throw button. */
  thrown: boolean;
  /** `loaded/magazine` for a firearm. */
  rounds: string;
  spare: string;
  recoil: number;
  carry: string;
  drawn: boolean;
  hidden: boolean;
  malfunction: string;
  broken: boolean;
  radii: string;
  /** Firing modes of ZN-BST-01 the weapon has (single, burst, auto). */
  modes: { id: string; label: string }[];
  canReload: boolean;
  canDraw: boolean;
  /** Actions a draw takes from where the weapon is carried (ZN-DRW-01). */
  drawActions: number;
  canClear: boolean;
  /** A drawn, loaded firearm that can lay down suppressing fire (ZN-SUP-01). */
  canSuppress: boolean;
  /** A small weapon that can be hidden on the body, with the toggle's label (ZN-HID-01). */
  canHide: boolean;
  hideLabel: string;
}

/**
 * A Zones weapon's firing modes (ZN-BST-01): a firearm's single shot (what an attack without a
 * mode fires) first, then a burst of its burst size (2 or more) and full auto where it has them;
 * none for a firearm with single shots only and for every other weapon.
 */
export function zonesWeaponModes(item: ItemSource, i18n: SheetI18n): { id: string; label: string }[] {
  const s = (item.system ?? {}) as ItemSystem;
  if (s.kind !== "firearm") return [];
  const modes = [
    { id: "single", label: i18n.localize("FRAY.Zones.Sheet.Mode.single") },
    ...((s.burst ?? 0) >= 2 ? [{ id: "burst", label: i18n.format("FRAY.Zones.Sheet.Mode.burst", { bullets: String(s.burst) }) }] : []),
    ...(s.auto ? [{ id: "auto", label: i18n.localize("FRAY.Zones.Sheet.Mode.auto") }] : []),
  ];
  return modes.length > 1 ? modes : [];
}

/** The weapon rows of an actor's items (ZN-RNG-02, ZN-BST-01, ZN-REL-01, ZN-DRW-01, ZN-HID-01, ZN-MAL-01, ZN-GRN-01). */
export function zonesWeaponRows(items: readonly ItemSource[], i18n: SheetI18n): ZonesWeaponRow[] {
  return items
    .filter((i) => i.type === "weapon")
    .map((i) => {
      const s = (i.system ?? {}) as ItemSystem;
      const kind = s.kind ?? "melee";
      const firearm = kind === "firearm";
      const modes = zonesWeaponModes(i, i18n);
      const malfunction = s.malfunction ?? null;
      const carry = (s.carry ?? "hand") as (typeof CARRY)[number];
      return {
        id: i._id ?? "",
        name: i.name,
        img: (i as { img?: string }).img ?? "icons/svg/sword.svg",
        kind: i18n.localize(`FRAY.Zones.Sheet.Kind.${kind}`),
        damage: s.damage ?? "",
        types: (s.damageTypes ?? []).map((t) => i18n.localize(`FRAY.Zones.DamageType.${t}`)).join(", "),
        range: kind === "melee" ? "" : i18n.format("FRAY.Zones.Sheet.Range", { metres: String(s.effectiveRange ?? 0) }),
        isFirearm: firearm,
        isGrenade: kind === "grenade",
        thrown: Boolean((s as { thrown?: boolean }).thrown),
        rounds: firearm ? `${s.loaded ?? 0}/${s.magazine ?? 0}` : "",
        spare: firearm && s.spareMagazines !== null && s.spareMagazines !== undefined ? String(s.spareMagazines) : "",
        recoil: s.recoil ?? 0,
        carry: i18n.localize(`FRAY.Zones.Sheet.Carry.${carry}`),
        drawn: s.drawn !== false,
        hidden: carry === "hidden" && Boolean(s.concealable),
        malfunction: malfunction ? i18n.localize(`FRAY.Zones.Malfunction.${malfunction}`) : "",
        broken: Boolean(s.broken),
        radii:
          kind === "grenade"
            ? i18n.format("FRAY.Zones.Sheet.Radii", { effective: String(s.effectiveRadius ?? 0), casualty: String(s.casualtyRadius ?? 0) })
            : "",
        modes,
        canReload: firearm && !s.broken && (s.loaded ?? 0) < (s.magazine ?? 0) && s.spareMagazines !== 0,
        canDraw: s.drawn === false && !s.broken,
        drawActions: DRAW_ACTIONS[carry] ?? 2,
        canClear: Boolean(malfunction && (STOPPAGES as readonly string[]).includes(malfunction)),
        canSuppress: firearm && !s.broken && s.drawn !== false && (s.loaded ?? 0) > 0,
        canHide: Boolean(s.concealable),
        hideLabel: i18n.localize(carry === "hidden" ? "FRAY.Zones.Hiding.Unhide" : "FRAY.Zones.Hiding.Hide"),
      };
    });
}

/**
 * The context of Zones' character and NPC sheets: the generic part; hit, speed and effort
 * points (ZN-ZON-02, ZN-MOV-01, ZN-MOV-04); stance, size and movement (ZN-RNG-04 to ZN-RNG-06);
 * attributes as modifiers and skills with ranks and the check each rolls (ZN-RNG-08); armor
 * damage reduction per zone from the worn pieces (ZN-ZON-02); weapon rows; armor pieces; the
 * sheet's own actions (ZN-RNG-07 aim, ZN-MOV-03 regain speed).
 */
export function zonesActorSheetContext(input: ActorSheetInput) {
  const { actor, i18n } = input;
  const system = (actor.system ?? {}) as Raw;
  const items = actor.items ?? [];
  const base = actorSheetBase(input);
  let combatant: ZonesCombatant | null = null;
  try {
    combatant = zonesCombatantFromActor(actor as never);
  } catch {
    combatant = null;
  }
  const attrs = (system.attributes ?? {}) as Record<string, number>;
  const skills = (system.skills ?? {}) as Record<string, number>;
  return {
    ...base,
    hp: pool(system, "hp"),
    speed: pool(system, "speed"),
    effort: pool(system, "effort"),
    aim: Number(system.aim ?? 0),
    initiativeBonus: Number(system.initiativeBonus ?? 0),
    initiativeEffort: Number(system.initiativeEffort ?? 0),
    stances: choiceMap(STANCES, (id) => `FRAY.Zones.Stance.${id}`, i18n),
    sizes: choiceMap(SIZES, (id) => `FRAY.Zones.Size.${id}`, i18n),
    movements: choiceMap(MOVEMENTS, (id) => `FRAY.Zones.Movement.${id}`, i18n),
    stanceButtons: STANCES.map((id) => ({
      id,
      label: sentenceCase(i18n.localize(`FRAY.Zones.Stance.${id}`), langOf(i18n)),
      active: system.stance === id,
    })),
    attributes: ATTRIBUTES.map((id) => ({
      id,
      label: i18n.localize(`FRAY.Zones.Actor.FIELDS.attributes.${id}.label`),
      abbr: i18n.localize(`FRAY.Zones.Attribute.${id}`),
      value: attrs[id] ?? 0,
      signed: signedNumber(attrs[id] ?? 0),
      name: `system.attributes.${id}`,
    })),
    skills: SKILLS.map((id) => {
      const lines = combatant ? skillLines(combatant, id) : [];
      const formula = combatant ? checkFormula(lines) : "";
      return {
        id,
        label: i18n.localize(`FRAY.Zones.Skill.${id}`),
        ranks: skills[id] ?? 0,
        name: `system.skills.${id}`,
        formula,
        hint: formula ? i18n.format("FRAY.Zones.Sheet.SkillHint", { formula }) : "",
      };
    }),
    armorZones: ARMOR_ZONES.map((z) => ({
      id: z,
      label: i18n.localize(`FRAY.Zones.Zone.${z}`),
      dr: combatant ? zoneArmor(combatant, z) : 0,
    })),
    fullBody: Boolean(combatant?.armor.some((a) => a.fullBody)),
    weapons: zonesWeaponRows(items, i18n),
    actions: [
      { id: "aim", label: i18n.localize("FRAY.Zones.Action.aim"), icon: "fa-solid fa-crosshairs", rule: "ZN-RNG-07" },
      { id: "regainSpeed", label: i18n.localize("FRAY.Zones.Action.regainSpeed"), icon: "fa-solid fa-person-running", rule: "ZN-MOV-03" },
      // The GM's search tool (ZN-HID-01): only the GM's sheet shows it.
      ...(viewerIsGM()
        ? [
            {
              id: "searchWeapons",
              label: i18n.localize("FRAY.Zones.Hiding.Search"),
              icon: "fa-solid fa-magnifying-glass",
              rule: "ZN-HID-01",
            },
          ]
        : []),
    ],
    armor: items
      .filter((i) => i.type === "armor")
      .map((i) => {
        const s = (i.system ?? {}) as ItemSystem;
        return {
          id: i._id ?? "",
          name: i.name,
          img: (i as { img?: string }).img ?? "icons/svg/shield.svg",
          equipped: s.equipped !== false,
          fullBody: Boolean(s.fullBody),
          zones: ARMOR_ZONES.map((z) => ({ label: i18n.localize(`FRAY.Zones.Zone.${z}`), dr: s.zones?.[z] ?? 0 })),
        };
      }),
  };
}

/** Zones' actor sheet context's type. */
export type ZonesActorSheetContext = ReturnType<typeof zonesActorSheetContext>;

/**
 * The context of Zones' weapon and armor sheets: kind, damage types, carry place and malfunction
 * choices, which weapon fields apply (firearm: magazine, recoil, bursts, reload; grenade: radii;
 * ZN-RNG-02, ZN-BST-01, ZN-REL-01, ZN-DRW-01, ZN-MAL-01, ZN-GRN-01), and the armor's damage
 * reduction per zone (ZN-ZON-02).
 */
export function zonesItemSheetContext(input: ItemSheetInput) {
  const { item, i18n } = input;
  const s = (item.system ?? {}) as ItemSystem;
  const kind = s.kind ?? "melee";
  const types = new Set(s.damageTypes ?? []);
  return {
    isWeapon: item.type === "weapon",
    isArmor: item.type === "armor",
    isGeneric: false,
    isFirearm: kind === "firearm",
    isGrenade: kind === "grenade",
    isRanged: kind !== "melee",
    kinds: choiceMap(WEAPON_KINDS, (id) => `FRAY.Zones.Sheet.Kind.${id}`, i18n),
    carries: choiceMap(CARRY, (id) => `FRAY.Zones.Sheet.Carry.${id}`, i18n),
    malfunctions: {
      "": sentenceCase(i18n.localize("FRAY.Zones.Sheet.NoMalfunction"), langOf(i18n)),
      ...choiceMap(MALFUNCTIONS, (id) => `FRAY.Zones.Malfunction.${id}`, i18n),
    },
    damageTypes: DAMAGE_TYPES.map((id) => ({
      id,
      label: sentenceCase(i18n.localize(`FRAY.Zones.DamageType.${id}`), langOf(i18n)),
      selected: types.has(id),
    })),
    spareMagazines: s.spareMagazines ?? "",
    armorZones: ARMOR_ZONES.map((id) => ({
      id,
      label: i18n.localize(`FRAY.Zones.Zone.${id}`),
      value: s.zones?.[id] ?? 0,
      name: `system.zones.${id}`,
    })),
  };
}
