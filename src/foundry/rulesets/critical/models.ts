/**
 * Data models of the Critical ruleset. Their schemas mirror the fields the ruleset's parser reads
 * (`src/rules/critical/model.ts`) and its compendium sources use, so a world of that ruleset
 * loads its packs without losing data. Each document carries `ruleset`.
 */
import { ARMOR_TYPES, WEAPON_CATEGORIES } from "../../../rules/critical/model.js";
import { RULESET_BOUNDS } from "../../../rules/core/bounds.js";
import { bounded, boundedOrNull, choice, rulesetField, track } from "../../models/fields.js";
import { migrateCriticalActor } from "../../models/migrate.js";

type Raw = Record<string, unknown>;

/* Every number field takes its limits from the ruleset's row of the bounds table. */
const CR = RULESET_BOUNDS.critical;
function criticalActorSchema(group: string) {
  const { ArrayField, HTMLField, ObjectField, SchemaField, StringField, TypedObjectField } = foundry.data.fields;
  const ob = () => bounded(CR.ob, 0);
  const parry = () => bounded({ ...CR.ob, min: 0 }, 0);
  return {
    ruleset: rulesetField("critical"),
    quickness: bounded(CR.bonus, 0),
    selfDiscipline: bounded(CR.bonus, 0),
    physique: new SchemaField({ ranks: bounded(CR.physiqueRanks, 0), total: bounded(CR.physiqueTotal, 10) }),
    defense: bounded(CR.defense, 0),
    baseMove: bounded(CR.baseMove, 10),
    maneuver: bounded(CR.bonus, 0),
    skills: new TypedObjectField(ob()),
    hits: track(10, CR.physiqueTotal, CR.hitsValue),
    stun: bounded(CR.stun, 0),
    effects: new ArrayField(new ObjectField()),
    parry: new TypedObjectField(parry()),
    group: new StringField({ required: true, blank: false, initial: group }),
    biography: new HTMLField({ required: true, blank: true }),
  };
}

/** Data of a Critical `character`/`npc`: bonuses, Physique, DB, move, OB per skill, hits, stun, lasting effects. */
export class CriticalActorData extends foundry.abstract.TypeDataModel<ReturnType<typeof criticalActorSchema>, Actor.Implementation> {
  static override LOCALIZATION_PREFIXES = ["FRAY.Critical.Actor"];
  static override defineSchema() {
    return criticalActorSchema("players");
  }
  /** Hits given as a number. */
  static override migrateData(source: Raw) {
    return super.migrateData(migrateCriticalActor(source) as never);
  }
}

/** A Critical `npc`. */
export class CriticalNpcData extends CriticalActorData {
  static override defineSchema() {
    return criticalActorSchema("npc");
  }
}

function criticalWeaponSchema() {
  const { HTMLField, StringField } = foundry.data.fields;
  return {
    ruleset: rulesetField("critical"),
    weaponClass: new StringField({ required: true, blank: false, initial: "sword" }),
    category: choice(WEAPON_CATEGORIES, "melee"),
    skill: new StringField({ required: true, blank: false, initial: "blades" }),
    bonus: bounded(CR.weaponBonus, 0),
    fumble: boundedOrNull(CR.fumble),
    description: new HTMLField({ required: true, blank: true }),
  };
}

/** Data of a Critical `weapon`: attack table, category, skill, bonus, fumble range (CR-ATK-01, CR-ATK-03). */
export class CriticalWeaponData extends foundry.abstract.TypeDataModel<ReturnType<typeof criticalWeaponSchema>, Item.Implementation> {
  static override LOCALIZATION_PREFIXES = ["FRAY.Critical.Weapon"];
  static override defineSchema() {
    return criticalWeaponSchema();
  }
}

function criticalArmorSchema() {
  const { BooleanField, HTMLField, StringField } = foundry.data.fields;
  return {
    ruleset: rulesetField("critical"),
    armorType: new StringField({ required: true, nullable: true, blank: false, initial: null, choices: [...ARMOR_TYPES] }),
    defense: bounded(CR.defense, 0),
    maneuverPenalty: bounded(CR.maneuverPenalty, 0),
    equipped: new BooleanField({ initial: true }),
    description: new HTMLField({ required: true, blank: true }),
  };
}

/** Data of a Critical `armor`: armor type (none for a shield), DB bonus, maneuver penalty. */
export class CriticalArmorData extends foundry.abstract.TypeDataModel<ReturnType<typeof criticalArmorSchema>, Item.Implementation> {
  static override LOCALIZATION_PREFIXES = ["FRAY.Critical.Armor"];
  static override defineSchema() {
    return criticalArmorSchema();
  }
}
