/**
 * Initiative for the combat tracker: which combatants roll together, and the updates one roll
 * per group gives (UD-INI-01 to UD-INI-03). Pure: the Combat subclass feeds it combatants and a
 * dice roller (a FoundryRoller in play, a ScriptedRoller in tests).
 */
import type { DiceRoller } from "../../rules/core/dice/port.js";
import { compareInitiative as coreCompare } from "../../rules/core/initiative.js";
import type { InitiativeRoll, RulesetOptions } from "../../rules/core/ruleset.js";
import { initiativeGroups, rerollEachRound, ud10, ud10Options, type Ud10Combatant } from "../../rules/ud10/index.js";

/** One combatant of the tracker with its rules-core stats; `id` is the Combatant's id. */
export interface TrackerEntry {
  id: string;
  combatant: Ud10Combatant;
}

/** An initiative update for one Combatant. */
export interface InitiativeUpdate {
  _id: string;
  initiative: number;
  /** The core's tie-break values of the roll (Initiative value, then DEX; RULES.md). */
  "flags.fray.tiebreak": number[];
}

/** The rolls of one pass over the tracker and the updates they give. */
export interface InitiativePass {
  rolls: InitiativeRoll[];
  updates: InitiativeUpdate[];
}

/**
 * Rolls initiative for tracker entries (UD-INI-01): characters alone; NPCs alone, per group or
 * all together by the `npcInitiative` option (UD-INI-02); each member of a group gets the
 * group's one total; with `requested`, only the groups of those combatants roll (rolling one
 * NPC of a group rolls the whole group). Each update carries the core's tie-break values, which
 * {@link compareInitiative} hands to the core's comparator.
 */
export async function rollTracker(entries: readonly TrackerEntry[], dice: DiceRoller, options: RulesetOptions, requested?: readonly string[]): Promise<InitiativePass> {
  const byCoreId = new Map<string, TrackerEntry>();
  const members = entries.map((e) => {
    const c = { ...e.combatant, id: e.id };
    byCoreId.set(e.id, e);
    return c;
  });
  // Rolling for one NPC of a group rolls for its whole group: the group shares one total (UD-INI-02).
  const groups = initiativeGroups(members, ud10Options(options)).filter((g) => !requested || g.some((c) => requested.includes(c.id)));
  const rolls: InitiativeRoll[] = [];
  for (const group of groups) rolls.push(await ud10.rollInitiative(group, dice));
  const ordered = ud10.order(rolls);
  const updates: InitiativeUpdate[] = [];
  for (const roll of ordered) {
    for (const id of roll.members) if (byCoreId.has(id)) updates.push({ _id: id, initiative: roll.total, "flags.fray.tiebreak": [...roll.tiebreak] });
  }
  return { rolls, updates };
}

/** Whether a new round rolls initiative again (UD-INI-01) or keeps it (UD-INI-03). */
export function rerollOnNewRound(options: RulesetOptions): boolean {
  return rerollEachRound(ud10Options(options));
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

/** The rows of the summary message of a pass, in acting order (UD-INI-01, UD-INI-02). */
export function summaryRows(pass: InitiativePass, names: ReadonlyMap<string, string>): SummaryRow[] {
  return ud10.order(pass.rolls).map((r) => ({
    names: r.members.map((id) => names.get(id) ?? id).join(", "),
    natural: r.check.natural,
    modifier: r.check.modifiers.reduce((t, m) => t + m.value, 0),
    total: r.total,
  }));
}
