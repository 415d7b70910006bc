/**
 * Typed data of Fray's documents (`system` of each Actor, Item and ChatMessage subtype), as
 * Foundry TypeDataModels. The shapes mirror what `src/foundry/sources.ts` and
 * `src/rules/ud10/model.ts` read, so `actor.toObject()` turns into a rules-core combatant without
 * renaming anything. Field labels and hints come from `lang/*.json` through
 * `LOCALIZATION_PREFIXES` (`FRAY.Actor.FIELDS.*`, `FRAY.Weapon.FIELDS.*` ...).
 */
import { ATTRIBUTES, SKILLS, ZONES } from "../rules/ud10/model.js";

/** A whole number field that is never null. */
function integer(initial: number, options: { min?: number; max?: number } = {}) {
  return new foundry.data.fields.NumberField({ required: true, nullable: false, integer: true, initial, ...options });
}

/** A value/max pool (HP, EP). */
function track(initial: number) {
  const { SchemaField } = foundry.data.fields;
  return new SchemaField({ value: integer(initial), max: integer(initial, { min: 0 }) });
}

/** One skill: rating and whether it is trained. */
function skill() {
  const { SchemaField, BooleanField } = foundry.data.fields;
  return new SchemaField({ rating: integer(0, { min: 0 }), trained: new BooleanField({ initial: false }) });
}

/**
 * The schema of a `character` or `npc` actor.
 * @param group the default side of new actors (`players` or `npc`).
 */
function actorSchema(group: string) {
  const { SchemaField, StringField, HTMLField } = foundry.data.fields;
  const [STR, DEX, CON] = ATTRIBUTES;
  const [initiative, melee, ranged, parry, dodge] = SKILLS;
  return {
    attributes: new SchemaField({ [STR]: integer(5, { min: 0 }), [DEX]: integer(5, { min: 0 }), [CON]: integer(5, { min: 0 }) }),
    skills: new SchemaField({
      [initiative]: skill(),
      [melee]: skill(),
      [ranged]: skill(),
      [parry]: skill(),
      [dodge]: skill(),
    }),
    hp: track(10),
    ep: track(10),
    size: new StringField({ required: true, blank: false, initial: "normal", choices: ["small", "normal", "large"] }),
    group: new StringField({ required: true, blank: false, initial: group }),
    biography: new HTMLField({ required: true, blank: true }),
  };
}

/** Schema of actors (both subtypes share it). */
export type ActorSchema = ReturnType<typeof actorSchema>;

/**
 * Data of a `character` actor: attributes STR/DEX/CON, the five combat skills
 * (`{ rating, trained }`), HP and EP pools, size, group and an HTML biography.
 */
export class CharacterData extends foundry.abstract.TypeDataModel<ActorSchema, Actor.Implementation> {
  static override LOCALIZATION_PREFIXES = ["FRAY.Actor"];

  static override defineSchema(): ActorSchema {
    return actorSchema("players");
  }
}

/** Data of an `npc` actor: the same shape as a character, in the `npc` group by default. */
export class NpcData extends foundry.abstract.TypeDataModel<ActorSchema, Actor.Implementation> {
  static override LOCALIZATION_PREFIXES = ["FRAY.Actor"];

  static override defineSchema(): ActorSchema {
    return actorSchema("npc");
  }
}

/** Schema of a firing mode (UD-RNG-02). */
function modeSchema() {
  const { StringField } = foundry.data.fields;
  return {
    id: new StringField({ required: true, blank: false, initial: "mode" }),
    label: new StringField({ required: true, blank: true, initial: "" }),
    damage: new StringField({ required: true, blank: false, initial: "1d10" }),
    attackModifier: integer(0),
    shots: integer(1, { min: 1 }),
  };
}

function weaponSchema() {
  const { ArrayField, BooleanField, HTMLField, NumberField, SchemaField, StringField } = foundry.data.fields;
  return {
    kind: new StringField({ required: true, blank: false, initial: "melee", choices: ["melee", "ranged"] }),
    attackModifier: integer(0),
    /** Damage code `fixed + N d10`, e.g. `2+1d10` (UD-DMG-01). */
    damage: new StringField({ required: true, blank: false, initial: "1d10" }),
    penetration: integer(0, { min: 0 }),
    /** Metres; 0 for melee weapons. */
    rangeIncrement: new NumberField({ required: true, nullable: false, initial: 0, min: 0 }),
    modes: new ArrayField(new SchemaField(modeSchema())),
    canParry: new BooleanField({ initial: true }),
    shield: new BooleanField({ initial: false }),
    description: new HTMLField({ required: true, blank: true }),
  };
}

/** Schema of weapons. */
export type WeaponSchema = ReturnType<typeof weaponSchema>;

/**
 * Data of a `weapon` item: kind (`melee`/`ranged`), attack modifier, damage code, penetration,
 * range increment in metres, firing modes, whether it can parry, whether it is a shield.
 */
export class WeaponData extends foundry.abstract.TypeDataModel<WeaponSchema, Item.Implementation> {
  static override LOCALIZATION_PREFIXES = ["FRAY.Weapon"];

  static override defineSchema(): WeaponSchema {
    return weaponSchema();
  }
}

function armorSchema() {
  const { BooleanField, HTMLField, SchemaField } = foundry.data.fields;
  const zone = () => new SchemaField({ rating: integer(0, { min: 0 }), buffer: integer(0, { min: 0 }) });
  const [head, leftArm, rightArm, torso, leftLeg, rightLeg] = ZONES;
  return {
    zones: new SchemaField({
      [head]: zone(),
      [leftArm]: zone(),
      [rightArm]: zone(),
      [torso]: zone(),
      [leftLeg]: zone(),
      [rightLeg]: zone(),
    }),
    equipped: new BooleanField({ initial: true }),
    description: new HTMLField({ required: true, blank: true }),
  };
}

/** Schema of armor. */
export type ArmorSchema = ReturnType<typeof armorSchema>;

/** Data of an `armor` item: rating and buffer per body zone, and whether it is worn. */
export class ArmorData extends foundry.abstract.TypeDataModel<ArmorSchema, Item.Implementation> {
  static override LOCALIZATION_PREFIXES = ["FRAY.Armor"];

  static override defineSchema(): ArmorSchema {
    return armorSchema();
  }
}

function attackMessageSchema() {
  const { ObjectField, StringField } = foundry.data.fields;
  return {
    /** The ruleset that resolved the attack. */
    ruleset: new StringField({ required: true, blank: false, initial: "ud10" }),
    /** The rules core's `AttackResult`, without the native Roll handles (they travel as the message's rolls). */
    result: new ObjectField(),
    /** UUID of the attacking actor (a token's synthetic actor when unlinked). */
    attackerUuid: new StringField({ required: true, blank: true, initial: "" }),
    /** UUID of the target's actor. */
    targetUuid: new StringField({ required: true, blank: true, initial: "" }),
    /** UUID of the target's token, when it was targeted on a scene. */
    targetTokenUuid: new StringField({ required: true, blank: true, initial: "" }),
    /** Id of the weapon item used. */
    weaponId: new StringField({ required: true, blank: true, initial: "" }),
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

/** Puts the data models on `CONFIG`. Call from the `init` hook. */
export function registerDataModels(): void {
  CONFIG.Actor.dataModels.character = CharacterData;
  CONFIG.Actor.dataModels.npc = NpcData;
  CONFIG.Item.dataModels.weapon = WeaponData;
  CONFIG.Item.dataModels.armor = ArmorData;
  CONFIG.ChatMessage.dataModels.attack = AttackMessageData;
}

declare module "@league-of-foundry-developers/foundry-vtt-types/configuration" {
  interface DataModelConfig {
    Actor: { character: typeof CharacterData; npc: typeof NpcData };
    Item: { weapon: typeof WeaponData; armor: typeof ArmorData };
    ChatMessage: { attack: typeof AttackMessageData };
  }
}
