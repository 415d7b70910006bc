/**
 * Property suites of the rules core's attack boundary for all four rulesets
 * (`validateAttackInput`): generated valid inputs always pass and plan to finite, itemized
 * difficulties with odds between 0 and 1; a valid input with one field made bad always gives a
 * FrayError naming that field. Runs: 2 x RUNS per ruleset for each property (seed logged).
 */
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FrayError } from "../../src/rules/core/errors.js";
import type { Ruleset, RulesetOptions } from "../../src/rules/core/ruleset.js";
import { sumModifiers, type RulesetId } from "../../src/rules/core/types.js";
import { critical, hitbox, ud10, zones } from "../../src/rules/index.js";
import { validateAttackInput } from "../../src/rules/validate.js";
import { BAD_VALUES, exampleCombatants, params, refusedField, RUNS, setPath, type FieldKind } from "./support.js";

type Any = Ruleset<unknown, unknown>;
const RULESETS: Record<RulesetId, Any> = { ud10: ud10 as Any, hitbox: hitbox as Any, critical: critical as Any, zones: zones as Any };

const int = (min: number, max: number) => fc.integer({ min, max });
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });

/** Valid situations, ranges and numbers per ruleset, within the bounds of `RULESET_BOUNDS`. */
const SITUATION: Record<RulesetId, fc.Arbitrary<Record<string, unknown>>> = {
  ud10: fc.record(
    {
      higherGround: fc.boolean(),
      aim: int(0, 2),
      badVisibility: fc.boolean(),
      targetCrouching: fc.boolean(),
      targetMoving: fc.boolean(),
      shooterMoving: fc.boolean(),
      unanticipated: fc.boolean(),
      cover: int(0, 50),
      misc: int(-50, 50),
    },
    { requiredKeys: [] },
  ),
  hitbox: fc.record(
    {
      halfHidden: fc.boolean(),
      dark: fc.boolean(),
      targetProne: fc.boolean(),
      targetNearCover: fc.boolean(),
      targetUnaware: fc.boolean(),
      targetThreatened: fc.boolean(),
      misc: int(-50, 50),
    },
    { requiredKeys: [] },
  ),
  critical: fc.record({ modifier: int(-500, 500), cover: int(0, 500), unseen: fc.boolean() }, { requiredKeys: [] }),
  zones: fc.record(
    {
      targetSize: fc.constantFrom("tiny", "small", "medium", "large", "huge"),
      targetMovement: fc.constantFrom("still", "subtle", "slow", "fast"),
      stance: fc.constantFrom("standing", "kneeling", "proneFiring", "prone"),
      aim: int(0, 20),
      environment: fc.subarray(["lowLight", "darkness", "strongWind", "impairedVision"]),
      environmentModifier: int(-50, 50),
      misc: int(-50, 50),
      surprise: fc.boolean(),
    },
    { requiredKeys: [] },
  ),
};

const RANGE_KEY: Record<RulesetId, string | undefined> = {
  ud10: "rangeMetres",
  hitbox: "rangeFeet",
  critical: undefined,
  zones: "rangeMetres",
};

/** Fields made bad one at a time, with their kind. */
const BAD_FIELDS: Record<RulesetId, [string, FieldKind][]> = {
  ud10: [
    ["attacker", "object"],
    ["target", "object"],
    ["rangeMetres", "number"],
    ["situation", "object"],
    ["situation.cover", "number"],
    ["situation.misc", "number"],
    ["situation.aim", "number"],
    ["situation.shooterMoving", "flag"],
    ["reaction", "choice"],
    ["attacker.skills.melee.rating", "number"],
    ["target.attributes.DEX", "number"],
    ["attacker.hp.max", "number"],
    ["target.size", "choice"],
  ],
  hitbox: [
    ["attacker", "object"],
    ["target", "object"],
    ["rangeFeet", "number"],
    ["shots", "number"],
    ["calledShot", "choice"],
    ["situation.misc", "number"],
    ["situation.dark", "flag"],
    ["reaction", "choice"],
    ["attacker.skills.firearms", "number"],
    ["target.hitboxes.head.max", "number"],
    ["attacker.mainHand", "choice"],
  ],
  critical: [
    ["attacker", "object"],
    ["target", "object"],
    ["situation", "object"],
    ["situation.modifier", "number"],
    ["situation.cover", "number"],
    ["situation.unseen", "flag"],
    ["attacker.physique.total", "number"],
    ["target.defense", "number"],
    ["attacker.stun", "number"],
  ],
  zones: [
    ["attacker", "object"],
    ["rangeMetres", "number"],
    ["bullets", "number"],
    ["modeId", "choice"],
    ["situation.aim", "number"],
    ["situation.misc", "number"],
    ["situation.targetSize", "choice"],
    ["situation.surprise", "flag"],
    ["reaction", "choice"],
    ["attacker.skills.firearms", "number"],
    ["target.hp.max", "number"],
    ["attacker.stance", "choice"],
  ],
};

describe.each(Object.keys(RULESETS) as RulesetId[])("attack input boundary: %s", (id) => {
  const ruleset = RULESETS[id];
  const [attacker, target] = exampleCombatants(id) as [{ weapons: { id: string }[] }, unknown];
  const options: RulesetOptions = ruleset.defaults();
  const valid = fc.record({
    weapon: fc.constantFrom(...attacker.weapons.map((w) => w.id)),
    range: opt(fc.double({ min: 0, max: 2000, noNaN: true })),
    situation: SITUATION[id],
  });
  const build = (v: { weapon: string; range?: number; situation: Record<string, unknown> }): Record<string, unknown> => {
    const input: Record<string, unknown> = { attacker, target, weaponId: v.weapon, situation: v.situation };
    const rangeKey = RANGE_KEY[id];
    if (rangeKey && v.range !== undefined) input[rangeKey] = v.range;
    return input;
  };

  it(`${id === "ud10" ? "UD-ATK-01" : id === "hitbox" ? "HB-ATK-02" : id === "critical" ? "CR-ATK-01" : "ZN-RNG-02"}: generated valid inputs pass and plan to finite itemized difficulties`, () => {
    fc.assert(
      fc.property(valid, (v) => {
        const input = validateAttackInput(id, build(v));
        let plan;
        try {
          plan = ruleset.planAttack(input, options);
        } catch (e) {
          // A rule may refuse a valid input (out of the weapon's range, no parry): always a FrayError.
          expect(e).toBeInstanceOf(FrayError);
          return;
        }
        expect(Number.isFinite(plan.difficulty.total)).toBe(true);
        expect(plan.difficulty.total).toBe(plan.difficulty.base.value + sumModifiers(plan.difficulty.modifiers));
        for (const m of [...plan.modifiers, ...plan.difficulty.modifiers]) expect(Number.isFinite(m.value)).toBe(true);
        const odds = ruleset.odds(plan, input, options);
        // Exact odds summed in floating point may pass 1 by a rounding error, never by more.
        expect(odds.hit).toBeGreaterThanOrEqual(-1e-12);
        expect(odds.hit).toBeLessThanOrEqual(1 + 1e-12);
      }),
      params(`${id} valid attack inputs`, 2 * RUNS),
    );
  }, 60_000);

  it(`${id === "ud10" ? "UD-COV-01" : id === "hitbox" ? "HB-MOD-01" : id === "critical" ? "CR-ATK-01" : "ZN-RNG-01"}: one bad field always gives a FrayError naming it`, () => {
    const bad = fc
      .constantFrom(...BAD_FIELDS[id])
      .chain(([path, kind]) => fc.tuple(fc.constant(path), fc.constantFrom(...BAD_VALUES[kind])));
    fc.assert(
      fc.property(valid, bad, (v, [path, value]) => {
        expect(refusedField(() => validateAttackInput(id, setPath(build(v), path, value)))).toBe(path);
      }),
      params(`${id} bad attack inputs`, 2 * RUNS),
    );
  }, 60_000);

  it(`${id === "ud10" ? "UD-ATK-03" : id === "hitbox" ? "HB-MOD-02" : id === "critical" ? "CR-PAR-03" : "ZN-RNG-04"}: an unknown situation key is refused with the nearest key suggested`, () => {
    const key = id === "critical" ? "covr" : id === "zones" ? "aimm" : "mics";
    const e = (() => {
      try {
        validateAttackInput(id, { attacker, target, weaponId: attacker.weapons[0]!.id, situation: { [key]: 1 } });
      } catch (err) {
        return err as FrayError;
      }
    })();
    expect(e?.data.field).toBe(`situation.${key}`);
    expect(e?.key).toBe("FRAY.Error.Input.UnknownSuggest");
    expect(e?.data.suggestion).toBe(id === "critical" ? "cover" : id === "zones" ? "aim" : "misc");
  });

  it(`${id === "ud10" ? "UD-ATK-01" : id === "hitbox" ? "HB-ATK-02" : id === "critical" ? "CR-ATK-01" : "ZN-RNG-02"}: a missing or null combatant is a FrayError, never a TypeError`, () => {
    expect(refusedField(() => validateAttackInput(id, { attacker: null, target, weaponId: "x" }))).toBe("attacker");
    expect(refusedField(() => validateAttackInput(id, { target, weaponId: "x" }))).toBe("attacker");
    expect(refusedField(() => validateAttackInput(id, null))).toBe("(input)");
  });
});
