/**
 * Schemas of Zones' public inputs (seed 004): the combatant, weapon and armor shapes the core
 * plays with, the situation, the options and the attack input, bounded by the `zones` row of
 * `RULESET_BOUNDS`. Distances are metres throughout.
 */
import * as v from "valibot";
import { COMMON_BOUNDS, RULESET_BOUNDS } from "../core/bounds.js";
import {
  bounded,
  check,
  choice,
  commonStatsEntries,
  flag,
  list,
  opt,
  optionsSchema,
  safeName,
  some,
  storedTrack,
  strict,
  text,
  track,
  type Fits,
  type Is,
} from "../core/validate.js";
import type { ZonesAttackInput, ZonesSituation } from "./input.js";
import {
  ARMOR_ZONES,
  ATTRIBUTES,
  CARRY,
  DAMAGE_TYPES,
  HIT_ZONES,
  MALFUNCTIONS,
  MOVEMENTS,
  SIZES,
  SKILLS,
  STANCES,
  WEAPON_KINDS,
  type ZonesArmor,
  type ZonesCombatant,
  type ZonesWeapon,
} from "./model.js";
import { ZONES_OPTIONS } from "./options.js";

const B = RULESET_BOUNDS.zones;
const ENVIRONMENTS = ["lowLight", "darkness", "strongWind", "impairedVision"] as const;
const byKeys = <K extends string, S extends v.GenericSchema>(keys: readonly K[], schema: S) =>
  strict(Object.fromEntries(keys.map((k) => [k, schema])) as Record<K, S>);

/** A Zones weapon as the core plays it (ZN-RNG-02, ZN-BST-01, ZN-REL-01, ZN-DRW-01, ZN-MAL-01, ZN-GRN-01). */
export const weaponSchema = strict({
  id: text(),
  name: text(),
  kind: choice(WEAPON_KINDS),
  effectiveRange: bounded(B.effectiveRange),
  damage: text(),
  damageTypes: list(choice(DAMAGE_TYPES), { min: 1, max: DAMAGE_TYPES.length, integer: true }),
  recoil: bounded(B.recoil),
  burst: bounded(B.burst),
  auto: flag(),
  magazine: bounded(B.magazine),
  loaded: bounded(B.magazine),
  spareMagazines: v.nullable(bounded(B.spareMagazines)),
  reloadActions: bounded(B.reloadActions),
  carry: choice(CARRY),
  drawn: flag(),
  concealable: flag(),
  malfunction: v.nullable(choice(MALFUNCTIONS)),
  broken: flag(),
  effectiveRadius: bounded(B.radius),
  casualtyRadius: bounded(B.radius),
  pending: v.nullable(
    strict({ task: choice(["reload", "draw"] as const), done: bounded(B.reloadActions), needed: bounded(B.reloadActions) }),
  ),
});

/** A Zones armor piece: damage reduction per zone (ZN-ZON-02), full body armor (ZN-GRN-01). */
export const armorSchema = strict({
  id: text(),
  name: text(),
  zones: byKeys(ARMOR_ZONES, bounded(B.armor)),
  fullBody: flag(),
});

/** A Zones combatant as the core plays it. */
export const combatantSchema = strict({
  id: text(),
  name: text(),
  kind: choice(["character", "npc"] as const),
  group: text(),
  attributes: byKeys(ATTRIBUTES, bounded(B.attribute)),
  skills: byKeys(SKILLS, bounded(B.skill)),
  hp: track(B.pool, B.poolValue),
  speed: track(B.pool, B.pool),
  effort: track(B.pool, B.pool),
  size: choice(SIZES),
  stance: choice(STANCES),
  movement: choice(MOVEMENTS),
  actions: byKeys(["action", "reaction", "free"] as const, bounded(B.actions)),
  initiativeBonus: bounded(B.initiativeBonus),
  initiativeEffort: bounded(B.pool),
  aim: bounded(B.aim),
  weapons: list(weaponSchema),
  armor: list(armorSchema),
  conditions: list(text()),
});

/** Situational factors of a Zones attack (ZN-RNG-01, ZN-RNG-04 to ZN-RNG-07, ZN-ZON-03, ZN-MEL-02, ZN-MAL-01). */
export const situationSchema = strict({
  targetSize: opt(choice(SIZES)),
  targetMovement: opt(choice(MOVEMENTS)),
  shooterMovement: opt(choice(MOVEMENTS)),
  stance: opt(choice(STANCES)),
  aim: opt(bounded(B.aim)),
  environment: opt(list(choice(ENVIRONMENTS), { min: 0, max: ENVIRONMENTS.length, integer: true })),
  environmentModifier: opt(bounded(B.modifier)),
  misc: opt(bounded(B.modifier)),
  aimedZone: opt(choice(HIT_ZONES)),
  surprise: opt(flag()),
  exposedVitals: opt(flag()),
  malfunction: opt(strict({ kind: choice(MALFUNCTIONS), afterBullets: opt(bounded(B.malfunctionAfter)) })),
});

/** Everything a Zones attack needs (`ZonesAttackInput`); a grenade may aim at an area without a target. */
export const attackInputSchema = strict({
  attacker: combatantSchema,
  target: opt(combatantSchema),
  area: opt(strict({ size: opt(choice(SIZES)), label: opt(text()) })),
  weaponId: safeName(),
  modeId: opt(choice(["single", "burst", "auto"] as const)),
  bullets: opt(bounded({ ...B.bullets, min: 2 })),
  rangeMetres: opt(bounded(COMMON_BOUNDS.rangeMetres)),
  damageType: opt(choice(DAMAGE_TYPES)),
  situation: opt(situationSchema),
  reaction: opt(choice(["dodge", "block"] as const)),
});

/** Zones' option values (ZONES_OPTIONS). */
export const optionsValuesSchema = optionsSchema(ZONES_OPTIONS, "zones");

const shapes: [
  Is<v.InferOutput<typeof weaponSchema>, ZonesWeapon>,
  Is<v.InferOutput<typeof armorSchema>, ZonesArmor>,
  Is<v.InferOutput<typeof combatantSchema>, ZonesCombatant>,
  Fits<v.InferOutput<typeof situationSchema>, ZonesSituation>,
  Fits<v.InferOutput<typeof attackInputSchema>, ZonesAttackInput>,
] = [true, true, true, true, true];
void shapes;

/**
 * Checks a Zones combatant given to the core.
 * @throws FrayError naming the field (`combatant.hp.max`) and what it should hold.
 */
export function validateZonesCombatant(raw: unknown, root = "combatant"): ZonesCombatant {
  return check(combatantSchema, raw, root);
}

/**
 * Checks a Zones attack input: the attacker, the target or a grenade's area, the weapon id, the
 * firing mode and bullets (ZN-BST-01), the range in metres, the damage type, the situation, the
 * reaction.
 * @throws FrayError naming the field (`rangeMetres`, `situation.aim`) and what it should hold.
 */
export function validateZonesAttackInput(raw: unknown, root = ""): ZonesAttackInput {
  return check(attackInputSchema, raw, root);
}

/**
 * A Zones actor's stored stats as an encounter file's `stats` gives them (every part optional):
 * attribute modifiers, skill ranks (a number or `{ ranks }`), HP, speed and effort (a number or
 * `{ value, max }`), size, stance, movement, actions, initiative, aim.
 */
export const statsSchema = strict({
  ...commonStatsEntries,
  attributes: opt(some(ATTRIBUTES, bounded(B.attribute))),
  skills: opt(some(SKILLS, v.union([bounded(B.skill), strict({ ranks: opt(bounded(B.skill)) })]))),
  hp: opt(storedTrack(B.pool, B.poolValue)),
  speed: opt(storedTrack(B.pool, B.pool)),
  effort: opt(storedTrack(B.pool, B.pool)),
  size: opt(choice(SIZES)),
  stance: opt(choice(STANCES)),
  movement: opt(choice(MOVEMENTS)),
  actions: opt(some(["action", "reaction", "free"] as const, bounded(B.actions))),
  initiativeBonus: opt(bounded(B.initiativeBonus)),
  initiativeEffort: opt(bounded(B.pool)),
  aim: opt(bounded(B.aim)),
});
