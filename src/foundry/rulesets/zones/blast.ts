/**
 * A Zones grenade in Foundry (ZN-THR-01, ZN-GRN-01): thrown at a point of the scene (an area,
 * medium by default), the throw rolled through the core, the blast marked with a measured
 * template, and a chat card showing both radii and every token caught, each with grenade-proof
 * cover and full body armor to tick. The active GM applies the blast to all of them and may undo
 * it; the GM's client recomputes who is caught and what happens from where the blast lands and the
 * tokens' positions, never from values a client sent. Where it lands is recorded on the thrown
 * grenade item at the throw; the template counts only when a GM moved it last (its
 * `_stats.lastModifiedBy`, set by the server), so a thrower who drags it after seeing the dice
 * changes nothing.
 */
import { FrayError } from "../../../rules/core/errors.js";
import type { RulesetOptions } from "../../../rules/core/ruleset.js";
import type { SizeCategory } from "../../../rules/zones/model.js";
import { resolveBlast, zones, type ZonesAttackInput, type ZonesCombatant, type ZonesWeapon } from "../../../rules/zones/index.js";
import { zonesWeaponFromItem, type ZonesItemSource } from "../../../rules/zones/model.js";
import { FoundryRoller } from "../../dice.js";
import {
  blastCardContext,
  landingPoint,
  metresBetween,
  pixelsPerMetre,
  tokensCaught,
  zoneOf,
  withFullBody,
  type BlastGrenade,
  type BlastI18n,
  type BlastRow,
  type BlastState,
  type Point,
  type SceneToken,
} from "./blast-card.js";
import { combatantOf } from "../../documents/actor.js";
import { toMetres } from "../../measure.js";
import { askGM, queryAnswer, refusal, type Requester, type RequestAnswer } from "../../queries.js";
import { registry } from "../../registry.js";
import { optionValues } from "../../settings.js";
import { warn } from "../../notify.js";
import { zonesAfterAttack } from "./after-attack.js";
import { deltaOf } from "../../../rules/core/ledger.js";
import { ledgerEntry, ledgerPrefix, ledgerUpdate, statusChanges, undoneState, type LedgerEntry } from "../../logic/undo.js";
import { appliedEntries, appliedTo, forgetApplied, recordApplied } from "../../play/applied.js";
import { cardRulesOf } from "../../play/card-rules.js";

/* ------------------------------------------------------------------------------------------ */
/* Foundry                                                                                     */
/* ------------------------------------------------------------------------------------------ */

type Dict = Record<string, unknown>;

interface TemplateDoc {
  uuid?: string;
  x?: number;
  y?: number;
  _stats?: { lastModifiedBy?: string | null } | null;
  update?(data: Dict): Promise<unknown>;
}

/** The thrown grenade item's flag with the point its blast lands on (ZN-GRN-01). */
export const LANDING_FLAG = "zonesLanding";

interface SceneLike {
  id?: string | null;
  createEmbeddedDocuments?(type: string, data: Dict[]): Promise<TemplateDoc[]>;
}

interface GridLike {
  size: number;
  distance: number;
  units?: string;
}

function scene(): SceneLike | undefined {
  return (canvas as unknown as { scene?: SceneLike | null } | undefined)?.scene ?? undefined;
}

function grid(): GridLike | undefined {
  return (canvas as unknown as { grid?: GridLike | null } | undefined)?.grid ?? undefined;
}

/** The tokens on the viewed scene. */
function sceneTokens(): SceneToken[] {
  const placeables = (canvas as unknown as { tokens?: { placeables?: SceneToken[] } } | undefined)?.tokens?.placeables ?? [];
  return placeables.filter((t) => t && t.center);
}

/**
 * Places the blast's measured template (ZN-GRN-01): a circle of the casualty radius on the viewed
 * scene, at `centre`, flagged as Fray's. The one place that marks a blast on the canvas (a later
 * move to scene regions changes only this function).
 * @param radius metres.
 * @returns the template's UUID, or null without a scene.
 */
export async function placeBlastTemplate(centre: Point, radius: number, grenade: string): Promise<string | null> {
  const s = scene();
  const g = grid();
  if (!s?.createEmbeddedDocuments || !g) return null;
  const metresPerUnit = toMetres(1, g.units);
  const [doc] = await s.createEmbeddedDocuments("MeasuredTemplate", [
    {
      t: "circle",
      x: centre.x,
      y: centre.y,
      distance: radius / metresPerUnit,
      fillColor: "#cc3311",
      flags: { fray: { zonesBlast: { grenade } } },
    },
  ]);
  return doc?.uuid ?? null;
}

/** A point with finite coordinates, or undefined. */
function pointOf(v: unknown): Point | undefined {
  const p = v as Partial<Point> | null | undefined;
  return p && typeof p === "object" && Number.isFinite(p.x) && Number.isFinite(p.y) ? { x: p.x!, y: p.y! } : undefined;
}

/** Where the blast lands and how that was decided (ZN-GRN-01). */
export interface BlastCentre {
  centre: Point;
  /** `gm`: a GM moved the template last; `throw`: the landing point recorded at the throw. */
  source: "gm" | "throw";
  /** The template lies elsewhere, moved by someone who is not a GM; it was not followed. */
  ignoredMove: boolean;
}

/**
 * Where a blast lands at the GM's Apply (ZN-GRN-01, RULES.md): the template's position when a GM
 * was the last to change it (`_stats.lastModifiedBy`, which the server sets, names a GM user);
 * otherwise the landing point recorded on the thrown grenade item at the throw (from the aim
 * point and the throw's rolls), else the card's centre. A template a player moved is not followed.
 * @param template the blast's template, or null when it was deleted.
 * @param recorded the item's `flags.fray.zonesLanding`.
 */
export function blastCentre(
  template: TemplateDoc | null | undefined,
  recorded: unknown,
  cardCentre: Point,
  isGM: (userId: string) => boolean,
): BlastCentre {
  const landing = pointOf(recorded) ?? cardCentre;
  const at = pointOf(template);
  if (!at) return { centre: landing, source: "throw", ignoredMove: false };
  const by = template?._stats?.lastModifiedBy;
  if (typeof by === "string" && isGM(by)) return { centre: at, source: "gm", ignoredMove: false };
  const moved = Math.abs(at.x - landing.x) > 0.5 || Math.abs(at.y - landing.y) > 0.5;
  return { centre: landing, source: "throw", ignoredMove: moved };
}

/** The blast's template document, or null. */
function templateOf(state: BlastState): TemplateDoc | null {
  return state.templateUuid
    ? ((foundry.utils as unknown as { fromUuidSync?(uuid: string): TemplateDoc | null }).fromUuidSync?.(state.templateUuid) ?? null)
    : null;
}

/** Whether a user id is a GM's, from `game.users`. */
function isGMUser(userId: string): boolean {
  const users = game.users as unknown as { get(id: string): { isGM?: boolean } | undefined } | undefined;
  return Boolean(users?.get(userId)?.isGM);
}

interface ItemDoc {
  id?: string | null;
  name?: string;
  type?: string;
  system?: Dict;
  toObject?(): Dict;
  getFlag?(scope: string, key: string): unknown;
  update?(data: Dict): Promise<unknown>;
  delete?(): Promise<unknown>;
}

interface ActorDoc {
  uuid: string;
  getFlag?(scope: string, key: string): unknown;
  name?: string;
  id?: string | null;
  items?: { get(id: string): ItemDoc | undefined };
  createEmbeddedDocuments?(type: string, data: Dict[], options?: Dict): Promise<unknown[]>;
  testUserPermission?(user: unknown, level: "OWNER"): boolean;
  getActiveTokens?(): SceneToken[];
  update?(data: Dict): Promise<unknown>;
  toggleStatusEffect?(id: string, options: { active: boolean }): Promise<unknown>;
  statuses?: Set<string>;
}

/** The Zones combatant of an actor. */
function combatantOfActor(actor: unknown): ZonesCombatant {
  return combatantOf<ZonesCombatant>(actor as never, {}, zonesBinding());
}

/** Rows of the tokens caught, their zone and the full body armor their actor wears. */
function rowsFor(centre: Point, grenade: BlastGrenade, ppm: number): BlastRow[] {
  return tokensCaught(centre, sceneTokens(), ppm, grenade).map((t) => {
    const distance = metresBetween(centre, t.center, ppm);
    let fullBody = false;
    try {
      fullBody = combatantOfActor(t.actor).armor.some((a) => a.fullBody);
    } catch {
      fullBody = false;
    }
    return {
      tokenId: t.id,
      actorUuid: t.actor!.uuid,
      name: t.name,
      distance,
      zone: zoneOf(distance, grenade),
      grenadeProof: false,
      fullBody,
    };
  });
}

/** The blast card's template. */
export const BLAST_TEMPLATE = "systems/fray/templates/zones/blast-card.hbs";

/** The localized card of a blast. */
export async function renderBlastCard(state: BlastState): Promise<string> {
  return foundry.applications.handlebars.renderTemplate(BLAST_TEMPLATE, blastCardContext(state, game.i18n as unknown as BlastI18n));
}

/** What {@link throwGrenade} takes besides the actor and item. */
export interface ThrowOptions {
  /** The area's size (ZN-GRN-01), medium by default. */
  areaSize?: SizeCategory;
  /** Other situation fields of the throw (environment, misc ...). */
  situation?: Dict;
  /**
   * Pays for the throw once the core has accepted it and before anything is rolled (the sheet
   * spends the action, ZN-ACT-02); `false` stops the throw.
   */
  pay?(): Promise<boolean>;
}

interface MessageDoc {
  id: string | null;
  content?: string;
  flags?: Dict;
  getFlag?(scope: string, key: string): unknown;
  update(data: Dict): Promise<unknown>;
}

/**
 * Throws a grenade at a point (ZN-THR-01, ZN-GRN-01): the throw through the core (Throwing, the
 * range from the thrower's token, the area medium unless given), the landing point (a miss lands
 * off by the margin, {@link landingPoint}), the template ({@link placeBlastTemplate}), the blast
 * card listing every token caught, and the grenade marked thrown on the thrower until the GM applies
 * (RULES.md).
 * @returns the blast card, or undefined when `pay` refused.
 * @throws FrayError from the core (`FRAY.Error.Zones.NotDrawn`, `FRAY.Error.Zones.OutOfRange`,
 *   `FRAY.Error.CannotAct` ...), `FRAY.Error.NoWeapon` when the item is not a grenade of the actor,
 *   `FRAY.Zones.BlastCard.NoToken` when the thrower has no token on the scene.
 */
export async function throwGrenade(actor: unknown, itemId: string, aim: Point, opts: ThrowOptions = {}): Promise<MessageDoc | undefined> {
  const a = actor as ActorDoc;
  const attacker = combatantOfActor(actor);
  const weapon = attacker.weapons.find((w) => w.id === itemId);
  if (!weapon || weapon.kind !== "grenade")
    throw new FrayError("FRAY.Error.NoWeapon", { field: "weapon", weapon: itemId }, `${itemId} is not a grenade of ${attacker.name}`);
  const token = a.getActiveTokens?.()[0];
  if (!token) throw new FrayError("FRAY.Zones.BlastCard.NoToken", { actor: attacker.name }, `${attacker.name} has no token`);
  const ppm = pixelsPerMetre(grid());
  const options: RulesetOptions = optionValues("zones");
  const input: ZonesAttackInput = {
    attacker,
    weaponId: weapon.id,
    area: { size: opts.areaSize ?? "medium" },
    rangeMetres: metresBetween(token.center, aim, ppm),
    situation: { ...(opts.situation ?? {}) } as ZonesAttackInput["situation"],
  };
  const plan = zones.planAttack(input, options);
  if (opts.pay && !(await opts.pay())) return undefined;
  const dice = new FoundryRoller();
  const result = await zones.resolveAttack(plan, input, dice, options);
  const deviation = (result as { deviation?: number }).deviation;
  const centre = landingPoint(token.center, aim, deviation, ppm);
  const grenade: BlastGrenade = {
    name: weapon.name,
    effectiveRadius: weapon.effectiveRadius,
    casualtyRadius: weapon.casualtyRadius,
    damage: weapon.damage,
  };
  const templateUuid = await placeBlastTemplate(centre, grenade.casualtyRadius, grenade.name);
  const state: BlastState = {
    actorUuid: a.uuid,
    itemId: weapon.id,
    grenade,
    sceneId: scene()?.id ?? null,
    templateUuid,
    aim: { ...aim },
    centre,
    check: result.check.total,
    difficulty: plan.difficulty.total,
    hit: result.hit,
    deviation,
    rows: rowsFor(centre, grenade, ppm),
    applied: false,
  };
  const Message = ChatMessage.implementation as unknown as { create(data: Dict): Promise<MessageDoc> };
  const message = await Message.create({
    speaker: { actor: a.id ?? undefined, alias: attacker.name },
    rolls: dice.rolls,
    content: await renderBlastCard(state),
    flags: { fray: { zonesBlast: state } },
  });
  await zonesAfterAttack({ actor, weaponId: weapon.id, results: [result] });
  // The landing point stays with the thrown grenade: the GM's Apply reads it, not the template.
  await a.items?.get(weapon.id)?.update?.({ [`flags.fray.${LANDING_FLAG}`]: { ...centre, sceneId: state.sceneId } });
  return message;
}

/**
 * Where the user throws (ZN-GRN-01): the centre of the first token they target, else their
 * latest measured template on the viewed scene (placed with Foundry's template tool).
 * @throws FrayError `FRAY.Zones.BlastCard.NoAim` when there is neither.
 */
export function aimPoint(): Point {
  const target = (game.user?.targets as unknown as Iterable<{ center?: Point }> | undefined) ?? [];
  for (const t of target) if (t.center) return { x: t.center.x, y: t.center.y };
  const placed =
    (canvas as unknown as { templates?: { placeables?: { document?: { x: number; y: number; author?: { id?: string } | null } }[] } })
      ?.templates?.placeables ?? [];
  const mine = placed.filter((p) => p.document && p.document.author?.id === game.user?.id);
  const last = mine.at(-1)?.document;
  if (last) return { x: last.x, y: last.y };
  throw new FrayError("FRAY.Zones.BlastCard.NoAim", { field: "target" }, "Nothing to throw at");
}

/** The blast state of a message, or undefined. */
export function blastStateOf(message: MessageDoc | undefined): BlastState | undefined {
  const flags = message?.flags as { fray?: { zonesBlast?: BlastState } } | undefined;
  return flags?.fray?.zonesBlast;
}

/** The GM's ticks as a request carries them: booleans per token id; anything else is dropped. */
function readTicks(raw: unknown): Record<string, { grenadeProof: boolean; fullBody?: boolean }> {
  const out: Record<string, { grenadeProof: boolean; fullBody?: boolean }> = {};
  if (typeof raw !== "object" || raw === null) return out;
  for (const [id, v] of Object.entries(raw as Dict)) {
    if (typeof v !== "object" || v === null) continue;
    const t = v as Dict;
    out[id] = { grenadeProof: t.grenadeProof === true, fullBody: typeof t.fullBody === "boolean" ? t.fullBody : undefined };
  }
  return out;
}

function messageOf(id: unknown): MessageDoc | undefined {
  return (game.messages as unknown as { get(id: string): MessageDoc | undefined } | undefined)?.get(String(id));
}

async function actorOf(uuid: string): Promise<ActorDoc | undefined> {
  const doc = (await (foundry.utils as unknown as { fromUuid(uuid: string): Promise<unknown> }).fromUuid(uuid)) as ActorDoc | null;
  return doc ?? undefined;
}

/**
 * The thrown grenade of a blast card as the documents hold it (ZN-GRN-01): the thrower the card
 * names must be owned by the card's author (a card edited to speak for someone else's actor is
 * refused), and the item must be a grenade of that actor marked thrown. The stats come from the
 * item, never from the card's flags.
 * @throws FrayError `FRAY.Flow.Error.CardForged` when the card's author does not own the thrower,
 *   `FRAY.Zones.BlastCard.NoGrenade` when the item is missing, not a grenade or not thrown.
 */
async function thrownGrenadeOf(message: MessageDoc, state: BlastState): Promise<{ actor: ActorDoc; item: ItemDoc; weapon: ZonesWeapon }> {
  const actor = typeof state.actorUuid === "string" ? await actorOf(state.actorUuid) : undefined;
  const author = (message as unknown as { author?: { id?: string | null; isGM?: boolean } | null }).author;
  if (!actor || !author || !(author.isGM || actor.testUserPermission?.(author, "OWNER"))) {
    throw new FrayError("FRAY.Flow.Error.CardForged", {}, "The blast card's thrower is not its author's");
  }
  const item = typeof state.itemId === "string" ? actor.items?.get(state.itemId) : undefined;
  const source = item ? ((item.toObject?.() ?? item) as unknown as ZonesItemSource) : undefined;
  let weapon: ZonesWeapon | undefined;
  try {
    weapon = source ? zonesWeaponFromItem(source) : undefined;
  } catch {
    weapon = undefined;
  }
  if (!item || !weapon || weapon.kind !== "grenade" || !weapon.thrown) {
    throw new FrayError("FRAY.Zones.BlastCard.NoGrenade", { actor: actor.name ?? "" }, "No thrown grenade behind this card");
  }
  return { actor, item, weapon };
}

/**
 * The active GM applies a blast (ZN-GRN-01): the grenade's radii and damage read from its item on
 * the thrower (kept there, marked thrown, since the throw); who is caught and how far, recomputed
 * from where the blast lands ({@link blastCentre}: the template only when a GM moved it last, else
 * the landing point recorded on the item; a template a player moved is put back there, with a
 * warning) and the tokens on the scene; the GM's ticks (grenade-proof
 * cover, full body armor); the shock wave rolled here; then killed, incapacitated (or killed, as
 * the world's **Grenade casualty radius** says) or the shock wave's hit points written, the card
 * updated with what each took (kept for undo), and the grenade item removed.
 * @returns a refusal for a requester who is not a GM, a message without a blast, one applied
 *   already, a card whose author does not own the thrower, or a grenade item missing or not thrown.
 */
export async function handleBlastApply(data: Dict, requester: Requester): Promise<RequestAnswer> {
  if (!requester.isGM) return refusal("FRAY.Zones.BlastCard.GMOnly");
  const message = messageOf(data.messageId);
  const state = blastStateOf(message);
  if (!message?.id || !state) return refusal("FRAY.Flow.Error.Refused");
  const marker = blastKey(message.id);
  if (state.applied || appliedTo(marker)) return refusal("FRAY.Zones.BlastCard.AlreadyApplied");
  const thrown = await thrownGrenadeOf(message, state);
  const grenade: BlastGrenade = {
    name: thrown.weapon.name,
    effectiveRadius: thrown.weapon.effectiveRadius,
    casualtyRadius: thrown.weapon.casualtyRadius,
    damage: thrown.weapon.damage,
  };
  const ticks = readTicks(data.ticks);
  const ppm = pixelsPerMetre(grid());
  const source = (thrown.item.toObject?.() ?? thrown.item) as { flags?: { fray?: Dict } };
  const recorded = thrown.item.getFlag?.("fray", LANDING_FLAG) ?? source.flags?.fray?.[LANDING_FLAG];
  const template = templateOf(state);
  const { centre, ignoredMove } = blastCentre(template, recorded, state.centre, isGMUser);
  if (ignoredMove) {
    warn("FRAY.Zones.BlastCard.PlayerMoved");
    await template?.update?.({ x: centre.x, y: centre.y });
  }
  const rows = rowsFor(centre, grenade, ppm).map((r) => ({
    ...r,
    grenadeProof: ticks[r.tokenId]?.grenadeProof ?? false,
    fullBody: ticks[r.tokenId]?.fullBody ?? r.fullBody,
  }));
  const dice = new FoundryRoller();
  const options = optionValues("zones") as unknown as Parameters<typeof resolveBlast>[3];
  const grenadeWeapon = thrown.weapon;
  const { ruleset } = zonesBinding();
  for (const [i, row] of rows.entries()) {
    const actor = await actorOf(row.actorUuid);
    if (!actor) continue;
    const c = withFullBody(combatantOfActor(actor), row.fullBody);
    const [outcome] = await resolveBlast(
      grenadeWeapon,
      [{ combatant: c, distance: row.distance, cover: row.grenadeProof ? "grenadeProof" : "none" }],
      dice,
      options,
    );
    if (!outcome) continue;
    row.effect = outcome.effect;
    row.reason = outcome.reason;
    row.hpBefore = c.hp.value;
    row.hpAfter = outcome.after.hp.value;
    row.added = outcome.after.conditions.filter((x) => !c.conditions.includes(x));
    const delta = deltaOf(ruleset.vitals(c), ruleset.vitals(outcome.after));
    if (row.hpAfter === row.hpBefore && !delta.added.length) continue;
    // What the blast did to this victim goes into its ledger, which the undo reads (never the card).
    const key = `${marker}-${row.tokenId.replace(/[^A-Za-z0-9]/g, "")}`;
    const entry: LedgerEntry = { stamp: foundry.utils.randomID(), messageId: message.id, index: i, delta, undone: false };
    await actor.update?.({ "system.hp.value": row.hpAfter, ...ledgerUpdate(key, entry) });
    await recordApplied(key, actor.uuid);
    for (const id of row.added) await actor.toggleStatusEffect?.(id, { active: true });
  }
  await recordApplied(marker, thrown.actor.uuid);
  const itemSource = thrown.item.toObject?.() ?? {
    _id: thrown.item.id,
    name: thrown.item.name,
    type: "weapon",
    system: thrown.item.system,
  };
  const next: BlastState = { ...state, grenade, itemSource, centre, rows, applied: true };
  await message.update({ "flags.fray.zonesBlast": next, content: await renderBlastCard(next) });
  await thrown.item.delete?.();
  return { ok: true };
}

/**
 * The active GM undoes an applied blast (ZN-GRN-01, ZN-ZON-02): each victim the world's index
 * lists for this blast gets back what its own ledger entry says the blast took, clamped to its
 * hit points' maximum, later changes left standing; the conditions follow the vitals after
 * (incapacitated stays while the hit points are at 0 or below); the grenade item comes back to
 * the thrower, still marked thrown, so the GM can apply again (RULES.md). Nothing is read from
 * the card's rows, which its author may edit.
 */
export async function handleBlastUndo(data: Dict, requester: Requester): Promise<RequestAnswer> {
  if (!requester.isGM) return refusal("FRAY.Zones.BlastCard.GMOnly");
  const message = messageOf(data.messageId);
  const state = blastStateOf(message);
  if (!message?.id || !state) return refusal("FRAY.Flow.Error.Refused");
  const marker = blastKey(message.id);
  if (!appliedTo(marker)) return refusal("FRAY.Zones.BlastCard.NotApplied");
  const { ruleset } = zonesBinding();
  const rules = cardRulesOf("zones").vitals;
  for (const [key, uuid] of appliedEntries(`${marker}-`)) {
    const actor = await actorOf(uuid);
    const entry = actor ? ledgerEntry(actor, key) : undefined;
    if (!actor || !entry || entry.undone) continue;
    const current = ruleset.vitals(combatantOfActor(actor));
    const after = undoneState(current, entry.delta, rules);
    await actor.update?.({ ...ruleset.vitalsUpdate(after), ...ledgerUpdate(key, { ...entry, undone: true }) });
    const changed = statusChanges(current, after, entry.delta, rules);
    for (const id of changed.add) await actor.toggleStatusEffect?.(id, { active: true });
    for (const id of changed.remove) await actor.toggleStatusEffect?.(id, { active: false });
  }
  await forgetApplied(marker);
  await restoreGrenade(message, state);
  const rows = state.rows.map(({ effect: _e, reason: _r, hpBefore: _b, hpAfter: _a, added: _d, ...rest }) => rest);
  const { itemSource: _s, ...kept } = state;
  const next: BlastState = { ...kept, rows, applied: false };
  await message.update({ "flags.fray.zonesBlast": next, content: await renderBlastCard(next) });
  return { ok: true };
}

/** The key of a blast card in the world's index of applied attacks; its victims' keys extend it. */
function blastKey(messageId: string): string {
  return `${ledgerPrefix(messageId)}blast`;
}

/** Zones' binding, for its ruleset's vitals. */
function zonesBinding() {
  const binding = registry.get("zones");
  if (!binding) throw new FrayError("FRAY.Error.Field", { field: "ruleset", expected: "zones" }, "Zones is not registered");
  return binding;
}

/**
 * Gives the thrower back the grenade item an applied blast removed (ZN-GRN-01), marked thrown and
 * with its id, when the card's author owns the thrower and the item is not there already. Only
 * the `thrown` mark is set here; the rest is the item as the GM read it at the apply.
 */
async function restoreGrenade(message: MessageDoc, state: BlastState): Promise<void> {
  const actor = typeof state.actorUuid === "string" ? await actorOf(state.actorUuid) : undefined;
  const author = (message as unknown as { author?: { isGM?: boolean } | null }).author;
  if (!actor || !author || !(author.isGM || actor.testUserPermission?.(author, "OWNER"))) return;
  const source = state.itemSource;
  if (!source || typeof source !== "object" || source.type !== "weapon") return;
  if (typeof state.itemId === "string" && actor.items?.get(state.itemId)) return;
  const system = { ...((source.system as Dict | undefined) ?? {}), thrown: true };
  await actor.createEmbeddedDocuments?.("Item", [{ ...source, _id: state.itemId, system }], { keepId: true });
}

/** Request names of the blast card. */
export const BLAST_QUERIES = { apply: "fray.zones.blastApply", undo: "fray.zones.blastUndo" } as const;

/**
 * Presses Apply or Undo on a blast card: sends the ticks to the active GM, who recomputes the
 * rest. Shows the GM's refusal as a localized error.
 * @throws FrayError with the GM's refusal.
 */
export async function blastAction(
  message: MessageDoc,
  action: "apply" | "undo",
  ticks: Record<string, { grenadeProof: boolean; fullBody?: boolean }> = {},
): Promise<boolean> {
  const answer = await askGM(BLAST_QUERIES[action], { messageId: message.id, ticks });
  return queryAnswer(answer);
}

/** Reads the ticks of a rendered card. */
function ticksOf(html: HTMLElement): Record<string, { grenadeProof: boolean; fullBody: boolean }> {
  const out: Record<string, { grenadeProof: boolean; fullBody: boolean }> = {};
  for (const row of Array.from(html.querySelectorAll<HTMLElement>("[data-blast-token]"))) {
    const id = row.dataset.blastToken ?? "";
    const box = (name: string) => Boolean(row.querySelector<HTMLInputElement>(`input[name="${name}"]`)?.checked);
    out[id] = { grenadeProof: box("grenadeProof"), fullBody: box("fullBody") };
  }
  return out;
}

/** `renderChatMessageHTML`: wires a blast card's Apply and Undo (GM only; players see the card without them). */
export function onRenderBlastCard(message: MessageDoc, html: HTMLElement): void {
  if (!blastStateOf(message)) return;
  const buttons = Array.from(html.querySelectorAll<HTMLButtonElement>("[data-zones-blast]"));
  for (const button of buttons) {
    if (!game.user?.isGM) {
      button.remove();
      continue;
    }
    button.addEventListener("click", (event) => {
      event.preventDefault();
      const action = button.dataset.zonesBlast === "undo" ? "undo" : "apply";
      blastAction(message, action, ticksOf(html)).catch((err: unknown) => {
        if (err instanceof FrayError) ui.notifications?.error(game.i18n!.format(err.key, err.data as Record<string, string>));
        else console.error("Fray | blast", err);
      });
    });
  }
}
