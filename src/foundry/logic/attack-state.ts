/**
 * One target of an attack, from the core's plan to the state stored on the `attack` message:
 * plan, exact odds and resolution by UD10 (UD-ATK-01 to UD-ATK-04, UD-RNG-01, UD-RNG-02,
 * UD-ZON-01), the reactions the core offers against it (UD-REA-02, UD-REA-04) and a declared
 * reaction's check (UD-REA-03), and the reaction and damage as the card's buttons store them. Pure: the dice come from a {@link DiceRoller}, so `rollAttack`
 * passes its FoundryRoller and tests a scripted one.
 */
import type { DiceRoller } from "../../rules/core/dice/port.js";
import type { AttackOdds, AttackPlan, AttackResult, DamagePacket, ReactionOption, ReactionResult, RulesetOptions } from "../../rules/core/ruleset.js";
import { sumModifiers, type RollOutcome } from "../../rules/core/types.js";
import { reactionOutcome, ud10, type Ud10AttackInput } from "../../rules/ud10/index.js";
import { storableResult } from "../attack-card.js";
import { damageDice, type StoredDamage, type StoredReaction, type TargetState } from "./card.js";

/** The reactions of the core worth a card button (parry and dodge), as stored on the card (UD-REA-02, UD-REA-04). */
export function storedReactions(options: readonly ReactionOption[]): TargetState["reactions"] {
  return options.filter((r) => r.id === "parry" || r.id === "dodge").map((r) => ({ id: r.id as "parry" | "dodge", available: r.available, reason: r.reason }));
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
 * The state the card stores for one resolved target: the result without native Roll handles,
 * totals and odds, what the core needs to rebuild the attack later (range, situation, the
 * dialog's immobilized choice), the reactions offered, and the declared reaction's check when
 * one was rolled with the attack (UD-REA-03).
 */
export function targetState(who: TargetIdentity, input: Ud10AttackInput, plan: AttackPlan, odds: AttackOdds, result: AttackResult, options: RulesetOptions, immobilized?: boolean): TargetState {
  const state: TargetState = {
    actorUuid: who.actorUuid,
    tokenUuid: who.tokenUuid,
    name: who.name,
    result: storableResult(result),
    attackTotal: result.check.total,
    difficulty: plan.difficulty.total,
    hit: result.hit,
    odds: odds.hit,
    input: { rangeMetres: input.rangeMetres, situation: { ...(input.situation ?? {}) }, immobilized },
    reactions: storedReactions(ud10.reactions({ ...input, reaction: undefined }, undefined, options)),
  };
  if (result.reaction) {
    state.reaction = storedReactionOf(result.reaction);
  }
  return state;
}

/**
 * Plans, weighs and resolves one UD10 attack at one target with the given dice, and builds the
 * state the card stores for it (UD-ATK-01 to UD-ATK-04, UD-RNG-01, UD-RNG-02, UD-ZON-01).
 * @throws FrayError when the core refuses the attack (unknown weapon or mode, an attacker who cannot act ...).
 */
export async function attackTarget(who: TargetIdentity, input: Ud10AttackInput, dice: DiceRoller, options: RulesetOptions, immobilized?: boolean): Promise<AttackedTarget> {
  const plan = ud10.planAttack(input, options);
  const odds = ud10.odds(plan, input, options);
  const result = await ud10.resolveAttack(plan, input, dice, options);
  return { plan, odds, result, state: targetState(who, input, plan, odds, result, options, immobilized) };
}

/**
 * The core's reaction result as the card stores it (UD-REA-03, UD-REA-04): the d10 rolled, the
 * core's modifiers of the reaction, the total, and whether it beat the attack's total.
 */
export function storedReactionOf(r: ReactionResult): StoredReaction {
  const c = r.check;
  return { id: r.id === "dodge" ? "dodge" : "parry", natural: c.natural, total: c.total, modifiers: c.modifiers, faces: c.roll.dice.flatMap((d) => d.results), success: r.success };
}

/**
 * A reaction check already rolled, weighed by the core (`reactionOutcome`, UD-REA-03) and stored
 * as the card keeps it.
 */
export function storedReaction(id: "parry" | "dodge", option: Pick<ReactionOption, "modifiers">, roll: RollOutcome, attackTotal: number): StoredReaction {
  const check = { roll, natural: roll.total, modifiers: option.modifiers, total: roll.total + sumModifiers(option.modifiers) };
  return storedReactionOf(reactionOutcome(id, check, attackTotal));
}

/** A rolled damage packet as the card stores it (UD-DMG-01, UD-RNG-02 the mode's code, UD-ZON-01 the location). */
export function storedDamage(packet: DamagePacket): StoredDamage {
  const dice = packet.roll.dice.map((d) => ({ faces: d.faces, results: [...d.results] }));
  return { formula: packet.roll.formula, total: packet.amount, faces: dice.flatMap((d) => d.results), dice, location: packet.location, penetration: packet.penetration ?? 0 };
}


/** The damage packet the core applies, back from the card's stored damage (UD-DMG-02 to UD-DMG-05). */
export function packetOf(damage: StoredDamage): DamagePacket {
  return {
    roll: { formula: damage.formula, total: damage.total, dice: damageDice(damage), constant: 0 },
    amount: damage.total,
    location: damage.location,
    penetration: damage.penetration,
  };
}
