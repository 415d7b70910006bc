/**
 * Maneuvers from the Critical sheet (CR-MAN-01): the owner picks the skill used, the GM's
 * difficulty and whether it needs concentration; the core checks the maneuver may be tried, the
 * round's AP are spent in combat (2, CR-AP-01; refused when short), the open-ended d100 is rolled
 * as a Foundry roll with the maneuver bonus, skill, difficulty, armor and wound penalties, and a
 * chat card shows the percentage and what it means under the world's **Maneuvers below 100%**
 * setting. A maneuver completed with a shortfall leaves its penalty on the actor until the round
 * ends.
 */
import { checkManeuver, criticalOptions, maneuverInputOf, maneuverPenaltyEffect, rollManeuver } from "../../../rules/critical/index.js";
import { criticalCombatantFromActor, type CriticalCombatant } from "../../../rules/critical/model.js";
import type { Localizer } from "../../attack-card.js";
import { SYSTEM_PATH } from "../../config.js";
import { FoundryRoller } from "../../dice.js";
import { actorSource } from "../../documents/source.js";
import { windowTitle } from "../../notify.js";
import { takeAction } from "../../round-actions.js";
import { optionValues } from "../../settings.js";
import { MANEUVER_DIALOG_BUTTONS, maneuverContext, maneuverDialogContext, type ManeuverFlag } from "./maneuver-view.js";
import { dialogButtons, type DialogFormButton } from "../../logic/dialog-buttons.js";

/** The maneuver card's template. */
export const MANEUVER_TEMPLATE = `${SYSTEM_PATH}/templates/critical/maneuver.hbs`;
/** The maneuver dialog's template. */
export const MANEUVER_DIALOG_TEMPLATE = `${SYSTEM_PATH}/templates/critical/maneuver-dialog.hbs`;

/** An actor as the maneuver reads and writes it. */
interface ManeuverActor {
  id: string | null;
  uuid: string;
  name: string | null;
  toObject(): unknown;
  statuses?: Set<string>;
  update(data: Record<string, unknown>): Promise<unknown>;
}

/** The form's raw answer: the skill id, the difficulty as typed, the concentration flag. */
export interface ManeuverAnswer {
  skill: string;
  difficulty: string;
  concentration: boolean;
}

/** What {@link maneuverFrom} asks; `undefined` when the dialog was closed. */
export type ManeuverAsk = (combatant: CriticalCombatant) => Promise<ManeuverAnswer | undefined>;

/** Opens the maneuver dialog (DialogV2). */
export const askManeuver: ManeuverAsk = async (c) => {
  const content = await foundry.applications.handlebars.renderTemplate(
    MANEUVER_DIALOG_TEMPLATE,
    maneuverDialogContext(c, game.i18n as unknown as Localizer) as never,
  );
  const result = await foundry.applications.api.DialogV2.wait({
    window: { title: windowTitle("FRAY.Critical.Maneuver.Title", { actor: c.name }) },
    classes: ["fray", "fray-maneuver"],
    content,
    buttons: dialogButtons(MANEUVER_DIALOG_BUTTONS, {
      roll: (_event: unknown, button: DialogFormButton) => ({
        skill: button.form?.elements.skill?.value ?? "",
        difficulty: button.form?.elements.difficulty?.value ?? "",
        concentration: Boolean(button.form?.elements.concentration?.checked),
      }),
    }),
    rejectClose: false,
  } as never);
  return result && typeof result === "object" ? (result as ManeuverAnswer) : undefined;
};

/**
 * A maneuver from the sheet (CR-MAN-01, CR-AP-01): asks the skill, difficulty and concentration,
 * has the core check them and whether the maneuver may be tried, spends its AP in combat, rolls
 * and posts the card; a maneuver completed below 100 under the `penalty` setting writes its
 * penalty onto the actor for the rest of the round.
 * @returns the card's flag, or `undefined` when closed or refused for AP (a warning was shown).
 * @throws FrayError `FRAY.Error.Field` naming `skill` or `difficulty`, `FRAY.Error.CannotAct`,
 *   `FRAY.Error.StunnedConcentration`.
 */
export async function maneuverFrom(actor: unknown, tokenId?: string, ask: ManeuverAsk = askManeuver): Promise<ManeuverFlag | undefined> {
  const a = actor as ManeuverActor;
  const c = criticalCombatantFromActor(actorSource(a as never));
  checkManeuver(c, {});
  const answer = await ask(c);
  if (!answer) return undefined;
  const input = maneuverInputOf(c, answer);
  checkManeuver(c, input);
  const decision = await takeAction(a as never, "maneuver", { tokenId });
  if (!decision.ok) return undefined;
  const roller = new FoundryRoller();
  const result = await rollManeuver(c, input, roller, criticalOptions(optionValues("critical")));
  const penalty = maneuverPenaltyEffect(result, `maneuver-${foundry.utils.randomID()}`);
  if (penalty) await a.update({ "system.effects": [...c.effects, penalty] });
  const flag: ManeuverFlag = {
    actorUuid: a.uuid,
    name: a.name ?? c.name,
    formula: result.check.roll.formula,
    natural: result.check.natural,
    lines: result.check.modifiers.map((m) => ({ label: m.label, value: m.value, rule: m.rule, ...(m.data ? { data: m.data } : {}) })),
    percent: result.percent,
    outcome: result.outcome,
    ...(result.outcome === "success" ? {} : { penalty: Math.min(0, result.percent - 100) }),
  };
  const content = await foundry.applications.handlebars.renderTemplate(
    MANEUVER_TEMPLATE,
    maneuverContext(flag, game.i18n as unknown as Localizer) as never,
  );
  await ChatMessage.implementation.create({ content, rolls: roller.rolls, flags: { fray: { maneuver: flag } } } as never);
  return flag;
}
