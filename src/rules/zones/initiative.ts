import { orderByInitiative } from "../core/initiative.js";
import type { DiceRoller, SyncDiceRoller } from "../core/dice/port.js";
import { FrayError } from "../core/errors.js";
import type { InitiativeRoll } from "../core/ruleset.js";
import type { Modifier, RollOutcome } from "../core/types.js";
import { CHECK_DIE, attributeLine } from "./checks.js";
import { restate, type ZonesCombatant } from "./model.js";

/**
 * The lines added to an initiative d10 (ZN-INI-01, ZN-INI-02): the DEX modifier, further bonuses
 * (perks, items), and +1 for each effort point spent before the roll.
 */
export function initiativeLines(c: ZonesCombatant): Modifier[] {
  const lines: Modifier[] = [attributeLine(c, "DEX", "ZN-INI-01")];
  if (c.initiativeBonus) lines.push({ label: "FRAY.Mod.Zones.InitiativeBonus", value: c.initiativeBonus, rule: "ZN-INI-01" });
  if (c.initiativeEffort)
    lines.push({ label: "FRAY.Mod.Zones.Effort", value: c.initiativeEffort, rule: "ZN-INI-02", data: { points: c.initiativeEffort } });
  return lines;
}

/** The initiative formula of one combatant, e.g. `1d10 + 3` (ZN-INI-01, ZN-INI-02). */
export function initiativeFormula(c: ZonesCombatant): string {
  const v = initiativeLines(c).reduce((s, m) => s + m.value, 0);
  return v < 0 ? `${CHECK_DIE} - ${-v}` : `${CHECK_DIE} + ${v}`;
}

/**
 * Rolls initiative (ZN-INI-01, ZN-INI-02): d10 + DEX modifier + bonuses + the effort points the
 * combatant spends on it (`initiativeEffort`, committed before the roll; the caller takes them
 * from the effort pool). Every combatant, player or NPC, rolls alone; given several members,
 * they act together on the roll of the one with the best modifiers.
 * @throws FrayError `FRAY.Error.NoCombatants` for no members, `FRAY.Error.Zones.NotEnoughPoints`
 *   when more effort is committed than the combatant has.
 */
export async function rollInitiative(members: ZonesCombatant[], dice: DiceRoller): Promise<InitiativeRoll> {
  const leader = leaderOf(members);
  return initiativeRoll(members, leader, await dice.roll(CHECK_DIE, "FRAY.Roll.Initiative"));
}

/**
 * {@link rollInitiative} with a roller that rolls at once (a forecast): the same checks, the same
 * roll from the same die, without a promise (ZN-INI-01, ZN-INI-02).
 * @throws FrayError as {@link rollInitiative}: `FRAY.Error.NoCombatants`,
 *   `FRAY.Error.Zones.NotEnoughPoints`.
 */
export function rollInitiativeSync(members: ZonesCombatant[], dice: SyncDiceRoller): InitiativeRoll {
  const leader = leaderOf(members);
  return initiativeRoll(members, leader, dice.rollSync(CHECK_DIE, "FRAY.Roll.Initiative"), sharedLines(leader));
}

/**
 * The initiative lines of {@link initiativeLines} for whole modifiers within ±32 (the DEX
 * modifier, the bonus, the effort committed), each set built once and frozen, shared by every
 * roll with them (a forecast rolls initiative for everyone every round); built afresh otherwise.
 */
function sharedLines(c: ZonesCombatant): Modifier[] {
  const dex = c.attributes.DEX;
  const bonus = c.initiativeBonus;
  const effort = c.initiativeEffort;
  const small = (v: number) => Number.isInteger(v) && v >= -32 && v < 32 && !Object.is(v, -0);
  if (!small(dex) || !small(bonus) || !small(effort)) return initiativeLines(c);
  const key = ((dex + 32) * 64 + bonus + 32) * 64 + effort + 32;
  let lines = LINES.get(key);
  if (!lines) {
    lines = Object.freeze(
      initiativeLines(c).map((m) => {
        if (m.data) Object.freeze(m.data);
        return Object.freeze(m);
      }),
    );
    LINES.set(key, lines);
  }
  return lines as Modifier[];
}
const LINES = new Map<number, readonly Modifier[]>();

/** The sum of a combatant's initiative lines ({@link initiativeLines}; ZN-INI-01, ZN-INI-02), none built. */
function initiativeModifier(c: ZonesCombatant): number {
  return c.attributes.DEX + (c.initiativeBonus || 0) + (c.initiativeEffort || 0);
}

/**
 * The member whose modifiers the group rolls with, after checking every member's committed
 * effort: the best modifier, the first of equals (ZN-INI-01, ZN-INI-02).
 * @throws FrayError `FRAY.Error.NoCombatants` for no members, `FRAY.Error.Zones.NotEnoughPoints`
 *   when more effort is committed than the combatant has.
 */
function leaderOf(members: ZonesCombatant[]): ZonesCombatant {
  if (!members.length) throw new FrayError("FRAY.Error.NoCombatants", {}, "No combatants to roll initiative for");
  for (const m of members) {
    if (m.initiativeEffort > m.effort.value) {
      throw new FrayError(
        "FRAY.Error.Zones.NotEnoughPoints",
        { needed: m.initiativeEffort, speed: 0, effort: m.effort.value },
        `${m.name} has only ${m.effort.value} effort points`,
      );
    }
  }
  // A group's leader is its member with the best initiative modifier; one alone leads itself.
  let leader = members[0]!;
  let best = initiativeModifier(leader);
  for (let i = 1; i < members.length; i++) {
    const v = initiativeModifier(members[i]!);
    if (v > best) {
      leader = members[i]!;
      best = v;
    }
  }
  return leader;
}

/** The initiative roll of a group from its leader's lines and the d10 rolled (ZN-INI-01, ZN-INI-02). */
function initiativeRoll(
  members: ZonesCombatant[],
  leader: ZonesCombatant,
  roll: RollOutcome,
  mods: Modifier[] = initiativeLines(leader),
): InitiativeRoll {
  // The lines add up to the leader's initiative modifier: read from it, not from the lines, a
  // frozen shared list on a forecast's path, whose items V8's optimizing compiler reads through a
  // generic lookup.
  const total = roll.total + initiativeModifier(leader);
  return {
    // One alone leads itself: its id without a map over the list.
    members: members.length === 1 ? [leader.id] : members.map((m) => m.id),
    check: { roll, natural: roll.total, modifiers: mods, total },
    total,
    tiebreak: [leader.attributes.DEX, leader.kind === "character" ? 1 : 0],
  };
}

/**
 * What the effort points committed to initiative leave once the roll is made (ZN-INI-02): the
 * effort pool less the points, and nothing committed any more (the next roll starts from 0).
 * @returns the effort points left and the committed points (0); `undefined` when none were committed.
 * @throws FrayError `FRAY.Error.Zones.NotEnoughPoints` when more effort is committed than is left.
 */
export function spendInitiativeEffort(c: ZonesCombatant): { effort: number; initiativeEffort: 0 } | undefined {
  if (!(c.initiativeEffort > 0)) return undefined;
  if (c.initiativeEffort > c.effort.value) {
    throw new FrayError(
      "FRAY.Error.Zones.NotEnoughPoints",
      { needed: c.initiativeEffort, speed: 0, effort: c.effort.value },
      `${c.name} has only ${c.effort.value} effort points`,
    );
  }
  return { effort: c.effort.value - c.initiativeEffort, initiativeEffort: 0 };
}

/**
 * Acting order (ZN-INI-01): highest total first; ties go to the higher DEX modifier, then player
 * characters before NPCs, then the order given (RULES.md).
 */
export function order(rolls: InitiativeRoll[]): InitiativeRoll[] {
  return orderByInitiative(rolls);
}

/**
 * Marks the unaware side for a surprise round (ZN-SUR-01): its combatants get the `surprised`
 * condition, so their economy this round has no action, reaction or free action. Call
 * {@link endSurprise} when the round is over; the encounter then goes on normally.
 */
export function startSurprise(combatants: ZonesCombatant[], surprisedGroups: readonly string[]): ZonesCombatant[] {
  return combatants.map((c) =>
    surprisedGroups.includes(c.group) && !c.conditions.includes("surprised")
      ? restate(c, { conditions: [...c.conditions, "surprised"] })
      : c,
  );
}

/** Ends the surprise round (ZN-SUR-01): nobody is `surprised` any more. */
export function endSurprise(combatants: ZonesCombatant[]): ZonesCombatant[] {
  return combatants.map((c) =>
    c.conditions.includes("surprised") ? restate(c, { conditions: c.conditions.filter((s) => s !== "surprised") }) : c,
  );
}
