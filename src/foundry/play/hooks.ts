/**
 * The hooks of the play pipeline, for modules and macros (documented in docs/development.md, "The play
 * pipeline"). A `pre` hook is called with `Hooks.call`: a handler returning `false` stops what
 * follows. The others are called with `Hooks.callAll` once the stage is done.
 */

/** Hook names, by stage. */
export const HOOKS = {
  /** `(workflow)` before the attack pays and rolls; `false` stops it. */
  preAttack: "fray.preAttack",
  /** `(workflow, outcome)` after the card is posted. */
  attack: "fray.attack",
  /** `(context)` on the applying GM before damage is applied; `false` stops it. */
  preApplyDamage: "fray.preApplyDamage",
  /** `(context)` after the damage is applied, with the core's report. */
  applyDamage: "fray.applyDamage",
  /** `(context)` after an application is undone. */
  undoDamage: "fray.undoDamage",
} as const;

/** The `Hooks` global as the pipeline calls it. */
interface HooksLike {
  call?(name: string, ...args: unknown[]): boolean;
  callAll?(name: string, ...args: unknown[]): boolean;
}

function hooks(): HooksLike | undefined {
  return (globalThis as { Hooks?: HooksLike }).Hooks;
}

/**
 * Calls a `pre` hook; `false` when a handler returned `false` (the stage stops).
 * Without a `Hooks.call` (outside Foundry) nothing can stop the stage.
 */
export function callHook(name: string, ...args: unknown[]): boolean {
  const h = hooks();
  if (typeof h?.call !== "function") return true;
  return h.call(name, ...args) !== false;
}

/** Calls a hook on every handler (nothing can stop it). */
export function callHookAll(name: string, ...args: unknown[]): void {
  hooks()?.callAll?.(name, ...args);
}
