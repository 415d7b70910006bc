import { optionReader } from "../core/options.js";
import type { OptionSpec, RulesetOptions } from "../core/ruleset.js";

/**
 * Critical's settings where groups play the seed differently (CR-INI-01, CR-ATK-01, CR-MAN-01,
 * CR-BLD-02). Each becomes a world setting; RULES.md explains the defaults.
 */
export const CRITICAL_OPTIONS: OptionSpec[] = [
  {
    id: "npcInitiative",
    label: "FRAY.Option.npcInitiative.label",
    hint: "FRAY.Option.npcInitiative.hint",
    rule: "CR-INI-01",
    type: "choice",
    default: "each",
    choices: ["each", "group", "all"],
  },
  {
    id: "fumbles",
    label: "FRAY.Option.fumbles.label",
    hint: "FRAY.Option.fumbles.hint",
    rule: "CR-ATK-01",
    type: "boolean",
    default: true,
  },
  {
    id: "maneuverShortfall",
    label: "FRAY.Option.maneuverShortfall.label",
    hint: "FRAY.Option.maneuverShortfall.hint",
    rule: "CR-MAN-01",
    type: "choice",
    default: "gm",
    choices: ["gm", "incomplete", "penalty"],
  },
  {
    id: "tourniquetLimbsOnly",
    label: "FRAY.Option.tourniquetLimbsOnly.label",
    hint: "FRAY.Option.tourniquetLimbsOnly.hint",
    rule: "CR-BLD-02",
    type: "boolean",
    default: true,
  },
];

/** The resolved Critical options with their types. */
export interface CriticalOptions {
  /** NPC initiative: one roll each, per group, or one for all NPCs (CR-INI-01). */
  npcInitiative: "each" | "group" | "all";
  /** Low unmodified attack rolls fumble (RULES.md). */
  fumbles: boolean;
  /** What a maneuver below 100 does: the GM decides, it is not completed, or it completes with a penalty (CR-MAN-01). */
  maneuverShortfall: "gm" | "incomplete" | "penalty";
  /** A tourniquet only stops bleeding on an arm or a leg (CR-BLD-02). */
  tourniquetLimbsOnly: boolean;
}

/** Reads one option value (one map lookup). */
const read = optionReader(CRITICAL_OPTIONS);

/** Option values with defaults filled in for anything missing or of the wrong type. */
export function criticalOptions(options: RulesetOptions = {}): CriticalOptions {
  return {
    npcInitiative: read(options, "npcInitiative"),
    fumbles: read(options, "fumbles"),
    maneuverShortfall: read(options, "maneuverShortfall"),
    tourniquetLimbsOnly: read(options, "tourniquetLimbsOnly"),
  };
}
