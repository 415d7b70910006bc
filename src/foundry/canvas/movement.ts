/**
 * Token movement in combat: the round's budget (UD-MOV-01 to UD-MOV-03) refused past full
 * movement when the world says so (`preMoveToken`), movement spending the combatant's economy
 * (full movement spends the action too), and moving away from engaged melee opponents offering
 * Flee (UD-OPT-01: each gets a free attack) or Retreat (UD-OPT-02: the round's movement, action
 * and reaction) (`moveToken`).
 */
import { ud10, ud10Options, type Ud10Combatant } from "../../rules/ud10/index.js";
import { actorSource } from "../attack.js";
import { postFreeAttackPrompt } from "../chat/free-attack.js";
import { activeCombat, combatantFor, exhaust, spendOn, type CombatantLike } from "../combat/economy-store.js";
import { disengageChoices, leftBehind, type Placed } from "../logic/engagement.js";
import { BAND_LABELS, bandFor, movementCharge, refuseMove, type BeyondFullPolicy } from "../logic/ruler.js";
import { toMetres } from "../measure.js";
import { formatKey, warn } from "../notify.js";
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
  movementHistory?: Position[];
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

/**
 * Metres this token's combatant moved earlier this round: what the movement hook counted
 * (`flags.fray.moved` of the round), else the token's movement history.
 */
export function movedThisRound(doc: TokenDocLike, combatant?: CombatantLike): number {
  const stored = combatant?.getFlag("fray", "moved") as { round?: number; metres?: number } | undefined;
  if (stored && stored.round === activeCombat()?.round && typeof stored.metres === "number") return stored.metres;
  if (combatant) return 0;
  return pathMetres(doc.movementHistory ?? []);
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
  const bands = ud10.movement(stats, {});
  const total = movedThisRound(doc, combatant) + movementMetres(movement);
  if (refuseMove(policy, total, bands)) {
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

/** The other tokens of the combat as placed points, with their documents. */
function othersInCombat(mover: TokenDocLike): { placed: Placed; doc: TokenDocLike }[] {
  const out: { placed: Placed; doc: TokenDocLike }[] = [];
  for (const c of Array.from((activeCombat()?.combatants ?? []) as Iterable<{ token?: TokenDocLike | null; defeated?: boolean }>)) {
    const doc = c.token;
    if (!doc || doc.id === mover.id) continue;
    const stats = statsOf(doc);
    const out_ = Boolean(c.defeated) || (stats ? ["unconscious", "incapacitated", "dead"].some((s) => stats.conditions.includes(s)) : false);
    out.push({ placed: { id: doc.id ?? "", disposition: doc.disposition, ...centreMetres(doc), out: out_ }, doc });
  }
  return out;
}

/**
 * `moveToken` on the client that moved the token: spends the economy for the band reached
 * (UD-MOV-02, UD-MOV-03), then, when the move leaves engaged opponents and the fleeing or
 * retreat option is on, asks Flee or Retreat (UD-OPT-01, UD-OPT-02).
 */
export async function onMoveToken(doc: TokenDocLike, movement: MovementLike, _operation: unknown, user: { id: string | null }): Promise<void> {
  if (user.id !== game.user?.id) return;
  const combatant = combatantOf(doc);
  const stats = statsOf(doc);
  if (!combatant || !stats || !canvas?.grid) return;
  const bands = ud10.movement(stats, {});
  const moved = movementMetres(movement);
  const before = movedThisRound(doc, combatant);
  if (combatant.isOwner) await combatant.setFlag("fray", "moved", { round: activeCombat()?.round ?? 0, metres: before + moved });
  const charge = movementCharge(before, before + moved, bands);
  if (charge.slots) {
    const short = await spendOn(combatant, { kind: "move", cost: charge });
    if (short) warn("FRAY.Flow.Move.OverBudget", { token: doc.name ?? "", band: BAND_LABELS[bandFor(before + moved, bands)] });
  }
  const options = ud10Options(ud10OptionValues());
  const choices = disengageChoices(options);
  if (!choices.length) return;
  const mover: Placed = { id: doc.id ?? "", disposition: doc.disposition, ...centreMetres(movement.origin) };
  const others = othersInCombat(doc);
  const left = leftBehind(mover, centreMetres(movement.destination), others.map((o) => o.placed));
  if (!left.length) return;
  const choice = await askDisengage(doc.name ?? "", left.length, choices);
  if (choice === "flee") {
    const attackers = left.map((p) => others.find((o) => o.placed.id === p.id)!.doc);
    await postFreeAttackPrompt({
      moverTokenUuid: doc.uuid,
      moverName: doc.name ?? "",
      attackers: attackers.map((a) => ({ actorUuid: a.actor?.uuid ?? "", tokenUuid: a.uuid, name: a.name ?? "" })),
    });
  } else if (choice === "retreat") {
    await exhaust(combatant, ["movement", "action", "reaction"]);
    await ChatMessage.implementation.create({ content: `<div class="fray fray-card"><p>${formatKey("FRAY.Flow.Retreat.Done", { token: doc.name ?? "" })} <span class="fray-rule">UD-OPT-02</span></p></div>` } as never);
  }
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
    content: `<p>${formatKey("FRAY.Flow.Disengage.Prompt", { token: name, count })}</p>`
      + (choices.includes("flee") ? `<p>${formatKey("FRAY.Flow.Flee.Hint")} <span class="fray-rule">UD-OPT-01</span></p>` : "")
      + (choices.includes("retreat") ? `<p>${formatKey("FRAY.Flow.Retreat.Hint")} <span class="fray-rule">UD-OPT-02</span></p>` : ""),
    buttons,
    rejectClose: false,
  } as never);
  return result === "flee" || result === "retreat" ? result : undefined;
}
