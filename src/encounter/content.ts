import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { PackContent, type SourceDocument } from "./library.js";

export type { EncounterContent, SourceDocument } from "./library.js";

/**
 * The compendium sources (`packs/_source/<pack>/**.json`), looked up by `pack/name` or
 * `pack/_id`. Reads JSON sources directly so encounters run without a build.
 */
export class ContentIndex extends PackContent {
  /** @param root the `packs/_source` folder; a folder that cannot be read holds no packs. */
  constructor(root: string) {
    super();
    let names: string[] = [];
    try {
      names = readdirSync(root);
    } catch {
      return;
    }
    for (const pack of names) {
      const dir = join(root, pack);
      if (!statSync(dir).isDirectory()) continue;
      this.packs.set(
        pack,
        walk(dir).map((f) => JSON.parse(readFileSync(f, "utf8")) as SourceDocument),
      );
    }
  }
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...walk(path));
    else if (entry.endsWith(".json")) out.push(path);
  }
  return out;
}
