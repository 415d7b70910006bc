/**
 * World settings: the active ruleset and one setting per optional rule of every registered
 * ruleset, `<ruleset>-<optionId>` (`ud10-bodyZones`, `hitbox-hitboxArmor` ...). The option
 * settings are generated from each rules core's `options` (id, label, hint, type, default,
 * choices), so a new option in a core shows up here without code changes. All are registered,
 * so a world keeps every ruleset's choices when it switches; only the active ruleset's are
 * shown in the settings menu.
 */
import type { OptionSpec, RulesetOptions } from "../rules/core/ruleset.js";
import { optionSettingKey, RULESET_SETTING, SYSTEM_ID, QUENCH_SETTING, type RulesetChoice } from "./config.js";
import { activeRuleset } from "./registry.js";
import { registry } from "./registry.js";

export { activeRuleset } from "./registry.js";

declare module "@league-of-foundry-developers/foundry-vtt-types/configuration" {
  interface SettingConfig {
    "fray.ruleset": RulesetChoice;
    "fray.beyondFullMovement": "show" | "refuse";
    "fray.quenchBatches": boolean;
    "fray.applied": Record<string, string>;
    "fray.babeleHintShown": boolean;
    [ud10Option: `fray.ud10-${string}`]: boolean | number | string;
    [hitboxOption: `fray.hitbox-${string}`]: boolean | number | string;
    [criticalOption: `fray.critical-${string}`]: boolean | number | string;
    [zonesOption: `fray.zones-${string}`]: boolean | number | string;
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
export function optionSettingConfig(spec: OptionSpec, shown = true) {
  const base = { name: spec.label, hint: spec.hint, scope: "world" as const, config: shown };
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

/**
 * The world's index of applied attacks (play/applied.ts): which actor each card target's damage
 * went to. A world setting, so only GMs write it.
 */
export const APPLIED_SETTING = "applied";

/**
 * Registers the ruleset setting, the movement setting and every registered ruleset's option
 * settings; only the world's ruleset's options are shown in the settings menu (`config`), the
 * others keep their stored values. Call from the `init` hook.
 */
export function registerSettings(): void {
  game.settings.register(SYSTEM_ID, RULESET_SETTING, {
    name: "FRAY.Setting.Ruleset.Name",
    hint: "FRAY.Setting.Ruleset.Hint",
    scope: "world",
    config: true,
    type: String,
    default: "ud10",
    choices: Object.fromEntries(registry.ids().map((id) => [id, RULESET_CHOICE_LABELS[id] ?? `FRAY.Ruleset.${id}`])),
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
  game.settings.register(SYSTEM_ID, QUENCH_SETTING, {
    name: "FRAY.Setting.Quench.Name",
    hint: "FRAY.Setting.Quench.Hint",
    scope: "world",
    config: true,
    type: Boolean,
    default: false,
    requiresReload: true,
  });
  game.settings.register(SYSTEM_ID, APPLIED_SETTING, {
    scope: "world",
    config: false,
    type: Object,
    default: {},
  });
  const active = activeRuleset();
  // The option keys are generated, so the typed overloads cannot name them.
  const register = game.settings.register.bind(game.settings) as (ns: string, key: string, config: unknown) => void;
  for (const binding of registry.list()) {
    for (const spec of binding.ruleset.options)
      register(SYSTEM_ID, optionSettingKey(binding.id, spec.id), optionSettingConfig(spec, binding.id === active));
  }
}

/** True when the ruleset is registered and plays in Foundry already (only UD10 so far). */
export function isImplemented(ruleset: RulesetChoice): boolean {
  return registry.get(ruleset)?.implemented ?? false;
}

/**
 * The option values of a ruleset as stored in the world settings, by option id; options whose
 * setting cannot be read (not registered yet, or of another type than the option) fall back to
 * the core's defaults.
 * @param rulesetId the ruleset; the world's when absent.
 * @returns `{}` for an id no binding is registered for.
 */
export function optionValues(rulesetId: RulesetChoice = activeRuleset()): RulesetOptions {
  const binding = registry.get(rulesetId);
  if (!binding) return {};
  const values: RulesetOptions = { ...binding.ruleset.defaults() };
  const get = game.settings.get.bind(game.settings) as (ns: string, key: string) => unknown;
  for (const spec of binding.ruleset.options) {
    try {
      const v = get(SYSTEM_ID, optionSettingKey(binding.id, spec.id));
      if (typeof v === typeof spec.default) values[spec.id] = v as boolean | number | string;
    } catch {
      // Not registered (yet): keep the default.
    }
  }
  return values;
}

/** The UD10 option values as stored in the world settings (see {@link optionValues}). */
export function ud10OptionValues(): RulesetOptions {
  return optionValues("ud10");
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
