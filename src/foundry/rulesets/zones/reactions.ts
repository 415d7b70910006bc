/**
 * Declared reactions at a Zones table (ZN-REA-01, ZN-REA-02, ZN-ACT-01, ZN-INI-01): a combatant
 * declares a reaction with its trigger (free text) and what it will do; the reaction is paid at
 * once from the round's economy by the active GM, who writes it on the Combat
 * (`flags.fray.zonesReactions`, by Combatant id) where it waits until the declarer's next turn. The tracker lists each pending reaction under its declarer (hidden
 * from other players while it is part of an unrevealed plot); the GM triggers it from there,
 * which posts a reaction card, and may start a contest (d10 + DEX each) from that card. What a
 * reaction is, when it lapses and who sees it come from the core (`src/rules/zones/reactions.ts`);
 * the contest's dice and winner from `contest` (`src/rules/zones/checks.ts`).
 */
import { replaceFlag } from "../../logic/flags.js";
import { FrayError } from "../../../rules/core/errors.js";
import {
  contest,
  playReaction,
  reactionStatus,
  reactionVisible,
  readReaction,
  storedReactions,
  type ContestResult,
  type ReactionClock,
  type StoredReaction,
  type ZonesCombatant,
} from "../../../rules/zones/index.js";
import { declarationOf, phaseOf } from "../../combat/declarations.js";
import { spendOn, type CombatantLike } from "../../combat/economy-store.js";
import { trackerDeclarations } from "../../combat/tracker.js";
import { FoundryRoller } from "../../dice.js";
import { combatantOf } from "../../documents/actor.js";
import {
  REACTION_DIALOG_BUTTONS,
  reactionCardContext,
  reactionFormHtml,
  reactionRowHtml,
  type CardI18n,
  type ReactionCardState,
  type ReactionRow,
} from "./reaction-view.js";
import { reportError, warn, windowTitle } from "../../notify.js";
import { askGM, queryAnswer, refusal, type Requester, type RequestAnswer } from "../../queries.js";
import { activeBinding, registry } from "../../registry.js";
import { optionValues } from "../../settings.js";
import { animateAddedRolls } from "../../chat/dice-animation.js";
import { dialogButtons, type DialogFormButton } from "../../logic/dialog-buttons.js";

type Dict = Record<string, unknown>;

/**
 * The Combat flag that holds the declared reactions, by the declarer's Combatant id. The Combat
 * is a document only a GM updates (A11): the active GM writes every reaction, on the declarer's
 * request, once its cost is paid; a list a player writes anywhere else counts for nothing.
 */
export const REACTIONS_FLAG = "zonesReactions";

/** The reaction card's template. */
export const REACTION_TEMPLATE = "systems/fray/templates/zones/reaction-card.hbs";

/** A Combatant as reactions read it. */
export interface ReactingCombatant extends CombatantLike {
  name?: string | null;
  hasPlayerOwner?: boolean;
}

/** A Combat as reactions read it. */
export interface ReactionCombat {
  id?: string | null;
  round?: number;
  turn?: number | null;
  turns?: readonly { id?: string | null }[];
  combatant?: { id?: string | null } | null;
  combatants?: Iterable<unknown> & { get(id: string): ReactingCombatant | undefined };
  getFlag?(scope: string, key: string): unknown;
  setFlag?(scope: string, key: string, value: unknown): Promise<unknown>;
}

/**
 * Where the combat stands for one declarer (ZN-REA-01): its round, the phase of the round's
 * plot, and whether the declarer's turn of this round has begun (its place in the turn order is
 * at or before the current turn, once the plot is revealed).
 */
export function clockOf(combat: ReactionCombat, combatantId: string): ReactionClock {
  const round = combat.round ?? 0;
  const phase = phaseOf(activeBinding().ruleset.declaration, combat.getFlag?.("fray", "phase"), round);
  const index = (combat.turns ?? []).findIndex((t) => t.id === combatantId);
  const turn = typeof combat.turn === "number" ? combat.turn : -1;
  const turnBegun = phase !== "declare" && index >= 0 && index <= turn;
  return { round, turnBegun, ...(phase ? { phase } : {}) };
}

/** The reactions the active GM wrote on the Combat, by Combatant id (malformed entries read as none). */
function reactionLists(combat: ReactionCombat): Record<string, unknown> {
  const stored = combat.getFlag?.("fray", REACTIONS_FLAG);
  return stored && typeof stored === "object" && !Array.isArray(stored) ? { ...(stored as Record<string, unknown>) } : {};
}

/**
 * The reactions of a combatant still of use now (ZN-REA-01): pending, or played this round, as the
 * active GM wrote them on the Combat; never what the Combatant's own flags say.
 */
export function reactionsOf(combat: ReactionCombat, combatant: ReactingCombatant): StoredReaction[] {
  return storedReactions(reactionLists(combat)[combatant.id ?? ""], clockOf(combat, combatant.id ?? ""));
}

/** Writes a combatant's reactions on the Combat (the active GM only). */
async function writeReactions(combat: ReactionCombat, combatantId: string, list: StoredReaction[]): Promise<void> {
  if (!combat.setFlag) throw new FrayError("FRAY.Error.Field", { field: "combat", expected: "a combat of this world" }, "No combat");
  await replaceFlag(combat as ReactionCombat & { setFlag: NonNullable<ReactionCombat["setFlag"]> }, REACTIONS_FLAG, {
    ...reactionLists(combat),
    [combatantId]: list,
  });
}

/** What the reaction form answers. */
export interface ReactionAnswer {
  trigger: string;
  response: string;
}

/** Asks the reaction form (DialogV2): the trigger and what the combatant will do; `undefined` when closed. */
async function askReaction(name: string): Promise<ReactionAnswer | undefined> {
  const content = reactionFormHtml(game.i18n);
  const result = await foundry.applications.api.DialogV2.wait({
    window: { title: windowTitle("FRAY.Zones.Reaction.Title", { name }) },
    content,
    buttons: dialogButtons(REACTION_DIALOG_BUTTONS, {
      declare: (_event: unknown, button: DialogFormButton) => ({
        trigger: button.form?.elements.trigger?.value ?? "",
        response: button.form?.elements.response?.value ?? "",
      }),
    }),
    rejectClose: false,
  } as never);
  return result && typeof result === "object" ? (result as ReactionAnswer) : undefined;
}

/** A fresh id for a reaction. */
function newId(): string {
  const random = (foundry.utils as unknown as { randomID?(): string }).randomID;
  return random ? random() : Math.random().toString(36).slice(2, 12);
}

/**
 * Declares a reaction for a combatant (ZN-REA-01, ZN-ACT-01, ZN-INI-01): only by its owner or the
 * GM, in a started combat. Asks the trigger and response and checks them through the core; the
 * active GM then pays the reaction from the round's economy (the `declareReaction` action; refused
 * with a warning when it is spent) and writes it on the Combat ({@link handleDeclareReaction}). In
 * the plot (the `declare` phase) it is marked plotted, and when the combatant declares now and has
 * made no declaration this round, it also becomes its declaration (action `declareReaction`, the
 * trigger as text).
 * @param ask the form; tests and macros pass the answer.
 * @returns the stored reaction, or `undefined` when nothing was declared.
 * @throws FrayError `FRAY.Error.Field` naming `trigger` or `response` for a bad answer (nothing is paid).
 */
export async function declareReaction(
  combat: ReactionCombat,
  combatant: ReactingCombatant,
  ask: (name: string) => Promise<ReactionAnswer | undefined> = askReaction,
): Promise<StoredReaction | undefined> {
  if (!combatant.isOwner && !game.user?.isGM) {
    warn("FRAY.Zones.Reaction.NotYours");
    return undefined;
  }
  const clock = clockOf(combat, combatant.id ?? "");
  if (!(clock.round > 0)) {
    warn("FRAY.Zones.Reaction.NotStarted");
    return undefined;
  }
  const answer = await ask(combatant.name ?? "");
  if (!answer) return undefined;
  const plotted = clock.phase === "declare";
  // Checked here first, so a bad answer is refused naming its field before anything is asked.
  readReaction(answer, "check", clock.round, plotted);
  const reply = await askGM(REACTION_QUERIES.declare, {
    combatId: combat.id ?? "",
    combatantId: combatant.id ?? "",
    trigger: answer.trigger,
    response: answer.response,
  });
  if (reply?.ok === false && reply.short === "reaction") {
    warn("FRAY.Zones.Reaction.NoneLeft", { actor: combatant.name ?? "" });
    return undefined;
  }
  if (!queryAnswer(reply)) return undefined;
  const reaction = reactionsOf(combat, combatant).find((r) => r.id === reply?.short);
  if (!reaction) return undefined;
  if (plotted && !declarationOf(combatant.getFlag("fray", "declaration"), clock.round)) {
    const row = trackerDeclarations(combat as never)?.rows.find((r) => r.id === combatant.id);
    if (row?.canDeclare)
      await replaceFlag(combatant, "declaration", { round: clock.round, text: reaction.trigger, action: "declareReaction" });
  }
  return reaction;
}

/** The message as the reaction card reads and writes it. */
export interface ReactionMessage {
  id?: string | null;
  author?: { isGM?: boolean } | null;
  flags?: Dict;
  update(changes: Dict): Promise<unknown>;
}

/** The reaction card's state of a message, or `undefined`. */
export function reactionStateOf(message: ReactionMessage | undefined): ReactionCardState | undefined {
  return (message?.flags as { fray?: { zonesReaction?: ReactionCardState } } | undefined)?.fray?.zonesReaction;
}

async function renderReactionCard(state: ReactionCardState, names: { reactor: string; actor?: string }): Promise<string> {
  return foundry.applications.handlebars.renderTemplate(
    REACTION_TEMPLATE,
    reactionCardContext(state, names, game.i18n as unknown as CardI18n),
  );
}

/** Requests to the active GM that declare and play reactions (one at a time, so two GMs never play one twice). */
export const REACTION_QUERIES = {
  declare: "fray.zones.reactionDeclare",
  trigger: "fray.zones.reactionTrigger",
  contest: "fray.zones.reactionContest",
} as const;

/**
 * The active GM's side of {@link declareReaction} (ZN-REA-01, ZN-ACT-01): the requester must own
 * the combatant's actor (or be a GM); the trigger and response are checked through the core; the
 * reaction is paid from the combatant's round economy here (refused, answer `short: "reaction"`,
 * when it is spent) and only then written on the Combat. Answers the new reaction's id.
 */
export async function handleDeclareReaction(data: Dict, requester: Requester): Promise<RequestAnswer> {
  const combat = combatById(String(data.combatId ?? ""));
  if (!combat) return refusal("FRAY.Error.Field", { field: "combat", expected: "a combat of this world" });
  const combatantId = String(data.combatantId ?? "");
  const combatant = combat.combatants?.get(combatantId);
  if (!combatant) return refusal("FRAY.Error.Field", { field: "combatant", expected: "a combatant of this combat" });
  const actor = combatant.actor as { testUserPermission?(user: unknown, level: string): boolean } | null | undefined;
  const user = (game.users as unknown as { get(id: string): unknown } | undefined)?.get(requester.id);
  if (!requester.isGM && !(actor && user && actor.testUserPermission?.(user, "OWNER"))) return refusal("FRAY.Zones.Reaction.NotYours");
  const clock = clockOf(combat, combatantId);
  if (!(clock.round > 0)) return refusal("FRAY.Zones.Reaction.NotStarted");
  let reaction: StoredReaction;
  try {
    reaction = readReaction({ trigger: data.trigger, response: data.response }, newId(), clock.round, clock.phase === "declare");
  } catch (err) {
    return refused(err);
  }
  // The cost is the core's (ZN-REA-01: the round's reaction), read for this combatant.
  const binding = registry.get("zones");
  const def = binding?.ruleset.actions(coreOf(combatant), optionValues("zones")).find((a) => a.id === "declareReaction");
  if (!def) return refusal("FRAY.Error.Field", { field: "action", expected: "declareReaction" });
  const short = await spendOn(combatant, { kind: "action", action: def.id, cost: def.cost });
  if (short) return { ok: false, short: "reaction" };
  await writeReactions(combat, combatantId, [...reactionsOf(combat, combatant), reaction]);
  return { ok: true, short: reaction.id };
}

/**
 * The GM triggers a pending reaction from the tracker (ZN-REA-01): it is played during the
 * action that set it off (marked played on the Combatant; it was paid when declared) and a
 * reaction card is posted, from which the GM may start a contest. Players are refused with a
 * warning; every GM's trigger runs on the active GM's client, one at a time.
 * @returns the card, or `undefined` when refused.
 * @throws FrayError `FRAY.Error.Zones.NoReaction` when the reaction is no longer pending.
 */
export async function triggerReaction(
  combat: ReactionCombat,
  combatantId: string,
  reactionId: string,
): Promise<ReactionMessage | undefined> {
  if (!game.user?.isGM) {
    warn("FRAY.Zones.Reaction.GMOnly");
    return undefined;
  }
  const answer = await askGM(REACTION_QUERIES.trigger, { combatId: combat.id ?? "", combatantId, reactionId });
  if (!queryAnswer(answer)) return undefined;
  return messageById(answer?.short);
}

/** A chat message by id. */
function messageById(id: string | undefined): ReactionMessage | undefined {
  const messages = (game as unknown as { messages?: { get(id: string): ReactionMessage | undefined } }).messages;
  return id ? messages?.get(id) : undefined;
}

/** A combat by id: from `game.combats`, or the current one. */
function combatById(id: string): ReactionCombat | undefined {
  const combats = (game as unknown as { combats?: { get(id: string): ReactionCombat | undefined } }).combats;
  const byId = combats?.get(id);
  if (byId) return byId;
  const current = (game as unknown as { combat?: ReactionCombat | null }).combat;
  return current && current.id === id ? current : undefined;
}

/** A refusal of a request from the error it threw (a {@link FrayError}), else rethrown. */
function refused(err: unknown): RequestAnswer {
  if (err instanceof FrayError) return refusal(err.key, err.data as Record<string, string | number>);
  throw err;
}

/**
 * The active GM's side of {@link triggerReaction}: only a GM's request; the reaction is read from
 * the Combat (where the GM wrote it once paid) and played through the core (`playReaction`),
 * never from the request or the Combatant's flags.
 */
export async function handleTriggerReaction(data: Dict, requester: Requester): Promise<RequestAnswer> {
  if (!requester.isGM) return refusal("FRAY.Zones.Reaction.GMOnly");
  const combat = combatById(String(data.combatId ?? ""));
  if (!combat) return refusal("FRAY.Error.Field", { field: "combat", expected: "a combat of this world" });
  try {
    const message = await playHere(combat, String(data.combatantId ?? ""), String(data.reactionId ?? ""));
    return { ok: true, short: message.id ?? "" };
  } catch (err) {
    return refused(err);
  }
}

/** Plays a reaction here (the active GM) and posts its card. */
async function playHere(combat: ReactionCombat, combatantId: string, reactionId: string): Promise<ReactionMessage> {
  const combatant = combat.combatants?.get(combatantId);
  if (!combatant)
    throw new FrayError("FRAY.Error.Field", { field: "combatant", expected: "a combatant of this combat" }, "No such combatant");
  const clock = clockOf(combat, combatantId);
  const { reaction, list } = playReaction(reactionsOf(combat, combatant), reactionId, clock);
  await writeReactions(combat, combatantId, list);
  const state: ReactionCardState = { combatId: combat.id ?? "", combatantId, reaction };
  const Message = ChatMessage.implementation as unknown as { create(data: Dict): Promise<ReactionMessage> };
  return Message.create({
    speaker: { alias: combatant.name ?? "" },
    content: await renderReactionCard(state, { reactor: combatant.name ?? "" }),
    flags: { fray: { zonesReaction: state } },
  });
}

/** The core's combatant of a Combatant's actor. */
function coreOf(combatant: ReactingCombatant): ZonesCombatant {
  const binding = registry.get("zones");
  if (!binding || !combatant.actor) throw new FrayError("FRAY.Error.Field", { field: "actor", expected: "a Zones actor" }, "No actor");
  return combatantOf<ZonesCombatant>(combatant.actor as never, combatant.id ? { id: combatant.id } : {}, binding);
}

/**
 * The GM starts the contest of a triggered reaction (ZN-REA-02): the acting combatant (by
 * default the one whose turn it is) and the reacting one each roll d10 + DEX modifier as real
 * Foundry Rolls, ties rolled again (RULES.md); the card shows each round and the winner. Only
 * a GM, on a card a GM posted, once; it runs on the active GM's client, one at a time.
 * @param actorId the acting combatant's id; the combat's current combatant when absent.
 * @returns the contest, or `undefined` when a player asks.
 * @throws FrayError `FRAY.Zones.Reaction.Contested` when it was rolled already, `FRAY.Error.Field`
 *   (field `actor`) without an acting combatant or when it is the reacting one.
 */
export async function contestReaction(message: ReactionMessage, actorId?: string): Promise<ContestResult | undefined> {
  if (!game.user?.isGM) {
    warn("FRAY.Zones.Reaction.GMOnly");
    return undefined;
  }
  const answer = await askGM(REACTION_QUERIES.contest, { messageId: message.id ?? "", ...(actorId ? { actorId } : {}) });
  if (!queryAnswer(answer)) return undefined;
  return reactionStateOf(messageById(message.id ?? "") ?? message)?.contest?.result;
}

/**
 * The active GM's side of {@link contestReaction}: only a GM's request, on a reaction card a GM
 * wrote; the sides' DEX is read from their actors and the dice rolled here.
 */
export async function handleContestReaction(data: Dict, requester: Requester): Promise<RequestAnswer> {
  if (!requester.isGM) return refusal("FRAY.Zones.Reaction.GMOnly");
  const message = messageById(String(data.messageId ?? ""));
  if (!message || !reactionStateOf(message) || !message.author?.isGM) return refusal("FRAY.Zones.Reaction.GMOnly");
  try {
    await contestHere(message, typeof data.actorId === "string" ? data.actorId : undefined);
    return { ok: true };
  } catch (err) {
    return refused(err);
  }
}

/** Rolls a contest here (the active GM) onto the card. */
async function contestHere(message: ReactionMessage, actorId?: string): Promise<void> {
  const state = reactionStateOf(message)!;
  if (state.contest) throw new FrayError("FRAY.Zones.Reaction.Contested", {}, "The contest was rolled already");
  const combat = combatById(state.combatId);
  const reactor = combat?.combatants?.get(state.combatantId);
  const id = actorId ?? combat?.combatant?.id ?? "";
  const actor = id ? combat?.combatants?.get(id) : undefined;
  if (!combat || !reactor || !actor || id === state.combatantId)
    throw new FrayError(
      "FRAY.Error.Field",
      { field: "actor", expected: "the acting combatant, not the reacting one" },
      "No acting combatant",
    );
  const dice = new FoundryRoller();
  const result = await contest(coreOf(actor), coreOf(reactor), dice);
  const next: ReactionCardState = { ...state, contest: { actorId: id, result } };
  const rolls = dice.rolls.map((r) => (typeof (r as { toJSON?(): unknown }).toJSON === "function" ? JSON.stringify(r.toJSON()) : r));
  await message.update({
    content: await renderReactionCard(next, { reactor: reactor.name ?? "", actor: actor.name ?? "" }),
    rolls,
    "flags.fray.zonesReaction": next,
  });
  // The contest's dice were added by an update: Dice So Nice shows them only when handed over.
  animateAddedRolls(
    message,
    rolls.map((r) => (typeof r === "string" ? r : JSON.stringify(r))),
  );
}

/** `renderChatMessageHTML`: the reaction card's Contest button, for the GM only. */
export function onRenderReactionCard(message: ReactionMessage, html: HTMLElement): void {
  if (!reactionStateOf(message)) return;
  for (const button of Array.from(html.querySelectorAll<HTMLElement>("[data-zones-contest]"))) {
    if (!game.user?.isGM) {
      button.remove();
      continue;
    }
    button.addEventListener("click", (event: Event) => {
      event.preventDefault();
      void contestReaction(message).catch(reportError);
    });
  }
}

/**
 * The tracker's reaction view of one combatant (ZN-REA-01): the reactions the reader may see
 * (pending ones, and those played this round), the React button for its owner and the GM.
 */
export function reactionRow(combat: ReactionCombat, combatant: ReactingCombatant, reader: { isGM: boolean }): ReactionRow {
  const clock = clockOf(combat, combatant.id ?? "");
  const owns = Boolean(combatant.isOwner);
  const reactions = reactionsOf(combat, combatant)
    .filter((r) => reactionVisible(r, clock, { isGM: reader.isGM, owns }))
    .map((r) => ({ id: r.id, trigger: r.trigger, response: r.response, played: reactionStatus(r, clock) === "played" }));
  return { id: combatant.id ?? "", reactions, canDeclare: clock.round > 0 && (owns || reader.isGM), canTrigger: reader.isGM };
}

/**
 * The binding's `renderTracker` part for reactions (ZN-REA-01): under each combatant's name its
 * pending reactions (what the reader may see), the GM's Trigger buttons and the React button of
 * its owner and the GM.
 */
export function renderReactions(combat: unknown, html: HTMLElement): void {
  const c = combat as ReactionCombat;
  if (!c?.combatants || !((c.round ?? 0) > 0)) return;
  const isGM = Boolean(game.user?.isGM);
  for (const el of Array.from(html.querySelectorAll<HTMLElement>("[data-combatant-id]"))) {
    const combatant = c.combatants.get(el.dataset.combatantId ?? "");
    if (!combatant) continue;
    el.querySelector(".fray-zones-reactions")?.remove();
    const rowHtml = reactionRowHtml(reactionRow(c, combatant, { isGM }), game.i18n as unknown as CardI18n);
    if (!rowHtml) continue;
    (el.querySelector(".token-name") ?? el).insertAdjacentHTML("beforeend", rowHtml);
    if (el.dataset.frayReactionClicks) continue;
    el.dataset.frayReactionClicks = "1";
    el.addEventListener("click", (event: Event) => {
      const target = event.target as HTMLElement | null;
      const trigger = target?.closest?.<HTMLElement>("[data-zones-trigger]");
      const react = target?.closest?.<HTMLElement>("[data-zones-react]");
      if (!trigger && !react) return;
      event.preventDefault();
      event.stopPropagation();
      if (trigger) void triggerReaction(c, combatant.id ?? "", trigger.dataset.zonesTrigger ?? "").catch(reportError);
      else void declareReaction(c, combatant).catch(reportError);
    });
  }
}
