/**
 * Entry point of the Fray system in Foundry VTT v13 (bundled to `fray.mjs`).
 *
 * - `init`: the document classes, the data models of the world's ruleset (from its binding in
 *   the registry), the world settings (ruleset and every ruleset's options), the actor and item
 *   sheets, template preloading, the play services (hotbar macros, floating numbers, the effect
 *   service that enables and expires effects on round and turn changes), the rule links (the
 *   `@Rule[...]` enricher, rule IDs in sheets, dialogs and cards open the rules compendium), the
 *   compendium translations for Babele (src/foundry/i18n/babele.ts) and the `game.fray` API.
 * - `setup`: nothing beyond a log line.
 * - `ready`: logs the active ruleset, warns the GM when it is not implemented yet, and tells a GM
 *   of a German world without Babele how to see the compendiums in German.
 */
import { rulesetLabel } from "./attack.js";
import { HOOKS } from "./play/hooks.js";
import { AttackWorkflow } from "./play/workflow.js";
import { TEMPLATES } from "./config.js";
import { registerConditions } from "./conditions.js";
import { registerDataModels } from "./data-models.js";
import { registerDocuments } from "./documents/index.js";
import { registerTokenBars } from "./documents/token-bars.js";
import { FoundryRoller } from "./dice.js";
import { registerPlayFlow } from "./chat/play-flow.js";
import { registerQueries } from "./queries.js";
import { babeleHint, registerBabele, registerBabeleHintSetting } from "./i18n/babele.js";
import { registerRuleLinks } from "./rules-compendium/links.js";
import { registerPackFilter } from "./models/packs.js";
import { apiOptionValues, apiRollAttack, apiRollItemMacro, apiStartEffect, checkedRuleset, type CheckedRuleset } from "./play/api.js";
import { registerEffectService } from "./play/effects.js";
import { registerTokenHud } from "./play/token-hud.js";
import { EFFECT_DIALOG_TEMPLATE, openEffectDialog } from "./play/effect-dialog.js";
import { floatingOptions, registerFloatingNumbers } from "./play/floating.js";
import { registerHotbar } from "./play/hotbar.js";
import { warn } from "./notify.js";
import { activeBinding, type RulesetBinding, type RulesetRegistry } from "./registry.js";
import type { Ruleset } from "../rules/core/ruleset.js";
import { registry } from "./rulesets/index.js";
import { activeRuleset, isImplemented, registerSettings, ud10OptionValues } from "./settings.js";
import { registerActorSheet } from "./sheets/actor-sheet.js";
import { registerItemSheet } from "./sheets/item-sheet.js";
import { ud10ArmorFromItem, ud10CombatantFromActor, ud10WeaponFromItem } from "./rulesets/ud10/translate.js";

/** What macros and other modules can use, as `game.fray`. */
export interface FrayApi {
  /**
   * Attack with a weapon of an actor against the targeted tokens; posts the card. The request is
   * checked first (src/foundry/play/api.ts): a bad one shows a localized error naming the field.
   */
  rollAttack: typeof apiRollAttack;
  /** What a weapon's hotbar macro runs: an attack with the weapon of that UUID. */
  rollItemMacro: typeof apiRollItemMacro;
  /** Starts an effect on an actor, counted in the current combat's rounds and turns. */
  startEffect: typeof apiStartEffect;
  /** Opens the effect dialog for an actor (name, statuses, rounds or turns), as the sheet and token HUD do. */
  openEffectDialog: typeof openEffectDialog;
  /** The update options that make every client float a change of vitals over the token. */
  floatingOptions: typeof floatingOptions;
  /** The attack workflow's class: `new AttackWorkflow(request).run()`, or its stages one by one. */
  AttackWorkflow: typeof AttackWorkflow;
  /** The play pipeline's hook names (`fray.preAttack`, `fray.attack`, ...). */
  hooks: typeof HOOKS;
  /** The registry of ruleset bindings (all four rulesets). */
  registry: RulesetRegistry;
  /**
   * Each ruleset's entry points by id (`ud10`, `hitbox`, `critical`, `zones`), checking what a
   * macro gives them (src/foundry/play/api.ts, `checkedRuleset`).
   */
  rulesets: Record<string, CheckedRuleset>;
  /** The binding of the world's ruleset. */
  readonly binding: RulesetBinding;
  /** The world's option values of a ruleset (the world's ruleset when no id is given). */
  optionValues: typeof apiOptionValues;
  /** The world's UD10 option values. */
  ud10Options: typeof ud10OptionValues;
  /** Document source to rules-core translation. */
  sources: {
    ud10CombatantFromActor: typeof ud10CombatantFromActor;
    ud10WeaponFromItem: typeof ud10WeaponFromItem;
    ud10ArmorFromItem: typeof ud10ArmorFromItem;
  };
  /** The dice adapter, to roll core formulas as Foundry Rolls. */
  FoundryRoller: typeof FoundryRoller;
}

const api: FrayApi = {
  rollAttack: apiRollAttack,
  rollItemMacro: apiRollItemMacro,
  startEffect: apiStartEffect,
  openEffectDialog,
  floatingOptions,
  AttackWorkflow,
  hooks: HOOKS,
  registry,
  rulesets: Object.fromEntries(registry.list().map((b) => [b.id, checkedRuleset(b.ruleset as Ruleset<unknown, unknown>)])),
  get binding() {
    return activeBinding();
  },
  optionValues: apiOptionValues,
  ud10Options: ud10OptionValues,
  sources: { ud10CombatantFromActor, ud10WeaponFromItem, ud10ArmorFromItem },
  FoundryRoller,
};

Hooks.once("init", () => {
  console.log("Fray | Initializing");
  registerSettings();
  registerDocuments();
  registerDataModels(activeRuleset());
  registerConditions();
  registerTokenBars(activeBinding().tokenBars);
  registerPackFilter(activeRuleset);
  registerActorSheet();
  registerItemSheet();
  registerPlayFlow();
  registerHotbar();
  registerFloatingNumbers();
  registerEffectService();
  registerTokenHud();
  registerRuleLinks();
  registerBabele();
  registerBabeleHintSetting();
  // The world's ruleset adds its own play: hooks, Foundry settings, GM request handlers.
  const handlers = activeBinding().init?.();
  if (handlers) registerQueries(handlers);
  void foundry.applications.handlebars.loadTemplates([TEMPLATES.attackCard, EFFECT_DIALOG_TEMPLATE, ...activeBinding().templates]);
  (game as unknown as { fray: FrayApi }).fray = api;
});

Hooks.once("setup", () => {
  console.log("Fray | Setup");
});

Hooks.once("ready", () => {
  const ruleset = activeRuleset();
  console.log(`Fray | Ready, ruleset ${ruleset}`);
  if (!isImplemented(ruleset) && game.user?.isGM) {
    warn("FRAY.Notify.RulesetNotImplementedGM", { ruleset: rulesetLabel(ruleset) });
  }
  babeleHint();
});
