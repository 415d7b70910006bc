/**
 * The attack dialog's state, its defaults from the tokens' conditions, and the exact chances it
 * shows (UD-ATK-02 to UD-ATK-04, UD-DEF-01, UD-COV-01, UD-RNG-01, UD-RNG-02, UD-REA-03). Pure:
 * the dialog reads the form into an {@link AttackChoices} and asks {@link targetOdds} per target.
 */
import { FrayError } from "../../rules/core/errors.js";
import type { RulesetOptions } from "../../rules/core/ruleset.js";
import { situationDefaults, ud10, type Ud10AttackInput, type Ud10Combatant, type Ud10Situation } from "../../rules/ud10/index.js";

/** Everything the user chooses in the attack dialog. */
export interface AttackChoices {
  /** Ids of the targets to attack (one check each). */
  targets: string[];
  modeId?: string;
  /** UD-ATK-03: the attack cannot be anticipated (the target's DEX does not count). */
  unanticipated: boolean;
  /** UD-DEF-01: the target is immobilized (no DEX, -2). */
  immobilized: boolean;
  /** UD-ATK-04, melee: the opponent stands on higher ground, -2. */
  higherGround: boolean;
  /** UD-ATK-04, ranged: bad visibility, -2. */
  badVisibility: boolean;
  /** UD-ATK-04, ranged: the target crouches or lies prone, -2. */
  targetCrouching: boolean;
  /** UD-ATK-04, ranged: the target moves, -2. */
  targetMoving: boolean;
  /** UD-ATK-04, ranged: the shooter moves, -4. */
  shooterMoving: boolean;
  /** UD-ATK-04, ranged: rounds spent aiming. */
  aim: 0 | 1 | 2;
  /** UD-COV-01: cover rating added to the defense. */
  cover: number;
  /** UD-ATK-01: any further modifier the GM rules. */
  misc: number;
  /** A reaction the defender declared in advance, for the odds through it (UD-REA-03). */
  declared: "none" | "parry" | "dodge";
}

/**
 * The dialog's defaults from the conditions of the attacker and the first target: the core's
 * `situationDefaults` (statuses `prone`, `crouching`, `moving`, `surprised`, `aiming1`,
 * `aiming2`), and `immobilized` as the target's condition (UD-DEF-01).
 */
export function defaultChoices(attackerConditions: readonly string[], targetConditions: readonly string[], targets: string[]): AttackChoices {
  const d = situationDefaults({ conditions: [...attackerConditions] }, { conditions: [...targetConditions] });
  return {
    targets,
    unanticipated: d.unanticipated,
    immobilized: targetConditions.includes("immobilized"),
    higherGround: false,
    badVisibility: false,
    targetCrouching: d.targetCrouching,
    targetMoving: d.targetMoving,
    shooterMoving: d.shooterMoving,
    aim: d.aim,
    cover: 0,
    misc: 0,
    declared: "none",
  };
}

/** The core's situation from the choices: every flag given explicitly so the choice wins. */
export function situationFrom(c: AttackChoices): Ud10Situation {
  return {
    unanticipated: c.unanticipated,
    higherGround: c.higherGround,
    badVisibility: c.badVisibility,
    targetCrouching: c.targetCrouching,
    targetMoving: c.targetMoving,
    shooterMoving: c.shooterMoving,
    aim: c.aim,
    cover: Math.max(0, Math.trunc(c.cover) || 0),
    misc: Math.trunc(c.misc) || 0,
  };
}

/**
 * A target with the dialog's immobilized choice applied to its conditions (the core reads
 * immobilization from the conditions, UD-DEF-01).
 */
export function withImmobilized(target: Ud10Combatant, immobilized: boolean): Ud10Combatant {
  const rest = target.conditions.filter((s) => s !== "immobilized");
  return { ...target, conditions: immobilized ? [...rest, "immobilized"] : rest };
}

/** The core's attack input for one target from the dialog's choices. */
export function attackInput(attacker: Ud10Combatant, target: Ud10Combatant, weaponId: string, rangeMetres: number | undefined, c: AttackChoices): Ud10AttackInput {
  return {
    attacker,
    target: withImmobilized(target, c.immobilized),
    weaponId,
    modeId: c.modeId,
    rangeMetres,
    situation: situationFrom(c),
  };
}

/** The chances the dialog shows for one target, in [0, 1], or the core's refusal. */
export interface TargetOdds {
  hit?: number;
  /** P(hit and the declared reaction fails) (UD-REA-03). */
  through?: number;
  /** Check modifier total and defense rating, for the dialog's line. */
  modifier?: number;
  difficulty?: number;
  /** i18n key and data of why the attack is not possible. */
  error?: { key: string; data: Record<string, string | number> };
}

/**
 * The exact chance to hit one target (UD-ATK-02) and to get through a declared reaction
 * (UD-REA-03), from the core's plan and odds.
 */
export function targetOdds(input: Ud10AttackInput, declared: AttackChoices["declared"], options: RulesetOptions): TargetOdds {
  try {
    const plan = ud10.planAttack(input, options);
    const modifier = plan.modifiers.reduce((t, m) => t + m.value, 0);
    const out: TargetOdds = { hit: ud10.odds(plan, input, options).hit, modifier, difficulty: plan.difficulty.total };
    if (declared !== "none") {
      const option = ud10.reactions(input, undefined, options).find((r) => r.id === declared);
      if (option?.available) out.through = ud10.odds({ ...plan, reaction: option }, input, options).throughReaction;
    }
    return out;
  } catch (err) {
    if (err instanceof FrayError) return { error: { key: err.key, data: err.data ?? {} } };
    throw err;
  }
}

/** A probability as a percentage with one decimal (`62.5`). */
export function percent(p: number | undefined): string | undefined {
  return p === undefined ? undefined : (Math.round(p * 1000) / 10).toFixed(1);
}
