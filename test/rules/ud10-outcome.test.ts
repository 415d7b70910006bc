/**
 * UD10's attack played with totals only (`ud10AttackOutcome`, the engine's outcome step): the
 * target it leaves and the declared reaction it finds (UD-DMG-02 to UD-DMG-05, UD-REA-01 to
 * UD-REA-04).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { seededSource } from "../../src/rules/core/dice/port.js";
import { createEconomy, spend } from "../../src/rules/core/economy.js";
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

describe("UD10 attack outcome", () => {
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
});
