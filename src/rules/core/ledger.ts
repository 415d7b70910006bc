/**
 * A ledger of applications on a {@link VitalState}: what one application of damage (or healing)
 * changed, as a delta per track, and the state after that application is undone. Undo gives back
 * exactly this application's change to the state as it is now, so later changes stay, and
 * clamps every track to its bounds: HP never above its maximum, EP never below 0 ... Statuses
 * that follow from the vitals are not decided here: each ruleset says which of its conditions a
 * state implies (UD10: `vitalConditions` in `ud10/vitals.ts`), and {@link recomputeConditions}
 * sets them from the state after undo. Pure: no Foundry, no dice.
 *
 * Tracks and their floors in the four rulesets' damage code: UD10 HP may drop below 0 (UD-DMG-04,
 * RULES.md), EP stops at 0 (UD-DMG-03); Critical hits may drop below 0 (CR-HIT-01); Zones HP
 * may drop below 0 (ZN-DMG-01); Hitbox hitboxes and armor points stop at 0 (HB-DMG-01).
 */
import type { LastingEffect, Track, VitalState } from "./types.js";

/** One track before and after an application (points). */
export interface TrackChange {
  before: number;
  after: number;
}

/** A counter without a maximum (bleeding per round, stun rounds) before and after. */
export interface CountChange {
  before: number;
  after: number;
}

/** What one application changed on a vital state: only the tracks that changed are listed. */
export interface VitalDelta {
  hp?: TrackChange;
  ep?: TrackChange;
  /** Per hitbox id (Hitbox). */
  hitboxes?: Record<string, TrackChange>;
  /** Armor points left per location (Hitbox ablative armor). */
  armor?: Record<string, TrackChange>;
  /** Hits per round from bleeding (Critical). */
  bleeding?: CountChange;
  /** Stun rounds (Critical). */
  stun?: CountChange;
  /**
   * Lasting effects (Critical wounds, injuries, dying): the ids of those the application added,
   * and those it removed, whole.
   */
  effects?: EffectChange;
  /** Conditions the application added. */
  added: string[];
  /** Conditions the application removed. */
  removed: string[];
}

/** The lasting effects one application added (by id) and removed (whole). */
export interface EffectChange {
  added: string[];
  removed: LastingEffect[];
}

/**
 * The lowest value of each kind of track, where a ruleset lets it go below 0. Missing entries
 * are 0; `-Infinity` means no floor (UD10 HP, Critical hits, Zones HP).
 */
export interface LedgerFloors {
  hp?: number;
  ep?: number;
  hitboxes?: number;
  armor?: number;
}

function trackChange(before: Track | undefined, after: Track | undefined): TrackChange | undefined {
  if (!before || !after || before.value === after.value) return undefined;
  return { before: before.value, after: after.value };
}

function trackMap(
  before: Record<string, Track> | undefined,
  after: Record<string, Track> | undefined,
): Record<string, TrackChange> | undefined {
  if (!before || !after) return undefined;
  const out: Record<string, TrackChange> = {};
  for (const [id, b] of Object.entries(before)) {
    const change = trackChange(b, after[id]);
    if (change) out[id] = change;
  }
  return Object.keys(out).length ? out : undefined;
}

function countChange(before: number | undefined, after: number | undefined): CountChange | undefined {
  const b = before ?? 0;
  const a = after ?? 0;
  return a === b ? undefined : { before: b, after: a };
}

/** A copy of a lasting effect that shares no array with it. */
function copyEffect(e: LastingEffect): LastingEffect {
  return { ...e, ...(e.stops ? { stops: [...e.stops] } : {}), ...(e.treated ? { treated: [...e.treated] } : {}) };
}

function effectChange(before: LastingEffect[] | undefined, after: LastingEffect[] | undefined): EffectChange | undefined {
  if (!before && !after) return undefined;
  const was = before ?? [];
  const now = after ?? [];
  const added = now.filter((e) => !was.some((b) => b.id === e.id)).map((e) => e.id);
  const removed = was.filter((b) => !now.some((e) => e.id === b.id)).map((e) => copyEffect(e));
  return added.length || removed.length ? { added, removed } : undefined;
}

/**
 * The delta of one application from the state before and after it (a ruleset's
 * `DamageReport.before` / `.after`). Tracks present on only one side are left out.
 */
export function deltaOf(before: VitalState, after: VitalState): VitalDelta {
  const delta: VitalDelta = {
    added: after.conditions.filter((c) => !before.conditions.includes(c)),
    removed: before.conditions.filter((c) => !after.conditions.includes(c)),
  };
  const hp = trackChange(before.hp, after.hp);
  if (hp) delta.hp = hp;
  const ep = trackChange(before.ep, after.ep);
  if (ep) delta.ep = ep;
  const hitboxes = trackMap(before.hitboxes, after.hitboxes);
  if (hitboxes) delta.hitboxes = hitboxes;
  const armor = trackMap(before.armor, after.armor);
  if (armor) delta.armor = armor;
  const bleeding = countChange(before.bleeding, after.bleeding);
  if (bleeding) delta.bleeding = bleeding;
  const stun = countChange(before.stun, after.stun);
  if (stun) delta.stun = stun;
  const effects = effectChange(before.effects, after.effects);
  if (effects) delta.effects = effects;
  return delta;
}

/** `value` clamped to `[floor, max]`; a value already below the floor is not raised by an undo that lowers it. */
function clamp(value: number, floor: number, max: number): number {
  return Math.min(max, Math.max(floor, value));
}

function revertTrack(current: Track, change: TrackChange, floor: number): Track {
  const value = current.value - (change.after - change.before);
  // A track already below its floor stays where it is rather than being lifted by the clamp.
  const low = Math.min(floor, current.value);
  return { value: clamp(value, low, current.max), max: current.max };
}

function revertMap(
  current: Record<string, Track> | undefined,
  changes: Record<string, TrackChange> | undefined,
  floor: number,
): Record<string, Track> | undefined {
  if (!current) return undefined;
  const out: Record<string, Track> = {};
  for (const [id, t] of Object.entries(current)) {
    const change = changes?.[id];
    out[id] = change ? revertTrack(t, change, floor) : { ...t };
  }
  return out;
}

/**
 * The state after undoing one application: each track the delta changed gets the opposite
 * change applied to its value now, clamped to `[floor, max]` with the track's current maximum
 * (HP given back never exceeds the maximum); counters (bleeding, stun) never drop below 0;
 * lasting effects it added are taken away and those it removed come back;
 * conditions the application added are removed and those it removed come back. Statuses that
 * follow from vitals are then set by the ruleset through {@link recomputeConditions}. The input
 * is not changed.
 * @param current the vital state now (after this and any later applications).
 * @param delta what the application changed ({@link deltaOf}).
 * @param floors the tracks that may go below 0 and how far.
 */
export function revert(current: VitalState, delta: VitalDelta, floors: LedgerFloors = {}): VitalState {
  const next: VitalState = { ...current, conditions: [...current.conditions] };
  if (current.hp) next.hp = delta.hp ? revertTrack(current.hp, delta.hp, floors.hp ?? 0) : { ...current.hp };
  if (current.ep) next.ep = delta.ep ? revertTrack(current.ep, delta.ep, floors.ep ?? 0) : { ...current.ep };
  const hitboxes = revertMap(current.hitboxes, delta.hitboxes, floors.hitboxes ?? 0);
  if (hitboxes) next.hitboxes = hitboxes;
  const armor = revertMap(current.armor, delta.armor, floors.armor ?? 0);
  if (armor) next.armor = armor;
  if (delta.bleeding) next.bleeding = Math.max(0, (current.bleeding ?? 0) - (delta.bleeding.after - delta.bleeding.before));
  if (delta.stun) next.stun = Math.max(0, (current.stun ?? 0) - (delta.stun.after - delta.stun.before));
  if (delta.effects) {
    const kept = (current.effects ?? []).filter((e) => !delta.effects!.added.includes(e.id));
    for (const e of delta.effects.removed) if (!kept.some((k) => k.id === e.id)) kept.push(copyEffect(e));
    next.effects = kept;
  }
  next.conditions = next.conditions.filter((c) => !delta.added.includes(c));
  for (const c of delta.removed) if (!next.conditions.includes(c)) next.conditions.push(c);
  return next;
}

/**
 * The state with its vital-derived conditions set from its vitals: every id of `derived` is
 * removed, then the ids of `implied` (those the ruleset says the state implies) are added.
 * Other conditions are kept in their order.
 * @param derived every condition the ruleset derives from vitals.
 * @param implied those the state implies now (a subset of `derived`).
 */
export function recomputeConditions(state: VitalState, derived: readonly string[], implied: readonly string[]): VitalState {
  const kept = state.conditions.filter((c) => !derived.includes(c));
  for (const c of implied) if (!kept.includes(c)) kept.push(c);
  return { ...state, conditions: kept };
}
