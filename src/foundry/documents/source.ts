/**
 * The plain source of an Actor as the rules core reads it. Pure: no Foundry globals.
 */
import type { ActorSource } from "../../rules/core/sources.js";

/** The parts of an Actor this reads. */
export interface ActorLike {
  toObject(): unknown;
  statuses?: Iterable<string> | null;
}

/**
 * An actor's source with its current status effects, the shape each binding's
 * `combatantFromActor` reads.
 */
export function actorSource(actor: ActorLike): ActorSource {
  return { ...(actor.toObject() as ActorSource), statuses: Array.from(actor.statuses ?? []) };
}
