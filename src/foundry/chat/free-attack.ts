/**
 * Fleeing (UD-OPT-01): each engaged opponent gets an immediate free attack. A chat prompt lists
 * them, each with an Attack button for that opponent's owner (or the GM); the attack spends no
 * action and targets the fleeing token.
 */
import { rollAttack } from "../attack.js";
import { FLOW_TEMPLATES } from "./templates.js";
import { warn } from "../notify.js";
import type { AttackMessageLike } from "./attack-message.js";

/** One opponent with a free attack. */
export interface FreeAttacker {
  actorUuid: string;
  tokenUuid: string;
  name: string;
}

/** The prompt's data, stored in the message's flags (`flags.fray.freeAttack`). */
export interface FreeAttackPrompt {
  moverTokenUuid: string;
  moverName: string;
  attackers: FreeAttacker[];
}

/** Posts the prompt of free attacks against a fleeing token. */
export async function postFreeAttackPrompt(prompt: FreeAttackPrompt): Promise<void> {
  const content = await foundry.applications.handlebars.renderTemplate(
    FLOW_TEMPLATES.freeAttack,
    prompt as unknown as Record<string, unknown>,
  );
  await ChatMessage.implementation.create({ content, flags: { fray: { freeAttack: prompt } } } as never);
}

interface ActorWithItems {
  isOwner: boolean;
  testUserPermission?(user: unknown, permission: "OWNER"): boolean;
  items: Iterable<{ id: string | null; type: string; system: unknown }>;
}

interface TokenDocLike {
  object?: unknown;
}

/**
 * Wires the Attack buttons of a free-attack prompt; buttons of opponents the user does not own
 * are removed, and so are those of opponents the prompt's author owns (a player's own prompt
 * cannot hand their own actors an attack that spends nothing; a GM's prompt is trusted).
 */
export function onFreeAttackClick(message: AttackMessageLike, html: HTMLElement): void {
  const prompt = (message as unknown as { flags?: { fray?: { freeAttack?: FreeAttackPrompt } } }).flags?.fray?.freeAttack;
  if (!prompt) return;
  const author = (message as unknown as { author?: { isGM?: boolean } | null }).author;
  for (const button of Array.from(html.querySelectorAll<HTMLButtonElement>("button[data-action='fray-freeAttack']"))) {
    const attacker = prompt.attackers[Number(button.dataset.index)];
    const actor = attacker ? (foundry.utils.fromUuidSync(attacker.actorUuid as never) as ActorWithItems | null) : null;
    const selfGranted = Boolean(author && !author.isGM && actor?.testUserPermission?.(author, "OWNER"));
    if (!attacker || !actor || !(actor.isOwner || game.user?.isGM) || selfGranted) {
      button.remove();
      continue;
    }
    button.addEventListener("click", (event) => {
      event.preventDefault();
      button.disabled = true;
      void freeAttack(actor, attacker, prompt).finally(() => {
        button.disabled = false;
      });
    });
  }
}

async function freeAttack(actor: ActorWithItems, attacker: FreeAttacker, prompt: FreeAttackPrompt): Promise<void> {
  const weapon = Array.from(actor.items).find((i) => i.type === "weapon" && (i.system as { kind?: string }).kind === "melee");
  if (!weapon?.id) {
    warn("FRAY.Flow.Flee.NoMeleeWeapon", { actor: attacker.name });
    return;
  }
  const token = (foundry.utils.fromUuidSync(attacker.tokenUuid as never) as TokenDocLike | null)?.object;
  const target = (foundry.utils.fromUuidSync(prompt.moverTokenUuid as never) as TokenDocLike | null)?.object;
  await rollAttack({
    actor: actor as never,
    weaponId: weapon.id,
    token: (token ?? null) as never,
    targets: target ? [target as never] : undefined,
    free: true,
  });
}
