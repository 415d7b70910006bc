/**
 * Each ruleset's `isOutOf` (read from the combatant) against `isOut(vitals(c))` (read from the
 * vital state built from it), over combatants of the packs with varied vitals and conditions: the
 * round engine asks the first in place of the second, so they must agree on every state
 * (HB-DMG-04; CR-HIT-02, CR-STN-03, CR-DTH-01; UD-DMG-03, UD-DMG-04; ZN-DMG-01; the out states as RULES.md reads them).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ActorSource } from "../../src/rules/core/sources.js";
import { critical, criticalCombatantFromActor, type CriticalCombatant } from "../../src/rules/critical/index.js";
import { HITBOXES, hitbox, hitboxCombatantFromActor, type HitboxCombatant } from "../../src/rules/hitbox/index.js";
import { ud10, ud10CombatantFromActor, type Ud10Combatant } from "../../src/rules/ud10/index.js";
import { zones, zonesCombatantFromActor, type ZonesCombatant } from "../../src/rules/zones/index.js";

const packs = fileURLToPath(new URL("../../packs/_source", import.meta.url));
const read = (dir: string) =>
  readdirSync(join(packs, dir))
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(join(packs, dir, f), "utf8")) as ActorSource);

const RUNS = { numRuns: 500 };

describe("isOutOf equals isOut(vitals(c))", () => {
  it("Hitbox: shock, dead, unconscious, head or torso at 0 or below (HB-DMG-04)", () => {
    const npcs = read("hitbox-npcs");
    const state = fc
      .record({
        npc: fc.integer({ min: 0, max: npcs.length - 1 }),
        boxes: fc.array(fc.integer({ min: -3, max: 12 }), { minLength: HITBOXES.length, maxLength: HITBOXES.length }),
        conditions: fc.subarray(["prone", "shock", "dead", "medicated", "unaware", "goingProne", "unconscious"], { maxLength: 3 }),
        shock: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
      })
      .map(({ npc, boxes, conditions, shock }): HitboxCombatant => {
        const c = hitboxCombatantFromActor(npcs[npc]! as never, { id: "a" });
        const hitboxes = { ...c.hitboxes };
        HITBOXES.forEach((h, i) => (hitboxes[h] = { ...c.hitboxes[h], value: Math.min(boxes[i]!, c.hitboxes[h].max) }));
        const next: HitboxCombatant = { ...c, hitboxes, conditions };
        if (shock !== undefined) next.shockTurnsLeft = shock;
        return next;
      });
    let outs = 0;
    fc.assert(
      fc.property(state, (c) => {
        const expected = hitbox.isOut(hitbox.vitals(c));
        if (expected) outs++;
        expect(hitbox.isOutOf!(c)).toBe(expected);
      }),
      RUNS,
    );
    expect(outs).toBeGreaterThan(0);
    expect(outs).toBeLessThan(RUNS.numRuns);
  });

  it("Critical: unconscious, blackout, down or dead, whatever the hits (CR-HIT-02, CR-STN-03, CR-DTH-01)", () => {
    const npcs = read("critical-npcs");
    const state = fc
      .record({
        npc: fc.integer({ min: 0, max: npcs.length - 1 }),
        hits: fc.integer({ min: -30, max: 120 }),
        stun: fc.integer({ min: 0, max: 4 }),
        conditions: fc.subarray(["unconscious", "blackout", "down", "dead", "constrained", "stunned", "prone"], { maxLength: 2 }),
      })
      .map(({ npc, hits, stun, conditions }): CriticalCombatant => {
        const c = criticalCombatantFromActor(npcs[npc]! as never, { id: "a" });
        return { ...c, hits: { ...c.hits, value: Math.min(hits, c.hits.max) }, stun, conditions };
      });
    let outs = 0;
    fc.assert(
      fc.property(state, (c) => {
        const expected = critical.isOut(critical.vitals(c));
        if (expected) outs++;
        expect(critical.isOutOf!(c)).toBe(expected);
      }),
      RUNS,
    );
    expect(outs).toBeGreaterThan(0);
    expect(outs).toBeLessThan(RUNS.numRuns);
  });

  it("UD10: HP or EP at 0 or below, unconscious, incapacitated or dead (UD-DMG-03, UD-DMG-04)", () => {
    const npcs = read("ud10-npcs");
    const state = fc
      .record({
        npc: fc.integer({ min: 0, max: npcs.length - 1 }),
        hp: fc.integer({ min: -3, max: 30 }),
        ep: fc.integer({ min: -1, max: 30 }),
        conditions: fc.subarray(["surprised", "prone", "aiming1", "unconscious", "incapacitated", "dead"], { maxLength: 2 }),
      })
      .map(({ npc, hp, ep, conditions }): Ud10Combatant => {
        const c = ud10CombatantFromActor(npcs[npc]!, { id: "a" });
        return { ...c, hp: { ...c.hp, value: Math.min(hp, c.hp.max) }, ep: { ...c.ep, value: Math.min(ep, c.ep.max) }, conditions };
      });
    let outs = 0;
    fc.assert(
      fc.property(state, (c) => {
        const expected = ud10.isOut(ud10.vitals(c));
        if (expected) outs++;
        expect(ud10.isOutOf!(c)).toBe(expected);
      }),
      RUNS,
    );
    expect(outs).toBeGreaterThan(0);
    expect(outs).toBeLessThan(RUNS.numRuns);
  });

  it("Zones: HP at 0 or below, unconscious, incapacitated or dead (ZN-DMG-01)", () => {
    const npcs = read("zones-npcs");
    const state = fc
      .record({
        npc: fc.integer({ min: 0, max: npcs.length - 1 }),
        hp: fc.integer({ min: -3, max: 30 }),
        conditions: fc.subarray(["surprised", "unaware", "bound", "incapacitated", "unconscious", "dead"], { maxLength: 2 }),
      })
      .map(({ npc, hp, conditions }): ZonesCombatant => {
        const c = zonesCombatantFromActor(npcs[npc]!, { id: "a" });
        return { ...c, hp: { ...c.hp, value: Math.min(hp, c.hp.max) }, conditions };
      });
    let outs = 0;
    fc.assert(
      fc.property(state, (c) => {
        const expected = zones.isOut(zones.vitals(c));
        if (expected) outs++;
        expect(zones.isOutOf!(c)).toBe(expected);
      }),
      RUNS,
    );
    expect(outs).toBeGreaterThan(0);
    expect(outs).toBeLessThan(RUNS.numRuns);
  });
});
