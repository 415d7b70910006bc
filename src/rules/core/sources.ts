/**
 * Document sources as the rules core reads them: an Actor's or Item's `toObject()` in Foundry,
 * or a compendium JSON source. Plain shapes, no Foundry globals.
 */
import { FrayError } from "./errors.js";
import type { RulesetId } from "./types.js";

/** The parts of an Item source the core reads. */
export interface ItemSource {
  _id?: string | null;
  name: string;
  type: string;
  system?: Record<string, unknown>;
}

/** The parts of an Actor source the core reads. */
export interface ActorSource {
  _id?: string | null;
  name: string;
  type: string;
  system?: Record<string, unknown>;
  items?: ItemSource[];
  /** Active conditions (status effect ids) when known. */
  statuses?: string[];
}

/** The ruleset a document's `system.ruleset` names; `undefined` when it names none. */
function rulesetOf(system: Record<string, unknown> | undefined): string | undefined {
  const r = system?.ruleset;
  return r === undefined || r === null || r === "" ? undefined : String(r);
}

/** True when a document belongs to `ruleset`: its `system.ruleset` is that ruleset or unset. */
export function belongsTo(doc: { system?: Record<string, unknown> }, ruleset: RulesetId): boolean {
  const r = rulesetOf(doc.system);
  return r === undefined || r === ruleset;
}

/**
 * Refuses a document of another ruleset.
 * @throws FrayError `FRAY.Error.WrongRuleset` naming the document and both rulesets.
 */
export function assertRuleset(doc: { name: string; system?: Record<string, unknown> }, ruleset: RulesetId): void {
  if (!belongsTo(doc, ruleset)) {
    const other = rulesetOf(doc.system)!;
    throw new FrayError(
      "FRAY.Error.WrongRuleset",
      { name: doc.name, ruleset: other, expected: `FRAY.Ruleset.${ruleset}` },
      `${doc.name} belongs to the ${other} ruleset, not ${ruleset}`,
    );
  }
}

/** An item's `system` with its id and name, the shape the rulesets' item parsers read. */
export function itemData(item: ItemSource): Record<string, unknown> {
  return { ...(item.system ?? {}), id: item._id ?? item.name, name: item.name };
}

/**
 * The raw combatant data of an Actor source for one ruleset's parser: the actor's `system`, its
 * id, name, kind (`npc` or `character`) and group, its weapons (embedded `weapon` items), the
 * armor it wears (embedded `armor` items not marked `equipped: false`) and its conditions.
 * Items of another ruleset are left out.
 * @throws FrayError `FRAY.Error.WrongRuleset` when the actor belongs to another ruleset.
 */
export function combatantData(
  actor: ActorSource,
  ruleset: RulesetId,
  overrides: Partial<{ id: string; group: string }> = {},
): Record<string, unknown> {
  assertRuleset(actor, ruleset);
  const system = actor.system ?? {};
  const items = (actor.items ?? []).filter((i) => belongsTo(i, ruleset));
  return {
    ...system,
    id: overrides.id ?? actor._id ?? actor.name,
    name: actor.name,
    kind: actor.type === "npc" ? "npc" : "character",
    group: overrides.group ?? system.group ?? (actor.type === "npc" ? "npc" : "players"),
    weapons: items.filter((i) => i.type === "weapon").map(itemData),
    armor: items.filter((i) => i.type === "armor" && i.system?.equipped !== false).map(itemData),
    conditions: actor.statuses ?? system.conditions ?? [],
  };
}
