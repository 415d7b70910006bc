/**
 * Zones initiative in Foundry (ZN-INI-01 to ZN-INI-03): the effort points an actor commits on its
 * sheet (`system.initiativeEffort`) add +1 each to its next initiative roll (the core's lines),
 * and once the tracker has rolled they are paid from the effort pool and the field goes back to 0
 * (the binding's `afterInitiative`). Players roll only their own combatants and the GM everyone
 * else, so the client that rolled owns the actors it writes; an actor it does not own is left to
 * its owner (RULES.md).
 */
import { spendInitiativeEffort } from "../../../rules/zones/initiative.js";
import { rollsInitiative } from "../../../rules/zones/turn.js";
import type { ZonesCombatant } from "../../../rules/zones/model.js";
import { tryCombatantOf } from "../../documents/actor.js";
import type { ActorLike } from "../../documents/source.js";

/** The parts of an Actor this module writes. */
interface EffortActor {
  isOwner?: boolean;
  update?(data: Record<string, unknown>): Promise<unknown>;
}

/**
 * The binding's `initiativeRefusal` (ZN-SUR-01): a combatant surprised in the first round does
 * not roll initiative for it (the core's `rollsInitiative`); the GM lets it roll by taking the
 * `surprised` status off. Actors the core cannot read roll.
 * @param round the round the roll is for (0 before the combat starts).
 * @returns the warning's i18n key (`{name}`), or undefined when it rolls.
 */
export function zonesInitiativeRefusal(actor: unknown, round: number): string | undefined {
  const c = tryCombatantOf<ZonesCombatant>(actor as ActorLike);
  return c && !rollsInitiative(c, round) ? "FRAY.Zones.Surprise.NoInitiative" : undefined;
}

/**
 * The binding's `afterInitiative` (ZN-INI-02): for each actor that rolled with effort points
 * committed, the effort pool less those points and the committed field back to 0, computed by
 * the core's `spendInitiativeEffort`. Actors the core cannot read, with nothing committed, or not
 * owned by this user are left alone.
 * @throws FrayError `FRAY.Error.Zones.NotEnoughPoints` from the core (the roll refuses it first).
 */
export async function zonesAfterInitiative(actors: readonly unknown[]): Promise<void> {
  for (const actor of actors) {
    const c = tryCombatantOf<ZonesCombatant>(actor as ActorLike);
    if (!c) continue;
    const spent = spendInitiativeEffort(c);
    const doc = actor as EffortActor;
    if (!spent || !doc.isOwner || typeof doc.update !== "function") continue;
    await doc.update({ "system.effort.value": spent.effort, "system.initiativeEffort": spent.initiativeEffort });
  }
}
