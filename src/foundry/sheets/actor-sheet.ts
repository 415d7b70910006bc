/**
 * The character and NPC sheet (ApplicationV2): attributes, combat skills, HP/EP, size and
 * group, the defense rating, weapons with an Attack button each, armor, and the biography.
 */
import { defenseRating } from "../../rules/ud10/index.js";
import { ATTRIBUTES, SKILLS, ZONES } from "../../rules/ud10/model.js";
import { actorSource, rollAttack } from "../attack.js";
import { TEMPLATES } from "../config.js";
import { reportError } from "../notify.js";
import { ud10CombatantFromActor } from "../sources.js";
import { HandlebarsActorSheet, pickImage, type SheetRenderOptions } from "./sheet-base.js";


/** i18n keys of the attributes' names and abbreviations. */
export const ATTRIBUTE_LABELS: Record<(typeof ATTRIBUTES)[number], { label: string; abbr: string }> = {
  STR: { label: "FRAY.Attribute.STR.label", abbr: "FRAY.Attribute.STR.abbr" },
  DEX: { label: "FRAY.Attribute.DEX.label", abbr: "FRAY.Attribute.DEX.abbr" },
  CON: { label: "FRAY.Attribute.CON.label", abbr: "FRAY.Attribute.CON.abbr" },
};

/** i18n keys of the skills' names. */
export const SKILL_LABELS: Record<(typeof SKILLS)[number], string> = {
  initiative: "FRAY.Skill.initiative",
  melee: "FRAY.Skill.melee",
  ranged: "FRAY.Skill.ranged",
  parry: "FRAY.Skill.parry",
  dodge: "FRAY.Skill.dodge",
};

/** i18n keys of the body zones' names. */
export const ZONE_LABELS: Record<(typeof ZONES)[number], string> = {
  head: "FRAY.Zone.head",
  leftArm: "FRAY.Zone.leftArm",
  rightArm: "FRAY.Zone.rightArm",
  torso: "FRAY.Zone.torso",
  leftLeg: "FRAY.Zone.leftLeg",
  rightLeg: "FRAY.Zone.rightLeg",
};

/** i18n keys of the size choices. */
export const SIZE_LABELS = { small: "FRAY.Size.small", normal: "FRAY.Size.normal", large: "FRAY.Size.large" } as const;

/** i18n keys of the weapon kinds. */
export const KIND_LABELS = { melee: "FRAY.Weapon.Kind.melee", ranged: "FRAY.Weapon.Kind.ranged" } as const;

/** Loose view of an actor's system source, as the sheet reads it. */
interface ActorSystemSource {
  attributes: Record<string, number>;
  skills: Record<string, { rating: number; trained: boolean }>;
  hp: { value: number; max: number };
  ep: { value: number; max: number };
  size: string;
  group: string;
  biography: string;
}

/** Loose view of an item's system source. */
interface ItemSystemSource {
  kind?: string;
  damage?: string;
  attackModifier?: number;
  penetration?: number;
  rangeIncrement?: number;
  equipped?: boolean;
  shield?: boolean;
  zones?: Record<string, { rating: number; buffer: number }>;
}

/** The sheet's rendering context (beyond what ActorSheetV2 provides). */
export interface FrayActorSheetContext {
  actor: Actor.Implementation;
  systemSource: ActorSystemSource;
  editable: boolean;
  isNpc: boolean;
  attributes: { id: string; label: string; abbr: string; value: number; name: string }[];
  skills: { id: string; label: string; rating: number; trained: boolean; name: string }[];
  sizes: Record<string, string>;
  defense: number | null;
  weapons: {
    id: string;
    name: string;
    img: string;
    kind: string;
    damage: string;
    attackModifier: string;
    range: string;
    penetration: number;
  }[];
  armor: { id: string; name: string; img: string; equipped: boolean; zones: string }[];
  enrichedBiography: string;
}

/**
 * The sheet of `character` and `npc` actors. Actions (`data-action`): `attack` (per weapon),
 * `createItem` (`data-type` weapon/armor), `editItem`, `deleteItem`, `toggleEquipped`,
 * `changeImage`. Inputs are named by document path and saved on change.
 */
export class FrayActorSheet extends HandlebarsActorSheet {
  static override DEFAULT_OPTIONS = {
    classes: ["fray", "sheet", "actor"],
    position: { width: 680, height: 760 },
    window: { resizable: true },
    form: { submitOnChange: true },
    actions: {
      attack: FrayActorSheet.#onAttack,
      createItem: FrayActorSheet.#onCreateItem,
      editItem: FrayActorSheet.#onEditItem,
      deleteItem: FrayActorSheet.#onDeleteItem,
      toggleEquipped: FrayActorSheet.#onToggleEquipped,
      changeImage: FrayActorSheet.#onChangeImage,
    },
  };

  static override PARTS = {
    header: { template: TEMPLATES.actorHeader },
    body: { template: TEMPLATES.actorBody, scrollable: [""] },
  };

  override async _prepareContext(options: SheetRenderOptions): Promise<Record<string, unknown>> {
    const base = await super._prepareContext(options);
    const actor = this.document;
    const source = actor.toObject().system as unknown as ActorSystemSource;
    const i18n = game.i18n;
    let defense: number | null = null;
    try {
      defense = defenseRating(ud10CombatantFromActor(actorSource(actor)));
    } catch {
      defense = null;
    }
    const items = Array.from(actor.items);
    const context: FrayActorSheetContext = {
      actor,
      systemSource: source,
      editable: this.isEditable,
      isNpc: actor.type === "npc",
      attributes: ATTRIBUTES.map((id) => ({
        id,
        label: i18n.localize(ATTRIBUTE_LABELS[id].label),
        abbr: i18n.localize(ATTRIBUTE_LABELS[id].abbr),
        value: source.attributes[id] ?? 0,
        name: `system.attributes.${id}`,
      })),
      skills: SKILLS.map((id) => ({
        id,
        label: i18n.localize(SKILL_LABELS[id]),
        rating: source.skills[id]?.rating ?? 0,
        trained: source.skills[id]?.trained ?? false,
        name: `system.skills.${id}`,
      })),
      sizes: Object.fromEntries(Object.entries(SIZE_LABELS).map(([k, v]) => [k, i18n.localize(v)])),
      defense,
      weapons: items
        .filter((i) => i.type === "weapon")
        .map((i) => {
          const s = i.toObject().system as unknown as ItemSystemSource;
          const ranged = s.kind === "ranged";
          return {
            id: i.id ?? "",
            name: i.name ?? "",
            img: i.img ?? "",
            kind: i18n.localize(ranged ? KIND_LABELS.ranged : KIND_LABELS.melee),
            damage: s.damage ?? "",
            attackModifier: signedNumber(s.attackModifier ?? 0),
            range: ranged ? i18n.format("FRAY.Sheet.RangeIncrement", { metres: String(s.rangeIncrement ?? 0) }) : "",
            penetration: s.penetration ?? 0,
          };
        }),
      armor: items
        .filter((i) => i.type === "armor")
        .map((i) => {
          const s = i.toObject().system as unknown as ItemSystemSource;
          const zones = ZONES.map((z) => {
            const zone = s.zones?.[z] ?? { rating: 0, buffer: 0 };
            return `${i18n.localize(ZONE_LABELS[z])} ${zone.rating}/${zone.buffer}`;
          }).join(", ");
          return { id: i.id ?? "", name: i.name ?? "", img: i.img ?? "", equipped: s.equipped !== false, zones };
        }),
      enrichedBiography: await foundry.applications.ux.TextEditor.implementation.enrichHTML(source.biography ?? "", {
        secrets: actor.isOwner,
        relativeTo: actor,
      }),
    };
    return Object.assign(base, context);
  }

  /** The item a clicked control belongs to (`data-item-id` on it or an ancestor). */
  #itemFor(target: HTMLElement): Item.Implementation | undefined {
    const id = target.closest<HTMLElement>("[data-item-id]")?.dataset.itemId;
    return id ? (this.document.items.get(id) ?? undefined) : undefined;
  }

  /** Attack with the weapon of the clicked row against the first targeted token. */
  static async #onAttack(this: FrayActorSheet, _event: PointerEvent, target: HTMLElement): Promise<void> {
    const item = this.#itemFor(target);
    if (!item) return;
    const token = this.document.isToken ? (this.document.token?.object ?? null) : undefined;
    try {
      await rollAttack({ actor: this.document, weaponId: item.id ?? "", token: token as never });
    } catch (err) {
      reportError(err);
    }
  }

  /** Creates a new weapon or armor item (`data-type`) with a localized default name. */
  static async #onCreateItem(this: FrayActorSheet, _event: PointerEvent, target: HTMLElement): Promise<void> {
    const type = target.dataset.type === "armor" ? "armor" : "weapon";
    const name = game.i18n.localize(type === "armor" ? "FRAY.Sheet.NewArmor" : "FRAY.Sheet.NewWeapon");
    await this.document.createEmbeddedDocuments("Item", [{ name, type } as never]);
  }

  /** Opens the clicked item's sheet. */
  static async #onEditItem(this: FrayActorSheet, _event: PointerEvent, target: HTMLElement): Promise<void> {
    await this.#itemFor(target)?.sheet?.render(true);
  }

  /** Deletes the clicked item after a confirmation. */
  static async #onDeleteItem(this: FrayActorSheet, _event: PointerEvent, target: HTMLElement): Promise<void> {
    const item = this.#itemFor(target);
    if (!item) return;
    await item.deleteDialog();
  }

  /** Puts the clicked armor on or takes it off. */
  static async #onToggleEquipped(this: FrayActorSheet, _event: PointerEvent, target: HTMLElement): Promise<void> {
    const item = this.#itemFor(target);
    if (!item || item.type !== "armor") return;
    const equipped = (item.toObject().system as unknown as ItemSystemSource).equipped !== false;
    await item.update({ "system.equipped": !equipped } as never);
  }

  /** Lets the user pick a new portrait. */
  static async #onChangeImage(this: FrayActorSheet): Promise<void> {
    if (this.isEditable) await pickImage(this.document as never);
  }
}

/** `+3`, `-2`, `0`. */
function signedNumber(value: number): string {
  return value > 0 ? `+${value}` : String(value);
}

/**
 * Registers the sheet as the default for `character` and `npc` actors. Call from the `init` hook.
 */
export function registerActorSheet(): void {
  foundry.documents.collections.Actors.registerSheet("fray", FrayActorSheet as never, {
    types: ["character", "npc"],
    makeDefault: true,
    label: "FRAY.Sheet.ActorLabel",
  });
}
