/**
 * What the buttons of an attack card do: the defender's Parry, Dodge or No reaction
 * (UD-REA-01 to UD-REA-04), Roll damage (UD-DMG-01, UD-ZON-01), Apply damage (UD-DMG-02 to
 * UD-DMG-05, UD-ZON-02) and Undo. Dice are real Rolls through the FoundryRoller; the rules
 * core does the arithmetic; the card state in `logic/card.ts` decides what is allowed.
 */
import type { AttackRequest } from "../../rules/core/contract.js";
import type { DiceRoller } from "../../rules/core/dice/port.js";
import { ScriptedRoller } from "../../rules/core/dice/port.js";
import { FrayError } from "../../rules/core/errors.js";
import type { AttackResult, DamagePacket, ReactionOption, Ruleset, RulesetOptions } from "../../rules/core/ruleset.js";
import { deltaOf } from "../../rules/core/ledger.js";
import { planStep } from "../../rules/core/step.js";
import type { DamageReport, VitalState } from "../../rules/core/types.js";
import { combatantFor, economyOf, spendOn } from "../combat/economy-store.js";
import { FoundryRoller } from "../dice.js";
import { actorSource } from "../documents/source.js";
import {
  assertAllowed,
  mayPress,
  pendingForced,
  withApplied,
  withDamage,
  withForced,
  withoutReaction,
  withReaction,
  withUndone,
  type CardAction,
  type TargetState,
  type Viewer,
} from "../logic/card.js";
import { facesOf, storable } from "../logic/attack-state.js";
import { reactionEvent } from "../logic/economy.js";
import { appliedTo, recordApplied } from "../play/applied.js";
import { ledgerEntry, ledgerEntryOf, ledgerKey, ledgerUpdate, statusChanges, undoneState, undoRecord } from "../logic/undo.js";
import { reportError, warn } from "../notify.js";
import { cardRulesOf } from "../play/card-rules.js";
import { floatingOptions } from "../play/floating.js";
import { callHook, callHookAll, HOOKS } from "../play/hooks.js";
import { askGM, QUERIES, queryAnswer, refusal, type Requester, type RequestAnswer } from "../queries.js";
import { bindingOf, type RulesetBinding } from "../registry.js";
import { optionValues } from "../settings.js";
import { attackSystem, commitTarget, facesOfRolls, writeTarget, type AttackMessageLike } from "./attack-message.js";

/** An actor as the flow reads and writes it. */
interface ActorLike {
  uuid: string;
  id: string | null;
  name: string | null;
  isOwner: boolean;
  update(data: Record<string, unknown>, options?: Record<string, unknown>): Promise<unknown>;
  toggleStatusEffect?(id: string, options: { active: boolean }): Promise<unknown>;
  getFlag?(scope: string, key: string): unknown;
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

/**
 * Everything an action needs: the message data, one target, both actors, the world's binding
 * and options, both combatants as they are now and the ruleset's input rebuilt from the stored
 * neutral request (`Ruleset.input`).
 */
export interface ActionContext {
  system: ReturnType<typeof attackSystem>;
  target: TargetState;
  attackerActor: ActorLike;
  targetActor: ActorLike;
  binding: RulesetBinding<unknown>;
  ruleset: Ruleset<unknown, unknown>;
  options: RulesetOptions;
  attacker: unknown;
  defender: unknown;
  /** The ruleset's input of the stored request without a declared reaction. */
  input: unknown;
}

/**
 * Rebuilds the ruleset's attack input from the message: attacker and target as they are now
 * (through the binding), the stored neutral request as it was made.
 * @throws FrayError when an actor no longer exists or the ruleset refuses the request.
 */
export async function actionContext(message: AttackMessageLike, index: number): Promise<ActionContext> {
  const system = attackSystem(message);
  const target = system.targets[index];
  if (!target) throw new FrayError("FRAY.Flow.Error.CardState", { action: "" }, "No such target on the card");
  const attackerActor = await resolve<ActorLike>(system.attackerUuid);
  const targetActor = await resolve<ActorLike>(target.actorUuid);
  if (!attackerActor || !targetActor) throw new FrayError("FRAY.Flow.Error.ActorGone", {}, "An actor of this attack no longer exists");
  const binding = bindingOf(system.ruleset);
  const ruleset = binding.ruleset;
  const options = optionValues(binding.id);
  const attacker = binding.combatantFromActor(actorSource(attackerActor as never), {
    id: tokenIdOf(system.attackerTokenUuid) ?? attackerActor.id ?? "attacker",
  });
  const defender = binding.combatantFromActor(actorSource(targetActor as never), {
    id: tokenIdOf(target.tokenUuid) ?? targetActor.id ?? "target",
  });
  const input = ruleset.input({ ...target.request, reaction: undefined }, attacker, defender, options);
  return { system, target, attackerActor, targetActor, binding, ruleset, options, attacker, defender, input };
}

/** The card actions that roll or decide on the card without touching an actor. */
export type CardStep = "parry" | "dodge" | "block" | "noReaction" | "rollDamage";

/** True for a {@link CardStep}. */
export function isCardStep(action: unknown): action is CardStep {
  return action === "parry" || action === "dodge" || action === "block" || action === "noReaction" || action === "rollDamage";
}

/** The reaction the core offers the defender now, with the combatant whose round it uses. */
function offeredReaction(
  ctx: ActionContext,
  id: "parry" | "dodge" | "block",
): { option?: ReactionOption; combatant: ReturnType<typeof combatantFor> } {
  const combatant = combatantFor(ctx.targetActor, tokenIdOf(ctx.target.tokenUuid));
  const economy = combatant ? economyOf(combatant) : undefined;
  const option = ctx.ruleset.reactions(ctx.input, economy, ctx.options).find((r) => r.id === id);
  return { option, combatant };
}

/** The defender of a card target as the card rules see it. */
function cardTarget(t: TargetState): { actorUuid: string; tokenUuid: string } {
  return { actorUuid: t.actorUuid, tokenUuid: t.tokenUuid };
}

/** A reaction the ruleset cannot make on the card. */
function unavailable(id: string, reason = "FRAY.Reason.Constrained"): FrayError {
  return new FrayError("FRAY.Flow.Error.ReactionUnavailable", { reaction: `FRAY.Reaction.${id}`, reason }, "Reaction unavailable");
}

/**
 * The next state of one card target for a card step, computed by the rules core from the card's
 * current state and the dice: a reaction the core offers, rolled and folded into the stored
 * result by the ruleset (UD-REA-01 to UD-REA-04), no reaction, or the damage roll (UD-DMG-01,
 * UD-RNG-02, UD-ZON-01) from the stored result and the input rebuilt from the stored request.
 * The acting client and the GM answering its request run this same function, so the GM writes
 * only what the rules give for the card as it stands.
 * @throws FrayError when the card's state or the core refuses the step.
 */
export async function nextTargetState(ctx: ActionContext, action: CardStep, dice: DiceRoller): Promise<TargetState> {
  assertAllowed(action, ctx.target);
  switch (action) {
    case "parry":
    case "dodge":
    case "block": {
      const { option } = offeredReaction(ctx, action);
      const react = cardRulesOf(ctx.binding.id).react;
      if (!option?.available || !react) throw unavailable(action, option?.reason);
      return withReaction(ctx.target, action, storable(await react(ctx.target.result, option, dice)));
    }
    case "noReaction":
      return withoutReaction(ctx.target);
    case "rollDamage": {
      const packet = await ctx.ruleset.rollDamage(ctx.target.result, ctx.input, dice, ctx.options);
      return withDamage(ctx.target, storable(packet));
    }
  }
}

/**
 * The defender reacts (UD-REA-01 to UD-REA-04): the core says whether the reaction is possible
 * (one per round through the combatant's economy, a weapon that can parry, a melee attack; an
 * untrained parry adds DEX); the check rolls the d10 with the core's modifiers and stops the
 * attack when it beats the attack's total (UD-REA-03).
 */
export async function react(message: AttackMessageLike, index: number, id: "parry" | "dodge" | "block"): Promise<void> {
  const ctx = await actionContext(message, index);
  assertAllowed(id, ctx.target);
  const { option, combatant } = offeredReaction(ctx, id);
  if (!option || !option.available) {
    warn("FRAY.Flow.Error.ReactionUnavailable", { reaction: `FRAY.Reaction.${id}`, reason: option?.reason ?? "FRAY.Reason.Constrained" });
    return;
  }
  const roller = new FoundryRoller();
  const next = await nextTargetState(ctx, id, roller);
  const ok = await commitTarget(message, index, id, next, roller.rolls);
  if (ok && combatant) await spendOn(combatant, reactionEvent(option));
  if (ok) await cardRulesOf(ctx.binding.id).afterReact?.(next.result, cardTarget(ctx.target));
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

/** The card actions a request may carry, checked before anything else is read. */
function requestedIndex(message: AttackMessageLike, data: Record<string, unknown>): number {
  const index = data.index;
  if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= attackSystem(message).targets.length) {
    throw new FrayError(
      "FRAY.Error.Field",
      { field: "index", expected: "a target of the card" },
      'Field "index": no such target on the card',
    );
  }
  return index;
}

/** A document whose ownership the GM tests for a user. */
interface OwnedDoc {
  testUserPermission?(user: unknown, permission: "OWNER"): boolean;
}

/** The User document of a requester, as the world knows it. */
function userDoc(requester: Requester): unknown {
  return (game.users as unknown as { get(id: string): unknown } | undefined)?.get(requester.id);
}

/** Whether a user owns a document: GMs own everything; anyone else by the document's ownership. */
export function ownedBy(doc: OwnedDoc | undefined, user: unknown, isGM: boolean): boolean {
  if (isGM) return true;
  if (!doc || !user) return false;
  return Boolean(doc.testUserPermission?.(user, "OWNER"));
}

/**
 * Who a requester is to one target of the card, from the documents: GM, owner of the attacker,
 * owner of the target (UD-REA-01).
 */
export async function viewerFor(requester: Requester, message: AttackMessageLike, index: number): Promise<Viewer> {
  const system = attackSystem(message);
  const user = userDoc(requester);
  const attacker = await resolve<OwnedDoc>(system.attackerUuid);
  const target = await resolve<OwnedDoc>(system.targets[index]?.actorUuid);
  return { isGM: requester.isGM, ownsAttacker: ownedBy(attacker, user, requester.isGM), ownsTarget: ownedBy(target, user, requester.isGM) };
}

/**
 * Refuses a request the requester may not make on this target (see `mayPress`) and a card whose
 * attacker its author does not own (a card edited to speak for someone else's actor).
 * @throws FrayError `FRAY.Flow.Error.NotYours` or `FRAY.Flow.Error.CardForged`.
 */
async function authorize(requester: Requester, message: AttackMessageLike, index: number, action: CardAction): Promise<void> {
  if (!mayPress(action, await viewerFor(requester, message, index))) {
    throw new FrayError("FRAY.Flow.Error.NotYours", { action: `FRAY.Flow.Button.${action}` }, `${action} is not the requester's to press`);
  }
  const author = (message as unknown as { author?: { id?: string | null; isGM?: boolean } | null }).author;
  const attacker = await resolve<OwnedDoc>(attackSystem(message).attackerUuid);
  if (!author || !ownedBy(attacker, author, Boolean(author.isGM))) {
    throw new FrayError("FRAY.Flow.Error.CardForged", {}, "The card's attacker is not its author's");
  }
}

/**
 * The active GM's side of a card step asked by a user who may not write the card: authorizes the
 * requester against the documents, reads the card as it stands, replays the user's dice (the
 * faces of the Rolls sent) through the same {@link nextTargetState}, and writes the result with
 * those Rolls. Nothing else of the request is written.
 */
export async function handleCardUpdateQuery(data: Record<string, unknown>, requester: Requester): Promise<RequestAnswer> {
  const message = queryMessage(data);
  const action = data.action;
  if (!message || !isCardStep(action)) return refusal("FRAY.Flow.Error.Refused");
  const index = requestedIndex(message, data);
  await authorize(requester, message, index, action);
  const rolls = Array.isArray(data.rolls) ? data.rolls.filter((r): r is string => typeof r === "string") : [];
  const ctx = await actionContext(message, index);
  const next = await nextTargetState(ctx, action, new ScriptedRoller(facesOfRolls(rolls)));
  return { ok: await writeTarget(message, index, action, next, rolls, requester.id) };
}

/** The faces of every roll of a stored attack result, in the order the ruleset rolls them: check, declared reaction, locations. */
function attackFaces(result: AttackResult, withReaction: boolean): number[] {
  const locations = result.locations?.length ? result.locations : result.location ? [result.location] : [];
  return [
    ...facesOf(result.check.roll),
    ...(withReaction && result.reaction ? facesOf(result.reaction.check.roll) : []),
    ...locations.flatMap((l) => facesOf(l.roll)),
  ];
}

/** The faces of a stored damage packet and its parts, in order. */
function packetFaces(packet: DamagePacket): number[] {
  return [...facesOf(packet.roll), ...(packet.parts ?? []).flatMap(packetFaces)];
}

/** The same JSON: a stored value and its recomputation agree. */
function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(storable(a)) === JSON.stringify(storable(b));
}

/**
 * The damage to apply, recomputed by the rules core from the dice stored on the card: the
 * attack is replayed from the stored request with its faces against the target as it is now
 * (UD-ATK-02), a reaction made on the card with its faces (UD-REA-03), the hit location with its
 * die (UD-ZON-01) and the damage with its faces (UD-DMG-01, UD-RNG-02, UD-DMG-05). Nothing
 * written on the card is taken as written: a card whose stored results do not follow from its
 * dice is refused.
 * @throws FrayError `FRAY.Flow.Error.CardMismatch` when the card does not match its dice;
 *   the core's error naming the field when the attack cannot be planned against the documents
 *   as they are now (a Critical parry raised above the OB since the card was posted, CR-PAR-01).
 */
export async function replayedPacket(ctx: ActionContext): Promise<DamagePacket> {
  const t = ctx.target;
  const mismatch = () => new FrayError("FRAY.Flow.Error.CardMismatch", { target: t.name }, "The card does not follow from its dice");
  if (!t.damage) throw mismatch();
  const rules = cardRulesOf(ctx.binding.id);
  const attacker = rules.ableAttacker ? rules.ableAttacker(ctx.attacker, t.result) : ctx.attacker;
  const declared = Boolean(t.request.reaction) && !t.reactedOnCard;
  const request: AttackRequest = { ...t.request, reaction: declared ? t.request.reaction : undefined };
  if (rules.checkRequest && !rules.checkRequest(request, cardTarget(t))) throw mismatch();
  let planned: ReturnType<typeof planStep>;
  try {
    planned = planStep(ctx.ruleset, request, attacker, ctx.defender, ctx.options);
  } catch (err) {
    // The attack cannot be planned against the documents as they are now (a parry raised above
    // the OB since, CR-PAR-01): the error names the field, which tells the GM more than a mismatch.
    if (err instanceof FrayError && typeof err.data?.field === "string") throw err;
    if (err instanceof FrayError) throw mismatch();
    throw err;
  }
  let packet: DamagePacket;
  try {
    let replay = await ctx.ruleset.resolveAttack(
      planned.plan,
      planned.input,
      new ScriptedRoller(attackFaces(t.result, declared)),
      ctx.options,
    );
    if (t.reactedOnCard) {
      const reaction = t.result.reaction;
      const option = reaction ? ctx.ruleset.reactions(planned.input, undefined, ctx.options).find((r) => r.id === reaction.id) : undefined;
      if (!reaction || !option || !rules.react) throw mismatch();
      replay = await rules.react(replay, option, new ScriptedRoller(facesOf(reaction.check.roll)));
    }
    if (
      !replay.lands ||
      !same(replay.check, t.result.check) ||
      replay.hit !== t.result.hit ||
      !same(replay.reaction, t.result.reaction) ||
      !same(replay.location, t.result.location)
    )
      throw mismatch();
    packet = await ctx.ruleset.rollDamage(replay, planned.input, new ScriptedRoller(packetFaces(t.damage)), ctx.options);
  } catch (err) {
    if (err instanceof FrayError) throw mismatch();
    throw err;
  }
  if (!same(packet, t.damage)) throw mismatch();
  return packet;
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
 * Writes the part of a vital state that lives on the target's items (Hitbox armor points used
 * up, HB-DMG-01), as the card rules of its ruleset say; nothing for a ruleset without any.
 */
async function updateItems(ctx: ActionContext, state: VitalState): Promise<void> {
  const updates = cardRulesOf(ctx.binding.id).itemUpdates?.(ctx.defender, state) ?? [];
  const actor = ctx.targetActor as ActorLike & { updateEmbeddedDocuments?(type: string, rows: unknown[]): Promise<unknown> };
  if (updates.length) await actor.updateEmbeddedDocuments?.("Item", updates);
}

/** The vital state of an actor as it is now, through the binding of the card's ruleset. */
function currentVitals(ctx: ActionContext): VitalState {
  return ctx.ruleset.vitals(ctx.binding.combatantFromActor(actorSource(ctx.targetActor as never)));
}

/**
 * Applies a target's rolled damage (UD-DMG-02 to UD-DMG-05, UD-ZON-02) on the active GM: the
 * damage recomputed from the card's dice ({@link replayedPacket}), the core's steps on the
 * target as it is now, the actor updated, the application recorded in the target's ledger
 * (`flags.fray.ledger`, stamped), in the world's index of applied attacks and on the card. A
 * target already applied for this card (in the actor's ledger, whatever the card says) is
 * refused, and so is an actor other than the one this card target was first applied to.
 * @throws FrayError when the card's phase, the ledger or the dice refuse it.
 */
export async function applyHere(message: AttackMessageLike, index: number, userId: string): Promise<boolean> {
  const ctx = await actionContext(message, index);
  assertAllowed("applyDamage", ctx.target);
  const key = ledgerKey(message.id ?? "", index);
  if (ledgerEntry(ctx.targetActor, key)?.undone === false) {
    throw new FrayError("FRAY.Flow.Error.CardState", { action: "FRAY.Flow.Button.applyDamage" }, "Already applied");
  }
  // One attack, one victim: a card target once applied to an actor is never applied to another,
  // whatever the card (which its author may edit) names now.
  const bound = appliedTo(key);
  if (bound && bound !== ctx.targetActor.uuid) {
    throw new FrayError("FRAY.Flow.Error.AppliedElsewhere", { target: ctx.target.name }, "Applied to another actor before");
  }
  const packet = await replayedPacket(ctx);
  const hold = cardRulesOf(ctx.binding.id).holdApply;
  if (hold && (await hold({ message, index, userId }, (t) => writeTarget(message, index, "applyDamage", t, [])))) return true;
  const hook: DamageHookContext = { message, index, actor: ctx.targetActor, packet, userId };
  if (!callHook(HOOKS.preApplyDamage, hook)) return false;
  const report = storable(ctx.ruleset.applyDamage(ctx.defender, packet, ctx.options));
  const record = undoRecord(ctx.targetActor.uuid, report, userId, foundry.utils.randomID());
  await ctx.targetActor.update(
    {
      ...ctx.ruleset.vitalsUpdate(report.after),
      ...ledgerUpdate(key, ledgerEntryOf(record, message.id ?? "", index, deltaOf(report.before, report.after))),
    },
    floatingOptions(report.before, report.after) as unknown as Record<string, unknown>,
  );
  await recordApplied(key, ctx.targetActor.uuid);
  await updateItems(ctx, report.after);
  await setStatuses(ctx.targetActor, record.added, true);
  const ok = await writeTarget(message, index, "applyDamage", withApplied(ctx.target, record, report), []);
  callHookAll(HOOKS.applyDamage, { ...hook, report });
  return ok;
}

/** What the damage hooks receive (`fray.preApplyDamage`, `fray.applyDamage`, `fray.undoDamage`). */
export interface DamageHookContext {
  /** The attack message and the index of the card's target. */
  message: AttackMessageLike;
  index: number;
  /** The target's actor. */
  actor: ActorLike;
  /** The damage as the core recomputed it from the card's dice. */
  packet?: DamagePacket;
  /** The core's report of the application (`fray.applyDamage`). */
  report?: DamageReport;
  /** The vital states before and after an undo (`fray.undoDamage`). */
  before?: VitalState;
  after?: VitalState;
  /** The user who asked, as the server vouched. */
  userId: string;
}

/**
 * Undoes a target's applied damage on the active GM (UD-DMG-02 to UD-DMG-04): the application's
 * delta, read from the target's own ledger by the card's stamp (never from the card), is given
 * back to the actor as it is now, clamped to each track's bounds; later changes stay; the
 * vital-derived conditions are set from the vitals after. Undoing an undone or unknown
 * application changes nothing.
 * @throws FrayError when the card's phase refuses it or the ledger holds nothing to undo.
 */
export async function undoHere(message: AttackMessageLike, index: number, userId = ""): Promise<boolean> {
  const ctx = await actionContext(message, index);
  assertAllowed("undoDamage", ctx.target);
  const key = ledgerKey(message.id ?? "", index);
  const entry = ledgerEntry(ctx.targetActor, key);
  if (!entry || entry.undone || entry.stamp !== ctx.target.applied?.stamp) {
    throw new FrayError("FRAY.Flow.Error.CardState", { action: "FRAY.Flow.Button.undoDamage" }, "Nothing to undo");
  }
  const current = currentVitals(ctx);
  const vitals = cardRulesOf(ctx.binding.id).vitals;
  const after = undoneState(current, entry.delta, vitals);
  await ctx.targetActor.update(
    { ...ctx.ruleset.vitalsUpdate(after), ...ledgerUpdate(key, { ...entry, undone: true }) },
    floatingOptions(current, after) as unknown as Record<string, unknown>,
  );
  await updateItems(ctx, after);
  const changed = statusChanges(current, after, entry.delta, vitals);
  await setStatuses(ctx.targetActor, changed.add, true);
  await setStatuses(ctx.targetActor, changed.remove, false);
  const ok = await writeTarget(message, index, "undoDamage", withUndone(ctx.target), []);
  callHookAll(HOOKS.undoDamage, { message, index, actor: ctx.targetActor, before: current, after, userId } satisfies DamageHookContext);
  return ok;
}

/**
 * Rolls the next check the applied damage forced on the target (HB-DMG-04 Blackout) on the
 * active GM: the ledger entry of this card must be the applied one; the GM's own dice roll the
 * core's `forcedCheck` on the target as it is now; its consequence (shock) is written on the
 * actor and added to the application's ledger entry, so undoing the damage undoes it too; the
 * card shows the test.
 * @throws FrayError when the card's phase or the ledger refuse it, or the core does.
 */
export async function forcedHere(message: AttackMessageLike, index: number): Promise<boolean> {
  const ctx = await actionContext(message, index);
  assertAllowed("forcedCheck", ctx.target);
  const forced = pendingForced(ctx.target);
  const key = ledgerKey(message.id ?? "", index);
  const entry = ledgerEntry(ctx.targetActor, key);
  if (!forced || !ctx.ruleset.forcedCheck || !entry || entry.undone || entry.stamp !== ctx.target.applied?.stamp) {
    throw new FrayError("FRAY.Flow.Error.CardState", { action: "FRAY.Flow.Button.forcedCheck" }, "No check to roll");
  }
  const roller = new FoundryRoller();
  const result = storable(await ctx.ruleset.forcedCheck(ctx.defender, forced, roller, ctx.options));
  const added = result.report.added.filter((c) => !entry.delta.added.includes(c));
  const delta = { ...entry.delta, added: [...entry.delta.added, ...added] };
  await ctx.targetActor.update(
    { ...ctx.ruleset.vitalsUpdate(result.report.after), ...ledgerUpdate(key, { ...entry, delta }) },
    floatingOptions(result.report.before, result.report.after) as unknown as Record<string, unknown>,
  );
  await setStatuses(ctx.targetActor, added, true);
  const rolls = roller.rolls.map((r) => JSON.stringify(r));
  return writeTarget(message, index, "forcedCheck", withForced(ctx.target, result), rolls);
}

/** The forced check: through the active GM, who rolls it (request `fray.forcedCheck`). */
export async function forcedCheckAction(message: AttackMessageLike, index: number): Promise<void> {
  queryAnswer(await askGM(QUERIES.forcedCheck, { messageId: message.id, index }));
}

/** The active GM's handler of `fray.forcedCheck`: the requester must own the target or be a GM. */
export async function handleForcedQuery(data: Record<string, unknown>, requester: Requester): Promise<RequestAnswer> {
  const message = queryMessage(data);
  if (!message) return refusal("FRAY.Flow.Error.Refused");
  const index = requestedIndex(message, data);
  await authorize(requester, message, index, "forcedCheck");
  return { ok: await forcedHere(message, index) };
}

/** Apply damage: through the active GM, who applies (request `fray.applyDamage`). */
export async function applyDamageAction(message: AttackMessageLike, index: number): Promise<void> {
  queryAnswer(await askGM(QUERIES.applyDamage, { messageId: message.id, index }));
}

/** Undo: through the active GM (request `fray.undoDamage`). */
export async function undoDamageAction(message: AttackMessageLike, index: number): Promise<void> {
  queryAnswer(await askGM(QUERIES.undoDamage, { messageId: message.id, index }));
}

function queryMessage(data: Record<string, unknown>): AttackMessageLike | undefined {
  const message = game.messages?.get(String(data.messageId)) as unknown as AttackMessageLike | undefined;
  return message?.type === "attack" ? message : undefined;
}

/**
 * The active GM's handler of `fray.applyDamage`: the requester must be allowed to apply on this
 * target (GM, or owner of the attacker or the target), the card's attacker must be its author's;
 * the card's state is checked again and the damage recomputed from its dice.
 */
export async function handleApplyQuery(data: Record<string, unknown>, requester: Requester): Promise<RequestAnswer> {
  const message = queryMessage(data);
  if (!message) return refusal("FRAY.Flow.Error.Refused");
  return { ok: await applyFor(message, requestedIndex(message, data), requester) };
}

/**
 * Applies a card target's damage on the active GM for a requester, checked as the card stands
 * now: the requester may press Apply on it and the card's attacker is its author's
 * ({@link authorize}), then {@link applyHere}. Every application runs through here, a held one
 * too (HB-ACT-01: the card may have been edited between the hold and the step's end).
 * @throws FrayError when the requester, the card or the ledger refuse it.
 */
export async function applyFor(message: AttackMessageLike, index: number, requester: Requester): Promise<boolean> {
  await authorize(requester, message, index, "applyDamage");
  return applyHere(message, index, requester.id);
}

/** The active GM's handler of `fray.undoDamage`: the requester must own the target or be a GM. */
export async function handleUndoQuery(data: Record<string, unknown>, requester: Requester): Promise<RequestAnswer> {
  const message = queryMessage(data);
  if (!message) return refusal("FRAY.Flow.Error.Refused");
  const index = requestedIndex(message, data);
  await authorize(requester, message, index, "undoDamage");
  return { ok: await undoHere(message, index, requester.id) };
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
      case "block":
        return await react(message, index, action);
      case "noReaction":
        return await declineReaction(message, index);
      case "rollDamage":
        return await rollDamageFor(message, index);
      case "applyDamage":
        return await applyDamageAction(message, index);
      case "forcedCheck":
        return await forcedCheckAction(message, index);
      case "undoDamage":
        return await undoDamageAction(message, index);
    }
  } catch (err) {
    reportError(err);
  }
}
