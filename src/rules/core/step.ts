/**
 * One attack step, the same for every ruleset and both hosts: a neutral request becomes the
 * ruleset's input, is planned (itemized modifiers and difficulty), resolved with the dice port,
 * and, when it lands, its damage is rolled and applied as a pure transition. The encounter
 * runner chains the stages; the Foundry pipeline runs them one by one between its card's buttons.
 */
import type { AttackRequest } from "./contract.js";
import type { DiceRoller } from "./dice/port.js";
import type { Economy } from "./economy.js";
import type { AttackOdds, AttackPlan, AttackResult, DamagePacket, Ruleset, RulesetOptions } from "./ruleset.js";
import type { DamageReport } from "./types.js";

/** A planned attack: the ruleset's input, its plan and the exact odds. */
export interface PlannedAttack<I> {
  input: I;
  plan: AttackPlan;
  odds: AttackOdds;
}

/** An attack step played to its end. */
export interface AttackStep<C, I> extends PlannedAttack<I> {
  result: AttackResult;
  /** Damage rolled when the attack lands. */
  packet?: DamagePacket;
  /** The damage transition applied to the target. */
  report?: DamageReport;
  /** The target after the damage, when there is one. */
  target?: C;
}

/**
 * The ruleset's input for a request.
 * @throws FrayError from the ruleset, naming the request part that is wrong.
 */
export function attackInput<C, I>(
  ruleset: Ruleset<C, I>,
  request: AttackRequest,
  attacker: C,
  target: C | undefined,
  options: RulesetOptions,
): I {
  return ruleset.input(request, attacker, target, options);
}

/**
 * Plans an attack from a request: the ruleset's input, the itemized plan and the exact odds.
 * @param defenderEconomy the defender's round economy, which says whether a declared reaction is still possible.
 * @param lazyOdds compute the odds only when `odds` is first read (a forecast reads them never).
 * @throws FrayError from the ruleset on a request it refuses.
 */
export function planStep<C, I>(
  ruleset: Ruleset<C, I>,
  request: AttackRequest,
  attacker: C,
  target: C | undefined,
  options: RulesetOptions,
  defenderEconomy?: Economy,
  lazyOdds = false,
): PlannedAttack<I> {
  const input = attackInput(ruleset, request, attacker, target, options);
  const plan = ruleset.planAttack(input, options, defenderEconomy);
  if (!lazyOdds) return { input, plan, odds: ruleset.odds(plan, input, options) };
  let odds: AttackOdds | undefined;
  const planned = {
    input,
    plan,
    get odds(): AttackOdds {
      return (odds ??= ruleset.odds(plan, input, options));
    },
  };
  LAZY.add(planned);
  return planned;
}

/**
 * `planned` with `extra` added: a new object for a plan with its odds computed, the plan itself
 * for a plan with lazy odds ({@link planStep}), which a spread would compute.
 */
export function withPlanned<P extends PlannedAttack<unknown>, E extends object>(planned: P, extra: E): P & E {
  if (!LAZY.has(planned)) return { ...planned, ...extra };
  // A lazy plan is made for one attack and held by nothing else: it takes the additions itself.
  return Object.assign(planned, extra);
}

/** Planned attacks whose `odds` is computed when first read. */
const LAZY = new WeakSet<object>();

/**
 * Plays one attack step to its end: plan, resolve (with the declared reaction and the hit
 * location), roll the damage when the attack lands and apply it to the target.
 * @param lazyOdds see {@link planStep}.
 * @throws FrayError from the ruleset on a request it refuses, or from the dice port.
 */
export async function attackStep<C, I>(
  ruleset: Ruleset<C, I>,
  request: AttackRequest,
  attacker: C,
  target: C | undefined,
  dice: DiceRoller,
  options: RulesetOptions,
  defenderEconomy?: Economy,
  lazyOdds = false,
): Promise<AttackStep<C, I>> {
  const planned = planStep(ruleset, request, attacker, target, options, defenderEconomy, lazyOdds);
  const result = await ruleset.resolveAttack(planned.plan, planned.input, dice, options);
  if (!result.lands || !target) return withPlanned(planned, { result });
  const packet = await ruleset.rollDamage(result, planned.input, dice, options);
  const report = ruleset.applyDamage(target, packet, options);
  const after = ruleset.withVitals(target, report.after);
  return withPlanned(planned, { result, packet, report, target: after });
}
