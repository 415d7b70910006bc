import { join } from "node:path";
import v8 from "node:v8";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  buildEntryCombatant,
  combatantSource,
  fail,
  finishEncounter,
  intern,
  internStrings,
  mergeSystem,
  recordingRoller,
  sideDown,
  standingSides,
} from "../../src/encounter/common.js";
import { ContentIndex } from "../../src/encounter/content.js";
import type { CombatantSpec, EncounterSpec } from "../../src/encounter/schema.js";
import type { EncounterEvent } from "../../src/encounter/types.js";
import { ScriptedRoller } from "../../src/rules/core/dice/port.js";
import { FrayError } from "../../src/rules/core/errors.js";
import type { ActorSource } from "../../src/rules/core/sources.js";

const content = new ContentIndex(join(import.meta.dirname, "..", "..", "packs", "_source"));
const entry = (over: Partial<CombatantSpec>): CombatantSpec => ({ id: "a", side: "red", extra: {}, ...over });
const encounter = (over: Partial<EncounterSpec> = {}): EncounterSpec =>
  ({ name: "Test", ruleset: "ud10", seed: 7, options: {}, maxRounds: 3, dice: [], combatants: [], rounds: [], ...over }) as EncounterSpec;
const fieldOf = (run: () => unknown): string | undefined => {
  try {
    run();
  } catch (e) {
    return e instanceof FrayError ? String(e.data.field ?? e.data.ref) : `not a FrayError: ${String(e)}`;
  }
  return undefined;
};

describe("encounter plumbing", () => {
  it("merges inline stats deeply over a system without changing either", () => {
    const base = { hp: { value: 5, max: 10 }, skills: { melee: 2 }, tags: ["a"] };
    const over = { hp: { value: 3 }, tags: ["b"], extra: null };
    expect(mergeSystem(base, over)).toEqual({ hp: { value: 3, max: 10 }, skills: { melee: 2 }, tags: ["b"], extra: null });
    expect(base.hp).toEqual({ value: 5, max: 10 });
  });

  it("builds an actor source from a reference, a name, stats and extra items", () => {
    const source = combatantSource(
      entry({ ref: "ud10-npcs/Guard", name: "Gate Guard", stats: { hp: 1 }, items: ["ud10-weapons/Assault Rifle"] }),
      0,
      content,
    );
    const guard = content.resolve("ud10-npcs/Guard", "x") as ActorSource;
    expect(source.name).toBe("Gate Guard");
    expect(source.system?.hp).toBe(1);
    expect(source.items?.map((i) => i.name)).toEqual([...(guard.items ?? []).map((i) => i.name), "Assault Rifle"]);
    const bare = combatantSource(entry({ stats: { hp: 4 } }), 0, content);
    expect(bare).toEqual({ name: "a", type: "character", system: { hp: 4 }, items: [] });
  });

  it("names the field of a missing reference and runs the ruleset checks in order", () => {
    expect(fieldOf(() => combatantSource(entry({ ref: "ud10-npcs/Nobody" }), 2, content))).toBe("combatants[2].ref");
    expect(fieldOf(() => combatantSource(entry({ items: ["ud10-weapons/Assault Rifle", "ud10-weapons/Nothing"] }), 1, content))).toBe(
      "combatants[1].items[1]",
    );
    const seen: string[] = [];
    const hooks = { checkRef: (_: unknown, field: string) => seen.push(field), checkItem: (_: unknown, field: string) => seen.push(field) };
    combatantSource(entry({ ref: "ud10-npcs/Guard", items: ["ud10-weapons/Assault Rifle"] }), 3, content, hooks);
    expect(seen).toEqual(["combatants[3].ref", "combatants[3].items[0]"]);
    expect(combatantSource(entry({ ref: "ud10-npcs/Guard" }), 0, content, { baseItems: () => [] }).items).toEqual([]);
  });

  it("prefixes a parser's field with the entry's stats path", () => {
    const parse = (actor: ActorSource, overrides: { id: string; group: string }) => {
      if (actor.system?.hp === "lots") fail(`${actor.name}.hp`, "a number");
      return overrides;
    };
    expect(buildEntryCombatant(entry({ stats: { hp: 1 } }), 0, content, parse)).toEqual({ id: "a", group: "red" });
    expect(buildEntryCombatant(entry({ group: "g", stats: { hp: 1 } }), 0, content, parse)).toEqual({ id: "a", group: "g" });
    expect(fieldOf(() => buildEntryCombatant(entry({ stats: { hp: "lots" } }), 4, content, parse))).toBe("combatants[4].stats.hp");
  });

  it("records every roll of the scripted roller", async () => {
    const { logged, history } = recordingRoller(encounter({ dice: [3, 4] }));
    await logged.roll("2d6", "test");
    expect(history).toEqual([{ purpose: "test", formula: "2d6", faces: [3, 4], total: 7 }]);
    const given = recordingRoller(encounter({ dice: [1] }), new ScriptedRoller([6]));
    expect((await given.logged.roll("1d6")).total).toBe(6);
    expect(given.history).toHaveLength(1);
  });

  it("ends a fight when a side is down, else after the last round", () => {
    const fighters = [
      { spec: entry({ id: "a", side: "red" }), c: { name: "A" }, out: false },
      { spec: entry({ id: "b", side: "blue" }), c: { name: "B" }, out: false },
    ];
    const isOut = (f: (typeof fighters)[number]) => f.out;
    expect(standingSides(fighters, isOut)).toEqual(new Set(["red", "blue"]));
    expect(sideDown(fighters, isOut, 1)).toBeUndefined();
    fighters[1]!.out = true;
    expect(sideDown(fighters, isOut, 2)).toEqual({ type: "end", round: 2, winner: "red", reason: "side-down" });
    fighters[0]!.out = true;
    expect(sideDown(fighters, isOut, 2)).toEqual({ type: "end", round: 2, winner: null, reason: "side-down" });

    const events: EncounterEvent[] = [];
    const result = finishEncounter(encounter(), { a: 1 }, undefined, fighters, { vitals: () => ({ conditions: [] }), isOut }, events, []);
    expect(events).toEqual([{ type: "end", round: 3, winner: null, reason: "max-rounds" }]);
    expect(Object.keys(result)).toEqual(["name", "ruleset", "seed", "options", "rounds", "winner", "combatants", "events", "dice"]);
    expect(result.combatants[0]).toEqual({ id: "a", name: "A", side: "red", vitals: { conditions: [] }, out: true });
    const won = finishEncounter(
      encounter(),
      {},
      { type: "end", round: 2, winner: "red", reason: "side-down" },
      fighters,
      { vitals: () => ({ conditions: [] }), isOut },
      [],
      [],
    );
    expect([won.rounds, won.winner]).toEqual([2, "red"]);
  });

  it("interns strings as equal strings, and a forecast file's in place but for its frozen parts", () => {
    // V8's natives syntax, for `%IsInternalizedString` alone (a function compiled after the flag is set may call it).
    v8.setFlagsFromString("--allow-natives-syntax");
    const interned = new Function("s", "return %IsInternalizedString(s)") as (s: string) => boolean;
    const built = (s: string) => [...s].join("");
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.constantFrom("__proto__", "constructor", "12", "", "toString")), (s) => {
        expect(intern(s)).toBe(s);
        expect(intern(built(s))).toBe(s);
      }),
      { numRuns: 300 },
    );
    const copy = built("corp-guard-1");
    expect(interned(copy)).toBe(false);
    expect(interned(intern(copy))).toBe(true);

    const frozen = Object.freeze({ id: built("frozen-one") });
    const file = { id: built("guard"), tags: [built("prone"), 3, built("dead")], nested: { side: built("corp"), frozen }, n: 2 };
    const before = structuredClone(file);
    expect(internStrings(file)).toBe(file);
    expect(file).toEqual(before);
    expect([file.id, file.tags[0], file.tags[2], file.nested.side].map((x) => interned(x as string))).toEqual([true, true, true, true]);
    expect(file.nested.frozen).toBe(frozen);
    expect(interned(frozen.id)).toBe(false);
  });
});
