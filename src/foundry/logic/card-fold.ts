/**
 * Which folds of a chat card are open for this user: the user's default (folded, or open) and
 * the folds the user opened or closed against it, remembered per message and fold. Pure: the
 * glue (`chat/fold.ts`) keeps the memory in a client setting.
 */

/** The user's default for a card's details: `folded` (one summary line per target) or `open`. */
export type FoldDefault = "folded" | "open";

/** Folds toggled against the default, `<messageId>:<fold>` -> open; oldest first. */
export type FoldMemory = Record<string, boolean>;

/** The most folds remembered; the oldest are forgotten first. */
export const FOLD_MEMORY_LIMIT = 200;

/** The memory key of one fold of one message. */
export function foldKey(messageId: string, fold: string): string {
  return `${messageId}:${fold}`;
}

/** Whether a fold is open for this user: as toggled when remembered, else the default. */
export function isFoldOpen(memory: FoldMemory, key: string, byDefault: FoldDefault): boolean {
  const remembered = memory[key];
  return typeof remembered === "boolean" ? remembered : byDefault === "open";
}

/**
 * The memory after the user opened or closed a fold: a fold back in its default state is
 * forgotten, any other moves to the end; past {@link FOLD_MEMORY_LIMIT} the oldest go.
 * Returns a new object; the given one is not changed.
 */
export function rememberFold(
  memory: FoldMemory,
  key: string,
  open: boolean,
  byDefault: FoldDefault,
  limit = FOLD_MEMORY_LIMIT,
): FoldMemory {
  const entries = Object.entries(memory).filter(([k, v]) => k !== key && typeof v === "boolean");
  if (open !== (byDefault === "open")) entries.push([key, open]);
  return Object.fromEntries(entries.slice(Math.max(0, entries.length - limit)));
}
