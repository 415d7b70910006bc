import { compileFormula, FORMULA_CACHE_SIZE } from "../core/dice/formula.js";
import { FrayError } from "../core/errors.js";
import { fieldError, isRecord, list as readList, num, oneOf, str, track as readTrack } from "../core/parse.js";
import { combatantData, itemData, type ActorSource, type ItemSource } from "../core/sources.js";
import type { Track } from "../core/types.js";

/** Body zone ids of the UD10 body-zone table (UD-ZON-01). */
export const ZONES = ["head", "leftArm", "rightArm", "torso", "leftLeg", "rightLeg"] as const;
export type ZoneId = (typeof ZONES)[number];

/** Attribute ids UD10 combat reads. */
export const ATTRIBUTES = ["STR", "DEX", "CON"] as const;
export type AttributeId = (typeof ATTRIBUTES)[number];

/** Skill ids UD10 combat reads (UD-INI-01, UD-ATK-01, UD-REA-02, UD-REA-04). */
export const SKILLS = ["initiative", "melee", "ranged", "parry", "dodge"] as const;
export type SkillId = (typeof SKILLS)[number];

/** The attribute an untrained check of each skill rolls against (UD-REA-02, generalized in RULES.md). */
export const SKILL_ATTRIBUTE: Record<SkillId, AttributeId> = {
  initiative: "DEX",
  melee: "DEX",
  ranged: "DEX",
  parry: "DEX",
  dodge: "DEX",
};

/** A skill: its rating and whether the character is trained in it. */
export interface Skill {
  rating: number;
  trained: boolean;
}

/** A firing mode of a ranged weapon with its own damage code (UD-RNG-02). */
export interface FiringMode {
  id: string;
  /** Display name (content text, localized by the content itself). */
  label: string;
  /** Damage code, `fixed + N d10`, e.g. `4+2d10`. */
  damage: string;
  /** Added to the weapon's attack modifier in this mode. */
  attackModifier: number;
  /** Rounds of ammunition the mode uses. */
  shots: number;
}

/** A UD10 weapon (UD-ATK-01, UD-RNG-01, UD-RNG-02, UD-DMG-01, UD-DMG-05). */
export interface Ud10Weapon {
  id: string;
  name: string;
  /** `melee` uses the melee skill, `ranged` (and thrown) Ranged Combat. */
  kind: "melee" | "ranged";
  /** Attack modifier, AM. */
  attackModifier: number;
  /** Damage code of the standard mode, e.g. `2+1d10`. */
  damage: string;
  /** Penetration score (optional rule UD-DMG-05). */
  penetration: number;
  /** Range increment in metres; 0 for melee weapons. */
  rangeIncrement: number;
  /** Alternative firing modes (UD-RNG-02); the weapon's own damage is the standard mode. */
  modes: FiringMode[];
  /** The weapon can be used to parry (UD-REA-02). */
  canParry: boolean;
  /** A shield: +2 to the bearer's defense when carried (UD-DEF-01). */
  shield: boolean;
}

/** Armor rating and buffer of one body zone. */
export interface ZoneArmor {
  rating: number;
  buffer: number;
}

/** A UD10 armor piece: rating and buffer per body zone (UD-DMG-02, UD-DMG-03). */
export interface Ud10Armor {
  id: string;
  name: string;
  zones: Record<ZoneId, ZoneArmor>;
}

/** Stature: large -1, small +1 to the defense rating (UD-DEF-01). */
export type Size = "small" | "normal" | "large";

/** A UD10 combatant as the rules core sees it. */
export interface Ud10Combatant {
  id: string;
  name: string;
  /** `npc` or `character`; NPCs may share initiative (UD-INI-02). */
  kind: "character" | "npc";
  /** Side or group name (players, guards ...). */
  group: string;
  attributes: Record<AttributeId, number>;
  skills: Record<SkillId, Skill>;
  hp: Track;
  ep: Track;
  size: Size;
  weapons: Ud10Weapon[];
  /** Armor worn. */
  armor: Ud10Armor[];
  /** Status conditions (`prone`, `immobilized`, `surprised`, `unconscious` ...). */
  conditions: string[];
}

/** Damage codes: `fixed + N d10` in any order, e.g. `3+2d10`, `2d10+3`, `1d10`, `4`. */
const DAMAGE_CODE = /^\s*(?:(\d+)\s*\+\s*)?(\d*)\s*[dDwW]\s*10\s*(?:\+\s*(\d+))?\s*$/;

/**
 * Parses a UD10 damage code into its fixed points and number of d10 (UD-DMG-01).
 * Accepts `3+2d10`, `2d10+3`, `2d10`, `d10`, `5`, and the German `2W10+3`.
 * @throws FrayError `FRAY.Error.DamageCode` naming the code when it is malformed.
 */
export function parseDamageCode(code: string): { fixed: number; dice: number } {
  const bad = () => new FrayError("FRAY.Error.DamageCode", { code }, `Malformed damage code "${code}"`);
  if (/^\s*\d+\s*$/.test(code)) return { fixed: Number(code), dice: 0 };
  const m = DAMAGE_CODE.exec(code);
  if (!m || (m[1] !== undefined && m[3] !== undefined)) throw bad();
  const dice = m[2] === "" || m[2] === undefined ? 1 : Number(m[2]);
  if (dice < 1 || dice > 20) throw bad();
  return { fixed: Number(m[1] ?? m[3] ?? 0), dice };
}

/**
 * The dice formula of a damage code: `N d10` exploding on 10, plus the fixed points (UD-DMG-01).
 * The formula is checked against the dice port's limits (RULES.md, Input limits), so a code
 * whose fixed points are absurd is refused when the weapon is read, not when it is rolled.
 * @throws FrayError `FRAY.Error.DamageCode` for a malformed code, `FRAY.Error.Dice.*` beyond the limits.
 */
export function damageFormula(code: string): string {
  const known = damageFormulas.get(code);
  if (known !== undefined) return known;
  const { fixed, dice } = parseDamageCode(code);
  const formula = dice === 0 ? String(fixed) : fixed ? `${dice}d10x10 + ${fixed}` : `${dice}d10x10`;
  compileFormula(formula);
  if (damageFormulas.size >= FORMULA_CACHE_SIZE) damageFormulas.delete(damageFormulas.keys().next().value!);
  damageFormulas.set(code, formula);
  return formula;
}

/** Damage codes already read, with their formulas: a weapon's code is parsed once. */
const damageFormulas = new Map<string, string>();

/**
 * Reads a weapon from item-like data (an Item's `system` plus name and id).
 * @throws FrayError naming the field when the data cannot be used.
 */
export function parseWeapon(raw: unknown, path = "weapon"): Ud10Weapon {
  if (!isRecord(raw)) throw fieldError(path, "an object");
  const kind = str(raw, "kind", path, "melee");
  if (kind !== "melee" && kind !== "ranged") throw fieldError(`${path}.kind`, "melee or ranged");
  const damage = str(raw, "damage", path);
  damageFormula(damage);
  const modesRaw = raw.modes ?? [];
  if (!Array.isArray(modesRaw)) throw fieldError(`${path}.modes`, "a list");
  const modes = modesRaw.map((m: unknown, i): FiringMode => {
    const p = `${path}.modes[${i}]`;
    if (!isRecord(m)) throw fieldError(p, "an object");
    const dmg = str(m, "damage", p);
    damageFormula(dmg);
    return {
      id: str(m, "id", p, `mode${i}`),
      label: str(m, "label", p, str(m, "id", p, `mode${i}`)),
      damage: dmg,
      attackModifier: num(m, "attackModifier", p, 0),
      shots: num(m, "shots", p, 1),
    };
  });
  const rangeIncrement = num(raw, "rangeIncrement", path, 0);
  if (kind === "ranged" && rangeIncrement <= 0) throw fieldError(`${path}.rangeIncrement`, "a positive number of metres");
  return {
    id: str(raw, "id", path, str(raw, "name", path, "weapon")),
    name: str(raw, "name", path, "weapon"),
    kind,
    attackModifier: num(raw, "attackModifier", path, 0),
    damage,
    penetration: num(raw, "penetration", path, 0),
    rangeIncrement,
    modes,
    canParry: raw.canParry === undefined ? kind === "melee" : Boolean(raw.canParry),
    shield: Boolean(raw.shield),
  };
}

/**
 * Reads an armor piece; zones missing from the data are unprotected (rating 0, buffer 0).
 * @throws FrayError naming the field when a rating is not a number.
 */
export function parseArmor(raw: unknown, path = "armor"): Ud10Armor {
  if (!isRecord(raw)) throw fieldError(path, "an object");
  const zonesRaw = raw.zones ?? {};
  if (!isRecord(zonesRaw)) throw fieldError(`${path}.zones`, "an object");
  const zones = {} as Record<ZoneId, ZoneArmor>;
  for (const z of ZONES) {
    const zr = zonesRaw[z] ?? {};
    if (!isRecord(zr)) throw fieldError(`${path}.zones.${z}`, "an object");
    zones[z] = { rating: num(zr, "rating", `${path}.zones.${z}`, 0), buffer: num(zr, "buffer", `${path}.zones.${z}`, 0) };
  }
  return { id: str(raw, "id", path, str(raw, "name", path, "armor")), name: str(raw, "name", path, "armor"), zones };
}

/**
 * Reads a combatant from actor-like data: `attributes`, `skills`, `hp`, `ep`, `size`,
 * `weapons`, `armor`, `conditions`. Missing skills are untrained with rating 0.
 * @throws FrayError `FRAY.Error.Field` naming the first unusable field (an actor without stats).
 */
export function parseCombatant(raw: unknown, path = "combatant"): Ud10Combatant {
  if (!isRecord(raw)) throw fieldError(path, "an object");
  const attrs = raw.attributes;
  if (!isRecord(attrs)) throw fieldError(`${path}.attributes`, "STR, DEX and CON");
  const attributes = {} as Record<AttributeId, number>;
  for (const a of ATTRIBUTES) attributes[a] = num(attrs, a, `${path}.attributes`);
  const skillsRaw = raw.skills ?? {};
  if (!isRecord(skillsRaw)) throw fieldError(`${path}.skills`, "an object");
  const skills = {} as Record<SkillId, Skill>;
  for (const s of SKILLS) {
    const v = skillsRaw[s];
    if (v === undefined || v === null) skills[s] = { rating: 0, trained: false };
    else if (typeof v === "number") skills[s] = { rating: v, trained: true };
    else if (isRecord(v)) {
      const rating = num(v, "rating", `${path}.skills.${s}`, 0);
      skills[s] = { rating, trained: v.trained === undefined ? rating > 0 : Boolean(v.trained) };
    } else throw fieldError(`${path}.skills.${s}`, "a rating or { rating, trained }");
  }
  const track = (key: string): Track => readTrack(raw, key, path);
  const size = oneOf(raw, "size", path, ["small", "normal", "large"] as const, "normal");
  const list = (key: string): unknown[] => readList(raw, key, path);
  const kind = str(raw, "kind", path, "character");
  return {
    id: str(raw, "id", path, str(raw, "name", path, "combatant")),
    name: str(raw, "name", path, "combatant"),
    kind: kind === "npc" ? "npc" : "character",
    group: str(raw, "group", path, kind === "npc" ? "npc" : "players"),
    attributes,
    skills,
    hp: track("hp"),
    ep: track("ep"),
    size,
    weapons: list("weapons").map((w, i) => parseWeapon(w, `${path}.weapons[${i}]`)),
    armor: list("armor").map((a, i) => parseArmor(a, `${path}.armor[${i}]`)),
    conditions: list("conditions").map(String),
  };
}

/** How many fields a {@link Ud10Combatant} has, as {@link parseCombatant} builds it. */
const COMBATANT_FIELDS = 12;

/**
 * A shallow copy of `c`, for a new state to be set on (its nested parts shared). A combatant with
 * the fields {@link parseCombatant} gives it (as many, `size` among them) is copied field by field
 * in their order, as one literal: every state so built has one shape, which keeps the rules' reads
 * of combatants monomorphic (a spread's copy, or a frozen starting combatant, takes a shape of its
 * own), and it is several times faster than copying fields by name at run time. Any other is
 * copied with `Object.assign` (the same own fields in the same order).
 */
export function copyCombatant(c: Ud10Combatant): Ud10Combatant {
  if (Object.keys(c).length !== COMBATANT_FIELDS || !Object.hasOwn(c, "size")) return Object.assign({}, c);
  return {
    id: c.id,
    name: c.name,
    kind: c.kind,
    group: c.group,
    attributes: c.attributes,
    skills: c.skills,
    hp: c.hp,
    ep: c.ep,
    size: c.size,
    weapons: c.weapons,
    armor: c.armor,
    conditions: c.conditions,
  };
}

/**
 * A UD10 weapon from a `weapon` Item source.
 * @throws FrayError naming the field when the item cannot be used.
 */
export function ud10WeaponFromItem(item: ItemSource): Ud10Weapon {
  return parseWeapon(itemData(item), item.name);
}

/**
 * A UD10 armor piece from an `armor` Item source. Only equipped armor protects; use
 * {@link ud10CombatantFromActor} to collect what an actor wears.
 * @throws FrayError naming the field when the item cannot be used.
 */
export function ud10ArmorFromItem(item: ItemSource): Ud10Armor {
  return parseArmor(itemData(item), item.name);
}

/**
 * A UD10 combatant from a `character` or `npc` Actor source with its embedded items: weapons
 * become its weapons, equipped armor (`system.equipped` not false) its armor; items of another
 * ruleset are left out.
 * @throws FrayError `FRAY.Error.Field` naming the first unusable field (an actor without stats),
 *   `FRAY.Error.WrongRuleset` for an actor of another ruleset.
 */
export function ud10CombatantFromActor(actor: ActorSource, overrides: Partial<{ id: string; group: string }> = {}): Ud10Combatant {
  return parseCombatant(combatantData(actor, "ud10", overrides), actor.name);
}
