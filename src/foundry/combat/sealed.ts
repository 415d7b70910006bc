/**
 * Sealed declarations (HB-ACT-01; RULES.md, "Declarations in play"): where the world's binding
 * asks for it (`declaration.sealed`), a declaration made before the reveal does not go on the
 * Combatant, whose data every client receives, but into a chat message whispered to the GMs and
 * authored by the declarer (`flags.fray.sealedDeclaration`); the Combatant only carries the mark
 * that it declared (`flags.fray.declaration.sealed`: the message id). Foundry sends a whisper to
 * its author and recipients only (docs/foundry-assumptions.md, H-W1), so the other players learn
 * who declared but not what. When the GM reveals, the GM's client copies each sealed declaration
 * onto its Combatant, after checking that the message's author owns that combatant (or is a GM)
 * and reading the declaration again against the combatant's actions; the message's content is
 * never trusted as written.
 */
import { replaceFlag } from "../logic/flags.js";
import type { ActionDef } from "../../rules/core/contract.js";
import { escapeHtml } from "../logic/round-actions.js";
import { activeBinding } from "../registry.js";
import { declarationOf, readDeclaration, type StoredDeclaration } from "./declarations.js";
import type { CombatantLike } from "./economy-store.js";

/** What a sealed declaration's message carries (`flags.fray.sealedDeclaration`). */
export interface SealedDeclaration {
  combatId: string;
  combatantId: string;
  declaration: StoredDeclaration;
}

/** A chat message as sealing reads it. */
interface SealedMessage {
  id?: string | null;
  author?: { id: string; isGM: boolean } | null;
  flags?: { fray?: { sealedDeclaration?: unknown } };
  isOwner?: boolean;
  delete?(): Promise<unknown>;
}

/** A Combatant as sealing reads it. */
export interface SealingCombatant extends CombatantLike {
  name?: string | null;
  actor?: (CombatantLike["actor"] & { testUserPermission?(user: unknown, level: string): boolean }) | null;
}

/** True when the world's ruleset seals its declarations before the reveal. */
export function sealsDeclarations(): boolean {
  return Boolean(activeBinding().declaration?.sealed);
}

/**
 * The sealed declaration a message carries for `combatant` of `combatId` in `round`, if it does
 * and its author may declare for that combatant (a GM, or an owner of the combatant's actor).
 */
function sealedIn(
  message: SealedMessage | undefined,
  combatId: string,
  combatant: SealingCombatant,
  round: number,
): StoredDeclaration | undefined {
  const raw = message?.flags?.fray?.sealedDeclaration as Partial<SealedDeclaration> | undefined;
  if (!raw || raw.combatId !== combatId || raw.combatantId !== combatant.id) return undefined;
  const author = message?.author;
  if (!author || (!author.isGM && !combatant.actor?.testUserPermission?.(author, "OWNER"))) return undefined;
  return declarationOf(raw.declaration, round);
}

/** The message of a sealed declaration, when this client holds it (its author and the GMs do). */
function messageOf(id: string): SealedMessage | undefined {
  return (game.messages?.get(id) as unknown as SealedMessage | undefined) ?? undefined;
}

/**
 * A Combatant's declaration of `round` as this client can read it: an open one as stored; a sealed
 * one as its whisper holds it when this client holds the whisper (the declarer and the GMs) and
 * the whisper's author may declare for the combatant, else
 * the bare mark `{ round, text: "", sealed }`, which the tracker shows only as "declared".
 */
export function readableDeclaration(combatId: string, combatant: SealingCombatant, round: number): StoredDeclaration | undefined {
  const stored = declarationOf(combatant.getFlag("fray", "declaration"), round);
  if (!stored?.sealed) return stored;
  const content = sealedIn(messageOf(stored.sealed), combatId, combatant, round);
  return content ?? stored;
}

/** Localization as the whisper uses it. */
interface Localizer {
  localize(key: string): string;
  format(key: string, data: Record<string, string>): string;
}

/** The whisper's HTML: who declared, the action, the quick actions and the text, all escaped. */
export function sealedMessageHtml(name: string, d: StoredDeclaration, labels: ReadonlyMap<string, string>, i18n: Localizer): string {
  const title = escapeHtml(i18n.format(activeBinding().declaration?.sealed ?? "", { name }));
  const action = d.action ? `<strong>${escapeHtml(i18n.localize(labels.get(d.action) ?? d.action))}</strong> ` : "";
  const quick = d.quick?.length ? ` + ${d.quick.map((q) => escapeHtml(i18n.localize(labels.get(q) ?? q))).join(", ")}` : "";
  return `<div class="fray-sealed-declaration"><p>${title}</p><p>${action}${escapeHtml(d.text)}${quick}</p></div>`;
}

/**
 * Seals a declaration (HB-ACT-01): posts it whispered to the GMs, authored by this user, and marks
 * the Combatant as declared with the message's id; the user's earlier sealed message of the round
 * is deleted when the user may.
 */
export async function sealDeclaration(
  combatId: string,
  combatant: SealingCombatant,
  declaration: StoredDeclaration,
  labels: ReadonlyMap<string, string>,
): Promise<void> {
  const earlier = declarationOf(combatant.getFlag("fray", "declaration"), declaration.round)?.sealed;
  const gms = (game.users?.contents ?? []).filter((u) => u.isGM).map((u) => u.id);
  const data = {
    content: sealedMessageHtml(combatant.name ?? "", declaration, labels, game.i18n),
    whisper: gms,
    flags: { fray: { sealedDeclaration: { combatId, combatantId: combatant.id ?? "", declaration } satisfies SealedDeclaration } },
  };
  const message = (await ChatMessage.implementation.create(data as never)) as unknown as SealedMessage | undefined;
  await replaceFlag(combatant, "declaration", { round: declaration.round, text: "", sealed: message?.id ?? "" });
  const old = earlier ? messageOf(earlier) : undefined;
  if (old?.isOwner && old.delete) await old.delete().catch(() => undefined);
}

/**
 * The GM unseals a round's declarations at the reveal (HB-ACT-01): each sealed one is read from
 * its whisper, kept only when the whisper's author is a GM or owns the combatant, read again
 * against the combatant's declarable actions, and written onto the Combatant in the open; one
 * that fails stays marked as declared without content (the GM rules on it).
 * @param actionsOf the combatant's declarable actions (the action and the quick ones).
 * @returns how many were unsealed.
 */
export async function unsealDeclarations(
  combat: { id?: string | null; round?: number; combatants?: Iterable<unknown> },
  actionsOf: (c: CombatantLike) => { main: readonly ActionDef[]; quick: readonly ActionDef[] },
): Promise<number> {
  const round = combat.round ?? 0;
  let done = 0;
  for (const c of Array.from(combat.combatants ?? []) as SealingCombatant[]) {
    const stored = declarationOf(c.getFlag("fray", "declaration"), round);
    if (!stored?.sealed) continue;
    const content = sealedIn(messageOf(stored.sealed), combat.id ?? "", c, round);
    if (!content) continue;
    try {
      const { main, quick } = actionsOf(c);
      const open = readDeclaration(content, main, round, quick);
      await replaceFlag(c, "declaration", open);
      done++;
    } catch {
      // A declaration the combatant cannot make stays sealed: the GM reads the whisper and rules.
    }
  }
  return done;
}
