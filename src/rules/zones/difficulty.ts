import { pluralKey } from "../core/i18n.js";
import { FrayError } from "../core/errors.js";
import { difficulty, type Difficulty, type Modifier } from "../core/types.js";
import { SIZES, type HitZoneId, type MovementCategory, type RangeBand, type SizeCategory, type Stance } from "./model.js";

/** Base difficulty of a ranged attack (ZN-RNG-01). */
export const BASE_DIFFICULTY = 5;

/**
 * The size/range table (ZN-RNG-03): difficulty by target size and range band.
 * Rows tiny to huge, columns close, medium, far, maximum.
 */
export const SIZE_RANGE_TABLE: Readonly<Record<SizeCategory, Readonly<Record<RangeBand, number>>>> = {
  tiny: { close: 3, medium: 6, far: 12, maximum: 18 },
  small: { close: 2, medium: 4, far: 8, maximum: 12 },
  medium: { close: 1, medium: 2, far: 4, maximum: 6 },
  large: { close: -12, medium: -8, far: -4, maximum: -2 },
  huge: { close: -18, medium: -12, far: -6, maximum: -3 },
};

/** Movement modifiers, for the target and for the shooter alike (ZN-RNG-04). */
export const MOVEMENT_MODIFIER: Readonly<Record<MovementCategory, number>> = { still: -2, subtle: 0, slow: 2, fast: 4 };

/** Shooter stance modifiers (ZN-RNG-05). */
export const STANCE_MODIFIER: Readonly<Record<Stance, number>> = { standing: -1, kneeling: -2, proneFiring: -3, prone: 2 };

/** Size steps a stance takes off the standing size (ZN-RNG-06): kneeling one, either prone two. */
export const STANCE_SIZE_STEPS: Readonly<Record<Stance, number>> = { standing: 0, kneeling: 1, proneFiring: 2, prone: 2 };

/** Difficulty lowered by each aiming action (ZN-RNG-07). */
export const AIM_BONUS = 2;

/**
 * Environment conditions with their difficulty (ZN-RNG-01). Low light comes from the option
 * `lowLightModifier` (1 by default, the seed's worked example); the others are Fray's values
 * (RULES.md).
 */
export const ENVIRONMENT_MODIFIER = { darkness: 4, strongWind: 2, impairedVision: 2 } as const;
export type EnvironmentId = "lowLight" | keyof typeof ENVIRONMENT_MODIFIER;

/** The bounds of one range band in metres: from `min` (inclusive) up to `max` (exclusive; maximum includes the effective range). */
export interface RangeBandBounds {
  band: RangeBand;
  min: number;
  max: number;
}

/**
 * The four range bands of a weapon from its effective range ER (ZN-RNG-02): close below ER/8,
 * medium ER/8 to ER/4, far ER/4 to ER/2, maximum ER/2 to ER. A Glock with ER 50 m: close below
 * 6.25 m, medium 6.25-12.5, far 12.5-25, maximum 25-50.
 * @param effectiveRange metres.
 * @throws FrayError `FRAY.Error.Field` (field `effectiveRange`) when it is not positive.
 */
export function rangeBands(effectiveRange: number): RangeBandBounds[] {
  if (!(effectiveRange > 0))
    throw new FrayError(
      "FRAY.Error.Field",
      { field: "effectiveRange", expected: "a positive number of metres" },
      "Effective range must be positive",
    );
  const er = effectiveRange;
  return [
    { band: "close", min: 0, max: er / 8 },
    { band: "medium", min: er / 8, max: er / 4 },
    { band: "far", min: er / 4, max: er / 2 },
    { band: "maximum", min: er / 2, max: er },
  ];
}

/**
 * The range band a distance falls in (ZN-RNG-02). Each band starts at its lower bound: exactly
 * ER/8 is medium, ER/4 far, ER/2 maximum, and ER itself is still maximum.
 * @param distance metres, 0 or more.
 * @param effectiveRange the weapon's effective range in metres.
 * @throws FrayError `FRAY.Error.Zones.OutOfRange` (field `range`) beyond the effective range, and
 *   `FRAY.Error.Field` for a negative distance.
 */
export function rangeBand(distance: number, effectiveRange: number): RangeBand {
  if (!(distance >= 0))
    throw new FrayError("FRAY.Error.Field", { field: "range", expected: "metres, 0 or more" }, "Range must be 0 or more metres");
  const er = effectiveRange;
  if (!(er > 0))
    throw new FrayError(
      "FRAY.Error.Field",
      { field: "effectiveRange", expected: "a positive number of metres" },
      "Effective range must be positive",
    );
  if (distance > er) {
    throw new FrayError(
      "FRAY.Error.Zones.OutOfRange",
      { field: "range", range: distance, effective: er },
      `${distance} m is beyond the effective range of ${er} m`,
    );
  }
  // The bounds of `rangeBands`.
  if (distance < er / 8) return "close";
  if (distance < er / 4) return "medium";
  if (distance < er / 2) return "far";
  return "maximum";
}

/**
 * Moves a size category by `steps` (negative: smaller). Returns `undefined` below tiny; huge is
 * the largest (ZN-RNG-06, ZN-ZON-03).
 */
export function shiftSize(size: SizeCategory, steps: number): SizeCategory | undefined {
  const i = SIZES.indexOf(size) + steps;
  if (i < 0) return undefined;
  return SIZES[Math.min(i, SIZES.length - 1)];
}

/**
 * A target's size from its standing size and stance (ZN-RNG-06): a standing human is medium,
 * kneeling small, prone (either prone stance) tiny; a smaller creature shrinks the same number of
 * steps, never below tiny.
 */
export function sizeFromStance(standingSize: SizeCategory, stance: Stance): SizeCategory {
  return shiftSize(standingSize, -STANCE_SIZE_STEPS[stance]) ?? "tiny";
}

/**
 * The size an aimed shot at one zone works against (ZN-ZON-03): one step smaller for a body part,
 * two for a vital organ.
 * @throws FrayError `FRAY.Error.Zones.AimedZoneImpossible` (field `aimedZone`) when that would be
 *   smaller than tiny.
 */
export function aimedZoneSize(size: SizeCategory, zone: HitZoneId): SizeCategory {
  const steps = zone === "heart" || zone === "brain" ? 2 : 1;
  const out = shiftSize(size, -steps);
  if (!out) {
    throw new FrayError(
      "FRAY.Error.Zones.AimedZoneImpossible",
      { field: "aimedZone", zone: `FRAY.Zones.Zone.${zone}`, size: `FRAY.Zones.Size.${size}` },
      `A ${size} target is too small to aim at its ${zone}`,
    );
  }
  return out;
}

/** What a ranged difficulty is built from (ZN-RNG-01 to ZN-RNG-07, ZN-ZON-03). */
export interface RangedFactors {
  /** Distance in metres. */
  range: number;
  /** The weapon's effective range in metres. */
  effectiveRange: number;
  /** Target size before an aimed zone (already from its stance). */
  targetSize: SizeCategory;
  /** Target movement; absent for an area (a grenade's target, ZN-GRN-01). */
  targetMovement?: MovementCategory;
  shooterMovement: MovementCategory;
  shooterStance: Stance;
  /** Aiming actions taken this round (ZN-RNG-07). */
  aim?: number;
  /** Environment conditions (ZN-RNG-01). */
  environment?: EnvironmentId[];
  /** Any further environment modifier the GM rules. */
  environmentModifier?: number;
  /** Miscellaneous modifier the GM rules. */
  misc?: number;
  /** A zone aimed at (ZN-ZON-03). */
  aimedZone?: HitZoneId;
  /** Difficulty of low light (option `lowLightModifier`). */
  lowLight: number;
}

/**
 * The itemized ranged difficulty (ZN-RNG-01): base 5, the size/range table (ZN-RNG-03, with the
 * range band of ZN-RNG-02 and the aimed-zone size of ZN-ZON-03), target and shooter movement
 * (ZN-RNG-04), environment, shooter stance (ZN-RNG-05), aiming (ZN-RNG-07) and misc. Movement
 * lines of 0 (subtle) are left out; the lines follow the order of the seed's worked example.
 * @throws FrayError `FRAY.Error.Zones.OutOfRange` beyond the effective range,
 *   `FRAY.Error.Zones.AimedZoneImpossible` for a zone too small to aim at.
 */
export function rangedDifficulty(f: RangedFactors): Difficulty {
  const mods: Modifier[] = [];
  rangedDifficultyTotal(f, mods);
  return difficulty({ label: "FRAY.Mod.Zones.Base", value: BASE_DIFFICULTY, rule: "ZN-RNG-01" }, mods);
}

/**
 * The ranged difficulty's total ({@link rangedDifficulty}; ZN-RNG-01 to ZN-RNG-07, ZN-ZON-03):
 * the base of 5 and every modifier; with `lines`, each modifier after the base is pushed there as
 * an itemized line. Environment conditions count once each.
 * @throws FrayError as {@link rangeBand}; `FRAY.Error.Zones.AimedZoneImpossible` as {@link aimedZoneSize}.
 */
export function rangedDifficultyTotal(f: RangedFactors, lines?: Modifier[]): number {
  const band = rangeBand(f.range, f.effectiveRange);
  const size = f.aimedZone ? aimedZoneSize(f.targetSize, f.aimedZone) : f.targetSize;
  let total = BASE_DIFFICULTY + SIZE_RANGE_TABLE[size][band];
  if (lines) {
    const data = { size: `FRAY.Zones.Size.${size}`, band: `FRAY.Zones.Band.${band}`, range: Math.round(f.range * 100) / 100 };
    lines.push({ label: "FRAY.Mod.Zones.SizeRange", value: SIZE_RANGE_TABLE[size][band], rule: "ZN-RNG-03", data });
  }
  if (f.aimedZone && lines) {
    const data = { zone: `FRAY.Zones.Zone.${f.aimedZone}`, size: `FRAY.Zones.Size.${size}` };
    lines.push({ label: "FRAY.Mod.Zones.AimedZone", value: 0, rule: "ZN-ZON-03", data });
  }
  if (f.targetMovement && MOVEMENT_MODIFIER[f.targetMovement] !== 0) {
    total += MOVEMENT_MODIFIER[f.targetMovement];
    if (lines) {
      const data = { movement: `FRAY.Zones.Movement.${f.targetMovement}` };
      lines.push({ label: "FRAY.Mod.Zones.TargetMovement", value: MOVEMENT_MODIFIER[f.targetMovement], rule: "ZN-RNG-04", data });
    }
  }
  if (MOVEMENT_MODIFIER[f.shooterMovement] !== 0) {
    total += MOVEMENT_MODIFIER[f.shooterMovement];
    if (lines) {
      const data = { movement: `FRAY.Zones.Movement.${f.shooterMovement}` };
      lines.push({ label: "FRAY.Mod.Zones.ShooterMovement", value: MOVEMENT_MODIFIER[f.shooterMovement], rule: "ZN-RNG-04", data });
    }
  }
  const environment = f.environment;
  if (environment) {
    for (let i = 0; i < environment.length; i++) {
      const env = environment[i]!;
      if (environment.indexOf(env) !== i) continue;
      const value = env === "lowLight" ? f.lowLight : ENVIRONMENT_MODIFIER[env];
      total += value;
      if (lines) lines.push({ label: `FRAY.Mod.Zones.${env[0]!.toUpperCase()}${env.slice(1)}`, value, rule: "ZN-RNG-01" });
    }
  }
  if (f.environmentModifier) {
    total += f.environmentModifier;
    if (lines) lines.push({ label: "FRAY.Mod.Zones.Environment", value: f.environmentModifier, rule: "ZN-RNG-01" });
  }
  total += STANCE_MODIFIER[f.shooterStance];
  if (lines) {
    const data = { stance: `FRAY.Zones.Stance.${f.shooterStance}` };
    lines.push({ label: "FRAY.Mod.Zones.Stance", value: STANCE_MODIFIER[f.shooterStance], rule: "ZN-RNG-05", data });
  }
  if (f.aim && f.aim > 0) {
    total += -AIM_BONUS * f.aim;
    if (lines)
      lines.push({ label: pluralKey("FRAY.Mod.Zones.Aim", f.aim), value: -AIM_BONUS * f.aim, rule: "ZN-RNG-07", data: { actions: f.aim } });
  }
  if (f.misc) {
    total += f.misc;
    if (lines) lines.push({ label: "FRAY.Mod.Zones.Misc", value: f.misc, rule: "ZN-RNG-01" });
  }
  return total;
}
