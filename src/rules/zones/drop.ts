/**
 * The chance that a Zones attack drops its target (`../core/drop.ts`): out means HP at 0 or
 * below, or unconscious, incapacitated or dead (`isOut`, RULES.md).
 */
import { convolve, distribution, type Pmf } from "../core/dice/distribution.js";
import { byKey, totalOutcome, type DropOdds } from "../core/drop.js";
import type { AttackPlan } from "../core/ruleset.js";
import { sumModifiers, type CheckResult, type RuleId, type VitalState } from "../core/types.js";
import { attackLands, bulletDifficulties, bulletsHit, firedBullets, reactionResult, weaponOf } from "./attack.js";
import { checkPmf } from "./checks.js";
import { applyDamage, bulletPacket, damageTypeOf, HIT_ZONE_DICE, isOut, vitals, zoneForRoll } from "./damage.js";
import type { ZonesAttackInput } from "./input.js";
import type { HitZoneId } from "./model.js";
import type { ZonesOptions } from "./options.js";

/** The rules {@link dropOdds} follows. */
const RULES: RuleId[] = [
  "ZN-RNG-08",
  "ZN-BST-01",
  "ZN-MEL-03",
  "ZN-MEL-04",
  "ZN-ZON-01",
  "ZN-ZON-02",
  "ZN-ZON-03",
  "ZN-DMG-01",
  "ZN-VIT-01",
  "ZN-VIT-02",
  "ZN-VIT-03",
  "ZN-VIT-04",
];

/** A check of total `total`, as a reaction is weighed against the attack. */
const checkOf = (total: number): CheckResult => ({ roll: totalOutcome("1d10", total), natural: total, modifiers: [], total });

/**
 * Exact chance that a planned Zones attack leaves its target out, and the HP it is expected to
 * cost (ZN-RNG-08, ZN-BST-01, ZN-MEL-03, ZN-MEL-04, ZN-ZON-01 to ZN-ZON-03, ZN-DMG-01, ZN-VIT-01
 * to ZN-VIT-04). For each total of the one d10 check: the bullets of the burst it hits with
 * (`bulletsHit`), and the declared dodge or block weighed against it (`reactionResult`,
 * `attackLands`). Each bullet that lands hits a zone of the 2d6 table (or the zone aimed at) and
 * rolls the weapon's damage; every zone and damage total goes through `applyDamage` (armor, vital
 * organs, multipliers), which takes each bullet's points off the hit points whatever is left, so
 * a burst's loss is the sum of its bullets' losses: their distribution is convolved once per
 * bullet. Losses that reach the target's HP are taken together (the target is out at HP 0 or
 * below whatever more it loses); the expected loss counts every point. Nothing is cut. A grenade
 * deals its damage through its blast, not to the target: `undefined`. A squib-loaded weapon fires
 * nothing.
 * @throws FrayError as `odds`, `firedBullets`, `damageTypeOf` and `distribution`.
 */
export function dropOdds(plan: AttackPlan, input: ZonesAttackInput, options: ZonesOptions): DropOdds | undefined {
  const weapon = weaponOf(input);
  const target = input.target;
  // A grenade deals its damage through its blast (ZN-GRN-01), on an area rather than this target.
  if (!target || weapon.kind === "grenade") return undefined;
  const before = vitals(target);
  const wasOut = isOut(before);
  const result = (lands: number, out: number, hp: number): DropOdds => ({
    lands,
    out: Math.min(1, out),
    expected: { hp },
    rules: [...RULES],
  });
  // As `resolveAttack`: a shot behind a squib load leaves nothing.
  if (weapon.kind === "firearm" && weapon.malfunction === "squibLoad") return result(0, wasOut ? 1 : 0, 0);

  // P(k bullets land, halved or not by a block), over the attack's and the reaction's totals.
  const attack = checkPmf(sumModifiers(plan.modifiers));
  const defense = plan.reaction ? checkPmf(sumModifiers(plan.reaction.modifiers)) : undefined;
  const diffs = bulletDifficulties(plan.difficulty.total, weapon.recoil, firedBullets(input, weapon).fired);
  const landing: Map<number, number>[] = [new Map(), new Map()];
  const put = (k: number, halve: boolean, p: number) => landing[halve ? 1 : 0]!.set(k, (landing[halve ? 1 : 0]!.get(k) ?? 0) + p);
  for (const [a, pa] of attack) {
    const k = bulletsHit(a, diffs);
    if (k === 0) continue;
    if (!defense || !plan.reaction) {
      if (attackLands(true, undefined, weapon)) put(k, false, pa);
      continue;
    }
    for (const [d, pd] of defense) {
      const reaction = reactionResult(plan.reaction, checkOf(d), a);
      if (attackLands(true, reaction, weapon)) put(k, reaction.success && reaction.effect === "halve", pa * pd);
    }
  }
  let lands = 0;
  for (const m of landing) for (const p of m.values()) lands += p;
  if (lands === 0) return result(0, wasOut ? 1 : 0, 0);

  // One bullet's loss of HP: each zone and damage total through `applyDamage`.
  const type = damageTypeOf(weapon, input.damageType);
  const exposed = Boolean(input.situation?.exposedVitals);
  const aimed = input.situation?.aimedZone;
  const zones: Map<HitZoneId, number> = aimed ? new Map([[aimed, 1]]) : byKey(distribution(HIT_ZONE_DICE), zoneForRoll);
  const damage = distribution(weapon.damage);
  const hp = before.hp!.value;
  // Losses of `cap` or more leave the target at HP 0 or below: taken together at `cap`.
  const cap = Math.max(0, hp);
  const stateAfter = (loss: number): VitalState => ({ hp: { value: hp - loss, max: before.hp!.max }, conditions: before.conditions });
  let out = wasOut ? 1 - lands : 0;
  let expected = 0;
  for (const [i, byCount] of landing.entries()) {
    if (byCount.size === 0) continue;
    const one: Pmf = new Map();
    let mean = 0;
    for (const [zone, pz] of zones) {
      for (const [amount, pd] of damage) {
        const packet = bulletPacket(totalOutcome(weapon.damage, amount), zone, type, i === 1, exposed);
        const loss = hp - applyDamage(target, packet, options).after.hp!.value;
        mean += pz * pd * loss;
        const at = Math.min(loss, cap);
        one.set(at, (one.get(at) ?? 0) + pz * pd);
      }
    }
    const most = Math.max(...byCount.keys());
    let sum: Pmf = one;
    for (let k = 1; k <= most; k++) {
      if (k > 1) sum = capped(convolve(sum, one), cap);
      const pk = byCount.get(k);
      if (!pk) continue;
      expected += pk * k * mean;
      for (const [loss, pl] of sum) if (isOut(stateAfter(loss))) out += pk * pl;
    }
  }
  return result(lands, out, expected);
}

/** `pmf` with every total of `cap` or more taken together at `cap`. */
function capped(pmf: Pmf, cap: number): Pmf {
  const out: Pmf = new Map();
  for (const [x, p] of pmf) {
    const at = Math.min(x, cap);
    out.set(at, (out.get(at) ?? 0) + p);
  }
  return out;
}
