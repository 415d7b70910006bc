/**
 * UD10's actions on its actor sheet that need the rules core: the skill roll.
 */
import { checkFormula, skillRollIsAction, skillValue, type Ud10Combatant } from "../../../rules/ud10/index.js";
import { SKILLS, type SkillId } from "../../../rules/ud10/model.js";
import { combatantOf } from "../../documents/actor.js";
import { formatKey } from "../../notify.js";
import { takeAction } from "../../round-actions.js";

/**
 * Rolls a skill check, d10 + the value the core gives the skill (its rating, or the attribute
 * when untrained; UD-REA-02). In the active combat a combat-skill roll is a skill action and
 * spends the combatant's action (UD-ACT-02); once the action is spent it is refused with a
 * warning. Initiative, Parry and Dodge rolled here spend nothing (see `skillRollIsAction`).
 * An unknown skill id does nothing.
 * @throws FrayError when the actor cannot be read by the core.
 */
export async function ud10RollSkill(actor: unknown, skill: string, tokenId?: string): Promise<void> {
  if (!(SKILLS as readonly string[]).includes(skill)) return;
  const doc = actor as Actor.Implementation;
  const { value } = skillValue(combatantOf<Ud10Combatant>(doc), skill as SkillId);
  const decision = skillRollIsAction(skill)
    ? await takeAction(doc, "skill", { tokenId, silent: true })
    : { ok: true as const, event: undefined };
  if (!decision.ok) return;
  const flavor = game.i18n.format("FRAY.Sheet.SkillRollFlavor", { skill: game.i18n.localize(`FRAY.Skill.${skill}`) });
  const roll = await new Roll(checkFormula(value)).evaluate();
  await roll.toMessage({
    speaker: ChatMessage.getSpeaker({ actor: doc }),
    flavor: decision.event ? `${flavor} (${formatKey("FRAY.Flow.Action.SkillSpent")}, UD-ACT-02)` : flavor,
  });
}
