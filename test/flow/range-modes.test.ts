/**
 * Range and firing modes from the dialog to the card (UD-RNG-01, UD-RNG-02), through the pure
 * functions the flow uses: the range measured between tokens feeds the range penalty shown in the
 * dialog's odds and on the card; the firing mode chosen in the dialog changes the card's modifier
 * line and the damage formula rolled.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { nestedLookup } from "../../src/rules/core/i18n.js";
import { ScriptedRoller } from "../../src/rules/core/dice/port.js";
import { ud10 } from "../../src/rules/ud10/index.js";
import { attackMessageContext, type Localizer } from "../../src/foundry/attack-card.js";
import { dialogContext, dialogDefaults, oddsText, type AttackDialogData, type DialogTarget } from "../../src/foundry/chat/attack-dialog.js";
import { targetOdds, type AttackChoices } from "../../src/foundry/logic/attack-options.js";
import { attackTarget } from "../../src/foundry/logic/attack-state.js";
import type { AttackRequest } from "../../src/rules/core/contract.js";
import { measureMetres, toMetres } from "../../src/foundry/measure.js";
import { stubCanvas } from "../support/foundry-stub.js";
import { fighter, target } from "../rules/ud10-fixtures.js";

const en = JSON.parse(readFileSync(new URL("../../lang/en.json", import.meta.url), "utf8")) as Record<string, unknown>;
const look = nestedLookup(en);
const i18n: Localizer = {
  localize: (key) => look(key) ?? key,
  format: (key, data) => (look(key) ?? key).replace(/\{(\w+)\}/g, (w, n: string) => data[n] ?? w),
  lang: "en",
};
const OPTIONS = ud10.defaults();
const ana = fighter();
const rifle = ana.weapons.find((w) => w.id === "rifle")!;
const weapon = { id: "rifle", name: "Rifle", modes: rifle.modes.map((m) => ({ id: m.id, label: m.label })) };
const bo = (rangeMetres: number): DialogTarget => ({ id: "bo", name: "Bo", combatant: target(), rangeMetres });
const dialogData = (targets: DialogTarget[]): AttackDialogData => ({
  ruleset: ud10 as never,
  options: OPTIONS,
  attacker: ana,
  weapon,
  targets,
});
const choices = (modeId?: string): AttackChoices => ({ ...dialogDefaults(dialogData([bo(0)])), modeId });
const request = (rangeMetres: number, modeId?: string): AttackRequest => ({
  attackerId: "ana",
  targetId: "bo",
  weaponId: "rifle",
  modeId,
  distanceMetres: rangeMetres,
});
const modifierOf = (rangeMetres: number, modeId?: string) =>
  targetOdds(ud10, request(rangeMetres, modeId), ana, target(), OPTIONS).modifier!;

/** The card's check lines of one attack at Bo, resolved with the given dice. */
async function card(rangeMetres: number, modeId: string | undefined, dice: number[]) {
  const attacked = await attackTarget(
    ud10,
    { actorUuid: "Actor.b", tokenUuid: "Scene.s.Token.b", name: "Bo" },
    request(rangeMetres, modeId),
    ana,
    target(),
    new ScriptedRoller(dice),
    OPTIONS,
  );
  const input = ud10.input(attacked.state.request, ana, target(), OPTIONS);
  const mode = rifle.modes.find((m) => m.id === modeId)?.label;
  const context = attackMessageContext([attacked.state], { attacker: "Ana", weapon: "Rifle", mode }, i18n).targets[0]!;
  return { input, attacked, context };
}

describe("UD-RNG-01: the measured range feeds the range penalty", () => {
  it("a token 120 m away measured on a metre grid is 120 m; feet convert", () => {
    expect(toMetres(120, "m")).toBe(120);
    expect(toMetres(30, "ft")).toBeCloseTo(9.144);
    const g = globalThis as { canvas?: unknown };
    const before = g.canvas;
    try {
      // Two tokens 120 squares apart on a 1 m grid, measured by the flow's measure function.
      g.canvas = stubCanvas(100, 1, "m");
      const shooter = { center: { x: 50, y: 50 } };
      expect(measureMetres(shooter, { center: { x: 50 + 120 * 100, y: 50 } })).toBe(120);
      // Six squares on a 5 ft grid: 30 ft.
      g.canvas = stubCanvas(100, 5, "ft");
      expect(measureMetres(shooter, { center: { x: 50 + 6 * 100, y: 50 + 3 * 100 } })).toBeCloseTo(9.144);
    } finally {
      g.canvas = before;
    }
  });

  it("with a 50 m increment: none within 50 m, -1 to 100 m, -2 at 120 m, -3 past 150 m", () => {
    const base = modifierOf(50);
    expect([51, 100, 101, 120, 150, 151].map((r) => modifierOf(r) - base)).toEqual([-1, -1, -2, -2, -2, -3]);
  });

  it("the dialog shows the range and odds that count the -2 at 120 m", () => {
    const data = dialogData([bo(120)]);
    const context = dialogContext(data, choices(), i18n) as { targets: { range: string; odds: string }[] };
    expect(context.targets[0]!.range).toBe("120.0");
    const near = oddsText(i18n, data, bo(50), choices());
    const far = context.targets[0]!.odds;
    const modifier = (text: string) => Number(/\(modifier (-?\d+) vs\. difficulty \d+\)$/.exec(text)![1]);
    expect(modifier(far)).toBe(modifier(near) - 2);
    expect(far).toBe(oddsText(i18n, data, bo(120), choices()));
  });

  it("the card lists the range line at \u22122 (a minus sign) with UD-RNG-01 and the range, stored for later buttons", async () => {
    const { context, attacked } = await card(120, undefined, [9, 5]);
    expect(context.range).toBe("120.0");
    expect(context.check.lines).toContainEqual({ label: "Range 120 m (increment 50 m)", value: "\u22122", rule: "UD-RNG-01" });
    expect(attacked.state.request.distanceMetres).toBe(120);
    const near = await card(50, undefined, [9, 5]);
    expect(near.context.check.lines.some((l) => l.rule === "UD-RNG-01")).toBe(false);
    expect(attacked.state.result.check.total).toBe(near.attacked.state.result.check.total - 2);
  });
});

describe("UD-RNG-02: the firing mode chosen changes the card's modifier and the damage rolled", () => {
  it("burst adds its -1 line to the dialog's odds and the card; standard has no mode line", async () => {
    expect(modifierOf(40, "burst")).toBe(modifierOf(40) - 1);
    const burst = await card(40, "burst", [9, 5]);
    const standard = await card(40, undefined, [9, 5]);
    expect(burst.context.check.lines).toContainEqual({ label: "Firing mode: Burst", value: "\u22121", rule: "UD-RNG-02" });
    expect(standard.context.check.lines.some((l) => l.rule === "UD-RNG-02")).toBe(false);
    expect(burst.context.headline).toContain("(Burst)");
  });

  it("the damage rolled is the mode's code (6+3d10) instead of the weapon's (4+2d10)", async () => {
    const roll = async (modeId?: string) => {
      const { input, attacked } = await card(40, modeId, [10, 1, 5]);
      expect(attacked.result.lands).toBe(true);
      return ud10.rollDamage(attacked.state.result, input, new ScriptedRoller([3, 4, 5]), OPTIONS);
    };
    const burst = await roll("burst");
    const standard = await roll(undefined);
    expect(burst.roll.formula).toBe("3d10x10 + 6");
    expect(burst.amount).toBe(6 + 3 + 4 + 5);
    expect(standard.roll.formula).toBe("2d10x10 + 4");
    expect(standard.amount).toBe(4 + 3 + 4);
  });
});
