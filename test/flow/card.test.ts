/**
 * Attack card state: phases, who may press which button, and transitions that refuse a second
 * click (UD-ATK-02, UD-REA-01 to UD-REA-04, UD-DMG-01, UD-DMG-02).
 */
import { describe, expect, it } from "vitest";
import { FrayError } from "../../src/rules/core/errors.js";
import {
  buttonsFor,
  mayPress,
  targetPhase,
  withApplied,
  withDamage,
  withReaction,
  withUndone,
  withoutReaction,
  type TargetState,
} from "../../src/foundry/logic/card.js";
import { undoRecord } from "../../src/foundry/logic/undo.js";
import { attackTarget, storedReactions } from "../../src/foundry/logic/attack-state.js";
import { reactOnCard } from "../../src/foundry/rulesets/ud10/card.js";
import { ScriptedRoller } from "../../src/rules/core/dice/port.js";
import type { AttackResult, DamagePacket } from "../../src/rules/core/ruleset.js";
import { ud10 } from "../../src/rules/ud10/index.js";
import { fighter, target } from "../rules/ud10-fixtures.js";

const opts = { ...ud10.defaults(), bodyZones: false, allowDodge: true };
/** The defender: Bo with Parry 5. */
const bo = () => target({ skills: { initiative: 4, melee: 5, ranged: 6, parry: 5, dodge: 3 } });
const request = (weaponId = "sword") => ({ attackerId: "a", targetId: "b", weaponId, distanceMetres: 1.5 });

/** Ana's attack on Bo as the card stores it, rolled by the core: a natural `natural` (8: 14 vs. 12, a hit). */
async function hitTarget(natural = 8, over: Partial<TargetState> = {}): Promise<TargetState> {
  const { state } = await attackTarget(
    ud10,
    { actorUuid: "Actor.b", tokenUuid: "Scene.s.Token.b", name: "Bo" },
    request(),
    fighter(),
    bo(),
    new ScriptedRoller([natural]),
    opts,
  );
  return { ...state, ...over };
}

/** The core's reactions of Bo against Ana's attack with `weaponId`; no dodge in this world. */
const coreReactions = (weaponId: string) =>
  ud10.reactions(ud10.input(request(weaponId), fighter(), bo(), opts), undefined, { ...opts, allowDodge: false });

/** Bo's parry rolled on the card through UD10's card rules against the stored result. */
const parried = async (t: TargetState, natural: number): Promise<AttackResult> =>
  reactOnCard(
    t.result,
    coreReactions("sword").find((r) => r.id === "parry")!,
    new ScriptedRoller([natural]),
  );

/** A damage packet as the core returns it. */
const packet = (amount: number): DamagePacket => ({
  roll: { formula: "1d10x10", total: amount, dice: [{ faces: 10, results: [amount] }], constant: 0 },
  amount,
  penetration: 0,
});

const gm = { isGM: true, ownsAttacker: false, ownsTarget: false };
const attackerPlayer = { isGM: false, ownsAttacker: true, ownsTarget: false };
const defenderPlayer = { isGM: false, ownsAttacker: false, ownsTarget: true };
const visible = (
  t: TargetState,
  v: typeof gm,
  flags = {
    reactions: [
      { id: "parry" as const, available: true },
      { id: "dodge" as const, available: true },
    ],
  },
) =>
  buttonsFor(t, v, flags)
    .filter((b) => b.visible)
    .map((b) => b.action);

describe("attack card phases", () => {
  it("UD-ATK-02: a miss offers nothing", async () => {
    const t = await hitTarget(1);
    expect(t.result.hit).toBe(false);
    expect(targetPhase(t)).toBe("missed");
    expect(visible(t, gm)).toEqual([]);
  });

  it("UD-REA-01: on a hit the defender's owner sees Parry, Dodge and No reaction; the attacker sees Roll damage", async () => {
    const t = await hitTarget();
    expect(t.result.check.total).toBe(14);
    expect(targetPhase(t)).toBe("hit");
    expect(visible(t, defenderPlayer)).toEqual(["parry", "dodge", "noReaction"]);
    expect(visible(t, attackerPlayer)).toEqual(["rollDamage"]);
    expect(visible(t, gm)).toEqual(["parry", "dodge", "noReaction", "rollDamage"]);
  });

  it("UD-REA-02: a reaction the core marks unavailable is shown disabled with its reason; one it does not offer is hidden", async () => {
    const buttons = buttonsFor(await hitTarget(), defenderPlayer, { reactions: storedReactions(coreReactions("rifle")) });
    expect(buttons.find((b) => b.action === "parry")).toMatchObject({ visible: true, disabled: true, reason: "FRAY.Reason.RangedAttack" });
    expect(buttons.find((b) => b.action === "dodge")!.visible).toBe(false);
  });

  it("UD-REA-03: a parry that beats the attack total stops it; an equal one does not", async () => {
    const hit = await hitTarget();
    expect(targetPhase(withReaction(hit, "parry", await parried(hit, 10)))).toBe("stopped"); // 10 + 5 = 15 beats 14
    const t = withReaction(hit, "parry", await parried(hit, 9)); // 9 + 5 = 14 ties
    expect(t.result.reaction).toMatchObject({ id: "parry", success: false, check: { total: 14 } });
    expect(targetPhase(t)).toBe("hit");
    expect(visible(t, gm)).toEqual(["rollDamage"]);
  });

  it("UD-REA-01: one reaction only; declining closes the reaction too", async () => {
    const hit = await hitTarget();
    const t = withReaction(hit, "parry", await parried(hit, 2));
    expect(() => withReaction(t, "parry", t.result)).toThrow(FrayError);
    const declined = withoutReaction(hit);
    expect(() => withReaction(declined, "dodge", hit.result)).toThrow(FrayError);
  });

  it("UD-DMG-01: once damage is rolled nobody can react any more and it is rolled only once", async () => {
    const t = withDamage(await hitTarget(), packet(9));
    expect(targetPhase(t)).toBe("damage");
    expect(() => withReaction(t, "parry", t.result)).toThrow(FrayError);
    expect(() => withDamage(t, packet(1))).toThrow(/not possible/);
    expect(visible(t, attackerPlayer)).toEqual(["applyDamage"]);
    expect(visible(t, defenderPlayer)).toEqual(["applyDamage"]);
  });

  it("UD-DMG-02: applying twice is impossible; undo goes back to apply", async () => {
    const report = {
      before: { hp: { value: 20, max: 20 }, ep: { value: 10, max: 10 }, conditions: [] },
      after: { hp: { value: 18, max: 20 }, ep: { value: 7, max: 10 }, conditions: [] },
      steps: [],
      added: [],
    };
    const record = undoRecord("Actor.b", report, "u1", "s1");
    const damaged = withDamage(await hitTarget(), packet(9));
    const applied = withApplied(damaged, record, report);
    expect(targetPhase(applied)).toBe("applied");
    expect(applied.report).toEqual(report);
    expect(() => withApplied(applied, record, report)).toThrow(FrayError);
    expect(visible(applied, defenderPlayer)).toEqual(["undoDamage"]);
    expect(visible(applied, attackerPlayer)).toEqual([]);
    const undone = withUndone(applied);
    expect(targetPhase(undone)).toBe("damage");
    expect(undone.undone).toBe(true);
    expect(() => withUndone(undone)).toThrow(FrayError);
  });

  it("who may press: reactions are the defender's, damage rolls the attacker's, the GM may do all", () => {
    expect(mayPress("parry", attackerPlayer)).toBe(false);
    expect(mayPress("rollDamage", defenderPlayer)).toBe(false);
    expect(mayPress("undoDamage", attackerPlayer)).toBe(false);
    for (const a of ["parry", "dodge", "noReaction", "rollDamage", "applyDamage", "undoDamage"] as const)
      expect(mayPress(a, gm)).toBe(true);
  });
});
