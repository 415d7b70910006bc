/**
 * Typed data of Fray's documents (`system` of each Actor, Item and ChatMessage subtype), as
 * Foundry TypeDataModels, per ruleset. A world plays one ruleset (the `ruleset` setting, read at
 * `init`), and only that ruleset's models, as its binding names them (`registry.ts`), are
 * registered for `character`, `npc`, `weapon` and `armor`. Field labels and hints come from `lang/*.json` through
 * `LOCALIZATION_PREFIXES` (`FRAY.Actor.FIELDS.*`, `FRAY.Weapon.FIELDS.*` ...).
 */
import type { RulesetChoice } from "./config.js";
import type { RulesetModels } from "./registry.js";
import { registry } from "./registry.js";

export type { RulesetModels } from "./registry.js";

/**
 * The models every registered ruleset registers for its actors and items, from its binding, by
 * ruleset id. Read when called: main.ts registers the bindings.
 */
export function rulesetModels(): Record<RulesetChoice, RulesetModels> {
  return Object.fromEntries(registry.list().map((b) => [b.id, b.models])) as Record<RulesetChoice, RulesetModels>;
}

function attackMessageSchema() {
  const { ArrayField, ObjectField, StringField } = foundry.data.fields;
  return {
    /** The ruleset that resolved the attack. */
    ruleset: new StringField({ required: true, blank: false, initial: "ud10" }),
    /** UUID of the attacking actor (a token's synthetic actor when unlinked). */
    attackerUuid: new StringField({ required: true, blank: true, initial: "" }),
    /** Id of the weapon item used. */
    weaponId: new StringField({ required: true, blank: true, initial: "" }),
    /** UUID of the attacker's token, when it attacked from a scene. */
    attackerTokenUuid: new StringField({ required: true, blank: true, initial: "" }),
    /** Name of the weapon at the time of the attack. */
    weaponName: new StringField({ required: true, blank: true, initial: "" }),
    /** Firing mode id (UD-RNG-02); empty for the standard mode. */
    modeId: new StringField({ required: true, blank: true, initial: "" }),
    /** Firing mode label at the time of the attack. */
    modeLabel: new StringField({ required: true, blank: true, initial: "" }),
    /**
     * One state per target (`src/foundry/logic/card.ts` TargetState): who was attacked, the core's
     * result (check, difficulty, hit), reaction, damage roll and the record of what was applied.
     * Messages of older versions also stored the first target's result and UUIDs and a free flag
     * at the top level; nothing reads them, and the model drops them when it cleans the data.
     */
    targets: new ArrayField(new ObjectField()),
  };
}

/** Schema of attack messages. */
export type AttackMessageSchema = ReturnType<typeof attackMessageSchema>;

/** Data of an `attack` chat message: the stored attack result and who attacked whom. */
export class AttackMessageData extends foundry.abstract.TypeDataModel<AttackMessageSchema, ChatMessage.Implementation> {
  static override LOCALIZATION_PREFIXES = ["FRAY.AttackMessage"];

  static override defineSchema(): AttackMessageSchema {
    return attackMessageSchema();
  }
}

/**
 * Puts the data models of the world's ruleset on `CONFIG`, and the attack message model. Call
 * from the `init` hook after the settings are registered.
 * @param ruleset the world's ruleset (`activeRuleset()`).
 */
export function registerDataModels(ruleset: RulesetChoice = "ud10"): void {
  const models = (registry.get(ruleset) ?? registry.get("ud10"))!.models;
  const actors = CONFIG.Actor.dataModels as Record<string, unknown>;
  const items = CONFIG.Item.dataModels as Record<string, unknown>;
  actors.character = models.character;
  actors.npc = models.npc;
  items.weapon = models.weapon;
  items.armor = models.armor;
  CONFIG.ChatMessage.dataModels.attack = AttackMessageData;
}

declare module "@league-of-foundry-developers/foundry-vtt-types/configuration" {
  interface DataModelConfig {
    ChatMessage: { attack: typeof AttackMessageData };
  }
}
