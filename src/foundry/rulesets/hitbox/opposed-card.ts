/**
 * The view model of the GM's opposed test card (`templates/hitbox/opposed.hbs`, HB-ACT-05). Pure:
 * localization comes in as functions, so the card is built and rendered without Foundry.
 */
import { pluralKey } from "../../../rules/core/i18n.js";
import type { OpposedResult } from "../../../rules/hitbox/index.js";

/** One side of the card: name, skill, formula and each round's total. */
export interface OpposedRow {
  name: string;
  skill: string;
  formula: string;
  totals: number[];
  winner: boolean;
}

/** The card's context from the core's result (HB-ACT-05): both sides, every round of rolls. */
export function opposedContext(
  result: OpposedResult,
  sides: { name: string; skill: string; formula: string }[],
  i18n: { localize(key: string): string; format(key: string, data: Record<string, string>): string },
) {
  const [a, b] = sides as [(typeof sides)[number], (typeof sides)[number]];
  const rows: OpposedRow[] = [
    { ...a, totals: result.rounds.map((r) => r.a.total), winner: result.winner === "a" },
    { ...b, totals: result.rounds.map((r) => r.b.total), winner: result.winner === "b" },
  ];
  const winner = result.winner === "a" ? a.name : b.name;
  return {
    title: i18n.localize("FRAY.Hitbox.Opposed.Title"),
    rule: result.rule,
    rows,
    outcome: i18n.format("FRAY.Hitbox.Opposed.Winner", { name: winner }),
    rerolls:
      result.rounds.length > 1
        ? i18n.format(pluralKey("FRAY.Hitbox.Opposed.Rerolls", result.rounds.length - 1), { n: String(result.rounds.length - 1) })
        : "",
  };
}
