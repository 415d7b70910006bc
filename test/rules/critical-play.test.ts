import { describe, expect, it } from "vitest";
import type { ActionOutcome, AttackRequest } from "../../src/rules/core/contract.js";
import { ScriptedRoller } from "../../src/rules/core/dice/port.js";
import { createEconomy, spend, type Economy } from "../../src/rules/core/economy.js";
import { FrayError } from "../../src/rules/core/errors.js";
import { attackStep, planStep } from "../../src/rules/core/step.js";
import {
  ACTIONS,
  ATTACK_TABLE_SOURCES,
  critical,
  criticalWithTables,
  parseAttackTable,
  parseCombatant,
  parseCriticalSituation,
  vitals,
  withVitals,
  type CriticalAttackResult,
  type CriticalCombatant,
} from "../../src/rules/critical/index.js";
import { fixture } from "../contract/fixtures/critical.js";

const opts = critical.defaults();

/** A sword fighter: OB blades 70 (+5 sword), SD 15, Physique 8 ranks / 48 total, DB 15, rigid armor. */
function fighter(overrides: Record<string, unknown> = {}): CriticalCombatant {
  return parseCombatant({
    id: "kara",
    name: "Kara",
    selfDiscipline: 15,
    physique: { ranks: 8, total: 48 },
    defense: 15,
    skills: { blades: 70 },
    weapons: [
      { id: "sword", name: "Arming Sword", weaponClass: "sword", category: "melee", skill: "blades", bonus: 5 },
      { id: "laser", name: "Laser", weaponClass: "energy", category: "energy", skill: "energy", bonus: 0 },
    ],
    armor: [{ id: "cuirass", name: "Cuirass", armorType: "rigid", defense: 0, maneuverPenalty: -5 }],
    ...overrides,
  });
}

/** A pistol guard: OB pistols 55, SD 5, Physique 6 ranks / 40 total, DB 5, ballistic vest. */
function guard(overrides: Record<string, unknown> = {}): CriticalCombatant {
  return parseCombatant({
    id: "guard",
    name: "Guard",
    kind: "npc",
    selfDiscipline: 5,
    physique: { ranks: 6, total: 40 },
    defense: 5,
    skills: { pistols: 55 },
    weapons: [{ id: "pistol", name: "Service Pistol", weaponClass: "pistol", category: "missile", skill: "pistols", bonus: 0 }],
    armor: [{ id: "vest", name: "Vest", armorType: "ballistic", defense: 0 }],
    ...overrides,
  });
}

const request = (o: Partial<AttackRequest> = {}): AttackRequest => ({
  attackerId: "kara",
  targetId: "guard",
  weaponId: "sword",
  distanceMetres: 1.5,
  ...o,
});
const plan = (r: AttackRequest, a = fighter(), t = guard()) => planStep(critical, r, a, t, opts).plan;
const byLabel = (mods: { label: string; value: number }[]) => Object.fromEntries(mods.map((m) => [m.label, m.value]));

/** The FrayError a call throws. */
function errorOf(fn: () => unknown): FrayError {
  try {
    fn();
  } catch (e) {
    if (e instanceof FrayError) return e;
    throw e;
  }
  throw new Error("no error thrown");
}

/** Merges an update into a source the way Foundry does: objects deeply, arrays and values replaced. */
function merge(base: Record<string, unknown>, update: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(update)) {
    const b = out[k];
    const isObj = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);
    out[k] = isObj(v) && isObj(b) ? merge(b, v) : v;
  }
  return out;
}

const roundEconomy = (c: CriticalCombatant): Economy => critical.startRound!(c, undefined, 1, opts).economy;

describe("Critical play contract: input and situation", () => {
  it("CR-ATK-01: the situational modifier is added to the attack roll", () => {
    expect(byLabel(plan(request()).modifiers)["FRAY.Mod.Situational"]).toBeUndefined();
    expect(byLabel(plan(request({ situation: { modifier: 20 } })).modifiers)["FRAY.Mod.Situational"]).toBe(20);
    expect(byLabel(plan(request({ situation: { modifier: -30 } })).modifiers)["FRAY.Mod.Situational"]).toBe(-30);
  });

  it("CR-ATK-01: cover is deducted with the defender's DB", () => {
    const p = plan(request({ situation: { cover: 25 } }));
    expect(byLabel(p.difficulty.modifiers)["FRAY.Mod.Cover"]).toBe(25);
    expect(p.difficulty.total).toBe(plan(request()).difficulty.total + 25);
  });

  it("CR-PAR-01, CR-PAR-02: the parry counts as the defender declared it; the request's reaction only names it", () => {
    const parrying = fighter({ parry: { guard: 20 } });
    const shot = (r: Partial<AttackRequest>) =>
      plan({ attackerId: "guard", targetId: "kara", weaponId: "pistol", ...r }, guard(), parrying);
    // Missile attack: 20 OB at 2:1 is +10 DB against the guard.
    expect(byLabel(shot({}).difficulty.modifiers)["FRAY.Mod.Parry"]).toBe(10);
    expect(shot({ reaction: "parry" })).toEqual(shot({}));
    expect(shot({ reaction: "none" })).toEqual(shot({}));
    // The allocation named the guard only: another foe's attack meets no parry.
    const other = guard({ id: "other", name: "Other" });
    expect(
      byLabel(plan({ attackerId: "other", targetId: "kara", weaponId: "pistol" }, other, parrying).difficulty.modifiers)["FRAY.Mod.Parry"],
    ).toBeUndefined();
    const e = errorOf(() => shot({ reaction: "dodge" }));
    expect(e.key).toBe("FRAY.Error.Field");
    expect(e.data.field).toBe("reaction");
  });

  it("CR-PAR-03: an unseen attack ignores the target's parry", () => {
    const parrying = guard({ parry: { kara: 30 } });
    const seen = plan(request(), fighter(), parrying);
    const unseen = plan(request({ situation: { unseen: true } }), fighter(), parrying);
    expect(byLabel(seen.difficulty.modifiers)["FRAY.Mod.Parry"]).toBe(30);
    expect(byLabel(unseen.difficulty.modifiers)["FRAY.Mod.ParryUnseen"]).toBe(0);
    expect(unseen.difficulty.total).toBe(seen.difficulty.total - 30);
  });

  it("CR-ATK-01, CR-PAR-03: every field is offered for melee, missile and energy attacks, with bounds and per-target cover and sight", () => {
    for (const weaponId of ["sword", "laser"]) {
      const fields = critical.situation!({ attacker: fighter(), target: guard(), weaponId, distanceMetres: 1.5 }, opts);
      expect(fields.map((f) => [f.id, f.kind, f.rule, f.perTarget])).toEqual([
        ["modifier", "number", "CR-ATK-01", false],
        ["cover", "number", "CR-ATK-01", true],
        ["unseen", "boolean", "CR-PAR-03", true],
      ]);
      expect(fields.find((f) => f.id === "cover")).toMatchObject({ min: 0, max: 200 });
    }
    const fromGuard = critical.situation!({ attacker: guard(), target: fighter(), weaponId: "pistol", distanceMetres: 20 }, opts);
    expect(fromGuard.map((f) => f.id)).toEqual(["modifier", "cover", "unseen"]);
  });

  it("CR-ATK-01, CR-PAR-03, CR-CRT-02: the defaults plan the same attack as leaving the fields out, whatever the combatants' state", () => {
    const states: [CriticalCombatant, CriticalCombatant][] = [
      [fighter(), guard()],
      [fighter({ stun: 2, parry: { guard: 10 } }), guard({ conditions: ["constrained"], parry: { kara: 20 } })],
      [
        fighter({ effects: [{ id: "penalty-1", kind: "penalty", rule: "CR-CRT-02", label: "x", value: -20 }] }),
        guard({ conditions: ["unconscious"] }),
      ],
    ];
    for (const [a, t] of states) {
      const fields = critical.situation!({ attacker: a, target: t, weaponId: "sword", distanceMetres: 1.5 }, opts);
      expect(Object.fromEntries(fields.map((f) => [f.id, f.default]))).toEqual({ modifier: 0, cover: 0, unseen: false });
      const defaults = Object.fromEntries(fields.map((f) => [f.id, f.default]));
      expect(plan(request({ situation: defaults }), a, t)).toEqual(plan(request(), a, t));
    }
  });

  it("CR-ATK-02: the distance does not change a Critical attack", () => {
    expect(plan(request({ distanceMetres: 100 }))).toEqual(plan(request({ distanceMetres: 1 })));
    expect(plan(request({ distanceMetres: undefined }))).toEqual(plan(request({ distanceMetres: 1 })));
    expect(errorOf(() => plan(request({ distanceMetres: -1 }))).data.field).toBe("distanceMetres");
  });

  it("CR-ATK-01: unknown situation fields and values of the wrong kind are refused, naming the field", () => {
    const field = (situation: Record<string, unknown>) => {
      const e = errorOf(() => critical.input!(request({ situation: situation as AttackRequest["situation"] }), fighter(), guard(), opts));
      expect(e.key).toBe("FRAY.Error.Field");
      return e.data.field;
    };
    expect(field({ aim: 1 })).toBe("situation.aim");
    expect(field({ modifier: "high" })).toBe("situation.modifier");
    expect(field({ modifier: 2.5 })).toBe("situation.modifier");
    expect(field({ modifier: 500 })).toBe("situation.modifier");
    expect(field({ cover: -10 })).toBe("situation.cover");
    expect(field({ cover: [10] })).toBe("situation.cover");
    expect(field({ unseen: "yes" })).toBe("situation.unseen");
    expect(errorOf(() => parseCriticalSituation({ cover: "x" }, "rounds[0].kara.situation")).data.field).toBe(
      "rounds[0].kara.situation.cover",
    );
  });

  it("CR-ATK-01: an attack needs one target and takes no mode", () => {
    expect(errorOf(() => critical.input!(request({ targetId: undefined }), fighter(), undefined, opts)).data.field).toBe("targetId");
    expect(errorOf(() => critical.input!(request({ modeId: "burst" }), fighter(), guard(), opts)).data.field).toBe("modeId");
  });

  it("CR-ATK-03: a world's own attack table is read when the host passes it with criticalWithTables", async () => {
    const raw = structuredClone(ATTACK_TABLE_SOURCES.sword) as { rows: { results: Record<string, string> }[] };
    for (const row of raw.rows) for (const k of Object.keys(row.results)) row.results[k] = "-";
    const blunt = parseAttackTable(raw).table;
    const homebrew = criticalWithTables({ attack: { sword: blunt } });
    const built = await attackStep(critical, request(), fighter(), guard(), new ScriptedRoller([50, 50]), opts);
    const own = await attackStep(homebrew, request(), fighter(), guard(), new ScriptedRoller([50]), opts);
    expect(built.result.lands).toBe(true);
    expect(own.result.lands).toBe(false);
    expect(own.result.lookups?.[0]?.result).toBe("-");
    expect(own.input.tables?.attack?.sword).toBe(blunt);
  });
});

describe("Critical play contract: actions and conditions", () => {
  it("CR-AP-01, CR-MOV-02, CR-PAR-01: every action with its AP cost", () => {
    const actions = critical.actions!(fighter(), opts);
    expect(actions.map((a) => a.id)).toEqual(ACTIONS.map((a) => a.id));
    const of = (id: string) => actions.find((a) => a.id === id)!;
    expect(of("attack")).toMatchObject({ kind: "attack", target: "one", rule: "CR-AP-01", cost: { pools: { ap: 2 } } });
    expect(of("move")).toMatchObject({ kind: "move", target: "none", rule: "CR-MOV-02", cost: { pools: { ap: 1 } } });
    expect(of("parry")).toMatchObject({ kind: "reaction", rule: "CR-PAR-01", cost: { pools: { ap: 0 } } });
    expect(of("medkit")).toMatchObject({ kind: "other", target: "one", rule: "CR-BLD-02", cost: { pools: { ap: 4 } } });
    expect(of("firstAid")).toMatchObject({ target: "one", rule: "CR-DTH-01", cost: { pools: { ap: 4 } } });
    // Two attacks fill a round's 4 AP (CR-AP-01).
    const e = roundEconomy(fighter());
    const twice = spend(spend(e, of("attack").cost), of("attack").cost);
    expect(twice.pools.ap).toEqual({ value: 0, max: 4 });
  });

  it("CR-HIT-02, CR-STN-03, CR-DTH-01, CR-PAR-03: the conditions the core reads, out of the fight as isOut says", () => {
    const conditions = critical.conditions!();
    expect(conditions.map((c) => c.id)).toEqual(["unconscious", "blackout", "down", "dead", "constrained"]);
    for (const c of conditions) {
      expect(critical.isOut({ conditions: [c.id] })).toBe(Boolean(c.out));
      expect(c.icon).toMatch(/^icons\/svg\/[a-z]+\.svg$/);
      expect(c.label).toBe(`FRAY.Condition.${c.id}`);
    }
    expect(conditions.find((c) => c.id === "blackout")!.duration).toBe("rounds");
    // Constrained is read by the core: a declared parry stops counting (CR-PAR-03).
    const held = plan(request(), fighter(), guard({ conditions: ["constrained"], parry: { kara: 30 } }));
    expect(byLabel(held.difficulty.modifiers)["FRAY.Mod.ParryBlocked"]).toBe(0);
  });
});

describe("Critical play contract: vitals", () => {
  it("CR-HIT-01, CR-BLD-01: withVitals puts back what vitals reads", async () => {
    const step = await attackStep(
      fixture.ruleset,
      fixture.request,
      fixture.attacker,
      fixture.target,
      new ScriptedRoller(fixture.hitFaces),
      opts,
    );
    const after = step.report!.after;
    expect(vitals(critical.withVitals!(fixture.target, after))).toEqual(after);
    expect(after.hp).toEqual({ value: 31, max: 48 });
    expect(after.bleeding).toBe(2);
  });

  it("CR-HIT-01, CR-STN-02, CR-CRT-02: vitalsUpdate writes hits, stun and lasting effects so that the actor source reads them back", async () => {
    const step = await attackStep(
      fixture.ruleset,
      fixture.request,
      fixture.attacker,
      fixture.target,
      new ScriptedRoller(fixture.hitFaces),
      opts,
    );
    const states = [
      step.report!.after,
      {
        hp: { value: -4, max: 48 },
        bleeding: 5,
        stun: 3,
        conditions: ["unconscious", "down"],
        effects: [
          {
            id: "bleed-1",
            kind: "bleed",
            rule: "CR-BLD-01" as const,
            label: "FRAY.Critical.Effect.bleed",
            value: 5,
            location: "leg",
            treated: ["staunch"],
          },
          { id: "injury-1", kind: "injury", rule: "CR-CRT-02" as const, label: "A shattered knee.", location: "leg", stops: ["move"] },
          { id: "dying-1", kind: "dying", rule: "CR-DTH-01" as const, label: "FRAY.Critical.Effect.dying", rounds: 4 },
        ],
      },
    ];
    for (const state of states) {
      const update = critical.vitalsUpdate!(state);
      expect(JSON.stringify(update)).not.toMatch(/"[^"]*\.[^"]*":/);
      const system = (update as { system: Record<string, unknown> }).system;
      expect(system).not.toHaveProperty("conditions");
      expect(system.hits).toEqual({ value: state.hp!.value });
      // Conditions travel as statuses, the way Foundry's actor source carries them.
      const source = { ...merge(fixture.targetSource, update), statuses: state.conditions };
      expect(vitals(fixture.fromSource(source))).toEqual(state);
    }
  });
});

describe("Critical play contract: round lifecycle", () => {
  it("CR-AP-01: a round starts with 4 AP, whatever was left of the last one", () => {
    const c = fighter();
    const previous = spend(roundEconomy(c), { pools: { ap: 3 } });
    const start = critical.startRound!(c, previous, 2, opts);
    expect(start.economy.pools.ap).toEqual({ value: 4, max: 4 });
    expect(start.events).toEqual([]);
  });

  it("CR-STN-01: a stunned combatant starts the round with half the AP", () => {
    const start = critical.startRound!(fighter({ stun: 2 }), undefined, 2, opts);
    expect(start.economy.pools.ap).toEqual({ value: 2, max: 2 });
    expect(start.events).toEqual([
      { rule: "CR-STN-01", label: "FRAY.Critical.Lifecycle.StunnedRound", data: { actor: "Kara", ap: 2, stun: 2 } },
    ]);
  });

  it("CR-AP-01, CR-HIT-02: a combatant out of the fight starts the round with no AP", () => {
    const start = critical.startRound!(guard({ conditions: ["unconscious"] }), undefined, 3, opts);
    expect(start.economy.pools.ap).toEqual({ value: 0, max: 0 });
    expect(start.events.map((e) => e.label)).toEqual(["FRAY.Critical.Lifecycle.NoAp"]);
  });

  it("CR-PAR-01: the last round's parry ends when a round starts", () => {
    const start = critical.startRound!(fighter({ parry: { guard: 20 } }), undefined, 2, opts);
    expect(start.combatant.parry).toEqual({});
    expect(start.events[0]).toMatchObject({ rule: "CR-PAR-01", label: "FRAY.Critical.Lifecycle.ParryEnds" });
    // Its OB is back on the combatant's attacks.
    expect(byLabel(plan(request(), start.combatant).modifiers)["FRAY.Mod.ParryMoved"]).toBeUndefined();
  });

  it("CR-ATK-01: a fumble ends the attacker's round, its AP are lost", async () => {
    const a = fighter();
    const economy = spend(roundEconomy(a), { pools: { ap: 2 } });
    const step = await attackStep(critical, request(), a, guard(), new ScriptedRoller([2]), opts);
    expect((step.result as CriticalAttackResult).detail.fumble).toBe(true);
    const outcome: ActionOutcome = { kind: "attack", weaponId: "sword", result: step.result };
    const after = critical.afterAction!(a, outcome, economy, opts);
    expect(after.economy.pools.ap).toEqual({ value: 0, max: 4 });
    expect(after.events).toEqual([{ rule: "CR-ATK-01", label: "FRAY.Critical.Lifecycle.Fumble", data: { actor: "Kara", lost: 2 } }]);
    // The target of a fumbled attack keeps its AP.
    const g = guard();
    expect(critical.afterAction!(g, outcome, roundEconomy(g), opts).economy.pools.ap).toEqual({ value: 4, max: 4 });
  });

  it("CR-ATK-01: without the fumble option a low roll is an ordinary attack and the round goes on", async () => {
    const off = { ...opts, fumbles: false };
    const a = fighter();
    const step = await attackStep(critical, request(), a, guard(), new ScriptedRoller([2, 50]), off);
    const after = critical.afterAction!(a, { kind: "attack", weaponId: "sword", result: step.result }, roundEconomy(a), off);
    expect(after.economy.pools.ap).toEqual({ value: 4, max: 4 });
    expect(after.events).toEqual([]);
  });

  it("CR-STN-01, CR-AP-02: stun arriving mid-round shrinks the AP at once, less what was spent", () => {
    const g = guard();
    const spent = spend(roundEconomy(g), { pools: { ap: 1 } });
    const stunned = withVitals(g, { ...vitals(g), stun: 3 });
    const outcome: ActionOutcome = { kind: "action", id: "attack" };
    const after = critical.afterAction!(stunned, outcome, spent, opts);
    expect(after.economy.pools.ap).toEqual({ value: 1, max: 2 });
    expect(after.events).toEqual([
      { rule: "CR-STN-01", label: "FRAY.Critical.Log.ApCut", data: { actor: "Guard", ap: 1, max: 2, stun: 3 } },
    ]);
    // Never grows back within the round, and a second call changes nothing.
    const again = critical.afterAction!(stunned, outcome, after.economy, opts);
    expect(again.economy.pools.ap).toEqual({ value: 1, max: 2 });
    expect(again.events).toEqual([]);
    expect(critical.afterAction!(g, outcome, after.economy, opts).economy.pools.ap).toEqual({ value: 1, max: 2 });
  });

  it("CR-AP-02, CR-HIT-02: a knock-out takes every AP left", () => {
    const g = guard();
    const out = withVitals(g, { ...vitals(g), conditions: ["unconscious"] });
    const after = critical.afterAction!(out, { kind: "action", id: "attack" }, roundEconomy(g), opts);
    expect(after.economy.pools.ap).toEqual({ value: 0, max: 0 });
    expect(after.events).toEqual([{ rule: "CR-AP-02", label: "FRAY.Critical.Lifecycle.NoAp", data: { actor: "Guard" } }]);
  });
});

describe("Critical play contract: forced Self Discipline test", () => {
  const atZero = (hits: number) => guard({ hits: { value: hits } });

  it("CR-HIT-02: damage to 0 or below forces the test; d100 + SD - hits below zero, 101 stays conscious", async () => {
    const g = guard({ hits: { value: 5 } });
    const report = critical.applyDamage(g, { roll: { formula: "8", total: 8, dice: [], constant: 8 }, amount: 8 }, opts);
    expect(report.forced).toEqual([{ id: "selfDiscipline", label: "FRAY.Check.SelfDiscipline", rule: "CR-HIT-02", difficulty: 101 }]);
    const c = critical.withVitals!(g, report.after);
    const pass = await critical.forcedCheck!(c, report.forced![0]!, new ScriptedRoller([99]), opts);
    expect(pass.check.total).toBe(99 + 5 - 3);
    expect(pass).toMatchObject({ needed: 101, success: true });
    expect(pass.report.after.conditions).toEqual([]);
    expect(pass.report.added).toEqual([]);
  });

  it("CR-HIT-02: one failure leaves the combatant unconscious, out of the fight", async () => {
    const c = atZero(-3);
    const forced = { id: "selfDiscipline", label: "FRAY.Check.SelfDiscipline", rule: "CR-HIT-02" as const, difficulty: 101 };
    const fail = await critical.forcedCheck!(c, forced, new ScriptedRoller([98]), opts);
    expect(fail.check.total).toBe(100);
    expect(fail.success).toBe(false);
    expect(fail.report.before.conditions).toEqual([]);
    expect(fail.report.after.conditions).toEqual(["unconscious"]);
    expect(fail.report.added).toEqual(["unconscious"]);
    expect(critical.isOut(vitals(critical.withVitals!(c, fail.report.after)))).toBe(true);
  });

  it("CR-HIT-02: a check Critical does not force is refused, naming it", async () => {
    await expect(
      critical.forcedCheck!(atZero(-1), { id: "blackout", label: "x", rule: "CR-HIT-02" }, new ScriptedRoller([50]), opts),
    ).rejects.toMatchObject({
      key: "FRAY.Error.Field",
      data: { field: "forced.id" },
    });
  });
});

describe("Critical play contract: the fixture", () => {
  it("CR-ATK-02: the fixture's hit lands and changes the target's hits; its miss finds nothing on the table", async () => {
    const hitStep = await attackStep(
      fixture.ruleset,
      fixture.request,
      fixture.attacker,
      fixture.target,
      new ScriptedRoller(fixture.hitFaces),
      opts,
    );
    expect(hitStep.result.lookups?.[0]?.result).toBe("13BP");
    expect(hitStep.target!.hits.value).toBe(31);
    const missStep = await attackStep(
      fixture.ruleset,
      fixture.request,
      fixture.attacker,
      fixture.target,
      new ScriptedRoller(fixture.missFaces),
      opts,
    );
    expect(missStep.result).toMatchObject({ hit: false, lands: false });
    expect((missStep.result as CriticalAttackResult).detail.fumble).toBe(false);
  });
});

describe("Critical play contract: the round's economy", () => {
  it("CR-AP-01: startRound gives the ruleset's economy", () => {
    expect(roundEconomy(fighter())).toEqual(createEconomy(critical.economy(fighter(), opts)));
  });
});
