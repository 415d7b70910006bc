/**
 * The Actor document class: its rules-core combatant is prepared once per data preparation
 * through the world's ruleset binding and cached, so the sheet, the attack, the tracker and the
 * ruler read the same combatant instead of each parsing the actor again. An actor of another
 * ruleset (its `system.ruleset`) is recognised: it has no combatant, and says which ruleset it
 * belongs to.
 */
import { FrayError } from "../../rules/core/errors.js";
import type { RulesetId } from "../../rules/core/types.js";
import { validateCombatant } from "../../rules/validate.js";
import { rulesetOfSystem } from "../models/migrate.js";
import { activeBinding, bindingOf, type CombatantOverrides, type RulesetBinding } from "../registry.js";
import { actorSource, type ActorLike } from "./source.js";
import { prototypeBars } from "./token-bars.js";

/** What one data preparation made of an actor. */
export interface PreparedCore {
  /** The ruleset the combatant was read for. */
  ruleset: string;
  /** The core's combatant; absent when the actor could not be read or is of another ruleset. */
  combatant?: unknown;
  /** Why there is no combatant (the core's FrayError). */
  error?: unknown;
  /** The ruleset the actor belongs to, when it is not the world's. */
  foreign?: string;
}

/** The members the Actor class adds, as callers read them. */
export interface FrayActorApi {
  /** This preparation's combatant (prepared on first use when the preparation did not). */
  frayCore(): PreparedCore;
}

// Foundry calls `prepareData` from the base constructor, before a subclass's own fields exist:
// the cache lives beside the document, not in a class field.
const prepared = new WeakMap<object, PreparedCore>();

/** The ruleset a document's source belongs to (`system.ruleset`, `ud10` when unset). */
export function rulesetOfDocument(doc: { _source?: { system?: unknown }; system?: unknown }): string {
  return rulesetOfSystem(doc._source?.system ?? doc.system);
}

/**
 * The core's combatant of an actor source: the binding's lenient translation, then the core's
 * own check of the result (`validateCombatant`), so a stored value the core refuses (a rating
 * beyond its bound, a malformed weapon) stops here with the field named, never deeper in play
 * as a TypeError.
 * @throws FrayError of the translation (unreadable data, another ruleset) or of the check,
 *   naming the field (`combatant.skills.melee.rating`) and what it should hold.
 */
export function readCombatant(
  binding: RulesetBinding<unknown>,
  source: ReturnType<typeof actorSource>,
  overrides: CombatantOverrides = {},
): unknown {
  const combatant = binding.combatantFromActor(source, overrides);
  validateCombatant(binding.id as RulesetId, combatant);
  return combatant;
}

/**
 * Reads an actor's combatant through a binding ({@link readCombatant}), catching the core's
 * error: a refused actor has no combatant and keeps the error, which its sheet shows and an
 * attack with it reports.
 * @param actor an actor with `toObject()` and `statuses`.
 */
export function prepareCore(
  actor: ActorLike & { _source?: { system?: unknown }; system?: unknown },
  binding: RulesetBinding<unknown> = activeBinding(),
): PreparedCore {
  const of = rulesetOfDocument(actor);
  const foreign = of !== binding.id ? of : undefined;
  try {
    return { ruleset: binding.id, combatant: readCombatant(binding, actorSource(actor)), foreign };
  } catch (error) {
    return { ruleset: binding.id, error, foreign };
  }
}

/** True when `actor` is an instance of the Fray Actor class. */
function isFrayActor(actor: unknown): actor is FrayActorApi {
  return typeof (actor as Partial<FrayActorApi> | null)?.frayCore === "function";
}

/**
 * The rules-core combatant of an actor for the world's ruleset: the Fray Actor's cached one, or
 * (for any other actor-like object) read through the binding now. `overrides` set the id the
 * combatant goes by (a token's or a Combatant's) and its initiative group.
 * @throws FrayError when the actor cannot be read or the core refuses a stored value (the core's
 *   error, naming the field), or belongs to another ruleset (`FRAY.Error.WrongRuleset`).
 */
export function combatantOf<C = unknown>(
  actor: ActorLike,
  overrides: CombatantOverrides = {},
  binding: RulesetBinding<unknown> = activeBinding(),
): C {
  const core = isFrayActor(actor) ? actor.frayCore() : undefined;
  if (core && core.ruleset === binding.id) {
    if (core.combatant === undefined)
      throw (
        core.error ??
        new FrayError(
          "FRAY.Error.WrongRuleset",
          { name: "", ruleset: core.foreign ?? "", expected: `FRAY.Ruleset.${binding.id}` },
          `Not a ${binding.id} actor`,
        )
      );
    const c = core.combatant as Record<string, unknown>;
    return { ...c, ...(overrides.id ? { id: overrides.id } : {}), ...(overrides.group ? { group: overrides.group } : {}) } as C;
  }
  return readCombatant(binding, actorSource(actor), overrides) as C;
}

/** The rules-core combatant of an actor, or `undefined` when it cannot be read. */
export function tryCombatantOf<C = unknown>(actor: ActorLike | null | undefined, overrides: CombatantOverrides = {}): C | undefined {
  if (!actor) return undefined;
  try {
    return combatantOf<C>(actor, overrides);
  } catch {
    return undefined;
  }
}

/**
 * Builds the Actor class (Foundry's document classes exist only once it has loaded, so the
 * subclass is made in `init`).
 */
export function createActorClass() {
  /** Fray's Actor: the combatant of the world's ruleset, cached per data preparation. */
  class FrayActor extends Actor {
    /**
     * Reads the combatant once per preparation, before the system model derives its values
     * (statuses are known by then), so the model can use it too.
     */
    override prepareDerivedData(): void {
      prepared.set(this, prepareCore(this as unknown as ActorLike));
      super.prepareDerivedData();
    }

    /** This preparation's combatant (see {@link FrayActorApi.frayCore}). */
    frayCore(): PreparedCore {
      let core = prepared.get(this);
      if (!core) {
        core = prepareCore(this as unknown as ActorLike);
        prepared.set(this, core);
      }
      return core;
    }

    /**
     * A new actor's prototype token shows the bars of its ruleset (`tokenBars` of the binding of
     * its `system.ruleset`, the world's by default) unless the creation data names them.
     */
    override async _preCreate(...args: Parameters<Actor["_preCreate"]>): Promise<boolean | void> {
      const allowed = await super._preCreate(...args);
      if (allowed === false) return false;
      const data = args[0] as unknown as Parameters<typeof prototypeBars>[1] & { system?: { ruleset?: unknown } };
      const ruleset = typeof data.system?.ruleset === "string" ? data.system.ruleset : undefined;
      const update = prototypeBars(bindingOf(ruleset).tokenBars, data);
      if (update) this.updateSource(update as never);
    }

    /** The core's combatant of this actor, or `undefined` (another ruleset, unreadable data). */
    get combatant(): unknown {
      return this.frayCore().combatant;
    }

    /** The ruleset this actor belongs to, when it is not the world's (it is shown, never cleaned). */
    get foreignRuleset(): string | undefined {
      return this.frayCore().foreign;
    }
  }
  return FrayActor;
}
