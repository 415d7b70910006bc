/**
 * What a Zones attack leaves on the attacker's documents once its card is posted (the binding's
 * `afterAttack`): the core's `afterAction` for each result, written back to the weapon item and
 * the actor: rounds spent (ZN-BST-01), a malfunction kept until cleared or the weapon destroyed
 * (ZN-MAL-01), the aim spent (ZN-RNG-07), a thrown weapon out of hand (ZN-THR-01) and a grenade
 * marked thrown until the GM applies its blast (ZN-GRN-01).
 */
import { createEconomy } from "../../../rules/core/economy.js";
import type { AttackResult, RulesetOptions } from "../../../rules/core/ruleset.js";
import { zones, type ZonesCombatant, type ZonesWeapon } from "../../../rules/zones/index.js";
import { combatantOf } from "../../documents/actor.js";
import { registry } from "../../registry.js";
import { optionValues } from "../../settings.js";

/** The document writes an attack leaves behind: the weapon item's changes, or its removal, and the actor's. */
export interface AfterAttackWrites {
  /** `system` changes of the weapon item; absent when nothing changed or the item goes. */
  weapon?: Partial<Pick<ZonesWeapon, "loaded" | "malfunction" | "broken" | "drawn" | "thrown">>;
  /** `system` changes of the actor (the aim spent, ZN-RNG-07). */
  actor?: { aim: number };
}

/**
 * The writes that follow from a Zones attack through the core's `afterAction` (pure): the weapon
 * after all results (one per target), the aim, and what a throw does: a thrown weapon is no
 * longer drawn (it lies where it fell until picked up), a grenade is marked `thrown`: it stays on the
 * actor, out of its weapons, until the GM applies the blast from its stats and removes it (RULES.md).
 * @throws FrayError `FRAY.Error.NoWeapon` when the weapon is not the attacker's.
 */
export function afterAttackWrites(
  attacker: ZonesCombatant,
  weaponId: string,
  results: readonly AttackResult[],
  options: RulesetOptions,
): AfterAttackWrites {
  const before = attacker.weapons.find((w) => w.id === weaponId || w.name === weaponId);
  if (!before) return {};
  let c = attacker;
  const economy = createEconomy(zones.economy(attacker, options));
  for (const result of results) {
    if (!c.weapons.some((w) => w.id === before.id)) break;
    c = zones.afterAction(c, { kind: "attack", weaponId: before.id, result }, economy, options).combatant;
  }
  const out: AfterAttackWrites = {};
  if (c.aim !== attacker.aim) out.actor = { aim: c.aim };
  const after = c.weapons.find((w) => w.id === before.id);
  if (!after) {
    out.weapon = before.kind === "grenade" ? { thrown: true } : { drawn: false };
    return out;
  }
  const changed: AfterAttackWrites["weapon"] = {};
  if (after.loaded !== before.loaded) changed.loaded = after.loaded;
  if (after.malfunction !== before.malfunction) changed.malfunction = after.malfunction;
  if (after.broken !== before.broken) changed.broken = after.broken;
  if (Object.keys(changed).length) out.weapon = changed;
  return out;
}

/** The parts of an Actor this module writes. */
interface AttackerDoc {
  items?: { get(id: string): { update?(data: Record<string, unknown>): Promise<unknown> } | undefined };
  update?(data: Record<string, unknown>): Promise<unknown>;
}

/**
 * The binding's `afterAttack`: reads the attacker through the Zones binding and writes
 * {@link afterAttackWrites} onto its weapon item and itself. An attacker the core cannot read
 * (it could not have attacked) is left alone; a write that fails is logged (the card stands).
 */
export async function zonesAfterAttack(attack: { actor: unknown; weaponId: string; results: readonly AttackResult[] }): Promise<void> {
  const binding = registry.get("zones");
  if (!binding) return;
  let attacker: ZonesCombatant;
  try {
    attacker = combatantOf<ZonesCombatant>(attack.actor as never, {}, binding);
  } catch {
    return;
  }
  const writes = afterAttackWrites(attacker, attack.weaponId, attack.results, optionValues("zones"));
  const doc = attack.actor as AttackerDoc;
  const item = doc.items?.get(attack.weaponId);
  // The card is posted already: a write that fails is logged, and the attack stands.
  try {
    if (item && writes.weapon && typeof item.update === "function") await item.update({ system: writes.weapon });
    if (writes.actor && typeof doc.update === "function") await doc.update({ system: writes.actor });
  } catch (err) {
    console.warn("Fray | afterAttack", err);
  }
}
