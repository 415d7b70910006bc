import { describe, expect, it } from "vitest";
import { distribution } from "../../src/rules/core/dice/distribution.js";
import { ScriptedRoller } from "../../src/rules/core/dice/port.js";
import { createEconomy, shortfall, spend } from "../../src/rules/core/economy.js";
import { FrayError } from "../../src/rules/core/errors.js";
import type { AttackPlan, DamagePacket } from "../../src/rules/core/ruleset.js";
import {
  ACTIONS,
  ARMOR_TYPES,
  ATTACK_TABLE_SOURCES,
  CRIT_TYPES,
  CRITICAL_TABLE_SOURCES,
  DEFAULT_TABLES,
  DEFAULT_TABLE_PROBLEMS,
  EFFECT_TYPES,
  SEVERITIES,
  actionCost,
  apFor,
  checkAttackTable,
  checkCriticalTable,
  checkMove,
  critical,
  criticalBonus,
  criticalOptions,
  declarationOrder,
  declareParry,
  delay,
  initiativeGroups,
  isCriticalResult,
  lookupAttack,
  lookupCritical,
  parseAttackCode,
  parseAttackTable,
  parseCombatant,
  parseCriticalTable,
  recomputeEconomy,
  afterUpkeepEconomy,
  rollManeuver,
  selfDisciplineTest,
  settleManeuver,
  stabilize,
  firstAid,
  treat,
  upkeep,
  withVitals,
  canConcentrate,
  type CriticalAttackInput,
  type CriticalAttackResult,
  type CriticalCombatant,
  type CriticalDamagePacket,
  type CriticalEffect,
  type CriticalEntry,
} from "../../src/rules/critical/index.js";

const opts = critical.defaults();

/** A sword fighter: OB blades 70 (+5 sword), Quickness 10, SD 15, Physique 8 ranks / 48 total, DB 15, rigid armor. */
function fighter(overrides: Record<string, unknown> = {}): CriticalCombatant {
  return parseCombatant({
    id: "kara",
    name: "Kara",
    quickness: 10,
    selfDiscipline: 15,
    physique: { ranks: 8, total: 48 },
    defense: 15,
    baseMove: 10,
    skills: { blades: 70, brawling: 30 },
    weapons: [
      { id: "sword", name: "Arming Sword", weaponClass: "sword", category: "melee", skill: "blades", bonus: 5 },
      { id: "laser", name: "Laser", weaponClass: "energy", category: "energy", skill: "energy", bonus: 0 },
    ],
    armor: [{ id: "cuirass", name: "Cuirass", armorType: "rigid", defense: 0, maneuverPenalty: -5 }],
    ...overrides,
  });
}

/** A pistol guard: OB pistols 55, Quickness 5, SD 5, Physique 6 ranks / 40 total, DB 5, ballistic vest. */
function guard(overrides: Record<string, unknown> = {}): CriticalCombatant {
  return parseCombatant({
    id: "guard",
    name: "Guard",
    kind: "npc",
    group: "guards",
    quickness: 5,
    selfDiscipline: 5,
    physique: { ranks: 6, total: 40 },
    defense: 5,
    skills: { pistols: 55, blunt: 35 },
    weapons: [
      { id: "pistol", name: "Service Pistol", weaponClass: "pistol", category: "missile", skill: "pistols", bonus: 0 },
      { id: "baton", name: "Baton", weaponClass: "club", category: "melee", skill: "blunt", bonus: 5 },
    ],
    armor: [{ id: "vest", name: "Vest", armorType: "ballistic", defense: 0 }],
    ...overrides,
  });
}

const input = (o: Partial<CriticalAttackInput> = {}): CriticalAttackInput => ({
  attacker: fighter(),
  target: guard(),
  weaponId: "sword",
  ...o,
});
const labels = (mods: { label: string; value: number }[]) => Object.fromEntries(mods.map((m) => [m.label, m.value]));

/** Resolves an attack with scripted faces: attack roll faces, then the critical roll if any. */
async function attack(
  i: CriticalAttackInput,
  faces: number[],
): Promise<{ plan: AttackPlan; result: CriticalAttackResult; packet?: CriticalDamagePacket; dice: ScriptedRoller }> {
  const dice = new ScriptedRoller(faces);
  const plan = critical.planAttack(i, opts);
  const result = (await critical.resolveAttack(plan, i, dice, opts)) as CriticalAttackResult;
  const packet = result.lands ? ((await critical.rollDamage(result, i, dice, opts)) as CriticalDamagePacket) : undefined;
  return { plan, result, packet, dice };
}

/** A damage packet carrying one critical entry's effects. */
function critPacket(effects: CriticalEffect[], attackHits = 0, location: CriticalEntry["location"] = "chest"): CriticalDamagePacket {
  const extra = effects.reduce((s, e) => s + (e.type === "hits" ? e.value : 0), 0);
  const entry: CriticalEntry = {
    id: "x",
    name: "test",
    severity: "C",
    range: [1, 10],
    um66: false,
    text: "A test wound.",
    location,
    effects,
  };
  const roll = { formula: "1d100", total: 5, dice: [{ faces: 100, results: [5] }], constant: 0 };
  return {
    roll,
    amount: attackHits + extra,
    attackHits,
    critical: { type: "S", severity: "C", table: "critical.crit.S", roll, unmodified: 5, bonus: 0, value: 5, um66: false, entry },
  };
}

const hit = (c: CriticalCombatant, effects: CriticalEffect[], attackHits = 0, location: CriticalEntry["location"] = "chest") =>
  withVitals(c, critical.applyDamage(c, critPacket(effects, attackHits, location), opts).after);

describe("Critical initiative", () => {
  it("CR-INI-01: initiative is d100 + Quickness bonus, rolled once per combat", async () => {
    const k = fighter();
    expect(critical.initiativeFormula(k)).toBe("1d100 + 10");
    expect(critical.initiativeFormula(fighter({ quickness: -5 }))).toBe("1d100 - 5");
    const roll = await critical.rollInitiative([k], new ScriptedRoller([62]));
    expect(roll.total).toBe(72);
    expect(roll.check.modifiers[0]).toMatchObject({ label: "FRAY.Mod.Quickness", value: 10, rule: "CR-INI-01" });
    expect(critical.initiativeTiming(opts)).toBe("combat");
  });

  it("CR-INI-01: a group rolls once with its best Quickness; NPCs per combatant, per group or all together", async () => {
    const g1 = guard({ id: "g1" });
    const g2 = guard({ id: "g2", quickness: 12 });
    const t1 = guard({ id: "t1", group: "thugs" });
    const all = [fighter(), g1, g2, t1];
    const ids = (mode: "each" | "group" | "all") => initiativeGroups(all, { npcInitiative: mode }).map((g) => g.map((c) => c.id));
    expect(ids("each")).toEqual([["kara"], ["g1"], ["g2"], ["t1"]]);
    expect(ids("group")).toEqual([["kara"], ["g1", "g2"], ["t1"]]);
    expect(ids("all")).toEqual([["kara"], ["g1", "g2", "t1"]]);
    const roll = await critical.rollInitiative([g1, g2], new ScriptedRoller([40]));
    expect(roll.members).toEqual(["g1", "g2"]);
    expect(roll.total).toBe(52);
    expect(critical.groupModes).toEqual(["each", "group", "all"]);
    expect(criticalOptions({ npcInitiative: "group" }).npcInitiative).toBe("group");
  });

  it("CR-INI-02: the lowest initiative declares first, the highest resolves first", async () => {
    const dice = new ScriptedRoller([30, 80, 55]);
    const a = await critical.rollInitiative([fighter({ id: "a" })], dice); // 40
    const b = await critical.rollInitiative([guard({ id: "b" })], dice); // 85
    const c = await critical.rollInitiative([guard({ id: "c", quickness: 0 })], dice); // 55
    expect(critical.declaration).toBe("lowest-first");
    expect(critical.order([a, b, c]).map((r) => r.members[0])).toEqual(["b", "c", "a"]);
    expect(declarationOrder([a, b, c]).map((r) => r.members[0])).toEqual(["a", "c", "b"]);
  });

  it("CR-INI-02: equal totals resolve the higher Quickness first", async () => {
    const dice = new ScriptedRoller([50, 55]);
    const quick = await critical.rollInitiative([fighter({ id: "q" })], dice); // 60
    const slow = await critical.rollInitiative([guard({ id: "s" })], dice); // 60
    expect(critical.order([slow, quick]).map((r) => r.members[0])).toEqual(["q", "s"]);
  });

  it("CR-INI-03: a combatant may delay to later in the order but never act earlier", () => {
    const seq = ["b", "c", "a"];
    expect(delay(seq, "b", "a")).toEqual(["c", "a", "b"]);
    expect(delay(seq, "b", "c")).toEqual(["c", "b", "a"]);
    expect(seq).toEqual(["b", "c", "a"]);
    expect(() => delay(seq, "a", "b")).toThrow(expect.objectContaining({ key: "FRAY.Error.ActEarlier" }));
    expect(() => delay(seq, "c", "c")).toThrow(expect.objectContaining({ key: "FRAY.Error.ActEarlier" }));
    expect(() => delay(seq, "x", "a")).toThrow(expect.objectContaining({ key: "FRAY.Error.NotInOrder", data: { id: "x" } }));
  });
});

describe("Critical action points and movement", () => {
  it("CR-AP-01: 4 AP a round; every action costs AP (an attack 2, so two attacks a round)", () => {
    const spec = critical.economy(fighter(), opts);
    expect(spec).toEqual({ slots: [], pools: [{ id: "ap", label: "FRAY.Pool.ap", max: 4, rule: "CR-AP-01" }] });
    let e = createEconomy(spec);
    e = spend(e, actionCost("attack"));
    e = spend(e, actionCost("attack"));
    expect(e.pools.ap!.value).toBe(0);
    expect(shortfall(e, actionCost("attack"))).toBe("ap");
    expect(Object.fromEntries(ACTIONS.map((a) => [a.id, a.ap]))).toMatchObject({
      attack: 2,
      maneuver: 2,
      move: 1,
      ready: 1,
      reload: 2,
      staunch: 1,
      bandage: 2,
      tourniquet: 2,
      medkit: 4,
      firstAid: 4,
      parry: 0,
      delay: 0,
    });
    expect(ACTIONS.every((a) => a.ap >= 0 && a.ap <= 4)).toBe(true);
  });

  it("CR-AP-02: an attack's effects apply at once: a stun halves the AP the target has left this round", async () => {
    const target = guard();
    let e = spend(createEconomy(critical.economy(target, opts)), actionCost("ready")); // 3 of 4 left
    // 98 + 37 open-ended = 135, + 75 OB - 5 DB = 205: 23EP; the critical 4 + 5 = 9 reads E 01-10: stun 3.
    const { packet } = await attack(input({ target }), [98, 37, 4]);
    const stunned = withVitals(target, critical.applyDamage(target, packet!, opts).after);
    expect(stunned.stun).toBe(3);
    e = recomputeEconomy(e, stunned);
    expect(e.pools.ap).toEqual({ max: 2, value: 1 });
    // Knocked out: nothing left.
    expect(recomputeEconomy(e, hit(stunned, [{ type: "unconscious" }])).pools.ap).toEqual({ max: 0, value: 0 });
  });

  it("CR-AP-01, CR-STN-01, CR-STN-02: after the round's upkeep the AP follow the state it left, what was spent staying spent", () => {
    const stunned = { ...fighter(), stun: 1 };
    // The round started while still stunned: 2 AP, 1 spent.
    const start = spend(createEconomy(critical.economy(stunned, opts)), { pools: { ap: 1 } });
    expect(start.pools.ap).toEqual({ max: 2, value: 1 });
    // The upkeep counts the stun out: the full 4, less the 1 spent.
    expect(afterUpkeepEconomy(start, { ...stunned, stun: 0 }).pools.ap).toEqual({ max: 4, value: 3 });
    // Still stunned: unchanged; knocked out in the upkeep: nothing.
    expect(afterUpkeepEconomy(start, stunned).pools.ap).toEqual({ max: 2, value: 1 });
    expect(afterUpkeepEconomy(start, hit({ ...stunned, stun: 0 }, [{ type: "unconscious" }])).pools.ap).toEqual({ max: 0, value: 0 });
  });

  it("CR-MOV-01: the Base Move is free; a move against an opposing foe fails", () => {
    const k = fighter();
    expect(critical.movementBand(k, 10, opts)).toMatchObject({ id: "base", cost: {}, rule: "CR-MOV-01" });
    expect(checkMove(k, 6)).toMatchObject({ allowed: true, rule: "CR-MOV-01" });
    expect(checkMove(k, 6, { opposed: true })).toEqual({ allowed: false, reason: "FRAY.Reason.Opposed", rule: "CR-MOV-01" });
  });

  it("CR-MOV-02: each further Base Move costs 1 AP, up to the AP of the round", () => {
    const k = fighter();
    expect(critical.movementBand(k, 15, opts)).toMatchObject({
      id: "extra1",
      maxMetres: 20,
      cost: { pools: { ap: 1 } },
      rule: "CR-MOV-02",
    });
    expect(critical.movementBand(k, 25, opts)).toMatchObject({ id: "extra2", cost: { pools: { ap: 2 } } });
    expect(critical.movement(k, opts).at(-1)).toMatchObject({ maxMetres: 50, cost: { pools: { ap: 4 } } });
    expect(critical.movementBand(k, 51, opts)).toBeUndefined();
    expect(checkMove(k, 51)).toMatchObject({ allowed: false, reason: "FRAY.Reason.TooFar" });
    // Stunned: 2 AP, so at most three Base Moves.
    expect(critical.movement({ ...k, stun: 1 }, opts).at(-1)!.maxMetres).toBe(30);
    // A leg injury that stops moving: no movement at all.
    const lame = hit(k, [{ type: "injury", location: "leg", stops: ["move"] }]);
    expect(critical.movement(lame, opts)).toEqual([]);
    expect(checkMove(lame, 2)).toMatchObject({ allowed: false, reason: "FRAY.Reason.Injured" });
  });

  it("CR-MAN-01: a maneuver is rolled as a percentage; below 100% the GM decides, or a set outcome", async () => {
    const k = fighter({ maneuver: 20 });
    const ok = await rollManeuver(k, { bonus: 10, difficulty: -10 }, new ScriptedRoller([85]), criticalOptions(opts));
    // 85 + 20 + 10 - 10 - 5 (armor) = 100.
    expect(ok).toMatchObject({ percent: 100, success: true, outcome: "success" });
    expect(labels(ok.check.modifiers)).toEqual({
      "FRAY.Mod.ManeuverBonus": 20,
      "FRAY.Mod.ManeuverSkill": 10,
      "FRAY.Mod.ManeuverDifficulty": -10,
      "FRAY.Mod.ArmorManeuver": -5,
    });
    const short = await rollManeuver(k, {}, new ScriptedRoller([65]), criticalOptions(opts)); // 65 + 20 - 5 = 80
    expect(short).toMatchObject({ percent: 80, success: false, outcome: "gm" });
    expect(settleManeuver(short, "incomplete")).toMatchObject({ outcome: "incomplete" });
    expect(settleManeuver(short, "penalty")).toMatchObject({ outcome: "penalty", penalty: -20 });
    const set = await rollManeuver(k, {}, new ScriptedRoller([65]), { maneuverShortfall: "penalty" });
    expect(set).toMatchObject({ outcome: "penalty", penalty: -20 });
    const open = await rollManeuver(k, {}, new ScriptedRoller([97, 3]), criticalOptions(opts));
    expect(open.percent).toBe(97 + 3 + 20 - 5);
  });
});

describe("Critical attacks", () => {
  it("CR-ATK-01: attack = open-ended d100 + OB + modifiers - DB - cover", async () => {
    const i = input({ situation: { modifier: 10, cover: 20 } });
    const { plan, result } = await attack(i, [97, 99, 4, 50]);
    expect(plan.dice).toBe("1d100x>95");
    expect(labels(plan.modifiers)).toEqual({ "FRAY.Mod.OffensiveBonus": 70, "FRAY.Mod.WeaponBonus": 5, "FRAY.Mod.Situational": 10 });
    expect(plan.difficulty.base).toMatchObject({ label: "FRAY.Mod.DefensiveBonus", value: 5, rule: "CR-ATK-01" });
    expect(labels(plan.difficulty.modifiers)).toEqual({ "FRAY.Mod.Cover": 20 });
    // 97 and 99 go open-ended, 4 stops: 200 + 85 - 25 = 260; the first die is the unmodified roll.
    expect(result.check.roll.dice[0]!.results).toEqual([97, 99, 4]);
    expect(result.detail).toMatchObject({ unmodified: 97, openEnded: true, total: 260, fumble: false });
  });

  it("CR-ATK-01: an untrained skill attacks at -25; wound penalties count; a low unmodified roll fumbles", async () => {
    const laser = critical.planAttack(input({ weaponId: "laser" }), opts);
    expect(laser.modifiers[0]).toMatchObject({ label: "FRAY.Mod.UntrainedOb", value: -25 });
    const hurt = hit(fighter(), [{ type: "penalty", value: -20 }]);
    expect(labels(critical.planAttack(input({ attacker: hurt }), opts).modifiers)["FRAY.Mod.WoundPenalty"]).toBe(-20);
    const { result } = await attack(input(), [3]);
    expect(result).toMatchObject({ hit: false, lands: false, detail: { fumble: true, unmodified: 3 } });
    const noFumbles = { ...opts, fumbles: false };
    const plan = critical.planAttack(input(), noFumbles);
    const r = await critical.resolveAttack(plan, input(), new ScriptedRoller([3]), noFumbles);
    expect(isCriticalResult(r) && r.detail.fumble).toBe(false);
  });

  it("CR-ATK-02: the total is looked up on the weapon's table in the defender's armor column: hits and a critical code", async () => {
    // 26 + 75 - 15 (DB) = 86 against rigid armor on the sword table: 10AS.
    const target = fighter({ id: "t" });
    const { result } = await attack(input({ target }), [26, 60]);
    expect(result.detail).toMatchObject({ total: 86, armorType: "rigid", code: { code: "10AS", hits: 10, severity: "A", type: "S" } });
    expect(result).toMatchObject({ hit: true, lands: true, hits: 10, critical: "AS" });
    expect(result.lookups![0]).toMatchObject({
      rule: "CR-ATK-02",
      table: "critical.attack.sword",
      column: "rigid",
      value: 86,
      range: [86, 90],
      result: "10AS",
    });
    // 10 + 75 - 15 = 70: hits only.
    const { result: plain } = await attack(input({ target }), [10]);
    expect(plain).toMatchObject({ hits: 7, critical: undefined, detail: { total: 70 } });
    // Too low a total: no hits, no critical.
    const low = await attack(input({ target, situation: { modifier: -60 } }), [10]);
    expect(low.result).toMatchObject({ hit: false, lands: false, hits: 0, critical: undefined });
  });

  it("CR-ATK-02: result codes read hits, severity and type; Krush is K, so a C Krush is CK", () => {
    expect(parseAttackCode("20AS")).toEqual({ code: "20AS", hits: 20, severity: "A", type: "S" });
    expect(parseAttackCode("38ES")).toMatchObject({ hits: 38, severity: "E", type: "S" });
    expect(parseAttackCode("16CK")).toMatchObject({ severity: "C", type: "K" });
    expect(parseAttackCode("7")).toEqual({ code: "7", hits: 7 });
    expect(parseAttackCode("-")).toEqual({ code: "-", hits: 0 });
    expect(() => parseAttackCode("20CC")).toThrow(expect.objectContaining({ key: "FRAY.Error.AttackCode", data: { code: "20CC" } }));
    expect(() => parseAttackCode("XS")).toThrow(FrayError);
  });

  it("CR-ATK-03: each weapon class has its own table with its own strengths", () => {
    const classes = Object.keys(DEFAULT_TABLES.attack).sort();
    expect(classes).toEqual(["club", "dagger", "energy", "pistol", "rifle", "shotgun", "sword", "unarmed"]);
    const at = (cls: string, armor: string, total: number) => lookupAttack(DEFAULT_TABLES.attack[cls]!, armor, total).code.code;
    // The same total of 100 reads differently on each table.
    expect(new Set(classes.map((c) => at(c, "none", 100))).size).toBeGreaterThanOrEqual(6);
    // Blades cut the unarmored; a club crushes through mail; pistols are stopped by ballistic weave.
    expect(at("sword", "none", 120)).toBe("19ES");
    expect(at("sword", "mesh", 120)).toBe("13BS");
    expect(at("club", "mesh", 120)).toBe("15CK");
    expect(at("pistol", "rigid", 120)).toBe("15CP");
    expect(at("pistol", "ballistic", 120)).toBe("8AI");
    expect(at("energy", "none", 120)).toBe("20DF");
    expect(() =>
      critical.planAttack(
        input({
          attacker: fighter({ weapons: [{ name: "Whip", weaponClass: "whip", category: "melee", skill: "blades" }] }),
          weaponId: "Whip",
        }),
        opts,
      ),
    ).toThrow(expect.objectContaining({ key: "FRAY.Error.NoAttackTable", data: { weapon: "Whip", table: "critical.attack.whip" } }));
  });

  it("CR-ATK-04: totals over 150 add 1 to the critical roll per full 10 over 150", async () => {
    expect([150, 151, 159, 160, 175, 185, 260].map(criticalBonus)).toEqual([0, 0, 0, 1, 2, 3, 11]);
    // 98 + 37 = 135 + 75 - 5 = 205: +5; the critical d100 4 reads 9 on the E column.
    const { result, packet } = await attack(input(), [98, 37, 4]);
    expect(result.detail).toMatchObject({ total: 205, critBonus: 5, code: { code: "23EP" } });
    expect(packet!.critical).toMatchObject({ unmodified: 4, bonus: 5, value: 9, um66: false });
    expect(packet!.lookups![0]).toMatchObject({ rule: "CR-CRT-02", table: "critical.crit.P", column: "E", value: 9, range: [1, 10] });
    // A critical roll pushed past 100 reads the 100 row.
    expect(lookupCritical(DEFAULT_TABLES.crit.S!, "B", 130, 90).entry.range).toEqual([96, 100]);
  });

  it("CR-ATK-01: exact odds of each severity come from the open-ended d100 and the table", () => {
    // Sword against an unarmored, undefended target with no OB: the roll alone is the total.
    const naked = guard({ armor: [], defense: 0 });
    const i = input({
      attacker: fighter({
        skills: { blades: 0 },
        weapons: [{ id: "sword", name: "Sword", weaponClass: "sword", category: "melee", skill: "blades", bonus: 0 }],
      }),
      target: naked,
    });
    const o = critical.odds(critical.planAttack(i, opts), i, { ...opts, fumbles: false });
    const sum = Object.values(o.outcomes!).reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(1, 12);
    expect(o.outcomes!.miss).toBeCloseTo(0.2, 12); // 1-20
    expect(o.outcomes!.hitsOnly).toBeCloseTo(0.35, 12); // 21-55
    expect(o.outcomes!.A).toBeCloseTo(0.15, 12); // 56-70
    expect(o.outcomes!.B).toBeCloseTo(0.15, 12); // 71-85
    // 86-95 on one die, 96-100 only open-ended: 96 + 1..4, 97 + 1..3, 98 + 1..2, 99 + 1.
    expect(o.outcomes!.C).toBeCloseTo(0.1 + 10 / 10000, 12);
    // E needs 116+: a first die of 96-100 and then at least 116 - f: sum over f of (f - 15) / 100, / 100.
    expect(o.outcomes!.E).toBeCloseTo((81 + 82 + 83 + 84 + 85) / 10000, 12);
    expect(o.hit).toBeCloseTo(0.8, 12);
    // With fumbles on the 01-03 of the sword come out of the misses.
    const f = critical.odds(critical.planAttack(i, opts), i, opts);
    expect(f.outcomes!.fumble).toBeCloseTo(0.03, 12);
    expect(f.outcomes!.miss).toBeCloseTo(0.17, 12);
    // A better attacker has better odds of an E.
    const strong = input({ target: naked });
    expect(critical.odds(critical.planAttack(strong, opts), strong, opts).outcomes!.E!).toBeGreaterThan(0.4);
    expect(distribution("1d100x>95").get(96)).toBeUndefined();
  });
});

describe("Critical criticals", () => {
  it("CR-CRT-01: six critical types F, I, K, P, S, U each have a table with severities A to E", () => {
    expect([...CRIT_TYPES]).toEqual(["F", "I", "K", "P", "S", "U"]);
    for (const type of CRIT_TYPES) {
      const table = DEFAULT_TABLES.crit[type]!;
      expect(table.key).toBe(`critical.crit.${type}`);
      expect(table.type).toBe(type);
      expect(new Set(table.entries.map((e) => e.severity))).toEqual(new Set(SEVERITIES));
    }
  });

  it("CR-CRT-02: the critical d100 on the type's table in the severity's column gives a wound text and effects", async () => {
    // 26 + 75 - 5 = 96 against ballistic: 12BS; the critical d100 of 50 on the B column of Slash.
    const { packet } = await attack(input(), [26, 50]);
    expect(packet!.critical).toMatchObject({ type: "S", severity: "B", unmodified: 50, value: 50, um66: false });
    expect(packet!.critical!.entry).toMatchObject({
      severity: "B",
      range: [41, 55],
      text: "A gash on the upper weapon arm.",
      location: "weaponArm",
    });
    expect(packet!.critical!.entry.effects).toEqual([
      { type: "hits", value: 4 },
      { type: "bleed", value: 1 },
      { type: "penalty", value: -5 },
    ]);
    expect(packet!.amount).toBe(12 + 4);
    const report = critical.applyDamage(guard(), packet!, opts);
    expect(report.after.hp).toEqual({ value: 40 - 16, max: 40 });
    expect(report.after.bleeding).toBe(1);
    expect(report.after.effects).toEqual([
      { id: "bleed-1", kind: "bleed", rule: "CR-BLD-01", label: "FRAY.Critical.Effect.bleed", value: 1, location: "weaponArm" },
      { id: "penalty-1", kind: "penalty", rule: "CR-CRT-02", label: "FRAY.Critical.Effect.penalty", value: -5 },
    ]);
    expect(report.steps.map((s) => [s.label, s.value])).toEqual([
      ["FRAY.Step.AttackHits", 12],
      ["FRAY.Step.CriticalHits", 4],
      ["FRAY.Step.Hits", 16],
      ["FRAY.Step.Bleeding", 1],
      ["FRAY.Step.Penalty", 0],
    ]);
  });

  it("CR-CRT-02: effects are data the core applies: penalties, lost parries, injuries, knock-outs, dying, instant death", () => {
    let g = hit(
      guard(),
      [
        { type: "penalty", value: -10, rounds: 3 },
        { type: "noParry", rounds: 2 },
      ],
      4,
    );
    expect(g.effects.map((e) => [e.kind, e.value, e.rounds])).toEqual([
      ["penalty", -10, 3],
      ["noParry", undefined, 2],
    ]);
    g = hit(g, [{ type: "injury", location: "weaponArm", stops: ["attack", "parry"] }]);
    expect(() => critical.planAttack({ attacker: g, target: fighter(), weaponId: "pistol" }, opts)).toThrow(
      expect.objectContaining({ key: "FRAY.Error.CannotAttack" }),
    );
    expect(() => declareParry(g, { kara: 10 })).toThrow(expect.objectContaining({ key: "FRAY.Error.CannotParry" }));
    const ko = hit(guard(), [{ type: "unconscious", rounds: 2 }]);
    expect(ko.conditions).toContain("unconscious");
    expect(critical.isOut(critical.vitals(ko))).toBe(true);
    const dead = critical.applyDamage(guard(), critPacket([{ type: "death" }]), opts);
    expect(dead.added).toEqual(["dead"]);
    expect(dead.steps.at(-1)).toMatchObject({ label: "FRAY.Step.Death", rule: "CR-CRT-02" });
  });

  it("CR-CRT-03: the UM66 row applies only when the unmodified critical roll is 66", async () => {
    // 26 + 75 - 5 = 96: 12BS; an unmodified 66 reads the B UM66 row.
    const um = await attack(input(), [26, 66]);
    expect(um.packet!.critical).toMatchObject({ unmodified: 66, um66: true, entry: { name: "B UM66", um66: true } });
    expect(um.packet!.lookups![0]!.rule).toBe("CR-CRT-03");
    // 56 + 10 = 66 over 150 is not an unmodified 66: the ordinary 66-80 row.
    // 98 + 82 = 180 + 75 - 5 = 250: +10 to the critical roll.
    const { result, packet } = await attack(input(), [98, 82, 56]);
    expect(result.detail).toMatchObject({ total: 250, critBonus: 10 });
    expect(packet!.critical).toMatchObject({ unmodified: 56, value: 66, um66: false });
    expect(packet!.critical!.entry.range).toEqual([66, 80]);
  });
});

describe("Critical parry", () => {
  it("CR-PAR-01: OB moves into DB against named foes, split as the player chooses; the attack keeps the rest", () => {
    // The seed's example: +80 OB, +20 DB against each of two assailants, attacking with +40.
    const k = fighter({ skills: { blades: 75 } }); // 75 + 5 sword = 80
    const p = declareParry(k, { g1: 20, g2: 20 }, { foes: ["g1", "g2"] });
    expect(p.parry).toEqual({ g1: 20, g2: 20 });
    const plan = critical.planAttack({ attacker: p, target: guard({ id: "g1" }), weaponId: "sword" }, opts);
    expect(plan.modifiers.reduce((s, m) => s + m.value, 0)).toBe(40);
    expect(labels(plan.modifiers)["FRAY.Mod.ParryMoved"]).toBe(-40);
    const vsG1 = critical.planAttack(
      {
        attacker: guard({ id: "g1", weapons: [{ id: "baton", name: "Baton", weaponClass: "club", category: "melee", skill: "blunt" }] }),
        target: p,
        weaponId: "baton",
      },
      opts,
    );
    expect(labels(vsG1.difficulty.modifiers)["FRAY.Mod.Parry"]).toBe(20);
    // Only the foes named get the DB.
    const vsOther = critical.planAttack({ attacker: guard({ id: "g3" }), target: p, weaponId: "baton" }, opts);
    expect(labels(vsOther.difficulty.modifiers)["FRAY.Mod.Parry"]).toBeUndefined();
    expect(() => declareParry(k, { g1: 50, g2: 40 })).toThrow(
      expect.objectContaining({ key: "FRAY.Error.ParryTooMuch", data: { actor: "Kara", ob: 80, total: 90 } }),
    );
    expect(() => declareParry(k, { ghost: 10 }, { foes: ["g1"] })).toThrow(
      expect.objectContaining({ key: "FRAY.Error.Field", data: expect.objectContaining({ field: "parry.ghost" }) }),
    );
    expect(() => declareParry(k, { g1: -5 })).toThrow(expect.objectContaining({ data: expect.objectContaining({ field: "parry.g1" }) }));
  });

  it("CR-PAR-02: melee 1 OB : 1 DB, missiles 2 : 1, energy weapons 4 : 1", () => {
    const k = declareParry(fighter(), { guard: 20 });
    const db = (weaponClass: string, category: string) =>
      labels(
        critical.planAttack(
          { attacker: guard({ weapons: [{ id: "w", name: "W", weaponClass, category, skill: "pistols" }] }), target: k, weaponId: "w" },
          opts,
        ).difficulty.modifiers,
      )["FRAY.Mod.Parry"];
    expect(db("club", "melee")).toBe(20);
    expect(db("pistol", "missile")).toBe(10);
    expect(db("energy", "energy")).toBe(5);
    const option = critical.reactions({ attacker: guard(), target: k, weaponId: "pistol" }, undefined, opts)[0]!;
    expect(option).toMatchObject({ id: "parry", available: true, exchange: { rate: 2, maxOb: 75 }, rule: "CR-PAR-02" });
  });

  it("CR-PAR-03: only attacks the defender can see are parried, and never while constrained", () => {
    const k = declareParry(fighter(), { guard: 20 });
    const unseen = critical.planAttack({ attacker: guard(), target: k, weaponId: "pistol", situation: { unseen: true } }, opts);
    expect(unseen.difficulty.modifiers).toEqual([{ label: "FRAY.Mod.ParryUnseen", value: 0, rule: "CR-PAR-03", data: { ob: 20 } }]);
    const r = critical.reactions({ attacker: guard(), target: k, weaponId: "pistol", situation: { unseen: true } }, undefined, opts)[0]!;
    expect(r).toMatchObject({ available: false, reason: "FRAY.Reason.Unseen", rule: "CR-PAR-03" });
    const tied = fighter({ conditions: ["constrained"] });
    expect(() => declareParry(tied, { guard: 10 })).toThrow(
      expect.objectContaining({ key: "FRAY.Error.CannotParry", data: { actor: "Kara", reason: "FRAY.Reason.Constrained" } }),
    );
    const tiedAfter = { ...k, conditions: ["constrained"] };
    const plan = critical.planAttack({ attacker: guard(), target: tiedAfter, weaponId: "pistol" }, opts);
    expect(plan.difficulty.modifiers[0]).toMatchObject({ label: "FRAY.Mod.ParryBlocked", value: 0, rule: "CR-PAR-03" });
  });
});

describe("Critical hits, bleeding, stun and dying", () => {
  it("CR-HIT-01: hits are the total Physique; damage comes off them and can go below 0", () => {
    const k = fighter();
    expect(k.hits).toEqual({ value: 48, max: 48 });
    expect(fighter({ hits: { value: 30, max: 99 } }).hits).toEqual({ value: 30, max: 48 });
    const report = critical.applyDamage(k, critPacket([], 55), opts);
    expect(report.after.hp).toEqual({ value: -7, max: 48 });
    expect(report.forced).toEqual([{ id: "selfDiscipline", label: "FRAY.Check.SelfDiscipline", rule: "CR-HIT-02", difficulty: 101 }]);
    expect(critical.isOut(report.after)).toBe(false);
    expect(() => parseCombatant({ name: "Nobody" })).toThrow(
      expect.objectContaining({ key: "FRAY.Error.Field", data: expect.objectContaining({ field: "combatant.physique" }) }),
    );
  });

  it("CR-HIT-02: at 0 or below, d100 + SD - hits below zero; 101+ stays conscious, a failure knocks out", async () => {
    const low = { ...fighter(), hits: { value: -12, max: 48 } }; // SD 15
    const pass = await selfDisciplineTest(low, new ScriptedRoller([98]));
    expect(pass.test).toMatchObject({ needed: 101, success: true, check: { total: 98 + 15 - 12 } });
    expect(pass.combatant.conditions).not.toContain("unconscious");
    const fail = await selfDisciplineTest(low, new ScriptedRoller([97]));
    expect(fail.test).toMatchObject({ success: false, check: { total: 100 } });
    expect(fail.combatant.conditions).toContain("unconscious");
    expect(critical.isOut(critical.vitals(fail.combatant))).toBe(true);
    // Every round: the upkeep tests again; one failure is enough, and after it no more tests.
    const next = await upkeep(pass.combatant, new ScriptedRoller([10]));
    expect(next.report.checks).toHaveLength(1);
    expect(next.combatant.conditions).toContain("unconscious");
    const after = await upkeep(next.combatant, new ScriptedRoller([]));
    expect(after.report.checks).toHaveLength(0);
    // At exactly 0 hits there is nothing to deduct.
    const zero = await selfDisciplineTest({ ...fighter(), hits: { value: 0, max: 48 } }, new ScriptedRoller([86]));
    expect(zero.test).toMatchObject({ success: true, check: { total: 101 } });
  });

  it("CR-BLD-01: bleeding and burning deal their hits every round until treated; wounds add up", async () => {
    let k = hit(fighter(), [{ type: "bleed", value: 3 }]);
    k = hit(
      k,
      [
        { type: "bleed", value: 2 },
        { type: "burn", value: 4, rounds: 2 },
      ],
      0,
      "back",
    );
    expect(critical.vitals(k).bleeding).toBe(9);
    const r2 = await upkeep(k, new ScriptedRoller([]));
    expect(r2.combatant.hits.value).toBe(48 - 9);
    expect(r2.report.steps.filter((s) => s.rule === "CR-BLD-01").map((s) => s.value)).toEqual([3, 2, 4]);
    const r3 = await upkeep(r2.combatant, new ScriptedRoller([]));
    expect(r3.combatant.hits.value).toBe(48 - 18);
    // The timed burn is out after its two rounds; the bleeding goes on.
    const r4 = await upkeep(r3.combatant, new ScriptedRoller([]));
    expect(r4.combatant.hits.value).toBe(48 - 23);
    expect(r4.combatant.effects.map((e) => e.kind)).toEqual(["bleed", "bleed"]);
  });

  it("CR-BLD-02: staunching halves, a tourniquet stops, a bandage stops up to 5; burning stops by smothering or rolling", () => {
    const o = criticalOptions(opts);
    const k = hit(
      hit(hit(fighter(), [{ type: "bleed", value: 7 }], 0, "leg"), [{ type: "bleed", value: 9 }], 0, "chest"),
      [{ type: "burn", value: 3 }],
      0,
      "back",
    );
    const [leg, chest, burn] = k.effects.map((e) => e.id);
    const staunched = treat(k, chest!, "staunch", o);
    expect(staunched.combatant.effects.find((e) => e.id === chest)).toMatchObject({ value: 5, treated: ["staunch"] });
    expect(staunched.step).toMatchObject({ rule: "CR-BLD-02", value: 4, remaining: 5 });
    const bandaged = treat(staunched.combatant, chest!, "bandage", o);
    expect(bandaged.combatant.effects.find((e) => e.id === chest)).toBeUndefined();
    expect(treat(k, leg!, "bandage", o).combatant.effects.find((e) => e.id === leg)).toMatchObject({ value: 2 });
    expect(treat(k, leg!, "tourniquet", o).combatant.effects.find((e) => e.id === leg)).toBeUndefined();
    expect(() => treat(k, chest!, "tourniquet", o)).toThrow(expect.objectContaining({ key: "FRAY.Error.TourniquetLimb" }));
    expect(treat(k, chest!, "tourniquet", { tourniquetLimbsOnly: false }).combatant.effects.find((e) => e.id === chest)).toBeUndefined();
    expect(() => treat(staunched.combatant, chest!, "staunch", o)).toThrow(expect.objectContaining({ key: "FRAY.Error.AlreadyTreated" }));
    expect(() => treat(k, burn!, "bandage", o)).toThrow(expect.objectContaining({ key: "FRAY.Error.Treatment" }));
    expect(treat(k, burn!, "smother", o).combatant.effects.some((e) => e.kind === "burn")).toBe(false);
    expect(treat(k, burn!, "dropAndRoll", o).combatant.effects.some((e) => e.kind === "burn")).toBe(false);
    expect(() => treat(k, leg!, "smother", o)).toThrow(expect.objectContaining({ key: "FRAY.Error.Treatment" }));
    expect(() => treat(k, "bleed-9", "staunch", o)).toThrow(expect.objectContaining({ key: "FRAY.Error.NoEffect" }));
  });

  it("CR-STN-01: a stunned combatant has half its AP and cannot concentrate", async () => {
    const k = hit(fighter(), [{ type: "stun", rounds: 2 }]);
    expect(apFor(k)).toBe(2);
    expect(critical.economy(k, opts).pools[0]).toMatchObject({ max: 2, rule: "CR-STN-01" });
    expect(canConcentrate(k)).toBe(false);
    expect(canConcentrate(fighter())).toBe(true);
    await expect(rollManeuver(k, { concentration: true }, new ScriptedRoller([50]), criticalOptions(opts))).rejects.toMatchObject({
      key: "FRAY.Error.StunnedConcentration",
    });
    await expect(rollManeuver(k, {}, new ScriptedRoller([50]), criticalOptions(opts))).resolves.toMatchObject({ percent: 45 });
  });

  it("CR-STN-02: stun accumulates and runs down one round at a time", async () => {
    let k = hit(fighter(), [{ type: "stun", rounds: 3 }]);
    k = hit(k, [{ type: "stun", rounds: 3 }]);
    expect(k.stun).toBe(6);
    const r = await upkeep(k, new ScriptedRoller([]));
    expect(r.combatant.stun).toBe(5);
    let c = r.combatant;
    for (let i = 0; i < 5; i++) c = (await upkeep(c, new ScriptedRoller([]))).combatant;
    expect(c.stun).toBe(0);
    expect(apFor(c)).toBe(4);
  });

  it("CR-STN-03: more stun rounds than Physique ranks black out until no stun is left", async () => {
    let k = hit(fighter(), [{ type: "stun", rounds: 5 }]); // ranks 8
    expect(k.conditions).not.toContain("blackout");
    const report = critical.applyDamage(k, critPacket([{ type: "stun", rounds: 4 }]), opts);
    expect(report.added).toEqual(["blackout"]);
    expect(report.steps.at(-1)).toMatchObject({ label: "FRAY.Step.Blackout", rule: "CR-STN-03", data: { stun: 9, ranks: 8 } });
    k = withVitals(k, report.after);
    expect(critical.isOut(critical.vitals(k))).toBe(true);
    expect(apFor(k)).toBe(0);
    // Down to 8 (not above the ranks) the blackout still holds: only a full recovery ends it.
    for (let i = 0; i < 8; i++) k = (await upkeep(k, new ScriptedRoller([]))).combatant;
    expect(k.stun).toBe(1);
    expect(k.conditions).toContain("blackout");
    const last = await upkeep(k, new ScriptedRoller([]));
    expect(last.combatant.conditions).not.toContain("blackout");
    expect(last.report.removed).toEqual(["blackout"]);
  });

  it("CR-DTH-01: a critical that kills in N rounds leaves the target down until death; allies may save it", async () => {
    let g = hit(guard(), [{ type: "dying", rounds: 2 }]);
    expect(g.conditions).toEqual(["down"]);
    expect(critical.isOut(critical.vitals(g))).toBe(true);
    expect(apFor(g)).toBe(0);
    expect(() => critical.planAttack({ attacker: g, target: fighter(), weaponId: "pistol" }, opts)).toThrow(
      expect.objectContaining({ key: "FRAY.Error.CannotAct" }),
    );
    g = (await upkeep(g, new ScriptedRoller([]))).combatant;
    expect(g.effects.find((e) => e.kind === "dying")?.rounds).toBe(1);
    const dies = await upkeep(g, new ScriptedRoller([]));
    expect(dies.combatant.conditions).toContain("dead");
    expect(dies.report.steps.at(-1)).toMatchObject({ label: "FRAY.Step.Died", rule: "CR-DTH-01" });
    // Saved in time: the countdown stops; the guard stays down.
    const saved = stabilize(g);
    expect(saved.effects.some((e) => e.kind === "dying")).toBe(false);
    const later = await upkeep(saved, new ScriptedRoller([]));
    expect(later.combatant.conditions).toEqual(["down"]);
    expect(() => stabilize(saved)).toThrow(expect.objectContaining({ key: "FRAY.Error.NotDying" }));
  });

  it("CR-DTH-01, CR-MAN-01: first aid saves a dying combatant only at 100% or more, and is refused before any die for one not dying", async () => {
    const medic = fighter({ maneuver: 20 });
    const dying = hit(guard(), [{ type: "dying", rounds: 2 }]);
    // 85 + 20 (maneuver bonus) - 5 (armor) = 100: saved, the countdown stops.
    const saved = await firstAid(medic, dying, new ScriptedRoller([85]));
    expect(saved.maneuver).toMatchObject({ percent: 100, success: true });
    expect(saved.patient.effects.some((e) => e.kind === "dying")).toBe(false);
    // 84: 99%, not done, whatever the world's shortfall setting: the patient is unchanged.
    const short = await firstAid(medic, dying, new ScriptedRoller([84]));
    expect(short.maneuver).toMatchObject({ percent: 99, success: false, outcome: "incomplete" });
    expect(short.patient).toBe(dying);
    await expect(firstAid(medic, saved.patient, new ScriptedRoller([]))).rejects.toMatchObject({ key: "FRAY.Error.NotDying" });
  });
});

describe("Critical tables: coverage and content", () => {
  it("the built-in tables read without problems", () => {
    expect(DEFAULT_TABLE_PROBLEMS).toEqual([]);
    expect(Object.keys(ATTACK_TABLE_SOURCES)).toHaveLength(8);
    expect(Object.keys(CRITICAL_TABLE_SOURCES).sort()).toEqual([...CRIT_TYPES]);
  });

  it("CR-ATK-02: every attack table has at least 5 armor types, no gaps, no overlaps, and every total 1-300 maps to exactly one result", () => {
    for (const table of Object.values(DEFAULT_TABLES.attack)) {
      expect(checkAttackTable(table), table.key).toEqual([]);
      expect(table.armorTypes.length).toBeGreaterThanOrEqual(5);
      expect(table.armorTypes).toEqual([...ARMOR_TYPES]);
      for (const total of [-500, -1, 0, ...Array.from({ length: 300 }, (_, i) => i + 1), 1000]) {
        const rows = table.rows.filter((r) => (r.range[0] === null || total >= r.range[0]) && (r.range[1] === null || total <= r.range[1]));
        expect(rows.length, `${table.key} ${total}`).toBe(1);
        for (const a of table.armorTypes) expect(rows[0]!.results[a], `${table.key} ${a} ${total}`).toBeDefined();
      }
    }
  });

  it("CR-ATK-02, CR-ATK-03: attack tables are balanced: hits and severities never drop as totals rise, and each weapon fits its critical types", () => {
    const fits: Record<string, string[]> = {
      dagger: ["P", "S"],
      sword: ["S", "P"],
      club: ["K", "U"],
      unarmed: ["U", "K"],
      pistol: ["P", "I"],
      rifle: ["P", "I"],
      shotgun: ["P", "I"],
      energy: ["F", "I"],
    };
    for (const table of Object.values(DEFAULT_TABLES.attack)) {
      const types = new Set<string>();
      for (const a of table.armorTypes) {
        let hits = 0;
        let sev = -1;
        for (const row of table.rows) {
          const code = row.results[a]!;
          expect(code.hits, `${table.key} ${a}`).toBeGreaterThanOrEqual(hits);
          const s = code.severity ? SEVERITIES.indexOf(code.severity) : -1;
          expect(s, `${table.key} ${a}`).toBeGreaterThanOrEqual(sev);
          hits = code.hits;
          sev = s;
          if (code.type) types.add(code.type);
        }
        // Everyone can be hit and critically hit on a high enough total.
        expect(table.rows.at(-1)!.results[a]!.severity, `${table.key} ${a}`).toBeDefined();
        expect(table.rows[0]!.results[a]!.hits).toBe(0);
      }
      expect(
        [...types].every((t) => fits[table.weaponClass]!.includes(t)),
        table.key,
      ).toBe(true);
      expect(types.has(fits[table.weaponClass]![0]!), table.key).toBe(true);
    }
  });

  it("CR-CRT-02, CR-CRT-03: every critical table covers 1-100 once per severity and has one UM66 row per severity; every roll 1-300 maps to exactly one result", () => {
    for (const type of CRIT_TYPES) {
      const { table, problems } = parseCriticalTable(CRITICAL_TABLE_SOURCES[type]);
      expect(problems).toEqual([]);
      expect(checkCriticalTable(table)).toEqual([]);
      for (const sev of SEVERITIES) {
        for (let v = 1; v <= 300; v++) {
          const rows = table.entries.filter(
            (e) => e.severity === sev && !e.um66 && Math.min(v, 100) >= e.range[0] && Math.min(v, 100) <= e.range[1],
          );
          expect(rows.length, `${type} ${sev} ${v}`).toBe(1);
          expect(lookupCritical(table, sev, v, v > 100 ? 100 : v).entry.id).toBe(
            v === 66 ? table.entries.find((e) => e.severity === sev && e.um66)!.id : rows[0]!.id,
          );
        }
      }
    }
  });

  it("CR-CRT-02: every critical's effects are ones the core can apply, and applying them works", () => {
    const known = new Set<string>(EFFECT_TYPES);
    for (const type of CRIT_TYPES) {
      for (const entry of DEFAULT_TABLES.crit[type]!.entries) {
        expect(entry.text.length, entry.id).toBeGreaterThan(10);
        for (const e of entry.effects) expect(known.has(e.type), `${entry.id} ${e.type}`).toBe(true);
        const packet: DamagePacket = critPacket(entry.effects, 10, entry.location);
        const target = guard();
        const report = critical.applyDamage(target, packet, opts);
        const extra = entry.effects.reduce((s, e) => s + (e.type === "hits" ? e.value : 0), 0);
        expect(report.after.hp!.value, entry.id).toBe(40 - 10 - extra);
        const bleed = entry.effects.reduce((s, e) => s + (e.type === "bleed" || e.type === "burn" ? e.value : 0), 0);
        expect(report.after.bleeding, entry.id).toBe(bleed);
        const stun = entry.effects.reduce((s, e) => s + (e.type === "stun" ? e.rounds : 0), 0);
        expect(report.after.stun, entry.id).toBe(stun);
        if (entry.effects.some((e) => e.type === "death")) expect(report.after.conditions).toContain("dead");
        if (entry.effects.some((e) => e.type === "dying")) expect(report.after.conditions).toContain("down");
      }
    }
  });

  it("CR-CRT-02: severities get worse from A to E and down each column", () => {
    const weight = (e: CriticalEntry) =>
      e.effects.reduce(
        (s, x) =>
          s +
          (x.type === "hits"
            ? x.value
            : x.type === "bleed" || x.type === "burn"
              ? 3 * x.value
              : x.type === "stun"
                ? 2 * x.rounds
                : x.type === "dying" || x.type === "death"
                  ? 40
                  : x.type === "injury"
                    ? 10
                    : 0),
        0,
      );
    for (const type of CRIT_TYPES) {
      const table = DEFAULT_TABLES.crit[type]!;
      const mean = (sev: string) => {
        const rows = table.entries.filter((e) => e.severity === sev && !e.um66);
        return rows.reduce((s, e) => s + weight(e), 0) / rows.length;
      };
      for (let i = 1; i < SEVERITIES.length; i++)
        expect(mean(SEVERITIES[i]!), `${type} ${SEVERITIES[i]}`).toBeGreaterThan(mean(SEVERITIES[i - 1]!));
      // Instant death only on E and the UM66 rows.
      for (const e of table.entries) if (e.effects.some((x) => x.type === "death")) expect(e.severity === "E" || e.um66, e.id).toBe(true);
    }
  });

  it("reports a table entry of an old or broken shape instead of crashing", () => {
    const source = structuredClone(CRITICAL_TABLE_SOURCES.S) as { results: Record<string, unknown>[] };
    source.results[0]!.flags = {};
    (source.results[1]!.flags as { fray: { effects: unknown[] } }).fray.effects = [{ type: "explode", value: 3 }];
    source.results[2]!.range = [30, 20];
    const { table, problems } = parseCriticalTable(source);
    expect(problems.map((p) => [p.entry, p.problem])).toEqual([
      ["fRc3SA01Res00000", "FRAY.Critical.Problem.NoFlags"],
      ["fRc3SA02Res00000", "FRAY.Critical.Problem.EffectType"],
      ["fRc3SA03Res00000", "FRAY.Critical.Problem.Range"],
    ]);
    expect(checkCriticalTable(table).some((p) => p.problem === "FRAY.Critical.Problem.Gap" && p.entry === "A")).toBe(true);
    expect(() => lookupCritical(table, "A", 5, 5)).toThrow(expect.objectContaining({ key: "FRAY.Error.TableGap" }));
    expect(() => parseCriticalTable({ name: "Loot", flags: { fray: { tableKey: "loot" } }, results: [] })).toThrow(
      expect.objectContaining({ key: "FRAY.Error.Field" }),
    );

    const attackSource = structuredClone(ATTACK_TABLE_SOURCES.sword) as { rows: { range: unknown; results: Record<string, string> }[] };
    attackSource.rows[3]!.results.plate = "12QQ";
    attackSource.rows.splice(5, 1);
    const parsed = parseAttackTable(attackSource);
    expect(parsed.problems).toEqual([
      expect.objectContaining({ field: "results.plate", problem: "FRAY.Critical.Problem.Code", data: { code: "12QQ" } }),
    ]);
    expect(checkAttackTable(parsed.table).map((p) => p.problem)).toEqual(
      expect.arrayContaining(["FRAY.Critical.Problem.Gap", "FRAY.Critical.Problem.Missing"]),
    );
    // A GM's own table replaces the built-in one by its key.
    const own = parseAttackTable({ ...structuredClone(ATTACK_TABLE_SOURCES.sword as object), name: "House sword" }).table;
    const i = input({
      tables: {
        attack: { sword: { ...own, rows: own.rows.map((r) => ({ ...r, results: { ...r.results, ballistic: parseAttackCode("1") } })) } },
      },
    });
    expect(lookupAttack(i.tables!.attack!.sword!, "ballistic", 140).code.code).toBe("1");
  });
});
