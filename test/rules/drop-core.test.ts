/**
 * The core of the chance to drop the target: every way a short roll can go (`everyFace`), with
 * its chance, through the real dice port; the refusal of a roll with too many ways.
 */
import { describe, expect, it } from "vitest";
import { distribution } from "../../src/rules/core/dice/distribution.js";
import { everyFace } from "../../src/rules/core/drop.js";
import { FrayError } from "../../src/rules/core/errors.js";

describe("everyFace", () => {
  it("gives each total of 2d6 + 1d4 the chance of its exact distribution", () => {
    const branches = everyFace((dice) => dice.rollSync("2d6").total + dice.rollSync("1d4").total);
    expect(branches).toHaveLength(144);
    const byTotal = new Map<number, number>();
    for (const b of branches) byTotal.set(b.value, (byTotal.get(b.value) ?? 0) + b.p);
    for (const [total, p] of distribution("2d6 + 1d4")) expect(byTotal.get(total)).toBeCloseTo(p, 15);
  });

  it("follows a roll drawn only on some branches (a second die after a first that shows 6)", () => {
    const branches = everyFace((dice) => {
      const first = dice.rollSync("1d6").total;
      return first === 6 ? 6 + dice.rollSync("1d6").total : first;
    });
    expect(branches).toHaveLength(11);
    expect(branches.reduce((s, b) => s + b.p, 0)).toBeCloseTo(1, 15);
    expect(branches.find((b) => b.value === 12)!.p).toBeCloseTo(1 / 36, 15);
  });

  it("refuses rolls with more ways than it may follow, naming the bound", () => {
    expect(() => everyFace((dice) => dice.rollSync("3d6").total, 100)).toThrow(FrayError);
    try {
      everyFace((dice) => dice.rollSync("3d6").total, 100);
    } catch (err) {
      expect((err as FrayError).key).toBe("FRAY.Error.DropWork");
      expect((err as FrayError).data).toEqual({ max: 100 });
    }
  });
});
