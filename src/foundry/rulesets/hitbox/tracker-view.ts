/**
 * The markup of Hitbox's parts of the combat tracker and of the GM's opposed-test form, free of
 * Foundry globals (the render test builds them): the step banner (HB-ACT-01) with the GM's
 * Opposed test and End step buttons (HB-ACT-05), the turn's plan of steps with the pre-empt
 * toggles (HB-ACT-01), and the opposed-test form. Every name is escaped.
 */
import { QUICK_ACTIONS } from "../../../rules/hitbox/turn.js";
import { SKILLS } from "../../../rules/hitbox/model.js";
import { escapeHtml } from "../../logic/round-actions.js";
import type { DialogButtonFace } from "../../logic/dialog-buttons.js";

/**
 * What Hitbox's Declare form offers (HB-ACT-01, HB-ACT-03): the quick actions ticked beside the
 * one action, reactions not declared; sealed: whispered to the GMs until the reveal.
 */
export const HITBOX_DECLARATION = {
  quick: QUICK_ACTIONS,
  quickLabel: "FRAY.Hitbox.Declare.Quick",
  notDeclared: ["reaction"],
  sealed: "FRAY.Hitbox.Declare.Sealed",
} as const;

/** The opposed-test form's button: roll, the default (HB-ACT-05). */
export const OPPOSED_DIALOG_BUTTONS: readonly DialogButtonFace[] = [{ action: "roll", label: "FRAY.Hitbox.Opposed.Roll", default: true }];

/** Localization as the tracker's parts use it. */
interface Localizer {
  localize(key: string): string;
  format(key: string, data: Record<string, string>): string;
}

/** What the tracker shows of the step for one reader. */
export interface StepView {
  step: number;
  held: number;
  /** The End step button is offered (the reader is a GM). */
  canEnd: boolean;
}

/** The step banner's HTML: the step number, the applications held, and the GM's Opposed test and End step buttons. */
export function stepBannerHtml(
  view: StepView,
  i18n: { localize(key: string): string; format(key: string, data: Record<string, string>): string },
): string {
  const title = escapeHtml(i18n.format("FRAY.Hitbox.Step.Title", { step: String(view.step) }));
  const held = escapeHtml(i18n.format("FRAY.Hitbox.Step.HeldCount", { count: String(view.held) }));
  // HB-ACT-05: the GM's opposed test for two actions that exclude each other, beside End step.
  const button = view.canEnd
    ? ` <button type="button" class="fray-opposed" data-fray-opposed="1" data-tooltip="HB-ACT-05">${escapeHtml(i18n.localize("FRAY.Hitbox.Opposed.Button"))}</button>` +
      ` <button type="button" class="fray-end-step" data-fray-end-step="1">${escapeHtml(i18n.localize("FRAY.Hitbox.Step.End"))}</button>`
    : "";
  return `<div class="fray-hitbox-step"><span>${title}</span> <span class="fray-rule">HB-ACT-01</span> <span class="fray-hitbox-held">${held}</span>${button}</div>`;
}

/** One step of the plan as the tracker shows it. */
export interface PlanStep {
  /** Step number within the turn, from 1. */
  step: number;
  /** A pre-empting action on its own (false: the rest, at the same time). */
  preempts: boolean;
  combatants: { id: string; name: string; declared: boolean }[];
  /** The step is over, the open one, or still to come. */
  state: "done" | "current" | "next";
}

/** The tracker's plan of the turn for one reader. */
export interface PlanView {
  steps: PlanStep[];
  /** The reader may mark and unmark pre-empting actions (the GM, before the first step ends). */
  canMark: boolean;
}

/**
 * The plan's HTML (HB-ACT-01): one line per step, pre-empting ones first, the open step marked;
 * for the GM a Pre-empts toggle beside each name while the marks may change. Names escaped.
 */
export function planHtml(view: PlanView, i18n: Localizer): string {
  const items = view.steps.map((s) => {
    const names = s.combatants
      .map((c) => {
        const toggle = view.canMark
          ? ` <button type="button" class="fray-preempt" data-fray-preempt="${escapeHtml(c.id)}" aria-pressed="${s.preempts}">${escapeHtml(
              i18n.localize(s.preempts ? "FRAY.Hitbox.Plan.Unmark" : "FRAY.Hitbox.Plan.Mark"),
            )}</button>`
          : "";
        return `<span class="fray-plan-name">${escapeHtml(c.name)}</span>${toggle}`;
      })
      .join(", ");
    const kind = escapeHtml(i18n.localize(s.preempts ? "FRAY.Hitbox.Plan.Preempts" : "FRAY.Hitbox.Plan.Together"));
    const title = escapeHtml(i18n.format("FRAY.Hitbox.Step.Title", { step: String(s.step) }));
    return `<li class="fray-plan-step ${s.state}${s.preempts ? " preempts" : ""}"><strong>${title}</strong> <em>${kind}</em>: ${names}</li>`;
  });
  return `<ol class="fray-hitbox-plan" aria-label="${escapeHtml(i18n.localize("FRAY.Hitbox.Plan.Title"))}">${items.join("")}</ol>`;
}

/** The form's default skills: an attack with Firearms against a Dodge, the seed's commonest case. */
const DEFAULT_SKILLS = ["firearms", "dodge"] as const;

/**
 * The opposed-test form's HTML (HB-ACT-05): for each side a combatant select and a skill select;
 * names escaped.
 */
export function opposedFormHtml(candidates: readonly { id: string; name: string }[], i18n: { localize(key: string): string }): string {
  const side = (key: "a" | "b", index: number) => {
    const people = candidates
      .map((c, i) => `<option value="${escapeHtml(c.id)}"${i === index ? " selected" : ""}>${escapeHtml(c.name)}</option>`)
      .join("");
    const skills = SKILLS.map(
      (s) =>
        `<option value="${s}"${s === DEFAULT_SKILLS[index] ? " selected" : ""}>${escapeHtml(i18n.localize(`FRAY.Hitbox.Skill.${s}`))}</option>`,
    ).join("");
    const legend = escapeHtml(i18n.localize(`FRAY.Hitbox.Opposed.Side${key.toUpperCase()}`));
    return (
      `<fieldset><legend>${legend}</legend>` +
      `<label>${escapeHtml(i18n.localize("FRAY.Hitbox.Opposed.Combatant"))} <select name="${key}">${people}</select></label>` +
      `<label>${escapeHtml(i18n.localize("FRAY.Hitbox.Opposed.Skill"))} <select name="skill${key.toUpperCase()}">${skills}</select></label>` +
      `</fieldset>`
    );
  };
  return `<div class="fray-opposed-form">${side("a", 0)}${side("b", 1)}</div>`;
}
