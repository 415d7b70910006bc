/**
 * The chance that a Hitbox attack drops its target (`../core/drop.ts`): out means in shock, dead
 * or unconscious, or the head or torso hitbox full (`isOut`, RULES.md).
 */
import { afterForced, byKey, DropTally, landsChance, totalOutcome, type DropOdds } from "../core/drop.js";
import type { AttackPlan } from "../core/ruleset.js";
import type { RuleId } from "../core/types.js";
import { odds } from "./attack.js";
import { applyDamage, applyVitals, damageRoll, isOut, vitals } from "./damage.js";
import type { HitboxAttackInput } from "./input.js";
import { LOCATION_PMF, locationFor } from "./location.js";
import type { HitboxOptions } from "./options.js";
import { forcedCheckSync } from "./play.js";

/** The rules {@link dropOdds} follows. */
const RULES: RuleId[] = [
  "HB-ATK-02",
  "HB-ATK-03",
  "HB-ATK-04",
  "HB-ATK-05",
  "HB-LOC-01",
  "HB-LOC-02",
  "HB-DMG-01",
  "HB-DMG-02",
  "HB-DMG-04",
];

/**
 * Exact chance that a planned Hitbox attack leaves its target out, and the hitbox points it is
 * expected to cost (HB-ATK-02 to HB-ATK-05, HB-LOC-01, HB-LOC-02, HB-DMG-01, HB-DMG-02,
 * HB-DMG-04): the attack lands with the chance of {@link odds} (against the declared dodge or
 * parry), strikes each hitbox with its chance on the regular or called-shot table, deals its
 * damage through `applyDamage` (armor, spill into the torso, death and shock), and every
 * Blackout test the hit forces is played for each of its 36 ways through the ruleset's own
 * check. Nothing is cut: every roll here has finitely many outcomes.
 * @throws FrayError as {@link odds}, `weaponOf` and `calledLocation`.
 */
export function dropOdds(plan: AttackPlan, input: HitboxAttackInput, options: HitboxOptions): DropOdds {
  const lands = landsChance(odds(plan, input, options));
  const target = input.target;
  const before = vitals(target);
  const tally = DropTally.withMiss(before, lands, isOut(before), RULES);
  if (lands === 0) return tally.result();
  // The damage is a sum of constants: its one total, with nothing to parse on a first call.
  const { formula, total: amount, steps } = damageRoll(input);
  const locations = byKey(LOCATION_PMF, (total) => locationFor(input.calledShot, total));
  for (const [location, pl] of locations) {
    // The packet as `rollDamage` builds it.
    const report = applyDamage(target, { roll: totalOutcome(formula, amount), amount, location, steps }, options);
    const hit = applyVitals(target, report.after);
    for (const s of afterForced(hit, report.forced, forcedCheckSync, applyVitals)) {
      const state = vitals(s.value);
      tally.add(lands * pl * s.p, state, isOut(state));
    }
  }
  return tally.result();
}
