import type { ContentIndex } from "../../src/encounter/content.js";
import { playEncounter } from "../../src/encounter/engine.js";
import { parseEncounter } from "../../src/encounter/schema.js";
import { FrayError } from "../../src/rules/core/errors.js";

/**
 * Plays a raw encounter file and returns the field (or compendium reference) its FrayError
 * names; `undefined` when it plays without error, a description when the error is not a
 * FrayError.
 */
export async function failingField(raw: Record<string, unknown>, content: ContentIndex): Promise<string | undefined> {
  try {
    await playEncounter(parseEncounter(raw), content);
  } catch (e) {
    return e instanceof FrayError ? String(e.data.field ?? e.data.ref) : `not a FrayError: ${String(e)}`;
  }
  return undefined;
}
