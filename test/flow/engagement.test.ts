/** Melee engagement and disengaging (UD-OPT-01 fleeing, UD-OPT-02 retreat, UD-RND-02). */
import { describe, expect, it } from "vitest";
import {
  bySpaces,
  disengageChoices,
  engagedWith,
  gridMetres,
  leftBehind,
  withinReach,
  type Placed,
} from "../../src/foundry/logic/engagement.js";

const at = (id: string, disposition: number, col: number, row: number, out = false): Placed => ({
  id,
  disposition,
  x: col * 1.5 + 0.75,
  y: row * 1.5 + 0.75,
  out,
});

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

describe("engagement on the scene's grid", () => {
  const at = (id: string, disposition: number, offsets: { i: number; j: number }[], x = 0, y = 0): Placed => ({
    id,
    disposition,
    x,
    y,
    offsets,
  });
  // Square-grid adjacency as Foundry's `grid.testAdjacency` answers it: the eight neighbours.
  const square = (a: { i: number; j: number }, b: { i: number; j: number }) => Math.max(Math.abs(a.i - b.i), Math.abs(a.j - b.j)) === 1;

  it("UD-OPT-01: a large token is engaged by anyone next to any of its spaces", () => {
    const ogre = at("ogre", -1, [
      { i: 0, j: 0 },
      { i: 0, j: 1 },
      { i: 1, j: 0 },
      { i: 1, j: 1 },
    ]);
    const hero = at("hero", 1, [{ i: 2, j: 2 }]);
    const far = at("far", 1, [{ i: 4, j: 4 }]);
    const adjacent = bySpaces(square);
    expect(engagedWith(hero, [ogre], adjacent).map((p) => p.id)).toEqual(["ogre"]);
    expect(engagedWith(far, [ogre], adjacent)).toEqual([]);
    // Moving to (2, 1) keeps the ogre adjacent; to (3, 3) leaves it.
    expect(leftBehind(hero, { x: 0, y: 0, offsets: [{ i: 2, j: 1 }] }, [ogre], adjacent)).toEqual([]);
    expect(leftBehind(hero, { x: 0, y: 0, offsets: [{ i: 3, j: 3 }] }, [ogre], adjacent).map((p) => p.id)).toEqual(["ogre"]);
  });

  it("UD-OPT-02: without grid spaces (a gridless scene) a reach of one grid space in metres decides", () => {
    const adjacent = bySpaces(
      square,
      withinReach(2, (a, b) => Math.hypot(a.x - b.x, a.y - b.y)),
    );
    const hero: Placed = { id: "hero", disposition: 1, x: 0, y: 0 };
    const orc: Placed = { id: "orc", disposition: -1, x: 1.9, y: 0 };
    expect(engagedWith(hero, [orc], adjacent).map((p) => p.id)).toEqual(["orc"]);
    expect(leftBehind(hero, { x: -0.5, y: 0 }, [orc], adjacent).map((p) => p.id)).toEqual(["orc"]);
  });
});
