import { describe, expect, it } from "vitest";
import { atLeast, distribution, mean } from "../../src/rules/core/dice/distribution.js";
import { parseFormula } from "../../src/rules/core/dice/formula.js";
import { ScriptedRoller, SeededRoller } from "../../src/rules/core/dice/port.js";
import { FrayError } from "../../src/rules/core/errors.js";

describe("dice port", () => {
  it("parses the formulas the rulesets use", () => {
    expect(parseFormula("2d10x10 + 3").terms).toEqual([
      { kind: "dice", sign: 1, count: 2, faces: 10, explode: { on: { op: "=", value: 10 }, once: false } },
      { kind: "constant", sign: 1, value: 3 },
    ]);
    expect(parseFormula("1d100x>95").terms[0]).toMatchObject({ faces: 100, explode: { on: { op: ">", value: 95 } } });
    expect(parseFormula("2d6 - 1").terms[1]).toEqual({ kind: "constant", sign: -1, value: 1 });
  });

  it("rejects malformed formulas with a localizable error", () => {
    for (const bad of ["", "2d", "d", "3+*2", "1d1x", "1d6x>0", "2d6++1"]) {
      expect(() => parseFormula(bad), bad).toThrow(FrayError);
    }
    try {
      parseFormula("2q6");
    } catch (e) {
      expect((e as FrayError).key).toBe("FRAY.Error.Formula");
      expect((e as FrayError).data.formula).toBe("2q6");
    }
  });

  it("UD-DMG-01: a scripted roller feeds faces in order, explosions included", async () => {
    const dice = new ScriptedRoller([10, 4, 7]);
    const r = await dice.roll("2d10x10 + 3");
    expect(r.dice[0]!.results).toEqual([10, 4, 7]);
    expect(r.total).toBe(24);
    expect(dice.remaining).toBe(0);
  });

  it("explodes repeatedly and only once with xo", async () => {
    expect((await new ScriptedRoller([10, 10, 2]).roll("1d10x")).total).toBe(22);
    expect((await new ScriptedRoller([10, 10]).roll("1d10xo")).total).toBe(20);
    expect((await new ScriptedRoller([97, 99, 3]).roll("1d100x>95")).total).toBe(199);
  });

  it("a scripted roller rejects impossible faces and an empty script", async () => {
    await expect(new ScriptedRoller([11]).roll("1d10")).rejects.toMatchObject({ key: "FRAY.Error.DiceScriptFace" });
    await expect(new ScriptedRoller([]).roll("1d10")).rejects.toMatchObject({ key: "FRAY.Error.DiceScriptEmpty" });
  });

  it("a seeded roller repeats itself for the same seed and differs for another", async () => {
    const seq = async (seed: number) => {
      const d = new SeededRoller(seed);
      const out: number[] = [];
      for (let i = 0; i < 20; i++) out.push((await d.roll("1d10")).total);
      return out;
    };
    expect(await seq(7)).toEqual(await seq(7));
    expect(await seq(7)).not.toEqual(await seq(8));
    expect((await seq(7)).every((f) => f >= 1 && f <= 10)).toBe(true);
  });

  it("computes exact distributions", () => {
    const twoD6 = distribution("2d6");
    expect(twoD6.get(7)).toBeCloseTo(6 / 36, 12);
    expect(atLeast(twoD6, 9)).toBeCloseTo(10 / 36, 12);
    expect(atLeast(distribution("1d10 + 3"), 13)).toBeCloseTo(0.1, 12);
    // An exploding d10 has mean 5.5 / (1 - 1/10) = 6.111...
    expect(mean(distribution("1d10x10"))).toBeCloseTo(5.5 / 0.9, 9);
    const total = [...distribution("2d10x10 + 3").values()].reduce((a, b) => a + b, 0);
    expect(total).toBeCloseTo(1, 12);
  });
});
