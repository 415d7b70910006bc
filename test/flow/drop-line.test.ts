/**
 * The attack dialog's chance to drop each target (UD-ATK-02, UD-DMG-01, UD-DMG-04, UD-REA-03):
 * the line's text in English and German from the core's exact odds, a declared reaction
 * lowering it, nothing for a refused request.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Localizer } from "../../src/foundry/attack-card.js";
import { dropLine, dialogContext, dialogDefaults, type AttackDialogData } from "../../src/foundry/chat/attack-dialog.js";
import { targetDrop } from "../../src/foundry/logic/attack-options.js";
import { nestedLookup } from "../../src/rules/core/i18n.js";
import { ud10 } from "../../src/rules/ud10/index.js";
import { fighter, target } from "../rules/ud10-fixtures.js";

const reader = (lang: "en" | "de"): Localizer => {
  const look = nestedLookup(
    JSON.parse(readFileSync(new URL(`../../lang/${lang}.json`, import.meta.url), "utf8")) as Record<string, unknown>,
  );
  return {
    localize: (key) => look(key) ?? key,
    format: (key, data) => (look(key) ?? key).replace(/\{(\w+)\}/g, (w, n: string) => data[n] ?? w),
    lang,
  };
};

const OPTIONS = { ...ud10.defaults(), bodyZones: false, buffer: false, penetration: true };
/** No armor, CON 3, 2 HP left: a sword blow (1d10x10 + 3) drops Bo from 5 damage on, a d10 of 2 or more. */
const bo = target({ armor: [], hp: { value: 2, max: 20 } });
const data: AttackDialogData = {
  ruleset: ud10 as never,
  options: OPTIONS,
  attacker: fighter(),
  weapon: { id: "sword", name: "Sword", modes: [] },
  targets: [{ id: "b", name: "Bo", combatant: bo, rangeMetres: 1.5 }],
};

describe("the attack dialog's chance to drop the target", () => {
  it("UD-ATK-02, UD-DMG-04: 50 % to hit times 90 % to deal 5 or more; HP lost 0.5 x the exploding d10's mean", () => {
    const drop = targetDrop(ud10, { attackerId: "a", targetId: "b", weaponId: "sword", distanceMetres: 1.5 }, fighter(), bo, OPTIONS)!;
    expect(drop.lands).toBeCloseTo(0.5, 12);
    expect(drop.out).toBeCloseTo(0.45, 12);
    // The mean of an exploding d10 is 5.5 / 0.9; CON 3 takes the 3 fixed points.
    expect(drop.expected.hp).toBeCloseTo((0.5 * 5.5) / 0.9, 9);
    expect(drop.expected.ep).toBe(0);
    expect(drop.rules).toContain("UD-DMG-04");
  });

  it("shows the line in English and German, with the rule IDs as its tooltip", () => {
    const choices = dialogDefaults(data);
    const en = dropLine(reader("en"), data, data.targets[0]!, choices);
    expect(en.text).toBe("Out: 45.0% · expected 3.1 HP / 0.0 EP");
    expect(en.rules).toContain("UD-ATK-02");
    expect(dropLine(reader("de"), data, data.targets[0]!, choices).text).toBe("Ausgeschaltet: 45,0\u00a0% · erwartet 3,1 LP / 0,0 AuP");
    expect((dialogContext(data, choices, reader("en")).targets as { drop: { text: string } }[])[0]!.drop.text).toBe(en.text);
  });

  it("UD-REA-03: a declared parry lowers the chance; a refused request shows no line", () => {
    const choices = dialogDefaults(data);
    const plain = targetDrop(ud10, { attackerId: "a", targetId: "b", weaponId: "sword", distanceMetres: 1.5 }, fighter(), bo, OPTIONS)!;
    const parried = targetDrop(
      ud10,
      { attackerId: "a", targetId: "b", weaponId: "sword", distanceMetres: 1.5, reaction: "parry" },
      fighter(),
      bo,
      OPTIONS,
    )!;
    expect(parried.out).toBeLessThan(plain.out);
    expect(parried.out).toBeCloseTo(parried.lands * 0.9, 12);
    const bad = { ...choices, situation: { b: { ...choices.situation.b, cover: -3 } } };
    expect(dropLine(reader("en"), data, data.targets[0]!, bad)).toEqual({ text: "", rules: "" });
  });
});
