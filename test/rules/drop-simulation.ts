/**
 * The simulation that holds each ruleset's exact chance to drop the target to the rules: many
 * attacks played through the ruleset's real attack step (`attackStep`) with a seeded roller,
 * each followed by the checks its damage forces (`forcedCheck`), tallied as `DropOdds` are.
 */
import { expect } from "vitest";
import type { AttackRequest } from "../../src/rules/core/contract.js";
import type { Economy } from "../../src/rules/core/economy.js";
import { SeededRoller } from "../../src/rules/core/dice/port.js";
import type { DropOdds, DropTrack } from "../../src/rules/core/drop.js";
import type { Ruleset, RulesetOptions } from "../../src/rules/core/ruleset.js";
import { attackStep } from "../../src/rules/core/step.js";
import type { VitalState } from "../../src/rules/core/types.js";

/** Tallies of a simulation: counts and sums (of squares too) per track. */
export interface Simulated {
  n: number;
  lands: number;
  out: number;
  loss: Partial<Record<DropTrack, { sum: number; squares: number }>>;
}

function lossOf(before: VitalState, after: VitalState): Partial<Record<DropTrack, number>> {
  const out: Partial<Record<DropTrack, number>> = {};
  if (before.hp) out.hp = before.hp.value - after.hp!.value;
  if (before.ep) out.ep = before.ep.value - after.ep!.value;
  if (before.hitboxes) {
    let lost = 0;
    for (const [id, t] of Object.entries(before.hitboxes)) lost += t.value - after.hitboxes![id]!.value;
    out.hitboxes = lost;
  }
  return out;
}

/**
 * Plays `n` attacks of `request` on a fresh copy of `target` each, with dice seeded by `seed`;
 * `defenderEconomy` says whether a declared reaction is still possible, as in `attackStep`.
 */
export async function simulate<C, I>(
  ruleset: Ruleset<C, I>,
  request: AttackRequest,
  attacker: C,
  target: C,
  options: RulesetOptions,
  n: number,
  seed: number,
  defenderEconomy?: Economy,
): Promise<Simulated> {
  const dice = new SeededRoller(seed);
  const before = ruleset.vitals(target);
  const sim: Simulated = { n, lands: 0, out: 0, loss: {} };
  for (const k of Object.keys(lossOf(before, before)) as DropTrack[]) sim.loss[k] = { sum: 0, squares: 0 };
  for (let i = 0; i < n; i++) {
    const step = await attackStep(ruleset, request, attacker, target, dice, options, defenderEconomy, true);
    let after = step.target ?? target;
    if (step.result.lands) sim.lands++;
    for (const forced of step.report?.forced ?? []) {
      if (!ruleset.forcedCheck) break;
      const done = await ruleset.forcedCheck(after, forced, dice, options);
      after = ruleset.withVitals(after, done.report.after);
    }
    const state = ruleset.vitals(after);
    if (ruleset.isOut(state)) sim.out++;
    for (const [k, v] of Object.entries(lossOf(before, state)) as [DropTrack, number][]) {
      sim.loss[k]!.sum += v;
      sim.loss[k]!.squares += v * v;
    }
  }
  return sim;
}

/**
 * Expects the exact odds within 3 standard errors of the simulation: the chances as binomial
 * proportions, the expected losses against the sample mean with the sample's deviation.
 */
export function expectWithinThreeSigma(exact: DropOdds, sim: Simulated): void {
  const n = sim.n;
  const prop = (p: number, count: number, what: string) => {
    const sigma = Math.sqrt(Math.max(p * (1 - p), 1 / n) / n);
    expect(Math.abs(count / n - p), `${what}: exact ${p}, simulated ${count / n}`).toBeLessThanOrEqual(3 * sigma);
  };
  prop(exact.lands, sim.lands, "lands");
  prop(exact.out, sim.out, "out");
  expect(Object.keys(exact.expected).sort()).toEqual(Object.keys(sim.loss).sort());
  for (const [k, s] of Object.entries(sim.loss) as [DropTrack, { sum: number; squares: number }][]) {
    const m = s.sum / n;
    const variance = Math.max(s.squares / n - m * m, 1e-9);
    const sigma = Math.sqrt(variance / n);
    expect(Math.abs(m - exact.expected[k]!), `${k}: exact ${exact.expected[k]}, simulated ${m}`).toBeLessThanOrEqual(3 * sigma);
  }
}
