/**
 * UD10 data models: `character` and `npc` actors, `weapon` and `armor` items. The shapes mirror
 * what `src/foundry/sources.ts` and `src/rules/ud10/model.ts` read, so `actor.toObject()` turns
 * into a rules-core combatant without renaming anything. Derived values come from the core
 * through {@link ud10Derived}.
 */
import { parseDamageCode } from "../../../rules/ud10/model.js";
import { localizeError } from "../../../rules/core/errors.js";
import type { Ud10Combatant } from "../../../rules/ud10/model.js";
import { ud10Derived, ud10DerivedOf, type Ud10Derived } from "./derived.js";
import { RULESET_BOUNDS } from "../../../rules/core/bounds.js";
import { bounded, choice, rulesetField, track } from "../../models/fields.js";
import { defaultUd10Parry, migrateUd10Actor, migrateUd10Armor, migrateUd10Weapon } from "./migrate.js";

type Raw = Record<string, unknown>;

/** UD10's row of the bounds table: the limits of every number field below. */
const B = RULESET_BOUNDS.ud10;

/** One skill: rating and whether it is trained. */
function skill() {
  const { SchemaField, BooleanField } = foundry.data.fields;
  return new SchemaField({ rating: bounded(B.skill, 0), trained: new BooleanField({ initial: false }) });
}

/**
 * Validates a damage code with the core's parser (UD-DMG-01). Throws the core's localized
 * message, which Foundry shows as the field's validation error; the stored value is kept.
 */
export function validateDamageCode(value: unknown): boolean {
  try {
    parseDamageCode(String(value));
    return true;
  } catch (error) {
    const i18n = (globalThis as { game?: { i18n?: { format(key: string, data: Record<string, string | number>): string } } }).game?.i18n;
    throw new Error(localizeError(error, (key, data) => i18n?.format(key, data)));
  }
}

/** A damage code field, validated by the core (UD-DMG-01). */
function damageField() {
  return new foundry.data.fields.StringField({ required: true, blank: false, initial: "1d10", validate: validateDamageCode });
}

/**
 * The schema of a UD10 `character` or `npc` actor.
 * @param group the default side of new actors (`players` or `npc`).
 */
function actorSchema(group: string) {
  const { SchemaField, StringField, HTMLField } = foundry.data.fields;
  return {
    ruleset: rulesetField("ud10"),
    attributes: new SchemaField({ STR: bounded(B.attribute, 5), DEX: bounded(B.attribute, 5), CON: bounded(B.attribute, 5) }),
    skills: new SchemaField({ initiative: skill(), melee: skill(), ranged: skill(), parry: skill(), dodge: skill() }),
    hp: track(10, B.pool, B.poolValue),
    ep: track(10, B.pool, B.epValue),
    size: choice(["small", "normal", "large"] as const, "normal"),
    group: new StringField({ required: true, blank: false, initial: group }),
    biography: new HTMLField({ required: true, blank: true }),
  };
}

/** Schema of UD10 actors (both subtypes share it). */
export type ActorSchema = ReturnType<typeof actorSchema>;

/** The actor source the core reads, built from a model and its parent actor. */
function sourceOf(model: { toObject(): unknown; parent?: unknown }): Parameters<typeof ud10Derived>[0] {
  const actor = model.parent as
    | { name?: string; type?: string; _id?: string | null; items?: Iterable<{ toObject(): unknown }>; statuses?: Iterable<string> }
    | undefined;
  return {
    _id: actor?._id ?? null,
    name: actor?.name ?? "",
    type: actor?.type ?? "character",
    system: model.toObject() as Raw,
    items: Array.from(actor?.items ?? [], (i) => i.toObject() as never),
    statuses: Array.from(actor?.statuses ?? []),
  };
}

/**
 * Data of a UD10 `character` actor: attributes STR/DEX/CON, the five combat skills
 * (`{ rating, trained }`), HP and EP pools, size, group and an HTML biography. After
 * preparation, `derived` holds the core's defense rating, movement and armor per zone
 * (`null` when an item's data cannot be read).
 */
export class CharacterData extends foundry.abstract.TypeDataModel<ActorSchema, Actor.Implementation> {
  static override LOCALIZATION_PREFIXES = ["FRAY.Actor"];

  /** Values the rules core derives (see {@link Ud10Derived}). */
  declare derived: Ud10Derived | null;

  static override defineSchema(): ActorSchema {
    return actorSchema("players");
  }

  /** Older or partial sources: see {@link migrateUd10Actor}. */
  static override migrateData(source: Raw) {
    return super.migrateData(migrateUd10Actor(source) as never);
  }

  /**
   * Defense, movement and armor from the rules core, from the combatant the Actor prepared for
   * UD10 (read once per preparation); read from the source when there is none.
   */
  override prepareDerivedData(): void {
    super.prepareDerivedData();
    const core = (this.parent as { frayCore?(): { ruleset: string; combatant?: unknown } } | undefined)?.frayCore?.();
    this.derived = (
      core?.ruleset === "ud10" && core.combatant ? ud10DerivedOf(core.combatant as Ud10Combatant) : ud10Derived(sourceOf(this as never))
    ).derived;
  }
}

/** Data of a UD10 `npc` actor: the same shape as a character, in the `npc` group by default. */
export class NpcData extends CharacterData {
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
    damage: damageField(),
    attackModifier: bounded(B.attackModifier, 0),
    shots: bounded(B.shots, 1),
  };
}

function weaponSchema() {
  const { ArrayField, BooleanField, HTMLField, SchemaField } = foundry.data.fields;
  return {
    ruleset: rulesetField("ud10"),
    kind: choice(["melee", "ranged"] as const, "melee"),
    attackModifier: bounded(B.attackModifier, 0),
    /** Damage code `fixed + N d10`, e.g. `2+1d10` (UD-DMG-01). */
    damage: damageField(),
    penetration: bounded(B.penetration, 0),
    /** Metres; 0 for melee weapons. */
    rangeIncrement: bounded(B.rangeIncrement, 0),
    modes: new ArrayField(new SchemaField(modeSchema())),
    canParry: new BooleanField({ initial: true }),
    shield: new BooleanField({ initial: false }),
    description: new HTMLField({ required: true, blank: true }),
  };
}

/** Schema of UD10 weapons. */
export type WeaponSchema = ReturnType<typeof weaponSchema>;

/**
 * Data of a UD10 `weapon` item: kind (`melee`/`ranged`), attack modifier, damage code (checked
 * by the core), penetration, range increment in metres, firing modes, whether it can parry,
 * whether it is a shield.
 */
export class WeaponData extends foundry.abstract.TypeDataModel<WeaponSchema, Item.Implementation> {
  static override LOCALIZATION_PREFIXES = ["FRAY.Weapon"];

  static override defineSchema(): WeaponSchema {
    return weaponSchema();
  }

  /** Older or partial sources: see {@link migrateUd10Weapon}. */
  static override migrateData(source: Raw) {
    return super.migrateData(migrateUd10Weapon(source) as never);
  }

  /**
   * A whole source without `canParry` gets the core's default by kind ({@link defaultUd10Parry});
   * an update's partial data (`options.partial`) is cleaned as it is, so a new `kind` never
   * changes the stored `canParry`.
   */
  static override cleanData(source?: Raw, options?: { partial?: boolean }) {
    if (source && !options?.partial) defaultUd10Parry(source);
    return super.cleanData(source as never, options as never);
  }
}

function armorSchema() {
  const { BooleanField, HTMLField, SchemaField } = foundry.data.fields;
  const zone = () => new SchemaField({ rating: bounded(B.armorRating, 0), buffer: bounded(B.buffer, 0) });
  return {
    ruleset: rulesetField("ud10"),
    zones: new SchemaField({ head: zone(), leftArm: zone(), rightArm: zone(), torso: zone(), leftLeg: zone(), rightLeg: zone() }),
    equipped: new BooleanField({ initial: true }),
    description: new HTMLField({ required: true, blank: true }),
  };
}

/** Schema of UD10 armor. */
export type ArmorSchema = ReturnType<typeof armorSchema>;

/** Data of a UD10 `armor` item: rating and buffer per body zone, and whether it is worn. */
export class ArmorData extends foundry.abstract.TypeDataModel<ArmorSchema, Item.Implementation> {
  static override LOCALIZATION_PREFIXES = ["FRAY.Armor"];

  static override defineSchema(): ArmorSchema {
    return armorSchema();
  }

  /** Older or partial sources: see {@link migrateUd10Armor}. */
  static override migrateData(source: Raw) {
    return super.migrateData(migrateUd10Armor(source) as never);
  }
}

// The typing of `system` on Actors and Items (the types package reads one model per subtype): UD10's,
// the default ruleset's. The other rulesets' bindings read `system` through their own models.
declare module "@league-of-foundry-developers/foundry-vtt-types/configuration" {
  interface DataModelConfig {
    Actor: { character: typeof CharacterData; npc: typeof NpcData };
    Item: { weapon: typeof WeaponData; armor: typeof ArmorData };
  }
}
