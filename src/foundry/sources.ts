/**
 * Translation from Foundry document sources (an Actor's or Item's `toObject()`, or a compendium
 * JSON source) into the rules core's shapes. The translation itself lives in the rules core
 * (`src/rules/core/sources.ts` and each ruleset's model); each binding names its own
 * (`src/foundry/rulesets/<id>/`).
 */
export type { ActorSource, ItemSource } from "../rules/core/sources.js";
