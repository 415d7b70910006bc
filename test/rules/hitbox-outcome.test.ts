/**
 * Hitbox's attack played with totals only (`attackOutcome`, the round engine's outcome step):
 * rule outcomes from scripted faces (HB-ATK-02 to HB-ATK-05, HB-LOC-01, HB-LOC-02, HB-DMG-01 to
 * HB-DMG-04, HB-ACT-03), the errors of `planAttack`, and within a simultaneous step the engine's
 * outcome step holds the damage as its detailed attack does (HB-ACT-01).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SeededRoller } from "../../src/rules/core/dice/port.js";
import type { FaceSource } from "../../src/rules/core/dice/formula.js";
import { FrayError } from "../../src/rules/core/errors.js";
import { RoundEngine } from "../../src/rules/core/round.js";
import type { ActorSource } from "../../src/rules/core/sources.js";
import {
  BLACKOUT_CHECK,
  forcedCheckDue,
  HITBOXES,
  hitbox,
  hitboxCombatantFromActor,
  type HitboxAttackInput,
  type HitboxCombatant,
  type HitboxId,
  type HitboxQuietAttack,
} from "../../src/rules/hitbox/index.js";

const packs = fileURLToPath(new URL("../../packs/_source", import.meta.url));
const npcs = readdirSync(join(packs, "hitbox-npcs"))
  .filter((f) => f.endsWith(".json"))
  .map((f) => JSON.parse(readFileSync(join(packs, "hitbox-npcs", f), "utf8")) as ActorSource);

/** Faces handed out in order; a die asked for beyond them fails the test. */
const script = (faces: number[]): FaceSource => {
  let i = 0;
  return (sides) => {
    const face = faces[i++];
    if (face === undefined || face > sides) throw new Error(`no scripted face for a d${sides}`);
    return face;
  };
};

/** Every hitbox at 20 of 20. */
const fresh = () =>
  Object.fromEntries(HITBOXES.map((h) => [h, { value: 20, max: 20 }])) as Record<HitboxId, { value: number; max: number }>;

/** An attacker whose test bonus with its first weapon is +2 (ability 1, skill 1), and a plain target. */
function pair(): { attacker: HitboxCombatant; target: HitboxCombatant; weapon: HitboxCombatant["weapons"][number] } {
  const a = hitboxCombatantFromActor(npcs[0]! as never, { id: "a" });
  const t = hitboxCombatantFromActor(npcs[1]! as never, { id: "b" });
  const weapon = a.weapons[0]!;
  const attacker: HitboxCombatant = {
    ...a,
    abilities: { ...a.abilities, [weapon.ability]: 1 },
    skills: { ...a.skills, [weapon.skill]: 1 },
    hitboxes: fresh(),
    conditions: [],
  };
  const target: HitboxCombatant = {
    ...t,
    abilities: { ...t.abilities, dexterity: 1 },
    skills: { ...t.skills, dodge: 1 },
    hitboxes: fresh(),
    armor: [],
    conditions: [],
  };
  return { attacker, target, weapon };
}

const play = (input: HitboxAttackInput, faces: number[], options: Record<string, string | number | boolean> = {}) =>
  hitbox.quietAttack(input, script(faces), { ...hitbox.defaults(), ...options }) as HitboxQuietAttack;

describe("Hitbox attack outcome", () => {
  it("HB-ATK-02, HB-LOC-01, HB-DMG-02: 2d6 + 2 meets 9 and hits the torso for the weapon's damage; 8 misses", () => {
    const { attacker, target, weapon } = pair();
    const input: HitboxAttackInput = { attacker, target, weaponId: weapon.id, situation: {} };
    const hit = play(input, [3, 4, 3, 4]);
    expect(hit).toMatchObject({ hit: true, lands: true, reacted: false, location: "torso", damage: weapon.damage, interrupts: true });
    expect(hit.target!.hitboxes.torso.value).toBe(Math.max(0, 20 - weapon.damage));
    expect(target.hitboxes.torso.value).toBe(20);
    const miss = play(input, [3, 3]);
    expect(miss).toMatchObject({ hit: false, lands: false, damage: 0, target: undefined });
  });

  it("HB-ATK-05, HB-DMG-04: an unaware, unthreatened target takes one more point; a torso hit forces the Blackout test", () => {
    const { attacker, target, weapon } = pair();
    const input: HitboxAttackInput = { attacker, target, weaponId: weapon.id, situation: { targetUnaware: true } };
    const hit = play(input, [6, 6, 3, 4]);
    expect(hit.damage).toBe(weapon.damage + 1);
    expect(hit.forced).toEqual([BLACKOUT_CHECK]);
  });

  it("HB-ATK-03, HB-ATK-04, HB-ACT-03: a declared dodge rolled now sets the difficulty; a tie goes to the defender under reactionTies defender", () => {
    const { attacker, target, weapon } = pair();
    const input: HitboxAttackInput = { attacker, target, weaponId: weapon.id, situation: { targetNearCover: true }, reaction: "dodge" };
    // Attack 5 + 2 = 7 against a dodge of 3 + 2 = 5 (under the floor of 9 only when it is set).
    const low = play(input, [2, 3, 1, 2, 3, 4]);
    expect(low).toMatchObject({ hit: true, reacted: true, reactionSuccess: false, reactionRolledNow: true });
    expect(low.rolledReaction).toMatchObject({ id: "dodge", dropsProne: false, check: { natural: 3, total: 5 } });
    expect(play(input, [2, 3, 1, 2], { hitboxReactionFloor: true })).toMatchObject({ hit: false, reactionSuccess: true });
    // Attack 6 + 2 = 8 against a dodge of 6 + 2 = 8: the attacker's tie by default, the defender's when set.
    expect(play(input, [3, 3, 3, 3, 3, 4])).toMatchObject({ hit: true });
    expect(play(input, [3, 3, 3, 3], { hitboxReactionTies: "defender" })).toMatchObject({ hit: false, reactionSuccess: true });
    // A dodge rolled earlier this turn is not rolled again: its total stands.
    const again = play({ ...input, rolledReaction: low.rolledReaction }, [3, 3, 3, 4]);
    expect(again).toMatchObject({ hit: true, reacted: true, reactionRolledNow: false });
  });

  it("HB-LOC-02, HB-MOD-03: a called head shot at -2 lands on the head from 9, else on the torso", () => {
    const { attacker, target, weapon } = pair();
    const input: HitboxAttackInput = { attacker, target, weaponId: weapon.id, situation: {}, calledShot: "head" };
    // 2d6 + 2 - 2 must meet 9.
    expect(play(input, [4, 4])).toMatchObject({ hit: false });
    expect(play(input, [4, 5, 4, 5])).toMatchObject({ hit: true, location: "head" });
    expect(play(input, [4, 5, 4, 4])).toMatchObject({ hit: true, location: "torso" });
  });

  it("HB-DMG-01, HB-DMG-03: armor first (used up when ablative, kept under soak), a full limb spills to the torso, a damaged leg drops the target", () => {
    const { attacker, target, weapon } = pair();
    const w = weapon.damage;
    const protection = Object.fromEntries(HITBOXES.map((h) => [h, h === "torso" ? 1 : 0])) as Record<HitboxId, number>;
    const damage = Object.fromEntries(HITBOXES.map((h) => [h, 0])) as Record<HitboxId, number>;
    const armored: HitboxCombatant = { ...target, armor: [{ id: "vest", name: "Vest", protection, damage }] };
    const input: HitboxAttackInput = { attacker, target: armored, weaponId: weapon.id, situation: {} };
    const ablative = play(input, [3, 4, 3, 4]);
    expect(ablative.target!.hitboxes.torso.value).toBe(20 - Math.max(0, w - 1));
    expect(ablative.target!.armor[0]!.damage.torso).toBe(w >= 1 ? 1 : 0);
    const soak = play(input, [3, 4, 3, 4], { hitboxArmor: "soak" });
    expect(soak.target!.armor[0]!.damage.torso).toBe(0);
    // The left arm (2d6 = 4) with one point left: the rest goes on to the torso.
    const arm: HitboxCombatant = { ...target, hitboxes: { ...fresh(), leftArm: { value: 1, max: 20 } } };
    const spill = play({ ...input, target: arm }, [3, 4, 2, 2]);
    expect(spill.location).toBe("leftArm");
    expect(spill.target!.hitboxes.leftArm.value).toBe(w >= 1 ? 0 : 1);
    expect(spill.target!.hitboxes.torso.value).toBe(20 - Math.max(0, w - 1));
    // The left leg (2d6 = 5): prone under the legProne setting.
    const leg = play({ ...input, target }, [3, 4, 2, 3], { hitboxLegProne: true });
    expect(leg.location).toBe("leftLeg");
    expect(leg.target!.conditions.includes("prone")).toBe(w > 0);
  });

  it("HB-ATK-01, HB-MOD-03: refuses as planAttack does, before any die is rolled", () => {
    const { attacker, target, weapon } = pair();
    const base: HitboxAttackInput = { attacker, target, weaponId: weapon.id, situation: {} };
    const code = (input: HitboxAttackInput) => {
      try {
        play(input, []);
      } catch (error) {
        return (error as FrayError).key;
      }
      return undefined;
    };
    expect(code({ ...base, shots: weapon.maxShots + 1 })).toBe("FRAY.Error.HitboxShots");
    expect(code({ ...base, weaponId: "nothing" })).toBe("FRAY.Error.NoWeapon");
    expect(code({ ...base, calledShot: "torso" })).toBe("FRAY.Error.Field");
    expect(code({ ...base, attacker: { ...attacker, conditions: ["shock"] } })).toBe("FRAY.Error.CannotAct");
    expect(code({ ...base, target: { ...target, conditions: ["unaware"] }, reaction: "dodge" })).toBe("FRAY.Error.ReactionUnavailable");
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
});
