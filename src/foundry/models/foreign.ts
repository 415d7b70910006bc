/**
 * Keeps documents of another ruleset as they are. A world registers one ruleset's data models
 * for `character`, `npc`, `weapon` and `armor`; an actor or item saved under another ruleset
 * (its `system.ruleset`) must not be migrated or cleaned into this ruleset's shape and defaults,
 * or switching the world away and back would rewrite it. Pure apart from patching the statics
 * of the model classes it is given.
 */
import { RULESETS } from "../config.js";

type Raw = Record<string, unknown>;

/** True when a system source names another known ruleset than `ruleset` in its `ruleset` field. */
export function isForeignSource(source: unknown, ruleset: string): boolean {
  const r = typeof source === "object" && source !== null ? (source as Raw).ruleset : undefined;
  return typeof r === "string" && r !== ruleset && (RULESETS as readonly string[]).includes(r);
}

/** A data model class as far as the guard goes: its `migrateData` and (in Foundry) `cleanData`. */
interface ModelStatics {
  migrateData(source: Raw, ...rest: unknown[]): Raw;
  cleanData?(source: Raw, ...rest: unknown[]): Raw;
}

/**
 * Makes a model class of `ruleset` leave foreign sources alone: `migrateData` and `cleanData`
 * return a source of another ruleset unchanged (no reshaping, no defaults, no dropped keys).
 * Sources of `ruleset`, and sources without a `ruleset` field (UD10 content of older versions,
 * the partial data of updates), go through the model as before.
 * @param model the data model class (changed in place).
 * @param ruleset the ruleset the model belongs to.
 */
export function guardForeign(model: unknown, ruleset: string): void {
  const cls = model as ModelStatics;
  const migrate = cls.migrateData;
  cls.migrateData = function (this: unknown, source: Raw, ...rest: unknown[]) {
    return isForeignSource(source, ruleset) ? source : migrate.call(this, source, ...rest);
  };
  const clean = cls.cleanData;
  if (typeof clean === "function") {
    cls.cleanData = function (this: unknown, source: Raw, ...rest: unknown[]) {
      return isForeignSource(source, ruleset) ? source : clean.call(this, source, ...rest);
    };
  }
}
