/**
 * The forecast result's context (src/foundry/logic/forecast-view.ts): the chart's shares and
 * intervals in percent, one column per length of fight with the gaps at 0, the cancelled note and
 * the notes of what the combat could not hand over.
 */
import { describe, expect, it } from "vitest";
import { wilson, type Forecast } from "../../src/forecast/forecast.js";
import { DEFAULT_TACTICS } from "../../src/encounter/tactics.js";
import { forecastView } from "../../src/foundry/logic/forecast-view.js";
import { readLang } from "../support/foundry-stub.js";
import { formatKey, nestedLookup } from "../../src/rules/core/i18n.js";

const lookup = nestedLookup(readLang("en") as Record<string, unknown>);
const t = (key: string, data?: Record<string, string | number>) => formatKey(lookup, key, data);

/** 10 fights: friendly won 7, hostile 2, one draw; 2, 2, 4 ... rounds (3 never). */
const result: Forecast = {
  name: "Yard",
  ruleset: "ud10",
  runs: 10,
  complete: false,
  seed: 5,
  sides: [
    { side: "friendly", wins: wilson(7, 10) },
    { side: "hostile", wins: wilson(2, 10) },
  ],
  draws: wilson(1, 10),
  rounds: { counts: { 2: 4, 4: 5, 6: 1 }, mean: 3.4, median: 4, min: 2, max: 6 },
  combatants: [
    { id: "a", name: "Ayla", side: "friendly", out: wilson(1, 10), damage: { hp: 3 } },
    { id: "b", name: "Thug", side: "hostile", out: wilson(8, 10), damage: { hp: 9 } },
  ],
  tactics: [{ id: "a", react: "none", wait: false, tactics: DEFAULT_TACTICS }],
};

describe("forecast result view", () => {
  it("UD-RND-01: rounds from the shortest to the longest fight, each with its share; sides with their intervals", () => {
    const view = forecastView(result, t, {
      combatants: [],
      left: [{ id: "c", name: "Clerk", reason: "neutral" }],
      notCarried: [{ id: "a", name: "Ayla", what: "declaration" }],
    });
    expect(view.rounds.map((r) => [r.round, r.count, r.height])).toEqual([
      [2, 4, 80],
      [3, 0, 0],
      [4, 5, 100],
      [5, 0, 0],
      [6, 1, 20],
    ]);
    expect(view.rounds[1]!.tooltip).toBe("3 rounds: 0.0% of fights");
    expect(view.sides[0]).toMatchObject({ label: "Friendly", names: "Ayla", pct: 70, low: 39.7, high: 89.2 });
    expect(view.sides[0]!.span).toBe(49.5);
    expect(view.draws.text).toBe("10.0% (1.8% to 40.4%)");
    expect(view.fights).toContain("10 fights, seeds 5 to 14");
    expect(view.cancelled).toBe("Cancelled after 10 fights: the figures below count only those.");
    // Each combatant's expected loss per fight beside its chance to end out, as the CLI prints it.
    expect(view.combatants.map((c) => c.damage)).toEqual(["HP 3.0", "HP 9.0"]);
    expect(view.notes).toEqual([
      "Clerk has a neutral token and takes no side; left out.",
      "Ayla's declaration for this round names no action and is not carried: the forecast cannot read free text.",
    ]);
  });

  it("writes chances and decimals in the reader's language: German 70,0 % and LP 3,0 (UD-RND-01)", () => {
    const de = nestedLookup(readLang("de") as Record<string, unknown>);
    const view = forecastView(result, (key, data) => formatKey(de, key, data, "de"), undefined, "de");
    expect(view.draws.text).toBe("10,0\u00a0% (1,8\u00a0% bis 40,4\u00a0%)");
    expect(view.rounds[0]!.tooltip).toContain("40,0\u00a0%");
    expect(view.roundsHeading).toContain("3,4");
    expect(view.combatants.map((c) => c.damage)).toEqual(["LP 3,0", "LP 9,0"]);
    // The chart's widths stay numbers for the style sheet.
    expect(view.sides[0]).toMatchObject({ pct: 70, low: 39.7, high: 89.2 });
  });
});
