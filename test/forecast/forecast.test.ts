import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CombatantCache } from "../../src/encounter/common.js";
import { ContentIndex } from "../../src/encounter/content.js";
import { playEncounter } from "../../src/encounter/engine.js";
import { parseEncounter, type EncounterSpec } from "../../src/encounter/schema.js";
import type { EncounterResult } from "../../src/encounter/types.js";
import { chunkRuns, fightSeed, forecast, pointsLost, wilson, withSeed, type Forecast } from "../../src/forecast/forecast.js";
import { formatForecast } from "../../src/forecast/format.js";
import { FrayError } from "../../src/rules/core/errors.js";
import { nestedLookup } from "../../src/rules/core/i18n.js";

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

/** The forecast's figures recomputed by hand from single encounter runs. */
function tallied(spec: EncounterSpec, results: EncounterResult[]) {
  const n = results.length;
  const sides = [...new Set(spec.combatants.map((c) => c.side))];
  const rounds: Record<number, number> = {};
  for (const r of results) rounds[r.rounds] = (rounds[r.rounds] ?? 0) + 1;
  return {
    wins: sides.map((side) => results.filter((r) => r.winner === side).length),
    draws: results.filter((r) => r.winner === null).length,
    rounds,
    out: spec.combatants.map((c) => results.filter((r) => r.combatants.find((x) => x.id === c.id)!.out).length),
    hp: spec.combatants.map(
      (c) =>
        results.reduce((sum, r) => {
          const x = r.combatants.find((y) => y.id === c.id)!;
          return sum + (x.start!.hp ? x.start!.hp.value - x.vitals.hp!.value : 0);
        }, 0) / n,
    ),
    // Every track each combatant has: HP, EP (UD10) and the hitboxes' points summed (Hitbox).
    damage: spec.combatants.map((c) => {
      const lost: Record<string, number> = {};
      for (const r of results) {
        const x = r.combatants.find((y) => y.id === c.id)!;
        const add = (k: string, v: number) => (lost[k] = (lost[k] ?? 0) + v);
        if (x.start!.hp) add("hp", x.start!.hp.value - x.vitals.hp!.value);
        if (x.start!.ep) add("ep", x.start!.ep.value - x.vitals.ep!.value);
        if (x.start!.hitboxes)
          add(
            "hitboxes",
            Object.keys(x.start!.hitboxes).reduce((s, k) => s + x.start!.hitboxes![k]!.value - x.vitals.hitboxes![k]!.value, 0),
          );
      }
      return Object.fromEntries(Object.entries(lost).map(([k, v]) => [k, v / n]));
    }),
  };
}

describe("forecast", () => {
  for (const file of ["ud10-skirmish.yaml", "hitbox-skirmish.yaml", "critical-skirmish.yaml", "zones-skirmish.yaml"]) {
    it(`${file}: equals single encounter runs with the documented per-fight seeds`, async () => {
      const spec = load(file);
      const base = 77;
      const runs = 12;
      const fights = [...Array(runs).keys()];
      const f = await forecast(spec, content, { runs, seed: base });
      // What `npm run encounter -- FILE --seed <base + i>` plays: the file with its seed replaced.
      const singles = await Promise.all(fights.map((i) => playEncounter({ ...spec, seed: base + i }, content)));
      expect(singles.map((r) => r.seed)).toEqual(fights.map((i) => fightSeed(base, i)));
      const t = tallied(spec, singles);
      expect(f.runs).toBe(runs);
      expect(f.complete).toBe(true);
      expect(f.sides.map((s) => s.wins.count)).toEqual(t.wins);
      expect(f.draws.count).toBe(t.draws);
      expect(f.rounds.counts).toEqual(t.rounds);
      expect(f.combatants.map((c) => c.out.count)).toEqual(t.out);
      if (spec.ruleset !== "hitbox") expect(f.combatants.map((c) => c.damage.hp)).toEqual(t.hp);
      // The expected loss on every track, EP and hitbox points included.
      expect(f.combatants.map((c) => c.damage)).toEqual(t.damage);
      // Someone lost something in twelve fights of five against five.
      expect(f.combatants.some((c) => (c.damage.hp ?? c.damage.hitboxes ?? 0) > 0)).toBe(true);
    });
  }

  for (const file of ["ud10-skirmish.yaml", "hitbox-skirmish.yaml", "critical-skirmish.yaml", "zones-skirmish.yaml", "zones-burst.yaml"]) {
    it(`${file}: a quiet fight with shared combatants ends as the full encounter run, fight by fight`, async () => {
      const spec = load(file);
      const play = { quiet: true, combatants: new CombatantCache() };
      for (let i = 0; i < 8; i++) {
        const fight = { ...spec, seed: 500 + i };
        const full = await playEncounter(fight, content);
        const quiet = await playEncounter(fight, content, undefined, play);
        expect(quiet.winner).toBe(full.winner);
        expect(quiet.rounds).toBe(full.rounds);
        expect(quiet.combatants).toEqual(full.combatants);
        expect(full.events.length).toBeGreaterThan(0);
        expect(full.dice.length).toBeGreaterThan(0);
        expect(quiet.events).toEqual([full.events.at(-1)]);
        expect(quiet.dice).toEqual([]);
      }
    });
  }

  it("UD-RND-02: a driver's set-up from the file is built once per cache while the file's parts stay the same; an error is not kept", () => {
    const spec = load("zones-skirmish.yaml");
    const cache = new CombatantCache();
    const key = {};
    let builds = 0;
    const build = () => ({ n: ++builds });
    const first = cache.fileSetup(key, spec, build);
    // A forecast's next fight: the same file with another seed.
    expect(cache.fileSetup(key, { ...spec, seed: 9 }, build)).toBe(first);
    // Another driver's key, or other options, rounds or combatants: built again.
    expect(cache.fileSetup({}, spec, build)).toEqual({ n: 2 });
    const other = cache.fileSetup(key, { ...spec, options: { ...spec.options } }, build);
    expect(other).toEqual({ n: 3 });
    expect(cache.fileSetup(key, { ...spec, rounds: [] }, build)).toEqual({ n: 4 });
    expect(cache.fileSetup(key, { ...spec, combatants: [...spec.combatants] }, build)).toEqual({ n: 5 });
    const failing = {};
    const bad = () => {
      builds++;
      throw new FrayError("FRAY.Error.Field", { field: "rounds[0].a.attack" }, "bad");
    };
    expect(() => cache.fileSetup(failing, spec, bad)).toThrow(FrayError);
    expect(() => cache.fileSetup(failing, spec, bad)).toThrow(FrayError);
    expect(builds).toBe(7);
  });

  /** The paths of the objects (not lists) reachable from `value` that are not frozen. */
  const unfrozenObjects = (value: unknown, path = "", seen = new Set<object>()): string[] => {
    if (value === null || typeof value !== "object" || seen.has(value)) return [];
    seen.add(value);
    const own = !Array.isArray(value) && !Object.isFrozen(value) ? [path] : [];
    return own.concat(...Object.entries(value).map(([k, v]) => unfrozenObjects(v, `${path}.${k}`, seen)));
  };

  for (const file of ["ud10-skirmish.yaml", "hitbox-skirmish.yaml", "critical-skirmish.yaml", "zones-skirmish.yaml"]) {
    it(`${file}: builds each combatant once per cache, frozen so that no fight can change the next one's`, async () => {
      const spec = load(file);
      const play = { quiet: true, combatants: new CombatantCache() };
      await playEncounter(spec, content, undefined, play);
      const built = spec.combatants.map((cs) => play.combatants.get(cs) as { weapons: object[] } | undefined);
      for (const c of built) {
        expect(c).toBeDefined();
        expect(Object.isFrozen(c)).toBe(true);
        // Every object in it is frozen; its lists are not (freezeShared), and no fight changes them.
        expect(unfrozenObjects(c)).toEqual([]);
        expect(Object.isFrozen(c!.weapons)).toBe(false);
        expect(() => Object.assign(c!.weapons[0]!, { name: "changed" })).toThrow(TypeError);
      }
      const before = structuredClone(built);
      for (let seed = spec.seed + 1; seed <= spec.seed + 25; seed++) await playEncounter({ ...spec, seed }, content, undefined, play);
      spec.combatants.forEach((cs, i) => expect(play.combatants.get(cs)).toBe(built[i]));
      expect(built).toEqual(before);
    });
  }

  it("the same seed gives the same forecast; another seed another", async () => {
    const spec = load("ud10-skirmish.yaml");
    const a = await forecast(spec, content, { runs: 4 });
    const b = await forecast(spec, content, { runs: 4 });
    expect(b).toEqual(a);
    expect(a.seed).toBe(spec.seed);
    const c = await forecast(spec, content, { runs: 4, seed: spec.seed + 1000 });
    expect(c).not.toEqual(a);
  });

  it("sums up the file's own example: chances add up to one, rounds within maxRounds", async () => {
    const spec = load("ud10-ambush.yaml");
    const f = await forecast(spec, content, { runs: 6, seed: 5 });
    expect(f.sides.map((s) => s.side)).toEqual(["players", "ambushers"]);
    expect(f.sides.reduce((s, x) => s + x.wins.count, 0) + f.draws.count).toBe(6);
    expect(Object.values(f.rounds.counts).reduce((s, x) => s + x, 0)).toBe(6);
    expect(f.rounds.max).toBeLessThanOrEqual(spec.maxRounds);
    expect(f.rounds.min).toBeLessThanOrEqual(f.rounds.median);
    expect(f.rounds.median).toBeLessThanOrEqual(f.rounds.max);
    expect(f.tactics.map((t) => t.react)).toEqual(["dodge", "parry", "none", "parry", "none"]);
    expect(f.tactics[0]!.tactics.target).toEqual(["declared", "engaged", "nearest", "first"]);
  });

  it("reports progress, and a cancel stops it with the fights played so far", async () => {
    const spec = load("zones-burst.yaml");
    const calls: [number, number][] = [];
    await forecast(spec, content, { runs: 5, progressEvery: 2, onProgress: (d, n) => void calls.push([d, n]) });
    expect(calls).toEqual([
      [2, 5],
      [4, 5],
      [5, 5],
    ]);
    const signal = { aborted: false };
    const f = await forecast(spec, content, { runs: 50, progressEvery: 1, signal, onProgress: (d) => void (signal.aborted = d >= 3) });
    expect(f.runs).toBe(3);
    expect(f.complete).toBe(false);
    expect(await keyOf(() => forecast(spec, content, { signal: { aborted: true } }))).toBe("FRAY.Error.ForecastNone");
  });

  it("refuses a count of fights or a seed out of bounds, naming the field", async () => {
    const spec = load("zones-burst.yaml");
    expect(await keyOf(() => forecast(spec, content, { runs: 0 }))).toMatch(/ runs$/);
    expect(await keyOf(() => forecast(spec, content, { runs: 2.5 }))).toMatch(/ runs$/);
    expect(await keyOf(() => forecast(spec, content, { runs: 2, seed: -1 }))).toMatch(/ seed$/);
    expect(await keyOf(() => forecast(spec, content, { runs: 2, seed: 2 ** 31 }))).toMatch(/ seed$/);
  });

  it("plays each fight on the file with its seed: every other field the same object, every fight's copy with the same keys", () => {
    for (const file of readdirSync(join(root, "examples")).filter((f) => f.endsWith(".yaml"))) {
      const spec = load(file);
      const fight = withSeed(spec, fightSeed(spec.seed, 3));
      expect(fight.seed).toBe(fightSeed(spec.seed, 3));
      expect(Object.keys(fight)).toEqual(Object.keys(spec));
      for (const key of Object.keys(spec) as (keyof EncounterSpec)[])
        if (key !== "seed") expect(fight[key], `${file} ${key}`).toBe(spec[key]);
      expect(spec.seed, `${file}: the file's own seed is left alone`).toBe(load(file).seed);
    }
  });

  it("a file whose scripted dice decide every fight says so and gives no chances; a script that runs out counts the fights that rolled on", async () => {
    const spec = load("zones-burst.yaml");
    const f = await forecast(spec, content, { runs: 5 });
    expect(f.scripted).toEqual({ faces: spec.dice.length, beyond: 0 });
    const lines = formatForecast(f, lookup("en"));
    const only = lookup("en")("FRAY.Forecast.ScriptedOnly")!.replace("{faces}", String(spec.dice.length)).replace("{runs}", "5");
    expect(lines).toContain(only);
    expect(lines.join("\n")).not.toContain("100.0%");
    expect(lines.join("\n")).not.toContain(lookup("en")("FRAY.Forecast.Draw")!);
    // Two scripted faces (the initiative), every die after them rolled by the fight's seed.
    const short = { ...spec, dice: spec.dice.slice(0, 2) };
    const g = await forecast(short, content, { runs: 5 });
    expect(g.scripted).toEqual({ faces: 2, beyond: 5 });
    const text = formatForecast(g, lookup("en"));
    expect(text).toContain(lookup("en")("FRAY.Forecast.Scripted")!.replace("{faces}", "2").replace("{share}", "100.0%"));
    expect(text.some((l) => l.startsWith(lookup("en")("FRAY.Forecast.Wins")!))).toBe(true);
    // Without scripted dice nothing is said of them.
    expect((await forecast(load("ud10-skirmish.yaml"), content, { runs: 2 })).scripted).toBeUndefined();
  });

  it("per-fight seeds wrap past the largest seed to 0", () => {
    expect(fightSeed(10, 0)).toBe(10);
    expect(fightSeed(10, 5)).toBe(15);
    expect(fightSeed(2 ** 31 - 1, 1)).toBe(0);
  });
});

describe("wilson", () => {
  it("gives the 95% Wilson score interval, inside 0..1 at the extremes", () => {
    const half = wilson(5, 10);
    expect(half.p).toBe(0.5);
    expect(half.low).toBeCloseTo(0.2366, 4);
    expect(half.high).toBeCloseTo(0.7634, 4);
    expect(wilson(50, 100).low).toBeCloseTo(0.4038, 4);
    const none = wilson(0, 10);
    expect(none.low).toBe(0);
    expect(none.high).toBeCloseTo(0.2775, 4);
    const all = wilson(10, 10);
    expect(all.high).toBe(1);
    expect(all.low).toBeCloseTo(0.7225, 4);
  });

  it("refuses counts that do not fit the fights", () => {
    expect(() => wilson(3, 2)).toThrow(FrayError);
    expect(() => wilson(1, 0)).toThrow(FrayError);
    expect(() => wilson(-1, 5)).toThrow(FrayError);
  });
});

describe("points lost", () => {
  it("UD-DMG-03: HP and EP lost from the start to the end, each on its own", () => {
    const lost = pointsLost(
      { hp: { value: 20, max: 22 }, ep: { value: 10, max: 10 }, conditions: [] },
      { hp: { value: -3, max: 22 }, ep: { value: 4, max: 10 }, conditions: ["incapacitated"] },
    );
    expect(lost).toEqual({ hp: 23, ep: 6 });
  });

  it("HB-DMG-01: hitbox points lost, summed over the boxes", () => {
    const box = (value: number, max = 2) => ({ value, max });
    const lost = pointsLost(
      { hitboxes: { head: box(2), torso: box(3, 3), leftLeg: box(2) }, conditions: [] },
      { hitboxes: { head: box(1), torso: box(3, 3), leftLeg: box(0) }, conditions: ["prone"] },
    );
    expect(lost).toEqual({ hitboxes: 3 });
  });
});

describe("forecast output", () => {
  const fake = (): Forecast => ({
    name: "Test",
    ruleset: "ud10",
    runs: 10,
    complete: true,
    seed: 100,
    sides: [
      { side: "red", wins: wilson(7, 10) },
      { side: "blue", wins: wilson(2, 10) },
    ],
    draws: wilson(1, 10),
    rounds: { counts: { 2: 4, 3: 6 }, mean: 2.6, median: 3, min: 2, max: 3 },
    combatants: [
      { id: "a", name: "Ann", side: "red", out: wilson(3, 10), damage: { hp: 4.25, ep: 1 } },
      { id: "b", name: "Bo", side: "blue", out: wilson(8, 10), damage: { hp: 12 } },
    ],
    tactics: [],
  });

  it("prints the seeds, each side's chance with its interval, the rounds and each combatant", () => {
    const lines = formatForecast(fake(), lookup("en"));
    expect(lines[0]).toBe("Forecast: Test — UD10, 10 fights, seeds 100 to 109");
    expect(lines).toContain("  red        70.0% (39.7% to 89.2%)");
    expect(lines).toContain("  no winner  10.0% (1.8% to 40.4%)");
    expect(lines).toContain("Rounds: mean 2.6, median 3, from 2 to 3");
    expect(lines.find((l) => l.startsWith("  3  "))).toBe(`  3  ${"#".repeat(40)} 60.0%`);
    expect(lines.find((l) => l.includes("Ann (red)"))).toContain("out 30.0% (10.8% to 60.3%); damage HP 4.3, EP 1.0");
  });

  it("is localized", () => {
    const lines = formatForecast({ ...fake(), complete: false }, lookup("de"));
    expect(lines[0]).toBe("Prognose: Test — UD10, 10 Kämpfe, Seeds 100 bis 109");
    expect(lines[1]).toContain("abgebrochen");
    expect(lines.find((l) => l.includes("Bo (blue)"))).toContain("Schaden LP 12.0");
  });
});

describe("forecast core", () => {
  /** The modules a file imports, transitively, by path (type-only imports are left out). */
  function imports(file: string, seen = new Set<string>()): Set<string> {
    if (seen.has(file)) return seen;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/^import (?!type )[^;]*? from "([^"]+)";/gms)) {
      const spec = m[1]!;
      if (spec.startsWith(".")) imports(resolve(dirname(file), spec.replace(/\.js$/, ".ts")), seen);
      else seen.add(spec);
    }
    return seen;
  }

  it("is pure: no Node module and no process anywhere in what it imports", () => {
    const all = [...imports(join(root, "src", "forecast", "forecast.ts")), ...imports(join(root, "src", "forecast", "format.ts"))];
    expect(all.some((m) => m.endsWith("encounter/engine.ts"))).toBe(true);
    expect(all.filter((m) => m.startsWith("node:") || ["fs", "path", "os", "child_process", "yaml"].includes(m))).toEqual([]);
    expect(all.filter((m) => m.endsWith(".ts") && /\bprocess\.|\brequire\(/.test(readFileSync(m, "utf8")))).toEqual([]);
  });
});

describe("npm run forecast", () => {
  it("writes the forecast the core computes, and names a bad option", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "fray-forecast-")), "f.json");
    // As `npm run forecast` runs it: bundled (scripts/bundled.mjs).
    const cli = (args: string[]) => [join(root, "scripts", "bundled.mjs"), "scripts/forecast.ts", ...args];
    const printed = execFileSync(process.execPath, cli(["examples/zones-burst.yaml", "--runs", "12", "--seed", "9", "--json", out]), {
      cwd: root,
      encoding: "utf8",
    });
    const expected = await forecast(load("zones-burst.yaml"), content, { runs: 12, seed: 9 });
    expect(JSON.parse(readFileSync(out, "utf8"))).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(printed).toContain("Forecast: Burst at Dusk — Zones, 12 fights, seeds 9 to 20");
    let stderr = "";
    try {
      execFileSync(process.execPath, cli(["examples/zones-burst.yaml", "--runs", "many"]), {
        cwd: root,
        encoding: "utf8",
        stdio: "pipe",
      });
    } catch (e) {
      stderr = String((e as { stderr: string }).stderr);
    }
    expect(stderr).toContain("--runs");
  }, 60_000);

  it("--workers spreads the fights over worker threads (tsx's API loading the script in each) and gives the same forecast", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fray-forecast-"));
    const tsx = join(root, "node_modules", ".bin", "tsx");
    const run = (workers: number) => {
      const out = join(dir, `w${workers}.json`);
      const printed = execFileSync(
        tsx,
        ["scripts/forecast.ts", "examples/zones-burst.yaml", "--runs", "13", "--seed", "4", "--workers", String(workers), "--json", out],
        {
          cwd: root,
          encoding: "utf8",
        },
      );
      return { printed, json: readFileSync(out, "utf8") };
    };
    // One thread is the in-process forecast below; two split the 13 fights unevenly (7 and 6).
    const two = run(2);
    expect(two.printed).toContain("on 2 worker threads");
    const expected = await forecast(load("zones-burst.yaml"), content, { runs: 13, seed: 4 });
    expect(JSON.parse(two.json)).toEqual(JSON.parse(JSON.stringify(expected)));
  }, 120_000);

  it("run bundled as `npm run forecast` runs it (scripts/bundled.mjs), its worker threads run the bundle and give the same forecast", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fray-forecast-"));
    const out = join(dir, "bundled.json");
    const run = spawnSync(
      process.execPath,
      [
        "scripts/bundled.mjs",
        "scripts/forecast.ts",
        "examples/zones-burst.yaml",
        "--runs",
        "450",
        "--seed",
        "4",
        "--workers",
        "2",
        "--json",
        out,
      ],
      { cwd: root, encoding: "utf8" },
    );
    expect(run.status, run.stderr).toBe(0);
    const printed = run.stdout;
    expect(printed).toContain("on 2 worker threads");
    // Four chunks of the 450 fights (chunkRuns): each thread plays the next one once done with its last.
    expect(chunkRuns(450, 2)).toHaveLength(4);
    const expected = await forecast(load("zones-burst.yaml"), content, { runs: 450, seed: 4 });
    expect(JSON.parse(readFileSync(out, "utf8"))).toEqual(JSON.parse(JSON.stringify(expected)));
    // The bundle is kept for the next run, under the key its manifest's sources give.
    const { inputs } = JSON.parse(readFileSync(join(root, "scripts", ".forecast.bundle.json"), "utf8")) as { inputs: string[] };
    expect(inputs).toContain(join(root, "src", "forecast", "forecast.ts"));
  }, 120_000);

  it("scripts/bundled.mjs keeps a script's bundle for the next run and builds a new one once a source it imports changes", () => {
    const dir = mkdtempSync(join(tmpdir(), "fray-bundled-"));
    writeFileSync(join(dir, "part.ts"), 'export const word: string = "first";\n');
    writeFileSync(join(dir, "say.ts"), 'import { word } from "./part.js";\nconsole.log(word, process.argv.slice(2).join(" "));\n');
    const say = () =>
      spawnSync(process.execPath, [join(root, "scripts", "bundled.mjs"), join(dir, "say.ts"), "a", "b"], { encoding: "utf8" });
    const kept = () => readdirSync(dir).filter((f) => f.endsWith(".bundle.mjs"));
    const first = say();
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toBe("first a b\n");
    expect(kept()).toHaveLength(1);
    const bundle = join(dir, kept()[0]!);
    const built = statSync(bundle);
    // Nothing changed: the same bundle runs, not rebuilt.
    expect(say().stdout).toBe("first a b\n");
    expect(kept()).toEqual([basename(bundle)]);
    // The same file (a rebuild writes a new one and renames it over), marked as used now.
    expect(statSync(bundle).ino).toBe(built.ino);
    expect(statSync(bundle).mtimeMs).toBeGreaterThanOrEqual(built.mtimeMs);
    // The imported source changed (same size, so that only its contents tell): a new bundle.
    writeFileSync(join(dir, "part.ts"), 'export const word: string = "again";\n');
    expect(say().stdout).toBe("again a b\n");
    expect(kept()).toHaveLength(2);
  }, 60_000);
});
