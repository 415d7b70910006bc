/**
 * The synchronous forced checks (`forcedCheckSync`) of Hitbox and Critical against their
 * asynchronous `forcedCheck`, and the round engine's `quietAttackSync` against its `quietAttack`
 * for them: the same faces give the same check, the same states after it and the dice left at the
 * same place (HB-DMG-04 Blackout test, CR-HIT-02 Self Discipline test), inside and outside a
 * simultaneous step (HB-ACT-01). The quiet forced checks (`quietForcedCheck`, the engine's
 * `quietOutcomeSync` and quiet steps) leave the same states from the same faces.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SeededRoller, seededSource } from "../../src/rules/core/dice/port.js";
import { FrayError } from "../../src/rules/core/errors.js";
import { RoundEngine } from "../../src/rules/core/round.js";
import type { ActorSource } from "../../src/rules/core/sources.js";
import type { LastingEffect } from "../../src/rules/core/types.js";
import { critical, criticalCombatantFromActor, type CriticalCombatant } from "../../src/rules/critical/index.js";
import { forcedCheckDue, HITBOXES, hitbox, hitboxCombatantFromActor, type HitboxCombatant } from "../../src/rules/hitbox/index.js";
import { promiseOnlyRoller } from "../support/dice.js";

const packs = fileURLToPath(new URL("../../packs/_source", import.meta.url));
const read = (dir: string) =>
  readdirSync(join(packs, dir))
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(join(packs, dir, f), "utf8")) as ActorSource);
const hbNpcs = read("hitbox-npcs");
const crNpcs = read("critical-npcs");

const hbState = fc
  .record({
    npc: fc.integer({ min: 0, max: hbNpcs.length - 1 }),
    hurt: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: HITBOXES.length, maxLength: HITBOXES.length }),
    conditions: fc.subarray(["prone", "medicated", "unaware"], { maxLength: 2 }),
    // Armor used up anywhere on any piece (not always in wear order), and a running shock count.
    worn: fc.array(fc.nat({ max: 99 }), { minLength: 4 * HITBOXES.length, maxLength: 4 * HITBOXES.length }),
    shock: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
  })
  .map(({ npc, hurt, conditions, worn, shock }): HitboxCombatant => {
    const c = hitboxCombatantFromActor(hbNpcs[npc]! as never, { id: "b" });
    const hitboxes = { ...c.hitboxes };
    HITBOXES.forEach((h, i) => (hitboxes[h] = { ...c.hitboxes[h], value: Math.max(0, c.hitboxes[h].value - hurt[i]!) }));
    const armor = c.armor.map((a, p) => ({
      ...a,
      damage: Object.fromEntries(
        HITBOXES.map((h, i) => [h, worn[(p * HITBOXES.length + i) % worn.length]! % (a.protection[h] + 1)]),
      ) as typeof a.damage,
    }));
    const out: HitboxCombatant = { ...c, hitboxes, armor, conditions };
    if (shock !== undefined) out.shockTurnsLeft = shock;
    return out;
  });

const crState = fc
  .record({
    npc: fc.integer({ min: 0, max: crNpcs.length - 1 }),
    hits: fc.integer({ min: -40, max: 0 }),
    conditions: fc.subarray(["constrained", "down", "unconscious"], { maxLength: 2 }),
    stun: fc.integer({ min: 0, max: 3 }),
    // Lasting effects already on the combatant: a bleed, an injury that stops things, an earlier knock-out.
    effects: fc.subarray([
      { id: "bleed-1", kind: "bleed", rule: "CR-BLD-01", label: "FRAY.Critical.Effect.bleed", value: 2 },
      { id: "injury-1", kind: "injury", rule: "CR-CRT-02", label: "x", location: "leftArm", stops: ["parry"], treated: ["staunch"] },
      { id: "unconscious-1", kind: "unconscious", rule: "CR-HIT-02", label: "FRAY.Critical.Effect.failedTest" },
    ] as LastingEffect[]),
  })
  .map(({ npc, hits, conditions, stun, effects }): CriticalCombatant => {
    const c = criticalCombatantFromActor(crNpcs[npc]! as never, { id: "b" });
    return { ...c, hits: { ...c.hits, value: hits }, conditions, stun, effects };
  });

describe("forcedCheckSync equals forcedCheck", () => {
  it("HB-DMG-04: the Blackout test, same faces, same result, dice left alike", async () => {
    let failed = 0;
    await fc.assert(
      fc.asyncProperty(hbState, fc.integer(), async (c, seed) => {
        const forced = { id: "blackout", label: "FRAY.Check.Blackout", rule: "HB-DMG-04" as const };
        const one = new SeededRoller(seed);
        const two = new SeededRoller(seed);
        const a = await hitbox.forcedCheck!(c, forced, one, hitbox.defaults());
        const s = hitbox.forcedCheckSync(c, forced, two, hitbox.defaults());
        expect(s).toEqual(a);
        if (!s.success) failed++;
        expect(two.rollSync("1d100").total).toBe(one.rollSync("1d100").total);
      }),
      { numRuns: 300 },
    );
    expect(failed).toBeGreaterThan(0);
    // Refused alike: no Blackout test for someone already in shock.
    const shocked = { ...hitboxCombatantFromActor(hbNpcs[0]! as never, { id: "b" }), conditions: ["shock"] };
    const forced = { id: "blackout", label: "FRAY.Check.Blackout", rule: "HB-DMG-04" as const };
    expect(() => hitbox.forcedCheckSync(shocked, forced, new SeededRoller(1), {})).toThrow(FrayError);
    await expect(hitbox.forcedCheck!(shocked, forced, new SeededRoller(1), {})).rejects.toThrow(FrayError);
  });

  it("CR-HIT-02: the Self Discipline test, same faces, same result, dice left alike", async () => {
    let failed = 0;
    await fc.assert(
      fc.asyncProperty(crState, fc.integer(), async (c, seed) => {
        const forced = { id: "selfDiscipline", label: "FRAY.Check.SelfDiscipline", rule: "CR-HIT-02" as const };
        const one = new SeededRoller(seed);
        const two = new SeededRoller(seed);
        const a = await critical.forcedCheck!(c, forced, one, critical.defaults());
        const s = critical.forcedCheckSync(c, forced, two, critical.defaults());
        expect(s).toEqual(a);
        if (!s.success) failed++;
        expect(two.rollSync("1d100").total).toBe(one.rollSync("1d100").total);
      }),
      { numRuns: 300 },
    );
    expect(failed).toBeGreaterThan(0);
  });
});

describe("quietForcedCheck leaves the state forcedCheckSync's report gives", () => {
  it("HB-DMG-04: the Blackout test rolled quietly, same faces, same combatant, dice left alike", () => {
    const forced = { id: "blackout", label: "FRAY.Check.Blackout", rule: "HB-DMG-04" as const };
    let failed = 0;
    fc.assert(
      fc.property(hbState, fc.integer(), (c, seed) => {
        const dice = new SeededRoller(seed);
        const faces = seededSource(seed);
        const s = hitbox.forcedCheckSync(c, forced, dice, hitbox.defaults());
        const quiet = hitbox.quietForcedCheck!(c, forced, faces, hitbox.defaults());
        const detailed = hitbox.withVitals(c, s.report.after);
        expect(hitbox.vitals(quiet)).toEqual(hitbox.vitals(detailed));
        // The whole combatant too, once its armor lies in wear order (as every quiet hit leaves it).
        const laid = hitbox.withVitals(c, hitbox.vitals(c));
        const again = hitbox.quietForcedCheck!(laid, forced, seededSource(seed), hitbox.defaults());
        expect(again).toEqual(detailed);
        if (!s.success) failed++;
        expect(faces(100)).toBe(dice.rollSync("1d100").total);
      }),
      { numRuns: 300 },
    );
    expect(failed).toBeGreaterThan(0);
    const shocked = { ...hitboxCombatantFromActor(hbNpcs[0]! as never, { id: "b" }), conditions: ["shock"] };
    expect(() => hitbox.quietForcedCheck!(shocked, forced, seededSource(1), {})).toThrow(FrayError);
  });

  it("CR-HIT-02: the Self Discipline test rolled quietly, same faces, same combatant, dice left alike", () => {
    const forced = { id: "selfDiscipline", label: "FRAY.Check.SelfDiscipline", rule: "CR-HIT-02" as const };
    let failed = 0;
    fc.assert(
      fc.property(crState, fc.integer(), (c, seed) => {
        const dice = new SeededRoller(seed);
        const faces = seededSource(seed);
        const s = critical.forcedCheckSync(c, forced, dice, critical.defaults());
        const quiet = critical.quietForcedCheck!(c, forced, faces, critical.defaults());
        expect(quiet).toEqual(critical.withVitals(c, s.report.after));
        if (!s.success) failed++;
        expect(faces(100)).toBe(dice.rollSync("1d100").total);
      }),
      { numRuns: 300 },
    );
    expect(failed).toBeGreaterThan(0);
    const c = criticalCombatantFromActor(crNpcs[0]! as never, { id: "b" });
    expect(() => critical.quietForcedCheck!(c, { ...forced, id: "blackout" }, seededSource(1), {})).toThrow(FrayError);
  });
});

describe("the engine's quietAttackSync equals its quietAttack where forced checks roll at once", () => {
  it("CR-HIT-02, CR-AP-02: pays, settles, rolls the Self Discipline test as quietAttack; refuses alike after", async () => {
    const a = criticalCombatantFromActor(crNpcs[0]! as never, { id: "a" });
    const b = criticalCombatantFromActor(crNpcs[1]! as never, { id: "b" });
    const options = critical.defaults();
    let forced = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const entries = [
        { id: "a", side: "x", combatant: a },
        { id: "b", side: "y", combatant: { ...b, hits: { ...b.hits, value: 1 + (seed % 12) } } },
      ];
      const one = new RoundEngine(critical, entries, new SeededRoller(seed), { options, maxRounds: 3 });
      const two = new RoundEngine(critical, entries, new SeededRoller(seed), { options, maxRounds: 3 });
      // The outcome alone, its tests rolled quietly.
      const three = new RoundEngine(critical, entries, new SeededRoller(seed), { options, maxRounds: 3, keepEvents: false });
      expect(two.canQuietSync).toBe(true);
      for (const e of [one, two, three]) {
        e.nextRound();
        e.startRound();
      }
      const request = { attackerId: "a", targetId: "b", weaponId: a.weapons[0]!.id };
      const opts = { cost: { pools: { ap: 2 } }, settleTarget: true };
      for (let i = 0; i < 2; i++) {
        const q = await one.quietAttack(request, opts);
        const s = two.quietAttackSync(request, opts);
        const o = three.quietOutcomeSync(request, opts);
        expect(s).toEqual(q);
        expect(o).toEqual(s?.attack);
        forced += s?.forced.length ?? 0;
        for (const id of ["a", "b"]) {
          expect(two.get(id).combatant).toEqual(one.get(id).combatant);
          expect(two.get(id).economy).toEqual(one.get(id).economy);
          expect(three.get(id).combatant).toEqual(one.get(id).combatant);
          expect(three.get(id).economy).toEqual(one.get(id).economy);
        }
      }
    }
    expect(forced).toBeGreaterThan(5);
  });

  it("HB-DMG-04, HB-ACT-01: outside a step the Blackout test at once, inside one held for its end, as quietAttack", async () => {
    const a = hitboxCombatantFromActor(hbNpcs[0]! as never, { id: "a" });
    const b = hitboxCombatantFromActor(hbNpcs[1]! as never, { id: "b" });
    const entries = [
      { id: "a", side: "x", combatant: a },
      { id: "b", side: "y", combatant: b },
    ];
    const options = hitbox.defaults();
    const opts = { free: true, payReaction: false, refuse: () => true };
    const shot = { attackerId: "a", targetId: "b", weaponId: a.weapons[0]!.id, distanceMetres: 3 };
    const back = { attackerId: "b", targetId: "a", weaponId: b.weapons[0]!.id, distanceMetres: 3 };
    let forcedNow = 0;
    let forcedAtEnd = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const one = new RoundEngine(hitbox, entries, new SeededRoller(seed), { options, maxRounds: 3 });
      const two = new RoundEngine(hitbox, entries, new SeededRoller(seed), { options, maxRounds: 3 });
      // The outcome alone, its tests rolled quietly, and a quiet step.
      const three = new RoundEngine(hitbox, entries, new SeededRoller(seed), { options, maxRounds: 3, keepEvents: false });
      expect(two.canQuietSync).toBe(true);
      for (const e of [one, two, three]) {
        e.nextRound();
        e.startRound();
      }
      for (let i = 0; i < 3; i++) {
        const q = await one.quietAttack(shot, opts);
        const s = two.quietAttackSync(shot, opts);
        expect(s).toEqual(q);
        expect(three.quietOutcomeSync(shot, opts)).toEqual(s?.attack);
        expect(three.get("b").combatant).toEqual(two.get("b").combatant);
        forcedNow += s?.forced.length ?? 0;
      }
      const d = await one.step(
        async () => {
          for (const r of [shot, back, shot]) await one.quietAttack(r, opts);
        },
        { due: forcedCheckDue },
      );
      const e = await two.step(
        () => {
          for (const r of [shot, back, shot]) two.quietAttackSync(r, opts);
        },
        { due: forcedCheckDue },
      );
      const f = await three.step(
        () => {
          for (const r of [shot, back, shot]) three.quietOutcomeSync(r, opts);
        },
        { due: forcedCheckDue, quiet: true },
      );
      expect(e).toEqual(d);
      expect(f).toEqual({ ...e, forced: [] });
      forcedAtEnd += e.forced.length;
      for (const id of ["a", "b"]) {
        expect(two.get(id).combatant).toEqual(one.get(id).combatant);
        expect(two.get(id).economy).toEqual(one.get(id).economy);
        expect(three.get(id).combatant).toEqual(one.get(id).combatant);
        expect(three.get(id).economy).toEqual(one.get(id).economy);
      }
    }
    expect(forcedNow).toBeGreaterThan(0);
    expect(forcedAtEnd).toBeGreaterThan(0);
  });

  it("keeps to the asynchronous path when the dice cannot roll at once", () => {
    const a = criticalCombatantFromActor(crNpcs[0]! as never, { id: "a" });
    const engine = new RoundEngine(
      critical,
      [
        { id: "a", side: "x", combatant: a },
        { id: "b", side: "y", combatant: criticalCombatantFromActor(crNpcs[1]! as never, { id: "b" }) },
      ],
      promiseOnlyRoller(1),
      { options: critical.defaults(), maxRounds: 3 },
    );
    expect(engine.canQuiet).toBe(true);
    expect(engine.canQuietSync).toBe(false);
    expect(() => engine.quietAttackSync({ attackerId: "a", targetId: "b", weaponId: a.weapons[0]!.id })).toThrow(FrayError);
  });
});
