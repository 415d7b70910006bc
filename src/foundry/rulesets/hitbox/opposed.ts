/**
 * The GM's tool for opposed tests (HB-ACT-05): when two combatants' actions exclude each other
 * (both grab the same pistol, one runs for the door the other blocks), each rolls 2d6 + the
 * ability and skill the GM names, the higher total wins, a tie rolls again. Reached from a macro
 * as `game.fray.binding.tools.opposedTest(tokenA, "melee", tokenB, "dodge")`; the card is posted
 * as a chat message with every roll.
 */
import { sumModifiers } from "../../../rules/core/types.js";
import { FrayError } from "../../../rules/core/errors.js";
import { opposedTest, SKILLS, testBonus, type OpposedResult, type SkillId } from "../../../rules/hitbox/index.js";
import { combatantOf } from "../../documents/actor.js";
import { FoundryRoller } from "../../dice.js";
import { SYSTEM_PATH } from "../../config.js";
import { reportError } from "../../notify.js";
import { opposedContext } from "./opposed-card.js";
import { skillUse, testFormula } from "./sheet-context.js";

/** The opposed test's chat template. */
export const OPPOSED_TEMPLATE = `${SYSTEM_PATH}/templates/hitbox/opposed.hbs`;

/** A token or actor taking part: its actor, its display name. */
interface Side {
  actor?: Actor.Implementation | null;
  name?: string | null;
}

/**
 * Rolls an opposed test between two tokens (or actors) with the skill each uses (HB-ACT-05) and
 * posts it: 2d6 + the skill's ability + the skill, halved for a damaged limb (HB-DMG-03). GM only.
 * @returns the core's result, or `undefined` when refused (a notification says why).
 */
export async function hitboxOpposedTest(a: Side, skillA: string, b: Side, skillB: string): Promise<OpposedResult | undefined> {
  try {
    if (!game.user?.isGM) throw new FrayError("FRAY.Hitbox.Opposed.GMOnly", {}, "Only the GM rolls opposed tests");
    const sides = [
      [a, skillA, "a"],
      [b, skillB, "b"],
    ] as const;
    const read = sides.map(([side, skill, id]) => {
      if (!side.actor) throw new FrayError("FRAY.Error.Field", { field: `side ${id}`, expected: "a token or actor" }, "No actor");
      if (!(SKILLS as readonly string[]).includes(skill))
        throw new FrayError("FRAY.Error.Field", { field: `skill ${id}`, expected: SKILLS.join(", ") }, `No skill ${skill}`);
      const c = combatantOf<Parameters<typeof skillUse>[0]>(side.actor);
      const use = skillUse(c, skill as SkillId);
      const modifiers = testBonus(c, use.ability, skill as SkillId, use.limbs, "HB-ACT-05");
      return {
        side: { id, modifiers },
        row: {
          name: side.name ?? side.actor.name ?? "",
          skill: game.i18n.localize(`FRAY.Hitbox.Skill.${skill}`),
          formula: testFormula(sumModifiers(modifiers)),
        },
      };
    });
    const roller = new FoundryRoller();
    const result = await opposedTest(read[0]!.side, read[1]!.side, roller);
    const content = await foundry.applications.handlebars.renderTemplate(
      OPPOSED_TEMPLATE,
      opposedContext(result, [read[0]!.row, read[1]!.row], game.i18n),
    );
    await ChatMessage.implementation.create({ content, rolls: roller.rolls, sound: CONFIG.sounds.dice } as never);
    return result;
  } catch (err) {
    reportError(err);
    return undefined;
  }
}
