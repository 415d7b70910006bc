/**
 * Critical's quiet attack step against the detailed one: for any seed and situation, the same
 * faces give the same outcome (the open-ended d100, the fumble, the attack table entry and its
 * hits, the critical roll and its row, the damage, the target after it with its bleeding, stun,
 * blackout, penalties, injuries, knock-out, dying or death, the Self Discipline test forced) and
 * leave the dice at the same place (CR-ATK-01 to CR-ATK-04, CR-PAR-01 to CR-PAR-03, CR-CRT-02,
 * CR-CRT-03, CR-HIT-01, CR-HIT-02, CR-BLD-01, CR-STN-02, CR-STN-03, CR-DTH-01); what follows for
 * the attacker and the target is `criticalAfterAction`'s (a fumble ends the attacker's round,
 * CR-ATK-01; stun and a knock-out shrink the AP, CR-STN-01, CR-AP-02); and the engine's quiet
 * attack pays, settles and rolls the Self Discipline test as its detailed attack (CR-AP-02).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ScriptedRoller, SeededRoller, seededSource } from "../../src/rules/core/dice/port.js";
import { createEconomy, spend } from "../../src/rules/core/economy.js";
import { FrayError } from "../../src/rules/core/errors.js";
import { isQuiet, QUIET_ATTACK_FIELDS } from "../../src/rules/core/quiet.js";
import { RoundEngine } from "../../src/rules/core/round.js";
import type { LastingEffect } from "../../src/rules/core/types.js";
import type { ActorSource } from "../../src/rules/core/sources.js";
import {
  ARMOR_TYPES,
  DEFAULT_TABLES,
  attackColumnBands,
  critical,
  criticalAfterAction,
  criticalCombatantFromActor,
  quietAfterAttack,
  type CriticalAttackInput,
  type CriticalAttackResult,
  type CriticalCombatant,
  type CriticalDamagePacket,
  type CriticalQuietAttack,
  type CriticalTableSet,
  withAttackColumn,
} from "../../src/rules/critical/index.js";

const packs = fileURLToPath(new URL("../../packs/_source", import.meta.url));
const npcs = readdirSync(join(packs, "critical-npcs"))
  .filter((f) => f.endsWith(".json"))
  .map((f) => JSON.parse(readFileSync(join(packs, "critical-npcs", f), "utf8")) as ActorSource);

const CONDITIONS = ["unconscious", "blackout", "down", "dead", "constrained"];

/** Lasting effects a combatant may already carry (CR-CRT-02, CR-BLD-01, CR-DTH-01). */
const effect = fc.oneof(
  fc.integer({ min: -30, max: -5 }).map((value): Omit<LastingEffect, "id"> => ({ kind: "penalty", rule: "CR-CRT-02", label: "p", value })),
  fc
    .constantFrom("attack" as const, "parry" as const, "move" as const)
    .map((stop): Omit<LastingEffect, "id"> => ({ kind: "injury", rule: "CR-CRT-02", label: "i", location: "weaponArm", stops: [stop] })),
  fc.constant<Omit<LastingEffect, "id">>({ kind: "noParry", rule: "CR-CRT-02", label: "n", rounds: 1 }),
  fc.integer({ min: 1, max: 5 }).map((value): Omit<LastingEffect, "id"> => ({ kind: "bleed", rule: "CR-BLD-01", label: "b", value })),
  fc.constant<Omit<LastingEffect, "id">>({ kind: "dying", rule: "CR-DTH-01", label: "d", rounds: 3 }),
);

/** A combatant of the packs, hurt, stunned, in other armor, with effects, conditions and a parry against the foe. */
const combatant = (id: string, foe: string) =>
  fc
    .record({
      npc: fc.integer({ min: 0, max: npcs.length - 1 }),
      hurt: fc.integer({ min: 0, max: 60 }),
      stun: fc.integer({ min: 0, max: 4 }),
      armor: fc.array(
        fc.record({ type: fc.option(fc.constantFrom(...ARMOR_TYPES), { nil: undefined }), defense: fc.integer({ min: 0, max: 25 }) }),
        { maxLength: 2 },
      ),
      effects: fc.array(effect, { maxLength: 2 }),
      // Mostly standing, now and then out of the fight (FRAY.Error.CannotAct, a helpless DB).
      conditions: fc.oneof({ arbitrary: fc.constant(undefined), weight: 6 }, { arbitrary: fc.constantFrom(...CONDITIONS), weight: 1 }),
      // Mostly within the OB, now and then more than it (FRAY.Critical.Parry.TooMuch).
      parry: fc.oneof(
        { arbitrary: fc.integer({ min: 0, max: 40 }), weight: 8 },
        { arbitrary: fc.integer({ min: 0, max: 150 }), weight: 1 },
      ),
      odd: fc.integer({ min: 0, max: 9 }),
      ownFumble: fc.option(fc.integer({ min: 1, max: 10 }), { nil: undefined }),
      situational: fc.integer({ min: -40, max: 40 }),
    })
    .map(({ npc, hurt, stun, armor, effects, conditions, parry, odd, ownFumble, situational }): CriticalCombatant => {
      const c = criticalCombatantFromActor(npcs[npc]! as never, { id });
      const weapons = c.weapons.map((w, i) => (i === 0 && ownFumble !== undefined ? { ...w, fumble: ownFumble } : w));
      // Now and then a weapon whose class has no attack table (FRAY.Error.NoAttackTable).
      if (odd === 0) weapons.push({ id: "odd", name: "Odd", weaponClass: "nothing", category: "melee", skill: "blades", bonus: 0 });
      return {
        ...c,
        defense: c.defense + situational,
        weapons,
        hits: { ...c.hits, value: c.hits.value - hurt },
        stun,
        armor: armor.length
          ? armor.map((a, i) => ({ id: `armor${i}`, name: `Armor ${i}`, defense: a.defense, maneuverPenalty: 0, armorType: a.type }))
          : c.armor,
        effects: effects.map((e, i) => ({ ...e, id: `${e.kind}-${i + 1}` })),
        conditions: conditions ? [conditions] : [],
        parry: parry ? { [foe]: parry } : {},
      };
    });

/**
 * A world's own attack tables (CR-ATK-03): every column of every built-in table replaced by one
 * of its own, its entries in reverse (criticals at low totals), or with a band left out (a gap:
 * `FRAY.Error.TableGap` for the totals it held).
 */
function worldTables(change: "reversed" | "gap"): Partial<CriticalTableSet> {
  const attack = Object.fromEntries(
    Object.entries(DEFAULT_TABLES.attack).map(([weaponClass, table]) => {
      let t = table!;
      for (const armorType of table!.armorTypes) {
        const bands = attackColumnBands(table!, armorType);
        const codes = bands.map((b) => b.code).reverse();
        const own = change === "reversed" ? bands.map((b, i) => ({ range: b.range, code: codes[i]! })) : bands.filter((_, i) => i !== 4);
        t = withAttackColumn(t, { key: `${table!.key}.${armorType}`, weaponClass, armorType, name: table!.name, bands: own });
      }
      return [weaponClass, t];
    }),
  );
  return { attack };
}
const WORLD = { reversed: worldTables("reversed"), gap: worldTables("gap") };

const scenario = fc.record({
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  attacker: combatant("a", "b"),
  target: combatant("b", "a"),
  held: fc.option(combatant("b", "a"), { nil: undefined }),
  weapon: fc.nat(),
  situation: fc.record({ modifier: fc.integer({ min: -60, max: 160 }), cover: fc.integer({ min: 0, max: 30 }), unseen: fc.boolean() }),
  fumbles: fc.boolean(),
  world: fc.constantFrom("none" as const, "reversed" as const, "gap" as const),
});

describe("Critical quiet attack step", () => {
  it("is offered by the Critical ruleset", () => {
    expect(isQuiet(critical)).toBe(true);
  });

  it("CR-ATK-01 to CR-ATK-04, CR-PAR-01 to CR-PAR-03, CR-CRT-02, CR-CRT-03, CR-HIT-01, CR-HIT-02, CR-BLD-01, CR-STN-02, CR-STN-03, CR-DTH-01: the same seed gives the detailed step's outcome, target and dice", async () => {
    const seen = { fumble: 0, miss: 0, hitsOnly: 0, critical: 0, openEnded: 0, forced: 0, over150: 0, error: 0 };
    const shapes = new Set<string>();
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const weapon = s.attacker.weapons[s.weapon % s.attacker.weapons.length]!;
        const options = { ...critical.defaults(), fumbles: s.fumbles };
        const input: CriticalAttackInput = { attacker: s.attacker, target: s.target, weaponId: weapon.id, situation: s.situation };
        if (s.world !== "none") input.tables = WORLD[s.world];
        const base = s.held ?? s.target;
        const dice = new SeededRoller(s.seed);
        async function detailedStep() {
          const plan = critical.planAttack(input, options);
          const result = (await critical.resolveAttack(plan, input, dice, options)) as CriticalAttackResult;
          if (!result.lands) return { result };
          const packet = (await critical.rollDamage(result, input, dice, options)) as CriticalDamagePacket;
          const report = critical.applyDamage(base, packet, options);
          return { result, packet, report, target: critical.withVitals(base, report.after) };
        }
        let detailed: { error: string } | Awaited<ReturnType<typeof detailedStep>>;
        try {
          detailed = await detailedStep();
        } catch (error) {
          detailed = { error: (error as FrayError).key };
        }
        const faces = seededSource(s.seed);
        let quiet: CriticalQuietAttack;
        try {
          quiet = critical.quietAttack(input, faces, options, undefined, s.held) as CriticalQuietAttack;
        } catch (error) {
          expect(error).toBeInstanceOf(FrayError);
          expect({ error: (error as FrayError).key }).toEqual(detailed);
          seen.error++;
          return;
        }
        // One shape for every quiet attack: the fields of `QuietAttack` in place, in order (QUIET_ATTACK_FIELDS).
        expect(Object.keys(quiet).slice(0, QUIET_ATTACK_FIELDS.length)).toEqual(QUIET_ATTACK_FIELDS);
        shapes.add(Object.keys(quiet).join());
        if ("error" in detailed) throw new Error(`the detailed step threw ${detailed.error}, the quiet one did not`);
        const { result, packet, report, target } = detailed;
        const d = result.detail;
        expect(quiet.weaponId).toBe(result.plan.weaponId);
        expect(quiet.roll).toBe(result.check.roll.total);
        expect(quiet.unmodified).toBe(d.unmodified);
        expect(quiet.openEnded).toBe(d.openEnded);
        expect(quiet.fumble).toBe(d.fumble);
        expect(quiet.total).toBe(d.total);
        expect(quiet.code).toEqual(d.code);
        expect(quiet.hits).toBe(result.hits);
        expect(quiet.hit).toBe(result.hit);
        expect(quiet.lands).toBe(result.lands);
        expect(quiet.reacted).toBe(false);
        expect(quiet.damage).toBe(packet?.amount ?? 0);
        const k = packet?.critical;
        expect(quiet.critical).toEqual(
          k && {
            type: k.type,
            severity: k.severity,
            unmodified: k.unmodified,
            bonus: k.bonus,
            value: k.value,
            um66: k.um66,
            entry: k.entry,
          },
        );
        expect(quiet.target).toEqual(target);
        if (target) expect(critical.vitals(quiet.target!)).toEqual(critical.vitals(target));
        expect(quiet.forced ?? []).toEqual(report?.forced ?? []);
        // The dice stand at the same place: the next faces are the same.
        for (let i = 0; i < 3; i++) expect(faces(1000)).toBe((await dice.roll("1d1000")).total);
        // What follows the attack for the attacker and for the target is the same (CR-ATK-01, CR-STN-01, CR-AP-02).
        const outcome = { kind: "attack" as const, weaponId: result.plan.weaponId, result };
        const attackerEconomy = spend(createEconomy(critical.economy(s.attacker, options)), { pools: { ap: 2 } });
        expect(quietAfterAttack(s.attacker, quiet, attackerEconomy)).toEqual({
          ...criticalAfterAction(s.attacker, outcome, attackerEconomy),
          events: [],
        });
        const after = target ?? base;
        const targetEconomy = createEconomy(critical.economy(base, options));
        expect(quietAfterAttack(after, quiet, targetEconomy).economy).toEqual(criticalAfterAction(after, outcome, targetEconomy).economy);
        if (d.fumble) seen.fumble++;
        else if (!result.lands) seen.miss++;
        else if (!k) seen.hitsOnly++;
        else seen.critical++;
        if (d.openEnded) seen.openEnded++;
        if (report?.forced) seen.forced++;
        if (d.critBonus > 0) seen.over150++;
      }),
      { numRuns: 2000 },
    );
    // Hits, misses and reactions alike: one list of fields, the first condition of one shape in V8.
    expect(shapes.size).toBe(1);
    // Every branch was taken: the property checked each outcome, not only the common ones (the
    // UM66 row, one critical in a hundred, has its own case below).
    for (const [branch, n] of Object.entries(seen)) expect(n, branch).toBeGreaterThan(0);
  });

  it("CR-CRT-03, CR-ATK-04: an unmodified 66 on the critical roll reads the UM66 row in both steps, whatever the bonus", async () => {
    const a = criticalCombatantFromActor(npcs.find((n) => n.name === "Sword Fighter")! as never, { id: "a" });
    const b = criticalCombatantFromActor(npcs.find((n) => n.name === "Pistol Guard")! as never, { id: "b" });
    const options = critical.defaults();
    // A total far over 150: a severe critical with a bonus, which the UM66 row ignores.
    const input: CriticalAttackInput = { attacker: a, target: b, weaponId: a.weapons[0]!.id, situation: { modifier: 120 } };
    const faces = [95, 66];
    const plan = critical.planAttack(input, options);
    const dice = new ScriptedRoller(faces);
    const result = (await critical.resolveAttack(plan, input, dice, options)) as CriticalAttackResult;
    const packet = (await critical.rollDamage(result, input, dice, options)) as CriticalDamagePacket;
    const target = critical.withVitals(b, critical.applyDamage(b, packet, options).after);
    const quiet = critical.quietAttack(input, new ScriptedRoller(faces).faces, options) as CriticalQuietAttack;
    expect(packet.critical!.um66).toBe(true);
    expect(packet.critical!.bonus).toBeGreaterThan(0);
    expect(quiet.critical).toMatchObject({ um66: true, unmodified: 66, bonus: packet.critical!.bonus, entry: packet.critical!.entry });
    expect(quiet.damage).toBe(packet.amount);
    expect(quiet.target).toEqual(target);
  });

  it("CR-AP-02, CR-HIT-02, CR-ATK-01: the engine's quiet attack pays, settles the target and the attacker and rolls the Self Discipline test as its detailed attack", async () => {
    const a = criticalCombatantFromActor(npcs[0]! as never, { id: "a" });
    const b = criticalCombatantFromActor(npcs[1]! as never, { id: "b" });
    const options = critical.defaults();
    let forced = 0;
    let fumbles = 0;
    for (let seed = 1; seed <= 300; seed++) {
      // The target near 0 hits, so that Self Discipline tests come up.
      const entries = [
        { id: "a", side: "x", combatant: a },
        { id: "b", side: "y", combatant: { ...b, hits: { ...b.hits, value: 1 + (seed % 12) } } },
      ];
      const one = new RoundEngine(critical, entries, new SeededRoller(seed), { options, maxRounds: 3 });
      const two = new RoundEngine(critical, entries, new SeededRoller(seed), { options, maxRounds: 3 });
      for (const e of [one, two]) {
        e.nextRound();
        e.startRound();
      }
      const request = { attackerId: "a", targetId: "b", weaponId: a.weapons[0]!.id };
      const opts = { cost: { pools: { ap: 2 } }, settleTarget: true };
      const d = await one.attack(request, opts);
      const q = await two.quietAttack(request, opts);
      expect(q!.forced.map((f) => f.check.total)).toEqual(d!.forced.map((f) => f.result.check.total));
      forced += q!.forced.length;
      if ((q!.attack as CriticalQuietAttack).fumble) fumbles++;
      for (const id of ["a", "b"]) {
        expect(two.get(id).combatant).toEqual(one.get(id).combatant);
        expect(two.get(id).economy).toEqual(one.get(id).economy);
      }
      // The next attack of the round is paid or refused alike (a fumble left no AP, CR-ATK-01).
      expect((await two.quietAttack(request, opts)) === undefined).toBe((await one.attack(request, opts)) === undefined);
      for (const id of ["a", "b"]) expect(two.get(id).combatant).toEqual(one.get(id).combatant);
    }
    expect(forced).toBeGreaterThan(5);
    expect(fumbles).toBeGreaterThan(0);
  });
});
