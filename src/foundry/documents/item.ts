/**
 * The Item document class: the ruleset it belongs to, recognised from its `system.ruleset`, and
 * its rules-core weapon or armor through the world's binding, read once per preparation.
 */
import { activeBinding } from "../registry.js";
import { rulesetOfDocument } from "./actor.js";

/** What one preparation made of an item. */
export interface PreparedItem {
  /** The core's weapon or armor; absent when it cannot be read, or the binding reads items only with the actor. */
  core?: unknown;
  error?: unknown;
  /** The ruleset the item belongs to, when it is not the world's. */
  foreign?: string;
}

const prepared = new WeakMap<object, PreparedItem>();

/** Reads an item through the world's binding. */
export function prepareItem(item: { toObject(): unknown; type: string; _source?: { system?: unknown }; system?: unknown }): PreparedItem {
  const binding = activeBinding();
  const of = rulesetOfDocument(item);
  if (of !== binding.id) return { foreign: of };
  const read = item.type === "weapon" ? binding.weaponFromItem : item.type === "armor" ? binding.armorFromItem : undefined;
  if (!read) return {};
  try {
    return { core: read(item.toObject() as never) };
  } catch (error) {
    return { error };
  }
}

/** Builds the Item class (made in `init`, once Foundry's classes exist). */
export function createItemClass() {
  /** Fray's Item: its ruleset and core shape, read once per preparation. */
  class FrayItem extends Item {
    override prepareDerivedData(): void {
      super.prepareDerivedData();
      prepared.delete(this);
    }

    /** This preparation's reading of the item. */
    frayCore(): PreparedItem {
      let core = prepared.get(this);
      if (!core) {
        core = prepareItem(this as never);
        prepared.set(this, core);
      }
      return core;
    }

    /** The ruleset this item belongs to, when it is not the world's. */
    get foreignRuleset(): string | undefined {
      return this.frayCore().foreign;
    }
  }
  return FrayItem;
}
