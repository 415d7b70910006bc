import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ContentIndex } from "../../src/encounter/content.js";
import { playEncounter } from "../../src/encounter/engine.js";
import { formatLog } from "../../src/encounter/format.js";
import { parseEncounter } from "../../src/encounter/schema.js";
import type { EncounterEvent } from "../../src/encounter/types.js";
import { formatKey, nestedLookup } from "../../src/rules/core/i18n.js";
import type { ZonesAttackResult } from "../../src/rules/zones/index.js";
import { failingField } from "../support/encounter.js";

const root = join(import.meta.dirname, "..", "..");
const content = new ContentIndex(join(root, "packs", "_source"));
const file = () => parse(readFileSync(join(root, "examples", "zones-burst.yaml"), "utf8")) as Record<string, unknown>;
const lang = (code: string) => {
  try {
    return JSON.parse(readFileSync(join(root, "lang", `${code}.json`), "utf8")) as Record<string, unknown>;
  } catch {
    return {};
  }
};
const fieldOf = (raw: Record<string, unknown>) => failingField(raw, content);

describe("the Zones burst example (seed 004)", () => {
  it("ZN-RNG-01, ZN-RNG-08, ZN-BST-01: difficulty 13 from 5 + 8 + 1 - 1, a roll of 8 + 1 + 1 + 3 = 13, one bullet of three hits", async () => {
    const result = await playEncounter(parseEncounter(file()), content);
    const attack = result.events.find((e): e is Extract<EncounterEvent, { type: "attack" }> => e.type === "attack")!;
    const diff = attack.result.plan.difficulty;
    expect([diff.base.value, ...diff.modifiers.map((m) => m.value)]).toEqual([5, 8, 1, -1]);
    expect(diff.modifiers.map((m) => m.rule)).toEqual(["ZN-RNG-03", "ZN-RNG-01", "ZN-RNG-05"]);
    expect(diff.modifiers[0]!.data).toMatchObject({ size: "FRAY.Zones.Size.small", band: "FRAY.Zones.Band.far", range: 100 });
    expect(diff.total).toBe(13);
    const check = attack.result.check;
    expect([check.natural, ...check.modifiers.map((m) => m.value)]).toEqual([8, 1, 1, 3]);
    expect(check.total).toBe(13);
    const bullets = (attack.result as ZonesAttackResult).bullets!;
    expect(bullets).toMatchObject({ fired: 3, hit: 1, difficulties: [13, 15, 17] });
    expect(attack.odds.outcomes).toMatchObject({ bullet1: expect.closeTo(0.3, 12), bullet2: expect.closeTo(0.1, 12), bullet3: 0 });
    // The one bullet: torso (3 + 4), 2d6+2 = 11, the vest's 4 off, x2: 14 of the sentry's 26 HP.
    expect(attack.result.locations?.map((l) => l.id)).toEqual(["torso"]);
    const sentry = result.combatants.find((c) => c.id === "sentry")!;
    expect(sentry.vitals.hp).toEqual({ value: 12, max: 26 });
    expect(result.dice.map((d) => d.faces)).toEqual([[7], [3], [8], [3, 4], [4, 5]]);
    // The sentry drops prone afterwards: kneeling to prone costs 1 speed point (ZN-MOV-01).
    const move = result.events.find((e) => e.type === "custom" && e.kind === "move");
    expect(move).toMatchObject({ data: { actor: "sentry", stance: "prone", points: 1 } });
  });

  it("ZN-BST-01: the log prints the seed's numbers", async () => {
    const lookup = nestedLookup(lang("en"));
    const lines = formatLog(await playEncounter(parseEncounter(file()), content), lookup);
    const text = lines.join("\n");
    expect(text).toMatch(/d10\[8\] \+ 1 .*\+ 1 .*\+ 3 .*= 13/);
    expect(text).toMatch(/: 5 .*\+ 8 .*\+ 1 .*- 1 .*= 13/);
    expect(lines.filter((l) => l.includes("(ZN-BST-01)"))).toEqual([
      `  ${formatKey(lookup, "FRAY.Zones.Log.Bullets", { hit: 1, fired: 3 })} (ZN-BST-01)`,
    ]);
    const bullet = (key: string, n: number, difficulty: number, odds: string) =>
      `    ${formatKey(lookup, key, { n, difficulty, total: 13 })} (${odds})`;
    expect(lines).toEqual(
      expect.arrayContaining([
        bullet("FRAY.Zones.Log.BulletHit", 1, 13, "30.0%"),
        bullet("FRAY.Zones.Log.BulletMiss", 2, 15, "10.0%"),
        bullet("FRAY.Zones.Log.BulletMiss", 3, 17, "0.0%"),
      ]),
    );
  });

  it("is reproducible and names wrong fields", async () => {
    const a = formatLog(await playEncounter(parseEncounter(file()), content), nestedLookup(lang("en")));
    const b = formatLog(await playEncounter(parseEncounter(file()), content), nestedLookup(lang("en")));
    expect(a).toEqual(b);
    const bad = file();
    (bad.rounds as Record<string, Record<string, unknown>>[])[0]!.rifleman!.situation = { environment: ["fog"] };
    expect(await fieldOf(bad)).toBe("rounds[0].rifleman.situation.environment[0]");
    const badStance = file();
    (badStance.rounds as Record<string, Record<string, unknown>>[])[0]!.sentry = { stance: "sitting" };
    expect(await fieldOf(badStance)).toBe("rounds[0].sentry.stance");
    const ud10Item = file();
    (ud10Item.combatants as Record<string, unknown>[])[0]!.items = ["ud10-weapons/Assault Rifle"];
    expect(await fieldOf(ud10Item)).toBe("combatants[0].items[0]");
    const noHp = file();
    ((noHp.combatants as Record<string, unknown>[])[0]!.stats as Record<string, unknown>).hp = "lots";
    expect(await fieldOf(noHp)).toBe("combatants[0].stats.hp");
  });

  it("ZN-SUR-01, ZN-INI-02, ZN-INI-03, ZN-GRN-01, ZN-MEL-03, ZN-MEL-04: a mixed fight plays through the driver", async () => {
    const raw = {
      name: "Mixed",
      ruleset: "zones",
      seed: 11,
      maxRounds: 6,
      options: { fixedInitiative: true, speedRecovery: "round" },
      combatants: [
        {
          id: "a",
          name: "Ana",
          side: "players",
          stats: {
            attributes: { STR: 1, DEX: 2, CON: 1, PER: 1 },
            skills: { firearms: 3, melee: 2, throwing: 3, dodge: 2 },
            hp: 30,
            speed: 8,
            effort: 3,
            actions: { action: 2 },
          },
          items: [
            "zones-weapons/Kestrel PDW",
            "zones-weapons/Hornet Fragmentation Grenade",
            "zones-weapons/Fieldcraft Knife",
            "zones-armor/Plate Carrier",
          ],
          react: "defend",
          tactics: { weapon: "Kestrel PDW", range: 5, mode: "burst" },
        },
        {
          id: "e",
          ref: "zones-npcs/Street Enforcer",
          side: "crew",
          react: "defend",
          tactics: { attack: "a", weapon: "Collapsible Baton", range: 1 },
        },
        {
          id: "s",
          ref: "zones-npcs/Perimeter Sentry",
          side: "crew",
          surprised: true,
          tactics: { attack: "a", weapon: "Harrow Carbine", range: 30, mode: "burst" },
        },
      ],
      rounds: [
        {
          a: {
            attack: "s",
            weapon: "Hornet Fragmentation Grenade",
            range: 20,
            blast: [
              { id: "s", distance: 3 },
              { id: "e", distance: 12, cover: "full" },
            ],
          },
          e: { move: 4, moveMode: "run", effort: 1 },
        },
        { a: { aim: true, attack: "e", weapon: "Kestrel PDW", mode: "auto", bullets: 5, range: 1 } },
        { a: { attack: "e", weapon: "Fieldcraft Knife", range: 1, damageType: "slashing" } },
      ],
    };
    const result = await playEncounter(parseEncounter(raw), content);
    const custom = (kind: string) =>
      result.events.filter((e): e is Extract<EncounterEvent, { type: "custom" }> => e.type === "custom" && e.kind === kind);
    // Surprise round: the sentry neither rolls initiative nor acts in round 1.
    expect(custom("surprise")[0]!.data.surprised).toEqual(["s"]);
    const inits = result.events.filter((e): e is Extract<EncounterEvent, { type: "initiative" }> => e.type === "initiative");
    expect(inits[0]!.order).not.toContain("s");
    expect(inits.slice(1).every((e) => e.kept)).toBe(true);
    // Effort on initiative: +1 on the enforcer's roll.
    expect(inits[0]!.rolls.find((r) => r.members[0] === "e")!.check.modifiers.map((m) => m.rule)).toContain("ZN-INI-02");
    // The grenade: the sentry within 5 m dies; the enforcer behind full cover takes the shock wave only.
    expect(custom("blast").map((e) => [e.data.target, e.data.effect])).toEqual([
      ["s", "killed"],
      ["e", "shockwave"],
    ]);
    // Melee: Ana dodges while she has an action (ZN-MEL-03); the enforcer, his action spent, blocks (ZN-MEL-04).
    const reactions = result.events.flatMap((e) => (e.type === "attack" && e.result.reaction ? [[e.target, e.result.reaction.id]] : []));
    expect(reactions).toEqual(
      expect.arrayContaining([
        ["a", "dodge"],
        ["e", "block"],
      ]),
    );
    // Every HP change is explained by the damage and blast events.
    for (const c of result.combatants) {
      const last = result.events
        .filter((e) => e.type === "custom" && (e.kind === "damage" || e.kind === "blast") && e.data.target === c.id)
        .at(-1) as Extract<EncounterEvent, { type: "custom" }> | undefined;
      if (last) expect(c.vitals.hp!.value).toBe(last.data.hp);
    }
    expect(result.winner).toBe("players");
  });
});
