/**
 * List reads for the rules' tight loops, written as indexed loops. V8 runs `some`, `find` and
 * `filter` about three times slower, and `slice` about twenty times slower, on a frozen list than
 * on a plain one, and lists reach the rules frozen or not (a host's own, or shared constants); an
 * indexed loop runs alike on both. (A forecast's starting combatants share their lists between
 * fights unfrozen: `freezeShared` in src/encounter/common.ts.)
 */

/**
 * A new list of `list`'s conditions followed by `first` and `second` where given, by `concat`
 * rather than by pushing onto a copy: a combatant without conditions holds an empty list that V8
 * takes for a list of small integers, and a string pushed onto its copy inside compiled code threw
 * that code away (every ruleset's damage step, once per forecast).
 */
export function withConditions(list: readonly string[], first?: string, second?: string): string[] {
  // A plain copy when nothing is added: V8 copies without arguments in compiled code, and by a
  // call into its runtime otherwise.
  if (first === undefined && second === undefined) return list.concat();
  // One call for the rest, an empty list standing for a condition not given (`concat` adds a
  // list's items): a call made only when both are given, a rare case, was met for the first time
  // by compiled code there, and the code was thrown away.
  return list.concat(first ?? NONE, second ?? NONE);
}

/**
 * The list `withConditions` adds for a condition not given: empty, and never changed. Not frozen:
 * V8's `concat` takes a frozen list by a slower path.
 */
const NONE: readonly string[] = [];

/** True when `list` holds any of `wanted` (`list.some((x) => wanted.includes(x))`). */
export function hasAnyOf(list: readonly string[], wanted: readonly string[]): boolean {
  for (let i = 0; i < list.length; i++) if (holds(wanted, list[i]!)) return true;
  return false;
}

/** The first item whose `id` or `name` is `ref` (`list.find((x) => x.id === ref || x.name === ref)`). */
export function byIdOrName<T extends { id: string; name: string }>(list: readonly T[], ref: string): T | undefined {
  for (let i = 0; i < list.length; i++) {
    const x = list[i]!;
    if (x.id === ref || x.name === ref) return x;
  }
  return undefined;
}

/** The first item whose `kind` is `kind` (`list.find((x) => x.kind === kind)`). */
export function byKind<T extends { kind: string }>(list: readonly T[], kind: string): T | undefined {
  for (let i = 0; i < list.length; i++) if (list[i]!.kind === kind) return list[i];
  return undefined;
}

/**
 * True when `list` holds `item` (`list.includes(item)` for lists without `NaN`), by an indexed loop
 * that V8 compiles into its caller: `includes` is a call into one of V8's builtins each time
 * (counted with callgrind, a UD10 fight does 3.7% less work with this). Its one element read
 * serves every caller, so where the lists asked about come in many shapes (built empty, by
 * spreads or by pushes: Hitbox's conditions) V8 reads each item through its generic lookup;
 * Hitbox searches its conditions with a loop of its own (`hasCondition`).
 */
export function holds<T>(list: readonly T[], item: T): boolean {
  for (let i = 0; i < list.length; i++) if (list[i] === item) return true;
  return false;
}
