/**
 * Shapes shared by every ruleset: rule IDs, itemized modifiers, checks, and the reports that
 * chat cards, sheets and the encounter log render. Nothing here is specific to one ruleset.
 */

/** A rule ID from `rules-index.md`, e.g. `UD-DMG-03`, `HB-ATK-02`, `CR-ATK-04`, `ZN-RNG-02`. */
export type RuleId = `${"UD" | "HB" | "CR" | "ZN"}-${string}-${string}`;

/** The four rulesets Fray offers; a world chooses one. */
export type RulesetId = "ud10" | "hitbox" | "critical" | "zones";

/**
 * One itemized line of a total: a modifier to a check or a difficulty.
 * `label` is an i18n key (`FRAY.Mod.*`); `data` fills its placeholders.
 */
export interface Modifier {
  label: string;
  value: number;
  rule: RuleId;
  data?: Record<string, string | number>;
}

/** Sum of modifier values. */
export function sumModifiers(mods: readonly Modifier[]): number {
  return mods.reduce((total, m) => total + m.value, 0);
}

/** A difficulty built line by line (UD10 Defense, Hitbox 9 or reaction total, Zones 5 + table...). */
export interface Difficulty {
  base: Modifier;
  modifiers: Modifier[];
  total: number;
}

/** Builds a Difficulty from a base line and modifiers. */
export function difficulty(base: Modifier, modifiers: Modifier[]): Difficulty {
  return { base, modifiers, total: base.value + sumModifiers(modifiers) };
}

/** Dice as rolled: every face in order, explosions included. */
export interface DiceTermResult {
  /** Number of faces (10 for a d10). */
  faces: number;
  /** Each face value rolled, in order, exploded re-rolls included. */
  results: number[];
}

/** The outcome of one roll of a formula through the dice port. */
export interface RollOutcome {
  formula: string;
  total: number;
  dice: DiceTermResult[];
  /** Sum of the constant terms. */
  constant: number;
}

/** An itemized check: dice + modifiers, compared with a difficulty or an opposing check. */
export interface CheckResult {
  roll: RollOutcome;
  /** Dice total without modifiers. */
  natural: number;
  modifiers: Modifier[];
  total: number;
}

/** One step of a damage transition, in order (armor, penetration, buffer, CON, HP ...). */
export interface DamageStep {
  rule: RuleId;
  /** i18n key, `FRAY.Step.*`. */
  label: string;
  data?: Record<string, string | number>;
  /** Points removed by this step (armor absorbed, EP lost ...). */
  value: number;
  /** Damage still going on after this step. */
  remaining: number;
  /** A step that explains a value (penetration lowering armor) without removing damage itself. */
  informational?: boolean;
}

/** A pool with current and maximum value (HP, EP, a hitbox, a pool of points). */
export interface Track {
  value: number;
  max: number;
}

/**
 * The vital state of a combatant that damage transitions act on. Each ruleset uses the parts it
 * needs: UD10 `hp`/`ep`, Hitbox `hitboxes`, Critical `hp` with `bleeding`/`stun`, Zones `hp`.
 */
export interface VitalState {
  hp?: Track;
  ep?: Track;
  hitboxes?: Record<string, Track>;
  /** Armor points left per location, where armor is used up by damage (Hitbox HB-DMG-01). */
  armor?: Record<string, Track>;
  /** Hits per round from bleeding or burning. */
  bleeding?: number;
  /** Stun rounds still to run. */
  stun?: number;
  /** Condition ids (`unconscious`, `dead`, `down`, `shock` ...). */
  conditions: string[];
  /** Lasting effects: bleeding or burning wounds, penalties, injuries, dying (Critical). */
  effects?: LastingEffect[];
}

/**
 * A lasting effect on a combatant: a wound that bleeds or burns each round, a penalty for some
 * rounds, an injury that stops a limb, a countdown to death. Each ruleset names its own kinds.
 */
export interface LastingEffect {
  /** Unique within the combatant, e.g. `bleed-2`. */
  id: string;
  /** What it is: `bleed`, `burn`, `penalty`, `injury`, `dying` ... (per ruleset). */
  kind: string;
  rule: RuleId;
  /** i18n key (`FRAY.*`) or content text describing it. */
  label: string;
  /** Its size: hits per round, a (negative) modifier ... */
  value?: number;
  /** Rounds left; absent while it lasts until treated or healed. */
  rounds?: number;
  /** Body part id where it sits. */
  location?: string;
  /** What it prevents (`attack`, `parry`, `move` ...). */
  stops?: string[];
  /** Treatments already applied (`staunch`, `bandage` ...). */
  treated?: string[];
}

/** A check that damage forces on its target (Hitbox Blackout test HB-DMG-04 ...). */
export interface ForcedCheck {
  /** Check id, e.g. `blackout`. */
  id: string;
  /** i18n key. */
  label: string;
  rule: RuleId;
  /** The difficulty to meet, when fixed. */
  difficulty?: number;
}

/** The report of a damage transition: state before and after, and every step between. */
export interface DamageReport {
  before: VitalState;
  after: VitalState;
  steps: DamageStep[];
  /** Conditions that this damage added. */
  added: string[];
  /** Checks this damage forces on the target, to be rolled next. */
  forced?: ForcedCheck[];
}
