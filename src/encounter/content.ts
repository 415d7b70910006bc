import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { FrayError } from "../rules/core/errors.js";
import type { ActorSource, ItemSource } from "../foundry/sources.js";

/** A compendium source document as stored in `packs/_source/<pack>/`. */
export type SourceDocument = (ActorSource | ItemSource) & { _key?: string; [k: string]: unknown };

/**
 * The compendium sources (`packs/_source/<pack>/**.json`), looked up by `pack/name` or
 * `pack/_id`. Reads JSON sources directly so encounters run without a build.
 */
export class ContentIndex {
  private readonly packs = new Map<string, SourceDocument[]>();

  /** @param root the `packs/_source` folder. */
  constructor(root: string) {
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

  /** Pack names found. */
  get names(): string[] {
    return [...this.packs.keys()].sort();
  }

  /**
   * The document a reference names: `ud10-npcs/Guard` or `ud10-npcs/<_id>`.
   * @throws FrayError `FRAY.Error.Reference` naming the field and the reference.
   */
  resolve(ref: string, field: string): SourceDocument {
    const slash = ref.indexOf("/");
    const pack = slash > 0 ? ref.slice(0, slash) : "";
    const name = ref.slice(slash + 1);
    const docs = this.packs.get(pack);
    const doc = docs?.find((d) => d.name === name || d._id === name);
    if (!doc) {
      throw new FrayError(
        "FRAY.Error.Reference",
        { field, ref },
        `${field}: no compendium entry "${ref}" (packs: ${this.names.join(", ")})`,
      );
    }
    return structuredClone(doc);
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
