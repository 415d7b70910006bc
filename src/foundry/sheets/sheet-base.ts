/**
 * Narrow typings of the Handlebars document sheets the system extends. The v13 type
 * definitions of `HandlebarsApplicationMixin(ActorSheetV2)` make TypeScript give up ("type
 * instantiation is excessively deep", TS2589) as soon as a subclass reads `this.document`, so
 * the mixed classes are cast once, here, to the few members the sheets use.
 */

/** One Handlebars part of a sheet. */
export interface SheetPart {
  template: string;
  scrollable?: string[];
  templates?: string[];
  classes?: string[];
}

/** Render options as the sheets pass them on. */
export type SheetRenderOptions = Record<string, unknown>;

/** The instance side of a Handlebars document sheet. */
export interface HandlebarsDocumentSheet<D> {
  readonly document: D;
  readonly isEditable: boolean;
  readonly element: HTMLElement;
  render(options?: boolean | { force?: boolean }): Promise<unknown>;
  close(options?: { animate?: boolean }): Promise<unknown>;
  _prepareContext(options: SheetRenderOptions): Promise<Record<string, unknown>>;
}

/** The constructor side of a Handlebars document sheet. */
export interface HandlebarsDocumentSheetClass<D> {
  new (options?: Record<string, unknown>): HandlebarsDocumentSheet<D>;
  DEFAULT_OPTIONS: Record<string, unknown>;
  PARTS: Record<string, SheetPart>;
}

const { HandlebarsApplicationMixin } = foundry.applications.api;

/** `HandlebarsApplicationMixin(ActorSheetV2)`, narrowly typed. */
export const HandlebarsActorSheet = HandlebarsApplicationMixin(
  foundry.applications.sheets.ActorSheetV2,
) as unknown as HandlebarsDocumentSheetClass<Actor.Implementation>;

/** `HandlebarsApplicationMixin(ItemSheetV2)`, narrowly typed. */
export const HandlebarsItemSheet = HandlebarsApplicationMixin(
  foundry.applications.sheets.ItemSheetV2,
) as unknown as HandlebarsDocumentSheetClass<Item.Implementation>;

/**
 * Opens Foundry's file picker on a document's image and saves the chosen path as its `img`.
 * @param document an Actor or Item the user may edit.
 */
export async function pickImage(document: { img?: string | null; update(data: { img: string }): Promise<unknown> }): Promise<void> {
  const FilePicker = foundry.applications.apps.FilePicker.implementation;
  const picker = new FilePicker({
    type: "image",
    current: document.img ?? "",
    callback: (path: string) => void document.update({ img: path }),
  } as never);
  await picker.browse();
}
