/**
 * The play contract every ruleset offers the hosts (the Foundry pipeline and the encounter
 * runner), so that no host builds a ruleset's input or knows its field names: a neutral attack
 * request, situation fields, actions and conditions described as data, vitals written back, and
 * the round's lifecycle as pure transitions. Everything here is JSON-safe data.
 */
import type { ActionCost, Economy } from "./economy.js";
import type { AttackResult } from "./ruleset.js";
import type { CheckResult, DamageReport, ForcedCheck, RuleId } from "./types.js";

/** One situation value as a dialog or an encounter file gives it. */
export type SituationValue = boolean | number | string | string[];

/** Situation values by {@link SituationField.id}. */
export type SituationValues = Record<string, SituationValue>;

/**
 * A neutral request for one attack on one target (or on an area, Zones grenades): ids and
 * measured values only. A ruleset turns it into its own input with `Ruleset.input`.
 */
export interface AttackRequest {
  /** Id of the attacking combatant. */
  attackerId: string;
  /** Id of the target combatant; absent for an attack on an area (ZN-GRN-01). */
  targetId?: string;
  /** Id (or name) of one of the attacker's weapons. */
  weaponId: string;
  /** Firing mode or attack mode id, where the weapon has several. */
  modeId?: string;
  /** Distance between attacker and target in metres, as measured on the scene. */
  distanceMetres?: number;
  /**
   * Values of the ruleset's situation fields by id (`Ruleset.situation`); a field left out takes
   * its default from the combatants' conditions.
   */
  situation?: SituationValues;
  /** The reaction the defender declared in advance (`parry`, `dodge`, `block`), if any. */
  reaction?: string;
}

/** What the situation fields of one attack depend on. */
export interface SituationContext<C> {
  attacker: C;
  /** Absent for an attack on an area. */
  target?: C;
  weaponId: string;
  modeId?: string;
  distanceMetres?: number;
}

/** One choice of a `choice` or `multi` situation field. */
export interface SituationChoice {
  value: string;
  /** i18n key. */
  label: string;
}

/**
 * One situational modifier or choice of an attack, described as data so that the attack dialog
 * is generated, not written per ruleset.
 */
export interface SituationField {
  /** Key in {@link AttackRequest.situation}. */
  id: string;
  /** i18n key of the label. */
  label: string;
  /** i18n key of a hint, when the label needs one. */
  hint?: string;
  rule: RuleId;
  /** `boolean` a checkbox, `number` a number input, `choice` one of `choices`, `multi` any of them. */
  kind: "boolean" | "number" | "choice" | "multi";
  choices?: SituationChoice[];
  /** Bounds of a `number` field. */
  min?: number;
  max?: number;
  step?: number;
  /** The value the dialog starts with: from the combatants' conditions, the weapon, or neutral. */
  default: SituationValue;
  /** True when each target gets its own value (a target's cover); false for the whole attack. */
  perTarget: boolean;
}

/** What an action is, for the sheet, the tracker and the hosts' flows. */
export type ActionKind = "attack" | "move" | "reaction" | "other";

/** One action a combatant can take in a round, with its cost in the ruleset's economy. */
export interface ActionDef {
  id: string;
  /** i18n key. */
  label: string;
  rule: RuleId;
  kind: ActionKind;
  /** What it costs: slot uses and pool points of the ruleset's economy. */
  cost: ActionCost;
  /** What it is aimed at: nothing, one token, or an area. */
  target: "none" | "one" | "area";
}

/** How long a condition lasts once set. */
export type ConditionDuration =
  /** Until removed (prone, unconscious, dead). */
  | "permanent"
  /** Until the end of the current round (moving, aiming spent by the next round). */
  | "round"
  /** For a number of rounds the ruleset counts (stun). */
  | "rounds";

/** A condition the ruleset reads from a combatant: a Foundry status effect in play. */
export interface ConditionSpec {
  /** Status id, as in the combatant's `conditions`. */
  id: string;
  /** i18n key. */
  label: string;
  /** Icon path (Foundry core icons, `icons/svg/...`). */
  icon: string;
  rule: RuleId;
  duration: ConditionDuration;
  /** The combatant is out of the fight while it has this condition (the defeated status). */
  out?: boolean;
}

/** A line of what a lifecycle transition did, for cards and logs. */
export interface LifecycleEvent {
  rule: RuleId;
  /** i18n key. */
  label: string;
  data?: Record<string, string | number>;
}

/** A combatant and its round economy after a lifecycle transition. */
export interface RoundState<C> {
  combatant: C;
  economy: Economy;
  /** What changed, in order; empty when nothing did. */
  events: LifecycleEvent[];
}

/** What a combatant just did, for `Ruleset.afterAction`. */
export type ActionOutcome =
  /** An attack was made with a weapon (aim spent, ammunition used, malfunction, fumble). */
  | { kind: "attack"; weaponId: string; modeId?: string; result: AttackResult }
  /** Another action of `Ruleset.actions`, by id. */
  | { kind: "action"; id: string };

/** A forced check rolled (Hitbox Blackout HB-DMG-04, Critical Self Discipline CR-HIT-02). */
export interface ForcedCheckResult {
  /** The check asked for. */
  forced: ForcedCheck;
  check: CheckResult;
  /** The total needed to pass. */
  needed: number;
  success: boolean;
  /** The vital state before and after the check's consequence (shock, unconsciousness). */
  report: DamageReport;
}

/**
 * The document update that writes a vital state back onto an actor: a nested object of the
 * actor's source (`{ system: { hp: { value: 3 } } }`), never dotted keys.
 */
export type VitalsUpdate = Record<string, unknown>;
