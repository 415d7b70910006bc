import type { ActionCost, EconomySpec } from "../core/economy.js";
import { FrayError } from "../core/errors.js";
import type { MovementBand } from "../core/ruleset.js";
import type { Ud10Combatant } from "./model.js";
import type { Ud10Options } from "./options.js";

/** One grid square, in metres (UD-RND-02). */
export const SQUARE_METRES = 1.5;

/**
 * The round's economy: one movement, one action, one reaction, free actions within reason
 * (UD-ACT-01, UD-REA-01).
 */
export function economy(): EconomySpec {
  return {
    slots: [
      { id: "movement", label: "FRAY.Slot.movement", max: 1, rule: "UD-ACT-01" },
      { id: "action", label: "FRAY.Slot.action", max: 1, rule: "UD-ACT-01" },
      { id: "reaction", label: "FRAY.Slot.reaction", max: 1, rule: "UD-REA-01" },
      { id: "free", label: "FRAY.Slot.free", max: null, rule: "UD-ACT-01" },
    ],
    pools: [],
  };
}

/** Standard movement distance in metres: 5 + STR, never below one step (UD-MOV-02). */
export function standardMovement(c: Ud10Combatant): number {
  return Math.max(SQUARE_METRES, 5 + c.attributes.STR);
}

/**
 * Movement bands, nearest first (UD-MOV-01 to UD-MOV-03): one step is instantaneous and free;
 * standard movement (5 m + STR) uses the movement; full movement (twice that) uses the movement
 * and the action.
 */
export function movement(c: Ud10Combatant): MovementBand[] {
  const std = standardMovement(c);
  return [
    { id: "step", label: "FRAY.Move.step", rule: "UD-MOV-01", maxMetres: SQUARE_METRES, cost: {} },
    { id: "standard", label: "FRAY.Move.standard", rule: "UD-MOV-02", maxMetres: std, cost: { slots: { movement: 1 } } },
    { id: "full", label: "FRAY.Move.full", rule: "UD-MOV-03", maxMetres: 2 * std, cost: { slots: { movement: 1, action: 1 } } },
  ];
}

/** The band a move of `metres` falls in, or undefined beyond full movement. */
export function movementBand(c: Ud10Combatant, metres: number): MovementBand | undefined {
  return movement(c).find((b) => metres <= b.maxMetres + 1e-9);
}

/** UD10 actions and what they cost (UD-ACT-02). */
export const ACTIONS: readonly { id: string; label: string; rule: "UD-ACT-02"; cost: ActionCost }[] = [
  { id: "attack", label: "FRAY.Action.attack", rule: "UD-ACT-02", cost: { slots: { action: 1 } } },
  { id: "ready", label: "FRAY.Action.ready", rule: "UD-ACT-02", cost: { slots: { action: 1 } } },
  { id: "reload", label: "FRAY.Action.reload", rule: "UD-ACT-02", cost: { slots: { action: 1 } } },
  { id: "useItem", label: "FRAY.Action.useItem", rule: "UD-ACT-02", cost: { slots: { action: 1 } } },
  { id: "skill", label: "FRAY.Action.skill", rule: "UD-ACT-02", cost: { slots: { action: 1 } } },
];

/**
 * Whether a skill check rolled on its own in combat is the round's skill action (UD-ACT-02).
 * Initiative is rolled for the acting order (UD-INI-01), and Parry and Dodge are reactions made
 * against an attack (UD-REA-01, UD-REA-04): rolled on their own they spend nothing.
 */
export function skillRollIsAction(skill: string): boolean {
  return !["initiative", "parry", "dodge"].includes(skill);
}

/** The result of moving away from engaged melee opponents (UD-OPT-01, UD-OPT-02). */
export interface Disengagement {
  mode: "flee" | "retreat";
  /** Opponents who get an immediate free attack (fleeing). */
  freeAttacks: string[];
  /** What the move costs the mover this round. */
  cost: ActionCost;
  rule: "UD-OPT-01" | "UD-OPT-02";
}

/**
 * Moving away from engaged melee opponents. Fleeing gives each engaged opponent an immediate
 * free attack and costs the movement (UD-OPT-01); retreating gives no free attacks but costs the
 * whole round: movement, action and reaction (UD-OPT-02).
 * @throws FrayError `FRAY.Error.OptionOff` when the chosen optional rule is off.
 */
export function disengage(
  engaged: Ud10Combatant[],
  mode: "flee" | "retreat",
  options: Pick<Ud10Options, "fleeing" | "retreat">,
): Disengagement {
  if (mode === "flee") {
    if (!options.fleeing) throw new FrayError("FRAY.Error.OptionOff", { option: "FRAY.Option.fleeing.label" }, "The fleeing rule is off");
    return { mode, rule: "UD-OPT-01", cost: { slots: { movement: 1 } }, freeAttacks: engaged.map((c) => c.id) };
  }
  if (!options.retreat) throw new FrayError("FRAY.Error.OptionOff", { option: "FRAY.Option.retreat.label" }, "The retreat rule is off");
  return { mode, rule: "UD-OPT-02", cost: { slots: { movement: 1, action: 1, reaction: 1 } }, freeAttacks: [] };
}

/**
 * What the round's movement costs once `metres` have been moved this round: the cost of the band
 * reached, full movement's past it (UD-MOV-01 to UD-MOV-03).
 */
export function movementCost(c: Ud10Combatant, metres: number): ActionCost {
  const bands = movement(c);
  return (movementBand(c, metres) ?? bands[bands.length - 1]!).cost;
}

/** Slot by slot, the larger of two costs. */
function largerSlots(a: ActionCost, b: ActionCost): Record<string, number> {
  const out: Record<string, number> = { ...(a.slots ?? {}) };
  for (const [id, n] of Object.entries(b.slots ?? {})) out[id] = Math.max(out[id] ?? 0, n);
  return out;
}

/**
 * What moving on from `fromMetres` already travelled this round to `toMetres` adds to the
 * round's economy: the cost of the band reached minus what the round's movement already paid
 * (moving 3 m, then 4 m more with standard movement 7 m pays the movement once; going past 7 m
 * later adds the action, UD-MOV-03).
 * @param more.paid what the round's movement already paid; the cost of the band of `fromMetres`
 *   when absent.
 * @param more.also a cost the same move carries besides its distance: a disengagement's
 *   ({@link disengage}), so a 1.5 m step away from an engaged opponent pays the movement when
 *   fleeing (UD-OPT-01) and the whole round when retreating (UD-OPT-02).
 */
export function movementCharge(
  c: Ud10Combatant,
  fromMetres: number,
  toMetres: number,
  more: { paid?: ActionCost; also?: ActionCost } = {},
): ActionCost {
  const paid = largerSlots(more.paid ?? movementCost(c, fromMetres), {});
  const due = largerSlots(movementCost(c, toMetres), more.also ?? {});
  const slots: Record<string, number> = {};
  for (const [id, n] of Object.entries(due)) {
    const extra = n - (paid[id] ?? 0);
    if (extra > 0) slots[id] = extra;
  }
  return Object.keys(slots).length ? { slots } : {};
}

/** What the round's movement has paid once a charge is paid: the earlier payment plus the charge. */
export function movementPaid(paid: ActionCost, charge: ActionCost): ActionCost {
  const slots: Record<string, number> = { ...(paid.slots ?? {}) };
  for (const [id, n] of Object.entries(charge.slots ?? {})) slots[id] = (slots[id] ?? 0) + n;
  return Object.keys(slots).length ? { slots } : {};
}
