import type { DiceRoller } from "../rules/core/dice/port.js";
import type { AttackOdds, AttackPlan, AttackResult, DamagePacket, InitiativeRoll, RulesetOptions } from "../rules/core/ruleset.js";
import type { DamageReport, RulesetId, VitalState } from "../rules/core/types.js";
import type { PlayOptions } from "./common.js";
import type { EncounterContent } from "./library.js";
import type { EncounterSpec } from "./schema.js";
import type { Lookup } from "../rules/core/i18n.js";

/** Something that happened in an encounter, in order; the log and the JSON summary are made of these. */
export type EncounterEvent =
  /** A new round; `seconds` is the round's length (UD-RND-01) where the ruleset has one. */
  | { type: "round"; round: number; seconds?: number }
  | { type: "initiative"; round: number; rolls: InitiativeRoll[]; order: string[]; kept: boolean }
  | {
      type: "attack";
      round: number;
      attacker: string;
      target: string;
      weapon: string;
      /** The firing mode's id, as the file names it. */
      mode?: string;
      /** The firing mode as the log names it: the weapon's own name for it (UD10) or an i18n key (Zones), with `modeData`. */
      modeLabel?: string;
      modeData?: Record<string, string | number>;
      /** The distance in metres the attack is made from; a melee weapon's reach where `melee`. */
      range?: number;
      /** A melee weapon's attack: made in reach, whatever `range` holds. */
      melee?: boolean;
      /** The range in feet where the ruleset measures in feet (Hitbox), as the table states it. */
      feet?: number;
      plan: AttackPlan;
      odds: AttackOdds;
      result: AttackResult;
      free?: boolean;
    }
  | { type: "damage"; round: number; target: string; packet: DamagePacket; report: DamageReport }
  | { type: "move"; round: number; actor: string; metres: number; band: string; rule: string }
  | { type: "aim"; round: number; actor: string; rounds: number }
  | { type: "disengage"; round: number; actor: string; mode: "flee" | "retreat"; freeAttacks: string[]; rule: string }
  | { type: "skip"; round: number; actor: string; reason: string; data?: Record<string, string | number> }
  | { type: "retarget"; round: number; actor: string; from: string; to: string }
  | { type: "end"; round: number; winner: string | null; reason: "side-down" | "max-rounds" }
  /** A ruleset-specific event (declarations, bleeding ticks, blackout tests ...), logged by its driver. */
  | { type: "custom"; round: number; kind: string; data: Record<string, unknown> };

/** A combatant's final state in the summary. */
export interface CombatantSummary {
  id: string;
  name: string;
  side: string;
  /** HP/EP, hitboxes, bleeding, stun, conditions: what the ruleset tracks. */
  vitals: VitalState;
  /** Its vitals when the fight began, before any round (what the forecast measures losses from). */
  start?: VitalState;
  out: boolean;
}

/** The outcome of an encounter. */
export interface EncounterResult {
  name: string;
  ruleset: string;
  seed: number;
  options: RulesetOptions;
  rounds: number;
  winner: string | null;
  combatants: CombatantSummary[];
  events: EncounterEvent[];
  /** Dice rolled, in order: purpose and faces. */
  dice: { purpose?: string; formula: string; faces: number[]; total: number }[];
}

/**
 * How one ruleset plays an encounter file. The schema checks the common fields and asks the
 * driver which extra action keys, combatant keys and reactions it accepts.
 */
export interface EncounterDriver {
  ruleset: RulesetId;
  /** Action keys beyond the common `attack`, `weapon`, `range`, `situation`, `wait` (`mode` among them where weapons have firing modes). */
  actionKeys: string[];
  /** Combatant keys beyond the common ones. */
  combatantKeys: string[];
  /** Values `react` may take. */
  reactions: string[];
  /** Plays the file once; `play` asks for quiet mode and shared combatants ({@link PlayOptions}). */
  play(spec: EncounterSpec, content: EncounterContent, dice?: DiceRoller, play?: PlayOptions): Promise<EncounterResult>;
  /**
   * The driver heads each round with a line of its own (Hitbox's turn, HB-RND-01, with its
   * seconds): the common `Round N` line is left out, so the round is not headed twice.
   */
  headsRounds?: boolean;
  /**
   * The driver logs each hit location with the table it was read on (Hitbox's regular and
   * called-shot tables, HB-LOC-01, HB-LOC-02): the common `Location` line is left out.
   */
  locatesHits?: boolean;
  /**
   * The defender's reaction total is the attack's difficulty (Hitbox's dodge and parry,
   * HB-ATK-03), rolled by the first attack on it in a round and standing for the later ones: the
   * log shows the reaction before the difficulty, and a standing total as standing.
   */
  reactionSetsDifficulty?: boolean;
  /** The ruleset calls its round a turn (Hitbox, HB-RND-01): the end of the log says "turn". */
  turns?: boolean;
  /**
   * Log lines for ruleset-specific events (`type: "custom"`); the common events are formatted for
   * all. `lang` is the reader's language (`en`, `de`) the numbers are written in.
   */
  formatCustom?(
    event: Extract<EncounterEvent, { type: "custom" }>,
    t: (key: string, data?: Record<string, string | number>) => string,
    lookup: Lookup,
    lang: string,
  ): string[];
}
