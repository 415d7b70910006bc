/**
 * The round economy stored on each Combatant (`flags.fray.economy`) and spent by what the
 * combatant does, for the world's ruleset (UD-ACT-01, UD-ACT-02, UD-REA-01, UD-MOV-03, UD-OPT-01,
 * UD-OPT-02, CR-AP-01, ZN-ACT-01): the economy's shape from `ruleset.economy`, costs from
 * `ruleset.actions`, moves from the movement bands (or the binding's `moveCharge`), and what an
 * action leaves behind from `ruleset.afterAction` (UD-ATK-04: the shot spends the aim). Spending
 * on a combatant the user does not own goes through the active GM, who authorizes the requester
 * against the combatant's actor and recomputes the cost from the event's kind through the core:
 * no cost a client sends is ever spent.
 */
import { replaceFlag } from "../logic/flags.js";
import type { ActionDef } from "../../rules/core/contract.js";
import { FrayError } from "../../rules/core/errors.js";
import { affordable, shortfall, spend, type ActionCost, type Economy, type EconomySpec } from "../../rules/core/economy.js";
import type { RulesetOptions } from "../../rules/core/ruleset.js";
import { combatantOf } from "../documents/actor.js";
import type { ActorLike } from "../documents/source.js";
import { bandCharge, FREE_ATTACK_EVENT, reactionCost, readEconomy, spendEvent, toggledSlot, type RoundEvent } from "../logic/economy.js";
import { warn } from "../notify.js";
import { askGM, QUERIES, refusal, type Requester, type RequestAnswer } from "../queries.js";
import { activeBinding, type RulesetBinding } from "../registry.js";
import { optionValues } from "../settings.js";

/** What the store reads and writes on a Combatant. */
export interface CombatantLike {
  id: string | null;
  isOwner: boolean;
  actorId?: string | null;
  tokenId?: string | null;
  actor?: { uuid?: string; id?: string | null } | null;
  combat?: { id: string | null; round?: number } | null;
  getFlag(scope: string, key: string): unknown;
  setFlag(scope: string, key: string, value: unknown): Promise<unknown>;
}

/** A combatant as the world's ruleset plays it: binding, options and the core's combatant. */
export interface RulesetView {
  binding: RulesetBinding<unknown>;
  options: RulesetOptions;
  /** The core's combatant; absent when the actor cannot be read. */
  core?: unknown;
}

/** The world's binding and options, with the core's combatant of this Combatant's actor. */
export function rulesetView(combatant: Pick<CombatantLike, "id" | "actor">): RulesetView {
  const binding = activeBinding();
  const options = optionValues(binding.id);
  const actor = combatant.actor as (ActorLike & object) | null | undefined;
  if (!actor || typeof (actor as Partial<ActorLike>).toObject !== "function") return { binding, options };
  try {
    return { binding, options, core: combatantOf(actor, combatant.id ? { id: combatant.id } : {}, binding) };
  } catch {
    return { binding, options };
  }
}

/**
 * The shape of a stored economy, for a combatant whose actor cannot be read: its slots and pools
 * as stored, labelled `FRAY.Slot.<id>` and `FRAY.Pool.<id>`.
 */
export function specOfStored(stored: unknown): EconomySpec {
  const s = (typeof stored === "object" && stored !== null ? stored : {}) as {
    slots?: Record<string, { max?: unknown }>;
    pools?: Record<string, { max?: unknown }>;
  };
  return {
    slots: Object.entries(s.slots ?? {}).map(([id, v]) => ({
      id,
      label: `FRAY.Slot.${id}`,
      max: typeof v?.max === "number" ? v.max : null,
      rule: "UD-ACT-01",
    })),
    pools: Object.entries(s.pools ?? {}).map(([id, v]) => ({
      id,
      label: `FRAY.Pool.${id}`,
      max: typeof v?.max === "number" ? v.max : 0,
      rule: "CR-AP-01",
    })),
  };
}

/** The economy spec of a combatant under the world's ruleset (`ruleset.economy`), else its stored shape. */
export function economySpecOf(combatant: CombatantLike, view: RulesetView = rulesetView(combatant)): EconomySpec {
  if (view.core !== undefined) {
    try {
      return view.binding.ruleset.economy(view.core, view.options);
    } catch {
      // Fall through to the stored shape.
    }
  }
  return specOfStored(combatant.getFlag("fray", "economy"));
}

/** The actions a combatant can take this round (`ruleset.actions`); none when its actor cannot be read. */
export function actionsOf(combatant: Pick<CombatantLike, "id" | "actor">, view: RulesetView = rulesetView(combatant)): ActionDef[] {
  if (view.core === undefined) return [];
  try {
    return view.binding.ruleset.actions(view.core, view.options);
  } catch {
    return [];
  }
}

/** A combatant's economy this round. */
export function economyOf(combatant: CombatantLike): Economy {
  return readEconomy(combatant.getFlag("fray", "economy"), economySpecOf(combatant));
}

/** The active combat as the flow reads it. */
export interface CombatView {
  id: string | null;
  started: boolean;
  round: number;
  combatants: Iterable<unknown> & { get(id: string): unknown };
}

/** The active combat, if any. */
export function activeCombat(): CombatView | undefined {
  return (game.combat ?? undefined) as unknown as CombatView | undefined;
}

/**
 * The combatant of an actor (or its token) in the active combat, when there is one.
 * @param actor the actor acting.
 * @param tokenId its token's id on the combat's scene, when known.
 */
export function combatantFor(
  actor: { id?: string | null; uuid?: string } | null | undefined,
  tokenId?: string | null,
): CombatantLike | undefined {
  const combat = activeCombat();
  if (!combat || !actor) return undefined;
  const list = Array.from(combat.combatants) as CombatantLike[];
  return (
    (tokenId ? list.find((c) => c.tokenId === tokenId) : undefined) ??
    list.find((c) => c.actor?.uuid === actor.uuid || c.actorId === actor.id)
  );
}

/**
 * What a move covered, for the GM to recompute its charge through the core (UD-MOV-02, UD-MOV-03,
 * UD-OPT-01, UD-OPT-02, ZN-MOV-01): metres moved this round before and after it, and the
 * disengagement taken (an action id of kind `move` of the ruleset, UD10's `flee` or `retreat`).
 */
export interface MoveBasis {
  fromMetres: number;
  toMetres: number;
  disengage?: string;
}

/**
 * The charge of a move for a combatant (UD-MOV-02, UD-MOV-03, ZN-MOV-01, CR-MOV-02): the binding's
 * `moveCharge` when it has one, else the ruleset's movement bands; a disengagement's cost (its
 * action of kind `move`, UD-OPT-01, UD-OPT-02) folded in; beyond `paid`, what the round's
 * movement paid already, when known.
 * @throws FrayError `FRAY.Error.Field` naming `move.disengage` for an id that is no such action.
 */
export function moveCharge(view: RulesetView, basis: MoveBasis, paid?: ActionCost): ActionCost {
  if (view.core === undefined) return {};
  const { binding, options, core } = view;
  let also: ActionCost = {};
  if (basis.disengage !== undefined) {
    const def = binding.ruleset.actions(core, options).find((a) => a.id === basis.disengage && a.kind === "move");
    if (!def)
      throw new FrayError(
        "FRAY.Error.Field",
        { field: "move.disengage", expected: "a disengagement of the ruleset" },
        `Field "move.disengage": no such disengagement`,
      );
    also = def.cost;
  }
  if (binding.moveCharge) return binding.moveCharge(core, basis.fromMetres, basis.toMetres, { also, ...(paid ? { paid } : {}) }, options);
  return bandCharge(
    (m) => binding.ruleset.movementBand(core, m, options),
    binding.ruleset.movement(core, options),
    basis.fromMetres,
    basis.toMetres,
    also,
    paid,
  );
}

/** Applies the conditions a lifecycle transition set or cleared to the actor's status effects (UD-ATK-04 aim). */
async function applyConditions(actor: unknown, before: unknown, after: unknown): Promise<void> {
  const list = (c: unknown) =>
    new Set(
      Array.isArray((c as { conditions?: unknown })?.conditions)
        ? ((c as { conditions: unknown[] }).conditions.filter((x) => typeof x === "string") as string[])
        : [],
    );
  const was = list(before);
  const now = list(after);
  const toggle = (actor as { toggleStatusEffect?(id: string, options: { active: boolean }): Promise<unknown> } | null)?.toggleStatusEffect;
  if (!toggle) return;
  for (const id of was) if (!now.has(id)) await toggle.call(actor, id, { active: false });
  for (const id of now) if (!was.has(id)) await toggle.call(actor, id, { active: true });
}

/**
 * Why the ruleset refuses an action of this combatant as things stand, before anything is spent
 * (HB-DMG-04: a combatant in shock has no actions, not even quick ones, HB-ACT-03): the
 * `FrayError` its `afterAction` throws for the action on the current economy, or `undefined`
 * when it allows it (or the actor cannot be read).
 */
export function actionRefusal(combatant: CombatantLike, action: string, view: RulesetView = rulesetView(combatant)): FrayError | undefined {
  if (view.core === undefined) return undefined;
  try {
    view.binding.ruleset.afterAction(view.core, { kind: "action", id: action }, economyOf(combatant), view.options);
    return undefined;
  } catch (err) {
    return err instanceof FrayError ? err : undefined;
  }
}

/**
 * Pays a cost and runs the ruleset's `afterAction` for an action or attack (UD-ATK-04: the shot
 * spends the aim, aiming sets it; CR-AP-01, ZN-MOV-01 pools it changes), writing the conditions it
 * changed onto the actor. Returns the economy to store, or the slot that was short.
 */
async function payAndSettle(
  combatant: CombatantLike,
  view: RulesetView,
  event: RoundEvent,
  cost: ActionCost,
): Promise<{ economy?: Economy; short?: string }> {
  const before = economyOf(combatant);
  const short = shortfall(before, cost);
  if (short) return { short };
  let economy = spend(before, cost);
  if ((event.kind === "attack" || event.kind === "action") && event.action && view.core !== undefined) {
    try {
      const outcome = event.outcome ?? { kind: "action", id: event.action };
      const state = view.binding.ruleset.afterAction(view.core, outcome, economy, view.options);
      economy = state.economy;
      await applyConditions(combatant.actor, view.core, state.combatant);
    } catch (err) {
      console.warn("Fray | afterAction", err);
    }
  }
  return { economy };
}

/**
 * Spends an event on a combatant's economy: on the owner's client directly, else through the
 * active GM (request `fray.spend` with the event's kind, never its cost). An action's or
 * attack's cost is taken from the ruleset's `actions()` when the combatant's actor can be read.
 * @param basis for a move, what it covered (the GM recomputes the charge from it).
 * @returns the slot that was short (nothing spent), or `undefined` when paid.
 */
export async function spendOn(combatant: CombatantLike, event: RoundEvent, basis?: MoveBasis): Promise<string | undefined> {
  if (combatant.isOwner) {
    const view = rulesetView(combatant);
    const cost = eventCostFor(view, combatant, event);
    const { economy, short } = await payAndSettle(combatant, view, event, cost);
    if (short) return short;
    await replaceFlag(combatant, "economy", economy);
    return undefined;
  }
  const { short } = spendEvent(economyOf(combatant), { ...event, cost: eventCostFor(rulesetView(combatant), combatant, event) });
  if (short) return short;
  const answer = await askGM(QUERIES.spend, {
    combatId: combatant.combat?.id ?? "",
    combatantId: combatant.id ?? "",
    kind: event.kind,
    action: event.action,
    move: basis,
  });
  return answer?.short ?? (answer?.ok ? undefined : "refused");
}

/** An event's cost on the owner's side: an action's from the ruleset's actions when known, else the event's. */
function eventCostFor(view: RulesetView, combatant: CombatantLike, event: RoundEvent): ActionCost {
  if ((event.kind === "attack" || event.kind === "action") && event.action) {
    const def = actionsOf(combatant, view).find((a) => a.id === event.action);
    if (def) return def.cost;
  }
  return event.cost ?? {};
}

function finite(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * The cost of a requested event, recomputed through the core from its kind: an action's cost
 * from the ruleset's `actions()` (UD-ACT-02, CR-AP-01, ZN-ACT-01), a reaction's (UD-REA-01: the
 * ruleset's reaction action), nothing for a free attack (UD-OPT-01), a move's charge from the
 * metres it covered and the disengagement's cost (UD-MOV-02, UD-MOV-03, UD-OPT-01, UD-OPT-02).
 * @throws FrayError `FRAY.Error.Field` naming the field that does not describe an event.
 */
export function requestedCost(
  data: Record<string, unknown>,
  combatant: Pick<CombatantLike, "id" | "actor">,
  view: RulesetView = rulesetView(combatant),
): ActionCost {
  const bad = (field: string, expected: string) =>
    new FrayError("FRAY.Error.Field", { field, expected }, `Field "${field}": expected ${expected}`);
  switch (data.kind) {
    case "attack":
    case "action": {
      const def = typeof data.action === "string" ? actionsOf(combatant, view).find((a) => a.id === data.action) : undefined;
      if (!def) throw bad("action", "one of the ruleset's actions");
      return def.cost;
    }
    case "freeAttack":
      return FREE_ATTACK_EVENT.cost;
    case "reaction":
      return reactionCost(actionsOf(combatant, view), typeof data.action === "string" ? data.action : undefined);
    case "move": {
      const move = (data.move ?? {}) as Record<string, unknown>;
      const from = finite(move.fromMetres);
      const to = finite(move.toMetres);
      if (from === undefined || to === undefined || to < from) throw bad("move", "metres moved this round, before and after, 0 or more");
      const mode = move.disengage;
      if (mode !== undefined && typeof mode !== "string") throw bad("move.disengage", "a disengagement of the ruleset");
      return moveCharge(view, { fromMetres: from, toMetres: to, disengage: mode });
    }
    default:
      throw bad("kind", "attack, action, freeAttack, reaction or move");
  }
}

/**
 * The active GM's side of {@link spendOn}: the requester must own the combatant's actor (or be a
 * GM); the cost is recomputed from the event's kind ({@link requestedCost}); a shortfall spends
 * nothing; an action runs the ruleset's `afterAction` as on the owner's side.
 */
export async function handleSpendQuery(data: Record<string, unknown>, requester: Requester): Promise<RequestAnswer> {
  const combat = game.combats?.get(String(data.combatId)) as unknown as
    { combatants: { get(id: string): CombatantLike | undefined } } | undefined;
  const combatant = combat?.combatants.get(String(data.combatantId));
  if (!combatant) return refusal("FRAY.Flow.Error.Refused");
  const actor = combatant.actor as
    (CombatantLike["actor"] & { testUserPermission?(user: unknown, level: "OWNER"): boolean }) | null | undefined;
  const user = (game.users as unknown as { get(id: string): unknown } | undefined)?.get(requester.id);
  if (!requester.isGM && !(actor && user && actor.testUserPermission?.(user, "OWNER"))) {
    return refusal("FRAY.Flow.Error.NotYourCombatant");
  }
  const view = rulesetView(combatant);
  const cost = requestedCost(data, combatant, view);
  const kind = data.kind === "attack" || data.kind === "action" ? data.kind : "reaction";
  const event: RoundEvent = { kind, action: typeof data.action === "string" ? data.action : undefined, cost };
  const { economy, short } = await payAndSettle(
    combatant,
    view,
    data.kind === "move" || data.kind === "freeAttack" ? { ...event, kind: "move" } : event,
    cost,
  );
  if (short) return { ok: false, short };
  await replaceFlag(combatant, "economy", economy);
  return { ok: true };
}

/**
 * Spends an event, or when the economy is short, what it can still pay of it (a move or a
 * retreat already made is paid as far as the round allows, UD-MOV-03, UD-OPT-02).
 * @returns the slot that was short, or `undefined` when fully paid.
 */
export async function spendAvailable(combatant: CombatantLike, event: RoundEvent, basis?: MoveBasis): Promise<string | undefined> {
  const short = await spendOn(combatant, event, basis);
  if (!short) return undefined;
  const part = affordable(economyOf(combatant), event.cost);
  // What is still affordable is only spent on the owner's client: the GM spends whole events.
  if ((part.slots || part.pools) && combatant.isOwner) await spendOn(combatant, { ...event, cost: part });
  return short;
}

/**
 * The GM marks one slot of a combatant's round (movement, action, reaction) used or unused from
 * the tracker's pips (UD-ACT-01, UD-REA-01), to correct what play spent. Players are refused
 * with a localized warning.
 * @returns true when the economy was written.
 */
export async function toggleSlotOn(combatant: CombatantLike, slot: string): Promise<boolean> {
  if (!game.user?.isGM) {
    warn("FRAY.Flow.Tracker.GMOnly");
    return false;
  }
  const before = economyOf(combatant);
  const after = toggledSlot(before, slot);
  if (after === before) return false;
  await replaceFlag(combatant, "economy", after);
  return true;
}
