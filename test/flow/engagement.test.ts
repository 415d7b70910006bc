/** Melee engagement and disengaging (UD-OPT-01 fleeing, UD-OPT-02 retreat, UD-RND-02). */
import { describe, expect, it } from "vitest";
import { disengageChoices, engagedWith, gridMetres, leftBehind, type Placed } from "../../src/foundry/logic/engagement.js";

const at = (id: string, disposition: number, col: number, row: number, out = false): Placed => ({ id, disposition, x: col * 1.5 + 0.75, y: row * 1.5 + 0.75, out });

describe("engagement", () => {
  const hero = at("hero", 1, 5, 5);
  const orc = at("orc", -1, 6, 5);
  const goblin = at("goblin", -1, 6, 6);
  const ally = at("ally", 1, 4, 5);
  const far = at("far", -1, 9, 5);
  const downed = at("downed", -1, 5, 4, true);
  const all = [hero, orc, goblin, ally, far, downed];

  it("UD-RND-02: adjacent squares, diagonals included, are 1.5 m apart", () => {
    expect(gridMetres(hero, orc)).toBe(1.5);
    expect(gridMetres(hero, goblin)).toBe(1.5);
    expect(gridMetres(hero, far)).toBe(6);
  });

  it("engaged: adjacent opponents able to fight; allies, distant and downed foes are not", () => {
    expect(engagedWith(hero, all).map((p) => p.id)).toEqual(["orc", "goblin"]);
  });

  it("UD-OPT-01/02: moving away leaves behind those no longer adjacent", () => {
    expect(leftBehind(hero, { x: 2 * 1.5 + 0.75, y: 5 * 1.5 + 0.75 }, all).map((p) => p.id)).toEqual(["orc", "goblin"]);
    // Sliding along the orc stays engaged with it but leaves the goblin? (6,6) to (5,4) is 3 m.
    expect(leftBehind(hero, { x: 5 * 1.5 + 0.75, y: 4 * 1.5 + 0.75 }, all).map((p) => p.id)).toEqual(["goblin"]);
  });

  it("UD-OPT-01/02: the choices follow the world's options", () => {
    expect(disengageChoices({ fleeing: true, retreat: true })).toEqual(["flee", "retreat"]);
    expect(disengageChoices({ fleeing: false, retreat: true })).toEqual(["retreat"]);
    expect(disengageChoices({ fleeing: false, retreat: false })).toEqual([]);
  });
});
