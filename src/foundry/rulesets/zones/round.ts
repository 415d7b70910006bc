/**
 * The start of a Zones round on an actor (ZN-SUR-01, ZN-RNG-07): the core's `startRound` read back
 * onto the document on the GM's client as the round advances: from round 2 the surprise round is
 * over (`surprised` comes off the token), and aiming actions not fired last round are lost.
 */
import type { RulesetOptions } from "../../../rules/core/ruleset.js";
import { zones } from "../../../rules/zones/index.js";
import { zonesCombatantFromActor, type ZonesCombatant } from "../../../rules/zones/model.js";
import { actorSource } from "../../documents/source.js";

/** An actor as the round's start writes it. */
interface RoundActor {
  toObject(): unknown;
  statuses?: Set<string> | null;
  update(data: Record<string, unknown>): Promise<unknown>;
  toggleStatusEffect?(id: string, options: { active: boolean }): Promise<unknown>;
}

/**
 * The binding's `startRoundOn` (ZN-SUR-01, ZN-RNG-07): the conditions the core's start of the
 * round removes or adds (the surprise round ends from round 2) as status effects, and the aim
 * (`system.aim`) when the core dropped it. The movement category and the points are the round's
 * economy's, not written here. An actor the core cannot read is left alone.
 */
export async function zonesStartRoundOn(actor: unknown, round: number, options: RulesetOptions): Promise<void> {
  const doc = actor as RoundActor;
  let before: ZonesCombatant;
  try {
    before = zonesCombatantFromActor(actorSource(doc as never) as never);
  } catch {
    return;
  }
  const after = zones.startRound(before, undefined, round, options).combatant;
  for (const id of before.conditions) if (!after.conditions.includes(id)) await doc.toggleStatusEffect?.(id, { active: false });
  for (const id of after.conditions) if (!before.conditions.includes(id)) await doc.toggleStatusEffect?.(id, { active: true });
  if (before.aim !== after.aim) await doc.update({ "system.aim": after.aim });
}
