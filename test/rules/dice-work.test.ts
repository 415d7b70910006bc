/**
 * The bound of work of every distribution the rulesets and their compendium items can ask for.
 * Work is counted (multiply-adds and the widest table of totals), never timed: speed is what
 * `npm run bench:dice` measures.
 *
 * Stated bounds (RULES.md, "Input limits"): every formula here takes at most
 * {@link STEPS} steps and {@link SUPPORT} totals, a quarter of the general bound of
 * `DISTRIBUTION_LIMITS`.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DISTRIBUTION_LIMITS, mean, measureDistribution, type MeasuredDistribution } from "../../src/rules/core/dice/distribution.js";
import { compileFormula } from "../../src/rules/core/dice/formula.js";
import { OPEN_ENDED_D100 } from "../../src/rules/critical/attack.js";
import { testPmf } from "../../src/rules/hitbox/attack.js";
import { CHECK_DICE, checkFormula } from "../../src/rules/ud10/attack.js";
import { damageFormula, parseDamageCode } from "../../src/rules/ud10/model.js";
import { CHECK_DIE } from "../../src/rules/zones/checks.js";

const STEPS = 5_000_000;
const SUPPORT = 4_000;

const packs = fileURLToPath(new URL("../../packs/_source", import.meta.url));

/** Every JSON file under `dir`. */
function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? jsonFiles(path) : name.endsWith(".json") ? [path] : [];
  });
}

/** Every string held under a `damage` or `formula` key anywhere in `value` (embedded items too). */
function codesIn(value: unknown, out: { key: string; code: string }[] = []): { key: string; code: string }[] {
  if (Array.isArray(value)) for (const v of value) codesIn(v, out);
  else if (value && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) {
      if ((key === "damage" || key === "formula") && typeof v === "string") out.push({ key, code: v });
      else codesIn(v, out);
    }
  }
  return out;
}

/** The dice formula of every damage code and table formula of the packs, by pack folder. */
function packFormulas(): { pack: string; code: string; formula: string }[] {
  return readdirSync(packs).flatMap((pack) =>
    jsonFiles(join(packs, pack)).flatMap((file) =>
      codesIn(JSON.parse(readFileSync(file, "utf8"))).map(({ key, code }) => ({
        pack,
        code,
        // UD10 damage codes become `N d10` exploding on 10 (UD-DMG-01); the rest are formulas.
        formula: pack.startsWith("ud10-") && key === "damage" ? damageFormula(code) : code,
      })),
    ),
  );
}

/** Expects the distribution of `formula` within the stated bounds, summing to 1. */
function expectBounded(formula: string): MeasuredDistribution {
  const m = measureDistribution(formula);
  expect(m.steps, formula).toBeLessThanOrEqual(STEPS);
  expect(m.support, formula).toBeLessThanOrEqual(SUPPORT);
  expect(
    [...m.pmf.values()].reduce((a, b) => a + b, 0),
    formula,
  ).toBeCloseTo(1, 12);
  return m;
}

describe("bounded distribution work", () => {
  it("states bounds within the general bound of work", () => {
    expect(STEPS * 4).toBeLessThanOrEqual(DISTRIBUTION_LIMITS.maxSteps);
    expect(SUPPORT * 4).toBeLessThanOrEqual(DISTRIBUTION_LIMITS.maxSupport);
  });

  it("UD-DMG-01: every damage code and table formula of the packs is a valid formula with a bounded distribution", () => {
    const found = packFormulas();
    // The packs hold UD10 and Zones damage and the tables' formulas (a guard against a silent empty scan).
    expect(found.filter((f) => f.pack.startsWith("ud10-")).length).toBeGreaterThan(10);
    expect(found.filter((f) => f.pack.endsWith("-tables")).length).toBeGreaterThan(5);
    expect(found.some((f) => /x/.test(f.formula))).toBe(true);
    for (const { formula } of found) {
      compileFormula(formula);
      expectBounded(formula);
    }
  });

  it("UD-DMG-01: the largest damage code a UD10 sheet can hold, 20d10 exploding on 10, stays within the bound", () => {
    expect(parseDamageCode("20d10").dice).toBe(20);
    expect(() => parseDamageCode("21d10")).toThrow();
    let last = 0;
    for (let n = 1; n <= 20; n++) {
      const { steps } = expectBounded(damageFormula(`${n}d10+9`));
      expect(steps).toBeGreaterThan(last);
      last = steps;
    }
    // Each exploding d10 adds 5.5 / (1 - 1/10) on average.
    expect(mean(measureDistribution(damageFormula("20d10")).pmf)).toBeCloseTo((20 * 5.5) / 0.9, 6);
  });

  it("CR-ATK-01: the open-ended d100 stays within the bound", () => {
    const m = expectBounded(OPEN_ENDED_D100);
    // 50.5 / (1 - 5/100): the mean of a d100 rerolled and added on 96-100.
    expect(mean(m.pmf)).toBeCloseTo(50.5 / 0.95, 6);
  });

  it("UD-ATK-01, ZN-REA-02, HB-ATK-02: the check dice with any modifier stay within the bound", () => {
    for (const modifier of [-30, -1, 0, 7, 40]) {
      expectBounded(checkFormula(modifier));
      expect(testPmf(modifier).size).toBe(11);
    }
    expectBounded(CHECK_DICE);
    expectBounded(CHECK_DIE);
    expectBounded("2d6");
    expectBounded("1d100");
  });
});
