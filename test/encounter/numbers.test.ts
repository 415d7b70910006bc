/**
 * Numbers in the reader's language: chances, decimals and plural forms in the encounter log and
 * the forecast, English as before and German with its decimal comma and spaced percent sign; a
 * firing mode named, never by its id (UD-RNG-02, ZN-BST-01).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ContentIndex } from "../../src/encounter/content.js";
import { playEncounter } from "../../src/encounter/engine.js";
import { formatLog } from "../../src/encounter/format.js";
import { parseEncounter } from "../../src/encounter/schema.js";
import { forecast } from "../../src/forecast/forecast.js";
import { formatForecast } from "../../src/forecast/format.js";
import { formatDecimal, formatKey, formatPercent, nestedLookup, pluralKey } from "../../src/rules/core/i18n.js";

const root = join(import.meta.dirname, "..", "..");
const content = new ContentIndex(join(root, "packs", "_source"));
const lang = (code: string) =>
  nestedLookup(JSON.parse(readFileSync(join(root, "lang", `${code}.json`), "utf8")) as Record<string, unknown>);
const en = lang("en");
const de = lang("de");
const load = (name: string, seed?: number) => {
  const raw = parse(readFileSync(join(root, "examples", `${name}.yaml`), "utf8")) as Record<string, unknown>;
  return parseEncounter(seed === undefined ? raw : { ...raw, seed });
};
const NBSP = "\u00a0";

describe("number formats of the core", () => {
  it("writes a chance with one decimal, English unspaced, German with a comma and a spaced sign", () => {
    expect(formatPercent(0.6)).toBe("60.0%");
    expect(formatPercent(0.6, "de")).toBe(`60,0${NBSP}%`);
    // Rounded as toFixed rounds, so English text stays as it was.
    expect(formatPercent(0.1485, "en")).toBe(`${(0.1485 * 100).toFixed(1)}%`);
    expect(formatDecimal(7.45, "de")).toBe("7,5");
    expect(formatDecimal(2.5, "de", 2)).toBe("2,50");
    expect(formatDecimal(2000.5, "de")).toBe("2000,5");
    expect(formatPercent(0.25, "zz")).toBe("25.0%");
  });

  it("picks the singular for one and the plural otherwise", () => {
    expect(pluralKey("K", 1)).toBe("KOne");
    expect(pluralKey("K", 0)).toBe("K");
    expect(pluralKey("K", 2, "de")).toBe("K");
    expect(pluralKey("K", 1, "de")).toBe("KOne");
  });

  it("writes fractions in data in the reader's language, integers as they are", () => {
    const look = (key: string) => (key === "K" ? "{a} / {b}" : undefined);
    expect(formatKey(look, "K", { a: 7.5, b: 2000 }, "de")).toBe("7,5 / 2000");
    expect(formatKey(look, "K", { a: 7.5, b: 2000 }, "en")).toBe("7.5 / 2000");
    expect(formatKey(look, "K", { a: 7.5, b: 2000 })).toBe("7.5 / 2000");
  });
});

describe("the encounter log in German", () => {
  it("writes the chance to hit as 60,0 % and the burst by its name (UD-ATK-01, UD-RNG-02)", async () => {
    const result = await playEncounter(load("ud10-ambush", 5), content);
    const log = formatLog(result, de, "de");
    expect(log).toContain(`  Verfehlt (Trefferchance 60,0${NBSP}%)`);
    expect(log).toContain(`  Verfehlt (Trefferchance 30,0${NBSP}%; Treffer trotz Parade 24,0${NBSP}%)`);
    expect(log).toContain("Veteran greift Mara Lenz mit Assault Rifle (Three-round burst) an, auf 25 m");
    expect(log.filter((l) => /\d\.\d%|\(burst\)/.test(l))).toEqual([]);
    // The English log keeps its form.
    expect(formatLog(result, en)).toContain("  Miss (chance to hit 60.0%)");
  });

  it("names a Zones burst with its bullets and writes each bullet's chance in German (ZN-BST-01)", async () => {
    const result = await playEncounter(load("zones-burst", 3), content);
    const log = formatLog(result, de, "de");
    expect(log).toContain("Rifleman greift Perimeter Sentry mit Harrow Carbine (Feuerstoß von 3) an, auf 100 m");
    expect(log).toContain(`    Kugel 1: 13 gegen 13, Treffer (30,0${NBSP}%)`);
    expect(formatLog(result, en)).toContain("Rifleman attacks Perimeter Sentry with Harrow Carbine (Burst of 3) at 100 m");
  });
});

describe("counts in the singular and the plural", () => {
  it("one round of aim is a round, not round(s) (UD-ATK-04)", async () => {
    const result = await playEncounter(load("ud10-ambush", 5), content);
    expect(formatLog(result, en)).toContain("Mara Lenz aims (1 round) (UD-ATK-04)");
    expect(formatLog(result, de, "de")).toContain("Mara Lenz zielt (1 Runde) (UD-ATK-04)");
    expect([...formatLog(result, en), ...formatLog(result, de, "de")].filter((l) => /\((s|n|en)\)/.test(l))).toEqual([]);
  });

  it("a change of stance costs 1 point, not 1 points (ZN-MOV-01)", async () => {
    const result = await playEncounter(load("zones-burst", 3), content);
    expect(formatLog(result, en).join("\n")).toContain("changes stance to prone: 1 point, 7 speed and 2 effort left (ZN-MOV-01)");
    expect(formatLog(result, de, "de").join("\n")).toContain("wechselt die Haltung zu liegend: 1 Punkt, übrig 7 Bewegung");
  });
});

describe("damage steps", () => {
  it("a step that takes nothing shows no -0 (UD-DMG-03, UD-DMG-04)", async () => {
    const log = formatLog(await playEncounter(load("ud10-ambush", 5), content), en);
    expect(log).toContain("    Buffer 0 turns damage into EP loss (EP now 20) (UD-DMG-03): -> 7");
    expect(log).toContain("    Constitution absorbs (CON 3) (UD-DMG-04): -3 -> 4");
    expect(log.filter((l) => l.includes(": -0 "))).toEqual([]);
  });
});

describe("the forecast in German", () => {
  it("writes chances, the mean length and the expected damage with a decimal comma", async () => {
    const f = await forecast(load("zones-skirmish"), content, { runs: 20, seed: 7 });
    const german = formatForecast(f, de, "de");
    const english = formatForecast(f, en);
    expect(german.filter((l) => /\d\.\d/.test(l))).toEqual([]);
    expect(german.join("\n")).toMatch(/\d,\d\u00a0% \(\d+,\d\u00a0% bis \d+,\d\u00a0%\)/);
    expect(german.join("\n")).toMatch(/Runden: Mittel \d+,\d, Median/);
    expect(german.join("\n")).toMatch(/Schaden LP \d+,\d/);
    expect(english.join("\n")).toMatch(/\d\.\d% \(\d+\.\d% to \d+\.\d%\)/);
  });
});
