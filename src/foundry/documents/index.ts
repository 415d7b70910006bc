/**
 * Registers Fray's document classes on CONFIG: Actor and Item (the core's shapes cached per
 * preparation), Combat and Combatant (initiative and the round economy). Call from `init`.
 */
import { createActorClass } from "./actor.js";
import { registerCombat } from "./combat.js";
import { createItemClass } from "./item.js";

/** Puts FrayActor, FrayItem, FrayCombat and FrayCombatant on CONFIG (each only where Foundry has its base class). */
export function registerDocuments(): void {
  if (typeof Actor !== "undefined") CONFIG.Actor.documentClass = createActorClass() as never;
  if (typeof Item !== "undefined") CONFIG.Item.documentClass = createItemClass() as never;
  registerCombat();
}
