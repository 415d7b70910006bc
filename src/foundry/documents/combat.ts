/**
 * Combat and Combatant for every ruleset, through the world's binding: initiative from the core
 * (UD-INI-01), rolled per group (UD-INI-02, CR-INI-01), re-rolled atomically when a round begins
 * when the ruleset's timing says so (UD-INI-03 keeps it), one summary message per pass. Each
 * Combatant's round economy (UD-ACT-01) is stored in `flags.fray.economy` stamped with its round
 * and written fresh with each new round; an economy stamped with an older round reads as a fresh
 * one, so a missed reset never freezes a combatant.
 */
import type { DiceRoller } from "../../rules/core/dice/port.js";
import { createEconomy, type Economy } from "../../rules/core/economy.js";
import type { RulesetOptions } from "../../rules/core/ruleset.js";
import { FLOW_TEMPLATES } from "../chat/templates.js";
import { specOfStored } from "../combat/economy-store.js";
import { FoundryRoller } from "../dice.js";
import { actingOrder, type DelayRule, type OrderEntry } from "../logic/delay.js";
import { readEconomy, stamped, type StoredEconomy } from "../logic/economy.js";
import {
  compareInitiative,
  groupsOfPass,
  rerollOnNewRound,
  rollTracker,
  summaryRows,
  type InitiativePass,
  type InitiativePlay,
  type SummaryRow,
  type TrackerEntry,
} from "../logic/initiative.js";
import { formatKey, reportError, warn } from "../notify.js";
import { activeBinding, type RulesetBinding } from "../registry.js";
import { optionValues } from "../settings.js";
import { combatantOf } from "./actor.js";
import type { ActorLike } from "./source.js";

/** A Combatant as the combat code reads it. */
interface CombatantView {
  id: string | null;
  name: string | null;
  initiative: number | null;
  actor: (Actor.Implementation & ActorLike) | null;
  flags?: { fray?: { tiebreak?: number[]; economy?: unknown; delay?: unknown } };
}

/** A Combat as the acting order reads it. */
export interface OrderedCombat {
  round?: number;
  combatants?: Iterable<unknown>;
}

/**
 * The round's acting order of a combat's Combatant ids (CR-INI-02, CR-INI-03): initiative, then
 * this round's delays (`flags.fray.delay`) through the ruleset's rule.
 */
export function orderOf(combat: OrderedCombat, rule?: DelayRule, skip?: string): string[] {
  const entries: OrderEntry[] = [];
  for (const raw of Array.from(combat.combatants ?? []) as CombatantView[]) {
    if (!raw.id) continue;
    entries.push({
      id: raw.id,
      initiative: raw.initiative,
      ...(raw.flags?.fray?.tiebreak ? { tiebreak: raw.flags.fray.tiebreak } : {}),
      name: raw.name ?? "",
      delay: raw.flags?.fray?.delay,
    });
  }
  return actingOrder(entries, combat.round ?? 0, rule, skip);
}

/** A binding as the tracker's initiative reads it (combatants carry their Combatant's id). */
function play(binding: RulesetBinding<unknown>): InitiativePlay<{ id: string }> {
  return binding as unknown as InitiativePlay<{ id: string }>;
}

/** Tracker entries for the given combatants that have a readable actor of the world's ruleset. */
function entries(
  binding: RulesetBinding<unknown>,
  combatants: readonly CombatantView[],
  round: number,
  refused?: Map<string, string>,
): TrackerEntry<{ id: string }>[] {
  const out: TrackerEntry<{ id: string }>[] = [];
  for (const c of combatants) {
    if (!c.id || !c.actor) continue;
    // The ruleset may keep a combatant out of this round's roll (ZN-SUR-01: surprised in round 1).
    const refusal = binding.initiativeRefusal?.(c.actor, round, optionValues(binding.id));
    if (refusal) {
      refused?.set(c.id, refusal);
      continue;
    }
    try {
      out.push({ id: c.id, combatant: combatantOf<{ id: string }>(c.actor, { id: c.id }, binding) });
    } catch (err) {
      console.warn(`Fray | ${c.name}: no initiative`, err);
    }
  }
  return out;
}

/**
 * The economy a combatant starts a round with: the ruleset's `startRound` (pools carried over
 * where the ruleset says, ZN-MOV-01 speed points; CR-AP-01 AP refilled; UD-ACT-01 a fresh
 * round), or the previous economy's shape refilled when the actor cannot be read. Stamped with
 * `round`.
 */
export function roundEconomy(
  binding: RulesetBinding<unknown>,
  actor: ActorLike | null,
  previous: unknown,
  round: number,
  options: RulesetOptions,
): StoredEconomy {
  let economy: Economy = createEconomy(specOfStored(previous));
  if (actor) {
    try {
      const c = combatantOf(actor, {}, binding);
      const spec = binding.ruleset.economy(c, options);
      const before = previous === undefined ? undefined : readEconomy(previous, spec);
      economy = binding.ruleset.startRound(c, before, round, options).economy;
    } catch {
      // Unreadable actor: the default economy.
    }
  }
  return stamped(economy, round);
}

/** Deep-merges plain objects (the rows of one embedded update), `b` winning. */
function merge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const prev = out[k];
    out[k] =
      prev && v && typeof prev === "object" && typeof v === "object" && !Array.isArray(v)
        ? merge(prev as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}

/** Hands the actors whose combatants just got initiative to the binding's `afterInitiative`; a failure is reported. */
async function afterInitiative(
  binding: RulesetBinding<unknown>,
  list: readonly CombatantView[],
  updates: readonly Record<string, unknown>[],
) {
  if (!binding.afterInitiative) return;
  const ids = new Set(updates.map((u) => String(u._id)));
  const actors = list.filter((c) => c.id && ids.has(c.id) && c.actor).map((c) => c.actor);
  await binding.afterInitiative(actors, optionValues(binding.id)).catch((err: unknown) => reportError(err));
}

/** Options of `Combat#rollInitiative` (v13). */
export interface RollInitiativeOptions {
  /** A formula that replaces each combatant's own (one roll each, no groups). */
  formula?: string | null;
  /** Keep the turn on the combatant whose turn it was (default true). */
  updateTurn?: boolean;
  /** Data merged into the summary message (`rollMode`, `flavor`, `speaker` ...). */
  messageOptions?: Record<string, unknown>;
}

/** The one chat message summarizing an initiative pass, with the caller's message options. */
async function postSummary(
  rows: SummaryRow[],
  round: number,
  rolls: unknown[],
  messageOptions: Record<string, unknown> = {},
): Promise<void> {
  const content = await foundry.applications.handlebars.renderTemplate(FLOW_TEMPLATES.initiative, {
    title: formatKey("FRAY.Flow.Initiative.Title", { round }),
    rows,
  });
  const { rollMode, ...rest } = messageOptions;
  const data: Record<string, unknown> = { ...rest, content, rolls, sound: CONFIG.sounds.dice };
  if (typeof rollMode === "string") ChatMessage.applyRollMode(data as never, rollMode as never);
  await ChatMessage.implementation.create(data as never);
}

/** The rows of a pass, names by Combatant id. */
function rowsOf(binding: RulesetBinding<unknown>, pass: InitiativePass, combatants: readonly CombatantView[]): SummaryRow[] {
  return summaryRows(binding, pass, new Map(combatants.map((c) => [c.id ?? "", c.name ?? ""])));
}

/**
 * Rolls a given formula once for each requested combatant (`rollInitiative`'s `formula`): no
 * groups, no tie-break values.
 */
async function rollFormula(
  formula: string,
  combatants: readonly CombatantView[],
  requested: readonly string[],
): Promise<{ updates: Record<string, unknown>[]; rows: SummaryRow[]; rolls: unknown[] }> {
  const updates: Record<string, unknown>[] = [];
  const rows: SummaryRow[] = [];
  const rolls: unknown[] = [];
  for (const c of combatants) {
    if (!c.id || !requested.includes(c.id)) continue;
    const data = (c.actor as { getRollData?(): Record<string, unknown> } | null)?.getRollData?.() ?? {};
    const roll = await new Roll(formula, data).evaluate();
    const total = Number(roll.total ?? 0);
    rolls.push(roll);
    updates.push({ _id: c.id, initiative: total, flags: { fray: { tiebreak: [] } } });
    rows.push({ names: c.name ?? c.id, natural: total, modifier: 0, total });
  }
  return { updates, rows, rolls };
}

/** A v13 CombatantGroup as Fray reads it. */
interface GroupView {
  id: string | null;
  getFlag?(scope: string, key: string): unknown;
}

/** A Combat with v13's combatant groups (`combat.groups`, embedded `CombatantGroup`). */
interface GroupedCombat {
  groups?: Iterable<unknown>;
  createEmbeddedDocuments(type: string, data: Record<string, unknown>[]): Promise<unknown[]>;
  updateEmbeddedDocuments(type: string, data: Record<string, unknown>[]): Promise<unknown[]>;
}

/**
 * Puts each group of a pass that shares one roll (UD-INI-02, CR-INI-01) into one v13
 * `CombatantGroup` with the shared initiative, found again by its members (`flags.fray.groupKey`)
 * or created, and returns the `group` of each member for the Combatant updates. Nothing on a
 * Combat without `groups` (before v13).
 * @returns Combatant id to CombatantGroup id.
 */
export async function syncGroups(
  combat: GroupedCombat,
  pass: InitiativePass,
  combatants: readonly CombatantView[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!combat.groups) return out;
  const plans = groupsOfPass(pass, new Set(combatants.map((c) => c.id ?? "")));
  if (!plans.length) return out;
  const existing = new Map<string, string>();
  for (const g of Array.from(combat.groups) as GroupView[]) {
    const key = g.getFlag?.("fray", "groupKey");
    if (typeof key === "string" && g.id) existing.set(key, g.id);
  }
  const names = new Map(combatants.map((c) => [c.id ?? "", c.name ?? ""]));
  const missing = plans.filter((p) => !existing.has(p.key));
  if (missing.length) {
    const created = (await combat.createEmbeddedDocuments(
      "CombatantGroup",
      missing.map((p) => ({
        name: p.members.map((id) => names.get(id) ?? id).join(", "),
        initiative: p.initiative,
        flags: { fray: { groupKey: p.key } },
      })),
    )) as GroupView[];
    created.forEach((g, i) => g?.id && existing.set(missing[i]!.key, g.id));
  }
  const updates = plans
    .filter((p) => !missing.includes(p) && existing.has(p.key))
    .map((p) => ({ _id: existing.get(p.key)!, initiative: p.initiative }));
  if (updates.length) await combat.updateEmbeddedDocuments("CombatantGroup", updates);
  for (const p of plans) {
    const id = existing.get(p.key);
    if (id) for (const m of p.members) out.set(m, id);
  }
  return out;
}

/** Adds each member's `group` to the Combatant updates of a pass. */
function withGroups(updates: Record<string, unknown>[], groups: ReadonlyMap<string, string>): Record<string, unknown>[] {
  return updates.map((u) => (groups.has(String(u._id)) ? { ...u, group: groups.get(String(u._id)) } : u));
}

/**
 * Builds the Combat and Combatant classes (Foundry's document classes exist only once it has
 * loaded, so the subclasses are made in `init`).
 */
export function createCombatClasses() {
  /** Fray's Combatant: initiative formula from the core, its economy stamped with its round. */
  class FrayCombatant extends Combatant {
    /** The core's formula, e.g. d10 + Initiative skill (UD-INI-01). */
    protected override _getInitiativeFormula(): string {
      const actor = this.actor as unknown as ActorLike | null;
      if (!actor) return "1d10";
      try {
        const binding = activeBinding();
        return binding.ruleset.initiativeFormula(combatantOf(actor, {}, binding));
      } catch {
        return "1d10";
      }
    }

    /**
     * A flag; `fray.economy` stamped with an older round than the combat's reads as absent, so
     * whoever reads it starts from a fresh economy (a missed reset never freezes a combatant).
     */
    override getFlag(scope: never, key: never): never {
      const value = super.getFlag(scope, key);
      if ((scope as string) !== "fray" || (key as string) !== "economy") return value;
      const round = (this.combat as { round?: number } | null)?.round;
      const stamp = (value as { round?: unknown } | undefined)?.round;
      return (typeof round === "number" && typeof stamp === "number" && stamp < round ? undefined : value) as never;
    }

    /** An economy written without its round (a spend, a GM's correction) is stamped with the combat's round. */
    protected override async _preUpdate(
      changed: Combatant.UpdateData,
      options: Combatant.Database.PreUpdateOptions,
      user: User.Implementation,
    ): Promise<boolean | void> {
      const allowed = await super._preUpdate(changed, options, user);
      if (allowed === false) return false;
      stampEconomyChange(changed as Record<string, unknown>, (this.combat as { round?: number } | null)?.round);
      return allowed;
    }
  }

  /** Fray's Combat: core initiative with group rolls, re-rolls per round, economy resets. */
  class FrayCombat extends Combat {
    /**
     * Rolls initiative for the given combatants through the core (UD-INI-01, UD-INI-02): the
     * ruleset's groups share one total and are put in one v13 `CombatantGroup` each
     * ({@link syncGroups}). With `formula`, that formula is rolled once for each
     * instead; `updateTurn` (default true) keeps the turn on whoever had it; `messageOptions`
     * go into the one summary message.
     */
    override async rollInitiative(ids: string | string[], options: Combat.InitiativeOptions = {}): Promise<this> {
      const { formula, updateTurn = true, messageOptions = {} } = options as RollInitiativeOptions;
      const requested = typeof ids === "string" ? [ids] : ids;
      const list = Array.from(this.combatants) as unknown as CombatantView[];
      const current = (this as unknown as { combatant?: { id?: string | null } | null }).combatant?.id ?? null;
      try {
        const binding = activeBinding();
        let updates: Record<string, unknown>[];
        let rows: SummaryRow[];
        let rolls: unknown[];
        if (formula) ({ updates, rows, rolls } = await rollFormula(formula, list, requested));
        else {
          const roller = new FoundryRoller();
          const refused = new Map<string, string>();
          const rolling = entries(binding, list, this.round, refused);
          for (const c of list) if (c.id && requested.includes(c.id) && refused.has(c.id)) warn(refused.get(c.id)!, { name: c.name ?? "" });
          const pass = await rollTracker(play(binding), rolling, roller as DiceRoller, optionValues(binding.id), requested);
          const groups = await syncGroups(this as unknown as GroupedCombat, pass, list).catch((err: unknown) => {
            reportError(err);
            return new Map<string, string>();
          });
          ({ updates, rows, rolls } = {
            updates: withGroups(pass.updates as unknown as Record<string, unknown>[], groups),
            rows: rowsOf(binding, pass, list),
            rolls: roller.rolls,
          });
        }
        if (!updates.length) return this;
        await this.updateEmbeddedDocuments("Combatant", updates as never);
        if (!formula) await afterInitiative(binding, list, updates);
        if (updateTurn && current) {
          const turns = (this as unknown as { turns?: { id: string | null }[] }).turns;
          const turn = turns?.findIndex((t) => t.id === current) ?? -1;
          if (turn >= 0 && turn !== this.turn) await this.update({ turn } as never);
        }
        await postSummary(rows, this.round, rolls, messageOptions as Record<string, unknown>);
      } catch (err) {
        reportError(err);
      }
      return this;
    }

    /**
     * The core's acting order: highest initiative first, ties by the core's tie-break values
     * (UD-INI-01, CR-INI-02); with the ruleset's delay rule, this round's delays move their
     * combatants later ({@link actingOrder}, CR-INI-03), a delay the rule refuses moving no one.
     */
    protected override _sortCombatants(a: Combatant.Implementation, b: Combatant.Implementation): number {
      const view = (c: Combatant.Implementation) => {
        const v = c as unknown as CombatantView;
        return { initiative: v.initiative, tiebreak: v.flags?.fray?.tiebreak, name: v.name ?? "" };
      };
      const rule = activeBinding().delay;
      if (rule) {
        // The Combatant's parent, not `this`: the comparator may be handed to a sort unbound.
        const combat = ((a as unknown as { combat?: OrderedCombat | null }).combat ?? this) as OrderedCombat | undefined;
        const order = combat ? orderOf(combat, rule) : [];
        const ia = order.indexOf(String(a.id));
        const ib = order.indexOf(String(b.id));
        if (ia >= 0 && ib >= 0 && ia !== ib) return ia - ib;
      }
      return compareInitiative(view(a), view(b));
    }

    /**
     * When the round advances: every combatant's economy is written fresh for the new round and
     * stamped with it (UD-ACT-01) and, when the ruleset re-rolls each round (UD-INI-01; not with
     * UD-INI-03's carry-over), initiative is rolled again for all in the same update, the turn
     * going back to the top, with one summary message. Rows are nested objects, not dotted keys.
     */
    protected override async _preUpdate(
      changed: Combat.UpdateData,
      options: Combat.Database.PreUpdateOptions,
      user: User.Implementation,
    ): Promise<boolean | void> {
      const allowed = await super._preUpdate(changed, options, user);
      if (allowed === false) return false;
      const round = (changed as { round?: number }).round;
      if (typeof round !== "number" || round <= this.round || this.round === 0) return allowed;
      const binding = activeBinding();
      const values = optionValues(binding.id);
      const combatants = Array.from(this.combatants) as unknown as CombatantView[];
      const rows = new Map<string, Record<string, unknown>>();
      for (const c of combatants) {
        if (!c.id) continue;
        rows.set(c.id, { _id: c.id, flags: { fray: { economy: roundEconomy(binding, c.actor, c.flags?.fray?.economy, round, values) } } });
      }
      if (rerollOnNewRound(binding, values)) {
        const roller = new FoundryRoller();
        try {
          const pass = await rollTracker(play(binding), entries(binding, combatants, round), roller, values);
          // The groups' CombatantGroups take the new shared totals (UD-INI-02).
          const groups = await syncGroups(this as unknown as GroupedCombat, pass, combatants).catch((err: unknown) => {
            reportError(err);
            return new Map<string, string>();
          });
          for (const u of withGroups(pass.updates as unknown as Record<string, unknown>[], groups)) {
            const id = String(u._id);
            rows.set(id, merge(rows.get(id) ?? { _id: id }, u));
          }
          (changed as { turn?: number }).turn = 0;
          await postSummary(rowsOf(binding, pass, combatants), round, roller.rolls);
          await afterInitiative(binding, combatants, pass.updates as unknown as Record<string, unknown>[]);
        } catch (err) {
          reportError(err);
        }
      }
      (changed as { combatants?: unknown[] }).combatants = [...rows.values()];
      if (binding.startRoundOn) {
        for (const c of combatants) {
          if (c.actor) await binding.startRoundOn(c.actor, round, values).catch((err: unknown) => reportError(err));
        }
      }
      return allowed;
    }

    /**
     * Only the GM advances the round: a new round re-rolls initiative and resets every
     * combatant's economy, which players may not write.
     */
    protected override _canChangeRound(user: User.Implementation): boolean {
      return Boolean(user.isGM);
    }

    /**
     * A new combat starts with fresh economies for round 1 (UD-ACT-01), and with what the ruleset's
     * `startCombatOn` ends on each actor (Critical: a parry split left from an earlier combat, CR-PAR-01).
     */
    override async startCombat(): Promise<this> {
      const binding = activeBinding();
      const values = optionValues(binding.id);
      const combatants = Array.from(this.combatants) as unknown as CombatantView[];
      const updates = combatants.map((c) => ({
        _id: c.id,
        flags: { fray: { economy: roundEconomy(binding, c.actor, undefined, 1, values) } },
      }));
      if (updates.length) await this.updateEmbeddedDocuments("Combatant", updates as never);
      if (binding.startCombatOn)
        for (const c of combatants) if (c.actor) await binding.startCombatOn(c.actor, values).catch((err: unknown) => reportError(err));
      return super.startCombat();
    }
  }
  return { FrayCombat, FrayCombatant };
}

/**
 * Stamps an economy in a Combatant's update (nested `flags.fray.economy` or the dotted key) with
 * `round` when it carries none. Changes `changed` in place.
 */
export function stampEconomyChange(changed: Record<string, unknown>, round: number | undefined): void {
  if (typeof round !== "number") return;
  const nested = (changed.flags as { fray?: { economy?: unknown } } | undefined)?.fray;
  const put = (economy: unknown) =>
    economy && typeof economy === "object" && typeof (economy as { round?: unknown }).round !== "number" ? { ...economy, round } : economy;
  if (nested && "economy" in nested) nested.economy = put(nested.economy);
  if ("flags.fray.economy" in changed) changed["flags.fray.economy"] = put(changed["flags.fray.economy"]);
}

/** Puts the classes on CONFIG. Call from `init`. */
export function registerCombat(): void {
  if (typeof Combat === "undefined" || typeof Combatant === "undefined") return;
  const { FrayCombat, FrayCombatant } = createCombatClasses();
  CONFIG.Combat.documentClass = FrayCombat as never;
  CONFIG.Combatant.documentClass = FrayCombatant as never;
}

/** The round length in seconds from the world ruleset's `roundSeconds` option (UD-RND-01) on `CONFIG.time.roundTime`. */
export function applyRoundTime(): void {
  const seconds = optionValues()["roundSeconds"];
  const config = CONFIG as unknown as { time?: { roundTime: number } };
  if (config.time && typeof seconds === "number" && seconds > 0) config.time.roundTime = seconds;
}
