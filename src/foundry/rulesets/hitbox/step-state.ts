/**
 * The state of Hitbox's resolution step as the Combat stores it (HB-ACT-01): the flag, its
 * shape, the state of the current round and whether a step is open. Read by the tracker's plan
 * (plan.ts) and the step's actions (step.ts).
 */
import { phaseOf } from "../../combat/declarations.js";
import { activeBinding } from "../../registry.js";

/** The flag key of the step state on the Combat. */
export const STEP_FLAG = "hitboxStep";

/** One application held until its step ends: the card and target index, and who asked for it. */
export interface HeldApplication {
  messageId: string;
  index: number;
  userId: string;
}

/** The step state as stored on the Combat (`flags.fray.hitboxStep`). */
export interface StoredStep {
  /** The combat round (turn) it belongs to. */
  round: number;
  /** The step number within the turn, from 1. */
  step: number;
  held: HeldApplication[];
}

/** A Combat as the step reads and writes it. */
export interface StepCombat {
  round?: number;
  started?: boolean;
  getFlag?(scope: string, key: string): unknown;
  setFlag?(scope: string, key: string, value: unknown): Promise<unknown>;
}

/**
 * The step state of the combat's current round: the stored one when it is of this round, else
 * step 1 with nothing held (a new turn needs no reset write).
 */
export function stepOf(combat: StepCombat): StoredStep {
  const round = combat.round ?? 0;
  const raw = combat.getFlag?.("fray", STEP_FLAG) as Partial<StoredStep> | null | undefined;
  if (!raw || raw.round !== round || typeof raw.step !== "number" || raw.step < 1) return { round, step: 1, held: [] };
  const held = Array.isArray(raw.held)
    ? raw.held.filter(
        (h): h is HeldApplication =>
          typeof h === "object" &&
          h !== null &&
          typeof h.messageId === "string" &&
          typeof h.index === "number" &&
          typeof h.userId === "string",
      )
    : [];
  return { round, step: raw.step, held };
}

/**
 * True while a step is open in the combat (HB-ACT-01): a Hitbox combat that has started, in the
 * `resolve` phase of its current round (the GM revealed the declarations).
 */
export function stepOpen(combat: StepCombat | undefined): combat is StepCombat {
  if (!combat?.started) return false;
  const order = activeBinding().ruleset.declaration;
  return phaseOf(order, combat.getFlag?.("fray", "phase"), combat.round ?? 0) === "resolve";
}
