/**
 * The attack dialog's form generated from a ruleset's situation fields: the template context of
 * each field and the form's string values read back, checked at the boundary (UD-ATK-04 aim,
 * UD-COV-01 cover, UD-ATK-03 unanticipated, as UD10 describes them).
 */
import { describe, expect, it } from "vitest";
import { readSituation, readSituationValue, situationInput } from "../../src/foundry/logic/situation-form.js";
import type { SituationField } from "../../src/rules/core/contract.js";
import { ud10 } from "../../src/rules/ud10/index.js";
import { fixture } from "../contract/fixtures/ud10.js";

const ranged = { ...fixture.attacker, weapons: [{ ...fixture.attacker.weapons[0]!, id: "rifle", kind: "ranged" as const }] };
const fields = ud10.situation!({ attacker: ranged, target: fixture.target, weaponId: "rifle", distanceMetres: 20 }, ud10.defaults());
const field = (id: string): SituationField => fields.find((f) => f.id === id)!;

describe("situation form", () => {
  it("UD-ATK-04: each field renders by its kind with its default, per-target fields named by target", () => {
    const aim = situationInput(field("aim"), undefined, "t1");
    expect(aim).toMatchObject({ isNumber: true, value: "0", min: 0, max: 2 });
    const cover = situationInput(field("cover"), 3, "t1");
    expect(cover.name).toBe(field("cover").perTarget ? "situation.t1.cover" : "situation.cover");
    expect(cover.value).toBe("3");
    expect(situationInput(field("badVisibility"), true).checked).toBe(true);
  });

  it("UD-COV-01: numbers typed as text are read as numbers; out of bounds or not a number names the field", () => {
    expect(readSituationValue(field("cover"), "2", "ud10")).toBe(2);
    expect(readSituationValue(field("cover"), "", "ud10")).toBe(field("cover").default);
    expect(() => readSituationValue(field("cover"), "-1e9", "ud10")).toThrow(
      expect.objectContaining({ name: "FrayError", data: expect.objectContaining({ field: "situation.cover" }) }),
    );
    expect(() => readSituationValue(field("aim"), "ten", "ud10")).toThrow(
      expect.objectContaining({ data: expect.objectContaining({ field: "situation.aim" }) }),
    );
    expect(() => readSituationValue(field("aim"), "1.5", "ud10")).toThrow(
      expect.objectContaining({ data: expect.objectContaining({ field: "situation.aim" }) }),
    );
  });

  it("UD-ATK-03: checkboxes read as booleans; the read values plan the attack the core would plan", () => {
    const form: Record<string, string | boolean> = { "situation.unanticipated": true, "situation.aim": "2" };
    const values = readSituation(fields, (name) => form[name.replace(/^situation\.t1\./, "situation.")], "ud10", "t1");
    expect(values.unanticipated).toBe(true);
    expect(values.aim).toBe(2);
    expect(values.badVisibility).toBe(false);
    const input = ud10.input!(
      { attackerId: ranged.id, targetId: fixture.target.id, weaponId: "rifle", distanceMetres: 20, situation: values },
      ranged,
      fixture.target,
      ud10.defaults(),
    );
    const plan = ud10.planAttack(input, ud10.defaults());
    expect(plan.modifiers.some((m) => m.rule === "UD-ATK-04" && m.value === 4)).toBe(true);
  });
});
