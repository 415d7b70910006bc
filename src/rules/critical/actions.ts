import type { ActionCost, Economy, EconomySpec } from "../core/economy.js";
import type { Track } from "../core/types.js";
import type { MovementBand } from "../core/ruleset.js";
import type { RuleId } from "../core/types.js";
import { isIncapacitated, stoppedBy, type CriticalCombatant } from "./model.js";

/** Action points per round (CR-AP-01). */
export const AP_PER_ROUND = 4;

/** An action and its AP cost (CR-AP-01; the costs are decided in RULES.md). */
export interface CriticalAction {
  id: string;
  /** i18n key, `FRAY.Action.*`. */
  label: string;
  rule: RuleId;
  /** AP it costs. */
  ap: number;
}

/**
 * What each action costs in AP (CR-AP-01, RULES.md): an attack 2, a maneuver 2, each Base Move
 * beyond the free one 1 (CR-MOV-02), readying a weapon 1, reloading 2, staunching 1, a bandage
 * 2, a tourniquet 2, a medical kit 4, smothering flames 2, dropping and rolling 2, first aid to
 * save a dying ally 4. Declaring a parry and delaying cost nothing.
 */
export const ACTIONS: readonly CriticalAction[] = [
  { id: "attack", label: "FRAY.Action.attack", rule: "CR-AP-01", ap: 2 },
  { id: "maneuver", label: "FRAY.Action.maneuver", rule: "CR-MAN-01", ap: 2 },
  { id: "move", label: "FRAY.Action.move", rule: "CR-MOV-02", ap: 1 },
  { id: "ready", label: "FRAY.Action.ready", rule: "CR-AP-01", ap: 1 },
  { id: "reload", label: "FRAY.Action.reload", rule: "CR-AP-01", ap: 2 },
  { id: "staunch", label: "FRAY.Action.staunch", rule: "CR-BLD-02", ap: 1 },
  { id: "bandage", label: "FRAY.Action.bandage", rule: "CR-BLD-02", ap: 2 },
  { id: "tourniquet", label: "FRAY.Action.tourniquet", rule: "CR-BLD-02", ap: 2 },
  { id: "medkit", label: "FRAY.Action.medkit", rule: "CR-BLD-02", ap: 4 },
  { id: "smother", label: "FRAY.Action.smother", rule: "CR-BLD-02", ap: 2 },
  { id: "dropAndRoll", label: "FRAY.Action.dropAndRoll", rule: "CR-BLD-02", ap: 2 },
  { id: "firstAid", label: "FRAY.Action.firstAid", rule: "CR-DTH-01", ap: 4 },
  { id: "parry", label: "FRAY.Action.parry", rule: "CR-PAR-01", ap: 0 },
  { id: "delay", label: "FRAY.Action.delay", rule: "CR-INI-03", ap: 0 },
];

/** The AP cost of an action by id, as an economy cost. */
export function actionCost(id: string): ActionCost {
  const a = ACTIONS.find((x) => x.id === id);
  return { pools: { ap: a ? a.ap : 0 } };
}

/**
 * AP a combatant has this round (CR-AP-01, CR-STN-01): 4, half that while stunned, none while
 * out of the fight (unconscious, blacked out, down, dead).
 */
export function apFor(c: CriticalCombatant): number {
  if (isIncapacitated(c)) return 0;
  return c.stun > 0 ? Math.floor(AP_PER_ROUND / 2) : AP_PER_ROUND;
}

/** The round's economy: one pool of AP, no slots (CR-AP-01, CR-STN-01). */
export function economy(c: CriticalCombatant): EconomySpec {
  return { slots: [], pools: [{ id: "ap", label: "FRAY.Pool.ap", max: apFor(c), rule: c.stun > 0 ? "CR-STN-01" : "CR-AP-01" }] };
}

/**
 * `economy` with its AP pool set to `ap`: the slots shared (economies are values, never changed in
 * place), the pools built as the literal `{ ap }` when AP is their only pool (or there is none),
 * as in every economy this ruleset builds (one shape for all of them), else copied with the pool
 * replaced (CR-AP-01).
 */
export function withAp(economy: Economy, ap: Track): Economy {
  const pools = economy.pools;
  for (const id in pools) if (id !== "ap") return { slots: economy.slots, pools: { ...pools, ap } };
  return { slots: economy.slots, pools: { ap } };
}

/**
 * The economy after something happened mid-round (a stun, a knock-out): the round's AP shrink to
 * what the combatant now has, less what it already spent (CR-STN-01, CR-AP-02). Never grows.
 */
export function recomputeEconomy(current: Economy, c: CriticalCombatant): Economy {
  const pool = current.pools.ap ?? { value: 0, max: 0 };
  const max = Math.min(pool.max, apFor(c));
  const used = pool.max - pool.value;
  return withAp(current, { value: Math.max(0, Math.min(pool.value, max - used)), max });
}

/**
 * The round's AP once the round's upkeep has changed the combatant (CR-AP-01, CR-STN-01,
 * CR-STN-02; RULES.md "Start of a round": run after the upkeep): the pool follows the state the
 * upkeep left (4, 2 while still stunned, none out of the fight), less what was already spent this
 * round. Unlike {@link recomputeEconomy} it may grow: a stun that ran out in the upkeep gives the
 * full round back.
 */
export function afterUpkeepEconomy(current: Economy, c: CriticalCombatant): Economy {
  const pool = current.pools.ap ?? { value: 0, max: 0 };
  const max = apFor(c);
  const used = Math.max(0, pool.max - pool.value);
  return withAp(current, { value: Math.max(0, max - used), max });
}

/**
 * Movement bands, nearest first (CR-MOV-01, CR-MOV-02): the Base Move is free; each further BM
 * costs 1 AP, up to the AP of the round. None when an injury stops moving or the combatant is
 * out of the fight.
 */
export function movement(c: CriticalCombatant): MovementBand[] {
  if (isIncapacitated(c) || stoppedBy(c, "move") || c.conditions.includes("constrained")) return [];
  const bm = Math.max(0, c.baseMove);
  const bands: MovementBand[] = [{ id: "base", label: "FRAY.Move.base", rule: "CR-MOV-01", maxMetres: bm, cost: {} }];
  for (let k = 1; k <= apFor(c); k++) {
    bands.push({ id: `extra${k}`, label: "FRAY.Move.extra", rule: "CR-MOV-02", maxMetres: (k + 1) * bm, cost: { pools: { ap: k } } });
  }
  return bands;
}

/** The band a move of `metres` falls in, or undefined beyond every band. */
export function movementBand(c: CriticalCombatant, metres: number): MovementBand | undefined {
  return movement(c).find((b) => metres <= b.maxMetres + 1e-9);
}

/** Whether a move can be made, and what it costs. */
export interface MoveCheck {
  allowed: boolean;
  band?: MovementBand;
  /** i18n key of why not. */
  reason?: string;
  rule: RuleId;
}

/**
 * Checks a move (CR-MOV-01, CR-MOV-02): a move past or away from a foe that opposes it fails
 * (the opposition is assumed); otherwise the band gives its AP cost.
 */
export function checkMove(c: CriticalCombatant, metres: number, opts: { opposed?: boolean } = {}): MoveCheck {
  if (opts.opposed) return { allowed: false, reason: "FRAY.Reason.Opposed", rule: "CR-MOV-01" };
  const injury = stoppedBy(c, "move");
  if (injury) return { allowed: false, reason: "FRAY.Reason.Injured", rule: "CR-CRT-02" };
  const band = movementBand(c, metres);
  if (!band) return { allowed: false, reason: "FRAY.Reason.TooFar", rule: "CR-MOV-02" };
  return { allowed: true, band, rule: band.rule };
}
