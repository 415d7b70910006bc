/**
 * Zones' round start: the economy built directly is the one of its spec, and the start without
 * events gives the combatant and economy of the one with them (ZN-ACT-01, ZN-FRE-01, ZN-SUR-01,
 * ZN-RNG-04, ZN-RNG-07, ZN-INI-02, ZN-MOV-03).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createEconomy } from "../../src/rules/core/economy.js";
import type { ActorSource, ItemSource } from "../../src/rules/core/sources.js";
import {
  MALFUNCTIONS,
  MOVEMENTS,
  STANCES,
  roundEconomy,
  zones,
  zonesArmorFromItem,
  zonesCombatantFromActor,
  zonesWeaponFromItem,
  type ZonesCombatant,
} from "../../src/rules/zones/index.js";
import { economy as economyOf } from "../../src/rules/zones/turn.js";

const packs = fileURLToPath(new URL("../../packs/_source", import.meta.url));
const read = <T>(dir: string) =>
  readdirSync(join(packs, dir))
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(join(packs, dir, f), "utf8")) as T);
const npcs = read<ActorSource>("zones-npcs");
const weapons = read<ItemSource>("zones-weapons").map(zonesWeaponFromItem);
const armors = read<ItemSource>("zones-armor").map(zonesArmorFromItem);

const CONDITIONS = ["surprised", "unaware", "bound", "incapacitated", "unconscious", "dead"];

/** `arb` now and then (one time in `odds`), else absent. */
const sometimes = <T>(arb: fc.Arbitrary<T>, odds = 6) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: odds - 1 }, { arbitrary: arb, weight: 1 });

/**
 * A combatant of the packs with a weapon of the packs added, its weapons in any state (rounds
 * loaded, drawn, a malfunction, broken), armor of the packs, and its HP, stance, movement, aim,
 * attributes and conditions changed.
 */
const combatant = (id: string) =>
  fc
    .record({
      npc: fc.integer({ min: 0, max: npcs.length - 1 }),
      extra: fc.integer({ min: 0, max: weapons.length - 1 }),
      state: fc.array(
        fc.record({
          loaded: fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
          undrawn: fc.integer({ min: 0, max: 19 }),
          malfunction: sometimes(fc.constantFrom(...MALFUNCTIONS), 12),
          broken: fc.integer({ min: 0, max: 39 }),
        }),
        { minLength: 4, maxLength: 4 },
      ),
      armor: fc.subarray(armors, { maxLength: 3 }),
      hp: fc.integer({ min: -3, max: 40 }),
      stance: fc.constantFrom(...STANCES),
      movement: fc.constantFrom(...MOVEMENTS),
      aim: fc.integer({ min: 0, max: 3 }),
      attributes: fc.array(fc.integer({ min: -2, max: 3 }), { minLength: 4, maxLength: 4 }),
      dodge: fc.integer({ min: 0, max: 4 }),
      conditions: fc.oneof(
        { arbitrary: fc.constant<string[]>([]), weight: 6 },
        { arbitrary: fc.subarray(CONDITIONS, { maxLength: 2 }), weight: 1 },
      ),
    })
    .map((g): ZonesCombatant => {
      const c = zonesCombatantFromActor(npcs[g.npc]!, { id });
      const all = [...c.weapons, { ...weapons[g.extra]!, id: `extra-${g.extra}` }].map((w, i) => {
        const s = g.state[i % 4]!;
        return {
          ...w,
          drawn: s.undrawn > 0,
          loaded: s.loaded === undefined ? w.loaded : Math.min(s.loaded, w.magazine),
          malfunction: w.kind === "firearm" ? (s.malfunction ?? null) : null,
          broken: s.broken === 0,
        };
      });
      const [STR, DEX, CON, PER] = g.attributes as [number, number, number, number];
      return {
        ...c,
        weapons: all,
        armor: g.armor,
        hp: { ...c.hp, value: Math.min(g.hp, c.hp.max) },
        stance: g.stance,
        movement: g.movement,
        aim: g.aim,
        attributes: { STR, DEX, CON, PER },
        skills: { ...c.skills, dodge: g.dodge },
        conditions: g.conditions,
      };
    });

describe("Zones round start", () => {
  it("ZN-ACT-01, ZN-FRE-01, ZN-SUR-01, ZN-MOV-03: the round's economy built directly is the one of its spec", () => {
    fc.assert(
      fc.property(
        combatant("a"),
        fc.constantFrom("action" as const, "round" as const),
        fc.integer({ min: -2, max: 12 }),
        fc.integer({ min: -2, max: 6 }),
        (c, speedRecovery, speed, effort) => {
          const state = { ...c, speed: { ...c.speed, value: speed }, effort: { ...c.effort, value: effort } };
          expect(roundEconomy(state, { speedRecovery })).toEqual(createEconomy(economyOf(state, { speedRecovery })));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("ZN-SUR-01, ZN-RNG-04, ZN-RNG-07, ZN-INI-02, ZN-MOV-03: the quiet round start gives the combatant and economy of the detailed one, without events", () => {
    fc.assert(
      fc.property(
        combatant("a"),
        fc.constantFrom("action" as const, "round" as const),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 0, max: 3 }),
        fc.option(fc.record({ speed: fc.integer({ min: -2, max: 12 }), effort: fc.integer({ min: -2, max: 6 }) }), { nil: undefined }),
        (c, speedRecovery, round, initiativeEffort, carried) => {
          const state = { ...c, initiativeEffort };
          const options = { speedRecovery };
          const previous = carried
            ? roundEconomy(
                { ...state, speed: { ...c.speed, value: carried.speed }, effort: { ...c.effort, value: carried.effort } },
                options,
              )
            : undefined;
          const detailed = zones.startRound(state, previous, round, options);
          const quiet = zones.startRoundQuiet!(state, previous, round, options);
          expect(quiet.combatant).toEqual(detailed.combatant);
          expect(quiet.combatant === state).toBe(detailed.combatant === state);
          expect(quiet.economy).toEqual(detailed.economy);
          expect(quiet.events).toEqual([]);
        },
      ),
      { numRuns: 500 },
    );
  });
});
