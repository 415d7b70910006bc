import { bool, fieldError, isRecord, list, num, oneOf, parseIdentity, str, type Raw } from "../core/parse.js";
import { assertRuleset, combatantData, itemData, type ActorSource, type ItemSource } from "../core/sources.js";
import { parseFormula } from "../core/dice/formula.js";
import type { Track } from "../core/types.js";

/**
 * The Zones data shapes (seed 004) and their parsing from document data. Distances are metres
 * throughout. Attributes are stored as the modifiers the seed adds to checks, skills as ranks.
 */

/** Attribute modifiers Zones combat reads: STR and CON (block), DEX (checks, initiative, contests), PER (aimed fire). */
export const ATTRIBUTES = ["STR", "DEX", "CON", "PER"] as const;
export type AttributeId = (typeof ATTRIBUTES)[number];

/** Skills Zones combat reads (ZN-RNG-08, ZN-MEL-01, ZN-MEL-03, ZN-THR-01, ZN-HID-01). */
export const SKILLS = ["firearms", "melee", "throwing", "dodge", "stealth", "notice"] as const;
export type SkillId = (typeof SKILLS)[number];

/**
 * The attribute modifiers each skill check adds to d10 + ranks (ZN-RNG-08). Firearms adds DEX and
 * PER as in the seed's worked example; the others are decided in RULES.md.
 */
export const SKILL_ATTRIBUTES: Record<SkillId, readonly AttributeId[]> = {
  firearms: ["DEX", "PER"],
  throwing: ["DEX", "PER"],
  melee: ["STR", "DEX"],
  dodge: ["DEX"],
  stealth: ["DEX"],
  notice: ["PER"],
};

/** Size categories, smallest first (ZN-RNG-03). */
export const SIZES = ["tiny", "small", "medium", "large", "huge"] as const;
export type SizeCategory = (typeof SIZES)[number];

/** Range bands, nearest first (ZN-RNG-02). */
export const RANGE_BANDS = ["close", "medium", "far", "maximum"] as const;
export type RangeBand = (typeof RANGE_BANDS)[number];

/** Movement categories (ZN-RNG-04). */
export const MOVEMENTS = ["still", "subtle", "slow", "fast"] as const;
export type MovementCategory = (typeof MOVEMENTS)[number];

/** Stances (ZN-RNG-05, ZN-RNG-06). */
export const STANCES = ["standing", "kneeling", "proneFiring", "prone"] as const;
export type Stance = (typeof STANCES)[number];

/** Hit zones of the 2d6 table; `heart` and `brain` are the vital organs (ZN-ZON-01, ZN-VIT-01). */
export const HIT_ZONES = ["legs", "torso", "arms", "head", "heart", "brain"] as const;
export type HitZoneId = (typeof HIT_ZONES)[number];

/** Zones armor covers: the vital organs take the armor of the zone around them (ZN-ZON-02, ZN-VIT-01). */
export const ARMOR_ZONES = ["head", "torso", "arms", "legs"] as const;
export type ArmorZoneId = (typeof ARMOR_ZONES)[number];

/** Damage types (ZN-DMG-01). */
export const DAMAGE_TYPES = ["piercing", "slashing", "bludgeoning", "fire", "acid", "other"] as const;
export type DamageType = (typeof DAMAGE_TYPES)[number];

/** Weapon kinds: firearms (Firearms skill), melee, thrown (Throwing, ZN-THR-01), grenades (ZN-GRN-01). */
export const WEAPON_KINDS = ["firearm", "melee", "thrown", "grenade"] as const;
export type WeaponKind = (typeof WEAPON_KINDS)[number];

/**
 * Where a weapon is carried (ZN-DRW-01): `holster` and `armorSlot` draw in one action (a
 * concealed holster is a holster); `hidden` (boot, pocket), `pack` (rucksack) and `shouldered`
 * in two; `hand` is already drawn.
 */
export const CARRY = ["hand", "holster", "armorSlot", "hidden", "pack", "shouldered"] as const;
export type CarryPlace = (typeof CARRY)[number];

/** Malfunctions (ZN-MAL-01). */
export const MALFUNCTIONS = ["failureToFeed", "stovepipe", "squibLoad"] as const;
export type Malfunction = (typeof MALFUNCTIONS)[number];

/** A task that takes several actions and may run over several turns (reloading, drawing). */
export interface PendingTask {
  task: "reload" | "draw";
  /** Actions spent so far. */
  done: number;
  /** Actions it needs in all. */
  needed: number;
}

/** A Zones weapon (ZN-RNG-02, ZN-BST-01, ZN-REL-01, ZN-DRW-01, ZN-HID-01, ZN-MAL-01, ZN-THR-01, ZN-GRN-01, ZN-DMG-01). */
export interface ZonesWeapon {
  id: string;
  name: string;
  kind: WeaponKind;
  /** Effective range in metres (ZN-RNG-02, ZN-THR-01); 0 for melee weapons. */
  effectiveRange: number;
  /** Damage formula, e.g. `2d6+2` (ZN-DMG-01). */
  damage: string;
  /** Damage types, the default first (ZN-DMG-01): a knife `piercing`, `slashing`. */
  damageTypes: DamageType[];
  /** Added to the difficulty of each bullet after the first (ZN-BST-01); 0 without burst or auto fire. */
  recoil: number;
  /** Bullets of one burst; 0 when the weapon cannot fire bursts. */
  burst: number;
  /** The weapon can fire fully automatic. */
  auto: boolean;
  /** Rounds a full magazine holds; 0 for weapons without ammunition (melee, thrown). */
  magazine: number;
  /** Rounds loaded now. */
  loaded: number;
  /** Full spare magazines carried; `null` when not counted. */
  spareMagazines: number | null;
  /** Actions a reload takes (ZN-REL-01); 1 unless the weapon says otherwise. */
  reloadActions: number;
  /** Where the weapon is carried when not in hand (ZN-DRW-01). */
  carry: CarryPlace;
  /** The weapon is in hand and ready. */
  drawn: boolean;
  /** A small weapon (pistol, PDW) that can be hidden on the body (ZN-HID-01). */
  concealable: boolean;
  /** A malfunction the weapon suffers now (ZN-MAL-01). */
  malfunction: Malfunction | null;
  /** The weapon was destroyed (a shot fired behind a squib load, ZN-MAL-01). */
  broken: boolean;
  /** Grenades: everyone inside dies unless behind grenade-proof cover (ZN-GRN-01), metres. */
  effectiveRadius: number;
  /** Grenades: everyone inside is killed or incapacitated (ZN-GRN-01), metres. */
  casualtyRadius: number;
  /** A reload or draw under way. */
  pending: PendingTask | null;
  /**
   * A grenade thrown whose blast the GM has not applied yet (ZN-GRN-01): it stays on the actor,
   * out of the combatant's weapons, until the GM applies the blast from its stats.
   */
  thrown?: boolean;
}

/** A Zones armor piece: damage reduction per zone (ZN-ZON-02), and whether it is full body armor (ZN-GRN-01). */
export interface ZonesArmor {
  id: string;
  name: string;
  zones: Record<ArmorZoneId, number>;
  fullBody: boolean;
}

/** How many actions, reactions and free actions a combatant has per turn (ZN-ACT-01). */
export interface ActionCounts {
  action: number;
  reaction: number;
  free: number;
}

/** A Zones combatant as the rules core sees it. */
export interface ZonesCombatant {
  id: string;
  name: string;
  kind: "character" | "npc";
  /** Side or group name. */
  group: string;
  /** Attribute modifiers. */
  attributes: Record<AttributeId, number>;
  /** Skill ranks. */
  skills: Record<SkillId, number>;
  hp: Track;
  /** Speed points: one per metre walked (ZN-MOV-01); regained by an action (ZN-MOV-03). */
  speed: Track;
  /** Effort points: spent on movement (ZN-MOV-04) and initiative (ZN-INI-02). */
  effort: Track;
  /** Size when standing (ZN-RNG-06): a human is medium, a big dog small, a car large. */
  size: SizeCategory;
  stance: Stance;
  /** How the combatant moves this round (ZN-RNG-04); a standing person moves subtly. */
  movement: MovementCategory;
  /** Actions per turn; perks and items may change them (ZN-ACT-01). */
  actions: ActionCounts;
  /** Further initiative bonus (perks, items) (ZN-INI-01). */
  initiativeBonus: number;
  /** Effort points the combatant spends on this round's initiative, before rolling (ZN-INI-02). */
  initiativeEffort: number;
  /** Aiming actions taken this round (ZN-RNG-07). */
  aim: number;
  weapons: ZonesWeapon[];
  /** Armor worn. */
  armor: ZonesArmor[];
  /** Conditions (`surprised`, `unaware`, `incapacitated`, `dead`, `bound` ...). */
  conditions: string[];
}

export { fieldError, isRecord } from "../core/parse.js";

/**
 * A copy of a weapon's state, every field of {@link ZonesWeapon} written out in one literal, for
 * a transition to change some of them (ZN-BST-01, ZN-MAL-01: rounds spent, a malfunction kept).
 * Every weapon built so has one shape, which is much quicker to build and to read than a spread
 * of a frozen weapon (a forecast builds one at every shot). Nothing but the fields of
 * `ZonesWeapon` is carried.
 */
export function copyWeapon(w: ZonesWeapon): ZonesWeapon {
  const out: ZonesWeapon = {
    id: w.id,
    name: w.name,
    kind: w.kind,
    effectiveRange: w.effectiveRange,
    damage: w.damage,
    damageTypes: w.damageTypes,
    recoil: w.recoil,
    burst: w.burst,
    auto: w.auto,
    magazine: w.magazine,
    loaded: w.loaded,
    spareMagazines: w.spareMagazines,
    reloadActions: w.reloadActions,
    carry: w.carry,
    drawn: w.drawn,
    concealable: w.concealable,
    malfunction: w.malfunction,
    broken: w.broken,
    effectiveRadius: w.effectiveRadius,
    casualtyRadius: w.casualtyRadius,
    pending: w.pending,
  };
  if (w.thrown !== undefined) out.thrown = w.thrown;
  return out;
}

/**
 * A copy of a combatant's state, every field of {@link ZonesCombatant} written out in one literal
 * (nested values shared, as a spread shares them), for a transition to change some of them: hit
 * points and conditions after damage (ZN-ZON-02), weapons and aim after a shot (ZN-BST-01,
 * ZN-RNG-07). One shape for every state built so, much quicker than a spread of a frozen
 * combatant (a forecast builds several at every attack). Nothing but the fields of
 * `ZonesCombatant` is carried.
 */
export function copyCombatant(c: ZonesCombatant): ZonesCombatant {
  return {
    id: c.id,
    name: c.name,
    kind: c.kind,
    group: c.group,
    attributes: c.attributes,
    skills: c.skills,
    hp: c.hp,
    speed: c.speed,
    effort: c.effort,
    size: c.size,
    stance: c.stance,
    movement: c.movement,
    actions: c.actions,
    initiativeBonus: c.initiativeBonus,
    initiativeEffort: c.initiativeEffort,
    aim: c.aim,
    weapons: c.weapons,
    armor: c.armor,
    conditions: c.conditions,
  };
}

/**
 * A copy of `c` ({@link copyCombatant}) with `fields` set on it. The rules and the encounter
 * driver build every new state of a Zones combatant so (or with {@link copyCombatant} and its
 * fields set), never by a spread (`{ ...c, aim: 0 }`): a spread's copy takes a shape of its own,
 * and the rules' reads of combatants, met with many shapes, would slow down several times. Only
 * the fields of {@link ZonesCombatant} are kept: a field a host added to a combatant does not
 * carry over to its next state.
 */
export function restate(c: ZonesCombatant, fields: Partial<ZonesCombatant>): ZonesCombatant {
  return Object.assign(copyCombatant(c), fields);
}

/** The parts of an Item source (`toObject()` or compendium JSON) the Zones core reads. */
export type ZonesItemSource = ItemSource;
/** The parts of an Actor source the Zones core reads. */
export type ZonesActorSource = ActorSource;

function nonNegative(raw: Raw, key: string, path: string, fallback: number, integer = false): number {
  const n = num(raw, key, path, fallback);
  if (n < 0 || (integer && !Number.isInteger(n)))
    throw fieldError(`${path}.${key}`, integer ? "a whole number, 0 or more" : "a number, 0 or more");
  return n;
}

/**
 * Checks a damage formula (ZN-DMG-01): dice and constants such as `2d6+2`, `1d10`, `4`.
 * @throws FrayError `FRAY.Error.Field` naming the field when it is not a formula.
 */
export function checkDamageFormula(formula: string, field: string): string {
  try {
    parseFormula(formula);
  } catch {
    throw fieldError(field, "a damage formula such as 2d6+2");
  }
  return formula;
}

/**
 * Reads a weapon from item-like data (an Item's `system` plus `id` and `name`). Defaults: a
 * melee weapon, ready in hand, single shots only, reloading in one action.
 * @throws FrayError `FRAY.Error.Field` naming the first unusable field, e.g. a firearm without
 *   an effective range or a burst weapon without recoil.
 */
export function parseWeapon(raw: unknown, path = "weapon"): ZonesWeapon {
  if (!isRecord(raw)) throw fieldError(path, "an object");
  const kind = oneOf(raw, "kind", path, WEAPON_KINDS, "melee");
  const damage = checkDamageFormula(str(raw, "damage", path, kind === "grenade" ? "2d6" : undefined), `${path}.damage`);
  const typesRaw = raw.damageTypes ?? [kind === "melee" ? "bludgeoning" : "piercing"];
  if (!Array.isArray(typesRaw) || typesRaw.length === 0) throw fieldError(`${path}.damageTypes`, `a list of ${DAMAGE_TYPES.join(", ")}`);
  const damageTypes = typesRaw.map((t, i) => {
    if (!(DAMAGE_TYPES as readonly unknown[]).includes(t))
      throw fieldError(`${path}.damageTypes[${i}]`, `one of ${DAMAGE_TYPES.join(", ")}`);
    return t as DamageType;
  });
  const effectiveRange = nonNegative(raw, "effectiveRange", path, 0);
  if (kind !== "melee" && effectiveRange <= 0) throw fieldError(`${path}.effectiveRange`, "a positive number of metres");
  const burst = nonNegative(raw, "burst", path, 0, true);
  if (burst === 1) throw fieldError(`${path}.burst`, "0 (no bursts) or 2 and more bullets");
  const auto = bool(raw, "auto", path, false);
  const recoil = nonNegative(raw, "recoil", path, 0, true);
  if ((burst > 0 || auto) && kind !== "firearm") throw fieldError(`${path}.kind`, "firearm for a weapon that fires bursts");
  const magazine = nonNegative(raw, "magazine", path, 0, true);
  const loaded = nonNegative(raw, "loaded", path, magazine, true);
  if (loaded > magazine) throw fieldError(`${path}.loaded`, `at most the magazine (${magazine})`);
  const spareRaw = raw.spareMagazines;
  const spareMagazines = spareRaw === undefined || spareRaw === null ? null : nonNegative(raw, "spareMagazines", path, 0, true);
  const malfunctionRaw = raw.malfunction;
  const malfunction =
    malfunctionRaw === undefined || malfunctionRaw === null || malfunctionRaw === ""
      ? null
      : oneOf(raw, "malfunction", path, MALFUNCTIONS, "failureToFeed");
  const effectiveRadius = nonNegative(raw, "effectiveRadius", path, 0);
  const casualtyRadius = nonNegative(raw, "casualtyRadius", path, effectiveRadius);
  if (kind === "grenade" && (effectiveRadius <= 0 || casualtyRadius < effectiveRadius)) {
    throw fieldError(`${path}.casualtyRadius`, "a casualty radius at least the effective radius, both positive metres");
  }
  const carry = oneOf(raw, "carry", path, CARRY, "hand");
  const pendingRaw = raw.pending;
  let pending: PendingTask | null = null;
  if (isRecord(pendingRaw)) {
    const task = oneOf(pendingRaw, "task", `${path}.pending`, ["reload", "draw"] as const, "reload");
    pending = {
      task,
      done: nonNegative(pendingRaw, "done", `${path}.pending`, 0, true),
      needed: nonNegative(pendingRaw, "needed", `${path}.pending`, 1, true),
    };
  }
  const reloadActions = nonNegative(raw, "reloadActions", path, 1, true);
  if (reloadActions < 1) throw fieldError(`${path}.reloadActions`, "1 or more actions");
  return {
    id: str(raw, "id", path, str(raw, "name", path, "weapon")),
    name: str(raw, "name", path, "weapon"),
    kind,
    effectiveRange,
    damage,
    damageTypes,
    recoil,
    burst,
    auto,
    magazine,
    loaded,
    spareMagazines,
    reloadActions,
    carry,
    drawn: bool(raw, "drawn", path, true),
    concealable: bool(raw, "concealable", path, false),
    malfunction,
    broken: bool(raw, "broken", path, false),
    effectiveRadius,
    casualtyRadius,
    pending,
    ...(bool(raw, "thrown", path, false) ? { thrown: true } : {}),
  };
}

/**
 * Reads an armor piece: damage reduction per zone (`head`, `torso`, `arms`, `legs`; missing
 * zones 0) and `fullBody` (ZN-ZON-02, ZN-GRN-01).
 * @throws FrayError `FRAY.Error.Field` naming the zone whose reduction is not a number of 0 or more.
 */
export function parseArmor(raw: unknown, path = "armor"): ZonesArmor {
  if (!isRecord(raw)) throw fieldError(path, "an object");
  const zonesRaw = raw.zones ?? {};
  if (!isRecord(zonesRaw)) throw fieldError(`${path}.zones`, "an object of head, torso, arms, legs");
  for (const k of Object.keys(zonesRaw)) {
    if (!(ARMOR_ZONES as readonly string[]).includes(k)) throw fieldError(`${path}.zones.${k}`, `one of ${ARMOR_ZONES.join(", ")}`);
  }
  const zones = {} as Record<ArmorZoneId, number>;
  for (const z of ARMOR_ZONES) zones[z] = nonNegative(zonesRaw, z, `${path}.zones`, 0, true);
  return {
    id: str(raw, "id", path, str(raw, "name", path, "armor")),
    name: str(raw, "name", path, "armor"),
    zones,
    fullBody: bool(raw, "fullBody", path, false),
  };
}

function track(raw: Raw, key: string, path: string, fallback?: number): Track {
  const v = raw[key];
  if ((v === undefined || v === null) && fallback !== undefined) return { value: fallback, max: fallback };
  if (typeof v === "number") {
    if (!Number.isFinite(v) || v < 0) throw fieldError(`${path}.${key}`, "{ value, max } or a number, 0 or more");
    return { value: v, max: v };
  }
  if (!isRecord(v)) throw fieldError(`${path}.${key}`, "{ value, max }");
  const max = nonNegative(v, "max", `${path}.${key}`, 0);
  return { value: num(v, "value", `${path}.${key}`, max), max };
}

/**
 * Reads a combatant from actor-like data: `attributes` (modifiers STR, DEX, CON, PER), `skills`
 * (ranks), `hp`, `speed`, `effort`, `size`, `stance`, `movement`, `actions`, `weapons`, `armor`,
 * `conditions`. Missing skills have 0 ranks; missing attributes are a +0 modifier. Speed defaults
 * to 8 points, effort to 0, size medium, stance standing, movement subtle.
 * @throws FrayError `FRAY.Error.Field` naming the first unusable field (an actor without HP).
 */
export function parseCombatant(raw: unknown, path = "combatant"): ZonesCombatant {
  if (!isRecord(raw)) throw fieldError(path, "an object");
  const attrs = raw.attributes ?? {};
  if (!isRecord(attrs)) throw fieldError(`${path}.attributes`, "modifiers STR, DEX, CON, PER");
  const attributes = {} as Record<AttributeId, number>;
  for (const a of ATTRIBUTES) attributes[a] = num(attrs, a, `${path}.attributes`, 0);
  const skillsRaw = raw.skills ?? {};
  if (!isRecord(skillsRaw)) throw fieldError(`${path}.skills`, "an object of skill ranks");
  const skills = {} as Record<SkillId, number>;
  for (const s of SKILLS) {
    const v = skillsRaw[s];
    skills[s] = isRecord(v)
      ? nonNegative(v, "ranks", `${path}.skills.${s}`, 0, true)
      : nonNegative(skillsRaw, s, `${path}.skills`, 0, true);
  }
  const actionsRaw = raw.actions ?? {};
  if (!isRecord(actionsRaw)) throw fieldError(`${path}.actions`, "{ action, reaction, free }");
  const identity = parseIdentity(raw, path);
  // The identity field by field, not spread (see parseIdentity).
  return {
    id: identity.id,
    name: identity.name,
    kind: identity.kind,
    group: identity.group,
    attributes,
    skills,
    hp: track(raw, "hp", path),
    speed: track(raw, "speed", path, 8),
    effort: track(raw, "effort", path, 0),
    size: oneOf(raw, "size", path, SIZES, "medium"),
    stance: oneOf(raw, "stance", path, STANCES, "standing"),
    movement: oneOf(raw, "movement", path, MOVEMENTS, "subtle"),
    actions: {
      action: nonNegative(actionsRaw, "action", `${path}.actions`, 1, true),
      reaction: nonNegative(actionsRaw, "reaction", `${path}.actions`, 1, true),
      free: nonNegative(actionsRaw, "free", `${path}.actions`, 1, true),
    },
    initiativeBonus: num(raw, "initiativeBonus", path, 0),
    initiativeEffort: nonNegative(raw, "initiativeEffort", path, 0, true),
    aim: nonNegative(raw, "aim", path, 0, true),
    weapons: list(raw, "weapons", path).map((w, i) => parseWeapon(w, `${path}.weapons[${i}]`)),
    armor: list(raw, "armor", path).map((a, i) => parseArmor(a, `${path}.armor[${i}]`)),
    conditions: list(raw, "conditions", path).map(String),
  };
}

/**
 * A Zones weapon from a `weapon` Item source (`system.ruleset: "zones"`).
 * @throws FrayError `FRAY.Error.Field` naming the field, or `FRAY.Error.WrongRuleset`
 *   when the item belongs to another ruleset.
 */
export function zonesWeaponFromItem(item: ZonesItemSource): ZonesWeapon {
  assertRuleset(item, "zones");
  return parseWeapon(itemData(item), item.name);
}

/**
 * A Zones armor piece from an `armor` Item source (`system.ruleset: "zones"`).
 * @throws FrayError as {@link zonesWeaponFromItem}.
 */
export function zonesArmorFromItem(item: ZonesItemSource): ZonesArmor {
  assertRuleset(item, "zones");
  return parseArmor(itemData(item), item.name);
}

/**
 * A Zones combatant from a `character` or `npc` Actor source with its embedded items: weapons
 * become its weapons, equipped armor (`system.equipped` not false) its armor. Items of another
 * ruleset are skipped.
 * @throws FrayError `FRAY.Error.Field` naming the first unusable field, or
 *   `FRAY.Error.WrongRuleset` when the actor belongs to another ruleset.
 */
export function zonesCombatantFromActor(actor: ZonesActorSource, overrides: Partial<{ id: string; group: string }> = {}): ZonesCombatant {
  const c = parseCombatant(combatantData(actor, "zones", overrides), actor.name);
  // A grenade thrown and waiting for the GM's apply is no longer one of its weapons (ZN-GRN-01).
  return c.weapons.some((w) => w.thrown) ? restate(c, { weapons: c.weapons.filter((w) => !w.thrown) }) : c;
}
