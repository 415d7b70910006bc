/**
 * The Foundry side of the dice port with the stand-in `Roll`: outcomes are plain JSON-safe data,
 * the Rolls travel beside them in `FoundryRoller.rolls`, and a formula outside the formula limits
 * is refused before a Roll is built.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FoundryRoller } from "../../src/foundry/dice.js";
import { FrayError } from "../../src/rules/core/errors.js";
import { diceQueue, StubRoll } from "../support/foundry-stub.js";

const g = globalThis as Record<string, unknown>;
const saved = { Roll: g.Roll, game: g.game };

beforeAll(() => {
  g.Roll = StubRoll;
  g.game = { i18n: { localize: (key: string) => `[${key}]` } };
});

afterAll(() => {
  g.Roll = saved.Roll;
  g.game = saved.game;
});

describe("Foundry roller", () => {
  it("UD-DMG-01: hands the core plain outcomes and keeps each Roll beside it, in order", async () => {
    diceQueue.splice(0, diceQueue.length, 10, 3, 6, 2, 5);
    const dice = new FoundryRoller();
    const damage = await dice.roll("2d10x10 + 3", "FRAY.Roll.Damage");
    const check = await dice.roll("2d6 - 1", "FRAY.Roll.Attack");
    expect(damage).toEqual({ formula: "2d10x10 + 3", total: 22, dice: [{ faces: 10, results: [10, 3, 6] }], constant: 3 });
    expect(check).toEqual({ formula: "2d6 - 1", total: 6, dice: [{ faces: 6, results: [2, 5] }], constant: -1 });
    // JSON-safe and lossless: nothing but data inside.
    expect(JSON.parse(JSON.stringify(damage))).toEqual(damage);
    expect(Object.keys(damage).sort()).toEqual(["constant", "dice", "formula", "total"]);
    expect(dice.rolls.map((r) => r.total)).toEqual([22, 6]);
    expect(dice.purposes).toEqual(["FRAY.Roll.Damage", "FRAY.Roll.Attack"]);
    expect((dice.rolls[0]!.options as { flavor?: string }).flavor).toBe("[FRAY.Roll.Damage]");
  });

  it("refuses an over-explosive or malformed formula before a Roll is built", async () => {
    const dice = new FoundryRoller();
    const before = StubRoll.evaluated.length;
    await expect(dice.roll("1d10x>1")).rejects.toBeInstanceOf(FrayError);
    await expect(dice.roll("1d10x>1")).rejects.toMatchObject({ key: "FRAY.Error.Dice.Explosive", data: { formula: "1d10x>1" } });
    await expect(dice.roll(undefined as unknown as string)).rejects.toMatchObject({ key: "FRAY.Error.Dice.NotText" });
    expect(StubRoll.evaluated.length).toBe(before);
    expect(dice.rolls).toEqual([]);
  });
});
