/**
 * Maneuvers from the Critical sheet (CR-MAN-01): the owner picks the skill used, the GM's
 * difficulty and whether it needs concentration; the core checks the maneuver may be tried, the
 * round's AP are spent in combat (2, CR-AP-01; refused when short), the open-ended d100 is rolled
 * as a Foundry roll with the maneuver bonus, skill, difficulty, armor and wound penalties, and a
 * chat card shows the percentage and what it means under the world's **Maneuvers below 100%**
 * setting. A maneuver completed with a shortfall leaves its penalty on the actor until the round
 * ends. Under "the GM decides" the card offers the GM the ruling: completed with the penalty, not
 * completed, or completed.
 */
import {
  checkManeuver,
  criticalOptions,
  maneuverInputOf,
  maneuverPenaltyEffect,
  rollManeuver,
  settleManeuver,
  type ManeuverResult,
} from "../../../rules/critical/index.js";
import { criticalCombatantFromActor, type CriticalCombatant } from "../../../rules/critical/model.js";
import type { Localizer } from "../../attack-card.js";
import { SYSTEM_PATH } from "../../config.js";
import { FoundryRoller } from "../../dice.js";
import { actorSource } from "../../documents/source.js";
import { ownedBy } from "../../chat/actions.js";
import { reportError, warn, windowTitle } from "../../notify.js";
import { isActiveGM, serial } from "../../queries.js";
import { takeAction } from "../../round-actions.js";
import { optionValues } from "../../settings.js";
import {
  MANEUVER_DIALOG_BUTTONS,
  MANEUVER_RULINGS,
  maneuverContext,
  maneuverDialogContext,
  type ManeuverFlag,
  type ManeuverRuling,
} from "./maneuver-view.js";
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

/** A maneuver card as the ruling reads and writes it. */
interface ManeuverMessage {
  id: string | null;
  /** The user who posted the card (set by the server). */
  author?: { id?: string | null; isGM?: boolean } | null;
  flags?: { fray?: { maneuver?: ManeuverFlag } };
  update(data: Record<string, unknown>): Promise<unknown>;
}

/** The maneuver of a card's flag, as the core's settlement reads it (its roll is not rolled again). */
function storedResult(flag: ManeuverFlag): ManeuverResult {
  const roll = { formula: flag.formula, total: flag.natural, dice: [], constant: 0 };
  return {
    rule: "CR-MAN-01",
    check: { roll, natural: flag.natural, modifiers: flag.lines, total: flag.percent },
    percent: flag.percent,
    success: false,
    outcome: "gm",
  };
}

/**
 * The GM's ruling on a maneuver below 100 % under "the GM decides" (CR-MAN-01; RULES.md): with
 * the penalty, the core's settlement writes the shortfall onto the actor as a penalty to the next
 * action this round (as the `penalty` setting does); not completed writes nothing; completed waives
 * the shortfall. Only the active GM rules, once per card (two GMs pressing at once: the second is
 * told it is ruled already), and only on a card whose author owns the actor it names (a card
 * edited to name another's actor is refused); the card then shows the ruling in place of the
 * choices.
 * @returns true when the ruling was written.
 */
export function ruleManeuver(message: ManeuverMessage, ruling: ManeuverRuling): Promise<boolean> {
  if (!game.user?.isGM || !isActiveGM()) {
    warn("FRAY.Critical.Maneuver.ActiveGMRules");
    return Promise.resolve(false);
  }
  return serial(async () => {
    const flag = message.flags?.fray?.maneuver;
    if (!flag || flag.outcome !== "gm" || !MANEUVER_RULINGS.includes(ruling)) {
      warn("FRAY.Critical.Maneuver.AlreadyRuled");
      return false;
    }
    // The card is its author's to edit: its actor counts only when the author owns it.
    const actor = (await foundry.utils.fromUuid(flag.actorUuid as never)) as unknown as
      (ManeuverActor & { testUserPermission?(u: unknown, l: string): boolean }) | null;
    const author = message.author;
    if (!actor || !author || !ownedBy(actor, author, Boolean(author.isGM))) {
      warn("FRAY.Flow.Error.CardForged");
      return false;
    }
    const settled = ruling === "complete" ? undefined : settleManeuver(storedResult(flag), ruling);
    const penalty = settled ? maneuverPenaltyEffect(settled, `maneuver-${foundry.utils.randomID()}`) : undefined;
    if (penalty) {
      const c = criticalCombatantFromActor(actorSource(actor as never));
      await actor.update({ "system.effects": [...c.effects, penalty] });
    }
    const next: ManeuverFlag = { ...flag, outcome: settled?.outcome ?? "success", ruled: true };
    if (settled?.outcome !== "penalty") delete next.penalty;
    const content = await foundry.applications.handlebars.renderTemplate(
      MANEUVER_TEMPLATE,
      maneuverContext(next, game.i18n as unknown as Localizer) as never,
    );
    await message.update({ content, "flags.fray.maneuver": next });
    return true;
  });
}

/** `renderChatMessageHTML`: a maneuver card's ruling buttons, wired for GMs and removed for everyone else. */
export function onRenderManeuver(message: ManeuverMessage, html: HTMLElement): void {
  if (!message.flags?.fray?.maneuver) return;
  for (const ruling of MANEUVER_RULINGS) {
    const button = html.querySelector<HTMLButtonElement>(`[data-maneuver-ruling="${ruling}"]`);
    if (!button) continue;
    if (!game.user?.isGM) {
      button.remove();
      continue;
    }
    button.addEventListener("click", (event) => {
      event.preventDefault();
      button.disabled = true;
      ruleManeuver(message, ruling).catch(reportError);
    });
  }
}
