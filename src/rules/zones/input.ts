import type { EnvironmentId } from "./difficulty.js";
import type { DamageType, HitZoneId, Malfunction, MovementCategory, SizeCategory, Stance, ZonesCombatant } from "./model.js";

/**
 * Situational factors of a Zones attack (ZN-RNG-01, ZN-RNG-04 to ZN-RNG-07, ZN-ZON-03, ZN-MEL-02,
 * ZN-VIT-03, ZN-MAL-01). Anything left out is read from the combatants: the target's size from
 * its stance, movement and stance from their current state, aim from the attacker's aiming
 * actions this round.
 */
export interface ZonesSituation {
  /** The target's size as the GM rules it (cover, a big dog); otherwise from its size and stance. */
  targetSize?: SizeCategory;
  targetMovement?: MovementCategory;
  shooterMovement?: MovementCategory;
  /** The shooter's stance. */
  stance?: Stance;
  /** Aiming actions taken this round (ZN-RNG-07). */
  aim?: number;
  /** Environment conditions: `lowLight`, `darkness`, `strongWind`, `impairedVision`. */
  environment?: EnvironmentId[];
  /** Any further environment modifier to the difficulty. */
  environmentModifier?: number;
  /** Miscellaneous modifier to the difficulty. */
  misc?: number;
  /** A zone aimed at (ZN-ZON-03). */
  aimedZone?: HitZoneId;
  /** A melee surprise attack: no dodge, no block (ZN-MEL-02). */
  surprise?: boolean;
  /** The target's vital organs are exposed: slashing harms them (ZN-VIT-03). */
  exposedVitals?: boolean;
  /** A malfunction the GM rules for this shot, after so many bullets have left (ZN-MAL-01). */
  malfunction?: { kind: Malfunction; afterBullets?: number };
}

/** A grenade's target area (ZN-GRN-01): a medium target unless the GM rules it smaller or larger. */
export interface TargetArea {
  size?: SizeCategory;
  /** What the area is (content text), for the log. */
  label?: string;
}

/** Everything a Zones attack needs. */
export interface ZonesAttackInput {
  attacker: ZonesCombatant;
  /** The target; absent for a grenade thrown at an area. */
  target?: ZonesCombatant;
  /** A grenade's target area (ZN-GRN-01). */
  area?: TargetArea;
  /** Id or name of one of the attacker's weapons. */
  weaponId: string;
  /** `single` (default), `burst` or `auto` (ZN-BST-01). */
  modeId?: "single" | "burst" | "auto";
  /** Bullets of full auto fire; a burst fires the weapon's burst size. */
  bullets?: number;
  /** Distance in metres. */
  rangeMetres?: number;
  /** The damage type used when the weapon has several (a knife's slash, ZN-DMG-01). */
  damageType?: DamageType;
  situation?: ZonesSituation;
  /** The melee reaction the defender makes (ZN-MEL-03, ZN-MEL-04). */
  reaction?: "dodge" | "block";
}
