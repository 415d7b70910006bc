/** Tracker initiative with scripted dice (UD-INI-01 to UD-INI-03). */
import { describe, expect, it } from "vitest";
import { ScriptedRoller } from "../../src/rules/core/dice/port.js";
import { compareInitiative, rerollOnNewRound, rollTracker } from "../../src/foundry/logic/initiative.js";
import { ud10Initiative } from "../../src/foundry/rulesets/ud10/play.js";
import { fighter } from "../rules/ud10-fixtures.js";

const pc = { id: "c1", combatant: fighter({ id: "pc", skills: { initiative: 4 } }) };
const g1 = { id: "c2", combatant: fighter({ id: "g1", kind: "npc", group: "guards", skills: { initiative: 2 } }) };
const g2 = { id: "c3", combatant: fighter({ id: "g2", kind: "npc", group: "guards", skills: { initiative: 5 } }) };
const thug = { id: "c4", combatant: fighter({ id: "t", kind: "npc", group: "thugs", skills: { initiative: 1 } }) };

describe("tracker initiative", () => {
  it("UD-INI-01: d10 + Initiative per combatant, keyed by Combatant id", async () => {
    const pass = await rollTracker(ud10Initiative, [pc, g1], new ScriptedRoller([6, 9]), { npcInitiative: "each" });
    expect(pass.updates.map((u) => [u._id, u.initiative])).toEqual([
      ["c2", 11],
      ["c1", 10],
    ]);
  });

  it("UD-INI-02: per group, the group shares one total from its best Initiative", async () => {
    const pass = await rollTracker(ud10Initiative, [pc, g1, g2, thug], new ScriptedRoller([5, 3, 8]), { npcInitiative: "group" });
    const by = Object.fromEntries(pass.updates.map((u) => [u._id, u.initiative]));
    expect(by).toEqual({ c1: 9, c2: 8, c3: 8, c4: 9 });
    expect(pass.rolls).toHaveLength(3);
  });

  it("UD-INI-02: all NPCs roll once", async () => {
    const pass = await rollTracker(ud10Initiative, [pc, g1, g2, thug], new ScriptedRoller([5, 2]), { npcInitiative: "all" });
    const by = Object.fromEntries(pass.updates.map((u) => [u._id, u.initiative]));
    expect(by).toEqual({ c1: 9, c2: 7, c3: 7, c4: 7 });
  });

  it("UD-INI-01: ties go to the higher Initiative value through the core's tie-break", async () => {
    const pass = await rollTracker(ud10Initiative, [g1, g2], new ScriptedRoller([7, 4]), { npcInitiative: "each" });
    const rows = pass.updates.map((u) => ({ initiative: u.initiative, tiebreak: u.flags.fray.tiebreak, name: u._id }));
    expect(rows.every((r) => r.initiative === 9)).toBe(true);
    expect([...rows].sort(compareInitiative).map((r) => r.name)).toEqual(["c3", "c2"]);
  });

  it("UD-INI-03: carrying initiative over stops the re-roll each round", () => {
    expect(rerollOnNewRound(ud10Initiative, {})).toBe(true);
    expect(rerollOnNewRound(ud10Initiative, { initiativeCarryOver: true })).toBe(false);
  });

  it("combatants without initiative sort last", () => {
    expect([{ initiative: null, name: "a" }, { initiative: 3, name: "b" }].sort(compareInitiative).map((r) => r.name)).toEqual(["b", "a"]);
  });
});

describe("tracker initiative across passes", () => {
  it("UD-INI-02: rolling one NPC of a group rolls the whole group, and only it", async () => {
    const pass = await rollTracker(ud10Initiative, [pc, g1, g2, thug], new ScriptedRoller([6]), { npcInitiative: "group" }, ["c2"]);
    expect(pass.updates.map((u) => [u._id, u.initiative])).toEqual([
      ["c2", 11],
      ["c3", 11],
    ]);
  });

  it("UD-INI-01: the tie-break weighs the Initiative value before DEX, the same in every pass", () => {
    const first = (x: readonly number[], y: readonly number[]) => compareInitiative({ initiative: 7, tiebreak: x, name: "x" }, { initiative: 7, tiebreak: y, name: "y" }) < 0;
    expect(first([5, 2], [4, 9])).toBe(true);
    expect(first([4, 3], [4, 2])).toBe(true);
  });
});
