/**
 * The combat tracker's defeated flag follows the ruleset's out state: as an actor's vitals or
 * conditions change, the active GM marks each of its Combatants defeated once the ruleset puts it
 * out of the fight (`isOutOf`: its vitals, or a condition marked `out` such as unconscious, shock
 * or down, not only `dead`), and lifts the mark again once it is back in (healed, damage undone)
 * when the mark was the rules' own (`flags.fray.outDefeated`). A combatant the GM marked defeated
 * by hand stays so.
 */
import { isOutOf } from "../conditions.js";
import { tryCombatantOf } from "../documents/actor.js";
import type { ActorLike } from "../documents/source.js";
import { reportError } from "../notify.js";
import { isActiveGM } from "../queries.js";
import { activeBinding, type AnyBinding } from "../registry.js";

/** A Combatant as the defeated mark reads and writes it. */
export interface DefeatedCombatant {
  id?: string | null;
  actor?: unknown;
  tokenId?: string | null;
  defeated?: boolean;
  getFlag?(scope: string, key: string): unknown;
  update?(changes: Record<string, unknown>): Promise<unknown>;
}

/**
 * The update of a Combatant's defeated mark for its out state: marked (and flagged as the rules'
 * mark) when out and not marked yet; unmarked when in and the mark is the rules' own; `undefined`
 * when nothing changes. Pure.
 */
export function defeatedChange(
  combatant: Pick<DefeatedCombatant, "defeated" | "getFlag">,
  out: boolean,
): Record<string, unknown> | undefined {
  const marked = Boolean(combatant.defeated);
  if (out && !marked) return { defeated: true, "flags.fray.outDefeated": true };
  if (!out && marked && combatant.getFlag?.("fray", "outDefeated")) return { defeated: false, "flags.fray.-=outDefeated": null };
  return undefined;
}

/** The combats of the world (`game.combats`), or the one viewed where the collection is missing. */
function combats(): { combatants?: Iterable<DefeatedCombatant> }[] {
  const g = game as unknown as { combats?: Iterable<unknown>; combat?: unknown };
  if (g.combats) return Array.from(g.combats) as { combatants?: Iterable<DefeatedCombatant> }[];
  return g.combat ? [g.combat as { combatants?: Iterable<DefeatedCombatant> }] : [];
}

/**
 * Brings the defeated mark of every Combatant of `actor` (in any combat) in line with the
 * ruleset's out state; on the active GM's client only, so one client writes. An actor the ruleset
 * cannot read changes nothing.
 */
export async function syncDefeated(actor: ActorLike, binding: AnyBinding = activeBinding()): Promise<void> {
  if (!isActiveGM()) return;
  const uuid = (actor as { uuid?: string }).uuid;
  for (const combat of combats()) {
    for (const combatant of Array.from(combat.combatants ?? [])) {
      const own = combatant.actor as { uuid?: string } | null | undefined;
      if (!own || (own !== actor && own.uuid !== uuid)) continue;
      const core = tryCombatantOf(own as ActorLike, combatant.tokenId ? { id: combatant.tokenId } : {});
      if (core === undefined) continue;
      const change = defeatedChange(combatant, isOutOf(binding, core));
      if (change) await combatant.update?.(change);
    }
  }
}

/**
 * Registers the hooks that keep the mark in line: an actor's update (its vitals), a status
 * effect added or removed (its conditions), and a Combatant added to a combat (already out as
 * it joins). Call from `init`.
 */
export function registerDefeated(): void {
  const on = Hooks.on.bind(Hooks) as unknown as (name: string, fn: (...args: never[]) => unknown) => number;
  on("updateActor", (actor: ActorLike) => void syncDefeated(actor).catch(reportError));
  on("createCombatant", (combatant: DefeatedCombatant) => {
    if (combatant.actor) void syncDefeated(combatant.actor as ActorLike).catch(reportError);
  });
  const byEffect = (effect: { parent?: unknown }) => {
    const parent = effect.parent as { documentName?: string } | null | undefined;
    if (parent && parent.documentName !== "Item") void syncDefeated(parent as ActorLike).catch(reportError);
  };
  on("createActiveEffect", byEffect);
  on("deleteActiveEffect", byEffect);
}
