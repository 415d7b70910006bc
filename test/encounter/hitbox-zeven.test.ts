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
import type { HitboxAttackResult } from "../../src/rules/hitbox/index.js";
import { failingField } from "../support/encounter.js";

const root = join(import.meta.dirname, "..", "..");
const content = new ContentIndex(join(root, "packs", "_source"));
const file = () => parse(readFileSync(join(root, "examples", "hitbox-zeven.yaml"), "utf8")) as Record<string, unknown>;
const lang = (code: string) => JSON.parse(readFileSync(join(root, "lang", `${code}.json`), "utf8")) as Record<string, unknown>;
type Attack = Extract<EncounterEvent, { type: "attack" }>;
type Custom = Extract<EncounterEvent, { type: "custom" }>;

const play = () => playEncounter(parseEncounter(file()), content);
const attacks = (events: EncounterEvent[]) => events.filter((e): e is Attack => e.type === "attack");
const customs = (events: EncounterEvent[], kind: string) => events.filter((e): e is Custom => e.type === "custom" && e.kind === kind);
const values = (a: Attack) => [a.result.check.natural, ...a.result.check.modifiers.map((m) => m.value)];

const fieldOf = (raw: Record<string, unknown>) => failingField(raw, content);

describe("the Hitbox example encounter (seed 002)", () => {
  it("HB-ATK-01, HB-ATK-02, HB-ATK-03, HB-MOD-01, HB-MOD-03, HB-LOC-02: turn 1, 7 + 3 + 1 = 11, -2 called, +1 range, 10 against the guard's dodge 9, location 8 on the called-shot table", async () => {
    const result = await play();
    const [first] = attacks(result.events);
    expect(first).toMatchObject({ round: 1, attacker: "zeven", target: "guard" });
    expect(values(first!)).toEqual([7, 3, 1, -2, 1]);
    expect(first!.result.check.modifiers.map((m) => m.rule)).toEqual(["HB-ATK-02", "HB-ATK-02", "HB-MOD-03", "HB-MOD-01"]);
    expect(first!.result.check.total).toBe(10);
    const dodge = first!.result.reaction!;
    expect([dodge.check.natural, ...dodge.check.modifiers.map((m) => m.value), dodge.check.total]).toEqual([5, 3, 1, 9]);
    expect(first!.result.plan.difficulty.total).toBe(9);
    expect(first!.result.hit).toBe(true);
    const loc = (first!.result as HitboxAttackResult).location!;
    expect(loc).toMatchObject({ id: "leftLeg", called: "leftLeg", rule: "HB-LOC-02" });
    expect(loc.roll!.total).toBe(8);
  });

  it("HB-ACT-01, HB-ACT-03, HB-DMG-03: Zeven's shot pre-empts the run for the alarm; the leg hit drops the guard, who still yells and draws", async () => {
    const result = await play();
    const steps = customs(result.events, "hitbox.step").filter((e) => e.round === 1);
    expect(steps.map((s) => [s.data.actors, s.data.simultaneous])).toEqual([
      [["zeven"], 0],
      [["guard"], 1],
    ]);
    const damage = result.events.find((e) => e.type === "damage" && e.round === 1);
    expect(damage).toMatchObject({ target: "guard", report: { added: ["prone"] } });
    expect(customs(result.events, "hitbox.interrupted")).toMatchObject([{ round: 1, data: { actor: "guard" } }]);
    expect(
      customs(result.events, "hitbox.quick")
        .filter((e) => e.data.actor === "guard")
        .map((e) => (e.data.quick as { id: string }).id),
    ).toEqual(["communicate", "draw"]);
    expect(customs(result.events, "hitbox.move").filter((e) => e.data.actor === "guard")).toEqual([]);
  });

  it("HB-MOD-02, HB-MOD-04, HB-ACT-04, HB-MOD-03, HB-LOC-01: turn 2, 8 + 3 + 1 = 12 with -2 -1 +1 for 10 against 9; the guard's 11 and 10 with +1 and -2 for 10 and 9 against Zeven's dodge 9; left arm", async () => {
    const result = await play();
    const turn2 = attacks(result.events).filter((a) => a.round === 2);
    expect(turn2.map((a) => a.attacker)).toEqual(["zeven", "guard", "guard"]);
    const [zeven, shot1, shot2] = turn2 as [Attack, Attack, Attack];
    expect(values(zeven)).toEqual([8, 3, 1, -2, -1, 1]);
    expect(zeven.result.check.total).toBe(10);
    expect(zeven.result.reaction).toBeUndefined();
    expect(zeven.result.plan.difficulty.total).toBe(9);
    expect(customs(result.events, "hitbox.noReaction")).toMatchObject([
      { round: 2, data: { actor: "guard", reason: "FRAY.Reason.HitboxProne", rule: "HB-MOD-04" } },
    ]);
    expect((zeven.result as HitboxAttackResult).location).toMatchObject({ id: "head", called: "head" });
    // The guard's tests before circumstances: 11 and 10; with +1 range and -2 for two shots: 10 and 9.
    const subtotal = (a: Attack) =>
      a.result.check.natural + a.result.check.modifiers.filter((m) => m.rule === "HB-ATK-02").reduce((s, m) => s + m.value, 0);
    expect([subtotal(shot1), subtotal(shot2)]).toEqual([11, 10]);
    for (const s of [shot1, shot2])
      expect(s.result.check.modifiers.filter((m) => m.rule !== "HB-ATK-02").map((m) => m.value)).toEqual([-2, 1]);
    expect([shot1.result.check.total, shot2.result.check.total]).toEqual([10, 9]);
    const dodge = shot1.result.reaction!.check;
    expect([dodge.natural, ...dodge.modifiers.map((m) => m.value), dodge.total]).toEqual([5, 3, 1, 9]);
    expect(shot2.result.reaction!.check).toBe(dodge); // one dodge roll for the turn
    expect([shot1.result.hit, shot2.result.hit]).toEqual([true, false]);
    expect((shot1.result as HitboxAttackResult).location).toMatchObject({ id: "leftArm", rule: "HB-LOC-01" });
    expect(customs(result.events, "hitbox.limb")).toMatchObject([
      { round: 1, data: { actor: "guard", limb: "FRAY.Hitbox.leftLeg" } },
      { round: 2, data: { actor: "zeven", limb: "FRAY.Hitbox.leftArm" } },
    ]);
  });

  it("HB-DMG-04, HB-DMG-01, HB-RND-01: the blackout test at 10 against 12 puts the guard in shock; Zeven wins with a point on her left arm", async () => {
    const result = await play();
    const [blackout] = customs(result.events, "hitbox.blackout");
    const check = blackout!.data.check as { natural: number; modifiers: { value: number }[]; total: number };
    expect([check.natural, ...check.modifiers.map((m) => m.value), check.total]).toEqual([5, 3, 2, 10]);
    expect(blackout!.data).toMatchObject({ actor: "guard", difficulty: 12, passed: 0 });
    expect(result.winner).toBe("intruders");
    expect(result.rounds).toBe(2);
    const guard = result.combatants.find((c) => c.id === "guard")!;
    expect(guard.vitals.conditions).toEqual(expect.arrayContaining(["prone", "shock"]));
    expect(guard.vitals.hitboxes).toMatchObject({ head: { value: 1, max: 2 }, leftLeg: { value: 1, max: 2 }, torso: { value: 3, max: 3 } });
    expect(guard.vitals.armor).toEqual({ torso: { value: 1, max: 1 } });
    const zeven = result.combatants.find((c) => c.id === "zeven")!;
    expect(zeven.vitals.hitboxes).toMatchObject({ leftArm: { value: 1, max: 2 } });
    expect(zeven.vitals.conditions).toEqual(["prone"]);
    expect(customs(result.events, "hitbox.turn").map((e) => [e.data.from, e.data.to])).toEqual([
      [0, 5],
      [5, 10],
    ]);
    expect(result.dice.filter((d) => d.faces.length).map((d) => d.total)).toEqual([7, 5, 8, 8, 10, 8, 5, 4, 7, 5]);
  });

  it("HB-ATK-04: with the rules text for ties, both of the guard's shots hit Zeven", async () => {
    const raw = {
      ...file(),
      options: { hitboxReactionTies: "attacker" },
      dice: [3, 4, 2, 3, 4, 4, 4, 4, 5, 5, 4, 4, 1, 4, 1, 3, 3, 4, 1, 1, 2, 3],
    };
    const result = await playEncounter(parseEncounter(raw), content);
    expect(
      attacks(result.events)
        .filter((a) => a.attacker === "guard")
        .map((a) => a.result.hit),
    ).toEqual([true, true]);
  });

  it("HB-ATK-02, HB-LOC-02, HB-DMG-04: the English log prints the seed's numbers", async () => {
    const text = formatLog(await play(), nestedLookup(lang("en"))).join("\n");
    expect(text).toContain(
      "Zeven: 7 + 3 + 1 = 11 (Dexterity 3, Firearms 1); called shot (Left leg) -2, less than 20 ft away (15 ft) +1: 10 against Security Guard's Dodge 9: hit",
    );
    expect(text).toContain("Called-shot table: 8 (Left leg needs 8-12): Left leg (HB-LOC-02)");
    expect(text).toContain(
      "Zeven: 8 + 3 + 1 = 12 (Dexterity 3, Firearms 1); called shot (Head) -2, target prone -1, less than 20 ft away (15 ft) +1: 10 against 9: hit",
    );
    expect(text).toContain(
      "Security Guard (shot 1 of 2): 8 + 3 + 0 = 11 (Dexterity 3, Firearms 0); rapid fire (2 shots) -2, less than 20 ft away (15 ft) +1: 10 against Zeven's Dodge 9: hit",
    );
    expect(text).toContain(
      "Security Guard (shot 2 of 2): 7 + 3 + 0 = 10 (Dexterity 3, Firearms 0); rapid fire (2 shots) -2, less than 20 ft away (15 ft) +1: 9 against Zeven's Dodge 9: avoided",
    );
    expect(text).toContain("Regular table: 4: Left arm (HB-LOC-01)");
    expect(text).toContain("Security Guard: Blackout (Fortitude) 12 test: 5 + 3 + 2 = 10 (Fortitude 3, Blackout 2): fails");
    expect(text).toContain("Security Guard's action is interrupted");
    const de = formatLog(await play(), nestedLookup(lang("de"))).join("\n");
    expect(de).toContain("Zeven: 7 + 3 + 1 = 11 (Geschicklichkeit 3, Schusswaffen 1)");
    expect(de).not.toMatch(/FRAY\.Hitbox|FRAY\.Mod\.Hitbox|FRAY\.Step\.Hitbox/);
    expect(text).not.toMatch(/FRAY\.Hitbox|FRAY\.Mod\.Hitbox|FRAY\.Step\.Hitbox/);
  });

  it("HB-ACT-03: a weapon not in hand is drawn as a quick action with the attack", async () => {
    const raw = file();
    const rounds = raw.rounds as Record<string, Record<string, unknown>>[];
    rounds[0]!.guard = { run: 40, task: "reach the alarm button", quick: [{ communicate: "Help!" }] };
    const result = await playEncounter(parseEncounter(raw), content);
    const draws = customs(result.events, "hitbox.quick").filter((e) => (e.data.quick as { id: string }).id === "draw");
    expect(draws).toMatchObject([{ round: 2, data: { actor: "guard", quick: { id: "draw", item: "Duty Pistol" } } }]);
    expect(attacks(result.events).filter((a) => a.attacker === "guard")).toHaveLength(2);
  });

  it("HB-ATK-01, HB-MOD-03: bad Hitbox actions name their field", async () => {
    const withRound = (action: Record<string, unknown>) => ({ ...file(), rounds: [{ zeven: action }] });
    expect(await fieldOf(withRound({ attack: "guard", called: "torso" }))).toBe("rounds[0].zeven.called");
    expect(await fieldOf(withRound({ attack: "guard", shots: 0 }))).toBe("rounds[0].zeven.shots");
    expect(await fieldOf(withRound({ attack: "guard", feet: -5 }))).toBe("rounds[0].zeven.feet");
    expect(await fieldOf(withRound({ quick: ["sing"] }))).toBe("rounds[0].zeven.quick[0]");
    expect(await fieldOf(withRound({ attack: "guard", situation: { fog: true } }))).toBe("rounds[0].zeven.situation.fog");
    expect(await fieldOf(withRound({ attack: "guard", run: 40 }))).toBe("rounds[0].zeven.attack");
    expect(await fieldOf(withRound({ react: "block" }))).toBe("rounds[0].zeven.react");
    const badStats = {
      ...file(),
      combatants: [
        { id: "zeven", side: "a", stats: { abilities: { strength: 1 } } },
        { id: "guard", side: "b", ref: "hitbox-npcs/Security Guard" },
      ],
    };
    expect(await fieldOf(badStats)).toBe("combatants[0].stats.abilities.dexterity");
    expect(
      await fieldOf({
        ...file(),
        combatants: [
          { id: "zeven", side: "a", ref: "hitbox-npcs/Nobody" },
          { id: "guard", side: "b", ref: "hitbox-npcs/Security Guard" },
        ],
      }),
    ).toBe("combatants[0].ref");
  });
});
