/**
 * The declaration phase of a round in the combat tracker, for rulesets whose combatants declare
 * before they act (HB-ACT-01 everyone at once, CR-INI-02 lowest initiative first, ZN-INI-01
 * players first; UD10 declares nothing and shows nothing). The combat's phase (`declare` then
 * `resolve`) is stored on the Combat (`flags.fray.phase`), each declaration on its Combatant
 * (`flags.fray.declaration`: free text, an optional action id of the ruleset's `actions()` and,
 * where the binding's `declaration` names them, the quick actions that go with it, HB-ACT-03),
 * both stamped with the round they belong to: a stamp of an older round reads as nothing, so a
 * new round starts in the `declare` phase with no declarations without any write.
 *
 * Who declares now, when the phase is over and who may read a declaration come from the pure
 * rules of `src/rules/core/declaration.ts`. The tracker shows a Declare button to the owner of
 * whoever declares now, the GM's Reveal button, and others' declarations only once
 * `declarationVisible` allows (they are hidden in the tracker, not secret: see RULES.md,
 * "Declarations in play").
 */
import type { ActionDef } from "../../rules/core/contract.js";
import { allDeclared, declarationVisible, declaringNow, type Declarant, type DeclarationPhase } from "../../rules/core/declaration.js";
import { FrayError } from "../../rules/core/errors.js";
import type { DeclarationOrder } from "../../rules/core/ruleset.js";
import { escapeHtml } from "../logic/round-actions.js";

/** The longest declaration text kept, in characters. */
export const DECLARATION_MAX_LENGTH = 500;

/** A declaration as stored on a Combatant (`flags.fray.declaration`). */
export interface StoredDeclaration {
  /** The combat round it was made in. */
  round: number;
  /** What the combatant will do, as its owner wrote it. */
  text: string;
  /** One of the ruleset's action ids (`actions()`), when one was chosen. */
  action?: string;
  /** The quick actions declared beside it (action ids the binding's `declaration.quick` names, HB-ACT-03). */
  quick?: string[];
  /** Sealed until the reveal: the id of the whisper to the GMs that holds it (combat/sealed.ts); the text is then empty. */
  sealed?: string;
}

/** The phase as stored on the Combat (`flags.fray.phase`). */
export interface StoredPhase {
  round: number;
  phase: DeclarationPhase;
}

/**
 * The phase of the combat's current round: `resolve` once the GM revealed this round's
 * declarations, else `declare`; `undefined` when the ruleset declares nothing (`none`) or the
 * combat has not started (round 0).
 * @param stored the Combat's `flags.fray.phase`.
 */
export function phaseOf(order: DeclarationOrder, stored: unknown, round: number): DeclarationPhase | undefined {
  if (order === "none" || !(round > 0)) return undefined;
  const s = stored as Partial<StoredPhase> | null | undefined;
  return s && s.round === round && s.phase === "resolve" ? "resolve" : "declare";
}

/** A Combatant's declaration of the given round; `undefined` when it made none this round. */
export function declarationOf(stored: unknown, round: number): StoredDeclaration | undefined {
  const s = stored as Partial<StoredDeclaration> | null | undefined;
  if (!s || s.round !== round || typeof s.text !== "string") return undefined;
  const quick = Array.isArray(s.quick) ? s.quick.filter((q): q is string => typeof q === "string" && q !== "") : [];
  return {
    round,
    text: s.text,
    ...(typeof s.action === "string" && s.action ? { action: s.action } : {}),
    ...(quick.length ? { quick } : {}),
    ...(typeof s.sealed === "string" && s.sealed ? { sealed: s.sealed } : {}),
  };
}

/**
 * A declaration from the Declare form, checked: text trimmed and at most
 * {@link DECLARATION_MAX_LENGTH} characters, the action (if any) one of `defs`, the quick actions
 * (if any) each one of `quickDefs` (duplicates dropped, HB-ACT-03); text, action or a quick action
 * must be given.
 * @throws FrayError `FRAY.Error.Field` naming `text`, `action` or `quick`.
 */
export function readDeclaration(
  input: { text?: unknown; action?: unknown; quick?: unknown },
  defs: readonly ActionDef[],
  round: number,
  quickDefs: readonly ActionDef[] = [],
): StoredDeclaration {
  const bad = (field: string, expected: string) =>
    new FrayError("FRAY.Error.Field", { field, expected }, `Field "${field}": expected ${expected}`);
  if (input.text !== undefined && typeof input.text !== "string") throw bad("text", "text");
  const text = (input.text ?? "").trim();
  if (text.length > DECLARATION_MAX_LENGTH) throw bad("text", `at most ${DECLARATION_MAX_LENGTH} characters`);
  const action = input.action === undefined || input.action === "" ? undefined : input.action;
  if (action !== undefined && (typeof action !== "string" || !defs.some((d) => d.id === action)))
    throw bad("action", `one of ${defs.map((d) => d.id).join(", ") || "no actions"}`);
  if (input.quick !== undefined && !Array.isArray(input.quick)) throw bad("quick", "a list of quick actions");
  const quick = [...new Set((input.quick as unknown[] | undefined) ?? [])];
  if (quick.some((q) => typeof q !== "string" || !quickDefs.some((d) => d.id === q)))
    throw bad("quick", `any of ${quickDefs.map((d) => d.id).join(", ") || "no quick actions"}`);
  if (!text && action === undefined && !quick.length) throw bad("text", "what the combatant will do");
  return { round, text, ...(action !== undefined ? { action } : {}), ...(quick.length ? { quick: quick as string[] } : {}) };
}

/** A combatant as the tracker's declaration view reads it. */
export interface DeclaringEntry extends Declarant {
  /** The reader owns this combatant. */
  owns: boolean;
  /** Its declaration of this round, if any. */
  declaration?: StoredDeclaration;
}

/** What a tracker row shows of the declaration phase. */
export interface DeclarationRow {
  id: string;
  /** This combatant declares now (CR-INI-02, HB-ACT-01, ZN-INI-01). */
  declaresNow: boolean;
  /** The reader may declare for it now: it declares now and the reader owns it. */
  canDeclare: boolean;
  /** It has declared this round. */
  declared: boolean;
  /** The declaration, when the reader may see it. */
  visible?: StoredDeclaration;
}

/** The declaration phase of the tracker as one reader sees it. */
export interface DeclarationView {
  order: DeclarationOrder;
  phase: DeclarationPhase;
  /** Everyone still in the fight has declared. */
  complete: boolean;
  /** The reader is the GM and the phase is `declare`: the Reveal button is offered. */
  canReveal: boolean;
  rows: DeclarationRow[];
}

/**
 * The tracker's view of the declaration phase for one reader (HB-ACT-01, CR-INI-02, ZN-INI-01):
 * who declares now (`declaringNow`), whether all have (`allDeclared`), and which declarations the
 * reader may see (`declarationVisible`). `undefined` when there is no phase (`phaseOf`).
 */
export function declarationView(
  order: DeclarationOrder,
  phase: DeclarationPhase | undefined,
  entries: readonly DeclaringEntry[],
  reader: { isGM: boolean },
): DeclarationView | undefined {
  if (!phase || order === "none") return undefined;
  const declared = new Set(entries.filter((e) => e.declaration).map((e) => e.id));
  const now = new Set(phase === "declare" ? declaringNow(order, entries, declared) : []);
  const rows = entries.map((e) => {
    // A sealed declaration whose whisper this reader does not hold shows only that it was made.
    const open = e.declaration && !e.declaration.sealed ? e.declaration : undefined;
    const visible = open && declarationVisible(order, phase, { isGM: reader.isGM, owns: e.owns }) ? open : undefined;
    return {
      id: e.id,
      declaresNow: now.has(e.id),
      canDeclare: now.has(e.id) && (e.owns || reader.isGM),
      declared: declared.has(e.id),
      ...(visible ? { visible } : {}),
    };
  });
  return { order, phase, complete: allDeclared(entries, declared), canReveal: reader.isGM && phase === "declare", rows };
}

/** Localization as the tracker uses it. */
export interface Localizer {
  localize(key: string): string;
  format(key: string, data: Record<string, string>): string;
}

/**
 * The HTML of one row's declaration: the visible text (escaped) with the action's label, a
 * "declared" mark where the reader may not see it, a Declare button where the reader declares
 * now, or a "waiting" mark for a combatant that declares now.
 * @param labels the action labels (i18n keys) by action id.
 */
export function declarationRowHtml(row: DeclarationRow, i18n: Localizer, labels: ReadonlyMap<string, string> = new Map()): string {
  const parts: string[] = [];
  if (row.visible) {
    const action = row.visible.action
      ? `<strong>${escapeHtml(i18n.localize(labels.get(row.visible.action) ?? row.visible.action))}</strong> `
      : "";
    const quick = row.visible.quick?.length
      ? ` <span class="fray-declaration-quick">+ ${row.visible.quick.map((q) => escapeHtml(i18n.localize(labels.get(q) ?? q))).join(", ")}</span>`
      : "";
    parts.push(`<span class="fray-declaration-text">${action}${escapeHtml(row.visible.text)}${quick}</span>`);
  } else if (row.declared) {
    parts.push(`<span class="fray-declaration-hidden">${escapeHtml(i18n.localize("FRAY.Flow.Declaration.Declared"))}</span>`);
  }
  if (row.canDeclare) {
    const label = escapeHtml(i18n.localize(row.declared ? "FRAY.Flow.Declaration.Change" : "FRAY.Flow.Declaration.Declare"));
    parts.push(`<button type="button" class="fray-declare" data-fray-declare="${escapeHtml(row.id)}">${label}</button>`);
  } else if (row.declaresNow && !row.declared) {
    parts.push(`<span class="fray-declaration-waiting">${escapeHtml(i18n.localize("FRAY.Flow.Declaration.Waiting"))}</span>`);
  }
  return parts.length ? `<div class="fray-declaration">${parts.join(" ")}</div>` : "";
}

/** The rule ID of each declaration order, for the phase banner. */
const ORDER_RULES: Record<Exclude<DeclarationOrder, "none">, string> = {
  simultaneous: "HB-ACT-01",
  "lowest-first": "CR-INI-02",
  "players-first": "ZN-INI-01",
};

/** The phase banner at the top of the tracker: the phase, the order's rule and the GM's Reveal button. */
export function phaseBannerHtml(view: DeclarationView, i18n: Localizer): string {
  const order = view.order === "none" ? "" : ORDER_RULES[view.order];
  const phase = escapeHtml(
    i18n.localize(view.phase === "declare" ? "FRAY.Flow.Declaration.PhaseDeclare" : "FRAY.Flow.Declaration.PhaseResolve"),
  );
  const reveal = view.canReveal
    ? ` <button type="button" class="fray-reveal" data-fray-reveal="1"${view.complete ? "" : ' data-fray-incomplete="1"'}>${escapeHtml(i18n.localize("FRAY.Flow.Declaration.Reveal"))}</button>`
    : "";
  return `<div class="fray-declaration-phase fray-phase-${view.phase}"><span>${phase}</span> <span class="fray-rule">${order}</span>${reveal}</div>`;
}
