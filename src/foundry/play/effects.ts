/**
 * The effect service: starts ActiveEffects with a duration in combat rounds and turns, and on
 * every change of round or turn enables the ones whose start has come and deletes the ones that
 * have run out. Foundry v13 computes what remains of a duration but expires nothing by itself.
 * Only the active GM writes, so two GM clients never expire an effect twice.
 */
import { durationFrom, durationState, type CombatClock, type CombatDuration } from "../logic/durations.js";
import { FrayError } from "../../rules/core/errors.js";
import { isActiveGM } from "../queries.js";

/** The parts of an ActiveEffect the service reads and writes. */
export interface EffectLike {
  id: string | null;
  disabled: boolean;
  duration: CombatDuration;
  update(data: Record<string, unknown>): Promise<unknown>;
  delete(): Promise<unknown>;
}

/** The parts of an Actor the service reads and writes. */
export interface EffectHolder {
  effects: Iterable<EffectLike>;
  createEmbeddedDocuments(type: "ActiveEffect", data: Record<string, unknown>[]): Promise<unknown>;
}

/** The parts of a Combat the service reads. */
export interface CombatLike {
  id: string | null;
  round: number;
  turn: number | null;
  turns?: unknown[];
  combatants: Iterable<{ actor?: EffectHolder | null }>;
}

/** What an effect is, for {@link startEffect}. */
export interface EffectStart {
  /** Display name (already localized, or a content name). */
  name: string;
  img?: string;
  /** Status ids the effect sets while it acts (token icons, conditions the core reads). */
  statuses?: string[];
  /** Rounds and turns it lasts. */
  rounds?: number;
  turns?: number;
  /** Rounds before it starts acting (1: from the next round on). */
  delayRounds?: number;
  /** UUID of what caused it (an item, a chat card). */
  origin?: string;
}

/**
 * True when the current user may start an effect on the actor: its owner, or a GM. A player
 * starts effects only on actors they own, so no request to the active GM is needed.
 */
export function mayStartEffect(actor: unknown): boolean {
  const a = actor as { isOwner?: boolean } | null | undefined;
  return Boolean(a) && (a!.isOwner !== false || Boolean(game.user?.isGM));
}

/** The refusal of an effect on an actor the user does not own (`FRAY.Effect.NotOwner`). */
export function notOwnerError(actor: unknown): FrayError {
  const name = (actor as { name?: string | null } | null | undefined)?.name ?? "";
  return new FrayError("FRAY.Effect.NotOwner", { actor: name }, `You do not own ${name}: you cannot start an effect on it`);
}

/** Where a combat stands, for the duration arithmetic. */
export function clockOf(combat: CombatLike): CombatClock {
  return { id: combat.id ?? "", round: combat.round, turn: combat.turn ?? 0, turnsPerRound: Math.max(1, combat.turns?.length ?? 0) };
}

/**
 * Starts an effect on an actor, counted in the combat's rounds and turns. An effect that starts
 * later (a delay) is created disabled and enabled by {@link tickEffects} when its round comes.
 * @throws RangeError when a length or the delay is negative or not a whole number.
 */
export async function startEffect(actor: EffectHolder, start: EffectStart, combat: CombatLike): Promise<void> {
  const clock = clockOf(combat);
  const duration = durationFrom(clock, { rounds: start.rounds, turns: start.turns }, start.delayRounds ?? 0);
  await actor.createEmbeddedDocuments("ActiveEffect", [
    {
      name: start.name,
      img: start.img ?? "icons/svg/aura.svg",
      statuses: start.statuses ?? [],
      origin: start.origin,
      disabled: durationState(duration, clock) === "pending",
      duration,
      flags: { fray: { managed: true } },
    },
  ]);
}

/**
 * Brings every combatant's effects up to the combat's present moment: pending effects whose
 * start has come are enabled, effects whose duration has run out are deleted. Effects without
 * a combat duration, or counted in another combat, are left alone.
 * @returns how many effects were enabled and deleted.
 */
export async function tickEffects(combat: CombatLike): Promise<{ enabled: number; deleted: number }> {
  const clock = clockOf(combat);
  let enabled = 0;
  let deleted = 0;
  const seen = new Set<EffectHolder>();
  for (const combatant of combat.combatants) {
    const actor = combatant.actor;
    if (!actor || seen.has(actor)) continue;
    seen.add(actor);
    for (const effect of Array.from(actor.effects)) {
      const state = durationState(effect.duration, clock);
      if (state === "expired") {
        await effect.delete();
        deleted += 1;
      } else if (
        state === "active" &&
        effect.disabled &&
        (effect as { getFlag?(s: string, k: string): unknown }).getFlag?.("fray", "managed")
      ) {
        await effect.update({ disabled: false });
        enabled += 1;
      }
    }
  }
  return { enabled, deleted };
}

/**
 * Registers the service: the active GM (`game.users.activeGM`, the same client that answers
 * requests in queries.ts) ticks effects whenever a combat's round or turn changes, which v13's
 * `updateCombat(combat, changes)` hook tells by `changes.round` and `changes.turn`.
 */
export function registerEffectService(): void {
  Hooks.on("updateCombat", (combat: unknown, changes: unknown) => {
    const c = changes as { round?: number; turn?: number };
    if (!isActiveGM() || (c.round === undefined && c.turn === undefined)) return;
    void tickEffects(combat as CombatLike).catch((err: unknown) => console.error("Fray | effects", err));
  });
}
