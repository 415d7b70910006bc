import { atLeast, plainDicePmf, type Pmf } from "../core/dice/distribution.js";
import type { DiceRoller } from "../core/dice/port.js";
import { FrayError } from "../core/errors.js";
import type { HitLocation } from "../core/ruleset.js";
import type { RollOutcome } from "../core/types.js";
import { HITBOXES, type HitboxId } from "./model.js";

/** The regular hit-location table: 2d6 ranges per hitbox (HB-LOC-01). */
export const REGULAR_LOCATIONS: readonly { hitbox: HitboxId; from: number; to: number }[] = [
  { hitbox: "head", from: 2, to: 3 },
  { hitbox: "leftArm", from: 4, to: 4 },
  { hitbox: "leftLeg", from: 5, to: 6 },
  { hitbox: "torso", from: 7, to: 8 },
  { hitbox: "rightLeg", from: 9, to: 10 },
  { hitbox: "rightArm", from: 11, to: 11 },
  { hitbox: "groin", from: 12, to: 12 },
];

/**
 * The called-shot table: the lowest 2d6 total that hits the called hitbox (HB-LOC-02): head 9-12,
 * an arm 8-12, a leg 8-12, groin 11-12. Any lower total hits the torso. The torso itself is not a
 * called location (every failed called shot lands there).
 */
export const CALLED_THRESHOLDS: Readonly<Record<Exclude<HitboxId, "torso">, number>> = {
  head: 9,
  leftArm: 8,
  rightArm: 8,
  leftLeg: 8,
  rightLeg: 8,
  groin: 11,
};

/** Hitboxes a called shot may name (all but the torso, HB-LOC-02). */
export const CALLABLE: readonly Exclude<HitboxId, "torso">[] = HITBOXES.filter((h): h is Exclude<HitboxId, "torso"> => h !== "torso");

/**
 * The hitbox a 2d6 total hits on the regular table (HB-LOC-01).
 * @throws FrayError `FRAY.Error.Field` (field `location`) when the total is not 2-12.
 */
export function regularLocation(total: number): HitboxId {
  let row: (typeof REGULAR_LOCATIONS)[number] | undefined;
  for (let i = 0; i < REGULAR_LOCATIONS.length && !row; i++) {
    const r = REGULAR_LOCATIONS[i]!;
    if (total >= r.from && total <= r.to) row = r;
  }
  if (!row)
    throw new FrayError(
      "FRAY.Error.Field",
      { field: "location", expected: "a 2d6 total from 2 to 12" },
      `No hitbox for a roll of ${total}`,
    );
  return row.hitbox;
}

/**
 * The hitbox a called shot hits with a 2d6 total (HB-LOC-02): the called one when the total
 * reaches its threshold, else the torso.
 * @throws FrayError `FRAY.Error.Field` (field `calledShot`) when the called hitbox is not callable.
 */
export function calledLocation(called: HitboxId, total: number): HitboxId {
  if (called === "torso" || !(called in CALLED_THRESHOLDS)) {
    throw new FrayError("FRAY.Error.Field", { field: "calledShot", expected: CALLABLE.join(", ") }, `Cannot call a shot at "${called}"`);
  }
  return total >= CALLED_THRESHOLDS[called as Exclude<HitboxId, "torso">] ? called : "torso";
}

/** The 2d6 distribution, built once when the module loads (no formula parsed on a first call). */
const TWO_D6 = plainDicePmf(2, 6);

/** P(a called shot that hits lands on the called hitbox): P(2d6 >= threshold) (HB-LOC-02). */
export function calledChance(called: Exclude<HitboxId, "torso">): number {
  return atLeast(TWO_D6, CALLED_THRESHOLDS[called]);
}

/**
 * The hitbox a 2d6 total hits: on the called-shot table when a hitbox was called (HB-LOC-02),
 * else on the regular table (HB-LOC-01).
 * @throws FrayError as {@link calledLocation} and {@link regularLocation}.
 */
export function locationFor(called: HitboxId | undefined, total: number): HitboxId {
  return called ? calledLocation(called, total) : regularLocation(total);
}

/** The hit location of a rolled 2d6 ({@link locationFor}): its `id` is the hitbox hit (HB-LOC-01, HB-LOC-02). */
export function locationOf(roll: RollOutcome, called?: HitboxId): HitLocation & { called?: HitboxId } {
  const id = locationFor(called, roll.total);
  if (called) return { id, label: `FRAY.Hitbox.${id}`, rule: "HB-LOC-02", roll, called };
  return { id, label: `FRAY.Hitbox.${id}`, rule: "HB-LOC-01", roll };
}

/**
 * Rolls 2d6 for the hit location ({@link locationOf}): on the called-shot table when a hitbox
 * was called (HB-LOC-02), else on the regular table (HB-LOC-01).
 * @throws FrayError when the called hitbox is not callable, before rolling.
 */
export async function rollLocation(dice: DiceRoller, called?: HitboxId): Promise<HitLocation & { called?: HitboxId }> {
  if (called) calledLocation(called, 12);
  return locationOf(await dice.roll(LOCATION_DICE, called ? "FRAY.Roll.CalledLocation" : "FRAY.Roll.Location"), called);
}

/** The roll for the hit location, on either table (HB-LOC-01, HB-LOC-02). */
export const LOCATION_DICE = "2d6";

/** The distribution of {@link LOCATION_DICE}, built when the module loads (no formula parsed on a first call). */
export const LOCATION_PMF: Pmf = TWO_D6;
