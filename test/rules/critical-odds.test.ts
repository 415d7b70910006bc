import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { distribution } from "../../src/rules/core/dice/distribution.js";
import { fumbleRange, OPEN_ENDED_D100, odds } from "../../src/rules/critical/attack.js";
import { armorTypeOf, criticalCombatantFromActor, type CriticalCombatant } from "../../src/rules/critical/model.js";
import { OPEN_ENDED_D100_RUNS } from "../../src/rules/critical/open-ended.js";
import { criticalOptions } from "../../src/rules/critical/options.js";
import { lookupAttack } from "../../src/rules/critical/tables.js";
import { DEFAULT_TABLES } from "../../src/rules/critical/tables/index.js";
import { critical } from "../../src/rules/index.js";
import type { ActorSource } from "../../src/rules/core/sources.js";
import { sumModifiers } from "../../src/rules/core/types.js";
import { ROOT } from "../support/foundry-stub.js";

/** The Critical NPCs of the compendium. */
function npcs(): CriticalCombatant[] {
  const dir = join(ROOT, "packs", "_source", "critical-npcs");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f, i) => criticalCombatantFromActor(JSON.parse(readFileSync(join(dir, f), "utf8")) as ActorSource, { id: `n${i}` }));
}

describe("Critical exact odds from the stored open-ended d100", () => {
  it("CR-ATK-01: the stored table is the computed distribution of 1d100x>95, value for value", () => {
    const computed = [...distribution(OPEN_ENDED_D100)];
    const stored: [number, number][] = [];
    for (let r = 0; r < OPEN_ENDED_D100_RUNS.length; r += 3) {
      for (let k = 0; k < OPEN_ENDED_D100_RUNS[r + 1]!; k++) stored.push([OPEN_ENDED_D100_RUNS[r]! + k, OPEN_ENDED_D100_RUNS[r + 2]!]);
    }
    // Regenerate with `npx tsx scripts/open-ended-table.ts` if the dice core's distribution changes.
    expect(stored).toEqual(computed);
  });

  it("CR-ATK-01, CR-ATK-02: odds equal the total-by-total lookup on the attack table, bit for bit", () => {
    const fighters = npcs();
    const defaults = critical.defaults();
    const options = criticalOptions(defaults);
    let checked = 0;
    for (const attacker of fighters) {
      for (const target of fighters) {
        if (attacker === target) continue;
        for (const weapon of attacker.weapons) {
          for (const modifier of [-80, 0, 35, 120]) {
            const input = { attacker, target, weaponId: weapon.id, situation: { modifier } };
            const plan = critical.planAttack(input, defaults);
            const got = odds(plan, input, options);
            // The reference: every total of the distribution looked up on its own, in order.
            const table = DEFAULT_TABLES.attack[weapon.weaponClass]!;
            const column = armorTypeOf(target);
            const fumbleTop = options.fumbles ? fumbleRange(weapon, table) : 0;
            const offset = sumModifiers(plan.modifiers) - plan.difficulty.total;
            const want: Record<string, number> = { fumble: 0, miss: 0, hitsOnly: 0, A: 0, B: 0, C: 0, D: 0, E: 0 };
            for (const [v, p] of distribution(OPEN_ENDED_D100)) {
              if (v <= fumbleTop) {
                want.fumble! += p;
                continue;
              }
              const { code } = lookupAttack(table, column, v + offset);
              want[code.severity ?? (code.hits > 0 ? "hitsOnly" : "miss")]! += p;
            }
            expect(got.outcomes).toEqual(want);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});
