/**
 * The round economy in the combat tracker, for the world's ruleset (UD-ACT-01, UD-REA-01,
 * CR-AP-01, ZN-ACT-01, ZN-MOV-01): small pips after each combatant's name for its limited slots
 * (UD10 movement, action and reaction), hollow once spent, and a `value/max` badge for each pool
 * (Critical's action points, Zones' speed and effort points), with a tooltip naming them. The GM
 * clicks a pip to mark that slot used or unused; players only see them.
 */
import { canSetFlags, replaceFlag } from "../logic/flags.js";
import type { ActionDef } from "../../rules/core/contract.js";
import { pips, poolBadges } from "../logic/economy.js";
import {
  DECLARE_DIALOG_BUTTONS,
  declarationFormHtml,
  declarableActions as splitDeclarable,
  pipsHtml as pipsViewHtml,
  poolBadgesHtml,
  type QuickChoices,
} from "./tracker-view.js";
import { reportError, warn, windowTitle } from "../notify.js";
import { activeBinding } from "../registry.js";
import { actionsOf, economyOf, economySpecOf, toggleSlotOn, type CombatantLike } from "./economy-store.js";
import {
  declarationRowHtml,
  declarationView,
  phaseBannerHtml,
  phaseOf,
  readDeclaration,
  type DeclarationView,
  type DeclaringEntry,
} from "./declarations.js";
import { renderForecastButton } from "../forecast/tracker-button.js";
import { readableDeclaration, sealDeclaration, sealsDeclarations, unsealDeclarations } from "./sealed.js";
import { dialogButtons, type DialogFormButton } from "../logic/dialog-buttons.js";
import { linkRuleIds } from "../rules-compendium/links.js";

/** A Combatant as the declaration phase reads it. */
interface DeclaringCombatant extends CombatantLike {
  initiative?: number | null;
  defeated?: boolean;
  hasPlayerOwner?: boolean;
  flags?: { fray?: { tiebreak?: number[] } };
}

/** A Combat as the tracker reads it. */
export interface TrackerCombat {
  id?: string | null;
  round?: number;
  combatants?: Iterable<unknown> & { get(id: string): CombatantLike | undefined };
  getFlag?(scope: string, key: string): unknown;
  setFlag?(scope: string, key: string, value: unknown): Promise<unknown>;
}

/**
 * The declaration phase of a combat for the current user (HB-ACT-01, CR-INI-02, ZN-INI-01), from
 * the world's ruleset's `declaration`; `undefined` when it declares nothing or the combat has not
 * started.
 */
export function trackerDeclarations(combat: TrackerCombat, isGM = Boolean(game.user?.isGM)): DeclarationView | undefined {
  const order = activeBinding().ruleset.declaration;
  const round = combat.round ?? 0;
  const phase = phaseOf(order, combat.getFlag?.("fray", "phase"), round);
  if (!phase) return undefined;
  const entries: DeclaringEntry[] = [];
  for (const raw of Array.from(combat.combatants ?? []) as DeclaringCombatant[]) {
    if (!raw.id) continue;
    const declaration = readableDeclaration(combat.id ?? "", raw, round);
    entries.push({
      id: raw.id,
      player: Boolean(raw.hasPlayerOwner),
      ...(typeof raw.initiative === "number" ? { initiative: raw.initiative } : {}),
      ...(raw.flags?.fray?.tiebreak ? { tiebreak: raw.flags.fray.tiebreak } : {}),
      out: Boolean(raw.defeated),
      owns: Boolean(raw.isOwner),
      ...(declaration ? { declaration } : {}),
    });
  }
  return declarationView(order, phase, entries, { isGM });
}

/** What the Declare form answers: free text, the action id ("" for none) and the quick actions ticked. */
export interface DeclarationAnswer {
  text: string;
  action: string;
  quick?: string[];
}

/** Asks the Declare form: free text, an optional action and the quick actions; `undefined` when closed. */
async function askDeclaration(
  name: string,
  labels: { id: string; label: string }[],
  current?: { text: string; action?: string; quick?: string[] },
  quick?: QuickChoices,
): Promise<DeclarationAnswer | undefined> {
  const content = declarationFormHtml(labels, game.i18n, current, quick);
  const result = await foundry.applications.api.DialogV2.wait({
    window: { title: windowTitle("FRAY.Flow.Declaration.Title", { name }) },
    content,
    buttons: dialogButtons(DECLARE_DIALOG_BUTTONS, {
      declare: (_event: unknown, button: DialogFormButton) => ({
        text: button.form?.elements.text?.value ?? "",
        action: button.form?.elements.action?.value ?? "",
        quick: (quick?.actions ?? []).filter((q) => button.form?.elements[`quick.${q.id}`]?.checked).map((q) => q.id),
      }),
    }),
    rejectClose: false,
  } as never);
  return result && typeof result === "object" ? (result as DeclarationAnswer) : undefined;
}

/** A combatant's actions as the Declare form splits them, by the world's ruleset's declaration (HB-ACT-01, HB-ACT-03). */
export function declarableActions(defs: readonly ActionDef[]): { main: ActionDef[]; quick: ActionDef[] } {
  return splitDeclarable(defs, activeBinding().declaration);
}

/**
 * Declares for a combatant (HB-ACT-01, CR-INI-02, ZN-INI-01): only while it declares now and the
 * user owns it (or is the GM); asks what it will do and stores the checked declaration on the
 * Combatant, stamped with the round.
 * @returns true when a declaration was stored.
 */
export async function declareFor(
  combat: TrackerCombat,
  combatant: CombatantLike & { name?: string | null },
  ask = askDeclaration,
): Promise<boolean> {
  const view = trackerDeclarations(combat);
  const row = view?.rows.find((r) => r.id === combatant.id);
  if (!view || !row?.canDeclare) {
    warn("FRAY.Flow.Declaration.NotNow");
    return false;
  }
  const { main, quick } = declarableActions(actionsOf(combatant));
  const current = readableDeclaration(combat.id ?? "", combatant, combat.round ?? 0);
  const legend = activeBinding().declaration?.quickLabel ?? "";
  const answer = await ask(
    combatant.name ?? "",
    main.map((d) => ({ id: d.id, label: d.label })),
    current,
    quick.length ? { legend, actions: quick.map((d) => ({ id: d.id, label: d.label })) } : undefined,
  );
  if (!answer) return false;
  const declaration = readDeclaration(answer, main, combat.round ?? 0, quick);
  if (sealsDeclarations()) {
    const labels = new Map([...main, ...quick].map((d) => [d.id, d.label] as const));
    await sealDeclaration(combat.id ?? "", combatant, declaration, labels);
  } else await replaceFlag(combatant, "declaration", declaration);
  return true;
}

/**
 * The GM reveals this round's declarations and moves the combat to the `resolve` phase; players
 * are refused with a warning.
 * @returns true when the phase was written.
 */
export async function revealDeclarations(combat: TrackerCombat): Promise<boolean> {
  if (!game.user?.isGM) {
    warn("FRAY.Flow.Declaration.GMOnly");
    return false;
  }
  if (!canSetFlags(combat) || !(typeof combat.round === "number" && combat.round > 0)) return false;
  if (sealsDeclarations()) await unsealDeclarations(combat, (c) => declarableActions(actionsOf(c)));
  await replaceFlag(combat, "phase", { round: combat.round, phase: "resolve" });
  return true;
}

/** The pools' badges of one combatant: `value/max` with the pool's name as tooltip. */
export function poolsHtml(combatant: CombatantLike): string {
  return poolBadgesHtml(poolBadges(economyOf(combatant), economySpecOf(combatant)), game.i18n);
}

/** The pips' HTML of one combatant; for the GM the movement, action and reaction pips are buttons. */
export function pipsHtml(combatant: CombatantLike, editable = Boolean(game.user?.isGM)): string {
  return pipsViewHtml(pips(economyOf(combatant), economySpecOf(combatant)), editable, game.i18n);
}

/** The pip a click landed on, if any. */
function clickedSlot(event: Event): string | undefined {
  const target = event.target as HTMLElement | null;
  return target?.closest?.<HTMLElement>("[data-fray-slot]")?.dataset.fraySlot;
}

/** `renderCombatTracker`: adds the pips to each combatant row of the viewed combat. */
export function onRenderCombatTracker(app: { viewed?: unknown }, html: HTMLElement): void {
  const combat = (app.viewed ?? game.combat) as TrackerCombat | null;
  // No combat viewed: the Forecast button of an earlier one goes.
  if (!combat?.combatants) return renderForecastButton({ combatants: [] }, html);
  const combatants = combat.combatants;
  let declarations: DeclarationView | undefined;
  try {
    declarations = trackerDeclarations(combat);
  } catch (err) {
    reportError(err);
  }
  if (declarations) renderBanner(combat, html, declarations);
  renderForecastButton(combat, html);
  for (const row of Array.from(html.querySelectorAll<HTMLElement>("[data-combatant-id]"))) {
    const combatant = combatants.get(row.dataset.combatantId ?? "");
    if (!combatant) continue;
    row.querySelector(".fray-economy")?.remove();
    row.querySelector(".fray-declaration")?.remove();
    const declared = declarations?.rows.find((r) => r.id === combatant.id);
    const labels = new Map(
      declared?.visible?.action || declared?.visible?.quick ? actionsOf(combatant).map((a) => [a.id, a.label] as const) : [],
    );
    const declaration = declared ? declarationRowHtml(declared, game.i18n, labels) : "";
    (row.querySelector(".token-name") ?? row).insertAdjacentHTML(
      "beforeend",
      `<div class="fray-economy">${pipsHtml(combatant)}${poolsHtml(combatant)}</div>${declaration}`,
    );
    if (declared?.canDeclare && !row.dataset.frayDeclareClicks) {
      row.dataset.frayDeclareClicks = "1";
      row.addEventListener("click", (event: Event) => {
        const target = event.target as HTMLElement | null;
        if (!target?.closest?.("[data-fray-declare]")) return;
        event.preventDefault();
        event.stopPropagation();
        void declareFor(combat, combatant).catch(reportError);
      });
    }
    if (!game.user?.isGM || row.dataset.frayPipClicks) continue;
    // One listener per row, however often the tracker renders it.
    row.dataset.frayPipClicks = "1";
    row.addEventListener("click", (event: Event) => {
      const slot = clickedSlot(event);
      if (!slot) return;
      // A pip click is not a click on the combatant (which would pan to its token).
      event.preventDefault();
      event.stopPropagation();
      void toggleSlotOn(combatant, slot).catch(reportError);
    });
  }
  try {
    activeBinding().renderTracker?.(combat, html);
  } catch (err) {
    reportError(err);
  }
  // The pips and pools name their rules (UD-ACT-01, CR-AP-01 ...) in their tooltips.
  linkRuleIds(html);
}

/** Puts the phase banner with the GM's Reveal button at the top of the tracker. */
function renderBanner(combat: TrackerCombat, html: HTMLElement, view: DeclarationView): void {
  html.querySelector(".fray-declaration-phase")?.remove();
  const host = html.querySelector<HTMLElement>(".combat-tracker") ?? html;
  host.insertAdjacentHTML("afterbegin", phaseBannerHtml(view, game.i18n));
  if (!view.canReveal || host.dataset.frayRevealClicks) return;
  host.dataset.frayRevealClicks = "1";
  host.addEventListener("click", (event: Event) => {
    const target = event.target as HTMLElement | null;
    if (!target?.closest?.("[data-fray-reveal]")) return;
    event.preventDefault();
    event.stopPropagation();
    void revealDeclarations(combat).catch(reportError);
  });
}
