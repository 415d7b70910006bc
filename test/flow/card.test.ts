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
  type StoredReaction,
  type TargetState,
} from "../../src/foundry/logic/card.js";
import { undoRecord } from "../../src/foundry/logic/undo.js";
import { storedReactionOf, storedReactions } from "../../src/foundry/logic/attack-state.js";
import { ScriptedRoller } from "../../src/rules/core/dice/port.js";
import { reactionOutcome, resolveReaction, ud10 } from "../../src/rules/ud10/index.js";
import { fighter, target } from "../rules/ud10-fixtures.js";

const hitTarget = (over: Partial<TargetState> = {}): TargetState => ({
  actorUuid: "Actor.b",
  tokenUuid: "Scene.s.Token.b",
  name: "Bo",
  result: {},
  attackTotal: 14,
  difficulty: 12,
  hit: true,
  input: { situation: {} },
  reactions: [
    { id: "parry", available: true },
    { id: "dodge", available: true },
  ],
  ...over,
});

const parry = (total: number): StoredReaction =>
  storedReactionOf(reactionOutcome("parry", { roll: { formula: "1d10", total: total - 4, dice: [{ faces: 10, results: [total - 4] }], constant: 0 }, natural: total - 4, modifiers: [{ label: "FRAY.Mod.Skill", value: 4, rule: "UD-REA-02" }], total }, 14));

/** The core's reactions of Bo (Parry 5) against Ana's attack with `weaponId`; no dodge in this world. */
const bo = () => target({ skills: { initiative: 4, melee: 5, ranged: 6, parry: 5, dodge: 3 } });
const coreReactions = (weaponId: string) =>
  ud10.reactions({ attacker: fighter(), target: bo(), weaponId, rangeMetres: 1.5 }, undefined, { ...ud10.defaults(), allowDodge: false });

/** Bo's parry rolled through the core (`resolveReaction`) against the attack total of 14. */
const rolledParry = async (natural: number) =>
  storedReactionOf(await resolveReaction(coreReactions("sword").find((r) => r.id === "parry")!, 14, new ScriptedRoller([natural])));

const gm = { isGM: true, ownsAttacker: false, ownsTarget: false };
const attackerPlayer = { isGM: false, ownsAttacker: true, ownsTarget: false };
const defenderPlayer = { isGM: false, ownsAttacker: false, ownsTarget: true };
const visible = (t: TargetState, v: typeof gm, flags = { reactions: [{ id: "parry" as const, available: true }, { id: "dodge" as const, available: true }] }) =>
  buttonsFor(t, v, flags)
    .filter((b) => b.visible)
    .map((b) => b.action);

describe("attack card phases", () => {
  it("UD-ATK-02: a miss offers nothing", () => {
    const t = hitTarget({ hit: false });
    expect(targetPhase(t)).toBe("missed");
    expect(visible(t, gm)).toEqual([]);
  });

  it("UD-REA-01: on a hit the defender's owner sees Parry, Dodge and No reaction; the attacker sees Roll damage", () => {
    const t = hitTarget();
    expect(targetPhase(t)).toBe("hit");
    expect(visible(t, defenderPlayer)).toEqual(["parry", "dodge", "noReaction"]);
    expect(visible(t, attackerPlayer)).toEqual(["rollDamage"]);
    expect(visible(t, gm)).toEqual(["parry", "dodge", "noReaction", "rollDamage"]);
  });

  it("UD-REA-02: a reaction the core marks unavailable is shown disabled with its reason; one it does not offer is hidden", () => {
    const buttons = buttonsFor(hitTarget(), defenderPlayer, { reactions: storedReactions(coreReactions("rifle")) });
    expect(buttons.find((b) => b.action === "parry")).toMatchObject({ visible: true, disabled: true, reason: "FRAY.Reason.RangedAttack" });
    expect(buttons.find((b) => b.action === "dodge")!.visible).toBe(false);
  });

  it("UD-REA-03: a parry that beats the attack total stops it; an equal one does not", async () => {
    expect(targetPhase(withReaction(hitTarget(), await rolledParry(10)))).toBe("stopped"); // 10 + 5 = 15 beats 14
    const t = withReaction(hitTarget(), await rolledParry(9)); // 9 + 5 = 14 ties
    expect(targetPhase(t)).toBe("hit");
    expect(visible(t, gm)).toEqual(["rollDamage"]);
  });

  it("UD-REA-01: one reaction only; declining closes the reaction too", () => {
    const t = withReaction(hitTarget(), parry(10));
    expect(() => withReaction(t, parry(20))).toThrow(FrayError);
    const declined = withoutReaction(hitTarget());
    expect(() => withReaction(declined, parry(20))).toThrow(FrayError);
  });

  it("UD-DMG-01: once damage is rolled nobody can react any more and it is rolled only once", () => {
    const t = withDamage(hitTarget(), { formula: "2 + 1d10x10", total: 9, faces: [7], penetration: 0 });
    expect(targetPhase(t)).toBe("damage");
    expect(() => withReaction(t, parry(20))).toThrow(FrayError);
    expect(() => withDamage(t, { formula: "1d10", total: 1, faces: [1], penetration: 0 })).toThrow(/not possible/);
    expect(visible(t, attackerPlayer)).toEqual(["applyDamage"]);
    expect(visible(t, defenderPlayer)).toEqual(["applyDamage"]);
  });

  it("UD-DMG-02: applying twice is impossible; undo goes back to apply", () => {
    const report = { before: { hp: { value: 20, max: 20 }, ep: { value: 10, max: 10 }, conditions: [] }, after: { hp: { value: 18, max: 20 }, ep: { value: 7, max: 10 }, conditions: [] }, steps: [], added: [] };
    const record = undoRecord("Actor.b", report, "u1", "s1");
    const damaged = withDamage(hitTarget(), { formula: "1d10", total: 9, faces: [9], penetration: 0 });
    const applied = withApplied(damaged, record);
    expect(targetPhase(applied)).toBe("applied");
    expect(() => withApplied(applied, record)).toThrow(FrayError);
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
    for (const a of ["parry", "dodge", "noReaction", "rollDamage", "applyDamage", "undoDamage"] as const) expect(mayPress(a, gm)).toBe(true);
  });
});
