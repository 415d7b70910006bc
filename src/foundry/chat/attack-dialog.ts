/**
 * The attack dialog (DialogV2) for every ruleset, generated from the world ruleset's situation
 * fields (`Ruleset.situation`, rendered and read back by logic/situation-form.ts): the user's
 * targets (one check each) with the range to each measured on the canvas, the weapon's modes,
 * the attack's own fields, each target's per-target fields under it, the reaction the defender
 * declared where the ruleset offers one, and the exact chance to hit each target from the core's
 * odds, updated as the form changes, also through the declared reaction (UD-ATK-02, UD-REA-03),
 * with the ruleset's own lines under it where its binding gives them (Critical: OB and DB with
 * the parry, the chance of each outcome), and the exact chance that the attack leaves each
 * target out with the damage it is expected to do (`Ruleset.dropOdds`).
 */
import type { AttackRequest, SituationField, SituationValues } from "../../rules/core/contract.js";
import { FrayError } from "../../rules/core/errors.js";
import type { Ruleset, RulesetOptions } from "../../rules/core/ruleset.js";
import { decimal, localizeData, type Localizer } from "../attack-card.js";
import { DROP_TRACKS } from "../../rules/core/drop.js";
import { formatDecimal, formatPercent } from "../../rules/core/i18n.js";
import { targetDrop, targetOdds, type AttackChoices } from "../logic/attack-options.js";
import { dialogButtons, type DialogButtonFace } from "../logic/dialog-buttons.js";
import { inputName, readSituationValue, situationInput, type FormValue } from "../logic/situation-form.js";
import { sentenceCase } from "../logic/text.js";
import { reportError, windowTitle } from "../notify.js";
import { FLOW_TEMPLATES } from "./templates.js";
import type { DialogDetail, MovementUnits } from "../registry.js";

/** One target the dialog offers. */
export interface DialogTarget {
  id: string;
  name: string;
  /** The target's combatant in the ruleset's core shape. */
  combatant: unknown;
  rangeMetres?: number;
}

/**
 * The weapon as the dialog names it: id, display name, and its firing modes from the ruleset's
 * binding (`weaponModes`): the weapon's own mode first (an attack in it names no mode), empty
 * when it has one way to attack.
 */
export interface DialogWeapon {
  id: string;
  name: string;
  modes: { id: string; label: string }[];
}

/** What the dialog needs. */
export interface AttackDialogData {
  ruleset: Ruleset<unknown, unknown>;
  options: RulesetOptions;
  attacker: unknown;
  weapon: DialogWeapon;
  targets: DialogTarget[];
  /** Preselected mode. */
  modeId?: string;
  /** The units the world's scenes measure in (the binding's `movementUnits`); ranges show in metres without. */
  units?: Pick<MovementUnits, "units" | "metresPerUnit">;
  /** The ruleset's own lines under each target's odds (the binding's `dialogDetails`). */
  details?: (
    plan: NonNullable<ReturnType<typeof targetOdds>["plan"]>,
    odds: NonNullable<ReturnType<typeof targetOdds>["odds"]>,
  ) => DialogDetail[];
}

/** One ruleset line of a target as the dialog shows it: label, value and rule, localized. */
export interface DetailLine {
  kind: DialogDetail["kind"];
  label: string;
  value: string;
  rule: string;
}

/**
 * The ruleset's own lines of one target (`AttackDialogData.details`), localized: a line's value
 * signed (`+55`, `-20`), a chance as a percentage with one decimal (`12.3 %`); none when the
 * request is refused or the ruleset adds none. Pure.
 */
export function detailLines(i18n: Localizer, data: AttackDialogData, target: DialogTarget, choices: AttackChoices): DetailLine[] {
  if (!data.details) return [];
  const odds = targetOdds(data.ruleset, requestOf(data, target, choices, "attacker"), data.attacker, target.combatant, data.options);
  if (!odds.plan || !odds.odds) return [];
  return data.details(odds.plan, odds.odds).map((d) => ({
    kind: d.kind,
    label: formatWith(i18n, d.label, d.data),
    value: d.kind === "chance" ? formatPercent(d.value, i18n.lang) : d.value > 0 ? `+${d.value}` : String(d.value),
    rule: d.rule ?? "",
  }));
}

/** Replaces the items of a target's details list with `lines`, as text (names never become HTML). */
function fillDetails(list: Element, lines: readonly DetailLine[]): void {
  const doc = list.ownerDocument;
  list.replaceChildren(
    ...lines.map((l) => {
      const li = doc.createElement("li");
      li.className = `fray-detail fray-detail-${l.kind}`;
      for (const [cls, text] of [
        ["fray-label", l.label],
        ["fray-value", l.value],
        ["fray-rule", l.rule],
      ] as const) {
        const span = doc.createElement("span");
        span.className = cls;
        span.textContent = text;
        li.append(span, " ");
      }
      return li;
    }),
  );
}

/** The situation fields of one target under the chosen mode. */
export function fieldsFor(data: AttackDialogData, target: DialogTarget | undefined, modeId?: string): SituationField[] {
  return data.ruleset.situation(
    { attacker: data.attacker, target: target?.combatant, weaponId: data.weapon.id, modeId, distanceMetres: target?.rangeMetres },
    data.options,
  );
}

/** The neutral request of one target from the choices. */
export function requestOf(data: AttackDialogData, target: DialogTarget, choices: AttackChoices, attackerId: string): AttackRequest {
  return {
    attackerId,
    targetId: target.id,
    weaponId: data.weapon.id,
    modeId: choices.modeId,
    distanceMetres: target.rangeMetres,
    situation: choices.situation[target.id],
    reaction: choices.reaction,
  };
}

/** A form control as the dialog reads it. */
interface Control {
  checked?: boolean;
  value?: string;
  selectedOptions?: ArrayLike<{ value: string }>;
  multiple?: boolean;
}

/**
 * The values ticked of a multi-choice field: its checkboxes (`namedItem` gives a list for two or
 * more, the box itself for one), or the options selected in a `select multiple`.
 */
function multiValues(control: Control | ArrayLike<Control>): string[] {
  if ("selectedOptions" in control && control.selectedOptions) return Array.from(control.selectedOptions).map((o) => o.value);
  const boxes: Control[] = "length" in control && typeof control.length === "number" ? Array.from(control) : [control as Control];
  return boxes.filter((b) => b.checked && b.value !== undefined).map((b) => b.value!);
}

/**
 * Reads the dialog's form into choices: the targets ticked (`target-<id>`), the mode (`modeId`),
 * the declared reaction (`declared`, `none` for none) and for each target the situation values
 * of its fields (`situation.<id>`, `situation.<targetId>.<id>`).
 * @throws FrayError `FRAY.Error.Field` naming the first situation field whose value is refused.
 */
export function readChoices(form: Pick<HTMLFormElement, "elements">, data: AttackDialogData): AttackChoices {
  const el = (name: string) => form.elements.namedItem(name) as Control | null;
  const modeId = el("modeId")?.value || undefined;
  const declared = el("declared")?.value;
  const situation: Record<string, SituationValues> = {};
  for (const t of data.targets) {
    const values: SituationValues = {};
    for (const f of fieldsFor(data, t, modeId)) {
      const control = el(inputName(f, t.id));
      let raw: FormValue;
      if (!control) raw = undefined;
      else if (f.kind === "boolean") raw = Boolean(control.checked);
      else if (f.kind === "multi") raw = multiValues(control);
      else raw = control.value;
      values[f.id] = raw === undefined ? f.default : readSituationValue(f, raw, data.ruleset.id);
    }
    situation[t.id] = values;
  }
  return {
    targets: data.targets.filter((t) => Boolean(el(`target-${t.id}`)?.checked)).map((t) => t.id),
    modeId,
    situation,
    reaction: declared && declared !== "none" ? declared : undefined,
  };
}

/** Formats an i18n key whose data values may themselves be i18n keys. */
function formatWith(i18n: Localizer, key: string, data: Record<string, string | number> = {}): string {
  return i18n.format(key, localizeData(data, i18n));
}

/**
 * The odds text of one target: "62.5% to hit (modifier 7 vs. difficulty 15)", "62.5% to hit, 41.0% through a
 * Parry (...)" or the core's refusal (UD-ATK-02, UD-REA-03). Pure: `i18n` is `game.i18n` in
 * Foundry and a reader of the language files in tests.
 */
export function oddsText(i18n: Localizer, data: AttackDialogData, target: DialogTarget, choices: AttackChoices): string {
  const odds = targetOdds(data.ruleset, requestOf(data, target, choices, "attacker"), data.attacker, target.combatant, data.options);
  if (odds.error) return formatWith(i18n, odds.error.key, odds.error.data);
  const hit = formatPercent(odds.hit ?? 0, i18n.lang);
  if (odds.through === undefined)
    return formatWith(i18n, "FRAY.Flow.Dialog.OddsLine", { odds: hit, modifier: odds.modifier ?? 0, difficulty: odds.difficulty ?? 0 });
  return formatWith(i18n, "FRAY.Flow.Dialog.OddsThrough", {
    odds: hit,
    through: formatPercent(odds.through, i18n.lang),
    reaction: `FRAY.Reaction.${choices.reaction}`,
    modifier: odds.modifier ?? 0,
    difficulty: odds.difficulty ?? 0,
  });
}

/** The drop line of one target as the dialog shows it: its text and the rule IDs of its tooltip; empty without one. */
export interface DropLine {
  text: string;
  rules: string;
}

/**
 * The chance to drop one target: "Out: 23.4 % · expected 6.1 HP / 2.0 EP", the chance that the
 * attack (through the declared reaction) leaves the target out and the points it is expected to
 * cost per track, with the rule IDs the computation follows (`Ruleset.dropOdds`). Empty when the
 * ruleset has none or the request is refused (the odds line shows why). Pure.
 */
export function dropLine(i18n: Localizer, data: AttackDialogData, target: DialogTarget, choices: AttackChoices): DropLine {
  const drop = targetDrop(data.ruleset, requestOf(data, target, choices, "attacker"), data.attacker, target.combatant, data.options);
  if (!drop) return { text: "", rules: "" };
  const expected = DROP_TRACKS.filter((k) => drop.expected[k] !== undefined)
    .map((k) => i18n.format(`FRAY.Flow.Dialog.DropTrack.${k}`, { points: formatDecimal(drop.expected[k]!, i18n.lang) }))
    .join(" / ");
  return {
    text: i18n.format("FRAY.Flow.Dialog.DropLine", { out: formatPercent(drop.out, i18n.lang), expected }),
    rules: drop.rules.join(" "),
  };
}

/** One field's template context, with the bounds as attribute values. */
function fieldContext(field: SituationField, value: SituationValues[string] | undefined, i18n: Localizer, targetId?: string) {
  const input = situationInput(field, value, targetId);
  // A choice stands alone in its drop-down or beside its box: in sentence case.
  const choices = input.choices.map((c) => ({ ...c, label: sentenceCase(i18n.localize(c.label), i18n.lang) }));
  return { ...input, choices, min: input.min ?? "", max: input.max ?? "", step: input.step ?? "any" };
}

/**
 * The dialog's defaults: every target ticked, the preselected mode, each target's fields at
 * their defaults (from the combatants' conditions), no declared reaction.
 */
export function dialogDefaults(data: AttackDialogData): AttackChoices {
  const situation: Record<string, SituationValues> = {};
  for (const t of data.targets) situation[t.id] = Object.fromEntries(fieldsFor(data, t, data.modeId).map((f) => [f.id, f.default]));
  return { targets: data.targets.map((t) => t.id), modeId: data.modeId, situation };
}

/** The reactions a defender may declare against this attack, as the ruleset offers them. */
function declarable(data: AttackDialogData, choices: AttackChoices): { id: string; label: string; rule: string; selected: boolean }[] {
  const first = data.targets[0];
  if (!first) return [];
  try {
    const input = data.ruleset.input(
      { ...requestOf(data, first, choices, "attacker"), reaction: undefined },
      data.attacker,
      first.combatant,
      data.options,
    );
    return data.ruleset
      .reactions(input, undefined, data.options)
      .filter((r) => r.available)
      .map((r) => ({ id: r.id, label: `FRAY.Reaction.${r.id}`, rule: r.rule, selected: r.id === choices.reaction }));
  } catch (err) {
    if (err instanceof FrayError) return [];
    throw err;
  }
}

/**
 * The mode select's options: the weapon's own mode (its first) as value `""`, read back as no
 * mode, then each other mode by id; `modeId` selected, the weapon's own mode when it names none
 * of the others (UD-RNG-02, ZN-BST-01).
 */
export function modeOptions(weapon: DialogWeapon, modeId: string | undefined): { id: string; label: string; selected: boolean }[] {
  const chosen = weapon.modes.slice(1).some((m) => m.id === modeId) ? modeId : undefined;
  return weapon.modes.map((m, i) => {
    const id = i === 0 ? "" : m.id;
    return { id, label: m.label, selected: i === 0 ? chosen === undefined : m.id === chosen };
  });
}

/**
 * The dialog template's context (`templates/dialog/attack-dialog.hbs`): the weapon and its modes
 * with the chosen one selected, the attack's own fields (those of the first target), each target
 * with its measured range, whether it is attacked, its odds and its per-target fields, and the
 * reactions a defender may declare. Pure.
 */
export function dialogContext(data: AttackDialogData, choices: AttackChoices, i18n: Localizer): Record<string, unknown> {
  const first = data.targets[0];
  const shared = fieldsFor(data, first, choices.modeId).filter((f) => !f.perTarget);
  const reactions = declarable(data, choices);
  const feet = data.units?.units === "ft";
  return {
    weapon: data.weapon.name,
    modes: modeOptions(data.weapon, choices.modeId),
    fields: shared.map((f) => fieldContext(f, first ? choices.situation[first.id]?.[f.id] : undefined, i18n)),
    targets: data.targets.map((t) => ({
      id: t.id,
      name: t.name,
      range: t.rangeMetres === undefined ? undefined : decimal(t.rangeMetres / (feet ? data.units!.metresPerUnit : 1), i18n.lang),
      ...(feet ? { rangeUnit: i18n.localize("FRAY.Chat.Feet") } : {}),
      checked: choices.targets.includes(t.id),
      odds: oddsText(i18n, data, t, choices),
      drop: dropLine(i18n, data, t, choices),
      showDetails: Boolean(data.details),
      details: detailLines(i18n, data, t, choices),
      fields: fieldsFor(data, t, choices.modeId)
        .filter((f) => f.perTarget)
        .map((f) => fieldContext(f, choices.situation[t.id]?.[f.id], i18n, t.id)),
    })),
    reactions,
    reactionRule: reactions[0]?.rule,
  };
}

/** The attack dialog's buttons ({@link openAttackDialog}): attack, the default, and cancel. */
export const ATTACK_DIALOG_BUTTONS: readonly DialogButtonFace[] = [
  { action: "attack", label: "FRAY.Flow.Dialog.Attack", icon: "fa-solid fa-dice-d10", default: true },
  { action: "cancel", label: "FRAY.Flow.Dialog.Cancel" },
];

/**
 * Opens the dialog and waits for the user.
 * @returns the choices, or `null` when the dialog was closed without attacking.
 */
export async function openAttackDialog(data: AttackDialogData, defaults: AttackChoices): Promise<AttackChoices | null> {
  const i18n = game.i18n as unknown as Localizer;
  const context = dialogContext(data, defaults, i18n);
  const content = await foundry.applications.handlebars.renderTemplate(FLOW_TEMPLATES.attackDialog, context);
  const DialogV2 = foundry.applications.api.DialogV2;
  const result = await DialogV2.wait({
    window: { title: windowTitle("FRAY.Flow.Dialog.Title", { weapon: data.weapon.name }) },
    classes: ["fray", "fray-attack-dialog"],
    content,
    buttons: dialogButtons(ATTACK_DIALOG_BUTTONS, {
      attack: (_event: unknown, button: HTMLButtonElement) => readChoices(button.form!, data),
    }),
    render: (_event: unknown, dialog: { element: HTMLElement }) => {
      const form = dialog.element.querySelector("form") ?? (dialog.element as HTMLFormElement);
      const update = () => {
        let choices: AttackChoices | undefined;
        let refusal = "";
        try {
          choices = readChoices(form as HTMLFormElement, data);
        } catch (err) {
          if (!(err instanceof FrayError)) throw err;
          refusal = formatWith(i18n, err.key, err.data);
        }
        for (const t of data.targets) {
          const out = dialog.element.querySelector(`[data-odds-for="${t.id}"]`);
          if (out) out.textContent = choices ? oddsText(i18n, data, t, choices) : refusal;
          const drop = dialog.element.querySelector<HTMLElement>(`[data-drop-for="${t.id}"]`);
          if (drop) {
            const line = choices ? dropLine(i18n, data, t, choices) : { text: "", rules: "" };
            drop.textContent = line.text;
            drop.dataset.tooltip = line.rules;
            drop.hidden = !line.text;
          }
          const list = dialog.element.querySelector(`[data-details-for="${t.id}"]`);
          if (list) fillDetails(list, choices ? detailLines(i18n, data, t, choices) : []);
        }
      };
      // Another mode may bring other fields (ZN-BST-01: full auto asks for its bullets): the
      // form is drawn again with what was chosen so far.
      const redraw = async () => {
        let choices: AttackChoices;
        try {
          choices = readChoices(form as HTMLFormElement, data);
        } catch (err) {
          if (!(err instanceof FrayError)) throw err;
          return update();
        }
        const html = await foundry.applications.handlebars.renderTemplate(FLOW_TEMPLATES.attackDialog, dialogContext(data, choices, i18n));
        const body = form.querySelector(".fray-attack-dialog-body");
        if (body) {
          const template = form.ownerDocument.createElement("template");
          template.innerHTML = html;
          body.replaceWith(template.content);
        }
        update();
      };
      form.addEventListener("change", (event: Event) => {
        if ((event.target as { name?: string } | null)?.name === "modeId") void redraw().catch(reportError);
        else update();
      });
      form.addEventListener("input", update);
    },
    rejectClose: false,
  } as never);
  if (!result || typeof result !== "object") return null;
  return result as AttackChoices;
}
