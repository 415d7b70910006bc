/**
 * Hitbox's actions on its actor sheet that need the rules core: a skill's 2d6 test.
 */
import { sumModifiers } from "../../../rules/core/types.js";
import { SKILLS, testBonus, type HitboxCombatant, type SkillId } from "../../../rules/hitbox/index.js";
import { combatantOf } from "../../documents/actor.js";
import { skillUse, testFormula } from "./sheet-context.js";

/**
 * Rolls a skill's test from the sheet (HB-ATK-02, HB-DMG-03): 2d6 + the ability the skill uses +
 * the skill, with half the bonus when a damaged limb the skill uses is not medicated, posted as a
 * chat message whose flavor names the skill and the ability. It spends nothing of the turn (the
 * GM rules what a test outside an attack costs). An unknown skill id does nothing.
 * @throws FrayError when the actor cannot be read by the core.
 */
export async function hitboxRollSkill(actor: unknown, skill: string): Promise<void> {
  if (!(SKILLS as readonly string[]).includes(skill)) return;
  const doc = actor as Actor.Implementation;
  const c = combatantOf<HitboxCombatant>(doc);
  const use = skillUse(c, skill as SkillId);
  const lines = testBonus(c, use.ability, skill as SkillId, use.limbs, "HB-ATK-02");
  const halved = lines.some((l) => l.rule === "HB-DMG-03");
  const flavor = game.i18n.format(halved ? "FRAY.Hitbox.Sheet.RollFlavorHalved" : "FRAY.Hitbox.Sheet.RollFlavor", {
    skill: game.i18n.localize(`FRAY.Hitbox.Skill.${skill}`),
    ability: game.i18n.localize(`FRAY.Hitbox.Ability.${use.ability}`),
  });
  const roll = await new Roll(testFormula(sumModifiers(lines))).evaluate();
  await roll.toMessage({ speaker: ChatMessage.getSpeaker({ actor: doc }), flavor });
}
