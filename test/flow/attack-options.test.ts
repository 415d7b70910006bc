/** The attack dialog's odds through the generic pipeline (UD-ATK-02 to UD-ATK-04, UD-DEF-01, UD-COV-01, UD-REA-03). */
import { describe, expect, it } from "vitest";
import type { AttackRequest, SituationValues } from "../../src/rules/core/contract.js";
import { percent, targetOdds } from "../../src/foundry/logic/attack-options.js";
import { dialogDefaults, type AttackDialogData } from "../../src/foundry/chat/attack-dialog.js";
import { ud10 } from "../../src/rules/ud10/index.js";
import { fighter, target } from "../rules/ud10-fixtures.js";

const opts = ud10.defaults();
const request = (weaponId: string, distanceMetres: number, situation: SituationValues = {}, reaction?: string): AttackRequest => ({
  attackerId: "a",
  targetId: "b",
  weaponId,
  distanceMetres,
  situation,
  reaction,
});
const odds = (weaponId: string, distanceMetres: number, situation: SituationValues = {}, t = target(), reaction?: string) =>
  targetOdds(ud10, request(weaponId, distanceMetres, situation, reaction), fighter(), t, opts);

describe("attack dialog", () => {
  it("UD-ATK-04, UD-DEF-01: the generated fields start from the tokens' conditions", () => {
    const attacker = { ...fighter(), conditions: ["aiming2", "moving"] };
    const data: AttackDialogData = {
      ruleset: ud10 as never,
      options: opts,
      attacker,
      weapon: { id: "rifle", name: "Rifle", modes: [] },
      targets: [
        { id: "b", name: "Bo", combatant: target({ conditions: ["prone", "surprised", "immobilized", "moving"] }), rangeMetres: 10 },
      ],
    };
    expect(dialogDefaults(data).situation.b).toMatchObject({
      aim: 2,
      shooterMoving: true,
      targetCrouching: true,
      unanticipated: true,
      immobilized: true,
      targetMoving: true,
    });
  });

  it("UD-ATK-02: the exact chance to hit a melee target (d10 + 5 + 1 against 10 + DEX 2 = 12: 50 %)", () => {
    const o = odds("sword", 1.5);
    expect(o.hit).toBeCloseTo(0.5, 10);
    expect(o.difficulty).toBe(12);
    expect(percent(o.hit)).toBe("50.0");
  });

  it("UD-COV-01, UD-ATK-03: cover raises the defense, an unanticipated attack drops DEX", () => {
    expect(odds("sword", 1.5, { cover: 2 }).difficulty).toBe(14);
    expect(odds("sword", 1.5, { unanticipated: true }).difficulty).toBe(10);
  });

  it("UD-DEF-01: the immobilized field drops DEX and gives -2; unticked it overrides the condition", () => {
    expect(odds("sword", 1.5, { immobilized: true }).difficulty).toBe(8);
    expect(odds("sword", 1.5, { immobilized: false }, target({ conditions: ["immobilized"] })).difficulty).toBe(12);
  });

  it("UD-ATK-04: aiming and a moving target change a ranged check; a value overrides the condition", () => {
    const plain = odds("rifle", 10).modifier!;
    expect(odds("rifle", 10, { aim: 2 }).modifier).toBe(plain + 4);
    expect(odds("rifle", 10, { targetMoving: true }).modifier).toBe(plain - 2);
    expect(odds("rifle", 10, { targetMoving: false }, target({ conditions: ["moving"] })).modifier).toBe(plain);
  });

  it("UD-REA-03: the chance to get through a declared parry is below the chance to hit", () => {
    const o = odds("sword", 1.5, {}, target(), "parry");
    expect(o.through).toBeDefined();
    expect(o.through!).toBeLessThan(o.hit!);
  });

  it("UD-COV-01: the core's refusals come back as i18n keys naming the field (unknown weapon, a negative cover)", () => {
    expect(odds("nope", 1.5).error?.key).toBe("FRAY.Error.NoWeapon");
    expect(odds("sword", 1.5, { cover: -3 }).error).toMatchObject({ key: "FRAY.Error.Field", data: { field: "situation.cover" } });
  });
});
