import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContentIndex } from "../../src/encounter/content.js";
import { playEncounter } from "../../src/encounter/engine.js";
import { parseEncounter } from "../../src/encounter/schema.js";
import type { EncounterEvent } from "../../src/encounter/types.js";
import type { AttackRequest, SituationValues } from "../../src/rules/core/contract.js";
import { ScriptedRoller } from "../../src/rules/core/dice/port.js";
import { createEconomy, spend } from "../../src/rules/core/economy.js";
import type { ActorSource } from "../../src/rules/core/sources.js";
import { attackStep, planStep } from "../../src/rules/core/step.js";
import type { AttackPlan } from "../../src/rules/core/ruleset.js";
import {
  parseCombatant,
  zones,
  zonesCombatantFromActor,
  type ZonesAttackResult,
  type ZonesCombatant,
  type ZonesDamagePacket,
} from "../../src/rules/zones/index.js";

const opts = zones.defaults();
const content = new ContentIndex(join(import.meta.dirname, "..", "..", "packs", "_source"));

/** DEX +1, PER +1, Firearms 3 (d10 + 5 ranged), STR +1, Melee 2 (d10 + 4 melee); 8 speed, 4 effort. */
function shooter(overrides: Record<string, unknown> = {}): ZonesCombatant {
  return parseCombatant({
    id: "s",
    name: "Sam",
    attributes: { STR: 1, DEX: 1, CON: 0, PER: 1 },
    skills: { firearms: 3, melee: 2, throwing: 2, dodge: 1 },
    hp: 30,
    speed: 8,
    effort: 4,
    actions: { action: 2 },
    weapons: [
      {
        id: "rifle",
        name: "Rifle",
        kind: "firearm",
        effectiveRange: 300,
        damage: "2d6+2",
        damageTypes: ["piercing", "bludgeoning"],
        recoil: 2,
        burst: 3,
        auto: true,
        magazine: 30,
      },
      { id: "pistol", name: "Pistol", kind: "firearm", effectiveRange: 50, damage: "1d6+2", damageTypes: ["piercing"], magazine: 15 },
      { id: "knife", name: "Knife", kind: "melee", damage: "1d6", damageTypes: ["piercing", "slashing"] },
      { id: "axe", name: "Throwing Axe", kind: "thrown", effectiveRange: 16, damage: "1d6+2", damageTypes: ["slashing"] },
      {
        id: "frag",
        name: "Frag",
        kind: "grenade",
        effectiveRange: 30,
        damage: "2d6",
        damageTypes: ["bludgeoning", "piercing"],
        effectiveRadius: 5,
        casualtyRadius: 15,
      },
      {
        id: "frag",
        name: "Frag",
        kind: "grenade",
        effectiveRange: 30,
        damage: "2d6",
        damageTypes: ["bludgeoning", "piercing"],
        effectiveRadius: 5,
        casualtyRadius: 15,
      },
    ],
    ...overrides,
  });
}

/** A standing human: DEX +1, Dodge 2; 30 HP, no armor. */
function target(overrides: Record<string, unknown> = {}): ZonesCombatant {
  return parseCombatant({
    id: "t",
    name: "Tal",
    kind: "npc",
    attributes: { STR: 1, DEX: 1, CON: 1, PER: 0 },
    skills: { dodge: 2 },
    hp: 30,
    ...overrides,
  });
}

/** A rifle shot at 100 m (far band of 300 m: a medium target is +4). */
const shot = (situation: SituationValues = {}, more: Partial<AttackRequest> = {}): AttackRequest => ({
  attackerId: "s",
  targetId: "t",
  weaponId: "rifle",
  distanceMetres: 100,
  situation,
  ...more,
});

/** The plan of a request; `null` plans it without a target. */
const plan = (request: AttackRequest, a = shooter(), t: ZonesCombatant | null = target()): AttackPlan =>
  planStep(zones, request, a, t ?? undefined, opts).plan;
const lines = (p: AttackPlan) => p.difficulty.modifiers.map((m) => [m.rule, m.value]);
const fieldOf = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (error) {
    return (error as { data?: { field?: unknown } }).data?.field;
  }
  return undefined;
};

describe("Zones play contract: attack input from a neutral request", () => {
  it("ZN-RNG-01, ZN-RNG-02, ZN-RNG-08: the distance in metres is the range; the plan is the core's", () => {
    const p = plan(shot());
    expect(p.difficulty.total).toBe(5 + 4 - 1);
    expect(lines(p)).toEqual([
      ["ZN-RNG-03", 4],
      ["ZN-RNG-05", -1],
    ]);
    expect(plan(shot({}, { distanceMetres: 20 })).difficulty.modifiers[0]).toMatchObject({
      value: 1,
      data: { band: "FRAY.Zones.Band.close" },
    });
    expect(p.modifiers.reduce((t, m) => t + m.value, 0)).toBe(5);
  });

  it("ZN-RNG-06, ZN-RNG-03: targetSize sets the target's size on the table", () => {
    expect(plan(shot({ targetSize: "small" })).difficulty.modifiers[0]).toMatchObject({ rule: "ZN-RNG-03", value: 8 });
    expect(plan(shot({ targetSize: "large" })).difficulty.modifiers[0]).toMatchObject({ value: -4 });
  });

  it("ZN-RNG-04: targetMovement and shooterMovement add their lines", () => {
    expect(lines(plan(shot({ targetMovement: "fast", shooterMovement: "slow" })))).toEqual([
      ["ZN-RNG-03", 4],
      ["ZN-RNG-04", 4],
      ["ZN-RNG-04", 2],
      ["ZN-RNG-05", -1],
    ]);
    expect(plan(shot({ targetMovement: "still" })).difficulty.total).toBe(8 - 2);
  });

  it("ZN-RNG-05: stance is the shooter's stance", () => {
    expect(plan(shot({ stance: "proneFiring" })).difficulty.modifiers.at(-1)).toMatchObject({ rule: "ZN-RNG-05", value: -3 });
    expect(plan(shot({ stance: "prone" })).difficulty.total).toBe(5 + 4 + 2);
  });

  it("ZN-RNG-07: aim lowers the difficulty by 2 per aiming action", () => {
    expect(plan(shot({ aim: 2 })).difficulty.modifiers.at(-1)).toMatchObject({ rule: "ZN-RNG-07", value: -4 });
  });

  it("ZN-RNG-01: environment, environmentModifier and misc add to the difficulty", () => {
    const p = plan(shot({ environment: ["lowLight", "darkness"], environmentModifier: 3, misc: -2 }));
    expect(p.difficulty.total).toBe(8 + 1 + 4 + 3 - 2);
    expect(p.difficulty.modifiers.map((m) => m.label)).toEqual(
      expect.arrayContaining(["FRAY.Mod.Zones.LowLight", "FRAY.Mod.Zones.Darkness", "FRAY.Mod.Zones.Environment", "FRAY.Mod.Zones.Misc"]),
    );
    const melee = plan(shot({ misc: 3 }, { weaponId: "knife", distanceMetres: 1 }));
    expect(melee.difficulty.total).toBe(5 + 3);
  });

  it("ZN-ZON-03: aimedZone shrinks the target one step for a body part, two for a vital organ; none aims at nothing", () => {
    expect(plan(shot({ aimedZone: "head" })).difficulty.modifiers[0]).toMatchObject({ value: 8, data: { size: "FRAY.Zones.Size.small" } });
    expect(plan(shot({ aimedZone: "heart" })).difficulty.modifiers[0]).toMatchObject({ value: 12, data: { size: "FRAY.Zones.Size.tiny" } });
    expect(plan(shot({ aimedZone: "none" }))).toEqual(plan(shot()));
  });

  it("ZN-MEL-02: surprise allows the defender no dodge", () => {
    const knife = (situation: SituationValues) => shot(situation, { weaponId: "knife", distanceMetres: 1, reaction: "dodge" });
    expect(plan(knife({})).reaction?.id).toBe("dodge");
    expect(() => plan(knife({ surprise: true }))).toThrow(expect.objectContaining({ key: "FRAY.Error.ReactionUnavailable" }));
  });

  it("ZN-VIT-03, ZN-DMG-01: exposedVitals and damageType reach the damage: a slash to the exposed brain does full damage", async () => {
    const request = shot({ damageType: "slashing", exposedVitals: true }, { weaponId: "knife", distanceMetres: 1 });
    // Attack 9 + 4 = 13 against 5; zone 6 + 6 = 12 (brain); 1d6 = 4, x6.
    const step = await attackStep(zones, request, shooter(), target(), new ScriptedRoller([9, 6, 6, 4]), opts);
    expect(step.packet).toMatchObject({ type: "slashing", location: "brain", exposedVitals: true });
    expect(step.report!.steps.map((s) => s.label)).toContain("FRAY.Step.Zones.VitalFull");
    expect(step.report!.after.hp!.value).toBe(30 - 24);
    const covered = await attackStep(
      zones,
      { ...request, situation: { damageType: "slashing" } },
      shooter(),
      target(),
      new ScriptedRoller([9, 6, 6, 4]),
      opts,
    );
    expect(covered.report!.steps.map((s) => s.label)).toContain("FRAY.Step.Zones.VitalSurrounding");
  });

  it("ZN-BST-01: modeId burst fires the burst, auto the bullets asked for", async () => {
    expect(planStep(zones, shot({}, { modeId: "burst" }), shooter(), target(), opts).odds.outcomes).toHaveProperty("bullet3");
    const auto = await attackStep(zones, shot({ bullets: 5 }, { modeId: "auto" }), shooter(), target(), new ScriptedRoller([1]), opts);
    expect(auto.result.bullets).toMatchObject({ fired: 5, difficulties: [8, 10, 12, 14, 16] });
    expect(() => zones.input!(shot({}, { modeId: "volley" }), shooter(), target(), opts)).toThrow(
      expect.objectContaining({ key: "FRAY.Error.NoMode" }),
    );
  });

  it("ZN-MAL-01: malfunction and malfunctionAfter stop the burst after the bullets that left", async () => {
    const step = await attackStep(
      zones,
      shot({ malfunction: "stovepipe", malfunctionAfter: 2 }, { modeId: "burst" }),
      shooter(),
      target(),
      new ScriptedRoller([1]),
      opts,
    );
    expect(step.result.bullets).toMatchObject({ fired: 2, stoppedBy: "FRAY.Zones.Malfunction.stovepipe" });
    const none = await attackStep(
      zones,
      shot({ malfunction: "none" }, { modeId: "burst" }),
      shooter(),
      target(),
      new ScriptedRoller([1]),
      opts,
    );
    expect(none.result.bullets).toMatchObject({ fired: 3 });
    expect(none.result.bullets?.stoppedBy).toBeUndefined();
  });

  it("ZN-GRN-01: a grenade without a target is thrown at an area of areaSize, medium by default", () => {
    const throwAt = (situation: SituationValues) =>
      plan({ attackerId: "s", weaponId: "frag", distanceMetres: 20, situation }, shooter(), null);
    // 20 m of 30: maximum band; a medium area +6, a large one -2.
    expect(throwAt({}).difficulty.modifiers[0]).toMatchObject({ value: 6, data: { size: "FRAY.Zones.Size.medium" } });
    expect(throwAt({ areaSize: "large" }).difficulty.modifiers[0]).toMatchObject({ value: -2 });
    expect(throwAt({}).targetId).toBe("area");
  });

  it("refuses unknown situation fields, values of the wrong kind and unknown reactions, naming the field", () => {
    const input =
      (situation: SituationValues, more: Partial<AttackRequest> = {}) =>
      () =>
        zones.input!(shot(situation, more), shooter(), target(), opts);
    expect(fieldOf(input({ cover: 2 }))).toBe("situation.cover");
    expect(fieldOf(input({ aim: "two" }))).toBe("situation.aim");
    expect(fieldOf(input({ aim: 1.5 }))).toBe("situation.aim");
    expect(fieldOf(input({ targetSize: "giant" }))).toBe("situation.targetSize");
    expect(fieldOf(input({ environment: "lowLight" }))).toBe("situation.environment");
    expect(fieldOf(input({ environment: ["fog"] }))).toBe("situation.environment[0]");
    expect(fieldOf(input({ surprise: "yes" }))).toBe("situation.surprise");
    expect(fieldOf(input({ misc: "3" }))).toBe("situation.misc");
    expect(fieldOf(input({ malfunction: "jam" }))).toBe("situation.malfunction");
    expect(fieldOf(input({ malfunction: "stovepipe", malfunctionAfter: -1 }))).toBe("situation.malfunctionAfter");
    expect(fieldOf(input({ bullets: 1 }))).toBe("situation.bullets");
    expect(fieldOf(input({ damageType: "fire" }))).toBe("situation.damageType");
    expect(fieldOf(input({ areaSize: 3 }))).toBe("situation.areaSize");
    expect(fieldOf(input({}, { reaction: "parry" }))).toBe("reaction");
    expect(() => input({ cover: 2 })()).toThrow(expect.objectContaining({ key: "FRAY.Error.Field" }));
  });
});

describe("Zones play contract: situation fields", () => {
  const ids = (c: Parameters<NonNullable<typeof zones.situation>>[0]) => zones.situation!(c, opts).map((f) => f.id);
  const defaults = (c: Parameters<NonNullable<typeof zones.situation>>[0]) =>
    Object.fromEntries(zones.situation!(c, opts).map((f) => [f.id, f.default]));

  it("ZN-RNG-01, ZN-MEL-01, ZN-BST-01, ZN-GRN-01: only the fields that apply to the weapon and attack", () => {
    const a = shooter();
    const t = target();
    expect(ids({ attacker: a, target: t, weaponId: "rifle", modeId: "burst", distanceMetres: 100 })).toEqual([
      "targetSize",
      "targetMovement",
      "shooterMovement",
      "stance",
      "aim",
      "environment",
      "environmentModifier",
      "misc",
      "aimedZone",
      "malfunction",
      "malfunctionAfter",
      "damageType",
    ]);
    expect(ids({ attacker: a, target: t, weaponId: "rifle", modeId: "auto" })).toContain("bullets");
    expect(ids({ attacker: a, target: t, weaponId: "pistol" })).not.toContain("damageType");
    expect(ids({ attacker: a, target: t, weaponId: "knife", distanceMetres: 1 })).toEqual([
      "misc",
      "surprise",
      "exposedVitals",
      "damageType",
    ]);
    expect(ids({ attacker: a, weaponId: "frag", distanceMetres: 20 })).toEqual([
      "shooterMovement",
      "stance",
      "aim",
      "environment",
      "environmentModifier",
      "misc",
      "areaSize",
    ]);
    const perTarget = zones.situation!({ attacker: a, target: t, weaponId: "rifle" }, opts)
      .filter((f) => f.perTarget)
      .map((f) => f.id);
    expect(perTarget).toEqual(["targetSize", "targetMovement", "aimedZone"]);
  });

  it("ZN-RNG-04, ZN-RNG-05, ZN-RNG-06, ZN-RNG-07, ZN-MEL-02: defaults come from the combatants' state and conditions", () => {
    const a = shooter({ stance: "kneeling", movement: "fast", aim: 2 });
    const bound = target({ stance: "kneeling", conditions: ["bound"] });
    expect(defaults({ attacker: a, target: bound, weaponId: "rifle" })).toMatchObject({
      targetSize: "small",
      targetMovement: "still",
      shooterMovement: "fast",
      stance: "kneeling",
      aim: 2,
    });
    expect(defaults({ attacker: a, target: target({ movement: "slow" }), weaponId: "rifle" })).toMatchObject({
      targetMovement: "slow",
      targetSize: "medium",
    });
    expect(defaults({ attacker: a, target: target({ conditions: ["unaware"] }), weaponId: "knife" })).toMatchObject({ surprise: true });
    expect(defaults({ attacker: a, target: target(), weaponId: "knife" })).toMatchObject({ surprise: false, damageType: "piercing" });
    expect(defaults({ attacker: a, target: target(), weaponId: "rifle", modeId: "auto" })).toMatchObject({
      bullets: 10,
      malfunction: "none",
      aimedZone: "none",
      environment: [],
    });
  });

  it("ZN-RNG-04, ZN-RNG-07, ZN-MEL-02, ZN-GRN-01: the defaults given explicitly plan the same attack as leaving them out", () => {
    const a = shooter({ stance: "kneeling", movement: "slow", aim: 1 });
    const cases: [AttackRequest, ZonesCombatant | undefined][] = [
      [shot({}, { modeId: "burst" }), target({ stance: "prone", conditions: ["bound"] })],
      [shot({}, { modeId: "auto" }), target({ movement: "fast" })],
      [shot({}, { weaponId: "knife", distanceMetres: 1, reaction: "dodge" }), target()],
      [shot({}, { weaponId: "knife", distanceMetres: 1 }), target({ conditions: ["unaware"] })],
      [{ attackerId: "s", weaponId: "frag", distanceMetres: 20 }, undefined],
    ];
    for (const [request, t] of cases) {
      const context = {
        attacker: a,
        target: t,
        weaponId: request.weaponId,
        modeId: request.modeId,
        distanceMetres: request.distanceMetres,
      };
      const given = Object.fromEntries(zones.situation!(context, opts).map((f) => [f.id, f.default]));
      const omitted = planStep(zones, request, a, t, opts);
      const explicit = planStep(zones, { ...request, situation: given }, a, t, opts);
      expect(explicit.plan, request.weaponId).toEqual(omitted.plan);
      expect(explicit.odds, request.weaponId).toEqual(omitted.odds);
    }
  });
});

describe("Zones play contract: actions and conditions", () => {
  const byId = (c: ZonesCombatant, options = opts) => Object.fromEntries(zones.actions!(c, options).map((a) => [a.id, a]));

  it("ZN-ACT-02, ZN-RNG-07, ZN-MEL-03, ZN-MOV-03: every action takes the action; moving only with the option", () => {
    const actions = byId(shooter());
    for (const id of ["useItem", "attack", "aim", "skill", "regainSpeed", "dodge", "clearMalfunction", "reload", "draw", "move"]) {
      expect(actions[id]!.cost, id).toEqual({ slots: { action: 1 } });
    }
    expect(actions.attack).toMatchObject({ kind: "attack", target: "one", rule: "ZN-ACT-02" });
    expect(actions.aim).toMatchObject({ rule: "ZN-RNG-07", target: "one" });
    expect(actions.dodge).toMatchObject({ kind: "reaction", rule: "ZN-MEL-03" });
    expect(byId(shooter(), { ...opts, moveTakesAction: false }).move!.cost).toEqual({});
  });

  it("ZN-REA-01, ZN-FRE-01, ZN-GRN-01: a declared reaction spends the reaction, talk the free action, a grenade is thrown at an area", () => {
    const actions = byId(shooter());
    expect(actions.declareReaction).toMatchObject({ kind: "reaction", cost: { slots: { reaction: 1 } } });
    expect(actions.talk).toMatchObject({ rule: "ZN-FRE-01", cost: { slots: { free: 1 } } });
    expect(actions.attackArea).toMatchObject({ kind: "attack", target: "area", rule: "ZN-GRN-01" });
    expect(byId(target()).attackArea).toBeUndefined();
    // Every cost can be paid from a fresh Zones economy.
    const economy = createEconomy(zones.economy(shooter(), opts));
    for (const a of zones.actions!(shooter(), opts)) expect(() => spend(economy, a.cost), a.id).not.toThrow();
  });

  it("ZN-SUR-01, ZN-MEL-02, ZN-RNG-04, ZN-ZON-02: the conditions the core reads; the out ones agree with isOut", () => {
    const conditions = zones.conditions!();
    expect(conditions.map((c) => c.id)).toEqual(["surprised", "unaware", "bound", "incapacitated", "unconscious", "dead"]);
    for (const c of conditions) expect(zones.isOut({ hp: { value: 10, max: 10 }, conditions: [c.id] }), c.id).toBe(Boolean(c.out));
    expect(conditions.find((c) => c.id === "surprised")).toMatchObject({ duration: "round", rule: "ZN-SUR-01" });
    // Each one changes what the core does.
    expect(zones.economy(target({ conditions: ["surprised"] }), opts).slots.every((s) => s.max === 0)).toBe(true);
    expect(plan(shot(), shooter(), target({ conditions: ["bound"] })).difficulty.total).toBe(8 - 2);
  });
});

describe("Zones play contract: the round's lifecycle", () => {
  it("ZN-RNG-07, ZN-RNG-04, ZN-INI-02: a new round loses the aim, moves subtly again and commits no effort to initiative", () => {
    const c = shooter({ aim: 2, movement: "fast", initiativeEffort: 1 });
    const { combatant, events } = zones.startRound!(c, undefined, 1, opts);
    expect(combatant).toMatchObject({ aim: 0, movement: "subtle", initiativeEffort: 0 });
    expect(events.map((e) => [e.rule, e.label])).toEqual([
      ["ZN-RNG-07", "FRAY.Zones.Event.AimLost"],
      ["ZN-RNG-04", "FRAY.Zones.Event.MovementReset"],
    ]);
    expect(zones.startRound!(shooter(), undefined, 1, opts).events).toEqual([]);
  });

  it("ZN-MOV-03, ZN-MOV-04: speed and effort points left at the end of a round carry over; speed refills each round only by option", () => {
    const c = shooter();
    const first = zones.startRound!(c, undefined, 1, opts);
    expect(first.economy.pools).toEqual({ speed: { value: 8, max: 8 }, effort: { value: 4, max: 4 } });
    const spent = spend(first.economy, { slots: { action: 1 }, pools: { speed: 8, effort: 3 } });
    const second = zones.startRound!(first.combatant, spent, 2, opts);
    expect(second.economy.pools).toEqual({ speed: { value: 0, max: 8 }, effort: { value: 1, max: 4 } });
    expect(second.economy.slots.action).toEqual({ used: 0, max: 2 });
    expect(second.combatant).toMatchObject({ speed: { value: 0, max: 8 }, effort: { value: 1, max: 4 } });
    expect(second.events).toContainEqual({ rule: "ZN-MOV-03", label: "FRAY.Zones.Event.Points", data: { speed: 0, effort: 1 } });
    const refilled = zones.startRound!(first.combatant, spent, 2, { ...opts, speedRecovery: "round" });
    expect(refilled.economy.pools).toEqual({ speed: { value: 8, max: 8 }, effort: { value: 1, max: 4 } });
  });

  it("ZN-SUR-01: the surprised side has nothing in the first round; from round 2 the surprise is over", () => {
    const c = target({ conditions: ["surprised", "unaware"] });
    const first = zones.startRound!(c, undefined, 1, opts);
    expect(first.combatant.conditions).toContain("surprised");
    expect(Object.values(first.economy.slots).every((s) => s.max === 0)).toBe(true);
    const second = zones.startRound!(first.combatant, first.economy, 2, opts);
    expect(second.combatant.conditions).toEqual(["unaware"]);
    expect(second.economy.slots.action).toEqual({ used: 0, max: 1 });
    expect(second.events[0]).toMatchObject({ rule: "ZN-SUR-01", label: "FRAY.Zones.Event.SurpriseOver" });
  });

  it("ZN-RNG-07: each aiming action raises the aim by one; the shot spends it", async () => {
    const start = zones.startRound!(shooter(), undefined, 1, opts);
    const economy = spend(start.economy, { slots: { action: 1 } });
    const aimed = zones.afterAction!(start.combatant, { kind: "action", id: "aim" }, economy, opts);
    expect(aimed.combatant.aim).toBe(1);
    expect(aimed.economy).toEqual(economy);
    expect(aimed.events).toEqual([{ rule: "ZN-RNG-07", label: "FRAY.Zones.Event.AimedOne", data: { actions: 1 } }]);
    expect(zones.afterAction!(aimed.combatant, { kind: "action", id: "aim" }, economy, opts).combatant.aim).toBe(2);
    // The aim counts in the shot's plan, then is spent.
    // 1 + 5 = 6 meets 8 - 2: torso (3 + 4), 2d6+2 = 6.
    const step = await attackStep(zones, shot(), aimed.combatant, target(), new ScriptedRoller([1, 3, 4, 2, 2]), opts);
    expect(step.plan.difficulty.modifiers).toContainEqual(expect.objectContaining({ rule: "ZN-RNG-07", value: -2 }));
    const fired = zones.afterAction!(aimed.combatant, { kind: "attack", weaponId: "rifle", result: step.result }, economy, opts);
    expect(fired.combatant.aim).toBe(0);
    expect(fired.events[0]).toMatchObject({ rule: "ZN-RNG-07", label: "FRAY.Zones.Event.AimSpentOne" });
  });

  it("ZN-MOV-03: regaining speed fills the speed points", () => {
    const start = zones.startRound!(shooter({ speed: { value: 1, max: 8 } }), undefined, 1, opts);
    const economy = spend(start.economy, { slots: { action: 1 } });
    const after = zones.afterAction!(start.combatant, { kind: "action", id: "regainSpeed" }, economy, opts);
    expect(after.economy.pools.speed).toEqual({ value: 8, max: 8 });
    expect(after.economy.slots.action).toEqual({ used: 1, max: 2 });
    expect(after.combatant.speed.value).toBe(8);
    expect(economy.pools.speed!.value).toBe(1);
  });

  it("ZN-BST-01: a burst spends its rounds from the magazine", async () => {
    const step = await attackStep(zones, shot({}, { modeId: "burst" }), shooter(), target(), new ScriptedRoller([1]), opts);
    const economy = createEconomy(zones.economy(shooter(), opts));
    const after = zones.afterAction!(shooter(), { kind: "attack", weaponId: "rifle", modeId: "burst", result: step.result }, economy, opts);
    expect(after.combatant.weapons.find((w) => w.id === "rifle")!.loaded).toBe(27);
    expect(after.events).toEqual([
      { rule: "ZN-BST-01", label: "FRAY.Zones.Event.Ammunition", data: { weapon: "Rifle", spent: 3, loaded: 27 } },
    ]);
  });

  it("ZN-MAL-01: a malfunction of the shot stays on the weapon; a shot behind a squib load destroys it", async () => {
    const economy = createEconomy(zones.economy(shooter(), opts));
    const jam = await attackStep(
      zones,
      shot({ malfunction: "failureToFeed" }, { modeId: "burst" }),
      shooter(),
      target(),
      new ScriptedRoller([1]),
      opts,
    );
    const jammed = zones.afterAction!(shooter(), { kind: "attack", weaponId: "rifle", result: jam.result }, economy, opts);
    expect(jammed.combatant.weapons.find((w) => w.id === "rifle")).toMatchObject({ malfunction: "failureToFeed", loaded: 29 });
    expect(jammed.events.map((e) => e.label)).toContain("FRAY.Zones.Event.Malfunction");
    expect(() => plan(shot(), jammed.combatant)).toThrow(expect.objectContaining({ key: "FRAY.Error.Zones.Jammed" }));

    const squib = await attackStep(
      zones,
      shot({ malfunction: "squibLoad" }, { weaponId: "pistol", distanceMetres: 20 }),
      shooter(),
      target(),
      new ScriptedRoller([9]),
      opts,
    );
    expect(squib.result.hit).toBe(false);
    const stuck = zones.afterAction!(shooter(), { kind: "attack", weaponId: "pistol", result: squib.result }, economy, opts);
    expect(stuck.combatant.weapons.find((w) => w.id === "pistol")).toMatchObject({ malfunction: "squibLoad", loaded: 14, broken: false });
    const burst = await attackStep(
      zones,
      shot({}, { weaponId: "pistol", distanceMetres: 20 }),
      stuck.combatant,
      target(),
      new ScriptedRoller([]),
      opts,
    );
    expect((burst.result as ZonesAttackResult).catastrophic).toBe(true);
    const broken = zones.afterAction!(stuck.combatant, { kind: "attack", weaponId: "pistol", result: burst.result }, economy, opts);
    expect(broken.combatant.weapons.find((w) => w.id === "pistol")).toMatchObject({ broken: true, loaded: 13 });
    expect(broken.events.map((e) => e.label)).toContain("FRAY.Zones.Event.Broken");
  });

  it("ZN-THR-01, ZN-GRN-01: a thrown weapon or grenade leaves the thrower's hands, one at a time", async () => {
    const economy = createEconomy(zones.economy(shooter(), opts));
    const axe = await attackStep(
      zones,
      shot({}, { weaponId: "axe", distanceMetres: 5 }),
      shooter(),
      target(),
      new ScriptedRoller([1]),
      opts,
    );
    const thrown = zones.afterAction!(shooter(), { kind: "attack", weaponId: "axe", result: axe.result }, economy, opts);
    expect(thrown.combatant.weapons.map((w) => w.id)).not.toContain("axe");
    expect(thrown.events).toEqual([{ rule: "ZN-THR-01", label: "FRAY.Zones.Event.Thrown", data: { weapon: "Throwing Axe" } }]);
    const frag = await attackStep(
      zones,
      { attackerId: "s", weaponId: "frag", distanceMetres: 20 },
      shooter(),
      undefined,
      new ScriptedRoller([1]),
      opts,
    );
    const one = zones.afterAction!(shooter(), { kind: "attack", weaponId: "frag", result: frag.result }, economy, opts);
    expect(one.combatant.weapons.filter((w) => w.id === "frag")).toHaveLength(1);
    expect(one.events[0]).toMatchObject({ rule: "ZN-GRN-01" });
  });

  it("ZN-ZON-02: Zones damage forces no checks, so the ruleset offers no forcedCheck", async () => {
    // Even a hit that takes the target to 0 HP forces nothing: it is incapacitated outright.
    const step = await attackStep(zones, shot({ aimedZone: "head" }), shooter(), target({ hp: 10 }), new ScriptedRoller([10, 6, 6]), opts);
    expect(step.report!.after.conditions).toContain("incapacitated");
    expect(step.report!.forced).toBeUndefined();
    expect(zones.forcedCheck).toBeUndefined();
  });
});

describe("Zones play contract: vitals", () => {
  const source: ActorSource = {
    _id: "tal",
    name: "Tal",
    type: "npc",
    system: { ruleset: "zones", attributes: { CON: 1 }, hp: { value: 30, max: 30 }, speed: { value: 8, max: 8 } },
    items: [{ _id: "vest", name: "Vest", type: "armor", system: { ruleset: "zones", zones: { torso: 2 } } }],
    statuses: ["unaware"],
  };

  it("ZN-ZON-02: withVitals sets hit points and conditions; vitals reads them back", () => {
    const c = zonesCombatantFromActor(source);
    const state = { hp: { value: 12, max: 30 }, conditions: ["unaware", "incapacitated"] };
    expect(zones.vitals(zones.withVitals!(c, state))).toEqual(state);
    expect(zones.withVitals!(c, { conditions: [] }).hp).toEqual({ value: 30, max: 30 });
  });

  it("ZN-ZON-02: the damage's vital state written back to the actor source reads back the same", () => {
    const c = zonesCombatantFromActor(source);
    const packet: ZonesDamagePacket = {
      roll: { formula: "2d6+2", total: 9, dice: [], constant: 2 },
      amount: 9,
      location: "torso",
      type: "piercing",
    };
    const report = zones.applyDamage(c, packet, opts);
    expect(report.after.hp).toEqual({ value: 30 - 14, max: 30 });
    const update = zones.vitalsUpdate!(report.after);
    expect(update).toEqual({ system: { hp: { value: 16 } } });
    const system = source.system!;
    const reread = zonesCombatantFromActor({
      ...source,
      system: { ...system, hp: { ...(system.hp as object), ...(update.system as { hp: object }).hp } },
    });
    expect(zones.vitals(reread)).toEqual(report.after);
    expect(zones.vitalsUpdate!({ conditions: ["dead"] })).toEqual({});
  });
});

describe("Zones play contract: the encounter runner plays the lifecycle through the ruleset", () => {
  it("ZN-RNG-07, ZN-MOV-03: aim not fired is lost at the next round; speed and effort points carry over", async () => {
    const raw = {
      name: "Aim",
      ruleset: "zones",
      seed: 5,
      maxRounds: 3,
      dice: [9, 1, 1, 9, 1, 9, 1, 1, 1, 1, 1],
      combatants: [
        {
          id: "a",
          name: "Ana",
          side: "players",
          stats: { attributes: { DEX: 1, PER: 1 }, skills: { firearms: 3 }, hp: 30, speed: 8, effort: 3, actions: { action: 2 } },
          items: ["zones-weapons/Harrow Carbine"],
        },
        { id: "b", name: "Bo", side: "crew", stats: { hp: 40, speed: 8, effort: 2 }, tactics: { wait: true } },
      ],
      rounds: [
        { a: { aim: true, move: 5, effort: 1 } },
        { a: { attack: "b", weapon: "Harrow Carbine", range: 100, move: 4 } },
        { a: { aim: true, attack: "b", weapon: "Harrow Carbine", range: 100 } },
      ],
    };
    const result = await playEncounter(parseEncounter(raw), content);
    const attacks = result.events.filter((e): e is Extract<EncounterEvent, { type: "attack" }> => e.type === "attack");
    const aimLines = attacks.map((e) => e.plan.difficulty.modifiers.filter((m) => m.rule === "ZN-RNG-07").map((m) => m.value));
    // Round 2: the aim of round 1 is gone; round 3: aimed and fired in the same round.
    expect(aimLines).toEqual([[], [-2]]);
    const moves = result.events.filter((e): e is Extract<EncounterEvent, { type: "custom" }> => e.type === "custom" && e.kind === "move");
    // 8 speed: 5 m walked leaves 3; the next round 4 m takes the 3 left and 1 effort (of 3 - 1 spent on initiative).
    expect(moves.map((e) => [e.round, e.data.speed, e.data.effort])).toEqual([
      [1, 3, 2],
      [2, 0, 1],
    ]);
  });
});
