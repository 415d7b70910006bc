/**
 * UD10's exact chance to drop the target against 10^6 attacks played through the real attack
 * step (UD-ATK-02, UD-REA-03, UD-ZON-01, UD-ZON-02, UD-DMG-01 to UD-DMG-05): body zones and the
 * buffer on and off, a declared parry, exploding damage dice, a wounded target.
 */
import { describe, expect, it } from "vitest";
import type { AttackRequest } from "../../src/rules/core/contract.js";
import type { RulesetOptions } from "../../src/rules/core/ruleset.js";
import { planStep } from "../../src/rules/core/step.js";
import { ud10, type Ud10Combatant } from "../../src/rules/ud10/index.js";
import { fighter, target } from "./ud10-fixtures.js";
import { expectWithinThreeSigma, simulate } from "./drop-simulation.js";

const N = 1_000_000;

function exact(request: AttackRequest, attacker: Ud10Combatant, defender: Ud10Combatant, options: RulesetOptions) {
  const planned = planStep(ud10, request, attacker, defender, options);
  return ud10.dropOdds!(planned.plan, planned.input, options)!;
}

describe("UD10 chance to drop the target", () => {
  it("a rifle burst with body zones, buffer and penetration on a wounded target (UD-ZON-01, UD-DMG-03, UD-DMG-05)", async () => {
    const options = { ...ud10.defaults(), bodyZones: true, buffer: true, penetration: true };
    const a = fighter();
    const b = target({ hp: { value: 9, max: 20 }, ep: { value: 6, max: 15 } });
    const request: AttackRequest = { attackerId: "a", targetId: "b", weaponId: "rifle", modeId: "burst", distanceMetres: 30 };
    const odds = exact(request, a, b, options);
    expect(odds.out).toBeGreaterThan(0.05);
    expect(odds.out).toBeLessThan(odds.lands);
    expectWithinThreeSigma(odds, await simulate(ud10, request, a, b, options, N, 7));
  }, 120_000);

  it("a sword blow against a declared parry, averaged armor, no buffer (UD-REA-03, UD-ZON-02, UD-DMG-04)", async () => {
    const options = { ...ud10.defaults(), bodyZones: false, buffer: false };
    const a = fighter();
    const b = target({ hp: { value: 6, max: 20 } });
    const request: AttackRequest = { attackerId: "a", targetId: "b", weaponId: "sword", distanceMetres: 1, reaction: "parry" };
    const odds = exact(request, a, b, options);
    expect(odds.expected.ep).toBe(0);
    expectWithinThreeSigma(odds, await simulate(ud10, request, a, b, options, N, 11));
  }, 120_000);

  it("a target already out stays out whatever the roll (UD-DMG-04)", () => {
    const options = ud10.defaults();
    const odds = exact(
      { attackerId: "a", targetId: "b", weaponId: "sword", distanceMetres: 1 },
      fighter(),
      target({ hp: { value: 0, max: 20 } }),
      options,
    );
    expect(odds.out).toBeCloseTo(1, 12);
  });
});
