/**
 * The `attack` ChatMessage on the Foundry side: its stored data, its card rendered from the
 * per-target state, and the one way the state changes: {@link commitTarget}, which re-renders the
 * card and appends new Rolls. The card's author (a player on their own card) and the active GM
 * write it; every other user, other GM clients included, sends the action and its Rolls to the
 * active GM, who authorizes the requester and recomputes the state from the card as it stands.
 */
import { attackMessageContext, type Localizer } from "../attack-card.js";
import { TEMPLATES } from "../config.js";
import { assertAllowed, type CardAction, type TargetState } from "../logic/card.js";
import { cardRulesOf } from "../play/card-rules.js";
import { askGM, isActiveGM, QUERIES, queryAnswer, serial } from "../queries.js";
import { animateAddedRolls } from "./dice-animation.js";

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

/** Renders a template with a context (Foundry's `renderTemplate`). */
export type TemplateRenderer = (path: string, context: Record<string, unknown>) => Promise<string>;

/**
 * The card's HTML from the stored data, in the language of `i18n` (the current user's by
 * default): the card is typed data, so each reader's client renders it in its own language.
 */
export async function renderAttackCard(
  system: Pick<AttackSystem, "targets" | "weaponName" | "modeLabel" | "attackerUuid"> & { attackerName: string; ruleset?: string },
  i18n: Localizer = game.i18n as unknown as Localizer,
  render: TemplateRenderer = (path, context) => foundry.applications.handlebars.renderTemplate(path, context),
): Promise<string> {
  const context = attackMessageContext(
    system.targets,
    { attacker: system.attackerName, weapon: system.weaponName ?? "", mode: system.modeLabel },
    i18n,
    system.ruleset ? cardRulesOf(system.ruleset) : {},
  );
  return render(TEMPLATES.attackCard, context as unknown as Record<string, unknown>);
}

/**
 * The card of a stored attack message in this reader's language, when the HTML it was posted
 * with is in another (the writer's): `undefined` when the language already matches.
 */
export async function readerCard(
  message: AttackMessageLike,
  writtenIn: string | undefined,
  i18n: Localizer = game.i18n as unknown as Localizer,
  render?: TemplateRenderer,
): Promise<string | undefined> {
  const lang = i18n.lang ?? "en";
  if (writtenIn === lang) return undefined;
  return renderAttackCard({ ...attackSystem(message), attackerName: attackerName(message) }, i18n, render);
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
export async function commitTarget(
  message: AttackMessageLike,
  index: number,
  action: CardAction,
  next: TargetState,
  rolls: readonly Roll[] = [],
): Promise<boolean> {
  const json = rolls.map((r) => JSON.stringify(r));
  if (isActiveGM()) return serial(() => writeTarget(message, index, action, next, json));
  if (message.isOwner && !game.user?.isGM) return writeTarget(message, index, action, next, json);
  return queryAnswer(await askGM(QUERIES.cardUpdate, { messageId: message.id, index, action, rolls: json }));
}

/**
 * Writes a target's state on a message this client may update; the Rolls it adds are shown as 3D
 * dice when Dice So Nice is active ({@link animateAddedRolls}), in the colours of `rolledBy`
 * (a user id: the requester whose dice the GM writes; this client's user when absent).
 */
export async function writeTarget(
  message: AttackMessageLike,
  index: number,
  action: CardAction,
  next: TargetState,
  rollJson: readonly string[],
  rolledBy?: string,
): Promise<boolean> {
  const system = attackSystem(message);
  const current = system.targets[index];
  if (!current) return false;
  // Undo goes back from `applied`; every other action must fit the state as it is now.
  assertAllowed(action, current);
  const targets = system.targets.map((t, i) => (i === index ? next : t));
  const content = await renderAttackCard({ ...system, targets, attackerName: attackerName(message) });
  await message.update({ "system.targets": targets, content, rolls: [...rollsWith(message, []), ...rollJson] });
  animateAddedRolls(message, rollJson, rolledBy);
  return true;
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
