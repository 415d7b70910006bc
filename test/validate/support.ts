/**
 * What the property suites of the input boundaries share: the fast-check settings (runs per
 * boundary, a seed logged so that a failure replays with `FRAY_PROPERTY_SEED=<seed>`), the
 * example encounters and their combatants as the core plays them, and a check that an error is a
 * FrayError naming a field.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as fc from "fast-check";
import { parse } from "yaml";
import { ContentIndex } from "../../src/encounter/content.js";
// The schema (and through it the drivers) first: critical.ts and format.ts import each other.
import { parseEncounter } from "../../src/encounter/schema.js";
import { buildCombatant as buildUd10 } from "../../src/encounter/ud10.js";
import { buildHitboxCombatant } from "../../src/encounter/hitbox.js";
import { buildCriticalCombatant } from "../../src/encounter/critical.js";
import { buildZonesCombatant } from "../../src/encounter/zones.js";
import { FrayError } from "../../src/rules/core/errors.js";
import type { RulesetId } from "../../src/rules/core/types.js";

export const root = fileURLToPath(new URL("../..", import.meta.url));
export const content = new ContentIndex(join(root, "packs", "_source"));

/** Runs per property; every boundary states its own multiple of this. */
export const RUNS = Number(process.env.FRAY_PROPERTY_RUNS) || 200;

/** The seed of this test run: `FRAY_PROPERTY_SEED` replays a failure, otherwise a fresh one, logged. */
export const SEED = Number(process.env.FRAY_PROPERTY_SEED) || Math.floor(Math.random() * 2 ** 31);

/** fast-check parameters with the run's seed; the seed is printed so a failure can be replayed. */
export function params(suite: string, numRuns: number): fc.Parameters<unknown> {
  console.log(`[property] ${suite}: ${numRuns} runs, seed ${SEED} (replay: FRAY_PROPERTY_SEED=${SEED})`);
  return { seed: SEED, numRuns };
}

/** The example file of each ruleset. */
export const EXAMPLES: Record<RulesetId, string> = {
  ud10: "ud10-ambush.yaml",
  hitbox: "hitbox-zeven.yaml",
  critical: "critical-duel.yaml",
  zones: "zones-burst.yaml",
};

/** Each example file read and parsed once; {@link example} hands out copies. */
const parsedExamples = new Map<RulesetId, Record<string, unknown>>();

/** An example encounter file as parsed YAML (a fresh copy the caller may change). */
export function example(ruleset: RulesetId): Record<string, unknown> {
  let parsed = parsedExamples.get(ruleset);
  if (!parsed) {
    parsed = parse(readFileSync(join(root, "examples", EXAMPLES[ruleset]), "utf8")) as Record<string, unknown>;
    parsedExamples.set(ruleset, parsed);
  }
  return structuredClone(parsed);
}

/** The combatants of a ruleset's example file, as the core plays them. */
export function exampleCombatants(ruleset: RulesetId): unknown[] {
  const spec = parseEncounter(example(ruleset));
  return spec.combatants.map((cs, i) => {
    if (ruleset === "ud10") return buildUd10(cs, i, content);
    if (ruleset === "hitbox") return buildHitboxCombatant(cs, i, content, {});
    if (ruleset === "critical") return buildCriticalCombatant(cs, i, content);
    return buildZonesCombatant(cs, i, content);
  });
}

/** The field a call refuses with a FrayError; `ok` when it does not throw; a description of any other error. */
export function refusedField(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof FrayError) return typeof e.data.field === "string" ? e.data.field : `FrayError ${e.key} without a field`;
    return `not a FrayError: ${String(e)}`;
  }
  return "ok";
}

/** Sets `value` at a dotted path (`situation.cover`, `attacker.skills.melee.rating`) of a copy of `obj`; `undefined` deletes. */
export function setPath<T>(obj: T, path: string, value: unknown): T {
  const copy = structuredClone(obj) as Record<string, unknown>;
  const parts = path.split(".");
  let node = copy;
  for (const p of parts.slice(0, -1)) {
    if (typeof node[p] !== "object" || node[p] === null) node[p] = {};
    node = node[p] as Record<string, unknown>;
  }
  const last = parts[parts.length - 1]!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy as T;
}

/** The kind of a field, for the values it refuses. */
export type FieldKind = "number" | "flag" | "choice" | "object";

/** Values each kind of field refuses: texts for numbers, NaN, infinities, absurd magnitudes, wrong types. */
export const BAD_VALUES: Record<FieldKind, unknown[]> = {
  number: [NaN, Infinity, -Infinity, "10", "", -1e9, 1e12, true, [], null, {}],
  flag: [NaN, "true", 1, 0, null, [], "constructor", {}],
  choice: [NaN, "", "constructor", "__proto__", 3, null, true, [], {}],
  object: [NaN, "10", null, [], true, 5],
};
