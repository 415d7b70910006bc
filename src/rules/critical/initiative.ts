import { initiativeGroups as groupForInitiative, orderByInitiative } from "../core/initiative.js";
import type { DiceRoller } from "../core/dice/port.js";
import { FrayError } from "../core/errors.js";
import type { InitiativeRoll } from "../core/ruleset.js";
import type { Modifier } from "../core/types.js";
import type { CriticalCombatant } from "./model.js";
import type { CriticalOptions } from "./options.js";

/** The initiative formula of one combatant: `1d100 + Quickness bonus` (CR-INI-01). */
export function initiativeFormula(c: CriticalCombatant): string {
  return c.quickness < 0 ? `1d100 - ${-c.quickness}` : `1d100 + ${c.quickness}`;
}

/**
 * Rolls one initiative for combatants acting together (CR-INI-01): d100 (not open-ended) plus
 * the best Quickness bonus among them; a group acts on its leader's count (RULES.md). Rolled
 * once per combat.
 * @throws FrayError `FRAY.Error.NoCombatants` for an empty group.
 */
export async function rollInitiative(members: CriticalCombatant[], dice: DiceRoller): Promise<InitiativeRoll> {
  if (!members.length) throw new FrayError("FRAY.Error.NoCombatants", {}, "No combatants to roll initiative for");
  const leader = members.reduce((best, c) => (c.quickness > best.quickness ? c : best));
  const roll = await dice.roll("1d100", "FRAY.Roll.Initiative");
  const mods: Modifier[] = [{ label: "FRAY.Mod.Quickness", value: leader.quickness, rule: "CR-INI-01" }];
  const total = roll.total + leader.quickness;
  // The ids by push, not by `map`: V8's `map` hands back a list of another kind once compiled
  // than before, and the driver's loop over the rolls' members, compiled on the first kind, was
  // thrown away at the second and compiled again.
  const ids: string[] = [];
  for (let i = 0; i < members.length; i++) ids.push(members[i]!.id);
  return {
    members: ids,
    check: { roll, natural: roll.total, modifiers: mods, total },
    total,
    tiebreak: [leader.quickness],
  };
}

/**
 * Resolution order: highest initiative first (CR-INI-02). Ties go to the higher Quickness
 * bonus, then to the order given (RULES.md).
 */
export function order(rolls: InitiativeRoll[]): InitiativeRoll[] {
  return orderByInitiative(rolls);
}

/** Declaration order: lowest initiative declares first, the exact reverse of resolution (CR-INI-02). */
export function declarationOrder(rolls: InitiativeRoll[]): InitiativeRoll[] {
  return [...order(rolls)].reverse();
}

/**
 * Delays a combatant to act right after another (CR-INI-03): later in the order is allowed,
 * earlier never.
 * @param sequence combatant ids in resolution order.
 * @returns the new sequence (the input is not changed).
 * @throws FrayError `FRAY.Error.ActEarlier` when `after` does not act later than `id` (moving
 *   there would be acting earlier), `FRAY.Error.NotInOrder` naming an id not in the sequence.
 */
export function delay(sequence: readonly string[], id: string, after: string): string[] {
  const from = sequence.indexOf(id);
  const to = sequence.indexOf(after);
  if (from < 0) throw new FrayError("FRAY.Error.NotInOrder", { id }, `${id} is not in the initiative order`);
  if (to < 0) throw new FrayError("FRAY.Error.NotInOrder", { id: after }, `${after} is not in the initiative order`);
  if (to <= from)
    throw new FrayError("FRAY.Error.ActEarlier", { id, after }, `${id} cannot act earlier than its initiative (after ${after})`);
  const out = sequence.filter((x) => x !== id);
  out.splice(out.indexOf(after) + 1, 0, id);
  return out;
}

/**
 * Splits combatants into initiative groups (CR-INI-01): characters roll alone; NPCs alone
 * (`each`), per group name (`group`) or all together (`all`).
 */
export function initiativeGroups(combatants: CriticalCombatant[], options: Pick<CriticalOptions, "npcInitiative">): CriticalCombatant[][] {
  return groupForInitiative(combatants, options.npcInitiative);
}
