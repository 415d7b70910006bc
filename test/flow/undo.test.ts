/** Undo records and ledger entries of applied damage: exact before and after, undo from the actor's ledger (UD-DMG-02 to UD-DMG-05). */
import { describe, expect, it } from "vitest";
import type { DamagePacket } from "../../src/rules/core/ruleset.js";
import { ud10 } from "../../src/rules/ud10/index.js";
import {
  ledgerEntry,
  ledgerEntryOf,
  ledgerKey,
  ledgerUpdate,
  statusChanges,
  undoneState,
  undoRecord,
} from "../../src/foundry/logic/undo.js";
import { UD10_VITALS } from "../../src/foundry/rulesets/ud10/card.js";
import { target } from "../rules/ud10-fixtures.js";

const opts = ud10.defaults();
const packet = (amount: number, extra: Partial<DamagePacket> = {}): DamagePacket => ({
  roll: { formula: String(amount), total: amount, dice: [], constant: amount },
  amount,
  ...extra,
});

describe("undo records", () => {
  it("UD-ZON-01, UD-DMG-03: records the exact HP and EP before and after a hit on the vest", () => {
    const bo = target();
    const report = ud10.applyDamage(bo, packet(15, { location: "torso", penetration: 0 }), { ...opts, penetration: false });
    const record = undoRecord("Actor.b", report, "gm", "s1");
    expect(record.before.hp).toEqual(bo.hp);
    expect(record.before.ep).toEqual(bo.ep);
    expect(record.after.hp).toEqual(report.after.hp);
    expect(record.after.ep).toEqual(report.after.ep);
    expect(record.steps.map((s) => s.rule)).toEqual(report.steps.map((s) => s.rule));
    expect(ud10.vitalsUpdate(report.after)).toEqual({
      system: { hp: { value: report.after.hp!.value }, ep: { value: report.after.ep!.value } },
    });
    const entry = ledgerEntryOf(record, "m1", 0);
    expect(ud10.vitalsUpdate(undoneState(report.after, entry.delta, UD10_VITALS))).toEqual({
      system: { hp: { value: bo.hp.value }, ep: { value: bo.ep.value } },
    });
  });

  it("UD-DMG-04: a hit that drops HP to 0 adds incapacitated; undo removes only what it added", () => {
    const bo = target({ conditions: ["prone"], hp: 4 });
    const report = ud10.applyDamage(bo, packet(40), { ...opts, bodyZones: false, buffer: false, penetration: false });
    const record = undoRecord("Actor.b", report, "gm", "s1");
    expect(record.added).toContain("incapacitated");
    const entry = ledgerEntryOf(record, "m1", 0);
    const after = undoneState(report.after, entry.delta, UD10_VITALS);
    expect(statusChanges(report.after, after, entry.delta, UD10_VITALS)).toEqual({ add: [], remove: record.added });
    expect(after.conditions).toEqual(["prone"]);
  });

  it("the record is a copy: changing the report later does not change it", () => {
    const report = ud10.applyDamage(target(), packet(12), { ...opts, bodyZones: false });
    const record = undoRecord("Actor.b", report, "gm", "s1");
    report.after.hp!.value = -99;
    report.steps.length = 0;
    expect(record.after.hp.value).not.toBe(-99);
    expect(record.steps.length).toBeGreaterThan(0);
  });

  it("UD-DMG-02: the ledger entry is read back from the actor's flags by its key; a malformed entry counts as none", () => {
    const report = ud10.applyDamage(target(), packet(12), { ...opts, bodyZones: false });
    const record = undoRecord("Actor.b", report, "gm", "s1");
    const key = ledgerKey("m.1", 2);
    expect(key).toBe("m1-2");
    const update = ledgerUpdate(key, ledgerEntryOf(record, "m1", 2));
    const flags = { ledger: { [key]: update[`flags.fray.ledger.${key}`] } };
    const actor = { getFlag: (_s: string, k: string) => (flags as Record<string, unknown>)[k] };
    expect(ledgerEntry(actor, key)).toMatchObject({
      stamp: "s1",
      index: 2,
      undone: false,
      delta: { hp: { before: 20, after: report.after.hp!.value } },
    });
    const forged = { getFlag: () => ({ [key]: { stamp: 7, delta: { hp: { before: "x", after: 3 } } } }) };
    expect(ledgerEntry(forged, key)).toBeUndefined();
  });
});
