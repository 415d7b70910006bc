/**
 * Render cases of Hitbox (HB-*): the character sheet's tabs with the body diagram, the NPC stat
 * block of the seed's security guard with a damaged leg, the weapon and armor sheets, and the
 * attack card in each phase (hit awaiting the defender's answer, dodged, applied with the
 * Blackout test pending, Blackout failed, undone, held until the step ends), each card state made
 * by the card's own transitions from real Hitbox results with scripted dice (the seed's example
 * numbers), its range in feet; and the attack dialog of a Hitbox world.
 */
import { ScriptedRoller } from "../../../src/rules/core/dice/port.js";
import {
  hitbox,
  hitboxCombatantFromActor,
  hitboxOptions,
  opposedTest,
  reactAfterAttack,
  type HitboxAttackInput,
  type HitboxCombatant,
} from "../../../src/rules/hitbox/index.js";
import { attackMessageContext, type Localizer } from "../../../src/foundry/attack-card.js";
import {
  ATTACK_DIALOG_BUTTONS,
  dialogContext,
  dialogDefaults,
  oddsText,
  type AttackDialogData,
} from "../../../src/foundry/chat/attack-dialog.js";
import { HITBOX_MOVEMENT_UNITS, hitboxCardView } from "../../../src/foundry/rulesets/hitbox/card-view.js";
import { attackTarget, storable } from "../../../src/foundry/logic/attack-state.js";
import {
  withApplied,
  withDamage,
  withForced,
  withReaction,
  withUndone,
  withoutReaction,
  type TargetState,
} from "../../../src/foundry/logic/card.js";
import { undoRecord } from "../../../src/foundry/logic/undo.js";
import { ACTOR_TABS, type SheetI18n } from "../../../src/foundry/sheets/context.js";
import { HITBOX_SHEET_PARTS, hitboxActorSheetContext, hitboxItemSheetContext } from "../../../src/foundry/rulesets/hitbox/sheet-context.js";
import { opposedContext } from "../../../src/foundry/rulesets/hitbox/opposed-card.js";
import { OPPOSED_DIALOG_BUTTONS, opposedFormHtml, planHtml, stepBannerHtml } from "../../../src/foundry/rulesets/hitbox/tracker-view.js";
import { declarationRowHtml, phaseBannerHtml } from "../../../src/foundry/combat/declarations.js";
import { packDoc, type RenderCase } from "./contexts.js";

type Dict = Record<string, unknown>;

/** Ties to the defender, as the seed's example file plays them (RULES.md, HB-ATK-04). */
const OPTIONS = { ...hitbox.defaults(), hitboxReactionTies: "defender" };

/** The template of a part as the binding names it. */
const partTemplate = (part: string) =>
  part.startsWith("hb") ? `templates/hitbox/${part.slice(2).toLowerCase()}.hbs` : `templates/actor/${part}.hbs`;

/** Zeven of the seed's example, with her pistol and a vest, her left arm hit once. */
function zeven() {
  return {
    _id: "zeven",
    name: "Zeven",
    type: "character",
    img: "icons/svg/mystery-man.svg",
    system: {
      ruleset: "hitbox",
      abilities: { strength: 2, dexterity: 3, fortitude: 2 },
      skills: { firearms: 1, melee: 0, throwing: 0, archery: 0, dodge: 1, parry: 0, blackout: 1 },
      hitboxes: {
        head: { value: 2, max: 2 },
        leftArm: { value: 1, max: 2 },
        rightArm: { value: 2, max: 2 },
        torso: { value: 3, max: 3 },
        leftLeg: { value: 2, max: 2 },
        rightLeg: { value: 2, max: 2 },
        groin: { value: 2, max: 2 },
      },
      mainHand: "left",
      held: ["Holdout Pistol"],
      group: "players",
      biography: "<p>A courier who rounds corners <strong>carefully</strong>.</p>",
    },
    items: [structuredClone(packDoc("hitbox-weapons", "Holdout Pistol")), structuredClone(packDoc("hitbox-armor", "Padded Jacket"))],
    statuses: ["goingProne"],
  };
}

/** The seed's security guard, his left leg hit and lying prone. */
function guard() {
  const doc = structuredClone(packDoc("hitbox-npcs", "Security Guard")) as Dict & { system: Dict };
  (doc.system.hitboxes as Record<string, { value: number }>).leftLeg!.value = 1;
  return { ...doc, statuses: ["prone"] };
}

/** The actor sheet's cases: each tab of Zeven's character sheet, the guard's stat block. */
function sheetCases(i18n: SheetI18n): RenderCase[] {
  const cases: RenderCase[] = [];
  const character = zeven();
  for (const tab of ACTOR_TABS) {
    const context = hitboxActorSheetContext({
      actor: character as never,
      ruleset: "hitbox",
      editable: true,
      activeTab: tab.id,
      enrichedBiography: character.system.biography,
      i18n,
    });
    const expect: Record<string, RenderCase["expect"]> = {
      attributes: [
        { selector: '[data-action="rollSkill"]', count: 7 },
        ...["strength", "dexterity", "fortitude"].map((a) => ({ selector: `input[name="system.abilities.${a}"]`, count: 1 })),
        // HB-DMG-03: the left arm is her main arm: firearms 3 + 1 halved to 2, shown halved.
        { selector: '[data-skill="firearms"] .fray-roll', text: "2d6 + 2 (halved)" },
        { selector: '[data-skill="dodge"] .fray-roll', text: "2d6 + 4" },
      ],
      combat: [
        { selector: "[data-hitbox]", count: 7 },
        { selector: '[data-hitbox="leftArm"].state-damaged', count: 1 },
        { selector: '[data-hitbox="torso"] .fray-hb-armor', text: "1/1" },
        { selector: 'input[name="system.hitboxes.leftArm.value"]', value: "1" },
        { selector: '[data-action="attack"]', count: 1 },
        { selector: '[data-action="toggleEquipped"]', count: 1 },
        { selector: '.fray-hb-medicated [data-condition="medicated"]', count: 1 },
      ],
      conditions: [
        { selector: '.fray-conditions [data-action="toggleCondition"]', count: hitbox.conditions().length },
        { selector: 'button.fray-effect-start[data-action="startEffect"]', text: "Timed effect" },
      ],
      biography: [{ selector: 'prose-mirror[name="system.biography"]', count: 1 }],
    };
    cases.push({
      id: `hitbox-character-${tab.id}`,
      title: character.name,
      kind: "sheet",
      classes: ["fray", "sheet", "actor"],
      width: 720,
      height: 780,
      templates: HITBOX_SHEET_PARTS.character.map(partTemplate),
      context,
      expect: [{ selector: ".fray-hb-limb-note", count: 1 }, ...expect[tab.id]!],
    });
  }
  const npc = guard();
  cases.push({
    id: "hitbox-npc",
    title: "Security Guard",
    kind: "sheet",
    classes: ["fray", "sheet", "actor"],
    width: 560,
    height: 640,
    templates: HITBOX_SHEET_PARTS.npc.map(partTemplate),
    context: hitboxActorSheetContext({ actor: npc as never, ruleset: "hitbox", editable: true, enrichedBiography: "", i18n }),
    expect: [
      { selector: '[data-action="rollSkill"]', count: 7 },
      { selector: "[data-hitbox]", count: 7 },
      { selector: '[data-hitbox="leftLeg"].state-damaged', count: 1 },
      // HB-DMG-03: his dodge uses the damaged leg: 3 + 1 halved to 2.
      { selector: '[data-skill="dodge"].fray-hb-halved', count: 1 },
      { selector: '[data-action="attack"]', count: 2 },
      { selector: ".fray-armor-piece", count: 1 },
    ],
  });
  return cases;
}

/** The weapon and armor sheets. */
function itemCases(i18n: SheetI18n): RenderCase[] {
  const docs: [string, Dict][] = [
    ["weapon", packDoc("hitbox-weapons", "Riot Shotgun") as Dict],
    ["armor", packDoc("hitbox-armor", "Full Riot Gear") as Dict],
  ];
  return docs.map(([id, doc]) => ({
    id: `hitbox-item-${id}`,
    title: String(doc.name),
    kind: "sheet" as const,
    classes: ["fray", "sheet", "item"],
    width: 560,
    height: 640,
    templates: ["templates/hitbox/item.hbs"],
    context: {
      item: { name: doc.name, img: doc.img, uuid: "" },
      systemSource: doc.system,
      editable: true,
      typeLabel: id === "armor" ? "Armor" : "Weapon",
      enrichedDescription: String((doc.system as Dict).description ?? ""),
      ...hitboxItemSheetContext({ item: doc as never, ruleset: "hitbox", editable: true, enrichedDescription: "", i18n }),
    },
    expect:
      id === "weapon"
        ? [
            ...[
              "kind",
              "ability",
              "skill",
              "damage",
              "hands",
              "maxShots",
              "rangeFeet",
              "canParry",
              "closeBonus.points",
              "closeBonus.withinFeet",
            ].map((f) => ({ selector: `[name="system.${f}"]`, count: 1 })),
          ]
        : [
            { selector: 'input[name="system.equipped"]', count: 1 },
            ...["head", "leftArm", "rightArm", "torso", "leftLeg", "rightLeg", "groin"].flatMap((h) => [
              { selector: `input[name="system.protection.${h}"]`, count: 1 },
              { selector: `input[name="system.damage.${h}"]`, count: 1 },
            ]),
          ],
  }));
}

/** A Hitbox combatant of an actor doc. */
const combatant = (doc: unknown, id: string) => hitboxCombatantFromActor(doc as never, { id });

/** One attack stored as the workflow stores it. */
async function attack(attacker: HitboxCombatant, target: HitboxCombatant, weaponId: string, situation: Dict, dice: number[]) {
  const request = { attackerId: attacker.id, targetId: target.id, weaponId, distanceMetres: 4.572, situation: situation as never };
  const who = { actorUuid: `Actor.${target.id}`, tokenUuid: `Scene.s.Token.${target.id}`, name: target.name };
  const { state } = await attackTarget(hitbox, who, request, attacker, target, new ScriptedRoller(dice), OPTIONS);
  return { state, input: hitbox.input(state.request, attacker, target, OPTIONS) as HitboxAttackInput };
}

/** The card's cases, from the seed's example. */
async function cardCases(i18n: Localizer): Promise<RenderCase[]> {
  const z = combatant({ ...zeven(), statuses: [] }, "zeven");
  const g = combatant({ ...structuredClone(packDoc("hitbox-npcs", "Security Guard")), statuses: [] }, "guard");
  // Turn 1: 7 + 3 + 1 - 2 + 1 = 10 at the left leg (called-shot table 8); the guard dodges 9.
  const first = await attack({ ...z, mainHand: "right" }, g, "hBw1HoldoutPis01", { calledShot: "leftLeg" }, [3, 4, 4, 4]);
  const dodge = hitbox.reactions(first.input, undefined, OPTIONS).find((r) => r.id === "dodge")!;
  const dodged = withReaction(
    first.state,
    "dodge",
    storable(await reactAfterAttack(first.state.result, dodge, new ScriptedRoller([2, 3]), hitboxOptions(OPTIONS))),
  );
  // Zeven's dodge of 9 against the guard's second shot, 9: a tie, the defender's.
  const shot = await attack(g, z, "hBi1SecuriDuty01", { shots: 2 }, [3, 4, 1, 3]);
  const zDodge = hitbox.reactions(shot.input, undefined, OPTIONS).find((r) => r.id === "dodge")!;
  const missed = withReaction(
    shot.state,
    "dodge",
    storable(await reactAfterAttack(shot.state.result, zDodge, new ScriptedRoller([1, 4]), hitboxOptions(OPTIONS))),
  );
  // Turn 2: the head shot, applied, the Blackout test pending then failed (5 + 3 + 2 = 10), then undone.
  const head = await attack({ ...z, mainHand: "right" }, g, "hBw1HoldoutPis01", { calledShot: "head" }, [4, 4, 5, 5]);
  const declined = withoutReaction(head.state);
  const rolled = withDamage(declined, storable(await hitbox.rollDamage(declined.result, head.input, new ScriptedRoller([]), OPTIONS)));
  const report = storable(hitbox.applyDamage(g, rolled.damage!, OPTIONS));
  const applied = withApplied(rolled, undoRecord("Actor.guard", report, "gm", "s1"), report);
  const hitGuard = hitbox.withVitals(g, report.after);
  const blackout = withForced(
    applied,
    storable(await hitbox.forcedCheck!(hitGuard, report.forced![0]!, new ScriptedRoller([1, 4]), OPTIONS)),
  );
  const undone = withUndone(blackout);

  const names = { attacker: "Zeven", weapon: "Holdout Pistol" };
  const make = (id: string, t: TargetState, who: typeof names, expect: RenderCase["expect"]): RenderCase => ({
    id: `hitbox-card-${id}`,
    title: `Hitbox card: ${id}`,
    kind: "chat",
    classes: [],
    width: 300,
    height: 0,
    templates: ["templates/chat/attack-card.hbs"],
    context: attackMessageContext([t], who, i18n, { view: hitboxCardView }) as unknown as Dict,
    expect: [{ selector: ".fray-target", count: 1 }, ...expect],
  });
  return [
    make("hit", first.state, names, [
      { selector: ".fray-comparison", text: "10 vs. difficulty 9" },
      // HB-MOD-01: the range header in feet, as the binding's scenes measure (4.572 m = 15 ft).
      { selector: ".fray-range", text: "Range: 15.0 ft" },
      { selector: '[data-action="fray-dodge"]', count: 1 },
      { selector: '[data-action="fray-parry"][disabled]', count: 1 },
      { selector: '[data-action="fray-noReaction"]', count: 1 },
      { selector: ".fray-location", text: "(8)" },
    ]),
    make("dodge", dodged, names, [
      { selector: ".fray-reaction tr.fray-total", text: "Total 9" },
      { selector: ".fray-comparison", text: "10 vs. difficulty 9" },
      { selector: '[data-action="fray-rollDamage"]', count: 1 },
      { selector: '[data-action="fray-dodge"]', count: 0 },
    ]),
    make("tie-dodged", missed, { attacker: "Security Guard", weapon: "Duty Pistol" }, [
      { selector: ".fray-comparison", text: "9 vs. difficulty 9" },
      { selector: ".fray-result", text: "DODGED" },
      { selector: "button", count: 0 },
    ]),
    // Damage rolled, not applied yet: the Apply button.
    make("damage-rolled", rolled, names, [
      { selector: '[data-action="fray-applyDamage"]', count: 1 },
      { selector: '[data-action="fray-undoDamage"]', count: 0 },
    ]),
    make("applied-blackout", applied, names, [
      { selector: ".fray-steps tbody tr", count: applied.report!.steps.length },
      { selector: '[data-action="fray-forcedCheck"]', count: 1 },
      { selector: '[data-action="fray-undoDamage"]', count: 1 },
    ]),
    make("blackout-failed", blackout, names, [
      { selector: ".fray-forced.failed tr.fray-total", text: "10 / 12" },
      { selector: ".fray-forced .fray-vitals", text: "In shock" },
      { selector: '[data-action="fray-forcedCheck"]', count: 0 },
    ]),
    // HB-ACT-01: applied during an open step, held until the GM ends it.
    make("held", { ...rolled, held: { round: 2, step: 1 } } as TargetState, names, [
      { selector: ".fray-ruleset-section.held", count: 1 },
      { selector: ".fray-ruleset-section.held", text: /Held until step 1 ends/ },
      { selector: '[data-action="fray-applyDamage"]', count: 0 },
    ]),
    make("undone", undone, names, [
      { selector: '[data-action="fray-applyDamage"]', count: 1 },
      { selector: ".fray-forced", count: 0 },
    ]),
  ];
}

/** The GM's opposed test card (HB-ACT-05): Zeven's Firearms against the guard's Dodge, after one tie. */
async function opposedCase(i18n: Localizer): Promise<RenderCase> {
  const side = (id: string) => ({ id, modifiers: [{ label: "FRAY.Mod.HitboxSkill", value: 4, rule: "HB-ACT-05" as const }] });
  const result = await opposedTest(side("a"), side("b"), new ScriptedRoller([3, 3, 3, 3, 6, 6, 1, 1]));
  const rows = [
    { name: "Zeven", skill: "Firearms", formula: "2d6 + 4" },
    { name: "Security Guard", skill: "Dodge", formula: "2d6 + 4" },
  ];
  return {
    id: "hitbox-opposed",
    title: "opposed test",
    kind: "chat",
    classes: [],
    width: 300,
    height: 0,
    templates: ["templates/hitbox/opposed.hbs"],
    context: opposedContext(result, rows, i18n) as unknown as Dict,
    expect: [
      { selector: ".fray-hb-opposed tbody tr", count: 2 },
      { selector: ".fray-result", text: "ZEVEN WINS" },
      { selector: ".fray-comparison", text: "after 1 tie rolled again" },
    ],
  };
}

/**
 * The attack dialog in a Hitbox world (HB-ATK-01, HB-MOD-02, HB-MOD-03, HB-ACT-04, HB-ATK-03,
 * HB-ATK-05, HB-ATK-02): the guard's three-shot pistol at Zeven 15 ft away, from Hitbox's own
 * situation fields (called shot, shots this turn, the target flags, the GM's modifier).
 */
function dialogCase(i18n: Localizer): RenderCase {
  const g = combatant({ ...guard(), statuses: [] }, "guard");
  const z = combatant({ ...zeven(), statuses: ["goingProne"] }, "zeven");
  const weapon = g.weapons.find((w) => w.id === "hBi1SecuriDuty01")!;
  const data: AttackDialogData = {
    ruleset: hitbox as never,
    options: OPTIONS,
    attacker: g,
    weapon: { id: weapon.id, name: weapon.name, modes: [] },
    targets: [{ id: "zeven", name: "Zeven", combatant: z, rangeMetres: 4.572 }],
    units: HITBOX_MOVEMENT_UNITS,
  };
  const choices = dialogDefaults(data);
  const field = (name: string, count = 1) => ({ selector: `[name="${name}"]`, count });
  return {
    id: "hitbox-dialog-attack",
    title: "Attack with Duty Pistol",
    kind: "dialog",
    classes: ["dialog", "fray", "fray-attack-dialog"],
    width: 400,
    height: 0,
    templates: ["templates/dialog/attack-dialog.hbs"],
    buttons: ATTACK_DIALOG_BUTTONS,
    context: dialogContext(data, choices, i18n),
    expect: [
      field("target-zeven"),
      // HB-MOD-01: the range in feet, as Hitbox scenes measure.
      { selector: ".fray-dialog-target .fray-range", text: "15.0 ft" },
      { selector: '[data-odds-for="zeven"]', text: oddsText(i18n, data, data.targets[0]!, choices) },
      { selector: 'select[name="situation.zeven.calledShot"] option', count: 7 },
      { selector: 'input[type="number"][name="situation.shots"][max="3"]', count: 1 },
      ...["halfHidden", "dark", "targetProne", "targetNearCover", "targetUnaware", "targetThreatened"].map((n) =>
        field(`situation.zeven.${n}`),
      ),
      // HB-ACT-04: Zeven went prone this turn: the flag is ticked by default.
      { selector: 'input[name="situation.zeven.targetWentProne"]:checked', count: 1 },
      field("situation.misc"),
      field("modeId", 0),
    ],
  };
}

/**
 * The tracker while a step is open (HB-ACT-01, HB-ACT-03, HB-ACT-05), as the GM sees it: the
 * phase banner, the step banner with Opposed test and End step, the turn's plan with Zeven's shot
 * pre-empting, and the rows' revealed declarations with their quick actions.
 */
function trackerCase(i18n: Localizer): RenderCase {
  const phase = phaseBannerHtml({ order: "simultaneous", phase: "resolve", complete: true, canReveal: false, rows: [] }, i18n);
  const step = stepBannerHtml({ step: 1, held: 1, canEnd: true }, i18n);
  const plan = planHtml(
    {
      canMark: true,
      steps: [
        { step: 1, preempts: true, state: "current", combatants: [{ id: "z", name: "Zeven", declared: true }] },
        { step: 2, preempts: false, state: "next", combatants: [{ id: "g", name: "Security Guard", declared: true }] },
      ],
    },
    i18n,
  );
  const labels = new Map([
    ["attack", "FRAY.Action.attack"],
    ["run", "FRAY.Hitbox.Move.run"],
    ["draw", "FRAY.Hitbox.Play.Action.draw"],
    ["prone", "FRAY.Hitbox.Play.Action.prone"],
  ]);
  const row = (name: string, visible: { round: number; text: string; action?: string; quick?: string[] }) =>
    `<li class="combatant"><span class="token-name"><strong>${name}</strong>${declarationRowHtml({ id: name, declaresNow: false, canDeclare: false, declared: true, visible }, i18n, labels)}</span></li>`;
  const rows =
    `<ol class="combat-tracker">` +
    row("Zeven", { round: 2, text: "Shoot him in the head", action: "attack", quick: ["prone"] }) +
    row("Security Guard", { round: 2, text: "Two shots at Zeven", action: "attack", quick: ["draw"] }) +
    `</ol>`;
  return {
    id: "hitbox-tracker-steps",
    title: "Combat tracker: the turn's steps",
    kind: "panel",
    classes: ["fray"],
    width: 300,
    height: 0,
    templates: ["test/support/render/markup.hbs"],
    context: { classes: "combat-sidebar", html: phase + step + plan + rows },
    expect: [
      { selector: ".fray-hitbox-step", text: "Step 1" },
      { selector: "button.fray-opposed", count: 1 },
      { selector: "button.fray-end-step", count: 1 },
      { selector: ".fray-plan-step.current.preempts", text: "Zeven" },
      { selector: "button.fray-preempt", count: 2 },
      { selector: ".fray-declaration-quick", count: 2 },
    ],
  };
}

/** The GM's opposed-test form (HB-ACT-05): two combatants and a skill each. */
function opposedFormCase(i18n: Localizer): RenderCase {
  return {
    id: "hitbox-dialog-opposed",
    title: "Opposed test",
    kind: "dialog",
    classes: ["dialog", "fray"],
    width: 360,
    height: 0,
    templates: ["test/support/render/markup.hbs"],
    buttons: OPPOSED_DIALOG_BUTTONS,
    context: {
      classes: "dialog-content",
      html: opposedFormHtml(
        [
          { id: "z", name: "Zeven" },
          { id: "g", name: "Security Guard" },
        ],
        i18n,
      ),
    },
    expect: [
      { selector: 'select[name="a"] option', count: 2 },
      { selector: 'select[name="skillB"] option[selected]', text: "Dodge" },
    ],
  };
}

/** Every Hitbox render case. */
export async function hitboxCases(sheetI18n: SheetI18n, i18n: Localizer): Promise<RenderCase[]> {
  return [
    ...sheetCases(sheetI18n),
    ...itemCases(sheetI18n),
    ...(await cardCases(i18n)),
    await opposedCase(i18n),
    dialogCase(i18n),
    trackerCase(i18n),
    opposedFormCase(i18n),
  ];
}
