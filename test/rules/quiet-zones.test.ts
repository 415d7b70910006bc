/**
 * Zones' quiet attack step against the detailed one: for any seed and situation, the same faces
 * give the same outcome (hit, bullets fired and hit, the dodge or block, hit zones, damage, the
 * target after, rounds spent, a malfunction, a squib load's catastrophic failure, a grenade's
 * deviation), the same errors, and leave the dice at the same place (ZN-RNG-01 to ZN-RNG-08,
 * ZN-THR-01, ZN-BST-01, ZN-MAL-01, ZN-MEL-01 to ZN-MEL-04, ZN-ZON-01 to ZN-ZON-03, ZN-VIT-01 to
 * ZN-VIT-04, ZN-DMG-01, ZN-GRN-01); and what follows the attack for the shooter (aim spent,
 * ammunition, a thrown weapon gone) is the same (ZN-RNG-07, ZN-BST-01, ZN-MAL-01, ZN-THR-01).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SeededRoller, seededSource } from "../../src/rules/core/dice/port.js";
import { createEconomy, spend } from "../../src/rules/core/economy.js";
import { FrayError } from "../../src/rules/core/errors.js";
import { isQuiet, QUIET_ATTACK_FIELDS } from "../../src/rules/core/quiet.js";
import type { ActorSource, ItemSource } from "../../src/rules/core/sources.js";
import {
  DAMAGE_TYPES,
  HIT_ZONES,
  MALFUNCTIONS,
  MOVEMENTS,
  SIZES,
  STANCES,
  quietAfterAttack,
  roundEconomy,
  zones,
  zonesArmorFromItem,
  zonesCombatantFromActor,
  zonesWeaponFromItem,
  type ZonesAttackInput,
  type ZonesAttackResult,
  type ZonesCombatant,
  type ZonesDamagePacket,
  type ZonesQuietAttack,
} from "../../src/rules/zones/index.js";
import { economy as economyOf } from "../../src/rules/zones/turn.js";

const packs = fileURLToPath(new URL("../../packs/_source", import.meta.url));
const read = <T>(dir: string) =>
  readdirSync(join(packs, dir))
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(join(packs, dir, f), "utf8")) as T);
const npcs = read<ActorSource>("zones-npcs");
const weapons = read<ItemSource>("zones-weapons").map(zonesWeaponFromItem);
const armors = read<ItemSource>("zones-armor").map(zonesArmorFromItem);

const CONDITIONS = ["surprised", "unaware", "bound", "incapacitated", "unconscious", "dead"];

/** `arb` now and then (one time in `odds`), else absent. */
const sometimes = <T>(arb: fc.Arbitrary<T>, odds = 6) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: odds - 1 }, { arbitrary: arb, weight: 1 });

/**
 * A combatant of the packs with a weapon of the packs added, its weapons in any state (rounds
 * loaded, drawn, a malfunction, broken), armor of the packs, and its HP, stance, movement, aim,
 * attributes and conditions changed.
 */
const combatant = (id: string) =>
  fc
    .record({
      npc: fc.integer({ min: 0, max: npcs.length - 1 }),
      extra: fc.integer({ min: 0, max: weapons.length - 1 }),
      state: fc.array(
        fc.record({
          loaded: fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
          undrawn: fc.integer({ min: 0, max: 19 }),
          malfunction: sometimes(fc.constantFrom(...MALFUNCTIONS), 12),
          broken: fc.integer({ min: 0, max: 39 }),
        }),
        { minLength: 4, maxLength: 4 },
      ),
      armor: fc.subarray(armors, { maxLength: 3 }),
      hp: fc.integer({ min: -3, max: 40 }),
      stance: fc.constantFrom(...STANCES),
      movement: fc.constantFrom(...MOVEMENTS),
      aim: fc.integer({ min: 0, max: 3 }),
      attributes: fc.array(fc.integer({ min: -2, max: 3 }), { minLength: 4, maxLength: 4 }),
      dodge: fc.integer({ min: 0, max: 4 }),
      conditions: fc.oneof(
        { arbitrary: fc.constant<string[]>([]), weight: 6 },
        { arbitrary: fc.subarray(CONDITIONS, { maxLength: 2 }), weight: 1 },
      ),
    })
    .map((g): ZonesCombatant => {
      const c = zonesCombatantFromActor(npcs[g.npc]!, { id });
      const all = [...c.weapons, { ...weapons[g.extra]!, id: `extra-${g.extra}` }].map((w, i) => {
        const s = g.state[i % 4]!;
        return {
          ...w,
          drawn: s.undrawn > 0,
          loaded: s.loaded === undefined ? w.loaded : Math.min(s.loaded, w.magazine),
          malfunction: w.kind === "firearm" ? (s.malfunction ?? null) : null,
          broken: s.broken === 0,
        };
      });
      const [STR, DEX, CON, PER] = g.attributes as [number, number, number, number];
      return {
        ...c,
        weapons: all,
        armor: g.armor,
        hp: { ...c.hp, value: Math.min(g.hp, c.hp.max) },
        stance: g.stance,
        movement: g.movement,
        aim: g.aim,
        attributes: { STR, DEX, CON, PER },
        skills: { ...c.skills, dodge: g.dodge },
        conditions: g.conditions,
      };
    });

const situation = fc.record(
  {
    targetSize: fc.constantFrom(...SIZES),
    targetMovement: fc.constantFrom(...MOVEMENTS),
    shooterMovement: fc.constantFrom(...MOVEMENTS),
    stance: fc.constantFrom(...STANCES),
    aim: fc.integer({ min: 0, max: 3 }),
    environment: fc.array(fc.constantFrom("lowLight" as const, "darkness" as const, "strongWind" as const, "impairedVision" as const), {
      maxLength: 3,
    }),
    environmentModifier: fc.integer({ min: -2, max: 3 }),
    misc: fc.integer({ min: -3, max: 3 }),
    aimedZone: sometimes(fc.constantFrom(...HIT_ZONES), 4),
    surprise: fc.boolean(),
    exposedVitals: fc.boolean(),
    malfunction: sometimes(
      fc.record({ kind: fc.constantFrom(...MALFUNCTIONS), afterBullets: fc.integer({ min: 0, max: 5 }) }, { requiredKeys: ["kind"] }),
      4,
    ),
  },
  { requiredKeys: [] },
);

const scenario = fc.record({
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  attacker: combatant("a"),
  target: combatant("b"),
  noTarget: fc.integer({ min: 0, max: 14 }),
  held: sometimes(combatant("b"), 6),
  weapon: fc.nat(),
  // Mostly a firing mode the weapon has; now and then any.
  mode: fc.record({ any: fc.integer({ min: 0, max: 4 }), pick: fc.nat() }),
  bullets: fc.option(fc.integer({ min: 2, max: 30 }), { nil: undefined }),
  // A share of the weapon's effective range (a little beyond it now and then), or metres as they are.
  range: fc.oneof(
    { arbitrary: fc.double({ min: 0, max: 1.05, noNaN: true }).map((share) => ({ share })), weight: 8 },
    { arbitrary: fc.constantFrom(0, 0.5, 1, 1.5, 5, 10, 200).map((metres) => ({ metres })), weight: 2 },
    { arbitrary: fc.constant(undefined), weight: 1 },
  ),
  area: fc.option(fc.record({ size: fc.constantFrom(...SIZES) }, { requiredKeys: [] }), { nil: undefined }),
  damageType: sometimes(fc.constantFrom(...DAMAGE_TYPES), 6),
  situation,
  reaction: sometimes(fc.constantFrom("dodge" as const, "block" as const), 3),
  actionUsed: fc.boolean(),
  options: fc.record({
    lowLightModifier: fc.constantFrom(1, 2),
    meleeDifficulty: fc.integer({ min: 4, max: 9 }),
    slashingVitals: fc.constantFrom("surrounding" as const, "negated" as const),
    piercingAtTwo: fc.constantFrom("negated" as const, "surrounding" as const, "full" as const),
  }),
});

describe("Zones quiet attack step", () => {
  it("is offered by the Zones ruleset", () => {
    expect(isQuiet(zones)).toBe(true);
  });

  it("ZN-RNG-01 to ZN-RNG-08, ZN-BST-01, ZN-MAL-01, ZN-MEL-01 to ZN-MEL-04, ZN-ZON-01 to ZN-ZON-03, ZN-VIT-01 to ZN-VIT-04, ZN-DMG-01, ZN-GRN-01: the same seed gives the detailed step's outcome, target and dice", async () => {
    let landed = 0;
    let bursts = 0;
    let reacted = 0;
    const shapes = new Set<string>();
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const weapon = s.attacker.weapons[s.weapon % s.attacker.weapons.length]!;
        const options = { ...zones.defaults(), ...s.options };
        const target = s.noTarget === 0 ? undefined : s.target;
        const input: ZonesAttackInput = { attacker: s.attacker, target, weaponId: weapon.id, situation: s.situation };
        if (s.range) input.rangeMetres = "metres" in s.range ? s.range.metres : s.range.share * (weapon.effectiveRange || 1);
        const modes = ["single" as const, ...(weapon.burst >= 2 ? ["burst" as const] : []), ...(weapon.auto ? ["auto" as const] : [])];
        const mode = s.mode.any === 0 ? [undefined, "single", "burst", "auto"][s.mode.pick % 4] : modes[s.mode.pick % modes.length];
        if (mode) input.modeId = mode as ZonesAttackInput["modeId"];
        if (s.bullets !== undefined) input.bullets = s.bullets;
        if (s.area && weapon.kind === "grenade") input.area = s.area;
        if (s.damageType) input.damageType = s.damageType;
        if (s.reaction) input.reaction = s.reaction;
        let economy = createEconomy(zones.economy(s.target, options));
        if (s.actionUsed) economy = spend(economy, { slots: { action: economy.slots.action!.max ?? 1 } });
        // The damage lands on the held state when there is one (an earlier hit within a step).
        const base = s.held ?? target;

        const dice = new SeededRoller(s.seed);
        async function detailedStep() {
          const plan = zones.planAttack(input, options, economy);
          const result = (await zones.resolveAttack(plan, input, dice, options)) as ZonesAttackResult;
          if (!result.lands) return { plan, result };
          const packet = (await zones.rollDamage(result, input, dice, options)) as ZonesDamagePacket;
          const report = zones.applyDamage(base!, packet, options);
          return { plan, result, packet, report, target: zones.withVitals(base!, report.after) };
        }
        let detailed: { error: string } | Awaited<ReturnType<typeof detailedStep>>;
        try {
          detailed = await detailedStep();
        } catch (error) {
          if (!(error instanceof FrayError)) throw error;
          detailed = { error: error.key };
        }
        const faces = seededSource(s.seed);
        let quiet: ZonesQuietAttack;
        try {
          quiet = zones.quietAttack(input, faces, options, economy, s.held) as ZonesQuietAttack;
        } catch (error) {
          expect(error).toBeInstanceOf(FrayError);
          expect({ error: (error as FrayError).key }).toEqual(detailed);
          return;
        }
        // One shape for every quiet attack: the fields of `QuietAttack` in place, in order (QUIET_ATTACK_FIELDS).
        expect(Object.keys(quiet).slice(0, QUIET_ATTACK_FIELDS.length)).toEqual(QUIET_ATTACK_FIELDS);
        shapes.add(Object.keys(quiet).join());
        if ("error" in detailed) throw new Error(`the detailed step threw ${detailed.error}, the quiet one did not`);
        const { plan, result, packet, target: after } = detailed;
        expect(quiet.weaponId).toBe(plan.weaponId);
        expect(quiet.modeId).toBe(plan.modeId);
        expect(quiet.hit).toBe(result.hit);
        expect(quiet.reacted).toBe(result.reaction !== undefined);
        expect(quiet.reactionSuccess).toBe(result.reaction?.success);
        expect(quiet.reactionCost).toEqual(plan.reaction?.cost);
        expect(quiet.lands).toBe(result.lands);
        expect(quiet.location).toBe(result.location?.id);
        expect(quiet.damage).toBe(packet?.amount ?? 0);
        expect(quiet.target).toEqual(after);
        expect(quiet.catastrophic).toBe(result.catastrophic);
        expect(quiet.deviation).toBe(result.deviation);
        expect(quiet.spent).toBe(result.spent);
        expect(quiet.malfunction).toBe(result.malfunction);
        if (result.bullets && !result.catastrophic) {
          expect(quiet.fired).toBe(result.bullets.fired);
          expect(quiet.hits).toBe(result.bullets.hit);
        }
        // The dice stand at the same place: the next faces are the same.
        for (let i = 0; i < 3; i++) expect(faces(1000)).toBe((await dice.roll("1d1000")).total);
        // What follows the attack for the shooter is the same (ZN-RNG-07, ZN-BST-01, ZN-MAL-01, ZN-THR-01).
        const outcome = { kind: "attack" as const, weaponId: plan.weaponId, modeId: plan.modeId, result };
        const own = createEconomy(zones.economy(s.attacker, options));
        const q = quietAfterAttack(s.attacker, quiet, own);
        const d = zones.afterAction(s.attacker, outcome, own, options);
        expect(q.combatant).toEqual(d.combatant);
        expect(q.economy).toEqual(d.economy);
        if (result.lands) landed++;
        if ((result.bullets?.fired ?? 0) > 1) bursts++;
        if (result.reaction) reacted++;
      }),
      { numRuns: 2000 },
    );
    // Hits, misses and reactions alike: one list of fields, the first condition of one shape in V8.
    expect(shapes.size).toBe(1);
    // The situations reach the interesting paths, not only the errors.
    expect(landed).toBeGreaterThan(150);
    expect(bursts).toBeGreaterThan(20);
    expect(reacted).toBeGreaterThan(3);
  });

  it("ZN-ACT-01, ZN-FRE-01, ZN-SUR-01, ZN-MOV-03: the round's economy built directly is the one of its spec", () => {
    fc.assert(
      fc.property(
        combatant("a"),
        fc.constantFrom("action" as const, "round" as const),
        fc.integer({ min: -2, max: 12 }),
        fc.integer({ min: -2, max: 6 }),
        (c, speedRecovery, speed, effort) => {
          const state = { ...c, speed: { ...c.speed, value: speed }, effort: { ...c.effort, value: effort } };
          expect(roundEconomy(state, { speedRecovery })).toEqual(createEconomy(economyOf(state, { speedRecovery })));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("ZN-SUR-01, ZN-RNG-04, ZN-RNG-07, ZN-INI-02, ZN-MOV-03: the quiet round start gives the combatant and economy of the detailed one, without events", () => {
    fc.assert(
      fc.property(
        combatant("a"),
        fc.constantFrom("action" as const, "round" as const),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 0, max: 3 }),
        fc.option(fc.record({ speed: fc.integer({ min: -2, max: 12 }), effort: fc.integer({ min: -2, max: 6 }) }), { nil: undefined }),
        (c, speedRecovery, round, initiativeEffort, carried) => {
          const state = { ...c, initiativeEffort };
          const options = { speedRecovery };
          const previous = carried
            ? roundEconomy(
                { ...state, speed: { ...c.speed, value: carried.speed }, effort: { ...c.effort, value: carried.effort } },
                options,
              )
            : undefined;
          const detailed = zones.startRound(state, previous, round, options);
          const quiet = zones.startRoundQuiet!(state, previous, round, options);
          expect(quiet.combatant).toEqual(detailed.combatant);
          expect(quiet.combatant === state).toBe(detailed.combatant === state);
          expect(quiet.economy).toEqual(detailed.economy);
          expect(quiet.events).toEqual([]);
        },
      ),
      { numRuns: 500 },
    );
  });
});
