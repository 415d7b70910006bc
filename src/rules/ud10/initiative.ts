import { initiativeGroups as groupForInitiative, orderByInitiative } from "../core/initiative.js";
import type { DiceRoller } from "../core/dice/port.js";
import { FrayError } from "../core/errors.js";
import type { InitiativeRoll } from "../core/ruleset.js";
import { skillValue } from "./attack.js";
import type { Ud10Combatant } from "./model.js";
import type { Ud10Options } from "./options.js";

/** The initiative value added to the d10: the Initiative skill, or DEX untrained (UD-INI-01). */
export function initiativeValue(c: Ud10Combatant): number {
  return skillValue(c, "initiative").value;
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
  if (!members.length) throw new FrayError("FRAY.Error.NoCombatants", {}, "No combatants to roll initiative for");
  const leader = members.reduce((best, c) => (initiativeValue(c) > initiativeValue(best) ? c : best));
  const value = initiativeValue(leader);
  const roll = await dice.roll("1d10", "FRAY.Roll.Initiative");
  const mods = [
    {
      label: leader.skills.initiative.trained ? "FRAY.Mod.Skill" : "FRAY.Mod.Untrained",
      value,
      rule: "UD-INI-01" as const,
      data: { skill: "FRAY.Skill.initiative", attribute: "DEX" },
    },
  ];
  const total = roll.total + value;
  return {
    members: members.map((m) => m.id),
    check: { roll, natural: roll.total, modifiers: mods, total },
    total,
    tiebreak: [value, leader.attributes.DEX],
  };
}

/**
 * Acting order: highest total first, then descending (UD-INI-01); ties go to the higher
 * Initiative value, then the higher DEX, then the order given (RULES.md).
 */
export function order(rolls: InitiativeRoll[]): InitiativeRoll[] {
  return orderByInitiative(rolls);
}

/**
 * Splits combatants into initiative groups by the NPC setting (UD-INI-02): characters always
 * roll alone; NPCs alone (`each`), per group name (`group`) or all together (`all`).
 */
export function initiativeGroups(combatants: Ud10Combatant[], options: Pick<Ud10Options, "npcInitiative">): Ud10Combatant[][] {
  return groupForInitiative(combatants, options.npcInitiative);
}

/** Whether initiative is rolled again at the start of each round (UD-INI-01) or kept (UD-INI-03). */
export function rerollEachRound(options: Pick<Ud10Options, "initiativeCarryOver">): boolean {
  return !options.initiativeCarryOver;
}
