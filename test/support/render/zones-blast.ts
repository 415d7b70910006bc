/**
 * Zones' blast card render case (ZN-GRN-01): a Hornet grenade applied to four tokens (killed,
 * incapacitated, shock wave through a blast suit, unharmed behind grenade-proof cover), from the
 * context function the card uses.
 */
import { blastCardContext, type BlastI18n, type BlastState } from "../../../src/foundry/rulesets/zones/blast-card.js";
import type { RenderCase } from "./contexts.js";

/** The blast card after the GM applied it, and before (the ticks still open). */
export function zonesBlastCases(i18n: BlastI18n): RenderCase[] {
  const state: BlastState = {
    actorUuid: "Actor.thrower",
    itemId: "grenade",
    grenade: { name: "Hornet Fragmentation Grenade", effectiveRadius: 5, casualtyRadius: 15, damage: "2d6" },
    sceneId: "s1",
    templateUuid: "Scene.s1.MeasuredTemplate.t1",
    aim: { x: 1150, y: 50 },
    centre: { x: 1350, y: 50 },
    check: 9,
    difficulty: 12,
    hit: false,
    deviation: 3,
    applied: false,
    rows: [
      { tokenId: "a", actorUuid: "Actor.a", name: "Able", distance: 3, zone: "effective", grenadeProof: false, fullBody: false },
      { tokenId: "b", actorUuid: "Actor.b", name: "Baker", distance: 9, zone: "casualty", grenadeProof: false, fullBody: false },
      { tokenId: "c", actorUuid: "Actor.c", name: "Cole", distance: 9, zone: "casualty", grenadeProof: false, fullBody: true },
      { tokenId: "d", actorUuid: "Actor.d", name: "Dana", distance: 12.7, zone: "casualty", grenadeProof: true, fullBody: false },
    ],
  };
  const applied: BlastState = {
    ...state,
    applied: true,
    rows: state.rows.map((r, i) => ({
      ...r,
      effect: (["killed", "incapacitated", "shockwave", "unharmed"] as const)[i],
      reason: [
        "FRAY.Zones.Blast.effective",
        "FRAY.Zones.Blast.casualty",
        "FRAY.Zones.Blast.fullBodyArmor",
        "FRAY.Zones.Blast.grenadeProof",
      ][i],
      hpBefore: 28,
      hpAfter: i === 2 ? 20 : 28,
    })),
  };
  const card = (id: string, s: BlastState, expect: RenderCase["expect"]): RenderCase => ({
    id: `zones-blast-card-${id}`,
    title: `Zones blast card: ${id}`,
    kind: "chat",
    classes: [],
    width: 300,
    height: 0,
    templates: ["templates/zones/blast-card.hbs"],
    context: blastCardContext(s, i18n),
    expect,
  });
  return [
    card("open", state, [
      { selector: "tr[data-blast-token]", count: 4 },
      { selector: 'input[name="grenadeProof"]:checked', count: 1 },
      { selector: 'input[name="fullBody"]:checked', count: 1 },
      { selector: ".fray-blast-radius", count: 2 },
      { selector: 'button[data-zones-blast="apply"]', count: 1 },
    ]),
    card("applied", applied, [
      { selector: ".fray-blast-effect", count: 4 },
      { selector: "tr.shockwave .fray-blast-effect", text: "28 → 20" },
      { selector: 'button[data-zones-blast="undo"]', count: 1 },
      { selector: "input:disabled", count: 8 },
    ]),
  ];
}
