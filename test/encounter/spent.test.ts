/**
 * A fight taken up inside a round under way: a combatant's `spent` (what it already spent of the
 * first round's economy, as the tracker's forecast hands it over) is paid in the first round
 * only (UD-ACT-01, CR-AP-01, ZN-ACT-01, HB-RND-01), and a slot or pool its economy has not is
 * refused naming the field.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { ContentIndex } from "../../src/encounter/content.js";
import { playEncounter } from "../../src/encounter/engine.js";
import { parseEncounter } from "../../src/encounter/schema.js";
import type { EncounterEvent } from "../../src/encounter/types.js";
import { FrayError } from "../../src/rules/core/errors.js";

const root = join(import.meta.dirname, "..", "..");
const content = new ContentIndex(join(root, "packs", "_source"));
const skirmish = (id: string) =>
  parseYaml(readFileSync(join(root, "examples", `${id}-skirmish.yaml`), "utf8")) as Record<string, unknown> & {
    combatants: Record<string, unknown>[];
  };
/** Ids that attacked in each round (1 first), from the events. */
const attackersByRound = (events: EncounterEvent[]): Map<number, Set<string>> => {
  const out = new Map<number, Set<string>>();
  for (const e of events) {
    const who =
      e.type === "attack"
        ? e.attacker
        : e.type === "custom" && (e.kind === "attack" || e.kind === "burst")
          ? String(e.data.actor ?? e.data.attacker ?? "")
          : "";
    if (who) (out.get(e.round) ?? out.set(e.round, new Set()).get(e.round)!).add(who);
  }
  return out;
};

/** Each ruleset: the file's first combatant with its round's attack spent; what that is. */
const CASES = [
  { ruleset: "ud10", rule: "UD-ACT-01", spent: { slots: { action: 1 } } },
  { ruleset: "hitbox", rule: "HB-RND-01", spent: { slots: { action: 1 } } },
  { ruleset: "critical", rule: "CR-AP-01", spent: { pools: { ap: 99 } } },
  { ruleset: "zones", rule: "ZN-ACT-01", spent: { slots: { action: 9 } } },
] as const;

describe("a first round taken up under way (combatant `spent`)", () => {
  for (const { ruleset, rule, spent } of CASES)
    it(`${rule}: ${ruleset}: what was spent is paid in the first round only`, async () => {
      const raw = skirmish(ruleset);
      const who = String(raw.combatants.at(-1)!.id);
      /** Over seeds 1 to 20: whether it attacked in round 1 in any fight, and in round 2 in any. */
      const played = async (withSpent: boolean) => {
        const file = structuredClone(raw);
        if (withSpent) file.combatants.at(-1)!.spent = spent;
        const seen = { first: false, second: false };
        for (let seed = 1; seed <= 20; seed++) {
          const byRound = attackersByRound((await playEncounter(parseEncounter({ ...file, seed }), content)).events);
          seen.first ||= byRound.get(1)?.has(who) ?? false;
          seen.second ||= byRound.get(2)?.has(who) ?? false;
        }
        return seen;
      };
      expect(await played(false)).toEqual({ first: true, second: true });
      expect(await played(true)).toEqual({ first: false, second: true });
    });

  it("UD-ACT-01: refuses a slot the ruleset's economy has not, naming the field", async () => {
    const file = skirmish("ud10");
    file.combatants[0]!.spent = { slots: { ap: 1 } };
    const error = await playEncounter(parseEncounter(file), content).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FrayError);
    expect((error as FrayError).data.field).toBe(`${String(file.combatants[0]!.id)}.spent.slots.ap`);
    expect(String((error as FrayError).data.expected)).toContain("movement, action, reaction, free");
  });

  it("UD-ACT-01: checks the amounts in the file, naming the field", () => {
    const file = skirmish("ud10");
    file.combatants[1]!.spent = { slots: { action: -1 } };
    expect(() => parseEncounter(file)).toThrow(FrayError);
    try {
      parseEncounter(file);
    } catch (e) {
      expect(String((e as FrayError).data.field)).toContain("combatants[1].spent.slots");
    }
  });
});
