/**
 * Chat cards fold: each target's details (`details.fray-fold[data-fray-fold]`) open under its
 * summary line by click, Enter or Space (a native `details`/`summary`). The default (folded or
 * open) is a client setting, as dnd5e's chat trays are: how much of a card a user reads is a
 * choice of that user's screen, not a change to any document, so no other client hears of it.
 * The folds a user opens or closes against the default are remembered in a second client
 * setting, per message and fold, so a card stays as the user left it when it renders again
 * (a reaction, damage, apply, undo, a reload).
 */
import { SYSTEM_ID } from "../config.js";
import { foldKey, isFoldOpen, rememberFold, type FoldDefault, type FoldMemory } from "../logic/card-fold.js";

/** Client setting: a card's details folded or open when it arrives. */
export const CARD_FOLD_SETTING = "cardDetails";

/** Client setting (hidden): the folds toggled against the default ({@link FoldMemory}). */
export const CARD_FOLD_MEMORY = "cardFolds";

/** Registers the two client settings. Call from the `init` hook. */
export function registerCardFoldSettings(): void {
  const register = game.settings.register.bind(game.settings) as (ns: string, key: string, config: unknown) => void;
  register(SYSTEM_ID, CARD_FOLD_SETTING, {
    name: "FRAY.Setting.CardDetails.Name",
    hint: "FRAY.Setting.CardDetails.Hint",
    scope: "client",
    config: true,
    type: String,
    default: "folded",
    choices: { folded: "FRAY.Setting.CardDetails.folded", open: "FRAY.Setting.CardDetails.open" },
  });
  register(SYSTEM_ID, CARD_FOLD_MEMORY, { scope: "client", config: false, type: Object, default: {} });
}

/** Reads a setting of this system; `fallback` when it is not registered or of another shape. */
function read<T>(key: string, ok: (v: unknown) => v is T, fallback: T): T {
  try {
    const v = (game.settings.get.bind(game.settings) as (ns: string, k: string) => unknown)(SYSTEM_ID, key);
    return ok(v) ? v : fallback;
  } catch {
    return fallback;
  }
}

const isDefault = (v: unknown): v is FoldDefault => v === "folded" || v === "open";
const isMemory = (v: unknown): v is FoldMemory => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * `renderChatMessageHTML`: opens or folds each fold of a card as this user left it (or by the
 * default), and remembers each toggle. A fold already wired is left alone.
 */
export function wireCardFolds(message: { id?: string | null }, html: HTMLElement): void {
  if (!message.id || typeof html?.querySelectorAll !== "function") return;
  const byDefault = read(CARD_FOLD_SETTING, isDefault, "folded");
  const memory = read(CARD_FOLD_MEMORY, isMemory, {});
  for (const fold of Array.from(html.querySelectorAll<HTMLDetailsElement>("details[data-fray-fold]"))) {
    if (fold.dataset.frayFoldWired) continue;
    fold.dataset.frayFoldWired = "1";
    const key = foldKey(message.id, fold.dataset.frayFold ?? "");
    fold.open = isFoldOpen(memory, key, byDefault);
    fold.addEventListener("toggle", () => {
      const now = read(CARD_FOLD_MEMORY, isMemory, {});
      if (isFoldOpen(now, key, byDefault) === fold.open) return;
      const set = game.settings.set.bind(game.settings) as (ns: string, k: string, v: unknown) => Promise<unknown>;
      void set(SYSTEM_ID, CARD_FOLD_MEMORY, rememberFold(now, key, fold.open, byDefault)).catch((err: unknown) =>
        console.error("Fray | card fold", err),
      );
    });
  }
}
