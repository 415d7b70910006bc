/**
 * Zones' render cases: the character sheet (attributes and combat tabs), the NPC stat block, the
 * firearm, grenade and armor sheets, the attack dialog of a burst, and the attack card of the
 * seed's burst (each bullet with its hit zone, the damage applied) and of a melee attack the
 * defender dodged, each context from the functions the sheets, dialog and card use, with real
 * Zones results rolled with scripted dice.
 */
import { ScriptedRoller } from "../../../src/rules/core/dice/port.js";
import type { AttackRequest } from "../../../src/rules/core/contract.js";
import { zones, zonesCombatantFromActor, type ZonesCombatant } from "../../../src/rules/zones/index.js";
import { attackMessageContext, type Localizer } from "../../../src/foundry/attack-card.js";
import { ATTACK_DIALOG_BUTTONS, dialogContext, dialogDefaults, type AttackDialogData } from "../../../src/foundry/chat/attack-dialog.js";
import { attackTarget, storable } from "../../../src/foundry/logic/attack-state.js";
import { withApplied, withDamage, withReaction, type TargetState } from "../../../src/foundry/logic/card.js";
import { undoRecord } from "../../../src/foundry/logic/undo.js";
import { itemSheetContext, type SheetI18n } from "../../../src/foundry/sheets/context.js";
import { zonesCardDetail, zonesReactOnCard } from "../../../src/foundry/rulesets/zones/card.js";
import {
  ZONES_SHEET_PARTS,
  zonesActorSheetContext,
  zonesItemSheetContext,
  zonesWeaponModes,
} from "../../../src/foundry/rulesets/zones/sheet-context.js";
import { packDoc, type RenderCase } from "./contexts.js";

const OPTIONS = zones.defaults();

/** Template path of a Zones sheet part; `tabs`, `conditions`, `biography` are the generic ones. */
const partTemplate = (part: string) =>
  part.startsWith("zones") ? `templates/zones/${part.slice(5).toLowerCase()}.hbs` : `templates/actor/${part}.hbs`;

/** The seed's rifleman (DEX +1, PER +1, Firearms 3) with a carbine, a knife and a grenade, a soft vest worn. */
function rifleman() {
  return {
    _id: "rifleman",
    name: "Rifleman",
    type: "character",
    img: null,
    statuses: ["unaware"],
    system: {
      ruleset: "zones",
      attributes: { STR: 0, DEX: 1, CON: 0, PER: 1 },
      skills: { firearms: 3, melee: 1, throwing: 1, dodge: 1, stealth: 1, notice: 2 },
      hp: { value: 21, max: 28 },
      speed: { value: 5, max: 8 },
      effort: { value: 3, max: 3 },
      stance: "kneeling",
      size: "medium",
      movement: "subtle",
      aim: 1,
      group: "players",
      biography: "",
    },
    items: [
      { ...packDoc("zones-weapons", "Harrow Carbine"), _id: "carbine" },
      {
        ...packDoc("zones-weapons", "Warden 9 Pistol"),
        _id: "pistol",
        system: { ...(packDoc("zones-weapons", "Warden 9 Pistol").system as object), malfunction: "stovepipe", loaded: 4 },
      },
      { ...packDoc("zones-weapons", "Fieldcraft Knife"), _id: "knife" },
      { ...packDoc("zones-weapons", "Hornet Fragmentation Grenade"), _id: "grenade" },
      { ...packDoc("zones-armor", "Soft Body Vest"), _id: "vest" },
    ],
  };
}

/** A combatant of a source, as the binding reads a token's actor. */
function combatant(source: object, id: string): ZonesCombatant {
  return zonesCombatantFromActor(source as never, { id });
}

/** The Perimeter Sentry of the pack (kneeling, soft vest). */
const sentrySource = () => packDoc("zones-npcs", "Perimeter Sentry");

/** One stored target of the attack card, through `attackTarget` as the workflow stores it. */
async function attacked(
  attacker: ZonesCombatant,
  target: ZonesCombatant,
  request: Omit<AttackRequest, "attackerId" | "targetId">,
  dice: number[],
) {
  const who = { actorUuid: `Actor.${target.id}`, tokenUuid: `Scene.s.Token.${target.id}`, name: target.name };
  const full = { attackerId: attacker.id, targetId: target.id, ...request };
  const { state } = await attackTarget(zones, who, full, attacker, target, new ScriptedRoller(dice), OPTIONS);
  return { state, input: zones.input(state.request, attacker, target, OPTIONS) };
}

/** The Zones sheet, dialog and card cases. */
export async function zonesCases(sheetI18n: SheetI18n, i18n: Localizer): Promise<RenderCase[]> {
  const cases: RenderCase[] = [];
  const source = rifleman();
  const context = (tab: string) =>
    zonesActorSheetContext({
      actor: source as never,
      ruleset: "zones",
      editable: true,
      enrichedBiography: "",
      activeTab: tab,
      i18n: sheetI18n,
    });
  const sheet = { kind: "sheet" as const, classes: ["fray", "sheet", "actor"], width: 560, height: 640 };
  cases.push({
    ...sheet,
    id: "zones-character-attributes",
    title: source.name,
    templates: ZONES_SHEET_PARTS.character.map(partTemplate),
    context: context("attributes"),
    expect: [
      { selector: 'input[name="system.hp.value"]', count: 1, value: "21" },
      { selector: 'input[name="system.speed.value"]', count: 1, value: "5" },
      { selector: 'input[name="system.effort.value"]', count: 1, value: "3" },
      { selector: '[data-ruleset-action="stance"]', count: 4 },
      { selector: '[data-ruleset-action="stance"].active', count: 1, text: "Kneeling" },
      { selector: '.fray-tab.active[data-tab="attributes"]', count: 1 },
      { selector: '[data-action="rollSkill"]', count: 6 },
      { selector: '[data-skill="firearms"] [data-action="rollSkill"]', text: "1d10 + 5" },
      { selector: 'input[name="system.attributes.PER"]', count: 1, value: "1" },
      { selector: '[data-action="tab"]', count: 4 },
    ],
  });
  cases.push({
    ...sheet,
    id: "zones-character-combat",
    title: source.name,
    templates: ZONES_SHEET_PARTS.character.map(partTemplate),
    context: context("combat"),
    expect: [
      { selector: '.fray-tab.active[data-tab="combat"]', count: 1 },
      { selector: '.fray-tab.active [data-action="attack"]', count: 4 },
      { selector: '.fray-tab.active [data-item-id="carbine"] select[data-mode-select] option', count: 3 },
      { selector: '.fray-tab.active [data-item-id="carbine"] .fray-item-stats', text: "30/30 rounds, 4 spare magazines" },
      { selector: '.fray-tab.active [data-item-id="pistol"] [data-ruleset-action="reload"]', count: 1 },
      { selector: '.fray-tab.active [data-item-id="pistol"] [data-ruleset-action="clearMalfunction"]', count: 1 },
      { selector: '.fray-tab.active [data-item-id="grenade"] .fray-item-stats', text: "radius" },
      // ZN-SUP-01: suppressing fire from drawn, loaded firearms (the carbine and the pistol), not the knife.
      { selector: '.fray-tab.active [data-item-id="carbine"] [data-ruleset-action="suppress"]', count: 1 },
      { selector: '.fray-tab.active [data-item-id="knife"] [data-ruleset-action="suppress"]', count: 0 },
      { selector: '.fray-tab.active [data-ruleset-action="aim"]', count: 1 },
      { selector: '.fray-tab.active [data-ruleset-action="regainSpeed"]', count: 1 },
      { selector: '.fray-tab.active [data-zone="torso"] strong', text: "4" },
    ],
  });
  const npc = packDoc("zones-npcs", "Breacher");
  cases.push({
    ...sheet,
    id: "zones-npc-breacher",
    title: npc.name,
    templates: ZONES_SHEET_PARTS.npc.map(partTemplate),
    context: zonesActorSheetContext({ actor: npc as never, ruleset: "zones", editable: true, enrichedBiography: "", i18n: sheetI18n }),
    expect: [
      { selector: '[data-action="attack"]', count: ((npc.items ?? []) as { type: string }[]).filter((i) => i.type === "weapon").length },
      { selector: '[data-action="rollSkill"]', count: 6 },
      { selector: 'select[name="system.stance"]', count: 1 },
      { selector: 'input[name="system.speed.value"]', count: 1 },
    ],
  });
  for (const [id, pack, name, expect] of [
    [
      "firearm",
      "zones-weapons",
      "Harrow Carbine",
      ["recoil", "burst", "auto", "magazine", "loaded", "spareMagazines", "reloadActions", "malfunction", "carry"],
    ],
    ["grenade", "zones-weapons", "Hornet Fragmentation Grenade", ["effectiveRadius", "casualtyRadius", "effectiveRange"]],
    ["armor", "zones-armor", "Plate Carrier", ["zones.head", "zones.torso", "zones.arms", "zones.legs", "fullBody", "equipped"]],
  ] as const) {
    const doc = packDoc(pack, name);
    cases.push({
      ...sheet,
      id: `zones-item-${id}`,
      title: doc.name,
      classes: ["fray", "sheet", "item"],
      templates: ["templates/zones/item-sheet.hbs"],
      context: itemSheetContext(
        { item: { ...doc, img: doc.img ?? null } as never, ruleset: "zones", editable: true, enrichedDescription: "", i18n: sheetI18n },
        zonesItemSheetContext,
      ),
      expect: [
        { selector: 'input[name="name"]', count: 1 },
        ...expect.map((f) => ({ selector: `[name="system.${f}"]`, count: 1 })),
        // ZN-DMG-01: a weapon's damage types as a box per type, those of the weapon ticked.
        ...(id === "armor"
          ? []
          : [
              { selector: 'multi-checkbox[name="system.damageTypes"] input[type="checkbox"]', count: 6 },
              {
                selector: 'multi-checkbox[name="system.damageTypes"] input:checked',
                count: ((doc.system as { damageTypes?: string[] }).damageTypes ?? []).length,
              },
            ]),
      ],
    });
  }

  // The attack dialog of the seed's burst: range 100 m, the sentry kneeling.
  const shooter = combatant({ ...source, statuses: [] }, "rifleman");
  const sentry = combatant(sentrySource(), "sentry");
  const data: AttackDialogData = {
    ruleset: zones as never,
    options: OPTIONS,
    attacker: shooter,
    weapon: { id: "carbine", name: "Harrow Carbine", modes: zonesWeaponModes(source.items[0] as never, sheetI18n) },
    targets: [{ id: "sentry", name: sentry.name, combatant: sentry, rangeMetres: 100 }],
    modeId: "burst",
  };
  cases.push({
    id: "zones-attack-dialog-burst",
    title: "Harrow Carbine",
    kind: "dialog",
    classes: ["dialog", "fray", "fray-attack-dialog"],
    width: 400,
    height: 0,
    templates: ["templates/dialog/attack-dialog.hbs"],
    buttons: ATTACK_DIALOG_BUTTONS,
    context: dialogContext(data, dialogDefaults(data), i18n),
    expect: [
      { selector: '[name="situation.sentry.targetSize"]', count: 1, value: "small" },
      // ZN-RNG-01: the environment's conditions as checkboxes, none ticked by default.
      { selector: 'input[type="checkbox"][name="situation.environment"]', count: 4 },
      { selector: 'input[name="situation.environment"]:checked', count: 0 },
      { selector: '[name="situation.malfunction"]', count: 1 },
      // ZN-BST-01: single shot, burst and full auto, the burst picked on the weapon row selected.
      { selector: 'select[name="modeId"] option', count: 3 },
      { selector: 'select[name="modeId"] option[value="burst"]:checked', count: 1 },
    ],
  });

  // The seed's burst at dusk: 13 against 13, one bullet of three, torso (3 + 4), 2d6+2 = 11 applied.
  const standing = combatant({ ...source, statuses: [], system: { ...source.system, stance: "standing", aim: 0 } }, "rifleman");
  const burst = await attacked(
    standing,
    sentry,
    { weaponId: "carbine", modeId: "burst", distanceMetres: 100, situation: { environment: ["lowLight"] } },
    [8, 3, 4],
  );
  const rolled = withDamage(
    burst.state,
    storable(await zones.rollDamage(burst.state.result, burst.input, new ScriptedRoller([4, 5]), OPTIONS)),
  );
  const report = storable(zones.applyDamage(sentry, rolled.damage!, OPTIONS));
  const applied = withApplied(rolled, undoRecord(rolled.actorUuid, report, "gm", "s1"), report);
  const card = (id: string, targets: TargetState[], weapon: string, expect: RenderCase["expect"]): RenderCase => ({
    id: `zones-attack-card-${id}`,
    title: `Zones attack card: ${id}`,
    kind: "chat",
    classes: [],
    width: 300,
    height: 0,
    templates: ["templates/chat/attack-card.hbs"],
    context: attackMessageContext(targets, { attacker: "Rifleman", weapon }, i18n, { detail: zonesCardDetail }) as unknown as Record<
      string,
      unknown
    >,
    expect,
  });
  cases.push(
    card("burst", [burst.state], "Harrow Carbine", [
      { selector: ".fray-ruleset-rows tr", count: 6 },
      { selector: ".fray-ruleset-rows tr.outcome-hit", count: 1, text: "Bullet 1: 13 against 13" },
      { selector: ".fray-ruleset-rows tr.outcome-miss", count: 2 },
      { selector: 'button[data-action="fray-rollDamage"]', count: 1 },
    ]),
    card("burst-applied", [applied], "Harrow Carbine", [
      { selector: ".fray-steps tbody tr", count: report.steps.length },
      { selector: ".fray-vitals", text: "12/26" },
      { selector: 'button[data-action="fray-undoDamage"]', count: 1 },
    ]),
  );

  // A knife at the sentry, who dodges on the card (9 + 1 = 10 beats 7 + 2 = 9).
  const knife = await attacked(standing, sentry, { weaponId: "knife", distanceMetres: 1.5 }, [7, 3, 4]);
  const option = zones.reactions(knife.input, undefined, OPTIONS).find((r) => r.id === "dodge")!;
  const dodged = withReaction(knife.state, "dodge", storable(await zonesReactOnCard(knife.state.result, option, new ScriptedRoller([9]))));
  cases.push(
    card("dodged", [dodged], "Fieldcraft Knife", [
      { selector: ".fray-reaction", count: 1 },
      { selector: ".fray-result", text: "DODGED" },
      { selector: ".fray-card-buttons", count: 0 },
    ]),
  );
  return cases;
}
