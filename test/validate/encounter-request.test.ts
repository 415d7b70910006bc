/**
 * Property suites of the encounter file boundary (`parseEncounter`) and of the macro and dialog
 * boundary (`validateAttackRequest`, `validateDialogSituation`). Runs: RUNS per property for the
 * files (RUNS / 20 played to their end), 2 x RUNS for requests; seed logged.
 */
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { playEncounter } from "../../src/encounter/engine.js";
import { parseEncounter } from "../../src/encounter/schema.js";
import type { SituationField } from "../../src/rules/core/contract.js";
import type { RulesetId } from "../../src/rules/core/types.js";
import { MAX_SEED, validateAttackRequest, validateDialogSituation } from "../../src/rules/validate.js";
import { BAD_VALUES, content, example, params, refusedField, RUNS, setPath } from "./support.js";

const IDS: RulesetId[] = ["ud10", "hitbox", "critical", "zones"];

describe("encounter file boundary", () => {
  it("UD-RND-01: valid seeds, round limits and names always load", () => {
    const valid = fc.record({
      ruleset: fc.constantFrom(...IDS),
      seed: fc.integer({ min: 0, max: MAX_SEED }),
      maxRounds: fc.integer({ min: 4, max: 10_000 }),
      name: fc.string({ minLength: 1, maxLength: 256 }),
    });
    fc.assert(
      fc.property(valid, (v) => {
        const spec = parseEncounter({ ...example(v.ruleset), seed: v.seed, maxRounds: v.maxRounds, name: v.name });
        expect(spec.seed).toBe(v.seed);
        expect(spec.rounds.length).toBeLessThanOrEqual(spec.maxRounds);
      }),
      params("encounter files: valid", RUNS),
    );
  }, 60_000);

  it("UD-RND-01: the example files play to their end under any seed", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...IDS), fc.integer({ min: 0, max: MAX_SEED }), async (ruleset, seed) => {
        const file = example(ruleset);
        const spec = parseEncounter({ ...file, seed, dice: [] });
        const result = await playEncounter(spec, content);
        expect(result.rounds).toBeLessThanOrEqual(spec.maxRounds);
        for (const c of result.combatants) expect(Number.isNaN(c.vitals.hp?.value ?? 0)).toBe(false);
      }),
      params("encounter files: played", Math.max(4, Math.floor(RUNS / 20))),
    );
  }, 120_000);

  it("UD-RND-01: one bad top-level or combatant field always gives a FrayError naming it", () => {
    const fields: [string, unknown[]][] = [
      ["seed", [-1, MAX_SEED + 1, 1.5, NaN, "7", Infinity]],
      ["maxRounds", [0, -3, 10_001, 2.5, "20", []]],
      ["ruleset", ["constructor", "__proto__", "toString", "UD10", 3, true]],
      ["name", ["", "x".repeat(257), 5, [], {}]],
      ["options", ["none", 3, [], true]],
      ["combatants", ["all", 3, [], {}]],
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...IDS),
        fc.constantFrom(...fields).chain(([f, bad]) => fc.tuple(fc.constant(f), fc.constantFrom(...bad))),
        (ruleset, [field, value]) => {
          expect(refusedField(() => parseEncounter(setPath(example(ruleset), field, value)))).toBe(field);
        },
      ),
      params("encounter files: bad field", RUNS),
    );
  }, 60_000);

  it("UD-RND-01: a typo of an option id is refused with the option it meant", () => {
    fc.assert(
      fc.property(fc.constantFrom(...IDS), fc.nat(), (ruleset, n) => {
        const file = example(ruleset);
        const ids = Object.keys((file.options as Record<string, unknown> | undefined) ?? { fumbles: true });
        const id = ids[n % ids.length]!;
        const typo = id.slice(0, -1);
        let error: { data: Record<string, unknown> } | undefined;
        try {
          parseEncounter({ ...file, options: { [typo]: true } });
        } catch (e) {
          error = e as typeof error;
        }
        expect(error?.data.field).toBe(`options.${typo}`);
        expect(error?.data.suggestion).toBe(id);
      }),
      params("encounter files: option typos", RUNS),
    );
  }, 60_000);
});

const FIELDS: SituationField[] = [
  { id: "cover", label: "FRAY.Mod.Cover", rule: "UD-COV-01", kind: "number", min: 0, max: 20, step: 1, default: 0, perTarget: true },
  { id: "misc", label: "FRAY.Mod.Misc", rule: "UD-ATK-03", kind: "number", default: 0, perTarget: false },
  {
    id: "aim",
    label: "FRAY.Mod.Aim",
    rule: "UD-ATK-04",
    kind: "choice",
    choices: [
      { value: "0", label: "0" },
      { value: "1", label: "1" },
      { value: "2", label: "2" },
    ],
    default: "0",
    perTarget: false,
  },
  { id: "unanticipated", label: "FRAY.Mod.Unanticipated", rule: "UD-DEF-01", kind: "boolean", default: false, perTarget: true },
];

describe("macro and dialog boundary", () => {
  it('UD-ATK-03: dialog texts become numbers there, so a modifier typed as "10" adds 10', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 }), fc.integer({ min: -50, max: 50 }), fc.boolean(), (cover, misc, flag) => {
        const values = validateDialogSituation("ud10", FIELDS, {
          cover: String(cover),
          misc: ` ${misc} `,
          unanticipated: String(flag),
          aim: "1",
        });
        expect(values).toEqual({ cover, misc, unanticipated: flag, aim: "1" });
        const request = validateAttackRequest(
          "ud10",
          { attackerId: "a", targetId: "b", weaponId: "Knife", distanceMetres: "12.5", situation: { misc: String(misc) } },
          { fields: FIELDS, form: true },
        );
        expect(request.distanceMetres).toBe(12.5);
        expect(request.situation?.misc).toBe(misc);
      }),
      params("dialog values", 2 * RUNS),
    );
  }, 60_000);

  it("UD-COV-01: a bad request or dialog value always gives a FrayError naming it", () => {
    const bad: [string, unknown[]][] = [
      ["attackerId", [null, 3, "", "constructor", "__proto__"]],
      ["distanceMetres", BAD_VALUES.number.filter((x) => x !== "10" && x !== "")],
      ["situation.cover", [-1, 21, 2.5, "many", NaN, Infinity, [], true]],
      ["situation.misc", ["ten", -1e9, 1e12, [], {}]],
      ["situation.aim", ["3", 1, "constructor", []]],
      ["situation.unanticipated", ["yes", 1, []]],
      ["situation.covr", [1]],
      ["reaction", ["duck", 1, "constructor"]],
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...bad).chain(([f, vals]) => fc.tuple(fc.constant(f), fc.constantFrom(...vals))),
        fc.boolean(),
        ([field, value], form) => {
          const request = setPath(
            { attackerId: "a", targetId: "b", weaponId: "Knife", distanceMetres: 3, situation: { cover: 2 } },
            field,
            value,
          );
          expect(refusedField(() => validateAttackRequest("ud10", request, { fields: FIELDS, form }))).toBe(field);
        },
      ),
      params("bad requests", 2 * RUNS),
    );
  }, 60_000);
});
