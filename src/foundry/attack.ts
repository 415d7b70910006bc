/**
 * The attack from a weapon on a sheet, a hotbar macro or a module: `rollAttack` runs the play
 * pipeline's {@link AttackWorkflow} (play/workflow.ts) on the world's ruleset and reports what
 * stops it as a notification.
 */
import { activeRuleset, isImplemented } from "./settings.js";
import { reportError, warn } from "./notify.js";
import { AttackWorkflow, type AttackOutcome, type AttackRequest } from "./play/workflow.js";

export { actorSource } from "./documents/source.js";
export { userTargets, AttackWorkflow, type AttackOutcome, type AttackRequest } from "./play/workflow.js";

/**
 * Makes an attack and posts its card through the workflow's stages: one check per target
 * (UD-ATK-01 to UD-ATK-04), the reaction the defender declared, the hit location where the
 * ruleset rolls one (UD-ZON-01). Opens the attack dialog first unless Shift is held,
 * `skipDialog`, `situation` or `choices` is given. In combat the attack spends the attacker's
 * action (UD-ACT-02) unless it is a free attack (UD-OPT-01). A `fray.preAttack` handler
 * returning `false` stops it.
 *
 * Shows a localized notification and returns `undefined` instead of throwing when the world's
 * ruleset is not implemented yet, when nothing is targeted, when the action is spent, or when
 * the rules core refuses the attack (a FrayError: unknown weapon, an attacker who cannot act ...).
 *
 * @returns the core's results, the odds shown and the ChatMessage created.
 */
export async function rollAttack(request: AttackRequest): Promise<AttackOutcome | undefined> {
  const ruleset = activeRuleset();
  if (!isImplemented(ruleset)) {
    warn("FRAY.Notify.RulesetNotImplemented", { ruleset: rulesetLabel(ruleset) });
    return undefined;
  }
  try {
    return await new AttackWorkflow(request).run();
  } catch (err) {
    reportError(err);
    return undefined;
  }
}

/** The localized name of a ruleset (`ud10` gives "UD10"). */
export function rulesetLabel(ruleset: string): string {
  const keys: Record<string, string> = {
    ud10: "FRAY.Ruleset.ud10",
    hitbox: "FRAY.Ruleset.hitbox",
    critical: "FRAY.Ruleset.critical",
    zones: "FRAY.Ruleset.zones",
  };
  return game.i18n.localize(keys[ruleset] ?? ruleset);
}
