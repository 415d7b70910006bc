/**
 * The GM's tool for opposed tests (HB-ACT-05): when two combatants' actions exclude each other
 * (both grab the same pistol, one runs for the door the other blocks), each rolls 2d6 + the
 * ability and skill the GM names, the higher total wins, a tie rolls again. Reached from the GM's
 * _Opposed test_ button in the tracker (a form picking two combatants and the skill each uses) or
 * from a macro as `game.fray.binding.tools.opposedTest(tokenA, "melee", tokenB, "dodge")`; the card
 * is posted as a chat message with every roll.
 */
import { sumModifiers } from "../../../rules/core/types.js";
import { FrayError } from "../../../rules/core/errors.js";
import { opposedTest, SKILLS, testBonus, type OpposedResult, type SkillId } from "../../../rules/hitbox/index.js";
import { combatantOf } from "../../documents/actor.js";
import { FoundryRoller } from "../../dice.js";
import { SYSTEM_PATH } from "../../config.js";
import { reportError } from "../../notify.js";
import { opposedContext } from "./opposed-card.js";
import { OPPOSED_DIALOG_BUTTONS, opposedFormHtml } from "./tracker-view.js";
import { dialogButtons, type DialogFormButton } from "../../logic/dialog-buttons.js";

export { opposedFormHtml } from "./tracker-view.js";
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

/** A combatant the GM's opposed-test form offers: its id in the combat, name and actor. */
interface OpposedCandidate {
  id: string | null;
  name?: string | null;
  actor?: Actor.Implementation | null;
  token?: { name?: string | null } | null;
}

/** What the opposed-test form answers: the two combatants' ids and the skill each uses. */
export interface OpposedChoice {
  a: string;
  skillA: string;
  b: string;
  skillB: string;
}

/** Asks the GM for the two sides of an opposed test in a DialogV2; `undefined` when closed. */
async function askOpposed(candidates: readonly { id: string; name: string }[]): Promise<OpposedChoice | undefined> {
  const result = await foundry.applications.api.DialogV2.wait({
    window: { title: game.i18n.localize("FRAY.Hitbox.Opposed.Title") },
    content: opposedFormHtml(candidates, game.i18n),
    buttons: dialogButtons(OPPOSED_DIALOG_BUTTONS, {
      roll: (_event: unknown, button: DialogFormButton) => {
        const value = (name: string) => button.form?.elements[name]?.value ?? "";
        return { a: value("a"), skillA: value("skillA"), b: value("b"), skillB: value("skillB") };
      },
    }),
    rejectClose: false,
  } as never);
  return result && typeof result === "object" ? (result as OpposedChoice) : undefined;
}

/**
 * The GM's Opposed test button in the tracker (HB-ACT-05): asks for two of the combat's
 * combatants and the skill each uses, then rolls and posts the same card as
 * {@link hitboxOpposedTest}. Refused for players, and when both sides are the same combatant or
 * one is not in the combat (a localized error naming the field).
 * @returns the core's result, or `undefined` when closed or refused.
 */
export async function opposedFromTracker(
  combat: { combatants?: Iterable<unknown> },
  ask: (candidates: readonly { id: string; name: string }[]) => Promise<OpposedChoice | undefined> = askOpposed,
): Promise<OpposedResult | undefined> {
  try {
    if (!game.user?.isGM) throw new FrayError("FRAY.Hitbox.Opposed.GMOnly", {}, "Only the GM rolls opposed tests");
    const list = (Array.from(combat.combatants ?? []) as OpposedCandidate[]).filter((c) => c.id && c.actor);
    const name = (c: OpposedCandidate) => c.name ?? c.token?.name ?? c.actor?.name ?? "";
    const choice = await ask(list.map((c) => ({ id: c.id!, name: name(c) })));
    if (!choice) return undefined;
    const pick = (id: string, field: string) => {
      const c = list.find((x) => x.id === id);
      if (!c) throw new FrayError("FRAY.Error.Field", { field, expected: "a combatant of this combat" }, `No combatant ${id}`);
      return { actor: c.actor, name: name(c) };
    };
    if (choice.a === choice.b)
      throw new FrayError("FRAY.Error.Field", { field: "b", expected: "another combatant than a" }, "Same combatant");
    return await hitboxOpposedTest(pick(choice.a, "a"), choice.skillA, pick(choice.b, "b"), choice.skillB);
  } catch (err) {
    reportError(err);
    return undefined;
  }
}
