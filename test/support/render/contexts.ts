/**
 * The cases the render test draws: each template with a context produced by the functions the
 * sheets, chat cards and dialogs use, from the compendium sources and real UD10 results rolled
 * with scripted dice.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { DiceRoller } from "../../../src/rules/core/dice/port.js";
import { ScriptedRoller } from "../../../src/rules/core/dice/port.js";
import type { AttackPlan } from "../../../src/rules/core/ruleset.js";
import { ud10, type Ud10AttackInput, type Ud10Combatant } from "../../../src/rules/ud10/index.js";
import {
  attackMessageContext,
  type AttackMessageContext,
  type Localizer,
  type TargetCardContext,
} from "../../../src/foundry/attack-card.js";
import {
  ATTACK_DIALOG_BUTTONS,
  dialogContext,
  dialogDefaults,
  oddsText,
  type AttackDialogData,
  type DialogTarget,
} from "../../../src/foundry/chat/attack-dialog.js";
import type { FreeAttackPrompt } from "../../../src/foundry/chat/free-attack.js";
import type { AttackChoices } from "../../../src/foundry/logic/attack-options.js";
import {
  CARD_ACTIONS,
  withApplied,
  withDamage,
  withoutReaction,
  withReaction,
  withUndone,
  type CardAction,
  type TargetState,
} from "../../../src/foundry/logic/card.js";
import { leftBehind, type Placed } from "../../../src/foundry/logic/engagement.js";
import { setWorldActions } from "../../../src/foundry/logic/round-actions.js";
import { rollTracker, summaryRows, type TrackerEntry } from "../../../src/foundry/logic/initiative.js";
import { ud10Initiative } from "../../../src/foundry/rulesets/ud10/play.js";
import { attackTarget, storable } from "../../../src/foundry/logic/attack-state.js";
import { reactOnCard } from "../../../src/foundry/rulesets/ud10/card.js";
import type { AttackResult, DamagePacket } from "../../../src/rules/core/ruleset.js";
import type { DamageReport } from "../../../src/rules/core/types.js";
import { undoRecord, type UndoRecord } from "../../../src/foundry/logic/undo.js";
import type { ActorSource } from "../../../src/foundry/sources.js";
import { ud10CombatantFromActor } from "../../../src/foundry/rulesets/ud10/translate.js";
import { actorParts, actorSheetContext, itemSheetContext, ACTOR_TABS, type SheetI18n } from "../../../src/foundry/sheets/context.js";
import { critical, hitbox, zones } from "../../../src/rules/index.js";
import {
  UD10_SHEET_PARTS,
  ud10ActorSheetContext,
  ud10ItemSheetContext,
  ud10WeaponModes,
} from "../../../src/foundry/rulesets/ud10/sheet-context.js";
import { fighter, target } from "../../rules/ud10-fixtures.js";
import { readSources, type PackDoc } from "../packs.js";
import { ROOT } from "../foundry-stub.js";
import type { DialogButtonFace } from "../../../src/foundry/logic/dialog-buttons.js";

/** One rendering: the parts (template paths relative to the repository) and their context. */
export interface RenderCase {
  id: string;
  title: string;
  /**
   * A sheet window, a chat message in the sidebar, a dialog window sized to its content with its
   * buttons, or a panel: a piece of the sidebar (the combat tracker's) in a window sized to its
   * content, without a dialog's footer.
   */
  kind: "sheet" | "chat" | "dialog" | "panel";
  classes: string[];
  width: number;
  /** A sheet's height; for a chat card the page's height when taller than the default 900. */
  height: number;
  templates: string[];
  context: Record<string, unknown>;
  /** Foundry's theme the case is drawn in (`theme-dark` or `theme-light` on the body); light when absent. */
  theme?: "light" | "dark";
  /** The reader's language the templates are rendered in; English when absent. */
  lang?: "en" | "de";
  /**
   * Selectors that must be present, with the count expected (at least 1 when undefined); with
   * `text`, the visible text of the matches (joined by spaces, whitespace collapsed) must
   * contain the string or match the pattern; with `value`, the first match's value must equal it.
   */
  expect: { selector: string; count?: number; text?: string | RegExp; value?: string }[];
  /** A dialog's buttons, the list its code passes to DialogV2, drawn in its footer (a dialog needs them). */
  buttons?: readonly DialogButtonFace[];
}

/** A pack document by name. */
export function packDoc(pack: string, name: string): PackDoc {
  const found = readSources(pack).find((s) => s.doc.name === name);
  if (!found) throw new Error(`${pack} has no "${name}"`);
  return found.doc;
}

/** Template path of an actor part. */
const actorTemplate = (part: string) => `templates/actor/${part}.hbs`;

/** The cases of the actor sheet: a character (each tab), an NPC stat block, a generic view. */
export function actorCases(i18n: SheetI18n): RenderCase[] {
  // The sheet offers the world's actions of kind `other`: UD10's aim (UD-ATK-04) and those of UD-ACT-02.
  setWorldActions(() =>
    ud10.actions({ ...ud10CombatantFromActor(packDoc("ud10-npcs", "Veteran") as unknown as ActorSource), conditions: [] }, {}),
  );
  const roundActions: RenderCase["expect"] = ["aim", "ready", "reload", "useItem", "skill"].map((id) => ({
    selector: `[data-action="roundAction"][data-round-action="${id}"]`,
    count: 1,
    text: i18n.localize(id === "aim" ? "FRAY.Situation.Ud10.Action.aim" : `FRAY.Action.${id}`),
  }));
  const veteran = structuredClone(packDoc("ud10-npcs", "Veteran"));
  const weaponDocs = [
    packDoc("ud10-weapons", "Assault Rifle"),
    packDoc("ud10-weapons", "Machete"),
    packDoc("ud10-weapons", "Round Shield"),
  ];
  const character = {
    ...veteran,
    _id: "hero",
    name: "Ayla Brandt",
    type: "character",
    img: "icons/svg/mystery-man.svg",
    system: { ...veteran.system, group: "players", biography: "<p>A former border guard who <strong>never misses</strong> a chance.</p>" },
    items: [...((veteran.items ?? []) as PackDoc[]).filter((i) => i.type === "armor"), ...weaponDocs.map((w) => structuredClone(w))],
    statuses: ["crouching", "aiming1"],
  };
  const cases: RenderCase[] = [];
  for (const tab of ACTOR_TABS) {
    for (const bodyZones of tab.id === "combat" ? [true, false] : [true]) {
      const context = ud10ActorSheetContext({
        actor: character as never,
        ruleset: "ud10",
        editable: true,
        bodyZones,
        activeTab: tab.id,
        enrichedBiography: String((character.system as { biography: string }).biography),
        i18n,
      });
      const weapons = character.items.filter((i) => i.type === "weapon");
      const withModes = weapons.filter((w) => ((w.system as { modes?: unknown[] }).modes ?? []).length > 0).length;
      const expectations: Record<string, RenderCase["expect"]> = {
        attributes: [
          { selector: '[data-action="rollSkill"]', count: 5 },
          ...["STR", "DEX", "CON"].map((a) => ({ selector: `input[name="system.attributes.${a}"]`, count: 1 })),
          ...["initiative", "melee", "ranged", "parry", "dodge"].flatMap((s) => [
            { selector: `input[name="system.skills.${s}.rating"]`, count: 1 },
            { selector: `input[name="system.skills.${s}.trained"]`, count: 1 },
          ]),
        ],
        combat: [
          { selector: '[data-action="attack"]', count: weapons.length },
          // UD-ACT-02: the core's actions besides the attack, one button each, labelled from its keys.
          { selector: '[data-action="roundAction"]', count: 5 },
          ...roundActions,
          { selector: ".fray-actions h3", text: "Actions UD-ACT-02" },
          { selector: "select[data-mode-select]", count: withModes },
          { selector: '[data-action="createItem"][data-type="weapon"]', count: 1 },
          { selector: '[data-action="createItem"][data-type="armor"]', count: 1 },
          { selector: '[data-action="toggleEquipped"]' },
          { selector: bodyZones ? "[data-zone]" : ".fray-averaged", count: bodyZones ? 6 : 1 },
        ],
        conditions: [
          { selector: '[data-action="toggleCondition"]', count: 10 },
          { selector: '[data-action="toggleCondition"].active', count: 2 },
        ],
        biography: [{ selector: 'prose-mirror[name="system.biography"]', count: 1 }],
      };
      cases.push({
        id: `actor-character-${tab.id}${tab.id === "combat" ? (bodyZones ? "-zones" : "-averaged") : ""}`,
        title: character.name,
        kind: "sheet",
        classes: ["fray", "sheet", "actor"],
        width: 720,
        height: 780,
        templates: actorParts("character", UD10_SHEET_PARTS).map(actorTemplate),
        context,
        expect: [
          { selector: 'input[name="name"]', count: 1 },
          { selector: 'input[name="system.hp.value"]', count: 1 },
          { selector: 'input[name="system.hp.max"]', count: 1 },
          { selector: 'input[name="system.ep.value"]', count: 1 },
          { selector: 'input[name="system.ep.max"]', count: 1 },
          { selector: 'select[name="system.size"]', count: 1 },
          { selector: '[data-action="tab"]', count: 4 },
          { selector: `.fray-tab.active[data-tab="${tab.id}"]`, count: 1 },
          ...expectations[tab.id]!,
        ],
      });
    }
  }

  for (const name of ["Veteran", "Guard"]) {
    const npc = { ...packDoc("ud10-npcs", name), statuses: ["prone"] };
    const weapons = ((npc.items ?? []) as PackDoc[]).filter((i) => i.type === "weapon");
    cases.push({
      id: `actor-npc-${name.toLowerCase()}`,
      title: npc.name,
      kind: "sheet",
      classes: ["fray", "sheet", "actor"],
      width: 560,
      height: 640,
      templates: actorParts("npc", UD10_SHEET_PARTS).map(actorTemplate),
      context: ud10ActorSheetContext({
        actor: npc as never,
        ruleset: "ud10",
        editable: true,
        bodyZones: false,
        enrichedBiography: "",
        i18n,
      }),
      expect: [
        { selector: '[data-action="attack"]', count: weapons.length },
        { selector: '[data-action="roundAction"]', count: 5 },
        ...roundActions,
        { selector: '[data-action="rollSkill"]', count: 5 },
        { selector: '[data-action="toggleCondition"]', count: 10 },
        { selector: 'input[name="system.hp.value"]', count: 1 },
        { selector: 'input[name="system.ep.value"]', count: 1 },
        { selector: 'input[name="system.attributes.DEX"]', count: 1 },
      ],
    });
  }

  for (const [ruleset, pack, name] of [
    ["hitbox", "hitbox-npcs", "Riot Officer"],
    ["zones", "zones-npcs", "Breacher"],
    ["critical", "critical-npcs", "Sword Fighter"],
  ] as const) {
    const npc = packDoc(pack, name);
    cases.push({
      id: `actor-generic-${ruleset}`,
      title: npc.name,
      kind: "sheet",
      classes: ["fray", "sheet", "actor"],
      width: 560,
      height: 640,
      templates: actorParts("npc", undefined).map(actorTemplate),
      context: actorSheetContext({ actor: npc as never, ruleset, editable: true, bodyZones: false, enrichedBiography: "", i18n }),
      expect: [
        { selector: 'input[name="name"]', count: 1 },
        { selector: ".fray-generic-list > div" },
        // The ruleset's own conditions (its core's `conditions()`), as the world registers them.
        { selector: '[data-action="toggleCondition"]', count: CORE_RULESETS[ruleset].conditions().length },
      ],
    });
  }
  return cases;
}

/** The rules cores of the rulesets shown in the generic view. */
const CORE_RULESETS = { hitbox, zones, critical } as const;

/** The cases of the item sheet: a weapon with firing modes, a melee weapon, an armor, a generic item. */
export function itemCases(i18n: SheetI18n): RenderCase[] {
  const items: [string, PackDoc, "ud10" | "hitbox"][] = [
    ["weapon-modes", packDoc("ud10-weapons", "Assault Rifle"), "ud10"],
    ["weapon-melee", packDoc("ud10-weapons", "Machete"), "ud10"],
    ["armor", packDoc("ud10-armor", readSources("ud10-armor")[0]!.doc.name), "ud10"],
    ["generic-hitbox", packDoc("hitbox-weapons", "Combat Knife"), "hitbox"],
  ];
  return items.map(([id, doc, ruleset]) => {
    const system = (doc.system ?? {}) as { modes?: unknown[] };
    const expect: RenderCase["expect"] =
      ruleset !== "ud10"
        ? [{ selector: ".fray-generic-list > div" }]
        : doc.type === "weapon"
          ? [
              ...["kind", "attackModifier", "damage", "penetration", "rangeIncrement", "canParry", "shield"].map((f) => ({
                selector: `[name="system.${f}"]`,
                count: 1,
              })),
              { selector: '[data-action="addMode"]', count: 1 },
              { selector: '[data-action="deleteMode"]', count: (system.modes ?? []).length },
              { selector: 'prose-mirror[name="system.description"]', count: 1 },
            ]
          : [
              { selector: 'input[name="system.equipped"]', count: 1 },
              ...["head", "leftArm", "rightArm", "torso", "leftLeg", "rightLeg"].flatMap((z) => [
                { selector: `input[name="system.zones.${z}.rating"]`, count: 1 },
                { selector: `input[name="system.zones.${z}.buffer"]`, count: 1 },
              ]),
            ];
    return {
      id: `item-${id}`,
      title: doc.name,
      kind: "sheet" as const,
      classes: ["fray", "sheet", "item"],
      width: 560,
      height: 640,
      templates: ["templates/item/item-sheet.hbs"],
      context: itemSheetContext(
        {
          item: { ...doc, img: doc.img ?? null } as never,
          ruleset,
          editable: true,
          enrichedDescription: String((doc.system as { description?: string })?.description ?? ""),
          i18n,
        },
        ruleset === "ud10" ? ud10ItemSheetContext : undefined,
      ),
      expect: [{ selector: 'input[name="name"]', count: 1 }, ...expect],
    };
  });
}

/** The system stylesheet: every `styles/*.css`, `fray.css` first, as the build concatenates them. */
export function systemCss(): string {
  // As the build does: every stylesheet of styles/, fray.css first.
  const dir = join(ROOT, "styles");
  const names = readdirSync(dir)
    .filter((f) => f.endsWith(".css"))
    .sort((a, b) => (a === "fray.css" ? -1 : b === "fray.css" ? 1 : a.localeCompare(b)));
  return names.map((f) => readFileSync(join(dir, f), "utf8")).join("\n");
}

/* -------------------------------------------------------------------------------------------- */
/* Chat cards and the attack dialog                                                             */
/* -------------------------------------------------------------------------------------------- */

/** UD10 with the world's default options (body zones, buffer, penetration, dodge on). */
const OPTIONS = ud10.defaults();

/** An NPC of the UD10 pack as a rules-core combatant, as the flow reads a token's actor. */
function packCombatant(name: string, id: string, statuses: string[] = []): Ud10Combatant {
  return ud10CombatantFromActor({ ...(packDoc("ud10-npcs", name) as unknown as ActorSource), statuses }, { id });
}

/** One attacked target: the core's input, its plan, and its state on the card. */
interface Attacked {
  input: Ud10AttackInput;
  plan: AttackPlan;
  state: TargetState;
}

/** What one attack names: attacker, target, weapon, mode and range in metres. */
interface AttackSpec {
  attacker: Ud10Combatant;
  target: Ud10Combatant;
  weaponId: string;
  modeId?: string;
  rangeMetres?: number;
}

/**
 * Plans and resolves one UD10 attack with the given dice and stores it through `attackTarget`,
 * the function the attack workflow stores each target of the `attack` message with.
 */
async function attack(spec: AttackSpec, dice: DiceRoller, actorUuid: string): Promise<Attacked> {
  const request = {
    attackerId: spec.attacker.id,
    targetId: spec.target.id,
    weaponId: spec.weaponId,
    modeId: spec.modeId,
    distanceMetres: spec.rangeMetres,
  };
  const who = { actorUuid, tokenUuid: `Scene.s.Token.${spec.target.id}`, name: spec.target.name };
  const { plan, state } = await attackTarget(ud10, who, request, spec.attacker, spec.target, dice, OPTIONS);
  return { input: ud10.input(state.request, spec.attacker, spec.target, OPTIONS), plan, state };
}

/** The result after the defender's reaction on the card (UD10's card rules, UD-REA-02 to UD-REA-04). */
async function reaction(a: Attacked, id: "parry" | "dodge", dice: DiceRoller): Promise<AttackResult> {
  const option = ud10.reactions(a.input, undefined, OPTIONS).find((r) => r.id === id);
  if (!option?.available) throw new Error(`${id} is not available against this attack`);
  return storable(await reactOnCard(a.state.result, option, dice));
}

/** The damage as the card's Roll damage button stores it: the core's packet (UD-DMG-01, UD-ZON-01). */
async function damage(a: Attacked, t: TargetState, dice: DiceRoller): Promise<DamagePacket> {
  return storable(await ud10.rollDamage(t.result, a.input, dice, OPTIONS));
}

/** The core's report and the record the card's Apply damage button stores (UD-DMG-02 to UD-DMG-05). */
function application(a: Attacked, t: TargetState): [UndoRecord, DamageReport] {
  const report = storable(ud10.applyDamage(a.input.target, t.damage!, OPTIONS));
  return [undoRecord(t.actorUuid, report, "gm", "s1"), report];
}

/** Which card buttons a target shows, by action; every other action must be absent. */
type ButtonPlan = Partial<Record<CardAction, "enabled" | "disabled">>;

/** Expectations of one target's section: its buttons exactly, its lines, its outcome. */
function targetExpect(index: number, t: TargetCardContext, buttons: ButtonPlan, outcome: string): RenderCase["expect"] {
  const section = `.fray-target[data-target-index="${index}"]`;
  const out: RenderCase["expect"] = [];
  for (const action of CARD_ACTIONS) {
    const state = buttons[action];
    out.push({ selector: `${section} button[data-action="fray-${action}"]`, count: state ? 1 : 0 });
    if (state)
      out.push({ selector: `${section} button[data-action="fray-${action}"]${state === "disabled" ? ":disabled" : ":enabled"}`, count: 1 });
  }
  out.push({ selector: `${section} .fray-card-buttons button`, count: Object.keys(buttons).length });
  // The check: dice line, one line per modifier with its rule ID, the total.
  out.push({ selector: `${section} .fray-check tbody tr`, count: t.check.lines.length + 2 });
  out.push({ selector: `${section} .fray-difficulty tbody tr`, count: t.difficulty.lines.length + 1 });
  t.check.lines.forEach((line, i) => {
    out.push({ selector: `${section} .fray-check tbody tr:nth-child(${i + 2})`, text: `${line.label} ${line.rule} ${line.value}` });
  });
  t.difficulty.lines.forEach((line, i) => {
    out.push({ selector: `${section} .fray-difficulty tbody tr:nth-child(${i + 1})`, text: `${line.label} ${line.rule} ${line.value}` });
  });
  out.push({ selector: `${section} .fray-check tr.fray-total`, text: `Total ${t.check.total}` });
  out.push({ selector: `${section} .fray-difficulty tr.fray-total`, text: `Total ${t.difficulty.total}` });
  out.push({ selector: `${section} .fray-result`, text: outcome.toUpperCase() });
  out.push({ selector: `${section} .fray-comparison`, text: `${t.check.total} vs. difficulty ${t.difficulty.total}` });
  if (t.odds) out.push({ selector: `${section} .fray-odds`, text: `Chance to hit: ${t.odds} %` });
  return out;
}

/** A chat case of the attack card. */
function cardCase(
  id: string,
  targets: TargetState[],
  names: { attacker: string; weapon: string; mode?: string },
  i18n: Localizer,
  expect: (ctx: AttackMessageContext) => RenderCase["expect"],
): RenderCase {
  const context = attackMessageContext(targets, names, i18n);
  return {
    id: `chat-attack-card-${id}`,
    title: `attack card: ${id}`,
    kind: "chat",
    classes: [],
    width: 300,
    height: 0,
    templates: ["templates/chat/attack-card.hbs"],
    context: context as unknown as Record<string, unknown>,
    expect: [{ selector: ".fray-card.fray-attack", count: 1 }, { selector: ".fray-target", count: targets.length }, ...expect(context)],
  };
}

/**
 * The attack card through every phase of a target, each state made by the card's own
 * transitions from real core results:
 * - Ana's sword hits Bo (12 vs. 12): Bo may parry, dodge or not react, Ana may roll damage;
 * - Bo parries (9 + 4 = 13 beats 12): stopped, no damage, no buttons;
 * - Bo does not react: only Roll damage is left;
 * - damage rolled (3 + 6 to the torso): Apply damage;
 * - applied (armor, buffer, CON): Undo, with the steps and HP/EP after;
 * - undone: Apply damage again, the steps struck through;
 * - a burst at two targets: Bo hit at 60 m (parry and dodge shown disabled: a ranged attack),
 *   the Guard of the NPC pack missed at 25 m.
 */
export async function attackCardCases(i18n: Localizer): Promise<RenderCase[]> {
  const ana = fighter();
  const bo = target();
  const sword = { attacker: "Ana", weapon: "Sword" };
  const melee = await attack({ attacker: ana, target: bo, weaponId: "sword" }, new ScriptedRoller([6, 5]), "Actor.bo");
  const hit = melee.state;
  const [total, difficulty] = [hit.result.check.total, hit.result.plan.difficulty.total];
  if (!hit.result.hit || total !== difficulty) throw new Error(`expected a bare hit, got ${total} vs ${difficulty}`);
  const parried = withReaction(hit, "parry", await reaction(melee, "parry", new ScriptedRoller([9])));
  const declined = withoutReaction(hit);
  const rolled = withDamage(declined, await damage(melee, declined, new ScriptedRoller([6])));
  const applied = withApplied(rolled, ...application(melee, rolled));
  const undone = withUndone(applied);

  const dice = new ScriptedRoller([9, 7, 2]);
  const burst = await attack({ attacker: ana, target: bo, weaponId: "rifle", modeId: "burst", rangeMetres: 60 }, dice, "Actor.bo");
  const missed = await attack(
    { attacker: ana, target: packCombatant("Guard", "guard"), weaponId: "rifle", modeId: "burst", rangeMetres: 25 },
    dice,
    "Actor.guard",
  );

  const reactions: ButtonPlan = { parry: "enabled", dodge: "enabled", noReaction: "enabled", rollDamage: "enabled" };
  const steps = (ctx: AttackMessageContext, undoneToo: boolean): RenderCase["expect"] => [
    { selector: ".fray-steps tbody tr", count: ctx.targets[0]!.steps!.length },
    ...ctx.targets[0]!.steps!.map((s, i) => ({
      selector: `.fray-steps tbody tr:nth-child(${i + 1})`,
      text: `${s.label} ${s.rule} ${s.value} ${s.remaining}`,
    })),
    { selector: ".fray-steps.undone", count: undoneToo ? 1 : 0 },
  ];
  return [
    cardCase("hit", [hit], sword, i18n, (ctx) => [
      ...targetExpect(0, ctx.targets[0]!, reactions, "Hit"),
      { selector: ".fray-location", text: "Hit location: Torso (5) UD-ZON-01" },
      { selector: ".fray-reaction, .fray-damage, .fray-steps", count: 0 },
    ]),
    cardCase("parried", [parried], sword, i18n, (ctx) => [
      ...targetExpect(0, ctx.targets[0]!, {}, "Parried"),
      { selector: ".fray-target.outcome-stopped.phase-stopped", count: 1 },
      { selector: ".fray-reaction tbody tr", count: ctx.targets[0]!.reaction!.check.lines.length + 2 },
      { selector: ".fray-reaction h4", text: "Parry UD-REA-03" },
      { selector: ".fray-reaction tr.fray-total", text: "Total 13" },
      { selector: ".fray-damage, .fray-steps, .fray-card-buttons", count: 0 },
      // The location rolled with the hit no longer applies once the attack is parried.
      { selector: ".fray-location", count: 0 },
    ]),
    cardCase("no-reaction", [declined], sword, i18n, (ctx) => [
      ...targetExpect(0, ctx.targets[0]!, { rollDamage: "enabled" }, "Hit"),
      { selector: ".fray-damage", count: 0 },
    ]),
    cardCase("damage", [rolled], sword, i18n, (ctx) => [
      ...targetExpect(0, ctx.targets[0]!, { applyDamage: "enabled" }, "Hit"),
      { selector: ".fray-target.phase-damage", count: 1 },
      { selector: ".fray-damage .fray-dice-line", text: "1d10x10 + 3 6 9" },
      { selector: ".fray-damage .fray-die", count: 1 },
      { selector: ".fray-steps", count: 0 },
    ]),
    cardCase("applied", [applied], sword, i18n, (ctx) => [
      ...targetExpect(0, ctx.targets[0]!, { undoDamage: "enabled" }, "Hit"),
      { selector: ".fray-target.phase-applied", count: 1 },
      ...steps(ctx, false),
      { selector: ".fray-vitals", text: "Applied · HP 20/20 · EP 11/15" },
    ]),
    cardCase("undone", [undone], sword, i18n, (ctx) => [
      ...targetExpect(0, ctx.targets[0]!, { applyDamage: "enabled" }, "Hit"),
      ...steps(ctx, true),
      { selector: ".fray-vitals", text: "Undone: nothing of this damage is applied." },
    ]),
    cardCase("two-targets", [burst.state, missed.state], { attacker: "Ana", weapon: "Rifle", mode: "Burst" }, i18n, (ctx) => [
      ...targetExpect(0, ctx.targets[0]!, { parry: "disabled", dodge: "disabled", noReaction: "enabled", rollDamage: "enabled" }, "Hit"),
      ...targetExpect(1, ctx.targets[1]!, {}, "Miss"),
      { selector: '.fray-target[data-target-index="0"] h3', text: "Ana attacks Bo with Rifle (Burst)" },
      { selector: '.fray-target[data-target-index="1"] h3', text: "Ana attacks Guard with Rifle (Burst)" },
      { selector: '.fray-target[data-target-index="0"] .fray-range', text: "Range: 60.0 m" },
      { selector: '.fray-target[data-target-index="1"] .fray-range', text: "Range: 25.0 m" },
      { selector: '.fray-target[data-target-index="0"] button[data-action="fray-parry"][data-tooltip]', count: 1 },
      { selector: ".fray-target.outcome-miss .fray-location", count: 0 },
    ]),
  ];
}

/**
 * The attack dialog's context through `dialogContext`, the function `openAttackDialog` renders
 * with, and the odds line of each target through `oddsText`, the one the dialog updates with.
 */
function dialogCase(i18n: Localizer, data: AttackDialogData, choices: AttackChoices): { context: Record<string, unknown>; odds: string[] } {
  return { context: dialogContext(data, choices, i18n), odds: data.targets.map((t) => oddsText(i18n, data, t, choices)) };
}

/**
 * The dialog's data for a weapon of the attacker, generated from UD10's situation fields, its
 * modes as the UD10 binding reads them off the weapon's item.
 */
function dialogData(
  i18n: Localizer,
  attacker: Ud10Combatant,
  weaponId: string,
  targets: DialogTarget[],
  modeId?: string,
): AttackDialogData {
  const weapon = attacker.weapons.find((w) => w.id === weaponId)!;
  const item = { type: "weapon", name: weapon.name, system: { modes: weapon.modes.map((m) => ({ id: m.id, label: m.label })) } };
  return {
    ruleset: ud10 as never,
    options: OPTIONS,
    attacker,
    weapon: { id: weapon.id, name: weapon.name, modes: ud10WeaponModes(item as never, i18n) },
    targets,
    modeId,
  };
}

/**
 * The attack dialog for a ranged attack at two targets (the first crouching behind cover, the
 * attacker aiming) and for a melee attack with a declared parry, both generated from UD10's
 * situation fields: the attack's own fields once, each target's fields under it.
 */
export function attackDialogCases(i18n: Localizer): RenderCase[] {
  const ana = fighter({ conditions: ["aiming1"] });
  const targets: DialogTarget[] = [
    { id: "bo", name: "Bo", combatant: target({ conditions: ["crouching"] }), rangeMetres: 62.5 },
    { id: "guard", name: "Guard", combatant: packCombatant("Guard", "guard"), rangeMetres: 25 },
  ];
  const rangedData = dialogData(i18n, ana, "rifle", targets, "burst");
  const rangedDefaults = dialogDefaults(rangedData);
  const rangedChoices: AttackChoices = {
    ...rangedDefaults,
    situation: { ...rangedDefaults.situation, bo: { ...rangedDefaults.situation.bo, cover: 2 } },
  };
  const ranged = dialogCase(i18n, rangedData, rangedChoices);
  const meleeData = dialogData(i18n, ana, "sword", [
    { id: "guard", name: "Guard", combatant: packCombatant("Guard", "guard"), rangeMetres: 1.5 },
  ]);
  const melee = dialogCase(i18n, meleeData, { ...dialogDefaults(meleeData), reaction: "parry" });

  const field = (name: string, count = 1) => ({ selector: `[name="${name}"]`, count });
  const perTarget = (id: string) => [
    field(`situation.${id}.unanticipated`),
    field(`situation.${id}.immobilized`),
    { selector: `input[type="number"][name="situation.${id}.cover"]`, count: 1 },
  ];
  const base = {
    kind: "dialog" as const,
    classes: ["dialog", "fray", "fray-attack-dialog"],
    width: 400,
    height: 0,
    templates: ["templates/dialog/attack-dialog.hbs"],
    buttons: ATTACK_DIALOG_BUTTONS,
  };
  return [
    {
      ...base,
      id: "dialog-attack-ranged",
      title: "Attack with Rifle",
      context: ranged.context,
      expect: [
        field("target-bo"),
        field("target-guard"),
        { selector: 'input[name="target-bo"]:checked', count: 1 },
        { selector: 'input[name="target-guard"]:checked', count: 1 },
        { selector: '[data-odds-for="bo"]', text: ranged.odds[0]! },
        { selector: '[data-odds-for="guard"]', text: ranged.odds[1]! },
        { selector: '[data-odds-for="bo"]', text: /^\d+\.\d% to hit \(modifier \S+ vs\. difficulty \d+\)$/ },
        { selector: ".fray-dialog-target .fray-range", text: "62.5 m 25.0 m" },
        { selector: '[data-drop-for="bo"]', text: /^Out: \d+\.\d% · expected \d+\.\d HP \/ \d+\.\d EP$/ },
        { selector: '[data-drop-for="guard"]', text: /^Out: \d+\.\d% · expected \d+\.\d HP \/ \d+\.\d EP$/ },
        { selector: '[data-drop-for="bo"][data-tooltip*="UD-DMG-04"]', count: 1 },
        { selector: 'select[name="modeId"] option', count: 2 },
        { selector: 'select[name="modeId"] option[value="burst"]:checked', count: 1 },
        ...perTarget("bo"),
        ...perTarget("guard"),
        ...["targetCrouching", "targetMoving"].flatMap((n) => [field(`situation.bo.${n}`), field(`situation.guard.${n}`)]),
        ...["shooterMoving", "badVisibility", "misc"].map((n) => field(`situation.${n}`)),
        { selector: 'input[name="situation.bo.targetCrouching"]:checked', count: 1 },
        { selector: 'input[name="situation.guard.targetCrouching"]:checked', count: 0 },
        { selector: 'input[type="number"][name="situation.aim"]', value: "1" },
        { selector: 'input[name="situation.bo.cover"]', value: "2" },
        { selector: 'input[name="situation.guard.cover"]', value: "0" },
        field("situation.bo.higherGround", 0),
        field("declared", 0),
        { selector: '.fray-dialog-target-fields[data-target="bo"] .fray-rule', text: /UD-ATK-03.*UD-DEF-01.*UD-ATK-04.*UD-COV-01/ },
        { selector: ".fray-dialog-attack-fields .fray-rule", text: /UD-ATK-04.*UD-ATK-01/ },
      ],
    },
    {
      ...base,
      id: "dialog-attack-melee",
      title: "Attack with Sword",
      context: melee.context,
      expect: [
        field("target-guard"),
        { selector: '[data-odds-for="guard"]', text: melee.odds[0]! },
        { selector: '[data-odds-for="guard"]', text: /^\d+\.\d% to hit, \d+\.\d% through a Parry \(/ },
        { selector: '[data-drop-for="guard"]', text: /^Out: \d+\.\d% · expected / },
        field("modeId", 0),
        ...perTarget("guard"),
        field("situation.guard.higherGround"),
        field("situation.aim", 0),
        field("situation.guard.targetCrouching", 0),
        { selector: 'select[name="declared"] option', count: 3 },
        { selector: 'select[name="declared"] option[value="parry"]:checked', count: 1 },
      ],
    },
  ];
}

/**
 * The free-attack prompt of a fleeing token: the opponents its move leaves behind
 * (`leftBehind`, UD-OPT-01), as the token ruler posts them.
 */
export function freeAttackCase(): RenderCase {
  const mover: Placed = { id: "ayla", disposition: 1, x: 0, y: 0 };
  const tokens = [
    { placed: { id: "guard1", disposition: -1, x: 1.5, y: 0 }, name: "Guard" },
    { placed: { id: "veteran", disposition: -1, x: 0, y: 1.5 }, name: "Veteran Sergeant of the Northern Border Watch" },
    { placed: { id: "guard2", disposition: -1, x: 9, y: 0 }, name: "Far Guard" },
    { placed: { id: "ally", disposition: 1, x: -1.5, y: 0 }, name: "Bo" },
  ];
  const left = leftBehind(
    mover,
    { x: -6, y: -6 },
    tokens.map((t) => t.placed),
  );
  const prompt: FreeAttackPrompt = {
    moverTokenUuid: "Scene.s.Token.ayla",
    moverName: "Ayla Brandt",
    attackers: left.map((p) => {
      const t = tokens.find((o) => o.placed.id === p.id)!;
      return { actorUuid: `Actor.${p.id}`, tokenUuid: `Scene.s.Token.${p.id}`, name: t.name };
    }),
  };
  return {
    id: "chat-free-attack",
    title: "free attack",
    kind: "chat",
    classes: [],
    width: 300,
    height: 0,
    templates: ["templates/chat/free-attack.hbs"],
    context: prompt as unknown as Record<string, unknown>,
    expect: [
      { selector: 'button[data-action="fray-freeAttack"]', count: 2 },
      { selector: 'button[data-action="fray-freeAttack"][data-index="0"]', text: "Free attack: Guard" },
      {
        selector: 'button[data-action="fray-freeAttack"][data-index="1"]',
        text: "Free attack: Veteran Sergeant of the Northern Border Watch",
      },
      { selector: ".fray-card-header", text: "Fleeing: free attacks UD-OPT-01" },
      { selector: ".fray-free-attack p", text: "Ayla Brandt: each opponent left behind may attack once, free." },
    ],
  };
}

/**
 * The initiative summary of a round: the tracker's pass (`rollTracker`) over two characters and
 * three NPCs of the pack, NPCs rolling per group (UD-INI-02), rows by `summaryRows` as `postSummary` makes them.
 */
export async function initiativeCase(i18n: Localizer): Promise<RenderCase> {
  const entries: TrackerEntry<Ud10Combatant>[] = [
    { id: "ana", combatant: fighter({ id: "ana", name: "Ana" }) },
    { id: "bo", combatant: target({ id: "bo", name: "Bo" }) },
    { id: "guard1", combatant: { ...packCombatant("Guard", "guard1"), name: "Guard 1" } },
    { id: "guard2", combatant: { ...packCombatant("Guard", "guard2"), name: "Guard 2" } },
    { id: "veteran", combatant: { ...packCombatant("Veteran", "veteran"), group: "veterans" } },
  ];
  const names = new Map(entries.map((e) => [e.id, e.combatant.name]));
  const pass = await rollTracker(ud10Initiative, entries, new ScriptedRoller([7, 3, 10, 5]), { ...OPTIONS, npcInitiative: "group" });
  const rows = summaryRows(ud10Initiative, pass, names);
  return {
    id: "chat-initiative",
    title: "initiative",
    kind: "chat",
    classes: [],
    width: 300,
    height: 0,
    templates: ["templates/chat/initiative.hbs"],
    context: { title: i18n.format("FRAY.Flow.Initiative.Title", { round: "2" }), rows },
    expect: [
      { selector: ".fray-initiative h3", text: "Initiative, round 2" },
      { selector: ".fray-initiative .fray-rule", text: "UD-INI-01" },
      { selector: ".fray-lines tbody tr", count: rows.length },
      ...rows.map((r, i) => ({
        selector: `.fray-lines tbody tr:nth-child(${i + 1})`,
        text: `${r.names} ${r.natural} + ${r.modifier} ${r.total}`,
      })),
      { selector: ".fray-lines tbody tr", text: /Guard 1, Guard 2/ },
    ],
  };
}
