import { fieldError, int, isRecord, list, num, oneOf, parseIdentity, str } from "../core/parse.js";
import { combatantData, type ActorSource, type ItemSource } from "../core/sources.js";
import type { LastingEffect, Track, VitalState } from "../core/types.js";

/** Critical types and their letters (CR-CRT-01): Fire/Burn, Impact, Krush, Puncture, Slash, Unbalance. */
export const CRIT_TYPES = ["F", "I", "K", "P", "S", "U"] as const;
export type CritType = (typeof CRIT_TYPES)[number];

/** Severities of a critical, A the least and E the most severe (CR-ATK-02). */
export const SEVERITIES = ["A", "B", "C", "D", "E"] as const;
export type Severity = (typeof SEVERITIES)[number];

/**
 * Armor types the attack tables have a column for (CR-ATK-02), lightest first. When several
 * armor pieces are worn, the heaviest type counts (RULES.md).
 */
export const ARMOR_TYPES = ["none", "soft", "rigid", "mesh", "ballistic", "plate"] as const;
export type ArmorType = (typeof ARMOR_TYPES)[number];

/** Weapon categories; they set the parry exchange rate (CR-PAR-02). */
export const WEAPON_CATEGORIES = ["melee", "missile", "energy"] as const;
export type WeaponCategory = (typeof WEAPON_CATEGORIES)[number];

/** Points of OB that make one point of DB when parrying each category (CR-PAR-02). */
export const PARRY_RATES: Record<WeaponCategory, number> = { melee: 1, missile: 2, energy: 4 };

/** Where a critical lands (content locations of the critical tables). */
export const LOCATIONS = ["general", "head", "face", "neck", "chest", "abdomen", "back", "weaponArm", "offArm", "leg"] as const;
export type Location = (typeof LOCATIONS)[number];

/** Locations a tourniquet can be put on (CR-BLD-02, RULES.md). */
export const LIMBS: readonly Location[] = ["weaponArm", "offArm", "leg"];

/** What an injury can stop (CR-CRT-02): attacking, parrying, moving. */
export const STOPS = ["attack", "parry", "move"] as const;
export type Stop = (typeof STOPS)[number];

/** Conditions that take a combatant out of the fight (RULES.md). */
export const OUT_CONDITIONS = ["unconscious", "blackout", "down", "dead"] as const;

/** OB of a skill the combatant does not have (RULES.md). */
export const UNTRAINED_OB = -25;

/** A Critical weapon (CR-ATK-01, CR-ATK-03). */
export interface CriticalWeapon {
  id: string;
  name: string;
  /** The attack table it uses, e.g. `sword` for `critical.attack.sword` (CR-ATK-03). */
  weaponClass: string;
  /** Melee, missile or energy: the parry exchange rate against it (CR-PAR-02). */
  category: WeaponCategory;
  /** The skill whose OB it attacks with, e.g. `blades`. */
  skill: string;
  /** The weapon's own bonus to OB (quality, handling). */
  bonus: number;
  /** Unmodified rolls up to this are fumbles; `undefined` uses the attack table's range (RULES.md). */
  fumble?: number;
}

/** A Critical armor piece: its armor type (absent for a shield) and DB bonus. */
export interface CriticalArmor {
  id: string;
  name: string;
  /** The attack-table column it puts its wearer in; absent when it only adds DB (a shield). */
  armorType?: ArmorType;
  /** Added to the wearer's DB. */
  defense: number;
  /** Added to maneuvers (0 or negative). */
  maneuverPenalty: number;
}

/** A Critical combatant as the rules core sees it: stats, equipment and state. */
export interface CriticalCombatant {
  id: string;
  name: string;
  kind: "character" | "npc";
  /** Side or initiative group (CR-INI-01). */
  group: string;
  /** Quickness bonus, added to initiative (CR-INI-01). */
  quickness: number;
  /** Self Discipline bonus for the test at 0 hits or below (CR-HIT-02). */
  selfDiscipline: number;
  /** Physique: ranks (the blackout threshold, CR-STN-03) and total skill (the hits, CR-HIT-01). */
  physique: { ranks: number; total: number };
  /** Base DB (Quickness, training) before armor and shield. */
  defense: number;
  /** Base Move in metres per round (CR-MOV-01). */
  baseMove: number;
  /** Bonus added to maneuvers (CR-MAN-01). */
  maneuver: number;
  /** OB by skill id (`blades`, `pistols` ...). */
  skills: Record<string, number>;
  weapons: CriticalWeapon[];
  /** Armor worn. */
  armor: CriticalArmor[];
  /** Hits: max = total Physique (CR-HIT-01); the value can drop below 0. */
  hits: Track;
  /** Stun rounds still to run (CR-STN-02). */
  stun: number;
  /** Bleeding and burning wounds, penalties, injuries, knock-outs, dying (CR-CRT-02). */
  effects: LastingEffect[];
  /** `unconscious`, `blackout`, `down`, `dead`, `constrained` ... */
  conditions: string[];
  /** OB moved into DB this round, by foe id (CR-PAR-01). */
  parry: Record<string, number>;
}

export { fieldError, isRecord, num } from "../core/parse.js";

/** The parts of an Item source the Critical core reads. */
export type CriticalItemSource = ItemSource;
/** The parts of an Actor source the Critical core reads. */
export type CriticalActorSource = ActorSource;

/**
 * Reads a weapon from item-like data (`system` plus name and id): `weaponClass`, `category`,
 * `skill`, `bonus`, `fumble`.
 * @throws FrayError `FRAY.Error.Field` naming the field (e.g. `Arming Sword.category`).
 */
export function parseWeapon(raw: unknown, path = "weapon"): CriticalWeapon {
  if (!isRecord(raw)) throw fieldError(path, "an object");
  const fumble = raw.fumble === undefined || raw.fumble === null ? undefined : int(raw, "fumble", path, undefined, 0);
  if (fumble !== undefined && fumble > 95) throw fieldError(`${path}.fumble`, "a whole number from 0 to 95");
  return {
    id: str(raw, "id", path, str(raw, "name", path, "weapon")),
    name: str(raw, "name", path, "weapon"),
    weaponClass: str(raw, "weaponClass", path),
    category: oneOf(raw, "category", path, WEAPON_CATEGORIES),
    skill: str(raw, "skill", path),
    bonus: int(raw, "bonus", path, 0),
    fumble,
  };
}

/**
 * Reads an armor piece from item-like data: `armorType` (optional), `defense`, `maneuverPenalty`.
 * @throws FrayError `FRAY.Error.Field` naming the field.
 */
export function parseArmor(raw: unknown, path = "armor"): CriticalArmor {
  if (!isRecord(raw)) throw fieldError(path, "an object");
  const armorType =
    raw.armorType === undefined || raw.armorType === null || raw.armorType === "" ? undefined : oneOf(raw, "armorType", path, ARMOR_TYPES);
  const maneuverPenalty = int(raw, "maneuverPenalty", path, 0);
  if (maneuverPenalty > 0) throw fieldError(`${path}.maneuverPenalty`, "0 or a negative number");
  return {
    id: str(raw, "id", path, str(raw, "name", path, "armor")),
    name: str(raw, "name", path, "armor"),
    armorType,
    defense: int(raw, "defense", path, 0),
    maneuverPenalty,
  };
}

/**
 * Reads a stored lasting effect (an actor's `system.effects` entry).
 * @throws FrayError `FRAY.Error.Field` naming the field.
 */
export function parseLastingEffect(raw: unknown, path: string): LastingEffect {
  if (!isRecord(raw)) throw fieldError(path, "an object");
  const texts = (key: string): string[] | undefined => {
    const v = raw[key];
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) throw fieldError(`${path}.${key}`, "a list of texts");
    return v as string[];
  };
  const effect: LastingEffect = {
    id: str(raw, "id", path),
    kind: str(raw, "kind", path),
    rule: str(raw, "rule", path, "CR-CRT-02") as LastingEffect["rule"],
    label: str(raw, "label", path, ""),
  };
  if (raw.value !== undefined && raw.value !== null) effect.value = num(raw, "value", path);
  if (raw.rounds !== undefined && raw.rounds !== null) effect.rounds = int(raw, "rounds", path, undefined, 0);
  if (raw.location !== undefined && raw.location !== null) effect.location = str(raw, "location", path);
  const stops = texts("stops");
  if (stops) effect.stops = stops;
  const treated = texts("treated");
  if (treated) effect.treated = treated;
  return effect;
}

/**
 * Reads a combatant from actor-like data: `quickness`, `selfDiscipline`, `physique { ranks,
 * total }`, `defense`, `baseMove`, `maneuver`, `skills`, `hits`, `stun`, `effects`, `weapons`,
 * `armor`, `conditions`. Max hits are the total Physique (CR-HIT-01); current hits default to it.
 * @throws FrayError `FRAY.Error.Field` naming the first unusable field (an actor without Physique).
 */
export function parseCombatant(raw: unknown, path = "combatant"): CriticalCombatant {
  if (!isRecord(raw)) throw fieldError(path, "an object");
  const phys = raw.physique;
  if (!isRecord(phys)) throw fieldError(`${path}.physique`, "{ ranks, total }");
  const physique = {
    ranks: int(phys, "ranks", `${path}.physique`, undefined, 0),
    total: int(phys, "total", `${path}.physique`, undefined, 1),
  };
  const skillsRaw = raw.skills ?? {};
  if (!isRecord(skillsRaw)) throw fieldError(`${path}.skills`, "a mapping of skill ids to OB");
  const skills: Record<string, number> = {};
  for (const k of Object.keys(skillsRaw)) skills[k] = int(skillsRaw, k, `${path}.skills`);
  const hitsRaw = raw.hits;
  let value = physique.total;
  if (typeof hitsRaw === "number") value = hitsRaw;
  else if (isRecord(hitsRaw)) value = int(hitsRaw, "value", `${path}.hits`, physique.total);
  else if (hitsRaw !== undefined && hitsRaw !== null) throw fieldError(`${path}.hits`, "{ value, max } or a number");
  const parryRaw = raw.parry ?? {};
  if (!isRecord(parryRaw)) throw fieldError(`${path}.parry`, "a mapping of foe ids to OB");
  const parry: Record<string, number> = {};
  for (const k of Object.keys(parryRaw)) parry[k] = int(parryRaw, k, `${path}.parry`, undefined, 0);
  const identity = parseIdentity(raw, path);
  // The identity field by field, not spread (see parseIdentity).
  return {
    id: identity.id,
    name: identity.name,
    kind: identity.kind,
    group: identity.group,
    quickness: int(raw, "quickness", path, 0),
    selfDiscipline: int(raw, "selfDiscipline", path, 0),
    physique,
    defense: int(raw, "defense", path, 0),
    baseMove: num(raw, "baseMove", path, 10),
    maneuver: int(raw, "maneuver", path, 0),
    skills,
    weapons: list(raw, "weapons", path).map((w, i) => parseWeapon(w, `${path}.weapons[${i}]`)),
    armor: list(raw, "armor", path).map((a, i) => parseArmor(a, `${path}.armor[${i}]`)),
    hits: { value: Math.min(value, physique.total), max: physique.total },
    stun: int(raw, "stun", path, 0, 0),
    effects: list(raw, "effects", path).map((e, i) => parseLastingEffect(e, `${path}.effects[${i}]`)),
    conditions: list(raw, "conditions", path).map(String),
    parry,
  };
}

/**
 * A Critical combatant from a `character` or `npc` Actor source (an actor's `toObject()` or a
 * compendium source) with its embedded items: `weapon` items become its weapons, equipped
 * `armor` items (`system.equipped` not false) its armor. Items of another ruleset
 * (`system.ruleset` set and not `critical`) are left out.
 * @throws FrayError `FRAY.Error.Field` naming the first unusable field, prefixed with the actor
 *   or item name.
 */
export function criticalCombatantFromActor(
  actor: CriticalActorSource,
  overrides: Partial<{ id: string; group: string }> = {},
): CriticalCombatant {
  return parseCombatant(combatantData(actor, "critical", overrides), actor.name);
}

/** The armor type a combatant fights in: the heaviest type worn, `none` without armor (RULES.md). */
export function armorTypeOf(c: CriticalCombatant): ArmorType {
  const armor = c.armor;
  if (armor.length === 0) return "none";
  let best = 0;
  for (const a of armor) if (a.armorType) best = Math.max(best, ARMOR_TYPES.indexOf(a.armorType));
  return ARMOR_TYPES[best]!;
}

/** True when the combatant has the condition. */
export function has(c: Pick<CriticalCombatant, "conditions">, condition: string): boolean {
  return c.conditions.includes(condition);
}

/** True when the combatant is out of the fight: unconscious, blacked out, down (dying) or dead. */
export function isIncapacitated(c: Pick<CriticalCombatant, "conditions">): boolean {
  // A loop over the (few) conditions held: asked on every attack, parry and AP count.
  const conditions = c.conditions;
  for (let i = 0; i < conditions.length; i++) if ((OUT_CONDITIONS as readonly string[]).includes(conditions[i]!)) return true;
  return false;
}

/** Injuries and effects that stop an activity (CR-CRT-02): the first one found, if any. */
export function stoppedBy(c: CriticalCombatant, what: Stop): LastingEffect | undefined {
  // A plain loop, no closure: asked before every attack and parry (canAttack, parryBlocked).
  const effects = c.effects;
  for (let i = 0; i < effects.length; i++) {
    const e = effects[i]!;
    if (e.kind === "injury" && e.stops?.includes(what)) return e;
  }
  return undefined;
}

/** The vital state of a combatant: hits, bleeding and burning per round, stun, conditions, effects. */
export function vitals(c: CriticalCombatant): VitalState {
  // One pass over the effects: the bleeding summed and each effect copied (its lists too).
  let bleeding = 0;
  const effects: LastingEffect[] = [];
  for (const e of c.effects) {
    if (e.kind === "bleed" || e.kind === "burn") bleeding += e.value ?? 0;
    const copy = { ...e };
    if (e.stops) copy.stops = [...e.stops];
    if (e.treated) copy.treated = [...e.treated];
    effects.push(copy);
  }
  return { hp: { ...c.hits }, bleeding, stun: c.stun, conditions: [...c.conditions], effects };
}

/** The combatant with a vital state put back (after damage or upkeep). */
export function withVitals(c: CriticalCombatant, v: VitalState): CriticalCombatant {
  return restate(c, v.hp ? { ...v.hp } : c.hits, v.stun ?? 0, [...v.conditions], v.effects ? [...v.effects] : [], c.parry);
}

/** How many fields a {@link CriticalCombatant} has, as {@link parseCombatant} builds it. */
const COMBATANT_FIELDS = 18;

/**
 * The combatant with its state replaced: `{ ...c, hits, stun, conditions, effects, parry }`.
 * A combatant with the fields {@link parseCombatant} gives it (all of them, nothing else) is
 * copied field by field, in their order: V8 spreads an object far slower at any place that met
 * objects of many shapes or a frozen one, and every state of a fight is built from the last one
 * (CR-AP-02). Any other combatant is spread, so that no field it carries is lost.
 */
export function restate(
  c: CriticalCombatant,
  hits: Track,
  stun: number,
  conditions: string[],
  effects: LastingEffect[],
  parry: Record<string, number>,
): CriticalCombatant {
  // Its own enumerable keys counted by Object.keys (V8 answers from the shape's key cache), not
  // by a for-in loop: the same count, several times cheaper.
  if (Object.keys(c).length !== COMBATANT_FIELDS || !Object.hasOwn(c, "parry")) return { ...c, hits, stun, effects, conditions, parry };
  return {
    id: c.id,
    name: c.name,
    kind: c.kind,
    group: c.group,
    quickness: c.quickness,
    selfDiscipline: c.selfDiscipline,
    physique: c.physique,
    defense: c.defense,
    baseMove: c.baseMove,
    maneuver: c.maneuver,
    skills: c.skills,
    weapons: c.weapons,
    armor: c.armor,
    hits,
    stun,
    effects,
    conditions,
    parry,
  };
}
