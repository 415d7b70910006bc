/**
 * The forecast's input from a combat (src/foundry/logic/forecast-state.ts) on a stand-in UD10
 * combat: sides from token dispositions, the nearest enemy and its distance as the tactics, the
 * actors' current vitals and statuses carried, what is left out and what a fresh round cannot
 * carry; and the input played by the forecast.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContentIndex } from "../../src/encounter/content.js";
import { parseEncounter } from "../../src/encounter/schema.js";
import { PackContent } from "../../src/encounter/library.js";
import { forecast } from "../../src/forecast/forecast.js";
import { FrayError } from "../../src/rules/core/errors.js";
import type { ActorSource } from "../../src/rules/core/sources.js";
import { ud10, ud10CombatantFromActor } from "../../src/rules/ud10/index.js";
import { hitbox, hitboxCombatantFromActor } from "../../src/rules/hitbox/index.js";
import { critical, criticalCombatantFromActor } from "../../src/rules/critical/index.js";
import { zones, zonesCombatantFromActor } from "../../src/rules/zones/index.js";
import type { RulesetId } from "../../src/rules/core/types.js";
import type { ActionCost, Economy } from "../../src/rules/core/economy.js";
import { forecastWorker, type ForecastReply } from "../../src/foundry/forecast/worker.js";
import { DEFAULT_REACTIONS } from "../../src/encounter/tactics.js";
import { DRIVERS } from "../../src/encounter/drivers.js";
import { criticalDeclaredParry } from "../../src/foundry/rulesets/critical/declared-parry.js";
import {
  declaredAction,
  forecastExport,
  forecastInput,
  FORECAST_PACK,
  spentOf,
  type CombatSnapshot,
  type ForecastBinding,
} from "../../src/foundry/logic/forecast-state.js";

const root = join(import.meta.dirname, "..", "..");
const packs = new ContentIndex(join(root, "packs", "_source"));
const npc = (name: string) => packs.resolve(`ud10-npcs/${name}`, "test") as unknown as ActorSource;
const binding: ForecastBinding = {
  id: "ud10",
  combatantFromActor: ud10CombatantFromActor,
  ruleset: ud10 as unknown as ForecastBinding["ruleset"],
};

/** A hero (Veteran, wounded and prone) against a guard beside it and a thug 12 m off; a neutral, a defeated and an actorless combatant. */
function combat(): CombatSnapshot {
  const hero = npc("Veteran");
  hero.name = "Ayla <b>Brandt</b>";
  (hero.system as { hp: { value: number } }).hp.value = 9;
  hero.statuses = ["prone"];
  return {
    name: "Warehouse",
    ruleset: "ud10",
    options: ud10.defaults(),
    round: 2,
    combatants: [
      {
        id: "hero",
        name: "Ayla",
        actor: hero,
        disposition: 1,
        defeated: false,
        initiative: 14,
        economy: { slots: { action: { used: 1, max: 1 } }, pools: {} },
      },
      {
        id: "guard",
        name: "Guard",
        actor: npc("Guard"),
        disposition: -1,
        defeated: false,
        initiative: 9,
        economy: { slots: { action: { used: 0, max: 1 } }, pools: {} },
      },
      {
        id: "thug",
        name: "Thug",
        actor: npc("Thug"),
        disposition: -2,
        defeated: false,
        initiative: 11,
        declaration: { text: "shoots", action: "attack" },
      },
      { id: "bystander", name: "Clerk", actor: npc("Thug"), disposition: 0, defeated: false },
      { id: "fallen", name: "Fallen", actor: npc("Guard"), disposition: -1, defeated: true },
      { id: "marker", name: "Marker", disposition: -1, defeated: false },
    ],
    distances: { hero: { guard: 1.5, thug: 12 }, guard: { thug: 10.5 } },
  };
}

describe("forecast input from a combat", () => {
  it("UD-RND-02: sides from dispositions, the nearest enemy with its distance in metres, a ranged weapon beyond reach", () => {
    const input = forecastInput(combat(), binding);
    expect(parseEncounter(input.file).combatants.map((c) => [c.id, c.side])).toEqual([
      ["hero", "friendly"],
      ["guard", "hostile"],
      ["thug", "hostile"],
    ]);
    const [hero, guard, thug] = input.combatants;
    // The hero's nearest enemy is the guard one square away: it strikes with its knife, no range.
    expect(hero).toMatchObject({ target: "guard", metres: 1.5, ranged: false });
    expect((hero!.core as { weapons: { id: string; kind: string }[] }).weapons.find((w) => w.id === hero!.weapon)?.kind).toBe("melee");
    expect(parseEncounter(input.file).combatants[0]!.tactics).toEqual({ weapon: hero!.weapon });
    // The thug 12 m off shoots the hero from there with its pistol.
    expect(thug).toMatchObject({ target: "hero", metres: 12, ranged: true });
    // The file carries the tokens' distances: the drivers take the nearest standing enemy on
    // every attack, and a ranged attack's range is the distance to its target.
    expect(parseEncounter(input.file).distances).toEqual({ hero: { guard: 1.5, thug: 12 }, guard: { thug: 10.5 } });
    expect(guard).toMatchObject({ target: "hero", metres: 1.5, ranged: false });
    expect(input.tactics.target).toEqual(["declared", "engaged", "nearest", "first"]);
  });

  it("UD-DMG-04: the actor's current HP and statuses go into the forecast as they stand", async () => {
    const input = forecastInput(combat(), binding);
    expect(input.combatants[0]!.vitals.hp).toEqual({ value: 9, max: 22 });
    expect(input.combatants[0]!.vitals.conditions).toContain("prone");
    const doc = new PackContent(input.packs).resolve(parseEncounter(input.file).combatants[0]!.ref!, "ref");
    expect(parseEncounter(input.file).combatants[0]!.ref).toBe(`${FORECAST_PACK}/hero`);
    expect((doc.system as { hp: { value: number } }).hp.value).toBe(9);
    const result = await forecast(parseEncounter(input.file), new PackContent(input.packs), { runs: 40, seed: 7 });
    expect(result.runs).toBe(40);
    // Every fight starts from the hero's 9 HP, never from its full 22.
    const playedStart = await import("../../src/encounter/engine.js").then((m) =>
      m.playEncounter({ ...parseEncounter(input.file), seed: 7 }, new PackContent(input.packs)),
    );
    expect(playedStart.combatants[0]!.start?.hp).toEqual({ value: 9, max: 22 });
    expect(result.sides.map((s) => s.side)).toEqual(["friendly", "hostile"]);
  });

  it("UD-ACT-01: neutral, defeated and actorless combatants are left out; the round's spent economy is carried", () => {
    const input = forecastInput(combat(), binding);
    expect(input.left.map((l) => [l.id, l.reason])).toEqual([
      ["bystander", "neutral"],
      ["fallen", "defeated"],
      ["marker", "noActor"],
    ]);
    // The hero's action is spent: its entry pays it in the forecast's first round; the guard spent nothing.
    const file = parseEncounter(input.file);
    expect(file.combatants.map((c) => c.spent)).toEqual([{ slots: { action: 1 } }, undefined, undefined]);
    // The thug declared an attack: the forecast plays it as its tactics, nothing is left unread.
    expect(input.notCarried).toEqual([]);
    expect(file.rounds).toEqual([]);
  });

  it("UD-ACT-01: a declared action the forecast does not play is a first round waited; free text alone is listed", () => {
    const state = combat();
    state.combatants[2]!.declaration = { text: "reloads behind the crates", action: "reload" };
    state.combatants[1]!.declaration = { text: "yells for help" };
    const input = forecastInput(state, binding);
    expect(parseEncounter(input.file).rounds).toEqual([{ thug: { wait: true } }]);
    expect(input.combatants.map((c) => c.waits ?? false)).toEqual([false, false, true]);
    expect(input.notCarried).toEqual([{ id: "guard", name: "Guard", what: "declaration" }]);
    expect(declaredAction({ text: "strike", action: "attack" })).toBe("tactics");
    expect(declaredAction({ text: "", action: "parry" })).toBe("tactics");
    expect(declaredAction({ text: "", action: "staunch" })).toBe("wait");
    expect(declaredAction({ text: "moves up" })).toBe("none");
    // A Hitbox declaration still sealed in its whisper (HB-ACT-01) is listed as such.
    state.combatants[1]!.declaration = { text: "", sealed: true };
    expect(forecastInput(state, binding).notCarried).toEqual([{ id: "guard", name: "Guard", what: "sealed" }]);
  });

  it("UD-REA-02: each combatant reacts when the rules allow: a parry with a melee weapon in hand, else a dodge", () => {
    const file = parseEncounter(forecastInput(combat(), binding).file);
    expect(file.combatants.map((c) => [c.id, c.react])).toEqual([
      ["hero", "parry"],
      ["guard", "parry"],
      ["thug", "dodge"],
    ]);
    // Every ruleset's default reactions are ones its encounter driver accepts.
    for (const [ruleset, r] of Object.entries(DEFAULT_REACTIONS))
      expect(DRIVERS[ruleset as RulesetId]!.reactions).toEqual(expect.arrayContaining([r.melee, r.ranged]));
    expect(DEFAULT_REACTIONS.hitbox).toEqual({ melee: "parry", ranged: "dodge" });
  });

  it("UD-INI-01: the round's initiative is the first round's order; who has not rolled is listed", async () => {
    const input = forecastInput(combat(), binding);
    const file = parseEncounter(input.file);
    expect(file.initiative).toEqual({ hero: 14, guard: 9, thug: 11 });
    // The first round keeps that order (hero, thug, guard), logged as the combat stands.
    const played = await import("../../src/encounter/engine.js").then((m) =>
      m.playEncounter({ ...file, seed: 4 }, new PackContent(input.packs)),
    );
    const first = played.events.find((e) => e.type === "initiative" && e.round === 1);
    expect(first?.type === "initiative" && [first.order, first.kept]).toEqual([["hero", "thug", "guard"], true]);
    // The thug has not rolled yet: it rolls in each fight, and is listed.
    const state = combat();
    delete state.combatants[2]!.initiative;
    const unrolled = forecastInput(state, binding);
    expect(unrolled.file.initiative).toEqual({ hero: 14, guard: 9 });
    expect(unrolled.notCarried).toEqual([{ id: "thug", name: "Thug", what: "initiative" }]);
  });

  it("CR-AP-01: a spent economy becomes whole slot uses and pool points below the maximum, nothing when nothing is spent", () => {
    expect(spentOf({ slots: { action: { used: 1, max: 1 }, free: { used: 0, max: null } }, pools: { ap: { value: 1, max: 4 } } })).toEqual({
      slots: { action: 1 },
      pools: { ap: 3 },
    });
    expect(spentOf({ slots: { action: { used: 0, max: 1 } }, pools: { ap: { value: 4, max: 4 } } })).toBeUndefined();
    expect(spentOf({ slots: {}, pools: { speed: { value: -2, max: 1e9 } } })).toEqual({ pools: { speed: 1000 } });
    // ZN-MOV-04: a pool carried from round to round (Zones' effort) counts from what the actor
    // carries, the value the forecast's first round starts from: never paid twice.
    const effort = (value: number) => ({ slots: {}, pools: { effort: { value, max: 5 } } });
    expect(spentOf(effort(3), effort(3))).toBeUndefined();
    expect(spentOf(effort(1), effort(3))).toEqual({ pools: { effort: 2 } });
  });

  it("UD-DMG-04: a combatant out by its vitals is left out, and one side alone is refused naming the field", () => {
    const state = combat();
    const guard = state.combatants[1]!.actor!;
    (guard.system as { hp: { value: number } }).hp.value = -30;
    state.combatants[2]!.disposition = 0;
    let error: unknown;
    try {
      forecastInput(state, binding);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FrayError);
    expect((error as FrayError).key).toBe("FRAY.Error.Input.Sides");
    expect((error as FrayError).data.field).toBe("combatants");
  });

  /** Each other ruleset: its core, actor translation and two of its compendium NPCs. */
  const OTHERS: [string, RulesetId, ForecastBinding, string, string][] = [
    [
      "HB-DMG-01",
      "hitbox",
      { id: "hitbox", combatantFromActor: hitboxCombatantFromActor as never, ruleset: hitbox as never },
      "hitbox-npcs/Security Guard",
      "hitbox-npcs/Street Tough",
    ],
    [
      "CR-BLD-01",
      "critical",
      { id: "critical", combatantFromActor: criticalCombatantFromActor as never, ruleset: critical as never },
      "critical-npcs/Pistol Guard",
      "critical-npcs/Sword Fighter",
    ],
    [
      "ZN-ZON-02",
      "zones",
      { id: "zones", combatantFromActor: zonesCombatantFromActor as never, ruleset: zones as never },
      "zones-npcs/Perimeter Sentry",
      "zones-npcs/Street Enforcer",
    ],
  ];
  /** What combatant A already spent of the round under way, by ruleset (HB-RND-01, CR-AP-01, ZN-ACT-01). */
  const SPENT: Record<string, { economy: Economy; spent: ActionCost }> = {
    hitbox: { economy: { slots: { action: { used: 1, max: 1 } }, pools: {} }, spent: { slots: { action: 1 } } },
    // (Critical: stunned, A has 2 AP a round, CR-STN-01; it spent 1 of them.)
    critical: { economy: { slots: {}, pools: { ap: { value: 1, max: 2 } } }, spent: { pools: { ap: 1 } } },
    // (Zones: effort carried at the actor's 1 of 2, nothing of it spent this round, ZN-MOV-04.)
    zones: {
      economy: { slots: { action: { used: 1, max: 2 } }, pools: { effort: { value: 1, max: 2 } } },
      spent: { slots: { action: 1 } },
    },
  };
  it.each(OTHERS)("%s: a %s combat becomes an input the forecast plays from the actors as they stand", async (_rule, ruleset, b, a, e) => {
    const doc = (ref: string) => packs.resolve(ref, "test") as unknown as ActorSource;
    const first = doc(a);
    // Zones: A spent one of its two effort points in an earlier round (ZN-MOV-04).
    if (ruleset === "zones") (first.system as { effort: { value: number } }).effort.value = 1;
    // Critical: A bleeds 3 hits a round from an earlier blow, stunned for a round (CR-BLD-01, CR-STN-02).
    if (ruleset === "critical")
      Object.assign(first.system as object, {
        hits: { value: 20, max: 48 },
        stun: 1,
        effects: [{ id: "bleed-1", kind: "bleed", rule: "CR-BLD-01", label: "FRAY.Critical.Effect.bleed", value: 3, location: "chest" }],
      });
    const input = forecastInput(
      {
        name: "Yard",
        ruleset,
        options: b.ruleset === hitbox ? hitbox.defaults() : b.ruleset === critical ? critical.defaults() : zones.defaults(),
        round: 1,
        combatants: [
          { id: "a", name: "A", actor: first, disposition: 1, defeated: false, economy: SPENT[ruleset]!.economy },
          { id: "e", name: "E", actor: doc(e), disposition: -1, defeated: false },
        ],
        distances: { a: { e: 9 } },
      },
      b,
    );
    expect(input.combatants.map((c) => [c.side, c.target, c.metres])).toEqual([
      ["friendly", "e", 9],
      ["hostile", "a", 9],
    ]);
    const result = await forecast(parseEncounter(input.file), new PackContent(input.packs), { runs: 20, seed: 3 });
    expect(result.runs).toBe(20);
    const played = await import("../../src/encounter/engine.js").then((m) =>
      m.playEncounter({ ...parseEncounter(input.file), seed: 3 }, new PackContent(input.packs)),
    );
    expect(played.combatants.map((c) => c.start)).toEqual(input.combatants.map((c) => b.ruleset.vitals(c.core as never)));
    if (ruleset === "critical") expect(played.combatants[0]!.start).toMatchObject({ hp: { value: 20 }, bleeding: 3, stun: 1 });
    // What A spent of the round under way is paid in the first round.
    expect(parseEncounter(input.file).combatants[0]!.spent).toEqual(SPENT[ruleset]!.spent);
    // The tracker's worker gives the same forecast for the same state and seed.
    const replies: ForecastReply[] = [];
    await forecastWorker((r) => replies.push(r))(
      structuredClone({ type: "run" as const, id: "t", file: input.file, packs: input.packs, runs: 20, seed: 3, progressEvery: 10 }),
    );
    const done = replies.at(-1);
    expect(done?.type === "done" && done.forecast).toEqual(result);
  });

  /** One state per ruleset: A (wounded, its round partly spent) against E 9 m off. */
  const STATES: [string, RulesetId, ForecastBinding, string, string][] = [
    ["UD-ACT-01", "ud10", binding, "ud10-npcs/Veteran", "ud10-npcs/Thug"],
    ...OTHERS,
  ];
  it.each(STATES)(
    "%s: a %s combat saved from the tracker plays to the worker's numbers in npm run forecast",
    async (_rule, ruleset, b, a, e) => {
      const doc = (ref: string) => packs.resolve(ref, "test") as unknown as ActorSource;
      const input = forecastInput(
        {
          name: "Yard <b>7</b>",
          ruleset,
          options: {},
          round: 2,
          combatants: [
            { id: "a", name: "A", actor: doc(a), disposition: 1, defeated: false, economy: SPENT[ruleset]?.economy },
            { id: "e", name: "E", actor: doc(e), disposition: -1, defeated: false },
            { id: "f", name: "F", actor: doc(e), disposition: -1, defeated: false },
          ],
          distances: { a: { e: 9, f: 4 } },
        },
        b,
      );
      const saved = forecastExport(input, { runs: 30, seed: 11 });
      expect(saved.file.seed).toBe(11);
      const dir = mkdtempSync(join(tmpdir(), "fray-saved-"));
      writeFileSync(join(dir, "combat.json"), JSON.stringify(saved));
      // As `npm run forecast` runs it (bundled), in one thread and, for UD10, in two worker threads.
      const workers = ruleset === "ud10" ? "2" : "1";
      execFileSync(
        process.execPath,
        [
          join(root, "scripts", "bundled.mjs"),
          "scripts/forecast.ts",
          join(dir, "combat.json"),
          "--workers",
          workers,
          "--json",
          join(dir, "f.json"),
        ],
        { cwd: root, encoding: "utf8" },
      );
      const cli = JSON.parse(readFileSync(join(dir, "f.json"), "utf8")) as unknown;
      const replies: ForecastReply[] = [];
      await forecastWorker((r) => replies.push(r))(
        structuredClone({ type: "run" as const, id: "t", file: input.file, packs: input.packs, runs: 30, seed: 11, progressEvery: 10 }),
      );
      const done = replies.at(-1);
      expect(done?.type).toBe("done");
      expect(cli).toEqual(JSON.parse(JSON.stringify(done?.type === "done" ? done.forecast : null)));
      expect((cli as { runs: number; seed: number }).runs).toBe(30);
    },
    30_000,
  );

  it("UD-ACT-01: npm run forecast names the field of a saved combat whose documents are not pairs of pack and documents", () => {
    const dir = mkdtempSync(join(tmpdir(), "fray-saved-"));
    writeFileSync(join(dir, "bad.json"), JSON.stringify({ format: "fray-forecast", file: {}, packs: "combat", runs: 5 }));
    let stderr = "";
    try {
      execFileSync(process.execPath, [join(root, "scripts", "bundled.mjs"), "scripts/forecast.ts", join(dir, "bad.json")], {
        cwd: root,
        encoding: "utf8",
        stdio: "pipe",
      });
    } catch (error) {
      stderr = String((error as { stderr?: string }).stderr);
    }
    expect(stderr).toContain("packs");
  });

  it("CR-PAR-01: a parry declared this round (OB by foe token) is played in the first round by the foes' combatant ids", async () => {
    const doc = (ref: string) => packs.resolve(ref, "test") as unknown as ActorSource;
    const b: ForecastBinding = {
      id: "critical",
      combatantFromActor: criticalCombatantFromActor as never,
      ruleset: critical as never,
      declaredParry: criticalDeclaredParry as never,
    };
    /** A sword fighter (token t-a) whose actor carries `split` against a pistol guard (token t-e) 2 m off. */
    const withSplit = (split: Record<string, number>) => {
      const sword = doc("critical-npcs/Sword Fighter");
      (sword.system as { parry: Record<string, number> }).parry = split;
      return forecastInput(
        {
          name: "Yard",
          ruleset: "critical",
          options: critical.defaults(),
          round: 1,
          combatants: [
            { id: "a", tokenId: "t-a", name: "A", actor: sword, disposition: 1, defeated: false },
            { id: "e", tokenId: "t-e", name: "E", actor: doc("critical-npcs/Pistol Guard"), disposition: -1, defeated: false },
          ],
          distances: { a: { e: 2 } },
        },
        b,
      );
    };
    const parryNotes = (input: ReturnType<typeof forecastInput>) => input.notCarried.filter((n) => n.what === "parry");
    // 20 OB moved into its DB against the enemy of token t-e: played by combatant id.
    const input = withSplit({ "t-e": 20 });
    expect(parseEncounter(input.file).rounds).toEqual([{ a: { parry: { e: 20 } } }]);
    expect(parryNotes(input)).toEqual([]);
    // The first round's log shows the declared split, not the default one (half the OB).
    const played = await import("../../src/encounter/engine.js").then((m) =>
      m.playEncounter({ ...parseEncounter(input.file), seed: 5 }, new PackContent(input.packs)),
    );
    const declared = played.events.find((e) => e.type === "custom" && e.kind === "declare" && e.data.actor === "a" && e.round === 1);
    expect(declared?.type === "custom" && declared.data.parry).toEqual([{ foe: "E", ob: 20 }]);
    // 10 more against a token not in the combat would come back to its attack; 500 OB is more
    // than it has (its weapons changed since): neither split is carried, both are listed.
    for (const split of [{ "t-e": 20, "t-gone": 10 }, { "t-e": 500 }] as Record<string, number>[]) {
      const refused = withSplit(split);
      expect(parseEncounter(refused.file).rounds).toEqual([]);
      expect(parryNotes(refused)).toEqual([{ id: "a", name: "A", what: "parry" }]);
    }
  });
});
