/**
 * The play parts outside templates, built by the functions the glue calls, in every state:
 * - the combat tracker's round economy in each of the four rulesets (UD-ACT-01, HB-RND-01,
 *   CR-AP-01, ZN-ACT-01, ZN-MOV-01): a combatant fresh, one with a slot or pool partly used and
 *   one with everything spent, as the GM sees the pips (buttons), and one as its player sees it;
 * - the Declare dialog (HB-ACT-01, HB-ACT-03, CR-INI-02, ZN-INI-01) empty and with an earlier
 *   declaration, its actions split by the ruleset's binding as the tracker splits them;
 * - UD10's Flee or Retreat dialog (UD-OPT-01, UD-OPT-02) with both choices and with fleeing only;
 * - Zones' reaction form (ZN-REA-01), suppression form and the GM's bullets-per-action form (ZN-SUP-01).
 */
import type { ActionDef } from "../../../src/rules/core/contract.js";
import { spend, type Economy } from "../../../src/rules/core/economy.js";
import type { Ruleset, RulesetOptions } from "../../../src/rules/core/ruleset.js";
import { critical, hitbox, ud10, zones } from "../../../src/rules/index.js";
import { criticalCombatantFromActor } from "../../../src/rules/critical/model.js";
import { hitboxCombatantFromActor } from "../../../src/rules/hitbox/model.js";
import { zonesCombatantFromActor } from "../../../src/rules/zones/index.js";
import type { ActorSource } from "../../../src/foundry/sources.js";
import { ud10CombatantFromActor } from "../../../src/foundry/rulesets/ud10/translate.js";
import { pips, poolBadges } from "../../../src/foundry/logic/economy.js";
import {
  DECLARE_DIALOG_BUTTONS,
  declarableActions,
  declarationFormHtml,
  pipsHtml,
  poolBadgesHtml,
  type TrackerI18n,
} from "../../../src/foundry/combat/tracker-view.js";
import { HITBOX_DECLARATION } from "../../../src/foundry/rulesets/hitbox/tracker-view.js";
import { disengageButtons, disengageHtml } from "../../../src/foundry/rulesets/ud10/leave-melee-view.js";
import {
  RATE_DIALOG_BUTTONS,
  rateFormHtml,
  REACTION_DIALOG_BUTTONS,
  reactionFormHtml,
  SUPPRESSION_DIALOG_BUTTONS,
  suppressionFormHtml,
} from "../../../src/foundry/rulesets/zones/reaction-view.js";
import type { DialogButtonFace } from "../../../src/foundry/logic/dialog-buttons.js";
import { packDoc, type RenderCase } from "./contexts.js";
import { statusEffectsOf } from "../../../src/foundry/conditions.js";
import {
  defaultEffectValues,
  EFFECT_DIALOG_BUTTONS,
  effectDialogContext,
  type EffectFormValues,
} from "../../../src/foundry/logic/effect-form.js";

type AnyRuleset = Ruleset<unknown, unknown>;

/** A ruleset with a compendium NPC of it, read as its binding reads a token's actor. */
interface Side {
  id: "ud10" | "hitbox" | "critical" | "zones";
  ruleset: AnyRuleset;
  options: RulesetOptions;
  npc: (id: string) => unknown;
}

const SIDES: Side[] = [
  {
    id: "ud10",
    ruleset: ud10 as unknown as AnyRuleset,
    options: ud10.defaults(),
    npc: (id) => ({ ...ud10CombatantFromActor({ ...packDoc("ud10-npcs", "Veteran"), _id: id } as unknown as ActorSource), conditions: [] }),
  },
  {
    id: "hitbox",
    ruleset: hitbox as unknown as AnyRuleset,
    options: hitbox.defaults(),
    npc: (id) => hitboxCombatantFromActor(packDoc("hitbox-npcs", "Security Guard") as never, { id }),
  },
  {
    id: "critical",
    ruleset: critical as unknown as AnyRuleset,
    options: critical.defaults(),
    npc: (id) => criticalCombatantFromActor({ ...packDoc("critical-npcs", "Enforcer"), _id: id } as never),
  },
  {
    id: "zones",
    ruleset: zones as unknown as AnyRuleset,
    options: zones.defaults(),
    npc: (id) => zonesCombatantFromActor(packDoc("zones-npcs", "Perimeter Sentry") as never, { id }),
  },
];

/** The economy of a round's start, then charged `part` of every limited slot and pool (0 fresh, 1 all spent). */
function economyAt(side: Side, core: unknown, part: 0 | 0.5 | 1): Economy {
  const fresh = side.ruleset.startRound(core, undefined, 1, side.options).economy;
  if (part === 0) return fresh;
  const slots = Object.entries(fresh.slots).filter(([, s]) => s.max !== null);
  const pools = Object.entries(fresh.pools);
  // Half: the first slot used up and half of each pool; all: every slot and pool.
  const cost = {
    slots: Object.fromEntries((part === 1 ? slots : slots.slice(0, 1)).map(([id, s]) => [id, s.max! - s.used])),
    pools: Object.fromEntries(pools.map(([id, p]) => [id, part === 1 ? p.value : Math.floor(p.value / 2)])),
  };
  return spend(fresh, cost);
}

/** The tracker rows of three combatants of a ruleset with their pips and pools, as `onRenderCombatTracker` inserts them. */
function economyCase(side: Side, i18n: TrackerI18n): RenderCase {
  const rows = (
    [
      ["fresh", 0, "Fresh", true],
      ["half", 0.5, "Halfway", true],
      ["spent", 1, "Spent", true],
      ["player", 0.5, "Halfway, as its player sees it", false],
    ] as const
  ).map(([id, part, name, gm]) => {
    const core = side.npc(id);
    const economy = economyAt(side, core, part);
    const spec = side.ruleset.economy(core, side.options);
    const html = `<div class="fray-economy">${pipsHtml(pips(economy, spec), gm, i18n)}${poolBadgesHtml(poolBadges(economy, spec), i18n)}</div>`;
    return (
      `<li class="combatant" data-combatant-id="${id}" style="display: flex; gap: 0.4rem; padding: 0.2rem 0.5rem; border-bottom: 1px solid #8884">` +
      `<div class="token-name" style="flex: 1"><strong class="name">${name}</strong>${html}</div></li>`
    );
  });
  const spec = side.ruleset.economy(side.npc("x"), side.options);
  const limited = spec.slots.filter((s) => s.max !== null);
  const toggled = limited.filter((s) => ["movement", "action", "reaction"].includes(s.id));
  const expect: RenderCase["expect"] = [
    { selector: '[data-combatant-id="fresh"] .fray-pip', count: limited.length },
    { selector: '[data-combatant-id="fresh"] .fray-pip.spent', count: 0 },
    { selector: '[data-combatant-id="half"] .fray-pip.spent', count: Math.min(1, limited.length) },
    { selector: '[data-combatant-id="spent"] .fray-pip.ready', count: 0 },
    { selector: '[data-combatant-id="spent"] .fray-pip.spent', count: limited.length },
    { selector: '[data-combatant-id="fresh"] .fray-pool', count: spec.pools.length },
    { selector: '[data-combatant-id="fresh"] .fray-pool.empty', count: 0 },
    { selector: '[data-combatant-id="spent"] .fray-pool.empty', count: spec.pools.length },
    { selector: '.fray-pip[role="button"]', count: 3 * toggled.length },
    { selector: '[data-combatant-id="player"] .fray-pip[role="button"]', count: 0 },
    { selector: '[data-combatant-id="player"] .fray-pip.spent', count: Math.min(1, limited.length) },
    ...spec.pools.map((p) => ({ selector: `[data-combatant-id="fresh"] .fray-pool-${p.id}`, text: `${p.value ?? p.max}/${p.max}` })),
  ];
  return {
    id: `tracker-economy-${side.id}`,
    title: `Combat tracker: ${side.id} round economy`,
    kind: "panel",
    classes: ["fray"],
    width: 300,
    height: 0,
    templates: ["test/support/render/markup.hbs"],
    context: {
      classes: "combat-sidebar",
      html: `<ol class="combat-tracker plain" style="list-style: none; margin: 0; padding: 0">${rows.join("")}</ol>`,
    },
    expect,
  };
}

/** A DialogV2 of markup the glue builds as a string, drawn with its buttons. */
function formCase(
  id: string,
  title: string,
  html: string,
  buttons: readonly DialogButtonFace[],
  expect: RenderCase["expect"],
  width = 400,
): RenderCase {
  return {
    id,
    title,
    kind: "dialog",
    classes: ["dialog"],
    width,
    height: 0,
    templates: ["test/support/render/markup.hbs"],
    buttons,
    context: { classes: "dialog-content standard-form", html },
    expect,
  };
}

/** The Declare dialog of each ruleset that declares, its actions split by the binding's declaration spec. */
function declareCases(i18n: TrackerI18n): RenderCase[] {
  // Hitbox's binding declares quick actions; Critical's and Zones' declare one action of any kind.
  const specs = [
    ["hitbox", HITBOX_DECLARATION, SIDES[1]!],
    ["critical", undefined, SIDES[2]!],
    ["zones", undefined, SIDES[3]!],
  ] as const;
  return specs.flatMap(([id, spec, side]) => {
    const defs = side.ruleset.actions(side.npc("d"), side.options) as ActionDef[];
    const { main, quick } = declarableActions(defs, spec);
    const labels = main.map((d) => ({ id: d.id, label: d.label }));
    const quickChoices = quick.length
      ? { legend: spec?.quickLabel ?? "", actions: quick.map((d) => ({ id: d.id, label: d.label })) }
      : undefined;
    const earlier = { text: "Covers the <door> until the guard shows", action: main[0]!.id, quick: quick.slice(0, 1).map((q) => q.id) };
    const title = i18n.format("FRAY.Flow.Declaration.Title", { name: "Ayla Brandt" });
    const common: RenderCase["expect"] = [
      { selector: 'select[name="action"] option', count: main.length + 1 },
      { selector: 'input[type="checkbox"][name^="quick."]', count: quick.length },
      { selector: 'textarea[name="text"]', count: 1 },
    ];
    // The empty form once with and once without quick actions (Zones' reads as Critical's).
    return [
      ...(id === "zones"
        ? []
        : [
            formCase(`dialog-declare-${id}`, title, declarationFormHtml(labels, i18n, undefined, quickChoices), DECLARE_DIALOG_BUTTONS, [
              ...common,
              { selector: 'select[name="action"]', value: "" },
              { selector: 'input[name^="quick."]:checked', count: 0 },
            ]),
          ]),
      formCase(`dialog-declare-${id}-again`, title, declarationFormHtml(labels, i18n, earlier, quickChoices), DECLARE_DIALOG_BUTTONS, [
        ...common,
        { selector: 'select[name="action"]', value: main[0]!.id },
        { selector: 'textarea[name="text"]', value: earlier.text },
        { selector: 'input[name^="quick."]:checked', count: earlier.quick.length },
      ]),
    ];
  });
}

/** Every case of the play parts outside templates. */
export function playPartCases(i18n: TrackerI18n, i18nDe: TrackerI18n = i18n): RenderCase[] {
  const disengage = (id: string, choices: ("flee" | "retreat")[]) =>
    formCase(
      `dialog-disengage-${id}`,
      i18n.localize("FRAY.Flow.Disengage.Title"),
      disengageHtml("Ayla <Quiet> Brandt", 2, choices, i18n),
      disengageButtons(choices),
      [
        { selector: "p", text: "Ayla <Quiet> Brandt moves away from 2 engaged opponents." },
        { selector: ".fray-rule", count: choices.length },
        ...choices.map((c) => ({ selector: `button[data-action="${c}"]`, count: 1 })),
      ],
      360,
    );
  return [
    ...SIDES.map((s) => economyCase(s, i18n)),
    ...declareCases(i18n),
    disengage("both", ["flee", "retreat"]),
    disengage("flee", ["flee"]),
    formCase(
      "dialog-zones-reaction",
      i18n.format("FRAY.Zones.Reaction.Title", { name: "Ayla Brandt" }),
      reactionFormHtml(i18n),
      REACTION_DIALOG_BUTTONS,
      [
        { selector: 'input[name="trigger"]', count: 1 },
        { selector: 'select[name="response"] option', count: 6 },
        { selector: 'button[data-action="declare"]', count: 1 },
      ],
    ),
    formCase(
      "dialog-zones-suppress",
      i18n.format("FRAY.Zones.Suppression.Title", { weapon: "Longarm Rifle" }),
      suppressionFormHtml(i18n),
      SUPPRESSION_DIALOG_BUTTONS,
      [
        { selector: 'input[name="lane"]', count: 1 },
        { selector: 'button[data-action="suppress"]', count: 1 },
      ],
    ),
    ...effectDialogCases(i18n, i18nDe),
    formCase(
      "dialog-zones-suppression-rate",
      i18n.format("FRAY.Zones.Suppression.RateTitle", { weapon: "Longarm Rifle" }),
      rateFormHtml(i18n),
      RATE_DIALOG_BUTTONS,
      [
        { selector: 'input[name="bullets"]', value: "1" },
        { selector: 'button[data-action="rule"]', count: 1 },
      ],
    ),
  ];
}

/**
 * The effect dialog (play/effect-dialog.ts) with Hitbox's statuses and its delay of 1 round
 * (HB-RND-02): a new form, and a form shown again after a refusal with what was entered kept (in
 * German, dark).
 */
function effectDialogCases(i18n: TrackerI18n, i18nDe: TrackerI18n): RenderCase[] {
  const statuses = statusEffectsOf(hitbox);
  const make = (
    id: string,
    values: EffectFormValues,
    theme: "light" | "dark",
    t: TrackerI18n = i18n,
    lang: "en" | "de" = "en",
  ): RenderCase => ({
    id,
    title: t.format("FRAY.Effect.Dialog.Title", { actor: "Zeven" }),
    kind: "dialog",
    classes: ["dialog", "fray", "fray-effect-dialog"],
    width: 400,
    height: 0,
    theme,
    lang,
    templates: ["templates/dialog/effect-dialog.hbs"],
    buttons: EFFECT_DIALOG_BUTTONS,
    context: effectDialogContext(values, statuses, 1, t) as unknown as Record<string, unknown>,
    expect: [
      { selector: 'input[name="effectName"]', value: values.effectName },
      { selector: ".fray-effect-status", count: statuses.length },
      { selector: ".fray-effect-status", text: t.localize("FRAY.Condition.shock") },
      { selector: 'input[name="duration"]', value: values.duration },
      { selector: 'select[name="unit"] option', count: 2 },
      { selector: 'input[name="delay"]', value: values.delay },
      { selector: ".hint", text: t.format("FRAY.Effect.Dialog.DelayHint", { rounds: "1" }) },
      { selector: 'button[data-action="start"]', count: 1 },
    ],
  });
  return [
    make("dialog-effect", defaultEffectValues(1), "light"),
    make(
      "dialog-effect-entered-de",
      { effectName: "Umgeworfen", duration: "2", unit: "turns", delay: "1", statuses: ["prone", "shock"] },
      "dark",
      i18nDe,
      "de",
    ),
  ];
}
