/**
 * Data models of the Zones ruleset. Their schemas mirror the fields the ruleset's parser reads
 * (`src/rules/zones/model.ts`) and its compendium sources use, so a world of that ruleset
 * loads its packs without losing data. Each document carries `ruleset`.
 */
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
} from "../../../rules/zones/model.js";
import { RULESET_BOUNDS } from "../../../rules/core/bounds.js";
import { bounded, boundedOrNull, choice, perId, rulesetField, track } from "../../models/fields.js";
import { migrateZonesActor } from "../../models/migrate.js";

type Raw = Record<string, unknown>;

/* Every number field takes its limits from the ruleset's row of the bounds table. */
const ZN = RULESET_BOUNDS.zones;
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
    thrown: new BooleanField({ initial: false }),
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
