/**
 * The parry allocation dialog's view (CR-PAR-01 to CR-PAR-03), pure: the core's
 * {@link parryAllocation} localized for `templates/critical/parry-dialog.hbs`. Every number comes
 * from the core; names reach the template as text (Handlebars escapes them).
 */
import type { ParryAllocationView } from "../../../rules/critical/index.js";
import type { Localizer } from "../../attack-card.js";
import type { DialogButtonFace } from "../../logic/dialog-buttons.js";

/** The parry dialog's buttons: declare the parry, the default, and cancel (CR-PAR-01). */
export const PARRY_DIALOG_BUTTONS: readonly DialogButtonFace[] = [
  { action: "parry", label: "FRAY.Critical.Parry.Declare", icon: "fa-solid fa-shield-halved", default: true },
  { action: "cancel", label: "FRAY.Flow.Dialog.Cancel" },
];

/** What the parry dialog's template renders. */
export interface ParryDialogContext {
  /** "OB to move: 55 (Broadsword)". */
  pool: string;
  /** "OB left: 35", updated as the player types. */
  left: string;
  /** More OB moved than there is. */
  over: boolean;
  /** Why the combatant cannot parry, localized; no inputs are offered then. */
  blocked?: string;
  /** The hint that an unseen attack ignores the parry (CR-PAR-03). */
  unseenHint: string;
  foes: { id: string; name: string; rate: string; category: string; ob: number; db: string }[];
}

/** The "OB left" text of an allocation. */
export function parryLeftText(view: ParryAllocationView, i18n: Localizer): string {
  return i18n.format("FRAY.Critical.Parry.Left", { left: String(view.left), pool: String(view.pool) });
}

/** The DB text of one foe's line ("DB +10"). */
export function parryDbText(db: number, i18n: Localizer): string {
  return i18n.format("FRAY.Critical.Parry.Db", { db: String(db) });
}

/** The dialog's context from the core's allocation view (pure). */
export function parryDialogContext(view: ParryAllocationView, i18n: Localizer): ParryDialogContext {
  return {
    pool: i18n.format("FRAY.Critical.Parry.Pool", { ob: String(view.pool) }),
    left: parryLeftText(view, i18n),
    over: view.left < 0,
    ...(view.blocked
      ? { blocked: i18n.format("FRAY.Critical.Parry.Blocked", { reason: i18n.localize(view.blocked.reason), rule: view.blocked.rule }) }
      : {}),
    unseenHint: i18n.localize("FRAY.Critical.Parry.UnseenHint"),
    foes: view.foes.map((f) => ({
      id: f.id,
      name: f.name,
      rate: `${f.rate}:1`,
      category: i18n.localize(`FRAY.Critical.Category.${f.category}`),
      ob: f.ob,
      db: parryDbText(f.db, i18n),
    })),
  };
}
