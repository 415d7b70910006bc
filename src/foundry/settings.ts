/**
 * World settings: the active ruleset and one setting per optional rule of UD10. The option
 * settings are generated from the rules core's `ud10.options` (id, label, hint, type, default,
 * choices), so a new option in the core shows up here without code changes.
 */
import type { OptionSpec, RulesetOptions } from "../rules/core/ruleset.js";
import { ud10 } from "../rules/ud10/index.js";
import { IMPLEMENTED_RULESETS, RULESET_SETTING, RULESETS, SYSTEM_ID, ud10SettingKey, type RulesetChoice } from "./config.js";

declare module "@league-of-foundry-developers/foundry-vtt-types/configuration" {
  interface SettingConfig {
    "fray.ruleset": RulesetChoice;
    "fray.beyondFullMovement": "show" | "refuse";
    [ud10Option: `fray.ud10-${string}`]: boolean | number | string;
  }
}

/** i18n keys of the ruleset choices in the settings dialog. */
export const RULESET_CHOICE_LABELS: Record<RulesetChoice, string> = {
  ud10: "FRAY.Setting.Ruleset.Choice.ud10",
  hitbox: "FRAY.Setting.Ruleset.Choice.hitbox",
  critical: "FRAY.Setting.Ruleset.Choice.critical",
  zones: "FRAY.Setting.Ruleset.Choice.zones",
};

/**
 * The i18n key of one choice of a `choice` option: `<label prefix>.choices.<choice>` where the
 * label prefix is the option's label key without its last segment
 * (`FRAY.Option.npcInitiative.label` gives `FRAY.Option.npcInitiative.choices.group`).
 */
export function optionChoiceKey(spec: Pick<OptionSpec, "label">, choice: string): string {
  const prefix = spec.label.replace(/\.[^.]+$/, "");
  return `${prefix}.choices.${choice}`;
}

/**
 * The `game.settings.register` configuration of one ruleset option, read generically from its
 * spec: booleans become checkboxes, numbers number inputs, choices drop-downs (choice labels
 * from {@link optionChoiceKey}). Labels and hints are i18n keys; Foundry localizes them.
 */
export function optionSettingConfig(spec: OptionSpec) {
  const base = { name: spec.label, hint: spec.hint, scope: "world" as const, config: true };
  switch (spec.type) {
    case "boolean":
      return { ...base, type: Boolean, default: Boolean(spec.default) };
    case "number":
      return { ...base, type: Number, default: Number(spec.default) };
    case "choice":
      return {
        ...base,
        type: String,
        default: String(spec.default),
        choices: Object.fromEntries((spec.choices ?? []).map((c) => [c, optionChoiceKey(spec, c)])),
      };
  }
}

/** Registers the ruleset setting and the UD10 option settings. Call from the `init` hook. */
export function registerSettings(): void {
  game.settings.register(SYSTEM_ID, RULESET_SETTING, {
    name: "FRAY.Setting.Ruleset.Name",
    hint: "FRAY.Setting.Ruleset.Hint",
    scope: "world",
    config: true,
    type: String,
    default: "ud10",
    choices: RULESET_CHOICE_LABELS,
    requiresReload: true,
  });
  game.settings.register(SYSTEM_ID, BEYOND_FULL_SETTING, {
    name: "FRAY.Flow.Setting.BeyondFull.Name",
    hint: "FRAY.Flow.Setting.BeyondFull.Hint",
    scope: "world",
    config: true,
    type: String,
    default: "show",
    choices: { show: "FRAY.Flow.Setting.BeyondFull.show", refuse: "FRAY.Flow.Setting.BeyondFull.refuse" },
  });
  for (const spec of ud10.options) {
    // The option keys are generated, so the typed overloads cannot name them.
    const register = game.settings.register.bind(game.settings) as (ns: string, key: string, config: unknown) => void;
    register(SYSTEM_ID, ud10SettingKey(spec.id), optionSettingConfig(spec));
  }
}

/** The world's ruleset; `ud10` before settings are ready or when the stored value is unknown. */
export function activeRuleset(): RulesetChoice {
  const value = game.settings?.get(SYSTEM_ID, RULESET_SETTING) as string | undefined;
  return (RULESETS as readonly string[]).includes(value ?? "") ? (value as RulesetChoice) : "ud10";
}

/** True when the ruleset has an implementation (only UD10 so far). */
export function isImplemented(ruleset: RulesetChoice): boolean {
  return IMPLEMENTED_RULESETS.includes(ruleset);
}

/**
 * The UD10 option values as stored in the world settings, by option id; options whose setting
 * cannot be read fall back to the core's defaults.
 */
export function ud10OptionValues(): RulesetOptions {
  const values: RulesetOptions = { ...ud10.defaults() };
  const get = game.settings.get.bind(game.settings) as (ns: string, key: string) => unknown;
  for (const spec of ud10.options) {
    try {
      const v = get(SYSTEM_ID, ud10SettingKey(spec.id));
      if (typeof v === "boolean" || typeof v === "number" || typeof v === "string") values[spec.id] = v;
    } catch {
      // Not registered (yet): keep the default.
    }
  }
  return values;
}

/** Id of the world setting: moving past full movement is only shown, or refused (UD-MOV-03). */
export const BEYOND_FULL_SETTING = "beyondFullMovement";

/** The world's choice for moves past full movement; `show` when it cannot be read. */
export function beyondFullPolicy(): "show" | "refuse" {
  try {
    return game.settings.get(SYSTEM_ID, BEYOND_FULL_SETTING) === "refuse" ? "refuse" : "show";
  } catch {
    return "show";
  }
}
