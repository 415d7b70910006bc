/**
 * The attack card's buttons on each client (`renderChatMessageHTML`): buttons the user may not
 * press are removed (a defender's reaction belongs to the defender's owner or the GM, UD-REA-01);
 * a pressed button is disabled at once and stays disabled while its action runs, so a
 * double-click does nothing twice.
 */
import { CARD_ACTIONS, mayPress, type CardAction } from "../logic/card.js";
import { attackSystem, readerCard, type AttackMessageLike } from "./attack-message.js";
import { runCardAction } from "./actions.js";
import { onFreeAttackClick } from "./free-attack.js";
import { linkRuleIds } from "../rules-compendium/links.js";
import { wireCardFolds } from "./fold.js";

/** Synchronous ownership test of a document UUID (documents in the world or on a scene). */
function ownsUuid(uuid: string | undefined): boolean {
  if (!uuid) return false;
  try {
    const doc = foundry.utils.fromUuidSync(uuid as never) as { isOwner?: boolean } | null;
    return Boolean(doc?.isOwner);
  } catch {
    return false;
  }
}

/**
 * Wires the buttons of an attack card as it is rendered for this user; a card posted in another
 * language than this reader's is rendered again from its stored data in the reader's language
 * (its buttons wired on the new HTML).
 */
export function onRenderChatMessageHTML(message: AttackMessageLike, html: HTMLElement): void {
  onFreeAttackClick(message, html);
  if (message.type !== "attack") return;
  const card = html.querySelector<HTMLElement>(".fray-card");
  const writtenIn = card?.dataset?.lang;
  const lang = (game.i18n as unknown as { lang?: string }).lang ?? "en";
  if (card && writtenIn !== undefined && writtenIn !== lang) {
    void readerCard(message, writtenIn)
      .then((content) => {
        if (content === undefined || !card.parentElement) return wireAttackCard(message, html);
        card.outerHTML = content;
        linkRuleIds(html);
        wireCardFolds(message, html);
        wireAttackCard(message, html);
      })
      .catch((err: unknown) => console.error("Fray | card", err));
    return;
  }
  wireAttackCard(message, html);
}

/** Wires the buttons of an attack card's HTML for this user. */
function wireAttackCard(message: AttackMessageLike, html: HTMLElement): void {
  const system = attackSystem(message);
  const isGM = Boolean(game.user?.isGM);
  const ownsAttacker = ownsUuid(system.attackerUuid);
  for (const button of Array.from(html.querySelectorAll<HTMLButtonElement>("button[data-action^='fray-']"))) {
    const action = button.dataset.action!.replace(/^fray-/, "") as CardAction;
    if (!CARD_ACTIONS.includes(action)) continue;
    const index = Number(button.dataset.targetIndex);
    const target = system.targets[index];
    const viewer = { isGM, ownsAttacker, ownsTarget: ownsUuid(target?.actorUuid) };
    if (!target || !mayPress(action, viewer)) {
      button.remove();
      continue;
    }
    button.addEventListener("click", (event) => {
      event.preventDefault();
      if (button.disabled) return;
      button.disabled = true;
      for (const sibling of Array.from(button.parentElement?.querySelectorAll("button") ?? []))
        (sibling as HTMLButtonElement).disabled = true;
      void runCardAction(message, index, action).finally(() => {
        // The message re-renders on success; re-enable only when nothing changed.
        if (button.isConnected) button.disabled = false;
      });
    });
  }
  for (const row of Array.from(html.querySelectorAll<HTMLElement>(".fray-card-buttons"))) {
    if (!row.querySelector("button")) row.remove();
  }
}
