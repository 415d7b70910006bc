/**
 * Hitbox's part of the attack card that cannot be generic (HB-ATK-03, HB-ACT-04, HB-DMG-01):
 * - the defender answers on the card with a Dodge or Parry whose total becomes the difficulty
 *   the attack total already rolled must meet (ties and the floor of 9 as the world settings say);
 * - that total stands for the rest of the turn: it is kept on the defender's tracker Combatant
 *   (`flags.fray.hitboxReactions.<round>`), every later attack on it that turn is resolved
 *   against it at once, and the GM accepts a card's reaction only when the defender's Combatant
 *   holds it; a dodge without cover nearby drops the defender (`goingProne`);
 * - armor points used up live on the armor items and are written and given back with the
 *   hitboxes; an attacker is replayed as able to act;
 * - damage applied during an open resolution step is held until the GM ends it (step.ts, HB-ACT-01).
 */
import { replaceFlag } from "../../logic/flags.js";
import type { AttackRequest } from "../../../rules/core/contract.js";
import type { DiceRoller } from "../../../rules/core/dice/port.js";
import type { AttackResult, ReactionOption } from "../../../rules/core/ruleset.js";
import type { VitalState } from "../../../rules/core/types.js";
import {
  applyVitals,
  armorItemUpdates,
  hitboxOptions,
  reactAfterAttack,
  type HitboxAttackRequest,
  type HitboxAttackResult,
  type HitboxCombatant,
  type RolledReaction,
} from "../../../rules/hitbox/index.js";
import { activeCombat, combatantFor, type CombatantLike } from "../../combat/economy-store.js";
import type { VitalRules } from "../../logic/undo.js";
import type { CardRules, CardTarget, ItemUpdate } from "../../play/card-rules.js";
import { optionValues } from "../../settings.js";
import { hitboxCardView } from "./card-view.js";
import { holdApply } from "./step.js";

/** The flag key of the reactions a combatant rolled, by round (HB-ATK-03). */
export const REACTIONS_FLAG = "hitboxReactions";

/** A combatant's rolled reactions by round number, as stored. */
export type StoredReactions = Record<string, RolledReaction>;

/** The tracker Combatant of a card's defender in the active combat, if any. */
function defenderCombatant(target: CardTarget): CombatantLike | undefined {
  const tokenId = target.tokenUuid.split(".").pop() || undefined;
  return combatantFor({ uuid: target.actorUuid, id: target.actorUuid.split(".").pop() ?? null }, tokenId);
}

/** The reactions stored on a combatant, by round. */
function storedReactions(combatant: CombatantLike | undefined): StoredReactions {
  const raw = combatant?.getFlag("fray", REACTIONS_FLAG);
  return raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as StoredReactions) : {};
}

/** The same JSON: two stored reactions agree. */
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The defender's dodge or parry already rolled this turn (HB-ATK-03): the one stored on its
 * Combatant for the active combat's current round; `undefined` outside a combat or before it
 * reacted.
 */
export function turnReaction(target: CardTarget): RolledReaction | undefined {
  const combat = activeCombat();
  if (!combat?.started) return undefined;
  return storedReactions(defenderCombatant(target))[String(combat.round)];
}

/**
 * The attack's result once the defender answered on the card (HB-ATK-03, HB-ATK-04): the
 * reaction rolled with `dice` and weighed by the core under the world's Hitbox settings.
 * @throws FrayError from the dice port.
 */
export function reactOnCard(result: AttackResult, option: ReactionOption, dice: DiceRoller): Promise<AttackResult> {
  return reactAfterAttack(result, option, dice, hitboxOptions(optionValues("hitbox")));
}

/**
 * After a reaction on the card (HB-ATK-03, HB-ACT-04): its total is kept on the defender's
 * Combatant for this round, so later attacks this turn meet it; a dodge without cover nearby
 * marks the defender `goingProne` (prone from the next turn). Outside a combat only the status is set.
 */
export async function afterReactOnCard(result: AttackResult, target: CardTarget): Promise<void> {
  const rolled = (result as Partial<HitboxAttackResult>).rolledReaction;
  if (!rolled) return;
  const combat = activeCombat();
  const combatant = defenderCombatant(target);
  if (combat?.started && combatant?.isOwner) {
    await replaceFlag(combatant, REACTIONS_FLAG, { ...storedReactions(combatant), [String(combat.round)]: rolled });
  }
  if (rolled.dropsProne) {
    const actor = (await foundry.utils.fromUuid(target.actorUuid as never)) as {
      statuses?: Set<string>;
      toggleStatusEffect?(id: string, options: { active: boolean }): Promise<unknown>;
    } | null;
    if (actor && !actor.statuses?.has("prone") && !actor.statuses?.has("goingProne")) {
      await actor.toggleStatusEffect?.("goingProne", { active: true });
    }
  }
}

/** The request with the defender's reaction of this turn, when it already rolled one (HB-ATK-03). */
export function withTurnReaction(request: AttackRequest, target: CardTarget): AttackRequest {
  const rolled = turnReaction(target);
  if (!rolled) return request;
  const withReaction: HitboxAttackRequest = { ...request, rolledReaction: rolled };
  return withReaction;
}

/**
 * Whether the GM accepts a stored request's reaction of the turn (HB-ATK-03): a request without
 * one is accepted; one with a reaction only when the defender's Combatant holds that very
 * reaction (a card cannot bring a dodge of its own making).
 */
export function acceptsTurnReaction(request: AttackRequest, target: CardTarget): boolean {
  const rolled = (request as HitboxAttackRequest).rolledReaction;
  if (!rolled) return true;
  return Object.values(storedReactions(defenderCombatant(target))).some((r) => same(r, rolled));
}

/** The armor item updates that store the armor points of `state` (HB-DMG-01). */
export function armorUpdates(defender: unknown, state: VitalState): ItemUpdate[] {
  const c = defender as HitboxCombatant;
  return armorItemUpdates(c, applyVitals(c, state));
}

/** A Hitbox attacker read as able to act: out conditions dropped, head and torso at least 1 point. */
export function ableAttacker(c: HitboxCombatant): HitboxCombatant {
  const out = new Set(["shock", "dead", "unconscious"]);
  const lift = (t: { value: number; max: number }) => ({ ...t, value: Math.max(1, t.value) });
  return {
    ...c,
    hitboxes: { ...c.hitboxes, head: lift(c.hitboxes.head), torso: lift(c.hitboxes.torso) },
    conditions: c.conditions.filter((x) => !out.has(x)),
  };
}

/**
 * Hitbox's vitals on undo: no condition is set from the hitboxes alone (shock, death and prone
 * come with the hit that caused them and go with its undo); hitboxes and armor stop at 0 (HB-DMG-01).
 */
export const HITBOX_VITALS: VitalRules = { conditions: [], implied: () => [], floors: { hitboxes: 0, armor: 0 } };

/** Hitbox's card rules. */
export const hitboxCardRules: CardRules = {
  react: reactOnCard,
  afterReact: afterReactOnCard,
  turnRequest: withTurnReaction,
  checkRequest: acceptsTurnReaction,
  itemUpdates: armorUpdates,
  vitals: HITBOX_VITALS,
  ableAttacker: (c) => ableAttacker(c as HitboxCombatant),
  // HB-ACT-01: damage applied during an open step is held until the GM ends it.
  holdApply,
  view: hitboxCardView,
};
