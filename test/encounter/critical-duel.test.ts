import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ContentIndex } from "../../src/encounter/content.js";
import { playEncounter } from "../../src/encounter/engine.js";
import { formatLog } from "../../src/encounter/format.js";
import { parseEncounter } from "../../src/encounter/schema.js";
import type { EncounterEvent } from "../../src/encounter/types.js";
import { nestedLookup } from "../../src/rules/core/i18n.js";
import type { DamageStep, VitalState } from "../../src/rules/core/types.js";

const root = join(import.meta.dirname, "..", "..");
const content = new ContentIndex(join(root, "packs", "_source"));
const lookup = nestedLookup(JSON.parse(readFileSync(join(root, "lang", "en.json"), "utf8")) as Record<string, unknown>);
const duel = () => parse(readFileSync(join(root, "examples", "critical-duel.yaml"), "utf8")) as Record<string, unknown>;

type Custom = Extract<EncounterEvent, { type: "custom" }>;
const customs = (events: EncounterEvent[], kind: string): Custom[] =>
  events.filter((e): e is Custom => e.type === "custom" && e.kind === kind);

describe("examples/critical-duel.yaml", () => {
  it("plays through: the sword fighter wins once the guard fails Self Discipline", async () => {
    const result = await playEncounter(parseEncounter(duel()), content);
    expect(result.ruleset).toBe("critical");
    expect(result.winner).toBe("players");
    expect(result.rounds).toBe(3);
    const guard = result.combatants.find((c) => c.id === "guard")!;
    expect(guard.out).toBe(true);
    expect(guard.vitals.conditions).toContain("unconscious");
    expect(guard.vitals.hp).toEqual({ value: -8, max: 40 });
    expect(result.combatants.find((c) => c.id === "kara")!.vitals.hp).toEqual({ value: 19, max: 48 });
  });

  it("CR-INI-01, CR-INI-02: initiative once; the lowest declares first, the highest resolves first", async () => {
    const { events } = await playEncounter(parseEncounter(duel()), content);
    const inits = events.filter((e) => e.type === "initiative");
    expect(inits.map((e) => e.type === "initiative" && e.kept)).toEqual([false, true, true]);
    expect(inits[0]!.type === "initiative" && inits[0]!.order).toEqual(["guard", "kara"]);
    expect(customs(events, "declarations")[0]!.data.order).toEqual(["Kara Voss", "Pistol Guard"]);
    const firstAttack = events.find((e) => e.type === "attack");
    expect(firstAttack?.type === "attack" && firstAttack.attacker).toBe("guard");
  });

  it("CR-PAR-01, CR-PAR-02: Kara's 20 OB of parry is +10 DB against the pistol and -20 on her own attacks", async () => {
    const { events } = await playEncounter(parseEncounter(duel()), content);
    expect(customs(events, "declare").find((e) => e.data.actor === "kara")!.data.parry).toEqual([{ foe: "Pistol Guard", ob: 20 }]);
    const shots = events.filter((e) => e.type === "attack" && e.attacker === "guard");
    expect(shots.length).toBe(3);
    for (const s of shots) {
      if (s.type !== "attack") continue;
      expect(s.plan.difficulty.modifiers).toContainEqual(
        expect.objectContaining({ label: "FRAY.Mod.Parry", value: 10, rule: "CR-PAR-02" }),
      );
    }
    const cuts = events.filter((e) => e.type === "attack" && e.attacker === "kara");
    for (const c of cuts)
      if (c.type === "attack")
        expect(c.plan.modifiers).toContainEqual(expect.objectContaining({ label: "FRAY.Mod.ParryMoved", value: -20 }));
  });

  it("CR-ATK-01, CR-ATK-04: an open-ended attack roll goes over 150 and raises the critical roll", async () => {
    const { events } = await playEncounter(parseEncounter(duel()), content);
    const open = customs(events, "attackTable").find((e) => e.data.openEnded === true)!;
    expect(open.data).toMatchObject({
      faces: [98, 37],
      total: 185,
      result: "23EP",
      critBonus: 3,
      table: "critical.attack.sword",
      armorType: "ballistic",
    });
    const crit = customs(events, "criticalTable").find((e) => e.data.severity === "E")!;
    expect(crit.data).toMatchObject({ type: "P", unmodified: 4, bonus: 3, value: 7, um66: false });
  });

  it("CR-CRT-02, CR-BLD-01, CR-STN-01, CR-STN-02: criticals bleed and stun, and stun halves the AP at once", async () => {
    const { events } = await playEncounter(parseEncounter(duel()), content);
    const hits = customs(events, "hits").filter((e) => (e.data.steps as DamageStep[]).some((s) => s.label.startsWith("FRAY.Step.Stun")));
    expect(hits.map((e) => e.data.actor)).toEqual(["kara", "guard"]);
    for (const h of hits) expect((h.data.steps as DamageStep[]).map((s) => s.label)).toContain("FRAY.Step.Bleeding");
    expect(customs(events, "apCut").map((e) => [e.data.actor, e.data.max])).toEqual([
      ["kara", 2],
      ["guard", 2],
    ]);
    // Stunned Kara gets one attack in round 1; the guard bleeds 5 a round from round 2 on.
    expect(events.filter((e) => e.type === "attack" && e.round === 1 && e.attacker === "kara")).toHaveLength(1);
    const ticks = customs(events, "upkeep")
      .filter((e) => e.data.actor === "guard")
      .map((e) => (e.data.steps as DamageStep[]).find((s) => s.rule === "CR-BLD-01")!.value);
    expect(ticks).toEqual([5, 5]);
  });

  it("CR-BLD-02: Kara's bandage stops her bleeding", async () => {
    const { events } = await playEncounter(parseEncounter(duel()), content);
    const t = customs(events, "treat")[0]!;
    expect(t.data).toMatchObject({ actor: "kara", patient: "Kara Voss", step: { rule: "CR-BLD-02", remaining: 0 } });
    expect((t.data.vitals as VitalState).bleeding).toBe(0);
  });

  it("CR-HIT-02: Self Discipline at negative hits: 101 holds at -3, the next round's 37 knocks the guard out", async () => {
    const { events } = await playEncounter(parseEncounter(duel()), content);
    const tests = customs(events, "selfDiscipline");
    expect(tests.map((e) => [e.round, (e.data.check as { total: number }).total, e.data.success])).toEqual([
      [2, 101, true],
      [3, 37, false],
    ]);
    expect((tests[0]!.data.vitals as VitalState).hp!.value).toBe(-3);
  });

  it("the log shows every table lookup and is the same for the same file", async () => {
    const result = await playEncounter(parseEncounter(duel()), content);
    const log = formatLog(result, lookup);
    const attackLines = log.filter((l) => /table, .* armor: -?\d+ \(row/.test(l));
    expect(attackLines).toHaveLength(customs(result.events, "attackTable").length);
    expect(attackLines).toHaveLength(5);
    expect(log).toContain("  Sword table, ballistic armor: 185 (row 151–…) gives 23EP (CR-ATK-02, critical.attack.sword)");
    expect(log.filter((l) => /^ {2}Critical [A-E] /.test(l))).toHaveLength(2);
    expect(log.some((l) => l.includes("Critical E Puncture: 4 + 3 = 7: E 01-10 (CR-CRT-02, critical.crit.P 1-10)"))).toBe(true);
    expect(log.some((l) => l.includes("Open-ended roll: 98 + 37 = 135 (CR-ATK-01)"))).toBe(true);
    expect(log.some((l) => l.includes("185 is over 150: +3 to the critical roll (CR-ATK-04)"))).toBe(true);
    expect(log.some((l) => l.includes("Parry: 20 OB at 2:1 (missile) (CR-PAR-02)"))).toBe(true);
    expect(log.every((l) => !l.includes("FRAY."))).toBe(true);
    expect(formatLog(await playEncounter(parseEncounter(duel()), content), lookup)).toEqual(log);
  });

  it("plays to an end with seeded dice alone", async () => {
    for (const seed of [1, 2, 3]) {
      const result = await playEncounter(parseEncounter({ ...duel(), dice: [], rounds: [], seed, maxRounds: 30 }), content);
      expect(result.events.at(-1)?.type).toBe("end");
      const log = formatLog(result, lookup);
      expect(log.every((l) => !l.includes("FRAY."))).toBe(true);
    }
  });

  it("names the field of a bad Critical action", async () => {
    const bad = (round: Record<string, unknown>) => {
      const spec = duel();
      (spec.rounds as unknown[])[0] = round;
      return playEncounter(parseEncounter(spec), content);
    };
    await expect(bad({ kara: { parry: { ghost: 10 } } })).rejects.toMatchObject({
      key: "FRAY.Error.Field",
      data: { field: "rounds[0].kara.parry.ghost" },
    });
    await expect(bad({ kara: { treat: { method: "glue" } } })).rejects.toMatchObject({ data: { field: "rounds[0].kara.treat.method" } });
    await expect(bad({ kara: { delay: "nobody" } })).rejects.toMatchObject({ data: { field: "rounds[0].kara.delay" } });
    await expect(bad({ kara: { parry: { guard: 500 } } })).rejects.toMatchObject({ key: "FRAY.Error.ParryTooMuch" });
    const noPhysique = duel();
    (noPhysique.combatants as Record<string, unknown>[])[0]!.stats = { physique: { ranks: "many" } };
    expect(() => parseEncounter(noPhysique)).toThrow(
      expect.objectContaining({ data: expect.objectContaining({ field: "combatants[0].stats.physique.ranks" }) }),
    );
  });

  it("CR-INI-03: a delay moves a combatant later in the order, never earlier", async () => {
    const spec = duel();
    (spec.rounds as Record<string, Record<string, unknown>>[])[0]!.guard = { attack: "kara", weapon: "Service Pistol", delay: "kara" };
    const { events } = await playEncounter(
      parseEncounter({ ...spec, rounds: (spec.rounds as unknown[]).slice(0, 1), dice: [50, 80], maxRounds: 1 }),
      content,
    );
    expect(customs(events, "delay")[0]!.data).toMatchObject({ actor: "guard", after: "Kara Voss" });
    const attackers = events.filter((e) => e.type === "attack" && e.round === 1).map((e) => (e.type === "attack" ? e.attacker : ""));
    expect(attackers[0]).toBe("kara");
    const early = duel();
    (early.rounds as Record<string, Record<string, unknown>>[])[0]!.kara = { attack: "guard", delay: "guard" };
    await expect(playEncounter(parseEncounter({ ...early, dice: [50, 80] }), content)).rejects.toMatchObject({
      key: "FRAY.Error.ActEarlier",
    });
  });
});
