import { describe, expect, it } from "vitest";
import { chooseTarget, chooseWeapon, DEFAULT_TACTICS, describeTactics } from "../../src/encounter/tactics.js";
import type { CombatantSpec } from "../../src/encounter/schema.js";

const rules = DEFAULT_TACTICS.target;
const enemies = ["a", "b", "c"];
const distances: Record<string, number> = { a: 30, b: 4, c: 4 };

describe("target rules", () => {
  it("take the declared target first, then the engaged one, then the first standing enemy", () => {
    expect(chooseTarget(rules, { declared: "c", engaged: "b", enemies })).toBe("c");
    expect(chooseTarget(rules, { engaged: "b", enemies })).toBe("b");
    expect(chooseTarget(rules, { enemies })).toBe("a");
    expect(chooseTarget(rules, { enemies: [] })).toBeUndefined();
  });

  it("nearest: the enemy at the shortest known distance, the first in file order on a tie", () => {
    expect(chooseTarget(rules, { enemies, distance: (e) => distances[e] })).toBe("b");
    expect(chooseTarget(rules, { enemies, distance: (e) => (e === "c" ? 10 : undefined) })).toBe("c");
    // No distance known: the rule passes to the next.
    expect(chooseTarget(rules, { enemies, distance: () => undefined })).toBe("a");
    expect(chooseTarget(["nearest"], { enemies })).toBeUndefined();
  });
});

describe("weapon rules", () => {
  const weapons = [{ id: "knife" }, { id: "pistol" }, { id: "rifle" }];
  const order = DEFAULT_TACTICS.weapon;
  it("take the declared weapon, then the tactics', then the best, the ready and the first", () => {
    expect(chooseWeapon(order, { declared: "Pistol", tactics: "rifle", weapons })).toBe("Pistol");
    expect(chooseWeapon(order, { tactics: "rifle", weapons, ready: weapons[1] })).toBe("rifle");
    expect(chooseWeapon(order, { weapons, ready: weapons[1], score: (w) => (w.id === "rifle" ? 9 : 2) })).toBe("rifle");
    expect(chooseWeapon(order, { weapons, ready: weapons[1], score: () => undefined })).toBe("pistol");
    expect(chooseWeapon(order, { weapons })).toBe("knife");
    expect(chooseWeapon(order, { weapons: [] })).toBeUndefined();
  });
});

describe("tactics statement", () => {
  it("states each entry's declared target, weapon and reaction with the rules", () => {
    const entry = (over: Partial<CombatantSpec>): CombatantSpec => ({ id: "x", side: "s", extra: {}, ...over });
    const stated = describeTactics({
      combatants: [
        entry({ id: "a", react: "dodge", tactics: { attack: "b", weapon: "Rifle" } }),
        entry({ id: "b", react: "none", tactics: { wait: true } }),
      ],
    });
    expect(stated[0]).toMatchObject({ id: "a", attack: "b", weapon: "Rifle", react: "dodge", wait: false });
    expect(stated[0]!.tactics.react).toBe("whenPossible");
    expect(stated[1]).toMatchObject({ id: "b", react: "none", wait: true });
    expect(stated[1]!.tactics.react).toBe("none");
    expect(stated[1]).not.toHaveProperty("attack");
  });

  it("hands out copies of the rule lists: a result changed by its reader leaves the tactics the drivers play alone", () => {
    const [stated] = describeTactics({ combatants: [{ id: "a", side: "s", extra: {} }] });
    expect(stated!.tactics.target).toEqual(DEFAULT_TACTICS.target);
    expect(stated!.tactics.weapon).toEqual(DEFAULT_TACTICS.weapon);
    (stated!.tactics.target as string[]).reverse();
    (stated!.tactics.weapon as string[]).length = 0;
    expect(DEFAULT_TACTICS.target).toEqual(["declared", "engaged", "nearest", "first"]);
    expect(DEFAULT_TACTICS.weapon).toEqual(["declared", "tactics", "best", "ready", "first"]);
    expect(Object.isFrozen(DEFAULT_TACTICS)).toBe(true);
  });
});
