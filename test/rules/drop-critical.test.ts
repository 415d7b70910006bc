/**
 * Critical's exact chance to drop the target against 10^6 attacks played through the real attack
 * step (CR-ATK-01, CR-ATK-02, CR-ATK-04, CR-PAR-02, CR-CRT-02, CR-CRT-03, CR-HIT-01, CR-HIT-02,
 * CR-BLD-01, CR-DTH-01): criticals with bleeding, a declared parry, the Self Discipline test,
 * and a small case worked out by hand on a world's own tables.
 */
import { describe, expect, it } from "vitest";
import type { AttackRequest } from "../../src/rules/core/contract.js";
import type { RulesetOptions } from "../../src/rules/core/ruleset.js";
import { planStep } from "../../src/rules/core/step.js";
import {
  critical,
  criticalOptions,
  parseAttackCode,
  parseCombatant,
  type AttackTable,
  type CriticalAttackInput,
  type CriticalCombatant,
  type CriticalTable,
} from "../../src/rules/critical/index.js";
import { sumModifiers } from "../../src/rules/core/types.js";
import { odds } from "../../src/rules/critical/attack.js";
import { dropOdds } from "../../src/rules/critical/drop.js";
import { expectWithinThreeSigma, simulate } from "./drop-simulation.js";

const N = 1_000_000;

/** A sword fighter: OB blades 70 (+5 sword), SD 15, Physique 8 ranks / 48 total, DB 15, rigid armor. */
function fighter(overrides: Record<string, unknown> = {}): CriticalCombatant {
  return parseCombatant({
    id: "kara",
    name: "Kara",
    quickness: 10,
    selfDiscipline: 15,
    physique: { ranks: 8, total: 48 },
    defense: 15,
    baseMove: 10,
    skills: { blades: 70, brawling: 30 },
    weapons: [{ id: "sword", name: "Arming Sword", weaponClass: "sword", category: "melee", skill: "blades", bonus: 5 }],
    armor: [{ id: "cuirass", name: "Cuirass", armorType: "rigid", defense: 0 }],
    ...overrides,
  });
}

/** A guard: OB blunt 35 (+5 baton), SD 5, Physique 6 ranks / 40 total, DB 5, a ballistic vest. */
function guard(overrides: Record<string, unknown> = {}): CriticalCombatant {
  return parseCombatant({
    id: "guard",
    name: "Guard",
    quickness: 5,
    selfDiscipline: 5,
    physique: { ranks: 6, total: 40 },
    defense: 5,
    skills: { blunt: 35 },
    weapons: [{ id: "baton", name: "Baton", weaponClass: "club", category: "melee", skill: "blunt", bonus: 5 }],
    armor: [{ id: "vest", name: "Vest", armorType: "ballistic", defense: 0 }],
    ...overrides,
  });
}

function exact(request: AttackRequest, attacker: CriticalCombatant, defender: CriticalCombatant, options: RulesetOptions) {
  const planned = planStep(critical, request, attacker, defender, options);
  return { odds: critical.dropOdds!(planned.plan, planned.input, options)!, plan: planned.plan, input: planned.input };
}

describe("Critical chance to drop the target", () => {
  it("a strong sword blow on a wounded guard: criticals with bleeding, stun and death (CR-ATK-04, CR-CRT-02, CR-BLD-01)", async () => {
    const options = critical.defaults();
    const a = fighter();
    const b = guard({ hits: { value: 22, max: 40 } });
    const request: AttackRequest = { attackerId: "kara", targetId: "guard", weaponId: "sword", situation: { modifier: 40 } };
    const { odds: drop, plan, input } = exact(request, a, b, options);
    const outcomes = odds(plan, input, criticalOptions(options)).outcomes!;
    // Criticals of several severities are likely, a B or worse among them.
    expect(outcomes.B! + outcomes.C! + outcomes.D! + outcomes.E!).toBeGreaterThan(0.3);
    expect(drop.out).toBeGreaterThan(0.05);
    expect(drop.out).toBeLessThan(drop.lands);
    expect(drop.expected.hp).toBeGreaterThan(5);
    expectWithinThreeSigma(drop, await simulate(critical, request, a, b, options, N, 17));
  }, 180_000);

  it("a blow against a declared parry on a guard near 0 hits: the Self Discipline test decides (CR-PAR-02, CR-HIT-02)", async () => {
    const options = critical.defaults();
    const a = fighter();
    const b = guard({ hits: { value: 6, max: 40 }, parry: { kara: 20 } });
    const request: AttackRequest = { attackerId: "kara", targetId: "guard", weaponId: "sword" };
    const { odds: drop, plan } = exact(request, a, b, options);
    // The parry's DB is in the plan.
    expect(plan.difficulty.modifiers.some((m) => m.rule === "CR-PAR-02")).toBe(true);
    const unparried = exact(request, a, guard({ hits: { value: 6, max: 40 } }), options).odds;
    expect(drop.expected.hp!).toBeLessThan(unparried.expected.hp!);
    expect(drop.out).toBeLessThan(unparried.out);
    expectWithinThreeSigma(drop, await simulate(critical, request, a, b, options, N, 23));
  }, 180_000);

  it("worked by hand: one band of 5 hits and an A critical over 100, a UM66 death, the Self Discipline test at 0 (CR-CRT-03, CR-HIT-02)", () => {
    const options = critical.defaults();
    const attack: AttackTable = {
      key: "critical.attack.sword",
      weaponClass: "sword",
      name: "Sword",
      category: "melee",
      fumble: 5,
      armorTypes: ["ballistic"],
      rows: [
        { range: [null, 100], results: { ballistic: parseAttackCode("-") } },
        { range: [101, null], results: { ballistic: parseAttackCode("5AK") } },
      ],
    };
    const entry = { severity: "A" as const, text: "A blow", location: "chest" as const };
    const crit: CriticalTable = {
      key: "critical.crit.K",
      type: "K",
      name: "Krush",
      entries: [
        { ...entry, id: "a", name: "A 01-100", range: [1, 100], um66: false, effects: [{ type: "hits", value: 3 }] },
        { ...entry, id: "um", name: "A UM66", range: [66, 66], um66: true, effects: [{ type: "death" }] },
      ],
    };
    const attacker = fighter();
    const target = guard({ hits: { value: 8, max: 40 }, selfDiscipline: 15 });
    const base: CriticalAttackInput = { attacker, target, weaponId: "sword", tables: { attack: { sword: attack }, crit: { K: crit } } };
    // The GM's modifier that makes the total the open-ended roll itself.
    const first = critical.planAttack(base, options);
    const modifier = first.difficulty.total - sumModifiers(first.modifiers);
    const input = { ...base, situation: { modifier } };
    const plan = critical.planAttack(input, options);
    expect(sumModifiers(plan.modifiers) - plan.difficulty.total).toBe(0);
    const drop = dropOdds(plan, input, criticalOptions(options));
    // Over 100 only after 96-100: 5 %, less 97-100 (96 then 1-4): 0.049.
    const lands = 0.05 - 0.0001 - 0.0002 - 0.0003 - 0.0004;
    expect(drop.lands).toBeCloseTo(lands, 12);
    // A 66 on the critical kills (UM66); else 8 hits take the guard to 0 and the Self Discipline
    // test (d100 + 15, 101 or more) keeps it up on 86-100. The roll's tail cut below 1e-9 is all
    // the two may fall short by (the hits by at most 8 times that).
    const out = lands * (1 / 100 + (99 / 100) * (85 / 100));
    expect(out - drop.out).toBeGreaterThanOrEqual(-1e-15);
    expect(out - drop.out).toBeLessThan(1e-9);
    const hits = lands * ((99 / 100) * 8 + (1 / 100) * 5);
    expect(hits - drop.expected.hp!).toBeGreaterThanOrEqual(-1e-15);
    expect(hits - drop.expected.hp!).toBeLessThan(8e-9);
    expect(drop.rules).toContain("CR-HIT-02");
  });

  it("a target already out stays out whatever the roll (CR-DTH-01)", () => {
    const options = critical.defaults();
    const request: AttackRequest = { attackerId: "kara", targetId: "guard", weaponId: "sword" };
    const drop = exact(request, fighter(), guard({ conditions: ["dead"] }), options).odds;
    // Short of 1 by no more than the roll's tail cut below 1e-9.
    expect(drop.out).toBeCloseTo(1, 8);
  });
});
