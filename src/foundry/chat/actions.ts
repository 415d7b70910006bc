/**
 * What the buttons of an attack card do: the defender's Parry, Dodge or No reaction
 * (UD-REA-01 to UD-REA-04), Roll damage (UD-DMG-01, UD-ZON-01), Apply damage (UD-DMG-02 to
 * UD-DMG-05, UD-ZON-02) and Undo. Dice are real Rolls through the FoundryRoller; the rules
 * core does the arithmetic; the card state in `logic/card.ts` decides what is allowed.
 */
import type { DiceRoller } from "../../rules/core/dice/port.js";
import { ScriptedRoller } from "../../rules/core/dice/port.js";
import { FrayError } from "../../rules/core/errors.js";
import { resolveReaction, ud10, type Ud10AttackInput } from "../../rules/ud10/index.js";
import { actorSource } from "../attack.js";
import { effectiveResult } from "../attack-card.js";
import { combatantFor, economyOf, spendOn } from "../combat/economy-store.js";
import { FoundryRoller } from "../dice.js";
import {
  assertAllowed,
  mayPress,
  withApplied,
  withDamage,
  withoutReaction,
  withReaction,
  withUndone,
  type CardAction,
  type TargetState,
  type Viewer,
} from "../logic/card.js";
import { withImmobilized } from "../logic/attack-options.js";
import { packetOf, storedDamage, storedReactionOf } from "../logic/attack-state.js";
import { reactionEvent } from "../logic/economy.js";
import { applyUpdate, revertStatuses, revertUpdate, undoRecord } from "../logic/undo.js";
import { reportError, warn } from "../notify.js";
import { askGM, QUERIES } from "../queries.js";
import { ud10OptionValues } from "../settings.js";
import { ud10CombatantFromActor } from "../sources.js";
import { answerQuery, attackSystem, commitTarget, facesOfRolls, queryAnswer, writeTarget, type AttackMessageLike, type QueryAnswer } from "./attack-message.js";

/** An actor as the flow reads and writes it. */
interface ActorLike {
  uuid: string;
  id: string | null;
  name: string | null;
  isOwner: boolean;
  update(data: Record<string, unknown>): Promise<unknown>;
  toggleStatusEffect?(id: string, options: { active: boolean }): Promise<unknown>;
}

/** Resolves a document UUID. */
async function resolve<T>(uuid: string | undefined): Promise<T | undefined> {
  if (!uuid) return undefined;
  return ((await foundry.utils.fromUuid(uuid as never)) ?? undefined) as T | undefined;
}

/** The last id of a token UUID (`Scene.a.Token.b` gives `b`). */
function tokenIdOf(uuid: string | undefined): string | undefined {
  return uuid?.split(".").pop();
}

/** Everything an action needs: the message data, one target, both actors and the core's input. */
export interface ActionContext {
  system: ReturnType<typeof attackSystem>;
  target: TargetState;
  attackerActor: ActorLike;
  targetActor: ActorLike;
  input: Ud10AttackInput;
}

/**
 * Rebuilds the core's attack input from the message: attacker and target as they are now,
 * weapon, mode, range and situation as they were chosen.
 * @throws FrayError when an actor no longer exists.
 */
export async function actionContext(message: AttackMessageLike, index: number): Promise<ActionContext> {
  const system = attackSystem(message);
  const target = system.targets[index];
  if (!target) throw new FrayError("FRAY.Flow.Error.CardState", { action: "" }, "No such target on the card");
  const attackerActor = await resolve<ActorLike>(system.attackerUuid);
  const targetActor = await resolve<ActorLike>(target.actorUuid);
  if (!attackerActor || !targetActor) throw new FrayError("FRAY.Flow.Error.ActorGone", {}, "An actor of this attack no longer exists");
  const attacker = ud10CombatantFromActor(actorSource(attackerActor as never), { id: tokenIdOf(system.attackerTokenUuid) ?? attackerActor.id ?? "attacker" });
  let defender = ud10CombatantFromActor(actorSource(targetActor as never), { id: tokenIdOf(target.tokenUuid) ?? targetActor.id ?? "target" });
  if (target.input.immobilized !== undefined) defender = withImmobilized(defender, target.input.immobilized);
  const input: Ud10AttackInput = {
    attacker,
    target: defender,
    weaponId: system.weaponId,
    modeId: system.modeId || undefined,
    rangeMetres: target.input.rangeMetres,
    situation: target.input.situation,
  };
  return { system, target, attackerActor, targetActor, input };
}

/** The card actions that roll or decide on the card without touching an actor. */
export type CardStep = "parry" | "dodge" | "noReaction" | "rollDamage";

/** True for a {@link CardStep}. */
export function isCardStep(action: unknown): action is CardStep {
  return action === "parry" || action === "dodge" || action === "noReaction" || action === "rollDamage";
}

/** The reaction the core offers the defender now, with the combatant whose round it uses. */
function offeredReaction(ctx: ActionContext, id: "parry" | "dodge") {
  const combatant = combatantFor(ctx.targetActor, tokenIdOf(ctx.target.tokenUuid));
  const economy = combatant ? economyOf(combatant) : undefined;
  const option = ud10.reactions(ctx.input, economy, ud10OptionValues()).find((r) => r.id === id);
  return { option, combatant };
}

/**
 * The next state of one card target for a card step, computed by the rules core from the card's
 * current state and the dice: a reaction the core offers, rolled and weighed (UD-REA-01 to
 * UD-REA-04), no reaction, or the damage roll (UD-DMG-01, UD-RNG-02, UD-ZON-01). The acting
 * client and the GM answering its query run this same function, so the GM writes only what
 * the rules give for the card as it stands.
 * @throws FrayError when the card's state or the core refuses the step.
 */
export async function nextTargetState(ctx: ActionContext, action: CardStep, dice: DiceRoller): Promise<TargetState> {
  assertAllowed(action, ctx.target);
  switch (action) {
    case "parry":
    case "dodge": {
      const { option } = offeredReaction(ctx, action);
      if (!option?.available) {
        throw new FrayError("FRAY.Flow.Error.ReactionUnavailable", { reaction: `FRAY.Reaction.${action}`, reason: option?.reason ?? "FRAY.Reason.Constrained" }, "Reaction unavailable");
      }
      return withReaction(ctx.target, storedReactionOf(await resolveReaction(option, ctx.target.attackTotal, dice)));
    }
    case "noReaction":
      return withoutReaction(ctx.target);
    case "rollDamage": {
      const packet = await ud10.rollDamage(effectiveResult(ctx.target), ctx.input, dice, ud10OptionValues());
      return withDamage(ctx.target, storedDamage(packet));
    }
  }
}

/**
 * The defender reacts (UD-REA-01 to UD-REA-04): the core says whether the reaction is possible
 * (one per round through the combatant's economy, a weapon that can parry, a melee attack; an
 * untrained parry adds DEX); the check rolls the d10 with the core's modifiers and stops the
 * attack when it beats the attack's total (UD-REA-03).
 */
export async function react(message: AttackMessageLike, index: number, id: "parry" | "dodge"): Promise<void> {
  const ctx = await actionContext(message, index);
  assertAllowed(id, ctx.target);
  const { option, combatant } = offeredReaction(ctx, id);
  if (!option || !option.available) {
    warn("FRAY.Flow.Error.ReactionUnavailable", { reaction: `FRAY.Reaction.${id}`, reason: option?.reason ?? "FRAY.Reason.Constrained" });
    return;
  }
  const roller = new FoundryRoller();
  const ok = await commitTarget(message, index, id, await nextTargetState(ctx, id, roller), roller.rolls);
  if (ok && combatant) await spendOn(combatant, reactionEvent(option));
}

/** The defender lets the attack through without reacting (UD-REA-01). */
export async function declineReaction(message: AttackMessageLike, index: number): Promise<void> {
  const ctx = await actionContext(message, index);
  await commitTarget(message, index, "noReaction", await nextTargetState(ctx, "noReaction", new FoundryRoller()));
}

/**
 * Rolls the weapon's damage for a target the attack landed on (UD-DMG-01: fixed + N d10, each
 * 10 exploding; UD-RNG-02 the firing mode's damage; UD-DMG-05 penetration when on).
 */
export async function rollDamageFor(message: AttackMessageLike, index: number): Promise<void> {
  const ctx = await actionContext(message, index);
  const roller = new FoundryRoller();
  const next = await nextTargetState(ctx, "rollDamage", roller);
  await commitTarget(message, index, "rollDamage", next, roller.rolls);
}

/**
 * The GM's side of a card step asked by a user who may not update the message: the GM reads the
 * card as it stands, replays the user's dice (the faces of the Rolls sent) through the same
 * {@link nextTargetState}, and writes the result with those Rolls.
 */
export async function handleCardUpdateQuery(data: Record<string, unknown>): Promise<QueryAnswer> {
  const message = queryMessage(data);
  const action = data.action;
  if (!message || !isCardStep(action)) return { ok: false };
  const index = Number(data.index);
  const rolls = Array.isArray(data.rolls) ? data.rolls.map(String) : [];
  return answerQuery(async () => {
    const ctx = await actionContext(message, index);
    const next = await nextTargetState(ctx, action, new ScriptedRoller(facesOfRolls(rolls)));
    return writeTarget(message, index, action, next, rolls);
  });
}

/** Card-target pairs being applied or undone on this client, so a second request waits its turn. */
const pending = new Set<string>();

async function exclusive<T>(message: AttackMessageLike, index: number, work: () => Promise<T>): Promise<T> {
  const key = `${message.id}:${index}`;
  if (pending.has(key)) throw new FrayError("FRAY.Flow.Error.Busy", {}, "Already in progress");
  pending.add(key);
  try {
    return await work();
  } finally {
    pending.delete(key);
  }
}

/** Sets or clears the conditions of an actor, ignoring ids the world has no status effect for. */
async function setStatuses(actor: ActorLike, ids: readonly string[], active: boolean): Promise<void> {
  for (const id of ids) {
    try {
      await actor.toggleStatusEffect?.(id, { active });
    } catch (err) {
      console.warn(`Fray | status ${id}`, err);
    }
  }
}

/**
 * Applies a target's rolled damage on this client (the GM, or a user who owns both the target
 * and the message): the core's steps, the actor updated, the record stored on the card.
 */
export async function applyHere(message: AttackMessageLike, index: number, userId: string): Promise<boolean> {
  return exclusive(message, index, async () => {
    const ctx = await actionContext(message, index);
    assertAllowed("applyDamage", ctx.target);
    const report = ud10.applyDamage(ctx.input.target, packetOf(ctx.target.damage!), ud10OptionValues());
    const record = undoRecord(ctx.targetActor.uuid, report, userId);
    await ctx.targetActor.update(applyUpdate(record));
    await setStatuses(ctx.targetActor, record.added, true);
    return writeTarget(message, index, "applyDamage", withApplied(ctx.target, record), []);
  });
}

/** Undoes a target's applied damage on this client: HP and EP from before, added conditions removed. */
export async function undoHere(message: AttackMessageLike, index: number): Promise<boolean> {
  return exclusive(message, index, async () => {
    const ctx = await actionContext(message, index);
    assertAllowed("undoDamage", ctx.target);
    const record = ctx.target.applied!;
    await ctx.targetActor.update(revertUpdate(record));
    await setStatuses(ctx.targetActor, revertStatuses(record).remove, false);
    return writeTarget(message, index, "undoDamage", withUndone(ctx.target), []);
  });
}

/** Whether this client may apply or undo by itself: the GM, or the owner of both target and card. */
async function canDoHere(message: AttackMessageLike, index: number): Promise<boolean> {
  if (game.user?.isGM) return true;
  const t = attackSystem(message).targets[index];
  const actor = await resolve<ActorLike>(t?.actorUuid);
  return Boolean(actor?.isOwner && message.isOwner);
}

/** Apply damage: here when allowed, else through the active GM (v13 query `fray.applyDamage`). */
export async function applyDamageAction(message: AttackMessageLike, index: number): Promise<void> {
  if (await canDoHere(message, index)) await applyHere(message, index, game.user?.id ?? "");
  else queryAnswer(await askGM(QUERIES.applyDamage, { messageId: message.id, index, userId: game.user?.id ?? "" }));
}

/** Undo: here when allowed, else through the active GM (v13 query `fray.undoDamage`). */
export async function undoDamageAction(message: AttackMessageLike, index: number): Promise<void> {
  if (await canDoHere(message, index)) await undoHere(message, index);
  else queryAnswer(await askGM(QUERIES.undoDamage, { messageId: message.id, index }));
}

function queryMessage(data: Record<string, unknown>): AttackMessageLike | undefined {
  const message = game.messages?.get(String(data.messageId)) as unknown as AttackMessageLike | undefined;
  return message?.type === "attack" ? message : undefined;
}

/** The GM's handler of `fray.applyDamage`: the state on the message is checked again here. */
export async function handleApplyQuery(data: Record<string, unknown>): Promise<QueryAnswer> {
  const message = queryMessage(data);
  if (!message) return { ok: false };
  return answerQuery(() => applyHere(message, Number(data.index), String(data.userId ?? "")));
}

/** The GM's handler of `fray.undoDamage`. */
export async function handleUndoQuery(data: Record<string, unknown>): Promise<QueryAnswer> {
  const message = queryMessage(data);
  if (!message) return { ok: false };
  return answerQuery(() => undoHere(message, Number(data.index)));
}

/**
 * Who the current user is to one target of the card: GM, owner of the attacker, owner of the
 * target (UD-REA-01: the reaction belongs to the defender's side).
 */
export async function viewerOf(message: AttackMessageLike, index: number): Promise<Viewer> {
  const system = attackSystem(message);
  const attacker = await resolve<ActorLike>(system.attackerUuid);
  const target = await resolve<ActorLike>(system.targets[index]?.actorUuid);
  return { isGM: Boolean(game.user?.isGM), ownsAttacker: Boolean(attacker?.isOwner), ownsTarget: Boolean(target?.isOwner) };
}

/**
 * Runs a card button's action, reporting errors to the user; an action the user may not take
 * (someone else's reaction, damage or undo) is refused with a notification.
 */
export async function runCardAction(message: AttackMessageLike, index: number, action: CardAction): Promise<void> {
  try {
    if (!mayPress(action, await viewerOf(message, index))) {
      warn("FRAY.Flow.Error.NotYours", { action: `FRAY.Flow.Button.${action}` });
      return;
    }
    switch (action) {
      case "parry":
      case "dodge":
        return await react(message, index, action);
      case "noReaction":
        return await declineReaction(message, index);
      case "rollDamage":
        return await rollDamageFor(message, index);
      case "applyDamage":
        return await applyDamageAction(message, index);
      case "undoDamage":
        return await undoDamageAction(message, index);
    }
  } catch (err) {
    reportError(err);
  }
}
