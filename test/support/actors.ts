/**
 * UD10 actor data for tests that go through the built bundle: a `character`/`npc` `system` with
 * STR 5, CON 4, trained Initiative 3, Melee 6 and Parry 4, untrained Ranged and Dodge, 20 HP and
 * 10 EP.
 * @param dex the DEX attribute (defense 10 + DEX).
 * @param biography the biography HTML.
 */
export function combatantSystem(dex: number, biography = "") {
  return {
    attributes: { STR: 5, DEX: dex, CON: 4 },
    skills: {
      initiative: { rating: 3, trained: true },
      melee: { rating: 6, trained: true },
      ranged: { rating: 0, trained: false },
      parry: { rating: 4, trained: true },
      dodge: { rating: 0, trained: false },
    },
    hp: { value: 20, max: 20 },
    ep: { value: 10, max: 10 },
    size: "normal",
    group: "players",
    biography,
  };
}
