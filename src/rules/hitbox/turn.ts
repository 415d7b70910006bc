import type { DiceRoller } from "../core/dice/port.js";
import type { EconomySpec } from "../core/economy.js";
import { FrayError } from "../core/errors.js";
import type { InitiativeRoll, MovementBand } from "../core/ruleset.js";
import { sumModifiers, type CheckResult, type DamageReport, type Modifier, type RuleId } from "../core/types.js";
import { isDisabled } from "./attack.js";
import { feetToMetres, restate, type HitboxCombatant, type HitboxId } from "./model.js";

/** A turn lasts 5 seconds of game time (HB-RND-01). */
export const TURN_SECONDS = 5;

/** Game time elapsed after `turns` whole turns, in seconds (HB-RND-01). */
export function elapsedSeconds(turns: number): number {
  return Math.max(0, turns) * TURN_SECONDS;
}

/** A duration measured in turns: the turns it covers, first and last included (HB-RND-02). */
export interface TurnWindow {
  /** First turn the effect applies to. */
  from: number;
  /** Last turn the effect applies to. */
  to: number;
}

/**
 * The turns an effect lasting `turns` turns covers when started on turn `startedOn` (HB-RND-02):
 * it begins on the turn after it was started. A one-turn stim used on turn 3 covers turn 4.
 * @throws FrayError `FRAY.Error.Field` (field `turns`) for a negative or fractional duration.
 */
export function durationWindow(startedOn: number, turns: number): TurnWindow {
  if (!Number.isInteger(turns) || turns < 0)
    throw new FrayError(
      "FRAY.Error.Field",
      { field: "turns", expected: "a whole number of turns, 0 or more" },
      `Field "turns": expected 0 or more`,
    );
  return { from: startedOn + 1, to: startedOn + turns };
}

/** True when a duration covers `turn` (HB-RND-02). */
export function activeOn(window: TurnWindow, turn: number): boolean {
  return turn >= window.from && turn <= window.to;
}

/**
 * The turn's economy (HB-RND-01, HB-ACT-03, HB-ATK-03): one action, one reaction (a dodge or parry
 * rolled once and standing against every attack of the turn), quick actions within reason.
 */
export function economy(): EconomySpec {
  return {
    slots: [
      { id: "action", label: "FRAY.Slot.action", max: 1, rule: "HB-RND-01" },
      { id: "reaction", label: "FRAY.Slot.reaction", max: 1, rule: "HB-ATK-03" },
      { id: "quick", label: "FRAY.Slot.quick", max: null, rule: "HB-ACT-03" },
    ],
    pools: [],
  };
}

/** Movement of one turn in feet (HB-ACT-02): walking 10 ft leaves the action, walking 20 ft or running 40 ft takes it. */
export const MOVES: readonly { id: "step" | "walk" | "run"; feet: number }[] = [
  { id: "step", feet: 10 },
  { id: "walk", feet: 20 },
  { id: "run", feet: 40 },
];

/**
 * Movement bands of a turn, nearest first (HB-ACT-02). Distances are given in feet by the seed;
 * `maxMetres` holds the exact conversion (10 ft = 3.048 m) for the shared interface. A combatant
 * with a full leg cannot walk or run (RULES.md).
 */
export function movement(c: HitboxCombatant): MovementBand[] {
  if (isDisabled(c, "leftLeg") || isDisabled(c, "rightLeg")) return [];
  return MOVES.map((m) => ({
    id: m.id,
    label: `FRAY.Hitbox.Move.${m.id}`,
    rule: "HB-ACT-02" as RuleId,
    maxMetres: feetToMetres(m.feet),
    cost: m.id === "step" ? {} : { slots: { action: 1 } },
  }));
}

/** The band a move of `feet` falls in, or undefined beyond a run (HB-ACT-02). */
export function movementBandFeet(c: HitboxCombatant, feet: number): MovementBand | undefined {
  return movement(c).find((b) => feetToMetres(feet) <= b.maxMetres + 1e-9);
}

/**
 * Hitbox rolls no initiative (HB-ACT-01): everyone acts in the same turn. This "roll" puts the
 * members together at 0 without rolling dice.
 */
export function simultaneousInitiative(members: HitboxCombatant[]): InitiativeRoll {
  const roll = { formula: "0", total: 0, dice: [], constant: 0 };
  return { members: members.map((m) => m.id), check: { roll, natural: 0, modifiers: [], total: 0 }, total: 0, tiebreak: [] };
}

/** Quick actions: simple things done in a second, even while another action goes on or is interrupted (HB-ACT-03). */
export const QUICK_ACTIONS = ["draw", "letGo", "communicate", "prone"] as const;
export type QuickActionId = (typeof QUICK_ACTIONS)[number];

/** One quick action: draw or let go of an item, say something, go prone. */
export interface QuickAction {
  id: QuickActionId;
  /** The item drawn or let go. */
  item?: string;
  /** What is said. */
  text?: string;
}

/** The action a combatant declares for a turn (HB-ACT-01, HB-ATK-01, HB-ACT-02). */
export type DeclaredAction =
  | { kind: "attack"; target: string; weapon: string; calledShot?: HitboxId; shots?: number; rangeFeet?: number }
  | { kind: "move"; feet: number; pace: "walk" | "run" }
  | { kind: "task"; text: string; feet?: number; pace?: "walk" | "run" }
  | { kind: "none" };

/** A declaration: the one action of the turn and the quick actions that go with it (HB-ACT-01, HB-ACT-03). */
export interface Declaration {
  actor: string;
  action: DeclaredAction;
  quick: QuickAction[];
  /** The GM rules this action pre-empts the others: lower numbers resolve earlier (HB-ACT-01). */
  first?: number;
}

/** A resolution step: actions resolved at the same time; effects of a step apply only after all of it. */
export interface ResolutionStep {
  actors: string[];
  /** True for the simultaneous rest, false for an action the GM put first. */
  simultaneous: boolean;
}

/**
 * Checks a turn's declarations (HB-RND-01, HB-ACT-01): they may come in any order; every
 * participant declares at most once; only participants declare; quick actions are known ones.
 * @throws FrayError `FRAY.Error.HitboxDeclaration` naming the actor, `FRAY.Error.Field` for an
 *   unknown quick action.
 */
export function checkDeclarations(declarations: readonly Declaration[], participants: readonly string[]): void {
  // Plain loops over the few declarations of a turn, without a set: a forecast checks every turn of every fight.
  for (let k = 0; k < declarations.length; k++) {
    const d = declarations[k]!;
    let known = false;
    for (let j = 0; j < participants.length && !known; j++) known = participants[j] === d.actor;
    if (!known) throw new FrayError("FRAY.Error.HitboxDeclaration", { actor: d.actor }, `"${d.actor}" is not in this fight`);
    for (let j = 0; j < k; j++)
      if (declarations[j]!.actor === d.actor)
        throw new FrayError("FRAY.Error.HitboxDeclaration", { actor: d.actor }, `"${d.actor}" declared twice this turn`);
    for (let i = 0; i < d.quick.length; i++) {
      const q = d.quick[i]!;
      if (!(QUICK_ACTIONS as readonly string[]).includes(q.id))
        throw new FrayError(
          "FRAY.Error.Field",
          { field: `${d.actor}.quick[${i}]`, expected: QUICK_ACTIONS.join(", ") },
          `Unknown quick action "${q.id}"`,
        );
    }
  }
}

/**
 * The order in which declared actions resolve (HB-ACT-01): every action the GM rules to pre-empt
 * the others resolves first, on its own, lowest `first` number first (declaration order on equal
 * numbers); all the others then resolve simultaneously in one step.
 */
export function resolutionSteps(declarations: readonly Declaration[]): ResolutionStep[] {
  // Most turns put nothing first: one simultaneous step of everyone, in declaration order.
  let first = false;
  for (let i = 0; i < declarations.length && !first; i++) first = declarations[i]!.first !== undefined;
  if (!first) {
    if (!declarations.length) return [];
    // Built by push, as the round's declarations are (see the Hitbox encounter driver): one kind of list.
    const actors: string[] = [];
    for (let i = 0; i < declarations.length; i++) actors.push(declarations[i]!.actor);
    return [{ actors, simultaneous: true }];
  }
  const firsts = declarations
    .map((d, i) => ({ d, i }))
    .filter(({ d }) => d.first !== undefined)
    .sort((a, b) => a.d.first! - b.d.first! || a.i - b.i)
    .map(({ d }) => ({ actors: [d.actor], simultaneous: false }));
  const rest = declarations.filter((d) => d.first === undefined).map((d) => d.actor);
  return rest.length ? [...firsts, { actors: rest, simultaneous: true }] : firsts;
}

/**
 * Whether damage interrupts its target's declared action (HB-ACT-03; RULES.md): it does when it
 * reached a hitbox or added a condition (prone, shock, dead). An action resolving in a later step
 * of the same turn than such damage does not happen; quick actions still do, unless the target is
 * out of the fight.
 */
export function interrupts(report: DamageReport): boolean {
  const before = report.before.hitboxes ?? {};
  const after = report.after.hitboxes ?? {};
  return report.added.length > 0 || Object.keys(after).some((h) => (after[h]?.value ?? 0) < (before[h]?.value ?? 0));
}

/**
 * Carries out a quick action (HB-ACT-03, HB-ACT-04): draw puts an item in hand, let go takes it
 * out, communicate changes nothing, going prone marks `goingProne` (the combatant may dodge every
 * attack this turn without cover and lies `prone` from the next turn, see {@link endTurn}).
 * @throws FrayError `FRAY.Error.CannotAct` when the combatant is out of the fight,
 *   `FRAY.Error.Field` (field `item`) when draw or let go names no item.
 */
export function quickAction(c: HitboxCombatant, q: QuickAction, out: boolean): HitboxCombatant {
  if (out) throw new FrayError("FRAY.Error.CannotAct", { actor: c.name }, `${c.name} cannot act`);
  switch (q.id) {
    case "draw": {
      if (!q.item) throw new FrayError("FRAY.Error.Field", { field: "item", expected: "the item to draw" }, "Draw what?");
      const id = c.weapons.find((w) => w.id === q.item || w.name === q.item)?.id ?? q.item;
      return c.held.includes(id) ? c : restate(c, c.hitboxes, c.armor, c.conditions, c.shockTurnsLeft, [...c.held, id]);
    }
    case "letGo": {
      if (!q.item) throw new FrayError("FRAY.Error.Field", { field: "item", expected: "the item to let go" }, "Let go of what?");
      const id = c.weapons.find((w) => w.id === q.item || w.name === q.item)?.id ?? q.item;
      return restate(
        c,
        c.hitboxes,
        c.armor,
        c.conditions,
        c.shockTurnsLeft,
        c.held.filter((h) => h !== id),
      );
    }
    case "prone":
      return c.conditions.includes("goingProne") || c.conditions.includes("prone")
        ? c
        : restate(c, c.hitboxes, c.armor, [...c.conditions, "goingProne"], c.shockTurnsLeft);
    default:
      return c;
  }
}

/**
 * End of a turn (HB-ACT-04): whoever went prone or dropped to dodge this turn lies `prone` from
 * the next turn on.
 */
export function endTurn(c: HitboxCombatant, droppedToDodge: boolean): HitboxCombatant {
  const going = droppedToDodge || c.conditions.includes("goingProne");
  const conditions = c.conditions.filter((s) => s !== "goingProne");
  if (going && !conditions.includes("prone")) conditions.push("prone");
  return restate(c, c.hitboxes, c.armor, conditions, c.shockTurnsLeft);
}

/** One side of an opposed test: who, and the bonus lines of the skill used. */
export interface OpposedSide {
  id: string;
  modifiers: Modifier[];
}

/** The outcome of an opposed test: each round of rolls, and the winner. */
export interface OpposedResult {
  rule: "HB-ACT-05";
  rounds: { a: CheckResult; b: CheckResult }[];
  winner: string;
}

/**
 * An opposed skill test for two mutually exclusive actions (HB-ACT-05): each side rolls 2d6 +
 * its bonus, the higher total wins; on a tie both roll again (RULES.md).
 * @throws FrayError `FRAY.Error.DiceScriptEmpty` only when a scripted roller runs dry.
 */
export async function opposedTest(a: OpposedSide, b: OpposedSide, dice: DiceRoller): Promise<OpposedResult> {
  const rounds: OpposedResult["rounds"] = [];
  for (;;) {
    const ra = await dice.roll("2d6", "FRAY.Roll.Opposed");
    const rb = await dice.roll("2d6", "FRAY.Roll.Opposed");
    const ca: CheckResult = { roll: ra, natural: ra.total, modifiers: a.modifiers, total: ra.total + sumModifiers(a.modifiers) };
    const cb: CheckResult = { roll: rb, natural: rb.total, modifiers: b.modifiers, total: rb.total + sumModifiers(b.modifiers) };
    rounds.push({ a: ca, b: cb });
    if (ca.total !== cb.total) return { rule: "HB-ACT-05", rounds, winner: ca.total > cb.total ? a.id : b.id };
  }
}
