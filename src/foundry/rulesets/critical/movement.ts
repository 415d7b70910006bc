/**
 * Critical's movement in Foundry (CR-MOV-01, CR-MOV-02): the ruler's bands are the core's Base
 * Move multiples, as far as the AP left this round reach (the Base Move free, each further BM
 * 1 AP); a move that leaves an engaged foe behind fails unless the GM lets it pass.
 *
 * Leaving melee goes through the GM, trusting no client: on a player's client the move is held
 * (`preMoveToken` returns false) and the active GM is asked (`fray.critical.leaveMelee`, carried
 * by the requester's own User, so the server vouches for who asks). The GM's client checks the
 * requester owns the token, recomputes from the scene's documents which foes the move leaves,
 * asks the GM whether they oppose it, and makes the move itself when the GM lets it pass; the
 * move is charged on the GM's client as any move is. A client that skips its own hook and moves
 * anyway is caught by the active GM's `moveToken`: a player's move that left an engaged foe is
 * put back where it started (without a charge) and the GM told. Only a GM's move escapes that check:
 * the revert option (`fray.revert`) a player's client passes with its update counts for nothing.
 */
import type { MovementBand, RulesetOptions } from "../../../rules/core/ruleset.js";
import { critical } from "../../../rules/critical/index.js";
import type { CriticalCombatant } from "../../../rules/critical/model.js";
import { meleeLeft, movedThisRound, REVERT_MOVE, type MovementLike, type Position, type TokenDocLike } from "../../canvas/movement.js";
import { activeCombat, combatantFor, economyOf } from "../../combat/economy-store.js";
import { formatHtml, reportError, warn, windowTitle } from "../../notify.js";
import { askGM, isActiveGM, queryAnswer, refusal, type RequestAnswer, type Requester } from "../../queries.js";

/** The GM request that asks leave to move away from engaged foes. */
export const LEAVE_MELEE_REQUEST = "fray.critical.leaveMelee";

/**
 * The ruler's bands of a Critical combatant (CR-MOV-01, CR-MOV-02): the core's Base Move
 * multiples, cut to those the round's AP still pay for (what this round's movement already paid
 * plus the AP left) when the combatant is in the active combat; all of them outside combat.
 */
export function criticalRulerBands(c: CriticalCombatant, options: RulesetOptions): MovementBand[] {
  const bands = critical.movement(c, options);
  const combat = activeCombat();
  const combatant = combat?.started ? combatantFor({ id: c.id }) : undefined;
  if (!combatant) return bands;
  const left = economyOf(combatant).pools.ap?.value ?? 0;
  const paid = movedThisRound(combatant).paid?.pools?.ap ?? 0;
  return bands.filter((b) => (b.cost.pools?.ap ?? 0) <= paid + left);
}

/** A token document as the leave-melee flow reads and moves it. */
interface MovingToken extends TokenDocLike {
  actor: (Actor.Implementation & { testUserPermission?(user: unknown, level: string): boolean }) | null;
  update(changes: Record<string, unknown>, options?: Record<string, unknown>): Promise<unknown>;
}

/** The foes' names, comma separated. */
const namesOf = (foes: readonly { name: string }[]) => foes.map((f) => f.name).join(", ");

/**
 * `preMoveToken` on the mover's client (CR-MOV-01): a player's move in combat that leaves an
 * engaged foe behind is held and the active GM asked to let it pass; the GM's own moves go
 * through (the GM decides by moving).
 * @returns false to hold the move.
 */
export function onPreMoveToken(doc: MovingToken, movement: MovementLike): boolean | void {
  if (game.user?.isGM) return;
  let left: ReturnType<typeof meleeLeft>;
  try {
    left = meleeLeft(doc, movement.origin ?? doc, movement.destination);
  } catch (err) {
    reportError(err);
    return;
  }
  if (!left.length) return;
  const { x, y } = movement.destination;
  warn("FRAY.Critical.Move.Asking", { token: doc.name ?? "", foes: namesOf(left) });
  void askGM(LEAVE_MELEE_REQUEST, { tokenUuid: doc.uuid, x, y })
    .then((answer) => queryAnswer(answer))
    .catch(reportError);
  return false;
}

/** Asks the GM whether the foes oppose the move; true to let it pass. */
async function askGMToPass(token: string, foes: string, player: string): Promise<boolean> {
  const result = await foundry.applications.api.DialogV2.wait({
    window: { title: windowTitle("FRAY.Critical.Move.Title", { token }) },
    content: `<p>${formatHtml("FRAY.Critical.Move.Prompt", { token, foes, player })}</p><p class="fray-rule">CR-MOV-01</p>`,
    buttons: [
      { action: "opposed", label: "FRAY.Critical.Move.Opposed", default: true },
      { action: "pass", label: "FRAY.Critical.Move.Pass" },
    ],
    rejectClose: false,
  } as never);
  return result === "pass";
}

/**
 * The active GM's handler of {@link LEAVE_MELEE_REQUEST} (CR-MOV-01): the requester must own the
 * token's actor; the point must be a pair of finite numbers; the foes left are recomputed from
 * the scene as it is now. With none the move is made; else the GM is asked, and the move is made
 * only when the GM lets it pass (a closed prompt fails it, as an opposed move does).
 */
export async function handleLeaveMelee(data: Record<string, unknown>, requester: Requester): Promise<RequestAnswer> {
  const x = Number(data.x);
  const y = Number(data.y);
  if (typeof data.tokenUuid !== "string" || !Number.isFinite(x) || !Number.isFinite(y))
    return refusal("FRAY.Error.Field", { field: "move", expected: "a token and a point" });
  const doc = (await foundry.utils.fromUuid(data.tokenUuid as never)) as unknown as MovingToken | null;
  const user = (game.users as unknown as { get(id: string): unknown } | undefined)?.get(requester.id);
  if (!doc?.actor || !user || !doc.actor.testUserPermission?.(user, "OWNER"))
    return refusal("FRAY.Critical.Move.NotOwner", { token: doc?.name ?? "" });
  const destination: Position = { x, y, width: doc.width, height: doc.height };
  const foes = meleeLeft(doc, doc, destination);
  const player = (user as { name?: string }).name ?? "";
  if (foes.length && !(await askGMToPass(doc.name ?? "", namesOf(foes), player)))
    return refusal("FRAY.Critical.Move.Failed", { token: doc.name ?? "", foes: namesOf(foes) });
  await doc.update({ x, y });
  return { ok: true };
}

/**
 * `moveToken` on the active GM (CR-MOV-01): a move a player made that left an engaged foe behind
 * (their client did not hold it) fails: the token is put back where the move started, without a
 * charge, and the GM told. The GM's own moves, and moves leaving no foe, stand; a player's move
 * carrying the revert option is checked as any other.
 */
export async function onMoveTokenGM(
  doc: MovingToken,
  movement: MovementLike,
  _operation: unknown,
  user: { id: string | null; isGM?: boolean },
): Promise<void> {
  // A GM's move stands, its revert among them; a player's option never skips the check (V1).
  if (!isActiveGM() || user.isGM) return;
  const foes = meleeLeft(doc, movement.origin, movement.destination);
  if (!foes.length) return;
  warn("FRAY.Critical.Move.Reverted", { token: doc.name ?? "", foes: namesOf(foes) });
  await doc.update({ x: movement.origin.x, y: movement.origin.y }, REVERT_MOVE as unknown as Record<string, unknown>);
}
