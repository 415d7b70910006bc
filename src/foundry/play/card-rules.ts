/**
 * What the attack card needs of a ruleset beyond the play contract, from its binding: a
 * reaction made on the card after the attack was rolled (UD10's defender reacts to a hit it has
 * seen, UD-REA-01), and the attacker as a replay reads it (the attack was made while it could
 * act; only its dice are replayed). A ruleset without an entry offers no reaction on the card
 * and replays its attacker as it is.
 */
import type { AttackRequest } from "../../rules/core/contract.js";
import type { DiceRoller } from "../../rules/core/dice/port.js";
import type { CardDetailBuilder } from "../attack-card.js";
import type { AttackResult, ReactionOption } from "../../rules/core/ruleset.js";
import type { Localizer } from "../attack-card.js";
import type { CardAction, TargetState } from "../logic/card.js";
import type { VitalState } from "../../rules/core/types.js";
import type { VitalRules } from "../logic/undo.js";
import { registry } from "../registry.js";

/** One line of a ruleset's own section of the card, localized. */
export interface CardSectionLine {
  label: string;
  value: string;
  rule?: string;
}

/** A ruleset's own section of one card target (Critical's attack-table row, its critical), localized. */
export interface CardSection {
  title: string;
  /** Rule ID shown beside the title. */
  rule?: string;
  lines: CardSectionLine[];
  /** Free text shown under the lines (a wound text). */
  text?: string;
  /** The document the result was read from (a RollTable), shown as a content link. */
  link?: { uuid: string; name: string };
  /** CSS modifier of the section (`fumble`, `critical`). */
  kind?: string;
}

/** What a ruleset shows on a card target beyond the generic check, difficulty and damage. */
export interface CardView {
  /** Sections shown after the outcome, in order. */
  sections?: CardSection[];
  /** The outcome's label in place of Hit / Miss (a fumble). */
  outcomeLabel?: string;
  /** The comparison in place of "total vs difficulty". */
  comparison?: string;
  /** The generic damage section is left out (the ruleset's sections show what was rolled). */
  hideDamage?: boolean;
  /** i18n keys of button labels in place of the generic ones. */
  buttonLabels?: Partial<Record<CardAction, string>>;
  /** The range header in the ruleset's own unit (Hitbox feet, HB-MOD-01): the number and the unit, localized. */
  range?: { value: string; unit: string };
  /** Buttons the ruleset has no step for (a reaction declared before the attack, not on the card). */
  hiddenActions?: CardAction[];
}

/** The target of a card as the card rules see it: its actor's and token's UUIDs. */
export interface CardTarget {
  actorUuid: string;
  tokenUuid: string;
}

/** An update of one embedded item (`Actor.updateEmbeddedDocuments("Item", ...)`). */
export interface ItemUpdate {
  _id: string;
  system: Record<string, unknown>;
}

/** A ruleset's card steps that the play contract does not cover. */
export interface CardRules {
  /**
   * The attack's result once the defender reacted on the card: the reaction rolled with `dice`
   * and folded into `result` by the ruleset's rules.
   * @throws FrayError from the dice port.
   */
  react?(result: AttackResult, option: ReactionOption, dice: DiceRoller): Promise<AttackResult>;
  /**
   * What a reaction made on the card leaves for the rest of the round, once the card holds it
   * (Hitbox: the total stands against every attack of the turn, a dodge without cover drops the
   * defender, HB-ATK-03, HB-ACT-04); run on the reacting user's client.
   */
  afterReact?(result: AttackResult, target: CardTarget): Promise<void>;
  /**
   * The neutral request of an attack with the round's state the ruleset adds (Hitbox: the
   * defender's reaction already rolled this turn, HB-ATK-03); absent when there is none.
   */
  turnRequest?(request: AttackRequest, target: CardTarget): AttackRequest;
  /**
   * Whether the GM accepts the round's state a stored request carries (what `turnRequest` added),
   * checked against the documents before a card is replayed; absent to accept every request.
   */
  checkRequest?(request: AttackRequest, target: CardTarget): boolean;
  /**
   * Item updates that store a vital state beyond the actor's own data (Hitbox armor points used
   * up, kept on the armor items, HB-DMG-01); for `defender` (the core's combatant) and `state`.
   */
  itemUpdates?(defender: unknown, state: VitalState): ItemUpdate[];
  /**
   * The attacker as a replay of its own stored attack reads it (able to act); `result` is the
   * stored attack, for what the attack itself changed on the attacker (ZN-BST-01 rounds spent).
   */
  ableAttacker?(attacker: unknown, result?: AttackResult): unknown;
  /** The conditions that follow from the vitals and the tracks' floors, for undo. */
  vitals?: VitalRules;
  /**
   * The rule ID of the damage roll the card's damage header cites until an application's steps
   * name their own (Zones: ZN-DMG-01); UD-DMG-01 where absent.
   */
  damageRule?: string;
  /** The i18n key naming the `hp` track on the card after an application (Critical: hits, CR-ATK-02); HP where absent. */
  hpLabel?: string;
  /** Rows of the ruleset's own on each target's section of the card (a burst's bullets, ZN-BST-01). */
  detail?: CardDetailBuilder;
  /**
   * Whether to hold an application instead of applying it now (Hitbox: damage applied during an
   * open resolution step takes effect when the GM ends the step, HB-ACT-01); run on the active GM
   * after the card's dice were checked. When it returns true nothing is applied: the ruleset
   * keeps the application to commit later and may mark the card's target with `write`.
   */
  holdApply?(
    hold: { message: { id: string | null; system?: unknown }; index: number; userId: string },
    write: (target: TargetState) => Promise<boolean>,
  ): Promise<boolean>;
  /** The ruleset's own parts of a target's card (sections, outcome label, button labels), localized with `i18n`. */
  view?(t: TargetState, i18n: Localizer): CardView;
}

/** The card rules of a ruleset id (its binding's `cardRules`); an empty set for a ruleset that has none. */
export function cardRulesOf(rulesetId: string): CardRules {
  return registry.get(rulesetId)?.cardRules ?? {};
}
