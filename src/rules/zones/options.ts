import { optionReader } from "../core/options.js";
import type { OptionSpec, RulesetOptions } from "../core/ruleset.js";

/**
 * Zones settings where tables play the seed differently (RULES.md, section Zones). Each becomes
 * a world setting; labels and hints are `FRAY.Option.<id>.label` / `.hint`, choices
 * `FRAY.Option.<id>.choices.<choice>`.
 */
export const ZONES_OPTIONS: OptionSpec[] = [
  {
    id: "fixedInitiative",
    label: "FRAY.Option.fixedInitiative.label",
    hint: "FRAY.Option.fixedInitiative.hint",
    rule: "ZN-INI-03",
    type: "boolean",
    default: false,
  },
  {
    id: "speedRecovery",
    label: "FRAY.Option.speedRecovery.label",
    hint: "FRAY.Option.speedRecovery.hint",
    rule: "ZN-MOV-03",
    type: "choice",
    default: "action",
    choices: ["action", "round"],
  },
  {
    id: "moveTakesAction",
    label: "FRAY.Option.moveTakesAction.label",
    hint: "FRAY.Option.moveTakesAction.hint",
    rule: "ZN-ACT-02",
    type: "boolean",
    default: true,
  },
  {
    id: "lowLightModifier",
    label: "FRAY.Option.lowLightModifier.label",
    hint: "FRAY.Option.lowLightModifier.hint",
    rule: "ZN-RNG-01",
    type: "number",
    default: 1,
  },
  {
    id: "meleeDifficulty",
    label: "FRAY.Option.meleeDifficulty.label",
    hint: "FRAY.Option.meleeDifficulty.hint",
    rule: "ZN-MEL-01",
    type: "number",
    default: 5,
  },
  {
    id: "slashingVitals",
    label: "FRAY.Option.slashingVitals.label",
    hint: "FRAY.Option.slashingVitals.hint",
    rule: "ZN-VIT-03",
    type: "choice",
    default: "surrounding",
    choices: ["surrounding", "negated"],
  },
  {
    id: "piercingAtTwo",
    label: "FRAY.Option.piercingAtTwo.label",
    hint: "FRAY.Option.piercingAtTwo.hint",
    rule: "ZN-VIT-04",
    type: "choice",
    default: "negated",
    choices: ["negated", "surrounding", "full"],
  },
  {
    id: "grenadeCasualty",
    label: "FRAY.Option.grenadeCasualty.label",
    hint: "FRAY.Option.grenadeCasualty.hint",
    rule: "ZN-GRN-01",
    type: "choice",
    default: "incapacitate",
    choices: ["incapacitate", "kill"],
  },
  {
    id: "suppressionShots",
    label: "FRAY.Option.suppressionShots.label",
    hint: "FRAY.Option.suppressionShots.hint",
    rule: "ZN-SUP-01",
    type: "boolean",
    default: true,
  },
];

/** The resolved Zones options with their types. */
export interface ZonesOptions {
  /** Initiative rolled once and kept for the encounter (ZN-INI-03) instead of every round (ZN-INI-01). */
  fixedInitiative: boolean;
  /** Speed points come back only by spending an action (`action`, ZN-MOV-03) or also at the start of each round (`round`). */
  speedRecovery: "action" | "round";
  /** Moving with speed points takes the turn's action (ZN-ACT-02). */
  moveTakesAction: boolean;
  /** Difficulty added for low light such as dusk (ZN-RNG-01: the seed's example adds 1, its text says 2). */
  lowLightModifier: number;
  /** Difficulty of a melee attack check before any dodge or block (ZN-MEL-01; the seed gives none). */
  meleeDifficulty: number;
  /** Slashing damage on a covered vital organ: a hit on the surrounding zone, or nothing (ZN-VIT-03). */
  slashingVitals: "surrounding" | "negated";
  /** Piercing damage of exactly 2 on a vital organ: stopped, a hit on the surrounding zone, or full damage (ZN-VIT-04). */
  piercingAtTwo: "negated" | "surrounding" | "full";
  /** Inside a grenade's casualty radius, unprotected: incapacitated or killed (ZN-GRN-01). */
  grenadeCasualty: "incapacitate" | "kill";
  /** While suppressed, an enemy leaving cover may be shot at out of turn (ZN-SUP-01). */
  suppressionShots: boolean;
}

/** Reads one option value (one map lookup). */
const read = optionReader(ZONES_OPTIONS);

/** Option values with defaults filled in for anything missing or of the wrong type. */
export function zonesOptions(options: RulesetOptions = {}): ZonesOptions {
  return {
    fixedInitiative: read(options, "fixedInitiative"),
    speedRecovery: read(options, "speedRecovery"),
    moveTakesAction: read(options, "moveTakesAction"),
    lowLightModifier: read(options, "lowLightModifier"),
    meleeDifficulty: read(options, "meleeDifficulty"),
    slashingVitals: read(options, "slashingVitals"),
    piercingAtTwo: read(options, "piercingAtTwo"),
    grenadeCasualty: read(options, "grenadeCasualty"),
    suppressionShots: read(options, "suppressionShots"),
  };
}

/** Option values by the options object they were read from. */
const optionsRead = new WeakMap<RulesetOptions, ZonesOptions>();

/**
 * {@link zonesOptions} read once per options object (a fight reads them for every combatant,
 * round and attack): the same values, one shared object that callers must not change. An
 * options object is taken as it was first read: hosts build a new one when a setting changes
 * (`optionValues` in Foundry, the file's options in the encounter runner).
 */
export function zonesOptionsOf(options: RulesetOptions): ZonesOptions {
  // The options object asked for last is nearly always the one asked for now (one fight's).
  if (options === lastOptions && lastRead) return lastRead;
  let o = optionsRead.get(options);
  if (!o) optionsRead.set(options, (o = zonesOptions(options)));
  lastOptions = options;
  lastRead = o;
  return o;
}
/** The options object {@link zonesOptionsOf} read last, and what it read. */
let lastOptions: RulesetOptions | undefined;
let lastRead: ZonesOptions | undefined;
