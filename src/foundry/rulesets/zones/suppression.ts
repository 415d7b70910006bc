/**
 * Suppressing fire at a Zones table (ZN-SUP-01): the shooter starts it from a firearm's row on the
 * sheet (the lane covered is entered; the active GM pays the action and keeps the start's key on
 * the Combat, `flags.fray.zonesSuppressionStarts`, until it ends: only such a start fires); it is
 * kept on the shooter's Combatant (`flags.fray.zonesSuppression`) and shown under the shooter in
 * the tracker. The bullets per
 * action are the GM's ruling: the GM gives them on the first "Action under fire" and they are kept
 * on the Combat (`flags.fray.zonesSuppressionRates`), a document only a GM may update (A11), so a
 * number the shooter's client writes into the Combatant is never spent. Each time someone acts
 * while it holds, the GM presses "Action under fire": the weapon item loses the bullets through
 * the core's `suppressAction`, and once the weapon holds too few the suppression ends (the shooter
 * must reload). With **Shots at suppressed enemies** on, the GM also gets the out-of-turn shot.
 */
import { replaceFlag } from "../../logic/flags.js";
import { FrayError } from "../../../rules/core/errors.js";
import {
  startSuppression,
  suppressAction,
  suppressionActionsLeft,
  type Suppression,
  type ZonesCombatant,
  type ZonesWeapon,
} from "../../../rules/zones/index.js";
import { rollAttack } from "../../attack.js";
import { combatantFor, economyOf, type CombatantLike } from "../../combat/economy-store.js";
import { combatantOf } from "../../documents/actor.js";
import { escapeHtml } from "../../logic/round-actions.js";
import {
  LANE_MAX_LENGTH,
  RATE_DIALOG_BUTTONS,
  rateFormHtml,
  SUPPRESSION_DIALOG_BUTTONS,
  suppressionFormHtml,
  suppressionRowHtml,
  type CardI18n,
  type SuppressionRow,
} from "./reaction-view.js";
import { formatKey, reportError, warn, windowTitle } from "../../notify.js";
import { askGM, queryAnswer, refusal, type Requester, type RequestAnswer } from "../../queries.js";
import { registry } from "../../registry.js";
import { takeAction } from "../../round-actions.js";
import { optionValues } from "../../settings.js";
import { dialogButtons, type DialogFormButton } from "../../logic/dialog-buttons.js";

type Dict = Record<string, unknown>;

/** The Combatant flag that holds the shooter's suppression. */
export const SUPPRESSION_FLAG = "zonesSuppression";

/** The Combat flag that holds the GM's bullets per action, by the shooter's Combatant id. */
export const SUPPRESSION_RATES_FLAG = "zonesSuppressionRates";

export { LANE_MAX_LENGTH };

/**
 * The Combat flag where the active GM keeps each suppression it started (ZN-SUP-01), by the
 * shooter's Combatant id: the key of that start. Only a suppression whose key is there fires; the
 * GM removes it when the suppression ends.
 */
export const SUPPRESSION_STARTS_FLAG = "zonesSuppressionStarts";

/** Requests to the active GM (one at a time, so two GMs never spend bullets twice). */
export const SUPPRESSION_QUERIES = {
  action: "fray.zones.suppressedAction",
  start: "fray.zones.suppressionStart",
  end: "fray.zones.suppressionEnd",
} as const;

/**
 * A suppression as stored on the shooter's Combatant: the core's, with the lane covered and the
 * key of this start (a new one each time it is started). Its `bulletsPerAction` is only what was
 * last spent, for display; the number spent is the GM's ({@link GMRate}).
 */
export interface StoredSuppression extends Suppression {
  lane: string;
  key: string;
}

/** The GM's ruling on one suppression (ZN-SUP-01), kept on the Combat: for which start and weapon. */
export interface GMRate {
  key: string;
  weaponId: string;
  bulletsPerAction: number;
}

interface ItemDoc {
  id?: string | null;
  update(data: Dict): Promise<unknown>;
}

interface ActorDoc {
  id: string | null;
  uuid?: string;
  name?: string | null;
  items: { get(id: string): ItemDoc | undefined | null };
}

/** A Combatant as suppression reads it. */
export interface SuppressingCombatant extends CombatantLike {
  name?: string | null;
}

/** A Combat as suppression reads it. */
export interface SuppressionCombat {
  id?: string | null;
  round?: number;
  combatants?: Iterable<unknown> & { get(id: string): SuppressingCombatant | undefined };
  getFlag?(scope: string, key: string): unknown;
  setFlag?(scope: string, key: string, value: unknown): Promise<unknown>;
}

/** The core's combatant of an actor. */
function coreOf(actor: unknown, id?: string | null): ZonesCombatant {
  return combatantOf<ZonesCombatant>(actor as never, id ? { id } : {}, registry.get("zones"));
}

/** A whole number of 0 or more from a stored value; anything else is 0. */
function count(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0;
}

/**
 * The stored suppression of a Combatant, checked; `undefined` when there is none. Its
 * `bulletsPerAction` is what the Combatant says (the shooter's client may write it) and is
 * never spent: see {@link ruledSuppression}.
 */
export function suppressionOf(combatant: Pick<CombatantLike, "getFlag">): StoredSuppression | undefined {
  const s = combatant.getFlag("fray", SUPPRESSION_FLAG) as Partial<StoredSuppression> | null | undefined;
  if (!s || typeof s !== "object" || typeof s.weaponId !== "string") return undefined;
  return {
    rule: "ZN-SUP-01",
    shooter: typeof s.shooter === "string" ? s.shooter : "",
    weaponId: s.weaponId,
    bulletsPerAction: count(s.bulletsPerAction),
    active: s.active === true,
    actions: count(s.actions),
    fired: count(s.fired),
    lane: typeof s.lane === "string" ? s.lane.slice(0, LANE_MAX_LENGTH) : "",
    key: typeof s.key === "string" ? s.key : "",
  };
}

/** The starts the active GM verified, kept on a Combat: the key of each, by the shooter's Combatant id. */
function startsOf(combat: SuppressionCombat | undefined): Record<string, string> {
  const starts = combat?.getFlag?.("fray", SUPPRESSION_STARTS_FLAG);
  if (!starts || typeof starts !== "object") return {};
  return Object.fromEntries(
    Object.entries(starts as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === "string"),
  );
}

/**
 * True when a shooter's stored suppression is one the active GM started (ZN-SUP-01): its key is
 * the one the GM kept on the Combat when the start's action was paid, and it has not ended since.
 */
export function verifiedStart(combat: SuppressionCombat | undefined, shooterId: string, s: StoredSuppression): boolean {
  return Boolean(s.key) && startsOf(combat)[shooterId] === s.key;
}

/** Keeps (or, with no key, drops) the verified start of a shooter on the Combat (the active GM only). */
async function keepStart(combat: SuppressionCombat, shooterId: string, key: string | undefined): Promise<void> {
  if (!combat.setFlag) return;
  const starts = startsOf(combat);
  if (key) starts[shooterId] = key;
  else delete starts[shooterId];
  await replaceFlag(combat as SuppressionCombat & { setFlag: NonNullable<SuppressionCombat["setFlag"]> }, SUPPRESSION_STARTS_FLAG, starts);
}

/** The GM's rulings kept on a Combat, by the shooter's Combatant id. */
function ratesOf(combat: SuppressionCombat | undefined): Record<string, GMRate> {
  const rates = combat?.getFlag?.("fray", SUPPRESSION_RATES_FLAG);
  return rates && typeof rates === "object" ? (rates as Record<string, GMRate>) : {};
}

/**
 * The GM's bullets per action for a shooter's suppression (ZN-SUP-01), read from the Combat only
 * (a GM's document): `undefined` until the GM has ruled on this start with this weapon.
 */
export function gmBulletsPerAction(combat: SuppressionCombat | undefined, shooterId: string, s: StoredSuppression): number | undefined {
  const rate = ratesOf(combat)[shooterId];
  if (!rate || rate.key !== s.key || rate.weaponId !== s.weaponId) return undefined;
  const n = rate.bulletsPerAction;
  return Number.isInteger(n) && n >= 1 ? n : undefined;
}

/**
 * A shooter's suppression with the GM's bullets per action in place of whatever the Combatant
 * holds (ZN-SUP-01); `undefined` when there is none or the GM has not ruled yet.
 */
export function ruledSuppression(combat: SuppressionCombat | undefined, shooter: SuppressingCombatant): StoredSuppression | undefined {
  const s = suppressionOf(shooter);
  const bullets = s ? gmBulletsPerAction(combat, shooter.id ?? "", s) : undefined;
  return s && bullets ? { ...s, bulletsPerAction: bullets } : undefined;
}

/** What the suppression form answers: the lane covered. */
export interface SuppressionAnswer {
  lane: unknown;
}

/** Asks the suppression form (DialogV2): the lane covered. */
async function askSuppression(weapon: string): Promise<SuppressionAnswer | undefined> {
  const content = suppressionFormHtml(game.i18n);
  const result = await foundry.applications.api.DialogV2.wait({
    window: { title: windowTitle("FRAY.Zones.Suppression.Title", { weapon }) },
    content,
    buttons: dialogButtons(SUPPRESSION_DIALOG_BUTTONS, {
      suppress: (_event: unknown, button: DialogFormButton) => ({
        lane: button.form?.elements.lane?.value ?? "",
      }),
    }),
    rejectClose: false,
  } as never);
  return result && typeof result === "object" ? (result as SuppressionAnswer) : undefined;
}

/**
 * Starts suppressing fire with a firearm of the actor (ZN-SUP-01): only in the active combat, by
 * the combatant's owner. Asks the lane covered; the core checks the weapon and the round
 * (`startSuppression` with one bullet: something loaded, an action left), the action is paid and
 * the suppression stored on the Combatant with a new key. The bullets per action are not the
 * shooter's: the GM gives them on the first action under fire ({@link suppressedAction}).
 * @param ask the form; tests and macros pass the answer.
 * @returns the stored suppression, or `undefined` when not started.
 * @throws FrayError `FRAY.Error.Field` naming `lane` or `weapon`; `FRAY.Error.Zones.Empty` when the
 *   weapon is empty; `FRAY.Error.Economy` without an action.
 */
export async function startSuppressing(
  actor: unknown,
  itemId: string,
  tokenId?: string,
  ask: (weapon: string) => Promise<SuppressionAnswer | undefined> = askSuppression,
): Promise<StoredSuppression | undefined> {
  const doc = actor as ActorDoc;
  const combatant = combatantFor(doc as never, tokenId) as SuppressingCombatant | undefined;
  if (!combatant) {
    warn("FRAY.Zones.Suppression.NotInCombat");
    return undefined;
  }
  if (!combatant.isOwner) {
    warn("FRAY.Flow.Error.NotYourCombatant");
    return undefined;
  }
  const weapon = coreOf(doc, combatant.id).weapons.find((w) => w.id === itemId);
  if (!weapon || weapon.kind !== "firearm")
    throw new FrayError("FRAY.Error.Field", { field: "weapon", expected: "a firearm of the actor" }, "Not a firearm");
  const answer = await ask(weapon.name);
  if (!answer) return undefined;
  if (typeof answer.lane !== "string" || answer.lane.length > LANE_MAX_LENGTH)
    throw new FrayError("FRAY.Error.Field", { field: "lane", expected: `at most ${LANE_MAX_LENGTH} characters` }, "Bad lane");
  // The core checks that a bullet is loaded and an action left before anything is asked.
  startSuppression(combatant.id ?? "", weapon, 1, economyOf(combatant));
  const combat = combatant.combat as { id?: string | null } | null | undefined;
  const reply = await askGM(SUPPRESSION_QUERIES.start, {
    combatId: combat?.id ?? "",
    combatantId: combatant.id ?? "",
    itemId,
    lane: answer.lane.trim(),
  });
  if (!queryAnswer(reply)) return undefined;
  return suppressionOf(combatant);
}

/**
 * The active GM's side of {@link startSuppressing} (ZN-SUP-01, ZN-ACT-02): the requester must own
 * the shooter's actor (or be a GM); the weapon must be a firearm of the actor, the lane short
 * enough; the core checks a bullet is loaded and an action left; the action is paid here
 * (`takeAction`), and only then is the suppression written on the shooter's Combatant with a new
 * key, kept on the Combat as a verified start ({@link SUPPRESSION_STARTS_FLAG}). Answers the key.
 */
export async function handleSuppressionStart(data: Dict, requester: Requester): Promise<RequestAnswer> {
  const combat = combatById(String(data.combatId ?? ""));
  const shooterId = String(data.combatantId ?? "");
  const combatant = combat?.combatants?.get(shooterId);
  if (!combat || !combatant) return refusal("FRAY.Zones.Suppression.NotInCombat");
  const actor = combatant.actor as (ActorDoc & { testUserPermission?(user: unknown, level: string): boolean }) | null | undefined;
  const user = (game.users as unknown as { get(id: string): unknown } | undefined)?.get(requester.id);
  if (!actor || (!requester.isGM && !(user && actor.testUserPermission?.(user, "OWNER"))))
    return refusal("FRAY.Flow.Error.NotYourCombatant");
  const lane = data.lane;
  if (typeof lane !== "string" || lane.length > LANE_MAX_LENGTH)
    return refusal("FRAY.Error.Field", { field: "lane", expected: `at most ${LANE_MAX_LENGTH} characters` });
  try {
    const weapon = coreOf(actor, combatant.id).weapons.find((w) => w.id === String(data.itemId ?? ""));
    if (!weapon || weapon.kind !== "firearm") return refusal("FRAY.Error.Field", { field: "weapon", expected: "a firearm of the actor" });
    const { suppression } = startSuppression(shooterId, weapon, 1, economyOf(combatant));
    // The action is the verified shooter's own: its token, never one the request names.
    const decision = await takeAction(actor as never, "suppress", { tokenId: combatant.tokenId ?? undefined });
    if (!decision.ok) return refusal(decision.key, { actor: actor.name ?? "", slot: `FRAY.Slot.${decision.short}` });
    const key = foundry.utils.randomID();
    await replaceFlag(combatant, SUPPRESSION_FLAG, {
      ...suppression,
      bulletsPerAction: 0,
      lane: lane.trim(),
      key,
    } satisfies StoredSuppression);
    await keepStart(combat, shooterId, key);
    return { ok: true, short: key };
  } catch (err) {
    if (err instanceof FrayError) return refusal(err.key, err.data as Record<string, string | number>);
    throw err;
  }
}

/** A combat by id: from `game.combats`, or the current one. */
function combatById(id: string): SuppressionCombat | undefined {
  const combats = (game as unknown as { combats?: { get(id: string): SuppressionCombat | undefined } }).combats;
  const byId = combats?.get(id);
  if (byId) return byId;
  const current = (game as unknown as { combat?: SuppressionCombat | null }).combat;
  return current && current.id === id ? current : undefined;
}

/** Asks the GM (DialogV2) for the bullets per action of a suppression (ZN-SUP-01). */
async function askRate(weapon: string): Promise<unknown> {
  const content = rateFormHtml(game.i18n);
  return foundry.applications.api.DialogV2.wait({
    window: { title: windowTitle("FRAY.Zones.Suppression.RateTitle", { weapon }) },
    content,
    buttons: dialogButtons(RATE_DIALOG_BUTTONS, {
      rule: (_event: unknown, button: DialogFormButton) => button.form?.elements.bullets?.value ?? "",
    }),
    rejectClose: false,
  } as never);
}

/**
 * Bullets per action as the GM entered them: a whole number, 1 or more.
 * @throws FrayError `FRAY.Error.Field` naming `bulletsPerAction` otherwise.
 */
function bulletsFrom(value: unknown): number {
  const n = typeof value === "string" ? Number(value.trim() || NaN) : value;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1)
    throw new FrayError(
      "FRAY.Error.Field",
      { field: "bulletsPerAction", expected: "a whole number of bullets, 1 or more" },
      "Bullets per action must be 1 or more",
    );
  return n;
}

/**
 * The GM marks one action taken while the shooter's suppression holds (ZN-SUP-01; anyone's: the
 * shooter's, an ally's or an enemy's): the weapon fires the GM's bullets per action, or, holding
 * too few, the suppression ends and the shooter must reload. On the first press of a suppression
 * the GM is asked the bullets per action (`askBullets`); later presses reuse that ruling. Players
 * are refused; every GM's press runs on the active GM's client, one at a time.
 * @param askBullets asks the GM for the bullets per action; tests and macros pass the answer.
 * @returns the suppression after it, or `undefined` when refused or the GM gave no number.
 * @throws FrayError `FRAY.Zones.Suppression.None` when the shooter suppresses nothing;
 *   `FRAY.Error.Field` naming `bulletsPerAction` for a number below 1 or not whole.
 */
export async function suppressedAction(
  combat: SuppressionCombat,
  shooterId: string,
  askBullets: (weapon: string) => Promise<unknown> = askRate,
): Promise<StoredSuppression | undefined> {
  if (!game.user?.isGM) {
    warn("FRAY.Zones.Suppression.GMOnly");
    return undefined;
  }
  const shooter = combat.combatants?.get(shooterId);
  const s = shooter ? suppressionOf(shooter) : undefined;
  const data: Dict = { combatId: combat.id ?? "", combatantId: shooterId };
  if (s?.active && verifiedStart(combat, shooterId, s) && gmBulletsPerAction(combat, shooterId, s) === undefined) {
    let weapon = "";
    try {
      weapon = coreOf(shooter?.actor, shooterId).weapons.find((w) => w.id === s.weaponId)?.name ?? "";
    } catch {
      weapon = "";
    }
    const entered = await askBullets(weapon);
    if (entered === undefined || entered === null) return undefined;
    data.bulletsPerAction = bulletsFrom(entered);
  }
  const answer = await askGM(SUPPRESSION_QUERIES.action, data);
  if (!queryAnswer(answer)) return undefined;
  return shooter ? suppressionOf(shooter) : undefined;
}

/**
 * The active GM's side of {@link suppressedAction}: only a GM's request. A GM's bullets per action
 * (`data.bulletsPerAction`, checked) are kept on the Combat for this start of the suppression; the
 * number spent is read from there only, never from the shooter's Combatant; the suppression and
 * the weapon are read from the documents and the bullets spent through the core.
 */
export async function handleSuppressedAction(data: Dict, requester: Requester): Promise<RequestAnswer> {
  if (!requester.isGM) return refusal("FRAY.Zones.Suppression.GMOnly");
  const combat = combatById(String(data.combatId ?? ""));
  const shooterId = String(data.combatantId ?? "");
  const shooter = combat?.combatants?.get(shooterId);
  const stored = shooter ? suppressionOf(shooter) : undefined;
  // Only a start the GM verified fires: not one switched back on, nor one written by hand.
  if (!combat || !shooter || !stored || !stored.active || !verifiedStart(combat, shooterId, stored))
    return refusal("FRAY.Zones.Suppression.None");
  if (data.bulletsPerAction !== undefined) {
    const rate: GMRate = { key: stored.key, weaponId: stored.weaponId, bulletsPerAction: bulletsFrom(data.bulletsPerAction) };
    await combat.setFlag?.("fray", SUPPRESSION_RATES_FLAG, { ...ratesOf(combat), [shooterId]: rate });
  }
  const s = ruledSuppression(combat, shooter);
  if (!s) return refusal("FRAY.Zones.Suppression.NoRate");
  const actor = shooter.actor as unknown as ActorDoc | null | undefined;
  const weapon: ZonesWeapon | undefined = actor ? coreOf(actor, shooter.id).weapons.find((w) => w.id === s.weaponId) : undefined;
  const item = actor?.items.get(s.weaponId);
  if (!weapon || !item) return refusal("FRAY.Zones.Suppression.None");
  const after = suppressAction(s, weapon);
  if (after.fired > 0) await item.update({ system: { loaded: after.weapon.loaded } });
  await replaceFlag(shooter, SUPPRESSION_FLAG, { ...after.suppression, lane: s.lane, key: s.key } satisfies StoredSuppression);
  if (!after.suppression.active) {
    await keepStart(combat, shooterId, undefined);
    const Message = ChatMessage.implementation as unknown as { create(data: Dict): Promise<unknown> };
    await Message.create({
      speaker: { alias: shooter.name ?? "" },
      content: `<p class="fray-zones-suppression-ended">${escapeHtml(formatKey("FRAY.Zones.Suppression.Ended", { actor: shooter.name ?? "", weapon: weapon.name }))} <span class="fray-rule">ZN-SUP-01</span></p>`,
    });
  }
  return { ok: true };
}

/**
 * The shooter (or the GM) ends a suppression (ZN-SUP-01) before the weapon runs dry.
 * @returns true when it was ended.
 */
export async function endSuppression(combatant: SuppressingCombatant): Promise<boolean> {
  if (!combatant.isOwner) {
    warn("FRAY.Flow.Error.NotYourCombatant");
    return false;
  }
  const s = suppressionOf(combatant);
  if (!s) return false;
  await replaceFlag(combatant, SUPPRESSION_FLAG, { ...s, active: false });
  const combat = combatant.combat as { id?: string | null } | null | undefined;
  const reply = await askGM(SUPPRESSION_QUERIES.end, { combatId: combat?.id ?? "", combatantId: combatant.id ?? "" });
  return queryAnswer(reply);
}

/**
 * The active GM's side of {@link endSuppression} (ZN-SUP-01): the shooter's owner (or a GM) ends
 * it for good: the verified start is dropped from the Combat, so switching the suppression back
 * on by hand fires nothing; a new suppression is a new start, its action paid again.
 */
export async function handleSuppressionEnd(data: Dict, requester: Requester): Promise<RequestAnswer> {
  const combat = combatById(String(data.combatId ?? ""));
  const shooterId = String(data.combatantId ?? "");
  const combatant = combat?.combatants?.get(shooterId);
  if (!combat || !combatant) return refusal("FRAY.Zones.Suppression.None");
  const actor = combatant.actor as { testUserPermission?(user: unknown, level: string): boolean } | null | undefined;
  const user = (game.users as unknown as { get(id: string): unknown } | undefined)?.get(requester.id);
  if (!requester.isGM && !(actor && user && actor.testUserPermission?.(user, "OWNER"))) return refusal("FRAY.Flow.Error.NotYourCombatant");
  await keepStart(combat, shooterId, undefined);
  return { ok: true };
}

/**
 * The tracker row of a combatant's suppression, or `undefined` when it has none; the bullets per
 * action are the GM's ruling from the Combat (0 until the GM has ruled).
 */
export function suppressionRow(
  combatant: SuppressingCombatant,
  reader: { isGM: boolean },
  combat?: SuppressionCombat,
): SuppressionRow | undefined {
  const stored = suppressionOf(combatant);
  if (!stored) return undefined;
  // A suppression the GM did not start (switched back on, or written by hand) holds nothing.
  const holds = stored.active && verifiedStart(combat, combatant.id ?? "", stored);
  const s = { ...stored, active: holds, bulletsPerAction: gmBulletsPerAction(combat, combatant.id ?? "", stored) ?? 0 };
  let weapon: ZonesWeapon | undefined;
  try {
    weapon = coreOf(combatant.actor, combatant.id).weapons.find((w) => w.id === s.weaponId);
  } catch {
    weapon = undefined;
  }
  const loaded = weapon?.loaded ?? 0;
  const shots = optionValues("zones").suppressionShots !== false;
  return {
    weapon: weapon?.name ?? "",
    lane: s.lane,
    bulletsPerAction: s.bulletsPerAction,
    loaded,
    actionsLeft: s.bulletsPerAction > 0 ? suppressionActionsLeft(s, { loaded }) : 0,
    actions: s.actions,
    active: s.active,
    canMark: reader.isGM && s.active,
    canEnd: s.active && (reader.isGM || Boolean(combatant.isOwner)),
    canShoot: reader.isGM && s.active && shots,
  };
}

/**
 * The binding's `renderTracker` part for suppressing fire (ZN-SUP-01): under each shooter's
 * name its suppression, the GM's "Action under fire" and out-of-turn shot, and End.
 */
export function renderSuppression(combat: unknown, html: HTMLElement): void {
  const c = combat as SuppressionCombat;
  if (!c?.combatants) return;
  const isGM = Boolean(game.user?.isGM);
  for (const el of Array.from(html.querySelectorAll<HTMLElement>("[data-combatant-id]"))) {
    const combatant = c.combatants.get(el.dataset.combatantId ?? "");
    if (!combatant) continue;
    el.querySelector(".fray-zones-suppression")?.remove();
    const row = suppressionRow(combatant, { isGM }, c);
    if (!row) continue;
    (el.querySelector(".token-name") ?? el).insertAdjacentHTML("beforeend", suppressionRowHtml(row, game.i18n as unknown as CardI18n));
    if (el.dataset.fraySuppressionClicks) continue;
    el.dataset.fraySuppressionClicks = "1";
    el.addEventListener("click", (event: Event) => {
      const target = event.target as HTMLElement | null;
      const pressed = ["suppressed", "suppress-shot", "suppress-end"].find((d) => target?.closest?.(`[data-zones-${d}]`));
      if (!pressed) return;
      event.preventDefault();
      event.stopPropagation();
      const s = suppressionOf(combatant);
      if (pressed === "suppressed") void suppressedAction(c, combatant.id ?? "").catch(reportError);
      else if (pressed === "suppress-end") void endSuppression(combatant).catch(reportError);
      else if (s && combatant.actor)
        void rollAttack({ actor: combatant.actor as never, weaponId: s.weaponId, free: true }).catch(reportError);
    });
  }
}
