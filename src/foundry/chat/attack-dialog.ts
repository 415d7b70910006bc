/**
 * The attack dialog (DialogV2): the user's targets (one check each), the range to each measured
 * on the canvas, the modifiers of UD-ATK-04 and UD-DEF-01 as checkboxes set from the tokens'
 * conditions, an unanticipated attack (UD-ATK-03), cover (UD-COV-01), aim rounds, firing mode
 * (UD-RNG-02), a misc modifier, and the exact chance to hit each target from the core's odds,
 * updated as the options change; with a declared reaction also the chance to get through it
 * (UD-REA-03).
 */
import type { RulesetOptions } from "../../rules/core/ruleset.js";
import type { Ud10Combatant, Ud10Weapon } from "../../rules/ud10/index.js";
import { decimal, localizeData, type Localizer } from "../attack-card.js";
import { attackInput, defaultChoices, targetOdds, type AttackChoices } from "../logic/attack-options.js";
import { formatKey } from "../notify.js";
import { FLOW_TEMPLATES } from "./templates.js";

/** One target the dialog offers. */
export interface DialogTarget {
  id: string;
  name: string;
  combatant: Ud10Combatant;
  rangeMetres?: number;
}

/** What the dialog needs. */
export interface AttackDialogData {
  attacker: Ud10Combatant;
  weapon: Ud10Weapon;
  targets: DialogTarget[];
  options: RulesetOptions;
  /** Preselected firing mode. */
  modeId?: string;
}

/** Reads the dialog's form into choices. */
export function readChoices(form: HTMLFormElement, targetIds: readonly string[]): AttackChoices {
  const el = (name: string) => form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null;
  const checked = (name: string) => Boolean((el(name) as HTMLInputElement | null)?.checked);
  const num = (name: string) => Number(el(name)?.value ?? 0) || 0;
  const aim = num("aim");
  const declared = el("declared")?.value;
  return {
    targets: targetIds.filter((id) => checked(`target-${id}`)),
    modeId: el("modeId")?.value || undefined,
    unanticipated: checked("unanticipated"),
    immobilized: checked("immobilized"),
    higherGround: checked("higherGround"),
    badVisibility: checked("badVisibility"),
    targetCrouching: checked("targetCrouching"),
    targetMoving: checked("targetMoving"),
    shooterMoving: checked("shooterMoving"),
    aim: aim === 2 ? 2 : aim === 1 ? 1 : 0,
    cover: num("cover"),
    misc: num("misc"),
    declared: declared === "parry" || declared === "dodge" ? declared : "none",
  };
}

/** Formats an i18n key whose data values may themselves be i18n keys. */
function formatWith(i18n: Localizer, key: string, data: Record<string, string | number> = {}): string {
  return i18n.format(key, localizeData(data, i18n));
}

/**
 * The odds text of one target: "62.5 % to hit (7 vs. 15)", "62.5 % to hit, 41.0 % through a
 * Parry (...)" or the core's refusal (UD-ATK-02, UD-REA-03). Pure: `i18n` is `game.i18n` in
 * Foundry and a reader of the language files in tests.
 */
export function oddsText(i18n: Localizer, data: Pick<AttackDialogData, "attacker" | "weapon" | "options">, target: DialogTarget, choices: AttackChoices): string {
  const odds = targetOdds(attackInput(data.attacker, target.combatant, data.weapon.id, target.rangeMetres, choices), choices.declared, data.options);
  if (odds.error) return formatWith(i18n, odds.error.key, odds.error.data);
  const hit = `${decimal((odds.hit ?? 0) * 100, i18n.lang)} %`;
  if (odds.through === undefined) return formatWith(i18n, "FRAY.Flow.Dialog.OddsLine", { odds: hit, modifier: odds.modifier ?? 0, difficulty: odds.difficulty ?? 0 });
  return formatWith(i18n, "FRAY.Flow.Dialog.OddsThrough", {
    odds: hit,
    through: `${decimal(odds.through * 100, i18n.lang)} %`,
    reaction: `FRAY.Reaction.${choices.declared}`,
    modifier: odds.modifier ?? 0,
    difficulty: odds.difficulty ?? 0,
  });
}

/**
 * The dialog template's context: the weapon and its firing modes (UD-RNG-02) with the chosen one
 * selected, each target with its measured range (UD-RNG-01), whether it is attacked and its
 * odds, the choices, the aim rounds and whether dodging is offered (UD-REA-04). Pure.
 */
export function dialogContext(data: AttackDialogData, defaults: AttackChoices, i18n: Localizer): Record<string, unknown> {
  const ranged = data.weapon.kind === "ranged";
  return {
    ranged,
    melee: !ranged,
    weapon: data.weapon.name,
    modes: data.weapon.modes.map((m) => ({ id: m.id, label: m.label, selected: m.id === (defaults.modeId ?? data.modeId) })),
    targets: data.targets.map((t) => ({
      id: t.id,
      name: t.name,
      range: t.rangeMetres === undefined ? undefined : decimal(t.rangeMetres, i18n.lang),
      checked: defaults.targets.includes(t.id),
      odds: oddsText(i18n, data, t, defaults),
    })),
    choices: defaults,
    aims: [0, 1, 2].map((n) => ({ value: n, label: formatWith(i18n, `FRAY.Flow.Dialog.Aim${n}`), selected: n === defaults.aim })),
    allowDodge: Boolean(data.options.allowDodge),
  };
}

/**
 * Opens the dialog and waits for the user.
 * @returns the choices, or `null` when the dialog was closed without attacking.
 */
export async function openAttackDialog(data: AttackDialogData, defaults: AttackChoices): Promise<AttackChoices | null> {
  const ids = data.targets.map((t) => t.id);
  const i18n = game.i18n as unknown as Localizer;
  const context = dialogContext(data, defaults, i18n);
  const content = await foundry.applications.handlebars.renderTemplate(FLOW_TEMPLATES.attackDialog, context);
  const DialogV2 = foundry.applications.api.DialogV2;
  const result = await DialogV2.wait({
    window: { title: formatKey("FRAY.Flow.Dialog.Title", { weapon: data.weapon.name }) },
    classes: ["fray", "fray-attack-dialog"],
    content,
    buttons: [
      {
        action: "attack",
        label: "FRAY.Flow.Dialog.Attack",
        icon: "fa-solid fa-dice-d10",
        default: true,
        callback: (_event: unknown, button: HTMLButtonElement) => readChoices(button.form!, ids),
      },
      { action: "cancel", label: "FRAY.Flow.Dialog.Cancel" },
    ],
    render: (_event: unknown, dialog: { element: HTMLElement }) => {
      const form = dialog.element.querySelector("form") ?? (dialog.element as HTMLFormElement);
      const update = () => {
        const choices = readChoices(form as HTMLFormElement, ids);
        for (const t of data.targets) {
          const out = dialog.element.querySelector(`[data-odds-for="${t.id}"]`);
          if (out) out.textContent = oddsText(i18n, data, t, { ...choices, targets: ids });
        }
      };
      form.addEventListener("change", update);
      form.addEventListener("input", update);
    },
    rejectClose: false,
  } as never);
  if (!result || typeof result !== "object") return null;
  return result as AttackChoices;
}

/** Dialog defaults from the attacker's and first target's conditions. */
export function dialogDefaults(attacker: Ud10Combatant, targets: readonly DialogTarget[], modeId?: string): AttackChoices {
  return { ...defaultChoices(attacker.conditions, targets[0]?.combatant.conditions ?? [], targets.map((t) => t.id)), modeId };
}
