/**
 * UD10's part of the attack card that cannot be generic: the defender's parry or dodge made on
 * the card after seeing the hit (UD-REA-01 to UD-REA-04), weighed against the attack's total
 * (UD-REA-03) and folded into the stored result; and the attacker read as able to act when the
 * GM replays an attack made before it went down; the conditions an undo sets from the vitals.
 */
import type { DiceRoller } from "../../../rules/core/dice/port.js";
import type { AttackResult, ReactionOption } from "../../../rules/core/ruleset.js";
import { OUT_CONDITIONS, resolveReaction, VITAL_CONDITIONS, vitalConditions, withReactionResult } from "../../../rules/ud10/index.js";
import type { Ud10Combatant } from "../../../rules/ud10/model.js";
import type { VitalRules } from "../../logic/undo.js";
import type { CardRules } from "../../play/card-rules.js";

/**
 * The result after a reaction on the card (UD-REA-03): the reaction's d10 with the option's
 * modifiers; it stops the attack when its total beats the attack's. The hit location rolled
 * with the attack stays.
 * @throws FrayError from the dice port.
 */
export async function reactOnCard(result: AttackResult, option: ReactionOption, dice: DiceRoller): Promise<AttackResult> {
  const reaction = await resolveReaction(option, result.check.total, dice);
  return withReactionResult(result, reaction);
}

/** A UD10 attacker read as able to act (HP and EP at least 1, no out condition). */
export function ableAttacker(c: Ud10Combatant): Ud10Combatant {
  const out = new Set<string>(OUT_CONDITIONS);
  return {
    ...c,
    hp: { ...c.hp, value: Math.max(1, c.hp.value) },
    ep: { ...c.ep, value: Math.max(1, c.ep.value) },
    conditions: c.conditions.filter((x) => !out.has(x)),
  };
}

/**
 * UD10's vitals on undo: unconscious at EP 0 or below, incapacitated at HP 0 or below; HP may be
 * below 0 (UD-DMG-04, RULES.md), EP stops at 0 (UD-DMG-03).
 */
export const UD10_VITALS: VitalRules = { conditions: VITAL_CONDITIONS, implied: vitalConditions, floors: { hp: -Infinity } };

/** UD10's card rules. */
export const ud10CardRules: CardRules = {
  react: reactOnCard,
  vitals: UD10_VITALS,
  ableAttacker: (c) => ableAttacker(c as Ud10Combatant),
};
