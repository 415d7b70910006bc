import { optionReader } from "../core/options.js";
import type { OptionSpec, RulesetOptions } from "../core/ruleset.js";

/**
 * Hitbox settings where the seed is silent or groups play it differently (RULES.md, section
 * Hitbox). Each becomes a world setting.
 */
export const HITBOX_OPTIONS: OptionSpec[] = [
  {
    id: "hitboxPoints",
    label: "FRAY.Option.hitboxPoints.label",
    hint: "FRAY.Option.hitboxPoints.hint",
    rule: "HB-DMG-01",
    type: "number",
    default: 2,
  },
  {
    id: "hitboxArmor",
    label: "FRAY.Option.hitboxArmor.label",
    hint: "FRAY.Option.hitboxArmor.hint",
    rule: "HB-DMG-01",
    type: "choice",
    default: "ablative",
    choices: ["ablative", "soak"],
  },
  {
    id: "hitboxBlackout",
    label: "FRAY.Option.hitboxBlackout.label",
    hint: "FRAY.Option.hitboxBlackout.hint",
    rule: "HB-DMG-04",
    type: "choice",
    default: "vital",
    choices: ["vital", "any"],
  },
  {
    id: "hitboxShockTurns",
    label: "FRAY.Option.hitboxShockTurns.label",
    hint: "FRAY.Option.hitboxShockTurns.hint",
    rule: "HB-DMG-04",
    type: "number",
    default: 0,
  },
  {
    id: "hitboxLegProne",
    label: "FRAY.Option.hitboxLegProne.label",
    hint: "FRAY.Option.hitboxLegProne.hint",
    rule: "HB-DMG-03",
    type: "boolean",
    default: true,
  },
  {
    id: "hitboxReactionTies",
    label: "FRAY.Option.hitboxReactionTies.label",
    hint: "FRAY.Option.hitboxReactionTies.hint",
    rule: "HB-ATK-04",
    type: "choice",
    default: "attacker",
    choices: ["attacker", "defender"],
  },
  {
    id: "hitboxReactionFloor",
    label: "FRAY.Option.hitboxReactionFloor.label",
    hint: "FRAY.Option.hitboxReactionFloor.hint",
    rule: "HB-ATK-03",
    type: "boolean",
    default: false,
  },
  {
    id: "hitboxParryRanged",
    label: "FRAY.Option.hitboxParryRanged.label",
    hint: "FRAY.Option.hitboxParryRanged.hint",
    rule: "HB-ATK-03",
    type: "boolean",
    default: false,
  },
  {
    id: "hitboxRapidFire",
    label: "FRAY.Option.hitboxRapidFire.label",
    hint: "FRAY.Option.hitboxRapidFire.hint",
    rule: "HB-MOD-03",
    type: "choice",
    default: "perExtraShot",
    choices: ["perExtraShot", "flat"],
  },
];

/** The resolved Hitbox options with their types. */
export interface HitboxOptions {
  /** Points each hitbox holds when a sheet does not say; the torso holds one more (HB-DMG-01). */
  hitboxPoints: number;
  /** `ablative`: armor points are used up by the damage they stop; `soak`: armor stops its points of every hit (HB-DMG-01). */
  armor: "ablative" | "soak";
  /** `vital`: hits on head, torso or groin, or filling a hitbox, force a Blackout test; `any`: every hit that reaches a hitbox (HB-DMG-04). */
  blackout: "vital" | "any";
  /** Turns a character in shock lives without treatment; 0 leaves death to the GM (HB-DMG-04, HB-RND-02). */
  shockTurns: number;
  /** A hit that damages a leg drops the target prone (HB-DMG-03). */
  legProne: boolean;
  /** Who wins when an attack total equals a dodge or parry total (HB-ATK-04). */
  reactionTies: "attacker" | "defender";
  /** A dodge or parry never makes the difficulty lower than 9 (HB-ATK-03). */
  reactionFloor: boolean;
  /** Ranged attacks can be parried (HB-ATK-03). */
  parryRanged: boolean;
  /** `perExtraShot`: -2 per shot beyond the first on every shot; `flat`: -2 on every shot when firing more than one (HB-MOD-03). */
  rapidFire: "perExtraShot" | "flat";
}

/** Reads one option value (one map lookup). */
const read = optionReader(HITBOX_OPTIONS);

/** Option values with defaults filled in for anything missing or of the wrong type. */
export function hitboxOptions(options: RulesetOptions = {}): HitboxOptions {
  return {
    hitboxPoints: Math.max(1, Math.floor(read<number>(options, "hitboxPoints"))),
    armor: read(options, "hitboxArmor"),
    blackout: read(options, "hitboxBlackout"),
    shockTurns: Math.max(0, Math.floor(read<number>(options, "hitboxShockTurns"))),
    legProne: read(options, "hitboxLegProne"),
    reactionTies: read(options, "hitboxReactionTies"),
    reactionFloor: read(options, "hitboxReactionFloor"),
    parryRanged: read(options, "hitboxParryRanged"),
    rapidFire: read(options, "hitboxRapidFire"),
  };
}

/** {@link hitboxOptions} by the options object they were read from. */
const resolved = new WeakMap<RulesetOptions, Readonly<HitboxOptions>>();

/**
 * {@link hitboxOptions}, read once per options object (the turns and attacks of a fight pass the
 * same object again and again) and frozen. An options object is read as a value: one that is
 * changed after it was first read keeps its first reading (build a new one, as the settings do).
 */
export function hitboxOptionsOf(options: RulesetOptions = {}): Readonly<HitboxOptions> {
  // The last options object asked for, first: a fight asks for its own on every attack and turn.
  if (options === lastOptions) return lastRead!;
  let o = resolved.get(options);
  if (!o) resolved.set(options, (o = Object.freeze(hitboxOptions(options))));
  lastOptions = options;
  lastRead = o;
  return o;
}

/** The options object {@link hitboxOptionsOf} read last, and its reading. */
let lastOptions: RulesetOptions | undefined;
let lastRead: Readonly<HitboxOptions> | undefined;
