/**
 * Critical's `upkeepState` against `upkeep` followed by `withVitals`: for any state (bleeding and
 * burning, effects counting down, stun and blackout, dying, hits at or below 0, dead) and any
 * seed, the same report, the same combatant and the dice left at the same place (CR-BLD-01,
 * CR-STN-02, CR-STN-03, CR-DTH-01, CR-HIT-02). The round engine takes the combatant it hands back.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SeededRoller } from "../../src/rules/core/dice/port.js";
import type { ActorSource } from "../../src/rules/core/sources.js";
import type { LastingEffect } from "../../src/rules/core/types.js";
import { critical, criticalCombatantFromActor, quietUpkeep, upkeepSync, type CriticalCombatant } from "../../src/rules/critical/index.js";

const dir = fileURLToPath(new URL("../../packs/_source/critical-npcs", import.meta.url));
const npcs = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as ActorSource);

const effect = fc
  .record({
    kind: fc.constantFrom("bleed", "burn", "penalty", "dying", "injury"),
    value: fc.option(fc.integer({ min: -20, max: 6 }), { nil: undefined }),
    rounds: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
    stops: fc.option(fc.subarray(["attack", "parry", "move"]), { nil: undefined }),
  })
  .map(({ kind, value, rounds, stops }) => ({ kind, value, rounds, stops }));

const state = fc
  .record({
    npc: fc.integer({ min: 0, max: npcs.length - 1 }),
    hits: fc.integer({ min: -25, max: 80 }),
    stun: fc.integer({ min: 0, max: 3 }),
    conditions: fc.subarray(["unconscious", "blackout", "down", "dead", "constrained"], { maxLength: 2 }),
    effects: fc.array(effect, { maxLength: 4 }),
  })
  .map(({ npc, hits, stun, conditions, effects }): CriticalCombatant => {
    const c = criticalCombatantFromActor(npcs[npc]! as never, { id: "a" });
    const lasting = effects.map((e, i): LastingEffect => {
      const out: LastingEffect = { id: `${e.kind}-${i}`, kind: e.kind, rule: "CR-BLD-01", label: `FRAY.Test.${e.kind}` };
      if (e.value !== undefined) out.value = e.value;
      if (e.rounds !== undefined) out.rounds = e.rounds;
      if (e.stops !== undefined) out.stops = e.stops;
      return out;
    });
    return { ...c, hits: { ...c.hits, value: Math.min(hits, c.hits.max) }, stun, conditions, effects: lasting };
  });

describe("Critical upkeepState equals upkeep then withVitals (CR-BLD-01, CR-STN-02, CR-DTH-01, CR-HIT-02)", () => {
  it("gives the same report and combatant and draws the same dice", async () => {
    let tests = 0;
    await fc.assert(
      fc.asyncProperty(state, fc.integer(), async (c, seed) => {
        const one = new SeededRoller(seed);
        const two = new SeededRoller(seed);
        const report = await critical.upkeep!(c, one, critical.defaults());
        const next = await critical.upkeepState!(c, two, critical.defaults());
        expect(next.report).toEqual(report);
        expect(next.combatant).toEqual(critical.withVitals(c, report.after));
        expect(critical.vitals(next.combatant)).toEqual(report.after);
        expect((await two.roll("1d100")).total).toBe((await one.roll("1d100")).total);
        if (report.checks.length) tests++;
      }),
      { numRuns: 400 },
    );
    // Some states rolled the Self Discipline test (CR-HIT-02).
    expect(tests).toBeGreaterThan(0);
  });

  it("CR-BLD-01, CR-STN-02, CR-STN-03, CR-DTH-01, CR-HIT-02: upkeepSync and quietUpkeep give upkeep's combatant (and report) and draw the same dice", async () => {
    let tests = 0;
    let untouched = 0;
    let failed = 0;
    // Knock-outs and lost parries counting down too, and now and then a combatant with nothing
    // to tick: unhurt, no effect, no stun.
    const knocked = fc
      .tuple(
        state,
        fc.array(
          fc.record({
            kind: fc.constantFrom("unconscious", "noParry"),
            rounds: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
          }),
          { maxLength: 2 },
        ),
      )
      .map(([c, more]): CriticalCombatant => ({
        ...c,
        effects: [
          ...c.effects,
          ...more.map((e, i): LastingEffect => ({
            id: `${e.kind}-${i + 1}`,
            kind: e.kind,
            rule: "CR-CRT-02",
            label: `FRAY.Test.${e.kind}`,
            ...(e.rounds === undefined ? {} : { rounds: e.rounds }),
          })),
        ],
      }));
    const fresh = state.map((c) => ({ ...c, hits: { ...c.hits, value: c.hits.max }, stun: 0, effects: [], conditions: [] }));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof({ arbitrary: state, weight: 3 }, { arbitrary: knocked, weight: 2 }, { arbitrary: fresh, weight: 1 }),
        fc.integer(),
        async (c, seed) => {
          const one = new SeededRoller(seed);
          const two = new SeededRoller(seed);
          const three = new SeededRoller(seed);
          const detailed = await critical.upkeepState!(c, one, critical.defaults());
          const sync = upkeepSync(c, two);
          expect(sync).toEqual(detailed);
          const quiet = quietUpkeep(c, three);
          expect(quiet).toEqual(detailed.combatant);
          if (quiet === c) untouched++;
          const next = (await one.roll("1d100")).total;
          expect((await two.roll("1d100")).total).toBe(next);
          expect((await three.roll("1d100")).total).toBe(next);
          if (detailed.report.checks.length) tests++;
          if (detailed.report.checks.some((t) => !t.success)) failed++;
        },
      ),
      { numRuns: 1000 },
    );
    expect(tests).toBeGreaterThan(0);
    expect(failed).toBeGreaterThan(0);
    expect(untouched).toBeGreaterThan(0);
  });
});
