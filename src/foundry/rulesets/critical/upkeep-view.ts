/**
 * The upkeep summary's view (CR-BLD-01, CR-STN-02, CR-STN-03, CR-DTH-01, CR-HIT-02), pure: what
 * the message stores for each combatant and what its template renders, localized by the reader's
 * functions.
 */
import type { DamageStep, Modifier } from "../../../rules/core/types.js";
import { localizeData, modifierLine, type CardLine, type Localizer } from "../../attack-card.js";

/** One combatant's upkeep as the summary stores it. */
export interface UpkeepEntry {
  name: string;
  /** The actor's UUID, for the GM's undo (which reads the actor's own record). */
  actorUuid?: string;
  /** Hits before and after, `value/max`. */
  hits: { before: number; after: number; max: number };
  steps: DamageStep[];
  /** The Self Discipline test rolled, when the hits were at 0 or below. */
  check?: { natural: number; modifiers: Modifier[]; total: number; needed: number; success: boolean };
  /** Conditions the upkeep added and removed (ids). */
  added: string[];
  removed: string[];
}

/** What the summary template renders. */
export interface UpkeepContext {
  headline: string;
  entries: {
    name: string;
    hits: string;
    lines: { label: string; value: string; rule: string }[];
    check?: { lines: CardLine[]; natural: number; total: number; needed: number; outcome: string };
    conditions: string;
  }[];
}

/** The summary of one round's upkeep, localized. */
export function upkeepContext(round: number, entries: readonly UpkeepEntry[], i18n: Localizer): UpkeepContext {
  return {
    headline: i18n.format("FRAY.Critical.Upkeep.Headline", { round: String(round) }),
    entries: entries.map((e) => ({
      name: e.name,
      hits: `${e.hits.after}/${e.hits.max}`,
      lines: e.steps.map((s) => ({
        label: i18n.format(s.label, localizeData(s.data, i18n)),
        value: s.value ? String(s.value) : "",
        rule: s.rule,
      })),
      ...(e.check
        ? {
            check: {
              lines: e.check.modifiers.map((m) => modifierLine(m, i18n)),
              natural: e.check.natural,
              total: e.check.total,
              needed: e.check.needed,
              outcome: i18n.format(e.check.success ? "FRAY.Critical.SelfDiscipline.Passed" : "FRAY.Critical.SelfDiscipline.Failed", {
                actor: e.name,
              }),
            },
          }
        : {}),
      conditions: [
        ...e.added.map((c) => `+ ${i18n.localize(`FRAY.Condition.${c}`)}`),
        ...e.removed.map((c) => `\u2212 ${i18n.localize(`FRAY.Condition.${c}`)}`),
      ].join(", "),
    })),
  };
}
