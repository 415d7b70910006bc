/**
 * `Ruleset.withReaction` of UD10 and Zones against the input built again: for any request, the
 * input of that request with a declared reaction added (as the round engine asks once the
 * defender chose one) equals the input of the request with the reaction, field for field and in
 * the same key order, and refuses the same reactions with the same error (UD-REA-01, UD-REA-02,
 * ZN-MEL-03, ZN-MEL-04).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AttackRequest } from "../../src/rules/core/contract.js";
import { FrayError } from "../../src/rules/core/errors.js";
import { declaring } from "../../src/rules/core/round.js";
import type { Ruleset } from "../../src/rules/core/ruleset.js";
import type { ActorSource } from "../../src/rules/core/sources.js";
import { ud10, ud10CombatantFromActor, type Ud10Combatant } from "../../src/rules/ud10/index.js";
import { zones, zonesCombatantFromActor, type ZonesCombatant } from "../../src/rules/zones/index.js";
import { packSources } from "../support/sources.js";

const actors = (pack: string) => packSources<ActorSource>(pack);

/** What a call gave: its value, or the key and data of the FrayError it threw. */
const outcome = (run: () => unknown): { value?: unknown; keys?: string[]; error?: unknown } => {
  try {
    const value = run();
    return { value, keys: Object.keys(value as object) };
  } catch (error) {
    if (!(error instanceof FrayError)) throw error;
    return { error: { key: error.key, data: error.data } };
  }
};

/**
 * The property for one ruleset: `withReaction(input(request), reaction)` is what
 * `input(declaring(request, reaction))` gives, whenever `input(request)` is an input.
 */
const holds = <C, I>(ruleset: Ruleset<C, I>, request: AttackRequest, attacker: C, target: C | undefined, reaction: string): void => {
  const options = ruleset.defaults();
  let input: I;
  try {
    input = ruleset.input(request, attacker, target, options);
  } catch (error) {
    if (error instanceof FrayError) return;
    throw error;
  }
  const fast = outcome(() => ruleset.withReaction!(input, reaction));
  const rebuilt = outcome(() => ruleset.input(declaring(request, reaction), attacker, target, options));
  expect(fast).toEqual(rebuilt);
};

describe("withReaction: the input with a declared reaction, not built again", () => {
  it("UD10 (UD-REA-01, UD-REA-02): equals ud10Input of the request with the reaction", () => {
    const npcs = actors("ud10-npcs");
    const combatant = (id: string) =>
      fc
        .record({ npc: fc.integer({ min: 0, max: npcs.length - 1 }), conditions: fc.subarray(["surprised", "immobilized", "prone"]) })
        .map(({ npc, conditions }): Ud10Combatant => ({ ...ud10CombatantFromActor(npcs[npc]!, { id }), conditions }));
    fc.assert(
      fc.property(
        combatant("a"),
        combatant("b"),
        fc.nat(),
        fc.constantFrom(undefined, "single", "burst", "auto", "bogus"),
        fc.option(fc.double({ min: -1, max: 300, noNaN: true }), { nil: undefined }),
        fc.option(
          fc.record(
            {
              aim: fc.constantFrom(0, 1, 2),
              cover: fc.integer({ min: 0, max: 4 }),
              immobilized: fc.boolean(),
              unanticipated: fc.boolean(),
            },
            { requiredKeys: [] },
          ),
          { nil: undefined },
        ),
        fc.constantFrom(undefined, "parry", "dodge"),
        fc.constantFrom("parry", "dodge", "block", "bogus"),
        (attacker, target, weapon, modeId, distanceMetres, situation, before, reaction) => {
          const weaponId = attacker.weapons.length ? attacker.weapons[weapon % attacker.weapons.length]!.id : "none";
          const request: AttackRequest = { attackerId: "a", targetId: "b", weaponId, modeId, distanceMetres, situation, reaction: before };
          holds(ud10, request, attacker, target, reaction);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("Zones (ZN-MEL-03, ZN-MEL-04): equals input of the request with the reaction", () => {
    const npcs = actors("zones-npcs");
    const combatant = (id: string) =>
      fc
        .record({ npc: fc.integer({ min: 0, max: npcs.length - 1 }), conditions: fc.subarray(["surprised", "unaware"]) })
        .map(({ npc, conditions }): ZonesCombatant => ({ ...zonesCombatantFromActor(npcs[npc]!, { id }), conditions }));
    fc.assert(
      fc.property(
        combatant("a"),
        combatant("b"),
        fc.nat(),
        fc.constantFrom(undefined, "single", "burst", "auto", "bogus"),
        fc.option(fc.double({ min: 0, max: 300, noNaN: true }), { nil: undefined }),
        fc.option(
          fc.record(
            {
              bullets: fc.integer({ min: 1, max: 12 }),
              damageType: fc.constantFrom("cutting", "piercing", "blunt"),
              aimedZone: fc.constantFrom("none", "head", "torso"),
              malfunction: fc.constantFrom("none", "stoppage"),
            },
            { requiredKeys: [] },
          ),
          { nil: undefined },
        ),
        fc.constantFrom(undefined, "dodge", "block"),
        fc.constantFrom("dodge", "block", "parry", "bogus"),
        fc.boolean(),
        (attacker, target, weapon, modeId, distanceMetres, situation, before, reaction, area) => {
          const weaponId = attacker.weapons.length ? attacker.weapons[weapon % attacker.weapons.length]!.id : "none";
          const request: AttackRequest = { attackerId: "a", targetId: "b", weaponId, modeId, distanceMetres, situation, reaction: before };
          // A grenade thrown at an area has no target: its input holds the area.
          holds(zones, request, attacker, area ? undefined : target, reaction);
        },
      ),
      { numRuns: 300 },
    );
  });
});
