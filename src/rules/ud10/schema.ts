/**
 * Schemas of UD10's public inputs (seed 001): the combatant, weapon and armor shapes the core
 * plays with, the situation, the options and the attack input, bounded by the `ud10` row of
 * `RULESET_BOUNDS`. Used at the boundaries (macro API, documents reaching the core, encounter
 * files); the core's hot path takes the checked values.
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
  type Is,
} from "../core/validate.js";
import { ATTRIBUTES, SKILLS, ZONES, type Ud10Armor, type Ud10Combatant, type Ud10Weapon } from "./model.js";
import type { Ud10AttackInput, Ud10Situation } from "./input.js";
import { UD10_OPTIONS } from "./options.js";

const B = RULESET_BOUNDS.ud10;
const byKeys = <K extends string, S extends v.GenericSchema>(keys: readonly K[], schema: S) =>
  strict(Object.fromEntries(keys.map((k) => [k, schema])) as Record<K, S>);

/** A firing mode (UD-RNG-02). */
export const firingModeSchema = strict({
  id: text(),
  label: text(),
  damage: text(COMMON_BOUNDS.nameLength),
  attackModifier: bounded(B.attackModifier),
  shots: bounded(B.shots),
});

/** A UD10 weapon as the core plays it (UD-ATK-01, UD-RNG-01, UD-RNG-02, UD-DMG-01, UD-DMG-05). */
export const weaponSchema = strict({
  id: text(),
  name: text(),
  kind: choice(["melee", "ranged"] as const),
  attackModifier: bounded(B.attackModifier),
  damage: text(),
  penetration: bounded(B.penetration),
  rangeIncrement: bounded(B.rangeIncrement),
  modes: list(firingModeSchema),
  canParry: flag(),
  shield: flag(),
});

/** A UD10 armor piece: rating and buffer per body zone (UD-DMG-02, UD-DMG-03). */
export const armorSchema = strict({
  id: text(),
  name: text(),
  zones: byKeys(ZONES, strict({ rating: bounded(B.armorRating), buffer: bounded(B.buffer) })),
});

/** A UD10 combatant as the core plays it: attributes, skills, HP and EP, equipment, conditions. */
export const combatantSchema = strict({
  id: text(),
  name: text(),
  kind: choice(["character", "npc"] as const),
  group: text(),
  attributes: byKeys(ATTRIBUTES, bounded(B.attribute)),
  skills: byKeys(SKILLS, strict({ rating: bounded(B.skill), trained: flag() })),
  hp: track(B.pool, B.poolValue),
  ep: track(B.pool, B.epValue),
  size: choice(["small", "normal", "large"] as const),
  weapons: list(weaponSchema),
  armor: list(armorSchema),
  conditions: list(text()),
});

/** Situational modifiers of a UD10 attack (UD-ATK-03, UD-ATK-04, UD-COV-01, UD-DEF-01). */
export const situationSchema = strict({
  higherGround: opt(flag()),
  aim: opt(
    v.pipe(
      bounded(B.aim),
      v.transform((n) => n as 0 | 1 | 2),
    ),
  ),
  badVisibility: opt(flag()),
  targetCrouching: opt(flag()),
  targetMoving: opt(flag()),
  shooterMoving: opt(flag()),
  unanticipated: opt(flag()),
  cover: opt(bounded(B.cover)),
  misc: opt(bounded(B.modifier)),
});

/** Everything a UD10 attack needs (`Ud10AttackInput`), distances in metres. */
export const attackInputSchema = strict({
  attacker: combatantSchema,
  target: combatantSchema,
  weaponId: safeName(),
  modeId: opt(text()),
  rangeMetres: opt(bounded(COMMON_BOUNDS.rangeMetres)),
  situation: opt(situationSchema),
  reaction: opt(choice(["parry", "dodge"] as const)),
});

/** UD10's option values (UD10_OPTIONS). */
export const optionsValuesSchema = optionsSchema(UD10_OPTIONS, "ud10");

// The schemas and the core's interfaces stay one shape: these lines fail to compile otherwise.
const shapes: [
  Is<v.InferOutput<typeof weaponSchema>, Ud10Weapon>,
  Is<v.InferOutput<typeof armorSchema>, Ud10Armor>,
  Is<v.InferOutput<typeof combatantSchema>, Ud10Combatant>,
  Is<v.InferOutput<typeof situationSchema>, Ud10Situation>,
  Is<v.InferOutput<typeof attackInputSchema>, Ud10AttackInput>,
] = [true, true, true, true, true];
void shapes;

/**
 * Checks a UD10 combatant given to the core (macro API, a stored combatant).
 * @throws FrayError naming the field (`combatant.skills.melee.rating`) and what it should hold.
 */
export function validateUd10Combatant(raw: unknown, root = "combatant"): Ud10Combatant {
  return check(combatantSchema, raw, root);
}

/**
 * Checks a UD10 attack input: both combatants, the weapon and mode ids, the range in metres (0 to
 * 100 km), the situation's flags and bounded modifiers, the declared reaction.
 * @throws FrayError naming the field (`situation.cover`, `attacker`) and what it should hold.
 */
export function validateUd10AttackInput(raw: unknown, root = ""): Ud10AttackInput {
  return check(attackInputSchema, raw, root);
}

/**
 * A UD10 actor's stored stats as an encounter file's `stats` gives them (merged over the
 * referenced actor, so every part is optional): attributes, skills (a rating or `{ rating,
 * trained }`), HP and EP (a number or `{ value, max }`), size. Unknown keys are refused.
 */
export const statsSchema = strict({
  ...commonStatsEntries,
  attributes: opt(some(ATTRIBUTES, bounded(B.attribute))),
  skills: opt(some(SKILLS, v.union([bounded(B.skill), strict({ rating: opt(bounded(B.skill)), trained: opt(flag()) })]))),
  hp: opt(storedTrack(B.pool, B.poolValue)),
  ep: opt(storedTrack(B.pool, B.epValue)),
  size: opt(choice(["small", "normal", "large"] as const)),
});
