import type { OptionSpec, RulesetOptions } from "../core/ruleset.js";

/**
 * UD10's optional rules and table settings (UD-ZON-01, UD-DMG-03, UD-DMG-05, UD-OPT-01,
 * UD-OPT-02, UD-INI-02, UD-INI-03, UD-REA-04, UD-RND-01). Each becomes a world setting.
 */
export const UD10_OPTIONS: OptionSpec[] = [
  {
    id: "bodyZones",
    label: "FRAY.Option.bodyZones.label",
    hint: "FRAY.Option.bodyZones.hint",
    rule: "UD-ZON-01",
    type: "boolean",
    default: true,
  },
  { id: "buffer", label: "FRAY.Option.buffer.label", hint: "FRAY.Option.buffer.hint", rule: "UD-DMG-03", type: "boolean", default: true },
  {
    id: "penetration",
    label: "FRAY.Option.penetration.label",
    hint: "FRAY.Option.penetration.hint",
    rule: "UD-DMG-05",
    type: "boolean",
    default: true,
  },
  {
    id: "fleeing",
    label: "FRAY.Option.fleeing.label",
    hint: "FRAY.Option.fleeing.hint",
    rule: "UD-OPT-01",
    type: "boolean",
    default: true,
  },
  {
    id: "retreat",
    label: "FRAY.Option.retreat.label",
    hint: "FRAY.Option.retreat.hint",
    rule: "UD-OPT-02",
    type: "boolean",
    default: true,
  },
  {
    id: "initiativeCarryOver",
    label: "FRAY.Option.initiativeCarryOver.label",
    hint: "FRAY.Option.initiativeCarryOver.hint",
    rule: "UD-INI-03",
    type: "boolean",
    default: false,
  },
  {
    id: "npcInitiative",
    label: "FRAY.Option.npcInitiative.label",
    hint: "FRAY.Option.npcInitiative.hint",
    rule: "UD-INI-02",
    type: "choice",
    default: "each",
    choices: ["each", "group", "all"],
  },
  {
    id: "allowDodge",
    label: "FRAY.Option.allowDodge.label",
    hint: "FRAY.Option.allowDodge.hint",
    rule: "UD-REA-04",
    type: "boolean",
    default: true,
  },
  {
    id: "roundSeconds",
    label: "FRAY.Option.roundSeconds.label",
    hint: "FRAY.Option.roundSeconds.hint",
    rule: "UD-RND-01",
    type: "number",
    default: 10,
  },
];

/** The resolved UD10 options with their types. */
export interface Ud10Options {
  bodyZones: boolean;
  buffer: boolean;
  penetration: boolean;
  fleeing: boolean;
  retreat: boolean;
  initiativeCarryOver: boolean;
  npcInitiative: "each" | "group" | "all";
  allowDodge: boolean;
  /** Length of a combat round in seconds (UD-RND-01). */
  roundSeconds: number;
}

/** Each option's default, by id: read once when the module loads, not per call. */
const DEFAULTS = Object.fromEntries(UD10_OPTIONS.map((o) => [o.id, o.default])) as unknown as Ud10Options;

/** UD10's options that are on or off. */
export type Ud10Flag = "bodyZones" | "buffer" | "penetration" | "fleeing" | "retreat" | "initiativeCarryOver" | "allowDodge";

/**
 * One option that is on or off, as {@link ud10Options} reads it: the given value when it is a
 * boolean, else the default. For a rule that reads one option many times (every attack).
 */
export function ud10Flag(options: RulesetOptions, id: Ud10Flag): boolean {
  return flag(options, id);
}

/** A boolean option: the given value when it is a boolean, else the default. */
function flag(options: RulesetOptions, id: Ud10Flag): boolean {
  const v = options[id];
  return typeof v === "boolean" ? v : DEFAULTS[id];
}

/**
 * Option values with defaults filled in for anything missing: a value given with the default's
 * type is kept, anything else takes the default (`npcInitiative` outside its choices is `each`,
 * `roundSeconds` is at least 1).
 */
export function ud10Options(options: RulesetOptions = {}): Ud10Options {
  const npc = typeof options.npcInitiative === "string" ? options.npcInitiative : DEFAULTS.npcInitiative;
  const seconds = typeof options.roundSeconds === "number" ? options.roundSeconds : DEFAULTS.roundSeconds;
  return {
    bodyZones: flag(options, "bodyZones"),
    buffer: flag(options, "buffer"),
    penetration: flag(options, "penetration"),
    fleeing: flag(options, "fleeing"),
    retreat: flag(options, "retreat"),
    initiativeCarryOver: flag(options, "initiativeCarryOver"),
    npcInitiative: npc === "group" || npc === "all" ? npc : "each",
    allowDodge: flag(options, "allowDodge"),
    roundSeconds: Math.max(1, seconds),
  };
}

/**
 * {@link ud10Options} of an options object, read once per object: a host hands the same options
 * object to every attack of a fight. Options objects are not changed in place once handed to the
 * rules (a new setting makes a new object).
 */
export function ud10OptionsOf(options: RulesetOptions): Ud10Options {
  if (options === lastOptions && lastRead) return lastRead;
  let o = optionsRead.get(options);
  if (!o) optionsRead.set(options, (o = ud10Options(options)));
  lastOptions = options;
  lastRead = o;
  return o;
}
const optionsRead = new WeakMap<RulesetOptions, Ud10Options>();
/** The options object {@link ud10OptionsOf} read last, and what it read. */
let lastOptions: RulesetOptions | undefined;
let lastRead: Ud10Options | undefined;
