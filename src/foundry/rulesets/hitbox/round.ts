/**
 * The start of a Hitbox turn on an actor (HB-RND-01, HB-ACT-04, HB-DMG-04, HB-RND-02): the core's
 * `startRound` read back onto the document: whoever went prone or dropped to dodge last turn
 * (`goingProne`) now lies `prone`; under **Turns until death in shock** the count of turns left is
 * stored, and death set when it runs out.
 */
import { hitbox, hitboxCombatantFromActor, type HitboxCombatant } from "../../../rules/hitbox/index.js";
import type { RulesetOptions } from "../../../rules/core/ruleset.js";
import { actorSource } from "../../documents/source.js";

/** An actor as the turn's start writes it. */
interface RoundActor {
  toObject(): unknown;
  statuses?: Set<string> | null;
  update(data: Record<string, unknown>): Promise<unknown>;
  toggleStatusEffect?(id: string, options: { active: boolean }): Promise<unknown>;
}

/**
 * Applies the core's start of a turn to one actor: status effects added and removed as the
 * core's combatant changed, and the shock count (`system.shockTurnsLeft`) when it changed.
 * An actor the core cannot read is left alone.
 */
export async function hitboxStartRoundOn(actor: unknown, round: number, options: RulesetOptions): Promise<void> {
  const doc = actor as RoundActor;
  let before: HitboxCombatant;
  try {
    before = hitboxCombatantFromActor(actorSource(doc as never) as never);
  } catch {
    return;
  }
  const after = hitbox.startRound(before, undefined, round, options).combatant;
  for (const id of before.conditions) if (!after.conditions.includes(id)) await doc.toggleStatusEffect?.(id, { active: false });
  for (const id of after.conditions) if (!before.conditions.includes(id)) await doc.toggleStatusEffect?.(id, { active: true });
  if (before.shockTurnsLeft !== after.shockTurnsLeft) await doc.update({ system: { shockTurnsLeft: after.shockTurnsLeft ?? null } });
}
