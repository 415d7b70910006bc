/**
 * The quiet attack step: the same attack as the core's detailed step (`attackStep` in
 * ./step.ts: plan, resolve with the declared reaction and the hit location, damage rolled and
 * applied), for work that reads only its outcome (a forecast playing thousands of fights).
 * It draws the same faces in the same order from a face source as the detailed step draws from a
 * roller built on that source, and gives the same outcome: hit or miss, the reaction, the
 * location, the damage and the target's vitals after. What it leaves out is everything only a
 * card, an undo or a log reads: the itemized plan and modifiers, the faces of each roll, the
 * damage steps, the odds. Formulas are compiled once per weapon, no roll outcome is built and
 * the dice are drawn synchronously, one call of the source per die.
 */
import type { FaceSource } from "./dice/formula.js";
import type { ActionCost, Economy } from "./economy.js";
import type { RoundState } from "./contract.js";
import type { RulesetOptions } from "./ruleset.js";
import type { ForcedCheck } from "./types.js";

/**
 * An attack played by a {@link QuietRuleset}: its outcome, without the details. A ruleset builds
 * it as one literal with every field below in place, in this order ({@link QUIET_ATTACK_FIELDS};
 * `undefined` where it has none), then its own fields: every quiet attack of a ruleset then has
 * one shape, and the round engine's and the drivers' reads of it stay monomorphic (an object
 * given its optional fields one by one takes a new shape for each combination, and a read that
 * meets more than four shapes is several times slower).
 */
export interface QuietAttack<C> {
  /** The weapon used (its id) and the firing mode, as the detailed plan names them. */
  weaponId: string;
  modeId?: string;
  /** The attack check met the difficulty. */
  hit: boolean;
  /** The declared reaction was rolled; its cost, when the defender pays one. */
  reacted: boolean;
  reactionCost?: ActionCost;
  /** The reaction worked (stopped the attack, halved the damage). */
  reactionSuccess?: boolean;
  /** Hit after any reaction: damage was rolled. */
  lands: boolean;
  /** The hit location id, when one was rolled or chosen. */
  location?: string;
  /** The damage rolled (the packet's amount); 0 when the attack does not land. */
  damage: number;
  /** The target after the damage; undefined when no damage was applied. */
  target?: C;
  /** Forced checks the damage calls for, in order (HB-DMG-04, CR-HIT-02). */
  forced?: ForcedCheck[];
}

/** The fields of a {@link QuietAttack} in the order every ruleset builds them in. */
export const QUIET_ATTACK_FIELDS: readonly (keyof QuietAttack<unknown>)[] = Object.freeze([
  "weaponId",
  "modeId",
  "hit",
  "reacted",
  "reactionCost",
  "reactionSuccess",
  "lands",
  "location",
  "damage",
  "target",
  "forced",
]);

/**
 * A ruleset that can play its attacks quietly: a sibling of `Ruleset<C, I>` for hosts that read
 * only outcomes (the forecast). Every method gives exactly what the detailed methods give for
 * the same input and the same faces in the same order (a property test per ruleset checks it).
 */
export interface QuietRuleset<C, I> {
  /**
   * Plays one attack quietly: planned, resolved with the declared reaction and the hit location,
   * damage rolled and applied to the input's target, drawing faces from `faces` in the order the
   * detailed step rolls its dice.
   * @param defenderEconomy the defender's round economy, which says whether a declared reaction is still possible.
   * @param base the combatant the damage applies to when it is not the input's target: within a
   *   simultaneous step (HB-ACT-01) the target with the damage the step already holds for it.
   *   Only rulesets that resolve in such steps read it.
   * @throws FrayError the errors the detailed `planAttack` throws for the same input.
   */
  quietAttack(input: I, faces: FaceSource, options: RulesetOptions, defenderEconomy?: Economy, base?: C): QuietAttack<C>;
  /**
   * What the ruleset's `afterAction` does after this attack, for the attacker or (when the host
   * settles the target) the target: the same combatant and economy as `afterAction` with the
   * detailed result of the same attack, without its lifecycle events.
   */
  quietAfterAttack(c: C, attack: QuietAttack<C>, economy: Economy, options: RulesetOptions): RoundState<C>;
  /**
   * A forced check the damage called for (HB-DMG-04, CR-HIT-02), rolled quietly: the combatant
   * after it, with the faces drawn from `faces` in the order the ruleset's `forcedCheck` rolls
   * them; no check or report is built. Its vital state is that of `withVitals(c,
   * result.report.after)` of `forcedCheck` with the same faces; so is the whole combatant, but
   * where `withVitals` lays out again what the vital state does not show (Hitbox: which worn piece
   * took the armor damage, in wear order) and `c` was not laid out so. Only rulesets with forced
   * checks have it.
   * @throws FrayError as `forcedCheck` does for a check it does not know or that no longer applies.
   */
  quietForcedCheck?(c: C, forced: ForcedCheck, faces: FaceSource, options: RulesetOptions): C;
}

/** True when `ruleset` can play its attacks quietly. */
export function isQuiet<C, I>(ruleset: object): ruleset is QuietRuleset<C, I> {
  const r = ruleset as Partial<QuietRuleset<C, I>>;
  return typeof r.quietAttack === "function" && typeof r.quietAfterAttack === "function";
}

/** A roller whose faces come from a source a quiet step can draw from directly. */
export interface FaceSourceRoller {
  /** The roller's face source: drawing from it is drawing the roller's next faces. */
  readonly faces: FaceSource;
}

/** True when `dice` lends its face source (seeded and scripted rollers). */
export function hasFaceSource(dice: object): dice is FaceSourceRoller {
  return typeof (dice as Partial<FaceSourceRoller>).faces === "function";
}
