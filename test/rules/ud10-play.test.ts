import { describe, expect, it } from "vitest";
import type { AttackRequest, SituationValues } from "../../src/rules/core/contract.js";
import { ScriptedRoller } from "../../src/rules/core/dice/port.js";
import { createEconomy, spend } from "../../src/rules/core/economy.js";
import { FrayError } from "../../src/rules/core/errors.js";
import type { AttackResult } from "../../src/rules/core/ruleset.js";
import type { ActorSource } from "../../src/rules/core/sources.js";
import { attackStep, planStep } from "../../src/rules/core/step.js";
import { CONDITIONS } from "../../src/foundry/conditions.js";
import { OUT_CONDITIONS, ud10, ud10CombatantFromActor, type Ud10Combatant } from "../../src/rules/ud10/index.js";
import { fighter, target } from "./ud10-fixtures.js";

const opts = ud10.defaults();
const labels = (mods: { label: string; value: number }[]) => Object.fromEntries(mods.map((m) => [m.label, m.value]));
const req = (weaponId: string, situation?: SituationValues, more: Partial<AttackRequest> = {}): AttackRequest => ({
  attackerId: "a",
  targetId: "b",
  weaponId,
  distanceMetres: weaponId === "sword" ? 1.5 : 20,
  ...(situation ? { situation } : {}),
  ...more,
});
const plan = (request: AttackRequest, a: Ud10Combatant = fighter(), t: Ud10Combatant = target()) =>
  planStep(ud10, request, a, t, opts).plan;
const fieldOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    return e instanceof FrayError && e.key === "FRAY.Error.Field" ? String(e.data.field) : `other: ${String(e)}`;
  }
  return undefined;
};
const ids = (request: AttackRequest, a = fighter(), t = target()) =>
  ud10.situation!({ attacker: a, target: t, weaponId: request.weaponId, distanceMetres: request.distanceMetres }, opts).map((f) => f.id);
const attackOutcome = (weaponId = "rifle") => ({ kind: "attack" as const, weaponId, result: { hit: false, lands: false } as AttackResult });

describe("UD10 situation fields", () => {
  it("UD-ATK-04: melee attacks offer higher ground, ranged ones aim, visibility, crouching and moving", () => {
    expect(ids(req("sword"))).toEqual(["unanticipated", "immobilized", "higherGround", "cover", "misc"]);
    expect(ids(req("rifle"))).toEqual([
      "unanticipated",
      "immobilized",
      "targetCrouching",
      "targetMoving",
      "shooterMoving",
      "badVisibility",
      "aim",
      "cover",
      "misc",
    ]);
    const fields = ud10.situation!({ attacker: fighter(), target: target(), weaponId: "rifle" }, opts);
    expect(fields.find((f) => f.id === "aim")).toMatchObject({
      kind: "number",
      min: 0,
      max: 2,
      step: 1,
      rule: "UD-ATK-04",
      perTarget: false,
    });
    expect(fields.find((f) => f.id === "cover")).toMatchObject({ kind: "number", min: 0, rule: "UD-COV-01", perTarget: true });
  });

  it("UD-ATK-03, UD-ATK-04, UD-DEF-01: defaults come from the combatants' conditions", () => {
    const a = fighter({ conditions: ["moving", "aiming2"] });
    const t = target({ conditions: ["surprised", "prone", "moving", "immobilized"] });
    const defaults = Object.fromEntries(ud10.situation!({ attacker: a, target: t, weaponId: "rifle" }, opts).map((f) => [f.id, f.default]));
    expect(defaults).toEqual({
      unanticipated: true,
      immobilized: true,
      targetCrouching: true,
      targetMoving: true,
      shooterMoving: true,
      badVisibility: false,
      aim: 2,
      cover: 0,
      misc: 0,
    });
    const calm = Object.fromEntries(
      ud10.situation!({ attacker: fighter({ conditions: ["aiming1"] }), target: target(), weaponId: "rifle" }, opts).map((f) => [
        f.id,
        f.default,
      ]),
    );
    expect(calm).toMatchObject({ unanticipated: false, immobilized: false, targetCrouching: false, shooterMoving: false, aim: 1 });
  });

  it("UD-ATK-03, UD-ATK-04, UD-DEF-01: giving the defaults plans the same attack as leaving them out", () => {
    const cases: [string[], string[], string][] = [
      [[], [], "sword"],
      [[], [], "rifle"],
      [["moving", "aiming1"], ["surprised", "crouching", "moving"], "rifle"],
      [["aiming2"], ["immobilized", "prone"], "rifle"],
      [[], ["surprised", "immobilized"], "sword"],
    ];
    for (const [ac, tc, weapon] of cases) {
      const a = fighter({ conditions: ac });
      const t = target({ conditions: tc });
      const fields = ud10.situation!({ attacker: a, target: t, weaponId: weapon }, opts);
      const given = Object.fromEntries(fields.map((f) => [f.id, f.default]));
      expect(plan(req(weapon, given), a, t)).toEqual(plan(req(weapon), a, t));
    }
  });
});

describe("UD10 attack input from a request", () => {
  it("UD-ATK-03: unanticipated takes DEX off the defense; false wins over a surprised target", () => {
    expect(plan(req("sword")).difficulty.total).toBe(12);
    expect(plan(req("sword", { unanticipated: true })).difficulty.total).toBe(10);
    const surprised = target({ conditions: ["surprised"] });
    expect(plan(req("sword"), fighter(), surprised).difficulty.total).toBe(10);
    expect(plan(req("sword", { unanticipated: false }), fighter(), surprised).difficulty.total).toBe(12);
  });

  it("UD-DEF-01: immobilized sets or clears the target's condition: no DEX and -2", () => {
    const p = plan(req("sword", { immobilized: true }));
    expect(labels(p.difficulty.modifiers)).toMatchObject({ "FRAY.Mod.NoDexImmobilized": 0, "FRAY.Mod.Immobilized": -2 });
    expect(p.difficulty.total).toBe(8);
    expect(plan(req("sword", { immobilized: false }), fighter(), target({ conditions: ["immobilized"] })).difficulty.total).toBe(12);
  });

  it("UD-ATK-04: higher ground is -2 to a melee attack", () => {
    expect(labels(plan(req("sword", { higherGround: true })).modifiers)["FRAY.Mod.HigherGround"]).toBe(-2);
    expect(labels(plan(req("sword", { higherGround: false })).modifiers)["FRAY.Mod.HigherGround"]).toBeUndefined();
  });

  it("UD-ATK-04: ranged modifiers: crouching -2, target moving -2, shooter moving -4, visibility -2, aim +2/+4", () => {
    const mods = labels(
      plan(req("rifle", { targetCrouching: true, targetMoving: true, shooterMoving: true, badVisibility: true, aim: 1 })).modifiers,
    );
    expect(mods).toMatchObject({
      "FRAY.Mod.TargetCrouching": -2,
      "FRAY.Mod.TargetMoving": -2,
      "FRAY.Mod.ShooterMoving": -4,
      "FRAY.Mod.BadVisibility": -2,
      "FRAY.Mod.Aim1": 2,
    });
    expect(labels(plan(req("rifle", { aim: 2 })).modifiers)["FRAY.Mod.Aim2"]).toBe(4);
    // A value given wins over the attacker's and the target's conditions.
    const aiming = fighter({ conditions: ["aiming2", "moving"] });
    const off = labels(
      plan(req("rifle", { aim: 0, shooterMoving: false, targetCrouching: false }), aiming, target({ conditions: ["prone"] })).modifiers,
    );
    expect(off["FRAY.Mod.Aim2"]).toBeUndefined();
    expect(off["FRAY.Mod.ShooterMoving"]).toBeUndefined();
    expect(off["FRAY.Mod.TargetCrouching"]).toBeUndefined();
  });

  it("UD-COV-01, UD-ATK-01: cover adds to the defense, misc to the check", () => {
    const p = plan(req("sword", { cover: 3, misc: -2 }));
    expect(p.difficulty.total).toBe(15);
    expect(labels(p.modifiers)["FRAY.Mod.Misc"]).toBe(-2);
  });

  it("UD-RNG-01, UD-RNG-02, UD-REA-02: distance in metres, firing mode and the declared reaction", () => {
    expect(labels(plan(req("rifle", {}, { distanceMetres: 120 })).modifiers)["FRAY.Mod.Range"]).toBe(-2);
    expect(labels(plan(req("rifle", {}, { modeId: "burst" })).modifiers)["FRAY.Mod.FiringMode"]).toBe(-1);
    expect(plan(req("sword", {}, { reaction: "parry" })).reaction).toMatchObject({ id: "parry", available: true });
  });

  it("UD-ATK-04: unknown fields, fields of the other weapon kind and wrong values are refused by name", () => {
    expect(fieldOf(() => plan(req("sword", { nonsense: true })))).toBe("situation.nonsense");
    expect(fieldOf(() => plan(req("rifle", { higherGround: true })))).toBe("situation.higherGround");
    expect(fieldOf(() => plan(req("sword", { aim: 1 })))).toBe("situation.aim");
    expect(fieldOf(() => plan(req("rifle", { aim: 3 })))).toBe("situation.aim");
    expect(fieldOf(() => plan(req("rifle", { aim: "twice" })))).toBe("situation.aim");
    expect(fieldOf(() => plan(req("sword", { unanticipated: "yes" })))).toBe("situation.unanticipated");
    expect(fieldOf(() => plan(req("sword", { cover: -1 })))).toBe("situation.cover");
    expect(fieldOf(() => plan(req("sword", { misc: 1.5 })))).toBe("situation.misc");
    expect(fieldOf(() => plan(req("sword", {}, { reaction: "block" })))).toBe("reaction");
    expect(fieldOf(() => plan(req("rifle", {}, { distanceMetres: -3 })))).toBe("distanceMetres");
    expect(fieldOf(() => ud10.input!(req("sword"), fighter(), undefined, opts))).toBe("targetId");
  });
});

describe("UD10 actions and conditions", () => {
  it("UD-ACT-02, UD-ATK-04, UD-REA-01, UD-OPT-01, UD-OPT-02: each action with its cost in the round's slots", () => {
    const byId = Object.fromEntries(ud10.actions!(fighter(), opts).map((a) => [a.id, a]));
    expect(Object.keys(byId)).toEqual(["attack", "aim", "ready", "reload", "useItem", "skill", "parry", "dodge", "flee", "retreat"]);
    expect(byId.attack).toMatchObject({ kind: "attack", target: "one", cost: { slots: { action: 1 } } });
    expect(byId.aim).toMatchObject({ kind: "other", rule: "UD-ATK-04", cost: { slots: { action: 1 } } });
    for (const id of ["ready", "reload", "useItem", "skill"]) expect(byId[id]!.cost).toEqual({ slots: { action: 1 } });
    expect(byId.parry).toMatchObject({ kind: "reaction", cost: { slots: { reaction: 1 } } });
    expect(byId.flee).toMatchObject({ kind: "move", cost: { slots: { movement: 1 } } });
    expect(byId.retreat!.cost).toEqual({ slots: { movement: 1, action: 1, reaction: 1 } });
    const strict = ud10.actions!(fighter(), { ...opts, allowDodge: false, fleeing: false, retreat: false }).map((a) => a.id);
    expect(strict).not.toContain("dodge");
    expect(strict).not.toContain("flee");
    expect(strict).not.toContain("retreat");
    expect(ud10.actions!(fighter({ conditions: ["unconscious"] }), opts)).toEqual([]);
  });

  it("UD-ATK-03, UD-ATK-04, UD-DEF-01, UD-DMG-04: the ten conditions, the out ones agreeing with isOut", () => {
    const specs = ud10.conditions!();
    expect(specs.map((c) => c.id)).toEqual(CONDITIONS.map((c) => c.id));
    expect(specs.map((c) => c.icon)).toEqual(CONDITIONS.map((c) => c.img));
    expect(specs.filter((c) => c.out).map((c) => c.id)).toEqual([...OUT_CONDITIONS]);
    for (const c of specs) expect(ud10.isOut({ conditions: [c.id] })).toBe(Boolean(c.out));
    expect(specs.find((c) => c.id === "moving")!.duration).toBe("round");
    expect(specs.find((c) => c.id === "aiming1")!.duration).toBe("permanent");
  });
});

describe("UD10 round lifecycle", () => {
  const economy = () => createEconomy(ud10.economy(fighter(), opts));

  it("UD-ATK-04: aiming sets one round of aim, a second round two, never more", () => {
    let c = fighter();
    const once = ud10.afterAction!(c, { kind: "action", id: "aim" }, economy(), opts);
    expect(once.combatant.conditions).toEqual(["aiming1"]);
    expect(once.events).toEqual([{ rule: "UD-ATK-04", label: "FRAY.Situation.Ud10.Event.AimedOne", data: { rounds: 1 } }]);
    c = ud10.afterAction!(once.combatant, { kind: "action", id: "aim" }, economy(), opts).combatant;
    expect(c.conditions).toEqual(["aiming2"]);
    expect(ud10.afterAction!(c, { kind: "action", id: "aim" }, economy(), opts).combatant.conditions).toEqual(["aiming2"]);
  });

  it("UD-ATK-04: the shot spends the aim, so the next shot has no bonus", async () => {
    const aimed = fighter({ conditions: ["aiming2"] });
    // Attack d10 4 + ranged 6 + aim 4 = 14 against defense 12: a hit only with the aim.
    const step = await attackStep(ud10, req("rifle"), aimed, target(), new ScriptedRoller([4, 5, 1, 1]), opts);
    expect(step.result.hit).toBe(true);
    const spent = ud10.afterAction!(aimed, { kind: "attack", weaponId: "rifle", result: step.result }, economy(), opts);
    expect(spent.combatant.conditions).toEqual([]);
    expect(spent.events.map((e) => e.label)).toEqual(["FRAY.Situation.Ud10.Event.AimSpent"]);
    const next = await attackStep(ud10, req("rifle"), spent.combatant, target(), new ScriptedRoller([4]), opts);
    expect(next.result.hit).toBe(false);
  });

  it("UD-ATK-04, UD-ACT-02: another action taking the round's action ends the aim; a reaction or a flight does not", () => {
    const aimed = fighter({ conditions: ["aiming1", "prone"] });
    for (const id of ["reload", "ready", "useItem", "skill", "retreat"]) {
      const r = ud10.afterAction!(aimed, { kind: "action", id }, economy(), opts);
      expect(r.combatant.conditions).toEqual(["prone"]);
      expect(r.events.map((e) => e.label)).toEqual(["FRAY.Situation.Ud10.Event.AimLost"]);
    }
    for (const id of ["parry", "dodge", "flee"])
      expect(ud10.afterAction!(aimed, { kind: "action", id }, economy(), opts).combatant.conditions).toEqual(["aiming1", "prone"]);
    expect(ud10.afterAction!(fighter(), attackOutcome(), economy(), opts).events).toEqual([]);
    expect(fieldOf(() => ud10.afterAction!(aimed, { kind: "action", id: "dance" }, economy(), opts))).toBe("action");
  });

  it("UD-ACT-02: afterAction leaves paying the cost to the host: the economy comes back as given", () => {
    const paid = spend(economy(), { slots: { action: 1 } });
    expect(ud10.afterAction!(fighter(), { kind: "action", id: "aim" }, paid, opts).economy).toEqual(paid);
  });

  it("UD-ACT-01, UD-REA-01, UD-ATK-04: a new round gives a fresh economy, ends moving and keeps the aim", () => {
    const used = spend(economy(), { slots: { movement: 1, action: 1, reaction: 1 } });
    const c = fighter({ conditions: ["moving", "aiming1"] });
    const next = ud10.startRound!(c, used, 2, opts);
    expect(next.economy).toEqual(economy());
    expect(next.combatant.conditions).toEqual(["aiming1"]);
    expect(next.events.map((e) => e.label)).toEqual(["FRAY.Situation.Ud10.Event.MovingEnds"]);
    const first = ud10.startRound!(c, undefined, 1, opts);
    expect(first.combatant.conditions).toEqual(["moving", "aiming1"]);
    expect(first.events).toEqual([]);
  });
});

describe("UD10 vitals written back", () => {
  const source: ActorSource = {
    _id: "bo",
    name: "Bo",
    type: "npc",
    system: { attributes: { STR: 2, DEX: 2, CON: 3 }, skills: { melee: 4 }, hp: { value: 18, max: 18 }, ep: { value: 16, max: 16 } },
    items: [{ _id: "vest", name: "Vest", type: "armor", system: { zones: { torso: { rating: 2, buffer: 2 } } } }],
  };

  it("UD-DMG-03, UD-DMG-04: vitalsUpdate stores HP and EP where the source translation reads them", () => {
    const bo = ud10CombatantFromActor(source);
    const report = ud10.applyDamage(
      bo,
      { roll: { formula: "20", total: 20, dice: [], constant: 20 }, amount: 20, location: "torso", penetration: 0 },
      opts,
    );
    const update = ud10.vitalsUpdate!(report.after);
    expect(update).toEqual({ system: { hp: { value: report.after.hp!.value }, ep: { value: report.after.ep!.value } } });
    const sys = source.system as { hp: object; ep: object };
    const written: ActorSource = {
      ...source,
      system: {
        ...source.system,
        hp: { ...sys.hp, ...(update.system as { hp: object }).hp },
        ep: { ...sys.ep, ...(update.system as { ep: object }).ep },
      },
    };
    const back = ud10.vitals(ud10CombatantFromActor(written));
    expect(back.hp).toEqual(report.after.hp);
    expect(back.ep).toEqual(report.after.ep);
  });

  it("UD-DMG-04: withVitals gives back the vital state it was given", () => {
    const state = { hp: { value: -2, max: 20 }, ep: { value: 0, max: 15 }, conditions: ["unconscious", "incapacitated"] };
    expect(ud10.vitals(ud10.withVitals!(fighter(), state))).toEqual(state);
  });
});
