/**
 * The chance that a UD10 attack drops its target (`../core/drop.ts`): out means EP at 0
 * (unconscious) or HP at 0 or less (incapacitated), or a condition that already says so
 * (`isOut`, RULES.md).
 */
import { distribution } from "../core/dice/distribution.js";
import { byKey, DropTally, landsChance, totalOutcome, type DropOdds } from "../core/drop.js";
import type { AttackPlan } from "../core/ruleset.js";
import type { RuleId } from "../core/types.js";
import { odds } from "./attack.js";
import { applyDamage, damagePacket, damageRollFormula, isOut, vitals } from "./damage.js";
import type { Ud10AttackInput } from "./input.js";
import type { Ud10Options } from "./options.js";
import type { Ud10Combatant, ZoneId } from "./model.js";
import { armorFor, ZONE_DICE, zoneForFace } from "./zones.js";

/** The rules {@link dropOdds} follows. */
const RULES: RuleId[] = [
  "UD-ATK-02",
  "UD-REA-03",
  "UD-ZON-01",
  "UD-ZON-02",
  "UD-DMG-01",
  "UD-DMG-02",
  "UD-DMG-03",
  "UD-DMG-04",
  "UD-DMG-05",
];

/**
 * Exact chance that a planned UD10 attack leaves its target out, and the HP and EP it is
 * expected to cost (UD-ATK-02, UD-REA-03, UD-ZON-01/02, UD-DMG-01 to UD-DMG-05): the attack lands
 * with the chance of {@link odds} (through the declared reaction), hits each body zone with its
 * chance on the body-zone table (with that option), and every total of the damage code is
 * applied by `applyDamage` to the target as it stands (zones of equal armor once). The damage code's exploding d10s are
 * followed until one more explosion has a chance of at most 1e-15 (`distribution`), so the cut
 * tail is below 1e-12 for codes up to 100 dice.
 * @throws FrayError as {@link odds}, `weaponAndMode` and `distribution`.
 */
export function dropOdds(plan: AttackPlan, input: Ud10AttackInput, options: Ud10Options): DropOdds {
  const lands = landsChance(odds(plan));
  const target = input.target;
  const before = vitals(target);
  const tally = DropTally.withMiss(before, lands, isOut(before), RULES);
  if (lands === 0) return tally.result();
  const formula = damageRollFormula(input);
  const damage = distribution(formula);
  const zones: Map<string | undefined, number> = options.bodyZones
    ? byArmor(target, byKey(distribution(ZONE_DICE), zoneForFace))
    : new Map([[undefined, 1]]);
  for (const [zone, pz] of zones) {
    for (const [amount, pd] of damage) {
      const report = applyDamage(target, damagePacket(totalOutcome(formula, amount), zone, input, options), options);
      tally.add(lands * pz * pd, report.after, isOut(report.after));
    }
  }
  return tally.result();
}

/**
 * The zones' chances with zones of the same armor (rating and buffer, `armorFor`) taken together
 * under the first of them: `applyDamage` reads the zone hit only through its armor, so they
 * leave the same state.
 */
function byArmor(target: Ud10Combatant, zones: Map<ZoneId, number>): Map<string, number> {
  const first = new Map<string, ZoneId>();
  const out = new Map<string, number>();
  for (const [zone, p] of zones) {
    const { rating, buffer } = armorFor(target, zone);
    const key = `${rating}/${buffer}`;
    const under = first.get(key) ?? zone;
    first.set(key, under);
    out.set(under, (out.get(under) ?? 0) + p);
  }
  return out;
}
