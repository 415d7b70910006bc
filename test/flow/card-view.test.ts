/** The attack card's per-target view: lines, reaction, damage, steps and buttons (UD-REA-03, UD-DMG-01 to UD-DMG-05). */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { nestedLookup } from "../../src/rules/core/i18n.js";
import { ScriptedRoller } from "../../src/rules/core/dice/port.js";
import { ud10 } from "../../src/rules/ud10/index.js";
import { attackMessageContext, type Localizer } from "../../src/foundry/attack-card.js";
import { attackTarget, storable } from "../../src/foundry/logic/attack-state.js";
import { reactOnCard } from "../../src/foundry/rulesets/ud10/card.js";
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
const opts = { ...ud10.defaults(), bodyZones: false, allowDodge: false };

/** The defender: Bo with Parry 6 (a parry of 10 on the d10 makes 16). */
const bo = () => target({ skills: { initiative: 4, melee: 5, ranged: 6, parry: 6, dodge: 3 } });
const request = () => ({ attackerId: "ana", targetId: "bo", weaponId: "sword", distanceMetres: 1.5 });
const input = () => ud10.input(request(), fighter(), bo(), opts);

/** One attacked target as the card stores it, built by the flow's own builder (a natural 9: 15 vs. 12). */
async function hitState(): Promise<TargetState> {
  return (
    await attackTarget(ud10, { actorUuid: "Actor.b", tokenUuid: "", name: "Bo" }, request(), fighter(), bo(), new ScriptedRoller([9]), opts)
  ).state;
}

/** The defender's parry rolled through the core against the stored attack. */
async function parryOf(state: TargetState, natural: number) {
  const option = ud10.reactions(input(), undefined, opts).find((r) => r.id === "parry")!;
  return reactOnCard(state.result, option, new ScriptedRoller([natural]));
}

describe("attack card view", () => {
  it("UD-ATK-02: a hit shows its lines and the defender's and attacker's buttons", async () => {
    const ctx = attackMessageContext([await hitState()], { attacker: "Ana", weapon: "Sword" }, i18n);
    const t = ctx.targets[0]!;
    expect(t.headline).toBe("Ana attacks Bo with Sword");
    expect(t.comparison).toBe("15 vs. difficulty 12");
    expect(t.odds).toBe("50.0");
    expect(t.buttons.map((b) => b.label)).toEqual(["Parry", "No reaction", "Roll damage"]);
  });

  it("UD-REA-03: a successful parry turns the outcome into Parried and the buttons go", async () => {
    const hit = await hitState();
    const parried = withReaction(hit, "parry", await parryOf(hit, 10));
    expect(parried.result.lands).toBe(false);
    const t = attackMessageContext([parried], { attacker: "Ana", weapon: "Sword" }, i18n).targets[0]!;
    expect(t.outcomeLabel).toBe("Parried");
    expect(t.reaction?.check.total).toBe(16);
    expect(t.buttons).toEqual([]);
  });

  it("UD-DMG-01 to UD-DMG-05: damage, each step of the application, HP and EP after, then undone", async () => {
    const hit = await hitState();
    const packet = await ud10.rollDamage(hit.result, input(), new ScriptedRoller([10, 3]), opts);
    const damaged = withDamage(hit, storable(packet));
    const report = ud10.applyDamage(
      target(),
      { roll: { formula: "16", total: 16, dice: [], constant: 16 }, amount: 16, penetration: 1 },
      opts,
    );
    const applied = withApplied(damaged, undoRecord("Actor.b", report, "u", "s1"), report);
    const t = attackMessageContext([applied], { attacker: "Ana", weapon: "Sword" }, i18n).targets[0]!;
    expect(t.damage).toMatchObject({
      total: 16,
      dice: [
        { result: 10, max: true },
        { result: 3, max: false },
      ],
    });
    expect(t.steps!.map((s) => s.rule)).toEqual(report.steps.map((s) => s.rule));
    expect(t.steps!.every((s) => !s.label.includes("FRAY."))).toBe(true);
    expect(t.vitals).toEqual({ hp: `${report.after.hp!.value}/20`, hpLabel: "HP", ep: `${report.after.ep!.value}/15` });
    expect(t.buttons.map((b) => b.label)).toEqual(["Undo"]);
    const undone = attackMessageContext([withUndone(applied)], { attacker: "Ana", weapon: "Sword" }, i18n).targets[0]!;
    expect(undone.applied).toBe(false);
    expect(undone.undone).toBe(true);
    expect(undone.buttons.map((b) => b.label)).toEqual(["Apply damage"]);
  });

  it("UD-ATK-02, UD-DMG-01: the stored results are the core's, unchanged by a JSON round trip (as a ChatMessage stores them)", async () => {
    const zones = { ...opts, bodyZones: true };
    const { result, state } = await attackTarget(
      ud10,
      { actorUuid: "Actor.b", tokenUuid: "", name: "Bo" },
      request(),
      fighter(),
      bo(),
      new ScriptedRoller([9, 5]),
      zones,
    );
    const packet = await ud10.rollDamage(result, input(), new ScriptedRoller([10, 3]), zones);
    const report = ud10.applyDamage(bo(), packet, zones);
    const stored = JSON.parse(
      JSON.stringify(withApplied(withDamage(state, storable(packet)), undoRecord("Actor.b", report, "u", "s1"), storable(report))),
    ) as typeof state;
    expect(stored.result).toEqual(storable(result));
    expect(stored.result.location?.id).toBe("torso");
    expect(stored.damage?.location).toBe("torso");
    expect(stored.damage).toEqual(storable(packet));
    expect(stored.report).toEqual(storable(report));
    expect(stored.request).toMatchObject({
      weaponId: "sword",
      distanceMetres: 1.5,
      situation: { cover: 0, misc: 0, unanticipated: false },
    });
  });
});
