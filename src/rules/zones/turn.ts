import { shortfall, spend, type ActionCost, type Economy, type EconomySpec } from "../core/economy.js";
import { FrayError } from "../core/errors.js";
import { hasAnyOf } from "../core/lists.js";
import type { MovementBand } from "../core/ruleset.js";
import type { RuleId } from "../core/types.js";
import type { Stance, ZonesCombatant } from "./model.js";
import type { ZonesOptions } from "./options.js";

/**
 * A Zones turn: the economy of one action, one reaction and one free action with speed and
 * effort points (ZN-ACT-01, ZN-FRE-01, ZN-MOV-01 to ZN-MOV-04), what each action costs
 * (ZN-ACT-02), the surprise round (ZN-SUR-01) and reactions declared in advance (ZN-REA-01).
 */

/** True when the combatant is caught in a surprise round and cannot act (ZN-SUR-01). */
export function isSurprised(c: ZonesCombatant): boolean {
  return c.conditions.includes("surprised");
}

/**
 * Whether a combatant rolls initiative for a round (ZN-SUR-01): not while it is surprised in the
 * first round (`round` 0 or 1: before the fight starts or in the surprise round); from round 2,
 * or once the GM took the `surprised` status off, it rolls.
 * @param round the round the roll is for.
 */
export function rollsInitiative(c: Pick<ZonesCombatant, "conditions">, round: number): boolean {
  return !(round <= 1 && c.conditions.includes("surprised"));
}

/** Conditions that leave a combatant no action, reaction or free action in a round. */
const TURN_OUT: readonly string[] = ["incapacitated", "dead", "unconscious"];

/**
 * The economy a combatant starts a round with (ZN-ACT-01, ZN-FRE-01, ZN-SUR-01, ZN-MOV-03):
 * slots `action`, `reaction`, `free` (1 each unless perks change them; none at all for a side
 * caught in a surprise round), pools `speed` (the current speed points; full again each round
 * only with the `round` speed recovery) and `effort` (the current effort points).
 */
export function economy(c: ZonesCombatant, options: Pick<ZonesOptions, "speedRecovery">): EconomySpec {
  const out = isSurprised(c) || hasAnyOf(c.conditions, TURN_OUT);
  return {
    slots: [
      { id: "action", label: "FRAY.Slot.action", max: out ? 0 : c.actions.action, rule: "ZN-ACT-01" },
      { id: "reaction", label: "FRAY.Slot.reaction", max: out ? 0 : c.actions.reaction, rule: "ZN-REA-01" },
      { id: "free", label: "FRAY.Slot.free", max: out ? 0 : c.actions.free, rule: "ZN-FRE-01" },
    ],
    pools: [
      {
        id: "speed",
        label: "FRAY.Zones.Pool.speed",
        max: c.speed.max,
        value: options.speedRecovery === "round" ? c.speed.max : c.speed.value,
        rule: "ZN-MOV-01",
      },
      { id: "effort", label: "FRAY.Zones.Pool.effort", max: c.effort.max, value: c.effort.value, rule: "ZN-MOV-04" },
    ],
  };
}

/**
 * The round's economy itself: `createEconomy(economy(c, options))` built directly, without its
 * spec (this runs for every combatant every round). Slots `action`, `reaction`, `free` none used;
 * pools `speed` and `effort` at their values, capped at their maxima (ZN-ACT-01, ZN-FRE-01,
 * ZN-SUR-01, ZN-MOV-03).
 */
export function roundEconomy(c: ZonesCombatant, options: Pick<ZonesOptions, "speedRecovery">): Economy {
  const out = isSurprised(c) || hasAnyOf(c.conditions, TURN_OUT);
  const speed = options.speedRecovery === "round" ? c.speed.max : c.speed.value;
  return {
    slots: {
      action: { used: 0, max: out ? 0 : c.actions.action },
      reaction: { used: 0, max: out ? 0 : c.actions.reaction },
      free: { used: 0, max: out ? 0 : c.actions.free },
    },
    pools: {
      speed: { value: Math.min(speed ?? c.speed.max, c.speed.max), max: c.speed.max },
      effort: { value: Math.min(c.effort.value ?? c.effort.max, c.effort.max), max: c.effort.max },
    },
  };
}

/** An action of ZN-ACT-02 and the other actions the seed prices, with what each costs. */
export interface ActionDef {
  id: string;
  /** i18n key. */
  label: string;
  rule: RuleId;
  cost: ActionCost;
}

/**
 * What an attack costs (ZN-ACT-02): the action. {@link ACTIONS} prices `attack` with it, so the
 * play contract's `actions()` gives this cost to every combatant under every option; a host may
 * pay it without asking for the action list at every attack.
 */
export const ATTACK_COST: ActionCost = { slots: { action: 1 } };

/**
 * The actions a turn offers (ZN-ACT-02): move with speed points, use a simple item (reload,
 * pull a pin and throw), attack, aim, a skill check; and those priced elsewhere: regain speed
 * points (ZN-MOV-03), dodge (ZN-MEL-03), clear a stoppage (ZN-MAL-01), draw (ZN-DRW-01, one
 * action per step). Every one takes the action.
 */
export const ACTIONS: readonly ActionDef[] = [
  { id: "move", label: "FRAY.Zones.Action.move", rule: "ZN-ACT-02", cost: { slots: { action: 1 } } },
  { id: "useItem", label: "FRAY.Zones.Action.useItem", rule: "ZN-ACT-02", cost: { slots: { action: 1 } } },
  { id: "attack", label: "FRAY.Zones.Action.attack", rule: "ZN-ACT-02", cost: ATTACK_COST },
  { id: "aim", label: "FRAY.Zones.Action.aim", rule: "ZN-RNG-07", cost: { slots: { action: 1 } } },
  { id: "skill", label: "FRAY.Zones.Action.skill", rule: "ZN-ACT-02", cost: { slots: { action: 1 } } },
  { id: "regainSpeed", label: "FRAY.Zones.Action.regainSpeed", rule: "ZN-MOV-03", cost: { slots: { action: 1 } } },
  { id: "dodge", label: "FRAY.Zones.Action.dodge", rule: "ZN-MEL-03", cost: { slots: { action: 1 } } },
  { id: "clearMalfunction", label: "FRAY.Zones.Action.clearMalfunction", rule: "ZN-MAL-01", cost: { slots: { action: 1 } } },
  { id: "reload", label: "FRAY.Zones.Action.reload", rule: "ZN-REL-01", cost: { slots: { action: 1 } } },
  { id: "draw", label: "FRAY.Zones.Action.draw", rule: "ZN-DRW-01", cost: { slots: { action: 1 } } },
  { id: "suppress", label: "FRAY.Zones.Action.suppress", rule: "ZN-SUP-01", cost: { slots: { action: 1 } } },
];

/** The most words a free action of talking holds (ZN-FRE-01). */
export const FREE_TALK_WORDS = 10;

/**
 * What saying something costs (ZN-FRE-01): up to ten words is the free action; longer speech
 * takes the action (RULES.md).
 * @throws FrayError `FRAY.Error.Field` (field `words`) for a negative or fractional count.
 */
export function talkCost(words: number): ActionCost {
  if (!Number.isInteger(words) || words < 0)
    throw new FrayError("FRAY.Error.Field", { field: "words", expected: "a whole number of words" }, "Words must be a whole number");
  return words <= FREE_TALK_WORDS ? { slots: { free: 1 } } : { slots: { action: 1 } };
}

/** Ways of moving and their speed points per metre (ZN-MOV-01). */
export const MOVE_RATES = {
  walk: 1,
  run: 0.5,
  jump: 2,
  runningJump: 1,
  crawl: 2,
  climb: 3,
} as const;
export type MoveMode = keyof typeof MOVE_RATES;

/** A leg a token moved this round, as the table records it: a movement action id and metres. */
export interface MovedLeg {
  /** A movement action id (`walk`, `run`, `crawl` ...); ids Zones has no cost for count as no movement. */
  action: string;
  /** Metres covered, 0 or more. */
  metres: number;
}

/**
 * The movement category a combatant's legs this round give (ZN-RNG-04, RULES.md): any leg run or
 * running-jumped over more than 0 m makes it fast; any other leg of a Zones way of moving (walk,
 * crawl, climb, jump) over more than 0 m slow; no such leg gives `undefined` (the combatant's own
 * category stands: subtle for someone standing). Foundry's actions Zones has no rule for
 * (displace, a GM's teleport; fly, swim, burrow, blink) are not movement.
 * @param legs the legs since the round began, in any order; malformed entries are skipped.
 */
export function movementOfLegs(legs: readonly MovedLeg[]): "slow" | "fast" | undefined {
  let out: "slow" | "fast" | undefined;
  for (const leg of legs) {
    if (!leg || typeof leg.action !== "string" || !(typeof leg.metres === "number" && leg.metres > 0)) continue;
    if (!Object.hasOwn(MOVE_RATES, leg.action)) continue;
    if (leg.action === "run" || leg.action === "runningJump") return "fast";
    out = "slow";
  }
  return out;
}

/** One leg of a movement: a way of moving over some metres, maybe through difficult terrain. */
export interface MoveLeg {
  mode: MoveMode;
  /** Metres, 0 or more. */
  metres: number;
  /** Difficult terrain (stairs, slopes, snow, mud, wet ground) doubles the cost (ZN-MOV-02). */
  difficult?: boolean;
}

/** A stance change within a movement (ZN-MOV-01): 1 point, 2 when getting up from prone. */
export interface StanceLeg {
  stance: Stance;
}

/** Speed points of one leg (ZN-MOV-01, ZN-MOV-02), before rounding. */
export function legPoints(leg: MoveLeg): number {
  return MOVE_RATES[leg.mode] * leg.metres * (leg.difficult ? 2 : 1);
}

/**
 * Speed points to change stance (ZN-MOV-01): 2 to get up from prone (either prone stance) to
 * kneeling or standing, 1 for any other change (including between the two prone stances);
 * nothing when the stance does not change. Difficult terrain does not double it (ZN-MOV-02).
 */
export function stanceCost(from: Stance, to: Stance): number {
  if (from === to) return 0;
  const prone = (s: Stance) => s === "prone" || s === "proneFiring";
  return prone(from) && !prone(to) ? 2 : 1;
}

/** The cost of a planned movement and how it is paid. */
export interface MovePlan {
  /** Speed points the movement needs in all (rounded up to whole points). */
  points: number;
  /** Paid from speed points. */
  speed: number;
  /** Paid from effort points (ZN-MOV-04). */
  effort: number;
  /** Slots and pools to spend. */
  cost: ActionCost;
  /** Stance at the end. */
  stance: Stance;
  /** The fastest way of moving used: running (or a running jump) makes the mover fast, anything else slow (ZN-RNG-04). */
  movement: "slow" | "fast" | "subtle";
  /** Metres covered. */
  metres: number;
  rules: RuleId[];
}

/**
 * Prices a movement made of legs and stance changes (ZN-MOV-01, ZN-MOV-02) and pays it from speed
 * points, topping up from effort points when speed runs short (ZN-MOV-04); `effort` given pays
 * that many points from effort first (effort in place of speed). Movement takes the action when
 * the option says so (ZN-ACT-02). Fractional points (running an odd number of metres) round up.
 * @throws FrayError `FRAY.Error.Zones.NotEnoughPoints` when speed and effort together fall short,
 *   `FRAY.Error.Field` for a negative distance, `FRAY.Error.Economy` when the action is spent.
 */
export function planMove(
  c: ZonesCombatant,
  economyNow: Economy,
  steps: readonly (MoveLeg | StanceLeg)[],
  options: Pick<ZonesOptions, "moveTakesAction">,
  effort = 0,
): MovePlan {
  let points = 0;
  let stance = c.stance;
  let metres = 0;
  let movement: MovePlan["movement"] = "subtle";
  const rules = new Set<RuleId>(["ZN-MOV-01"]);
  steps.forEach((step, i) => {
    if ("stance" in step) {
      points += stanceCost(stance, step.stance);
      stance = step.stance;
      return;
    }
    if (!(step.metres >= 0))
      throw new FrayError("FRAY.Error.Field", { field: `move[${i}].metres`, expected: "metres, 0 or more" }, "Metres must be 0 or more");
    if (!(step.mode in MOVE_RATES))
      throw new FrayError(
        "FRAY.Error.Field",
        { field: `move[${i}].mode`, expected: Object.keys(MOVE_RATES).join(", ") },
        `Unknown way of moving "${String(step.mode)}"`,
      );
    if (step.difficult) rules.add("ZN-MOV-02");
    points += legPoints(step);
    metres += step.metres;
    if (step.metres > 0) movement = step.mode === "run" || step.mode === "runningJump" || movement === "fast" ? "fast" : "slow";
  });
  const whole = Math.ceil(points - 1e-9);
  const speedLeft = economyNow.pools.speed?.value ?? 0;
  const effortLeft = economyNow.pools.effort?.value ?? 0;
  const fromEffortFirst = Math.min(Math.max(0, Math.floor(effort)), whole);
  const fromSpeed = Math.min(speedLeft, whole - fromEffortFirst);
  const fromEffort = whole - fromSpeed;
  if (fromEffort > 0) rules.add("ZN-MOV-04");
  if (fromEffort > effortLeft) {
    throw new FrayError(
      "FRAY.Error.Zones.NotEnoughPoints",
      { needed: whole, speed: speedLeft, effort: effortLeft },
      `The movement needs ${whole} points; ${speedLeft} speed and ${effortLeft} effort are left`,
    );
  }
  const cost: ActionCost = { pools: { speed: fromSpeed, effort: fromEffort } };
  if (options.moveTakesAction && whole > 0) cost.slots = { action: 1 };
  const missing = shortfall(economyNow, cost);
  if (missing) throw new FrayError("FRAY.Error.Economy", { slot: missing }, `No ${missing} left this round`);
  return { points: whole, speed: fromSpeed, effort: fromEffort, cost, stance, movement, metres, rules: [...rules] };
}

/**
 * Spends an action to regain all speed points (ZN-MOV-03). Returns the new economy; `economyNow`
 * is not changed.
 * @throws FrayError `FRAY.Error.Economy` when no action is left.
 */
export function regainSpeed(economyNow: Economy): Economy {
  const next = spend(economyNow, { slots: { action: 1 } });
  const pool = next.pools.speed;
  // A new pool in a new record: `spend` shares the pools it leaves alone with `economyNow`.
  return pool ? { slots: next.slots, pools: { ...next.pools, speed: { value: pool.max, max: pool.max } } } : next;
}

/**
 * Movement bands for the ruler (ZN-MOV-01, ZN-MOV-04): walking covers one metre per speed point,
 * running two; effort points extend both. Each band's cost is that of its full distance.
 */
export function movement(c: ZonesCombatant, options: Pick<ZonesOptions, "moveTakesAction" | "speedRecovery">): MovementBand[] {
  const speed = options.speedRecovery === "round" ? c.speed.max : c.speed.value;
  const points = speed + c.effort.value;
  const band = (id: "walk" | "run", metres: number): MovementBand => ({
    id,
    label: `FRAY.Zones.Move.${id}`,
    rule: "ZN-MOV-01",
    maxMetres: metres,
    cost: priceMetres(points === 0 ? 0 : Math.ceil(MOVE_RATES[id] * metres - 1e-9), speed, options),
  });
  return [band("walk", points), band("run", points / MOVE_RATES.run)];
}

function priceMetres(points: number, speed: number, options: Pick<ZonesOptions, "moveTakesAction">): ActionCost {
  const fromSpeed = Math.min(points, speed);
  const cost: ActionCost = { pools: { speed: fromSpeed, effort: points - fromSpeed } };
  if (options.moveTakesAction && points > 0) cost.slots = { action: 1 };
  return cost;
}

/**
 * The band a move of `metres` falls in, with the cost of exactly that distance: walking while
 * the points allow it, else running (ZN-MOV-01, ZN-MOV-04); `undefined` beyond running range.
 */
export function movementBand(
  c: ZonesCombatant,
  metres: number,
  options: Pick<ZonesOptions, "moveTakesAction" | "speedRecovery">,
): MovementBand | undefined {
  const speed = options.speedRecovery === "round" ? c.speed.max : c.speed.value;
  for (const band of movement(c, options)) {
    if (metres <= band.maxMetres + 1e-9) {
      const rate = MOVE_RATES[band.id as "walk" | "run"];
      return { ...band, cost: priceMetres(Math.ceil(rate * metres - 1e-9), speed, options) };
    }
  }
  return undefined;
}

/** A reaction declared in advance: a conditional action (ZN-REA-01). */
export interface DeclaredReaction {
  id: string;
  /** Who declared it. */
  actor: string;
  /** What triggers it (free text or an i18n key). */
  trigger: string;
  /** What is done when it triggers (`attack`, `draw`, `dodge` ...). */
  action: string;
  /** Round it was declared in. */
  round: number;
  rule: "ZN-REA-01";
}

/**
 * Declares a reaction (ZN-REA-01): spends the reaction at once; the reaction waits for its
 * trigger until the declarer's next turn.
 * @throws FrayError `FRAY.Error.Economy` (slot `reaction`) when none is left.
 */
export function declareReaction(
  economyNow: Economy,
  actor: string,
  trigger: string,
  action: string,
  round: number,
): { reaction: DeclaredReaction; economy: Economy } {
  const next = spend(economyNow, { slots: { reaction: 1 } });
  return { reaction: { id: `${actor}-${round}-${action}`, actor, trigger, action, round, rule: "ZN-REA-01" }, economy: next };
}

/**
 * The declared reactions at the start of `actor`'s turn (ZN-REA-01): that actor's own reactions
 * end unused (lost), everyone else's stay.
 */
export function expireReactions(
  pending: readonly DeclaredReaction[],
  actor: string,
): { kept: DeclaredReaction[]; lost: DeclaredReaction[] } {
  return { kept: pending.filter((r) => r.actor !== actor), lost: pending.filter((r) => r.actor === actor) };
}

/**
 * Fires a pending reaction whose trigger happened (ZN-REA-01): it is taken from the list and
 * acted on during the action that triggered it.
 * @throws FrayError `FRAY.Error.Zones.NoReaction` (field `reaction`) when it is no longer pending.
 */
export function triggerReaction(
  pending: readonly DeclaredReaction[],
  id: string,
): { reaction: DeclaredReaction; pending: DeclaredReaction[] } {
  const reaction = pending.find((r) => r.id === id);
  if (!reaction) throw new FrayError("FRAY.Error.Zones.NoReaction", { field: "reaction", reaction: id }, `No pending reaction "${id}"`);
  return { reaction, pending: pending.filter((r) => r.id !== id) };
}
