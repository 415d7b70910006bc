import { describe, expect, it } from "vitest";
import { createEconomy, spend } from "../../src/rules/core/economy.js";
import { ScriptedRoller } from "../../src/rules/core/dice/port.js";
import { FrayError } from "../../src/rules/core/errors.js";
import type { DamagePacket } from "../../src/rules/core/ruleset.js";
import {
  ACTIONS,
  averagedArmor,
  damageFormula,
  defenseRating,
  disengage,
  initiativeGroups,
  parseDamageCode,
  rangePenalty,
  ud10,
  ud10Options,
  zoneForFace,
  type Ud10AttackInput,
} from "../../src/rules/ud10/index.js";
import { fighter, target } from "./ud10-fixtures.js";

const opts = ud10.defaults();
const off = { ...opts, bodyZones: false, buffer: false, penetration: false };
const labels = (mods: { label: string; value: number }[]) => Object.fromEntries(mods.map((m) => [m.label, m.value]));
const packet = (amount: number, extra: Partial<DamagePacket> = {}): DamagePacket => ({
  roll: { formula: String(amount), total: amount, dice: [], constant: amount },
  amount,
  ...extra,
});

describe("UD10 rounds and initiative", () => {
  it("UD-RND-01: a round lasts 10 s by default and the GM may change it", () => {
    expect(ud10Options({}).roundSeconds).toBe(10);
    expect(ud10Options({ roundSeconds: 30 }).roundSeconds).toBe(30);
    expect(ud10.options.find((o) => o.id === "roundSeconds")?.rule).toBe("UD-RND-01");
  });

  it("UD-RND-02: one grid square is 1.5 m, the instantaneous step", () => {
    const step = ud10.movement(fighter(), opts)[0]!;
    expect(step).toMatchObject({ id: "step", maxMetres: 1.5 });
  });

  it("UD-INI-01: initiative is d10 + Initiative skill, highest first", async () => {
    const a = fighter({ id: "a", skills: { initiative: 4 } });
    const b = fighter({ id: "b", skills: { initiative: 7 } });
    expect(ud10.initiativeFormula(a)).toBe("1d10 + 4");
    const dice = new ScriptedRoller([8, 3]);
    const ra = await ud10.rollInitiative([a], dice);
    const rb = await ud10.rollInitiative([b], dice);
    expect(ra.total).toBe(12);
    expect(rb.total).toBe(10);
    expect(ud10.order([rb, ra]).map((r) => r.members[0])).toEqual(["a", "b"]);
  });

  it("UD-INI-01: untrained initiative adds DEX; ties go to the higher initiative value", async () => {
    const untrained = fighter({ id: "u", skills: {}, attributes: { STR: 1, DEX: 5, CON: 1 } });
    expect(ud10.initiativeFormula(untrained)).toBe("1d10 + 5");
    const fast = fighter({ id: "f", skills: { initiative: 7 } });
    const dice = new ScriptedRoller([6, 4]);
    const ru = await ud10.rollInitiative([untrained], dice);
    const rf = await ud10.rollInitiative([fast], dice);
    expect(ru.total).toBe(rf.total);
    expect(ud10.order([ru, rf])[0]!.members).toEqual(["f"]);
  });

  it("UD-INI-02: the GM may roll one initiative for all NPCs, per group, or per NPC", async () => {
    const pc = fighter({ id: "pc" });
    const g1 = fighter({ id: "g1", kind: "npc", group: "guards", skills: { initiative: 2 } });
    const g2 = fighter({ id: "g2", kind: "npc", group: "guards", skills: { initiative: 5 } });
    const t1 = fighter({ id: "t1", kind: "npc", group: "thugs" });
    const all = [pc, g1, g2, t1];
    expect(initiativeGroups(all, { npcInitiative: "each" }).map((g) => g.map((c) => c.id))).toEqual([["pc"], ["g1"], ["g2"], ["t1"]]);
    expect(initiativeGroups(all, { npcInitiative: "group" }).map((g) => g.map((c) => c.id))).toEqual([["pc"], ["g1", "g2"], ["t1"]]);
    expect(initiativeGroups(all, { npcInitiative: "all" }).map((g) => g.map((c) => c.id))).toEqual([["pc"], ["g1", "g2", "t1"]]);
    const roll = await ud10.rollInitiative([g1, g2], new ScriptedRoller([3]));
    expect(roll.members).toEqual(["g1", "g2"]);
    expect(roll.total).toBe(8); // one d10 + the group's best Initiative (5)
  });

  it("UD-INI-03: carrying initiative over makes it once per combat", () => {
    expect(ud10.initiativeTiming(opts)).toBe("round");
    expect(ud10.initiativeTiming({ ...opts, initiativeCarryOver: true })).toBe("combat");
  });
});

describe("UD10 action economy and movement", () => {
  it("UD-ACT-01: one movement, one action, one reaction, free actions within reason", () => {
    let e = createEconomy(ud10.economy(fighter(), opts));
    e = spend(e, { slots: { action: 1, movement: 1, reaction: 1, free: 5 } });
    expect(() => spend(e, { slots: { action: 1 } })).toThrow(FrayError);
    expect(() => spend(e, { slots: { reaction: 1 } })).toThrow(/reaction/);
    expect(spend(e, { slots: { free: 1 } }).slots.free!.used).toBe(6);
  });

  it("UD-ACT-02: attacking, readying, reloading, using an item and skill actions each take the action", () => {
    expect(ACTIONS.map((a) => a.id)).toEqual(["attack", "ready", "reload", "useItem", "skill"]);
    let e = createEconomy(ud10.economy(fighter(), opts));
    e = spend(e, ACTIONS[2]!.cost);
    expect(() => spend(e, ACTIONS[0]!.cost)).toThrow(/action/);
  });

  it("UD-MOV-01: one step is instantaneous and costs nothing", () => {
    expect(ud10.movementBand(fighter(), 1.5, opts)).toMatchObject({ id: "step", cost: {} });
  });

  it("UD-MOV-02: standard movement reaches 5 m + STR and leaves the action", () => {
    const f = fighter(); // STR 3
    const band = ud10.movementBand(f, 8, opts)!;
    expect(band).toMatchObject({ id: "standard", maxMetres: 8 });
    const e = spend(createEconomy(ud10.economy(f, opts)), band.cost);
    expect(spend(e, { slots: { action: 1 } }).slots.action!.used).toBe(1);
  });

  it("UD-MOV-03: full movement reaches twice the standard distance and uses the action", () => {
    const f = fighter();
    const band = ud10.movementBand(f, 8.5, opts)!;
    expect(band).toMatchObject({ id: "full", maxMetres: 16 });
    const e = spend(createEconomy(ud10.economy(f, opts)), band.cost);
    expect(() => spend(e, { slots: { action: 1 } })).toThrow(FrayError);
    expect(ud10.movementBand(f, 16.5, opts)).toBeUndefined();
  });
});

describe("UD10 attacks", () => {
  const melee = (o: Partial<Ud10AttackInput> = {}): Ud10AttackInput => ({ attacker: fighter(), target: target(), weaponId: "sword", ...o });
  const shot = (o: Partial<Ud10AttackInput> = {}): Ud10AttackInput => ({
    attacker: fighter(),
    target: target(),
    weaponId: "rifle",
    rangeMetres: 20,
    ...o,
  });

  it("UD-ATK-01: the check is d10 + the weapon's skill + AM + situational modifiers", () => {
    const plan = ud10.planAttack(melee({ situation: { misc: 1 } }), opts);
    expect(plan.dice).toBe("1d10");
    expect(labels(plan.modifiers)).toEqual({ "FRAY.Mod.Skill": 5, "FRAY.Mod.AttackModifier": 1, "FRAY.Mod.Misc": 1 });
    const ranged = ud10.planAttack(shot(), opts);
    expect(ranged.modifiers[0]).toMatchObject({ value: 6, data: { skill: "FRAY.Skill.ranged" } });
  });

  it("UD-ATK-01: an untrained attacker rolls against the linked attribute", () => {
    const plan = ud10.planAttack(melee({ attacker: fighter({ skills: {} }) }), opts);
    expect(plan.modifiers[0]).toMatchObject({ label: "FRAY.Mod.Untrained", value: 3 });
  });

  it("UD-ATK-02: the attack hits when the check meets the defense rating", async () => {
    const input = melee(); // +6 against 10 + DEX 2 = 12
    const plan = ud10.planAttack(input, off);
    expect(plan.difficulty.total).toBe(12);
    const hit = await ud10.resolveAttack(plan, input, new ScriptedRoller([6]), off);
    expect(hit).toMatchObject({ hit: true, lands: true });
    expect(hit.check.total).toBe(12);
    const miss = await ud10.resolveAttack(plan, input, new ScriptedRoller([5]), off);
    expect(miss).toMatchObject({ hit: false, lands: false });
  });

  it("UD-ATK-03: defense is 10 + DEX; DEX does not count against an unanticipated attack", () => {
    expect(defenseRating(target())).toBe(12);
    expect(defenseRating(target(), { unanticipated: true })).toBe(10);
    expect(defenseRating(target({ conditions: ["surprised"] }))).toBe(10);
  });

  it("UD-DEF-01: shield +2, immobilized -2 without DEX, large -1, small +1", () => {
    const shield = { id: "shield", name: "Shield", kind: "melee", damage: "1d10", shield: true };
    expect(defenseRating(target({ weapons: [shield] }))).toBe(14);
    expect(defenseRating(target({ conditions: ["immobilized"] }))).toBe(8);
    expect(defenseRating(target({ size: "large" }))).toBe(11);
    expect(defenseRating(target({ size: "small" }))).toBe(13);
  });

  it("UD-COV-01: cover adds its rating to the defense", () => {
    const plan = ud10.planAttack(shot({ situation: { cover: 3 } }), opts);
    expect(plan.difficulty.total).toBe(15);
    expect(plan.difficulty.modifiers.find((m) => m.rule === "UD-COV-01")?.value).toBe(3);
  });

  it("UD-ATK-04: higher ground, aim, visibility, crouching, moving target, moving shooter", () => {
    expect(labels(ud10.planAttack(melee({ situation: { higherGround: true } }), opts).modifiers)["FRAY.Mod.HigherGround"]).toBe(-2);
    const all = ud10.planAttack(
      shot({ situation: { aim: 2, badVisibility: true, targetCrouching: true, targetMoving: true, shooterMoving: true } }),
      opts,
    );
    expect(labels(all.modifiers)).toMatchObject({
      "FRAY.Mod.Aim2": 4,
      "FRAY.Mod.BadVisibility": -2,
      "FRAY.Mod.TargetCrouching": -2,
      "FRAY.Mod.TargetMoving": -2,
      "FRAY.Mod.ShooterMoving": -4,
    });
    const fromConditions = ud10.planAttack(
      shot({ attacker: fighter({ conditions: ["aiming1", "moving"] }), target: target({ conditions: ["crouching"] }) }),
      opts,
    );
    expect(labels(fromConditions.modifiers)).toMatchObject({
      "FRAY.Mod.Aim1": 2,
      "FRAY.Mod.ShooterMoving": -4,
      "FRAY.Mod.TargetCrouching": -2,
    });
    // Ranged-only modifiers never apply to a melee attack.
    expect(ud10.planAttack(melee({ situation: { aim: 2, badVisibility: true } }), opts).modifiers).toHaveLength(2);
  });

  it("UD-RNG-01: -1 for each time the range increment is exceeded", () => {
    expect(rangePenalty(50, 50)).toBe(0);
    expect(rangePenalty(51, 50)).toBe(-1);
    expect(rangePenalty(100, 50)).toBe(-1);
    expect(rangePenalty(160, 50)).toBe(-3);
    const plan = ud10.planAttack(shot({ rangeMetres: 120 }), opts);
    expect(plan.modifiers.find((m) => m.rule === "UD-RNG-01")?.value).toBe(-2);
  });

  it("UD-RNG-02: a firing mode has its own damage code and modifier", async () => {
    const input = shot({ modeId: "burst" });
    const plan = ud10.planAttack(input, off);
    expect(labels(plan.modifiers)["FRAY.Mod.FiringMode"]).toBe(-1);
    const result = await ud10.resolveAttack(plan, input, new ScriptedRoller([10]), off);
    const dmg = await ud10.rollDamage(result, input, new ScriptedRoller([3, 4, 5]), off);
    expect(dmg.roll.formula).toBe("3d10x10 + 6");
    expect(dmg.amount).toBe(18);
    expect(() => ud10.planAttack(shot({ modeId: "laser" }), opts)).toThrow(expect.objectContaining({ key: "FRAY.Error.NoMode" }) as Error);
  });

  it("gives a localizable error for a weapon the attacker does not carry", () => {
    expect(() => ud10.planAttack(melee({ weaponId: "axe" }), opts)).toThrow(
      expect.objectContaining({ key: "FRAY.Error.NoWeapon" }) as Error,
    );
  });
});

describe("UD10 reactions", () => {
  const melee = (o: Partial<Ud10AttackInput> = {}): Ud10AttackInput => ({ attacker: fighter(), target: target(), weaponId: "sword", ...o });

  it("UD-REA-01: the one reaction of the round is spent and then not available", () => {
    const input = melee();
    const fresh = createEconomy(ud10.economy(input.target, opts));
    const parry = ud10.reactions(input, fresh, opts).find((r) => r.id === "parry")!;
    expect(parry.available).toBe(true);
    const used = spend(fresh, parry.cost);
    const again = ud10.reactions(input, used, opts).find((r) => r.id === "parry")!;
    expect(again).toMatchObject({ available: false, reason: "FRAY.Reason.ReactionUsed" });
    expect(() => ud10.planAttack({ ...input, reaction: "parry" }, opts, used)).toThrow(
      expect.objectContaining({ key: "FRAY.Error.ReactionUnavailable" }) as Error,
    );
  });

  it("UD-REA-02: parry needs a ready weapon; untrained parry rolls against DEX", () => {
    const unarmed = target({ weapons: [] });
    expect(ud10.reactions(melee({ target: unarmed }), undefined, opts)[0]).toMatchObject({
      available: false,
      reason: "FRAY.Reason.NoParryWeapon",
    });
    const trained = ud10.reactions(melee(), undefined, opts)[0]!;
    expect(trained.formula).toBe("1d10 + 4");
    const untrained = ud10.reactions(melee({ target: target({ skills: {} }) }), undefined, opts)[0]!;
    expect(untrained.formula).toBe("1d10 + 2");
    expect(untrained.modifiers[0]).toMatchObject({ label: "FRAY.Mod.Untrained", data: { attribute: "DEX" } });
  });

  it("UD-REA-03: a parry stops the attack only when its total is higher", async () => {
    const input = melee({ reaction: "parry" });
    const plan = ud10.planAttack(input, off);
    // Attack 7 + 6 = 13 hits 12. Parry 9 + 4 = 13 ties: the attack goes through.
    const tie = await ud10.resolveAttack(plan, input, new ScriptedRoller([7, 9]), off);
    expect(tie).toMatchObject({ hit: true, lands: true, reaction: { success: false } });
    const parried = await ud10.resolveAttack(plan, input, new ScriptedRoller([7, 10]), off);
    expect(parried).toMatchObject({ hit: true, lands: false, reaction: { id: "parry", success: true } });
    expect(parried.reaction!.check.total).toBe(14);
    // A miss needs no parry roll.
    const dice = new ScriptedRoller([1, 10]);
    const miss = await ud10.resolveAttack(plan, input, dice, off);
    expect(miss.reaction).toBeUndefined();
    expect(dice.remaining).toBe(1);
  });

  it("UD-REA-03: exact odds of getting through a declared parry", () => {
    const input = melee({ reaction: "parry" });
    const o = ud10.odds(ud10.planAttack(input, opts), input, opts);
    // Attack d10 + 6 vs 12 hits on 6-10: 0.5. Through: sum over a=12..16 of P(d10 + 4 <= a)/10.
    expect(o.hit).toBeCloseTo(0.5, 12);
    expect(o.throughReaction).toBeCloseTo((0.8 + 0.9 + 1 + 1 + 1) / 10, 12);
  });

  it("UD-REA-04: the GM may allow a dodge instead of a parry", async () => {
    expect(ud10.reactions(melee(), undefined, { ...opts, allowDodge: false }).map((r) => r.id)).toEqual(["parry"]);
    const input = melee({ target: target({ weapons: [] }), reaction: "dodge" });
    const plan = ud10.planAttack(input, off);
    expect(plan.reaction).toMatchObject({ id: "dodge", formula: "1d10 + 3" });
    const r = await ud10.resolveAttack(plan, input, new ScriptedRoller([6, 10]), off);
    expect(r).toMatchObject({ lands: false, reaction: { id: "dodge", success: true } });
  });
});

describe("UD10 damage", () => {
  it("UD-DMG-01: a damage code whose fixed points pass the dice limits is refused when the weapon is read", () => {
    expect(damageFormula("1000000+1d10")).toBe("1d10x10 + 1000000");
    expect(() => damageFormula("1000001+1d10")).toThrow(FrayError);
    expect(() => damageFormula("99999999")).toThrow(expect.objectContaining({ key: expect.stringMatching(/^FRAY\.Error\.Dice\./) }));
  });

  it("UD-DMG-01: damage codes are fixed points + N d10, every 10 rolled again", async () => {
    expect(parseDamageCode("3+2d10")).toEqual({ fixed: 3, dice: 2 });
    expect(parseDamageCode("2W10+3")).toEqual({ fixed: 3, dice: 2 });
    expect(damageFormula("3+2d10")).toBe("2d10x10 + 3");
    expect(damageFormula("d10")).toBe("1d10x10");
    expect(damageFormula("5")).toBe("5");
    for (const bad of ["", "3+", "2d6", "x", "3+2d10+1", "2d103", "0d10"])
      expect(() => parseDamageCode(bad), bad).toThrow(expect.objectContaining({ key: "FRAY.Error.DamageCode" }) as Error);
    const input: Ud10AttackInput = { attacker: fighter(), target: target(), weaponId: "sword" };
    const res = await ud10.resolveAttack(ud10.planAttack(input, off), input, new ScriptedRoller([9]), off);
    const dmg = await ud10.rollDamage(res, input, new ScriptedRoller([10, 10, 4]), off);
    expect(dmg.amount).toBe(3 + 10 + 10 + 4);
  });

  it("UD-DMG-02: damage minus the armor rating of the zone hit", () => {
    const r = ud10.applyDamage(target(), packet(10, { location: "torso" }), { ...off, bodyZones: true });
    expect(r.steps.find((s) => s.label === "FRAY.Step.Armor")).toMatchObject({ value: 4, remaining: 6 });
    expect(r.after.hp!.value).toBe(20 - (6 - 3));
  });

  it("UD-DMG-03: up to and including the buffer becomes EP loss; only the excess goes on", () => {
    const on = { ...off, bodyZones: true, buffer: true };
    // 9 - armor 4 = 5, exactly the buffer: all of it is EP loss, nothing reaches CON or HP.
    const exact = ud10.applyDamage(target(), packet(9, { location: "torso" }), on);
    expect(exact.after.ep!.value).toBe(10);
    expect(exact.after.hp!.value).toBe(20);
    // 13 - 4 = 9: 5 into EP, 4 on; CON 3 absorbs 3; 1 HP.
    const over = ud10.applyDamage(target(), packet(13, { location: "torso" }), on);
    expect(over.after.ep!.value).toBe(10);
    expect(over.after.hp!.value).toBe(19);
    expect(over.steps.map((s) => [s.label, s.value, s.remaining])).toEqual([
      ["FRAY.Step.Rolled", 0, 13],
      ["FRAY.Step.Armor", 4, 9],
      ["FRAY.Step.Buffer", 5, 4],
      ["FRAY.Step.Constitution", 3, 1],
      ["FRAY.Step.HitPoints", 1, 0],
    ]);
  });

  it("UD-DMG-03: EP at 0 leaves the combatant unconscious", () => {
    const r = ud10.applyDamage(target({ ep: { value: 3, max: 15 } }), packet(20, { location: "torso" }), { ...opts, penetration: false });
    expect(r.after.ep!.value).toBe(0);
    expect(r.added).toContain("unconscious");
    expect(ud10.isOut(r.after)).toBe(true);
  });

  it("UD-DMG-04: CON absorbs its rating, the rest comes off HP", () => {
    const r = ud10.applyDamage(target(), packet(7), off); // averaged armor: torso 4*1 + head 2 over 6 = 1
    expect(r.steps.find((s) => s.label === "FRAY.Step.Constitution")).toMatchObject({ value: 3 });
    expect(r.after.hp!.value).toBe(20 - 3);
    const dying = ud10.applyDamage(target({ hp: { value: 2, max: 20 } }), packet(30), off);
    expect(dying.after.hp!.value).toBeLessThanOrEqual(0);
    expect(dying.added).toContain("incapacitated");
  });

  it("UD-DMG-05: penetration lowers the armor, and the buffer when that rule is on", () => {
    const on = { ...opts, bodyZones: true, buffer: true, penetration: true };
    const r = ud10.applyDamage(target(), packet(13, { location: "torso", penetration: 2 }), on);
    // Armor 4-2 = 2 absorbs 2 (11 on); buffer 5-2 = 3 into EP (8 on); CON 3; 5 HP.
    expect(r.steps.map((s) => [s.label, s.value, s.remaining])).toEqual([
      ["FRAY.Step.Rolled", 0, 13],
      ["FRAY.Step.Penetration", 2, 13],
      ["FRAY.Step.Armor", 2, 11],
      ["FRAY.Step.Buffer", 3, 8],
      ["FRAY.Step.Constitution", 3, 5],
      ["FRAY.Step.HitPoints", 5, 0],
    ]);
    const ignored = ud10.applyDamage(target(), packet(13, { location: "torso", penetration: 2 }), { ...on, penetration: false });
    expect(ignored.after.hp!.value).toBe(19);
  });

  it("UD-ZON-01: a d10 picks the body zone and that zone's armor applies", async () => {
    expect([1, 2, 3, 4, 6, 7, 8, 9, 10].map(zoneForFace)).toEqual([
      "head",
      "leftArm",
      "rightArm",
      "torso",
      "torso",
      "leftLeg",
      "leftLeg",
      "rightLeg",
      "rightLeg",
    ]);
    const input: Ud10AttackInput = { attacker: fighter(), target: target(), weaponId: "sword" };
    const on = { ...opts, bodyZones: true };
    const res = await ud10.resolveAttack(ud10.planAttack(input, on), input, new ScriptedRoller([9, 1]), on);
    expect(res.location).toMatchObject({ id: "head", rule: "UD-ZON-01", label: "FRAY.Zone.head" });
    const leg = ud10.applyDamage(target(), packet(8, { location: "leftLeg" }), { ...on, buffer: false, penetration: false });
    expect(leg.steps.find((s) => s.label === "FRAY.Step.Armor")?.value).toBe(0);
  });

  it("UD-ZON-02: without body zones armor is averaged over all zones", async () => {
    expect(averagedArmor(target())).toEqual({ rating: 1, buffer: 1 }); // (4+2)/6, (5+3)/6 = 1.33
    const input: Ud10AttackInput = { attacker: fighter(), target: target(), weaponId: "sword" };
    const dice = new ScriptedRoller([9, 5]);
    const res = await ud10.resolveAttack(ud10.planAttack(input, off), input, dice, off);
    expect(res.location).toBeUndefined();
    expect(dice.remaining).toBe(1);
    const r = ud10.applyDamage(target(), packet(10, { location: "torso" }), off);
    expect(r.steps.find((s) => s.label === "FRAY.Step.Armor")).toMatchObject({ value: 1, data: { zone: "FRAY.Zone.averaged" } });
  });
});

describe("UD10 leaving melee", () => {
  it("UD-OPT-01: fleeing gives every engaged opponent a free attack", () => {
    const foes = [target({ id: "x" }), target({ id: "y" })];
    expect(disengage(foes, "flee", ud10Options(opts))).toMatchObject({ freeAttacks: ["x", "y"], rule: "UD-OPT-01" });
    expect(() => disengage(foes, "flee", { fleeing: false, retreat: true })).toThrow(
      expect.objectContaining({ key: "FRAY.Error.OptionOff" }) as Error,
    );
  });

  it("UD-OPT-02: retreating costs the whole round and gives no free attacks", () => {
    const d = disengage([target()], "retreat", ud10Options(opts));
    expect(d.freeAttacks).toEqual([]);
    const e = spend(createEconomy(ud10.economy(fighter(), opts)), d.cost);
    expect(() => spend(e, { slots: { action: 1 } })).toThrow(FrayError);
    expect(() => spend(e, { slots: { reaction: 1 } })).toThrow(FrayError);
  });
});
