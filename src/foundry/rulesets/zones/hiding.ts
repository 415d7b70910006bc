/**
 * Hiding small weapons on the body at a Zones table (ZN-HID-01): the sheet's toggle on a
 * concealable weapon's row carries it hidden on the body (or takes it out of hiding), and the
 * GM's search tool rolls, for every weapon hidden on someone, the hider's Stealth against the
 * searcher's Notice (the difficulty 5 lower for a search of the body, the full Stealth total from
 * a distance) through the core's `hideWeapon`, on a card whispered to the GMs.
 */
import { FrayError } from "../../../rules/core/errors.js";
import { assertConcealable, hiddenWeapons, hideWeapon, type ZonesCombatant } from "../../../rules/zones/index.js";
import { combatantFor } from "../../combat/economy-store.js";
import { FoundryRoller } from "../../dice.js";
import { combatantOf } from "../../documents/actor.js";
import { formatKey, warn, windowTitle } from "../../notify.js";
import { registry } from "../../registry.js";
import { takeAction } from "../../round-actions.js";
import { searchCardContext, type CardI18n, type SearchCardState } from "./reaction-view.js";

type Dict = Record<string, unknown>;

/** The search card's template. */
export const SEARCH_TEMPLATE = "systems/fray/templates/zones/search-card.hbs";

/** Where a weapon taken out of hiding goes when its earlier place is not known. */
const UNHIDDEN_CARRY = "holster";

interface ItemDoc {
  getFlag?(scope: string, key: string): unknown;
  update(data: Dict): Promise<unknown>;
}

interface ActorDoc {
  id: string | null;
  uuid?: string;
  name?: string | null;
  isOwner?: boolean;
  items: { get(id: string): ItemDoc | undefined | null };
}

/** The core's combatant of an actor. */
function coreOf(actor: unknown): ZonesCombatant {
  return combatantOf<ZonesCombatant>(actor as never, {}, registry.get("zones"));
}

/**
 * The sheet's toggle (ZN-HID-01, ZN-DRW-01): a concealable weapon not hidden is hidden on the body
 * (carried `hidden`, no longer in hand: drawing it takes two actions), its earlier carry kept in
 * the item's `flags.fray.carryBeforeHiding`; a hidden one goes back there (a holster when
 * unknown). In the active combat hiding takes the action ("use an item"); taking it out of
 * hiding costs nothing.
 * @returns true when hidden now, false when not.
 * @throws FrayError `FRAY.Error.Zones.NotConcealable` (field `weapon`) for a weapon too large to hide.
 */
export async function toggleHidden(actor: unknown, itemId: string, tokenId?: string): Promise<boolean> {
  const doc = actor as ActorDoc;
  const weapon = coreOf(doc).weapons.find((w) => w.id === itemId);
  const item = doc.items.get(itemId);
  if (!weapon || !item) throw new FrayError("FRAY.Error.Field", { field: "weapon", expected: "a weapon of the actor" }, "No such weapon");
  assertConcealable(weapon);
  if (weapon.carry === "hidden") {
    const before = item.getFlag?.("fray", "carryBeforeHiding");
    const carry = typeof before === "string" && before !== "hidden" ? before : UNHIDDEN_CARRY;
    await item.update({ system: { carry } });
    return false;
  }
  if (combatantFor(doc as never, tokenId)) {
    const decision = await takeAction(doc as never, "useItem", { tokenId });
    if (!decision.ok) return false;
  }
  await item.update({ system: { carry: "hidden", drawn: false }, "flags.fray.carryBeforeHiding": weapon.carry });
  return true;
}

/**
 * The GM's search (ZN-HID-01): for every weapon hidden on the hider's body, the hider's Stealth
 * against the searcher's Notice, rolled as Foundry Rolls through the core (`hideWeapon`): found
 * when Notice meets the Stealth total, 5 lower for a search of the body (`search`), unchanged
 * from a distance (`distance`). The card is whispered to the GMs (it names hidden weapons).
 * Players are refused.
 * @returns the card's state, or `undefined` when refused.
 * @throws FrayError `FRAY.Error.Field` (field `mode`) for another mode, or when searcher and hider are one.
 */
export async function searchForWeapons(hider: unknown, searcher: unknown, mode: unknown): Promise<SearchCardState | undefined> {
  if (!game.user?.isGM) {
    warn("FRAY.Zones.Hiding.GMOnly");
    return undefined;
  }
  if (mode !== "search" && mode !== "distance")
    throw new FrayError("FRAY.Error.Field", { field: "mode", expected: "search or distance" }, "Bad search mode");
  const h = hider as ActorDoc;
  const s = searcher as ActorDoc;
  if (!h || !s || h.uuid === s.uuid)
    throw new FrayError("FRAY.Error.Field", { field: "searcher", expected: "someone other than the one searched" }, "Bad searcher");
  const hiderCore = coreOf(h);
  const searcherCore = coreOf(s);
  const dice = new FoundryRoller();
  const rows: SearchCardState["rows"] = [];
  for (const weapon of hiddenWeapons(hiderCore)) {
    const r = await hideWeapon(hiderCore, weapon.id, searcherCore, mode, dice);
    rows.push({ weapon: weapon.name, stealth: r.stealth.total, notice: r.notice.total, difficulty: r.difficulty, found: r.found });
  }
  const state: SearchCardState = { hider: h.name ?? "", searcher: s.name ?? "", mode, rows };
  const content = await foundry.applications.handlebars.renderTemplate(
    SEARCH_TEMPLATE,
    searchCardContext(state, game.i18n as unknown as CardI18n),
  );
  const users = game.users as unknown as { values(): Iterable<{ id: string | null; isGM: boolean }> } | undefined;
  const gms = Array.from(users?.values() ?? [])
    .filter((u) => u.isGM && u.id)
    .map((u) => u.id as string);
  const Message = ChatMessage.implementation as unknown as { create(data: Dict): Promise<unknown> };
  await Message.create({
    speaker: { alias: s.name ?? "" },
    content,
    rolls: dice.rolls,
    whisper: gms,
    flags: { fray: { zonesSearch: state } },
  });
  return state;
}

/** The token the GM has selected (controlled), else targeted: its actor is the searcher. */
function searcherToken(): { actor?: unknown } | undefined {
  const controlled = (canvas as unknown as { tokens?: { controlled?: { actor?: unknown }[] } } | undefined)?.tokens?.controlled ?? [];
  if (controlled[0]?.actor) return controlled[0];
  for (const t of (game.user?.targets as unknown as Iterable<{ actor?: unknown }> | undefined) ?? []) if (t.actor) return t;
  return undefined;
}

/** Asks how the search is made: on the body or from a distance; `undefined` when closed. */
async function askMode(hider: string): Promise<"search" | "distance" | undefined> {
  const result = await foundry.applications.api.DialogV2.wait({
    window: { title: windowTitle("FRAY.Zones.Hiding.Title", { hider }) },
    content: `<p>${formatKey("FRAY.Zones.Hiding.Ask")}</p>`,
    buttons: [
      { action: "search", label: "FRAY.Zones.Hiding.Mode.search", default: true },
      { action: "distance", label: "FRAY.Zones.Hiding.Mode.distance" },
    ],
    rejectClose: false,
  } as never);
  return result === "search" || result === "distance" ? result : undefined;
}

/**
 * The sheet's GM search button (ZN-HID-01): the sheet's actor is searched by the actor of the
 * token the GM has selected (or targeted); the GM picks a search of the body or from a distance.
 */
export async function searchFromSheet(hider: unknown, ask = askMode): Promise<SearchCardState | undefined> {
  if (!game.user?.isGM) {
    warn("FRAY.Zones.Hiding.GMOnly");
    return undefined;
  }
  const token = searcherToken();
  if (!token?.actor) {
    warn("FRAY.Zones.Hiding.NoSearcher");
    return undefined;
  }
  const mode = await ask((hider as ActorDoc).name ?? "");
  if (!mode) return undefined;
  return searchForWeapons(hider, token.actor, mode);
}
