import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { distribution } from "../../src/rules/core/dice/distribution.js";
import type { ActorSource } from "../../src/rules/core/sources.js";
import { sumModifiers } from "../../src/rules/core/types.js";
import { attackSummary, fumbleRange, OPEN_ENDED_D100, OUTCOME_ORDER } from "../../src/rules/critical/attack.js";
import { armorTypeOf, criticalCombatantFromActor, type CriticalCombatant } from "../../src/rules/critical/model.js";
import { criticalOptions } from "../../src/rules/critical/options.js";
import { lookupAttack } from "../../src/rules/critical/tables.js";
import { DEFAULT_TABLES } from "../../src/rules/critical/tables/index.js";
import { critical } from "../../src/rules/index.js";
import { ROOT } from "../support/foundry-stub.js";

const npc = (file: string, id: string, system: Record<string, unknown> = {}): CriticalCombatant => {
  const raw = JSON.parse(readFileSync(join(ROOT, "packs", "_source", "critical-npcs", file), "utf8")) as ActorSource & { system: object };
  return criticalCombatantFromActor({ ...raw, system: { ...raw.system, ...system } } as ActorSource, { id });
};

describe("Critical attack dialog summary", () => {
  it("CR-ATK-01, CR-ATK-02, CR-PAR-01, CR-PAR-02: the chance of each outcome equals a brute-force sum over the open-ended d100; OB and DB carry both parries", () => {
    const guard = npc("Pistol_Guard_fRc2NpcPistolGrd.json", "guard", { parry: { kara: 10 } });
    const kara = npc("Sword_Fighter_fRc2NpcSwordFtr0.json", "kara", { parry: { guard: 20 } });
    const options = critical.defaults();
    for (const [attacker, target] of [
      [guard, kara],
      [kara, guard],
    ] as const) {
      for (const modifier of [-60, 0, 45, 140]) {
        const weapon = attacker.weapons[0]!;
        const input = { attacker, target, weaponId: weapon.id, situation: { modifier } };
        const plan = critical.planAttack(input, options);
        const summary = attackSummary(plan, critical.odds(plan, input, options));
        // The reference: every total of the distribution looked up on the table, one by one.
        const table = DEFAULT_TABLES.attack[weapon.weaponClass]!;
        const fumbleTop = criticalOptions(options).fumbles ? fumbleRange(weapon, table) : 0;
        const offset = sumModifiers(plan.modifiers) - plan.difficulty.total;
        const want: Record<string, number> = Object.fromEntries(OUTCOME_ORDER.map((id) => [id, 0]));
        for (const [v, p] of distribution(OPEN_ENDED_D100)) {
          if (v <= fumbleTop) want.fumble! += p;
          else {
            const { code } = lookupAttack(table, armorTypeOf(target), v + offset);
            want[code.severity ?? (code.hits > 0 ? "hitsOnly" : "miss")]! += p;
          }
        }
        expect(summary.outcomes.map((o) => o.id)).toEqual([...OUTCOME_ORDER]);
        for (const o of summary.outcomes) expect(o.chance, `${o.id} at ${modifier}`).toBeCloseTo(want[o.id]!, 12);
        expect(summary.outcomes.reduce((s, o) => s + o.chance, 0)).toBeCloseTo(1, 12);
      }
    }
    // The guard's shot: OB 55 less the 10 it moved; Kara's DB 15 and her 20 OB at 2:1 against the pistol.
    const input = { attacker: guard, target: kara, weaponId: guard.weapons[0]!.id };
    const summary = attackSummary(critical.planAttack(input, options), critical.odds(critical.planAttack(input, options), input, options));
    expect(summary).toMatchObject({
      ob: 45,
      db: 25,
      parryMoved: { value: -10, rule: "CR-PAR-01" },
      parry: { label: "FRAY.Mod.Parry", value: 10, rule: "CR-PAR-02" },
    });
  });

  it("CR-ATK-01: the first odds of a fresh module build no distribution: they read the stored open-ended d100", async () => {
    vi.resetModules();
    // The dice core's distribution refused in the fresh modules: the odds must not need it.
    vi.doMock("../../src/rules/core/dice/distribution.js", async (original) => ({
      ...(await original<object>()),
      distribution: () => {
        throw new Error("distribution built");
      },
    }));
    try {
      const fresh = await import("../../src/rules/critical/index.js");
      const guard = npc("Pistol_Guard_fRc2NpcPistolGrd.json", "guard");
      const kara = npc("Sword_Fighter_fRc2NpcSwordFtr0.json", "kara");
      const options = fresh.critical.defaults();
      const input = { attacker: kara, target: guard, weaponId: kara.weapons[0]!.id };
      const plan = fresh.critical.planAttack(input, options);
      expect(plan.dice).toBe(OPEN_ENDED_D100);
      const odds = fresh.critical.odds(plan, input, options);
      // The same odds as the module loaded before, which may build distributions.
      expect(odds).toEqual(critical.odds(critical.planAttack(input, options), input, options));
      // A formula without a stored table is built, so the refusal is real.
      expect(() => fresh.critical.odds({ ...plan, dice: "1d100" }, input, options)).toThrow("distribution built");
    } finally {
      vi.doUnmock("../../src/rules/core/dice/distribution.js");
      vi.resetModules();
    }
  });
});
