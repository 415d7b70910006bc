import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ContentIndex } from "../../src/encounter/content.js";
import { playEncounter } from "../../src/encounter/engine.js";
import { parseEncounter, type EncounterSpec } from "../../src/encounter/schema.js";
import { balance, kindsOf, mixOf, withCounts, withFactor, type BalanceResult } from "../../src/forecast/balance.js";
import { forecast } from "../../src/forecast/forecast.js";
import { formatBalance } from "../../src/forecast/format.js";
import { RULESET_BOUNDS } from "../../src/rules/core/bounds.js";
import { FrayError } from "../../src/rules/core/errors.js";
import { nestedLookup } from "../../src/rules/core/i18n.js";
import { scaledStats } from "../../src/forecast/scaling.js";

const root = join(import.meta.dirname, "..", "..");
const content = new ContentIndex(join(root, "packs", "_source"));
const load = (file: string): EncounterSpec => parseEncounter(parse(readFileSync(join(root, "examples", file), "utf8")));
const lookup = (lang: string) =>
  nestedLookup(JSON.parse(readFileSync(join(root, "lang", `${lang}.json`), "utf8")) as Record<string, unknown>);
const keyOf = async (run: () => Promise<unknown>): Promise<string> => {
  try {
    await run();
  } catch (e) {
    return e instanceof FrayError ? `${e.key} ${String(e.data.field ?? "")}`.trim() : `not a FrayError: ${String(e)}`;
  }
  return "no error";
};
/** Few fights, so that the search of every ruleset runs in a test. */
const SMALL = { quickRuns: 40, confirmRuns: 160 } as const;
const RULESETS = ["ud10", "hitbox", "critical", "zones"] as const;

describe("balance: opponents by kind", () => {
  it("shares n opponents out in the file's proportions, by largest remainder", () => {
    expect(mixOf([2, 1, 2], 5)).toEqual([2, 1, 2]);
    expect(mixOf([2, 1, 2], 7)).toEqual([3, 1, 3]);
    expect(mixOf([2, 1, 2], 1)).toEqual([1, 0, 0]);
    for (let n = 1; n < 20; n++) expect(mixOf([3, 1, 1, 2], n).reduce((a, b) => a + b, 0)).toBe(n);
  });

  it("groups the opponents into kinds: entries alike but for id and name", () => {
    const kinds = kindsOf(load("ud10-skirmish.yaml"), "crew");
    expect(kinds.map((k) => [k.id, k.side, k.base])).toEqual([
      ["vet-b", "raiders", 2],
      ["guard-c", "raiders", 1],
      ["thug-c", "raiders", 2],
    ]);
  });

  it("adds copies that stand where their original stands, and removes the last of a kind from rounds, distances and initiative", async () => {
    const spec = load("ud10-ambush.yaml");
    spec.distances = { mara: { veteran: 25, guard: 14 }, jonas: { thug: 2 } };
    spec.initiative = { veteran: 12, guard: 8 };
    const kinds = kindsOf(spec, "players");
    expect(kinds.map((k) => k.id)).toEqual(["guard", "thug", "veteran"]);
    const file = withCounts(spec, kinds, [3, 1, 0]);
    expect(file.combatants.map((c) => c.id)).toEqual(["mara", "jonas", "guard", "guard-2", "guard-3", "thug"]);
    expect(file.combatants.find((c) => c.id === "guard-3")!.name).toBe("guard 3");
    expect(file.distances).toEqual({
      mara: { guard: 14 },
      jonas: { thug: 2 },
      "guard-2": { mara: 14, guard: 0, "guard-3": 0 },
      "guard-3": { mara: 14, guard: 0 },
    });
    expect(file.initiative).toEqual({ guard: 8 });
    expect(file.rounds.every((r) => !("veteran" in r))).toBe(true);
    // Mara's round-2 burst at the veteran keeps its weapon; its target is left to the tactics.
    expect(file.rounds[1]!.mara!.attack).toBeUndefined();
    expect(spec.combatants).toHaveLength(5);
    const played = await playEncounter(file, content);
    expect(played.combatants.map((c) => c.id)).toEqual(file.combatants.map((c) => c.id));
  });
});

describe("balance: the opponents' stats scaled", () => {
  it("scales tracks and skills within the ruleset's bounds (UD-DMG-03, UD-DMG-04, HB-DMG-01, CR-HIT-01, ZN-DMG-01)", () => {
    const ud = scaledStats("ud10", { hp: { value: 18, max: 18 }, ep: 16, skills: { ranged: { rating: 5 }, parry: { rating: 0 } } }, 1.5);
    expect(ud).toEqual({ hp: { value: 27, max: 27 }, ep: { max: 24, value: 24 }, skills: { ranged: { rating: 8 } } });
    expect(scaledStats("ud10", { hp: { value: 900, max: 900 } }, 4)).toEqual({ hp: { value: 1000, max: RULESET_BOUNDS.ud10.pool.max } });
    const hb = scaledStats("hitbox", { hitboxes: { head: { value: 2, max: 2 } }, skills: { firearms: 2, dodge: -1 } }, 0.25);
    // A hitbox keeps at least one point; a penalty stays as it is.
    expect(hb).toEqual({ hitboxes: { head: { max: 1, value: 1 } }, skills: { firearms: 1 } });
    expect(scaledStats("critical", { physique: { total: 58 }, hits: { value: 40, max: 58 }, skills: { blunt: 50 } }, 0.5)).toEqual({
      physique: { total: 29 },
      hits: { value: 20 },
      skills: { blunt: 25 },
    });
    expect(scaledStats("zones", { hp: { value: 32, max: 32 }, skills: { firearms: 3 } }, 2)).toEqual({
      hp: { max: 64, value: 64 },
      skills: { firearms: 6 },
    });
  });

  it("lays the scaled stats over each opponent's actor, the players' entries untouched", async () => {
    const spec = load("zones-skirmish.yaml");
    const file = withFactor(spec, content, "guards", 2);
    expect(file.combatants.filter((c) => c.side === "guards")).toEqual(spec.combatants.filter((c) => c.side === "guards"));
    const played = await playEncounter({ ...file, maxRounds: 1 }, content);
    const breacher = played.combatants.find((c) => c.id === "breach-a")!;
    expect(breacher.start!.hp!.max).toBe(2 * (content.resolve("zones-npcs/Breacher", "ref").system as { hp: { max: number } }).hp.max);
  });
});

describe("balance: the search", () => {
  for (const ruleset of RULESETS)
    for (const mode of ["count", "scale"] as const)
      it(`${ruleset}, by ${mode}: reports the forecast of the encounter it returns, and the same again for the same seed`, async () => {
        const spec = load(`${ruleset}-skirmish.yaml`);
        const result = await balance(spec, content, { target: 0.6, mode, ...SMALL });
        expect(result.complete).toBe(true);
        expect(result.best.runs).toBe(SMALL.confirmRuns);
        // The balanced file, forecast on its own with the same seeds, gives the very chance reported.
        const check = await forecast(result.spec, content, { runs: SMALL.confirmRuns, seed: result.seed });
        expect(check.sides.find((s) => s.side === result.players)!.wins).toEqual(result.best.wins);
        if (mode === "count") {
          const opponents = result.spec.combatants.filter((c) => c.side !== result.players);
          expect(opponents).toHaveLength(result.best.counts!.reduce((x, y) => x + y, 0));
          expect(result.spec.combatants.map((c) => c.id)).toEqual(
            withCounts(spec, result.kinds, result.best.counts!).combatants.map((c) => c.id),
          );
        } else expect(result.best.factor).toBeGreaterThan(0);
        // Closest of all it confirmed.
        for (const c of result.tried.filter((x) => x.runs === result.best.runs))
          expect(Math.abs(result.best.wins.p - 0.6)).toBeLessThanOrEqual(Math.abs(c.wins.p - 0.6));
        const again = await balance(spec, content, { target: 0.6, mode, ...SMALL });
        expect(again.best).toEqual(result.best);
      }, 60_000);

  it("moves the players' chance toward the target: more opponents for a lower chance, fewer for a higher", async () => {
    const spec = load("zones-skirmish.yaml");
    const low = await balance(spec, content, { target: 0.3, ...SMALL });
    const high = await balance(spec, content, { target: 0.95, ...SMALL });
    const total = (r: BalanceResult) => r.best.counts!.reduce((a, b) => a + b, 0);
    expect(total(low)).toBeGreaterThan(total(high));
    expect(low.best.wins.p).toBeLessThan(high.best.wins.p);
  }, 60_000);

  it("names a bad target, mode or side, and a search cancelled before its first fight", async () => {
    const spec = load("zones-skirmish.yaml");
    expect(await keyOf(() => balance(spec, content, { target: 2 }))).toBe("FRAY.Error.Input.Range target");
    expect(await keyOf(() => balance(spec, content, { target: 0.5, mode: "size" as never }))).toBe("FRAY.Error.Input.Choice mode");
    expect(await keyOf(() => balance(spec, content, { target: 0.5, players: "nobody" }))).toBe("FRAY.Error.Field players");
    expect(await keyOf(() => balance(spec, content, { target: 0.5, signal: { aborted: true } }))).toBe("FRAY.Error.ForecastNone");
  });

  it("prints the encounter found, the file as it stands and the search, in English and German", async () => {
    const result = await balance(load("ud10-skirmish.yaml"), content, { target: 0.7, ...SMALL });
    const en = formatBalance(result, lookup("en"), "en").join("\n");
    expect(en).toContain("players' side crew, chance to win asked for 70.0%");
    expect(en).toContain(`Veteran Falk (raiders): ${result.best.counts![0]} (2)`);
    expect(en).toContain("in 160 fights");
    const de = formatBalance(result, lookup("de"), "de").join("\n");
    expect(de).toMatch(/gewünschte Siegchance 70,0\s%/u);
  }, 60_000);
});

describe("npm run forecast --balance", () => {
  const cli = (args: string[]) => [join(root, "scripts", "bundled.mjs"), "scripts/forecast.ts", ...args];
  const refusal = (args: string[]) => {
    try {
      execFileSync(process.execPath, cli(args), { cwd: root, encoding: "utf8", stdio: "pipe" });
    } catch (e) {
      return String((e as { stderr: string }).stderr);
    }
    return "accepted";
  };

  it("writes the search the core makes, and refuses a chance out of range, an unknown mode or side naming the flag", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "fray-balance-")), "b.json");
    const printed = execFileSync(process.execPath, cli(["examples/ud10-ambush.yaml", "--balance", "0.5", "--by", "scale", "--json", out]), {
      cwd: root,
      encoding: "utf8",
    });
    const expected = await balance(load("ud10-ambush.yaml"), content, { target: 0.5, mode: "scale" });
    expect(JSON.parse(readFileSync(out, "utf8"))).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(printed).toContain("players' side players, chance to win asked for 50.0%");
    expect(refusal(["examples/ud10-ambush.yaml", "--balance", "2"])).toContain('Field "--balance": expected a number from 0.01 to 0.99');
    expect(refusal(["examples/ud10-ambush.yaml", "--balance", "0.5", "--by", "size"])).toContain('Field "--by"');
    expect(refusal(["examples/ud10-ambush.yaml", "--balance", "0.5", "--players", "nobody"])).toContain('Field "--players"');
    expect(refusal(["examples/ud10-ambush.yaml", "--by", "scale"])).toContain('Field "--by": expected only with --balance');
    expect(refusal(["examples/ud10-ambush.yaml", "--balance", "0.5", "--runs", "10"])).toContain(
      'Field "--runs": expected only without --balance',
    );
  }, 120_000);
});
