/**
 * A forecast plays its attacks quietly (`src/rules/core/quiet.ts`, `RoundEngine.quietAttack`)
 * where the ruleset can: every fight must end exactly as the detailed fight with the same seed
 * (the winner, the rounds, each combatant's vitals and whether it is out). UD10 rules checked
 * along the way: UD-ATK-02, UD-REA-03, UD-ZON-01, UD-DMG-04, UD-ATK-04 (aim spent by the shot);
 * Hitbox's, whose attacks resolve in simultaneous steps with held damage: HB-ACT-01, HB-ATK-03
 * (one reaction a turn), HB-LOC-01, HB-DMG-01, HB-DMG-04 (Blackout tests at the step's end);
 * Critical's, whose fumble ends the attacker's round and whose stun and knock-outs cut the AP:
 * CR-ATK-01, CR-ATK-02, CR-CRT-02, CR-AP-02, CR-HIT-02, CR-STN-01; Zones', whose bursts spend
 * ammunition bullet by bullet and whose blows meet a dodge or a block: ZN-BST-01, ZN-MAL-01,
 * ZN-MEL-03, ZN-MEL-04, ZN-ZON-01, ZN-ZON-02, ZN-VIT-01, ZN-RNG-07 (aim spent by the shot).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CombatantCache } from "../../src/encounter/common.js";
import { ContentIndex } from "../../src/encounter/content.js";
import { playEncounter } from "../../src/encounter/engine.js";
import { parseEncounter, type EncounterSpec } from "../../src/encounter/schema.js";
import type { EncounterResult } from "../../src/encounter/types.js";
import { RoundEngine } from "../../src/rules/core/round.js";
import { ScriptedRoller, SeededRoller } from "../../src/rules/core/dice/port.js";
import { FrayError } from "../../src/rules/core/errors.js";
import type { ActorSource } from "../../src/rules/core/sources.js";
import { ud10, ud10CombatantFromActor } from "../../src/rules/ud10/index.js";

const root = join(import.meta.dirname, "..", "..");
const content = new ContentIndex(join(root, "packs", "_source"));
const load = (file: string): EncounterSpec => parseEncounter(parse(readFileSync(join(root, "examples", file), "utf8")));

/** A Zones fight at close quarters: a grenade, a squib load and the shot behind it, batons against dodges and blocks. */
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
    tactics: { weapon: Collapsible Baton, range: 1 }
  - id: sentry
    ref: zones-npcs/Perimeter Sentry
    side: a
    react: none
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
    sentry: { attack: breach, weapon: Harrow Carbine, mode: burst, range: 20, situation: { malfunction: { kind: squibLoad, afterBullets: 1 } } }
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

describe("quiet fights", () => {
  /** Each example with the rules its fights play, quiet and detailed. */
  const examples: [string, string][] = [
    ["ud10-skirmish.yaml", "UD-ATK-02, UD-REA-03, UD-DMG-04"],
    ["ud10-ambush.yaml", "UD-ATK-02, UD-REA-03, UD-DMG-04"],
    ["hitbox-skirmish.yaml", "HB-ACT-01, HB-ATK-03, HB-LOC-01, HB-DMG-01, HB-DMG-04"],
    ["hitbox-zeven.yaml", "HB-ACT-01, HB-ATK-03, HB-LOC-01, HB-DMG-01, HB-DMG-04"],
    ["critical-skirmish.yaml", "CR-ATK-01, CR-ATK-02, CR-CRT-02, CR-AP-02, CR-HIT-02, CR-STN-01"],
    ["critical-duel.yaml", "CR-ATK-01, CR-ATK-02, CR-CRT-02, CR-AP-02, CR-HIT-02, CR-STN-01"],
    ["zones-skirmish.yaml", "ZN-RNG-08, ZN-BST-01, ZN-ZON-01, ZN-ZON-02, ZN-VIT-01"],
    ["zones-burst.yaml", "ZN-RNG-08, ZN-BST-01, ZN-ZON-01, ZN-ZON-02, ZN-VIT-01"],
  ];
  for (const [file, rules] of examples) {
    it(`${file}: each quiet fight ends as the detailed fight with its seed (${rules})`, async () => {
      const spec = load(file);
      const combatants = new CombatantCache();
      for (let seed = 1; seed <= 60; seed++) {
        const quiet = await playEncounter({ ...spec, seed }, content, undefined, { quiet: true, combatants });
        const detailed = await playEncounter({ ...spec, seed }, content);
        expect(outcome(quiet)).toEqual(outcome(detailed));
      }
    });
  }

  it("Zones at close quarters: each quiet fight ends as the detailed fight with its seed (ZN-GRN-01, ZN-MAL-01 squib load and catastrophic failure, ZN-MEL-03, ZN-MEL-04, ZN-BST-01)", async () => {
    // A grenade, a squib load and the shot behind it, blows met by a dodge or a block.
    const spec = parseEncounter(parse(CLOSE_QUARTERS));
    const combatants = new CombatantCache();
    for (let seed = 1; seed <= 60; seed++) {
      const quiet = await playEncounter({ ...spec, seed }, content, undefined, { quiet: true, combatants });
      const detailed = await playEncounter({ ...spec, seed }, content);
      expect(outcome(quiet)).toEqual(outcome(detailed));
    }
  });

  it("UD-ATK-04: the engine's quiet attack pays and settles as its detailed attack, and refuses what it refuses", async () => {
    // Two engines on the same combatants and the same seed: one attack each, detailed and quiet.
    const a = { ...ud10Fighter("a"), conditions: ["aiming1"] };
    const b = ud10Fighter("b");
    const entries = [
      { id: "a", side: "x", combatant: a },
      { id: "b", side: "y", combatant: b },
    ];
    const options = { ...ud10.defaults(), bodyZones: true, buffer: true };
    for (let seed = 1; seed <= 40; seed++) {
      const one = new RoundEngine(ud10, entries, new SeededRoller(seed), { options, maxRounds: 3 });
      const two = new RoundEngine(ud10, entries, new SeededRoller(seed), { options, maxRounds: 3 });
      for (const e of [one, two]) {
        e.nextRound();
        e.startRound();
      }
      const request = { attackerId: "a", targetId: "b", weaponId: a.weapons[0]!.id, distanceMetres: 1.5 };
      const react = () => "parry";
      const d = await one.attack(request, { react });
      const q = await two.quietAttack(request, { react });
      expect(q!.attack.hit).toBe(d!.step.result.hit);
      expect(q!.attack.lands).toBe(d!.step.result.lands);
      for (const id of ["a", "b"]) {
        expect(two.get(id).combatant).toEqual(one.get(id).combatant);
        expect(two.get(id).economy).toEqual(one.get(id).economy);
      }
      // The attack is spent: a second one is refused by both.
      expect(await two.quietAttack(request)).toBeUndefined();
      expect(await one.attack(request)).toBeUndefined();
    }
    // A roller without a face source cannot play quietly.
    const plain = new RoundEngine(ud10, entries, { roll: (f) => new ScriptedRoller([5, 5, 5]).roll(f) }, { options, maxRounds: 1 });
    expect(plain.canQuiet).toBe(false);
    await expect(plain.quietAttack({ attackerId: "a", targetId: "b", weaponId: a.weapons[0]!.id })).rejects.toBeInstanceOf(FrayError);
  });
});

/** A UD10 fighter of the packs (the Veteran attacks, the Guard defends), its melee weapon first. */
function ud10Fighter(id: "a" | "b") {
  const file = id === "a" ? "Veteran_fRn1VeteranNpc03.json" : "Guard_fRn1GuardNpc0001.json";
  const doc = JSON.parse(readFileSync(join(root, "packs", "_source", "ud10-npcs", file), "utf8")) as ActorSource;
  const c = ud10CombatantFromActor(doc, { id });
  return { ...c, weapons: [...c.weapons].sort((x, y) => Number(y.kind === "melee") - Number(x.kind === "melee")) };
}
