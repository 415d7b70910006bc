import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ContentIndex } from "../../src/encounter/content.js";
import { playEncounter } from "../../src/encounter/engine.js";
import { formatLog } from "../../src/encounter/format.js";
import { parseEncounter } from "../../src/encounter/schema.js";
import { FrayError } from "../../src/rules/core/errors.js";
import { nestedLookup } from "../../src/rules/core/i18n.js";

const root = join(import.meta.dirname, "..", "..");
const content = new ContentIndex(join(root, "packs", "_source"));
const lookup = nestedLookup(JSON.parse(readFileSync(join(root, "lang", "en.json"), "utf8")) as Record<string, unknown>);
const ambush = () => parse(readFileSync(join(root, "examples", "ud10-ambush.yaml"), "utf8")) as Record<string, unknown>;

const fieldOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    return e instanceof FrayError ? String(e.data.field ?? e.data.ref) : undefined;
  }
  return undefined;
};

describe("encounter runner", () => {
  it("plays the ambush example until one side is down (UD-INI-01, UD-ZON-01, UD-DMG-03)", async () => {
    const result = await playEncounter(parseEncounter(ambush()), content);
    expect(result.winner).not.toBeNull();
    const losers = result.combatants.filter((c) => c.side !== result.winner);
    expect(losers.length).toBeGreaterThan(0);
    expect(losers.every((c) => c.out)).toBe(true);
    // Body zones and buffer are on: locations are rolled and buffer steps are reported.
    const attacks = result.events.filter((e) => e.type === "attack");
    expect(attacks.some((e) => e.type === "attack" && e.result.location?.rule === "UD-ZON-01")).toBe(true);
    const damage = result.events.filter((e) => e.type === "damage");
    expect(damage.some((e) => e.type === "damage" && e.report.steps.some((s) => s.rule === "UD-DMG-03"))).toBe(true);
    // Every HP change in the summary is explained by damage events.
    for (const c of result.combatants) {
      const lost = damage
        .filter((e) => e.type === "damage" && e.target === c.id)
        .reduce((sum, e) => sum + (e.type === "damage" ? e.report.steps.at(-1)!.value : 0), 0);
      expect(c.vitals.hp!.max - c.vitals.hp!.value).toBe(lost);
    }
  });

  it("is reproducible: the same seed gives the same log; another seed another fight", async () => {
    const a = formatLog(await playEncounter(parseEncounter(ambush()), content), lookup);
    const b = formatLog(await playEncounter(parseEncounter(ambush()), content), lookup);
    expect(a).toEqual(b);
    const c = formatLog(await playEncounter(parseEncounter({ ...ambush(), seed: 7 }), content), lookup);
    expect(c).not.toEqual(a);
  });

  it("plays scripted dice first (UD-ATK-02, UD-REA-03): a hit, a failed parry, a torso hit", async () => {
    const spec = parseEncounter({
      name: "duel",
      seed: 1,
      maxRounds: 1,
      options: { bodyZones: true, buffer: true, penetration: false },
      // Initiative a, b; a's attack 8; b's parry 2; zone 5 (torso); damage 6.
      dice: [9, 1, 8, 2, 5, 6, 1],
      combatants: [
        {
          id: "a",
          side: "x",
          name: "A",
          stats: { attributes: { STR: 3, DEX: 3, CON: 2 }, skills: { melee: 5 }, hp: 20, ep: 10 },
          items: ["ud10-weapons/Side Sword"],
          tactics: { attack: "b" },
        },
        { id: "b", side: "y", ref: "ud10-npcs/Thug", react: "parry", tactics: { wait: true } },
      ],
    });
    const result = await playEncounter(spec, content);
    const attack = result.events.find((e) => e.type === "attack");
    expect(attack?.type === "attack" && attack.result.check.total).toBe(8 + 5 + 0);
    expect(attack?.type === "attack" && attack.result.reaction?.success).toBe(false);
    expect(attack?.type === "attack" && attack.result.location?.id).toBe("torso");
    const dmg = result.events.find((e) => e.type === "damage");
    expect(dmg?.type === "damage" && dmg.packet.amount).toBe(3 + 6);
  });

  it("names the field of a bad file", () => {
    const bad = (patch: Record<string, unknown>) => fieldOf(() => parseEncounter({ ...ambush(), ...patch }));
    expect(bad({ ruleset: "gurps" })).toBe("ruleset");
    expect(bad({ seed: "x" })).toBe("seed");
    expect(bad({ combatants: [{ id: "a", side: "x", ref: "ud10-npcs/Guard" }] })).toBe("combatants");
    const spec = ambush();
    (spec.combatants as Record<string, unknown>[])[2]!.react = "duck";
    expect(fieldOf(() => parseEncounter(spec))).toBe("combatants[2].react");
    const rounds = ambush();
    (rounds.rounds as Record<string, unknown>[])[0] = { nobody: { attack: "mara" } };
    expect(fieldOf(() => parseEncounter(rounds))).toBe("rounds[0].nobody");
    const target = ambush();
    (target.rounds as Record<string, Record<string, unknown>>[])[0]!.mara = { attack: "ghost" };
    expect(fieldOf(() => parseEncounter(target))).toBe("rounds[0].mara.attack");
  });

  it("names the combatant whose reference or stats are wrong", async () => {
    const typo = ambush();
    (typo.combatants as Record<string, unknown>[])[2]!.ref = "ud10-npcs/Gaurd";
    await expect(playEncounter(parseEncounter(typo), content)).rejects.toMatchObject({
      key: "FRAY.Error.Reference",
      data: { field: "combatants[2].ref" },
    });
    const noStats = ambush();
    (noStats.combatants as Record<string, unknown>[])[0]!.stats = { skills: {} };
    await expect(playEncounter(parseEncounter(noStats), content)).rejects.toMatchObject({
      key: "FRAY.Error.Field",
      data: { field: "combatants[0].stats.attributes" },
    });
    const badDamage = ambush();
    (badDamage.combatants as Record<string, unknown>[])[1]!.items = ["ud10-weapons/Side Sword"];
    const c = (badDamage.combatants as Record<string, unknown>[])[1]!;
    c.stats = { ...(c.stats as object), attributes: { STR: "strong", DEX: 3, CON: 4 } };
    expect(fieldOf(() => parseEncounter(badDamage))).toBe("combatants[1].stats.attributes.STR");
  });
});

describe("encounter rounds", () => {
  const duel = (options: Record<string, unknown>, dice: number[]) =>
    parseEncounter({
      name: "rounds",
      seed: 3,
      maxRounds: 3,
      options: { bodyZones: false, buffer: false, penetration: false, ...options },
      dice,
      combatants: [
        {
          id: "a",
          side: "x",
          name: "A",
          stats: { attributes: { STR: 3, DEX: 3, CON: 2 }, skills: { initiative: 2, melee: 5 }, hp: 40, ep: 40 },
          items: ["ud10-weapons/Side Sword"],
          tactics: { wait: true },
        },
        {
          id: "b",
          side: "y",
          name: "B",
          stats: { attributes: { STR: 3, DEX: 3, CON: 2 }, skills: { initiative: 6 }, hp: 40, ep: 40 },
          tactics: { wait: true },
        },
      ],
    });

  it("UD-RND-01: each round lasts the configured number of seconds", async () => {
    const six = await playEncounter(duel({ roundSeconds: 6 }, [5, 5, 5, 5, 5, 5]), content);
    const log = formatLog(six, lookup);
    expect(log).toContain("Round 2 (6–12 s)");
    expect(log).toContain("Round 3 (12–18 s)");
    const ten = formatLog(await playEncounter(duel({}, [5, 5, 5, 5, 5, 5]), content), lookup);
    expect(ten).toContain("Round 3 (20–30 s)");
  });

  it("UD-INI-01/UD-INI-03: initiative is rolled every round unless it is carried over", async () => {
    // a: d10 9 + 2 = 11 beats b: 1 + 6 = 7 in round 1; then b wins rolls of 1 vs 9.
    const fresh = await playEncounter(duel({}, [9, 1, 1, 9, 1, 9]), content);
    const orders = fresh.events.filter((e) => e.type === "initiative").map((e) => (e.type === "initiative" ? e.order : []));
    expect(orders).toEqual([
      ["a", "b"],
      ["b", "a"],
      ["b", "a"],
    ]);
    expect(fresh.dice.filter((d) => d.purpose === "FRAY.Roll.Initiative")).toHaveLength(6);
    const kept = await playEncounter(duel({ initiativeCarryOver: true }, [9, 1]), content);
    const keptOrders = kept.events.filter((e) => e.type === "initiative").map((e) => (e.type === "initiative" ? [e.order, e.kept] : []));
    expect(keptOrders).toEqual([
      [["a", "b"], false],
      [["a", "b"], true],
      [["a", "b"], true],
    ]);
    expect(kept.dice.filter((d) => d.purpose === "FRAY.Roll.Initiative")).toHaveLength(2);
  });
});
