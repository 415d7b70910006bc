import { fieldError, int, isRecord, list, num, oneOf, parseIdentity, str, type Raw } from "../core/parse.js";
import { combatantData, itemData, type ActorSource, type ItemSource } from "../core/sources.js";
import type { Track } from "../core/types.js";

/**
 * The Hitbox data shapes (seed 002) and their parsers: hitboxes, abilities, skills, weapons,
 * armor and combatants, read from item- and actor-like data (`system` of a Foundry document or a
 * compendium source). Distances are in **feet**, as in the seed.
 */

/** Hitbox ids (HB-LOC-01, HB-DMG-01): the seven places a hit can land. */
export const HITBOXES = ["head", "leftArm", "rightArm", "torso", "leftLeg", "rightLeg", "groin"] as const;
export type HitboxId = (typeof HITBOXES)[number];

/** The limbs: a damaged limb halves the bonus of skills that use it (HB-DMG-03). */
export const LIMBS = ["leftArm", "rightArm", "leftLeg", "rightLeg"] as const;
export type LimbId = (typeof LIMBS)[number];

/** Hitboxes whose damage forces a Blackout test under the default setting (HB-DMG-04; RULES.md). */
export const VITAL_HITBOXES: readonly HitboxId[] = ["head", "torso", "groin"];

/** Hitboxes that kill when they are full (RULES.md, HB-DMG-01). */
export const LETHAL_HITBOXES: readonly HitboxId[] = ["head", "torso"];

/** Abilities Hitbox combat reads: Strength (Parry), Dexterity (Dodge, shooting), Fortitude (Blackout). */
export const ABILITIES = ["strength", "dexterity", "fortitude"] as const;
export type AbilityId = (typeof ABILITIES)[number];

/** Skills Hitbox combat reads; a skill the sheet does not list counts 0. */
export const SKILLS = ["firearms", "melee", "throwing", "archery", "dodge", "parry", "blackout"] as const;
export type SkillId = (typeof SKILLS)[number];

/** Feet in one metre; Hitbox measures in feet, Foundry scenes of Fray in metres. */
export const FEET_PER_METRE = 1 / 0.3048;

/** Converts feet to metres (exact: 1 ft = 0.3048 m). */
export function feetToMetres(feet: number): number {
  return feet * 0.3048;
}

/** Converts metres to feet (exact: 1 ft = 0.3048 m). */
export function metresToFeet(metres: number): number {
  return metres / 0.3048;
}

/** Extra damage a weapon deals at close range (a shotgun within 20 ft ...), HB-DMG-02. */
export interface CloseBonus {
  /** Range in feet at or within which the bonus applies. */
  withinFeet: number;
  /** Extra points of damage. */
  points: number;
}

/** A Hitbox weapon (HB-ATK-02, HB-DMG-02, HB-MOD-01, HB-MOD-03). */
export interface HitboxWeapon {
  id: string;
  name: string;
  /** `melee` (no range modifiers), `ranged` or `thrown`. */
  kind: "melee" | "ranged" | "thrown";
  /** The ability the attack test adds (HB-ATK-02). */
  ability: AbilityId;
  /** The weapon skill the attack test adds (HB-ATK-02). */
  skill: SkillId;
  /** Points of damage a hit deals; most weapons deal 1 (HB-DMG-02). */
  damage: number;
  /** Extra points at close range, when the weapon has them (HB-DMG-02). */
  closeBonus?: CloseBonus;
  /** Hands the weapon needs: 1 uses the main arm, 2 both arms (HB-DMG-03). */
  hands: 1 | 2;
  /** Most shots it can fire in one turn (HB-MOD-03); 1 for melee weapons. */
  maxShots: number;
  /** Reach (melee) or furthest range (ranged, thrown) in feet. */
  rangeFeet: number;
  /** The weapon can be held to parry with (HB-ATK-03). */
  canParry: boolean;
}

/** An armor piece: armor points per hitbox, and the points already used up there (HB-DMG-01). */
export interface HitboxArmor {
  id: string;
  name: string;
  /** Armor points per hitbox (0 where it does not cover). */
  protection: Record<HitboxId, number>;
  /** Armor points used up by earlier hits, per hitbox (never more than `protection`). */
  damage: Record<HitboxId, number>;
}

/** A Hitbox combatant as the rules core sees it. */
export interface HitboxCombatant {
  id: string;
  name: string;
  kind: "character" | "npc";
  /** Side or group name. */
  group: string;
  abilities: Record<AbilityId, number>;
  skills: Record<SkillId, number>;
  /** Points left in each hitbox (`value`) out of its capacity (`max`). */
  hitboxes: Record<HitboxId, Track>;
  /** Armor worn. */
  armor: HitboxArmor[];
  weapons: HitboxWeapon[];
  /** The arm a one-handed weapon and a parry use (HB-DMG-03). */
  mainHand: "left" | "right";
  /** Ids (or names, for objects that are not weapons) of what is held in hand (HB-ATK-03, HB-ACT-03). */
  held: string[];
  /**
   * Conditions: `prone` (lying since before this turn), `shock`, `dead`, `medicated` (damaged
   * limbs count in full), `unaware` ...
   */
  conditions: string[];
  /**
   * Turns a combatant in `shock` still lives without treatment, under the `hitboxShockTurns`
   * setting (HB-DMG-04, HB-RND-02); absent while no count runs. Kept by the round's start
   * (`startRound` of the play contract).
   */
  shockTurnsLeft?: number;
}

/**
 * A combatant like `c` with the given hitboxes, armor, conditions, shock count (none when
 * undefined) and weapons in hand (`c`'s by default), built field by field in the order
 * `parseCombatant` builds them: the rest is shared with `c`. A literal costs a fraction of a
 * spread (`{ ...c, hitboxes }`), most of all when `c` is frozen, and the states built here have
 * one shape (another, one field longer, while a shock count runs), which keeps the rules' reads of
 * combatants fast (a spread's copy takes a shape of its own). Every new state of a Hitbox
 * combatant is built here. Only the fields of {@link HitboxCombatant} are kept: a field a host
 * added to a combatant does not carry over to its next state.
 */
export function restate(
  c: HitboxCombatant,
  hitboxes: HitboxCombatant["hitboxes"],
  armor: HitboxCombatant["armor"],
  conditions: string[],
  shockTurnsLeft: number | undefined,
  held: string[] = c.held,
): HitboxCombatant {
  const next: HitboxCombatant = {
    id: c.id,
    name: c.name,
    kind: c.kind,
    group: c.group,
    abilities: c.abilities,
    skills: c.skills,
    hitboxes,
    armor,
    weapons: c.weapons,
    mainHand: c.mainHand,
    held,
    conditions,
  };
  if (shockTurnsLeft !== undefined) next.shockTurnsLeft = shockTurnsLeft;
  return next;
}

/** Hitbox capacities from the `hitboxPoints` setting: every hitbox holds it, the torso one more (RULES.md). */
export function defaultCapacity(hitboxPoints: number): Record<HitboxId, number> {
  const n = Math.max(1, Math.floor(hitboxPoints));
  return Object.fromEntries(HITBOXES.map((h) => [h, h === "torso" ? n + 1 : n])) as Record<HitboxId, number>;
}

export { fieldError } from "../core/parse.js";

/** The parts of an Item source the Hitbox parser reads (a Foundry `toObject()` or a pack source). */
export type HitboxItemSource = ItemSource;
/** The parts of an Actor source the Hitbox parser reads. */
export type HitboxActorSource = ActorSource;

function checkRuleset(raw: Raw, path: string): void {
  const r = raw.ruleset;
  if (r !== undefined && r !== null && r !== "" && r !== "hitbox") throw fieldError(`${path}.ruleset`, "hitbox");
}

/** True when a value is a hitbox id. */
export function isHitbox(v: unknown): v is HitboxId {
  return typeof v === "string" && (HITBOXES as readonly string[]).includes(v);
}

/**
 * Reads a weapon from item-like data (an Item's `system` plus `id` and `name`). Defaults by kind:
 * melee uses Strength + Melee with a 5 ft reach and can parry; ranged Dexterity + Firearms;
 * thrown Dexterity + Throwing. `damage` defaults to 1 point (HB-DMG-02).
 * @throws FrayError `FRAY.Error.Field` naming the field (`<path>.damage`, `<path>.rangeFeet` ...).
 */
export function parseWeapon(raw: unknown, path = "weapon"): HitboxWeapon {
  if (!isRecord(raw)) throw fieldError(path, "an object");
  checkRuleset(raw, path);
  const kind = oneOf(raw, "kind", path, ["melee", "ranged", "thrown"] as const, "melee");
  const ability = oneOf(raw, "ability", path, ABILITIES, kind === "melee" ? "strength" : "dexterity");
  const skill = oneOf(raw, "skill", path, SKILLS, kind === "melee" ? "melee" : kind === "thrown" ? "throwing" : "firearms");
  const damage = int(raw, "damage", path, 1, 0, "whole points of damage, 0 or more");
  let closeBonus: CloseBonus | undefined;
  if (raw.closeBonus !== undefined && raw.closeBonus !== null) {
    const cb = raw.closeBonus;
    if (!isRecord(cb)) throw fieldError(`${path}.closeBonus`, "{ withinFeet, points }");
    const withinFeet = num(cb, "withinFeet", `${path}.closeBonus`);
    if (withinFeet <= 0) throw fieldError(`${path}.closeBonus.withinFeet`, "feet, more than 0");
    closeBonus = { withinFeet, points: int(cb, "points", `${path}.closeBonus`, 1, 1, "whole points, 1 or more") };
  }
  const hands = int(raw, "hands", path, 1, 1, "1 or 2");
  if (hands > 2) throw fieldError(`${path}.hands`, "1 or 2");
  const maxShots = int(raw, "maxShots", path, 1, 1, "shots per turn, 1 or more");
  if (kind === "melee" && maxShots !== 1) throw fieldError(`${path}.maxShots`, "1 for a melee weapon");
  const rangeFeet = num(raw, "rangeFeet", path, kind === "melee" ? 5 : undefined);
  if (rangeFeet <= 0) throw fieldError(`${path}.rangeFeet`, "feet, more than 0");
  const name = str(raw, "name", path, "weapon");
  return {
    id: str(raw, "id", path, name),
    name,
    kind,
    ability,
    skill,
    damage,
    closeBonus,
    hands: hands as 1 | 2,
    maxShots,
    rangeFeet,
    canParry: raw.canParry === undefined ? kind === "melee" : Boolean(raw.canParry),
  };
}

/**
 * Reads an armor piece: `protection` (armor points per hitbox) and optional `damage` (points
 * used up). Hitboxes missing from the data are not covered.
 * @throws FrayError `FRAY.Error.Field` naming the field when a value is not a whole number of
 *   points, names no hitbox, or more is used up than the piece has.
 */
export function parseArmor(raw: unknown, path = "armor"): HitboxArmor {
  if (!isRecord(raw)) throw fieldError(path, "an object");
  checkRuleset(raw, path);
  const read = (key: "protection" | "damage"): Record<HitboxId, number> => {
    const src = raw[key] ?? {};
    if (!isRecord(src)) throw fieldError(`${path}.${key}`, "points per hitbox");
    for (const k of Object.keys(src)) if (!isHitbox(k)) throw fieldError(`${path}.${key}.${k}`, HITBOXES.join(", "));
    return Object.fromEntries(HITBOXES.map((h) => [h, int(src, h, `${path}.${key}`, 0, 0, "whole armor points, 0 or more")])) as Record<
      HitboxId,
      number
    >;
  };
  const protection = read("protection");
  const damage = read("damage");
  for (const h of HITBOXES)
    if (damage[h] > protection[h]) throw fieldError(`${path}.damage.${h}`, `at most ${protection[h]} (the piece's protection there)`);
  const name = str(raw, "name", path, "armor");
  return { id: str(raw, "id", path, name), name, protection, damage };
}

/** Options the combatant parser reads: the default hitbox capacity. */
export interface ParseOptions {
  /** Points a hitbox holds when the sheet does not say (the torso one more); default 2. */
  hitboxPoints?: number;
}

/**
 * Reads a combatant from actor-like data: `abilities`, `skills`, `hitboxes` (each a number for a
 * fresh hitbox or `{ value, max }`; missing ones take the default capacity), `weapons`, `armor`,
 * `mainHand`, `held` (names or ids), `conditions`, and `shockTurnsLeft` (turns left in shock, when
 * a count runs; HB-DMG-04).
 * @throws FrayError `FRAY.Error.Field` naming the first unusable field (an actor without
 *   abilities, a hitbox with more points than it holds ...).
 */
export function parseCombatant(raw: unknown, path = "combatant", options: ParseOptions = {}): HitboxCombatant {
  if (!isRecord(raw)) throw fieldError(path, "an object");
  checkRuleset(raw, path);
  const abilitiesRaw = raw.abilities;
  if (!isRecord(abilitiesRaw)) throw fieldError(`${path}.abilities`, "strength, dexterity and fortitude");
  const abilities = Object.fromEntries(
    ABILITIES.map((a) => [a, int(abilitiesRaw, a, `${path}.abilities`, undefined, -10, "a whole number")]),
  ) as Record<AbilityId, number>;
  const skillsRaw = raw.skills ?? {};
  if (!isRecord(skillsRaw)) throw fieldError(`${path}.skills`, "skill ratings by name");
  for (const k of Object.keys(skillsRaw))
    if (!(SKILLS as readonly string[]).includes(k)) throw fieldError(`${path}.skills.${k}`, SKILLS.join(", "));
  const skills = Object.fromEntries(SKILLS.map((s) => [s, int(skillsRaw, s, `${path}.skills`, 0, -10, "a whole number")])) as Record<
    SkillId,
    number
  >;
  const capacity = defaultCapacity(options.hitboxPoints ?? 2);
  const boxesRaw = raw.hitboxes ?? {};
  if (!isRecord(boxesRaw)) throw fieldError(`${path}.hitboxes`, "{ value, max } per hitbox");
  for (const k of Object.keys(boxesRaw)) if (!isHitbox(k)) throw fieldError(`${path}.hitboxes.${k}`, HITBOXES.join(", "));
  const hitboxes = {} as Record<HitboxId, Track>;
  for (const h of HITBOXES) {
    const v = boxesRaw[h];
    const p = `${path}.hitboxes.${h}`;
    if (v === undefined || v === null) hitboxes[h] = { value: capacity[h], max: capacity[h] };
    else if (typeof v === "number") {
      if (!Number.isInteger(v) || v < 1) throw fieldError(p, "whole points, 1 or more");
      hitboxes[h] = { value: v, max: v };
    } else if (isRecord(v)) {
      const max = int(v, "max", p, capacity[h], 1, "whole points, 1 or more");
      const value = int(v, "value", p, max, 0, "whole points, 0 or more");
      if (value > max) throw fieldError(`${p}.value`, `at most ${max}`);
      hitboxes[h] = { value, max };
    } else throw fieldError(p, "a number or { value, max }");
  }
  const weapons = list(raw, "weapons", path).map((w, i) => parseWeapon(w, `${path}.weapons[${i}]`));
  const held = list(raw, "held", path).map((h, i) => {
    if (typeof h !== "string") throw fieldError(`${path}.held[${i}]`, "an item name or id");
    return weapons.find((w) => w.id === h || w.name === h)?.id ?? h;
  });
  const identity = parseIdentity(raw, path);
  // The armor by push, as the rules copy it (`piecesCopy` in damage.ts): one kind of list. (Read
  // after the identity, as the literal read it: a file with both wrong is told of the same field.)
  const armor: HitboxArmor[] = [];
  const armorRaw = list(raw, "armor", path);
  for (let i = 0; i < armorRaw.length; i++) armor.push(parseArmor(armorRaw[i], `${path}.armor[${i}]`));
  // The identity field by field, not spread (see parseIdentity).
  return {
    id: identity.id,
    name: identity.name,
    kind: identity.kind,
    group: identity.group,
    abilities,
    skills,
    hitboxes,
    armor,
    weapons,
    mainHand: oneOf(raw, "mainHand", path, ["right", "left"] as const, "right"),
    held,
    conditions: list(raw, "conditions", path).map(String),
    ...(raw.shockTurnsLeft === undefined || raw.shockTurnsLeft === null
      ? {}
      : { shockTurnsLeft: int(raw, "shockTurnsLeft", path, undefined, 0, "whole turns, 0 or more") }),
  };
}

/**
 * A Hitbox weapon from a `weapon` Item source.
 * @throws FrayError naming the field when the item cannot be used.
 */
export function hitboxWeaponFromItem(item: HitboxItemSource): HitboxWeapon {
  return parseWeapon(itemData(item), item.name);
}

/**
 * A Hitbox armor piece from an `armor` Item source.
 * @throws FrayError naming the field when the item cannot be used.
 */
export function hitboxArmorFromItem(item: HitboxItemSource): HitboxArmor {
  return parseArmor(itemData(item), item.name);
}

/**
 * A Hitbox combatant from a `character` or `npc` Actor source with its embedded items: Hitbox
 * weapons (items whose `system.ruleset` is `hitbox` or unset) become its weapons, equipped Hitbox
 * armor (`system.equipped` not false) its armor. Items of another ruleset are left out.
 * @throws FrayError `FRAY.Error.Field` naming the first unusable field.
 */
export function hitboxCombatantFromActor(
  actor: HitboxActorSource,
  overrides: Partial<{ id: string; group: string }> = {},
  options: ParseOptions = {},
): HitboxCombatant {
  return parseCombatant(combatantData(actor, "hitbox", overrides), actor.name, options);
}

/**
 * A new record of a value per hitbox (the values shared): the seven tracks, or an armor piece's
 * points, in the order of `HITBOXES`. One literal, which costs less than spreading the record on
 * every hit, and gives every such record one shape.
 */
export function hitboxesOf<T>(b: Record<HitboxId, T>): Record<HitboxId, T> {
  return {
    head: b.head,
    leftArm: b.leftArm,
    rightArm: b.rightArm,
    torso: b.torso,
    leftLeg: b.leftLeg,
    rightLeg: b.rightLeg,
    groin: b.groin,
  };
}

/**
 * Whether the combatant has the condition (`c.conditions.includes(condition)`): a plain loop, as
 * a combatant has a condition or two at most, and V8's `includes` costs more to call than such a
 * search. Every attack asks several times. The loop is Hitbox's own rather than the shared
 * `holds` (../core/lists.ts): that one read site, serving every ruleset, met too many shapes of
 * list in Hitbox's fights and cost 2.3% more instructions than `includes` (docs/performance.md).
 */
export function hasCondition(c: HitboxCombatant, condition: string): boolean {
  const list = c.conditions;
  for (let i = 0; i < list.length; i++) if (list[i] === condition) return true;
  return false;
}

/** Whether `h` is one of {@link LETHAL_HITBOXES} (head, torso), without searching the list. */
export const isLethal = (h: HitboxId): boolean => h === "head" || h === "torso";

/** Whether `h` is one of {@link VITAL_HITBOXES} (head, torso, groin), without searching the list. */
export const isVital = (h: HitboxId): boolean => h === "head" || h === "torso" || h === "groin";

/** `b[h] = value`, one hitbox of a record of them set by name ({@link boxOf} says why). */
export function setBox<T>(b: Record<HitboxId, T>, h: HitboxId, value: T): void {
  switch (h) {
    case "head":
      b.head = value;
      return;
    case "leftArm":
      b.leftArm = value;
      return;
    case "rightArm":
      b.rightArm = value;
      return;
    case "torso":
      b.torso = value;
      return;
    case "leftLeg":
      b.leftLeg = value;
      return;
    case "rightLeg":
      b.rightLeg = value;
      return;
    case "groin":
      b.groin = value;
      return;
  }
}

/** `a[id]`, one ability of a record of them, read by name ({@link boxOf} says why). */
export function abilityOf(a: Readonly<Record<AbilityId, number>>, id: AbilityId): number {
  switch (id) {
    case "strength":
      return a.strength;
    case "dexterity":
      return a.dexterity;
    case "fortitude":
      return a.fortitude;
  }
}

/** `s[id]`, one skill of a record of them, read by name ({@link boxOf} says why). */
export function skillOf(s: Readonly<Record<SkillId, number>>, id: SkillId): number {
  switch (id) {
    case "firearms":
      return s.firearms;
    case "melee":
      return s.melee;
    case "throwing":
      return s.throwing;
    case "archery":
      return s.archery;
    case "dodge":
      return s.dodge;
    case "parry":
      return s.parry;
    case "blackout":
      return s.blackout;
  }
}

/**
 * `b[h]`, the value of one hitbox of a record of them, read by name: V8 reads a field by name from
 * what it has seen there, while `b[h]` with `h` taking several names goes through a lookup of the
 * field each time (counted with callgrind, such reads were the largest of the costs a Hitbox fight
 * pays in V8's builtins).
 */
export function boxOf<T>(b: Readonly<Record<HitboxId, T>>, h: HitboxId): T {
  switch (h) {
    case "head":
      return b.head;
    case "leftArm":
      return b.leftArm;
    case "rightArm":
      return b.rightArm;
    case "torso":
      return b.torso;
    case "leftLeg":
      return b.leftLeg;
    case "rightLeg":
      return b.rightLeg;
    default:
      return b.groin;
  }
}
