/**
 * What lets a Zones forecast play at once: the synchronous initiative (`rollInitiativeSync`)
 * against `rollInitiative` (ZN-INI-01, ZN-INI-02: the same roll from the same die, the same
 * leader of a group, the same errors, the dice left at the same place); the attack's cost the
 * driver pays without asking for the action list (ZN-ACT-02); and the Zones driver's quiet fight
 * with dice that roll at once against the same fight with dice that only roll with a promise
 * (the same outcome, ZN-INI-01, ZN-BST-01, ZN-MEL-03, ZN-MEL-04, ZN-MAL-01, ZN-GRN-01); and the
 * copies of weapon and combatant states the quiet step and `afterShot` build (every field, in the
 * parser's order, ZN-BST-01, ZN-ZON-02).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CombatantCache } from "../../src/encounter/common.js";
import { ContentIndex } from "../../src/encounter/content.js";
import { playEncounter } from "../../src/encounter/engine.js";
import { parseEncounter, type EncounterSpec } from "../../src/encounter/schema.js";
import type { EncounterResult } from "../../src/encounter/types.js";
import { SeededRoller } from "../../src/rules/core/dice/port.js";
import { FrayError } from "../../src/rules/core/errors.js";
import { RoundEngine } from "../../src/rules/core/round.js";
import type { ActorSource, ItemSource } from "../../src/rules/core/sources.js";
import {
  ATTACK_COST,
  copyCombatant,
  copyWeapon,
  parseWeapon,
  rollInitiativeSync,
  zones,
  zonesCombatantFromActor,
  zonesWeaponFromItem,
  type ZonesCombatant,
} from "../../src/rules/zones/index.js";
import { promiseOnlyRoller } from "../support/dice.js";
import { packSources } from "../support/sources.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const packs = join(root, "packs", "_source");
const npcs = packSources<ActorSource>("zones-npcs");
const weapons = packSources<ItemSource>("zones-weapons").map(zonesWeaponFromItem);
const grenade = weapons.find((w) => w.kind === "grenade")!;

/** A combatant of the packs with its initiative modifiers changed; effort committed may exceed the points. */
const member = (id: string) =>
  fc
    .record({
      npc: fc.integer({ min: 0, max: npcs.length - 1 }),
      DEX: fc.integer({ min: -2, max: 4 }),
      bonus: fc.integer({ min: -2, max: 3 }),
      committed: fc.integer({ min: 0, max: 5 }),
      effort: fc.integer({ min: 0, max: 4 }),
      kind: fc.constantFrom("character" as const, "npc" as const),
    })
    .map(({ npc, DEX, bonus, committed, effort, kind }): ZonesCombatant => {
      const c = zonesCombatantFromActor(npcs[npc]! as never, { id, group: "g" });
      return {
        ...c,
        kind,
        attributes: { ...c.attributes, DEX },
        initiativeBonus: bonus,
        initiativeEffort: committed,
        effort: { ...c.effort, value: effort },
      };
    });

/** The error key a call throws, or its value. */
const settle = async <T>(run: () => T | Promise<T>): Promise<T | string> => {
  try {
    return await run();
  } catch (error) {
    if (error instanceof FrayError) return error.key;
    throw error;
  }
};

describe("Zones synchronous initiative", () => {
  it("ZN-INI-01, ZN-INI-02: rollInitiativeSync rolls as rollInitiative: same roll, leader, errors, dice left alike", async () => {
    let groups = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(member("m"), { maxLength: 3 }), fc.integer(), async (members, seed) => {
        const one = new SeededRoller(seed);
        const two = new SeededRoller(seed);
        const a = await settle(() => zones.rollInitiative(members, one));
        const s = await settle(() => rollInitiativeSync(members, two));
        expect(s).toEqual(a);
        // The total is the d10 and the lines shown (ZN-INI-01, ZN-INI-02).
        if (typeof s !== "string") expect(s.total).toBe(s.check.natural + s.check.modifiers.reduce((t, m) => t + m.value, 0));
        if (typeof a === "string") refused++;
        else if (members.length > 1) groups++;
        expect(two.rollSync("1d100").total).toBe(one.rollSync("1d100").total);
      }),
      { numRuns: 400 },
    );
    // Both branches met: groups led by their best member, and rolls refused.
    expect(groups).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });

  it("ZN-INI-01: the round engine rolls Zones initiative at once with dice that roll so, as with a promise", async () => {
    const entries = npcs.map((n, i) => ({
      id: `c${i}`,
      side: i % 2 ? "a" : "b",
      combatant: zonesCombatantFromActor(n as never, { id: `c${i}`, group: "g" }),
    }));
    for (let seed = 1; seed <= 20; seed++) {
      const config = { options: zones.defaults(), maxRounds: 3 };
      const sync = new RoundEngine(zones, entries, new SeededRoller(seed), config);
      const promised = new RoundEngine(zones, entries, promiseOnlyRoller(seed), config);
      for (const engine of [sync, promised]) {
        engine.nextRound();
        engine.startRound();
      }
      expect(await sync.rollInitiative()).toEqual(await promised.rollInitiative());
      // No forced check to roll: quiet attacks, which read faces only, play at once with either dice.
      expect([sync.canQuietSync, promised.canQuietSync]).toEqual([true, true]);
    }
  });
});

describe("Zones state copies", () => {
  it("ZN-BST-01, ZN-ZON-02: copyWeapon and copyCombatant carry every field, in the parser's order, as new objects", () => {
    const thrown = parseWeapon({ name: "Hatchet", kind: "thrown", effectiveRange: 10, damage: "1d6", thrown: true });
    for (const w of [...weapons, thrown]) {
      const copy = copyWeapon(w);
      expect(copy).not.toBe(w);
      expect(copy).toStrictEqual(w);
      expect(Object.keys(copy)).toEqual(Object.keys(w));
    }
    expect(copyWeapon(thrown).thrown).toBe(true);
    for (const n of npcs) {
      const c = zonesCombatantFromActor(n as never, { id: "c", group: "g" });
      const copy = copyCombatant(c);
      expect(copy).not.toBe(c);
      expect(copy).toStrictEqual(c);
      expect(Object.keys(copy)).toEqual(Object.keys(c));
    }
  });
});

describe("Zones attack cost", () => {
  it("ZN-ACT-02: every combatant's attack costs ATTACK_COST (the action), with or without a grenade, under every option", () => {
    const options = [zones.defaults(), { ...zones.defaults(), moveTakesAction: true }, { ...zones.defaults(), speedRecovery: "round" }];
    for (const n of npcs) {
      const c = zonesCombatantFromActor(n as never, { id: "c", group: "g" });
      const armed = { ...c, weapons: [...c.weapons.filter((w) => w.kind !== "grenade"), grenade] };
      const unarmed = { ...c, weapons: c.weapons.filter((w) => w.kind !== "grenade") };
      for (const o of options)
        for (const who of [armed, unarmed]) expect(zones.actions(who, o).find((a) => a.id === "attack")?.cost).toEqual(ATTACK_COST);
    }
    expect(ATTACK_COST).toEqual({ slots: { action: 1 } });
  });
});

/** A Zones fight at close quarters: a grenade, a squib load and the shot behind it, blows met by a dodge or a block. */
const CLOSE_QUARTERS = `
name: Close Quarters
ruleset: zones
seed: 11
maxRounds: 12
combatants:
  - id: enf-a
    ref: zones-npcs/Street Enforcer
    side: a
    react: defend
    tactics: { weapon: Collapsible Baton, range: 1, effort: 1 }
  - id: sentry
    ref: zones-npcs/Perimeter Sentry
    side: a
    react: none
    surprised: true
    tactics: { weapon: Fieldcraft Knife, range: 1 }
  - id: enf-b
    ref: zones-npcs/Street Enforcer
    side: b
    react: defend
    tactics: { weapon: Collapsible Baton, range: 1 }
  - id: breach
    ref: zones-npcs/Breacher
    side: b
    react: block
    tactics: { weapon: Breaker Pump Shotgun, range: 8 }
rounds:
  - breach: { attack: enf-a, weapon: Hornet Fragmentation Grenade, range: 10 }
  - sentry: { attack: breach, weapon: Harrow Carbine, mode: burst, range: 20, situation: { malfunction: { kind: squibLoad, afterBullets: 1 } } }
  - sentry: { attack: breach, weapon: Harrow Carbine, mode: burst, range: 20 }
    enf-a: { attack: enf-b, weapon: Warden 9 Pistol, range: 6, situation: { malfunction: { kind: stovepipe, afterBullets: 1 } } }
  - enf-a: { clear: true }
`;

/** What a forecast reads of a fight. */
const outcome = (r: EncounterResult) => ({
  winner: r.winner,
  rounds: r.rounds,
  combatants: r.combatants.map((c) => ({ id: c.id, out: c.out, vitals: c.vitals })),
});

describe("the Zones driver's quiet fight", () => {
  const content = new ContentIndex(packs);
  const load = (file: string): EncounterSpec => parseEncounter(parse(readFileSync(join(root, "examples", file), "utf8")));
  const specs: [string, EncounterSpec][] = [
    ["zones-skirmish.yaml", load("zones-skirmish.yaml")],
    ["zones-burst.yaml", load("zones-burst.yaml")],
    ["close quarters", parseEncounter(parse(CLOSE_QUARTERS))],
  ];
  for (const [name, spec] of specs) {
    it(`${name}: played at once, each fight ends as with dice that roll with a promise, and as in detail (ZN-INI-01, ZN-INI-02, ZN-SUR-01, ZN-BST-01, ZN-MEL-03, ZN-MEL-04, ZN-MAL-01, ZN-GRN-01)`, async () => {
      const combatants = new CombatantCache();
      const winners = new Set<string | null>();
      for (let seed = 1; seed <= 40; seed++) {
        const fight = { ...spec, seed };
        const sync = await playEncounter(fight, content, new SeededRoller(seed), { quiet: true, combatants });
        const promised = await playEncounter(fight, content, promiseOnlyRoller(seed), { quiet: true, combatants });
        const detailed = await playEncounter(fight, content, new SeededRoller(seed));
        expect(outcome(sync)).toEqual(outcome(promised));
        expect(outcome(sync)).toEqual(outcome(detailed));
        winners.add(sync.winner);
      }
      expect(winners.size).toBeGreaterThan(0);
    });
  }
});
