/**
 * Hitbox's exact chance to drop the target against 10^6 attacks played through the real attack
 * step, each followed by the Blackout test it forces (HB-ATK-02 to HB-ATK-05, HB-LOC-01,
 * HB-LOC-02, HB-DMG-01, HB-DMG-02, HB-DMG-04): a pistol shot against a dodge, a called shot at
 * the head of a wounded target, Blackout on any hit.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { AttackRequest } from "../../src/rules/core/contract.js";
import type { RulesetOptions } from "../../src/rules/core/ruleset.js";
import type { ActorSource } from "../../src/rules/core/sources.js";
import { planStep } from "../../src/rules/core/step.js";
import { hitbox, hitboxCombatantFromActor, type HitboxCombatant } from "../../src/rules/hitbox/index.js";
import { expectWithinThreeSigma, simulate } from "./drop-simulation.js";

const N = 1_000_000;
const dir = fileURLToPath(new URL("../../packs/_source/hitbox-npcs", import.meta.url));
const npc = (name: string, id: string): HitboxCombatant => {
  const file = readdirSync(dir).find((f) => f.startsWith(name.replace(/ /g, "_")))!;
  return hitboxCombatantFromActor(JSON.parse(readFileSync(join(dir, file), "utf8")) as ActorSource, { id });
};

function exact(request: AttackRequest, attacker: HitboxCombatant, defender: HitboxCombatant, options: RulesetOptions) {
  const planned = planStep(hitbox, request, attacker, defender, options);
  return hitbox.dropOdds!(planned.plan, planned.input, options)!;
}

describe("Hitbox chance to drop the target", () => {
  it("a pistol shot against a dodge, Blackout on a vital or full hitbox (HB-ATK-03, HB-LOC-01, HB-DMG-04)", async () => {
    const options = hitbox.defaults();
    const a = npc("Security Guard", "a");
    const b = npc("Street Tough", "b");
    const request: AttackRequest = { attackerId: "a", targetId: "b", weaponId: "Duty Pistol", distanceMetres: 3, reaction: "dodge" };
    const odds = exact(request, a, b, options);
    expect(odds.out).toBeGreaterThan(0.01);
    expect(odds.out).toBeLessThan(odds.lands);
    expectWithinThreeSigma(odds, await simulate(hitbox, request, a, b, options, N, 5));
  }, 120_000);

  it("a called shot at the head of a wounded target, Blackout on any hit (HB-LOC-02, HB-DMG-01, HB-DMG-04)", async () => {
    const options = { ...hitbox.defaults(), hitboxBlackout: "any" };
    const a = npc("Security Guard", "a");
    const fresh = npc("Street Tough", "b");
    const b: HitboxCombatant = { ...fresh, hitboxes: { ...fresh.hitboxes, torso: { ...fresh.hitboxes.torso, value: 2 } } };
    const request: AttackRequest = {
      attackerId: "a",
      targetId: "b",
      weaponId: "Duty Pistol",
      distanceMetres: 6,
      situation: { calledShot: "head" },
    };
    const odds = exact(request, a, b, options);
    expect(odds.expected.hitboxes).toBeGreaterThan(0);
    expectWithinThreeSigma(odds, await simulate(hitbox, request, a, b, options, N, 9));
  }, 120_000);
});
