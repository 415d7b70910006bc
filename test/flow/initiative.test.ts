/** Tracker initiative with scripted dice (UD-INI-01 to UD-INI-03). */
import { describe, expect, it } from "vitest";
import { ScriptedRoller } from "../../src/rules/core/dice/port.js";
import { compareInitiative, groupKey, groupsOfPass, rerollOnNewRound, rollTracker } from "../../src/foundry/logic/initiative.js";
import { installFoundryStub } from "../support/foundry-stub.js";
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
    expect(
      [
        { initiative: null, name: "a" },
        { initiative: 3, name: "b" },
      ]
        .sort(compareInitiative)
        .map((r) => r.name),
    ).toEqual(["b", "a"]);
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
    const first = (x: readonly number[], y: readonly number[]) =>
      compareInitiative({ initiative: 7, tiebreak: x, name: "x" }, { initiative: 7, tiebreak: y, name: "y" }) < 0;
    expect(first([5, 2], [4, 9])).toBe(true);
    expect(first([4, 3], [4, 2])).toBe(true);
  });
});

describe("initiative groups as v13 CombatantGroups", () => {
  it("UD-INI-02: each group sharing a roll is one group plan with the shared total; a lone roll is none", async () => {
    const pass = await rollTracker(ud10Initiative, [pc, g1, g2, thug], new ScriptedRoller([6, 9, 3]), { npcInitiative: "group" });
    const plans = groupsOfPass(pass, new Set(["c1", "c2", "c3", "c4"]));
    expect(plans).toHaveLength(1);
    expect(plans[0]).toMatchObject({ key: groupKey(["c3", "c2"]), initiative: pass.updates.find((u) => u._id === "c2")!.initiative });
    expect([...plans[0]!.members].sort()).toEqual(["c2", "c3"]);
    // Members no longer in the tracker leave the group; one left is no group.
    expect(groupsOfPass(pass, new Set(["c1", "c2", "c4"]))).toEqual([]);
  });

  it("UD-INI-02: the combat creates one CombatantGroup per group, finds it again next time, and sets members' group", async () => {
    installFoundryStub("en");
    const { syncGroups } = await import("../../src/foundry/documents/combat.js");
    const groups: { id: string; data: Record<string, unknown>; getFlag(s: string, k: string): unknown }[] = [];
    const combat = {
      groups,
      async createEmbeddedDocuments(type: string, data: Record<string, unknown>[]) {
        expect(type).toBe("CombatantGroup");
        return data.map((d) => {
          const g = {
            id: `g${groups.length + 1}`,
            data: d,
            getFlag: (_s: string, k: string) => (d.flags as { fray: Record<string, unknown> }).fray[k],
          };
          groups.push(g);
          return g;
        });
      },
      async updateEmbeddedDocuments(type: string, data: Record<string, unknown>[]) {
        expect(type).toBe("CombatantGroup");
        for (const u of data) Object.assign(groups.find((g) => g.id === u._id)!.data, u);
        return data;
      },
    };
    const views = [pc, g1, g2, thug].map((e) => ({ id: e.id, name: e.combatant.name, initiative: null, actor: null }));
    const first = await rollTracker(ud10Initiative, [pc, g1, g2, thug], new ScriptedRoller([6, 9, 3]), { npcInitiative: "group" });
    const assigned = await syncGroups(combat, first, views);
    expect(groups).toHaveLength(1);
    expect(assigned.get("c2")).toBe("g1");
    expect(assigned.get("c3")).toBe("g1");
    expect(assigned.has("c1")).toBe(false);
    expect(groups[0]!.data.initiative).toBe(first.updates.find((u) => u._id === "c2")!.initiative);
    const second = await rollTracker(ud10Initiative, [pc, g1, g2, thug], new ScriptedRoller([1, 1, 1]), { npcInitiative: "group" });
    await syncGroups(combat, second, views);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.data.initiative).toBe(second.updates.find((u) => u._id === "c2")!.initiative);
    // Before v13 (no `groups`) nothing is grouped.
    expect((await syncGroups({ ...combat, groups: undefined }, second, views)).size).toBe(0);
  });
});
