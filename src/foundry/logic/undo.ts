/**
 * Undo records of applied damage: the exact HP, EP and conditions before and after, so Undo puts
 * the actor back where it was. Pure: the Foundry glue turns the records into actor updates and
 * status toggles.
 */
import type { DamageReport, DamageStep, Track } from "../../rules/core/types.js";

/** What applying damage changed on one actor (UD-DMG-02 to UD-DMG-05). */
export interface UndoRecord {
  /** UUID of the actor damaged. */
  actorUuid: string;
  before: { hp: Track; ep: Track; conditions: string[] };
  after: { hp: Track; ep: Track; conditions: string[] };
  /** Conditions applying the damage added (unconscious at EP 0, incapacitated at HP 0). */
  added: string[];
  /** Every step of the application, as the core reported it. */
  steps: DamageStep[];
  /** Id of the user who applied it. */
  userId: string;
}

const track = (t: Track | undefined, fallback: Track): Track => ({ value: t?.value ?? fallback.value, max: t?.max ?? fallback.max });

/**
 * The record of one application from the core's damage report (UD-DMG-02 to UD-DMG-05).
 * @param actorUuid the damaged actor.
 * @param report what `ud10.applyDamage` returned.
 * @param userId who applied it.
 */
export function undoRecord(actorUuid: string, report: DamageReport, userId: string): UndoRecord {
  const zero = { value: 0, max: 0 };
  const hpBefore = track(report.before.hp, zero);
  const epBefore = track(report.before.ep, zero);
  return {
    actorUuid,
    before: { hp: hpBefore, ep: epBefore, conditions: [...report.before.conditions] },
    after: { hp: track(report.after.hp, hpBefore), ep: track(report.after.ep, epBefore), conditions: [...report.after.conditions] },
    added: [...report.added],
    steps: report.steps.map((s) => ({ ...s, data: s.data ? { ...s.data } : undefined })),
    userId,
  };
}

/** The actor update that applies a record: HP and EP values after. */
export function applyUpdate(record: UndoRecord): Record<string, number> {
  return { "system.hp.value": record.after.hp.value, "system.ep.value": record.after.ep.value };
}

/** The actor update that undoes a record: HP and EP values before. */
export function revertUpdate(record: UndoRecord): Record<string, number> {
  return { "system.hp.value": record.before.hp.value, "system.ep.value": record.before.ep.value };
}

/**
 * Status changes that undo a record: the conditions the damage added and that were not there
 * before are removed; nothing else is touched.
 */
export function revertStatuses(record: UndoRecord): { remove: string[] } {
  return { remove: record.added.filter((c) => !record.before.conditions.includes(c)) };
}
