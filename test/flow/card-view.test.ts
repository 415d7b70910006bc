/** The attack card's per-target view: lines, reaction, damage, steps and buttons (UD-REA-03, UD-DMG-01 to UD-DMG-05). */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { nestedLookup } from "../../src/rules/core/i18n.js";
import { ScriptedRoller } from "../../src/rules/core/dice/port.js";
import { ud10 } from "../../src/rules/ud10/index.js";
import { attackMessageContext, effectiveResult, storableResult, type Localizer } from "../../src/foundry/attack-card.js";
import { withApplied, withDamage, withReaction, withUndone, type TargetState } from "../../src/foundry/logic/card.js";
import { undoRecord } from "../../src/foundry/logic/undo.js";
import { fighter, target } from "../rules/ud10-fixtures.js";

const en = JSON.parse(readFileSync(new URL("../../lang/en.json", import.meta.url), "utf8")) as Record<string, unknown>;
const look = nestedLookup(en);
const i18n: Localizer = {
  localize: (key) => look(key) ?? key,
  format: (key, data) => (look(key) ?? key).replace(/\{(\w+)\}/g, (w, n: string) => data[n] ?? w),
  lang: "en",
};
const opts = { ...ud10.defaults(), bodyZones: false };

async function hitState(): Promise<TargetState> {
  const input = { attacker: fighter(), target: target(), weaponId: "sword", rangeMetres: 1.5 };
  const plan = ud10.planAttack(input, opts);
  const result = await ud10.resolveAttack(plan, input, new ScriptedRoller([9]), opts);
  return {
    actorUuid: "Actor.b",
    tokenUuid: "",
    name: "Bo",
    result: storableResult(result),
    attackTotal: result.check.total,
    difficulty: plan.difficulty.total,
    hit: result.hit,
    odds: 0.5,
    input: { rangeMetres: 1.5, situation: {} },
    reactions: [{ id: "parry", available: true }],
  };
}

describe("attack card view", () => {
  it("UD-ATK-02: a hit shows its lines and the defender's and attacker's buttons", async () => {
    const ctx = attackMessageContext([await hitState()], { attacker: "Ana", weapon: "Sword" }, i18n);
    const t = ctx.targets[0]!;
    expect(t.headline).toBe("Ana attacks Bo with Sword");
    expect(t.comparison).toBe("15 vs. 12");
    expect(t.odds).toBe("50.0");
    expect(t.buttons.map((b) => b.label)).toEqual(["Parry", "No reaction", "Roll damage"]);
  });

  it("UD-REA-03: a successful parry turns the outcome into Parried and the buttons go", async () => {
    const parried = withReaction(await hitState(), { id: "parry", natural: 10, total: 16, modifiers: [{ label: "FRAY.Mod.Skill", value: 4, rule: "UD-REA-02", data: { skill: "FRAY.Skill.parry" } }], faces: [10], success: true });
    expect(effectiveResult(parried).lands).toBe(false);
    const t = attackMessageContext([parried], { attacker: "Ana", weapon: "Sword" }, i18n).targets[0]!;
    expect(t.outcomeLabel).toBe("Parried");
    expect(t.reaction?.check.total).toBe(16);
    expect(t.buttons).toEqual([]);
  });

  it("UD-DMG-01 to UD-DMG-05: damage, each step of the application, HP and EP after, then undone", async () => {
    const damaged = withDamage(await hitState(), { formula: "3 + 1d10x10", total: 16, faces: [10, 3], penetration: 1 });
    const report = ud10.applyDamage(target(), { roll: { formula: "16", total: 16, dice: [], constant: 16 }, amount: 16, penetration: 1 }, opts);
    const applied = withApplied(damaged, undoRecord("Actor.b", report, "u"));
    const t = attackMessageContext([applied], { attacker: "Ana", weapon: "Sword" }, i18n).targets[0]!;
    expect(t.damage).toMatchObject({ total: 16, dice: [{ result: 10, max: true }, { result: 3, max: false }] });
    expect(t.steps!.map((s) => s.rule)).toEqual(report.steps.map((s) => s.rule));
    expect(t.steps!.every((s) => !s.label.includes("FRAY."))).toBe(true);
    expect(t.vitals).toEqual({ hp: `${report.after.hp!.value}/20`, ep: `${report.after.ep!.value}/15` });
    expect(t.buttons.map((b) => b.label)).toEqual(["Undo"]);
    const undone = attackMessageContext([withUndone(applied)], { attacker: "Ana", weapon: "Sword" }, i18n).targets[0]!;
    expect(undone.applied).toBe(false);
    expect(undone.undone).toBe(true);
    expect(undone.buttons.map((b) => b.label)).toEqual(["Apply damage"]);
  });
});
