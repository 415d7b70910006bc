/**
 * The state of an attack card, per target, and who may press which of its buttons. Pure: no
 * Foundry globals, so every transition is unit-tested. The Foundry glue stores a
 * {@link TargetState} per target on the `attack` ChatMessage and re-renders the card from it.
 *
 * Phases of one target (UD-ATK-02, UD-REA-01 to UD-REA-04, UD-DMG-01 to UD-DMG-05):
 * - `missed`: the check did not meet the defense rating; nothing follows;
 * - `hit`: the check hit; the defender may parry or dodge (once), the attacker may roll damage;
 * - `stopped`: the reaction beat the attack; nothing follows;
 * - `damage`: damage was rolled (the chance to react is gone); it may be applied;
 * - `applied`: damage was applied; it may be undone (back to `damage`).
 */
import { FrayError } from "../../rules/core/errors.js";
import type { AttackRequest, ForcedCheckResult } from "../../rules/core/contract.js";
import type { AttackOdds, AttackResult, DamagePacket } from "../../rules/core/ruleset.js";
import type { DamageReport, ForcedCheck, VitalState } from "../../rules/core/types.js";
import type { UndoRecord } from "./undo.js";

/** A reaction the core offers against an attack, as the card keeps it for its buttons. */
export interface OfferedReaction {
  id: "parry" | "dodge" | "block";
  available: boolean;
  /** i18n key of why it is not available. */
  reason?: string;
  /** The reaction's rule ID, shown on its button (ZN-MEL-03 for a Zones dodge); the card's default when absent. */
  rule?: string;
}

/**
 * One target of an attack card: who it is, the neutral request that attacked it, and the core's
 * results stored whole as the core returned them (JSON-safe; the Rolls travel beside them as the
 * message's `rolls`). Nothing here is a rebuilt or flattened copy: a later step rebuilds the
 * ruleset's input from `request` through `Ruleset.input` and replays the stored dice.
 */
export interface TargetState {
  /** UUID of the target's actor (a token's synthetic actor when unlinked). */
  actorUuid: string;
  /** UUID of the target's token on the scene, when targeted there. */
  tokenUuid: string;
  /** Display name at the time of the attack. */
  name: string;
  /** The neutral request of this target, every situation value resolved (src/rules/core/contract.ts). */
  request: AttackRequest;
  /** The core's attack result, with a reaction made on the card folded in by the ruleset. */
  result: AttackResult;
  /** Mirror of `result.hit` for readers of the card (macros, tests); the card reads `result`. */
  hit: boolean;
  /** Exact odds computed before the roll. */
  odds?: AttackOdds;
  /** Reactions the core offered against this attack when it was made (UD-REA-02, UD-REA-04). */
  reactions: OfferedReaction[];
  /** The defender chose not to react. */
  reactionDeclined?: boolean;
  /** The reaction in `result` was made on the card, after the attack was rolled (UD-REA-01). */
  reactedOnCard?: boolean;
  /** The damage the core rolled, as it returned it. */
  damage?: DamagePacket;
  /** The core's report of the last application, kept for the card after an undo too. */
  report?: DamageReport;
  /** What applying the damage did, exactly, so it can be undone. */
  applied?: UndoRecord;
  /** The target was undone at least once. */
  undone?: boolean;
  /** The checks the applied damage forced (`report.forced`) as rolled so far, in order (HB-DMG-04). */
  forced?: ForcedCheckResult[];
}

/** A target's phase. */
export type TargetPhase = "missed" | "hit" | "stopped" | "damage" | "applied";

/** The buttons of a target's row on the card. */
export type CardAction = "parry" | "dodge" | "block" | "noReaction" | "rollDamage" | "applyDamage" | "forcedCheck" | "undoDamage";

/** Every card action, in the order the card shows them. */
export const CARD_ACTIONS: readonly CardAction[] = [
  "parry",
  "dodge",
  "block",
  "noReaction",
  "rollDamage",
  "applyDamage",
  "forcedCheck",
  "undoDamage",
];

/** The phase of a target from its state. */
export function targetPhase(t: TargetState): TargetPhase {
  if (!t.result.hit) return "missed";
  if (!t.result.lands) return "stopped";
  if (t.applied) return "applied";
  if (t.damage) return "damage";
  return "hit";
}

/** Who is looking at the card. */
export interface Viewer {
  isGM: boolean;
  /** Owns the attacking actor. */
  ownsAttacker: boolean;
  /** Owns this target's actor. */
  ownsTarget: boolean;
}

/** What the card offers at this moment besides the viewer (options, combat economy). */
export interface CardContextFlags {
  /** Reactions the core offers against this attack, with availability (UD-REA-02, UD-REA-04). */
  reactions?: OfferedReaction[];
}

/** A button as the card shows it to one viewer. */
export interface ButtonState {
  action: CardAction;
  /** i18n key of the label. */
  label: string;
  /** Shown to this viewer. */
  visible: boolean;
  /** Shown but not pressable; `reason` is an i18n key. */
  disabled: boolean;
  reason?: string;
  /** Rule ID behind the button. */
  rule: string;
}

const LABELS: Record<CardAction, string> = {
  parry: "FRAY.Flow.Button.parry",
  dodge: "FRAY.Flow.Button.dodge",
  block: "FRAY.Flow.Button.block",
  noReaction: "FRAY.Flow.Button.noReaction",
  rollDamage: "FRAY.Flow.Button.rollDamage",
  applyDamage: "FRAY.Flow.Button.applyDamage",
  forcedCheck: "FRAY.Flow.Button.forcedCheck",
  undoDamage: "FRAY.Flow.Button.undoDamage",
};

const RULES: Record<CardAction, string> = {
  parry: "UD-REA-02",
  dodge: "UD-REA-04",
  block: "ZN-MEL-04",
  noReaction: "UD-REA-01",
  rollDamage: "UD-DMG-01",
  applyDamage: "UD-DMG-02",
  forcedCheck: "",
  undoDamage: "UD-DMG-02",
};

/** True for the card actions that are a defender's reaction (parry, dodge, block). */
export function isReaction(action: CardAction): action is OfferedReaction["id"] {
  return action === "parry" || action === "dodge" || action === "block";
}

/** The phase in which an action may be taken. */
const PHASE_OF: Record<CardAction, TargetPhase> = {
  parry: "hit",
  dodge: "hit",
  block: "hit",
  noReaction: "hit",
  rollDamage: "hit",
  applyDamage: "damage",
  forcedCheck: "applied",
  undoDamage: "applied",
};

/**
 * Whether the viewer may press a button at all, phase aside: reactions belong to the defender's
 * owner or the GM (UD-REA-01); rolling damage to the attacker's owner or the GM; applying to
 * either side's owner or the GM (a player without the target goes through the GM); undoing to
 * the target's owner or the GM.
 */
export function mayPress(action: CardAction, viewer: Viewer): boolean {
  if (viewer.isGM) return true;
  switch (action) {
    case "parry":
    case "dodge":
    case "block":
    case "noReaction":
      return viewer.ownsTarget;
    case "rollDamage":
      return viewer.ownsAttacker;
    case "applyDamage":
      return viewer.ownsAttacker || viewer.ownsTarget;
    case "forcedCheck":
    case "undoDamage":
      return viewer.ownsTarget;
  }
}

/**
 * The next check the applied damage forced that is not rolled yet (a Blackout test, HB-DMG-04),
 * or `undefined` when none is left.
 */
export function pendingForced(t: TargetState): ForcedCheck | undefined {
  if (!t.applied) return undefined;
  return t.report?.forced?.[t.forced?.length ?? 0];
}

/** Whether the action fits the target's phase (and a reaction was not made or declined yet). */
export function phaseAllows(action: CardAction, t: TargetState): boolean {
  if (targetPhase(t) !== PHASE_OF[action]) return false;
  if ((isReaction(action) || action === "noReaction") && (t.result.reaction || t.reactionDeclined)) return false;
  if (action === "forcedCheck" && !pendingForced(t)) return false;
  return true;
}

/**
 * The buttons of one target's row for one viewer: visible when the phase allows the action and
 * the viewer may press it; reactions the core marks unavailable are shown disabled with the
 * core's reason (ranged attack, reaction used, no parrying weapon ...).
 */
export function buttonsFor(t: TargetState, viewer: Viewer, flags: CardContextFlags = {}): ButtonState[] {
  return CARD_ACTIONS.map((action) => {
    const visible = phaseAllows(action, t) && mayPress(action, viewer);
    let disabled = false;
    let reason: string | undefined;
    let rule = RULES[action];
    if (isReaction(action)) {
      const option = (flags.reactions ?? t.reactions).find((r) => r.id === action);
      if (!option) return { action, label: LABELS[action], visible: false, disabled: true, rule };
      rule = option.rule ?? rule;
      if (!option.available) {
        disabled = true;
        reason = option.reason;
      }
    }
    if (action === "forcedCheck") rule = pendingForced(t)?.rule ?? "";
    return { action, label: LABELS[action], visible, disabled, reason, rule };
  });
}

/**
 * Refuses an action the phase does not allow, so a second click (or a second user) changes
 * nothing.
 * @throws FrayError `FRAY.Flow.Error.CardState` naming the action.
 */
export function assertAllowed(action: CardAction, t: TargetState): void {
  if (!phaseAllows(action, t)) {
    throw new FrayError("FRAY.Flow.Error.CardState", { action: LABELS[action] }, `${action} is not possible in phase ${targetPhase(t)}`);
  }
}

/**
 * The target after the defender reacted on the card (UD-REA-03): the core's result with the
 * reaction folded in by the ruleset.
 */
export function withReaction(t: TargetState, id: OfferedReaction["id"], result: AttackResult): TargetState {
  assertAllowed(id, t);
  return { ...t, result, reactedOnCard: true };
}

/** The target after the defender declined to react (UD-REA-01). */
export function withoutReaction(t: TargetState): TargetState {
  assertAllowed("noReaction", t);
  return { ...t, reactionDeclined: true };
}

/** The target after damage was rolled (UD-DMG-01); reacting is no longer possible. */
export function withDamage(t: TargetState, packet: DamagePacket): TargetState {
  assertAllowed("rollDamage", t);
  return { ...t, damage: packet };
}

/** The target after damage was applied (UD-DMG-02 to UD-DMG-05). */
export function withApplied(t: TargetState, record: UndoRecord, report: DamageReport): TargetState {
  assertAllowed("applyDamage", t);
  return { ...t, applied: record, report };
}

/** The target after a forced check of its applied damage was rolled (HB-DMG-04). */
export function withForced(t: TargetState, result: ForcedCheckResult): TargetState {
  assertAllowed("forcedCheck", t);
  return { ...t, forced: [...(t.forced ?? []), result] };
}

/**
 * The target after its applied damage was undone: back to `damage`, ready to apply again; the
 * forced checks it called for go with it.
 */
export function withUndone(t: TargetState): TargetState {
  assertAllowed("undoDamage", t);
  const { applied: _applied, forced: _forced, ...rest } = t;
  return { ...rest, undone: true };
}

/**
 * The vital state of a target as the card shows it after applying (HP, EP, conditions added); a
 * track with no maximum is one the ruleset does not have (Hitbox keeps hitboxes instead) and is
 * left out.
 */
export function vitalSummary(state: VitalState): { hp?: string; ep?: string } {
  return {
    hp: state.hp && state.hp.max > 0 ? `${state.hp.value}/${state.hp.max}` : undefined,
    // A ruleset without EP (Zones) or HP (Hitbox keeps hitboxes) stores an empty track: nothing to show.
    ep: state.ep && state.ep.max > 0 ? `${state.ep.value}/${state.ep.max}` : undefined,
  };
}
