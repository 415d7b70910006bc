/**
 * The attack dialog's chance to drop a Critical target (CR-ATK-01, CR-CRT-02, CR-HIT-02): the
 * line the generic dialog shows from Critical's exact odds, in English and German, and a declared
 * parry lowering it (CR-PAR-02).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Localizer } from "../../src/foundry/attack-card.js";
import { dialogContext, dialogDefaults, dropLine, type AttackDialogData } from "../../src/foundry/chat/attack-dialog.js";
import { targetDrop } from "../../src/foundry/logic/attack-options.js";
import { nestedLookup } from "../../src/rules/core/i18n.js";
import { critical, parseCombatant, type CriticalCombatant } from "../../src/rules/critical/index.js";

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

const OPTIONS = critical.defaults();

function fighter(): CriticalCombatant {
  return parseCombatant({
    id: "kara",
    name: "Kara",
    quickness: 10,
    selfDiscipline: 15,
    physique: { ranks: 8, total: 48 },
    defense: 15,
    skills: { blades: 70 },
    weapons: [{ id: "sword", name: "Arming Sword", weaponClass: "sword", category: "melee", skill: "blades", bonus: 5 }],
    armor: [{ id: "cuirass", name: "Cuirass", armorType: "rigid", defense: 0 }],
  });
}

/** A guard with 10 of 40 hits left. */
function guard(parry: Record<string, number> = {}): CriticalCombatant {
  return parseCombatant({
    id: "guard",
    name: "Guard",
    quickness: 5,
    selfDiscipline: 5,
    physique: { ranks: 6, total: 40 },
    defense: 5,
    hits: { value: 10, max: 40 },
    parry,
    skills: { blunt: 35 },
    weapons: [{ id: "baton", name: "Baton", weaponClass: "club", category: "melee", skill: "blunt", bonus: 5 }],
    armor: [{ id: "vest", name: "Vest", armorType: "ballistic", defense: 0 }],
  });
}

const data = (target: CriticalCombatant): AttackDialogData => ({
  ruleset: critical as never,
  options: OPTIONS,
  attacker: fighter(),
  weapon: { id: "sword", name: "Arming Sword", modes: [] },
  targets: [{ id: "guard", name: "Guard", combatant: target, rangeMetres: 1.5 }],
});

describe("the attack dialog's chance to drop a Critical target", () => {
  it("CR-ATK-01, CR-CRT-02, CR-HIT-02: the line reads Critical's exact odds in English and German", () => {
    const d = data(guard());
    const choices = dialogDefaults(d);
    const drop = targetDrop(critical, { attackerId: "kara", targetId: "guard", weaponId: "sword" }, fighter(), guard(), OPTIONS)!;
    expect(drop.out).toBeGreaterThan(0);
    expect(drop.out).toBeLessThan(drop.lands);
    expect(Object.keys(drop.expected)).toEqual(["hp"]);
    const pct = (drop.out * 100).toFixed(1);
    const hits = drop.expected.hp!.toFixed(1);
    const en = dropLine(reader("en"), d, d.targets[0]!, choices);
    expect(en.text).toBe(`Out: ${pct}% · expected ${hits} HP`);
    expect(en.rules).toContain("CR-HIT-02");
    expect(dropLine(reader("de"), d, d.targets[0]!, choices).text).toBe(
      `Ausgeschaltet: ${pct.replace(".", ",")}\u00a0% · erwartet ${hits.replace(".", ",")} LP`,
    );
    expect((dialogContext(d, choices, reader("en")).targets as { drop: { text: string } }[])[0]!.drop.text).toBe(en.text);
  });

  it("CR-PAR-02: the guard's declared parry against Kara lowers the chance and the hits expected", () => {
    const request = { attackerId: "kara", targetId: "guard", weaponId: "sword" };
    const plain = targetDrop(critical, request, fighter(), guard(), OPTIONS)!;
    const parried = targetDrop(critical, request, fighter(), guard({ kara: 20 }), OPTIONS)!;
    expect(parried.out).toBeLessThan(plain.out);
    expect(parried.expected.hp!).toBeLessThan(plain.expected.hp!);
  });
});
