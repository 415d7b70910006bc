/**
 * The world's index of applied attacks: for each card target that was applied (its ledger key,
 * `ledgerKey(messageId, index)`), the UUID of the actor the damage went to. The ledger entry of an
 * application lives on the damaged actor, so by itself it cannot tell that a card re-aimed by its
 * author at another actor was applied before; this index can. It is a world setting
 * (`fray.applied`), which only GMs may write, and the active GM writes it when it applies: an
 * attack's target is bound to the first actor it was applied to, for good, undone or not.
 *
 * A Zones blast is bound the same way: its card (`<prefix>blast`) and each victim
 * (`<prefix>blast-<token id>`, the key of the victim's ledger entry), until the GM undoes it.
 * Entries go with their card when the card is deleted; beyond {@link APPLIED_LIMIT} entries the
 * oldest go first (a card that old re-aimed and applied again is the one thing this lets through).
 */
import { APPLIED_SETTING } from "../settings.js";
import { SYSTEM_ID } from "../config.js";

/** The most entries the index keeps. */
export const APPLIED_LIMIT = 5_000;

/** The stored index: ledger key to actor UUID, oldest first. */
type AppliedIndex = Record<string, string>;

function stored(): AppliedIndex {
  const value: unknown = game.settings.get(SYSTEM_ID, APPLIED_SETTING);
  return typeof value === "object" && value !== null ? { ...(value as AppliedIndex) } : {};
}

/** The UUID of the actor a card target (by ledger key) was applied to, if it was. */
export function appliedTo(key: string): string | undefined {
  const uuid = stored()[key];
  return typeof uuid === "string" ? uuid : undefined;
}

/**
 * Binds a card target (by ledger key) to the actor it was applied to. On the active GM, which
 * alone applies; a key already bound keeps its actor.
 */
export async function recordApplied(key: string, actorUuid: string): Promise<void> {
  const index = stored();
  if (index[key]) return;
  index[key] = actorUuid;
  const keys = Object.keys(index);
  for (const old of keys.slice(0, Math.max(0, keys.length - APPLIED_LIMIT))) delete index[old];
  await game.settings.set(SYSTEM_ID, APPLIED_SETTING, index);
}

/** The entries of the index whose key starts with `prefix`, as `[key, actor UUID]`, oldest first. */
export function appliedEntries(prefix: string): [string, string][] {
  return Object.entries(stored()).filter((e): e is [string, string] => e[0].startsWith(prefix) && typeof e[1] === "string");
}

/**
 * Drops the entries whose key starts with `prefix`: a deleted card's (`ledgerPrefix(messageId)`),
 * or an undone blast's, which the GM may then apply again. On the active GM.
 */
export async function forgetApplied(prefix: string): Promise<void> {
  const index = stored();
  const keys = Object.keys(index).filter((k) => k.startsWith(prefix));
  if (!keys.length) return;
  for (const key of keys) delete index[key];
  await game.settings.set(SYSTEM_ID, APPLIED_SETTING, index);
}
