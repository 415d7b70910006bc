/**
 * The encounter log as a GM reads it, in every ruleset: where an attack is made from (in melee,
 * or at a range in the ruleset's units), what its percentages are, a combatant turning to another
 * target said once, declarations without a target, one header per round, and how the fight ended
 * (also all that `--quiet` prints).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ContentIndex } from "../../src/encounter/content.js";
import { playEncounter } from "../../src/encounter/engine.js";
import { formatLog, formatOutcome } from "../../src/encounter/format.js";
import { parseEncounter } from "../../src/encounter/schema.js";
import type { EncounterResult } from "../../src/encounter/types.js";
import { nestedLookup } from "../../src/rules/core/i18n.js";

const root = join(import.meta.dirname, "..", "..");
const content = new ContentIndex(join(root, "packs", "_source"));
const lang = (code: string) =>
  nestedLookup(JSON.parse(readFileSync(join(root, "lang", `${code}.json`), "utf8")) as Record<string, unknown>);
const en = lang("en");
const de = lang("de");
const example = (name: string, seed?: number) => {
  const raw = parse(readFileSync(join(root, "examples", `${name}.yaml`), "utf8")) as Record<string, unknown>;
  return playEncounter(parseEncounter(seed === undefined ? raw : { ...raw, seed }), content);
};

describe("UD10: the ambush, seed 5", () => {
  it("a sword strikes in melee while a pistol shoots at its range (UD-RNG-01)", async () => {
    const log = formatLog(await example("ud10-ambush", 5), en);
    expect(log).toContain("Jonas Brandt attacks Thug with Side Sword in melee");
    expect(log).toContain("Guard attacks Mara Lenz with Service Pistol at 14 m");
    expect(log).toContain("Veteran attacks Mara Lenz with Assault Rifle (Three-round burst) at 25 m");
    expect(log.filter((l) => /\(range |1\.5 m/.test(l))).toEqual([]);
  });

  it("says what each percentage is: the chance to hit, and to hit and beat the declared parry (UD-REA-03)", async () => {
    const log = formatLog(await example("ud10-ambush", 5), en);
    expect(log).toContain("  Miss (chance to hit 30.0%; to hit and beat the Parry 24.0%)");
    expect(log).toContain("  Miss (chance to hit 60.0%)");
    expect(log.filter((l) => l.includes("odds") || / \/ \d/.test(l))).toEqual([]);
  });

  it("says once that a combatant's target is out and whom it attacks instead", async () => {
    const result = await example("ud10-ambush", 5);
    const events = result.events.filter((e) => e.type === "retarget" && e.actor === "guard");
    expect(events.length).toBeGreaterThan(3);
    const log = formatLog(result, en);
    expect(log.filter((l) => l.startsWith("Guard's target"))).toEqual([
      "Guard's target Mara Lenz is out of the fight: Guard attacks Jonas Brandt instead",
    ]);
  });

  it("ends with the winner and where everyone stands, the lines --quiet prints", async () => {
    const result = await example("ud10-ambush", 5);
    const log = formatLog(result, en);
    const outcome = formatOutcome(result, en);
    expect(outcome[0]).toBe("Winner: ambushers, in round 12 (no one on the other side can fight on).");
    expect(outcome).toContain("  Veteran (ambushers): HP 22/22, EP 20/20");
    expect(log.slice(-outcome.length)).toEqual(outcome);
    expect(formatOutcome(result, de)[0]).toBe("Sieger: ambushers, in Runde 12 (auf der anderen Seite kann niemand mehr kämpfen).");
    expect(formatOutcome(result, de)).toContain("  Veteran (ambushers): LP 22/22, AuP 20/20");
  });
});

describe("how a fight without a winner ends", () => {
  const ended = (reason: "side-down" | "max-rounds"): EncounterResult => ({
    name: "x",
    ruleset: "ud10",
    seed: 1,
    options: {},
    rounds: 4,
    winner: null,
    combatants: [],
    events: [{ type: "end", round: 4, winner: null, reason }],
    dice: [],
  });

  it("tells a fight still going at its last round from one where nobody is left standing", () => {
    expect(formatOutcome(ended("max-rounds"), en)[0]).toBe("No winner after round 4: both sides can still fight.");
    expect(formatOutcome(ended("side-down"), en)[0]).toBe("No winner: no one is left standing after round 4.");
  });
});

describe("Critical: the skirmish's declarations (CR-INI-02, CR-PAR-01)", () => {
  it("an attack declared without a target says the target is chosen when it acts; an even parry names each foe once", async () => {
    const log = formatLog(await example("critical-skirmish"), en);
    expect(log.filter((l) => l.includes("attacks - ") || l.includes(" with -"))).toEqual([]);
    expect(log).toContain("  Mags Ortel: attacks with Pump Shotgun (target chosen when it acts)");
    expect(log).toContain(
      "  Tarn Vey: attacks with Arming Sword (target chosen when it acts); parries Kara Voss, Lio Brand, Mags Ortel, Nils Aro, Oda Renn with 7 OB each (CR-PAR-01)",
    );
    expect(log.some((l) => l.startsWith("  Chance of each result: fumble "))).toBe(true);
  });

  it("a single foe's parry keeps its own line (CR-PAR-01)", async () => {
    const log = formatLog(await example("critical-duel"), en);
    expect(log).toContain("  Kara Voss: moves 8 m; attacks Pistol Guard with Arming Sword; parries Pistol Guard with 20 OB (CR-PAR-01)");
    expect(log).toContain("Kara Voss attacks Pistol Guard with Arming Sword in melee");
    expect(log).toContain("Pistol Guard attacks Kara Voss with Service Pistol at 10 m");
  });
});

describe("Hitbox: Zeven and the guard (HB-RND-01, HB-MOD-01, HB-LOC-02)", () => {
  it("heads each turn once, gives ranges in feet, names the location by its table alone and the damage points once", async () => {
    const log = formatLog(await example("hitbox-zeven"), en);
    expect(log.filter((l) => /^Round \d/.test(l))).toEqual([]);
    expect(log.filter((l) => l.startsWith("Turn 1:"))).toHaveLength(1);
    expect(log).toContain("Zeven attacks Security Guard with Holdout Pistol at 15 ft");
    expect(log.filter((l) => / m$/.test(l) && l.includes(" attacks "))).toEqual([]);
    expect(log.filter((l) => l.startsWith("  Location ("))).toEqual([]);
    expect(log).toContain("  Called-shot table: 8 (Left leg needs 8-12): Left leg (HB-LOC-02)");
    expect(log).toContain("  Damage: 1");
  });

  it("ends in the ruleset's word for a round, the turn", async () => {
    const result = await example("hitbox-zeven");
    expect(formatOutcome(result, en)[0]).toBe("Winner: intruders, in turn 2 (no one on the other side can fight on).");
    expect(formatOutcome(result, de)[0]).toBe("Sieger: intruders, in Zug 2 (auf der anderen Seite kann niemand mehr kämpfen).");
  });

  it("shows the dodge that sets the difficulty before it, and a dodge standing from an earlier attack as standing (HB-ATK-03)", async () => {
    const zeven = formatLog(await example("hitbox-zeven"), en);
    const dodge = zeven.indexOf("  Dodge (HB-ATK-03): d6[2,3] + 3 Dexterity (HB-ATK-03) + 1 Dodge (HB-ATK-03) = 9 fails");
    expect(dodge).toBeGreaterThan(0);
    expect(zeven[dodge + 1]).toBe("  Difficulty: 9 Dodge total = 9");
    const skirmish = formatLog(await example("hitbox-skirmish"), en);
    const standing = skirmish.indexOf("  Dodge 5 stands from an earlier attack this turn (HB-ATK-03)");
    expect(standing).toBeGreaterThan(0);
    expect(skirmish[standing - 2]).toBe("Operative Brill attacks Fenn with Patrol Carbine at 60 ft");
    expect(skirmish.filter((l) => l.startsWith("  Dodge (HB-ATK-03): d6[1,1]"))).toHaveLength(1);
  });
});

describe("Zones: the burst (ZN-BST-01)", () => {
  it("names the firing mode beside the weapon and the range after it; German too", async () => {
    const result = await example("zones-burst");
    expect(formatLog(result, en)).toContain("Rifleman attacks Perimeter Sentry with Harrow Carbine (Burst of 3) at 100 m");
    const german = formatLog(result, de);
    expect(german).toContain("Rifleman greift Perimeter Sentry mit Harrow Carbine (Feuerstoß von 3) an, auf 100 m");
    expect(german.join("\n")).not.toMatch(/FRAY\./);
  });
});

describe("npm run encounter -- --quiet", () => {
  it("prints how the fight ended and nothing of its rounds", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "fray-quiet-")), "result.json");
    const tsx = join(root, "node_modules", ".bin", "tsx");
    const { stdout } = await promisify(execFile)(
      tsx,
      ["scripts/encounter.ts", "examples/ud10-ambush.yaml", "--seed", "5", "--quiet", "--out", out],
      {
        cwd: root,
      },
    );
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toBe("Winner: ambushers, in round 12 (no one on the other side can fight on).");
    expect(lines).toContain("  Mara Lenz (players): HP -3/22, EP 20/20 — Incapacitated");
    expect(stdout).not.toMatch(/^Round /m);
    expect(JSON.parse(readFileSync(out, "utf8")).winner).toBe("ambushers");
  });
});
