/**
 * The order of resolution of a Hitbox turn in the combat tracker (HB-ACT-01, HB-RND-01; seed 002,
 * "Actions": actions happen at the same time unless the GM rules that some pre-empt others). Once
 * the declarations are revealed the tracker lists the turn's steps, computed by the core's
 * `resolutionSteps` from the declarations: each action the GM marks as pre-empting resolves in a
 * step of its own, in the order marked, then everyone else in one step. The marks are stored on
 * the Combat (`flags.fray.hitboxPreempt`: round and combatant ids in order), stamped with the
 * round, so a new turn starts without any; the GM sets them before ending the first step.
 */
import { resolutionSteps, type Declaration } from "../../../rules/hitbox/index.js";
import { declarationOf } from "../../combat/declarations.js";
import type { CombatantLike } from "../../combat/economy-store.js";
import { warn } from "../../notify.js";
import { stepOf, stepOpen, type StepCombat } from "./step-state.js";
import type { PlanStep, PlanView } from "./tracker-view.js";

export { planHtml, type PlanStep, type PlanView } from "./tracker-view.js";

/** The flag key of the pre-empting actions on the Combat. */
export const PREEMPT_FLAG = "hitboxPreempt";

/** The pre-empting actions as stored on the Combat (`flags.fray.hitboxPreempt`). */
export interface StoredPreempt {
  round: number;
  /** Combatant ids, in the order their actions resolve. */
  ids: string[];
}

/** A Combatant as the plan reads it. */
interface PlanCombatant extends CombatantLike {
  name?: string | null;
  defeated?: boolean;
}

/** A Combat as the plan reads and writes it. */
export interface PlanCombat extends StepCombat {
  combatants?: Iterable<unknown>;
}

/** The combatant ids marked as pre-empting in the combat's current round, in order. */
export function preemptOf(combat: PlanCombat): string[] {
  const raw = combat.getFlag?.("fray", PREEMPT_FLAG) as Partial<StoredPreempt> | null | undefined;
  if (!raw || raw.round !== (combat.round ?? 0) || !Array.isArray(raw.ids)) return [];
  return raw.ids.filter((id): id is string => typeof id === "string");
}

/**
 * The turn's resolution steps (HB-ACT-01) while a step is open: the combatants still in the fight,
 * their declarations of this round, and the pre-empting marks, through the core's
 * `resolutionSteps`. A combatant who declared nothing resolves with the rest (the GM rules on
 * stragglers). `undefined` outside the `resolve` phase.
 */
export function planView(combat: PlanCombat, isGM: boolean): PlanView | undefined {
  if (!stepOpen(combat)) return undefined;
  const round = combat.round ?? 0;
  const marks = preemptOf(combat);
  const list = (Array.from(combat.combatants ?? []) as PlanCombatant[]).filter((c) => c.id && !c.defeated);
  const byId = new Map(list.map((c) => [c.id!, c]));
  const declarations: Declaration[] = list.map((c) => {
    const first = marks.indexOf(c.id!);
    return { actor: c.id!, action: { kind: "none" }, quick: [], ...(first >= 0 ? { first } : {}) };
  });
  const current = stepOf(combat);
  const steps = resolutionSteps(declarations).map((s, i) => ({
    step: i + 1,
    preempts: !s.simultaneous,
    combatants: s.actors.map((id) => {
      const c = byId.get(id)!;
      return { id, name: c.name ?? "", declared: Boolean(declarationOf(c.getFlag("fray", "declaration"), round)) };
    }),
    state: (i + 1 < current.step ? "done" : i + 1 === current.step ? "current" : "next") as PlanStep["state"],
  }));
  return { steps, canMark: isGM && current.step === 1 && current.held.length === 0 };
}

/**
 * The GM marks a combatant's action as pre-empting the others, or takes the mark back
 * (HB-ACT-01): a marked action resolves in a step of its own, after those marked before it. Only
 * a GM, only during the first step of the turn with nothing held yet (the order cannot change
 * once a step's damage is on its way); refused with a warning otherwise.
 * @returns true when the marks were written.
 */
export async function togglePreempt(combat: PlanCombat, combatantId: string, isGM = Boolean(game.user?.isGM)): Promise<boolean> {
  if (!isGM) {
    warn("FRAY.Hitbox.Plan.GMOnly");
    return false;
  }
  const view = planView(combat, true);
  if (!view?.canMark) {
    warn("FRAY.Hitbox.Plan.Locked");
    return false;
  }
  if (!view.steps.some((s) => s.combatants.some((c) => c.id === combatantId))) return false;
  const marks = preemptOf(combat);
  const ids = marks.includes(combatantId) ? marks.filter((id) => id !== combatantId) : [...marks, combatantId];
  await combat.setFlag?.("fray", PREEMPT_FLAG, { round: combat.round ?? 0, ids } satisfies StoredPreempt);
  return true;
}
