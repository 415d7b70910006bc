/**
 * Following the fight: when a combat's `flags.fray.follow.on` is set (by a GM, from the tracker's
 * "Follow the fight" toggle), the active GM's client forecasts the combat's current state again
 * after each applied attack card (`fray.applyDamage`), each undo (`fray.undoDamage`) and each new
 * round (`updateCombat` with a `round`), {@link FOLLOW_RUNS} fights in a forecast worker of its
 * own, debounced and restarted by a later change (../logic/follow.ts), and writes the players'
 * chance to win with its interval as the round's point in the flag. The tracker draws the points
 * as a small chart (./tracker-button.ts). The flag lives on the combat: it survives reloads, is
 * the same for every GM, and goes with the combat when it ends.
 */
import { activeBinding } from "../registry.js";
import { forecastInput } from "../logic/forecast-state.js";
import { followState, FollowScheduler, withPoint, type FollowPoint, type FollowState } from "../logic/follow.js";
import { isActiveGM } from "../queries.js";
import { reportError, warn } from "../notify.js";
import { FrayError } from "../../rules/core/errors.js";
import { FORECAST_WORKER, playersSide, readCombatSnapshot, type ForecastCombat } from "./dialog.js";
import { WorkerPool, type PoolWorker } from "./pool.js";

/** Fights each refresh plays: quick in one worker, an interval about 4 points wide at most. */
export const FOLLOW_RUNS = 2_000;
/** The seed of every refresh: the same state gives the same point. */
export const FOLLOW_SEED = 1;

/** A Combat as following reads and writes it. */
export interface FollowCombat extends ForecastCombat {
  getFlag?(scope: string, key: string): unknown;
  setFlag?(scope: string, key: string, value: unknown): Promise<unknown>;
}

/** The combat's follow flag, checked. */
export function followOf(combat: FollowCombat | null | undefined): FollowState {
  return followState(combat?.getFlag?.("fray", "follow"));
}

/** One forecast worker kept for the refreshes, apart from the pool of the GM's own forecasts. */
let pool: WorkerPool | undefined;
function followPool(): WorkerPool {
  return (pool ??= new WorkerPool({
    size: 1,
    spawn: () => new Worker(foundry.utils.getRoute(FORECAST_WORKER), { type: "module" }) as unknown as PoolWorker,
  }));
}

/** The scheduler of each followed combat, by combat id. */
const schedulers = new Map<string, FollowScheduler<FollowPoint>>();
/** The combat document each combat id was last asked for with. */
const asked = new Map<string, FollowCombat>();

/** The combat of this id as the world holds it now, or the one last asked for when the world has no such list. */
function current(combat: FollowCombat): FollowCombat | undefined {
  const combats = (game as unknown as { combats?: { get?(id: string): unknown } }).combats;
  const last = (combat.id && asked.get(combat.id)) || combat;
  if (!combats?.get || !combat.id) return last;
  return (combats.get(combat.id) as FollowCombat | undefined) ?? undefined;
}

/** The forecast of the combat as it is now: the players' side's wins as a point of its round. */
function startRun(combat: FollowCombat) {
  const now = current(combat);
  if (!now) throw new FrayError("FRAY.Forecast.Follow.Gone", {}, "The combat is gone");
  const input = forecastInput(readCombatSnapshot(now), activeBinding());
  const players = playersSide(now, input);
  const round = Math.max(0, now.round ?? 0);
  const run = followPool().run(
    { file: input.file, packs: input.packs, runs: FOLLOW_RUNS, seed: FOLLOW_SEED },
    { id: `follow-${foundry.utils.randomID()}` },
  );
  return {
    result: run.result.then((forecast): FollowPoint => {
      const wins = forecast.sides.find((s) => s.side === players)?.wins ?? { p: 0, low: 0, high: 0 };
      return { round, p: wins.p, low: wins.low, high: wins.high, runs: forecast.runs };
    }),
    cancel: () => run.cancel(),
  };
}

/** Writes the round's point, unless following was turned off or the combat ended meanwhile. */
async function record(combat: FollowCombat, point: FollowPoint): Promise<void> {
  const now = current(combat);
  const state = followOf(now);
  if (!now || !state.on) return;
  await now.setFlag?.("fray", "follow", withPoint(state, point));
}

/**
 * Asks for a refresh of a followed combat on the active GM's client (nothing elsewhere, nor when
 * the combat is not followed): debounced, a run under way cancelled and started again. A state
 * the forecast refuses (one side left) is logged, not shown: the fight goes on.
 */
export function requestFollow(combat: FollowCombat | null | undefined): void {
  if (!combat?.id || !isActiveGM() || !followOf(combat).on) return;
  asked.set(combat.id, combat);
  let scheduler = schedulers.get(combat.id);
  if (!scheduler) {
    scheduler = new FollowScheduler<FollowPoint>({
      start: () => startRun(combat),
      done: (point) => record(combat, point),
      failed: (error) => {
        if (error instanceof FrayError) console.warn("fray | the fight followed could not be forecast:", error.message);
        else reportError(error);
      },
    });
    schedulers.set(combat.id, scheduler);
  }
  scheduler.request();
}

/** Stops a combat's refreshes (deleted, or no longer followed). */
export function stopFollow(combat: { id?: string | null } | null | undefined): void {
  const id = combat?.id;
  if (!id) return;
  schedulers.get(id)?.stop();
  schedulers.delete(id);
  asked.delete(id);
}

/**
 * Turns following on or off for a combat (GM only; players are warned). Turning it on refreshes
 * at once; turning it off stops the refresh under way and keeps the points measured so far.
 */
export async function toggleFollow(combat: FollowCombat): Promise<void> {
  if (!game.user?.isGM) {
    warn("FRAY.Forecast.Tracker.GMOnly");
    return;
  }
  const state = followOf(combat);
  await combat.setFlag?.("fray", "follow", { on: !state.on, points: state.points });
  if (state.on) stopFollow(combat);
  else requestFollow(combat);
}

/** The combats following may concern: the world's, or the one viewed where the list is missing. */
function combats(): FollowCombat[] {
  const g = game as unknown as { combats?: Iterable<unknown>; combat?: unknown };
  if (g.combats) return Array.from(g.combats) as FollowCombat[];
  return g.combat ? [g.combat as FollowCombat] : [];
}

/** The followed combats with a combatant of this actor (by UUID, else by id). */
function combatsOf(actor: { uuid?: string | null; id?: string | null } | undefined): FollowCombat[] {
  return combats().filter(
    (c) =>
      followOf(c).on &&
      (Array.from(c.combatants ?? []) as { actor?: { uuid?: string | null; id?: string | null } | null }[]).some(
        (cb) => cb.actor && ((actor?.uuid && cb.actor.uuid === actor.uuid) || (actor?.id && cb.actor.id === actor.id)),
      ),
  );
}

/** Registers the hooks that refresh a followed fight: applied and undone damage, a new round, the combat's end. */
export function registerFollow(): void {
  const on = Hooks.on.bind(Hooks) as unknown as (name: string, fn: (...args: never[]) => unknown) => number;
  const refresh = (context: { actor?: { uuid?: string | null; id?: string | null } }) => {
    try {
      for (const c of combatsOf(context?.actor)) requestFollow(c);
    } catch (error) {
      reportError(error);
    }
  };
  on("fray.applyDamage", refresh);
  on("fray.undoDamage", refresh);
  on("updateCombat", (combat: FollowCombat, changes: { round?: unknown }) => {
    if (changes && "round" in changes) requestFollow(combat);
  });
  on("deleteCombat", (combat: FollowCombat) => stopFollow(combat));
}
