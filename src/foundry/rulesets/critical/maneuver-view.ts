/**
 * The maneuver card's view (CR-MAN-01), pure: what the message stores and what
 * `templates/critical/maneuver.hbs` renders, localized by the reader's functions.
 */
import { MANEUVER_DIFFICULTY, type CriticalCombatant, type ManeuverOutcome } from "../../../rules/critical/index.js";
import type { Modifier } from "../../../rules/core/types.js";
import { modifierLine, type CardLine, type Localizer } from "../../attack-card.js";
import type { DialogButtonFace } from "../../logic/dialog-buttons.js";

/** The maneuver dialog's buttons: roll, the default, and cancel (CR-MAN-01). */
export const MANEUVER_DIALOG_BUTTONS: readonly DialogButtonFace[] = [
  { action: "roll", label: "FRAY.Critical.Maneuver.Roll", icon: "fa-solid fa-person-running", default: true },
  { action: "cancel", label: "FRAY.Flow.Dialog.Cancel" },
];

/** What a maneuver card stores (`flags.fray.maneuver`). */
export interface ManeuverFlag {
  actorUuid: string;
  name: string;
  formula: string;
  /** The open-ended d100's total (96-100 rolled again and added). */
  natural: number;
  lines: Modifier[];
  /** The percentage: the roll plus every line. */
  percent: number;
  outcome: ManeuverOutcome;
  /** With `penalty` (and as what the GM may rule with `gm`): the shortfall below 100, negative. */
  penalty?: number;
  /** The outcome is the GM's ruling on the card (under "the GM decides"). */
  ruled?: boolean;
}

/** What the GM may rule on a maneuver below 100 % under "the GM decides" (CR-MAN-01; RULES.md). */
export const MANEUVER_RULINGS = ["penalty", "incomplete", "complete"] as const;
export type ManeuverRuling = (typeof MANEUVER_RULINGS)[number];

/** What the template renders. */
export interface ManeuverContext {
  headline: string;
  rule: string;
  formula: string;
  natural: number;
  lines: CardLine[];
  total: string;
  success: boolean;
  outcome: string;
  /** The GM's choices while the outcome is open (each card client shows them to GMs only). */
  rulings: { id: ManeuverRuling; label: string }[];
  /** "The GM's ruling", once ruled. */
  ruledNote?: string;
}

/** The maneuver card's view, localized (pure). */
export function maneuverContext(flag: ManeuverFlag, i18n: Localizer): ManeuverContext {
  const data = { actor: flag.name, percent: String(flag.percent), penalty: String(flag.penalty ?? Math.min(0, flag.percent - 100)) };
  return {
    headline: i18n.format("FRAY.Critical.Maneuver.Headline", { actor: flag.name }),
    rule: "CR-MAN-01",
    formula: flag.formula,
    natural: flag.natural,
    lines: flag.lines.map((l) => modifierLine(l, i18n)),
    total: `${flag.percent} %`,
    success: flag.outcome === "success" || flag.outcome === "penalty",
    outcome: i18n.format(`FRAY.Critical.Maneuver.Outcome.${flag.outcome}`, data),
    rulings:
      flag.outcome === "gm" ? MANEUVER_RULINGS.map((id) => ({ id, label: i18n.format(`FRAY.Critical.Maneuver.Ruling.${id}`, data) })) : [],
    ...(flag.ruled ? { ruledNote: i18n.localize("FRAY.Critical.Maneuver.Ruled") } : {}),
  };
}

/** The maneuver dialog's context: the combatant's skills with their bonus, the difficulty's bounds. */
export function maneuverDialogContext(c: CriticalCombatant, i18n: Localizer): Record<string, unknown> {
  return {
    skills: Object.entries(c.skills).map(([id, value]) => ({ id, value, label: i18n.localize(`FRAY.Critical.Skill.${id}`) })),
    min: MANEUVER_DIFFICULTY.min,
    max: MANEUVER_DIFFICULTY.max,
    bonusText: i18n.format("FRAY.Critical.Maneuver.BonusHint", { bonus: String(c.maneuver) }),
  };
}
