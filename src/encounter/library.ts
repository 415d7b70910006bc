/**
 * The compendium sources an encounter is played with, without any file access: the pure half of
 * {@link ContentIndex} (src/encounter/content.ts reads `packs/_source` from disk), so that code
 * running where no file system exists (a Web Worker, the Foundry client) can hand the encounter
 * runner the documents it already holds.
 */
import { FrayError } from "../rules/core/errors.js";
import type { ActorSource, ItemSource } from "../rules/core/sources.js";

/** A compendium source document as stored in `packs/_source/<pack>/`. */
export type SourceDocument = (ActorSource | ItemSource) & { _key?: string; [k: string]: unknown };

/** What the encounter runner needs of the compendium: a document by reference. */
export interface EncounterContent {
  /**
   * The document a reference names (`pack/name` or `pack/_id`), as a copy the caller may change.
   * @throws FrayError `FRAY.Error.Reference` naming `field` and the reference when none matches.
   */
  resolve(ref: string, field: string): SourceDocument;
}

/** Compendium sources held in memory, by pack name; looked up by `pack/name` or `pack/_id`. */
export class PackContent implements EncounterContent {
  protected readonly packs = new Map<string, SourceDocument[]>();

  /** @param packs the documents of each pack, by pack name (e.g. `ud10-npcs`). */
  constructor(packs: Iterable<[string, SourceDocument[]]> = []) {
    for (const [name, docs] of packs) this.packs.set(name, docs);
  }

  /** Pack names held, sorted. */
  get names(): string[] {
    return [...this.packs.keys()].sort();
  }

  /**
   * The document a reference names: `ud10-npcs/Guard` or `ud10-npcs/<_id>`, deep-copied.
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
