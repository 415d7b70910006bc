/**
 * The opponents' stats a balanced fight scales (`balance` with `mode: "scale"`, ./balance.ts), per
 * ruleset, in one place: how much a combatant takes (its tracks) and how well it fights (its
 * skills). Every scaled value is rounded to a whole number and kept within the ruleset's bounds
 * (`RULESET_BOUNDS`, the bounds its stats schema checks), a maximum never below 1; values of 0 or
 * below (an untrained skill, a penalty) stay as they are. Pure.
 *
 * - UD10: HP and EP, maximum and current (UD-DMG-03, UD-DMG-04), and every skill rating.
 * - Hitbox: every hitbox, maximum and current (HB-DMG-01), and every skill.
 * - Critical: the physique total (the hits maximum) and the current hits (CR-HIT-01), and every
 *   skill's OB.
 * - Zones: HP, maximum and current (ZN-DMG-01), and every skill rank.
 */
import { RULESET_BOUNDS, type Bound } from "../rules/core/bounds.js";
import type { RulesetId } from "../rules/core/types.js";

/** One scaled stat: a number at `path` in the actor's `system` (dots between keys). */
export interface ScaledNumber {
  kind: "number";
  /** Dotted path in `system` (`hp.max`). */
  path: string;
  bound: Bound;
  /** The least it may be scaled to (a track's maximum: 1); the bound's minimum when unset. */
  floor?: number;
}

/** Every entry of a mapping (`skills`): a number, or the number under `field` of an entry that is a mapping. */
export interface ScaledEach {
  kind: "each";
  /** Dotted path of the mapping in `system`. */
  path: string;
  /** The key of the number in an entry that is a mapping (`rating`, `ranks`); none when every entry is a number. */
  field?: string;
  bound: Bound;
}

export type ScaledStat = ScaledNumber | ScaledEach;

const UD = RULESET_BOUNDS.ud10;
const HB = RULESET_BOUNDS.hitbox;
const CR = RULESET_BOUNDS.critical;
const ZN = RULESET_BOUNDS.zones;

/** A track stored as `{ value, max }`: its maximum (never below 1) and its current value. */
const track = (path: string, max: Bound, value: Bound): ScaledNumber[] => [
  { kind: "number", path: `${path}.max`, bound: max, floor: 1 },
  { kind: "number", path: `${path}.value`, bound: value },
];

/** The hitboxes of Hitbox (HB-DMG-01). */
const HITBOX_NAMES = ["head", "leftArm", "rightArm", "torso", "leftLeg", "rightLeg", "groin"] as const;

/** What a balance by stats scales, per ruleset (see the file's docstring). */
export const SCALED_STATS: Record<RulesetId, readonly ScaledStat[]> = {
  ud10: [
    ...track("hp", UD.pool, UD.poolValue),
    ...track("ep", UD.pool, UD.epValue),
    { kind: "each", path: "skills", field: "rating", bound: UD.skill },
  ],
  hitbox: [
    ...HITBOX_NAMES.flatMap((h) => track(`hitboxes.${h}`, HB.hitbox, HB.hitboxValue)),
    { kind: "each", path: "skills", bound: HB.skill },
  ],
  critical: [
    { kind: "number", path: "physique.total", bound: CR.physiqueTotal, floor: 1 },
    { kind: "number", path: "hits.value", bound: CR.hitsValue },
    { kind: "each", path: "skills", bound: CR.ob },
  ],
  zones: [...track("hp", ZN.pool, ZN.poolValue), { kind: "each", path: "skills", field: "ranks", bound: ZN.skill }],
};

type Raw = Record<string, unknown>;
const isRecord = (x: unknown): x is Raw => typeof x === "object" && x !== null && !Array.isArray(x);

/** `x` (above 0) times `factor`, rounded, within `bound` and not below `floor`. */
function scaled(x: number, factor: number, bound: Bound, floor = bound.min): number {
  return Math.min(bound.max, Math.max(floor, bound.min, Math.round(x * factor)));
}

/**
 * The stats to lay over an actor's `system` (as an encounter entry's `stats`, deep-merged) that
 * scale its {@link SCALED_STATS} by `factor`: only the scaled values, each at its path (values of
 * 0 or below are left out: they stay as they are). A track
 * stored as a bare number (`hp: 18`) is written out as `{ value, max }`. `system` is not changed.
 * @param system the actor's `system` with the entry's own `stats` already laid over it.
 * @param factor a positive number (1 changes nothing).
 */
export function scaledStats(ruleset: RulesetId, system: Raw, factor: number): Raw {
  const out: Raw = {};
  const at = (path: string[]): unknown => path.reduce<unknown>((o, k) => (isRecord(o) ? o[k] : undefined), system);
  const put = (path: string[], value: unknown) => {
    let o = out;
    for (const k of path.slice(0, -1)) o = (o[k] = isRecord(o[k]) ? o[k] : {}) as Raw;
    o[path[path.length - 1]!] = value;
  };
  for (const stat of SCALED_STATS[ruleset]) {
    const path = stat.path.split(".");
    if (stat.kind === "number") {
      const parent = at(path.slice(0, -1));
      // A track written as a bare number is its maximum and its current value.
      const x = typeof parent === "number" ? parent : at(path);
      if (typeof x === "number" && x > 0) put(path, scaled(x, factor, stat.bound, stat.floor));
      continue;
    }
    const map = at(path);
    if (!isRecord(map)) continue;
    for (const [key, entry] of Object.entries(map)) {
      if (typeof entry === "number") {
        if (entry > 0) put([...path, key], scaled(entry, factor, stat.bound));
      } else if (stat.field && isRecord(entry) && typeof entry[stat.field] === "number" && (entry[stat.field] as number) > 0)
        put([...path, key, stat.field], scaled(entry[stat.field] as number, factor, stat.bound));
    }
  }
  return out;
}
