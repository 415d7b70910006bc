/**
 * The character and NPC sheet (ApplicationV2, Handlebars). Characters get tabs (attributes and
 * skills with roll buttons, combat, conditions, biography); NPCs a compact stat block for the
 * GM with the same Attack buttons; actors of rulesets without their own sheet yet a generic
 * stat view. The context comes from the pure {@link actorSheetContext}.
 */
import type { FrayActorApi, PreparedCore } from "../documents/actor.js";
import { actorSource, rollAttack } from "../attack.js";
import { statusEffects } from "../conditions.js";
import { SYSTEM_PATH } from "../config.js";
import { rulesetOfSystem, rulesetOfUuid } from "../models/migrate.js";
import { isAction } from "../logic/round-actions.js";
import { openEffectDialog } from "../play/effect-dialog.js";
import { reportError, warn } from "../notify.js";
import { activeBinding } from "../registry.js";
import { takeAction } from "../round-actions.js";
import { activeRuleset, ud10OptionValues } from "../settings.js";
import { ACTOR_PARTS, actorParts, actorSheetContext, ACTOR_TABS, type ActorPart } from "./context.js";
import { HandlebarsActorSheet, pickImage, type SheetPart, type SheetRenderOptions } from "./sheet-base.js";

/** Template of each part of the actor sheet. */
export const ACTOR_TEMPLATES: Record<ActorPart, string> = Object.fromEntries(
  ACTOR_PARTS.map((part) => [part, `${SYSTEM_PATH}/templates/actor/${part}.hbs`]),
) as Record<ActorPart, string>;

/** The item a drop would add: its system data and where it came from. */
interface DroppedItem {
  uuid?: string;
  type?: string;
  _source?: { system?: unknown };
  system?: unknown;
}

/**
 * The sheet of `character` and `npc` actors. Actions (`data-action`): `attack` (per weapon, with
 * the row's firing-mode select), `roundAction` (`data-round-action`: ready, reload, useItem,
 * skill; UD-ACT-02), `rollSkill` (`data-skill`, in combat a skill action, UD-ACT-02), `toggleCondition`
 * (`data-condition`), `createItem` (`data-type` weapon/armor), `editItem`, `deleteItem`,
 * `toggleEquipped`, `changeImage`, `startEffect` (the effect dialog). Inputs are named by document path and saved on change.
 */
export class FrayActorSheet extends HandlebarsActorSheet {
  static override DEFAULT_OPTIONS = {
    classes: ["fray", "sheet", "actor"],
    position: { width: 720, height: 780 },
    window: { resizable: true },
    form: { submitOnChange: true },
    actions: {
      attack: FrayActorSheet.#onAttack,
      roundAction: FrayActorSheet.#onRoundAction,
      rollSkill: FrayActorSheet.#onRollSkill,
      toggleCondition: FrayActorSheet.#onToggleCondition,
      createItem: FrayActorSheet.#onCreateItem,
      editItem: FrayActorSheet.#onEditItem,
      deleteItem: FrayActorSheet.#onDeleteItem,
      toggleEquipped: FrayActorSheet.#onToggleEquipped,
      changeImage: FrayActorSheet.#onChangeImage,
      rulesetAction: FrayActorSheet.#onRulesetAction,
      startEffect: FrayActorSheet.#onStartEffect,
    },
  };

  /** Default size of the compact NPC stat block. */
  static readonly NPC_POSITION = { width: 560, height: 640 };

  static override PARTS: Record<string, SheetPart> = {
    header: { template: ACTOR_TEMPLATES.header },
    tabs: { template: ACTOR_TEMPLATES.tabs },
    attributes: { template: ACTOR_TEMPLATES.attributes, scrollable: [""] },
    combat: { template: ACTOR_TEMPLATES.combat, scrollable: [""] },
    conditions: { template: ACTOR_TEMPLATES.conditions, scrollable: [""] },
    biography: { template: ACTOR_TEMPLATES.biography, scrollable: [""] },
    npc: { template: ACTOR_TEMPLATES.npc, scrollable: [""] },
    generic: { template: ACTOR_TEMPLATES.generic, scrollable: [""] },
  };

  static TABS = {
    primary: { tabs: ACTOR_TABS.map((t) => ({ id: t.id, icon: t.icon, label: t.label })), initial: "attributes" },
  };

  /** Active tab per group (ApplicationV2 keeps it on switching). */
  declare tabGroups: Record<string, string>;

  /** NPC stat blocks and generic views open at the compact size. */
  _initializeApplicationOptions(options: SheetRenderOptions): SheetRenderOptions {
    const parent = (
      HandlebarsActorSheet.prototype as unknown as { _initializeApplicationOptions?: (o: SheetRenderOptions) => SheetRenderOptions }
    )._initializeApplicationOptions;
    const resolved = parent ? parent.call(this, options) : options;
    const document = options.document as { type?: string } | undefined;
    const position = resolved.position as { width?: number; height?: number } | undefined;
    // A character of a ruleset with its own sheet (UD10, Hitbox) opens at the full size; the generic view compact.
    if (position && (document?.type === "npc" || !activeBinding().sheetContext)) Object.assign(position, FrayActorSheet.NPC_POSITION);
    return resolved;
  }

  /** Only the parts of this actor's kind of sheet. */
  _configureRenderParts(options: SheetRenderOptions): Record<string, SheetPart> {
    const parent = (
      HandlebarsActorSheet.prototype as unknown as { _configureRenderParts?: (o: SheetRenderOptions) => Record<string, SheetPart> }
    )._configureRenderParts;
    const all = parent ? parent.call(this, options) : { ...FrayActorSheet.PARTS };
    // A ruleset with templates of its own: its parts in its order, each its own template or the generic one.
    const binding = activeBinding();
    const own = binding.sheetTemplates;
    if (own && binding.sheetContext && !this.#core()?.foreign) {
      const ids = binding.sheetParts[this.document.type === "npc" ? "npc" : "character"];
      return Object.fromEntries(
        ids.flatMap((id) => (own[id] ? [[id, { template: own[id], scrollable: [""] }]] : all[id] ? [[id, all[id]]] : [])),
      );
    }
    const keep = new Set<string>(
      actorParts(this.document.type, binding.sheetContext ? binding.sheetParts : undefined, this.#core()?.foreign, Object.keys(own ?? {})),
    );
    return Object.fromEntries(Object.entries(all).filter(([id]) => keep.has(id)));
  }

  override async _prepareContext(options: SheetRenderOptions): Promise<Record<string, unknown>> {
    const base = await super._prepareContext(options);
    const actor = this.document;
    const source = actorSource(actor) as ReturnType<typeof actorSource> & { img?: string; uuid?: string };
    const system = (source.system ?? {}) as { biography?: string };
    const core = this.#core();
    const context = actorSheetContext(
      {
        actor: { ...source, img: actor.img, uuid: actor.uuid },
        coreError: core?.combatant === undefined ? core?.error : undefined,
        foreignRuleset: core?.foreign,
        conditions: statusEffects(),
        ruleset: activeRuleset(),
        editable: this.isEditable,
        bodyZones: Boolean(ud10OptionValues().bodyZones),
        activeTab: this.tabGroups?.primary,
        derived: (actor.system as { derived?: unknown } | undefined)?.derived,
        enrichedBiography: await foundry.applications.ux.TextEditor.implementation.enrichHTML(system.biography ?? "", {
          secrets: actor.isOwner,
          relativeTo: actor,
        }),
        i18n: game.i18n,
      },
      activeBinding().sheetContext,
    );
    return Object.assign(base, context);
  }

  /**
   * Refuses an item of another ruleset (from its `system.ruleset` or the pack it comes from)
   * with a localized warning; everything else goes to ActorSheetV2's own drop handling.
   */
  async _onDropItem(event: DragEvent, item: DroppedItem): Promise<unknown> {
    const world = activeRuleset();
    const of = rulesetOfUuid(item.uuid) ?? rulesetOfSystem(item._source?.system ?? item.system);
    if (of !== world || (item.type !== "weapon" && item.type !== "armor")) {
      warn("FRAY.Notify.ForeignItem", { ruleset: game.i18n.localize(`FRAY.Setting.Ruleset.Choice.${of}`) });
      return null;
    }
    const parent = (HandlebarsActorSheet.prototype as unknown as { _onDropItem?: (e: DragEvent, i: DroppedItem) => Promise<unknown> })
      ._onDropItem;
    return parent ? parent.call(this, event, item) : null;
  }

  /** What this preparation of the actor made of it: its combatant, the core's error, its foreign ruleset. */
  #core(): PreparedCore | undefined {
    const actor = this.document as unknown as Partial<FrayActorApi>;
    return typeof actor.frayCore === "function" ? actor.frayCore() : undefined;
  }

  /** The item a clicked control belongs to (`data-item-id` on it or an ancestor). */
  #itemFor(target: HTMLElement): Item.Implementation | undefined {
    const id = target.closest<HTMLElement>("[data-item-id]")?.dataset.itemId;
    return id ? (this.document.items.get(id) ?? undefined) : undefined;
  }

  /** Attack with the weapon of the clicked row (and its selected firing mode) against the first targeted token. */
  static async #onAttack(this: FrayActorSheet, _event: PointerEvent, target: HTMLElement): Promise<void> {
    const item = this.#itemFor(target);
    if (!item) return;
    const row = target.closest<HTMLElement>("[data-item-id]");
    const select = row?.querySelector?.<HTMLSelectElement>("select[data-mode-select]");
    // The row lists the binding's modes with the weapon's own first (`weaponModes`): that one names no mode.
    const modeId = select && select.selectedIndex > 0 ? select.value : undefined;
    const token = this.document.isToken ? (this.document.token?.object ?? null) : undefined;
    try {
      await rollAttack({ actor: this.document, weaponId: item.id ?? "", token: token as never, ...(modeId ? { modeId } : {}) });
    } catch (err) {
      reportError(err);
    }
  }

  /** The id of this sheet's token, for a token actor's sheet. */
  #tokenId(): string | undefined {
    const token = this.document.isToken ? (this.document.token as { id?: string | null } | null) : null;
    return token?.id ?? undefined;
  }

  /**
   * Takes the clicked action of the Actions row (UD-ACT-02): in the active combat it spends the
   * combatant's action (refused when spent); it posts a chat line naming the action.
   */
  static async #onRoundAction(this: FrayActorSheet, _event: PointerEvent, target: HTMLElement): Promise<void> {
    const id = target.closest<HTMLElement>("[data-round-action]")?.dataset.roundAction;
    if (!isAction(id) || id === "attack") return;
    try {
      await takeAction(this.document, id, { tokenId: this.#tokenId() });
    } catch (err) {
      reportError(err);
    }
  }

  /** Rolls the clicked skill (`data-skill`) through the world ruleset's binding (`rollSkill`). */
  static async #onRollSkill(this: FrayActorSheet, _event: PointerEvent, target: HTMLElement): Promise<void> {
    const id = target.closest<HTMLElement>("[data-skill]")?.dataset.skill;
    const binding = activeBinding();
    if (!id || !binding.rollSkill) return;
    try {
      await binding.rollSkill(this.document, id, this.#tokenId());
    } catch (err) {
      reportError(err);
    }
  }

  /**
   * Runs a control of the ruleset's own sheet parts through its binding (`sheetAction`): the
   * control's `data-*` values, with `rulesetAction`, `itemId` and `value` also read from the
   * elements around it (a row names its item once for all its buttons).
   */
  static async #onRulesetAction(this: FrayActorSheet, _event: PointerEvent, target: HTMLElement): Promise<void> {
    const binding = activeBinding();
    if (!binding.sheetAction) return;
    const data: Record<string, string | undefined> = { ...target.dataset };
    data.rulesetAction ??= target.closest<HTMLElement>("[data-ruleset-action]")?.dataset.rulesetAction;
    data.itemId ??= target.closest<HTMLElement>("[data-item-id]")?.dataset.itemId;
    data.value ??= target.closest<HTMLElement>("[data-value]")?.dataset.value;
    try {
      await binding.sheetAction(this.document, data, this.#tokenId());
    } catch (err) {
      reportError(err);
    }
  }

  /** Turns the clicked condition on or off (a status effect the core reads). */
  static async #onToggleCondition(this: FrayActorSheet, _event: PointerEvent, target: HTMLElement): Promise<void> {
    const id = target.closest<HTMLElement>("[data-condition]")?.dataset.condition;
    if (!id || !this.isEditable) return;
    await (this.document as unknown as { toggleStatusEffect(id: string): Promise<unknown> }).toggleStatusEffect(id);
  }

  /** Opens the effect dialog for the sheet's actor (play/effect-dialog.ts; the owner or a GM). */
  static async #onStartEffect(this: FrayActorSheet): Promise<void> {
    try {
      await openEffectDialog(this.document);
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
    const equipped = (item.toObject().system as unknown as { equipped?: boolean }).equipped !== false;
    await item.update({ "system.equipped": !equipped } as never);
  }

  /** Lets the user pick a new portrait. */
  static async #onChangeImage(this: FrayActorSheet): Promise<void> {
    if (this.isEditable) await pickImage(this.document as never);
  }
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
