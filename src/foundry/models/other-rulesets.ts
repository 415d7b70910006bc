/**
 * Data models of the Hitbox, Zones and Critical rulesets. Their schemas mirror the fields each
 * ruleset's parser reads (`src/rules/<id>/model.ts`) and its compendium sources use, so a world
 * of that ruleset loads its packs without losing data. Each document carries `ruleset`.
 */
import { ABILITIES as HB_ABILITIES, HITBOXES, SKILLS as HB_SKILLS } from "../../rules/hitbox/model.js";
import {
  ARMOR_ZONES,
  ATTRIBUTES as ZN_ATTRIBUTES,
  CARRY,
  DAMAGE_TYPES,
  MALFUNCTIONS,
  MOVEMENTS,
  SIZES,
  SKILLS as ZN_SKILLS,
  STANCES,
  WEAPON_KINDS,
} from "../../rules/zones/model.js";
import { ARMOR_TYPES, WEAPON_CATEGORIES } from "../../rules/critical/model.js";
import { RULESET_BOUNDS } from "../../rules/core/bounds.js";
import { bounded, boundedOrNull, choice, perId, rulesetField, track } from "./fields.js";
import { migrateCriticalActor, migrateHitboxActor, migrateZonesActor } from "./migrate.js";

type Raw = Record<string, unknown>;

/* Every number field takes its limits from its ruleset's row of the bounds table. */
const HB = RULESET_BOUNDS.hitbox;
const ZN = RULESET_BOUNDS.zones;
const CR = RULESET_BOUNDS.critical;

/* ---------------------------------------------------------------------------------- Hitbox */

function hitboxActorSchema(group: string) {
  const { ArrayField, HTMLField, StringField } = foundry.data.fields;
  return {
    ruleset: rulesetField("hitbox"),
    abilities: perId(HB_ABILITIES, () => bounded(HB.ability, 0)),
    skills: perId(HB_SKILLS, () => bounded(HB.skill, 0)),
    hitboxes: perId(HITBOXES, (h) => track(h === "torso" ? 3 : 2, HB.hitbox, HB.hitboxValue)),
    /** Turns left in shock before death without treatment (HB-DMG-04, HB-RND-02); null while no count runs. */
    shockTurnsLeft: boundedOrNull(HB.shockTurns),
    mainHand: choice(["right", "left"] as const, "right"),
    held: new ArrayField(new StringField({ required: true, blank: false })),
    group: new StringField({ required: true, blank: false, initial: group }),
    biography: new HTMLField({ required: true, blank: true }),
  };
}

/** Data of a Hitbox `character`/`npc`: abilities, skills, points per hitbox, main hand, what is held. */
export class HitboxActorData extends foundry.abstract.TypeDataModel<ReturnType<typeof hitboxActorSchema>, Actor.Implementation> {
  static override LOCALIZATION_PREFIXES = ["FRAY.Hitbox.Actor"];
  static override defineSchema() {
    return hitboxActorSchema("players");
  }
  /** Hitboxes given as numbers are full. */
  static override migrateData(source: Raw) {
    return super.migrateData(migrateHitboxActor(source) as never);
  }
}

/** A Hitbox `npc`: a Hitbox actor in the `npc` group by default. */
export class HitboxNpcData extends HitboxActorData {
  static override defineSchema() {
    return hitboxActorSchema("npc");
  }
}

function hitboxWeaponSchema() {
  const { BooleanField, HTMLField, SchemaField } = foundry.data.fields;
  return {
    ruleset: rulesetField("hitbox"),
    kind: choice(["melee", "ranged", "thrown"] as const, "melee"),
    ability: choice(HB_ABILITIES, "strength"),
    skill: choice(HB_SKILLS, "melee"),
    damage: bounded(HB.damage, 1),
    hands: bounded(HB.hands, 1),
    maxShots: bounded(HB.shots, 1),
    rangeFeet: bounded(HB.weaponRangeFeet, 5),
    canParry: new BooleanField({ initial: true }),
    closeBonus: new SchemaField(
      { withinFeet: bounded(HB.weaponRangeFeet, 5), points: bounded(HB.closeBonus, 1) },
      { required: false, nullable: true, initial: null },
    ),
    description: new HTMLField({ required: true, blank: true }),
  };
}

/** Data of a Hitbox `weapon` (HB-ATK-02, HB-DMG-02, HB-MOD-03). */
export class HitboxWeaponData extends foundry.abstract.TypeDataModel<ReturnType<typeof hitboxWeaponSchema>, Item.Implementation> {
  static override LOCALIZATION_PREFIXES = ["FRAY.Hitbox.Weapon"];
  static override defineSchema() {
    return hitboxWeaponSchema();
  }
}

function hitboxArmorSchema() {
  const { BooleanField, HTMLField } = foundry.data.fields;
  return {
    ruleset: rulesetField("hitbox"),
    protection: perId(HITBOXES, () => bounded(HB.armor, 0)),
    damage: perId(HITBOXES, () => bounded(HB.armor, 0)),
    equipped: new BooleanField({ initial: true }),
    description: new HTMLField({ required: true, blank: true }),
  };
}

/** Data of a Hitbox `armor`: armor points per hitbox and the points used up (HB-DMG-01). */
export class HitboxArmorData extends foundry.abstract.TypeDataModel<ReturnType<typeof hitboxArmorSchema>, Item.Implementation> {
  static override LOCALIZATION_PREFIXES = ["FRAY.Hitbox.Armor"];
  static override defineSchema() {
    return hitboxArmorSchema();
  }
}

/* ----------------------------------------------------------------------------------- Zones */

function zonesActorSchema(group: string) {
  const { HTMLField, StringField, SchemaField } = foundry.data.fields;
  return {
    ruleset: rulesetField("zones"),
    attributes: perId(ZN_ATTRIBUTES, () => bounded(ZN.attribute, 0)),
    skills: perId(ZN_SKILLS, () => bounded(ZN.skill, 0)),
    hp: track(10, ZN.pool, ZN.poolValue),
    speed: track(8, ZN.pool, ZN.pool),
    effort: track(0, ZN.pool, ZN.pool),
    size: choice(SIZES, "medium"),
    stance: choice(STANCES, "standing"),
    movement: choice(MOVEMENTS, "subtle"),
    actions: new SchemaField({ action: bounded(ZN.actions, 1), reaction: bounded(ZN.actions, 1), free: bounded(ZN.actions, 1) }),
    initiativeBonus: bounded(ZN.initiativeBonus, 0),
    initiativeEffort: bounded(ZN.pool, 0),
    aim: bounded(ZN.aim, 0),
    group: new StringField({ required: true, blank: false, initial: group }),
    biography: new HTMLField({ required: true, blank: true }),
  };
}

/** Data of a Zones `character`/`npc`: attributes, skill ranks, HP, speed, effort, size, stance. */
export class ZonesActorData extends foundry.abstract.TypeDataModel<ReturnType<typeof zonesActorSchema>, Actor.Implementation> {
  static override LOCALIZATION_PREFIXES = ["FRAY.Zones.Actor"];
  static override defineSchema() {
    return zonesActorSchema("players");
  }
  /** Skills as `{ ranks }` and pools as numbers. */
  static override migrateData(source: Raw) {
    return super.migrateData(migrateZonesActor(source) as never);
  }
}

/** A Zones `npc`. */
export class ZonesNpcData extends ZonesActorData {
  static override defineSchema() {
    return zonesActorSchema("npc");
  }
}

function zonesWeaponSchema() {
  const { ArrayField, BooleanField, HTMLField, ObjectField, StringField } = foundry.data.fields;
  return {
    ruleset: rulesetField("zones"),
    kind: choice(WEAPON_KINDS, "melee"),
    effectiveRange: bounded(ZN.effectiveRange, 0),
    damage: new StringField({ required: true, blank: false, initial: "1d6" }),
    damageTypes: new ArrayField(choice(DAMAGE_TYPES, "piercing")),
    recoil: bounded(ZN.recoil, 0),
    burst: bounded(ZN.burst, 0),
    auto: new BooleanField({ initial: false }),
    magazine: bounded(ZN.magazine, 0),
    loaded: bounded(ZN.magazine, 0),
    spareMagazines: boundedOrNull(ZN.spareMagazines),
    reloadActions: bounded(ZN.reloadActions, 1),
    carry: choice(CARRY, "hand"),
    drawn: new BooleanField({ initial: true }),
    concealable: new BooleanField({ initial: false }),
    malfunction: new StringField({ required: true, nullable: true, blank: false, initial: null, choices: [...MALFUNCTIONS] }),
    broken: new BooleanField({ initial: false }),
    effectiveRadius: bounded(ZN.radius, 0),
    casualtyRadius: bounded(ZN.radius, 0),
    pending: new ObjectField({ required: true, nullable: true, initial: null }),
    description: new HTMLField({ required: true, blank: true }),
  };
}

/** Data of a Zones `weapon` (ZN-RNG-02, ZN-BST-01, ZN-REL-01, ZN-DRW-01, ZN-MAL-01, ZN-GRN-01). */
export class ZonesWeaponData extends foundry.abstract.TypeDataModel<ReturnType<typeof zonesWeaponSchema>, Item.Implementation> {
  static override LOCALIZATION_PREFIXES = ["FRAY.Zones.Weapon"];
  static override defineSchema() {
    return zonesWeaponSchema();
  }
}

function zonesArmorSchema() {
  const { BooleanField, HTMLField } = foundry.data.fields;
  return {
    ruleset: rulesetField("zones"),
    zones: perId(ARMOR_ZONES, () => bounded(ZN.armor, 0)),
    fullBody: new BooleanField({ initial: false }),
    equipped: new BooleanField({ initial: true }),
    description: new HTMLField({ required: true, blank: true }),
  };
}

/** Data of a Zones `armor`: damage reduction per zone, full body armor (ZN-ZON-02, ZN-GRN-01). */
export class ZonesArmorData extends foundry.abstract.TypeDataModel<ReturnType<typeof zonesArmorSchema>, Item.Implementation> {
  static override LOCALIZATION_PREFIXES = ["FRAY.Zones.Armor"];
  static override defineSchema() {
    return zonesArmorSchema();
  }
}

/* -------------------------------------------------------------------------------- Critical */

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
