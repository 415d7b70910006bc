/**
 * What a sheet allows for each value, in one table: the bounds every input boundary checks
 * (encounter files, the macro and `game.fray` API, dialog values, the rules core's public
 * validators) and the Foundry data models read. The bounds are generous: they refuse nonsense
 * (a cover of -1e9, a range of -5 m, a 10 MB name) and accept every legitimate extreme a table
 * may reach. RULES.md, section "Input limits", explains the choices.
 */
import type { RulesetId } from "./types.js";

/** The allowed values of one kind of number: `min` to `max`, whole numbers only when `integer`. */
export interface Bound {
  readonly min: number;
  readonly max: number;
  readonly integer: boolean;
  /** What the value counts (for docs and sheets): metres, feet, points, rounds, characters ... */
  readonly unit?: string;
}

const b = (min: number, max: number, integer = true, unit?: string): Bound => ({ min, max, integer, unit });

/** The largest seed the seeded dice roller tells apart (a 31-bit whole number, 0 included). */
export const MAX_SEED = 2 ** 31 - 1;

/**
 * Bounds shared by every ruleset: names and ids, list lengths, distances on a scene, encounter
 * files (seed, rounds, combatants, scripted dice).
 */
export const COMMON_BOUNDS = {
  /** Characters of a name or id (actor, weapon, armor, side, encounter). */
  nameLength: b(1, 256, true, "characters"),
  /** Characters of a free text (a description, a task, what is said). */
  textLength: b(0, 4096, true, "characters"),
  /** Entries of a list on a combatant (weapons, armor, conditions, effects, held items). */
  listLength: b(0, 200, true, "entries"),
  /** Distance between tokens in metres: 0 to 100 km. */
  rangeMetres: b(0, 100_000, false, "metres"),
  /** Seed of the seeded dice roller. */
  seed: b(0, MAX_SEED, true),
  /** Rounds an encounter may last. */
  maxRounds: b(1, 10_000, true, "rounds"),
  /** Combatants of one encounter. */
  combatants: b(2, 200, true, "entries"),
  /** Scripted die faces of an encounter file. */
  diceScript: b(0, 100_000, true, "entries"),
  /** One scripted die face (d100 the largest die in play). */
  dieFace: b(1, 100, true),
  /** An initiative total rolled before a fight (an encounter's `initiative`: d100 + bonuses at most). */
  initiative: b(-1000, 1000, false),
  /** Slot uses or pool points already spent of a round (an encounter's `spent`). */
  spent: b(0, 1000, true, "points"),
  /** A numeric option of a ruleset that the table below does not name. */
  option: b(-1000, 1000, false),
} as const satisfies Record<string, Bound>;

/** UD10 (seed 001): attributes, skill ratings, pools, armor, weapons, situation. */
const UD10 = {
  attribute: b(0, 20),
  skill: b(0, 30),
  /** HP and EP maximum. */
  pool: b(0, 1000, true, "points"),
  /** Current HP may drop below 0 (UD-DMG-04) down to minus the maximum. */
  poolValue: b(-1000, 1000, true, "points"),
  /** Current EP never drops below 0 (UD-DMG-03; RULES.md, "EP and HP at zero"). */
  epValue: b(0, 1000, true, "points"),
  armorRating: b(0, 50, true, "points"),
  buffer: b(0, 50, true, "points"),
  penetration: b(0, 50, true, "points"),
  attackModifier: b(-50, 50),
  rangeIncrement: b(0, 10_000, false, "metres"),
  shots: b(1, 1000, true, "rounds"),
  cover: b(0, 50, true, "points"),
  modifier: b(-50, 50),
  aim: b(0, 2, true, "rounds"),
  roundSeconds: b(1, 600, true, "seconds"),
} as const satisfies Record<string, Bound>;

/** Hitbox (seed 002): abilities, skills, hitboxes, armor points, weapons in feet, situation. */
const HITBOX = {
  ability: b(-10, 20),
  skill: b(-10, 20),
  hitbox: b(1, 100, true, "points"),
  hitboxValue: b(0, 100, true, "points"),
  armor: b(0, 100, true, "points"),
  damage: b(0, 100, true, "points"),
  closeBonus: b(1, 100, true, "points"),
  rangeFeet: b(0, 330_000, false, "feet"),
  weaponRangeFeet: b(0.1, 330_000, false, "feet"),
  hands: b(1, 2),
  shots: b(1, 100),
  modifier: b(-50, 50),
  hitboxPoints: b(1, 100, true, "points"),
  shockTurns: b(0, 1000, true, "turns"),
} as const satisfies Record<string, Bound>;

/** Critical (seed 003): bonuses in percentile points, hits, Move in metres, situation. */
const CRITICAL = {
  bonus: b(-500, 500),
  ob: b(-500, 500),
  defense: b(-500, 500),
  weaponBonus: b(-100, 100),
  physiqueRanks: b(0, 100),
  physiqueTotal: b(1, 1000, true, "points"),
  /** Current hits may drop far below 0 (CR-HIT-02). */
  hitsValue: b(-10_000, 1000, true, "points"),
  stun: b(0, 1000, true, "rounds"),
  baseMove: b(0, 1000, false, "metres"),
  maneuverPenalty: b(-500, 0),
  fumble: b(0, 95),
  cover: b(0, 500),
  modifier: b(-500, 500),
  effectValue: b(-1000, 1000),
  effectRounds: b(0, 1000, true, "rounds"),
} as const satisfies Record<string, Bound>;

/** Zones (seed 004): attribute modifiers, skill ranks, pools, armor, weapons, situation. */
const ZONES = {
  attribute: b(-10, 10),
  skill: b(0, 20),
  pool: b(0, 1000, true, "points"),
  /** Current HP may drop below 0 (ZN-DMG-01). */
  poolValue: b(-1000, 1000, true, "points"),
  armor: b(0, 100, true, "points"),
  effectiveRange: b(0, 100_000, false, "metres"),
  radius: b(0, 10_000, false, "metres"),
  recoil: b(0, 20),
  burst: b(0, 100, true, "bullets"),
  bullets: b(1, 1000, true, "bullets"),
  /** Bullets that leave before a malfunction the GM declares: 0 when the first one fails (ZN-MAL-01). */
  malfunctionAfter: b(0, 1000, true, "bullets"),
  magazine: b(0, 1000, true, "rounds"),
  spareMagazines: b(0, 1000),
  reloadActions: b(1, 100),
  actions: b(0, 20),
  initiativeBonus: b(-50, 50),
  aim: b(0, 20),
  modifier: b(-50, 50),
  lowLightModifier: b(0, 20),
  meleeDifficulty: b(0, 50),
} as const satisfies Record<string, Bound>;

/** Bounds per ruleset, by value kind. */
export const RULESET_BOUNDS = { ud10: UD10, hitbox: HITBOX, critical: CRITICAL, zones: ZONES } as const satisfies Record<
  RulesetId,
  Record<string, Bound>
>;

/**
 * Bounds of the numeric options of each ruleset by option id; an option not named here takes
 * {@link COMMON_BOUNDS.option}.
 */
export const OPTION_BOUNDS: Record<RulesetId, Record<string, Bound>> = {
  ud10: { roundSeconds: UD10.roundSeconds },
  hitbox: { hitboxPoints: HITBOX.hitboxPoints, hitboxShockTurns: HITBOX.shockTurns },
  critical: {},
  zones: { lowLightModifier: ZONES.lowLightModifier, meleeDifficulty: ZONES.meleeDifficulty },
};

/** True when `n` is a number within `bound`. */
export function withinBound(n: number, bound: Bound): boolean {
  return Number.isFinite(n) && n >= bound.min && n <= bound.max && (!bound.integer || Number.isInteger(n));
}
