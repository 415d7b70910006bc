/**
 * Fray's buttons in the token HUD, added on v13's `renderTokenHUD(hud, element)` hook (the render
 * hook every ApplicationV2 calls with its HTMLElement; the HUD is
 * `foundry.applications.hud.TokenHUD`, whose `actor` is the token's actor): the effect dialog
 * (play/effect-dialog.ts) for the GM and the actor's owners, and the buttons the world ruleset's
 * binding adds for the actor as it stands (`hudButtons`: Critical's first aid to a dying
 * combatant). Each is a real `<button>` with an `aria-label` and a tooltip, in the HUD's right
 * column.
 */
import { formatKey, reportError } from "../notify.js";
import { activeBinding, type HudButton } from "../registry.js";
import { openEffectDialog } from "./effect-dialog.js";
import { mayStartEffect } from "./effects.js";

/** The HUD as the hook hands it over, as far as this module reads it. */
interface HudLike {
  actor?: unknown;
  document?: { actor?: unknown } | null;
  object?: { actor?: unknown } | null;
}

/** An element of the HUD as this module writes it. */
interface HudElement {
  ownerDocument?: { createElement(tag: string): HudElement } | null;
  querySelector(selector: string): HudElement | null;
  append(...nodes: HudElement[]): void;
  addEventListener(type: string, fn: (event: { preventDefault(): void }) => void): void;
  setAttribute(name: string, value: string): void;
  className: string;
  innerHTML: string;
  type?: string;
  dataset: Record<string, string | undefined>;
}

/** The token's actor of a HUD. */
function actorOf(hud: HudLike): unknown {
  return hud.actor ?? hud.document?.actor ?? hud.object?.actor ?? null;
}

/**
 * The buttons the HUD shows for an actor to the current user: the effect dialog when they may
 * start effects on it (its owner, or a GM), then the ruleset's own.
 */
export function hudButtonsFor(actor: unknown): HudButton[] {
  if (!actor) return [];
  const buttons: HudButton[] = [];
  if (mayStartEffect(actor))
    buttons.push({ id: "effect", icon: "fa-solid fa-hourglass-half", label: "FRAY.Effect.Open", run: () => openEffectDialog(actor) });
  buttons.push(...(activeBinding().hudButtons?.(actor) ?? []));
  return buttons;
}

/** Adds the buttons to a rendered token HUD's right column (`.col.right`). */
export function addHudButtons(hud: unknown, element: unknown): void {
  const root = element as HudElement | null;
  const column = root?.querySelector(".col.right") ?? null;
  if (!column) return;
  const doc = column.ownerDocument ?? (globalThis as { document?: HudElement["ownerDocument"] }).document;
  if (!doc) return;
  for (const b of hudButtonsFor(actorOf(hud as HudLike))) {
    const button = doc.createElement("button");
    const label = formatKey(b.label);
    button.type = "button";
    button.className = `control-icon fray-hud-${b.id}`;
    button.dataset.frayHud = b.id;
    button.dataset.tooltip = label;
    button.setAttribute("aria-label", label);
    button.innerHTML = `<i class="${b.icon}" aria-hidden="true"></i>`;
    button.addEventListener("click", (event) => {
      event.preventDefault();
      void b.run().catch(reportError);
    });
    column.append(button);
  }
}

/** Registers the HUD buttons on `renderTokenHUD`. Call from the `init` hook. */
export function registerTokenHud(): void {
  Hooks.on("renderTokenHUD", (hud: unknown, element: unknown) => {
    try {
      addHudButtons(hud, element);
    } catch (err) {
      reportError(err);
    }
  });
}
