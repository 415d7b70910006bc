/**
 * The attack workflow: from a weapon on a sheet to a chat card. Reads the attacker and the
 * targeted tokens, turns them into rules-core combatants, measures the ranges, opens the attack
 * dialog, lets UD10 plan and resolve one check per target with real Foundry Rolls, and posts an
 * `attack` ChatMessage whose per-target state drives the card's buttons.
 */
import type { AttackOdds, AttackResult } from "../rules/core/ruleset.js";
import type { Ud10AttackInput, Ud10Situation } from "../rules/ud10/index.js";
import { openAttackDialog, dialogDefaults } from "./chat/attack-dialog.js";
import { renderAttackCard } from "./chat/attack-message.js";
import { combatantFor, economyOf, spendOn } from "./combat/economy-store.js";
import { FoundryRoller } from "./dice.js";
import { attackInput, type AttackChoices } from "./logic/attack-options.js";
import { attackTarget } from "./logic/attack-state.js";
import { actionEvent } from "./logic/economy.js";
import { decideAction } from "./logic/round-actions.js";
import type { TargetState } from "./logic/card.js";
import { measureMetres } from "./measure.js";
import { error, reportError, warn } from "./notify.js";
import { activeRuleset, isImplemented, optionValues } from "./settings.js";
import { combatantOf } from "./documents/actor.js";
import type { Ud10Combatant } from "./sources.js";

export { actorSource } from "./documents/source.js";

/** What a token is to the workflow: its actor, its center for measuring, its document. */
type TokenLike = Pick<Token.Implementation, "actor" | "center" | "document" | "name" | "id">;

/** An attack to make. */
export interface AttackRequest {
  /** The attacking actor. */
  actor: Actor.Implementation;
  /** Id of one of the actor's `weapon` items. */
  weaponId: string;
  /** The attacker's token; the actor's first active token on the scene when absent. */
  token?: TokenLike | null;
  /** The target's token; the user's targets when absent. */
  target?: TokenLike | null;
  /** Several targets, one check each; wins over `target`. */
  targets?: TokenLike[];
  /** Firing mode id (UD-RNG-02). */
  modeId?: string;
  /** Situational modifiers (aim, cover, visibility ...). */
  situation?: Ud10Situation;
  /** The reaction the defender declared. */
  reaction?: Ud10AttackInput["reaction"];
  /** Choices as the attack dialog returns them; when given, no dialog opens. */
  choices?: AttackChoices;
  /** Never open the attack dialog (as with Shift held). */
  skipDialog?: boolean;
  /** A free attack (fleeing, UD-OPT-01): it spends no action. */
  free?: boolean;
}

/** The outcome of {@link rollAttack}: the core's result (first target), the odds and the message posted. */
export interface AttackOutcome {
  result: AttackResult;
  odds?: AttackOdds;
  /** One result per target, in order. */
  results: AttackResult[];
  message: ChatMessage.Implementation | undefined;
}

/** The tokens the current user targets, in the order they were targeted. */
export function userTargets(): TokenLike[] {
  const targets = game.user?.targets;
  return targets ? (Array.from(targets) as unknown as TokenLike[]) : [];
}

/**
 * The attacker's token on the current scene: one of the actor's tokens the user controls, else
 * the actor's first active token (linked or not).
 */
function attackerToken(actor: Actor.Implementation): TokenLike | undefined {
  const controlled = (canvas?.tokens?.controlled ?? []) as unknown as TokenLike[];
  const mine = controlled.find((t) => t.actor === actor);
  if (mine) return mine;
  const tokens = actor.getActiveTokens() as unknown as TokenLike[];
  return tokens[0];
}

/** True when Shift is held (the attack skips its dialog). */
function shiftHeld(): boolean {
  const keyboard = (game as unknown as { keyboard?: { isModifierActive?(key: string): boolean } }).keyboard;
  try {
    return Boolean(keyboard?.isModifierActive?.("Shift"));
  } catch {
    return false;
  }
}

/** Whether the attack dialog opens: not when choices are given, Shift is held or DialogV2 is missing. */
function wantsDialog(request: AttackRequest): boolean {
  if (request.choices || request.skipDialog || request.situation) return false;
  if (!foundry.applications?.api?.DialogV2) return false;
  return !shiftHeld();
}

/**
 * Makes an attack and posts its card: one check per target (UD-ATK-01 to UD-ATK-04), the
 * reaction the defender declared, the body zone when that option is on (UD-ZON-01). Opens the
 * attack dialog first unless Shift is held, `skipDialog` or `choices` is given. In combat the
 * attack spends the attacker's action (UD-ACT-02) unless it is a free attack (UD-OPT-01).
 *
 * Shows a localized notification and returns `undefined` instead of throwing when the world's
 * ruleset is not implemented yet, when nothing is targeted, when the action is spent, or when
 * the rules core refuses the attack (a FrayError: unknown weapon, an attacker who cannot act ...).
 *
 * @returns the core's results, the odds shown and the ChatMessage created.
 */
export async function rollAttack(request: AttackRequest): Promise<AttackOutcome | undefined> {
  const ruleset = activeRuleset();
  if (!isImplemented(ruleset)) {
    warn("FRAY.Notify.RulesetNotImplemented", { ruleset: rulesetLabel(ruleset) });
    return undefined;
  }
  const tokens = request.targets?.length ? request.targets : request.target ? [request.target] : userTargets();
  if (!tokens.length) {
    error("FRAY.Notify.NoTarget");
    return undefined;
  }
  for (const t of tokens) {
    if (!t.actor) {
      error("FRAY.Notify.TargetWithoutActor", { token: t.name });
      return undefined;
    }
  }
  const { actor } = request;
  const token = request.token ?? attackerToken(actor);
  try {
    const options = optionValues(ruleset);
    const attacker = combatantOf<Ud10Combatant>(actor, token ? { id: token.id } : {});
    const candidates = tokens.map((t) => ({
      token: t,
      dialog: {
        id: t.id,
        name: t.name,
        combatant: combatantOf<Ud10Combatant>(t.actor!, { id: t.id }),
        rangeMetres: measureMetres(token, t),
      },
    }));
    const combatant = request.free ? undefined : combatantFor(actor, token?.id);
    // The same decision as every other action of the round (UD-ACT-02).
    const decision = decideAction("attack", combatant ? economyOf(combatant) : undefined);
    if (!decision.ok) {
      error(decision.key, { actor: actor.name ?? attacker.name, slot: `FRAY.Slot.${decision.short}` });
      return undefined;
    }
    let choices = request.choices;
    if (!choices && wantsDialog(request)) {
      const weapon = attacker.weapons.find((w) => w.id === request.weaponId || w.name === request.weaponId);
      if (weapon) {
        const dialogTargets = candidates.map((c) => c.dialog);
        choices = (await openAttackDialog({ attacker, weapon, targets: dialogTargets, options, modeId: request.modeId }, dialogDefaults(attacker, dialogTargets, request.modeId))) ?? undefined;
        if (!choices) return undefined;
      }
    }
    const chosen = choices ? candidates.filter((c) => choices!.targets.includes(c.dialog.id)) : candidates;
    if (!chosen.length) {
      error("FRAY.Notify.NoTarget");
      return undefined;
    }
    const roller = new FoundryRoller();
    const states: TargetState[] = [];
    const results: AttackResult[] = [];
    let firstOdds: AttackOdds | undefined;
    let planned: { weaponId: string; modeId?: string } | undefined;
    for (const { token: target, dialog } of chosen) {
      const input: Ud10AttackInput = choices
        ? { ...attackInput(attacker, dialog.combatant, request.weaponId, dialog.rangeMetres, choices), reaction: request.reaction }
        : { attacker, target: dialog.combatant, weaponId: request.weaponId, rangeMetres: dialog.rangeMetres, modeId: request.modeId, situation: request.situation, reaction: request.reaction };
      const who = { actorUuid: target.actor!.uuid, tokenUuid: target.document?.uuid ?? "", name: target.actor!.name ?? dialog.name };
      const { plan, odds, result, state } = await attackTarget(who, input, roller, options, choices?.immobilized);
      planned ??= { weaponId: plan.weaponId, modeId: plan.modeId };
      firstOdds ??= odds;
      results.push(result);
      states.push(state);
    }

    const weapon = attacker.weapons.find((w) => w.id === planned!.weaponId);
    const mode = weapon?.modes.find((m) => m.id === planned!.modeId);
    const content = await renderAttackCard({ targets: states, weaponName: weapon?.name ?? planned!.weaponId, modeLabel: mode?.label, attackerUuid: actor.uuid, attackerName: actor.name ?? attacker.name });
    const data = {
      type: "attack",
      speaker: ChatMessage.getSpeaker({ actor, token: (token?.document ?? null) as never }),
      rolls: roller.rolls,
      content,
      sound: CONFIG.sounds.dice,
      system: {
        ruleset,
        attackerUuid: actor.uuid,
        attackerTokenUuid: token?.document?.uuid ?? "",
        weaponId: planned!.weaponId,
        weaponName: weapon?.name ?? "",
        modeId: planned!.modeId ?? "",
        modeLabel: mode?.label ?? "",
        targets: states,
      },
    };
    ChatMessage.applyRollMode(data as never, game.settings.get("core", "rollMode") ?? "publicroll");
    // The create data is built by hand; the v13 typings want the full document source shape.
    const message = await ChatMessage.implementation.create(data as never);
    if (combatant) await spendOn(combatant, actionEvent("attack"));
    return { result: results[0]!, odds: firstOdds, results, message: message ?? undefined };
  } catch (err) {
    reportError(err);
    return undefined;
  }
}

/** The localized name of a ruleset (`ud10` gives "UD10"). */
export function rulesetLabel(ruleset: string): string {
  const keys: Record<string, string> = {
    ud10: "FRAY.Ruleset.ud10",
    hitbox: "FRAY.Ruleset.hitbox",
    critical: "FRAY.Ruleset.critical",
    zones: "FRAY.Ruleset.zones",
  };
  return game.i18n.localize(keys[ruleset] ?? ruleset);
}
