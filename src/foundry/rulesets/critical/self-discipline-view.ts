/**
 * The Self Discipline prompt's and result's view (CR-HIT-02), pure: what the message stores and
 * what its template renders, localized by the reader's functions.
 */
import type { Modifier } from "../../../rules/core/types.js";
import { modifierLine, type CardLine, type Localizer } from "../../attack-card.js";

/** What a prompt or result message stores (`flags.fray.selfDiscipline`). */
export interface SelfDisciplineFlag {
  actorUuid: string;
  name: string;
  /** The hits when the test was asked for. */
  hits: number;
  /** Unique per prompt: the actor's stamp of the test taken. */
  key: string;
  /** The test rolled, on the result message. */
  result?: {
    formula: string;
    natural: number;
    lines: Modifier[];
    total: number;
    success: boolean;
  };
}

/** What the template renders. */
export interface SelfDisciplineContext {
  headline: string;
  rule: string;
  pending: boolean;
  buttonLabel: string;
  result?: { formula: string; natural: number; lines: CardLine[]; total: number; needed: number; outcome: string; success: boolean };
}

/** The prompt's or the result's view, localized (pure). */
export function selfDisciplineContext(flag: SelfDisciplineFlag, i18n: Localizer): SelfDisciplineContext {
  const context: SelfDisciplineContext = {
    headline: i18n.format("FRAY.Critical.SelfDiscipline.Prompt", { actor: flag.name, hits: String(flag.hits) }),
    rule: "CR-HIT-02",
    pending: !flag.result,
    buttonLabel: i18n.localize("FRAY.Critical.SelfDiscipline.Roll"),
  };
  if (flag.result) {
    const r = flag.result;
    context.result = {
      formula: r.formula,
      natural: r.natural,
      lines: r.lines.map((l) => modifierLine(l, i18n)),
      total: r.total,
      needed: 101,
      success: r.success,
      outcome: i18n.format(r.success ? "FRAY.Critical.SelfDiscipline.Passed" : "FRAY.Critical.SelfDiscipline.Failed", { actor: flag.name }),
    };
  }
  return context;
}
