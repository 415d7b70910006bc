import { FrayError } from "./errors.js";
import type { ReactionOption } from "./ruleset.js";

/**
 * The reaction a defender declared, from the options the ruleset offers against this attack.
 * @param offered the ruleset's reaction options for this attack and defender.
 * @param id the declared reaction (`parry`, `dodge`, `block`).
 * @param defender the defender's name, for the message.
 * @throws FrayError `FRAY.Error.ReactionUnavailable` when the reaction is not offered or not
 *   available (reaction spent, no weapon to parry with, attack not anticipated ...).
 */
export function declaredReaction<R extends ReactionOption>(offered: readonly R[], id: string, defender: string): R {
  const option = offered.find((r) => r.id === id);
  if (!option || !option.available) {
    throw new FrayError(
      "FRAY.Error.ReactionUnavailable",
      { reaction: `FRAY.Reaction.${id}`, actor: defender },
      `${defender} cannot ${id}: ${option?.reason ?? "not offered"}`,
    );
  }
  return option;
}
