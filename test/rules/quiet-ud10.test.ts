/**
 * UD10's quiet attack step against the detailed one: for any seed and situation, the same faces
 * give the same outcome (hit, reaction, body zone, damage, the target after) and leave the dice
 * at the same place (UD-ATK-01 to UD-ATK-04, UD-REA-02 to UD-REA-04, UD-ZON-01, UD-ZON-02,
 * UD-DMG-01 to UD-DMG-05, UD-RNG-01, UD-RNG-02).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SeededRoller, seededSource } from "../../src/rules/core/dice/port.js";
import { createEconomy, spend } from "../../src/rules/core/economy.js";
import { FrayError } from "../../src/rules/core/errors.js";
import { isQuiet, QUIET_ATTACK_FIELDS } from "../../src/rules/core/quiet.js";
import type { ActorSource } from "../../src/rules/core/sources.js";
import {
  declaredReactionFor,
  ud10,
  ud10CombatantFromActor,
  ud10Options,
  type Ud10AttackInput,
  type Ud10Combatant,
} from "../../src/rules/ud10/index.js";

const dir = fileURLToPath(new URL("../../packs/_source/ud10-npcs", import.meta.url));
const npcs = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as ActorSource);

const CONDITIONS = ["surprised", "crouching", "prone", "moving", "aiming1", "aiming2", "immobilized", "unconscious"];

/** A combatant of the packs with its HP, EP and conditions changed. */
const combatant = (id: string) =>
  fc
    .record({
      npc: fc.integer({ min: 0, max: npcs.length - 1 }),
      hp: fc.integer({ min: -2, max: 30 }),
      ep: fc.integer({ min: 0, max: 30 }),
      conditions: fc.subarray(CONDITIONS, { maxLength: 3 }),
    })
    .map(({ npc, hp, ep, conditions }): Ud10Combatant => {
      const c = ud10CombatantFromActor(npcs[npc]!, { id });
      return { ...c, hp: { ...c.hp, value: Math.min(hp, c.hp.max) }, ep: { ...c.ep, value: Math.min(ep, c.ep.max) }, conditions };
    });

const situation = fc.record(
  {
    aim: fc.constantFrom(0, 1, 2),
    badVisibility: fc.boolean(),
    targetCrouching: fc.boolean(),
    targetMoving: fc.boolean(),
    shooterMoving: fc.boolean(),
    higherGround: fc.boolean(),
    unanticipated: fc.boolean(),
    cover: fc.integer({ min: 0, max: 4 }),
    misc: fc.integer({ min: -3, max: 3 }),
  },
  { requiredKeys: [] },
);

const scenario = fc.record({
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  attacker: combatant("a"),
  target: combatant("b"),
  weapon: fc.nat(),
  mode: fc.nat(),
  range: fc.double({ min: 0, max: 300, noNaN: true }),
  situation,
  reaction: fc.constantFrom(undefined, "parry", "dodge"),
  reactionUsed: fc.boolean(),
  options: fc.record({ bodyZones: fc.boolean(), buffer: fc.boolean(), penetration: fc.boolean(), allowDodge: fc.boolean() }),
});

describe("UD10 quiet attack step", () => {
  it("is offered by the UD10 ruleset", () => {
    expect(isQuiet(ud10)).toBe(true);
  });

  it("UD-ATK-02, UD-REA-03, UD-ZON-01, UD-DMG-02 to UD-DMG-05: the same seed gives the detailed step's outcome, target and dice", async () => {
    const shapes = new Set<string>();
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const weapon = s.attacker.weapons[s.weapon % s.attacker.weapons.length]!;
        const modes = ["standard", ...weapon.modes.map((m) => m.id)];
        const options = { ...ud10.defaults(), ...s.options };
        const input: Ud10AttackInput = {
          attacker: s.attacker,
          target: s.target,
          weaponId: weapon.id,
          modeId: modes[s.mode % modes.length],
          rangeMetres: s.range,
          situation: s.situation,
          reaction: s.reaction,
        };
        let economy = createEconomy(ud10.economy(s.target, options));
        if (s.reactionUsed) economy = spend(economy, { slots: { reaction: 1 } });

        const dice = new SeededRoller(s.seed);
        let detailed: { error: string } | Awaited<ReturnType<typeof detailedStep>>;
        async function detailedStep() {
          const plan = ud10.planAttack(input, options, economy);
          const result = await ud10.resolveAttack(plan, input, dice, options);
          if (!result.lands) return { result };
          const packet = await ud10.rollDamage(result, input, dice, options);
          const report = ud10.applyDamage(s.target, packet, options);
          return { result, packet, target: ud10.withVitals(s.target, report.after) };
        }
        try {
          detailed = await detailedStep();
        } catch (error) {
          detailed = { error: (error as FrayError).key };
        }
        const faces = seededSource(s.seed);
        let quiet;
        try {
          quiet = ud10.quietAttack(input, faces, options, economy);
        } catch (error) {
          expect(error).toBeInstanceOf(FrayError);
          expect({ error: (error as FrayError).key }).toEqual(detailed);
          return;
        }
        // One shape for every quiet attack: the fields of `QuietAttack` in place, in order (QUIET_ATTACK_FIELDS).
        expect(Object.keys(quiet).slice(0, QUIET_ATTACK_FIELDS.length)).toEqual(QUIET_ATTACK_FIELDS);
        shapes.add(Object.keys(quiet).join());
        if ("error" in detailed) throw new Error(`the detailed step threw ${detailed.error}, the quiet one did not`);
        const { result, packet, target } = detailed;
        expect(quiet.weaponId).toBe(result.plan.weaponId);
        expect(quiet.modeId).toBe(result.plan.modeId);
        expect(quiet.hit).toBe(result.hit);
        expect(quiet.reacted).toBe(result.reaction !== undefined);
        expect(quiet.reactionSuccess).toBe(result.reaction?.success);
        expect(quiet.reactionCost).toEqual(result.plan.reaction?.cost);
        expect(quiet.lands).toBe(result.lands);
        expect(quiet.location).toBe(result.location?.id);
        expect(quiet.damage).toBe(packet?.amount ?? 0);
        expect(quiet.target).toEqual(target);
        if (target) expect(ud10.vitals(quiet.target!)).toEqual(ud10.vitals(target));
        // The dice stand at the same place: the next faces are the same.
        for (let i = 0; i < 3; i++) expect(faces(1000)).toBe((await dice.roll("1d1000")).total);
        // What follows the attack for the attacker is the same.
        const after = ud10.afterAction(s.attacker, { kind: "attack", weaponId: result.plan.weaponId, result }, economy, options);
        expect(ud10.quietAfterAttack(s.attacker, quiet, economy, options).combatant).toEqual(after.combatant);
      }),
      { numRuns: 2000 },
    );
    // Hits, misses and reactions alike: one list of fields, the first condition of one shape in V8.
    expect(shapes.size).toBe(1);
  });

  it("UD-DMG-02 to UD-DMG-05: a target with fields beyond a parsed combatant's keeps them when damage lands", () => {
    const attacker = ud10CombatantFromActor(npcs[0]!, { id: "a" });
    const plain = ud10CombatantFromActor(npcs[0]!, { id: "t" });
    const target = { ...plain, note: "kept" } as Ud10Combatant & { note: string };
    const options = ud10.defaults();
    const input: Ud10AttackInput = { attacker, target, weaponId: attacker.weapons[0]!.id, rangeMetres: 1, situation: {} };
    let landed = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const quiet = ud10.quietAttack(input, seededSource(seed), options, undefined);
      // The same faces against the target without the extra field: the same damage.
      const same = ud10.quietAttack({ ...input, target: plain }, seededSource(seed), options, undefined);
      if (!quiet.target) continue;
      landed++;
      expect(quiet.target).toEqual({ ...same.target, note: "kept" });
      expect(Object.keys(quiet.target)).toEqual(Object.keys(target));
    }
    expect(landed).toBeGreaterThan(10);
    // As many fields as a parsed combatant, but another set: copied whole too.
    const { size: _size, ...rest } = plain;
    const odd = { ...rest, note: "kept" } as unknown as Ud10Combatant;
    expect(Object.keys(odd)).toHaveLength(Object.keys(plain).length);
    for (let seed = 1; seed <= 50; seed++) {
      const quiet = ud10.quietAttack({ ...input, target: odd }, seededSource(seed), options, undefined);
      if (quiet.target) expect(quiet.target).toMatchObject({ note: "kept" });
      if (quiet.target) expect(Object.hasOwn(quiet.target, "size")).toBe(false);
    }
  });

  it("UD-REA-01 to UD-REA-04: the declared reaction worked out without the options is the one a host takes from them", () => {
    fc.assert(
      fc.property(
        combatant("a"),
        combatant("b"),
        fc.nat(),
        fc.constantFrom("parry", "dodge", "none", "block"),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (attacker, target, w, declared, used, withEconomy, allowDodge) => {
          const weapon = attacker.weapons[w % attacker.weapons.length]!;
          const options = { ...ud10.defaults(), allowDodge };
          let economy = withEconomy ? createEconomy(ud10.economy(target, options)) : undefined;
          if (economy && used) economy = spend(economy, { slots: { reaction: 1 } });
          // What the round engine does with a chooser that takes the first available option with the declared id.
          const input = ud10.input({ attackerId: "a", targetId: "b", weaponId: weapon.id }, attacker, target, options);
          const chosen = ud10
            .reactions(input, economy, options)
            .filter((r) => r.available)
            .find((r) => r.id === declared)?.id;
          expect(declaredReactionFor(target, weapon, economy, declared, ud10Options(options))).toBe(chosen);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("UD-ACT-01, UD-REA-01, UD-ATK-04: the quiet round start gives the combatant and economy of the detailed one, without events", () => {
    const start = ud10.startRound!;
    const quiet = ud10.startRoundQuiet!;
    const options = ud10.defaults();
    fc.assert(
      fc.property(combatant("a"), fc.boolean(), fc.integer({ min: 1, max: 4 }), (c, carried, round) => {
        const previous = carried ? spend(createEconomy(ud10.economy(c, options)), { slots: { action: 1 } }) : undefined;
        const detailed = start(c, previous, round, options);
        const done = quiet(c, previous, round, options);
        expect(done.combatant).toEqual(detailed.combatant);
        expect(done.combatant === c).toBe(detailed.combatant === c);
        expect(done.economy).toStrictEqual(detailed.economy);
        expect(done.events).toEqual([]);
      }),
      { numRuns: 500 },
    );
    // One economy for every combatant, never changed by a cost paid from it.
    const first = quiet(ud10CombatantFromActor(npcs[0]!, { id: "a" }), undefined, 1, options).economy;
    const paid = spend(first, { slots: { action: 1, movement: 1 } });
    expect(paid.slots.action!.used).toBe(1);
    expect(first.slots.action!.used).toBe(0);
    expect(quiet(ud10CombatantFromActor(npcs[1]!, { id: "b" }), undefined, 2, options).economy).toBe(first);
  });
});
