/**
 * Hotbar macros: a weapon dropped on the hotbar becomes a script macro that attacks with it
 * through the play pipeline (`game.fray.rollItemMacro`), the same way the sheet's Attack button
 * does. The macro names the weapon by UUID, so it keeps working when the weapon is renamed.
 */
import { error } from "../notify.js";

/** Drop data of a hotbar drop, as Foundry passes it to the `hotbarDrop` hook. */
export interface HotbarDropData {
  type?: string;
  uuid?: string;
}

/** What the macro creation needs of the dropped item. */
export interface DroppedItem {
  uuid: string;
  name: string | null;
  img: string | null;
  type: string;
  actor?: unknown;
}

/**
 * The script of a weapon's attack macro. The UUID is written as a JSON string literal, so no
 * quote in it can end the string and inject code.
 */
export function weaponMacroCommand(uuid: string): string {
  return `game.fray.rollItemMacro(${JSON.stringify(uuid)});`;
}

/**
 * True for a drop that makes an attack macro: a weapon item that belongs to an actor the user
 * owns (an actor without an ownership test, as in plain data, counts as owned).
 */
export function makesAttackMacro(item: DroppedItem | null | undefined): item is DroppedItem {
  return Boolean(item && item.type === "weapon" && item.actor && (item.actor as { isOwner?: boolean }).isOwner !== false);
}

/**
 * Creates (or reuses) the attack macro of a dropped weapon and puts it in the hotbar slot.
 * @returns false when Fray handled the drop (Foundry then makes no macro of its own).
 */
export async function createWeaponMacro(data: HotbarDropData, slot: number): Promise<boolean | undefined> {
  if (data.type !== "Item" || !data.uuid) return undefined;
  const item = (await foundry.utils.fromUuid(data.uuid as never)) as unknown as DroppedItem | null;
  if (!item || item.type !== "weapon" || !item.actor) return undefined;
  if (!makesAttackMacro(item)) {
    error("FRAY.Macro.NotOwned");
    return false;
  }
  const command = weaponMacroCommand(item.uuid);
  const macros = game.macros as unknown as
    { find(fn: (m: { command?: string; author?: { id?: string } | null }) => boolean): unknown } | undefined;
  const existing = macros?.find((m) => m.command === command && m.author?.id === game.user?.id);
  const macro =
    existing ??
    (await Macro.implementation.create({
      name: item.name ?? "",
      type: "script",
      img: item.img ?? undefined,
      command,
      flags: { fray: { weaponMacro: true } },
    } as never));
  if (macro) await (game.user as unknown as { assignHotbarMacro(m: unknown, s: number): Promise<unknown> }).assignHotbarMacro(macro, slot);
  return false;
}

/**
 * The weapon of a hotbar drop when it is an actor's weapon, resolved at once: an actor's item
 * resolves synchronously with its actor; a compendium entry (`fromUuidSync` gives its index
 * entry, without an actor), a weapon of the Items sidebar, any other item and a UUID that does not
 * resolve synchronously give undefined.
 */
export function actorWeaponOf(uuid: string): DroppedItem | undefined {
  let item: DroppedItem | null | undefined;
  try {
    item = foundry.utils.fromUuidSync?.(uuid as never) as unknown as DroppedItem | null | undefined;
  } catch {
    return undefined;
  }
  return item && item.type === "weapon" && item.actor ? item : undefined;
}

/**
 * Registers the hotbar drop handler. Foundry's `hotbarDrop` hook is synchronous: returning false
 * stops Foundry's own macro, so the hook returns false for an actor's weapon ({@link actorWeaponOf})
 * and creates the macro asynchronously; every other drop (a weapon of a compendium or the Items
 * sidebar, which no actor carries) is Foundry's.
 */
export function registerHotbar(): void {
  Hooks.on("hotbarDrop", (_bar: unknown, data: unknown, slot: unknown) => {
    const drop = data as HotbarDropData;
    if (drop?.type !== "Item" || !drop.uuid) return true;
    if (!actorWeaponOf(drop.uuid)) return true;
    void createWeaponMacro(drop, Number(slot)).catch((err: unknown) => console.error("Fray | hotbar", err));
    return false;
  });
}

/**
 * What a weapon macro runs: an attack with the weapon of that UUID, through the same workflow
 * as the sheet's Attack button (targets, dialog, card). Shows a localized error when the weapon
 * no longer exists or the user does not own its actor.
 * @param attack the attack workflow's entry point.
 */
export async function rollItemMacro(
  uuid: string,
  attack: (request: { actor: Actor.Implementation; weaponId: string }) => Promise<unknown>,
): Promise<unknown> {
  const item = (await foundry.utils.fromUuid(uuid as never)) as unknown as
    (DroppedItem & { id: string | null; actor?: Actor.Implementation | null }) | null;
  if (!item || item.type !== "weapon" || !item.actor || !item.id) {
    error("FRAY.Macro.WeaponGone");
    return undefined;
  }
  if (!(item.actor as unknown as { isOwner?: boolean }).isOwner) {
    error("FRAY.Macro.NotOwned");
    return undefined;
  }
  return attack({ actor: item.actor, weaponId: item.id });
}
