/**
 * The `attack` ChatMessage on the Foundry side: its stored data, its card rendered from the
 * per-target state, and the one way the state changes: {@link commitTarget}, which re-renders the
 * card and appends new Rolls. A user who may not update the message sends the change to the
 * active GM, who checks it against the message's current state first.
 */
import { FrayError } from "../../rules/core/errors.js";
import { attackMessageContext, type Localizer } from "../attack-card.js";
import { TEMPLATES } from "../config.js";
import { assertAllowed, type CardAction, type TargetState } from "../logic/card.js";
import { askGM, QUERIES } from "../queries.js";

/** The `system` data of an attack message as the flow reads it. */
export interface AttackSystem {
  ruleset: string;
  attackerUuid: string;
  attackerTokenUuid?: string;
  weaponId: string;
  weaponName?: string;
  modeId?: string;
  modeLabel?: string;
  targets: TargetState[];
}

/** The parts of a ChatMessage the flow uses. */
export interface AttackMessageLike {
  id: string | null;
  type: string;
  isOwner: boolean;
  system: unknown;
  rolls: unknown[];
  update(data: Record<string, unknown>): Promise<unknown>;
}

/** The stored data of an attack message. */
export function attackSystem(message: AttackMessageLike): AttackSystem {
  const system = message.system as AttackSystem;
  return { ...system, targets: Array.isArray(system.targets) ? system.targets : [] };
}

/** The card's HTML for targets in the current user's language. */
export async function renderAttackCard(system: Pick<AttackSystem, "targets" | "weaponName" | "modeLabel" | "attackerUuid"> & { attackerName: string }): Promise<string> {
  const i18n = game.i18n as unknown as Localizer;
  const context = attackMessageContext(system.targets, { attacker: system.attackerName, weapon: system.weaponName ?? "", mode: system.modeLabel }, i18n);
  return foundry.applications.handlebars.renderTemplate(TEMPLATES.attackCard, context as unknown as Record<string, unknown>);
}

/** The attacker's display name from the message's speaker or the stored UUID. */
function attackerName(message: AttackMessageLike): string {
  const alias = (message as unknown as { speaker?: { alias?: string } }).speaker?.alias;
  return alias ?? "";
}

/** The Roll JSON strings of a message plus new Rolls. */
function rollsWith(message: AttackMessageLike, rolls: readonly Roll[]): string[] {
  const existing = message.rolls.map((r) => (typeof r === "string" ? r : JSON.stringify(r)));
  return [...existing, ...rolls.map((r) => JSON.stringify(r))];
}

/**
 * Writes a target's new state on the message (card re-rendered, new Rolls appended), after
 * checking the action against the message's current state so a second click changes nothing.
 * On a message the user may not update, the user sends the action and its Rolls and the GM
 * computes the state itself from the card as it stands (`handleCardUpdateQuery`).
 */
export async function commitTarget(message: AttackMessageLike, index: number, action: CardAction, next: TargetState, rolls: readonly Roll[] = []): Promise<boolean> {
  if (!message.isOwner) {
    const answer = await askGM(QUERIES.cardUpdate, { messageId: message.id, index, action, rolls: rolls.map((r) => JSON.stringify(r)) });
    return queryAnswer(answer);
  }
  return writeTarget(message, index, action, next, rolls.map((r) => JSON.stringify(r)));
}

/** Writes a target's state on a message this client may update. */
export async function writeTarget(message: AttackMessageLike, index: number, action: CardAction, next: TargetState, rollJson: readonly string[]): Promise<boolean> {
  const system = attackSystem(message);
  const current = system.targets[index];
  if (!current) return false;
  // Undo goes back from `applied`; every other action must fit the state as it is now.
  assertAllowed(action, current);
  const targets = system.targets.map((t, i) => (i === index ? next : t));
  const content = await renderAttackCard({ ...system, targets, attackerName: attackerName(message) });
  await message.update({ "system.targets": targets, content, rolls: [...rollsWith(message, []), ...rollJson] });
  return true;
}

/** What the GM answers a card query: done, or the rules' refusal as an i18n key and data. */
export interface QueryAnswer {
  ok: boolean;
  error?: { key: string; data: Record<string, string | number> };
}

/** Runs GM-side work, turning a FrayError (a state the card no longer allows ...) into an answer. */
export async function answerQuery(work: () => Promise<boolean>): Promise<QueryAnswer> {
  try {
    return { ok: await work() };
  } catch (err) {
    if (err instanceof FrayError) return { ok: false, error: { key: err.key, data: err.data } };
    throw err;
  }
}

/**
 * Reads the GM's answer on the asking client: `true` when done; the GM's refusal is raised here
 * as the FrayError it was, so the user sees the localized reason.
 */
export function queryAnswer(answer: unknown): boolean {
  const a = answer as QueryAnswer | undefined;
  if (a?.error) throw new FrayError(a.error.key, a.error.data, a.error.key);
  return Boolean(a?.ok);
}

/**
 * The die faces of serialized Rolls, in the order they were rolled (every dice term's results,
 * exploded re-rolls included), for the GM to replay a user's dice through the rules core.
 */
export function facesOfRolls(rollJson: readonly string[]): number[] {
  const faces: number[] = [];
  for (const json of rollJson) {
    let data: unknown;
    try {
      data = JSON.parse(json);
    } catch {
      continue;
    }
    const terms = (data as { terms?: unknown }).terms;
    if (!Array.isArray(terms)) continue;
    for (const term of terms as { faces?: unknown; results?: { result?: unknown }[] }[]) {
      if (typeof term.faces !== "number" || !Array.isArray(term.results)) continue;
      for (const r of term.results) if (typeof r.result === "number") faces.push(r.result);
    }
  }
  return faces;
}
