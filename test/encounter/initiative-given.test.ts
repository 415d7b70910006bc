/**
 * A file's `initiative` (the tracker's round under way): the first round is played in that order,
 * not rolled; a ruleset that rolls each round rolls again from the second (UD-INI-01), one that
 * keeps its initiative for the combat keeps it (CR-INI-01); those it leaves out roll theirs in the
 * first round; an id the file has not is refused naming the field.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { ContentIndex } from "../../src/encounter/content.js";
import { playEncounter } from "../../src/encounter/engine.js";
import { formatLog } from "../../src/encounter/format.js";
import { parseEncounter } from "../../src/encounter/schema.js";
import { failingField } from "../support/encounter.js";
import { nestedLookup } from "../../src/rules/core/i18n.js";

const root = join(import.meta.dirname, "..", "..");
const content = new ContentIndex(join(root, "packs", "_source"));
type Raw = Record<string, unknown> & { combatants: { id: string }[] };
const skirmish = (id: string) => parseYaml(readFileSync(join(root, "examples", `${id}-skirmish.yaml`), "utf8")) as Raw;
const en = nestedLookup(JSON.parse(readFileSync(join(root, "lang", "en.json"), "utf8")) as Record<string, unknown>);

/** The file with the initiative given: the last combatant of the file highest, the first lowest. */
function withInitiative(raw: Raw): { raw: Raw; order: string[] } {
  const ids = raw.combatants.map((c) => c.id);
  raw.initiative = Object.fromEntries(ids.map((id, i) => [id, 10 + i]));
  return { raw, order: [...ids].reverse() };
}

describe("the first round's initiative given (the file's `initiative`)", () => {
  it("UD-INI-01: UD10 plays the first round in the given order and rolls again from the second", async () => {
    const { raw, order } = withInitiative(skirmish("ud10"));
    const result = await playEncounter(parseEncounter({ ...raw, seed: 2 }), content);
    const inits = result.events.filter((e) => e.type === "initiative");
    expect(inits[0]?.type === "initiative" && [inits[0].round, inits[0].order, inits[0].kept]).toEqual([1, order, true]);
    expect(inits[1]?.type === "initiative" && [inits[1].round, inits[1].kept]).toEqual([2, false]);
    expect(formatLog(result, en).join("\n")).toContain("Initiative (as the combat stands):");
  });

  it("CR-INI-01: Critical keeps the given initiative for the combat", async () => {
    const { raw, order } = withInitiative(skirmish("critical"));
    const result = await playEncounter(parseEncounter({ ...raw, seed: 2 }), content);
    const inits = result.events.filter((e) => e.type === "initiative");
    expect(inits.length).toBeGreaterThan(1);
    for (const e of inits)
      if (e.type === "initiative") expect(e.order.every((id, i, all) => order.indexOf(id) > order.indexOf(all[i - 1] ?? ""))).toBe(true);
    expect(inits.every((e) => e.type === "initiative" && e.kept)).toBe(true);
  });

  it("UD-INI-01: those the file gives no initiative roll theirs in the first round and take their place among the given", async () => {
    const { raw, order } = withInitiative(skirmish("ud10"));
    const last = raw.combatants.at(-1)!.id;
    delete (raw.initiative as Record<string, number>)[last];
    const result = await playEncounter(parseEncounter({ ...raw, seed: 2 }), content);
    const first = result.events.find((e) => e.type === "initiative" && e.round === 1);
    expect(first?.type === "initiative" && first.kept).toBe(false);
    const played = first?.type === "initiative" ? first.order : [];
    // Everyone acts; the given keep their order among themselves.
    expect([...played].sort()).toEqual(raw.combatants.map((c) => c.id).sort());
    expect(played.filter((id) => id !== last)).toEqual(order.filter((id) => id !== last));
    // The log shows the rolled one's dice, the given ones' totals alone.
    const line = formatLog(result, en).find((l) => l.startsWith("Initiative:"))!;
    expect(line).toMatch(/\(/);
    expect(line).not.toContain("()");
  });

  it("UD-INI-01: refuses an initiative for a combatant the file has not, naming the field", async () => {
    const raw = skirmish("ud10");
    raw.initiative = { nobody: 12 };
    expect(await failingField(raw, content)).toBe("initiative.nobody");
  });
});
