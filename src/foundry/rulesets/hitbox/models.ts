/**
 * Data models of the Hitbox ruleset. Their schemas mirror the fields the ruleset's parser reads
 * (`src/rules/hitbox/model.ts`) and its compendium sources use, so a world of that ruleset
 * loads its packs without losing data. Each document carries `ruleset`.
 */
import { ABILITIES as HB_ABILITIES, HITBOXES, SKILLS as HB_SKILLS } from "../../../rules/hitbox/model.js";
import { RULESET_BOUNDS } from "../../../rules/core/bounds.js";
import { bounded, boundedOrNull, choice, perId, rulesetField, track } from "../../models/fields.js";
import { migrateHitboxActor } from "../../models/migrate.js";

type Raw = Record<string, unknown>;

/* Every number field takes its limits from the ruleset's row of the bounds table. */
const HB = RULESET_BOUNDS.hitbox;
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
