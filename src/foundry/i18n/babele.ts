/**
 * Compendium content in the reader's language, through the Babele module.
 *
 * Fray's weapons, armor, NPCs and tables are written in English; their translations are Babele
 * files in `lang/babele/<lang>/fray.<pack>.json` (written and checked by
 * `scripts/pack-translations.ts`). When Babele is active it reads them for the client's language
 * (`setSystemTranslationsDir`, Babele's documented entry point for systems that ship their own
 * translations) and shows the compendiums translated; a document imported from them is created
 * in that language. Two converters carry what Babele's defaults cannot reach: an item's firing
 * modes (labels by mode id) and the items embedded in an NPC (each translated like the item of
 * its own pack). The rules compendium holds both languages itself and needs neither.
 *
 * Without Babele the content stays English; a GM of a German world is told once how to change
 * that.
 */
import { SYSTEM_ID } from "../config.js";

/** The folder of the translation files, relative to the system's root. */
export const BABELE_TRANSLATIONS_DIR = "lang/babele";

/** The languages Fray ships compendium translations for. */
export const BABELE_LANGS: readonly string[] = ["de"];

/** The client setting that remembers the Babele hint was shown. */
export const BABELE_HINT_SETTING = "babeleHintShown" as const;

/** A firing mode as an item stores it. */
interface ModeSource {
  id: string;
  label?: string;
  [key: string]: unknown;
}

/** The translation of one item: its entry in a Babele file. */
export interface ItemTranslation {
  name?: string;
  description?: string;
  /** Firing-mode labels by mode id. */
  modes?: Record<string, string>;
}

/** The part of Babele's API Fray uses (Babele's own `babele.init` hook hands it over). */
export interface BabeleApi {
  setSystemTranslationsDir(dir: string): void;
  registerConverters(converters: Record<string, (...args: never[]) => unknown>): void;
}

/**
 * Babele converter `frayModes`: the firing modes of an item (`system.modes`) with their labels
 * replaced by the translation's labels of the same mode id. Modes without a translation keep
 * their label; a value that is not a list is returned as it is.
 *
 * @param modes the stored modes, `[{ id, label, ... }]`
 * @param translation labels by mode id, `{ burst: "Feuerstoß" }`
 */
export function translateModes(modes: unknown, translation: unknown): unknown {
  if (!Array.isArray(modes) || !translation || typeof translation !== "object") return modes;
  const labels = translation as Record<string, unknown>;
  return (modes as ModeSource[]).map((m) => {
    const label = m && typeof m === "object" ? labels[m.id] : undefined;
    return typeof label === "string" && label ? { ...m, label } : m;
  });
}

/**
 * Babele converter `frayItems`: the items embedded in an actor, each with the name, description
 * and firing-mode labels of its translation (keyed by the item's original name, as Babele keys
 * entries). Items without a translation stay as they are; no other field changes.
 *
 * @param items the actor's embedded item sources
 * @param translations item translations by original name
 */
export function translateItems(items: unknown, translations: unknown): unknown {
  if (!Array.isArray(items) || !translations || typeof translations !== "object") return items;
  const byName = translations as Record<string, ItemTranslation | undefined>;
  return (items as { name?: string; system?: Record<string, unknown> }[]).map((item) => {
    const t = item && typeof item.name === "string" ? byName[item.name] : undefined;
    if (!t || typeof t !== "object") return item;
    const system = { ...(item.system ?? {}) };
    if (typeof t.description === "string" && t.description) system.description = t.description;
    if (t.modes) system.modes = translateModes(system.modes, t.modes);
    return { ...item, ...(typeof t.name === "string" && t.name ? { name: t.name } : {}), system };
  });
}

/**
 * Registers Fray's translations with Babele once it starts (`babele.init`); does nothing when
 * Babele is not installed. Called at `init`, before Babele's own `init` hook runs its start.
 *
 * @param hooks the hook registry (Foundry's `Hooks`)
 */
export function registerBabele(hooks: { once(name: string, fn: (babele: BabeleApi) => void): unknown } = Hooks): void {
  hooks.once("babele.init", (babele) => {
    babele.setSystemTranslationsDir(BABELE_TRANSLATIONS_DIR);
    babele.registerConverters({ frayModes: translateModes, frayItems: translateItems });
  });
}

/** Registers the client setting behind {@link babeleHint}. */
export function registerBabeleHintSetting(): void {
  game.settings.register(SYSTEM_ID, BABELE_HINT_SETTING, {
    scope: "client",
    config: false,
    type: Boolean,
    default: false,
  });
}

/**
 * At `ready`: tells a GM whose language has compendium translations but who runs no Babele that
 * installing Babele shows the compendiums in that language. Once per client.
 */
export function babeleHint(): void {
  if (!game.user?.isGM) return;
  if (!BABELE_LANGS.includes(game.i18n.lang)) return;
  if (game.modules.get("babele")?.active) return;
  if (game.settings.get(SYSTEM_ID, BABELE_HINT_SETTING)) return;
  ui.notifications?.info(game.i18n.localize("FRAY.Notify.BabeleHint"), { permanent: true });
  void game.settings.set(SYSTEM_ID, BABELE_HINT_SETTING, true);
}
