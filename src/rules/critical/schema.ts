/**
 * Schemas of Critical's public inputs (seed 003): the combatant, weapon and armor shapes the core
 * plays with, the situation, the options and the attack input, bounded by the `critical` row of
 * `RULESET_BOUNDS` (bonuses in percentile points, Move in metres).
 */
import * as v from "valibot";
import { RULESET_BOUNDS } from "../core/bounds.js";
import type { LastingEffect } from "../core/types.js";
import {
  bounded,
  check,
  choice,
  commonStatsEntries,
  flag,
  list,
  mapping,
  opt,
  optionsSchema,
  ruleIdSchema,
  safeName,
  storedTrack,
  strict,
  text,
  track,
  type Fits,
  type Is,
} from "../core/validate.js";
import type { CriticalAttackInput, CriticalSituation } from "./attack.js";
import { ARMOR_TYPES, WEAPON_CATEGORIES, type CriticalArmor, type CriticalCombatant, type CriticalWeapon } from "./model.js";
import { CRITICAL_OPTIONS } from "./options.js";
import type { CriticalTableSet } from "./tables/index.js";

const B = RULESET_BOUNDS.critical;

/** A Critical weapon as the core plays it (CR-ATK-01, CR-ATK-03). */
export const weaponSchema = strict({
  id: text(),
  name: text(),
  weaponClass: safeName(),
  category: choice(WEAPON_CATEGORIES),
  skill: safeName(),
  bonus: bounded(B.weaponBonus),
  fumble: opt(bounded(B.fumble)),
});

/** A Critical armor piece: armor type (absent for a shield), DB bonus and maneuver penalty. */
export const armorSchema = strict({
  id: text(),
  name: text(),
  armorType: opt(choice(ARMOR_TYPES)),
  defense: bounded(B.defense),
  maneuverPenalty: bounded(B.maneuverPenalty),
});

/** A lasting effect (CR-CRT-02): bleeding, burning, a penalty, an injury, dying. */
export const effectSchema = strict({
  id: text(),
  kind: text(),
  rule: ruleIdSchema,
  label: text({ min: 0, max: 4096, integer: true }),
  value: opt(bounded(B.effectValue)),
  rounds: opt(bounded(B.effectRounds)),
  location: opt(text()),
  stops: opt(list(text())),
  treated: opt(list(text())),
});

/** A Critical combatant as the core plays it. */
export const combatantSchema = strict({
  id: text(),
  name: text(),
  kind: choice(["character", "npc"] as const),
  group: text(),
  quickness: bounded(B.bonus),
  selfDiscipline: bounded(B.bonus),
  physique: strict({ ranks: bounded(B.physiqueRanks), total: bounded(B.physiqueTotal) }),
  defense: bounded(B.defense),
  baseMove: bounded(B.baseMove),
  maneuver: bounded(B.bonus),
  skills: mapping(safeName(), bounded(B.ob)),
  weapons: list(weaponSchema),
  armor: list(armorSchema),
  hits: track(B.physiqueTotal, B.hitsValue),
  stun: bounded(B.stun),
  effects: list(effectSchema),
  conditions: list(text()),
  parry: mapping(safeName(), bounded({ ...B.ob, min: 0 })),
});

/** Situational parts of a Critical attack (CR-ATK-01, CR-PAR-03). */
export const situationSchema = strict({
  modifier: opt(bounded(B.modifier)),
  cover: opt(bounded(B.cover)),
  unseen: opt(flag()),
});

/** Everything a Critical attack needs (`CriticalAttackInput`); a GM's tables pass as content. */
export const attackInputSchema = strict({
  attacker: combatantSchema,
  target: combatantSchema,
  weaponId: safeName(),
  situation: opt(situationSchema),
  tables: opt(
    strict({
      attack: opt(
        mapping(
          safeName(),
          v.custom<CriticalTableSet["attack"][string]>((x) => typeof x === "object" && x !== null),
        ),
      ),
      crit: opt(v.custom<CriticalTableSet["crit"]>((x) => typeof x === "object" && x !== null && !Array.isArray(x))),
    }),
  ),
});

/** Critical's option values (CRITICAL_OPTIONS). */
export const optionsValuesSchema = optionsSchema(CRITICAL_OPTIONS, "critical");

const shapes: [
  Is<v.InferOutput<typeof weaponSchema>, CriticalWeapon>,
  Is<v.InferOutput<typeof armorSchema>, CriticalArmor>,
  Fits<v.InferOutput<typeof effectSchema>, LastingEffect>,
  Fits<v.InferOutput<typeof combatantSchema>, CriticalCombatant>,
  Is<v.InferOutput<typeof situationSchema>, CriticalSituation>,
  Fits<v.InferOutput<typeof attackInputSchema>, CriticalAttackInput>,
] = [true, true, true, true, true, true];
void shapes;

/**
 * Checks a Critical combatant given to the core.
 * @throws FrayError naming the field (`combatant.physique.total`) and what it should hold.
 */
export function validateCriticalCombatant(raw: unknown, root = "combatant"): CriticalCombatant {
  return check(combatantSchema, raw, root);
}

/**
 * Checks a Critical attack input: both combatants, the weapon id, the situation's bounded
 * modifier and cover (CR-ATK-01), the GM's tables.
 * @throws FrayError naming the field (`situation.cover`) and what it should hold.
 */
export function validateCriticalAttackInput(raw: unknown, root = ""): CriticalAttackInput {
  return check(attackInputSchema, raw, root) as CriticalAttackInput;
}

/**
 * A Critical actor's stored stats as an encounter file's `stats` gives them (every part
 * optional): bonuses, Physique, DB, Move, skills' OB, hits, stun, lasting effects, parry.
 */
export const statsSchema = strict({
  ...commonStatsEntries,
  quickness: opt(bounded(B.bonus)),
  selfDiscipline: opt(bounded(B.bonus)),
  physique: opt(strict({ ranks: opt(bounded(B.physiqueRanks)), total: opt(bounded(B.physiqueTotal)) })),
  defense: opt(bounded(B.defense)),
  baseMove: opt(bounded(B.baseMove)),
  maneuver: opt(bounded(B.bonus)),
  skills: opt(mapping(safeName(), bounded(B.ob))),
  hits: opt(storedTrack(B.physiqueTotal, B.hitsValue)),
  stun: opt(bounded(B.stun)),
  effects: opt(list(effectSchema)),
  parry: opt(mapping(safeName(), bounded({ ...B.ob, min: 0 }))),
});
