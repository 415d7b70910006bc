/**
 * Render cases of Critical (templates/critical/ and the attack card's Critical sections), built by
 * the same functions the sheets and the card use:
 * - the character sheet of the Sword Fighter carrying a bleeding wound, a burn, an injury, a
 *   penalty and a dying count-down, with its treatment buttons; the Pistol Guard's stat block;
 * - the weapon and armor sheets;
 * - the attack card of the duel example: Kara's open-ended cut read on the sword table (23EP),
 *   its Puncture E critical rolled, applied, undone; the guard's fumble; a hits-only shot;
 * - the parry dialog: Kara splitting her OB over a guard's pistol (2:1) and a club (1:1);
 * - the attack dialog of the guard's shot at Kara: OB less its own parry, Kara's DB with hers,
 *   the chance of each outcome;
 * - the maneuver dialog and card: Kara's 80 % maneuver, left to the GM;
 * - the combat tracker as the GM sees it: the declaration phase lowest initiative first with the
 *   Declare and Parry buttons, then the resolve phase with Kara delaying; each row's AP pool.
 */
import {
  critical,
  delay as coreDelay,
  parriedOb,
  parryAllocation,
  criticalCombatantFromActor,
  criticalForcedCheck,
  rollManeuver,
  upkeep,
  withVitals,
  type CriticalCombatant,
} from "../../../src/rules/critical/index.js";
import { ScriptedRoller, type DiceRoller } from "../../../src/rules/core/dice/port.js";
import type { AttackRequest } from "../../../src/rules/core/contract.js";
import { attackMessageContext, type Localizer } from "../../../src/foundry/attack-card.js";
import { attackTarget, storable } from "../../../src/foundry/logic/attack-state.js";
import { withApplied, withDamage, withUndone, type TargetState } from "../../../src/foundry/logic/card.js";
import { undoRecord } from "../../../src/foundry/logic/undo.js";
import { criticalCardRules } from "../../../src/foundry/rulesets/critical/card.js";
import { ATTACK_DIALOG_BUTTONS, dialogContext, dialogDefaults, type AttackDialogData } from "../../../src/foundry/chat/attack-dialog.js";
import { criticalDialogDetails } from "../../../src/foundry/rulesets/critical/dialog.js";
import { MANEUVER_DIALOG_BUTTONS, maneuverContext, maneuverDialogContext } from "../../../src/foundry/rulesets/critical/maneuver-view.js";
import { PARRY_DIALOG_BUTTONS, parryDialogContext } from "../../../src/foundry/rulesets/critical/parry-view.js";
import { selfDisciplineContext } from "../../../src/foundry/rulesets/critical/self-discipline-view.js";
import { upkeepContext } from "../../../src/foundry/rulesets/critical/upkeep-view.js";
import {
  criticalActorSheetContext,
  criticalItemSheetContext,
  CRITICAL_ITEM_TEMPLATE,
} from "../../../src/foundry/rulesets/critical/sheet-context.js";
import { itemSheetContext, type SheetI18n } from "../../../src/foundry/sheets/context.js";
import { spend } from "../../../src/rules/core/economy.js";
import { declarationRowHtml, declarationView, phaseBannerHtml, type DeclaringEntry } from "../../../src/foundry/combat/declarations.js";
import { poolBadgesHtml } from "../../../src/foundry/combat/tracker-view.js";
import { poolBadges } from "../../../src/foundry/logic/economy.js";
import { delayChoices, delayOf, type OrderEntry } from "../../../src/foundry/logic/delay.js";
import { declaringOrder, delayPartHtml, parryButtonHtml } from "../../../src/foundry/rulesets/critical/tracker-view.js";
import { packDoc, type RenderCase } from "./contexts.js";

const ACTOR = "templates/critical/actor.hbs";
const ITEM = CRITICAL_ITEM_TEMPLATE.replace(/^systems\/fray\//, "");
const OPTIONS = critical.defaults();

type Raw = Record<string, unknown>;

/** A compendium NPC of Critical as the core reads it, with an id. */
function combatant(name: string, id: string, extra: Raw = {}): CriticalCombatant {
  const doc = packDoc("critical-npcs", name);
  return criticalCombatantFromActor({ ...(doc as never as Raw), _id: id, system: { ...(doc.system as Raw), ...extra } } as never);
}

/** One target of a Critical attack, resolved with scripted dice into the state the card stores. */
async function attack(attacker: CriticalCombatant, target: CriticalCombatant, weaponId: string, dice: DiceRoller): Promise<TargetState> {
  const request: AttackRequest = { attackerId: attacker.id, targetId: target.id, weaponId };
  const who = { actorUuid: `Actor.${target.id}`, tokenUuid: `Scene.s.Token.${target.id}`, name: target.name };
  return (await attackTarget(critical, who, request, attacker, target, dice, OPTIONS)).state;
}

/** A chat case of the Critical attack card. */
function card(
  id: string,
  targets: TargetState[],
  names: { attacker: string; weapon: string },
  i18n: Localizer,
  expect: RenderCase["expect"],
): RenderCase {
  const context = attackMessageContext(targets, names, i18n, criticalCardRules);
  return {
    id: `chat-critical-card-${id}`,
    title: `Critical attack card: ${id}`,
    kind: "chat",
    classes: [],
    width: 300,
    height: 0,
    templates: ["templates/chat/attack-card.hbs"],
    context: context as unknown as Record<string, unknown>,
    expect: [{ selector: ".fray-card.fray-attack", count: 1 }, { selector: 'button[data-action="fray-parry"]', count: 0 }, ...expect],
  };
}

/**
 * The Critical cases: sheets, item sheets, attack card phases; the critical card once more as a
 * German reader sees it (its built-in wound text in German, CR-CRT-02).
 */
export async function criticalCases(sheetI18n: SheetI18n, i18n: Localizer, i18nDe: Localizer): Promise<RenderCase[]> {
  const cases: RenderCase[] = [];
  const fighter = packDoc("critical-npcs", "Sword Fighter");
  const wounded = {
    ...fighter,
    _id: "kara",
    name: "Kara Voss",
    type: "character",
    statuses: ["down"],
    system: {
      ...(fighter.system as Raw),
      hits: { value: -4, max: 48 },
      stun: 2,
      effects: [
        {
          id: "bleed-1",
          kind: "bleed",
          rule: "CR-BLD-01",
          label: "FRAY.Critical.Effect.bleed",
          value: 5,
          location: "weaponArm",
          treated: ["staunch"],
        },
        { id: "burn-1", kind: "burn", rule: "CR-BLD-01", label: "FRAY.Critical.Effect.burn", value: 2, rounds: 3, location: "chest" },
        {
          id: "injury-1",
          kind: "injury",
          rule: "CR-CRT-02",
          label: "The blade cuts the tendons of the leg.",
          location: "leg",
          stops: ["move"],
        },
        { id: "penalty-1", kind: "penalty", rule: "CR-CRT-02", label: "FRAY.Critical.Effect.penalty", value: -20, rounds: 2 },
        { id: "dying-1", kind: "dying", rule: "CR-DTH-01", label: "FRAY.Critical.Effect.dying", rounds: 3 },
      ],
    },
  };
  cases.push({
    id: "sheet-critical-character",
    title: "Kara Voss",
    kind: "sheet",
    classes: ["fray", "sheet", "actor"],
    width: 560,
    height: 900,
    templates: [ACTOR],
    context: criticalActorSheetContext({
      actor: wounded as never,
      ruleset: "critical",
      editable: true,
      enrichedBiography: String((fighter.system as Raw).biography ?? ""),
      i18n: sheetI18n,
    }),
    expect: [
      { selector: 'input[name="system.hits.value"]', value: "-4" },
      { selector: 'input[name="system.physique.ranks"]', count: 1 },
      { selector: 'input[name="system.selfDiscipline"]', count: 1 },
      { selector: '[data-action="attack"]', count: 2 },
      { selector: ".fray-weapon", text: "OB +75" },
      // Bleeding: staunch used; bandage, tourniquet, medical kit left. Burning: smother, drop and roll.
      { selector: '[data-action="rulesetAction"][data-op="treat"]', count: 5 },
      { selector: '[data-action="rulesetAction"][data-op="maneuver"]', count: 1 },
      { selector: '[data-method="staunch"]', count: 0 },
      { selector: ".fray-critical-dying", text: "Dying: 3 rounds left CR-DTH-01" },
      { selector: '.fray-critical-dying button.fray-first-aid[data-op="firstAid"]', text: "First aid" },
      { selector: 'button.fray-effect-start[data-action="startEffect"]', count: 1 },
      { selector: ".fray-critical-injuries", text: "The blade cuts the tendons of the leg." },
      { selector: ".fray-critical-effects", text: "Penalty -20 (2 rounds left)" },
      { selector: 'prose-mirror[name="system.biography"]', count: 1 },
    ],
  });
  const guard = packDoc("critical-npcs", "Pistol Guard");
  cases.push({
    id: "sheet-critical-npc",
    title: guard.name,
    kind: "sheet",
    classes: ["fray", "sheet", "actor"],
    width: 560,
    height: 640,
    templates: [ACTOR],
    context: criticalActorSheetContext({
      actor: guard as never,
      ruleset: "critical",
      editable: true,
      enrichedBiography: "",
      i18n: sheetI18n,
    }),
    expect: [
      { selector: '[data-action="attack"]', count: 2 },
      { selector: ".fray-empty", text: "No bleeding or burning wounds." },
      { selector: 'prose-mirror[name="system.biography"]', count: 0 },
    ],
  });
  for (const [id, pack, name] of [
    ["weapon", "critical-weapons", "Arming Sword"],
    ["armor", "critical-armor", "Ballistic Vest"],
  ] as const) {
    const doc = packDoc(pack, name);
    const input = {
      item: { ...doc, img: doc.img ?? null } as never,
      ruleset: "critical" as const,
      editable: true,
      enrichedDescription: "",
      i18n: sheetI18n,
    };
    cases.push({
      id: `item-critical-${id}`,
      title: doc.name,
      kind: "sheet",
      classes: ["fray", "sheet", "item"],
      width: 560,
      height: 640,
      templates: [ITEM],
      context: itemSheetContext(input, criticalItemSheetContext),
      expect:
        id === "weapon"
          ? [
              ...["weaponClass", "category", "skill", "bonus", "fumble"].map((f) => ({ selector: `[name="system.${f}"]`, count: 1 })),
              { selector: 'select[name="system.weaponClass"]', value: "sword" },
              { selector: ".fray-hint", text: "1:1 CR-PAR-02" },
            ]
          : [
              ...["armorType", "defense", "maneuverPenalty", "equipped"].map((f) => ({ selector: `[name="system.${f}"]`, count: 1 })),
              { selector: 'select[name="system.armorType"]', value: "ballistic" },
            ],
    });
  }

  const kara = combatant("Sword Fighter", "kara", { parry: { guard: 20 } });
  const guardC = combatant("Pistol Guard", "guard");
  const names = { attacker: "Kara Voss", weapon: "Arming Sword" };
  const cut = await attack(kara, guardC, "fRc2SwordFtItm10", new ScriptedRoller([98, 37]));
  const input = critical.input(cut.request, kara, guardC, OPTIONS);
  const rolled = withDamage(cut, storable(await critical.rollDamage(cut.result, input, new ScriptedRoller([4]), OPTIONS)));
  const report = storable(critical.applyDamage(guardC, rolled.damage!, OPTIONS));
  const applied = withApplied(rolled, undoRecord(rolled.actorUuid, report, "gm", "s1"), report);
  const undone = withUndone(applied);
  const fumble = await attack(guardC, kara, "fRc2PistolGItm10", new ScriptedRoller([2]));
  const shot = await attack(guardC, kara, "fRc2PistolGItm10", new ScriptedRoller([45]));
  const guardNames = { attacker: "Pistol Guard", weapon: "Service Pistol" };
  cases.push(
    card("table", [cut], names, i18n, [
      { selector: ".fray-ruleset-section.attack-table", text: "23EP" },
      { selector: ".fray-ruleset-section.attack-table", text: "Open-ended roll: 98 + 37 = 135" },
      { selector: ".fray-ruleset-section.attack-table", text: "185 is over 150: +3 to the critical roll" },
      {
        selector:
          '.fray-ruleset-section.attack-table a.content-link[data-uuid="Compendium.fray.critical-attack-tables.RollTable.fRc4Aswobal00000"]',
        count: 1,
      },
      { selector: ".fray-result", text: "23 HITS, CRITICAL E PUNCTURE" },
      { selector: 'button[data-action="fray-rollDamage"]', text: "Roll the critical" },
      { selector: ".fray-damage", count: 0 },
    ]),
    card("critical", [rolled], names, i18n, [
      { selector: ".fray-ruleset-section.critical h4", text: "Critical E Puncture" },
      {
        selector: '.fray-ruleset-section.critical a.content-link[data-uuid="Compendium.fray.critical-tables.RollTable.fRc3CritTablePE0"]',
        count: 1,
      },
      { selector: ".fray-ruleset-section.critical .fray-section-text", text: "A deep stab between the ribs." },
      { selector: ".fray-ruleset-section.critical", text: "Bleeding 5 hits/round" },
      { selector: 'button[data-action="fray-applyDamage"]', text: "Apply hits and critical" },
    ]),
    {
      ...card("critical-de", [rolled], names, i18nDe, [
        { selector: ".fray-ruleset-section.critical h4", text: "Kritischer Treffer E Stich" },
        { selector: ".fray-ruleset-section.critical .fray-section-text", text: "Ein tiefer Stich zwischen die Rippen." },
        { selector: 'button[data-action="fray-applyDamage"]', text: "Treffer und kritischen Treffer anwenden" },
      ]),
      lang: "de",
      height: 1400,
    },
    card("applied", [applied], names, i18n, [
      { selector: ".fray-steps tbody tr", count: report.steps.length },
      { selector: 'button[data-action="fray-undoDamage"]', count: 1 },
    ]),
    card("undone", [undone], names, i18n, [
      { selector: ".fray-steps.undone", count: 1 },
      { selector: 'button[data-action="fray-applyDamage"]', count: 1 },
    ]),
    card("fumble", [fumble], guardNames, i18n, [
      { selector: ".fray-ruleset-section.fumble", text: "The fumble ends the attacker's round" },
      { selector: ".fray-result", text: "FUMBLE" },
      { selector: ".fray-card-buttons", count: 0 },
    ]),
    card("hits-only", [shot], guardNames, i18n, [
      { selector: ".fray-result", text: "9 HITS" },
      { selector: ".fray-ruleset-section.attack-table", text: "Result CR-ATK-02 9" },
      { selector: 'button[data-action="fray-rollDamage"]', text: "Take the hits" },
    ]),
  );
  const flag = { actorUuid: "Actor.guard", name: "Pistol Guard", hits: -11, key: "m1-0" };
  const sd = await criticalForcedCheck(
    combatant("Pistol Guard", "guard", { hits: { value: -11, max: 40 } }),
    { id: "selfDiscipline", label: "FRAY.Check.SelfDiscipline", rule: "CR-HIT-02", difficulty: 101 },
    new ScriptedRoller([99]),
    OPTIONS,
  );
  const result = {
    formula: sd.check.roll.formula,
    natural: sd.check.natural,
    lines: sd.check.modifiers,
    total: sd.check.total,
    success: sd.success,
  };
  for (const [id, f] of [
    ["prompt", flag],
    ["result", { ...flag, result }],
  ] as const) {
    cases.push({
      id: `chat-critical-self-discipline-${id}`,
      title: `Self Discipline ${id}`,
      kind: "chat",
      classes: [],
      width: 300,
      height: 0,
      templates: ["templates/critical/self-discipline.hbs"],
      context: selfDisciplineContext(f, i18n) as unknown as Record<string, unknown>,
      expect:
        id === "prompt"
          ? [{ selector: 'button[data-action="fray-selfDiscipline"]', text: "Roll Self Discipline" }]
          : [
              { selector: ".fray-check tr.fray-total", text: "Total 93 / 101" },
              { selector: ".fray-result", text: "PISTOL GUARD FAILS AND FALLS UNCONSCIOUS" },
              { selector: 'button[data-action="fray-selfDiscipline"]', count: 0 },
            ],
    });
  }
  const hurt = withVitals(guardC, report.after);
  const tick = (await upkeep({ ...hurt, hits: { ...hurt.hits, value: 3 } }, new ScriptedRoller([40]))).report;
  const entry = {
    name: "Pistol Guard",
    hits: { before: tick.before.hp!.value, after: tick.after.hp!.value, max: tick.after.hp!.max },
    steps: tick.steps,
    check: { ...tick.checks![0]!.check, needed: 101, success: tick.checks![0]!.success },
    added: tick.added,
    removed: tick.removed ?? [],
  };
  cases.push({
    id: "chat-critical-upkeep",
    title: "Critical upkeep",
    kind: "chat",
    classes: [],
    width: 300,
    height: 0,
    templates: ["templates/critical/upkeep.hbs"],
    context: upkeepContext(3, [entry], i18n) as unknown as Record<string, unknown>,
    expect: [
      { selector: ".fray-card-header h3", text: "Start of round 3: upkeep" },
      { selector: ".fray-upkeep-entry h4", text: "Pistol Guard Hits -2/40" },
      { selector: ".fray-lines tr", text: "CR-BLD-01" },
      { selector: ".fray-upkeep-check tr.fray-total", text: "fails and falls unconscious" },
      { selector: ".fray-upkeep-conditions", text: "+ Unconscious" },
    ],
  });
  const parryView = parryAllocation(
    kara,
    [
      { id: "guard", name: "Pistol Guard", category: "missile" },
      { id: "thug", name: "Enforcer <b>", category: "melee" },
    ],
    { guard: 20, thug: 15 },
  );
  cases.push({
    id: "dialog-critical-parry",
    title: "Parry: Kara Voss",
    kind: "dialog",
    classes: ["dialog", "fray", "fray-parry"],
    width: 400,
    height: 0,
    templates: ["templates/critical/parry-dialog.hbs"],
    buttons: PARRY_DIALOG_BUTTONS,
    context: parryDialogContext(parryView, i18n) as unknown as Record<string, unknown>,
    expect: [
      { selector: ".fray-parry-pool", text: "OB to move into DB this round: 75" },
      { selector: 'tr[data-parry-foe="guard"] .fray-rate', text: "2:1 (missile)" },
      { selector: 'td[data-parry-db-for="guard"]', text: "DB +10" },
      { selector: 'td[data-parry-db-for="thug"]', text: "DB +15" },
      { selector: 'input[name="parry.thug"]', count: 1 },
      { selector: "[data-parry-left]", text: "OB left to attack with: 40 of 75" },
      { selector: "tr[data-parry-foe] .fray-label", text: "Enforcer <b>" },
    ],
  });
  const shooter = combatant("Pistol Guard", "guard", { parry: { kara: 10 } });
  const data: AttackDialogData = {
    ruleset: critical as never,
    options: OPTIONS,
    attacker: shooter,
    weapon: { id: "fRc2PistolGItm10", name: "Service Pistol", modes: [] },
    targets: [{ id: "kara", name: "Kara Voss", combatant: kara, rangeMetres: 12 }],
    details: criticalDialogDetails,
  };
  cases.push({
    id: "dialog-critical-attack",
    title: "Attack with Service Pistol",
    kind: "dialog",
    classes: ["dialog", "fray", "fray-attack-dialog"],
    width: 400,
    height: 0,
    templates: ["templates/dialog/attack-dialog.hbs"],
    buttons: ATTACK_DIALOG_BUTTONS,
    context: dialogContext(data, dialogDefaults(data), i18n),
    expect: [
      { selector: ".fray-dialog-details .fray-detail-line", count: 4 },
      { selector: ".fray-dialog-details .fray-detail-chance", count: 8 },
      { selector: ".fray-detail-line", text: "OB moved into parrying -10 CR-PAR-01" },
      { selector: ".fray-detail-line", text: "Parry: 20 OB at 2:1 (missile) +10 CR-PAR-02" },
      { selector: ".fray-detail-chance", text: "Fumble 2.0% CR-ATK-01" },
      { selector: ".fray-drop", text: /^Out: \d+\.\d\s?% · expected \d+\.\d HP$/ },
    ],
  });
  cases.push({
    id: "dialog-critical-attack-de",
    title: "Angriff mit Service Pistol",
    kind: "dialog",
    lang: "de",
    classes: ["dialog", "fray", "fray-attack-dialog"],
    width: 400,
    height: 0,
    templates: ["templates/dialog/attack-dialog.hbs"],
    buttons: ATTACK_DIALOG_BUTTONS,
    context: dialogContext(data, dialogDefaults(data), i18nDe),
    expect: [{ selector: ".fray-drop", text: /^Ausgeschaltet: \d+,\d\s?% · erwartet \d+,\d LP$/ }],
  });
  const maneuver = await rollManeuver(kara, { bonus: 30, difficulty: -20 }, new ScriptedRoller([60]), { maneuverShortfall: "gm" });
  cases.push(
    {
      id: "dialog-critical-maneuver",
      title: "Maneuver: Kara Voss",
      kind: "dialog",
      classes: ["dialog", "fray", "fray-maneuver"],
      width: 400,
      height: 0,
      templates: ["templates/critical/maneuver-dialog.hbs"],
      buttons: MANEUVER_DIALOG_BUTTONS,
      context: maneuverDialogContext(kara, i18n),
      expect: [
        { selector: 'select[name="skill"] option', count: 4 },
        { selector: 'input[name="difficulty"]', value: "0" },
        { selector: 'input[name="concentration"]', count: 1 },
      ],
    },
    {
      id: "chat-critical-maneuver",
      title: "Maneuver",
      kind: "chat",
      classes: [],
      width: 300,
      height: 0,
      templates: ["templates/critical/maneuver.hbs"],
      context: maneuverContext(
        {
          actorUuid: "Actor.kara",
          name: "Kara Voss",
          formula: maneuver.check.roll.formula,
          natural: maneuver.check.natural,
          lines: maneuver.check.modifiers,
          percent: maneuver.percent,
          outcome: maneuver.outcome,
          penalty: Math.min(0, maneuver.percent - 100),
        },
        i18n,
      ) as unknown as Record<string, unknown>,
      expect: [
        { selector: ".fray-card-header h3", text: "Kara Voss tries a maneuver CR-MAN-01" },
        { selector: ".fray-check tr.fray-total", text: "Total 65 %" },
        { selector: ".fray-result", text: "THE GM DECIDES" },
      ],
    },
  );
  cases.push(...trackerCases(i18n));
  return cases;
}

/** One tracker combatant of the render cases: the core's combatant, its initiative and what it did this round. */
interface TrackerFighter {
  core: CriticalCombatant;
  initiative: number;
  /** AP spent this round (CR-AP-01), through the core's economy. */
  spent?: number;
  declaration?: { round: number; text: string; action?: string };
  delay?: { round: number; after: string };
}

/**
 * The tracker rows of a Critical round as the GM sees them, built as the tracker builds them: the
 * phase banner, the rows in declaring order (CR-INI-02) or acting order (CR-INI-03), each with its
 * AP badge (CR-AP-01, CR-STN-01), its declaration with Declare and Parry (CR-PAR-01) where it
 * declares now, and its delay (CR-INI-03).
 */
function trackerHtml(
  fighters: TrackerFighter[],
  phase: "declare" | "resolve",
  round: number,
  currentId: string | null,
  i18n: Localizer,
): string {
  const entries: (OrderEntry & DeclaringEntry)[] = fighters.map((f) => ({
    id: f.core.id,
    initiative: f.initiative,
    name: f.core.name,
    player: f.core.id === "kara",
    out: false,
    owns: true,
    ...(f.declaration ? { declaration: f.declaration } : {}),
    ...(f.delay ? { delay: f.delay } : {}),
  }));
  const view = declarationView("lowest-first", phase, entries, { isGM: true })!;
  const order = phase === "declare" ? declaringOrder(entries, round, coreDelay) : declaringOrder(entries, round, coreDelay).reverse();
  const byId = new Map(fighters.map((f) => [f.core.id, f]));
  const labels = new Map(critical.actions(fighters[0]!.core, OPTIONS).map((a) => [a.id, a.label] as const));
  const rows = order.map((id) => {
    const f = byId.get(id)!;
    const fresh = critical.startRound(f.core, undefined, round, OPTIONS).economy;
    const economy = f.spent ? spend(fresh, { pools: { ap: f.spent } }) : fresh;
    const pools = poolBadgesHtml(poolBadges(economy, critical.economy(f.core, OPTIONS)), i18n);
    const row = view.rows.find((r) => r.id === id)!;
    let declaration = declarationRowHtml(row, i18n, labels);
    if (row.canDeclare) declaration = declaration.replace(/<\/div>$/, `${parryButtonHtml(id, parriedOb(f.core), i18n)}</div>`);
    const stored = delayOf(f.delay, round);
    const delay = delayPartHtml(
      {
        id,
        ...(stored ? { after: byId.get(stored.after)!.core.name } : {}),
        canDelay: delayChoices(entries, round, coreDelay, id, currentId).length > 0,
      },
      i18n,
    );
    return (
      `<li class="combatant" data-combatant-id="${id}" style="display: flex; gap: 0.4rem; padding: 0.2rem 0.5rem; border-bottom: 1px solid #8884">` +
      `<div class="token-name" style="flex: 1"><strong class="name">${f.core.name}</strong>` +
      `<div class="fray-economy">${pools}</div>${declaration}${delay}</div>` +
      `<div class="token-initiative"><span class="initiative">${f.initiative}</span></div></li>`
    );
  });
  return (
    phaseBannerHtml(view, i18n) +
    `<ol class="combat-tracker plain${phase === "declare" ? " fray-declaring-order" : ""}" style="list-style: none; margin: 0; padding: 0">${rows.join("")}</ol>`
  );
}

/**
 * The tracker cases of a Critical round (CR-INI-02, CR-INI-03, CR-AP-01, CR-STN-01, CR-PAR-01):
 * Kara (initiative 78), the stunned Pistol Guard (52, half AP) and the Enforcer (35). While they
 * declare, the Enforcer has declared, the guard declares now (Declare and Parry) and Kara waits;
 * once revealed, Kara delays until after the guard, who has spent 2 AP on his shot.
 */
function trackerCases(i18n: Localizer): RenderCase[] {
  const kara = combatant("Sword Fighter", "kara");
  const guard = combatant("Pistol Guard", "guard", { stun: 1, parry: { kara: 10 } });
  const enforcer = combatant("Enforcer", "enforcer");
  const round = 2;
  const declaring: TrackerFighter[] = [
    { core: kara, initiative: 78 },
    { core: guard, initiative: 52 },
    { core: enforcer, initiative: 35, declaration: { round, text: "Clubs Kara", action: "attack" } },
  ];
  const resolving: TrackerFighter[] = [
    { core: kara, initiative: 78, declaration: { round, text: "Cuts the guard", action: "attack" }, delay: { round, after: "guard" } },
    { core: guard, initiative: 52, spent: 2, declaration: { round, text: "Shoots Kara", action: "attack" } },
    { core: enforcer, initiative: 35, declaration: { round, text: "Clubs Kara", action: "attack" } },
  ];
  const tracker = (id: string, title: string, html: string, expect: RenderCase["expect"]): RenderCase => ({
    id: `critical-tracker-${id}`,
    title,
    kind: "panel",
    classes: ["fray"],
    width: 300,
    height: 0,
    templates: ["test/support/render/markup.hbs"],
    context: { classes: "combat-sidebar", html },
    expect,
  });
  return [
    tracker("declare", "Combat tracker: Critical declarations (GM)", trackerHtml(declaring, "declare", round, null, i18n), [
      { selector: ".fray-declaration-phase .fray-rule", text: "CR-INI-02" },
      // Lowest initiative first (CR-INI-02).
      { selector: ".combatant:first-child .name", text: "Enforcer" },
      { selector: ".combatant:last-child .name", text: "Sword Fighter" },
      { selector: "button.fray-declare", count: 1 },
      { selector: '[data-combatant-id="guard"] button.fray-parry-declare', text: "Parry (10 OB)" },
      { selector: '[data-combatant-id="kara"] .fray-declaration', count: 0 },
      // The stunned guard has half the AP (CR-STN-01).
      { selector: '[data-combatant-id="guard"] .fray-pool-ap', text: "2/2" },
      { selector: '[data-combatant-id="kara"] .fray-pool-ap', text: "4/4" },
      { selector: "button.fray-delay-button", count: 2 },
    ]),
    tracker("resolve", "Combat tracker: Critical round with a delay (GM)", trackerHtml(resolving, "resolve", round, "guard", i18n), [
      // Highest first, Kara acting right after the guard she waits for (CR-INI-03).
      { selector: ".combatant:first-child .name", text: "Pistol Guard" },
      { selector: ".combatant:nth-child(2) .name", text: "Sword Fighter" },
      { selector: '[data-combatant-id="kara"] .fray-delayed', text: "delays until after Pistol Guard CR-INI-03" },
      { selector: '[data-combatant-id="guard"] .fray-pool-ap.empty', text: "0/2" },
      { selector: "button.fray-parry-declare", count: 0 },
      { selector: '[data-combatant-id="kara"] button.fray-delay-button', count: 1 },
    ]),
  ];
}
