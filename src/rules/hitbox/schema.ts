/**
 * Schemas of Hitbox's public inputs (seed 002): the combatant, weapon and armor shapes the core
 * plays with, the situation, the options and the attack input, bounded by the `hitbox` row of
 * `RULESET_BOUNDS`. Distances are in feet, as in the seed.
 */
import * as v from "valibot";
import { RULESET_BOUNDS } from "../core/bounds.js";
import {
  bounded,
  check,
  checkResultSchema,
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
import type { HitboxAttackInput, HitboxSituation } from "./input.js";
import { ABILITIES, HITBOXES, SKILLS, type HitboxArmor, type HitboxCombatant, type HitboxWeapon } from "./model.js";
import { HITBOX_OPTIONS } from "./options.js";

const B = RULESET_BOUNDS.hitbox;
const byKeys = <K extends string, S extends v.GenericSchema>(keys: readonly K[], schema: S) =>
  strict(Object.fromEntries(keys.map((k) => [k, schema])) as Record<K, S>);

/** A Hitbox weapon as the core plays it (HB-ATK-02, HB-DMG-02, HB-MOD-01, HB-MOD-03). */
export const weaponSchema = strict({
  id: text(),
  name: text(),
  kind: choice(["melee", "ranged", "thrown"] as const),
  ability: choice(ABILITIES),
  skill: choice(SKILLS),
  damage: bounded(B.damage),
  closeBonus: opt(strict({ withinFeet: bounded(B.weaponRangeFeet), points: bounded(B.closeBonus) })),
  hands: v.pipe(
    bounded(B.hands),
    v.transform((n) => n as 1 | 2),
  ),
  maxShots: bounded(B.shots),
  rangeFeet: bounded(B.weaponRangeFeet),
  canParry: flag(),
});

/** A Hitbox armor piece: armor points and points used up per hitbox (HB-DMG-01). */
export const armorSchema = strict({
  id: text(),
  name: text(),
  protection: byKeys(HITBOXES, bounded(B.armor)),
  damage: byKeys(HITBOXES, bounded(B.armor)),
});

/** A Hitbox combatant as the core plays it. */
export const combatantSchema = strict({
  id: text(),
  name: text(),
  kind: choice(["character", "npc"] as const),
  group: text(),
  abilities: byKeys(ABILITIES, bounded(B.ability)),
  skills: byKeys(SKILLS, bounded(B.skill)),
  hitboxes: byKeys(HITBOXES, track(B.hitbox, B.hitboxValue)),
  armor: list(armorSchema),
  weapons: list(weaponSchema),
  mainHand: choice(["left", "right"] as const),
  held: list(text()),
  conditions: list(text()),
  /** Turns left in shock (HB-DMG-04, HB-RND-02); absent while no count runs. */
  shockTurnsLeft: opt(bounded(B.shockTurns)),
});

/** Circumstances of a Hitbox attack (HB-MOD-01 to HB-MOD-03, HB-ATK-03, HB-ATK-05). */
export const situationSchema = strict({
  halfHidden: opt(flag()),
  dark: opt(flag()),
  targetProne: opt(flag()),
  targetNearCover: opt(flag()),
  targetWentProne: opt(flag()),
  targetUnaware: opt(flag()),
  targetThreatened: opt(flag()),
  misc: opt(bounded(B.modifier)),
});

/** Everything a Hitbox attack needs (`HitboxAttackInput`), distances in feet. */
export const attackInputSchema = strict({
  attacker: combatantSchema,
  target: combatantSchema,
  weaponId: safeName(),
  rangeFeet: opt(bounded(B.rangeFeet)),
  calledShot: opt(choice(HITBOXES.filter((h) => h !== "torso") as Exclude<(typeof HITBOXES)[number], "torso">[])),
  shots: opt(bounded(B.shots)),
  situation: opt(situationSchema),
  reaction: opt(choice(["dodge", "parry"] as const)),
  rolledReaction: opt(strict({ id: choice(["dodge", "parry"] as const), check: checkResultSchema, dropsProne: flag() })),
});

/** Hitbox's option values (HITBOX_OPTIONS). */
export const optionsValuesSchema = optionsSchema(HITBOX_OPTIONS, "hitbox");

const shapes: [
  Is<v.InferOutput<typeof weaponSchema>, HitboxWeapon>,
  Is<v.InferOutput<typeof armorSchema>, HitboxArmor>,
  Is<v.InferOutput<typeof combatantSchema>, HitboxCombatant>,
  Is<v.InferOutput<typeof situationSchema>, HitboxSituation>,
  Fits<v.InferOutput<typeof attackInputSchema>, HitboxAttackInput>,
] = [true, true, true, true, true];
void shapes;

/**
 * Checks a Hitbox combatant given to the core.
 * @throws FrayError naming the field (`combatant.hitboxes.head.value`) and what it should hold.
 */
export function validateHitboxCombatant(raw: unknown, root = "combatant"): HitboxCombatant {
  return check(combatantSchema, raw, root);
}

/**
 * Checks a Hitbox attack input: both combatants, the weapon id, the range in feet, a called shot
 * (any hitbox but the torso, HB-ATK-01), the shots of the turn, the situation, the reaction.
 * @throws FrayError naming the field (`rangeFeet`, `situation.misc`) and what it should hold.
 */
export function validateHitboxAttackInput(raw: unknown, root = ""): HitboxAttackInput {
  return check(attackInputSchema, raw, root);
}

/**
 * A Hitbox actor's stored stats as an encounter file's `stats` gives them (every part optional):
 * abilities, skills, hitboxes (a number or `{ value, max }`), main hand, held items.
 */
export const statsSchema = strict({
  ...commonStatsEntries,
  abilities: opt(some(ABILITIES, bounded(B.ability))),
  skills: opt(some(SKILLS, bounded(B.skill))),
  hitboxes: opt(some(HITBOXES, storedTrack(B.hitbox, B.hitboxValue))),
  mainHand: opt(choice(["left", "right"] as const)),
  held: opt(list(text())),
});
