/**
 * Keeps a world to its ruleset's compendium packs. Fray ships packs for every ruleset
 * (`ud10-weapons`, `hitbox-npcs` ...); a world loads only the models of its own ruleset, so the
 * other rulesets' packs are taken out of `game.packs` in `setup` (not indexed, not listed, not
 * searchable, nothing can be dragged from them), and the compendium sidebar drops any entry
 * left over when it renders.
 */
import type { RulesetChoice } from "../config.js";
import { rulesetOfPack } from "./migrate.js";

/** The parts of a pack's metadata this reads. */
export interface PackMetadata {
  id?: string;
  name: string;
  packageName?: string;
  packageType?: string;
}

/** True when a pack is one of this system's packs for another ruleset than `ruleset`. */
export function isForeignPack(metadata: PackMetadata, ruleset: RulesetChoice): boolean {
  if (metadata.packageType !== undefined && metadata.packageType !== "system") return false;
  if (metadata.packageName !== undefined && metadata.packageName !== "fray") return false;
  const of = rulesetOfPack(metadata.name);
  return of !== undefined && of !== ruleset;
}

/**
 * Registers the `setup` and `renderCompendiumDirectory` hooks that hide other rulesets' packs.
 * @param ruleset a function giving the world's ruleset.
 */
export function registerPackFilter(ruleset: () => RulesetChoice): void {
  Hooks.once("setup", () => {
    const packs = game.packs;
    if (!packs) return;
    for (const pack of Array.from(packs)) {
      const meta = pack.metadata as unknown as PackMetadata;
      if (isForeignPack(meta, ruleset())) packs.delete(pack.collection);
    }
  });
  Hooks.on("renderCompendiumDirectory", (_app: unknown, html: unknown) => {
    if (!(html instanceof HTMLElement)) return;
    for (const li of Array.from(html.querySelectorAll<HTMLElement>("[data-pack]"))) {
      const id = li.dataset.pack ?? "";
      const [packageName, name] = id.split(".");
      if (name && isForeignPack({ name, packageName }, ruleset())) li.remove();
    }
  });
}
