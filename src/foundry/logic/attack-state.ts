/**
 * One target of an attack, from the neutral request to the state stored on the `attack` message,
 * for any ruleset: the core's plan and exact odds (`planStep`, src/rules/core/step.ts), the
 * resolution with the dice port, the reactions the core offers against it, and the core's
 * results kept whole in a JSON-safe form. Pure: the dice come from a {@link DiceRoller}, so the
 * workflow passes its FoundryRoller and tests a scripted one.
 */
import type { AttackRequest } from "../../rules/core/contract.js";
import type { DiceRoller } from "../../rules/core/dice/port.js";
import type { Economy } from "../../rules/core/economy.js";
import type { AttackOdds, AttackPlan, AttackResult, ReactionOption, Ruleset, RulesetOptions } from "../../rules/core/ruleset.js";
import { planStep } from "../../rules/core/step.js";
import type { RollOutcome } from "../../rules/core/types.js";
import type { OfferedReaction, TargetState } from "./card.js";

/**
 * The reactions of the core worth a card button (parry, dodge, block), as stored on the card
 * with their rule IDs (UD-REA-02, UD-REA-04, ZN-MEL-03, ZN-MEL-04).
 */
export function storedReactions(options: readonly ReactionOption[]): OfferedReaction[] {
  return options
    .filter((r) => r.id === "parry" || r.id === "dodge" || r.id === "block")
    .map((r) => ({ id: r.id as OfferedReaction["id"], available: r.available, reason: r.reason, rule: r.rule }));
}

/**
 * A JSON-safe copy of a core result (an `AttackResult`, a `DamagePacket`, a `DamageReport`):
 * the native Roll handles (`native`) are dropped, as the Rolls travel as the message's own
 * `rolls`; everything else is kept as the core returned it.
 */
export function storable<T>(value: T): T {
  if (value === undefined) return value;
  return JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === "native" ? undefined : v))) as T;
}

/** Who the target is on the canvas: its actor's and token's UUIDs and its display name. */
export interface TargetIdentity {
  actorUuid: string;
  tokenUuid: string;
  name: string;
}

/** One attacked target: the core's plan, odds and result, and the state the card stores. */
export interface AttackedTarget {
  plan: AttackPlan;
  odds: AttackOdds;
  result: AttackResult;
  state: TargetState;
}

/**
 * The request with every situation value resolved: the values given, the fields' defaults for
 * the rest (`Ruleset.situation`), so that a later step replays the attack as it was made even
 * when the combatants' conditions changed since.
 */
export function resolvedRequest<C>(
  ruleset: Ruleset<C, unknown>,
  request: AttackRequest,
  attacker: C,
  target: C | undefined,
  options: RulesetOptions,
): AttackRequest {
  const fields = ruleset.situation(
    { attacker, target, weaponId: request.weaponId, modeId: request.modeId, distanceMetres: request.distanceMetres },
    options,
  );
  const situation = { ...Object.fromEntries(fields.map((f) => [f.id, f.default])), ...(request.situation ?? {}) };
  return { ...request, situation };
}

/**
 * Plans, weighs and resolves one attack at one target with the given dice through the world's
 * ruleset, and builds the state the card stores for it: the resolved request, the core's result
 * whole, the odds and the reactions offered (UD-ATK-01 to UD-ATK-04, UD-REA-02, UD-REA-04).
 * @param defenderEconomy the target's round economy when it is in combat: which reactions it can
 *   still make (ZN-MEL-03 a dodge needs an action left, ZN-MEL-04 a block none).
 * @throws FrayError when the core refuses the attack (unknown weapon or mode, an attacker who cannot act ...).
 */
export async function attackTarget<C, I>(
  ruleset: Ruleset<C, I>,
  who: TargetIdentity,
  request: AttackRequest,
  attacker: C,
  target: C,
  dice: DiceRoller,
  options: RulesetOptions,
  defenderEconomy?: Economy,
): Promise<AttackedTarget> {
  const resolved = resolvedRequest(ruleset as Ruleset<C, unknown>, request, attacker, target, options);
  const planned = planStep(ruleset, resolved, attacker, target, options);
  const result = await ruleset.resolveAttack(planned.plan, planned.input, dice, options);
  const undeclared = planStep(ruleset, { ...resolved, reaction: undefined }, attacker, target, options);
  const state: TargetState = {
    ...who,
    request: resolved,
    result: storable(result),
    hit: result.hit,
    odds: storable(planned.odds),
    reactions: storedReactions(ruleset.reactions(undeclared.input, defenderEconomy, options)),
  };
  return { plan: planned.plan, odds: planned.odds, result, state };
}

/** The die faces of a stored roll outcome, in the order they were rolled. */
export function facesOf(roll: Pick<RollOutcome, "dice"> | undefined): number[] {
  return (roll?.dice ?? []).flatMap((d) => (Array.isArray(d.results) ? d.results.filter((r): r is number => typeof r === "number") : []));
}
