/**
 * The attack workflow: from a weapon on a sheet to a chat card. Reads the attacker and the
 * first targeted token, turns both into rules-core combatants, measures the range, lets UD10
 * plan and resolve the attack with real Foundry Rolls, and posts an `attack` ChatMessage.
 */
import type { AttackOdds, AttackResult } from "../rules/core/ruleset.js";
import type { Ud10AttackInput, Ud10Situation } from "../rules/ud10/index.js";
import { ud10 } from "../rules/ud10/index.js";
import { attackCardContext, storableResult } from "./attack-card.js";
import { TEMPLATES } from "./config.js";
import { FoundryRoller } from "./dice.js";
import { measureMetres } from "./measure.js";
import { error, reportError, warn } from "./notify.js";
import { activeRuleset, isImplemented, ud10OptionValues } from "./settings.js";
import { ud10CombatantFromActor, type ActorSource } from "./sources.js";

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
  /** The target's token; the first of the user's targets when absent. */
  target?: TokenLike | null;
  /** Firing mode id (UD-RNG-02). */
  modeId?: string;
  /** Situational modifiers (aim, cover, visibility ...). */
  situation?: Ud10Situation;
  /** The reaction the defender declared. */
  reaction?: Ud10AttackInput["reaction"];
}

/** The outcome of {@link rollAttack}: the core's result and the message posted. */
export interface AttackOutcome {
  result: AttackResult;
  odds?: AttackOdds;
  message: ChatMessage.Implementation | undefined;
}

/**
 * An actor's source with its current status effects, the shape
 * {@link ud10CombatantFromActor} reads.
 */
export function actorSource(actor: Actor.Implementation): ActorSource {
  return { ...(actor.toObject() as unknown as ActorSource), statuses: Array.from(actor.statuses ?? []) };
}

/** The first token the current user targets, if any. */
export function firstTarget(): TokenLike | undefined {
  const targets = game.user?.targets;
  if (!targets) return undefined;
  for (const token of targets) return token as unknown as TokenLike;
  return undefined;
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

/**
 * Makes an attack and posts its card.
 *
 * Shows a localized notification and returns `undefined` instead of throwing when the world's
 * ruleset is not implemented yet, when nothing is targeted, or when the rules core refuses the
 * attack (a FrayError: unknown weapon, an attacker who cannot act, malformed stats ...).
 *
 * @returns the core's result, the odds shown and the ChatMessage created.
 */
export async function rollAttack(request: AttackRequest): Promise<AttackOutcome | undefined> {
  const ruleset = activeRuleset();
  if (!isImplemented(ruleset)) {
    warn("FRAY.Notify.RulesetNotImplemented", { ruleset: rulesetLabel(ruleset) });
    return undefined;
  }
  const target = request.target ?? firstTarget();
  if (!target) {
    error("FRAY.Notify.NoTarget");
    return undefined;
  }
  const targetActor = target.actor;
  if (!targetActor) {
    error("FRAY.Notify.TargetWithoutActor", { token: target.name });
    return undefined;
  }
  const { actor } = request;
  const token = request.token ?? attackerToken(actor);
  try {
    const attacker = ud10CombatantFromActor(actorSource(actor), token ? { id: token.id } : {});
    const defender = ud10CombatantFromActor(actorSource(targetActor), { id: target.id });
    const rangeMetres = measureMetres(token, target);
    const input: Ud10AttackInput = {
      attacker,
      target: defender,
      weaponId: request.weaponId,
      rangeMetres,
      modeId: request.modeId,
      situation: request.situation,
      reaction: request.reaction,
    };
    const options = ud10OptionValues();
    const plan = ud10.planAttack(input, options);
    const odds = ud10.odds(plan, input, options);
    const roller = new FoundryRoller();
    const result = await ud10.resolveAttack(plan, input, roller, options);

    const weapon = attacker.weapons.find((w) => w.id === plan.weaponId);
    const mode = weapon?.modes.find((m) => m.id === plan.modeId);
    const context = attackCardContext(
      result,
      { attacker: actor.name ?? attacker.name, target: targetActor.name ?? defender.name, weapon: weapon?.name ?? plan.weaponId, mode: mode?.label, range: rangeMetres },
      game.i18n,
      odds,
    );
    const content = await foundry.applications.handlebars.renderTemplate(TEMPLATES.attackCard, context as unknown as Record<string, unknown>);
    const data = {
      type: "attack",
      speaker: ChatMessage.getSpeaker({ actor, token: (token?.document ?? null) as never }),
      rolls: roller.rolls,
      content,
      sound: CONFIG.sounds.dice,
      system: {
        ruleset,
        result: storableResult(result),
        attackerUuid: actor.uuid,
        targetUuid: targetActor.uuid,
        targetTokenUuid: target.document?.uuid ?? "",
        weaponId: plan.weaponId,
      },
    };
    ChatMessage.applyRollMode(data as never, game.settings.get("core", "rollMode") ?? "publicroll");
    // The create data is built by hand; the v13 typings want the full document source shape.
    const message = await ChatMessage.implementation.create(data as never);
    return { result, odds, message: message ?? undefined };
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
