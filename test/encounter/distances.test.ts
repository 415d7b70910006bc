/**
 * The file's `distances` (the tracker's forecast gives the distances between tokens): every
 * ruleset's driver attacks the nearest standing enemy where the round names none (the tactics'
 * `nearest` rule), and a ranged attack whose round declares no range is made from the distance
 * between the two (UD-RNG-01, HB-MOD-01, ZN-RNG-02; Critical's attack, CR-ATK-01, reads no range
 * and logs it); a distance naming no combatant is refused naming the field.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { ContentIndex } from "../../src/encounter/content.js";
import { playEncounter } from "../../src/encounter/engine.js";
import { parseEncounter } from "../../src/encounter/schema.js";
import { failingField } from "../support/encounter.js";

const root = join(import.meta.dirname, "..", "..");
const content = new ContentIndex(join(root, "packs", "_source"));
type Raw = Record<string, unknown> & { combatants: (Record<string, unknown> & { id: string; side: string })[] };
const skirmish = (id: string) => parseYaml(readFileSync(join(root, "examples", `${id}-skirmish.yaml`), "utf8")) as Raw;

const CASES = [
  ["UD-RNG-01", "ud10"],
  ["HB-MOD-01", "hitbox"],
  ["CR-ATK-01", "critical"],
  ["ZN-RNG-02", "zones"],
] as const;

describe("distances between the combatants (the file's `distances`)", () => {
  it.each(CASES)("%s: %s: the first attack goes at the nearest enemy, from the distance between the two", async (_rule, ruleset) => {
    const raw = skirmish(ruleset);
    // A shooter: the first combatant whose tactics name a range (a ranged weapon).
    const shooter = raw.combatants.find((c) => {
      const t = c.tactics as { range?: number; feet?: number } | undefined;
      return typeof t?.range === "number" || typeof t?.feet === "number";
    })!;
    const foes = raw.combatants.filter((c) => c.side !== shooter.side);
    const near = foes.at(-1)!;
    raw.distances = { [shooter.id]: Object.fromEntries(foes.map((o) => [o.id, o === near ? 7 : 40])) };
    const result = await playEncounter(parseEncounter({ ...raw, seed: 3 }), content);
    const first = result.events.find((e) => e.type === "attack" && e.attacker === shooter.id);
    expect(first?.type === "attack" && [first.target, first.range]).toEqual([near.id, 7]);
    // Without the distances the same shooter takes the first enemy of the file, from its tactics' range.
    // (The first fight of seeds 1 to 10 in which it lives to attack.)
    delete raw.distances;
    let before: string | undefined;
    for (let seed = 1; seed <= 10 && before === undefined; seed++) {
      const plain = await playEncounter(parseEncounter({ ...raw, seed }), content);
      const e = plain.events.find((x) => x.type === "attack" && x.attacker === shooter.id);
      if (e?.type === "attack") before = e.target;
    }
    expect(before).toBe(foes[0]!.id);
  });

  /** Each ruleset that reads a range: the round's declared range, and a melee weapon's reach, over the distance. */
  const PRECEDENCE = [
    ["UD-RNG-01", "ud10", { range: 25 }, 25],
    ["HB-MOD-01", "hitbox", { feet: 90 }, Math.round(90 * 0.3048 * 10) / 10],
  ] as const;
  it.each(PRECEDENCE)(
    "%s: %s: a range the round declares, and a melee weapon's reach, go before the distance",
    async (_rule, ruleset, declared, metres) => {
      const raw = skirmish(ruleset);
      const shooter = raw.combatants.find((c) => {
        const t = c.tactics as { range?: number; feet?: number } | undefined;
        return (t?.range ?? 0) > 2 || (t?.feet ?? 0) > 5;
      })!;
      const brawler = raw.combatants.find((c) => {
        const t = c.tactics as { range?: number; feet?: number } | undefined;
        return t?.range === 1.5 || t?.feet === 5;
      })!;
      const foes = (c: { side: string }) => raw.combatants.filter((o) => o.side !== c.side);
      raw.distances = {
        [shooter.id]: Object.fromEntries(foes(shooter).map((o) => [o.id, 7])),
        [brawler.id]: Object.fromEntries(
          foes(brawler)
            .filter((o) => o.id !== shooter.id)
            .map((o) => [o.id, 40]),
        ),
      };
      raw.rounds = [{ [shooter.id]: { ...(shooter.tactics as object), ...declared } }];
      const result = await playEncounter(parseEncounter({ ...raw, seed: 3 }), content);
      const firstOf = (id: string, round: number) =>
        result.events.find((e) => e.type === "attack" && e.attacker === id && e.round === round);
      const shot = firstOf(shooter.id, 1);
      expect(shot?.type === "attack" && shot.range).toBe(metres);
      // From the second round on, its tactics: the distance again.
      const later = result.events.find((e) => e.type === "attack" && e.attacker === shooter.id && e.round > 1);
      if (later?.type === "attack") expect(later.range).toBe(7);
      // The brawler strikes from its reach, whatever the distance (nobody moves; melee assumes reach).
      const blow = result.events.find((e) => e.type === "attack" && e.attacker === brawler.id);
      expect(blow?.type === "attack" && blow.range).toBe(ruleset === "ud10" ? 1.5 : Math.round(5 * 0.3048 * 10) / 10);
    },
  );

  it("UD-RNG-01: refuses a distance to a combatant the file has not, naming the field", async () => {
    const raw = skirmish("ud10");
    raw.distances = { [raw.combatants[0]!.id]: { nobody: 3 } };
    expect(await failingField(raw, content)).toBe(`distances.${raw.combatants[0]!.id}.nobody`);
  });
});
