import { describe, expect, it } from "vitest";
import { createEconomy, spend } from "../../src/rules/core/economy.js";
import { ScriptedRoller } from "../../src/rules/core/dice/port.js";
import { FrayError } from "../../src/rules/core/errors.js";
import type { DamagePacket } from "../../src/rules/core/ruleset.js";
import {
  ACTIONS,
  afterShot,
  aimedZoneSize,
  catastrophicDamage,
  clearMalfunction,
  contest,
  declareReaction,
  draw,
  endSurprise,
  expireReactions,
  hideWeapon,
  parseCombatant,
  parseWeapon,
  planMove,
  rangeBand,
  rangeBands,
  regainSpeed,
  reload,
  resolveBlast,
  sizeFromStance,
  skillCheck,
  startSuppression,
  startSurprise,
  suppressAction,
  SUPPRESSION_GUIDE,
  talkCost,
  triggerReaction,
  vitalOutcome,
  zoneForRoll,
  zones,
  zonesOptions,
  type ZonesAttackInput,
  type ZonesAttackResult,
  type ZonesCombatant,
  type ZonesDamagePacket,
} from "../../src/rules/zones/index.js";

const opts = zones.defaults();
const zo = zonesOptions(opts);

/** The seed's rifleman: DEX +1, PER +1, three ranks of Firearms; a rifle with effective range 300 m, recoil 2, bursts of 3. */
function shooter(overrides: Record<string, unknown> = {}): ZonesCombatant {
  return parseCombatant({
    id: "s",
    name: "Sam",
    attributes: { STR: 1, DEX: 1, CON: 0, PER: 1 },
    skills: { firearms: 3, melee: 2, throwing: 2, dodge: 1, stealth: 2, notice: 1 },
    hp: 30,
    speed: 8,
    effort: 4,
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
        spareMagazines: 2,
      },
      {
        id: "glock",
        name: "Pistol",
        kind: "firearm",
        effectiveRange: 50,
        damage: "1d6+2",
        damageTypes: ["piercing"],
        magazine: 17,
        carry: "holster",
        drawn: false,
        concealable: true,
      },
      {
        id: "knife",
        name: "Knife",
        kind: "melee",
        damage: "1d6",
        damageTypes: ["piercing", "slashing"],
        carry: "hidden",
        drawn: false,
        concealable: true,
      },
      { id: "club", name: "Club", kind: "melee", damage: "1d6+1", damageTypes: ["bludgeoning"] },
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
    ],
    ...overrides,
  });
}

/** A human target: STR +1, CON +1, DEX +1, two ranks of Dodge; no armor unless given. */
function target(overrides: Record<string, unknown> = {}): ZonesCombatant {
  return parseCombatant({
    id: "t",
    name: "Tal",
    kind: "npc",
    attributes: { STR: 1, DEX: 1, CON: 1, PER: 0 },
    skills: { dodge: 2, notice: 2, melee: 2 },
    hp: 30,
    weapons: [{ id: "baton", name: "Baton", kind: "melee", damage: "1d6", damageTypes: ["bludgeoning"] }],
    ...overrides,
  });
}

const input = (extra: Partial<ZonesAttackInput> = {}): ZonesAttackInput => ({
  attacker: shooter(),
  target: target(),
  weaponId: "rifle",
  rangeMetres: 100,
  ...extra,
});
const lines = (mods: { label: string; value: number; rule: string }[]) => mods.map((m) => `${m.rule} ${m.value}`);
const packet = (amount: number, location: string, type: string, extra: Partial<ZonesDamagePacket> = {}): ZonesDamagePacket => ({
  roll: { formula: String(amount), total: amount, dice: [], constant: amount },
  amount,
  location,
  type,
  ...extra,
});
const frayKey = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    return e instanceof FrayError ? e.key : `not a FrayError: ${String(e)}`;
  }
  return undefined;
};
const frayKeyAsync = async (p: Promise<unknown>): Promise<string | undefined> => {
  try {
    await p;
  } catch (e) {
    return e instanceof FrayError ? e.key : `not a FrayError: ${String(e)}`;
  }
  return undefined;
};

describe("Zones turns and actions", () => {
  it("ZN-ACT-01: a turn has 1 action, 1 reaction and 1 free action; perks may change the counts", () => {
    const eco = createEconomy(zones.economy(shooter(), opts));
    expect(Object.fromEntries(Object.entries(eco.slots).map(([k, v]) => [k, v.max]))).toEqual({ action: 1, reaction: 1, free: 1 });
    expect(() => spend(spend(eco, { slots: { action: 1 } }), { slots: { action: 1 } })).toThrow(FrayError);
    const quick = createEconomy(zones.economy(shooter({ actions: { action: 2 } }), opts));
    expect(quick.slots.action!.max).toBe(2);
    expect(spend(spend(quick, { slots: { action: 1 } }), { slots: { action: 1 } }).slots.action!.used).toBe(2);
  });

  it("ZN-ACT-02: moving, using an item, attacking, aiming and a skill check each take the action", () => {
    const ids = ACTIONS.map((a) => a.id);
    expect(ids).toEqual(expect.arrayContaining(["move", "useItem", "attack", "aim", "skill"]));
    for (const a of ACTIONS) expect(a.cost).toEqual({ slots: { action: 1 } });
    // Moving with speed points takes the action by default; a setting lets movement cost only points.
    const c = shooter();
    const eco = createEconomy(zones.economy(c, opts));
    expect(planMove(c, eco, [{ mode: "walk", metres: 3 }], zo).cost).toEqual({ slots: { action: 1 }, pools: { speed: 3, effort: 0 } });
    expect(planMove(c, eco, [{ mode: "walk", metres: 3 }], { moveTakesAction: false }).cost).toEqual({ pools: { speed: 3, effort: 0 } });
  });

  it("ZN-FRE-01: one free action per turn; ten words of talk are free, longer speech takes the action", () => {
    expect(talkCost(10)).toEqual({ slots: { free: 1 } });
    expect(talkCost(11)).toEqual({ slots: { action: 1 } });
    const eco = spend(createEconomy(zones.economy(shooter(), opts)), talkCost(4));
    expect(() => spend(eco, talkCost(3))).toThrow(FrayError);
    expect(frayKey(() => talkCost(-1))).toBe("FRAY.Error.Field");
  });

  it("ZN-REA-01: a declared reaction spends the reaction and stays until the declarer's next turn, then is lost", () => {
    const eco = createEconomy(zones.economy(shooter(), opts));
    const { reaction, economy } = declareReaction(eco, "s", "Tal reaches for his gun", "draw", 1);
    expect(economy.slots.reaction!.used).toBe(1);
    expect(() => declareReaction(economy, "s", "again", "attack", 1)).toThrow(FrayError);
    // Tal's turn begins: Sam's reaction still waits.
    let pending = expireReactions([reaction], "t").kept;
    expect(pending).toHaveLength(1);
    // It triggers: taken from the list and acted on.
    expect(triggerReaction(pending, reaction.id).pending).toEqual([]);
    // Untriggered, it is lost when Sam's next turn begins.
    const { kept, lost } = expireReactions(pending, "s");
    expect(kept).toEqual([]);
    expect(lost.map((r) => r.action)).toEqual(["draw"]);
    pending = kept;
    expect(frayKey(() => triggerReaction(pending, reaction.id))).toBe("FRAY.Error.Zones.NoReaction");
  });

  it("ZN-REA-02: a contest is d10 + DEX modifier each, the higher wins; ties are rolled again", async () => {
    const fast = shooter({ attributes: { DEX: 3 } });
    const slow = target({ attributes: { DEX: 0 } });
    const win = await contest(fast, slow, new ScriptedRoller([4, 6]));
    expect(win.rounds[0]!.actor.total).toBe(7);
    expect(win.rounds[0]!.reactor.total).toBe(6);
    expect(win.winner).toBe("actor");
    const tie = await contest(fast, slow, new ScriptedRoller([4, 7, 2, 9]));
    expect(tie.rounds).toHaveLength(2);
    expect(tie.winner).toBe("reactor");
  });
});

describe("Zones movement", () => {
  const c = shooter();
  const eco = () => createEconomy(zones.economy(c, opts));
  const points = (legs: Parameters<typeof planMove>[2]) => planMove(c, eco(), legs, zo).points;

  it("ZN-MOV-01: walking 1/m, running 1 per 2 m, jumping 2/m, running jump 1/m, crawling 2/m, climbing 3/m; stance 1, up from prone 2", () => {
    expect(points([{ mode: "walk", metres: 5 }])).toBe(5);
    expect(points([{ mode: "run", metres: 8 }])).toBe(4);
    expect(points([{ mode: "run", metres: 3 }])).toBe(2); // rounded up
    expect(points([{ mode: "jump", metres: 1 }])).toBe(2);
    expect(points([{ mode: "runningJump", metres: 2 }])).toBe(2);
    expect(points([{ mode: "crawl", metres: 2 }])).toBe(4);
    expect(points([{ mode: "climb", metres: 2 }])).toBe(6);
    expect(points([{ stance: "kneeling" }])).toBe(1);
    const prone = shooter({ stance: "prone" });
    expect(planMove(prone, eco(), [{ stance: "standing" }], zo)).toMatchObject({ points: 2, stance: "standing" });
    expect(planMove(c, eco(), [{ mode: "run", metres: 6 }], zo).movement).toBe("fast");
    expect(planMove(c, eco(), [{ mode: "runningJump", metres: 1 }], zo).movement).toBe("fast");
    expect(planMove(c, eco(), [{ mode: "walk", metres: 2 }], zo).movement).toBe("slow");
    // The ruler: walking covers the speed points (plus effort), running twice as far.
    expect(zones.movement(c, opts).map((b) => [b.id, b.maxMetres])).toEqual([
      ["walk", 12],
      ["run", 24],
    ]);
    expect(zones.movementBand(c, 5, opts)?.cost).toEqual({ slots: { action: 1 }, pools: { speed: 5, effort: 0 } });
    expect(zones.movementBand(c, 16, opts)).toMatchObject({ id: "run", cost: { pools: { speed: 8, effort: 0 } } });
    expect(zones.movementBand(c, 25, opts)).toBeUndefined();
  });

  it("ZN-MOV-02: difficult terrain doubles movement costs but not stance changes", () => {
    expect(points([{ mode: "walk", metres: 3, difficult: true }])).toBe(6);
    expect(points([{ mode: "run", metres: 4, difficult: true }])).toBe(4);
    expect(points([{ mode: "walk", metres: 1, difficult: true }, { stance: "kneeling" }])).toBe(3);
    expect(planMove(c, eco(), [{ mode: "walk", metres: 1, difficult: true }], zo).rules).toContain("ZN-MOV-02");
  });

  it("ZN-MOV-03: out of speed points a character cannot move; an action regains them", () => {
    const tired = shooter({ speed: { value: 0, max: 8 }, effort: 0 });
    const e = createEconomy(zones.economy(tired, opts));
    expect(e.pools.speed).toEqual({ value: 0, max: 8 });
    expect(frayKey(() => planMove(tired, e, [{ mode: "walk", metres: 1 }], zo))).toBe("FRAY.Error.Zones.NotEnoughPoints");
    const regained = regainSpeed(e);
    expect(regained.pools.speed!.value).toBe(8);
    expect(regained.slots.action!.used).toBe(1);
    // The economy it was regained from stays as it was (economies are values).
    expect(e.pools.speed).toEqual({ value: 0, max: 8 });
    expect(e.slots.action!.used).toBe(0);
    // With the "round" setting speed points come back each round as well.
    expect(createEconomy(zones.economy(tired, { ...opts, speedRecovery: "round" })).pools.speed!.value).toBe(8);
  });

  it("ZN-MOV-04: effort points top up or replace speed points (the seed's run-and-jump with 2 speed left)", () => {
    const low = shooter({ speed: { value: 2, max: 8 }, effort: 4 });
    const e = createEconomy(zones.economy(low, opts));
    // Run 3 m (2 points, rounded up) and jump 1 m (2 points): 4 points, 2 from speed, 2 from effort.
    const plan = planMove(
      low,
      e,
      [
        { mode: "run", metres: 3 },
        { mode: "jump", metres: 1 },
      ],
      zo,
    );
    expect(plan).toMatchObject({ points: 4, speed: 2, effort: 2 });
    expect(plan.rules).toContain("ZN-MOV-04");
    const after = spend(e, plan.cost);
    expect(after.pools).toEqual({ speed: { value: 0, max: 8 }, effort: { value: 2, max: 4 } });
    // Effort in place of speed.
    expect(planMove(low, e, [{ mode: "walk", metres: 2 }], zo, 2)).toMatchObject({ speed: 0, effort: 2 });
    expect(frayKey(() => planMove(low, e, [{ mode: "walk", metres: 7 }], zo))).toBe("FRAY.Error.Zones.NotEnoughPoints");
  });
});

describe("Zones initiative and surprise", () => {
  it("ZN-INI-01: players plot first; initiative is d10 + DEX modifier + bonuses, rolled again every round", async () => {
    expect(zones.declaration).toBe("players-first");
    expect(zones.initiativeTiming(opts)).toBe("round");
    const a = shooter({ attributes: { DEX: 2 }, initiativeBonus: 1 });
    const b = target({ attributes: { DEX: 1 } });
    expect(zones.initiativeFormula(a)).toBe("1d10 + 3");
    const dice = new ScriptedRoller([5, 6]);
    const ra = await zones.rollInitiative([a], dice);
    const rb = await zones.rollInitiative([b], dice);
    expect(ra.total).toBe(8);
    expect(rb.total).toBe(7);
    expect(zones.order([rb, ra]).map((r) => r.members[0])).toEqual(["s", "t"]);
    // Ties: higher DEX first.
    const tie = await zones.rollInitiative([b], new ScriptedRoller([7]));
    const tie2 = await zones.rollInitiative([a], new ScriptedRoller([5]));
    expect(zones.order([tie, tie2])[0]!.members).toEqual(["s"]);
  });

  it("ZN-INI-02: each effort point spent before the roll adds 1", async () => {
    const c = shooter({ initiativeEffort: 2 });
    const r = await zones.rollInitiative([c], new ScriptedRoller([4]));
    expect(r.total).toBe(4 + 1 + 2);
    expect(lines(r.check.modifiers)).toEqual(["ZN-INI-01 1", "ZN-INI-02 2"]);
    expect(await frayKeyAsync(zones.rollInitiative([shooter({ initiativeEffort: 9 })], new ScriptedRoller([4])))).toBe(
      "FRAY.Error.Zones.NotEnoughPoints",
    );
  });

  it("ZN-INI-03: the alternative rolls initiative once for the whole encounter", () => {
    expect(zones.initiativeTiming({ ...opts, fixedInitiative: true })).toBe("combat");
    expect(zones.options.find((o) => o.id === "fixedInitiative")?.rule).toBe("ZN-INI-03");
  });

  it("ZN-SUR-01: in a surprise round the surprised side cannot act at all; afterwards it acts normally", () => {
    const [s, t] = startSurprise([shooter(), target({ group: "guards" })], ["guards"]);
    const eco = createEconomy(zones.economy(t!, opts));
    expect(Object.values(eco.slots).map((v) => v.max)).toEqual([0, 0, 0]);
    expect(createEconomy(zones.economy(s!, opts)).slots.action!.max).toBe(1);
    expect(frayKey(() => zones.planAttack({ attacker: t!, target: s!, weaponId: "baton" }, opts))).toBe("FRAY.Error.CannotAct");
    const [, t2] = endSurprise([s!, t!]);
    expect(createEconomy(zones.economy(t2!, opts)).slots.action!.max).toBe(1);
  });
});

describe("Zones ranged difficulty", () => {
  it("ZN-RNG-02: the Glock with 50 m effective range: maximum 25-50, far 12.5-25, medium 6.25-12.5, close below 6.25", () => {
    expect(rangeBands(50)).toEqual([
      { band: "close", min: 0, max: 6.25 },
      { band: "medium", min: 6.25, max: 12.5 },
      { band: "far", min: 12.5, max: 25 },
      { band: "maximum", min: 25, max: 50 },
    ]);
    expect(rangeBand(3, 50)).toBe("close");
    expect(rangeBand(6.2, 50)).toBe("close");
    expect(rangeBand(6.25, 50)).toBe("medium");
    expect(rangeBand(10, 50)).toBe("medium");
    expect(rangeBand(12.5, 50)).toBe("far");
    expect(rangeBand(20, 50)).toBe("far");
    expect(rangeBand(25, 50)).toBe("maximum");
    expect(rangeBand(50, 50)).toBe("maximum");
    expect(frayKey(() => rangeBand(51, 50))).toBe("FRAY.Error.Zones.OutOfRange");
    // The rifle of the worked example: 100 m with 300 m effective range is far.
    expect(rangeBand(100, 300)).toBe("far");
  });

  it("ZN-RNG-01: difficulty 5 + size/range + movement + stance + environment + misc, line by line (the worked example: 13)", () => {
    const plan = zones.planAttack(input({ target: target({ stance: "kneeling" }), situation: { environment: ["lowLight"] } }), opts);
    expect(plan.difficulty.base).toMatchObject({ value: 5, rule: "ZN-RNG-01" });
    expect(lines(plan.difficulty.modifiers)).toEqual(["ZN-RNG-03 8", "ZN-RNG-01 1", "ZN-RNG-05 -1"]);
    expect(plan.difficulty.total).toBe(13);
    const busy = zones.planAttack(input({ situation: { environment: ["darkness", "strongWind"], environmentModifier: 1, misc: 2 } }), opts);
    expect(lines(busy.difficulty.modifiers)).toEqual([
      "ZN-RNG-03 4",
      "ZN-RNG-01 4",
      "ZN-RNG-01 2",
      "ZN-RNG-01 1",
      "ZN-RNG-05 -1",
      "ZN-RNG-01 2",
    ]);
    expect(busy.difficulty.total).toBe(5 + 4 + 4 + 2 + 1 - 1 + 2);
    // The seed's text says +2 for low light; a setting gives groups that value.
    expect(
      zones.planAttack(input({ target: target({ stance: "kneeling" }), situation: { environment: ["lowLight"] } }), {
        ...opts,
        lowLightModifier: 2,
      }).difficulty.total,
    ).toBe(14);
    expect(frayKey(() => zones.planAttack(input({ rangeMetres: undefined }), opts))).toBe("FRAY.Error.Field");
    expect(frayKey(() => zones.planAttack(input({ rangeMetres: 301 }), opts))).toBe("FRAY.Error.Zones.OutOfRange");
  });

  it("ZN-RNG-03: the size/range table", () => {
    const d = (size: "tiny" | "small" | "medium" | "large" | "huge", range: number) =>
      zones.planAttack(input({ rangeMetres: range, situation: { targetSize: size } }), opts).difficulty.modifiers[0]!.value;
    // 300 m effective range: close < 37.5, medium < 75, far < 150, maximum to 300.
    expect([10, 50, 100, 200].map((r) => d("tiny", r))).toEqual([3, 6, 12, 18]);
    expect([10, 50, 100, 200].map((r) => d("small", r))).toEqual([2, 4, 8, 12]);
    expect([10, 50, 100, 200].map((r) => d("medium", r))).toEqual([1, 2, 4, 6]);
    expect([10, 50, 100, 200].map((r) => d("large", r))).toEqual([-12, -8, -4, -2]);
    expect([10, 50, 100, 200].map((r) => d("huge", r))).toEqual([-18, -12, -6, -3]);
  });

  it("ZN-RNG-04: still -2, subtle 0, slow +2, fast +4, for target and shooter alike and cumulative", () => {
    const total = (t: "still" | "subtle" | "slow" | "fast", s: "still" | "subtle" | "slow" | "fast") =>
      zones.planAttack(input({ situation: { targetMovement: t, shooterMovement: s } }), opts).difficulty.total;
    const base = total("subtle", "subtle");
    expect(total("still", "subtle") - base).toBe(-2);
    expect(total("slow", "subtle") - base).toBe(2);
    expect(total("subtle", "fast") - base).toBe(4);
    expect(total("fast", "fast") - base).toBe(8); // the running shooter at a running target
    // Read from the combatants: a target that ran is fast; an unconscious one is still.
    expect(zones.planAttack(input({ target: target({ movement: "fast" }) }), opts).difficulty.total - base).toBe(4);
    expect(zones.planAttack(input({ target: target({ conditions: ["unconscious"] }) }), opts).difficulty.total - base).toBe(-2);
  });

  it("ZN-RNG-05: shooter stance: standing -1, kneeling -2, prone firing -3, prone +2", () => {
    const stance = (s: "standing" | "kneeling" | "proneFiring" | "prone") =>
      zones.planAttack(input({ attacker: shooter({ stance: s }) }), opts).difficulty.modifiers.find((m) => m.rule === "ZN-RNG-05")!.value;
    expect([stance("standing"), stance("kneeling"), stance("proneFiring"), stance("prone")]).toEqual([-1, -2, -3, 2]);
  });

  it("ZN-RNG-06: the target's stance sets its size: standing medium, kneeling small, prone tiny", () => {
    expect(sizeFromStance("medium", "standing")).toBe("medium");
    expect(sizeFromStance("medium", "kneeling")).toBe("small");
    expect(sizeFromStance("medium", "prone")).toBe("tiny");
    expect(sizeFromStance("medium", "proneFiring")).toBe("tiny");
    expect(sizeFromStance("small", "prone")).toBe("tiny");
    const sizeLine = (stance: string) => zones.planAttack(input({ target: target({ stance }) }), opts).difficulty.modifiers[0]!;
    expect(sizeLine("standing").value).toBe(4);
    expect(sizeLine("kneeling").value).toBe(8);
    expect(sizeLine("prone")).toMatchObject({ value: 12, data: { size: "FRAY.Zones.Size.tiny", band: "FRAY.Zones.Band.far" } });
  });

  it("ZN-RNG-07: each aiming action lowers the difficulty by 2; the aim is lost unless fired in the same round", () => {
    const plain = zones.planAttack(input(), opts).difficulty.total;
    expect(zones.planAttack(input({ attacker: shooter({ aim: 1 }) }), opts).difficulty.total).toBe(plain - 2);
    expect(zones.planAttack(input({ situation: { aim: 2 } }), opts).difficulty.total).toBe(plain - 4);
    // Aiming takes an action: with the standard economy, aim and fire in one round needs a second action.
    const eco = spend(createEconomy(zones.economy(shooter(), opts)), ACTIONS.find((a) => a.id === "aim")!.cost);
    expect(() => spend(eco, ACTIONS.find((a) => a.id === "attack")!.cost)).toThrow(FrayError);
  });

  it("ZN-RNG-08: a check is d10 + attribute modifiers + skill ranks and hits when it meets the difficulty", async () => {
    const plan = zones.planAttack(input({ modeId: "single" }), opts);
    expect(lines(plan.modifiers)).toEqual(["ZN-RNG-08 1", "ZN-RNG-08 1", "ZN-RNG-08 3"]);
    expect(plan.difficulty.total).toBe(8);
    const meet = await zones.resolveAttack(plan, input(), new ScriptedRoller([3, 3, 4]), opts);
    expect(meet.check.total).toBe(8);
    expect(meet.hit).toBe(true);
    const miss = await zones.resolveAttack(plan, input(), new ScriptedRoller([2]), opts);
    expect(miss.hit).toBe(false);
    expect(miss.lands).toBe(false);
    const notice = await skillCheck(target(), "notice", 8, new ScriptedRoller([6]));
    expect(notice).toMatchObject({ success: true });
    expect(notice.check.total).toBe(8);
    expect(zones.odds(plan, input(), opts).hit).toBeCloseTo(0.8, 12); // a 3 or better on the d10
  });
});

describe("Zones bursts and firearms", () => {
  it("ZN-BST-01: the seed's burst: difficulty 13, recoil 2, a roll of 8 + 1 + 1 + 3 = 13 hits with the first bullet only", async () => {
    const inp = input({ target: target({ stance: "kneeling" }), modeId: "burst", situation: { environment: ["lowLight"] } });
    const plan = zones.planAttack(inp, opts);
    expect(plan.difficulty.total).toBe(13);
    const result = await zones.resolveAttack(plan, inp, new ScriptedRoller([8, 3, 3]), opts);
    expect(result.check.natural).toBe(8);
    expect(result.check.total).toBe(13);
    expect(result.bullets).toEqual({ fired: 3, hit: 1, difficulties: [13, 15, 17], stoppedBy: undefined });
    expect(result.locations?.map((l) => l.id)).toEqual(["torso"]);
    const odds = zones.odds(plan, inp, opts);
    expect(odds.outcomes?.bullet1).toBeCloseTo(0.3, 12);
    expect(odds.outcomes?.bullet2).toBeCloseTo(0.1, 12);
    expect(odds.outcomes?.bullet3).toBeCloseTo(0, 12);
    expect(odds.outcomes?.hits1).toBeCloseTo(0.2, 12);
    expect(odds.outcomes?.hits0).toBeCloseTo(0.7, 12);
  });

  it("ZN-BST-01: the seed's other example: difficulty 16, recoil 2, a 19 hits with two of three bullets; each bullet rolls its zone and damage", async () => {
    const strong = shooter({ skills: { firearms: 7 } });
    const inp2 = input({ attacker: strong, modeId: "burst", situation: { misc: 8 } }); // 5 + 4 - 1 + 8 = 16
    const plan2 = zones.planAttack(inp2, opts);
    expect(plan2.difficulty.total).toBe(16);
    const r2 = await zones.resolveAttack(plan2, inp2, new ScriptedRoller([10, 3, 4, 5, 6]), opts);
    expect(r2.check.total).toBe(19);
    expect(r2.bullets).toMatchObject({ fired: 3, hit: 2, difficulties: [16, 18, 20] });
    expect(r2.locations?.map((l) => l.id)).toEqual(["torso", "head"]);
    const dmg = await zones.rollDamage(r2, inp2, new ScriptedRoller([1, 1, 2, 2]), opts);
    expect(dmg.parts?.map((p) => [p.amount, p.location])).toEqual([
      [4, "torso"],
      [6, "head"],
    ]);
    const report = zones.applyDamage(target(), dmg, opts);
    expect(report.after.hp!.value).toBe(30 - 4 * 2 - 6 * 3);
    // Full auto: as many bullets as asked, never more than loaded.
    const auto = zones.planAttack({ ...inp2, modeId: "auto", bullets: 5 }, opts);
    const ra = await zones.resolveAttack(auto, { ...inp2, modeId: "auto", bullets: 5 }, new ScriptedRoller([10, 3, 4, 5, 6]), opts);
    expect(ra.bullets?.difficulties).toEqual([16, 18, 20, 22, 24]);
    expect(afterShot(strong.weapons[0]!, ra).loaded).toBe(25);
    expect(
      frayKey(() =>
        zones.planAttack(
          {
            ...inp2,
            weaponId: "glock",
            modeId: "burst",
            attacker: shooter({
              weapons: [{ id: "glock", name: "Pistol", kind: "firearm", effectiveRange: 50, damage: "1d6", magazine: 17 }],
            }),
          },
          opts,
        ),
      ),
    ).toBe("FRAY.Error.NoMode");
  });

  it("ZN-SUP-01: suppressing fire spends the GM's bullets per suppressed action and ends when the shooter must reload", () => {
    expect(SUPPRESSION_GUIDE.lane).toBe(1);
    const rifle = parseWeapon({
      id: "r",
      name: "Rifle",
      kind: "firearm",
      effectiveRange: 300,
      damage: "2d6",
      magazine: 30,
      loaded: 7,
      burst: 3,
      recoil: 2,
    });
    const eco = createEconomy(zones.economy(shooter(), opts));
    const started = startSuppression("s", rifle, 3, eco);
    expect(started.economy.slots.action!.used).toBe(1);
    let s = started.suppression;
    let w = rifle;
    // Three actions while suppressing: the shooter's ally moves, an enemy fires, an enemy moves.
    const fired: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = suppressAction(s, w);
      s = r.suppression;
      w = r.weapon;
      fired.push(r.fired);
    }
    expect(fired).toEqual([3, 3, 0]);
    expect(w.loaded).toBe(1);
    expect(s).toMatchObject({ active: false, actions: 2, fired: 6 });
    expect(frayKey(() => startSuppression("s", w, 3, eco))).toBe("FRAY.Error.Zones.Empty");
    expect(frayKey(() => startSuppression("s", w, 0, eco))).toBe("FRAY.Error.Field");
    expect(zonesOptions({}).suppressionShots).toBe(true);
  });

  it("ZN-REL-01: reloading takes one action unless the weapon says otherwise; spare magazines run out", () => {
    const eco = createEconomy(zones.economy(shooter(), opts));
    const empty = parseWeapon({
      id: "p",
      name: "Pistol",
      kind: "firearm",
      effectiveRange: 50,
      damage: "1d6",
      magazine: 17,
      loaded: 0,
      spareMagazines: 1,
    });
    const r = reload(empty, eco);
    expect(r).toMatchObject({ done: true, spent: 1, weapon: { loaded: 17, spareMagazines: 0 } });
    expect(r.economy.slots.action!.used).toBe(1);
    expect(frayKey(() => reload(r.weapon, createEconomy(zones.economy(shooter(), opts))))).toBe("FRAY.Error.Zones.NoMagazine");
    // A revolver that takes two actions: over two turns with one action each.
    const revolver = parseWeapon({
      id: "v",
      name: "Revolver",
      kind: "firearm",
      effectiveRange: 40,
      damage: "1d6+3",
      magazine: 6,
      loaded: 0,
      reloadActions: 2,
    });
    const first = reload(revolver, eco);
    expect(first).toMatchObject({ done: false, spent: 1, weapon: { loaded: 0, pending: { task: "reload", done: 1, needed: 2 } } });
    const second = reload(first.weapon, createEconomy(zones.economy(shooter(), opts)));
    expect(second).toMatchObject({ done: true, weapon: { loaded: 6, pending: null } });
    expect(
      frayKey(() =>
        zones.planAttack(input({ attacker: shooter({ weapons: [{ ...revolver, loaded: 0 }] }), weaponId: "v", rangeMetres: 10 }), opts),
      ),
    ).toBe("FRAY.Error.Zones.Empty");
  });

  it("ZN-DRW-01: drawing from a holster or armor slot takes one action, from anywhere else two", () => {
    const c = shooter();
    const eco = createEconomy(zones.economy(c, opts));
    const pistol = c.weapons.find((w) => w.id === "glock")!;
    expect(frayKey(() => zones.planAttack(input({ weaponId: "glock", rangeMetres: 10 }), opts))).toBe("FRAY.Error.Zones.NotDrawn");
    expect(draw(pistol, eco)).toMatchObject({ done: true, spent: 1, weapon: { drawn: true } });
    expect(draw({ ...pistol, carry: "armorSlot" }, eco)).toMatchObject({ done: true, spent: 1 });
    const knife = c.weapons.find((w) => w.id === "knife")!;
    const first = draw(knife, eco);
    expect(first).toMatchObject({ done: false, weapon: { drawn: false } });
    expect(draw(first.weapon, createEconomy(zones.economy(c, opts)))).toMatchObject({ done: true, weapon: { drawn: true } });
    const two = createEconomy(zones.economy(shooter({ actions: { action: 2 } }), opts));
    expect(draw({ ...knife, carry: "pack" }, two)).toMatchObject({ done: true, spent: 2 });
  });

  it("ZN-HID-01: hiding a small weapon is Stealth against Notice; a searcher gets 5 off, from a distance nothing", async () => {
    const hider = shooter(); // stealth: DEX 1 + 2 ranks
    const guard = target(); // notice: PER 0 + 2 ranks
    const searched = await hideWeapon(hider, "glock", guard, "search", new ScriptedRoller([7, 3]));
    expect(searched.stealth.total).toBe(10);
    expect(searched.difficulty).toBe(5);
    expect(searched.notice.total).toBe(5);
    expect(searched.found).toBe(true);
    const far = await hideWeapon(hider, "glock", guard, "distance", new ScriptedRoller([7, 3]));
    expect(far.difficulty).toBe(10);
    expect(far.found).toBe(false);
    expect(await frayKeyAsync(hideWeapon(hider, "rifle", guard, "search", new ScriptedRoller([7, 3])))).toBe(
      "FRAY.Error.Zones.NotConcealable",
    );
  });

  it("ZN-MAL-01: a failure to feed or a stovepipe stops the burst and clears in one action; a squib load makes the next shot catastrophic", async () => {
    const strong = shooter({ skills: { firearms: 9 } });
    const inp = input({ attacker: strong, modeId: "burst", situation: { malfunction: { kind: "failureToFeed", afterBullets: 1 } } });
    const plan = zones.planAttack(inp, opts);
    const r = await zones.resolveAttack(plan, inp, new ScriptedRoller([10, 3, 4]), opts);
    expect(r.bullets).toMatchObject({ fired: 1, hit: 1, stoppedBy: "FRAY.Zones.Malfunction.failureToFeed" });
    const jammed = afterShot(strong.weapons[0]!, r);
    expect(jammed).toMatchObject({ loaded: 29, malfunction: "failureToFeed" });
    expect(frayKey(() => zones.planAttack({ ...input(), attacker: { ...strong, weapons: [jammed] } }, opts))).toBe(
      "FRAY.Error.Zones.Jammed",
    );
    const eco = createEconomy(zones.economy(strong, opts));
    const cleared = clearMalfunction(jammed, eco);
    expect(cleared.weapon.malfunction).toBeNull();
    expect(cleared.economy.slots.action!.used).toBe(1);
    const stove = { ...inp, situation: { malfunction: { kind: "stovepipe" as const, afterBullets: 2 } } };
    const rs = await zones.resolveAttack(zones.planAttack(stove, opts), stove, new ScriptedRoller([10, 3, 4, 3, 4]), opts);
    expect(rs.bullets).toMatchObject({ fired: 2, hit: 2, stoppedBy: "FRAY.Zones.Malfunction.stovepipe" });
    // A squib load: the bullet stays in the barrel, the burst stops, the weapon is marked.
    const squib = { ...inp, situation: { malfunction: { kind: "squibLoad" as const } } };
    const rq = (await zones.resolveAttack(zones.planAttack(squib, opts), squib, new ScriptedRoller([10]), opts)) as ZonesAttackResult;
    expect(rq).toMatchObject({ hit: false, lands: false, bullets: { fired: 0, hit: 0 }, spent: 1 });
    const stuck = afterShot(strong.weapons[0]!, rq);
    expect(stuck.malfunction).toBe("squibLoad");
    expect(frayKey(() => clearMalfunction(stuck, eco))).toBe("FRAY.Error.Zones.SquibLoad");
    // The next shot bursts the weapon and hurts the shooter (arms, x1, through armor).
    const next = { ...input(), attacker: { ...strong, weapons: [stuck] } };
    const boom = (await zones.resolveAttack(zones.planAttack(next, opts), next, new ScriptedRoller([]), opts)) as ZonesAttackResult;
    expect(boom).toMatchObject({ catastrophic: true, hit: false, lands: false });
    expect(afterShot(stuck, boom)).toMatchObject({ broken: true });
    const hurt = await catastrophicDamage(stuck, new ScriptedRoller([3, 4]));
    const report = zones.applyDamage(strong, hurt, opts);
    expect(report.after.hp!.value).toBe(30 - 9);
    expect(frayKey(() => zones.planAttack({ ...next, attacker: { ...strong, weapons: [afterShot(stuck, boom)] } }, opts))).toBe(
      "FRAY.Error.Zones.Broken",
    );
  });

  it("ZN-THR-01: thrown weapons use Throwing and their own effective range", async () => {
    const inp = input({ weaponId: "axe", rangeMetres: 3 });
    const plan = zones.planAttack(inp, opts);
    expect(plan.modifiers.map((m) => m.data?.skill ?? m.data?.attribute)).toEqual([
      "FRAY.Zones.Attribute.DEX",
      "FRAY.Zones.Attribute.PER",
      "FRAY.Zones.Skill.throwing",
    ]);
    expect(plan.modifiers.every((m) => m.rule === "ZN-THR-01")).toBe(true);
    // 16 m effective range: close below 2 m, medium 2-4, far 4-8, maximum 8-16; 3 m at a medium target is +2.
    expect(plan.difficulty.modifiers[0]).toMatchObject({ value: 2, data: { band: "FRAY.Zones.Band.medium" } });
    const r = await zones.resolveAttack(plan, inp, new ScriptedRoller([6, 3, 4]), opts);
    expect(r.lands).toBe(true);
    expect(r.bullets).toBeUndefined();
    expect(frayKey(() => zones.planAttack(input({ weaponId: "axe", rangeMetres: 17 }), opts))).toBe("FRAY.Error.Zones.OutOfRange");
  });

  it("ZN-GRN-01: a grenade aims at an area (medium by default); effective radius kills, casualty radius incapacitates unless shielded", async () => {
    const throwIt = input({ weaponId: "frag", target: undefined, area: {}, rangeMetres: 10 });
    const plan = zones.planAttack(throwIt, opts);
    expect(plan.targetId).toBe("area");
    // 30 m effective range: 10 m is far (7.5-15): medium +4, no target movement, standing -1.
    expect(lines(plan.difficulty.modifiers)).toEqual(["ZN-RNG-03 4", "ZN-RNG-05 -1"]);
    const window = zones.planAttack({ ...throwIt, area: { size: "small" } }, opts);
    expect(window.difficulty.modifiers[0]!.value).toBe(8);
    const miss = (await zones.resolveAttack(plan, throwIt, new ScriptedRoller([2]), opts)) as ZonesAttackResult;
    expect(miss.hit).toBe(false);
    expect(miss.check.total).toBe(2 + 1 + 1 + 2);
    expect(miss.deviation).toBe(8 - 6);
    const grenade = shooter().weapons.find((w) => w.id === "frag")!;
    const vest = { id: "v", name: "Vest", zones: { torso: 4 } };
    const suit = { id: "e", name: "Bomb Suit", zones: { head: 4, torso: 6, arms: 4, legs: 4 }, fullBody: true };
    const riot = { id: "r", name: "Riot Gear", zones: { head: 3, torso: 4, arms: 3, legs: 3 } };
    const outcomes = await resolveBlast(
      grenade,
      [
        { combatant: target({ id: "a" }), distance: 3 },
        { combatant: target({ id: "b" }), distance: 3, cover: "grenadeProof" },
        { combatant: target({ id: "c", armor: [vest] }), distance: 10 },
        { combatant: target({ id: "d" }), distance: 10, cover: "full" },
        { combatant: target({ id: "e", armor: [suit] }), distance: 12 },
        { combatant: target({ id: "f" }), distance: 20 },
        { combatant: target({ id: "g", armor: [riot] }), distance: 14 },
      ],
      new ScriptedRoller([4, 5, 6, 6]),
      zo,
    );
    expect(outcomes.map((o) => [o.id, o.zone, o.effect])).toEqual([
      ["a", "effective", "killed"],
      ["b", "effective", "unharmed"],
      ["c", "casualty", "incapacitated"],
      ["d", "casualty", "shockwave"],
      ["e", "casualty", "shockwave"],
      ["f", "outside", "unharmed"],
      ["g", "casualty", "incapacitated"],
    ]);
    expect(outcomes[0]!.after.conditions).toContain("dead");
    expect(outcomes[2]!.after.conditions).toContain("incapacitated");
    // Behind full cover: only the bludgeoning shock wave, 9 to the torso (x2) = 18.
    expect(outcomes[3]!.report!.after.hp!.value).toBe(30 - 18);
    // Full body armor: 12 - 6 torso armor = 6, x2 = 12.
    expect(outcomes[4]!.report!.after.hp!.value).toBe(30 - 12);
    const killing = await resolveBlast(grenade, [{ combatant: target(), distance: 10 }], new ScriptedRoller([]), {
      ...zo,
      grenadeCasualty: "kill",
    });
    expect(killing[0]!.effect).toBe("killed");
    expect(await frayKeyAsync(zones.rollDamage({ ...miss, lands: true }, throwIt, new ScriptedRoller([1]), opts))).toBe(
      "FRAY.Error.Zones.UseBlast",
    );
  });
});

describe("Zones melee", () => {
  const melee = (extra: Partial<ZonesAttackInput> = {}): ZonesAttackInput => ({
    attacker: shooter(),
    target: target(),
    weaponId: "club",
    rangeMetres: 1,
    ...extra,
  });

  it("ZN-MEL-01: melee reaches up to 1 m and rolls Melee Combat (d10 + STR + DEX + ranks) against the melee difficulty", async () => {
    const plan = zones.planAttack(melee(), opts);
    expect(lines(plan.modifiers)).toEqual(["ZN-MEL-01 1", "ZN-MEL-01 1", "ZN-MEL-01 2"]);
    expect(plan.difficulty.total).toBe(5);
    expect(frayKey(() => zones.planAttack(melee({ rangeMetres: 1.5 }), opts))).toBe("FRAY.Error.Zones.OutOfReach");
    expect(zones.planAttack(melee(), { ...opts, meleeDifficulty: 7 }).difficulty.total).toBe(7);
    const r = await zones.resolveAttack(plan, melee(), new ScriptedRoller([1, 4, 4]), opts);
    expect(r.check.total).toBe(5);
    expect(r.lands).toBe(true);
    expect(r.location?.id).toBe("arms");
  });

  it("ZN-MEL-02: a surprise attack allows no dodge and no block", () => {
    const options = zones.reactions(melee({ situation: { surprise: true } }), undefined, opts);
    expect(options.map((o) => [o.id, o.available, o.reason])).toEqual([
      ["dodge", false, "FRAY.Zones.Reason.Surprise"],
      ["block", false, "FRAY.Zones.Reason.Surprise"],
    ]);
    expect(zones.reactions(melee({ target: target({ conditions: ["unaware"] }) }), undefined, opts)[0]!.available).toBe(false);
    expect(frayKey(() => zones.planAttack(melee({ situation: { surprise: true }, reaction: "dodge" }), opts))).toBe(
      "FRAY.Error.ReactionUnavailable",
    );
  });

  it("ZN-MEL-03: an aware defender spends an action to dodge; beating the attack roll evades all damage", async () => {
    const eco = createEconomy(zones.economy(target(), opts));
    const [dodge] = zones.reactions(melee(), eco, opts);
    expect(dodge).toMatchObject({ available: true, cost: { slots: { action: 1 } }, formula: "1d10 + 3" });
    const plan = zones.planAttack(melee({ reaction: "dodge" }), opts, eco);
    // Attack 4 + 4 = 8; dodge 6 + 3 = 9 exceeds it.
    const evaded = await zones.resolveAttack(plan, melee({ reaction: "dodge" }), new ScriptedRoller([4, 6]), opts);
    expect(evaded.reaction).toMatchObject({ id: "dodge", success: true, effect: "negate" });
    expect(evaded.lands).toBe(false);
    // A tie does not exceed: the attack lands.
    const tied = await zones.resolveAttack(plan, melee({ reaction: "dodge" }), new ScriptedRoller([4, 5, 3, 4]), opts);
    expect(tied.reaction?.success).toBe(false);
    expect(tied.lands).toBe(true);
    const odds = zones.odds(plan, melee({ reaction: "dodge" }), opts);
    expect(odds.throughReaction).toBeLessThan(odds.hit);
    // Ranged attacks cannot be dodged.
    expect(zones.reactions(input(), eco, opts)[0]!.reason).toBe("FRAY.Zones.Reason.Ranged");
  });

  it("ZN-MEL-04: out of actions, the defender may only block: d10 + STR + CON; beating the attack halves the damage", async () => {
    const fresh = createEconomy(zones.economy(target(), opts));
    expect(zones.reactions(melee(), fresh, opts)[1]).toMatchObject({
      id: "block",
      available: false,
      reason: "FRAY.Zones.Reason.HasAction",
    });
    const spent = spend(fresh, { slots: { action: 1 } });
    const [dodge, block] = zones.reactions(melee(), spent, opts);
    expect(dodge).toMatchObject({ available: false, reason: "FRAY.Zones.Reason.NoAction" });
    expect(block).toMatchObject({ available: true, formula: "1d10 + 2", cost: {} });
    const inp = melee({ reaction: "block" });
    const plan = zones.planAttack(inp, opts, spent);
    // Attack 4 + 4 = 8; block 7 + 2 = 9: halved. Torso (3 + 4), damage 1d6+1 = 6 + 1 = 7, halved to 3.
    const r = await zones.resolveAttack(plan, inp, new ScriptedRoller([4, 7, 3, 4]), opts);
    expect(r.reaction).toMatchObject({ id: "block", success: true, effect: "halve" });
    expect(r.lands).toBe(true);
    const dmg = await zones.rollDamage(r, inp, new ScriptedRoller([6]), opts);
    expect(dmg.amount).toBe(3);
    expect(dmg.steps?.[0]).toMatchObject({ rule: "ZN-MEL-04", value: 4, remaining: 3 });
    expect(zones.applyDamage(target(), dmg, opts).after.hp!.value).toBe(30 - 6);
    const odds = zones.odds(plan, inp, opts);
    expect(odds.hit).toBeCloseTo((odds.throughReaction ?? 0) + (odds.outcomes?.halved ?? 0), 12);
  });
});

describe("Zones hit zones and damage", () => {
  it("ZN-ZON-01: 2d6: 2 vital (x6), 3-4 legs, 5-7 torso (x2), 8-9 arms, 10-11 head (x3), 12 vital (x6)", async () => {
    expect(Array.from({ length: 11 }, (_, i) => zoneForRoll(i + 2))).toEqual([
      "heart",
      "legs",
      "legs",
      "torso",
      "torso",
      "torso",
      "arms",
      "arms",
      "head",
      "head",
      "brain",
    ]);
    expect(frayKey(() => zoneForRoll(13))).toBe("FRAY.Error.Field");
    const mult = (zone: string) => zones.applyDamage(target(), packet(5, zone, "piercing"), opts).after.hp!.value;
    expect([mult("legs"), mult("torso"), mult("arms"), mult("head"), mult("heart"), mult("brain")]).toEqual([25, 20, 25, 15, 0, 0]);
    const plan = zones.planAttack(input(), opts);
    const r = await zones.resolveAttack(plan, input(), new ScriptedRoller([9, 6, 6]), opts);
    expect(r.location).toMatchObject({ id: "brain", rule: "ZN-ZON-01" });
  });

  it("ZN-ZON-02: the zone's armor first, then the multiplier, then hit points; a wound check follows", () => {
    const armored = target({
      armor: [
        { id: "v", name: "Vest", zones: { torso: 3 } },
        { id: "p", name: "Plate", zones: { torso: 2 } },
        { id: "h", name: "Helmet", zones: { head: 4 } },
      ],
    });
    const report = zones.applyDamage(armored, packet(9, "torso", "piercing"), opts);
    expect(report.steps.map((s) => [s.rule, s.label, s.value, s.remaining])).toEqual([
      ["ZN-DMG-01", "FRAY.Step.Zones.Rolled", 0, 9],
      ["ZN-ZON-02", "FRAY.Step.Zones.Armor", 5, 4],
      ["ZN-ZON-01", "FRAY.Step.Zones.Multiplier", 0, 8],
      ["ZN-ZON-02", "FRAY.Step.Zones.HitPoints", 8, 0],
      ["ZN-ZON-02", "FRAY.Step.Zones.WoundCheck", 0, 0],
    ]);
    expect(report.after.hp!.value).toBe(22);
    // Armor that stops everything: no damage, no wound check.
    expect(zones.applyDamage(armored, packet(3, "head", "piercing"), opts).steps.map((s) => s.label)).not.toContain(
      "FRAY.Step.Zones.WoundCheck",
    );
    const down = zones.applyDamage(target(), packet(20, "head", "piercing"), opts);
    expect(down.added).toEqual(["incapacitated"]);
    expect(zones.isOut(down.after)).toBe(true);
  });

  it("ZN-ZON-03: aiming at a zone makes the target one size smaller, two for a vital organ; impossible below tiny; the zone is hit without a roll", async () => {
    expect(aimedZoneSize("medium", "head")).toBe("small");
    expect(aimedZoneSize("medium", "heart")).toBe("tiny");
    expect(frayKey(() => aimedZoneSize("small", "brain"))).toBe("FRAY.Error.Zones.AimedZoneImpossible");
    expect(frayKey(() => aimedZoneSize("tiny", "legs"))).toBe("FRAY.Error.Zones.AimedZoneImpossible");
    const inp = input({ rangeMetres: 20, situation: { aimedZone: "head" } });
    const plan = zones.planAttack(inp, opts);
    expect(plan.difficulty.modifiers[0]).toMatchObject({
      value: 2,
      data: { size: "FRAY.Zones.Size.small", band: "FRAY.Zones.Band.close" },
    });
    const r = await zones.resolveAttack(plan, inp, new ScriptedRoller([10]), opts);
    expect(r.location).toMatchObject({ id: "head", rule: "ZN-ZON-03", roll: undefined });
    expect(frayKey(() => zones.planAttack(input({ target: target({ stance: "prone" }), situation: { aimedZone: "torso" } }), opts))).toBe(
      "FRAY.Error.Zones.AimedZoneImpossible",
    );
  });

  it("ZN-DMG-01: the weapon sets amount and type; a knife thrusts (piercing) or slashes", async () => {
    const c = shooter({ weapons: [{ id: "knife", name: "Knife", kind: "melee", damage: "1d6+1", damageTypes: ["piercing", "slashing"] }] });
    const base = { attacker: c, target: target(), weaponId: "knife", rangeMetres: 1 };
    const plan = zones.planAttack(base, opts);
    const r = await zones.resolveAttack(plan, base, new ScriptedRoller([9, 3, 4]), opts);
    expect((await zones.rollDamage(r, base, new ScriptedRoller([4]), opts)).type).toBe("piercing");
    const slash = await zones.rollDamage(r, { ...base, damageType: "slashing" }, new ScriptedRoller([4]), opts);
    expect(slash).toMatchObject({ type: "slashing", amount: 5 });
    expect(await frayKeyAsync(zones.rollDamage(r, { ...base, damageType: "fire" }, new ScriptedRoller([4]), opts))).toBe(
      "FRAY.Error.Field",
    );
    expect(frayKey(() => parseWeapon({ name: "Bad", damage: "lots" }))).toBe("FRAY.Error.Field");
  });

  it("ZN-VIT-01: human vital organs are the brain (in the head) and the heart (in the torso), covered by that zone's armor", () => {
    const helmet = target({ armor: [{ id: "h", name: "Helmet", zones: { head: 3 } }] });
    const brain = zones.applyDamage(helmet, packet(8, "brain", "piercing"), opts);
    expect(brain.steps[1]).toMatchObject({
      label: "FRAY.Step.Zones.Armor",
      value: 3,
      remaining: 5,
      data: { zone: "FRAY.Zones.Zone.head" },
    });
    expect(brain.after.hp!.value).toBe(30 - 30);
    // Fire does not reach inside the skull: a hit on the head.
    const fire = zones.applyDamage(target(), packet(4, "heart", "fire"), opts);
    expect(fire.steps.find((s) => s.rule === "ZN-VIT-01")).toMatchObject({ label: "FRAY.Step.Zones.VitalSurrounding" });
    expect(fire.after.hp!.value).toBe(30 - 8);
  });

  it("ZN-VIT-02: bludgeoning below 10 on a vital organ becomes a hit on the surrounding zone", () => {
    const low = zones.applyDamage(target(), packet(9, "brain", "bludgeoning"), opts);
    expect(low.steps.find((s) => s.rule === "ZN-VIT-02")).toMatchObject({
      label: "FRAY.Step.Zones.VitalSurrounding",
      data: { surrounding: "FRAY.Zones.Zone.head" },
    });
    expect(low.after.hp!.value).toBe(30 - 27);
    const high = zones.applyDamage(target({ hp: 100 }), packet(10, "heart", "bludgeoning"), opts);
    expect(high.after.hp!.value).toBe(100 - 60);
  });

  it("ZN-VIT-03: slashing cannot harm a covered vital organ (a hit on the surrounding zone by default, or nothing); exposed, it does", () => {
    const covered = zones.applyDamage(target(), packet(6, "heart", "slashing"), opts);
    expect(covered.after.hp!.value).toBe(30 - 12);
    expect(zones.applyDamage(target(), packet(6, "heart", "slashing"), { ...opts, slashingVitals: "negated" }).after.hp!.value).toBe(30);
    const exposed = zones.applyDamage(target({ hp: 50 }), packet(6, "heart", "slashing", { exposedVitals: true }), opts);
    expect(exposed.after.hp!.value).toBe(50 - 36);
    expect(vitalOutcome("slashing", 6, false, zo).rule).toBe("ZN-VIT-03");
  });

  it("ZN-VIT-04: piercing above 2 does full damage, below 2 is stopped by bone; exactly 2 is stopped by default (a setting)", () => {
    expect(zones.applyDamage(target(), packet(3, "brain", "piercing"), opts).after.hp!.value).toBe(30 - 18);
    expect(zones.applyDamage(target(), packet(1, "brain", "piercing"), opts).after.hp!.value).toBe(30);
    const two = zones.applyDamage(target(), packet(2, "brain", "piercing"), opts);
    expect(two.after.hp!.value).toBe(30);
    expect(two.steps.find((s) => s.rule === "ZN-VIT-04")).toMatchObject({ label: "FRAY.Step.Zones.VitalNegated", value: 2 });
    expect(zones.applyDamage(target(), packet(2, "brain", "piercing"), { ...opts, piercingAtTwo: "full" }).after.hp!.value).toBe(30 - 12);
    expect(zones.applyDamage(target(), packet(2, "brain", "piercing"), { ...opts, piercingAtTwo: "surrounding" }).after.hp!.value).toBe(
      30 - 6,
    );
    // Armor counts first: 5 piercing against a 3-point helmet leaves 2.
    const helmet = target({ armor: [{ id: "h", name: "Helmet", zones: { head: 3 } }] });
    expect(zones.applyDamage(helmet, packet(5, "brain", "piercing"), opts).after.hp!.value).toBe(30);
  });
});

describe("Zones data", () => {
  it("ZN-DMG-01: bad weapon, armor and combatant data names the field", () => {
    const field = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return e instanceof FrayError ? e.data.field : undefined;
      }
      return undefined;
    };
    expect(field(() => parseWeapon({ name: "Gun", kind: "firearm", damage: "1d6" }, "Gun"))).toBe("Gun.effectiveRange");
    expect(field(() => parseWeapon({ name: "Gun", kind: "firearm", damage: "1d6", effectiveRange: 50, burst: 1 }, "Gun"))).toBe(
      "Gun.burst",
    );
    expect(field(() => parseWeapon({ name: "Gun", kind: "laser", damage: "1d6" }, "Gun"))).toBe("Gun.kind");
    expect(
      field(() => parseWeapon({ name: "Gun", kind: "firearm", damage: "1d6", effectiveRange: 50, magazine: 5, loaded: 6 }, "Gun")),
    ).toBe("Gun.loaded");
    expect(field(() => parseCombatant({ name: "X" }, "X"))).toBe("X.hp");
    expect(field(() => parseCombatant({ name: "X", hp: 10, stance: "sitting" }, "X"))).toBe("X.stance");
    expect(field(() => parseCombatant({ name: "X", hp: 10, armor: [{ zones: { tail: 2 } }] }, "X"))).toBe("X.armor[0].zones.tail");
  });

  it("ZN-DMG-01: damage packets with several bullets apply each hit on its own", () => {
    const parts: DamagePacket[] = [packet(4, "legs", "piercing"), packet(4, "torso", "piercing")];
    const report = zones.applyDamage(target(), { roll: { formula: "2", total: 8, dice: [], constant: 8 }, amount: 8, parts }, opts);
    expect(report.after.hp!.value).toBe(30 - 4 - 8);
  });
});

describe("Zones stance changes", () => {
  it("ZN-MOV-01: getting up from prone costs 2 speed points, changing between prone stances 1", async () => {
    const { stanceCost } = await import("../../src/rules/zones/turn.js");
    expect(stanceCost("prone", "standing")).toBe(2);
    expect(stanceCost("proneFiring", "kneeling")).toBe(2);
    expect(stanceCost("prone", "proneFiring")).toBe(1);
    expect(stanceCost("standing", "prone")).toBe(1);
    expect(stanceCost("kneeling", "kneeling")).toBe(0);
  });
});
