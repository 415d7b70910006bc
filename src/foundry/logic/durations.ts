/**
 * Durations of effects counted in combat rounds and turns, the same for every ruleset. Foundry
 * v13 stores an ActiveEffect's `duration` (`startRound`, `startTurn`, `rounds`, `turns`,
 * `combat`) and computes what remains of it, but expires nothing on its own; the effect service
 * (`play/effects.ts`) asks this module whether an effect waits, acts or has run out. Pure: no
 * Foundry globals.
 */

/** The parts of an ActiveEffect's `duration` that count combat time. */
export interface CombatDuration {
  /** Id of the combat the effect counts in; any combat when absent. */
  combat?: string | null;
  /** Round the effect starts acting in. */
  startRound?: number | null;
  /** Turn (index in the turn order) the effect starts acting on. */
  startTurn?: number | null;
  /** Length in whole rounds. */
  rounds?: number | null;
  /** Further length in turns. */
  turns?: number | null;
}

/** Where a combat stands. */
export interface CombatClock {
  id: string;
  round: number;
  /** Index of the combatant whose turn it is; 0 when turns are not used. */
  turn: number;
  /** Turns per round (combatants in the order); at least 1. */
  turnsPerRound: number;
}

/** Whether an effect waits to begin, acts, or has run out, at a moment of a combat. */
export type DurationState = "pending" | "active" | "expired";

/** True when the duration counts combat time (rounds or turns) at all. */
export function countsCombatTime(d: CombatDuration): boolean {
  return Boolean(d.rounds || d.turns);
}

/** Turns elapsed since the effect's start (negative before it starts). */
function elapsedTurns(d: CombatDuration, clock: CombatClock): number {
  const perRound = Math.max(1, clock.turnsPerRound);
  return (clock.round - (d.startRound ?? 0)) * perRound + (clock.turn - (d.startTurn ?? 0));
}

/**
 * The state of an effect with a combat duration at the combat's present moment: `pending`
 * before its start round and turn, `active` while fewer rounds and turns than its length have
 * passed, `expired` from then on. An effect counted in another combat, or without a combat
 * duration, is always `active` (the service leaves it alone).
 */
export function durationState(d: CombatDuration, clock: CombatClock): DurationState {
  if (!countsCombatTime(d) || (d.combat && d.combat !== clock.id)) return "active";
  const elapsed = elapsedTurns(d, clock);
  if (elapsed < 0) return "pending";
  const length = (d.rounds ?? 0) * Math.max(1, clock.turnsPerRound) + (d.turns ?? 0);
  return elapsed >= length ? "expired" : "active";
}

/**
 * The duration of an effect that begins now or after a delay: `delayRounds` 1 makes a one-round
 * effect used in round 3 act in round 4 and run out at the start of round 5 (HB-RND-02: durations
 * in turns start the turn after they begin).
 * @param length rounds and turns the effect lasts.
 * @throws RangeError when a length or the delay is negative or not a whole number.
 */
export function durationFrom(clock: CombatClock, length: { rounds?: number; turns?: number }, delayRounds = 0): Required<CombatDuration> {
  for (const [name, n] of Object.entries({ rounds: length.rounds ?? 0, turns: length.turns ?? 0, delayRounds })) {
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`${name} must be a whole number, 0 or more (got ${n})`);
  }
  return {
    combat: clock.id,
    startRound: clock.round + delayRounds,
    startTurn: delayRounds > 0 ? 0 : clock.turn,
    rounds: length.rounds ?? 0,
    turns: length.turns ?? 0,
  };
}
