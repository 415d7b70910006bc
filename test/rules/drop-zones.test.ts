/**
 * Zones' exact chance to drop the target against 10^6 attacks played through the real attack
 * step (ZN-RNG-08, ZN-BST-01, ZN-MEL-03, ZN-MEL-04, ZN-ZON-01, ZN-ZON-02, ZN-DMG-01, ZN-VIT-01 to
 * ZN-VIT-04): a ten-bullet full-auto burst with recoil at a wounded target, a knife blow against
 * a block that halves it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { AttackRequest } from "../../src/rules/core/contract.js";
import { createEconomy, type Economy } from "../../src/rules/core/economy.js";
import type { RulesetOptions } from "../../src/rules/core/ruleset.js";
import type { ActorSource } from "../../src/rules/core/sources.js";
import { planStep } from "../../src/rules/core/step.js";
import { zones, zonesCombatantFromActor, type ZonesCombatant } from "../../src/rules/zones/index.js";
import { expectWithinThreeSigma, simulate } from "./drop-simulation.js";

const N = 1_000_000;
const dir = fileURLToPath(new URL("../../packs/_source/zones-npcs", import.meta.url));
const npc = (name: string, id: string): ZonesCombatant => {
  const file = readdirSync(dir).find((f) => f.startsWith(name.replace(/ /g, "_")))!;
  return zonesCombatantFromActor(JSON.parse(readFileSync(join(dir, file), "utf8")) as ActorSource, { id });
};

function exact(request: AttackRequest, attacker: ZonesCombatant, defender: ZonesCombatant, options: RulesetOptions, economy?: Economy) {
  const planned = planStep(zones, request, attacker, defender, options, economy);
  return { odds: zones.odds(planned.plan, planned.input, options), drop: zones.dropOdds!(planned.plan, planned.input, options)! };
}

describe("Zones chance to drop the target", () => {
  it("full auto, ten bullets with recoil, at a wounded target (ZN-BST-01, ZN-ZON-01, ZN-ZON-02, ZN-VIT-04)", async () => {
    const options = zones.defaults();
    const a = npc("Perimeter Sentry", "a");
    const fresh = npc("Street Enforcer", "b");
    const b: ZonesCombatant = { ...fresh, hp: { ...fresh.hp, value: Math.ceil(fresh.hp.max / 2) } };
    const request: AttackRequest = {
      attackerId: "a",
      targetId: "b",
      weaponId: "Harrow Carbine",
      modeId: "auto",
      distanceMetres: 8,
      situation: { bullets: 10 },
    };
    const { odds, drop } = exact(request, a, b, options);
    expect(drop.lands).toBeCloseTo(odds.hit, 12);
    expect(drop.out).toBeGreaterThan(0.05);
    expectWithinThreeSigma(drop, await simulate(zones, request, a, b, options, N, 3));
  }, 180_000);

  it("a knife blow against a declared block, which halves it (ZN-MEL-03, ZN-MEL-04, ZN-VIT-03)", async () => {
    const options = zones.defaults();
    const a = npc("Perimeter Sentry", "a");
    const fresh = npc("Street Enforcer", "b");
    const b: ZonesCombatant = { ...fresh, hp: { ...fresh.hp, value: 3 } };
    const request: AttackRequest = { attackerId: "a", targetId: "b", weaponId: "Fieldcraft Knife", distanceMetres: 1, reaction: "block" };
    // A block needs the defender's actions spent (ZN-MEL-04).
    const economy = createEconomy(zones.economy(b, options));
    for (const slot of Object.values(economy.slots)) slot.used = slot.max ?? 0;
    const { odds, drop } = exact(request, a, b, options, economy);
    expect(drop.lands).toBeCloseTo(odds.hit, 12);
    expect(odds.outcomes?.halved).toBeGreaterThan(0);
    expectWithinThreeSigma(drop, await simulate(zones, request, a, b, options, N, 13, economy));
  }, 180_000);

  it("a grenade deals its damage through its blast: no chance to drop for the target (ZN-GRN-01)", () => {
    const options = zones.defaults();
    const request: AttackRequest = { attackerId: "a", targetId: "b", weaponId: "Hornet Fragmentation Grenade", distanceMetres: 10 };
    const planned = planStep(zones, request, npc("Breacher", "a"), npc("Street Enforcer", "b"), options);
    expect(zones.dropOdds!(planned.plan, planned.input, options)).toBeUndefined();
  });
});
