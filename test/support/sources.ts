/**
 * The compendium's source documents as the rules tests read them: every JSON file of one pack
 * folder under packs/_source, parsed, in directory order.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** Root of the compendium sources. */
const PACKS = fileURLToPath(new URL("../../packs/_source", import.meta.url));

/** Every document of the pack folder `pack` (`zones-npcs`), parsed as `T` (not checked). */
export function packSources<T>(pack: string): T[] {
  const dir = join(PACKS, pack);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as T);
}
