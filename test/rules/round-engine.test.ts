import { describe, expect, it } from "vitest";
import { ScriptedRoller, seededSource, type DiceRoller } from "../../src/rules/core/dice/port.js";
import { FrayError } from "../../src/rules/core/errors.js";
import { RoundEngine, type RoundEntry } from "../../src/rules/core/round.js";
import type { Ruleset, RulesetOptions } from "../../src/rules/core/ruleset.js";
import { fixture as critical } from "../contract/fixtures/critical.js";
import { fixture as hitbox } from "../contract/fixtures/hitbox.js";
import { fixture as ud10 } from "../contract/fixtures/ud10.js";
import { fixture as zones } from "../contract/fixtures/zones.js";
import { forcedCheckDue, hitbox as hitboxRules, type HitboxAttackInput, type HitboxCombatant } from "../../src/rules/hitbox/index.js";
import type { ContractFixture } from "../contract/fixture.js";

/** A roller that counts its rolls. */
function counting(faces: number[] = []): DiceRoller & { count: number } {
  const inner = new ScriptedRoller(faces, seededSource(7));
  const roller = {
    count: 0,
    roll: (formula: string, purpose?: string) => {
      roller.count += 1;
      return inner.roll(formula, purpose);
    },
  };
  return roller;
}

/** The fixture's two combatants as an engine's entries on two sides. */
function entries<C, I>(f: ContractFixture<C, I>): RoundEntry<C>[] {
  return [
    { id: f.request.attackerId, side: "a", combatant: f.attacker },
    { id: f.request.targetId!, side: "b", combatant: f.target },
  ];
}

function engine<C, I>(
  f: ContractFixture<C, I>,
  dice: DiceRoller,
  options: RulesetOptions = {},
  maxRounds = 3,
  out?: (c: C) => boolean,
): RoundEngine<C, I> {
  const ruleset = f.ruleset as Ruleset<C, I>;
  return new RoundEngine(ruleset, entries(f), dice, { options: { ...ruleset.defaults(), ...f.options, ...options }, maxRounds, out });
}

/** Plays the first two rounds' initiative; returns the events and the dice rolled in round 2. */
async function twoRounds<C, I>(f: ContractFixture<C, I>, options: RulesetOptions = {}) {
  const dice = counting();
  const e = engine(f, dice, options);
  e.nextRound();
  const first = await e.rollInitiative();
  const before = dice.count;
  e.nextRound();
  const second = await e.rollInitiative();
  return { first, second, rolledInRound2: dice.count - before, rolledInRound1: before };
}

describe("round engine: initiative by timing", () => {
  it("UD-INI-01: UD10 rolls initiative again every round by default", async () => {
    const r = await twoRounds(ud10);
    expect(r.first.kept).toBe(false);
    expect(r.second.kept).toBe(false);
    expect(r.rolledInRound1).toBe(2);
    expect(r.rolledInRound2).toBe(2);
    expect([...r.second.order].sort()).toEqual(["ana", "bo"]);
  });

  it("UD-INI-03: UD10 keeps the first round's initiative with the carry-over option", async () => {
    const r = await twoRounds(ud10, { initiativeCarryOver: true });
    expect(r.second.kept).toBe(true);
    expect(r.rolledInRound2).toBe(0);
    expect(r.second.order).toEqual(r.first.order);
  });

  it("CR-INI-01: Critical rolls initiative once per combat", async () => {
    const r = await twoRounds(critical);
    expect(r.rolledInRound1).toBe(2);
    expect(r.rolledInRound2).toBe(0);
    expect(r.second.kept).toBe(true);
    expect(r.second.rolls).toEqual(r.first.rolls);
  });

  it("ZN-INI-01: Zones rolls every round unless fixed (ZN-INI-03)", async () => {
    const each = await twoRounds(zones, { fixedInitiative: false });
    expect(each.rolledInRound2).toBe(2);
    const fixed = await twoRounds(zones, { fixedInitiative: true });
    expect(fixed.rolledInRound2).toBe(0);
    expect(fixed.second.kept).toBe(true);
  });

  it("HB-ACT-01: Hitbox rolls no initiative and everyone acts in the order given", async () => {
    const r = await twoRounds(hitbox);
    expect(r.rolledInRound1 + r.rolledInRound2).toBe(0);
    expect(r.first.rolls).toEqual([]);
    expect(r.first.order).toEqual([hitbox.request.attackerId, hitbox.request.targetId]);
  });

  it("UD-INI-01: the higher total acts first, and the turns skip a combatant who is out", async () => {
    const e = engine(ud10, new ScriptedRoller([2, 9]), {}, 3, (c) => c.conditions.includes("fled"));
    e.nextRound();
    const init = await e.rollInitiative();
    expect(init.order).toEqual(["bo", "ana"]);
    e.update("bo", { ...e.get("bo").combatant, conditions: ["fled"] });
    expect([...e.turns()]).toEqual(["ana"]);
  });
});

describe("round engine: economy and afterAction", () => {
  it("UD-ACT-02: one action a round: a second attack is refused and nothing is rolled", async () => {
    const dice = counting([...ud10.hitFaces, ...ud10.missFaces]);
    const e = engine(ud10, dice);
    e.nextRound();
    e.startRound();
    const first = await e.attack(ud10.request);
    expect(first?.step.result.lands).toBe(true);
    const rolled = dice.count;
    const second = await e.attack(ud10.request);
    expect(second).toBeUndefined();
    expect(dice.count).toBe(rolled);
    expect(e.events.at(-1)).toMatchObject({ type: "refused", actor: "ana", action: "attack", missing: "action" });
  });

  it("UD-ATK-04: aiming is paid from the economy and marks the combatant; the attack spends the aim", async () => {
    const e = engine(ud10, new ScriptedRoller([...ud10.hitFaces]));
    e.nextRound();
    e.startRound();
    const aimed = e.act("ana", "aim");
    expect(aimed?.some((x) => x.rule === "UD-ATK-04")).toBe(true);
    expect(e.get("ana").combatant.conditions).toContain("aiming1");
    expect(e.get("ana").economy.slots.action!.used).toBe(1);
    // The action is spent: attacking is refused.
    expect(await e.attack(ud10.request)).toBeUndefined();
  });

  it("CR-AP-01: attacks are paid in AP until the 4 AP of the round are spent", async () => {
    const e = engine(critical, new ScriptedRoller([], seededSource(3)));
    e.nextRound();
    e.startRound(true);
    const cost = e.costOf(critical.request.attackerId, "attack")!;
    const ap = e.get(critical.request.attackerId).economy.pools.ap!.value;
    expect(ap).toBe(4);
    let paid = 0;
    while (e.pay(critical.request.attackerId, "attack", cost)) paid += 1;
    expect(paid).toBe(Math.floor(4 / cost.pools!.ap!));
    expect(e.events.at(-1)).toMatchObject({ type: "refused", missing: "ap" });
  });

  for (const f of [ud10, critical, hitbox, zones] as ContractFixture[]) {
    it(`${f.ruleset.id === "ud10" ? "UD-DMG-01" : f.ruleset.id === "critical" ? "CR-AP-02" : f.ruleset.id === "hitbox" ? "HB-ACT-01" : "ZN-ZON-02"}: ${f.ruleset.id}: an attack that lands is paid and its damage applied to the target`, async () => {
      const e = engine(f, new ScriptedRoller(f.hitFaces, seededSource(5)));
      e.nextRound();
      e.startRound(true);
      const before = JSON.stringify(e.get(f.request.attackerId).economy);
      const vitals = f.ruleset.vitals(f.target);
      const record = await e.attack(f.request);
      expect(record?.step.result.lands).toBe(true);
      expect(JSON.stringify(e.get(f.request.attackerId).economy)).not.toBe(before);
      expect(f.ruleset.vitals(e.get(f.request.targetId!).combatant)).not.toEqual(vitals);
      expect(record?.target?.combatant).toBe(e.get(f.request.targetId!).combatant);
    });
  }
});

describe("round engine: the end of the fight", () => {
  it("UD-INI-01: the fight ends when one side is down, that side winning", () => {
    const e = engine(ud10, new ScriptedRoller([]), {}, 5, (c) => c.conditions.includes("fled"));
    e.nextRound();
    expect(e.isOver()).toBeUndefined();
    e.update("bo", { ...e.get("bo").combatant, conditions: ["fled"] });
    expect(e.isOver()).toEqual({ round: 1, winner: "a", reason: "side-down" });
    expect(e.events.at(-1)).toMatchObject({ type: "end", winner: "a" });
    // Both sides down at once: the fight ends without a winner, its end recorded once.
    for (const f of e.all()) e.update(f.id, { ...f.combatant, conditions: ["fled"] });
    expect(e.isOver()).toEqual({ round: 1, winner: null, reason: "side-down" });
    expect(e.events.filter((x) => x.type === "end")).toHaveLength(1);
  });

  it("HB-ACT-01: the fight ends without a winner once the last round is played", () => {
    const e = engine(hitbox, new ScriptedRoller([]), {}, 2);
    e.nextRound();
    expect(e.isOver()).toBeUndefined();
    e.nextRound();
    expect(e.isOver()).toEqual({ round: 2, winner: null, reason: "max-rounds" });
  });

  it("CR-INI-01: bad maxRounds and a repeated id are refused naming the field", () => {
    expect(() => engine(critical, new ScriptedRoller([]), {}, 0)).toThrow(FrayError);
    try {
      engine(critical, new ScriptedRoller([]), {}, 0);
    } catch (error) {
      expect((error as FrayError).data.field).toBe("maxRounds");
    }
    const twice = [...entries(critical), entries(critical)[0]!];
    expect(
      () => new RoundEngine(critical.ruleset, twice, new ScriptedRoller([]), { options: critical.ruleset.defaults(), maxRounds: 1 }),
    ).toThrow(/twice/);
  });
});

describe("round engine: simultaneous steps", () => {
  /** Zeven and her double Zed, each with a holdout pistol, on two sides; no reactions declared. */
  function duel(faces: number[]) {
    const zed: HitboxCombatant = { ...hitbox.attacker, id: "zed", name: "Zed" };
    const e = new RoundEngine<HitboxCombatant, HitboxAttackInput>(
      hitboxRules,
      [
        { id: "zeven", side: "a", combatant: hitbox.attacker },
        { id: "zed", side: "b", combatant: zed },
      ],
      new ScriptedRoller(faces),
      { options: { ...hitboxRules.defaults(), ...hitbox.options }, maxRounds: 3 },
    );
    e.nextRound();
    e.startRound();
    return e;
  }
  const shot = (attackerId: string, targetId: string) => ({ attackerId, targetId, weaponId: "pistol", distanceMetres: 4.572 });
  const head = (e: RoundEngine<HitboxCombatant, HitboxAttackInput>, id: string) =>
    hitboxRules.vitals(e.get(id).combatant).hitboxes!.head!.value;

  it("HB-ACT-01: two combatants who shoot each other in one step both fire; the damage lands together at the step's end, held for each until then", async () => {
    // Zeven: 6+6 hits, location 1+1 = head; Zed: the same; then Zed's Blackout 1+1 fails, Zeven's 6+6 passes (HB-DMG-04).
    const e = duel([6, 6, 1, 1, 6, 6, 1, 1, 1, 1, 6, 6]);
    const during: number[] = [];
    const { value, damaged, forced } = await e.step(async () => {
      expect(e.heldState("zed")).toBeUndefined();
      const first = await e.attack(shot("zeven", "zed"), { free: true });
      // Zed's head hit is held: he still stands and has his full head when he fires back.
      during.push(head(e, "zed"), Number(e.isOut("zed")));
      // The step holds the state with the hit, for Zed only.
      expect(hitboxRules.vitals(e.heldState("zed")!).hitboxes!.head!.value).toBe(1);
      expect(e.heldState("zeven")).toBeUndefined();
      expect(() => e.heldState("nobody")).toThrow(FrayError);
      const second = await e.attack(shot("zed", "zeven"), { free: true });
      during.push(head(e, "zeven"));
      return [first, second];
    });
    expect(during).toEqual([2, 0, 2]);
    expect(value.map((r) => [r?.step.result.hit, r?.step.result.location?.id])).toEqual([
      [true, "head"],
      [true, "head"],
    ]);
    expect(value[0]?.target?.combatant && hitboxRules.vitals(value[0].target.combatant).hitboxes!.head!.value).toBe(1);
    expect(damaged).toEqual(["zed", "zeven"]);
    expect(e.heldState("zed")).toBeUndefined();
    expect([head(e, "zeven"), head(e, "zed")]).toEqual([1, 1]);
    expect(forced.map((f) => [f.actor, f.result.check.total, f.result.success])).toEqual([
      ["zed", 5, false],
      ["zeven", 15, true],
    ]);
    expect(e.isOut("zed")).toBe(true);
    expect(e.isOut("zeven")).toBe(false);
    expect(e.events.filter((x) => x.type === "forced").length).toBe(2);
  });

  it("HB-ACT-01: without a step the same first shot and a failed Blackout put Zed out before he can fire", async () => {
    const e = duel([6, 6, 1, 1, 1, 1]);
    const record = await e.attack(shot("zeven", "zed"), { free: true });
    expect(record?.forced.map((f) => f.result.success)).toEqual([false]);
    expect(e.isOut("zed")).toBe(true);
    expect(head(e, "zed")).toBe(1);
  });

  it("HB-DMG-04: two hits on one target in a step add up, and a check no longer due is skipped", async () => {
    // Two shots at Zed's torso (location 3+4 each, 3 points): both force a Blackout test; the
    // first fails (shock), so the second is no longer due.
    const e = duel([6, 6, 3, 4, 6, 6, 3, 4, 1, 1]);
    const torso = () => hitboxRules.vitals(e.get("zed").combatant).hitboxes!.torso!.value;
    const { forced } = await e.step(
      async () => {
        await e.attack(shot("zeven", "zed"), { free: true });
        await e.attack(shot("zeven", "zed"), { free: true });
        expect(torso()).toBe(3);
      },
      { due: forcedCheckDue },
    );
    expect(torso()).toBe(1);
    expect(forced.map((f) => f.result.success)).toEqual([false]);
    expect(e.get("zed").combatant.conditions).toContain("shock");
  });

  it("HB-ACT-01, HB-DMG-04: a step played at once gives the record and combatants of the same step awaited", async () => {
    const faces = [6, 6, 3, 4, 6, 6, 3, 4, 1, 1];
    const awaited = duel(faces);
    const atOnce = duel(faces);
    const a = await awaited.step(
      async () => {
        await awaited.quietAttack(shot("zeven", "zed"), { free: true });
        await awaited.quietAttack(shot("zeven", "zed"), { free: true });
        return "played";
      },
      { due: forcedCheckDue },
    );
    const b = atOnce.stepSync(
      () => {
        atOnce.quietAttackSync(shot("zeven", "zed"), { free: true });
        atOnce.quietAttackSync(shot("zeven", "zed"), { free: true });
        return "played";
      },
      { due: forcedCheckDue },
    );
    expect(b).toEqual(a);
    expect(b.forced.map((f) => f.result.success)).toEqual([false]);
    for (const id of ["zeven", "zed"]) expect(atOnce.get(id).combatant).toEqual(awaited.get(id).combatant);
    expect(atOnce.get("zed").combatant.conditions).toContain("shock");
    expect(atOnce.inStep).toBe(false);
  });

  it("HB-ACT-01: a step played at once refuses a promise, dice that roll only by promise, and a step already open", async () => {
    const e = duel([6, 6, 1, 1]);
    expect(() =>
      e.stepSync(() => {
        e.quietAttackSync(shot("zeven", "zed"), { free: true });
        return Promise.resolve();
      }),
    ).toThrow(expect.objectContaining({ key: "FRAY.Error.Field", data: expect.objectContaining({ field: "step" }) }));
    expect(e.inStep).toBe(false);
    expect(head(e, "zed")).toBe(2);
    await expect(e.step(async () => e.stepSync(() => undefined))).rejects.toMatchObject({ data: { field: "step" } });
    // Dice without a synchronous roll: refused before anything is played.
    const scripted = new ScriptedRoller([6, 6, 1, 1]);
    const byPromise = new RoundEngine(
      hitboxRules,
      [
        { id: "zeven", side: "a", combatant: hitbox.attacker },
        { id: "zed", side: "b", combatant: e.get("zed").combatant },
      ],
      { roll: (formula: string, purpose?: string) => scripted.roll(formula, purpose) },
      { options: { ...hitboxRules.defaults(), ...hitbox.options }, maxRounds: 3 },
    );
    let played = false;
    expect(() => byPromise.stepSync(() => (played = true))).toThrow(FrayError);
    expect(played).toBe(false);
    expect(byPromise.inStep).toBe(false);
  });

  it("HB-ACT-01: a step that throws drops its held damage, and steps do not nest", async () => {
    const e = duel([6, 6, 1, 1]);
    await expect(
      e.step(async () => {
        await e.attack(shot("zeven", "zed"), { free: true });
        await e.step(() => undefined);
      }),
    ).rejects.toMatchObject({ key: "FRAY.Error.Field", data: { field: "step" } });
    expect(e.inStep).toBe(false);
    expect(head(e, "zed")).toBe(2);
  });
});

describe("round engine: quiet play for a forecast", () => {
  const cases: [string, ContractFixture<unknown, unknown>][] = [
    ["UD-ATK-01", ud10 as ContractFixture<unknown, unknown>],
    ["HB-ATK-01", hitbox as ContractFixture<unknown, unknown>],
    ["CR-ATK-01", critical as ContractFixture<unknown, unknown>],
    ["ZN-RNG-01", zones as ContractFixture<unknown, unknown>],
  ];
  for (const [rule, f] of cases) {
    it(`${rule}: ${f.ruleset.id}: lazy odds and no kept events play the same attack; the odds are computed when read`, async () => {
      const play = async (quiet: boolean) => {
        const ruleset = f.ruleset as Ruleset<unknown, unknown>;
        const options = { ...ruleset.defaults(), ...f.options };
        const e = new RoundEngine(ruleset, entries(f), new ScriptedRoller(f.hitFaces, seededSource(3)), {
          options,
          maxRounds: 3,
          lazyOdds: quiet,
          keepEvents: !quiet,
        });
        e.nextRound();
        e.startRound();
        const done = await e.attack(f.request);
        return { e, done: done! };
      };
      const full = await play(false);
      const quiet = await play(true);
      expect(full.e.events.length).toBeGreaterThan(0);
      expect(quiet.e.events).toEqual([]);
      expect(quiet.done.step.result).toEqual(full.done.step.result);
      expect(quiet.done.step.report).toEqual(full.done.step.report);
      expect(quiet.done.target?.combatant).toEqual(full.done.target?.combatant);
      expect(Object.getOwnPropertyDescriptor(quiet.done.step, "odds")?.get).toBeTypeOf("function");
      expect(Object.getOwnPropertyDescriptor(full.done.step, "odds")?.get).toBeUndefined();
      expect(quiet.done.step.odds).toEqual(full.done.step.odds);
    });
  }
});
