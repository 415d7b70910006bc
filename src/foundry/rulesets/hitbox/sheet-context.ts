/**
 * Hitbox's sheet context: the character sheet (abilities and skills with their 2d6 tests, the
 * body diagram of the seven hitboxes with their points and the armor worn on each, damaged and
 * full limbs marked with the skills they halve, weapons with Attack buttons, armor pieces), the
 * NPC stat block, and the weapon and armor sheets with every field the core reads. Built on the
 * generic part of `sheets/context.ts`; the templates live in `templates/hitbox/`. Pure: no
 * Foundry globals.
 */
import { sumModifiers } from "../../../rules/core/types.js";
import {
  ABILITIES,
  HITBOXES,
  LIMBS,
  SKILLS,
  armorTracks,
  hitboxCombatantFromActor,
  isDamaged,
  isDisabled,
  mainArm,
  testBonus,
  type AbilityId,
  type HitboxCombatant,
  type HitboxId,
  type LimbId,
  type SkillId,
} from "../../../rules/hitbox/index.js";
import { SYSTEM_PATH } from "../../config.js";
import { actorSheetBase, signedNumber, type ActorSheetInput, type ItemSheetInput, type SheetI18n } from "../../sheets/context.js";

type Raw = Record<string, unknown>;

/** Hitbox's actor sheet parts, by actor type: the character sheet's tabs, the NPC stat block. */
export const HITBOX_SHEET_PARTS = {
  character: ["hbHeader", "tabs", "hbAttributes", "hbCombat", "conditions", "biography"],
  npc: ["hbNpc"],
} as const;

/** The templates of Hitbox's own sheet parts (the tabs, conditions and biography parts are the shared ones). */
export const HITBOX_SHEET_TEMPLATES = {
  hbHeader: `${SYSTEM_PATH}/templates/hitbox/header.hbs`,
  hbAttributes: `${SYSTEM_PATH}/templates/hitbox/attributes.hbs`,
  hbCombat: `${SYSTEM_PATH}/templates/hitbox/combat.hbs`,
  hbNpc: `${SYSTEM_PATH}/templates/hitbox/npc.hbs`,
} as const;

/** The weapon and armor sheet of Hitbox. */
export const HITBOX_ITEM_TEMPLATE = `${SYSTEM_PATH}/templates/hitbox/item.hbs`;

/**
 * The ability and the limbs each skill's test uses (HB-ATK-02, HB-ATK-03, HB-DMG-03, HB-DMG-04;
 * RULES.md): shooting, throwing and melee the main arm (archery both arms), Dodge both legs,
 * Parry the main arm, Blackout no limb.
 */
export function skillUse(c: HitboxCombatant, skill: SkillId): { ability: AbilityId; limbs: LimbId[] } {
  switch (skill) {
    case "firearms":
    case "throwing":
      return { ability: "dexterity", limbs: [mainArm(c)] };
    case "archery":
      return { ability: "dexterity", limbs: ["leftArm", "rightArm"] };
    case "dodge":
      return { ability: "dexterity", limbs: ["leftLeg", "rightLeg"] };
    case "melee":
    case "parry":
      return { ability: "strength", limbs: [mainArm(c)] };
    case "blackout":
      return { ability: "fortitude", limbs: [] };
  }
}

/** The 2d6 formula of a bonus: `2d6 + 4`, `2d6 - 1`, `2d6`. */
export function testFormula(bonus: number): string {
  return bonus === 0 ? "2d6" : bonus > 0 ? `2d6 + ${bonus}` : `2d6 - ${-bonus}`;
}

/** The body diagram's order: head; arms and torso; groin; legs. */
const BODY_ROWS: readonly (readonly HitboxId[])[] = [["head"], ["leftArm", "torso", "rightArm"], ["groin"], ["leftLeg", "rightLeg"]];

/** The combatant of a sheet's actor, or `undefined` when the core refuses it (the base shows why). */
function combatantOrNone(input: ActorSheetInput): HitboxCombatant | undefined {
  try {
    return hitboxCombatantFromActor(input.actor as never);
  } catch {
    return undefined;
  }
}

/** The skills of a character with their test (HB-ATK-02) and the damaged-limb halving (HB-DMG-03). */
function skillRows(c: HitboxCombatant | undefined, system: Raw, i18n: SheetI18n) {
  const skills = (system.skills ?? {}) as Record<string, number>;
  return SKILLS.map((id) => {
    const use = c ? skillUse(c, id) : undefined;
    const lines = c && use ? testBonus(c, use.ability, id, use.limbs, "HB-ATK-02") : [];
    const halving = lines.find((l) => l.rule === "HB-DMG-03");
    const bonus = sumModifiers(lines);
    return {
      id,
      label: i18n.localize(`FRAY.Hitbox.Skill.${id}`),
      name: `system.skills.${id}`,
      value: Number(skills[id] ?? 0),
      ability: use ? i18n.localize(`FRAY.Hitbox.Ability.${use.ability}`) : "",
      formula: testFormula(bonus),
      halved: Boolean(halving),
      hint: halving
        ? i18n.format("FRAY.Hitbox.Sheet.HalvedHint", { limb: i18n.localize(String(halving.data?.limb ?? "")) })
        : i18n.localize("FRAY.Hitbox.Sheet.TestHint"),
    };
  });
}

/** The seven hitboxes with their points, the armor over them and the limb state (HB-DMG-01, HB-DMG-03). */
function bodyRows(c: HitboxCombatant | undefined, system: Raw, i18n: SheetI18n) {
  const stored = (system.hitboxes ?? {}) as Record<string, { value?: number; max?: number }>;
  const armor = c ? armorTracks(c) : {};
  return BODY_ROWS.map((row) =>
    row.map((id) => {
      const track = { value: Number(stored[id]?.value ?? 0), max: Number(stored[id]?.max ?? 0) };
      const limb = (LIMBS as readonly string[]).includes(id);
      const disabled = c ? isDisabled(c, id) : track.value <= 0;
      const damaged = c ? isDamaged(c, id) : track.value < track.max;
      const halves = c && limb && damaged ? SKILLS.filter((s) => skillUse(c, s).limbs.includes(id as LimbId)) : [];
      return {
        id,
        label: i18n.localize(`FRAY.Hitbox.${id}`),
        name: `system.hitboxes.${id}`,
        value: track.value,
        max: track.max,
        armor: armor[id] ? `${armor[id]!.value}/${armor[id]!.max}` : "",
        state: disabled ? "disabled" : damaged ? "damaged" : "whole",
        stateLabel: disabled ? i18n.localize("FRAY.Hitbox.Sheet.Full") : damaged ? i18n.localize("FRAY.Hitbox.Sheet.Damaged") : "",
        halves: halves.map((s) => i18n.localize(`FRAY.Hitbox.Skill.${s}`)).join(", "),
        rule: limb ? "HB-DMG-03" : "HB-DMG-01",
      };
    }),
  );
}

/** One item of an actor's source, loosely. */
interface ItemRow {
  _id: string;
  name: string;
  type: string;
  img?: string | null;
  system?: Raw;
}

/** The weapons with their test and what each can do (HB-ATK-02, HB-DMG-02, HB-MOD-03, HB-ATK-03). */
function weaponRows(c: HitboxCombatant | undefined, items: ItemRow[], i18n: SheetI18n) {
  return items
    .filter((i) => i.type === "weapon" && (i.system?.ruleset ?? "hitbox") === "hitbox")
    .map((i) => {
      const s = (i.system ?? {}) as Raw;
      const weapon = c?.weapons.find((w) => w.id === i._id);
      const lines =
        c && weapon
          ? testBonus(c, weapon.ability, weapon.skill, weapon.hands === 2 ? ["leftArm", "rightArm"] : [mainArm(c)], "HB-ATK-02")
          : [];
      const close = s.closeBonus as { withinFeet?: number; points?: number } | null | undefined;
      return {
        id: i._id,
        name: i.name,
        img: i.img ?? "icons/svg/sword.svg",
        kind: i18n.localize(`FRAY.Hitbox.Sheet.Kind.${String(s.kind ?? "melee")}`),
        skill: i18n.localize(`FRAY.Hitbox.Skill.${String(s.skill ?? "melee")}`),
        formula: testFormula(sumModifiers(lines)),
        halved: lines.some((l) => l.rule === "HB-DMG-03"),
        damage: Number(s.damage ?? 1),
        close: close?.points
          ? i18n.format("FRAY.Hitbox.Sheet.CloseBonus", { points: String(close.points), feet: String(close.withinFeet ?? 0) })
          : "",
        range: s.kind === "melee" ? "" : `${Number(s.rangeFeet ?? 0)} ft`,
        shots: Number(s.maxShots ?? 1),
        multiShot: Number(s.maxShots ?? 1) > 1,
        canParry: Boolean(s.canParry),
        held: c?.held.includes(i._id) || c?.held.includes(i.name) || false,
      };
    });
}

/** The armor pieces with the points they give each hitbox and the points used up (HB-DMG-01). */
function armorRows(items: ItemRow[], i18n: SheetI18n) {
  return items
    .filter((i) => i.type === "armor" && (i.system?.ruleset ?? "hitbox") === "hitbox")
    .map((i) => {
      const s = (i.system ?? {}) as { protection?: Record<string, number>; damage?: Record<string, number>; equipped?: boolean };
      const covers = HITBOXES.filter((h) => Number(s.protection?.[h] ?? 0) > 0).map((h) => {
        const max = Number(s.protection?.[h] ?? 0);
        const left = max - Number(s.damage?.[h] ?? 0);
        return `${i18n.localize(`FRAY.Hitbox.${h}`)} ${left}/${max}`;
      });
      return { id: i._id, name: i.name, img: i.img ?? "icons/svg/shield.svg", equipped: s.equipped !== false, covers: covers.join(", ") };
    });
}

/**
 * The Hitbox actor sheet's context (character tabs and NPC stat block): abilities, skills with
 * their 2d6 tests and halving (HB-ATK-02, HB-DMG-03), the body diagram with armor per hitbox
 * (HB-DMG-01), the weapons and armor, the main hand, what is held and the medicated state.
 */
export function hitboxActorSheetContext(input: ActorSheetInput) {
  const base = actorSheetBase(input);
  const { i18n } = input;
  const system = (input.actor.system ?? {}) as Raw;
  const c = combatantOrNone(input);
  const items = ((input.actor as unknown as { items?: ItemRow[] }).items ?? []) as ItemRow[];
  const abilities = (system.abilities ?? {}) as Record<string, number>;
  const statuses = new Set(input.actor.statuses ?? []);
  const damagedLimbs = c ? LIMBS.filter((l) => isDamaged(c, l)) : [];
  return {
    ...base,
    isHitbox: true,
    abilities: ABILITIES.map((id) => ({
      id,
      label: i18n.localize(`FRAY.Hitbox.Ability.${id}`),
      name: `system.abilities.${id}`,
      value: Number(abilities[id] ?? 0),
      signed: signedNumber(Number(abilities[id] ?? 0)),
    })),
    skills: skillRows(c, system, i18n),
    body: bodyRows(c, system, i18n),
    weapons: weaponRows(c, items, i18n),
    armor: armorRows(items, i18n),
    mainHands: { right: i18n.localize("FRAY.Hitbox.Sheet.Hand.right"), left: i18n.localize("FRAY.Hitbox.Sheet.Hand.left") },
    // What is held is stored by item id (or, in older sheets, by name): shown by the item's name.
    held: Array.isArray(system.held) ? (system.held as string[]).map((h) => items.find((i) => i._id === h)?.name ?? h).join(", ") : "",
    medicated: statuses.has("medicated"),
    limbNote:
      damagedLimbs.length && !statuses.has("medicated")
        ? i18n.format("FRAY.Hitbox.Sheet.LimbNote", { limbs: damagedLimbs.map((l) => i18n.localize(`FRAY.Hitbox.${l}`)).join(", ") })
        : "",
    down: c ? ["shock", "dead", "unconscious"].some((s) => statuses.has(s)) : false,
  };
}

/** The choices of a select as `{ value: label }`, labels localized. */
function choices(ids: readonly string[], key: (id: string) => string, i18n: SheetI18n): Record<string, string> {
  return Object.fromEntries(ids.map((id) => [id, i18n.localize(key(id))]));
}

/**
 * The Hitbox weapon and armor sheets' context: a weapon's kind, ability, skill, damage points,
 * hands, shots a turn, range in feet, whether it can parry and its close-range bonus (HB-ATK-02,
 * HB-ATK-03, HB-DMG-02, HB-MOD-01, HB-MOD-03); an armor's points per hitbox, the points used up
 * and whether it is worn (HB-DMG-01).
 */
export function hitboxItemSheetContext(input: ItemSheetInput) {
  const { i18n, item } = input;
  const s = (item.system ?? {}) as Raw;
  const protection = (s.protection ?? {}) as Record<string, number>;
  const damage = (s.damage ?? {}) as Record<string, number>;
  const close = s.closeBonus as { withinFeet?: number; points?: number } | null | undefined;
  return {
    isGeneric: false,
    isWeapon: false,
    isArmor: false,
    isHitbox: true,
    hbWeapon: item.type === "weapon",
    hbArmor: item.type === "armor",
    kinds: choices(["melee", "ranged", "thrown"], (k) => `FRAY.Hitbox.Sheet.Kind.${k}`, i18n),
    abilities: choices(ABILITIES, (a) => `FRAY.Hitbox.Ability.${a}`, i18n),
    skills: choices(SKILLS, (k) => `FRAY.Hitbox.Skill.${k}`, i18n),
    closeWithin: close?.withinFeet ?? 0,
    closePoints: close?.points ?? 0,
    hitboxes: HITBOXES.map((h) => ({
      id: h,
      label: i18n.localize(`FRAY.Hitbox.${h}`),
      protection: Number(protection[h] ?? 0),
      damage: Number(damage[h] ?? 0),
    })),
  };
}
