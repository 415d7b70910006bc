/**
 * The built-in wound texts in the reader's language (CR-CRT-01, CR-CRT-02): each result of the six
 * built-in critical tables has a language key `FRAY.Critical.Wound.<type>.<severity><row>`; the
 * card, the sheet and the encounter log show that key's text, while a GM's world table text is
 * shown as written.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ContentIndex } from "../../src/encounter/content.js";
import { playEncounter } from "../../src/encounter/engine.js";
import { formatLog } from "../../src/encounter/format.js";
import { parseEncounter } from "../../src/encounter/schema.js";
import { woundText } from "../../src/foundry/rulesets/critical/card.js";
import { criticalActorSheetContext } from "../../src/foundry/rulesets/critical/sheet-context.js";
import { formatKey } from "../../src/rules/core/i18n.js";
import { packDoc } from "../support/render/contexts.js";
import { nestedLookup } from "../../src/rules/core/i18n.js";
import { CRITICAL_TABLE_SOURCES, DEFAULT_TABLES, woundKeyOfId, woundTextKey } from "../../src/rules/critical/index.js";

const root = join(import.meta.dirname, "..", "..");
const lang = (code: string) =>
  nestedLookup(JSON.parse(readFileSync(join(root, "lang", `${code}.json`), "utf8")) as Record<string, unknown>);
const en = lang("en");
const de = lang("de");

interface RawResult {
  _id: string;
  description: string;
}
const builtIn = Object.entries(CRITICAL_TABLE_SOURCES).flatMap(([type, raw]) =>
  (raw as { results: RawResult[] }).results.map((r) => ({ type, id: r._id, text: r.description })),
);

describe("built-in wound texts have language keys", () => {
  it("CR-CRT-01: every result of the six tables has its own key, read from its id and found from its text", () => {
    expect(builtIn.length).toBe(270);
    const keys = builtIn.map((r) => woundKeyOfId(r.id));
    expect(new Set(keys).size).toBe(270);
    for (const [i, r] of builtIn.entries()) {
      expect(keys[i]).toMatch(new RegExp(`^FRAY\\.Critical\\.Wound\\.${r.type}\\.[A-E](0[1-8]|UM)$`));
      expect(woundTextKey(r.text)).toBe(keys[i]);
    }
    expect(woundKeyOfId("fRc3SA01Res00000")).toBe("FRAY.Critical.Wound.S.A01");
    expect(woundKeyOfId("fRc3PEUMRes00000")).toBe("FRAY.Critical.Wound.P.EUM");
  });

  it("CR-CRT-02: a text a GM wrote in a world table has no key; a built-in text edited by one letter neither", () => {
    expect(woundTextKey("Quench world table")).toBeUndefined();
    expect(woundTextKey("The throat is cut. The foe drowns in blood in 6 rounds")).toBeUndefined();
    expect(woundTextKey("The throat is cut. The foe drowns in blood in 6 rounds.")).toBe("FRAY.Critical.Wound.S.E07");
    expect(woundKeyOfId("aB3kdK2lqP0xYz12")).toBeUndefined();
    const parsed = DEFAULT_TABLES.crit.S!.entries.find((e) => e.id === "fRc3SE07Res00000")!;
    expect(woundTextKey(parsed.text)).toBe("FRAY.Critical.Wound.S.E07");
  });

  it("CR-CRT-02: the card shows a built-in text in the reader's language and a world table's text as written", () => {
    const reader = { localize: (key: string) => `<${key}>` };
    expect(woundText("A decapitating stroke. Instant death.", reader)).toBe("<FRAY.Critical.Wound.S.EUM>");
    expect(woundText("The GM's own wound.", reader)).toBe("The GM's own wound.");
  });

  it("CR-CRT-02: the encounter log prints each critical's wound text through its key", async () => {
    const duel = parse(readFileSync(join(root, "examples", "critical-duel.yaml"), "utf8")) as Record<string, unknown>;
    const result = await playEncounter(parseEncounter(duel), new ContentIndex(join(root, "packs", "_source")));
    const marked = (key: string) => (key.startsWith("FRAY.Critical.Wound.") ? `<${key}>` : en(key));
    const log = formatLog(result, marked).join("\n");
    const texts = result.events.flatMap((e) => (e.type === "custom" && e.kind === "criticalTable" ? [String(e.data.text)] : []));
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) {
      expect(log).toContain(`"<${woundTextKey(text)!}>"`);
      expect(log).not.toContain(`"${text}"`);
    }
  });

  it("CR-CRT-01, CR-CRT-02: every built-in result has its English text (the table's own) and a German one with the same numbers", () => {
    const digits = (t: string) => t.match(/\d+/g) ?? [];
    for (const r of builtIn) {
      const key = woundKeyOfId(r.id)!;
      expect(en(key), key).toBe(r.text);
      const german = de(key);
      expect(german, key).toBeTypeOf("string");
      expect(german, key).not.toBe(r.text);
      expect(digits(german!), key).toEqual(digits(r.text));
    }
  });

  it("CR-CRT-02: with German, the card and the encounter log read a built-in wound text in German", async () => {
    const reader = { localize: (key: string) => de(key) ?? key };
    expect(woundText("A decapitating stroke. Instant death.", reader)).toBe("Ein enthauptender Hieb. Sofortiger Tod.");
    expect(woundText("The GM's own wound.", reader)).toBe("The GM's own wound.");
    const duel = parse(readFileSync(join(root, "examples", "critical-duel.yaml"), "utf8")) as Record<string, unknown>;
    const result = await playEncounter(parseEncounter(duel), new ContentIndex(join(root, "packs", "_source")));
    const log = formatLog(result, de).join("\n");
    const texts = result.events.flatMap((e) => (e.type === "custom" && e.kind === "criticalTable" ? [String(e.data.text)] : []));
    for (const text of texts) expect(log).toContain(`"${de(woundTextKey(text)!)!}"`);
  });

  it("CR-CRT-02: the sheet lists an injury from a built-in table in German and a world table's injury as written", () => {
    const fighter = packDoc("critical-npcs", "Sword Fighter");
    const injury = (id: string, label: string) => ({ id, kind: "injury", rule: "CR-CRT-02", label, location: "leg", stops: ["move"] });
    const actor = {
      ...fighter,
      _id: "kara",
      system: {
        ...(fighter.system as Record<string, unknown>),
        effects: [injury("injury-1", "The leg is severed below the knee and the foe falls."), injury("injury-2", "Das Knie des GM.")],
      },
    };
    const i18n = { localize: (k: string) => de(k) ?? k, format: (k: string, d: Record<string, string>) => formatKey(de, k, d) };
    const sheet = criticalActorSheetContext({ actor: actor as never, ruleset: "critical", editable: true, enrichedBiography: "", i18n });
    expect(sheet.critical!.injuries.map((i) => i.label)).toEqual([
      "Das Bein ist unter dem Knie abgetrennt, der Gegner stürzt.",
      "Das Knie des GM.",
    ]);
  });
});
