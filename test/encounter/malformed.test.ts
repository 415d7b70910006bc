/**
 * The corpus of malformed encounter files (`test/encounter/malformed/*.yaml`): each names, in its
 * first line `# field: <path>`, the field its FrayError must name. Every file is refused at load
 * time, before anything plays, with a message localized in English and German that names the
 * field; none crashes, hangs or plays on.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ContentIndex } from "../../src/encounter/content.js";
import { parseEncounter } from "../../src/encounter/schema.js";
import { playEncounter } from "../../src/encounter/engine.js";
import { FrayError, localizeError } from "../../src/rules/core/errors.js";
import { formatKey, nestedLookup } from "../../src/rules/core/i18n.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const dir = join(root, "test", "encounter", "malformed");
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".yaml"))
  .sort();
const lang = (code: string) =>
  nestedLookup(JSON.parse(readFileSync(join(root, "lang", `${code}.json`), "utf8")) as Record<string, unknown>);
const lookups = { en: lang("en"), de: lang("de") };

describe("malformed encounter files", () => {
  it("UD-RND-01: the corpus holds files for every boundary check", () => {
    expect(files.length).toBeGreaterThanOrEqual(30);
  });

  it.each(files)("UD-RND-01: %s is refused naming its field", (file) => {
    const text = readFileSync(join(dir, file), "utf8");
    const field = /^# field: (.+)$/m.exec(text)?.[1]?.trim();
    expect(field, `${file} names no field`).toBeTruthy();
    let error: unknown;
    try {
      parseEncounter(parse(text));
    } catch (e) {
      error = e;
    }
    expect(error, `${file} was accepted`).toBeInstanceOf(FrayError);
    expect((error as FrayError).data.field).toBe(field);
    for (const lookup of Object.values(lookups)) {
      const message = localizeError(error, (key, data) => formatKey(lookup, key, data));
      expect(message).toContain(field!.slice(0, 64));
      expect(message).not.toMatch(/FRAY\.|\{(field|min|max|expected|choices)\}/);
    }
  });

  it("UD-RND-01: the corpus's base file loads and plays", async () => {
    const spec = parseEncounter(
      parse(
        "ruleset: ud10\nmaxRounds: 2\ncombatants:\n  - { id: mara, side: players, ref: ud10-npcs/Guard }\n  - { id: thug, side: npcs, ref: ud10-npcs/Thug }\n",
      ),
    );
    const result = await playEncounter(spec, new ContentIndex(join(root, "packs", "_source")));
    expect(result.rounds).toBeGreaterThanOrEqual(1);
  });
});
