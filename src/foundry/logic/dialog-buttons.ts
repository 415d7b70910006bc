/**
 * A dialog's buttons as data: what each button shows (its action, label key, icon, whether it is
 * the default), kept apart from what it does, so that the dialog and the render test's picture
 * of it draw the same buttons from one list.
 */

/** What a DialogV2 button shows: `label` is an i18n key, `icon` Font Awesome classes. */
export interface DialogButtonFace {
  action: string;
  label: string;
  icon?: string;
  default?: boolean;
}

/**
 * The button a DialogV2 callback gets, as the callbacks read it: the form it submits, whose
 * named controls give their value (and a checkbox whether it is checked).
 */
export interface DialogFormButton {
  form?: { elements: Record<string, { value?: string; checked?: boolean } | undefined> } | null;
}

/** A DialogV2 callback: the click event and the button clicked; its result is the dialog's. */
export type DialogCallback = (event: unknown, button: never) => unknown;

/**
 * The buttons for `DialogV2.wait`, in the order of `faces`, each with the callback named by its
 * action when there is one (a button without a callback answers with its action).
 */
export function dialogButtons(
  faces: readonly DialogButtonFace[],
  callbacks: Partial<Record<string, DialogCallback>> = {},
): (DialogButtonFace & { callback?: DialogCallback })[] {
  return faces.map((face) => {
    const callback = callbacks[face.action];
    return callback ? { ...face, callback } : { ...face };
  });
}
