/** The attack dialog's defaults and live odds (UD-ATK-03, UD-ATK-04, UD-DEF-01, UD-COV-01, UD-REA-03). */
import { describe, expect, it } from "vitest";
import { attackInput, defaultChoices, percent, situationFrom, targetOdds } from "../../src/foundry/logic/attack-options.js";
import { ud10 } from "../../src/rules/ud10/index.js";
import { fighter, target } from "../rules/ud10-fixtures.js";

const opts = ud10.defaults();

describe("attack dialog", () => {
  it("UD-ATK-04, UD-DEF-01: checkboxes start from the tokens' conditions", () => {
    const c = defaultChoices(["aiming2", "moving"], ["prone", "surprised", "immobilized", "moving"], ["t"]);
    expect(c).toMatchObject({ aim: 2, shooterMoving: true, targetCrouching: true, unanticipated: true, immobilized: true, targetMoving: true });
    expect(defaultChoices(["aiming1"], ["crouching"], []).aim).toBe(1);
    expect(defaultChoices([], [], []).targetCrouching).toBe(false);
  });

  it("UD-ATK-02: the exact chance to hit a melee target (d10 + 5 + 1 against 10 + DEX 2 = 12: 50 %)", () => {
    const input = attackInput(fighter(), target(), "sword", 1.5, defaultChoices([], [], ["b"]));
    const odds = targetOdds(input, "none", opts);
    expect(odds.hit).toBeCloseTo(0.5, 10);
    expect(odds.difficulty).toBe(12);
    expect(percent(odds.hit)).toBe("50.0");
  });

  it("UD-COV-01, UD-ATK-03: cover raises the defense, an unanticipated attack drops DEX", () => {
    const base = defaultChoices([], [], ["b"]);
    expect(targetOdds(attackInput(fighter(), target(), "sword", 1.5, { ...base, cover: 2 }), "none", opts).difficulty).toBe(14);
    expect(targetOdds(attackInput(fighter(), target(), "sword", 1.5, { ...base, unanticipated: true }), "none", opts).difficulty).toBe(10);
  });

  it("UD-DEF-01: the immobilized checkbox drops DEX and gives -2", () => {
    const base = defaultChoices([], [], ["b"]);
    expect(targetOdds(attackInput(fighter(), target(), "sword", 1.5, { ...base, immobilized: true }), "none", opts).difficulty).toBe(8);
    const already = target({ conditions: ["immobilized"] });
    expect(targetOdds(attackInput(fighter(), already, "sword", 1.5, { ...base, immobilized: false }), "none", opts).difficulty).toBe(12);
  });

  it("UD-ATK-04: aiming and a moving target change a ranged check; a choice overrides the condition", () => {
    const base = defaultChoices([], [], ["b"]);
    const plain = targetOdds(attackInput(fighter(), target(), "rifle", 10, base), "none", opts).modifier!;
    expect(targetOdds(attackInput(fighter(), target(), "rifle", 10, { ...base, aim: 2 }), "none", opts).modifier).toBe(plain + 4);
    expect(targetOdds(attackInput(fighter(), target(), "rifle", 10, { ...base, targetMoving: true }), "none", opts).modifier).toBe(plain - 2);
    const moving = target({ conditions: ["moving"] });
    expect(targetOdds(attackInput(fighter(), moving, "rifle", 10, { ...base, targetMoving: false }), "none", opts).modifier).toBe(plain);
    expect(situationFrom({ ...base, cover: -3, misc: 2.7 })).toMatchObject({ cover: 0, misc: 2 });
  });

  it("UD-REA-03: the chance to get through a declared parry is below the chance to hit", () => {
    const odds = targetOdds(attackInput(fighter(), target(), "sword", 1.5, defaultChoices([], [], ["b"])), "parry", opts);
    expect(odds.through).toBeDefined();
    expect(odds.through!).toBeLessThan(odds.hit!);
  });

  it("reports the core's refusal (unknown weapon) as an i18n key", () => {
    const odds = targetOdds(attackInput(fighter(), target(), "nope", 1.5, defaultChoices([], [], ["b"])), "none", opts);
    expect(odds.error?.key).toBe("FRAY.Error.NoWeapon");
  });
});
