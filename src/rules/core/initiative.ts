/**
 * Initiative helpers shared by every ruleset with an initiative roll (UD-INI-01/02,
 * CR-INI-01/02, ZN-INI-01).
 */
import type { GroupMode, InitiativeRoll } from "./ruleset.js";

/**
 * Acting order: highest total first; equal totals compare each roll's `tiebreak` values in
 * turn (higher first), then keep the order given. Each ruleset fills `tiebreak` with its own
 * tie rules (RULES.md). The input is not changed.
 */
export function orderByInitiative(rolls: readonly InitiativeRoll[]): InitiativeRoll[] {
  // An insertion sort, which keeps the order given among equals as the stable `Array.prototype.sort`
  // does: a round's handful of rolls, sorted every round of every fight of a forecast, without the
  // builtin's calls into the comparator (V8 compiles this loop with the comparator inlined).
  const out = rolls.slice();
  for (let i = 1; i < out.length; i++) {
    const r = out[i]!;
    let j = i - 1;
    while (j >= 0 && compareInitiative(out[j]!, r) > 0) {
      out[j + 1] = out[j]!;
      j--;
    }
    out[j + 1] = r;
  }
  return out;
}

/**
 * The acting-order comparator of {@link orderByInitiative}: negative when `a` acts first. Higher
 * total first; equal totals compare the `tiebreak` values in turn, higher first; 0 when even.
 */
export function compareInitiative(
  a: { total: number; tiebreak: readonly number[] },
  b: { total: number; tiebreak: readonly number[] },
): number {
  if (b.total !== a.total) return b.total - a.total;
  const at = a.tiebreak;
  const bt = b.tiebreak;
  const n = at.length > bt.length ? at.length : bt.length;
  for (let k = 0; k < n; k++) {
    const d = (bt[k] ?? 0) - (at[k] ?? 0);
    if (d) return d;
  }
  return 0;
}

/**
 * Splits combatants into initiative groups (UD-INI-02, CR-INI-01): characters always roll alone;
 * NPCs alone (`each`), one roll per group name (`group`) or one for all of them (`all`). Groups
 * keep the order their first member was given in.
 */
export function initiativeGroups<T extends { kind: string; group: string }>(combatants: readonly T[], mode: GroupMode): T[][] {
  const groups: T[][] = [];
  const byKey = new Map<string, T[]>();
  for (const c of combatants) {
    if (c.kind !== "npc" || mode === "each") {
      groups.push([c]);
      continue;
    }
    const key = mode === "all" ? "\u0000all" : c.group;
    let g = byKey.get(key);
    if (!g) {
      g = [];
      byKey.set(key, g);
      groups.push(g);
    }
    g.push(c);
  }
  return groups;
}
