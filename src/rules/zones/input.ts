import { RULESET_BOUNDS } from "../core/bounds.js";
import type { EnvironmentId } from "./difficulty.js";
import {
  HIT_ZONES,
  MALFUNCTIONS,
  MOVEMENTS,
  SIZES,
  STANCES,
  fieldError,
  isRecord,
  type DamageType,
  type HitZoneId,
  type Malfunction,
  type MovementCategory,
  type SizeCategory,
  type Stance,
  type ZonesCombatant,
} from "./model.js";

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

const ENVIRONMENTS: readonly EnvironmentId[] = ["lowLight", "darkness", "strongWind", "impairedVision"];

/**
 * Reads situational factors from plain data (an encounter file, a dialog), checking every key.
 * @param path where the data sits, for error messages (`rounds[0].sam.situation`).
 * @throws FrayError `FRAY.Error.Field` naming the first key that is unknown or holds a value
 *   Zones does not know (a stance `sitting`, an environment `fog`).
 */
export function parseSituation(raw: unknown, path = "situation"): ZonesSituation {
  if (raw === undefined || raw === null) return {};
  if (!isRecord(raw)) throw fieldError(path, "a mapping of situational factors");
  const out: ZonesSituation = {};
  // Most attacks give no situation at all: nothing to read.
  if (Object.keys(raw).length === 0) return out;
  const choice = <T extends string>(key: string, values: readonly T[]): T => {
    const v = raw[key];
    if (typeof v !== "string" || !(values as readonly string[]).includes(v))
      throw fieldError(`${path}.${key}`, `one of ${values.join(", ")}`);
    return v as T;
  };
  const number = (key: string, integer = false): number => {
    const v = raw[key];
    if (typeof v !== "number" || !Number.isFinite(v) || (integer && (!Number.isInteger(v) || v < 0))) {
      throw fieldError(`${path}.${key}`, integer ? "a whole number, 0 or more" : "a number");
    }
    return v;
  };
  const flag = (key: string): boolean => {
    if (typeof raw[key] !== "boolean") throw fieldError(`${path}.${key}`, "true or false");
    return raw[key];
  };
  for (const key of Object.keys(raw)) {
    switch (key) {
      case "targetSize":
        out.targetSize = choice(key, SIZES);
        break;
      case "targetMovement":
      case "shooterMovement":
        out[key] = choice(key, MOVEMENTS);
        break;
      case "stance":
        out.stance = choice(key, STANCES);
        break;
      case "aim":
        out.aim = number(key, true);
        break;
      case "environment": {
        const list = raw.environment;
        if (!Array.isArray(list)) throw fieldError(`${path}.environment`, `a list of ${ENVIRONMENTS.join(", ")}`);
        out.environment = list.map((e, i) => {
          if (!(ENVIRONMENTS as readonly unknown[]).includes(e))
            throw fieldError(`${path}.environment[${i}]`, `one of ${ENVIRONMENTS.join(", ")}`);
          return e as EnvironmentId;
        });
        break;
      }
      case "environmentModifier":
      case "misc":
        out[key] = number(key);
        break;
      case "aimedZone":
        out.aimedZone = choice(key, HIT_ZONES);
        break;
      case "surprise":
      case "exposedVitals":
        out[key] = flag(key);
        break;
      case "malfunction": {
        const m = raw.malfunction;
        if (!isRecord(m)) throw fieldError(`${path}.malfunction`, "{ kind, afterBullets }");
        const kind = m.kind;
        if (typeof kind !== "string" || !(MALFUNCTIONS as readonly string[]).includes(kind))
          throw fieldError(`${path}.malfunction.kind`, `one of ${MALFUNCTIONS.join(", ")}`);
        const after = m.afterBullets;
        const most = RULESET_BOUNDS.zones.malfunctionAfter.max;
        if (after !== undefined && (typeof after !== "number" || !Number.isInteger(after) || after < 0 || after > most))
          throw fieldError(`${path}.malfunction.afterBullets`, `a whole number, 0 to ${most}`);
        out.malfunction = { kind: kind as Malfunction, afterBullets: after };
        break;
      }
      default:
        throw fieldError(
          `${path}.${key}`,
          "one of targetSize, targetMovement, shooterMovement, stance, aim, environment, environmentModifier, misc, aimedZone, surprise, exposedVitals, malfunction",
        );
    }
  }
  return out;
}
