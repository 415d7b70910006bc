import { describe, expect, it } from "vitest";
import { FrayError } from "../../src/rules/core/errors.js";
import { checkParry, parryAllocation, type CriticalCombatant } from "../../src/rules/critical/index.js";
import { fixture } from "../contract/fixtures/critical.js";

const fighter = (parry: Record<string, number> = {}, extra: Partial<CriticalCombatant> = {}): CriticalCombatant => ({
  ...(fixture.attacker as CriticalCombatant),
  parry,
  ...extra,
});

describe("Critical parry allocation view and check", () => {
  it("CR-PAR-01, CR-PAR-02: each foe's DB at its rate, rounded down, and the OB left", () => {
    const c = fighter();
    const pool = parryAllocation(c, []).pool;
    const view = parryAllocation(
      c,
      [
        { id: "m", name: "Melee", category: "melee" },
        { id: "s", name: "Shooter", category: "missile" },
        { id: "e", name: "Blaster", category: "energy" },
      ],
      { m: 5, s: 7, e: 11 },
    );
    expect(view.foes.map((f) => [f.rate, f.db])).toEqual([
      [1, 5],
      [2, 3],
      [4, 2],
    ]);
    expect(view.moved).toBe(23);
    expect(view.left).toBe(pool - 23);
  });

  it("CR-PAR-03: a constrained combatant's view says why it cannot parry", () => {
    expect(parryAllocation(fighter({}, { conditions: ["constrained"] }), []).blocked).toEqual({
      reason: "FRAY.Reason.Constrained",
      rule: "CR-PAR-03",
    });
  });

  it("CR-PAR-01: a stored parry above the OB is refused naming the field; one within passes", () => {
    const pool = parryAllocation(fighter(), []).pool;
    expect(() => checkParry(fighter({ a: pool }))).not.toThrow();
    let caught: unknown;
    try {
      checkParry(fighter({ a: pool, b: 1 }));
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(FrayError);
    expect((caught as FrayError).key).toBe("FRAY.Critical.Parry.TooMuch");
    expect((caught as FrayError).data).toMatchObject({ field: "system.parry", total: pool + 1, ob: pool });
  });
});
