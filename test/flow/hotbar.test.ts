/**
 * Hotbar macros: a weapon dropped on the hotbar makes an attack macro whose script names the
 * weapon by UUID and cannot be turned into other code by the UUID's text.
 */
import { describe, expect, it } from "vitest";
import { makesAttackMacro, weaponMacroCommand } from "../../src/foundry/play/hotbar.js";

describe("weapon attack macros", () => {
  it("the macro attacks with the weapon named by its UUID", () => {
    expect(weaponMacroCommand("Actor.a1.Item.w1")).toBe('game.fray.rollItemMacro("Actor.a1.Item.w1");');
  });

  it("a UUID with quotes stays one string literal (no code injection)", () => {
    const evil = 'x"); alert(1); ("';
    const command = weaponMacroCommand(evil);
    const calls: unknown[] = [];
    new Function("game", command)({ fray: { rollItemMacro: (u: unknown) => calls.push(u) } });
    expect(calls).toEqual([evil]);
  });

  it("only an actor's weapon makes an attack macro", () => {
    expect(makesAttackMacro({ uuid: "Actor.a.Item.w", name: "Sabre", img: null, type: "weapon", actor: {} })).toBe(true);
    expect(makesAttackMacro({ uuid: "Item.w", name: "Sabre", img: null, type: "weapon" })).toBe(false);
    expect(makesAttackMacro({ uuid: "Actor.a.Item.x", name: "Vest", img: null, type: "armor", actor: {} })).toBe(false);
  });
});
