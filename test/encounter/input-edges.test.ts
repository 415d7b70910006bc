/**
 * Encounter files and command lines as a careless user writes them: what a file's schema alone
 * cannot see (the combatant its reference and stats build, a firing mode the weapon lacks) is
 * refused when the fight is set up, naming the file's field, in English and German; a command
 * line is refused before anything plays, naming the option.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContentIndex } from "../../src/encounter/content.js";
import { playEncounter } from "../../src/encounter/engine.js";
import { PackContent, type SourceDocument } from "../../src/encounter/library.js";
import { parseEncounter } from "../../src/encounter/schema.js";
import { forecast } from "../../src/forecast/forecast.js";
import { FrayError, localizeError } from "../../src/rules/core/errors.js";
import { formatKey, nestedLookup } from "../../src/rules/core/i18n.js";
import { validateSituation } from "../../src/rules/validate.js";

const root = join(import.meta.dirname, "..", "..");
const content = new ContentIndex(join(root, "packs", "_source"));
const lookups = Object.fromEntries(
  ["en", "de"].map((code) => [
    code,
    nestedLookup(JSON.parse(readFileSync(join(root, "lang", `${code}.json`), "utf8")) as Record<string, unknown>),
  ]),
);

/** The error `run` throws, with its messages in English and German. */
async function refusal(run: () => Promise<unknown>): Promise<{ error: FrayError; en: string; de: string }> {
  let error: unknown;
  try {
    await run();
  } catch (e) {
    error = e;
  }
  expect(error, "accepted").toBeInstanceOf(FrayError);
  const [en, de] = ["en", "de"].map((code) => localizeError(error, (key, data) => formatKey(lookups[code]!, key, data)));
  for (const text of [en, de]) expect(text).not.toMatch(/FRAY\.|\{\w+\}/);
  return { error: error as FrayError, en: en!, de: de! };
}

/** Refused naming `field` in both languages, both by one fight and by a forecast's quiet fights. */
async function refusedNaming(raw: unknown, field: string, packs: EncounterContentLike = content): Promise<FrayError> {
  const spec = parseEncounter(raw);
  const played = await refusal(() => playEncounter(spec, packs));
  expect(played.error.data.field).toBe(field);
  expect(played.en).toContain(field);
  expect(played.de).toContain(field);
  const forecasted = await refusal(() => forecast(spec, packs, { runs: 3, seed: 1 }));
  expect(forecasted.error.data.field).toBe(field);
  return played.error;
}
type EncounterContentLike = ContentIndex | PackContent;

describe("combatants built from a reference and stats", () => {
  it("UD-DMG-04: stats laid over a reference are checked as a whole: hp.max 1 under the Guard's HP is refused", async () => {
    await refusedNaming(
      {
        ruleset: "ud10",
        combatants: [
          { id: "a", side: "x", ref: "ud10-npcs/Guard", stats: { hp: { max: 1 } } },
          { id: "b", side: "y", ref: "ud10-npcs/Thug" },
        ],
      },
      "combatants[0].stats.hp.value",
    );
  });

  it("HB-ATK-01: a UD10 reference in a Hitbox file is refused naming combatants[1].ref", async () => {
    const error = await refusedNaming(
      {
        ruleset: "hitbox",
        combatants: [
          { id: "a", side: "x", ref: "hitbox-npcs/Security Guard" },
          { id: "b", side: "y", ref: "ud10-npcs/Guard" },
        ],
      },
      "combatants[1].ref",
    );
    expect(error.key).toBe("FRAY.Error.Input.RefRuleset");
  });

  it("UD-ATK-01: a saved combat's own documents are checked: DEX -500, HP 500 of 20, HP 1e308 and EP -3 are refused", async () => {
    const guard = content.resolve("ud10-npcs/Guard", "test");
    const thug = content.resolve("ud10-npcs/Thug", "test");
    const system = guard.system as { attributes: Record<string, number>; hp: unknown };
    const cases: [(s: typeof system) => void, string][] = [
      [(s) => (s.attributes.DEX = -500), "combatants[0].stats.attributes.DEX"],
      [(s) => (s.hp = { value: 500, max: 20 }), "combatants[0].stats.hp.value"],
      [(s) => (s.hp = { value: 1e308, max: 1e308 }), "combatants[0].stats.hp.value"],
      // UD-DMG-03: EP never drops below 0 (RULES.md), so a hit cannot "heal" a negative EP up to 0.
      [(s) => ((s as { ep?: unknown }).ep = { value: -3, max: 10 }), "combatants[0].stats.ep.value"],
    ];
    for (const [change, field] of cases) {
      const doc = structuredClone(guard);
      change(doc.system as typeof system);
      const packs = new PackContent([["combat", [{ ...doc, _id: "c1" } as SourceDocument, { ...thug, _id: "c2" } as SourceDocument]]]);
      await refusedNaming(
        {
          ruleset: "ud10",
          combatants: [
            { id: "c1", side: "x", ref: "combat/c1" },
            { id: "c2", side: "y", ref: "combat/c2" },
          ],
        },
        field,
        packs,
      );
    }
  });
});

describe("scripted dice", () => {
  it("UD-INI-01: a scripted face that does not fit the die rolled there names its place in dice", async () => {
    // The first two faces are the initiative d10s; the third, 11, is the first attack's d10.
    const error = await refusedNaming(
      {
        ruleset: "ud10",
        dice: [5, 4, 11],
        combatants: [
          { id: "a", side: "x", ref: "ud10-npcs/Guard" },
          { id: "b", side: "y", ref: "ud10-npcs/Thug" },
        ],
      },
      "dice[2]",
    );
    expect(error.key).toBe("FRAY.Error.Input.DieFace");
  });
});

describe("a malfunction after 0 bullets", () => {
  it("ZN-MAL-01: the file's schema takes afterBullets 0 as the core and the dialog do: the first bullet fails", async () => {
    expect(validateSituation("zones", { malfunction: { kind: "failureToFeed", afterBullets: 0 } })).toEqual({
      malfunction: { kind: "failureToFeed", afterBullets: 0 },
    });
    const spec = parseEncounter({
      ruleset: "zones",
      maxRounds: 1,
      combatants: [
        { id: "a", side: "x", ref: "zones-npcs/Breacher", items: ["zones-weapons/Kestrel PDW"] },
        { id: "b", side: "y", ref: "zones-npcs/Breacher" },
      ],
      rounds: [
        {
          a: {
            attack: "b",
            weapon: "Kestrel PDW",
            mode: "burst",
            range: 5,
            situation: { malfunction: { kind: "failureToFeed", afterBullets: 0 } },
          },
          b: { wait: true },
        },
      ],
    });
    const result = await playEncounter(spec, content);
    const attack = result.events.find((e) => e.type === "attack") as { result: { bullets?: { fired: number } } } | undefined;
    expect(attack?.result.bullets?.fired).toBe(0);
  });
});

describe("firing modes", () => {
  it("UD-RNG-02: a tactics mode the weapon lacks is refused naming combatants[0].tactics.mode", async () => {
    await refusedNaming(
      {
        ruleset: "ud10",
        combatants: [
          { id: "a", side: "x", ref: "ud10-npcs/Guard", tactics: { weapon: "Service Pistol", mode: "burst", range: 10 } },
          { id: "b", side: "y", ref: "ud10-npcs/Thug" },
        ],
      },
      "combatants[0].tactics.mode",
    );
  });

  it("ZN-BST-01: a burst from a pistol is refused naming the round's mode, not skipped", async () => {
    await refusedNaming(
      {
        ruleset: "zones",
        combatants: [
          { id: "a", side: "x", ref: "zones-npcs/Breacher", items: ["zones-weapons/Warden 9 Pistol"] },
          { id: "b", side: "y", ref: "zones-npcs/Breacher" },
        ],
        rounds: [{ a: { attack: "b", weapon: "Warden 9 Pistol", mode: "burst", range: 5 }, b: { wait: true } }],
      },
      "rounds[0].a.mode",
    );
  });
});

describe("the command lines", () => {
  const dir = mkdtempSync(join(tmpdir(), "fray-cli-"));
  /** What a script prints on stderr, and its exit status. */
  const run = (script: "encounter" | "forecast", args: string[], lang = "en") => {
    // Both bundled (scripts/bundled.mjs), as `npm run forecast` runs: one bundle serves every run.
    const argv = [process.execPath, join(root, "scripts", "bundled.mjs"), `scripts/${script}.ts`];
    try {
      execFileSync(argv[0]!, [...argv.slice(1), ...args], {
        cwd: root,
        encoding: "utf8",
        stdio: "pipe",
        env: { ...process.env, FRAY_LANG: lang },
      });
      return { status: 0, stderr: "" };
    } catch (e) {
      return { status: (e as { status: number }).status, stderr: String((e as { stderr: string }).stderr) };
    }
  };
  const example = "examples/zones-burst.yaml";

  it('UD-RND-01: npm run encounter refuses --out without a value or naming a folder, --seed "", an unknown option', () => {
    const cases: [string[], RegExp, RegExp][] = [
      [[example, "--out"], /Option "--out" needs a value/, /Option „--out“ braucht/],
      [[example, "--out", dir], /"--out": ".*" is a folder/, /„--out“: „.*“ ist ein Ordner/],
      [[example, "--seed", ""], /"--seed" needs a value/, /„--seed“ braucht/],
      [[example, "--seed", " "], /"--seed" needs a value/, /„--seed“ braucht/],
      [[example, "--sed", "4"], /"--sed" is not known; did you mean "--seed"/, /„--sed“ ist unbekannt; war „--seed“/],
    ];
    cases.forEach(([args, en, de], i) => {
      const a = run("encounter", args, i % 2 ? "de" : "en");
      expect(a.status, args.join(" ")).toBe(1);
      expect(a.stderr).toMatch(i % 2 ? de : en);
      expect(a.stderr).not.toMatch(/TypeError|EISDIR|at .*\.ts/);
    });
  }, 60_000);

  it("UD-RND-01: npm run forecast refuses --runs=5, an unknown option, --json naming a folder, before any fight", () => {
    const cases: [string[], RegExp][] = [
      [[example, "--runs=5"], /"--runs=5" is not known; did you mean "--runs"/],
      [[example, "--fights", "5"], /"--fights" is not known; expected one of --runs, --seed, --json, --workers/],
      [[example, "--runs", "5", "--json", dir], /"--json": ".*" is a folder/],
      [[example, "--json"], /"--json" needs a value/],
      [[example, "--seed", ""], /"--seed" needs a value/],
    ];
    for (const [args, en] of cases) {
      const a = run("forecast", args);
      expect(a.status, args.join(" ")).toBe(1);
      expect(a.stderr).toMatch(en);
      // Refused before the fights: nothing was forecast.
      expect(a.stderr).not.toMatch(/EISDIR|fights in/);
    }
  }, 60_000);
});
