import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createEconomy, spend } from "../../src/rules/core/economy.js";
import { ScriptedRoller } from "../../src/rules/core/dice/port.js";
import { FrayError } from "../../src/rules/core/errors.js";
import type { DamagePacket } from "../../src/rules/core/ruleset.js";
import {
  abilityOf,
  ABILITIES,
  activeOn,
  applyVitals,
  armorTracks,
  boxOf,
  HITBOXES,
  blackoutTest,
  CALLED_THRESHOLDS,
  calledChance,
  calledLocation,
  checkDeclarations,
  durationWindow,
  elapsedSeconds,
  hasCondition,
  isLethal,
  isVital,
  LETHAL_HITBOXES,
  skillOf,
  SKILLS,
  VITAL_HITBOXES,
  endTurn,
  hitbox,
  hitboxCombatantFromActor,
  interrupts,
  movementBandFeet,
  opposedTest,
  parseArmor,
  parseCombatant,
  parseWeapon,
  quickAction,
  rangeModifier,
  regularLocation,
  resolutionSteps,
  restate,
  rollLocation,
  TURN_SECONDS,
  type Declaration,
  type HitboxAttackInput,
  type HitboxAttackResult,
  type HitboxCombatant,
} from "../../src/rules/hitbox/index.js";

const opts = hitbox.defaults();

/** Zeven of seed 002: Dexterity 3, Firearms 1, Dodge 1; a pistol in her right hand. */
function zeven(overrides: Record<string, unknown> = {}): HitboxCombatant {
  return parseCombatant({
    id: "zeven",
    name: "Zeven",
    abilities: { strength: 2, dexterity: 3, fortitude: 2 },
    skills: { firearms: 1, dodge: 1, melee: 1, parry: 1, blackout: 1 },
    weapons: [
      { id: "pistol", name: "Pistol", kind: "ranged", damage: 1, maxShots: 2, rangeFeet: 150 },
      { id: "shotgun", name: "Shotgun", kind: "ranged", damage: 1, hands: 2, closeBonus: { withinFeet: 20, points: 1 }, rangeFeet: 120 },
      { id: "knife", name: "Knife", kind: "melee", ability: "dexterity", damage: 1 },
    ],
    held: ["pistol"],
    ...overrides,
  });
}

/** The security guard of seed 002: Dexterity 3, Dodge 1, Fortitude 3, Blackout 2; a vest on the torso. */
function guard(overrides: Record<string, unknown> = {}): HitboxCombatant {
  return parseCombatant({
    id: "guard",
    name: "Guard",
    kind: "npc",
    abilities: { strength: 2, dexterity: 3, fortitude: 3 },
    skills: { firearms: 0, dodge: 1, blackout: 2, parry: 1, melee: 1 },
    weapons: [{ id: "sidearm", name: "Sidearm", kind: "ranged", damage: 1, maxShots: 3, rangeFeet: 200 }],
    armor: [{ id: "vest", name: "Vest", protection: { torso: 1 } }],
    ...overrides,
  });
}

const input = (over: Partial<HitboxAttackInput> = {}): HitboxAttackInput => ({
  attacker: zeven(),
  target: guard(),
  weaponId: "pistol",
  rangeFeet: 30,
  ...over,
});
const labels = (mods: { label: string; value: number }[]) => Object.fromEntries(mods.map((m) => [m.label, m.value]));
const packet = (amount: number, location: string): DamagePacket => ({
  roll: { formula: String(amount), total: amount, dice: [], constant: amount },
  amount,
  location,
});

async function attack(i: HitboxAttackInput, faces: number[], options = opts): Promise<HitboxAttackResult> {
  const plan = hitbox.planAttack(i, options);
  return (await hitbox.resolveAttack(plan, i, new ScriptedRoller(faces), options)) as HitboxAttackResult;
}

describe("Hitbox turns and declarations", () => {
  it("HB-RND-01: a turn lasts 5 s and each participant declares one action", () => {
    expect(TURN_SECONDS).toBe(5);
    expect(elapsedSeconds(3)).toBe(15);
    let e = createEconomy(hitbox.economy(zeven(), opts));
    e = spend(e, { slots: { action: 1 } });
    expect(() => spend(e, { slots: { action: 1 } })).toThrow(FrayError);
    const twice: Declaration[] = [
      { actor: "zeven", action: { kind: "none" }, quick: [] },
      { actor: "zeven", action: { kind: "none" }, quick: [] },
    ];
    expect(() => checkDeclarations(twice, ["zeven", "guard"])).toThrow(/twice/);
    expect(() => checkDeclarations([{ actor: "nobody", action: { kind: "none" }, quick: [] }], ["zeven"])).toThrow(FrayError);
  });

  it("HB-RND-02: a duration in turns starts on the turn after it began", () => {
    const stim = durationWindow(3, 1);
    expect(stim).toEqual({ from: 4, to: 4 });
    expect(activeOn(stim, 3)).toBe(false);
    expect(activeOn(stim, 4)).toBe(true);
    expect(activeOn(stim, 5)).toBe(false);
    expect(activeOn(durationWindow(1, 3), 4)).toBe(true);
    expect(() => durationWindow(1, -1)).toThrow(FrayError);
  });

  it("HB-ACT-01: all declare in any order, then everything resolves together unless the GM puts an action first", async () => {
    expect(hitbox.declaration).toBe("simultaneous");
    expect(hitbox.initiativeTiming(opts)).toBe("none");
    const roll = await hitbox.rollInitiative([zeven(), guard()], new ScriptedRoller([]));
    expect(roll).toMatchObject({ members: ["zeven", "guard"], total: 0 });
    const declared: Declaration[] = [
      { actor: "guard", action: { kind: "task", text: "alarm", feet: 40, pace: "run" }, quick: [] },
      { actor: "zeven", action: { kind: "attack", target: "guard", weapon: "pistol" }, quick: [] },
      { actor: "third", action: { kind: "none" }, quick: [] },
    ];
    expect(() => checkDeclarations(declared, ["zeven", "guard", "third"])).not.toThrow();
    expect(resolutionSteps(declared)).toEqual([{ actors: ["guard", "zeven", "third"], simultaneous: true }]);
    const preempted = declared.map((d) => (d.actor === "zeven" ? { ...d, first: 1 } : d));
    expect(resolutionSteps(preempted)).toEqual([
      { actors: ["zeven"], simultaneous: false },
      { actors: ["guard", "third"], simultaneous: true },
    ]);
  });

  it("HB-ACT-02: walking 10 ft keeps the action; walking 20 ft or running 40 ft takes it", () => {
    const c = zeven();
    expect(movementBandFeet(c, 10)).toMatchObject({ id: "step", cost: {} });
    expect(movementBandFeet(c, 20)).toMatchObject({ id: "walk", cost: { slots: { action: 1 } } });
    expect(movementBandFeet(c, 40)).toMatchObject({ id: "run", cost: { slots: { action: 1 } } });
    expect(movementBandFeet(c, 41)).toBeUndefined();
    expect(hitbox.movementBand(c, 3.048, opts)?.id).toBe("step");
    expect(hitbox.movement(zeven({ hitboxes: { leftLeg: { value: 0, max: 2 } } }), opts)).toEqual([]);
  });

  it("HB-ACT-03: a hit interrupts the action; quick actions (draw, let go, communicate) still happen", async () => {
    const report = hitbox.applyDamage(guard(), packet(1, "leftLeg"), opts);
    expect(interrupts(report)).toBe(true);
    expect(interrupts(hitbox.applyDamage(guard(), packet(1, "torso"), opts))).toBe(false); // the vest stopped it
    let g = guard({ held: [] });
    g = quickAction(g, { id: "communicate", text: "Help!" }, false);
    g = quickAction(g, { id: "draw", item: "Sidearm" }, false);
    expect(g.held).toEqual(["sidearm"]);
    expect(quickAction(g, { id: "letGo", item: "sidearm" }, false).held).toEqual([]);
    expect(() => quickAction(g, { id: "draw", item: "Sidearm" }, true)).toThrow(FrayError);
    expect(createEconomy(hitbox.economy(g, opts)).slots.quick!.max).toBeNull();
  });

  it("HB-ACT-04: going prone lets the defender dodge every attack this turn, and it lies prone from the next", async () => {
    const z = quickAction(zeven(), { id: "prone" }, false);
    const i = input({
      attacker: guard(),
      target: z,
      weaponId: "sidearm",
      rangeFeet: 15,
      shots: 2,
      reaction: "dodge",
      situation: { targetWentProne: true },
    });
    const first = await attack(i, [4, 4, 1, 4, 1, 3]); // 8 + 3 + 0 + 1 - 2 = 10; dodge 5 + 3 + 1 = 9; location 4
    expect(first.reactionRolledNow).toBe(true);
    expect(first.rolledReaction).toMatchObject({ id: "dodge", dropsProne: true });
    expect(first.rolledReaction!.check.total).toBe(9);
    // The same dodge stands against the second shot: no new dodge roll.
    const second = await attack({ ...i, rolledReaction: first.rolledReaction }, [3, 3]); // 6 + 3 - 1 = 8 < 9
    expect(second.reactionRolledNow).toBe(false);
    expect(second.plan.difficulty.total).toBe(9);
    expect(second.hit).toBe(false);
    const next = endTurn(z, false);
    expect(next.conditions).toEqual(["prone"]);
    const dodge = hitbox.reactions(input({ target: next }), undefined, opts).find((r) => r.id === "dodge")!;
    expect(dodge).toMatchObject({ available: false, reason: "FRAY.Reason.HitboxProne" });
  });

  it("HB-ACT-05: mutually exclusive actions go to the higher of two opposed 2d6 tests; ties roll again", async () => {
    const a = { id: "zeven", modifiers: [{ label: "FRAY.Mod.HitboxAbility", value: 3, rule: "HB-ACT-05" as const }] };
    const b = { id: "guard", modifiers: [{ label: "FRAY.Mod.HitboxAbility", value: 1, rule: "HB-ACT-05" as const }] };
    const result = await opposedTest(a, b, new ScriptedRoller([2, 3, 3, 4, 1, 1, 6, 6]));
    expect(result.rounds.map((r) => [r.a.total, r.b.total])).toEqual([
      [8, 8],
      [5, 13],
    ]);
    expect(result.winner).toBe("guard");
  });
});

describe("Hitbox attacks", () => {
  it("HB-ATK-01: the attacker declares a called shot and its location; the torso cannot be called", async () => {
    const r = await attack(input({ calledShot: "leftLeg" }), [4, 4, 4, 4]);
    expect(labels(r.plan.modifiers)["FRAY.Mod.HitboxCalled"]).toBe(-2);
    expect(r.location).toMatchObject({ id: "leftLeg", rule: "HB-LOC-02", called: "leftLeg" });
    expect(() => hitbox.planAttack(input({ calledShot: "torso" }), opts)).toThrow(
      expect.objectContaining({ key: "FRAY.Error.Field", data: expect.objectContaining({ field: "calledShot" }) }),
    );
  });

  it("HB-ATK-02: the attack test is 2d6 + ability + weapon skill against 9", async () => {
    const plan = hitbox.planAttack(input(), opts);
    expect(plan.dice).toBe("2d6");
    expect(labels(plan.modifiers)).toEqual({ "FRAY.Mod.HitboxAbility": 3, "FRAY.Mod.HitboxSkill": 1 });
    expect(plan.difficulty.total).toBe(9);
    const r = await attack(input(), [3, 4, 3, 4]); // 7 + 4 = 11
    expect(r.check.total).toBe(11);
    expect(r.hit).toBe(true);
    expect(r.location).toMatchObject({ id: "torso", rule: "HB-LOC-01" });
  });

  it("HB-ATK-03: a dodge or parry total becomes the difficulty; dodge needs cover or drops the defender; parry needs a held object", async () => {
    const r = await attack(input({ reaction: "dodge" }), [3, 3, 6, 6]); // 6 + 4 = 10 against dodge 12 + 4 = 16
    expect(r.plan.difficulty).toMatchObject({ base: { label: "FRAY.Hitbox.Base.dodge", value: 16 }, total: 16 });
    expect(r.hit).toBe(false);
    expect(r.reaction).toMatchObject({ id: "dodge", success: true, rule: "HB-ATK-03" });
    // A low dodge lowers the difficulty below 9 ...
    const low = await attack(input({ reaction: "dodge", situation: { targetNearCover: true } }), [1, 2, 1, 1, 4, 4]); // 3 + 4 = 7 against 2 + 4 = 6
    expect(low.hit).toBe(true);
    expect(low.rolledReaction!.dropsProne).toBe(false);
    // ... unless the floor setting keeps it at 9.
    const floored = await attack(input({ reaction: "dodge" }), [1, 2, 1, 1], { ...opts, hitboxReactionFloor: true });
    expect(floored.plan.difficulty.total).toBe(9);
    expect(floored.hit).toBe(false);
    const melee = input({
      attacker: guard({ weapons: [{ id: "baton", name: "Baton", kind: "melee" }] }),
      target: zeven(),
      weaponId: "baton",
      rangeFeet: 5,
    });
    const parry = (i: HitboxAttackInput, o = opts) => hitbox.reactions(i, undefined, o).find((x) => x.id === "parry")!;
    expect(parry(melee)).toMatchObject({ available: true, formula: "2d6 + 3" }); // Strength 2 + Parry 1
    expect(parry({ ...melee, target: zeven({ held: [] }) })).toMatchObject({ available: false, reason: "FRAY.Reason.HitboxNothingHeld" });
    expect(parry(input({ attacker: guard(), target: zeven(), weaponId: "sidearm" }))).toMatchObject({
      available: false,
      reason: "FRAY.Reason.RangedAttack",
    });
    expect(parry(input({ attacker: guard(), target: zeven(), weaponId: "sidearm" }), { ...opts, hitboxParryRanged: true }).available).toBe(
      true,
    );
  });

  it("HB-ATK-04: an attack total equal to the difficulty hits", async () => {
    expect((await attack(input(), [2, 3, 1, 1])).hit).toBe(true); // 5 + 4 = 9 against 9
    expect((await attack(input(), [2, 2])).hit).toBe(false); // 8
    const tie = input({ reaction: "dodge" });
    expect((await attack(tie, [3, 3, 3, 3, 1, 1])).hit).toBe(true); // 10 against dodge 10
    expect((await attack(tie, [3, 3, 3, 3], { ...opts, hitboxReactionTies: "defender" })).hit).toBe(false);
  });

  it("HB-ATK-05: a target unaware and not threatened takes 2 points instead of 1, armor still applies, and cannot react", async () => {
    const unaware = input({ situation: { targetUnaware: true } });
    const r = await attack(unaware, [5, 5, 4, 3]); // location 7: torso
    const dmg = await hitbox.rollDamage(r, unaware, new ScriptedRoller([]), opts);
    expect(dmg.amount).toBe(2);
    const report = hitbox.applyDamage(unaware.target, dmg, opts);
    expect(report.after.armor!.torso).toEqual({ value: 0, max: 1 });
    expect(report.after.hitboxes!.torso).toEqual({ value: 2, max: 3 });
    expect(hitbox.reactions(unaware, undefined, opts).every((x) => !x.available && x.reason === "FRAY.Reason.Unanticipated")).toBe(true);
    const threatened = input({ situation: { targetUnaware: true, targetThreatened: true } });
    expect((await hitbox.rollDamage(r, threatened, new ScriptedRoller([]), opts)).amount).toBe(1);
  });
});

describe("Hitbox circumstance modifiers", () => {
  it("HB-MOD-01: less than 20 ft +1; more than 50 ft -1 per 50 ft; ranges in feet", () => {
    expect(rangeModifier(15)?.value).toBe(1);
    expect(rangeModifier(19.9)?.value).toBe(1);
    expect(rangeModifier(20)).toBeUndefined();
    expect(rangeModifier(50)).toBeUndefined();
    expect(rangeModifier(51)?.value).toBe(-1);
    expect(rangeModifier(100)?.value).toBe(-1);
    expect(rangeModifier(101)?.value).toBe(-2);
    expect(rangeModifier(151)?.value).toBe(-3);
    expect(labels(hitbox.planAttack(input({ rangeFeet: 120 }), opts).modifiers)["FRAY.Mod.HitboxFar"]).toBe(-2);
    const knife = hitbox.planAttack(input({ weaponId: "knife", rangeFeet: 5 }), opts);
    expect(knife.modifiers.some((m) => m.rule === "HB-MOD-01")).toBe(false);
    expect(() => hitbox.planAttack(input({ rangeFeet: 151 }), opts)).toThrow(
      expect.objectContaining({ key: "FRAY.Error.HitboxOutOfRange" }),
    );
  });

  it("HB-MOD-02: half hidden, darkness or dim light, and a prone target are -1 each", () => {
    const plan = hitbox.planAttack(input({ situation: { halfHidden: true, dark: true }, target: guard({ conditions: ["prone"] }) }), opts);
    expect(labels(plan.modifiers)).toMatchObject({ "FRAY.Mod.HitboxHidden": -1, "FRAY.Mod.HitboxDark": -1, "FRAY.Mod.HitboxProne": -1 });
    expect(plan.modifiers.filter((m) => m.rule === "HB-MOD-02").reduce((s, m) => s + m.value, 0)).toBe(-3);
  });

  it("HB-MOD-03: a called shot is -2; several shots a turn are -2 per shot", () => {
    const shots = (n: number, o = opts) =>
      labels(hitbox.planAttack(input({ attacker: guard(), target: zeven(), weaponId: "sidearm", shots: n }), o).modifiers)[
        "FRAY.Mod.HitboxRapidFire"
      ];
    expect(shots(1)).toBeUndefined();
    expect(shots(2)).toBe(-2);
    expect(shots(3)).toBe(-4);
    expect(shots(3, { ...opts, hitboxRapidFire: "flat" })).toBe(-2);
    expect(() => shots(4)).toThrow(expect.objectContaining({ key: "FRAY.Error.HitboxShots" }));
    expect(labels(hitbox.planAttack(input({ calledShot: "head" }), opts).modifiers)["FRAY.Mod.HitboxCalled"]).toBe(-2);
  });

  it("HB-MOD-04: a target already prone cannot dodge", () => {
    const i = input({ target: guard({ conditions: ["prone"] }) });
    expect(hitbox.reactions(i, undefined, opts).find((r) => r.id === "dodge")).toMatchObject({
      available: false,
      reason: "FRAY.Reason.HitboxProne",
    });
    expect(() => hitbox.planAttack({ ...i, reaction: "dodge" }, opts)).toThrow(
      expect.objectContaining({ key: "FRAY.Error.ReactionUnavailable" }),
    );
  });
});

describe("Hitbox exact odds", () => {
  /** Brute force over all faces of two 2d6 rolls. */
  function brute(a: number, r: number, tieHits: boolean): number {
    let n = 0;
    for (let x1 = 1; x1 <= 6; x1++)
      for (let x2 = 1; x2 <= 6; x2++)
        for (let y1 = 1; y1 <= 6; y1++)
          for (let y2 = 1; y2 <= 6; y2++) {
            const at = x1 + x2 + a;
            const rt = y1 + y2 + r;
            if (at > rt || (at === rt && tieHits)) n++;
          }
    return n / 1296;
  }

  it("HB-ATK-02, HB-ATK-04: P(hit) against 9 is P(2d6 + bonus >= 9)", () => {
    expect(hitbox.odds(hitbox.planAttack(input(), opts), input(), opts).hit).toBeCloseTo(30 / 36, 12); // 2d6 >= 5
    const called = input({ calledShot: "leftLeg", rangeFeet: 15 }); // bonus 4 - 2 + 1 = 3: 2d6 >= 6
    const o = hitbox.odds(hitbox.planAttack(called, opts), called, opts);
    expect(o.hit).toBeCloseTo(26 / 36, 12);
    expect(o.outcomes!.called).toBeCloseTo((26 / 36) * (15 / 36), 12);
  });

  it("HB-ATK-03, HB-ATK-04: P(hit) against a dodge still to be rolled compares two 2d6 totals", () => {
    // Seed 002, turn 1: Zeven +3 (7 + 3 + 1 - 2 + 1 needs the dice) against the guard's dodge +4.
    const i = input({ calledShot: "leftLeg", rangeFeet: 15, reaction: "dodge" });
    const plan = hitbox.planAttack(i, opts);
    const o = hitbox.odds(plan, i, opts);
    expect(o.hit).toBeCloseTo(brute(3, 4, true), 12);
    expect(o.throughReaction).toBe(o.hit);
    expect(hitbox.odds(plan, i, { ...opts, hitboxReactionTies: "defender" }).hit).toBeCloseTo(brute(3, 4, false), 12);
    const same = input({ reaction: "dodge" });
    expect(hitbox.odds(hitbox.planAttack(same, opts), same, opts).hit).toBeCloseTo(721 / 1296, 12);
  });

  it("HB-ATK-03, HB-ATK-04: once the dodge is rolled, P(hit) is P(2d6 + bonus >= its total)", async () => {
    const first = await attack(input({ reaction: "dodge" }), [6, 6, 4, 4, 3, 4]); // dodge 8 + 4 = 12
    const later = input({ rolledReaction: first.rolledReaction });
    const plan = hitbox.planAttack(later, opts);
    expect(plan.difficulty.total).toBe(12);
    expect(hitbox.odds(plan, later, opts).hit).toBeCloseTo(15 / 36, 12); // 2d6 >= 8
    expect(hitbox.odds(plan, later, { ...opts, hitboxReactionTies: "defender" }).hit).toBeCloseTo(10 / 36, 12); // 2d6 >= 9
  });
});

describe("Hitbox locations", () => {
  it("HB-LOC-01: regular 2d6 table: 2-3 head, 4 left arm, 5-6 left leg, 7-8 torso, 9-10 right leg, 11 right arm, 12 groin", async () => {
    const table = Object.fromEntries([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((n) => [n, regularLocation(n)]));
    expect(table).toEqual({
      2: "head",
      3: "head",
      4: "leftArm",
      5: "leftLeg",
      6: "leftLeg",
      7: "torso",
      8: "torso",
      9: "rightLeg",
      10: "rightLeg",
      11: "rightArm",
      12: "groin",
    });
    expect(await rollLocation(new ScriptedRoller([1, 3]))).toMatchObject({ id: "leftArm", rule: "HB-LOC-01" });
    expect(() => regularLocation(13)).toThrow(FrayError);
  });

  it("HB-LOC-02: called table: head 9-12, an arm 8-12, a leg 8-12, groin 11-12, otherwise the torso", async () => {
    expect(CALLED_THRESHOLDS).toEqual({ head: 9, leftArm: 8, rightArm: 8, leftLeg: 8, rightLeg: 8, groin: 11 });
    expect(calledLocation("leftLeg", 8)).toBe("leftLeg");
    expect(calledLocation("leftLeg", 7)).toBe("torso");
    expect(calledLocation("head", 9)).toBe("head");
    expect(calledLocation("head", 8)).toBe("torso");
    expect(calledLocation("groin", 11)).toBe("groin");
    expect(calledLocation("groin", 10)).toBe("torso");
    expect(calledChance("head")).toBeCloseTo(10 / 36, 12);
    expect(calledChance("rightArm")).toBeCloseTo(15 / 36, 12);
    expect(calledChance("groin")).toBeCloseTo(3 / 36, 12);
    expect(await rollLocation(new ScriptedRoller([3, 3]), "rightArm")).toMatchObject({
      id: "torso",
      rule: "HB-LOC-02",
      called: "rightArm",
    });
  });
});

describe("Hitbox damage", () => {
  it("HB-DMG-01: damage goes to the armor on the hitbox first, then to the hitbox", () => {
    const g = guard();
    const first = hitbox.applyDamage(g, packet(1, "torso"), opts);
    expect(first.after.armor!.torso).toEqual({ value: 0, max: 1 });
    expect(first.after.hitboxes!.torso).toEqual({ value: 3, max: 3 });
    expect(first.steps.map((s) => [s.label, s.value, s.remaining])).toEqual([
      ["FRAY.Step.Rolled", 0, 1],
      ["FRAY.Step.HitboxArmor", 1, 0],
    ]);
    const worn = applyVitals(g, first.after);
    expect(worn.armor[0]!.damage.torso).toBe(1);
    const second = hitbox.applyDamage(worn, packet(1, "torso"), opts);
    expect(second.after.hitboxes!.torso).toEqual({ value: 2, max: 3 });
    // Soaking armor is not used up.
    const soak = { ...opts, hitboxArmor: "soak" };
    const s1 = hitbox.applyDamage(g, packet(2, "torso"), soak);
    expect(s1.after.armor!.torso).toEqual({ value: 1, max: 1 });
    expect(s1.after.hitboxes!.torso!.value).toBe(2);
    // What a full limb cannot take goes on to the torso.
    const spill = hitbox.applyDamage(guard({ armor: [] }), packet(3, "leftArm"), opts);
    expect(spill.after.hitboxes!.leftArm).toEqual({ value: 0, max: 2 });
    expect(spill.after.hitboxes!.torso).toEqual({ value: 2, max: 3 });
    expect(() => hitbox.applyDamage(g, packet(1, "tail"), opts)).toThrow(
      expect.objectContaining({ data: expect.objectContaining({ field: "location" }) }),
    );
  });

  it("HB-DMG-02: most weapons deal 1 point; a shotgun deals 2 within 20 ft", async () => {
    const hit = { lands: true, location: { id: "torso", label: "FRAY.Hitbox.torso", rule: "HB-LOC-01" } } as unknown as HitboxAttackResult;
    const dice = new ScriptedRoller([]);
    expect((await hitbox.rollDamage(hit, input(), dice, opts)).amount).toBe(1);
    expect((await hitbox.rollDamage(hit, input({ weaponId: "shotgun", rangeFeet: 15 }), dice, opts)).amount).toBe(2);
    expect((await hitbox.rollDamage(hit, input({ weaponId: "shotgun", rangeFeet: 30 }), dice, opts)).amount).toBe(1);
    expect(parseWeapon({ name: "Stick" }).damage).toBe(1);
    await expect(hitbox.rollDamage({ ...hit, lands: false }, input(), dice, opts)).rejects.toThrow(FrayError);
  });

  it("HB-DMG-03: a damaged limb halves the bonus of skills that use it, until medicated; a leg hit drops the target", () => {
    const hurt = { hitboxes: { leftArm: { value: 1, max: 2 } } };
    const leftHanded = hitbox.planAttack(input({ attacker: zeven({ ...hurt, mainHand: "left" }) }), opts);
    expect(labels(leftHanded.modifiers)["FRAY.Mod.HitboxDamagedLimb"]).toBe(-2); // 3 + 1 = 4, half is 2
    expect(leftHanded.modifiers.reduce((s, m) => s + m.value, 0)).toBe(2);
    expect(labels(hitbox.planAttack(input({ attacker: zeven(hurt) }), opts).modifiers)["FRAY.Mod.HitboxDamagedLimb"]).toBeUndefined();
    expect(
      labels(hitbox.planAttack(input({ attacker: zeven(hurt), weaponId: "shotgun" }), opts).modifiers)["FRAY.Mod.HitboxDamagedLimb"],
    ).toBe(-2);
    const medicated = zeven({ ...hurt, mainHand: "left", conditions: ["medicated"] });
    expect(labels(hitbox.planAttack(input({ attacker: medicated }), opts).modifiers)["FRAY.Mod.HitboxDamagedLimb"]).toBeUndefined();
    const dodge = hitbox.reactions(input({ target: guard({ hitboxes: { rightLeg: { value: 1, max: 2 } } }) }), undefined, opts)[0]!;
    expect(dodge.formula).toBe("2d6 + 2"); // Dexterity 3 + Dodge 1 = 4, halved
    expect(() => hitbox.planAttack(input({ attacker: zeven({ hitboxes: { rightArm: { value: 0, max: 2 } } }) }), opts)).toThrow(
      expect.objectContaining({ key: "FRAY.Error.HitboxLimbDisabled" }),
    );
    expect(hitbox.applyDamage(guard(), packet(1, "leftLeg"), opts).added).toEqual(["prone"]);
    expect(hitbox.applyDamage(guard(), packet(1, "leftLeg"), { ...opts, hitboxLegProne: false }).added).toEqual([]);
  });

  it("HB-DMG-04: a head hit forces Blackout (Fortitude) 12; 5 + 3 + 2 = 10 fails and means shock", async () => {
    const report = hitbox.applyDamage(guard(), packet(1, "head"), opts);
    expect(report.forced).toEqual([{ id: "blackout", label: "FRAY.Hitbox.Blackout", rule: "HB-DMG-04", difficulty: 12 }]);
    const g = applyVitals(guard(), report.after);
    const test = await blackoutTest(g, new ScriptedRoller([2, 3]));
    expect(test.check.total).toBe(10);
    expect(test.passed).toBe(false);
    expect(test.after.conditions).toContain("shock");
    expect(hitbox.isOut(hitbox.vitals(test.after))).toBe(true);
    expect((await blackoutTest(g, new ScriptedRoller([3, 4]))).passed).toBe(true); // 7 + 5 = 12 meets 12
    // An arm hit forces no test by default, every hit under the "any" setting.
    expect(hitbox.applyDamage(guard(), packet(1, "leftArm"), opts).forced).toEqual([]);
    expect(hitbox.applyDamage(guard(), packet(1, "leftArm"), { ...opts, hitboxBlackout: "any" }).forced).toHaveLength(1);
    // In shock, further damage kills; a full head kills; a full groin is shock.
    expect(hitbox.applyDamage(test.after, packet(1, "leftArm"), opts).added).toContain("dead");
    expect(hitbox.applyDamage(guard(), packet(2, "head"), opts).added).toEqual(["dead"]);
    expect(hitbox.applyDamage(guard(), packet(2, "groin"), opts).added).toEqual(["shock"]);
  });
});

describe("Hitbox data", () => {
  it("HB-DMG-01: hitboxes default to the setting's points (torso one more) and bad data names its field", () => {
    const c = zeven();
    expect(c.hitboxes.head).toEqual({ value: 2, max: 2 });
    expect(c.hitboxes.torso).toEqual({ value: 3, max: 3 });
    expect(
      parseCombatant({ name: "x", abilities: { strength: 1, dexterity: 1, fortitude: 1 } }, "x", { hitboxPoints: 3 }).hitboxes.torso.max,
    ).toBe(4);
    expect(() => parseCombatant({ name: "x" })).toThrow(
      expect.objectContaining({ data: expect.objectContaining({ field: "combatant.abilities" }) }),
    );
    expect(() => zeven({ hitboxes: { tail: 2 } })).toThrow(
      expect.objectContaining({ data: expect.objectContaining({ field: "combatant.hitboxes.tail" }) }),
    );
    expect(() => zeven({ hitboxes: { head: { value: 3, max: 2 } } })).toThrow(
      expect.objectContaining({ data: expect.objectContaining({ field: "combatant.hitboxes.head.value" }) }),
    );
    expect(() => parseWeapon({ name: "Gun", kind: "ranged" })).toThrow(
      expect.objectContaining({ data: expect.objectContaining({ field: "weapon.rangeFeet" }) }),
    );
    expect(() => parseArmor({ name: "Vest", protection: { torso: 1 }, damage: { torso: 2 } })).toThrow(
      expect.objectContaining({ data: expect.objectContaining({ field: "armor.damage.torso" }) }),
    );
    expect(() => parseWeapon({ name: "Gun", ruleset: "ud10" })).toThrow(
      expect.objectContaining({ data: expect.objectContaining({ field: "weapon.ruleset" }) }),
    );
  });

  it("HB-ATK-02: an actor source reads with its Hitbox items; items of another ruleset are left out", () => {
    const c = hitboxCombatantFromActor({
      _id: "a1",
      name: "Guard",
      type: "npc",
      system: { ruleset: "hitbox", abilities: { strength: 2, dexterity: 3, fortitude: 3 }, skills: { dodge: 1 }, held: ["Sidearm"] },
      items: [
        { _id: "w1", name: "Sidearm", type: "weapon", system: { ruleset: "hitbox", kind: "ranged", rangeFeet: 200, maxShots: 3 } },
        { _id: "w2", name: "Club", type: "weapon", system: { ruleset: "ud10", kind: "melee", damage: "1+1d10" } },
        { _id: "a2", name: "Vest", type: "armor", system: { ruleset: "hitbox", protection: { torso: 1 }, equipped: true } },
      ],
    });
    expect(c.weapons.map((w) => w.id)).toEqual(["w1"]);
    expect(c.held).toEqual(["w1"]);
    expect(c.armor.map((a) => a.protection.torso)).toEqual([1]);
    expect(c.kind).toBe("npc");
  });
});

describe("restate: a next combatant state built field by field (HB-DMG-01, HB-DMG-04)", () => {
  it("equals the spread of the combatant with the new fields, keys and their order included, for every field parseCombatant writes", () => {
    for (const c of [zeven(), guard({ conditions: ["shock"], shockTurnsLeft: 3 })]) {
      const hitboxes = { ...c.hitboxes, torso: { value: 0, max: c.hitboxes.torso.max } };
      const conditions = [...c.conditions, "dead"];
      for (const shock of [undefined, 0, 2]) {
        const spread: HitboxCombatant = { ...c, hitboxes, armor: c.armor, conditions };
        if (shock === undefined) delete spread.shockTurnsLeft;
        else spread.shockTurnsLeft = shock;
        const next = restate(c, hitboxes, c.armor, conditions, shock);
        expect(next).toStrictEqual(spread);
        expect(Object.keys(next)).toEqual(Object.keys(spread));
        expect(next.weapons).toBe(c.weapons);
      }
    }
  });
});

describe("Hitbox tracks read by name", () => {
  it("HB-ATK-02: abilityOf and skillOf read each ability and skill by its field; HB-DMG-01: lethal and vital hitboxes as listed", () => {
    const ratings = <K extends string>(ids: readonly K[]) =>
      fc.record(Object.fromEntries(ids.map((id) => [id, fc.integer({ min: -10, max: 10 })]))) as fc.Arbitrary<Record<K, number>>;
    fc.assert(
      fc.property(ratings(ABILITIES), ratings(SKILLS), fc.boolean(), (abilities, skills, frozen) => {
        const a = frozen ? Object.freeze(abilities) : abilities;
        const s = frozen ? Object.freeze(skills) : skills;
        for (const id of ABILITIES) expect(abilityOf(a, id)).toBe(abilities[id]);
        for (const id of SKILLS) expect(skillOf(s, id)).toBe(skills[id]);
      }),
      { numRuns: 100 },
    );
    for (const h of HITBOXES) {
      expect(isLethal(h), h).toBe(LETHAL_HITBOXES.includes(h));
      expect(isVital(h), h).toBe(VITAL_HITBOXES.includes(h));
    }
  });

  it("HB-DMG-01: hasCondition answers as the conditions list's includes, frozen or not", () => {
    const names = ["prone", "goingProne", "shock", "dead", "unconscious", "medicated", "unaware"];
    fc.assert(
      fc.property(fc.uniqueArray(fc.constantFrom(...names), { maxLength: 4 }), fc.boolean(), (list, frozen) => {
        const c = { ...zeven(), conditions: frozen ? Object.freeze([...list]) : list } as HitboxCombatant;
        for (const n of names) expect(hasCondition(c, n), n).toBe(list.includes(n));
      }),
      { numRuns: 100 },
    );
  });

  it("HB-DMG-01: boxOf reads each hitbox's field, and the armor tracks sum every piece worn on each hitbox", () => {
    const points = fc.record(
      Object.fromEntries(HITBOXES.map((h) => [h, fc.integer({ min: 0, max: 6 })])) as Record<
        (typeof HITBOXES)[number],
        fc.Arbitrary<number>
      >,
    );
    fc.assert(
      fc.property(fc.array(fc.record({ protection: points, damage: points }), { maxLength: 3 }), fc.boolean(), (pieces, frozen) => {
        const armor = pieces.map((p, i) => ({ id: `a${i}`, name: `A${i}`, protection: p.protection, damage: p.damage }));
        for (const h of HITBOXES) for (const p of pieces) expect(boxOf(p.protection, h)).toBe(p.protection[h]);
        const c = { ...zeven(), armor: frozen ? Object.freeze(armor) : armor } as HitboxCombatant;
        const expected: Record<string, { value: number; max: number }> = {};
        for (const h of HITBOXES) {
          const max = pieces.reduce((s, p) => s + p.protection[h], 0);
          const used = pieces.reduce((s, p) => s + p.damage[h], 0);
          if (max > 0) expected[h] = { value: max - used, max };
        }
        const tracks = armorTracks(c);
        expect(tracks).toEqual(expected);
        expect(Object.keys(tracks)).toEqual(Object.keys(expected));
      }),
      { numRuns: 200 },
    );
  });
});
