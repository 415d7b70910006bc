import type {
  ActionDef,
  ActionOutcome,
  AttackRequest,
  ConditionSpec,
  ForcedCheckResult,
  RoundState,
  SituationContext,
  SituationField,
  VitalsUpdate,
} from "./contract.js";
import type { DiceRoller } from "./dice/port.js";
import type { DropOdds } from "./drop.js";
import type { ActionCost, Economy, EconomySpec } from "./economy.js";
import type {
  CheckResult,
  DamageReport,
  ForcedCheck,
  DamageStep,
  Difficulty,
  Modifier,
  RollOutcome,
  RuleId,
  RulesetId,
  VitalState,
} from "./types.js";

/**
 * When initiative is rolled: once per combat, again every round, or never (`none`: everyone acts
 * in the same turn, declared then resolved together, Hitbox HB-ACT-01).
 */
export type InitiativeTiming = "combat" | "round" | "none";

/**
 * How actions are declared before they resolve: not at all (act on your turn), lowest
 * initiative declares first (Critical CR-INI-02), all declare then resolve simultaneously
 * (Hitbox HB-ACT-01), players plot first (Zones ZN-INI-01).
 */
export type DeclarationOrder = "none" | "lowest-first" | "simultaneous" | "players-first";

/** How NPC initiative is grouped (UD-INI-02, CR-INI-01). */
export type GroupMode = "each" | "group" | "all";

/** A named optional rule or setting of a ruleset, shown as a world setting. */
export interface OptionSpec {
  id: string;
  /** i18n keys. */
  label: string;
  hint: string;
  rule: RuleId;
  type: "boolean" | "number" | "choice";
  default: boolean | number | string;
  choices?: string[];
}

/** Values of a ruleset's options, by option id. */
export type RulesetOptions = Record<string, boolean | number | string>;

/** One initiative roll: for a single combatant or a whole group that acts together. */
export interface InitiativeRoll {
  /** Combatant ids that act on this roll. */
  members: string[];
  check: CheckResult;
  total: number;
  /** Values compared, in order, when totals tie (higher acts first). */
  tiebreak: number[];
}

/** A band of movement in one round (UD10 step/standard/full; Zones per speed point). */
export interface MovementBand {
  id: string;
  /** i18n key. */
  label: string;
  rule: RuleId;
  /** Furthest distance in metres this band covers. */
  maxMetres: number;
  /** What moving within this band costs. */
  cost: ActionCost;
}

/** A reaction a defender may make against an attack. */
export interface ReactionOption {
  id: "parry" | "dodge" | "block";
  label: string;
  rule: RuleId;
  available: boolean;
  /** i18n key of why it is not available. */
  reason?: string;
  /** The check it rolls, e.g. `1d10 + 6`. */
  formula: string;
  modifiers: Modifier[];
  cost: ActionCost;
  /**
   * For a parry that moves offense into defense instead of rolling (Critical CR-PAR-02): how
   * many points of OB make one point of DB against this attack, and the most OB that can move.
   */
  exchange?: { rate: number; maxOb: number };
}

/** A reaction as rolled. */
export interface ReactionResult {
  id: ReactionOption["id"];
  rule: RuleId;
  check: CheckResult;
  /** True when the reaction worked (parry stopped the attack, block halved the damage ...). */
  success: boolean;
  /** What a successful reaction does. */
  effect: "negate" | "halve";
}

/** The hit location of an attack. */
export interface HitLocation {
  id: string;
  /** i18n key. */
  label: string;
  rule: RuleId;
  /** The roll on the location table; absent for a location chosen without a roll. */
  roll?: RollOutcome;
}

/** Exact chances for an attack about to be rolled. */
export interface AttackOdds {
  /** P(the attack check succeeds). */
  hit: number;
  /** P(the attack hits and the declared reaction fails), when a reaction is declared. */
  throughReaction?: number;
  /** Further named outcomes (severities of critical, bullets that hit ...). */
  outcomes?: Record<string, number>;
}

/** An attack about to be rolled: the check's formula, every modifier, the difficulty. */
export interface AttackPlan {
  ruleset: RulesetId;
  attackerId: string;
  targetId: string;
  weaponId: string;
  modeId?: string;
  /** The check's dice, e.g. `1d10`. */
  dice: string;
  modifiers: Modifier[];
  difficulty: Difficulty;
  /** The reaction the defender declared in advance, if any. */
  reaction?: ReactionOption;
}

/** One lookup on a ruleset's table (Critical attack and critical tables), for cards and logs. */
export interface TableLookup {
  rule: RuleId;
  /** Table key, e.g. `critical.attack.sword`, `critical.crit.S`. */
  table: string;
  /** Column looked in (armor type, severity), when the table has columns. */
  column?: string;
  /** The value looked up (attack total, critical roll). */
  value: number;
  /** Bounds of the row found; `null` for an open end. */
  range: [number | null, number | null];
  /** The entry as it stands in the table (`20AS`, a wound text). */
  result: string;
}

/** The outcome of an attack check and what follows from it. */
export interface AttackResult {
  plan: AttackPlan;
  check: CheckResult;
  /** The check met the difficulty. */
  hit: boolean;
  reaction?: ReactionResult;
  /** Hit after any reaction: damage is to be rolled. */
  lands: boolean;
  location?: HitLocation;
  /** One location per bullet that hits, in order, when several do (Zones bursts); `location` is the first. */
  locations?: HitLocation[];
  /**
   * Bullets fired and bullets that hit (bursts). `difficulties` holds each bullet's difficulty
   * in order (Zones recoil); `stoppedBy` the i18n key of what cut the burst short (a malfunction).
   */
  bullets?: { fired: number; hit: number; difficulties?: number[]; stoppedBy?: string };
  /** A critical code, e.g. `CS` (Critical ruleset). */
  critical?: string;
  /** Hits the attack deals before any critical (Critical attack tables). */
  hits?: number;
  /** Table lookups made to resolve the attack, in order. */
  lookups?: TableLookup[];
}

/** Rolled damage ready to apply. */
export interface DamagePacket {
  roll: RollOutcome;
  amount: number;
  /** Hit location id when locations are used. */
  location?: string;
  /** Damage type where a ruleset uses it. */
  type?: string;
  /** Weapon properties that act during application (penetration ...). */
  penetration?: number;
  /** Steps taken before application (a halving block ...). */
  steps?: DamageStep[];
  /**
   * Separate hits applied one after another, each with its own location, type and steps (the
   * bullets of a Zones burst); `amount` is then their sum.
   */
  parts?: DamagePacket[];
  /** Table lookups made to roll the damage (a critical table), in order. */
  lookups?: TableLookup[];
}

/** A test rolled during a round's upkeep (Critical CR-HIT-02 Self Discipline). */
export interface UpkeepCheck {
  rule: RuleId;
  /** i18n key. */
  label: string;
  check: CheckResult;
  /** The total needed to pass. */
  needed: number;
  success: boolean;
}

/** What a round's upkeep did to a combatant: bleeding, count-downs, tests. */
export interface UpkeepReport {
  before: VitalState;
  after: VitalState;
  steps: DamageStep[];
  checks: UpkeepCheck[];
  /** Conditions added and removed by the upkeep. */
  added: string[];
  removed: string[];
}

/**
 * One ruleset: everything the sheet, chat card, tracker, ruler and encounter runner need.
 * Generic over the ruleset's own combatant and attack-input shapes; the results are shared
 * shapes so cards and logs render them alike.
 *
 * @typeParam C the combatant shape (stats, equipment, state).
 * @typeParam I the attack input (attacker, target, weapon, range, situational options).
 */
export interface Ruleset<C, I> {
  readonly id: RulesetId;
  /** i18n key of the ruleset's name. */
  readonly label: string;
  /** Optional rules and settings, with defaults. */
  readonly options: OptionSpec[];
  /** Default option values. */
  defaults(): RulesetOptions;

  /** Initiative timing under the given options. */
  initiativeTiming(options: RulesetOptions): InitiativeTiming;
  readonly declaration: DeclarationOrder;
  readonly groupModes: GroupMode[];
  /** The initiative formula of one combatant, e.g. `1d10 + 4`. */
  initiativeFormula(c: C): string;
  /** Rolls initiative for combatants acting together (one combatant, a group, all NPCs). */
  rollInitiative(members: C[], dice: DiceRoller): Promise<InitiativeRoll>;
  /** Sorts rolls into acting order (first to act first). */
  order(rolls: InitiativeRoll[]): InitiativeRoll[];

  /** The economy a combatant starts each round with. */
  economy(c: C, options: RulesetOptions): EconomySpec;
  /** Movement bands for a combatant this round, nearest first. */
  movement(c: C, options: RulesetOptions): MovementBand[];
  /** The band a move of `metres` falls in, or `undefined` when it is beyond every band. */
  movementBand(c: C, metres: number, options: RulesetOptions): MovementBand | undefined;

  /**
   * Builds an attack: itemized modifiers and difficulty. `defenderEconomy` tells whether the
   * defender still has a reaction for a declared one.
   * @throws FrayError on bad input.
   */
  planAttack(input: I, options: RulesetOptions, defenderEconomy?: Economy): AttackPlan;
  /** Exact odds of a planned attack. */
  odds(plan: AttackPlan, input: I, options: RulesetOptions): AttackOdds;
  /**
   * The exact chance that a planned attack leaves its target (`input`'s) out and the points each
   * vital track is expected to lose (`./drop.ts`), the plan's declared reaction and every check
   * the damage forces included; `undefined` for an attack that deals no damage to its target
   * itself (a Zones grenade, whose blast does). Optional: a host shows nothing where a ruleset
   * has none.
   * @throws FrayError as `odds`, or when a roll's exact distribution passes the bounds of work.
   */
  dropOdds?(plan: AttackPlan, input: I, options: RulesetOptions): DropOdds | undefined;
  /** Reactions the defender may make against this attack. */
  reactions(input: I, economy: Economy | undefined, options: RulesetOptions): ReactionOption[];
  /** Rolls the attack, the declared reaction and the hit location. */
  resolveAttack(plan: AttackPlan, input: I, dice: DiceRoller, options: RulesetOptions): Promise<AttackResult>;
  /** Rolls damage for an attack that lands. */
  rollDamage(result: AttackResult, input: I, dice: DiceRoller, options: RulesetOptions): Promise<DamagePacket>;
  /** Applies damage to a combatant: a pure transition reporting each step. */
  applyDamage(target: C, packet: DamagePacket, options: RulesetOptions): DamageReport;
  /** The vital state of a combatant. */
  vitals(c: C): VitalState;
  /** True when the combatant can no longer fight (down, unconscious, dead). */
  isOut(state: VitalState): boolean;
  /**
   * The same answer as `isOut(vitals(c))`, read from the combatant without building its vital
   * state (the round engine asks after every change of state). Optional: without it the engine
   * calls `isOut(vitals(c))`.
   */
  isOutOf?(c: C): boolean;
  /**
   * Upkeep at the start of a round after the first, for rulesets with ongoing effects (Critical
   * bleeding, stun and dying count-downs, Self Discipline tests). Absent when there are none.
   */
  upkeep?(c: C, dice: DiceRoller, options: RulesetOptions): Promise<UpkeepReport>;
  /**
   * The same upkeep as {@link upkeep}, the same dice drawn, with the combatant it leaves: the
   * combatant equals `withVitals(c, report.after)`, handed back so that the round engine need not
   * build it again. Optional; present only beside `upkeep`.
   */
  upkeepState?(c: C, dice: DiceRoller, options: RulesetOptions): Promise<{ combatant: C; report: UpkeepReport }>;

  // The play contract (./contract.ts): what the hosts need so that no host knows a ruleset's
  // input shape or field names.

  /**
   * Builds this ruleset's attack input from a neutral request and the combatants it names.
   * Situation values missing from the request take their defaults from `situation()`.
   * @param target absent only for an attack on an area.
   * @throws FrayError `FRAY.Error.Field` naming the situation field or request part that is wrong.
   */
  input(request: AttackRequest, attacker: C, target: C | undefined, options: RulesetOptions): I;
  /**
   * The input {@link input} builds for a request with the defender's `reaction` declared, made
   * from `input`, the input of the same request without one (the round engine lists the
   * reactions against an attack with that one, then plays the attack with the reaction the
   * defender chose). Optional: without it the engine builds the input again from the request.
   * @throws FrayError `FRAY.Error.Field` (field `reaction`) as {@link input} does for a reaction it refuses.
   */
  withReaction?(input: I, reaction: string): I;
  /** The situational fields of one attack, with defaults from the combatants' conditions. */
  situation(context: SituationContext<C>, options: RulesetOptions): SituationField[];
  /** The actions a combatant can take in a round, with their costs. */
  actions(c: C, options: RulesetOptions): ActionDef[];
  /** The conditions this ruleset reads, as status effects. */
  conditions(): ConditionSpec[];
  /** The combatant with a new vital state (after damage, upkeep, a forced check or an undo). */
  withVitals(c: C, state: VitalState): C;
  /** The actor source update that stores a vital state (nested objects, not dotted keys). */
  vitalsUpdate(state: VitalState): VitalsUpdate;
  /**
   * The start of a new round for one combatant: its economy for the round (pools carried over
   * where the ruleset says so) and what a new round resets (aim lost, movement category).
   * @param previous the economy at the end of the last round; absent in the first round.
   */
  startRound(c: C, previous: Economy | undefined, round: number, options: RulesetOptions): RoundState<C>;
  /**
   * Optional: {@link startRound} for an engine that keeps no events (a quiet forecast): the same
   * combatant and economy, `events` left empty so none are built. Must equal `startRound` but for
   * the events.
   */
  startRoundQuiet?(c: C, previous: Economy | undefined, round: number, options: RulesetOptions): RoundState<C>;
  /** After an action: aim spent by the shot, ammunition used, a fumble that ends the round. */
  afterAction(c: C, outcome: ActionOutcome, economy: Economy, options: RulesetOptions): RoundState<C>;
  /** Rolls a check that damage or upkeep forced on the combatant, and its consequence. */
  forcedCheck?(c: C, forced: ForcedCheck, dice: DiceRoller, options: RulesetOptions): Promise<ForcedCheckResult>;
}
