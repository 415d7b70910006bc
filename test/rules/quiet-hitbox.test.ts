/**
 * Hitbox's quiet attack step against the detailed one: for any seed and situation, the same faces
 * give the same outcome (hit, reaction total, location, damage, hitboxes and armor after, the
 * Blackout test forced) and leave the dice at the same place (HB-ATK-02 to HB-ATK-05, HB-MOD-01
 * to HB-MOD-03, HB-LOC-01, HB-LOC-02, HB-DMG-01 to HB-DMG-04, HB-ACT-03, HB-ACT-04); and within a
 * simultaneous step the engine's quiet attack holds the damage as its detailed attack does (HB-ACT-01).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SeededRoller, seededSource } from "../../src/rules/core/dice/port.js";
import { createEconomy, spend } from "../../src/rules/core/economy.js";
import { FrayError } from "../../src/rules/core/errors.js";
import { isQuiet, QUIET_ATTACK_FIELDS } from "../../src/rules/core/quiet.js";
import { RoundEngine } from "../../src/rules/core/round.js";
import type { ActorSource } from "../../src/rules/core/sources.js";
import {
  afterAction,
  forcedCheckDue,
  HITBOXES,
  hitbox,
  hitboxCombatantFromActor,
  interrupts,
  quietAfterAttack,
  type HitboxArmor,
  type HitboxAttackInput,
  type HitboxAttackResult,
  type HitboxCombatant,
  type HitboxId,
  type HitboxQuietAttack,
} from "../../src/rules/hitbox/index.js";

const packs = fileURLToPath(new URL("../../packs/_source", import.meta.url));
const read = (dir: string) =>
  readdirSync(join(packs, dir))
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(join(packs, dir, f), "utf8")) as ActorSource & { system: Record<string, unknown> });
const npcs = read("hitbox-npcs");
const armors = read("hitbox-armor");

const CONDITIONS = ["prone", "shock", "dead", "medicated", "unaware", "goingProne", "unconscious"];

/** A combatant of the packs with damaged hitboxes, worn (and used) armor and conditions. */
const combatant = (id: string) =>
  fc
    .record({
      npc: fc.integer({ min: 0, max: npcs.length - 1 }),
      hurt: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 7, maxLength: 7 }),
      armor: fc.array(
        fc.record({ piece: fc.integer({ min: 0, max: armors.length - 1 }), used: fc.array(fc.nat(3), { minLength: 7, maxLength: 7 }) }),
        {
          maxLength: 3,
        },
      ),
      conditions: fc.subarray(CONDITIONS, { maxLength: 2 }),
      mainHand: fc.constantFrom("left" as const, "right" as const),
      emptyHands: fc.boolean(),
    })
    .map(({ npc, hurt, armor, conditions, mainHand, emptyHands }): HitboxCombatant => {
      const c = hitboxCombatantFromActor(npcs[npc]! as never, { id });
      const hitboxes = { ...c.hitboxes };
      HITBOXES.forEach(
        (h, i) => (hitboxes[h] = { ...c.hitboxes[h], value: Math.max(0, c.hitboxes[h].value - (hurt[i] === 3 ? 0 : hurt[i]!)) }),
      );
      const worn: HitboxArmor[] = armor.map(({ piece, used }, i) => {
        const protection = armors[piece]!.system.protection as Record<HitboxId, number>;
        const damage = Object.fromEntries(HITBOXES.map((h, j) => [h, Math.min(protection[h], used[j]!)])) as Record<HitboxId, number>;
        return { id: `armor${i}`, name: armors[piece]!.name, protection: { ...protection }, damage };
      });
      return { ...c, hitboxes, armor: worn, conditions, mainHand, held: emptyHands ? [] : c.held };
    });

const situation = fc.record(
  {
    halfHidden: fc.boolean(),
    dark: fc.boolean(),
    targetProne: fc.boolean(),
    targetNearCover: fc.boolean(),
    targetUnaware: fc.boolean(),
    targetThreatened: fc.boolean(),
    misc: fc.integer({ min: -3, max: 3 }),
  },
  { requiredKeys: [] },
);

const scenario = fc.record({
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  attacker: combatant("a"),
  target: combatant("b"),
  held: fc.option(combatant("b"), { nil: undefined }),
  weapon: fc.nat(),
  range: fc.option(fc.double({ min: 0, max: 700, noNaN: true }), { nil: undefined }),
  called: fc.constantFrom(undefined, "head", "leftArm", "rightArm", "leftLeg", "rightLeg", "groin", "torso"),
  shots: fc.constantFrom(undefined, 1, 2, 3),
  situation,
  reaction: fc.constantFrom(undefined, "dodge" as const, "parry" as const),
  rolled: fc.option(
    fc.record({
      id: fc.constantFrom("dodge" as const, "parry" as const),
      total: fc.integer({ min: 0, max: 16 }),
      dropsProne: fc.boolean(),
    }),
    {
      nil: undefined,
    },
  ),
  reactionUsed: fc.boolean(),
  options: fc.record({
    hitboxArmor: fc.constantFrom("ablative", "soak"),
    hitboxBlackout: fc.constantFrom("vital", "any"),
    hitboxLegProne: fc.boolean(),
    hitboxReactionTies: fc.constantFrom("attacker", "defender"),
    hitboxReactionFloor: fc.boolean(),
    hitboxParryRanged: fc.boolean(),
    hitboxRapidFire: fc.constantFrom("perExtraShot", "flat"),
  }),
});

describe("Hitbox quiet attack step", () => {
  it("is offered by the Hitbox ruleset", () => {
    expect(isQuiet(hitbox)).toBe(true);
  });

  it("HB-ATK-02 to HB-ATK-05, HB-MOD-01 to HB-MOD-03, HB-LOC-01, HB-LOC-02, HB-DMG-01 to HB-DMG-04, HB-ACT-03, HB-ACT-04: the same seed gives the detailed step's outcome, target and dice", async () => {
    const shapes = new Set<string>();
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const weapon = s.attacker.weapons[s.weapon % s.attacker.weapons.length]!;
        const options = { ...hitbox.defaults(), ...s.options };
        const input: HitboxAttackInput = {
          attacker: s.attacker,
          target: s.target,
          weaponId: weapon.id,
          situation: s.situation,
        };
        if (s.range !== undefined) input.rangeFeet = s.range;
        if (s.called) input.calledShot = s.called as HitboxId;
        if (s.shots) input.shots = s.shots;
        if (s.reaction) input.reaction = s.reaction;
        if (s.rolled)
          input.rolledReaction = {
            id: s.rolled.id,
            dropsProne: s.rolled.dropsProne,
            check: {
              roll: { formula: "2d6", total: s.rolled.total, dice: [], constant: 0 },
              natural: s.rolled.total,
              modifiers: [],
              total: s.rolled.total,
            },
          };
        let economy = createEconomy(hitbox.economy(s.target, options));
        if (s.reactionUsed) economy = spend(economy, { slots: { reaction: 1 } });
        // The damage lands on the held state when there is one (a step's earlier hit, HB-ACT-01).
        const base = s.held ?? s.target;

        const dice = new SeededRoller(s.seed);
        let detailed: { error: string } | Awaited<ReturnType<typeof detailedStep>>;
        async function detailedStep() {
          const plan = hitbox.planAttack(input, options, economy);
          const result = (await hitbox.resolveAttack(plan, input, dice, options)) as HitboxAttackResult;
          if (!result.lands) return { result };
          const packet = await hitbox.rollDamage(result, input, dice, options);
          const report = hitbox.applyDamage(base, packet, options);
          return { result, packet, report, target: hitbox.withVitals(base, report.after) };
        }
        try {
          detailed = await detailedStep();
        } catch (error) {
          detailed = { error: (error as FrayError).key };
        }
        const faces = seededSource(s.seed);
        let quiet: HitboxQuietAttack;
        try {
          quiet = hitbox.quietAttack(input, faces, options, economy, s.held) as HitboxQuietAttack;
        } catch (error) {
          expect(error).toBeInstanceOf(FrayError);
          expect({ error: (error as FrayError).key }).toEqual(detailed);
          return;
        }
        // One shape for every quiet attack: the fields of `QuietAttack` in place, in order (QUIET_ATTACK_FIELDS).
        expect(Object.keys(quiet).slice(0, QUIET_ATTACK_FIELDS.length)).toEqual(QUIET_ATTACK_FIELDS);
        shapes.add(Object.keys(quiet).join());
        if ("error" in detailed) throw new Error(`the detailed step threw ${detailed.error}, the quiet one did not`);
        const { result, packet, report, target } = detailed;
        expect(quiet.weaponId).toBe(result.plan.weaponId);
        expect(quiet.hit).toBe(result.hit);
        expect(quiet.reacted).toBe(result.reaction !== undefined);
        expect(quiet.reactionSuccess).toBe(result.reaction?.success);
        expect(quiet.reactionRolledNow).toBe(result.reactionRolledNow);
        expect(quiet.rolledReaction?.id).toBe(result.rolledReaction?.id);
        expect(quiet.rolledReaction?.check.total).toBe(result.rolledReaction?.check.total);
        expect(quiet.rolledReaction?.check.modifiers).toEqual(result.rolledReaction?.check.modifiers);
        expect(quiet.rolledReaction?.dropsProne).toBe(result.rolledReaction?.dropsProne);
        expect(quiet.lands).toBe(result.lands);
        expect(quiet.location).toBe(result.location?.id);
        expect(quiet.damage).toBe(packet?.amount ?? 0);
        expect(quiet.target).toEqual(target);
        if (target) expect(hitbox.vitals(quiet.target!)).toEqual(hitbox.vitals(target));
        expect(quiet.forced ?? []).toEqual(report?.forced ?? []);
        expect(quiet.interrupts).toBe(report ? interrupts(report) : false);
        // The dice stand at the same place: the next faces are the same.
        for (let i = 0; i < 3; i++) expect(faces(1000)).toBe((await dice.roll("1d1000")).total);
        // What follows the attack for the attacker and for the target is the same (HB-ATK-03, HB-ACT-04).
        const outcome = { kind: "attack" as const, weaponId: result.plan.weaponId, result };
        const attackerEconomy = createEconomy(hitbox.economy(s.attacker, options));
        expect(quietAfterAttack(s.attacker, quiet, attackerEconomy)).toEqual(afterAction(s.attacker, outcome, attackerEconomy));
        const q = quietAfterAttack(s.target, quiet, economy);
        const d = afterAction(s.target, outcome, economy);
        expect(q.combatant).toEqual(d.combatant);
        expect(q.economy).toEqual(d.economy);
      }),
      { numRuns: 2000 },
    );
    // Hits, misses and reactions alike: one list of fields, the first condition of one shape in V8.
    expect(shapes.size).toBe(1);
  });

  it("HB-ACT-01, HB-DMG-04: in a simultaneous step the engine's quiet attacks hold the damage and roll the Blackout tests at its end as its detailed attacks", async () => {
    const a = hitboxCombatantFromActor(npcs[0]! as never, { id: "a" });
    const b = hitboxCombatantFromActor(npcs[1]! as never, { id: "b" });
    const entries = [
      { id: "a", side: "x", combatant: a },
      { id: "b", side: "y", combatant: b },
    ];
    const options = hitbox.defaults();
    let landed = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const one = new RoundEngine(hitbox, entries, new SeededRoller(seed), { options, maxRounds: 3 });
      const two = new RoundEngine(hitbox, entries, new SeededRoller(seed), { options, maxRounds: 3 });
      for (const e of [one, two]) {
        e.nextRound();
        e.startRound();
      }
      const shots = [
        { attackerId: "a", targetId: "b", weaponId: a.weapons[0]!.id, distanceMetres: 3, situation: { shots: 2 } },
        { attackerId: "a", targetId: "b", weaponId: a.weapons[0]!.id, distanceMetres: 3, situation: { shots: 2 } },
        { attackerId: "b", targetId: "a", weaponId: b.weapons[0]!.id, distanceMetres: 3 },
      ];
      const opts = { free: true, payReaction: false, refuse: () => true };
      const d = await one.step(
        async () => {
          for (const r of shots) {
            const rec = await one.attack(r, opts);
            if (rec?.step.result.lands) landed++;
          }
        },
        { due: forcedCheckDue },
      );
      const q = await two.step(
        async () => {
          for (const r of shots) await two.quietAttack(r, opts);
        },
        { due: forcedCheckDue },
      );
      expect(q.damaged).toEqual(d.damaged);
      expect(q.forced.map((f) => [f.actor, f.result.check.total])).toEqual(d.forced.map((f) => [f.actor, f.result.check.total]));
      for (const id of ["a", "b"]) {
        expect(two.get(id).combatant).toEqual(one.get(id).combatant);
        expect(two.get(id).economy).toEqual(one.get(id).economy);
      }
    }
    expect(landed).toBeGreaterThan(10);
  });

  it("HB-RND-01, HB-ACT-04, HB-DMG-04, HB-RND-02: the quiet turn start gives the combatant and economy of the detailed one, without events", () => {
    const start = hitbox.startRound!;
    const quiet = hitbox.startRoundQuiet!;
    fc.assert(
      fc.property(
        combatant("a"),
        fc.option(fc.integer({ min: -1, max: 3 }), { nil: undefined }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 1, max: 4 }),
        (c, shockTurnsLeft, hitboxShockTurns, round) => {
          const state = { ...c, shockTurnsLeft };
          const options = { hitboxShockTurns };
          const detailed = start(state, undefined, round, options);
          const done = quiet(state, undefined, round, options);
          expect(done.combatant).toEqual(detailed.combatant);
          expect(done.combatant === state).toBe(detailed.combatant === state);
          expect(done.economy).toStrictEqual(detailed.economy);
          expect(done.events).toEqual([]);
        },
      ),
      { numRuns: 500 },
    );
    // One economy for every combatant, never changed by a cost paid from it.
    const first = quiet(hitboxCombatantFromActor(npcs[0]! as never, { id: "a" }), undefined, 1, {}).economy;
    const paid = spend(first, { slots: { action: 1, reaction: 1 } });
    expect(paid.slots.action!.used).toBe(1);
    expect(first.slots.action!.used).toBe(0);
    expect(quiet(hitboxCombatantFromActor(npcs[1]! as never, { id: "b" }), undefined, 2, {}).economy).toBe(first);
  });
});
