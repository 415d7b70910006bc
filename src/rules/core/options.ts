import type { OptionSpec, RulesetOptions } from "./ruleset.js";

/** Reads one option's value from a ruleset's option values (see {@link optionReader}). */
export type OptionReader = <T extends boolean | number | string>(options: RulesetOptions, id: string) => T;

/**
 * A reader of a ruleset's option values: the value given for an option when it has the type of
 * the option's default and, for a choice, is one of its choices; the default otherwise. The specs
 * are indexed once, so reading an option costs one map lookup (the rulesets resolve their options
 * on every call of an attack step).
 * @param specs the ruleset's options; every id read must be among them.
 */
export function optionReader(specs: readonly OptionSpec[]): OptionReader {
  const byId = new Map(specs.map((s) => [s.id, s]));
  return <T extends boolean | number | string>(options: RulesetOptions, id: string): T => {
    const spec = byId.get(id)!;
    const v = options[id];
    if (typeof v !== typeof spec.default) return spec.default as T;
    if (spec.choices && !spec.choices.includes(String(v))) return spec.default as T;
    return v as T;
  };
}
