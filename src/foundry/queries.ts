/**
 * Work a player may not do on their own client goes to the active GM through v13 queries
 * (`CONFIG.queries[name] = handler`, `game.users.activeGM.query(name, data)`): applying or undoing
 * damage on an actor the player does not own, updating a card the player did not post, spending
 * the round economy of someone else's combatant.
 */
import { error } from "./notify.js";

/** Query names Fray registers. */
export const QUERIES = {
  applyDamage: "fray.applyDamage",
  undoDamage: "fray.undoDamage",
  cardUpdate: "fray.cardUpdate",
  spend: "fray.spend",
} as const;

/** A query handler: JSON data in, JSON data out. */
export type QueryHandler = (data: Record<string, unknown>) => Promise<unknown>;

interface QueryUser {
  query(name: string, data: unknown, options?: { timeout?: number }): Promise<unknown>;
}

/** Registers the handlers on `CONFIG.queries`. Call from the `init` hook. */
export function registerQueries(handlers: Record<string, QueryHandler>): void {
  const config = CONFIG as unknown as { queries?: Record<string, QueryHandler> };
  config.queries ??= {};
  for (const [name, handler] of Object.entries(handlers)) config.queries[name] = handler;
}

/** The active GM who answers queries, if one is connected. */
export function activeGM(): QueryUser | undefined {
  return (game.users as unknown as { activeGM?: QueryUser | null } | undefined)?.activeGM ?? undefined;
}

/**
 * Runs a registered query on the active GM and returns its answer; with no GM connected shows a
 * localized error and returns `undefined`.
 */
export async function askGM(name: string, data: Record<string, unknown>): Promise<unknown> {
  const gm = activeGM();
  if (!gm) {
    error("FRAY.Flow.Error.NoGM");
    return undefined;
  }
  return gm.query(name, data, { timeout: 30_000 });
}
