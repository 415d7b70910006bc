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

/** Each option's default, by id: looked up once, not per call. */
const DEFAULTS = new Map(UD10_OPTIONS.map((o) => [o.id, o.default]));

/** The value of option `id`: the given one when it has the default's type, else the default. */
function optionValue<T extends boolean | number | string>(options: RulesetOptions, id: string): T {
  const fallback = DEFAULTS.get(id)!;
  const v = options[id];
  return (typeof v === typeof fallback ? v : fallback) as T;
}

/** Option values with defaults filled in for anything missing. */
export function ud10Options(options: RulesetOptions = {}): Ud10Options {
  const npc = optionValue<string>(options, "npcInitiative");
  return {
    bodyZones: optionValue(options, "bodyZones"),
    buffer: optionValue(options, "buffer"),
    penetration: optionValue(options, "penetration"),
    fleeing: optionValue(options, "fleeing"),
    retreat: optionValue(options, "retreat"),
    initiativeCarryOver: optionValue(options, "initiativeCarryOver"),
    npcInitiative: npc === "group" || npc === "all" ? npc : "each",
    allowDodge: optionValue(options, "allowDodge"),
    roundSeconds: Math.max(1, optionValue<number>(options, "roundSeconds")),
  };
}
