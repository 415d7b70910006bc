/**
 * Constants the Foundry glue shares: the system id, template paths, and the ids of the world
 * settings. No Foundry globals are touched here, so tests import it freely.
 */

/** The system id, as in `system.json`. */
export const SYSTEM_ID = "fray";

/** Root of the system's files as Foundry serves them. */
export const SYSTEM_PATH = `systems/${SYSTEM_ID}`;

/** Handlebars templates, by use. Paths are relative to Foundry's data root. */
export const TEMPLATES = {
  itemSheet: `${SYSTEM_PATH}/templates/item/item-sheet.hbs`,
  attackCard: `${SYSTEM_PATH}/templates/chat/attack-card.hbs`,
} as const;

/** The rulesets a world can choose; only `ud10` is playable so far. */
export const RULESETS = ["ud10", "hitbox", "critical", "zones"] as const;

/** A ruleset id (same as the rules core's `RulesetId`). */
export type RulesetChoice = (typeof RULESETS)[number];

/** The rulesets that are implemented and can be played. */
export const IMPLEMENTED_RULESETS: readonly RulesetChoice[] = ["ud10"];

/** Id of the world setting holding the active ruleset. */
export const RULESET_SETTING = "ruleset";

/**
 * Id of the world setting holding one option of a ruleset: `<ruleset>-<optionId>`, e.g.
 * `ud10-bodyZones`, `hitbox-hitboxArmor`.
 * @param ruleset the ruleset the option belongs to.
 * @param optionId the `id` of an entry of that ruleset's `options`.
 */
export function optionSettingKey<R extends RulesetChoice>(ruleset: R, optionId: string): `${R}-${string}` {
  return `${ruleset}-${optionId}`;
}

/**
 * Id of the world setting holding one UD10 option: `ud10-<optionId>`, e.g. `ud10-bodyZones`.
 * @param optionId the `id` of an entry of `ud10.options`.
 */
export function ud10SettingKey(optionId: string): `ud10-${string}` {
  return optionSettingKey("ud10", optionId);
}

/**
 * Id of the GM-only world setting that registers Fray's Quench batches (src/foundry/quench.ts)
 * in a release build, so a GM can check the system in a real world with the Quench module.
 */
export const QUENCH_SETTING = "quenchBatches";
