/**
 * The forecast's result from the combat tracker (templates/forecast/result.hbs): a real forecast
 * of a stand-in UD10 combat (a Veteran and a Guard against two Thugs, one 9 m off), its context
 * from `forecastView` as the dialog and the chat card build it, with a name that must show
 * escaped and the notes of what the combat could not hand over.
 */
import { join } from "node:path";
import { ContentIndex } from "../../../src/encounter/content.js";
import { parseEncounter } from "../../../src/encounter/schema.js";
import { PackContent } from "../../../src/encounter/library.js";
import { forecast } from "../../../src/forecast/forecast.js";
import { balance } from "../../../src/forecast/balance.js";
import { balanceButtons, balanceView } from "../../../src/foundry/logic/balance-view.js";
import { forecastInput, type ForecastBinding } from "../../../src/foundry/logic/forecast-state.js";
import { FORECAST_RESULT_BUTTONS, forecastView } from "../../../src/foundry/logic/forecast-view.js";
import { forecastControlHtml, type FollowPoint } from "../../../src/foundry/logic/follow.js";
import { wilson } from "../../../src/forecast/tally.js";
import type { ActorSource } from "../../../src/rules/core/sources.js";
import { ud10, ud10CombatantFromActor } from "../../../src/rules/ud10/index.js";
import { ROOT } from "../foundry-stub.js";
import type { RenderCase } from "./contexts.js";

/** The dialog's and the chat card's result of 400 fights, seed 1. */
export async function forecastCases(i18n: { format(key: string, data?: Record<string, unknown>): string }): Promise<RenderCase[]> {
  const packs = new ContentIndex(join(ROOT, "packs", "_source"));
  const npc = (name: string) => packs.resolve(`ud10-npcs/${name}`, "test") as unknown as ActorSource;
  const binding: ForecastBinding = {
    id: "ud10",
    combatantFromActor: ud10CombatantFromActor,
    ruleset: ud10 as unknown as ForecastBinding["ruleset"],
  };
  const input = forecastInput(
    {
      name: "Loading Yard",
      ruleset: "ud10",
      options: ud10.defaults(),
      round: 2,
      combatants: [
        { id: "vet", name: "Ayla <b>Brandt</b>", actor: npc("Veteran"), disposition: 1, defeated: false, initiative: 15 },
        { id: "guard", name: "Guard", actor: npc("Guard"), disposition: 1, defeated: false, initiative: 9, declaration: { text: "cover" } },
        { id: "thug1", name: "Thug", actor: npc("Thug"), disposition: -1, defeated: false, initiative: 12 },
        { id: "thug2", name: "Thug Leader", actor: npc("Thug"), disposition: -1, defeated: false, initiative: 7 },
        { id: "clerk", name: "Clerk", actor: npc("Thug"), disposition: 0, defeated: false },
      ],
      distances: { vet: { thug1: 1.5, thug2: 9 }, guard: { thug1: 3, thug2: 9 } },
    },
    binding,
  );
  const result = await forecast(parseEncounter(input.file), new PackContent(input.packs), { runs: 400, seed: 1 });
  const context = forecastView(result, (key, data) => i18n.format(key, data ?? {}), input);
  const wins = result.sides.map((s) => `${(s.wins.p * 100).toFixed(1)}%`);
  const base = { templates: ["templates/forecast/result.hbs"], context: { ...context } };
  const expect: RenderCase["expect"] = [
    { selector: ".fray-forecast-side", count: 3 },
    { selector: ".fray-forecast-side[data-side-index='0'] .fray-forecast-chance", text: wins[0]! },
    { selector: ".fray-forecast-side[data-side-index='1'] .fray-forecast-chance", text: wins[1]! },
    { selector: ".fray-forecast-side[data-side-index='0'] .fray-forecast-names", text: "Ayla <b>Brandt</b>, Guard" },
    { selector: ".fray-forecast-column", count: result.rounds.max - result.rounds.min + 1 },
    { selector: ".fray-forecast-combatants tr", count: 4 },
    { selector: ".fray-forecast-notes li", count: 2, text: /Clerk .*neutral.*Guard/ },
    { selector: ".fray-forecast-fights", text: "400 fights, seeds 1 to 400" },
  ];
  // The balance search's result for the same combat: a 70% chance for the friendly side, by count.
  const balanced = await balance(parseEncounter(input.file), new PackContent(input.packs), {
    target: 0.7,
    players: "friendly",
    seed: 1,
    quickRuns: 40,
    confirmRuns: 200,
  });
  const view = balanceView(balanced, (key, data) => i18n.format(key, data ?? {}));
  const balanceCase: RenderCase = {
    id: "forecast-balance",
    templates: ["templates/forecast/balance.hbs"],
    context: { ...view },
    title: i18n.format("FRAY.Forecast.Tracker.Balance.ResultTitle", { name: balanced.name }),
    kind: "dialog",
    classes: ["dialog", "fray", "fray-forecast-dialog"],
    buttons: balanceButtons(view.adds > 0),
    width: 440,
    height: 0,
    expect: [
      { selector: ".fray-balance-kinds tr", count: balanced.kinds.length },
      { selector: ".fray-balance-found .fray-forecast-chance", text: view.wins.text },
      { selector: ".fray-balance-start .fray-forecast-chance", text: view.start.text },
      { selector: ".fray-balance-asked", text: view.asked },
    ],
  };
  return [
    balanceCase,
    followCase(i18n),
    {
      ...base,
      id: "forecast-result",
      title: context.title,
      kind: "dialog",
      classes: ["dialog", "fray", "fray-forecast-dialog"],
      buttons: FORECAST_RESULT_BUTTONS,
      width: 440,
      height: 0,
      expect,
    },
    // The chat card: the same template with the rounds, combatants and tactics folded.
    {
      ...base,
      context: { ...context, fold: true },
      id: "forecast-card",
      title: context.title,
      kind: "chat",
      classes: [],
      width: 300,
      height: 0,
      expect,
    },
  ];
}

/**
 * The top of the combat tracker while the fight is followed (src/foundry/logic/follow.ts): the
 * Forecast button, the toggle on, and the chart of four rounds of 2,000 fights each, as
 * `renderForecastButton` inserts them above the tracker's rows.
 */
function followCase(i18n: { format(key: string, data?: Record<string, unknown>): string }): RenderCase {
  const points: FollowPoint[] = [1240, 1105, 1422, 960].map((wins, i) => ({ round: i + 1, ...wilson(wins, 2000), runs: 2000 }));
  const control = forecastControlHtml({ on: true, points }, (key, data) => i18n.format(key, data ?? {}), "en");
  const rows = ["Ayla Brandt", "Guard", "Thug"].map(
    (n) => `<li class="combatant"><div class="token-name"><strong class="name">${n}</strong></div></li>`,
  );
  return {
    id: "tracker-follow",
    title: "Combat tracker: following the fight",
    kind: "panel",
    classes: ["fray"],
    width: 300,
    height: 0,
    templates: ["test/support/render/markup.hbs"],
    context: {
      classes: "combat-sidebar",
      html:
        `<header class="combat-tracker-header">${control}</header>` +
        `<ol class="combat-tracker plain" style="list-style: none; margin: 0; padding: 0">${rows.join("")}</ol>`,
    },
    expect: [
      { selector: '[data-fray-follow][aria-pressed="true"]', text: "Follow the fight" },
      { selector: "[data-fray-forecast]", text: "Forecast" },
      { selector: ".fray-follow-chart svg[role='img']" },
      { selector: ".fray-follow-dot", count: 4 },
      { selector: ".fray-follow-band", count: 1 },
      { selector: ".fray-follow-latest", text: "Players win: 48.0% (45.8% to 50.2%), round 4" },
      { selector: ".fray-follow-rounds summary", text: "Each round" },
      { selector: ".fray-follow-chart table tbody tr", count: 4 },
    ],
  };
}
