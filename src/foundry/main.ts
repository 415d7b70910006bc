/**
 * Entry point of the Fray system in Foundry VTT v13 (bundled to `fray.mjs`).
 *
 * - `init`: data models of every document subtype, the world settings (ruleset and UD10
 *   options), the actor and item sheets, template preloading, and the `game.fray` API.
 * - `setup`: nothing beyond a log line.
 * - `ready`: logs the active ruleset and warns the GM when it is not implemented yet.
 */
import { ud10 } from "../rules/ud10/index.js";
import { rollAttack, rulesetLabel } from "./attack.js";
import { TEMPLATES } from "./config.js";
import { registerConditions } from "./conditions.js";
import { registerDataModels } from "./data-models.js";
import { FoundryRoller } from "./dice.js";
import { registerPlayFlow } from "./chat/play-flow.js";
import { registerPackFilter } from "./models/packs.js";
import { warn } from "./notify.js";
import { activeRuleset, isImplemented, registerSettings, ud10OptionValues } from "./settings.js";
import { registerActorSheet } from "./sheets/actor-sheet.js";
import { registerItemSheet } from "./sheets/item-sheet.js";
import { ud10ArmorFromItem, ud10CombatantFromActor, ud10WeaponFromItem } from "./sources.js";

/** What macros and other modules can use, as `game.fray`. */
export interface FrayApi {
  /** Attack with a weapon of an actor against the first targeted token; posts the card. */
  rollAttack: typeof rollAttack;
  /** The rules core's UD10 ruleset. */
  rulesets: { ud10: typeof ud10 };
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
  rollAttack,
  rulesets: { ud10 },
  ud10Options: ud10OptionValues,
  sources: { ud10CombatantFromActor, ud10WeaponFromItem, ud10ArmorFromItem },
  FoundryRoller,
};

Hooks.once("init", () => {
  console.log("Fray | Initializing");
  registerSettings();
  registerDataModels(activeRuleset());
  registerConditions();
  registerPackFilter(activeRuleset);
  registerActorSheet();
  registerItemSheet();
  registerPlayFlow();
  void foundry.applications.handlebars.loadTemplates([TEMPLATES.attackCard]);
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
});
