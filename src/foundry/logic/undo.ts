/**
 * Applications of damage and their undo, as the Foundry glue stores them: the card keeps an
 * {@link UndoRecord} per target for display (steps, vitals after, conditions added) with a stamp;
 * the target actor keeps the authoritative {@link LedgerEntry} (`flags.fray.ledger.<key>`) that
 * undo reads, so an edited card can neither apply twice nor turn an undo into damage. The
 * arithmetic is the core's ledger (`rules/core/ledger.ts`) and the ruleset's vital-derived
 * conditions ({@link VitalRules}, UD10's in `rulesets/ud10/card.ts`). Pure: the glue turns the
 * results into actor updates (`Ruleset.vitalsUpdate`) and status toggles.
 */
import { deltaOf, recomputeConditions, revert, type LedgerFloors, type TrackChange, type VitalDelta } from "../../rules/core/ledger.js";
import type { DamageReport, DamageStep, LastingEffect, Track, VitalState } from "../../rules/core/types.js";

/**
 * What a ruleset says about vitals when an application is undone: the conditions that follow
 * from the vitals, which of them a state implies, and how far each track may drop below 0.
 */
export interface VitalRules {
  /** The conditions set from the vitals (UD10: unconscious, incapacitated). */
  conditions: readonly string[];
  /** The conditions of `conditions` a state implies. */
  implied(state: VitalState): string[];
  /** Tracks that may go below 0 and how far (UD10 HP, UD-DMG-04). */
  floors?: LedgerFloors;
}

/** Vital rules of a ruleset that sets no condition from its vitals. */
export const NO_VITAL_CONDITIONS: VitalRules = { conditions: [], implied: () => [] };

/** What applying damage changed on one actor, as the card shows it (UD-DMG-02 to UD-DMG-05). */
export interface UndoRecord {
  /** Id of this application; the target's ledger entry carries the same stamp. */
  stamp: string;
  /** UUID of the actor damaged. */
  actorUuid: string;
  before: RecordVitals;
  after: RecordVitals;
  /** Conditions applying the damage added (unconscious at EP 0, incapacitated at HP 0). */
  added: string[];
  /** Every step of the application, as the core reported it. */
  steps: DamageStep[];
  /** Id of the user who asked for it (as the server vouched). */
  userId: string;
}

/** The vitals an {@link UndoRecord} keeps: HP, EP, conditions, and hitboxes and armor points where the ruleset has them (Hitbox). */
export interface RecordVitals {
  hp: Track;
  ep: Track;
  conditions: string[];
  hitboxes?: Record<string, Track>;
  armor?: Record<string, Track>;
}

/** A copy of a map of tracks, or nothing. */
function tracks(map: Record<string, Track> | undefined): Record<string, Track> | undefined {
  return map ? Object.fromEntries(Object.entries(map).map(([k, t]) => [k, { value: t.value, max: t.max }])) : undefined;
}

/** One application in a target actor's ledger. */
export interface LedgerEntry {
  stamp: string;
  /** The attack message and the card target it came from. */
  messageId: string;
  index: number;
  /** What the application changed ({@link deltaOf}). */
  delta: VitalDelta;
  /** True once undone: a second undo changes nothing. */
  undone: boolean;
}

const track = (t: Track | undefined, fallback: Track): Track => ({ value: t?.value ?? fallback.value, max: t?.max ?? fallback.max });

/**
 * The record of one application from the core's damage report (UD-DMG-02 to UD-DMG-05).
 * @param actorUuid the damaged actor.
 * @param report what `ud10.applyDamage` returned.
 * @param userId who asked for it.
 * @param stamp the application's id.
 */
export function undoRecord(actorUuid: string, report: DamageReport, userId: string, stamp: string): UndoRecord {
  const zero = { value: 0, max: 0 };
  const hpBefore = track(report.before.hp, zero);
  const epBefore = track(report.before.ep, zero);
  const before: RecordVitals = { hp: hpBefore, ep: epBefore, conditions: [...report.before.conditions] };
  const after: RecordVitals = {
    hp: track(report.after.hp, hpBefore),
    ep: track(report.after.ep, epBefore),
    conditions: [...report.after.conditions],
  };
  for (const key of ["hitboxes", "armor"] as const) {
    const b = tracks(report.before[key]);
    const a = tracks(report.after[key]);
    if (b && a) {
      before[key] = b;
      after[key] = a;
    }
  }
  return {
    stamp,
    actorUuid,
    before,
    after,
    added: [...report.added],
    steps: report.steps.map((s) => ({ ...s, data: s.data ? { ...s.data } : undefined })),
    userId,
  };
}

/**
 * The ledger entry of a record.
 * @param delta what the application changed in full (`deltaOf` of the core's report: stun,
 *   bleeding, lasting effects); the record's HP, EP and conditions when absent.
 */
export function ledgerEntryOf(record: UndoRecord, messageId: string, index: number, delta?: VitalDelta): LedgerEntry {
  return { stamp: record.stamp, messageId, index, delta: delta ?? deltaOf(record.before, record.after), undone: false };
}

/** The ledger key of one card target: `<message id>-<index>` (flag keys hold no dots). */
export function ledgerKey(messageId: string, index: number): string {
  return `${ledgerPrefix(messageId)}${index}`;
}

/** The start every ledger key of one attack message shares. */
export function ledgerPrefix(messageId: string): string {
  return `${messageId.replace(/[^A-Za-z0-9]/g, "")}-`;
}

/** The actor update that writes a ledger entry. */
export function ledgerUpdate(key: string, entry: LedgerEntry): Record<string, unknown> {
  return { [`flags.fray.ledger.${key}`]: entry };
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function change(value: unknown): TrackChange | undefined {
  const v = value as { before?: unknown; after?: unknown } | undefined;
  const before = num(v?.before);
  const after = num(v?.after);
  return before === undefined || after === undefined ? undefined : { before, after };
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((s): s is string => typeof s === "string") : [];
}

/** The lasting effects of a stored delta: ids added, whole effects removed (each with a string id and kind). */
function effectsOf(value: unknown): VitalDelta["effects"] {
  const v = value as { added?: unknown; removed?: unknown } | undefined;
  if (!v) return undefined;
  const removed = Array.isArray(v.removed)
    ? (v.removed as unknown[]).filter(
        (e): e is LastingEffect =>
          typeof e === "object" &&
          e !== null &&
          typeof (e as LastingEffect).id === "string" &&
          typeof (e as LastingEffect).kind === "string",
      )
    : [];
  return { added: strings(v.added), removed };
}

/**
 * A target's ledger entry for one card target, read from the actor's flags and checked: an entry
 * without a stamp, or with tracks that are not numbers, counts as none.
 * @param actor the target actor (`getFlag("fray", "ledger")`).
 */
export function ledgerEntry(actor: { getFlag?(scope: string, key: string): unknown }, key: string): LedgerEntry | undefined {
  const ledger = actor.getFlag?.("fray", "ledger") as Record<string, unknown> | undefined;
  const raw = ledger?.[key] as Record<string, unknown> | undefined;
  if (!raw || typeof raw.stamp !== "string" || !raw.stamp) return undefined;
  const d = (raw.delta ?? {}) as Record<string, unknown>;
  const delta: VitalDelta = { added: strings(d.added), removed: strings(d.removed) };
  const hp = change(d.hp);
  if (hp) delta.hp = hp;
  const ep = change(d.ep);
  if (ep) delta.ep = ep;
  const bleeding = change(d.bleeding);
  if (bleeding) delta.bleeding = bleeding;
  const stun = change(d.stun);
  if (stun) delta.stun = stun;
  const effects = effectsOf(d.effects);
  if (effects) delta.effects = effects;
  for (const key of ["hitboxes", "armor"] as const) {
    const raw = d[key];
    if (!raw || typeof raw !== "object") continue;
    const map: Record<string, TrackChange> = {};
    for (const [id, v] of Object.entries(raw as Record<string, unknown>)) {
      const c = change(v);
      if (c) map[id] = c;
    }
    if (Object.keys(map).length) delta[key] = map;
  }
  return { stamp: raw.stamp, messageId: String(raw.messageId ?? ""), index: num(raw.index) ?? -1, delta, undone: raw.undone === true };
}

/**
 * The state after undoing one application (UD-DMG-02 to UD-DMG-04): the core's {@link revert}
 * (each track at most its maximum, at least its floor), then the ruleset's vital-derived
 * conditions set from the vitals.
 */
export function undoneState(current: VitalState, delta: VitalDelta, rules: VitalRules = NO_VITAL_CONDITIONS): VitalState {
  const reverted = revert(current, delta, rules.floors ?? {});
  return recomputeConditions(reverted, rules.conditions, rules.implied(reverted));
}

/**
 * The status toggles that take an actor from one state's conditions to another's, limited to
 * the vital-derived conditions and those the undone application added or removed; nothing else
 * is touched.
 */
export function statusChanges(
  current: VitalState,
  next: VitalState,
  delta: VitalDelta,
  rules: VitalRules = NO_VITAL_CONDITIONS,
): { add: string[]; remove: string[] } {
  const ids = [...new Set([...rules.conditions, ...delta.added, ...delta.removed])];
  return {
    add: ids.filter((c) => next.conditions.includes(c) && !current.conditions.includes(c)),
    remove: ids.filter((c) => !next.conditions.includes(c) && current.conditions.includes(c)),
  };
}
