import { parseCombatant, type Ud10Combatant } from "../../src/rules/ud10/model.js";

/** A combatant for tests: STR 3, DEX 3, CON 2, trained melee 5, ranged 6, parry 4, dodge 3, initiative 4. */
export function fighter(overrides: Record<string, unknown> = {}): Ud10Combatant {
  return parseCombatant({
    id: "a",
    name: "Ana",
    attributes: { STR: 3, DEX: 3, CON: 2 },
    skills: { initiative: 4, melee: 5, ranged: 6, parry: 4, dodge: 3 },
    hp: 20,
    ep: 15,
    weapons: [
      { id: "sword", name: "Sword", kind: "melee", attackModifier: 1, damage: "3+1d10", penetration: 1, canParry: true },
      {
        id: "rifle",
        name: "Rifle",
        kind: "ranged",
        attackModifier: 0,
        damage: "4+2d10",
        penetration: 2,
        rangeIncrement: 50,
        modes: [{ id: "burst", label: "Burst", damage: "6+3d10", attackModifier: -1, shots: 3 }],
      },
    ],
    armor: [],
    ...overrides,
  });
}

/** A target with a vest on the torso (rating 4, buffer 5) and a helmet (rating 2, buffer 3). */
export function target(overrides: Record<string, unknown> = {}): Ud10Combatant {
  return fighter({
    id: "b",
    name: "Bo",
    attributes: { STR: 2, DEX: 2, CON: 3 },
    armor: [
      { id: "vest", name: "Vest", zones: { torso: { rating: 4, buffer: 5 } } },
      { id: "helmet", name: "Helmet", zones: { head: { rating: 2, buffer: 3 } } },
    ],
    ...overrides,
  });
}
