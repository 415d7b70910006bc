/**
 * Zones reaction render cases (ZN-REA-01, ZN-REA-02, ZN-SUP-01): the reaction card before and
 * after its contest (a tie rolled again), and the tracker's Zones rows for the GM (a pending
 * reaction with its Trigger button, a played one, the React button; a suppression under way and
 * one ended), and the GM's search card for hidden weapons (ZN-HID-01), from the functions play
 * uses.
 */
import {
  reactionCardContext,
  reactionRowHtml,
  searchCardContext,
  suppressionRowHtml,
  type CardI18n,
  type ReactionCardState,
  type SearchCardState,
} from "../../../src/foundry/rulesets/zones/reaction-view.js";
import type { ContestResult } from "../../../src/rules/zones/index.js";
import type { RenderCase } from "./contexts.js";

/** A d10 + DEX check as the core reports it. */
function check(natural: number, dex: number) {
  return {
    roll: { formula: "1d10", total: natural, dice: [{ faces: 10, results: [natural] }], constant: 0 },
    natural,
    modifiers: [
      { label: "FRAY.Mod.Zones.Attribute", value: dex, rule: "ZN-REA-02" as const, data: { attribute: "FRAY.Zones.Attribute.DEX" } },
    ],
    total: natural + dex,
  };
}

/** The reaction card (open and contested) and the tracker rows. */
export function zonesReactionCases(i18n: CardI18n): RenderCase[] {
  const state: ReactionCardState = {
    combatId: "c1",
    combatantId: "ayla",
    reaction: { id: "r1", round: 2, trigger: "the guard <reaches> for his radio", response: "shoot", plotted: true, playedRound: 2 },
  };
  const result = {
    rule: "ZN-REA-02",
    rounds: [
      { actor: check(5, 0), reactor: check(4, 1) },
      { actor: check(3, 0), reactor: check(7, 1) },
    ],
    winner: "reactor",
  } as unknown as ContestResult;
  const names = { reactor: "Ayla Brandt", actor: "Perimeter Sentry" };
  const card = (id: string, s: ReactionCardState, expect: RenderCase["expect"]): RenderCase => ({
    id: `zones-reaction-card-${id}`,
    title: `Zones reaction card: ${id}`,
    kind: "chat",
    classes: [],
    width: 300,
    height: 0,
    templates: ["templates/zones/reaction-card.hbs"],
    context: reactionCardContext(s, names, i18n),
    expect,
  });
  const rows = [
    {
      name: "Ayla Brandt",
      part: reactionRowHtml(
        {
          id: "ayla",
          canDeclare: true,
          canTrigger: true,
          reactions: [{ id: "r1", trigger: "the guard <reaches> for his radio", response: "shoot", played: false }],
        },
        i18n,
      ),
    },
    {
      name: "Perimeter Sentry",
      part: reactionRowHtml(
        {
          id: "sentry",
          canDeclare: true,
          canTrigger: true,
          reactions: [{ id: "r2", trigger: "someone crosses the courtyard", response: "move", played: true }],
        },
        i18n,
      ),
    },
    {
      name: "Rifleman <Vex>",
      part: suppressionRowHtml(
        {
          weapon: "Harrow Carbine",
          lane: "the <street> to the gate",
          bulletsPerAction: 3,
          loaded: 27,
          actionsLeft: 9,
          actions: 1,
          active: true,
          canMark: true,
          canEnd: true,
          canShoot: true,
        },
        i18n,
      ),
    },
    {
      name: "Marksman",
      part: suppressionRowHtml(
        {
          weapon: "Longarm Rifle",
          lane: "",
          bulletsPerAction: 1,
          loaded: 0,
          actionsLeft: 0,
          actions: 5,
          active: false,
          canMark: false,
          canEnd: false,
          canShoot: false,
        },
        i18n,
      ),
    },
  ];
  const search = (id: string, rows: SearchCardState["rows"], expect: RenderCase["expect"]): RenderCase => ({
    id: `zones-search-card-${id}`,
    title: `Zones search card: ${id}`,
    kind: "chat",
    classes: [],
    width: 300,
    height: 0,
    templates: ["templates/zones/search-card.hbs"],
    context: searchCardContext({ hider: "Ayla <Quiet>", searcher: "Perimeter Sentry", mode: "search", rows }, i18n),
    expect,
  });
  return [
    search(
      "two",
      [
        { weapon: "Wren Pocket Pistol", stealth: 9, notice: 4, difficulty: 4, found: true },
        { weapon: "Ridgeback Revolver", stealth: 12, notice: 6, difficulty: 7, found: false },
      ],
      [
        { selector: ".fray-search-row", count: 2 },
        { selector: ".fray-search-row.found .fray-search-result", text: i18n.localize("FRAY.Zones.Hiding.Found") },
        { selector: ".fray-search-row.hidden .fray-search-notice", text: "6 / 7" },
      ],
    ),
    search("nothing", [], [{ selector: ".fray-search-nothing", count: 1 }]),
    card("open", state, [
      { selector: ".fray-reaction-trigger", text: "the guard <reaches> for his radio" },
      { selector: ".fray-reaction-response", text: i18n.localize("FRAY.Zones.Reaction.Responses.shoot") },
      { selector: "button[data-zones-contest]", count: 1 },
    ]),
    card("contested", { ...state, contest: { actorId: "sentry", result } }, [
      { selector: ".fray-contest-round", count: 2 },
      { selector: ".fray-contest-round.tie", count: 1 },
      { selector: ".fray-contest-winner", text: "Ayla Brandt" },
      { selector: "button[data-zones-contest]", count: 0 },
    ]),
    {
      id: "zones-reaction-tracker",
      title: "Zones reactions and suppressing fire in the tracker (GM)",
      kind: "chat",
      classes: [],
      width: 300,
      height: 0,
      templates: ["test/support/render/tracker-row.hbs"],
      context: { rows },
      expect: [
        { selector: ".fray-reaction", count: 2 },
        { selector: "button[data-zones-trigger]", count: 1 },
        { selector: ".fray-reaction.played .fray-reaction-played", count: 1 },
        { selector: "button[data-zones-react]", count: 2 },
        { selector: ".fray-zones-suppression", count: 2 },
        { selector: ".fray-zones-suppression .fray-suppression-facts", text: "3 per action · 27 loaded · 9 more actions" },
        { selector: ".fray-zones-suppression button", count: 3 },
        { selector: ".fray-zones-suppression.ended", text: "ended: must reload" },
        { selector: ".fray-reaction-text", text: "if the guard <reaches> for his radio" },
      ],
    },
  ];
}
