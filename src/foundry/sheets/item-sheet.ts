/**
 * The weapon and armor sheet: a weapon's kind, attack modifier, damage code, penetration,
 * range increment and firing modes; an armor's rating and buffer per body zone.
 */
import { TEMPLATES } from "../config.js";
import { activeRuleset } from "../settings.js";
import { activeBinding } from "../registry.js";
import { itemSheetContext } from "./context.js";
import { HandlebarsItemSheet, pickImage, type SheetRenderOptions } from "./sheet-base.js";

/** Loose view of a weapon's or armor's system source, as the sheet reads it. */
interface ItemSystemSource {
  modes?: { id: string; label: string; damage: string; attackModifier: number; shots: number }[];
  zones?: Record<string, { rating: number; buffer: number }>;
  description?: string;
}

/**
 * The sheet of `weapon` and `armor` items. Actions: `addMode`, `deleteMode` (`data-index`),
 * `changeImage`.
 * Inputs are named by document path and saved on change.
 */
export class FrayItemSheet extends HandlebarsItemSheet {
  static override DEFAULT_OPTIONS = {
    classes: ["fray", "sheet", "item"],
    position: { width: 560, height: 640 },
    window: { resizable: true },
    form: { submitOnChange: true },
    actions: {
      addMode: FrayItemSheet.#onAddMode,
      deleteMode: FrayItemSheet.#onDeleteMode,
      changeImage: FrayItemSheet.#onChangeImage,
    },
  };

  static override PARTS = {
    body: { template: TEMPLATES.itemSheet, scrollable: [""] },
  };

  /** The world ruleset's own weapon and armor template, when its binding has one (`itemSheetTemplate`). */
  _configureRenderParts(options: SheetRenderOptions): Record<string, { template: string; scrollable?: string[] }> {
    const parent = (
      HandlebarsItemSheet.prototype as unknown as {
        _configureRenderParts?: (o: SheetRenderOptions) => Record<string, { template: string; scrollable?: string[] }>;
      }
    )._configureRenderParts;
    const parts = parent ? parent.call(this, options) : { ...FrayItemSheet.PARTS };
    const template = activeBinding().itemSheetTemplate;
    return template ? { ...parts, body: { template, scrollable: [""] } } : parts;
  }

  override async _prepareContext(options: SheetRenderOptions): Promise<Record<string, unknown>> {
    const base = await super._prepareContext(options);
    const item = this.document;
    const source = item.toObject() as unknown as Parameters<typeof itemSheetContext>[0]["item"];
    const context = itemSheetContext(
      {
        item: { ...source, img: item.img, uuid: item.uuid },
        ruleset: activeRuleset(),
        editable: this.isEditable,
        enrichedDescription: await foundry.applications.ux.TextEditor.implementation.enrichHTML(
          String((source.system as { description?: string } | undefined)?.description ?? ""),
          { secrets: item.isOwner, relativeTo: item },
        ),
        i18n: game.i18n,
      },
      activeBinding().itemSheetContext,
    );
    return Object.assign(base, context);
  }

  /** The weapon's firing modes as stored. */
  #modes(): NonNullable<ItemSystemSource["modes"]> {
    return [...((this.document.toObject().system as unknown as ItemSystemSource).modes ?? [])];
  }

  /** Adds a firing mode (UD-RNG-02) with the weapon's own damage code. */
  static async #onAddMode(this: FrayItemSheet): Promise<void> {
    const modes = this.#modes();
    const damage = (this.document.toObject().system as unknown as { damage?: string }).damage ?? "1d10";
    modes.push({ id: `mode${modes.length + 1}`, label: game.i18n.localize("FRAY.Sheet.NewMode"), damage, attackModifier: 0, shots: 1 });
    await this.document.update({ "system.modes": modes } as never);
  }

  /** Lets the user pick a new image. */
  static async #onChangeImage(this: FrayItemSheet): Promise<void> {
    if (this.isEditable) await pickImage(this.document as never);
  }

  /** Removes the firing mode at `data-index`. */
  static async #onDeleteMode(this: FrayItemSheet, _event: PointerEvent, target: HTMLElement): Promise<void> {
    const index = Number(target.closest<HTMLElement>("[data-index]")?.dataset.index);
    if (!Number.isInteger(index)) return;
    const modes = this.#modes();
    modes.splice(index, 1);
    await this.document.update({ "system.modes": modes } as never);
  }
}

/** Registers the sheet as the default for `weapon` and `armor` items. Call from the `init` hook. */
export function registerItemSheet(): void {
  foundry.documents.collections.Items.registerSheet("fray", FrayItemSheet as never, {
    types: ["weapon", "armor"],
    makeDefault: true,
    label: "FRAY.Sheet.ItemLabel",
  });
}
