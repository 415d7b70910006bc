/**
 * Token movement in combat: the round's budget (UD-MOV-01 to UD-MOV-03) refused past full
 * movement when the world says so (`preMoveToken`), movement spending the combatant's economy
 * (full movement spends the action too), and moving away from engaged melee opponents offering
 * Flee (UD-OPT-01: each gets a free attack) or Retreat (UD-OPT-02: the round's movement, action
 * and reaction) (`moveToken`).
 */
import type { ActionCost } from "../../rules/core/economy.js";
import { disengage, isIncapacitated, movementCharge, movementCost, movementPaid, ud10, ud10Options, type Ud10Combatant } from "../../rules/ud10/index.js";
import { actorSource } from "../attack.js";
import { postFreeAttackPrompt } from "../chat/free-attack.js";
import { activeCombat, combatantFor, spendAvailable, type CombatantLike } from "../combat/economy-store.js";
import { moveEvent } from "../logic/economy.js";
import { disengageChoices, leftBehind, type Placed } from "../logic/engagement.js";
import { BAND_LABELS, bandFor, refuseMove, type BeyondFullPolicy } from "../logic/ruler.js";
import { toMetres } from "../measure.js";
import { formatHtml, formatKey, warn } from "../notify.js";
import { beyondFullPolicy, ud10OptionValues } from "../settings.js";
import { ud10CombatantFromActor } from "../sources.js";

/** A token position as movement data gives it (top-left in pixels, size in grid spaces). */
interface Position {
  x: number;
  y: number;
  width?: number;
  height?: number;
}

/** A path section of a movement. */
interface Section {
  cost?: number;
  distance?: number;
}

/** The movement data the hooks read. */
interface MovementLike {
  origin: Position;
  destination: Position;
  passed?: Section;
  pending?: Section;
}

/** A TokenDocument as the hooks read it. */
interface TokenDocLike {
  id: string | null;
  uuid: string;
  name: string | null;
  x: number;
  y: number;
  width: number;
  height: number;
  disposition: number;
  actor: Actor.Implementation | null;
  parent?: { id: string | null } | null;
}

function combatantOf(doc: TokenDocLike): CombatantLike | undefined {
  if (!activeCombat()?.started) return undefined;
  return combatantFor(doc.actor, doc.id);
}

function statsOf(doc: TokenDocLike): Ud10Combatant | undefined {
  if (!doc.actor) return undefined;
  try {
    return ud10CombatantFromActor(actorSource(doc.actor));
  } catch {
    return undefined;
  }
}

/** Metres along a path of positions, measured on the scene's grid. */
function pathMetres(points: readonly Position[]): number {
  if (!canvas?.grid || points.length < 2) return 0;
  const path = canvas.grid.measurePath(points.map((p) => ({ x: p.x, y: p.y })), {});
  return toMetres(path.cost ?? path.distance, canvas.grid.units);
}

/** What the movement hook stored for the round: metres moved and what that movement paid. */
interface MovedFlag {
  round?: number;
  metres?: number;
  paid?: ActionCost;
}

/**
 * What this token's combatant moved earlier this round, as the movement hook counted it
 * (`flags.fray.moved` of the round): the one source the ruler and both movement hooks read.
 * Nothing stored for this round is nothing moved yet.
 */
export function movedThisRound(combatant: CombatantLike | undefined): { metres: number; paid?: ActionCost } {
  const stored = combatant?.getFlag("fray", "moved") as MovedFlag | undefined;
  if (!stored || stored.round !== activeCombat()?.round || typeof stored.metres !== "number") return { metres: 0 };
  return { metres: stored.metres, paid: stored.paid };
}

/** Metres of the movement being made. */
function movementMetres(movement: MovementLike): number {
  const units = canvas?.grid?.units;
  const part = (s: Section | undefined) => s?.cost ?? s?.distance ?? 0;
  const grid = part(movement.passed) + part(movement.pending);
  return grid ? toMetres(grid, units) : pathMetres([movement.origin, movement.destination]);
}

/**
 * `preMoveToken`: with the `refuse` setting, a move that would end past full movement this round
 * is refused with a localized notification (UD-MOV-03).
 */
export function onPreMoveToken(doc: TokenDocLike, movement: MovementLike): boolean | void {
  const policy: BeyondFullPolicy = beyondFullPolicy();
  const combatant = combatantOf(doc);
  if (policy !== "refuse" || !combatant) return;
  const stats = statsOf(doc);
  if (!stats) return;
  const total = movedThisRound(combatant).metres + movementMetres(movement);
  if (refuseMove(policy, total, stats)) {
    const bands = ud10.movement(stats, {});
    warn("FRAY.Flow.Move.Refused", { token: doc.name ?? "", metres: Math.round(total * 10) / 10, full: bands[bands.length - 1]!.maxMetres });
    return false;
  }
}

/** Center of a position in metres. */
function centreMetres(p: Position): { x: number; y: number } {
  const grid = canvas!.grid!;
  const scale = toMetres(grid.distance, grid.units) / grid.size;
  return { x: (p.x + ((p.width ?? 1) * grid.size) / 2) * scale, y: (p.y + ((p.height ?? 1) * grid.size) / 2) * scale };
}

/** Another token of the combat: its placed point, document and stats. */
interface Other {
  placed: Placed;
  doc: TokenDocLike;
  stats?: Ud10Combatant;
}

/** The other tokens of the combat as placed points, with their documents. */
function othersInCombat(mover: TokenDocLike): Other[] {
  const out: Other[] = [];
  for (const c of Array.from((activeCombat()?.combatants ?? []) as Iterable<{ token?: TokenDocLike | null; defeated?: boolean }>)) {
    const doc = c.token;
    if (!doc || doc.id === mover.id) continue;
    const stats = statsOf(doc);
    const out_ = Boolean(c.defeated) || (stats ? isIncapacitated(stats) : false);
    out.push({ placed: { id: doc.id ?? "", disposition: doc.disposition, ...centreMetres(doc), out: out_ }, doc, stats });
  }
  return out;
}

/**
 * `moveToken` on the client that moved the token. When the move leaves engaged opponents and the
 * fleeing or retreat option is on, asks Flee or Retreat and takes the core's disengagement
 * (UD-OPT-01: each left opponent gets a free attack; UD-OPT-02: the whole round). Then spends
 * the core's charge for the move, the disengagement's cost included (UD-MOV-02, UD-MOV-03): a
 * 1.5 m step away while fleeing pays the movement.
 */
export async function onMoveToken(doc: TokenDocLike, movement: MovementLike, _operation: unknown, user: { id: string | null }): Promise<void> {
  if (user.id !== game.user?.id) return;
  const combatant = combatantOf(doc);
  const stats = statsOf(doc);
  if (!combatant || !stats || !canvas?.grid) return;
  const moved = movementMetres(movement);
  const before = movedThisRound(combatant);
  const options = ud10Options(ud10OptionValues());
  const left = disengageChoices(options).length ? leftOpponents(doc, movement) : [];
  const choice = left.length ? await askDisengage(doc.name ?? "", left.length, disengageChoices(options)) : undefined;
  const d = choice ? disengage(left.filter((o) => o.stats).map((o) => o.stats!), choice, options) : undefined;
  const charge = movementCharge(stats, before.metres, before.metres + moved, { paid: before.paid, also: d?.cost });
  const paid = movementPaid(before.paid ?? movementCost(stats, before.metres), charge);
  if (combatant.isOwner) await combatant.setFlag("fray", "moved", { round: activeCombat()?.round ?? 0, metres: before.metres + moved, paid });
  if (charge.slots) {
    const short = await spendAvailable(combatant, moveEvent(charge), { fromMetres: before.metres, toMetres: before.metres + moved, disengage: d?.mode });
    if (short) warn("FRAY.Flow.Move.OverBudget", { token: doc.name ?? "", band: BAND_LABELS[bandFor(before.metres + moved, stats)] });
  }
  if (d?.mode === "flee") {
    const attackers = left.filter((o) => o.stats && d.freeAttacks.includes(o.stats.id)).map((o) => o.doc);
    await postFreeAttackPrompt({
      moverTokenUuid: doc.uuid,
      moverName: doc.name ?? "",
      attackers: attackers.map((a) => ({ actorUuid: a.actor?.uuid ?? "", tokenUuid: a.uuid, name: a.name ?? "" })),
    });
  } else if (d?.mode === "retreat") {
    await ChatMessage.implementation.create({ content: `<div class="fray fray-card"><p>${formatHtml("FRAY.Flow.Retreat.Done", { token: doc.name ?? "" })} <span class="fray-rule">${d.rule}</span></p></div>` } as never);
  }
}

/** The engaged opponents a move leaves behind (UD-OPT-01, UD-OPT-02). */
function leftOpponents(doc: TokenDocLike, movement: MovementLike): Other[] {
  const mover: Placed = { id: doc.id ?? "", disposition: doc.disposition, ...centreMetres(movement.origin) };
  const others = othersInCombat(doc);
  const left = leftBehind(mover, centreMetres(movement.destination), others.map((o) => o.placed));
  return left.map((p) => others.find((o) => o.placed.id === p.id)!);
}

/** Asks whether the mover flees or retreats; `undefined` when the dialog is closed. */
async function askDisengage(name: string, count: number, choices: ("flee" | "retreat")[]): Promise<"flee" | "retreat" | undefined> {
  const DialogV2 = foundry.applications.api.DialogV2;
  const buttons = choices.map((c, i) => ({
    action: c,
    label: c === "flee" ? "FRAY.Flow.Flee.Button" : "FRAY.Flow.Retreat.Button",
    default: i === 0,
  }));
  const result = await DialogV2.wait({
    window: { title: formatKey("FRAY.Flow.Disengage.Title") },
    content: `<p>${formatHtml("FRAY.Flow.Disengage.Prompt", { token: name, count })}</p>`
      + (choices.includes("flee") ? `<p>${formatKey("FRAY.Flow.Flee.Hint")} <span class="fray-rule">UD-OPT-01</span></p>` : "")
      + (choices.includes("retreat") ? `<p>${formatKey("FRAY.Flow.Retreat.Hint")} <span class="fray-rule">UD-OPT-02</span></p>` : ""),
    buttons,
    rejectClose: false,
  } as never);
  return result === "flee" || result === "retreat" ? result : undefined;
}
