import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { FrayError } from "../rules/core/errors.js";
import { ContentIndex } from "./content.js";
import { playEncounter, type EncounterResult } from "./engine.js";
import { parseEncounter } from "./schema.js";

/**
 * Reads an encounter file (YAML or JSON) and plays it with the compendium sources in
 * `packsRoot`.
 * @throws FrayError `FRAY.Error.EncounterFile` when the file cannot be read or parsed, and
 *   `FRAY.Error.Field` / `FRAY.Error.Reference` naming the field that is wrong.
 */
export async function runEncounterFile(file: string, packsRoot: string): Promise<EncounterResult> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new FrayError("FRAY.Error.EncounterFile", { file }, `Cannot read encounter file "${file}"`);
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw new FrayError("FRAY.Error.EncounterParse", { file, message: (error as Error).message }, `Cannot parse "${file}": ${(error as Error).message}`);
  }
  return playEncounter(parseEncounter(raw), new ContentIndex(packsRoot));
}
