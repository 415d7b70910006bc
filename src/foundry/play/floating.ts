/**
 * Damage and healing float as numbers over the token on every client that can see it. The
 * client that applies a change passes the vital states before and after in the update's
 * options (`{ fray: { vitals: { before, after } } }`); Foundry hands update options to the
 * `updateActor` hook on every client, where each one draws the text in its own language.
 */
import type { VitalState } from "../../rules/core/types.js";
import { floatingChanges, floatingText } from "../logic/floating.js";

/** The update options that carry a change of vitals. */
export interface FloatingOptions {
  fray?: { vitals?: { before: VitalState; after: VitalState } };
}

/** The options to pass with an actor update that changes vitals, so every client floats the change. */
export function floatingOptions(before: VitalState, after: VitalState): FloatingOptions {
  return { fray: { vitals: { before, after } } };
}

interface TokenView {
  visible?: boolean;
  center: { x: number; y: number };
}

/** Draws the changes over each of the actor's tokens this client can see. */
export function showFloating(actor: { getActiveTokens(): unknown[] }, before: VitalState, after: VitalState): number {
  const changes = floatingChanges(before, after);
  const ui = (canvas as unknown as { interface?: { createScrollingText?(p: unknown, t: string, o: unknown): unknown } } | undefined)
    ?.interface;
  if (!changes.length || !ui?.createScrollingText) return 0;
  let shown = 0;
  for (const token of actor.getActiveTokens() as TokenView[]) {
    if (token.visible === false) continue;
    changes.forEach((c, i) => {
      ui.createScrollingText!(
        { x: token.center.x, y: token.center.y - i * 24 },
        floatingText(c, (k) => game.i18n.localize(k)),
        {
          anchor: CONST.TEXT_ANCHOR_POINTS.TOP,
          direction: c.delta < 0 ? CONST.TEXT_ANCHOR_POINTS.BOTTOM : CONST.TEXT_ANCHOR_POINTS.TOP,
          fill: c.delta < 0 ? 0xe05050 : 0x50c878,
          stroke: 0x000000,
          strokeThickness: 4,
          fontSize: 28,
          jitter: 0.25,
        },
      );
      shown += 1;
    });
  }
  return shown;
}

/** Registers the display: every client floats the vitals changes an update carries. */
export function registerFloatingNumbers(): void {
  Hooks.on("updateActor", (actor: unknown, _changes: unknown, options: unknown) => {
    const vitals = (options as FloatingOptions | undefined)?.fray?.vitals;
    if (vitals) showFloating(actor as { getActiveTokens(): unknown[] }, vitals.before, vitals.after);
  });
}
