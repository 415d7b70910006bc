/**
 * The parry allocation in play (CR-PAR-01 to CR-PAR-03): declared in the tracker with the other
 * declarations of the round (CR-INI-02), while the combatant declares. A _Parry_ button next to
 * _Declare_ opens a dialog listing the other combatants with the exchange rate of each one's
 * attack; the player splits OB over them, the OB left shown as they type. The core checks the
 * split (`declareParry`: not constrained or otherwise unable, whole numbers, no more than the
 * OB) and the allocation is written to the combatant's own actor (`system.parry`, OB by foe
 * token id), which its owner may write. Every attack reads it from there, and the GM's replay
 * re-reads and re-checks it (`checkParry`), so a value written around the dialog is refused, not
 * trusted. The GM's client clears it at the start of each round.
 */
import {
  declareParry,
  foeCategory,
  parriedOb,
  parryAllocation,
  type CriticalCombatant,
  type ParryFoe,
} from "../../../rules/critical/index.js";
import { criticalCombatantFromActor } from "../../../rules/critical/model.js";
import { FrayError } from "../../../rules/core/errors.js";
import type { Localizer } from "../../attack-card.js";
import { SYSTEM_PATH } from "../../config.js";
import { trackerDeclarations, type TrackerCombat } from "../../combat/tracker.js";
import { actorSource } from "../../documents/source.js";
import { reportError, warn, windowTitle } from "../../notify.js";
import { parryButtonHtml, type TrackerLocalizer } from "./tracker-view.js";
import { PARRY_DIALOG_BUTTONS, parryDbText, parryDialogContext, parryLeftText } from "./parry-view.js";
import { dialogButtons } from "../../logic/dialog-buttons.js";

/** The parry dialog's template. */
export const PARRY_TEMPLATE = `${SYSTEM_PATH}/templates/critical/parry-dialog.hbs`;

/** An actor as the parry reads and writes it. */
interface ParryActor {
  name?: string | null;
  toObject(): unknown;
  statuses?: Set<string> | null;
  update(data: Record<string, unknown>): Promise<unknown>;
}

/** A combatant of the tracker as the parry reads it. */
interface ParryCombatant {
  id: string | null;
  name?: string | null;
  tokenId?: string | null;
  defeated?: boolean;
  actor?: ParryActor | null;
}

/** The core's combatant of a tracker combatant, its id the token's (as attacks name it); undefined when unreadable. */
function coreOf(c: ParryCombatant): CriticalCombatant | undefined {
  if (!c.actor) return undefined;
  try {
    return criticalCombatantFromActor(actorSource(c.actor as never), { id: c.tokenId ?? c.id ?? "" });
  } catch {
    return undefined;
  }
}

/**
 * The foes a combatant may parry (CR-PAR-01): every other combatant of the combat still in it,
 * by its token id, with the category of the weapon it carries first (CR-PAR-02).
 */
export function parryFoes(combat: TrackerCombat, self: ParryCombatant): ParryFoe[] {
  const foes: ParryFoe[] = [];
  for (const raw of Array.from(combat.combatants ?? []) as ParryCombatant[]) {
    const id = raw.tokenId ?? raw.id;
    if (!id || raw.id === self.id || raw.defeated) continue;
    const core = coreOf(raw);
    foes.push({ id, name: raw.name ?? core?.name ?? id, category: core ? foeCategory(core) : "melee" });
  }
  return foes;
}

/** Reads the dialog's number inputs (`parry.<foe>`) into OB by foe id; an empty box is 0, anything else as typed. */
export function readParryForm(form: Pick<HTMLFormElement, "elements">, foes: readonly ParryFoe[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of foes) {
    const raw = (form.elements.namedItem(`parry.${f.id}`) as { value?: string } | null)?.value?.trim() ?? "";
    out[f.id] = raw === "" ? 0 : Number(raw);
  }
  return out;
}

/** What {@link declareParryFor} asks: the allocation, or `undefined` when the dialog was closed. */
export type ParryAsk = (data: {
  name: string;
  combatant: CriticalCombatant;
  foes: ParryFoe[];
}) => Promise<Record<string, number> | undefined>;

/** Opens the parry dialog (DialogV2): one OB box per foe, the DB each gives and the OB left, updated as the player types. */
export const askParry: ParryAsk = async ({ name, combatant, foes }) => {
  const i18n = game.i18n as unknown as Localizer;
  const context = parryDialogContext(parryAllocation(combatant, foes), i18n);
  const content = await foundry.applications.handlebars.renderTemplate(PARRY_TEMPLATE, context as never);
  const result = await foundry.applications.api.DialogV2.wait({
    window: { title: windowTitle("FRAY.Critical.Parry.Title", { name }) },
    classes: ["fray", "fray-parry"],
    content,
    buttons: dialogButtons(PARRY_DIALOG_BUTTONS, {
      parry: (_event: unknown, button: HTMLButtonElement) => readParryForm(button.form!, foes),
    }),
    render: (_event: unknown, dialog: { element: HTMLElement }) => {
      const form = (dialog.element.querySelector("form") ?? dialog.element) as HTMLFormElement;
      form.addEventListener("input", () => {
        const view = parryAllocation(combatant, foes, readParryForm(form, foes));
        const left = dialog.element.querySelector("[data-parry-left]");
        if (left) {
          left.textContent = parryLeftText(view, i18n);
          left.classList.toggle("over", view.left < 0);
        }
        for (const f of view.foes) {
          const cell = dialog.element.querySelector(`[data-parry-db-for="${CSS.escape(f.id)}"]`);
          if (cell) cell.textContent = parryDbText(f.db, i18n);
        }
      });
    },
    rejectClose: false,
  } as never);
  return result && typeof result === "object" ? (result as Record<string, number>) : undefined;
};

/**
 * Declares a combatant's parry for the round (CR-PAR-01 to CR-PAR-03): only while it declares
 * now and the user owns it (or is the GM), as every declaration; asks the split, has the core
 * check it and writes it to the combatant's actor (`system.parry`, replacing the round's earlier
 * split: foes no longer named are deleted with `-=`).
 * @returns true when an allocation was written.
 * @throws FrayError `FRAY.Error.CannotParry` (constrained, out of the fight, injured, `noParry`),
 *   `FRAY.Error.Field` naming `parry.<foe>` for a value that is no whole number of 0 or more,
 *   `FRAY.Error.ParryTooMuch` when more OB is moved than there is.
 */
export async function declareParryFor(combat: TrackerCombat, combatant: ParryCombatant, ask: ParryAsk = askParry): Promise<boolean> {
  const row = trackerDeclarations(combat)?.rows.find((r) => r.id === combatant.id);
  if (!row?.canDeclare) {
    warn("FRAY.Flow.Declaration.NotNow");
    return false;
  }
  const actor = combatant.actor;
  const core = coreOf(combatant);
  if (!actor || !core) return false;
  const foes = parryFoes(combat, combatant);
  const blocked = parryAllocation(core, foes).blocked;
  if (blocked) throw new FrayError("FRAY.Error.CannotParry", { actor: core.name, reason: blocked.reason }, `${core.name} cannot parry`);
  const answer = await ask({ name: combatant.name ?? core.name, combatant: core, foes });
  if (!answer) return false;
  const next = declareParry(core, answer, { foes: foes.map((f) => f.id) });
  await actor.update(parryUpdate(core.parry, next.parry));
  return true;
}

/**
 * The actor update that replaces one allocation with another: the new entries, and `-=` for
 * every foe of the old one no longer named.
 */
export function parryUpdate(before: Readonly<Record<string, number>>, after: Readonly<Record<string, number>>): Record<string, unknown> {
  const update: Record<string, unknown> = {};
  for (const foe of Object.keys(before)) if (!(foe in after)) update[`system.parry.-=${foe}`] = null;
  for (const [foe, ob] of Object.entries(after)) update[`system.parry.${foe}`] = ob;
  return update;
}

/**
 * The start of a round on one actor (CR-PAR-01, RULES.md "Start of a round"): the parry of the
 * last round ends. Called on the GM's client as the round advances.
 */
export async function clearParryOn(actor: unknown): Promise<void> {
  const a = actor as ParryActor;
  let core: CriticalCombatant;
  try {
    core = criticalCombatantFromActor(actorSource(a as never));
  } catch {
    return;
  }
  if (!Object.keys(core.parry).length) return;
  await a.update(parryUpdate(core.parry, {}));
}

/**
 * Adds the parry to the tracker's declaration phase (CR-PAR-01, CR-INI-02): a _Parry_ button on
 * each row whose combatant the reader may declare for now, saying the OB already moved.
 */
export function renderParry(combat: unknown, html: HTMLElement): void {
  const c = combat as TrackerCombat;
  if (!c?.combatants) return;
  let view;
  try {
    view = trackerDeclarations(c);
  } catch (err) {
    reportError(err);
    return;
  }
  if (!view) return;
  for (const row of Array.from(html.querySelectorAll<HTMLElement>("[data-combatant-id]"))) {
    const declared = view.rows.find((r) => r.id === row.dataset.combatantId);
    const combatant = c.combatants.get(row.dataset.combatantId ?? "") as (ParryCombatant & { isOwner?: boolean }) | undefined;
    row.querySelector(".fray-parry-declare")?.remove();
    if (!declared?.canDeclare || !combatant) continue;
    const core = coreOf(combatant);
    const moved = core ? parriedOb(core) : 0;
    const host = row.querySelector(".fray-declaration") ?? row.querySelector(".token-name") ?? row;
    host.insertAdjacentHTML("beforeend", parryButtonHtml(combatant.id ?? "", moved, game.i18n as unknown as TrackerLocalizer));
    if (row.dataset.frayParryClicks) continue;
    row.dataset.frayParryClicks = "1";
    row.addEventListener("click", (event: Event) => {
      const target = event.target as HTMLElement | null;
      if (!target?.closest?.("[data-fray-parry]")) return;
      event.preventDefault();
      event.stopPropagation();
      void declareParryFor(c, combatant).catch(reportError);
    });
  }
}
