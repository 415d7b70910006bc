/**
 * One round engine for every ruleset and every host: the combatants with their side, round
 * economy and out flag; initiative by the ruleset's timing (once per combat, every round, or
 * none: everyone acts together, HB-ACT-01) and groups; the start of each round and its upkeep;
 * the acting order; actions paid from the economy and followed by the ruleset's `afterAction`;
 * attacks through the core's attack step with forced checks; and the end of the fight when one
 * side is down or the last round is played. Pure and host-independent: dice come through the
 * dice port, everything it reports is JSON-safe data ({@link RoundEvent}) that the encounter log
 * and a combat tracker both show. Tactics (who attacks whom with what) stay with the host, which
 * hands the engine its decisions as data and callbacks.
 */
import type { ActionDef, ActionOutcome, AttackRequest, ForcedCheckResult, LifecycleEvent, RoundState } from "./contract.js";
import { canRollSync, type DiceRoller, type SyncDiceRoller } from "./dice/port.js";
import { affordable, charge, createEconomy, shortfall, spend, type ActionCost, type Economy } from "./economy.js";
import { FrayError } from "./errors.js";
import type { InitiativeRoll, ReactionOption, Ruleset, RulesetOptions, UpkeepReport } from "./ruleset.js";
import { hasFaceSource, isQuiet, type FaceSourceRoller, type QuietAttack, type QuietRuleset } from "./quiet.js";
import { attackStep, planStep, withPlanned, type AttackStep } from "./step.js";
import type { DamageReport, ForcedCheck } from "./types.js";

/**
 * A ruleset that can also roll a group's initiative at once, with a roller that rolls so
 * ({@link SyncDiceRoller}): the same roll from the same dice in the same order as its
 * `rollInitiative`. The engine rolls with it when the dice allow (a forecast), saving a promise
 * per roll; an optional sibling of `Ruleset`, like `QuietRuleset`.
 */
export interface SyncInitiative<C> {
  /**
   * `Ruleset.rollInitiative`, at once. `members` is lent for the call only: the engine reuses the
   * list, so the roll keeps none of it but the ids.
   * @throws FrayError as `rollInitiative` rejects.
   */
  rollInitiativeSync(members: C[], dice: SyncDiceRoller): InitiativeRoll;
}

/**
 * A ruleset that can also roll a forced check at once, with a roller that rolls so
 * ({@link SyncDiceRoller}): the same check from the same dice in the same order as its
 * `forcedCheck` (HB-DMG-04, CR-HIT-02). With it, quiet attacks can be played synchronously
 * ({@link RoundEngine.quietAttackSync}) where the dice allow (a forecast); an optional sibling of
 * `Ruleset`, like {@link SyncInitiative}.
 */
export interface SyncForcedCheck<C> {
  /**
   * `Ruleset.forcedCheck`, at once.
   * @throws FrayError as `forcedCheck` rejects.
   */
  forcedCheckSync(c: C, forced: ForcedCheck, dice: SyncDiceRoller, options: RulesetOptions): ForcedCheckResult;
}

/** What {@link RoundEngine} holds as the last state seen of a fighter before it has seen any. */
const NOT_SEEN = Symbol("not seen");

/** The cost of a free attack (UD-OPT-02): nothing. Frozen: shared by every free attack. */
const NO_COST: ActionCost = Object.freeze({});
/** How many payments a quiet engine remembers (`RoundEngine.paidQuietly`): a turn's few economies and costs. */
const PAID_REMEMBERED = 8;

/** The forced checks of a quiet attack that called for none. Frozen: shared by every such record. */
const NO_FORCED: ForcedCheckResult[] = Object.freeze([]) as unknown as ForcedCheckResult[];

/**
 * `request` with the defender's `reaction` declared: its fields (any beyond {@link AttackRequest}'s
 * too) and `reaction`, the request not changed. Built field by field, not as
 * `{ ...request, reaction }`: a spread that adds a key the source lacks takes V8's slow path
 * (microseconds, on every attack with a reaction of a forecast). A field the request lacks is
 * present as `undefined`, which every optional field of a request means alike.
 */
export function declaring(request: AttackRequest, reaction: string): AttackRequest {
  const out: AttackRequest = {
    attackerId: request.attackerId,
    targetId: request.targetId,
    weaponId: request.weaponId,
    modeId: request.modeId,
    distanceMetres: request.distanceMetres,
    situation: request.situation,
    reaction,
  };
  const from = request as unknown as Record<string, unknown>;
  const to = out as unknown as Record<string, unknown>;
  for (const key in from) if (!(key in to) && Object.hasOwn(from, key)) to[key] = from[key];
  return out;
}

/**
 * The reactions of `offered` that are available, in order: `offered` itself when all of them
 * are (the usual case: no list is built per attack), else a new list.
 */
function availableOf(offered: ReactionOption[]): ReactionOption[] {
  for (let i = 0; i < offered.length; i++) if (!offered[i]!.available) return offered.filter((r) => r.available);
  return offered;
}

/** A combatant as the host brings it to the fight. */
export interface RoundEntry<C> {
  /** The combatant's id (the ruleset's combatant id as well). */
  id: string;
  /** Side (team) it fights for; the fight ends when one side is left standing. */
  side: string;
  combatant: C;
  /** Played by a player (declares first under `players-first`, ZN-INI-01). */
  player?: boolean;
  /**
   * What it already spent of the first round: a fight taken up inside a round under way (the
   * tracker's forecast, UD-ACT-01, HB-RND-01, CR-AP-01, ZN-ACT-01), whose first round's economy
   * is paid this much, as far as it holds (slot uses beyond a slot's `max` and points below 0
   * are dropped).
   */
  spent?: ActionCost;
}

/** A combatant in the fight: its current state and round economy. */
export interface RoundFighter<C> {
  id: string;
  side: string;
  player: boolean;
  combatant: C;
  economy: Economy;
  /** Its place in the order the entries were given (0 for the first): {@link RoundEngine.isFighterOut} reads it. */
  readonly place: number;
}

/** How a fight ended. */
export interface RoundEnd {
  round: number;
  /** The side left standing; `null` when none is or the last round ran out. */
  winner: string | null;
  reason: "side-down" | "max-rounds";
}

/** What the engine did, in order; JSON-safe data for logs and trackers. */
export type RoundEvent =
  | { type: "round"; round: number }
  /** Initiative rolled (`kept: false`) or kept from an earlier round; `order` lists ids, first to act first. */
  | { type: "initiative"; round: number; rolls: InitiativeRoll[]; order: string[]; kept: boolean }
  /** What a lifecycle transition of the ruleset did to a combatant (`startRound`, `afterAction`). */
  | { type: "lifecycle"; round: number; actor: string; phase: "start" | "after"; events: LifecycleEvent[] }
  | { type: "upkeep"; round: number; actor: string; report: UpkeepReport }
  /** An action paid from the economy. */
  | { type: "paid"; round: number; actor: string; action: string; cost: ActionCost }
  /** An action refused: `missing` names the slot or pool that is spent, or the error key of a rule that stops it. */
  | { type: "refused"; round: number; actor: string; action: string; missing: string; data?: Record<string, unknown> }
  | {
      type: "attack";
      round: number;
      attacker: string;
      target?: string;
      weaponId: string;
      hit: boolean;
      lands: boolean;
      report?: DamageReport;
    }
  | { type: "forced"; round: number; actor: string; result: ForcedCheckResult }
  | ({ type: "end" } & RoundEnd);

/** How the host wants the engine to run. */
export interface RoundConfig<C> {
  /** The ruleset's option values (defaults filled in). */
  options: RulesetOptions;
  /** The last round played (a whole number, 1 or more). */
  maxRounds: number;
  /**
   * Further reasons a combatant is out of the fight besides `ruleset.isOut` of its vitals (fled,
   * unable to act); none by default.
   */
  out?: (c: C) => boolean;
  /**
   * The initiative groups of the standing combatants (UD-INI-02, CR-INI-01), e.g. with the core's
   * `initiativeGroups`; each combatant alone by default.
   */
  groups?: (standing: C[]) => C[][];
  /**
   * Compute an attack's exact odds only when its step's `odds` is read (a forecast, which reads
   * only the outcome); computed with every plan by default.
   */
  lazyOdds?: boolean;
  /**
   * Keep the engine's {@link RoundEngine.events}; true by default. False for a host that reads
   * none of them (a forecast): the list stays empty.
   */
  keepEvents?: boolean;
  /**
   * The initiative the first round is played in, rolled before the fight (the tracker's round
   * under way): not rolled again in the first round, where only the eligible combatants it leaves
   * out roll (not one surprised, ZN-SUR-01), all put in acting order by the ruleset
   * (`ruleset.order`); kept after it where the ruleset keeps initiative for the combat
   * (CR-INI-01, UD-INI-03, ZN-INI-03), rolled afresh from the second round where it rolls each
   * round (UD-INI-01, ZN-INI-01). Ignored by a ruleset without initiative (HB-ACT-01).
   */
  firstRolls?: InitiativeRoll[];
}

/** The options of one initiative roll. */
export interface InitiativeOptions<C> {
  /** Who may roll now (surprised combatants may not, ZN-SUR-01); everyone standing by default. */
  eligible?: (f: RoundFighter<C>) => boolean;
  /**
   * When initiative is kept from an earlier round, also roll for eligible combatants without a
   * roll yet (those surprised in the first round, ZN-SUR-01), and drop the rolls of the fallen.
   */
  rollMissing?: boolean;
  /** Called just before a group rolls (effort spent on initiative, ZN-INI-02). */
  before?: (members: RoundFighter<C>[]) => void;
  /** Called just after a group rolls. */
  after?: (members: RoundFighter<C>[]) => void;
}

/** The options of one attack. */
export interface AttackOptions {
  /** A free attack (UD-OPT-02): nothing is paid. */
  free?: boolean;
  /** The attack's cost; the ruleset's `attack` action by default. */
  cost?: ActionCost;
  /** Chooses the defender's declared reaction among those available; none by default. */
  react?: (available: ReactionOption[]) => string | undefined;
  /** False when the attack deals no damage of its own (a grenade's blast is the host's); true by default. */
  damage?: boolean;
  /** Run `afterAction` for the target too, with the attack's outcome (Critical stun and knock-out, CR-STN-01). */
  settleTarget?: boolean;
  /** Rule errors that stop the attack without stopping the fight (a jammed weapon): refused, not thrown. */
  refuse?: (error: FrayError) => boolean;
  /**
   * Spend the declared reaction's cost from the defender's economy; true by default. False when
   * the ruleset's `afterAction` for the target spends it (Hitbox, HB-ATK-03, with `settleTarget`).
   */
  payReaction?: boolean;
}

/** The options of a simultaneous step. */
export interface StepOptions<C> {
  /**
   * True when a forced check held for the step's end still applies to the combatant then (not
   * for someone a first check of the step already put in shock, HB-DMG-04); every check by default.
   */
  due?: (c: C, forced: ForcedCheck) => boolean;
  /**
   * Roll the forced checks quietly where the ruleset can (`QuietRuleset.quietForcedCheck`, with
   * dice that lend their face source): the combatants take the same states from the same faces,
   * and the record lists none of them (for a host that reads none, a forecast).
   */
  quiet?: boolean;
}

/** What a simultaneous step did at its end, besides what its callback returned. */
export interface StepRecord<T> {
  /** What the step's callback returned. */
  value: T;
  /** Ids of the combatants whose held damage was committed at the step's end, in the order first hit. */
  damaged: string[];
  /** The forced checks rolled after the commit, in the order the damage called for them. */
  forced: { actor: string; result: ForcedCheckResult }[];
}

/** A combatant's state right after one stage of an attack, and what its `afterAction` did then. */
export interface Settled<C> {
  combatant: C;
  economy: Economy;
  /** Lifecycle events of the `afterAction` run at this stage; empty when none ran. */
  events: LifecycleEvent[];
}

/** An attack the engine played, with the state of each combatant after each stage. */
export interface AttackRecord<C, I> {
  step: AttackStep<C, I>;
  /** The attacker after its `afterAction` (the last stage). */
  attacker: Settled<C>;
  /** The target after the damage (and its `afterAction` when `settleTarget`); absent without damage. */
  target?: Settled<C>;
  /**
   * Each forced check the damage caused, with the target after it (and after its `afterAction` when
   * `settleTarget`); empty within a simultaneous step, which rolls them at its end ({@link RoundEngine.step}).
   */
  forced: { result: ForcedCheckResult; after: Settled<C> }[];
}

/** An attack the engine played quietly ({@link RoundEngine.quietAttack}). */
export interface QuietRecord<C> {
  attack: QuietAttack<C>;
  /** The attacker after its `afterAction`. */
  attacker: { combatant: C; economy: Economy };
  /** The target after the damage (and its `afterAction` when `settleTarget`) and the forced checks; absent without damage. */
  target?: { combatant: C; economy: Economy };
  /** The forced checks the damage caused, rolled in order; when none, a shared frozen empty list (read it, do not add to it). */
  forced: ForcedCheckResult[];
}

/**
 * The last few payments of a quiet engine ({@link RoundEngine}'s `paidQuietly`): the economies
 * before, the costs and the economies after, by place, the oldest replaced first once
 * {@link PAID_REMEMBERED} are taken; `active` while the round's combatants share one economy.
 */
class PaidMemory {
  readonly from: Economy[] = [];
  readonly cost: ActionCost[] = [];
  readonly to: Economy[] = [];
  /** The place the next payment is remembered at. */
  next = 0;
  active = true;

  /** Remembers that `economy` paying `cost` gave `paid`. */
  remember(economy: Economy, cost: ActionCost, paid: Economy): void {
    const i = this.next;
    this.next = (i + 1) % PAID_REMEMBERED;
    if (i === this.from.length) {
      this.from.push(economy);
      this.cost.push(cost);
      this.to.push(paid);
    } else {
      this.from[i] = economy;
      this.cost[i] = cost;
      this.to[i] = paid;
    }
  }
}

/**
 * The open simultaneous step of a {@link RoundEngine} (HB-ACT-01): each damaged combatant's state
 * with the damage held so far, by its place in the engine's list (a read by place: every attack
 * of a step asks for its target's), the places in the order their first damage was held, and the
 * forced checks due at the step's end.
 */
class OpenStep<C> {
  /** The state with the damage held so far, by place; `undefined` where none is held. */
  readonly held: (C | undefined)[] = [];
  /** The places that hold damage, in the order the first was held. */
  readonly order: number[] = [];
  /** The forced checks the held damage called for, in order, by combatant id. */
  readonly forced: { id: string; forced: ForcedCheck }[] = [];

  /** @param size the engine's combatants. */
  constructor(size: number) {
    // Built by push: a list of one kind, every place read.
    for (let i = 0; i < size; i++) this.held.push(undefined);
  }

  /** Holds `c` as the state of the combatant at `place`. */
  hold(place: number, c: C): void {
    if (this.held[place] === undefined) this.order.push(place);
    this.held[place] = c;
  }
}

/**
 * `list` (a new one when absent) with `spent` at the fighter's place, once every slot and pool it
 * names is one of the fighter's economy.
 * @throws FrayError `FRAY.Error.Field` (field `<id>.spent.<slots|pools>.<name>`) naming the slots
 *   and pools the fighter's economy has, for a slot or pool it has not or an amount that is not a
 *   whole number from 0.
 */
function spentAt<C>(list: (ActionCost | undefined)[] | undefined, f: RoundFighter<C>, spent: ActionCost): (ActionCost | undefined)[] {
  const known = [...Object.keys(f.economy.slots), ...Object.keys(f.economy.pools)].join(", ") || "none";
  const check = (kind: "slots" | "pools", names: Record<string, number> | undefined, of: Record<string, unknown>): void => {
    for (const [id, n] of Object.entries(names ?? {}))
      if (!Object.hasOwn(of, id) || !Number.isInteger(n) || n < 0)
        throw new FrayError(
          "FRAY.Error.Field",
          { field: `${f.id}.spent.${kind}.${id}`, expected: `whole numbers from 0 of ${f.id}'s economy (${known})` },
          `${f.id} spent ${id}`,
        );
  };
  check("slots", spent.slots, f.economy.slots);
  check("pools", spent.pools, f.economy.pools);
  const out = list ?? [];
  out[f.place] = spent;
  return out;
}

/**
 * The round engine over a ruleset `Ruleset<C, I>`. A host creates it with its combatants, then
 * each round calls {@link nextRound}, {@link startRound} (and {@link upkeep}), {@link rollInitiative}
 * in the order its ruleset plays them, walks {@link turns} and for each combatant makes its
 * decisions with {@link act} and {@link attack}, until {@link isOver} says the fight ended. A
 * ruleset whose actions resolve together (Hitbox, HB-ACT-01) plays each resolution step inside
 * {@link step}: damage held and committed together at the step's end, forced checks after.
 * Sources: UD-INI-01, UD-INI-03, CR-INI-01, CR-AP-01, HB-ACT-01, ZN-INI-01.
 * @throws FrayError `FRAY.Error.Field` naming `combatants` (no combatant, or an id twice) or
 *   `maxRounds` (not a whole number of 1 or more).
 */
export class RoundEngine<C, I> {
  /** The round being played; 0 before the first. */
  round = 0;
  /** The current initiative rolls, in acting order. */
  rolls: InitiativeRoll[] = [];
  /** Everything the engine did, in order; stays empty with `keepEvents: false` ({@link RoundConfig}). */
  readonly events: RoundEvent[] = [];
  /** The fighters in the order given: walked without copying on every turn, attack and check. */
  private readonly list: RoundFighter<C>[] = [];
  /** Appends to {@link events}, unless the config says to keep none. */
  private record(event: RoundEvent): void {
    if (this.keeping) this.events.push(event);
  }
  /** Whether {@link events} are kept (`keepEvents`, {@link RoundConfig}): where not, the busiest events are not even built. */
  private readonly keeping: boolean;

  /** Each fighter's place in {@link list}, by id: the one map of the engine. */
  private readonly slot = new Map<string, number>();
  /**
   * The ruleset's actions (`ruleset.actions`) of the fighter at each place, for the state they were
   * worked out for ({@link costOf}): states are values, so the same state has the same actions.
   */
  private readonly actionsOf: { state: C; actions: ActionDef[] }[] = [];
  /** The state of the fighter at each place when {@link outs} was last worked out for it; {@link NOT_SEEN} before. */
  private readonly seen: unknown[] = [];
  /** Whether that state is out ({@link isOut}). */
  private readonly outs: boolean[] = [];
  /** What each fighter already spent of the first round, by place ({@link RoundEntry.spent}); absent when none did. */
  private firstSpent?: (ActionCost | undefined)[];
  /** The open simultaneous step: each damaged combatant's state with the damage held so far, and the forced checks due at its end. */
  private open?: OpenStep<C>;

  constructor(
    readonly ruleset: Ruleset<C, I>,
    entries: readonly RoundEntry<C>[],
    readonly dice: DiceRoller,
    readonly config: RoundConfig<C>,
  ) {
    this.keeping = config.keepEvents !== false;
    if (!entries.length)
      throw new FrayError("FRAY.Error.Field", { field: "combatants", expected: "one combatant or more" }, "No combatants");
    if (!Number.isInteger(config.maxRounds) || config.maxRounds < 1) {
      throw new FrayError("FRAY.Error.Field", { field: "maxRounds", expected: "a whole number, 1 or more" }, "Bad maxRounds");
    }
    for (const e of entries) {
      if (this.slot.has(e.id))
        throw new FrayError(
          "FRAY.Error.Field",
          { field: "combatants", expected: `one entry per id (${e.id} twice)` },
          `Combatant ${e.id} twice`,
        );
      const f: RoundFighter<C> = {
        id: e.id,
        side: e.side,
        player: e.player ?? false,
        combatant: e.combatant,
        economy: createEconomy(ruleset.economy(e.combatant, config.options)),
        place: this.list.length,
      };
      if (e.spent) this.firstSpent = spentAt(this.firstSpent, f, e.spent);
      this.slot.set(e.id, this.list.length);
      this.list.push(f);
      this.seen.push(NOT_SEEN);
      this.outs.push(false);
    }
  }

  /** Every fighter, in the order given. */
  all(): RoundFighter<C>[] {
    return this.list.slice();
  }

  /**
   * The fighter with this id.
   * @throws FrayError `FRAY.Error.Field` (field `id`) for an unknown id.
   */
  get(id: string): RoundFighter<C> {
    const i = this.slot.get(id);
    if (i === undefined)
      throw new FrayError(
        "FRAY.Error.Field",
        { field: "id", expected: `a combatant id (${[...this.slot.keys()].join(", ")})` },
        `No combatant ${id}`,
      );
    return this.list[i]!;
  }

  /**
   * The place in {@link list} of the fighter with this id.
   * @throws FrayError `FRAY.Error.Field` (field `id`) for an unknown id, as {@link get}.
   */
  private place(id: string): number {
    const i = this.slot.get(id);
    if (i === undefined) this.get(id);
    return i!;
  }

  /** Puts a combatant's new state in place (what the host's own rules changed). */
  update(id: string, combatant: C, economy?: Economy): void {
    const f = this.get(id);
    f.combatant = combatant;
    if (economy) f.economy = economy;
  }

  /** True when the combatant is out of the fight: `ruleset.isOut` of its vitals, or the host's `out`. */
  isOut(id: string): boolean {
    const i = this.slot.get(id);
    return i === undefined ? this.outOf(this.get(id).combatant) : this.outAt(i);
  }

  /**
   * {@link isOut} for one of the engine's fighters ({@link get}), read by its place instead of
   * looked up by its id: for a host's tight loop that holds the fighters (a forecast asks it for
   * every enemy of every attack). A fighter object that is not the engine's own at its place
   * (another engine's) is answered for the engine's fighter with its id, as {@link isOut}.
   * @throws FrayError `FRAY.Error.Field` (field `id`) when that id is not one of the engine's.
   */
  isFighterOut(f: RoundFighter<C>): boolean {
    return this.list[f.place] === f ? this.outAt(f.place) : this.isOut(f.id);
  }

  /**
   * Whether a combatant state is out: `ruleset.isOut` of its vitals (`ruleset.isOutOf` where the
   * ruleset has it, the same answer without building the vital state), or the host's `out`.
   */
  private outOf(c: C): boolean {
    const r = this.ruleset;
    return (r.isOutOf ? r.isOutOf(c) : r.isOut(r.vitals(c))) || (this.config.out?.(c) ?? false);
  }

  /**
   * Whether the fighter at place `i` is out, worked out once per state it takes: states are
   * values (every transition builds a new one), and the engine asks after each turn for every
   * combatant.
   */
  private outAt(i: number): boolean {
    const c = this.list[i]!.combatant;
    if (this.seen[i] === c) return this.outs[i]!;
    const out = this.outOf(c);
    this.seen[i] = c;
    this.outs[i] = out;
    return out;
  }

  /** True while combatants of two sides or more are not out. */
  private twoSidesStanding(): boolean {
    let side: string | undefined;
    const list = this.list;
    for (let i = 0; i < list.length; i++) {
      const f = list[i]!;
      if (f.side === side || this.outAt(i)) continue;
      if (side !== undefined) return true;
      side = f.side;
    }
    return false;
  }

  /** The standing enemies of a combatant, in the order given. */
  enemiesOf(id: string): RoundFighter<C>[] {
    const side = this.get(id).side;
    const out: RoundFighter<C>[] = [];
    for (let i = 0; i < this.list.length; i++) if (this.list[i]!.side !== side && !this.outAt(i)) out.push(this.list[i]!);
    return out;
  }

  /** The sides that still have a combatant who is not out. */
  standingSides(): Set<string> {
    const sides = new Set<string>();
    for (let i = 0; i < this.list.length; i++) if (!this.outAt(i)) sides.add(this.list[i]!.side);
    return sides;
  }

  /** Starts the next round; returns its number. */
  nextRound(): number {
    this.round += 1;
    if (this.keeping) this.record({ type: "round", round: this.round });
    return this.round;
  }

  /**
   * The start of the round for every combatant, out or not (`ruleset.startRound`): its economy
   * for the round, pools carried over where the ruleset says so, and what a new round resets.
   * @param carryFirst pass the starting economy as the previous one in the first round too (a
   *   ruleset that reads its pools from it, Critical's AP); by default the first round has none.
   */
  startRound(carryFirst = false): void {
    const ruleset = this.ruleset;
    // Without events kept, the ruleset's quiet start where it has one: no events built.
    const quiet = !this.keeping && ruleset.startRoundQuiet !== undefined;
    // Whether every combatant starts the round with one shared economy (see `paidQuietly`).
    let shared: Economy | null | undefined;
    // What was already spent of a first round taken up under way (`RoundEntry.spent`).
    const spentFirst = this.round === 1 ? this.firstSpent : undefined;
    for (const f of this.list) {
      const previous = this.round === 1 && !carryFirst ? undefined : f.economy;
      const next = quiet
        ? ruleset.startRoundQuiet!(f.combatant, previous, this.round, this.config.options)
        : ruleset.startRound(f.combatant, previous, this.round, this.config.options);
      f.combatant = next.combatant;
      const spent = spentFirst?.[f.place];
      f.economy = spent ? charge(next.economy, affordable(next.economy, spent)) : next.economy;
      shared = shared === undefined || shared === f.economy ? f.economy : null;
      if (next.events.length) this.record({ type: "lifecycle", round: this.round, actor: f.id, phase: "start", events: next.events });
    }
    // (Its memory built only then: an engine that never remembers adds no fields for it.)
    if (quiet && shared !== null) (this.paid ??= new PaidMemory()).active = true;
    else if (this.paid) this.paid.active = false;
  }

  /**
   * The round's upkeep (`ruleset.upkeep`) for each combatant in `ids` (every combatant by
   * default), from the second round on and only for rulesets that have one (CR-HIT-02): the
   * combatant takes the upkeep's vital state (the combatant `ruleset.upkeepState` hands back, where
   * the ruleset has it). Returns the reports by id.
   */
  async upkeep(ids: readonly string[] = [...this.slot.keys()]): Promise<Map<string, UpkeepReport>> {
    const reports = new Map<string, UpkeepReport>();
    const ruleset = this.ruleset;
    if (this.round < 2 || !ruleset.upkeep) return reports;
    for (const id of ids) {
      const f = this.get(id);
      let report: UpkeepReport;
      if (ruleset.upkeepState) {
        const next = await ruleset.upkeepState(f.combatant, this.dice, this.config.options);
        f.combatant = next.combatant;
        report = next.report;
      } else {
        report = await ruleset.upkeep(f.combatant, this.dice, this.config.options);
        f.combatant = ruleset.withVitals(f.combatant, report.after);
      }
      reports.set(id, report);
      this.record({ type: "upkeep", round: this.round, actor: id, report });
    }
    return reports;
  }

  /**
   * Initiative for the round by the ruleset's timing: rolled in the first round and kept after
   * (`combat`, UD-INI-03, CR-INI-01), rolled again every round (`round`, UD-INI-01, ZN-INI-01),
   * or none at all (`none`: everyone acts together in the order given, HB-ACT-01). Groups come
   * from the config (UD-INI-02). Returns the `initiative` event (also in {@link events}).
   */
  async rollInitiative(opts: InitiativeOptions<C> = {}): Promise<Extract<RoundEvent, { type: "initiative" }>> {
    if (this.canRollInitiativeSync) return this.rollInitiativeSync(opts);
    const start = this.initiativeStart(opts);
    if (start.roll) {
      const { fresh, toRoll } = start;
      let rolls = start.rolls;
      const combatants = toRoll.map((f) => f.combatant);
      const hooked = opts.before !== undefined || opts.after !== undefined;
      if (!fresh) rolls = rolls.slice();
      const groups = this.config.groups ? this.config.groups(combatants) : undefined;
      const count = groups ? groups.length : toRoll.length;
      for (let g = 0; g < count; g++) {
        const group = groups ? groups[g]! : [combatants[g]!];
        const members = !hooked ? undefined : groups ? group.map((c) => toRoll[combatants!.lastIndexOf(c)]!) : [toRoll[g]!];
        if (members) opts.before?.(members);
        rolls.push(await this.ruleset.rollInitiative(members ? members.map((m) => m.combatant) : group, this.dice));
        if (members) opts.after?.(members);
      }
      start.rolls = this.ruleset.order(rolls);
    }
    return this.initiativeEnd(start);
  }

  /**
   * True when initiative can be rolled at once ({@link rollInitiativeSync}): the ruleset rolls it
   * so ({@link SyncInitiative}) and the dice roll at once (a forecast).
   */
  get canRollInitiativeSync(): boolean {
    return this.syncInitiative() !== undefined;
  }

  /**
   * {@link rollInitiative} at once, for a forecast's tight loop: the same rolls from the same dice
   * in the same order, the same `initiative` event, without a promise per round. Only where
   * {@link canRollInitiativeSync} holds.
   * @throws FrayError `FRAY.Error.Field` (field `initiative`) where it does not; as the ruleset's
   *   `rollInitiativeSync` throws.
   */
  rollInitiativeSync(opts: InitiativeOptions<C> = {}): Extract<RoundEvent, { type: "initiative" }> {
    const sync = this.syncInitiative();
    if (!sync)
      throw new FrayError("FRAY.Error.Field", { field: "initiative", expected: "initiative rolled at once" }, "Not a synchronous roll");
    const start = this.initiativeStart(opts);
    if (start.roll) {
      const { fresh, toRoll } = start;
      let rolls = start.rolls;
      const hooked = opts.before !== undefined || opts.after !== undefined;
      if (!fresh) rolls = rolls.slice();
      const dice = this.dice as SyncDiceRoller;
      const combatants = this.config.groups ? toRoll.map((f) => f.combatant) : undefined;
      const groups = combatants ? this.config.groups!(combatants) : undefined;
      // Each combatant alone by default: its group is itself, in one list reused for every roll
      // (the ruleset keeps none of it, `SyncInitiative`), without a list of groups built.
      const alone: C[] = [];
      const count = groups ? groups.length : toRoll.length;
      for (let g = 0; g < count; g++) {
        let group: C[];
        if (groups) group = groups[g]!;
        else {
          alone[0] = toRoll[g]!.combatant;
          group = alone;
        }
        // Members by combatant, for the hooks: a group is a few combatants out of a handful, so a
        // scan beats a map built every round.
        const members = !hooked ? undefined : groups ? group.map((c) => toRoll[combatants!.lastIndexOf(c)]!) : [toRoll[g]!];
        if (members) opts.before?.(members);
        // The members' states after `before`, which may change them (effort spent, ZN-INI-02).
        rolls.push(sync.rollInitiativeSync(members ? members.map((m) => m.combatant) : group, dice));
        if (members) opts.after?.(members);
      }
      start.rolls = this.ruleset.order(rolls);
    }
    return this.initiativeEnd(start);
  }

  /**
   * The part of {@link rollInitiative} before the rolls: whether they are rolled afresh, who
   * rolls (everyone standing and eligible when afresh; else, with `rollMissing`, those without a
   * roll yet), the rolls kept (those of the fallen dropped with `rollMissing`), and whether
   * anything is rolled and ordered at all.
   */
  private initiativeStart(opts: InitiativeOptions<C>): {
    timed: boolean;
    fresh: boolean;
    toRoll: RoundFighter<C>[];
    rolls: InitiativeRoll[];
    roll: boolean;
  } {
    const timing = this.ruleset.initiativeTiming(this.config.options);
    if (timing === "none") return { timed: false, fresh: false, toRoll: [], rolls: [], roll: false };
    // The first round's initiative given, rolled before the fight: taken as it is, in acting
    // order; whoever has none and may roll now rolls, and takes its place among them.
    const given = this.config.firstRolls;
    if (given !== undefined && this.round <= 1) {
      const toRoll: RoundFighter<C>[] = [];
      for (let i = 0; i < this.list.length; i++) {
        const f = this.list[i]!;
        if (this.outAt(i) || (opts.eligible && !opts.eligible(f)) || given.some((r) => r.members.includes(f.id))) continue;
        toRoll.push(f);
      }
      return { timed: true, fresh: false, toRoll, rolls: toRoll.length ? given : this.ruleset.order(given), roll: toRoll.length > 0 };
    }
    const fresh = this.round <= 1 || timing === "round" || !this.rolls.length;
    const toRoll: RoundFighter<C>[] = [];
    if (fresh || opts.rollMissing) {
      const rolled = fresh ? undefined : new Set(this.rolls.flatMap((r) => r.members));
      for (let i = 0; i < this.list.length; i++) {
        const f = this.list[i]!;
        if (this.outAt(i) || (opts.eligible && !opts.eligible(f)) || rolled?.has(f.id)) continue;
        toRoll.push(f);
      }
    }
    let rolls = fresh ? [] : this.rolls;
    if (!fresh && opts.rollMissing) rolls = rolls.filter((r) => r.members.some((id) => !this.isOut(id)));
    return { timed: true, fresh, toRoll, rolls, roll: toRoll.length > 0 || Boolean(opts.rollMissing) };
  }

  /** The part of {@link rollInitiative} after the rolls: they are kept, and the event built and recorded. */
  private initiativeEnd(start: {
    timed: boolean;
    fresh: boolean;
    toRoll: RoundFighter<C>[];
    rolls: InitiativeRoll[];
  }): Extract<RoundEvent, { type: "initiative" }> {
    this.rolls = start.rolls;
    const kept = start.timed && !start.fresh && start.toRoll.length === 0;
    const event = { type: "initiative" as const, round: this.round, rolls: this.rolls, order: this.order(), kept };
    this.record(event);
    return event;
  }

  /** The ruleset's synchronous initiative when it has one and the dice roll at once; else undefined. */
  private syncInitiative(): SyncInitiative<C> | undefined {
    if (this.syncRoller === undefined) {
      const r = this.ruleset as Partial<SyncInitiative<C>>;
      this.syncRoller = typeof r.rollInitiativeSync === "function" && canRollSync(this.dice);
    }
    return this.syncRoller ? (this.ruleset as unknown as SyncInitiative<C>) : undefined;
  }
  /** Whether {@link syncInitiative} has one, worked out once: the ruleset and the dice are the engine's for its life. */
  private syncRoller?: boolean;

  /** Ids in acting order: by initiative, or everyone in the order given where there is none (HB-ACT-01). A new list. */
  order(): string[] {
    return this.orderIds().slice();
  }

  /**
   * {@link order}, shared: worked out again only for other rolls (a new list of them) or another
   * timing, so that a round kept from the last one, or a ruleset without initiative, builds none.
   * Nobody outside the engine holds it.
   */
  private orderIds(): readonly string[] {
    const none = this.ruleset.initiativeTiming(this.config.options) === "none";
    const key = none ? undefined : this.rolls;
    let known = this.ordered;
    if (!known || known.key !== key) {
      const ids: string[] = [];
      if (none) for (const f of this.list) ids.push(f.id);
      else for (const r of this.rolls) for (const id of r.members) ids.push(id);
      this.ordered = known = { key, ids };
    }
    return known.ids;
  }
  /** What {@link orderIds} last worked out: for these rolls (`undefined` without initiative), these ids. */
  private ordered?: { key: InitiativeRoll[] | undefined; ids: string[] };

  /**
   * The turns of the round: each id of `order` (the acting order by default) whose combatant is
   * not out when its turn comes and not skipped; stops once at most one side is standing.
   * @throws FrayError `FRAY.Error.Field` (field `id`) when `order` names an unknown id.
   */
  *turns(order: readonly string[] = this.orderIds(), skip?: (f: RoundFighter<C>) => boolean): Generator<string> {
    const list = this.list;
    for (let k = 0; k < order.length; k++) {
      const id = order[k]!;
      const i = this.place(id);
      if (this.outAt(i) || (skip !== undefined && skip(list[i]!))) continue;
      yield id;
      if (!this.twoSidesStanding()) return;
    }
  }

  /**
   * {@link turns} without a generator, for a host's tight loop: the place in `order` of the next
   * turn at or after place `from` (an id whose combatant is not out and not skipped), or -1 when
   * the round's turns are over. `played` says a turn was played since the last call (the one
   * before `from`): then, as {@link turns} does after each turn, there is none once at most one
   * side is standing. Walk a round as
   * `for (let k = engine.nextTurn(order, 0); k >= 0; k = engine.nextTurn(order, k + 1, skip, true))`.
   * @throws FrayError `FRAY.Error.Field` (field `id`) when `order` names an unknown id.
   */
  nextTurn(order: readonly string[], from: number, skip?: (f: RoundFighter<C>) => boolean, played = false): number {
    if (played && !this.twoSidesStanding()) return -1;
    const list = this.list;
    for (let k = from; k < order.length; k++) {
      const i = this.place(order[k]!);
      if (this.outAt(i) || (skip !== undefined && skip(list[i]!))) continue;
      return k;
    }
    return -1;
  }

  /**
   * The cost of one of the ruleset's actions for this combatant (`ruleset.actions`), or undefined
   * when it has no such action. The actions are asked of the ruleset once per state of the
   * combatant (states are values; the options are the engine's for its life).
   * @throws FrayError `FRAY.Error.Field` (field `id`) for an unknown id.
   */
  costOf(id: string, actionId: string): ActionCost | undefined {
    const i = this.place(id);
    const c = this.list[i]!.combatant;
    let known = this.actionsOf[i];
    if (known === undefined || known.state !== c) {
      known = { state: c, actions: this.ruleset.actions(c, this.config.options) };
      this.actionsOf[i] = known;
    }
    const actions = known.actions;
    for (let k = 0; k < actions.length; k++) if (actions[k]!.id === actionId) return actions[k]!.cost;
    return undefined;
  }

  /**
   * Pays a cost from the combatant's economy (CR-AP-01). Returns false, with a `refused` event
   * naming the spent slot or pool, when the economy cannot pay it.
   */
  pay(id: string, action: string, cost: ActionCost): boolean {
    const f = this.get(id);
    const missing = shortfall(f.economy, cost);
    if (missing) {
      this.record({ type: "refused", round: this.round, actor: id, action, missing });
      return false;
    }
    f.economy = charge(f.economy, cost);
    if (this.keeping) this.record({ type: "paid", round: this.round, actor: id, action, cost });
    return true;
  }

  /** Runs the ruleset's `afterAction` for a combatant and returns what it did. */
  afterAction(id: string, outcome: ActionOutcome): LifecycleEvent[] {
    const next = this.transition(id, (c, economy) => this.ruleset.afterAction(c, outcome, economy, this.config.options));
    if (next.events.length) this.record({ type: "lifecycle", round: this.round, actor: id, phase: "after", events: next.events });
    return next.events;
  }

  /**
   * Applies a transition of the host's or the ruleset's to a combatant and its economy. Within a
   * simultaneous step it also applies to the state the step's held damage builds up (with the
   * economy of the current state), so that nothing done in the step is lost when its damage is
   * committed (HB-ACT-01). Returns the transition of the current state.
   */
  transition(id: string, change: (c: C, economy: Economy) => RoundState<C>): RoundState<C> {
    const f = this.get(id);
    const economy = f.economy;
    const done = change(f.combatant, economy);
    f.combatant = done.combatant;
    f.economy = done.economy;
    const open = this.open;
    const held = open?.held[f.place];
    if (held !== undefined) open!.hold(f.place, change(held, economy).combatant);
    return done;
  }

  /**
   * The state the open simultaneous step holds for a combatant, with the damage held for it so far
   * (HB-ACT-01); `undefined` outside a step or when none is held for it. A {@link transition}
   * applies to this state too.
   * @throws FrayError `FRAY.Error.Field` (field `id`) when the id is not in the fight.
   */
  heldState(id: string): C | undefined {
    const open = this.open;
    return open === undefined ? undefined : open.held[this.place(id)];
  }

  /** True while a simultaneous step is open ({@link step}). */
  get inStep(): boolean {
    return this.open !== undefined;
  }

  /**
   * One simultaneous step (HB-ACT-01): runs `run`, in which the host plays the step's actions
   * with {@link attack}, {@link act} and {@link transition}. While the step is open, attacks are
   * resolved against the combatants' states at the step's start (with what their own actions and
   * reactions changed), so a combatant shot in the step still acts and is still standing; their
   * damage is held, a second hit on the same target adding to the first; forced checks wait.
   * When `run` ends, all held damage is committed together, then each forced check it called
   * for is rolled in order (`ruleset.forcedCheck`, HB-DMG-04) if `opts.due` says it still
   * applies, the combatant taking the check's vital state. If `run` throws, the held damage is
   * dropped and the error passes on.
   * @throws FrayError `FRAY.Error.Field` (field `step`) when a step is already open.
   */
  async step<T>(run: () => Promise<T> | T, opts: StepOptions<C> = {}): Promise<StepRecord<T>> {
    const open = this.openStep();
    let value: T;
    try {
      value = await run();
    } finally {
      this.open = undefined;
    }
    this.commitStep(open);
    const forced: StepRecord<T>["forced"] = [];
    if (!this.forcedAtOnce(open, opts, forced)) {
      // Indexed: in a function that awaits, V8 leaves a `for of` over a list uncompiled, a call
      // for each item that builds a result object.
      const checks = open.forced;
      for (let k = 0; k < checks.length; k++) {
        const { id, forced: check } = checks[k]!;
        const f = this.get(id);
        if (opts.due && !opts.due(f.combatant, check)) continue;
        const result = await this.ruleset.forcedCheck!(f.combatant, check, this.dice, this.config.options);
        f.combatant = this.ruleset.withVitals(f.combatant, result.report.after);
        this.record({ type: "forced", round: this.round, actor: id, result });
        forced.push({ actor: id, result });
      }
    }
    return { value, damaged: this.damagedIds(open), forced };
  }

  /**
   * {@link step} at once, for a host whose step awaits nothing (a forecast's quiet attacks,
   * {@link quietOutcomeSync}): the same record, with the step's forced checks rolled at once,
   * quietly with `opts.quiet` where the ruleset can (HB-ACT-01, HB-DMG-04).
   * @throws FrayError `FRAY.Error.Field` (field `step`) when a step is already open, when the
   *   step's forced checks cannot be rolled at once (no `forcedCheckSync`, or dice that roll by
   *   promise), before anything is played; or when `run` hands back a promise (its held damage is
   *   dropped then, as when it throws).
   */
  stepSync<T>(run: () => T, opts: StepOptions<C> = {}): StepRecord<T> {
    if (this.ruleset.forcedCheck && !(opts.quiet && this.quietForcedCheck()) && !this.syncForced())
      throw new FrayError(
        "FRAY.Error.Field",
        { field: "step", expected: "a step whose forced checks can be rolled at once" },
        "Not a synchronous step",
      );
    const open = this.openStep();
    let value: T;
    try {
      value = run();
      if (value instanceof Promise)
        throw new FrayError("FRAY.Error.Field", { field: "step", expected: "a step that awaits nothing" }, "Not a synchronous step");
    } finally {
      this.open = undefined;
    }
    this.commitStep(open);
    const forced: StepRecord<T>["forced"] = [];
    this.forcedAtOnce(open, opts, forced);
    return { value, damaged: this.damagedIds(open), forced };
  }

  /**
   * Opens a simultaneous step ({@link step}).
   * @throws FrayError `FRAY.Error.Field` (field `step`) when a step is already open.
   */
  private openStep(): OpenStep<C> {
    if (this.open) throw new FrayError("FRAY.Error.Field", { field: "step", expected: "one step at a time" }, "A step is already open");
    const open = new OpenStep<C>(this.list.length);
    this.open = open;
    return open;
  }

  /** Commits the damage a step held, all together, to the combatants (HB-ACT-01). */
  private commitStep(open: OpenStep<C>): void {
    const list = this.list;
    const order = open.order;
    for (let k = 0; k < order.length; k++) list[order[k]!]!.combatant = open.held[order[k]!]!;
  }

  /** The ids of the combatants a step damaged, in the order their first damage was held. */
  private damagedIds(open: OpenStep<C>): string[] {
    const ids: string[] = [];
    for (let k = 0; k < open.order.length; k++) ids.push(this.list[open.order[k]!]!.id);
    return ids;
  }

  /**
   * The forced checks a step called for, rolled in order at once where the ruleset and the dice
   * can (`SyncForcedCheck`: the same check from the same dice; quietly with `opts.quiet` where
   * the ruleset has a quiet check), each only while `opts.due` says it still applies; the
   * results (none when quiet) pushed onto `forced`. Returns false, having rolled none, when they
   * cannot be rolled at once; true otherwise (also when there are none).
   */
  private forcedAtOnce(open: OpenStep<C>, opts: StepOptions<C>, forced: StepRecord<unknown>["forced"]): boolean {
    const checks = open.forced;
    if (!this.ruleset.forcedCheck || checks.length === 0) return true;
    const quiet = opts.quiet ? this.quietForcedCheck() : undefined;
    const sync = quiet ? undefined : this.syncForced();
    if (!quiet && !sync) return false;
    for (let k = 0; k < checks.length; k++) {
      const { id, forced: check } = checks[k]!;
      const f = this.get(id);
      if (opts.due && !opts.due(f.combatant, check)) continue;
      if (quiet) {
        f.combatant = quiet(f.combatant, check);
        continue;
      }
      const result = sync!.forcedCheckSync(f.combatant, check, this.dice as SyncDiceRoller, this.config.options);
      f.combatant = this.ruleset.withVitals(f.combatant, result.report.after);
      this.record({ type: "forced", round: this.round, actor: id, result });
      forced.push({ actor: id, result });
    }
    return true;
  }

  /**
   * One of the ruleset's actions (`ruleset.actions`, by id): paid from the economy, then the
   * ruleset's `afterAction`. Returns its lifecycle events, or `undefined` when the economy
   * cannot pay (a `refused` event says which slot or pool).
   * @param cost the cost when the host knows it better (a move's band); the action's by default.
   * @throws FrayError `FRAY.Error.Field` (field `action`) when the ruleset has no such action and no cost is given.
   */
  act(id: string, actionId: string, cost?: ActionCost): LifecycleEvent[] | undefined {
    const price = cost ?? this.costOf(id, actionId);
    if (!price)
      throw new FrayError(
        "FRAY.Error.Field",
        { field: "action", expected: `an action of the ruleset (${actionId})` },
        `No action ${actionId}`,
      );
    if (!this.pay(id, actionId, price)) return undefined;
    return this.afterAction(id, { kind: "action", id: actionId });
  }

  /**
   * One attack through the core's attack step: refused when the attacker cannot pay it; the
   * defender's declared reaction chosen by `react`; resolved, damage rolled and applied; the
   * attack paid from the attacker's economy and the reaction from the defender's; `afterAction`
   * for the target (when `settleTarget`), each forced check the damage calls for
   * (`ruleset.forcedCheck`, HB-DMG-04, CR-HIT-02), and `afterAction` for the attacker.
   * Within a simultaneous step ({@link step}) the attack is resolved against the target's state
   * at the step's start, its damage held and its forced checks rolled at the step's end (HB-ACT-01).
   * Returns `undefined` when refused (a `refused` event says why).
   * @throws FrayError from the ruleset on a request it refuses, unless `refuse` accepts the error.
   */
  async attack(request: AttackRequest, opts: AttackOptions = {}): Promise<AttackRecord<C, I> | undefined> {
    const { options } = this.config;
    const attacker = this.get(request.attackerId);
    const target = request.targetId !== undefined ? this.get(request.targetId) : undefined;
    const cost = opts.free ? NO_COST : (opts.cost ?? this.costOf(attacker.id, "attack") ?? NO_COST);
    const missing = shortfall(attacker.economy, cost);
    if (missing) {
      this.record({ type: "refused", round: this.round, actor: attacker.id, action: "attack", missing });
      return undefined;
    }
    let step: AttackStep<C, I>;
    try {
      if (target && opts.react) {
        const input = this.ruleset.input(request, attacker.combatant, target.combatant, options);
        const chosen = opts.react(availableOf(this.ruleset.reactions(input, target.economy, options)));
        request = chosen ? declaring(request, chosen) : request;
      }
      if (opts.damage === false || this.open) {
        const lazy = this.config.lazyOdds ?? false;
        const planned = planStep(this.ruleset, request, attacker.combatant, target?.combatant, options, target?.economy, lazy);
        step = withPlanned(planned, { result: await this.ruleset.resolveAttack(planned.plan, planned.input, this.dice, options) });
        if (this.open && opts.damage !== false && target && step.result.lands) {
          // Within a step the damage is held: it builds on the damage already held for the target.
          const base = this.open.held[target.place] ?? target.combatant;
          const packet = await this.ruleset.rollDamage(step.result, planned.input, this.dice, options);
          const report = this.ruleset.applyDamage(base, packet, options);
          step = withPlanned(step, { packet, report, target: this.ruleset.withVitals(base, report.after) });
        }
      } else {
        step = await attackStep(
          this.ruleset,
          request,
          attacker.combatant,
          target?.combatant,
          this.dice,
          options,
          target?.economy,
          this.config.lazyOdds ?? false,
        );
      }
    } catch (error) {
      if (error instanceof FrayError && opts.refuse?.(error)) {
        this.record({
          type: "refused",
          round: this.round,
          actor: attacker.id,
          action: "attack",
          missing: error.key,
          data: error.data,
        });
        return undefined;
      }
      throw error;
    }
    attacker.economy = charge(attacker.economy, cost);
    if (target && step.result.reaction && step.plan.reaction && opts.payReaction !== false)
      target.economy = spend(target.economy, step.plan.reaction.cost);
    const outcome: ActionOutcome = { kind: "attack", weaponId: step.plan.weaponId, modeId: step.plan.modeId, result: step.result };
    this.record({
      type: "attack",
      round: this.round,
      attacker: attacker.id,
      target: target?.id,
      weaponId: step.plan.weaponId,
      hit: step.result.hit,
      lands: step.result.lands,
      report: step.report,
    });
    const settled = (f: RoundFighter<C>, events: LifecycleEvent[]): Settled<C> => ({ combatant: f.combatant, economy: f.economy, events });
    const forced: AttackRecord<C, I>["forced"] = [];
    let targetState: Settled<C> | undefined;
    if (target && step.target && step.report && this.open) {
      this.open.hold(target.place, step.target);
      for (const check of step.report.forced ?? []) this.open.forced.push({ id: target.id, forced: check });
      const events = opts.settleTarget ? this.afterAction(target.id, outcome) : [];
      targetState = { combatant: this.open.held[target.place]!, economy: target.economy, events };
    } else if (target && step.target && step.report) {
      target.combatant = step.target;
      targetState = settled(target, opts.settleTarget ? this.afterAction(target.id, outcome) : []);
      for (const check of step.report.forced ?? []) {
        if (!this.ruleset.forcedCheck) break;
        const result = await this.ruleset.forcedCheck(target.combatant, check, this.dice, options);
        target.combatant = this.ruleset.withVitals(target.combatant, result.report.after);
        this.record({ type: "forced", round: this.round, actor: target.id, result });
        forced.push({ result, after: settled(target, opts.settleTarget ? this.afterAction(target.id, outcome) : []) });
      }
    }
    const attackerState = settled(attacker, this.afterAction(attacker.id, outcome));
    return { step, attacker: attackerState, target: targetState, forced };
  }

  /**
   * True when attacks can be played quietly ({@link quietAttack}): the ruleset plays them so
   * (`QuietRuleset`) and the dice lend their face source (seeded and scripted rollers).
   */
  get canQuiet(): boolean {
    return (this.quietable ??= isQuiet(this.ruleset) && hasFaceSource(this.dice));
  }
  /** {@link canQuiet}, worked out once: the ruleset and the dice are the engine's for its life. */
  private quietable?: boolean;

  /**
   * True when attacks can be played quietly and synchronously ({@link quietAttackSync}): they can
   * be played quietly ({@link canQuiet}) and the ruleset has no forced checks (UD10, Zones), or
   * rolls them at once too ({@link SyncForcedCheck}: Hitbox, Critical) with dice that roll so.
   */
  get canQuietSync(): boolean {
    return this.canQuiet && (!this.ruleset.forcedCheck || this.syncForced() !== undefined);
  }

  /** The ruleset's synchronous forced check when it has one and the dice roll at once; else undefined. */
  private syncForced(): SyncForcedCheck<C> | undefined {
    if (this.syncForcedRoller === undefined) {
      const r = this.ruleset as Partial<SyncForcedCheck<C>>;
      this.syncForcedRoller = typeof r.forcedCheckSync === "function" && canRollSync(this.dice);
    }
    return this.syncForcedRoller ? (this.ruleset as unknown as SyncForcedCheck<C>) : undefined;
  }
  /** Whether {@link syncForced} has one, worked out once: the ruleset and the dice are the engine's for its life. */
  private syncForcedRoller?: boolean;

  /**
   * One attack played quietly, for a host that reads only outcomes (a forecast): the ruleset's
   * quiet step (`QuietRuleset.quietAttack`, the same outcome as the detailed step for the same
   * faces) with everything {@link attack} does around it in the same order: refused when the
   * attacker cannot pay, the defender's declared reaction chosen by `react`, the attack and the
   * reaction paid, `afterAction` for the target (when `settleTarget`), each forced check the
   * damage calls for, `afterAction` for the attacker. Records no event. Within a simultaneous
   * step ({@link step}) it does what {@link attack} does there: resolved against the target's
   * state at the step's start, the damage built on what the step already holds for the target
   * and held, its forced checks rolled at the step's end (HB-ACT-01). Only for attacks that deal
   * their own damage. Returns `undefined` when refused.
   * @throws FrayError `FRAY.Error.Field` (field `attack`) when attacks cannot be played quietly
   *   here ({@link canQuiet}, `damage: false`); from the ruleset on a request it refuses, unless
   *   `refuse` accepts the error.
   */
  async quietAttack(request: AttackRequest, opts: AttackOptions = {}): Promise<QuietRecord<C> | undefined> {
    const done = this.quietBegin(request, opts);
    if (!done) return undefined;
    // What quietBegin left for this attack, read before anything else can play one.
    const attacker = this.quietAttacker!;
    const target = this.quietTarget;
    let targetState = this.quietTargetState();
    let forced = NO_FORCED;
    const ruleset = this.ruleset;
    if (target && done.target && !this.open && done.forced?.length && ruleset.forcedCheck) {
      forced = [];
      for (const check of done.forced) {
        const result = await ruleset.forcedCheck(target.combatant, check, this.dice, this.config.options);
        target.combatant = ruleset.withVitals(target.combatant, result.report.after);
        forced.push(result);
        if (opts.settleTarget) this.quietSettle(target, done);
      }
      targetState = { combatant: target.combatant, economy: target.economy };
    }
    this.quietSettle(attacker, done);
    return { attack: done, attacker: { combatant: attacker.combatant, economy: attacker.economy }, target: targetState, forced };
  }

  /**
   * {@link quietAttack} played synchronously, for a forecast's tight loop: the same attack, the
   * same faces, the same states after it, without a promise per attack. Only where
   * {@link canQuietSync} holds.
   * @throws FrayError `FRAY.Error.Field` (field `attack`) when attacks cannot be played quietly and
   *   synchronously here ({@link canQuietSync}, `damage: false`); from the ruleset on a request it
   *   refuses, unless `refuse` accepts the error.
   */
  quietAttackSync(request: AttackRequest, opts: AttackOptions = {}): QuietRecord<C> | undefined {
    const done = this.quietSync(request, opts, false);
    if (!done) return undefined;
    const attacker = this.quietAttacker!;
    return {
      attack: done,
      attacker: { combatant: attacker.combatant, economy: attacker.economy },
      target: this.quietTargetState(),
      forced: this.quietForced,
    };
  }

  /**
   * {@link quietAttackSync} for a host that reads only the attack's outcome: the same attack, the
   * same faces, the same states after it (in the fighters: {@link get}), returning the ruleset's
   * quiet attack without the record around it, so that no state object is built per attack. Its
   * forced checks are rolled quietly where the ruleset can (`QuietRuleset.quietForcedCheck`): the
   * same states from the same faces, no check result built.
   * Only where {@link canQuietSync} holds. Returns `undefined` when refused.
   * @throws FrayError as {@link quietAttackSync}.
   */
  quietOutcomeSync(request: AttackRequest, opts: AttackOptions = {}): QuietAttack<C> | undefined {
    return this.quietSync(request, opts, true);
  }

  /**
   * {@link quietAttackSync} and {@link quietOutcomeSync}: the attack, its forced checks rolled at
   * once, and quietly when `quietChecks` and the ruleset can (none listed in {@link quietForced} then).
   */
  private quietSync(request: AttackRequest, opts: AttackOptions, quietChecks: boolean): QuietAttack<C> | undefined {
    const ruleset = this.ruleset;
    const sync = ruleset.forcedCheck ? this.syncForced() : undefined;
    if (ruleset.forcedCheck && !sync)
      throw new FrayError(
        "FRAY.Error.Field",
        { field: "attack", expected: "an attack that can be played quietly and synchronously" },
        "Not a synchronous quiet attack",
      );
    const done = this.quietBegin(request, opts);
    if (!done) return undefined;
    const attacker = this.quietAttacker!;
    const target = this.quietTarget;
    this.quietForced = NO_FORCED;
    if (sync && target && done.target && !this.open && done.forced?.length) {
      // The forced checks as quietAttack rolls them, at once (quietly: no result built, none listed).
      const quiet = quietChecks ? this.quietForcedCheck() : undefined;
      const dice = this.dice as SyncDiceRoller;
      const forced: ForcedCheckResult[] = [];
      for (const check of done.forced) {
        if (quiet) target.combatant = quiet(target.combatant, check);
        else {
          const result = sync.forcedCheckSync(target.combatant, check, dice, this.config.options);
          target.combatant = ruleset.withVitals(target.combatant, result.report.after);
          forced.push(result);
        }
        if (opts.settleTarget) this.quietSettle(target, done);
      }
      if (forced.length) this.quietForced = forced;
      this.quietTargetAfter = target.combatant;
      this.quietTargetEconomy = target.economy;
    }
    this.quietSettle(attacker, done);
    return done;
  }

  /**
   * The ruleset's quiet forced check (`QuietRuleset.quietForcedCheck`) bound to the engine's face
   * source and options, where the ruleset has one and the dice lend their faces; else undefined.
   */
  private quietForcedCheck(): ((c: C, forced: ForcedCheck) => C) | undefined {
    if (this.quietChecker === undefined) {
      const r = this.ruleset as Ruleset<C, I> & Partial<QuietRuleset<C, I>>;
      const check = r.quietForcedCheck;
      const dice = this.dice;
      this.quietChecker =
        check && hasFaceSource(dice) ? (c: C, forced: ForcedCheck) => check.call(r, c, forced, dice.faces, this.config.options) : null;
    }
    return this.quietChecker ?? undefined;
  }
  /** {@link quietForcedCheck}, bound once (null: none); the ruleset and the dice are the engine's for its life. */
  private quietChecker?: ((c: C, forced: ForcedCheck) => C) | null;

  /** The forced checks {@link quietAttackSync} last rolled; {@link NO_FORCED} when none. */
  private quietForced: ForcedCheckResult[] = NO_FORCED;

  /** The attacker of the quiet attack {@link quietBegin} last played; read right after it. */
  private quietAttacker?: RoundFighter<C>;
  /** Its target, if any. */
  private quietTarget?: RoundFighter<C>;
  /** The target after the attack (and its checks), as its record holds it; `undefined` without damage. */
  private quietTargetAfter?: C;
  /** The target's economy then. */
  private quietTargetEconomy?: Economy;
  /** The target's state after the quiet attack last played, for its record: built only when asked for. */
  private quietTargetState(): QuietRecord<C>["target"] {
    return this.quietTargetAfter === undefined ? undefined : { combatant: this.quietTargetAfter, economy: this.quietTargetEconomy! };
  }

  /**
   * The part of a quiet attack before its forced checks: paid, reaction chosen, resolved, the
   * reaction paid, the damage applied (or held within a step) and the target settled. Returns
   * `undefined` when refused; else the attack, with its attacker, target and the target's state
   * left in {@link quietAttacker}, {@link quietTarget}, {@link quietTargetAfter} and
   * {@link quietTargetEconomy} (no object is built to carry them).
   */
  private quietBegin(request: AttackRequest, opts: AttackOptions): QuietAttack<C> | undefined {
    if (!this.canQuiet || opts.damage === false)
      throw new FrayError("FRAY.Error.Field", { field: "attack", expected: "an attack that can be played quietly" }, "Not a quiet attack");
    const ruleset = this.ruleset as Ruleset<C, I> & QuietRuleset<C, I>;
    const { options } = this.config;
    const attacker = this.list[this.place(request.attackerId)]!;
    const target = request.targetId !== undefined ? this.list[this.place(request.targetId)] : undefined;
    const cost = opts.free ? NO_COST : (opts.cost ?? this.costOf(attacker.id, "attack") ?? NO_COST);
    const paid = this.paidQuietly(attacker.economy, cost);
    if (paid === undefined) return undefined;
    let done: QuietAttack<C>;
    try {
      let input = ruleset.input(request, attacker.combatant, target?.combatant, options);
      if (target && opts.react) {
        const chosen = opts.react(availableOf(ruleset.reactions(input, target.economy, options)));
        if (chosen) input = this.reactionInput(input, request, chosen, attacker.combatant, target.combatant);
      }
      const held = target && this.open ? this.open.held[target.place] : undefined;
      done = ruleset.quietAttack(input, (this.dice as DiceRoller & FaceSourceRoller).faces, options, target?.economy, held);
    } catch (error) {
      if (error instanceof FrayError && opts.refuse?.(error)) return undefined;
      throw error;
    }
    attacker.economy = paid;
    if (target && done.reacted && done.reactionCost && opts.payReaction !== false) {
      // The ruleset's own check said the reaction is still possible; spend checks again, as the detailed path does.
      const reacted = this.paidQuietly(target.economy, done.reactionCost);
      target.economy = reacted ?? spend(target.economy, done.reactionCost);
    }
    let after: C | undefined;
    if (target && done.target && this.open) {
      // Within a step the damage is held and its forced checks wait for the step's end.
      this.open.hold(target.place, done.target);
      if (done.forced) for (const check of done.forced) this.open.forced.push({ id: target.id, forced: check });
      if (opts.settleTarget) this.quietSettle(target, done);
      after = this.open.held[target.place]!;
    } else if (target && done.target) {
      target.combatant = done.target;
      if (opts.settleTarget) this.quietSettle(target, done);
      after = target.combatant;
    }
    this.quietAttacker = attacker;
    this.quietTarget = target;
    this.quietTargetAfter = after;
    this.quietTargetEconomy = after === undefined ? undefined : target!.economy;
    return done;
  }

  /**
   * `economy` after paying `cost` (`charge`), or `undefined` when it cannot be paid (`shortfall`).
   * An engine that keeps no events (a forecast's) whose combatants started the round with one
   * shared economy (the quiet round start of UD10 and Hitbox) remembers the last few payments by
   * economy and cost: economies are values, and the round's economies then come from few
   * payments made again and again, which give the economy they gave before instead of a new copy.
   * (An engine that keeps its events plays for a host, which may keep and change the economies it
   * is handed; and where each combatant has its own economy, a payment is seldom made twice: none
   * is remembered.)
   */
  private paidQuietly(economy: Economy, cost: ActionCost): Economy | undefined {
    if (cost === NO_COST) return economy;
    const memory = this.paid;
    const remembered = memory !== undefined && memory.active;
    if (remembered) {
      const from = memory.from;
      for (let i = 0; i < from.length; i++) if (from[i] === economy && memory.cost[i] === cost) return memory.to[i];
    }
    if (shortfall(economy, cost)) return undefined;
    const paid = charge(economy, cost);
    if (remembered) memory.remember(economy, cost, paid);
    return paid;
  }
  /** The payments {@link paidQuietly} remembers, once a round's start shared one economy ({@link startRound}). */
  private paid: PaidMemory | undefined = undefined;

  /**
   * The ruleset's input for `request` with the defender's `reaction` declared, from `input`, the
   * input of the same request without one: `ruleset.withReaction` where the ruleset has it, else
   * the input built again for the request with the reaction.
   * @throws FrayError as `ruleset.input` does for that reaction.
   */
  private reactionInput(input: I, request: AttackRequest, reaction: string, attacker: C, target: C): I {
    const ruleset = this.ruleset;
    if (ruleset.withReaction) return ruleset.withReaction(input, reaction);
    return ruleset.input(declaring(request, reaction), attacker, target, this.config.options);
  }

  /**
   * The ruleset's `quietAfterAttack` for a combatant; within a step also for the state the step
   * holds for it, as {@link transition} does, so that the held state takes it too (as `afterAction` does).
   */
  private quietSettle(f: RoundFighter<C>, done: QuietAttack<C>): void {
    const ruleset = this.ruleset as Ruleset<C, I> & QuietRuleset<C, I>;
    const options = this.config.options;
    const economy = f.economy;
    const next = ruleset.quietAfterAttack(f.combatant, done, economy, options);
    f.combatant = next.combatant;
    f.economy = next.economy;
    // Within a step, as transition does: the held state takes it too, with the economy of the current state.
    const open = this.open;
    const held = open?.held[f.place];
    if (held !== undefined) open!.hold(f.place, ruleset.quietAfterAttack(held, done, economy, options).combatant);
  }

  /**
   * The end of the fight, if it ended: `side-down` when at most one side is standing (the
   * winner being that side), `max-rounds` once the last round is played; `undefined` while it
   * goes on. Records the `end` event the first time it answers.
   */
  isOver(): RoundEnd | undefined {
    const sides = this.twoSidesStanding() ? undefined : this.standingSides();
    const last = this.config.maxRounds;
    if (!sides && this.round < last) return undefined;
    // One literal for both ends: a second one, met only in the rare fight that lasts to the last
    // round, threw the compiled code away there.
    const end: RoundEnd = {
      round: sides ? this.round : last,
      // (No side standing is a draw: the set read only when it holds one, as reading past the
      // end of a list also threw the compiled code away.)
      winner: sides && sides.size !== 0 ? [...sides][0]! : null,
      reason: sides ? "side-down" : "max-rounds",
    };
    if (this.keeping && this.events.at(-1)?.type !== "end")
      this.record({ type: "end", round: end.round, winner: end.winner, reason: end.reason });
    return end;
  }
}
