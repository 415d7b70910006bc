import { describe, expect, it } from "vitest";
import type { AttackRequest, SituationValues } from "../../src/rules/core/contract.js";
import { ScriptedRoller } from "../../src/rules/core/dice/port.js";
import { createEconomy, spend } from "../../src/rules/core/economy.js";
import { FrayError } from "../../src/rules/core/errors.js";
import { attackStep, planStep } from "../../src/rules/core/step.js";
import {
  armorItemUpdates,
  BLACKOUT_CHECK,
  feetToMetres,
  forcedCheckDue,
  hitbox,
  hitboxCombatantFromActor,
  parseCombatant,
  type HitboxActorSource,
  type HitboxAttackRequest,
  type HitboxAttackResult,
  type HitboxCombatant,
  type HitboxReactionOption,
} from "../../src/rules/hitbox/index.js";
import { fixture } from "../contract/fixtures/hitbox.js";

const opts = hitbox.defaults();
const rs = {
  input: hitbox.input!,
  situation: hitbox.situation!,
  actions: hitbox.actions!,
  conditions: hitbox.conditions!,
  withVitals: hitbox.withVitals!,
  vitalsUpdate: hitbox.vitalsUpdate!,
  startRound: hitbox.startRound!,
  afterAction: hitbox.afterAction!,
  forcedCheck: hitbox.forcedCheck!,
};

/** Zeven of seed 002 with a two-shot pistol and a knife. */
function zeven(over: Record<string, unknown> = {}): HitboxCombatant {
  return parseCombatant({
    id: "zeven",
    name: "Zeven",
    abilities: { strength: 2, dexterity: 3, fortitude: 2 },
    skills: { firearms: 1, dodge: 1, melee: 1, blackout: 1 },
    weapons: [
      { id: "pistol", name: "Pistol", kind: "ranged", damage: 1, maxShots: 2, rangeFeet: 150 },
      { id: "knife", name: "Knife", kind: "melee", ability: "dexterity", damage: 1 },
    ],
    held: ["pistol"],
    ...over,
  });
}

/** The guard of seed 002: Dexterity 3, Dodge 1, Fortitude 3, Blackout 2, a baton to parry with, a vest. */
function guard(over: Record<string, unknown> = {}): HitboxCombatant {
  return parseCombatant({
    id: "guard",
    name: "Guard",
    kind: "npc",
    abilities: { strength: 2, dexterity: 3, fortitude: 3 },
    skills: { dodge: 1, parry: 1, blackout: 2 },
    weapons: [{ id: "baton", name: "Baton", kind: "melee", damage: 1 }],
    held: ["baton"],
    armor: [{ id: "vest", name: "Vest", protection: { torso: 1 } }],
    ...over,
  });
}

const request = (situation: SituationValues = {}, over: Partial<HitboxAttackRequest> = {}): HitboxAttackRequest => ({
  attackerId: "zeven",
  targetId: "guard",
  weaponId: "pistol",
  distanceMetres: 9.144, // 30 ft: no range line
  situation,
  ...over,
});
const plan = (r: AttackRequest, target = guard(), attacker = zeven()) => planStep(hitbox, r, attacker, target, opts).plan;
const mods = (r: AttackRequest, target?: HitboxCombatant) => Object.fromEntries(plan(r, target).modifiers.map((m) => [m.label, m.value]));
const fieldOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    if (e instanceof FrayError) return String(e.data.field ?? e.key);
    throw e;
  }
  return undefined;
};
const defaults = (target: HitboxCombatant, weaponId = "pistol"): SituationValues =>
  Object.fromEntries(rs.situation({ attacker: zeven(), target, weaponId, distanceMetres: 9.144 }, opts).map((f) => [f.id, f.default]));

/** Deep merge of a nested update into a source, as Foundry applies `{ system: { ... } }`. */
function merged(source: Record<string, unknown>, update: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...source };
  for (const [k, v] of Object.entries(update)) {
    const was = out[k];
    out[k] =
      v && typeof v === "object" && !Array.isArray(v) && was && typeof was === "object" && !Array.isArray(was)
        ? merged(was as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}

describe("Hitbox play contract: input", () => {
  it("HB-MOD-01: the distance arrives in metres and is worked in feet", () => {
    expect(rs.input(request({}, { distanceMetres: 4.572 }), zeven(), guard(), opts).rangeFeet).toBe(15);
    expect(mods(request({}, { distanceMetres: 4.572 }))["FRAY.Mod.HitboxClose"]).toBe(1);
    expect(mods(request({}, { distanceMetres: 9.144 }))).not.toHaveProperty(["FRAY.Mod.HitboxClose"]);
    expect(rs.input(request({}, { distanceMetres: 30.48 }), zeven(), guard(), opts).rangeFeet).toBe(100);
    expect(plan(request({}, { distanceMetres: 30.48 })).modifiers.find((m) => m.rule === "HB-MOD-01")?.value).toBe(-1);
    expect(plan(request({}, { distanceMetres: 30.48 * 1.01 })).modifiers.find((m) => m.rule === "HB-MOD-01")?.value).toBe(-2);
    // Feet measured as metres come back whole: 105 ft is within a 105 ft weapon's range.
    const rifle = zeven({ weapons: [{ id: "rifle", name: "Rifle", kind: "ranged", damage: 1, rangeFeet: 105 }], held: ["rifle"] });
    const at105 = request({}, { weaponId: "rifle", distanceMetres: feetToMetres(105) });
    expect(rs.input(at105, rifle, guard(), opts).rangeFeet).toBe(105);
    expect(() => plan(at105, guard(), rifle)).not.toThrow();
    expect(() => plan({ ...at105, distanceMetres: feetToMetres(106) }, guard(), rifle)).toThrow(
      expect.objectContaining({ key: "FRAY.Error.HitboxOutOfRange" }),
    );
  });

  it("HB-ATK-01, HB-MOD-03, HB-LOC-02: calledShot takes -2 and rolls on the called-shot table", async () => {
    expect(mods(request({ calledShot: "leftLeg" }))["FRAY.Mod.HitboxCalled"]).toBe(-2);
    expect(mods(request({ calledShot: "none" }))).not.toHaveProperty(["FRAY.Mod.HitboxCalled"]);
    const step = await attackStep(hitbox, request({ calledShot: "head" }), zeven(), guard(), new ScriptedRoller([6, 6, 5, 5]), opts);
    expect(step.result.location).toMatchObject({ id: "head", rule: "HB-LOC-02" });
  });

  it("HB-MOD-03: shots fired this turn take -2 per shot beyond the first", () => {
    expect(mods(request({ shots: 2 }))["FRAY.Mod.HitboxRapidFire"]).toBe(-2);
    expect(mods(request({ shots: 1 }))).not.toHaveProperty(["FRAY.Mod.HitboxRapidFire"]);
    expect(() => plan(request({ shots: 3 }))).toThrow(expect.objectContaining({ key: "FRAY.Error.HitboxShots" }));
  });

  it("HB-MOD-02: halfHidden, dark and targetProne take -1 each", () => {
    const m = mods(request({ halfHidden: true, dark: true, targetProne: true }));
    expect([m["FRAY.Mod.HitboxHidden"], m["FRAY.Mod.HitboxDark"], m["FRAY.Mod.HitboxProne"]]).toEqual([-1, -1, -1]);
    expect(mods(request({ halfHidden: false, dark: false, targetProne: false }))).toEqual(mods(request()));
  });

  it("HB-MOD-04, HB-ACT-04: a target prone since before the turn cannot dodge; one going prone this turn can", () => {
    expect(() => plan(request({ targetProne: true }, { reaction: "dodge" }))).toThrow(
      expect.objectContaining({ key: "FRAY.Error.ReactionUnavailable" }),
    );
    const going = guard({ conditions: ["goingProne"] });
    expect(defaults(going).targetWentProne).toBe(true);
    const p = planStep(hitbox, request({ targetWentProne: true }, { reaction: "dodge" }), zeven(), going, opts).plan;
    expect(p.reaction).toMatchObject({ id: "dodge", available: true });
  });

  it("HB-ATK-03: targetNearCover lets the defender dodge without dropping to the ground", () => {
    const input = (cover: boolean) => rs.input(request({ targetNearCover: cover }, { reaction: "dodge" }), zeven(), guard(), opts);
    const drops = (cover: boolean) => hitbox.reactions(input(cover), undefined, opts).find((r) => r.id === "dodge") as HitboxReactionOption;
    expect(drops(true).dropsProne).toBe(false);
    expect(drops(false).dropsProne).toBe(true);
  });

  it("HB-ATK-05: an unaware target cannot react; unaware and not threatened takes one more point", async () => {
    expect(() => plan(request({ targetUnaware: true }, { reaction: "dodge" }))).toThrow(
      expect.objectContaining({ key: "FRAY.Error.ReactionUnavailable" }),
    );
    const hit = (situation: SituationValues) =>
      attackStep(hitbox, request(situation), zeven(), guard(), new ScriptedRoller([6, 6, 2, 2]), opts);
    expect((await hit({ targetUnaware: true })).packet!.amount).toBe(2);
    expect((await hit({ targetUnaware: true, targetThreatened: true })).packet!.amount).toBe(1);
    expect((await hit({})).packet!.amount).toBe(1);
  });

  it("HB-ATK-02: misc adds the GM's modifier", () => {
    expect(mods(request({ misc: 2 }))["FRAY.Mod.HitboxMisc"]).toBe(2);
    expect(mods(request({ misc: 0 }))).not.toHaveProperty(["FRAY.Mod.HitboxMisc"]);
  });

  it("HB-ATK-03: a reaction already rolled this turn comes with the request and sets the difficulty", async () => {
    const first = (await attackStep(hitbox, request({}, { reaction: "dodge" }), zeven(), guard(), new ScriptedRoller([3, 3, 6, 6]), opts))
      .result as HitboxAttackResult;
    expect(first.rolledReaction!.check.total).toBe(16);
    const again = planStep(hitbox, request({}, { rolledReaction: first.rolledReaction }), zeven(), guard(), opts);
    expect(again.input.rolledReaction).toBe(first.rolledReaction);
    expect(again.plan.difficulty.total).toBe(16);
    expect(fieldOf(() => rs.input(request({}, { rolledReaction: { id: "block" } as never }), zeven(), guard(), opts))).toBe(
      "rolledReaction",
    );
  });

  it("HB-ATK-01: unknown situation fields and values of the wrong kind are refused naming the field", () => {
    const bad = (situation: SituationValues, over: Partial<HitboxAttackRequest> = {}) =>
      fieldOf(() => rs.input(request(situation, over), zeven(), guard(), opts));
    expect(bad({ fog: true })).toBe("situation.fog");
    expect(bad({ dark: "yes" })).toBe("situation.dark");
    expect(bad({ calledShot: "torso" })).toBe("situation.calledShot");
    expect(bad({ calledShot: true })).toBe("situation.calledShot");
    expect(bad({ shots: "2" })).toBe("situation.shots");
    expect(bad({ shots: 0 })).toBe("situation.shots");
    expect(bad({ misc: 1.5 })).toBe("situation.misc");
    expect(bad({ targetProne: 1 })).toBe("situation.targetProne");
    expect(bad({}, { distanceMetres: -1 })).toBe("distanceMetres");
    expect(bad({}, { reaction: "block" })).toBe("reaction");
    expect(bad({}, { modeId: "burst" })).toBe("modeId");
    expect(fieldOf(() => rs.input(request(), zeven(), undefined, opts))).toBe("targetId");
  });
});

describe("Hitbox play contract: situation fields", () => {
  it("HB-MOD-02, HB-ACT-04, HB-ATK-05: defaults come from the target's conditions", () => {
    expect(defaults(guard())).toMatchObject({
      calledShot: "none",
      shots: 1,
      targetProne: false,
      targetWentProne: false,
      targetUnaware: false,
      misc: 0,
    });
    expect(defaults(guard({ conditions: ["prone", "unaware"] }))).toMatchObject({ targetProne: true, targetUnaware: true });
  });

  it("HB-MOD-02, HB-ATK-05: giving the defaults explicitly plans the same attack as leaving them out", () => {
    for (const conditions of [[], ["prone"], ["unaware"], ["goingProne"], ["prone", "unaware"]]) {
      const target = guard({ conditions });
      expect(plan(request(defaults(target)), target)).toEqual(plan(request(), target));
    }
  });

  it("HB-MOD-03: shots is a field only for a weapon that fires more than one a turn, bounded by it", () => {
    const fields = rs.situation({ attacker: zeven(), target: guard(), weaponId: "pistol" }, opts);
    expect(fields.find((f) => f.id === "shots")).toMatchObject({
      kind: "number",
      min: 1,
      max: 2,
      default: 1,
      perTarget: false,
      rule: "HB-MOD-03",
    });
    const knife = rs.situation({ attacker: zeven(), target: guard(), weaponId: "knife" }, opts);
    expect(knife.map((f) => f.id)).not.toContain("shots");
    expect(fields.find((f) => f.id === "calledShot")!.choices!.map((c) => c.value)).toEqual([
      "none",
      "head",
      "leftArm",
      "rightArm",
      "leftLeg",
      "rightLeg",
      "groin",
    ]);
  });
});

describe("Hitbox play contract: actions and conditions", () => {
  it("HB-RND-01, HB-ACT-02, HB-ACT-03, HB-ATK-03: action costs in the turn's slots", () => {
    const cost = Object.fromEntries(rs.actions(zeven(), opts).map((a) => [a.id, a.cost]));
    expect(cost).toMatchObject({
      attack: { slots: { action: 1 } },
      task: { slots: { action: 1 } },
      step: {},
      walk: { slots: { action: 1 } },
      run: { slots: { action: 1 } },
      draw: { slots: { quick: 1 } },
      prone: { slots: { quick: 1 } },
      dodge: { slots: { reaction: 1 } },
      parry: { slots: { reaction: 1 } },
    });
    const e = createEconomy(hitbox.economy(zeven(), opts));
    expect(() => spend(spend(e, cost.attack!), cost.run!)).toThrow(FrayError);
    expect(() => spend(spend(e, cost.step!), cost.attack!)).not.toThrow();
    const lame = zeven({ hitboxes: { leftLeg: { value: 0, max: 2 } } });
    expect(rs.actions(lame, opts).filter((a) => a.kind === "move")).toEqual([]);
  });

  it("HB-DMG-04, HB-DMG-01: the conditions marked out are exactly those that put a combatant out", () => {
    const specs = rs.conditions();
    expect(specs.map((s) => s.id)).toEqual(["prone", "goingProne", "unaware", "medicated", "shock", "unconscious", "dead"]);
    for (const s of specs) {
      expect(s.icon).toMatch(/^icons\/svg\/.+\.svg$/);
      expect(hitbox.isOut(hitbox.vitals(zeven({ conditions: [s.id] })))).toBe(Boolean(s.out));
    }
  });
});

describe("Hitbox play contract: the turn's lifecycle", () => {
  it("HB-RND-01, HB-ACT-04: a new turn brings a fresh economy, and going prone last turn means prone now", () => {
    const spent = spend(createEconomy(hitbox.economy(zeven(), opts)), { slots: { action: 1, reaction: 1 } });
    const start = rs.startRound(zeven({ conditions: ["goingProne"] }), spent, 2, opts);
    expect(start.economy.slots).toMatchObject({ action: { used: 0 }, reaction: { used: 0 } });
    expect(start.combatant.conditions).toEqual(["prone"]);
    expect(start.events.map((e) => e.rule)).toEqual(["HB-ACT-04"]);
    expect(rs.startRound(zeven(), undefined, 1, opts).events).toEqual([]);
  });

  it("HB-RND-01, HB-ACT-03, HB-ATK-03: each turn's economy is the turn's slots as createEconomy builds them, a new one every turn", () => {
    const a = rs.startRound(zeven(), undefined, 1, opts).economy;
    const b = rs.startRound(zeven(), undefined, 2, opts).economy;
    expect(a).toStrictEqual(createEconomy(hitbox.economy(zeven(), opts)));
    expect(JSON.stringify(a)).toBe(JSON.stringify(createEconomy(hitbox.economy(zeven(), opts))));
    expect(b).toStrictEqual(a);
    expect(b).not.toBe(a);
    expect(b.slots.action).not.toBe(a.slots.action);
  });

  it("HB-DMG-04, HB-RND-02: in shock with N turns set, death comes on the turn after the N turns that follow the shock", () => {
    const o = { ...opts, hitboxShockTurns: 2 };
    let c = zeven({ conditions: ["shock"] }); // went into shock during turn 1
    const dead: number[] = [];
    for (let turn = 2; turn <= 5; turn++) {
      c = rs.startRound(c, undefined, turn, o).combatant;
      if (c.conditions.includes("dead")) dead.push(turn);
    }
    expect(dead[0]).toBe(4); // lives turns 2 and 3
    expect(c.shockTurnsLeft).toBeUndefined();
    const none = rs.startRound(zeven({ conditions: ["shock"] }), undefined, 2, opts); // setting 0: the GM decides
    expect(none.combatant.conditions).toEqual(["shock"]);
    expect(none.combatant.shockTurnsLeft).toBeUndefined();
    const treated = rs.startRound(zeven({ shockTurnsLeft: 1 }), undefined, 3, o);
    expect(treated.combatant.shockTurnsLeft).toBeUndefined();
  });

  it("HB-RND-01, HB-MOD-03: an attack takes the action once; further shots of the turn cost nothing more", async () => {
    const step = await attackStep(hitbox, request({ shots: 2 }), zeven(), guard(), new ScriptedRoller([1, 1]), opts);
    const outcome = { kind: "attack" as const, weaponId: "pistol", result: step.result };
    const e0 = createEconomy(hitbox.economy(zeven(), opts));
    const e1 = rs.afterAction(zeven(), outcome, e0, opts).economy;
    expect(e1.slots.action!.used).toBe(1);
    expect(rs.afterAction(zeven(), outcome, e1, opts).economy.slots.action!.used).toBe(1);
  });

  it("HB-ATK-03, HB-ACT-04: the attack's target spends its reaction; a dodge without cover drops it to the ground", async () => {
    const dodge = async (situation: SituationValues) => {
      const step = await attackStep(
        hitbox,
        request(situation, { reaction: "dodge" }),
        zeven(),
        guard(),
        new ScriptedRoller([1, 1, 3, 3]),
        opts,
      );
      return rs.afterAction(
        guard(),
        { kind: "attack", weaponId: "pistol", result: step.result },
        createEconomy(hitbox.economy(guard(), opts)),
        opts,
      );
    };
    const open = await dodge({});
    expect(open.economy.slots.reaction!.used).toBe(1);
    expect(open.combatant.conditions).toEqual(["goingProne"]);
    const covered = await dodge({ targetNearCover: true });
    expect(covered.economy.slots.reaction!.used).toBe(1);
    expect(covered.combatant.conditions).toEqual([]);
    // The next turn the dropped dodger lies prone and can no longer dodge (HB-MOD-04).
    const next = rs.startRound(open.combatant, open.economy, 2, opts).combatant;
    expect(() => plan(request({}, { reaction: "dodge" }), next)).toThrow(
      expect.objectContaining({ key: "FRAY.Error.ReactionUnavailable" }),
    );
  });

  it("HB-ACT-03, HB-ACT-04, HB-RND-01: after a quick action or a move the economy comes back as the host paid it; going prone marks goingProne; unknown actions are refused", () => {
    const e = createEconomy(hitbox.economy(zeven(), opts));
    const prone = rs.afterAction(zeven(), { kind: "action", id: "prone" }, e, opts);
    expect(prone.combatant.conditions).toEqual(["goingProne"]);
    expect(prone.economy.slots.quick!.used).toBe(0);
    expect(rs.afterAction(zeven(), { kind: "action", id: "communicate" }, e, opts).combatant.conditions).toEqual([]);
    expect(rs.afterAction(zeven(), { kind: "action", id: "walk" }, e, opts).economy).toEqual(e);
    expect(fieldOf(() => rs.afterAction(zeven(), { kind: "action", id: "fly" }, e, opts))).toBe("outcome.id");
    expect(() => rs.afterAction(zeven({ conditions: ["shock"] }), { kind: "action", id: "prone" }, e, opts)).toThrow(
      expect.objectContaining({ key: "FRAY.Error.CannotAct" }),
    );
  });
});

describe("Hitbox play contract: forced Blackout test", () => {
  it("HB-DMG-04: 5 + Fortitude 3 + Blackout 2 = 10 fails against 12 and means shock", async () => {
    const r = await rs.forcedCheck(guard(), BLACKOUT_CHECK, new ScriptedRoller([2, 3]), opts);
    expect([r.check.natural, r.check.total, r.needed, r.success]).toEqual([5, 10, 12, false]);
    expect(r.report.added).toEqual(["shock"]);
    expect(hitbox.isOut(r.report.after)).toBe(true);
    const pass = await rs.forcedCheck(guard(), BLACKOUT_CHECK, new ScriptedRoller([3, 4]), opts);
    expect([pass.check.total, pass.success, pass.report.added]).toEqual([12, true, []]);
  });

  it("HB-DMG-04, HB-DMG-01: the test's report holds the vital states of the combatant before and after, as vitals reads them", async () => {
    // Hurt, with armor used up in two pieces and a shock count running: only the conditions change.
    const hurt = guard({
      hitboxes: { torso: { value: 1, max: 3 }, leftArm: { value: 0, max: 2 } },
      armor: [
        { id: "vest", name: "Vest", protection: { torso: 1, leftArm: 1 }, damage: { torso: 1 } },
        { id: "plate", name: "Plate", protection: { torso: 2 }, damage: { torso: 1 } },
      ],
      shockTurnsLeft: 2,
    });
    const failed = await rs.forcedCheck(hurt, BLACKOUT_CHECK, new ScriptedRoller([1, 1]), opts);
    expect(failed.report.before).toStrictEqual(hitbox.vitals(hurt));
    expect(failed.report.after).toStrictEqual(hitbox.vitals({ ...hurt, conditions: ["shock"] }));
    expect(failed.report.after.hitboxes!.torso).not.toBe(failed.report.before.hitboxes!.torso);
    const passed = await rs.forcedCheck(hurt, BLACKOUT_CHECK, new ScriptedRoller([6, 6]), opts);
    expect(passed.report.after).toStrictEqual(hitbox.vitals(hurt));
    // Written back, the state after keeps the armor as worn (shared when no piece changes) and adds shock.
    const back = rs.withVitals(hurt, failed.report.after);
    expect(back.armor).toStrictEqual(hurt.armor);
    expect(back.conditions).toEqual(["shock"]);
    expect(hitbox.vitals(back)).toStrictEqual(failed.report.after);
    const moved = rs.withVitals(hurt, { ...failed.report.after, armor: { torso: { value: 0, max: 3 }, leftArm: { value: 1, max: 1 } } });
    expect(moved.armor.map((a) => a.damage.torso)).toEqual([1, 2]);
    expect(hurt.armor.map((a) => a.damage.torso)).toEqual([1, 1]);
  });

  it("HB-DMG-04: the head hit's forced check is the one applyDamage reports; none for someone in shock", async () => {
    const step = await attackStep(hitbox, request({ calledShot: "head" }), zeven(), guard(), new ScriptedRoller([6, 6, 6, 6]), opts);
    const forced = step.report!.forced![0]!;
    expect(forced).toMatchObject({ id: "blackout", difficulty: 12 });
    expect(forcedCheckDue(step.target!, forced)).toBe(true);
    const shocked = guard({ conditions: ["shock"] });
    expect(forcedCheckDue(shocked, forced)).toBe(false);
    await expect(rs.forcedCheck(shocked, forced, new ScriptedRoller([6, 6]), opts)).rejects.toMatchObject({
      key: "FRAY.Error.HitboxNoBlackout",
    });
    await expect(rs.forcedCheck(guard(), { ...forced, id: "stun" }, new ScriptedRoller([6, 6]), opts)).rejects.toMatchObject({
      data: { field: "forced.id" },
    });
  });
});

describe("Hitbox play contract: vitals", () => {
  it("HB-DMG-01: vitalsUpdate writes the hitboxes back so that the actor source reads the same vitals", async () => {
    const step = await attackStep(hitbox, fixture.request, fixture.attacker, fixture.target, new ScriptedRoller(fixture.hitFaces), opts);
    const after = step.report!.after;
    expect(after.hitboxes!.leftArm).toEqual({ value: 1, max: 2 });
    const update = rs.vitalsUpdate(after);
    expect(Object.keys(update)).toEqual(["system"]);
    expect(JSON.stringify(update)).not.toMatch(/"[^"]*\.[^"]*":/);
    const reread = fixture.fromSource(merged(fixture.targetSource, update));
    expect(hitbox.vitals(reread)).toEqual(after);
    expect(hitbox.vitals(rs.withVitals(fixture.target, after))).toEqual(after);
  });

  it("HB-DMG-04, HB-RND-02: the turns left in shock survive the round trip through the actor source", () => {
    const o = { ...opts, hitboxShockTurns: 3 };
    const counting = rs.startRound(guard({ conditions: ["shock"] }), undefined, 2, o).combatant;
    const state = hitbox.vitals(counting);
    expect(state.effects).toMatchObject([{ kind: "shock", rounds: 2, rule: "HB-DMG-04" }]);
    expect(hitbox.vitals(rs.withVitals(guard(), state))).toEqual(state);
    const update = rs.vitalsUpdate(state) as { system: { shockTurnsLeft: number | null } };
    expect(update.system.shockTurnsLeft).toBe(2);
    const source = merged(fixture.targetSource, update);
    expect(fixture.fromSource(source).shockTurnsLeft).toBe(2);
    expect((rs.vitalsUpdate(hitbox.vitals(guard())) as { system: { shockTurnsLeft: number | null } }).system.shockTurnsLeft).toBeNull();
  });

  it("HB-DMG-01: the armor points used up go to the armor items", async () => {
    const target = hitboxCombatantFromActor(fixture.targetSource as unknown as HitboxActorSource);
    const step = await attackStep(hitbox, request({}, { distanceMetres: 4.572 }), zeven(), target, new ScriptedRoller([6, 6, 4, 4]), opts); // torso
    expect(step.report!.after.armor).toEqual({ torso: { value: 0, max: 1 } });
    expect(armorItemUpdates(target, step.target!)).toEqual([
      { _id: "vest", system: { damage: expect.objectContaining({ torso: 1, head: 0 }) } },
    ]);
  });

  it("HB-ATK-04: the contract fixture's hit lands and changes the target's vitals; its miss faces miss", async () => {
    const hit = await attackStep(hitbox, fixture.request, fixture.attacker, fixture.target, new ScriptedRoller(fixture.hitFaces), opts);
    expect(hit.result.lands).toBe(true);
    expect(hit.report!.after).not.toEqual(hit.report!.before);
    const miss = await attackStep(hitbox, fixture.request, fixture.attacker, fixture.target, new ScriptedRoller(fixture.missFaces), opts);
    expect(miss.result.hit).toBe(false);
  });
});
