/**
 * The Self Discipline test in play (CR-HIT-02): the moment an applied attack takes a combatant's
 * hits to 0 or below (the core's report asks for it as a forced check), the applying GM's client
 * posts a prompt; the actor's owner (or a GM) presses Roll on it, the core rolls d100 + SD - the
 * hits below zero against 101 with a real Foundry roll, and a failure leaves the actor
 * unconscious (its knock-out effect and status). The owner writes their own actor, as any of
 * their rolls; the test is stamped on the actor by the prompt's key, so it is taken once.
 */
import { criticalForcedCheck, criticalVitalsUpdate } from "../../../rules/critical/index.js";
import { criticalCombatantFromActor } from "../../../rules/critical/model.js";
import type { ForcedCheck } from "../../../rules/core/types.js";
import type { Localizer } from "../../attack-card.js";
import { SYSTEM_PATH } from "../../config.js";
import { FoundryRoller } from "../../dice.js";
import { actorSource } from "../../documents/source.js";
import { reportError, warn } from "../../notify.js";
import { HOOKS } from "../../play/hooks.js";
import { optionValues } from "../../settings.js";
import { selfDisciplineContext, type SelfDisciplineFlag } from "./self-discipline-view.js";

export { selfDisciplineContext, type SelfDisciplineFlag } from "./self-discipline-view.js";

/** The prompt's and the result's template. */
export const SELF_DISCIPLINE_TEMPLATE = `${SYSTEM_PATH}/templates/critical/self-discipline.hbs`;

/** The forced check the core asks for at 0 hits or below. */
const FORCED: ForcedCheck = { id: "selfDiscipline", label: "FRAY.Check.SelfDiscipline", rule: "CR-HIT-02", difficulty: 101 };

/** A chat message as this module reads it. */
interface MessageLike {
  id?: string | null;
  flags?: { fray?: { selfDiscipline?: SelfDisciplineFlag } };
}

/** An actor as this module reads and writes it. */
interface ActorLike {
  uuid: string;
  name: string | null;
  isOwner?: boolean;
  toObject(): unknown;
  statuses?: Set<string>;
  getFlag?(scope: string, key: string): unknown;
  update(data: Record<string, unknown>): Promise<unknown>;
  toggleStatusEffect?(id: string, options: { active: boolean }): Promise<unknown>;
}

/** Posts a prompt or a result message. */
async function post(flag: SelfDisciplineFlag, rolls: Roll[] = []): Promise<void> {
  const content = await foundry.applications.handlebars.renderTemplate(
    SELF_DISCIPLINE_TEMPLATE,
    selfDisciplineContext(flag, game.i18n as unknown as Localizer) as unknown as Record<string, unknown>,
  );
  await ChatMessage.implementation.create({ content, rolls, flags: { fray: { selfDiscipline: flag } } } as never);
}

/**
 * On the applying GM's client after an attack was applied (`fray.applyDamage`): posts the Self
 * Discipline prompt when the core's report asks for the test (CR-HIT-02).
 */
export async function promptAfterApply(context: {
  actor: ActorLike;
  report?: { forced?: ForcedCheck[]; after?: { hp?: { value: number } } };
  message?: { id?: string | null };
  index?: number;
}): Promise<void> {
  if (!context.report?.forced?.some((f) => f.id === "selfDiscipline")) return;
  const key = `${String(context.message?.id ?? "").replace(/[^A-Za-z0-9]/g, "")}-${context.index ?? 0}`;
  await post({ actorUuid: context.actor.uuid, name: context.actor.name ?? "", hits: context.report.after?.hp?.value ?? 0, key });
}

/**
 * Rolls the prompted test for its actor (CR-HIT-02): the owner or a GM only, once per prompt;
 * writes the knock-out on a failure and posts the result with its roll.
 */
export async function rollSelfDiscipline(message: MessageLike): Promise<void> {
  const flag = message.flags?.fray?.selfDiscipline;
  if (!flag || flag.result) return;
  const actor = (await foundry.utils.fromUuid(flag.actorUuid as never)) as unknown as ActorLike | null;
  if (!actor || !(actor.isOwner || game.user?.isGM)) {
    warn("FRAY.Flow.Error.NotYours", { action: "FRAY.Critical.SelfDiscipline.Roll" });
    return;
  }
  const taken = (actor.getFlag?.("fray", "selfDiscipline") as Record<string, unknown> | undefined)?.[flag.key];
  if (taken) {
    warn("FRAY.Critical.SelfDiscipline.Taken", { actor: actor.name ?? "" });
    return;
  }
  const combatant = criticalCombatantFromActor(actorSource(actor as never));
  const roller = new FoundryRoller();
  const test = await criticalForcedCheck(combatant, FORCED, roller, optionValues("critical"));
  await actor.update({
    ...criticalVitalsUpdate(test.report.after),
    [`flags.fray.selfDiscipline.${flag.key}`]: { total: test.check.total, success: test.success },
  });
  if (!test.success) await actor.toggleStatusEffect?.("unconscious", { active: true });
  await post(
    {
      ...flag,
      result: {
        formula: test.check.roll.formula,
        natural: test.check.natural,
        lines: test.check.modifiers.map((m) => ({ label: m.label, value: m.value, rule: m.rule, ...(m.data ? { data: m.data } : {}) })),
        total: test.check.total,
        success: test.success,
      },
    },
    roller.rolls,
  );
}

/** Wires the Roll button of a prompt for its actor's owner and the GM; others do not see it. */
export function onRenderSelfDiscipline(message: MessageLike, html: HTMLElement): void {
  const flag = message.flags?.fray?.selfDiscipline;
  if (!flag) return;
  const button = html.querySelector<HTMLButtonElement>('button[data-action="fray-selfDiscipline"]');
  if (!button) return;
  const actor = foundry.utils.fromUuidSync(flag.actorUuid as never) as { isOwner?: boolean } | null;
  if (!(actor?.isOwner || game.user?.isGM)) {
    button.remove();
    return;
  }
  button.addEventListener("click", (event) => {
    event.preventDefault();
    button.disabled = true;
    void rollSelfDiscipline(message)
      .catch(reportError)
      .finally(() => {
        if (button.isConnected) button.disabled = false;
      });
  });
}

/** Registers the Self Discipline prompt's hooks; the binding's `register`, on `init`. */
export function registerSelfDiscipline(): void {
  const on = Hooks.on.bind(Hooks) as unknown as (name: string, fn: (...args: never[]) => unknown) => number;
  on(HOOKS.applyDamage, (context: Parameters<typeof promptAfterApply>[0]) => void promptAfterApply(context).catch(reportError));
  on("renderChatMessageHTML", onRenderSelfDiscipline);
}
