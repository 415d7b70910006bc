/**
 * Every new state of a combatant is built as one shape: the fields a parsed combatant has, in its
 * order, as one literal (Hitbox `restate`, UD10 `copyCombatant`, Zones `copyCombatant` and
 * `restate`), never by a spread. In V8 a spread's copy, or a field added later, takes a shape (a
 * hidden class, a "map") of its own, and the rules' reads of combatants, met with many shapes,
 * slow a forecast down. V8's own `%HaveSameMap` compares the shapes of the states of the
 * transitions played here (the test turns on V8's natives syntax, which only lets a function
 * compiled after it call `%` functions, for the one function that does); each case also checks
 * what the transition does.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import { describe, expect, it } from "vitest";
import type { ActorSource } from "../../src/rules/core/sources.js";
import { hitbox, hitboxCombatantFromActor, quickAction, restate } from "../../src/rules/hitbox/index.js";
import { copyCombatant as ud10Copy, ud10, ud10CombatantFromActor } from "../../src/rules/ud10/index.js";
import {
  copyCombatant as zonesCopy,
  endSurprise,
  startSurprise,
  withMovedLegs,
  zones,
  zonesCombatantFromActor,
} from "../../src/rules/zones/index.js";

// V8's natives syntax, for `%HaveSameMap` alone: a function compiled after the flag is set may call it.
v8.setFlagsFromString("--allow-natives-syntax");
const sameMap = new Function("a", "b", "return %HaveSameMap(a, b)") as (a: object, b: object) => boolean;

const packs = fileURLToPath(new URL("../../packs/_source", import.meta.url));
const first = (dir: string) => {
  const file = readdirSync(join(packs, dir)).find((f) => f.endsWith(".json"))!;
  return JSON.parse(readFileSync(join(packs, dir, file), "utf8")) as ActorSource;
};
const keys = (o: object) => Object.keys(o);
/** `state` has the shape of `reference`: the same fields in the same order, and the same V8 map. */
const expectShape = (state: object, reference: object) => {
  expect(keys(state)).toEqual(keys(reference));
  expect(sameMap(state, reference)).toBe(true);
};

describe("combatant states keep one shape", () => {
  it("HB-ACT-03, HB-ACT-04, HB-DMG-04: Hitbox draws, lets go, goes prone and counts shock turns on states of the parsed fields", () => {
    const c = hitboxCombatantFromActor(first("hitbox-npcs"), { id: "a" });
    const shape = keys(c);
    const reference = restate(c, c.hitboxes, c.armor, c.conditions, undefined);
    const weapon = c.weapons.find((w) => !c.held.includes(w.id)) ?? c.weapons[0]!;
    const drawn = quickAction({ ...c, held: [] }, { id: "draw", item: weapon.id }, false);
    expect(drawn.held).toEqual([weapon.id]);
    expectShape(drawn, reference);
    const empty = quickAction(drawn, { id: "letGo", item: weapon.id }, false);
    expect(empty.held).toEqual([]);
    expectShape(empty, reference);
    const prone = quickAction(c, { id: "prone" }, false);
    expect(prone.conditions).toContain("goingProne");
    expectShape(prone, reference);
    // Shock (HB-DMG-04): the count starts as the one field a state may add, last, and ends with death.
    const options = { ...hitbox.defaults(), hitboxShockTurns: 2 };
    let state = hitbox.startRound({ ...c, conditions: ["shock"] }, undefined, 2, options).combatant;
    expect(state.shockTurnsLeft).toBeGreaterThanOrEqual(0);
    expect(keys(state)).toEqual([...shape, "shockTurnsLeft"]);
    const counting = hitbox.startRound(state, undefined, 3, options).combatant;
    expect(counting.shockTurnsLeft).toBe(state.shockTurnsLeft! - 1);
    expectShape(counting, state);
    for (let round = 3; !state.conditions.includes("dead") && round < 20; round++)
      state = hitbox.startRound(state, undefined, round, options).combatant;
    expect(state.conditions).toContain("dead");
    expectShape(state, reference);
  });

  it("UD-ATK-04, UD-ACT-01, UD-DMG-02: UD10 aims, spends the aim, stops moving and takes damage on states of the parsed fields", () => {
    const c = ud10CombatantFromActor(first("ud10-npcs"), { id: "a" });
    const reference = ud10Copy(c);
    const options = ud10.defaults();
    const economy = ud10.startRound(c, undefined, 1, options).economy;
    const aimed = ud10.afterAction(c, { kind: "action", id: "aim" }, economy, options).combatant;
    expect(aimed.conditions).toContain("aiming1");
    expectShape(aimed, reference);
    const weaponId = c.weapons[0]!.id;
    const shot = ud10.afterAction(aimed, { kind: "attack", weaponId, result: { plan: { attackerId: "a" } } } as never, economy, options);
    expect(shot.combatant.conditions).not.toContain("aiming1");
    expectShape(shot.combatant, reference);
    // UD-ACT-01: the next round drops the last round's `moving`.
    const moved = ud10.startRound(ud10.withVitals(c, { hp: c.hp, ep: c.ep, conditions: ["moving"] }), economy, 2, options).combatant;
    expect(moved.conditions).not.toContain("moving");
    expectShape(moved, reference);
    const hurt = ud10.withVitals(c, { hp: { value: 1, max: c.hp.max }, ep: c.ep, conditions: ["prone"] });
    expect(hurt.hp.value).toBe(1);
    expectShape(hurt, reference);
  });

  it("ZN-RNG-07, ZN-MOV-03, ZN-RNG-04, ZN-SUR-01: Zones aims, regains speed, starts a round, is surprised and runs on states of the parsed fields", () => {
    const c = zonesCombatantFromActor(first("zones-npcs"), { id: "a" });
    const reference = zonesCopy(c);
    const options = zones.defaults();
    const economy = zones.startRound(c, undefined, 1, options).economy;
    const aimed = zones.afterAction(c, { kind: "action", id: "aim" }, economy, options).combatant;
    expect(aimed.aim).toBe(c.aim + 1);
    expectShape(aimed, reference);
    const regained = zones.afterAction(
      { ...c, speed: { value: 0, max: c.speed.max } },
      { kind: "action", id: "regainSpeed" },
      economy,
      options,
    );
    expect(regained.combatant.speed.value).toBe(c.speed.max);
    expectShape(regained.combatant, reference);
    const next = zones.startRound({ ...aimed, movement: "fast" } as typeof c, economy, 2, options).combatant;
    expect(next.aim).toBe(0);
    expect(next.movement).toBe("subtle");
    expectShape(next, reference);
    // ZN-SUR-01: a surprise round starts and ends; ZN-RNG-04: a run makes the movement fast.
    const [surprised] = startSurprise([c], [c.group]);
    expect(surprised!.conditions).toContain("surprised");
    expectShape(surprised!, reference);
    const [over] = endSurprise([surprised!]);
    expect(over!.conditions).not.toContain("surprised");
    expectShape(over!, reference);
    const ran = withMovedLegs(c, [{ action: "run", metres: 6 }]);
    expect(ran.movement).toBe("fast");
    expectShape(ran, reference);
    const hurt = zones.withVitals(c, { hp: { value: 1, max: c.hp.max }, conditions: [] });
    expect(hurt.hp.value).toBe(1);
    expectShape(hurt, reference);
  });
});
