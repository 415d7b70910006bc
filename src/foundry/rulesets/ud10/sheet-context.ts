/**
 * UD10's sheet context: the character sheet's tabs and the NPC stat block (HP/EP, attributes
 * and skills with the value a check adds, the core's defense, movement and armor per zone,
 * weapons with their firing modes, the Actions row, armor pieces) and the weapon and armor
 * sheets, built on the generic part of `sheets/context.ts`. The binding hands these to the
 * generic sheets (`sheetContext`, `itemSheetContext`). Pure: no Foundry globals.
 */
import { ATTRIBUTES, SKILL_ATTRIBUTE, SKILLS, ZONES, parseCombatant } from "../../../rules/ud10/model.js";
import { skillValue } from "../../../rules/ud10/attack.js";
import { actionButtons } from "../../logic/round-actions.js";
import type { ItemSource } from "../../sources.js";
import { actorSheetBase, metres, signedNumber, type ActorSheetInput, type ItemSheetInput, type SheetI18n } from "../../sheets/context.js";
import { ud10Derived, type Ud10Derived } from "./derived.js";

type Raw = Record<string, unknown>;

/** UD10's actor sheet parts, by actor type: the character sheet's tabs, the NPC stat block. */
export const UD10_SHEET_PARTS = {
  character: ["header", "tabs", "attributes", "combat", "conditions", "biography"],
  npc: ["npc"],
} as const;

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

/**
 * A UD10 weapon's firing modes (UD-RNG-02): `standard` (the weapon's own damage and modifier,
 * what an attack without a mode fires) first, then each stored mode with its label (its id when
 * it has none); empty for a weapon without modes.
 */
export function ud10WeaponModes(item: ItemSource, i18n: SheetI18n): { id: string; label: string }[] {
  const modes = ((item.system ?? {}) as ItemSystem).modes ?? [];
  const own = modes.filter((m) => typeof m?.id === "string" && m.id !== "");
  return own.length
    ? [{ id: "standard", label: i18n.localize("FRAY.Sheet.StandardMode") }, ...own.map((m) => ({ id: m.id, label: m.label || m.id }))]
    : [];
}

/** The weapon rows of an actor's items. */
function weaponRows(items: ItemSource[], i18n: SheetI18n): WeaponRow[] {
  return items
    .filter((i) => i.type === "weapon")
    .map((i) => {
      const s = (i.system ?? {}) as ItemSystem;
      const ranged = s.kind === "ranged";
      return {
        id: i._id ?? "",
        name: i.name,
        img: (i as { img?: string }).img ?? "icons/svg/sword.svg",
        kind: i18n.localize(ranged ? KIND_LABELS.ranged : KIND_LABELS.melee),
        damage: s.damage ?? "",
        attackModifier: signedNumber(s.attackModifier ?? 0),
        range: ranged ? i18n.format("FRAY.Sheet.RangeIncrement", { metres: metres(s.rangeIncrement ?? 0) }) : "",
        penetration: s.penetration ?? 0,
        modes: ud10WeaponModes(i, i18n),
      };
    });
}

/**
 * The context of UD10's character and NPC sheets: the generic part, HP/EP, the core's derived
 * values (defense, movement, armor per zone; UD-ATK-03, UD-MOV-02, UD-ZON-02), attributes and
 * skills with the value a check adds (UD-REA-02), weapons with their firing modes, the Actions
 * row (UD-ACT-02) and armor pieces.
 */
export function ud10ActorSheetContext(input: ActorSheetInput) {
  const { actor, i18n } = input;
  const system = (actor.system ?? {}) as Raw;
  const items = actor.items ?? [];
  const base = actorSheetBase(input);
  const derivedResult = input.derived !== undefined ? { derived: input.derived as Ud10Derived | null } : ud10Derived(actor);
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
          : i18n.format("FRAY.Sheet.UntrainedRollHint", {
              attribute: i18n.localize(ATTRIBUTE_LABELS[SKILL_ATTRIBUTE[id]].abbr),
              value: String(check.value),
            }),
      };
    }),
    sizes: Object.fromEntries(Object.entries(SIZE_LABELS).map(([k, v]) => [k, i18n.localize(v)])),
    defense: derived ? derived.defense : null,
    movement: derived ? { standard: metres(derived.standardMovement), full: metres(derived.fullMovement) } : null,
    derivedError: derived ? "" : i18n.localize("FRAY.Sheet.DerivedUnavailable"),
    bodyZones: input.bodyZones ?? true,
    armorZones: ZONES.map((z) => ({
      id: z,
      label: i18n.localize(ZONE_LABELS[z]),
      rating: derived?.zones[z].rating ?? 0,
      buffer: derived?.zones[z].buffer ?? 0,
    })),
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
          // The zones the piece protects, each with its rating and buffer named (UD-DMG-02, UD-DMG-03).
          zones: ZONES.filter((z) => (s.zones?.[z]?.rating ?? 0) > 0 || (s.zones?.[z]?.buffer ?? 0) > 0).map((z) => ({
            label: i18n.localize(ZONE_LABELS[z]),
            rating: s.zones?.[z]?.rating ?? 0,
            buffer: s.zones?.[z]?.buffer ?? 0,
            text: i18n.format("FRAY.Sheet.ZoneArmor", {
              zone: i18n.localize(ZONE_LABELS[z]),
              rating: String(s.zones?.[z]?.rating ?? 0),
              buffer: String(s.zones?.[z]?.buffer ?? 0),
            }),
          })),
        };
      }),
  };
}

/** UD10's actor sheet context's type. */
export type Ud10ActorSheetContext = ReturnType<typeof ud10ActorSheetContext>;

/**
 * The context of UD10's weapon and armor sheets: the kind choices, firing modes with their
 * index, armor rating and buffer per body zone.
 */
export function ud10ItemSheetContext(input: ItemSheetInput) {
  const { item, i18n } = input;
  const system = (item.system ?? {}) as Raw & ItemSystem;
  return {
    isWeapon: item.type === "weapon",
    isArmor: item.type === "armor",
    isGeneric: false,
    kinds: { melee: i18n.localize(KIND_LABELS.melee), ranged: i18n.localize(KIND_LABELS.ranged) },
    modes: (system.modes ?? []).map((mode, index) => ({ ...mode, index })),
    zones: ZONES.map((id) => ({
      id,
      label: i18n.localize(ZONE_LABELS[id]),
      rating: system.zones?.[id]?.rating ?? 0,
      buffer: system.zones?.[id]?.buffer ?? 0,
    })),
  };
}
