/**
 * Initiative for the combat tracker: which combatants roll together, and the updates one roll
 * per group gives (UD-INI-01 to UD-INI-03, CR-INI-01). Pure and generic over the ruleset: the
 * Combat class feeds it the active binding's ruleset, combatants and a dice roller (a
 * FoundryRoller in play, a ScriptedRoller in tests).
 */
import type { DiceRoller } from "../../rules/core/dice/port.js";
import { compareInitiative as coreCompare } from "../../rules/core/initiative.js";
import type { InitiativeRoll, Ruleset, RulesetOptions } from "../../rules/core/ruleset.js";

/**
 * What the tracker needs of a ruleset to roll initiative: the core's roll, order and timing, and
 * how combatants group for one roll (absent: each rolls alone).
 * @typeParam C the ruleset's combatant shape.
 */
export interface InitiativePlay<C> {
  ruleset: Pick<Ruleset<C, unknown>, "rollInitiative" | "order" | "initiativeTiming">;
  /** The groups that roll together under the options (UD-INI-02, CR-INI-01). */
  initiativeGroups?(members: C[], options: RulesetOptions): C[][];
}

/** One combatant of the tracker with its rules-core stats; `id` is the Combatant's id. */
export interface TrackerEntry<C = unknown> {
  id: string;
  combatant: C;
}

/**
 * An initiative update for one Combatant: nested objects (not dotted keys), so it can be one
 * row of an embedded update written during `Combat#_preUpdate`.
 */
export interface InitiativeUpdate {
  _id: string;
  initiative: number;
  /** The core's tie-break values of the roll (Initiative value, then DEX; RULES.md). */
  flags: { fray: { tiebreak: number[] } };
}

/** The rolls of one pass over the tracker and the updates they give. */
export interface InitiativePass {
  rolls: InitiativeRoll[];
  updates: InitiativeUpdate[];
}

/**
 * Rolls initiative for tracker entries (UD-INI-01): characters alone; NPCs alone, per group or
 * all together as the ruleset groups them (UD-INI-02, CR-INI-01); each member of a group gets the
 * group's one total; with `requested`, only the groups of those combatants roll (rolling one
 * NPC of a group rolls the whole group). Each update carries the core's tie-break values, which
 * {@link compareInitiative} hands to the core's comparator.
 * @param play the ruleset's initiative (a binding).
 * @param entries the tracker's combatants; each combatant's `id` is replaced by the entry's.
 */
export async function rollTracker<C extends { id: string }>(
  play: InitiativePlay<C>,
  entries: readonly TrackerEntry<C>[],
  dice: DiceRoller,
  options: RulesetOptions,
  requested?: readonly string[],
): Promise<InitiativePass> {
  const known = new Set<string>();
  const members = entries.map((e) => {
    known.add(e.id);
    return { ...e.combatant, id: e.id };
  });
  const grouped = play.initiativeGroups ? play.initiativeGroups(members, options) : members.map((m) => [m]);
  // Rolling for one NPC of a group rolls for its whole group: the group shares one total (UD-INI-02).
  const groups = grouped.filter((g) => !requested || g.some((c) => requested.includes(c.id)));
  const rolls: InitiativeRoll[] = [];
  for (const group of groups) rolls.push(await play.ruleset.rollInitiative(group, dice));
  const updates: InitiativeUpdate[] = [];
  for (const roll of play.ruleset.order(rolls)) {
    for (const id of roll.members)
      if (known.has(id)) updates.push({ _id: id, initiative: roll.total, flags: { fray: { tiebreak: [...roll.tiebreak] } } });
  }
  return { rolls, updates };
}

/** Whether a new round rolls initiative again (UD-INI-01) or keeps it (UD-INI-03): the core's timing. */
export function rerollOnNewRound(play: Pick<InitiativePlay<unknown>, "ruleset">, options: RulesetOptions): boolean {
  return play.ruleset.initiativeTiming(options) === "round";
}

/** What the tracker sorts by: initiative and the tie-break of the last roll. */
export interface Sortable {
  initiative: number | null;
  tiebreak?: readonly number[];
  name?: string;
}

/**
 * Tracker order (UD-INI-01): the core's acting order (`compareInitiative`) for combatants with
 * initiative, those without last, then by name.
 */
export function compareInitiative(a: Sortable, b: Sortable): number {
  if (a.initiative === null || b.initiative === null) {
    if (a.initiative !== b.initiative) return a.initiative === null ? 1 : -1;
  } else {
    const d = coreCompare({ total: a.initiative, tiebreak: a.tiebreak ?? [] }, { total: b.initiative, tiebreak: b.tiebreak ?? [] });
    if (d) return d;
  }
  return (a.name ?? "").localeCompare(b.name ?? "");
}

/** One row of the initiative summary message. */
export interface SummaryRow {
  /** The members of one roll (an NPC group shares it, UD-INI-02), comma separated. */
  names: string;
  natural: number;
  modifier: number;
  total: number;
}

/** The rows of the summary message of a pass, in the ruleset's acting order (UD-INI-01, UD-INI-02). */
export function summaryRows(
  play: Pick<InitiativePlay<unknown>, "ruleset">,
  pass: InitiativePass,
  names: ReadonlyMap<string, string>,
): SummaryRow[] {
  return play.ruleset.order(pass.rolls).map((r) => ({
    names: r.members.map((id) => names.get(id) ?? id).join(", "),
    natural: r.check.natural,
    modifier: r.check.modifiers.reduce((t, m) => t + m.value, 0),
    total: r.total,
  }));
}

/** One group of combatants sharing a roll (UD-INI-02, CR-INI-01), as a v13 `CombatantGroup` holds it. */
export interface GroupPlan {
  /** The key that finds the group again: its members' ids, sorted and joined by `+`. */
  key: string;
  /** Combatant ids of the members, in roll order. */
  members: string[];
  /** The shared initiative total. */
  initiative: number;
}

/** The key of a group of combatant ids (order-independent). */
export function groupKey(ids: readonly string[]): string {
  return [...ids].sort().join("+");
}

/**
 * The groups of a pass that share one roll: every roll with more than one member present in the
 * tracker (UD-INI-02 NPC groups, CR-INI-01 group initiative). A roll of one combatant is no group.
 * @param present the Combatant ids in the tracker.
 */
export function groupsOfPass(pass: InitiativePass, present: ReadonlySet<string>): GroupPlan[] {
  return pass.rolls
    .map((r) => r.members.filter((id) => present.has(id)))
    .map((members, i) => ({ members, initiative: pass.rolls[i]!.total }))
    .filter((g) => g.members.length > 1)
    .map((g) => ({ key: groupKey(g.members), ...g }));
}
