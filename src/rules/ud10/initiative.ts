import { initiativeGroups as groupForInitiative, orderByInitiative } from "../core/initiative.js";
import type { DiceRoller, SyncDiceRoller } from "../core/dice/port.js";
import type { Modifier, RollOutcome } from "../core/types.js";
import { FrayError } from "../core/errors.js";
import type { InitiativeRoll } from "../core/ruleset.js";
import { checkValue } from "./attack.js";
import type { Ud10Combatant } from "./model.js";
import type { Ud10Options } from "./options.js";

/** The initiative value added to the d10: the Initiative skill, or DEX untrained (UD-INI-01). */
export function initiativeValue(c: Ud10Combatant): number {
  return checkValue(c, "initiative");
}

/** The initiative formula of one combatant, e.g. `1d10 + 4` (UD-INI-01). */
export function initiativeFormula(c: Ud10Combatant): string {
  const v = initiativeValue(c);
  return v < 0 ? `1d10 - ${-v}` : `1d10 + ${v}`;
}

/**
 * Rolls one initiative for combatants acting together (UD-INI-01, UD-INI-02): one d10 plus the
 * best Initiative value among them (a group acts on its leader's count, RULES.md).
 * @throws FrayError `FRAY.Error.NoCombatants` for an empty group.
 */
export async function rollInitiative(members: Ud10Combatant[], dice: DiceRoller): Promise<InitiativeRoll> {
  const leader = leaderOf(members);
  return initiativeRoll(members, leader, await dice.roll("1d10", "FRAY.Roll.Initiative"));
}

/**
 * {@link rollInitiative} with a roller that rolls at once (a forecast): the same roll from the
 * same die, without a promise.
 * @throws FrayError `FRAY.Error.NoCombatants` for an empty group.
 */
export function rollInitiativeSync(members: Ud10Combatant[], dice: SyncDiceRoller): InitiativeRoll {
  const leader = members.length === 1 ? members[0]! : leaderOf(members);
  return initiativeRoll(members, leader, dice.rollSync("1d10", "FRAY.Roll.Initiative"));
}

/**
 * The member whose Initiative value the group rolls with: the highest, the first of equals.
 * @throws FrayError `FRAY.Error.NoCombatants` for an empty group.
 */
function leaderOf(members: Ud10Combatant[]): Ud10Combatant {
  if (!members.length) throw new FrayError("FRAY.Error.NoCombatants", {}, "No combatants to roll initiative for");
  let leader = members[0]!;
  let best = initiativeValue(leader);
  for (let i = 1; i < members.length; i++) {
    const v = initiativeValue(members[i]!);
    if (v > best) {
      leader = members[i]!;
      best = v;
    }
  }
  return leader;
}

/** The initiative roll of a group from its leader's value and the d10 rolled (UD-INI-01). */
function initiativeRoll(members: Ud10Combatant[], leader: Ud10Combatant, roll: RollOutcome): InitiativeRoll {
  const value = initiativeValue(leader);
  const mods = initiativeLines(leader.skills.initiative.trained, value);
  const total = roll.total + value;
  return {
    members: members.length === 1 ? [leader.id] : members.map((m) => m.id),
    check: { roll, natural: roll.total, modifiers: mods, total },
    total,
    tiebreak: [value, leader.attributes.DEX],
  };
}

/**
 * The modifier lines of an initiative roll: the Initiative skill, or DEX untrained (UD-INI-01).
 * They depend only on the training and the value, so for whole values within ±64 each is built
 * once and frozen, shared by every roll with them (a forecast rolls initiative every round).
 */
function initiativeLines(trained: boolean, value: number): Modifier[] {
  if (!Number.isInteger(value) || value < -64 || value > 64) return freshInitiativeLines(trained, value);
  const table = INITIATIVE_LINES[trained ? 0 : 1]!;
  let lines = table[value + 64];
  if (!lines) {
    lines = freshInitiativeLines(trained, value);
    for (const line of lines) Object.freeze(Object.freeze(line).data);
    table[value + 64] = Object.freeze(lines) as Modifier[];
  }
  return lines;
}
/** The modifier lines of an initiative roll built anew (see {@link initiativeLines}). */
function freshInitiativeLines(trained: boolean, value: number): Modifier[] {
  return [
    {
      label: trained ? "FRAY.Mod.Skill" : "FRAY.Mod.Untrained",
      value,
      rule: "UD-INI-01",
      data: { skill: "FRAY.Skill.initiative", attribute: "DEX" },
    },
  ];
}
/** {@link initiativeLines} by training (trained, untrained), then by value. */
const INITIATIVE_LINES: Modifier[][][] = [[], []];

/**
 * Acting order: highest total first, then descending (UD-INI-01); ties go to the higher
 * Initiative value, then the higher DEX, then the order given (RULES.md).
 */
export const order: (rolls: readonly InitiativeRoll[]) => InitiativeRoll[] = orderByInitiative;

/**
 * Splits combatants into initiative groups by the NPC setting (UD-INI-02): characters always
 * roll alone; NPCs alone (`each`), per group name (`group`) or all together (`all`).
 */
export function initiativeGroups(combatants: Ud10Combatant[], options: Pick<Ud10Options, "npcInitiative">): Ud10Combatant[][] {
  // Everyone alone: the core's grouping without its map (a forecast groups every round).
  if (options.npcInitiative === "each") {
    const groups: Ud10Combatant[][] = new Array<Ud10Combatant[]>(combatants.length);
    for (let i = 0; i < combatants.length; i++) groups[i] = [combatants[i]!];
    return groups;
  }
  return groupForInitiative(combatants, options.npcInitiative);
}

/** Whether initiative is rolled again at the start of each round (UD-INI-01) or kept (UD-INI-03). */
export function rerollEachRound(options: Pick<Ud10Options, "initiativeCarryOver">): boolean {
  return !options.initiativeCarryOver;
}
