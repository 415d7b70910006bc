/**
 * The attack dialog's choices for any ruleset: which targets are attacked, the mode, the
 * situation values of each target (the ruleset's situation fields, `Ruleset.situation`) and the
 * reaction the defender declared; and the exact odds of each target from the core's plan
 * (`planStep`), also through the declared reaction where the ruleset offers one (UD-REA-03).
 * Pure: no Foundry globals.
 */
import type { AttackRequest, SituationValues } from "../../rules/core/contract.js";
import { FrayError } from "../../rules/core/errors.js";
import type { DropOdds } from "../../rules/core/drop.js";
import type { AttackOdds, AttackPlan, Ruleset, RulesetOptions } from "../../rules/core/ruleset.js";
import { planStep } from "../../rules/core/step.js";
import { sumModifiers } from "../../rules/core/types.js";

/** Everything the user chooses in the attack dialog. */
export interface AttackChoices {
  /** Ids of the targets to attack (one check each). */
  targets: string[];
  modeId?: string;
  /** Situation values per target id: the attack's own fields and the target's per-target fields. */
  situation: Record<string, SituationValues>;
  /** A reaction the defender declared in advance (`parry`, `dodge`, `block`), for the odds through it. */
  reaction?: string;
}

/** The chances the dialog shows for one target, in [0, 1], or the core's refusal. */
export interface TargetOdds {
  hit?: number;
  /** P(hit and the declared reaction fails) (UD-REA-03). */
  through?: number;
  /** Check modifier total and difficulty, for the dialog's line. */
  modifier?: number;
  difficulty?: number;
  /** The core's plan and odds, for a ruleset's own lines in the dialog. */
  plan?: AttackPlan;
  odds?: AttackOdds;
  /** i18n key and data of why the attack is not possible. */
  error?: { key: string; data: Record<string, string | number> };
}

/**
 * The exact odds of one request: P(hit) from the core's plan, and with a declared reaction the
 * ruleset offers, P(hit and the reaction fails) (UD-ATK-02, UD-REA-03). A request the core
 * refuses gives its FrayError's key and data instead of throwing.
 */
export function targetOdds<C, I>(
  ruleset: Ruleset<C, I>,
  request: AttackRequest,
  attacker: C,
  target: C,
  options: RulesetOptions,
): TargetOdds {
  try {
    const planned = planStep(ruleset, { ...request, reaction: undefined }, attacker, target, options);
    const out: TargetOdds = {
      hit: planned.odds.hit,
      modifier: sumModifiers(planned.plan.modifiers),
      difficulty: planned.plan.difficulty.total,
      plan: planned.plan,
      odds: planned.odds,
    };
    if (request.reaction) {
      const option = ruleset.reactions(planned.input, undefined, options).find((r) => r.id === request.reaction);
      if (option?.available) out.through = ruleset.odds({ ...planned.plan, reaction: option }, planned.input, options).throughReaction;
    }
    return out;
  } catch (err) {
    if (err instanceof FrayError) return { error: { key: err.key, data: err.data ?? {} } };
    throw err;
  }
}

/** The chance to drop one target the dialog shows, or nothing (a ruleset without it, a refused request). */
export type TargetDrop = DropOdds | undefined;

/**
 * The exact chance that one request leaves its target out and the damage it is expected to do
 * per track (`Ruleset.dropOdds`), through the declared reaction where the ruleset offers it, as
 * {@link targetOdds} plans it. Nothing when the ruleset has no such odds or the core refuses the
 * request (the odds line shows the refusal).
 */
export function targetDrop<C, I>(
  ruleset: Ruleset<C, I>,
  request: AttackRequest,
  attacker: C,
  target: C,
  options: RulesetOptions,
): TargetDrop {
  if (!ruleset.dropOdds) return undefined;
  try {
    const planned = planStep(ruleset, { ...request, reaction: undefined }, attacker, target, options, undefined, true);
    let plan = planned.plan;
    if (request.reaction) {
      const option = ruleset.reactions(planned.input, undefined, options).find((r) => r.id === request.reaction);
      if (option?.available) plan = { ...plan, reaction: option };
    }
    return ruleset.dropOdds(plan, planned.input, options);
  } catch (err) {
    if (err instanceof FrayError) return undefined;
    throw err;
  }
}

/** A probability as a percentage with one decimal (`62.5`). */
export function percent(p: number | undefined): string | undefined {
  return p === undefined ? undefined : (Math.round(p * 1000) / 10).toFixed(1);
}
