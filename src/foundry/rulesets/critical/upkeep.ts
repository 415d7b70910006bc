/**
 * Critical's upkeep at the start of each round after the first, on the active GM's client only
 * (CR-BLD-01, CR-STN-02, CR-STN-03, CR-DTH-01, CR-HIT-02): for every combatant the core's `upkeep`
 * takes the bleeding and burning hits, counts stun and dying down, ends a blackout once the stun
 * is gone and rolls the Self Discipline test at 0 hits or below; the actor is written back with
 * its statuses, and a chat summary lists every change with its rule ID. Each actor is stamped
 * with the last round of each combat it was upkept for, so rewinding a round and advancing again
 * never ticks twice. What each actor's upkeep changed is recorded on the actor, so the GM can
 * undo a summary: exactly that change is taken back, later changes stay.
 */
import { canSetFlags, replaceFlag } from "../../logic/flags.js";
import { afterUpkeepEconomy, criticalVitalsUpdate, upkeep, withVitals } from "../../../rules/critical/index.js";
import type { Economy } from "../../../rules/core/economy.js";
import { stamped } from "../../logic/economy.js";
import { criticalCombatantFromActor, type CriticalCombatant } from "../../../rules/critical/model.js";
import type { Localizer } from "../../attack-card.js";
import { SYSTEM_PATH } from "../../config.js";
import { FoundryRoller } from "../../dice.js";
import { actorSource } from "../../documents/source.js";
import { reportError } from "../../notify.js";
import type { LastingEffect, VitalState } from "../../../rules/core/types.js";
import { askGM, isActiveGM, queryAnswer, refusal, type RequestAnswer, type Requester } from "../../queries.js";
import { upkeepContext, type UpkeepEntry } from "./upkeep-view.js";

/** The summary's template. */
export const UPKEEP_TEMPLATE = `${SYSTEM_PATH}/templates/critical/upkeep.hbs`;

/** An actor as the upkeep reads and writes it. */
interface ActorLike {
  uuid: string;
  name: string | null;
  toObject(): unknown;
  statuses?: Set<string>;
  getFlag?(scope: string, key: string): unknown;
  update(data: Record<string, unknown>): Promise<unknown>;
  toggleStatusEffect?(id: string, options: { active: boolean }): Promise<unknown>;
}

/** A combat as the upkeep reads it. */
export interface UpkeepCombat {
  id: string | null;
  round: number;
  combatants: Iterable<{
    id?: string | null;
    actor?: unknown;
    name?: string | null;
    getFlag?(scope: string, key: string): unknown;
    setFlag?(scope: string, key: string, value: unknown): Promise<unknown>;
  }>;
}

/** The flag key of a combat's stamp on an actor (`flags.fray.upkeep.<key>`: the last round upkept). */
function stampKey(combat: UpkeepCombat): string {
  return String(combat.id ?? "combat").replace(/[^A-Za-z0-9]/g, "");
}

/**
 * Runs one round's upkeep for every combatant's actor not yet upkept for that round of this
 * combat, writes each back and posts the summary; nothing in round 1 or before.
 * @returns the entries posted (empty when nothing was due).
 */
export async function runUpkeep(combat: UpkeepCombat): Promise<UpkeepEntry[]> {
  const round = combat.round;
  if (round < 2) return [];
  const key = stampKey(combat);
  const seen = new Set<string>();
  const entries: UpkeepEntry[] = [];
  const roller = new FoundryRoller();
  for (const member of combat.combatants) {
    const actor = member.actor as ActorLike | null | undefined;
    if (!actor || seen.has(actor.uuid)) continue;
    seen.add(actor.uuid);
    const stamps = (actor.getFlag?.("fray", "upkeep") ?? {}) as Record<string, unknown>;
    if (typeof stamps[key] === "number" && (stamps[key] as number) >= round) continue;
    let c;
    try {
      c = criticalCombatantFromActor(actorSource(actor as never));
    } catch (err) {
      console.warn(`Fray | upkeep of ${actor.name}`, err);
      continue;
    }
    const { report } = await upkeep(c, roller);
    const removed = report.removed ?? [];
    // What this upkeep changed, kept on the actor itself for the GM's undo (never read from the message).
    const record: UpkeepRecord = {
      before: vitalsOf(report.before),
      after: vitalsOf(report.after),
      added: [...report.added],
      removed: [...removed],
      stamp: typeof stamps[key] === "number" ? (stamps[key] as number) : null,
      undone: false,
    };
    await actor.update({
      ...criticalVitalsUpdate(report.after),
      [`flags.fray.upkeep.${key}`]: round,
      [`flags.fray.upkeepUndo.${recordKey(key, round)}`]: record,
    });
    for (const id of removed) await actor.toggleStatusEffect?.(id, { active: false });
    for (const id of report.added) await actor.toggleStatusEffect?.(id, { active: true });
    // The round's AP follow the state the upkeep left (RULES.md "Start of a round"): a stun that ran out gives 4 again.
    await followEconomy(member, round, withVitals(c, report.after));
    const test = report.checks?.[0];
    if (!report.steps.length && !test && !report.added.length && !removed.length) continue;
    entries.push({
      name: actor.name ?? "",
      actorUuid: actor.uuid,
      hits: { before: report.before.hp?.value ?? 0, after: report.after.hp?.value ?? 0, max: report.after.hp?.max ?? 0 },
      steps: report.steps,
      ...(test
        ? {
            check: {
              natural: test.check.natural,
              modifiers: test.check.modifiers,
              total: test.check.total,
              needed: test.needed,
              success: test.success,
            },
          }
        : {}),
      added: [...report.added],
      removed: [...removed],
    });
  }
  if (entries.length) {
    const content = await foundry.applications.handlebars.renderTemplate(
      UPKEEP_TEMPLATE,
      upkeepContext(round, entries, game.i18n as unknown as Localizer) as unknown as Record<string, unknown>,
    );
    await ChatMessage.implementation.create({
      content,
      rolls: roller.rolls,
      flags: { fray: { upkeep: { combatId: combat.id, key, round, entries } } },
    } as never);
  }
  return entries;
}

/** The vitals an upkeep record keeps: hits, stun rounds and the lasting effects. */
interface RecordVitals {
  hits: number;
  stun: number;
  effects: LastingEffect[];
}

/**
 * What one round's upkeep changed on one actor (`flags.fray.upkeepUndo.<combat>r<round>`): the
 * vitals before and after, the statuses it added and removed, the actor's upkeep stamp before it,
 * and whether it was undone.
 */
export interface UpkeepRecord {
  before: RecordVitals;
  after: RecordVitals;
  added: string[];
  removed: string[];
  stamp: number | null;
  undone: boolean;
}

/** The key of a round's record under `flags.fray.upkeepUndo`. */
function recordKey(key: string, round: number): string {
  return `${key}r${round}`;
}

/**
 * The round an actor's upkeep stamp for one combat stands at once the record `undoing` is undone
 * (CR-BLD-01, CR-STN-02): the latest round of that combat whose upkeep stands (recorded, not
 * undone), else 0 (none: every round may be upkept again). Read from the actor's records alone,
 * so undos in any order leave the same stamp.
 * @param records the actor's `flags.fray.upkeepUndo`.
 * @param key the combat's stamp key.
 * @param undoing the key of the record being undone.
 */
export function standingRound(records: Record<string, unknown>, key: string, undoing: string): number {
  let round = 0;
  for (const [k, raw] of Object.entries(records)) {
    if (k === undoing || !k.startsWith(`${key}r`)) continue;
    const n = Number(k.slice(key.length + 1));
    const record = upkeepRecord(raw);
    if (Number.isInteger(n) && String(n) === k.slice(key.length + 1) && record && !record.undone) round = Math.max(round, n);
  }
  return round;
}

/** Stored vitals of a record, checked: hits and stun numbers, effects each with a string id and kind. */
function recordVitals(value: unknown): RecordVitals | undefined {
  const v = value as { hits?: unknown; stun?: unknown; effects?: unknown } | null | undefined;
  const finite = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n);
  if (!v || !finite(v.hits) || !finite(v.stun) || !Array.isArray(v.effects)) return undefined;
  const effects = (v.effects as unknown[]).filter(
    (e): e is LastingEffect =>
      typeof e === "object" && e !== null && typeof (e as LastingEffect).id === "string" && typeof (e as LastingEffect).kind === "string",
  );
  return { hits: v.hits, stun: v.stun, effects };
}

/**
 * An upkeep record as stored on the actor, checked: one whose vitals are not numbers counts as
 * none, so a damaged record changes nothing rather than writing a broken value.
 */
export function upkeepRecord(value: unknown): UpkeepRecord | undefined {
  const r = value as Partial<Record<keyof UpkeepRecord, unknown>> | null | undefined;
  if (!r || typeof r !== "object") return undefined;
  const before = recordVitals(r.before);
  const after = recordVitals(r.after);
  if (!before || !after) return undefined;
  const ids = (list: unknown) => (Array.isArray(list) ? list.filter((s): s is string => typeof s === "string") : []);
  return {
    before,
    after,
    added: ids(r.added),
    removed: ids(r.removed),
    stamp: typeof r.stamp === "number" ? r.stamp : null,
    undone: r.undone === true,
  };
}

/** The vitals of a core vital state, as a record keeps them. */
function vitalsOf(state: VitalState): RecordVitals {
  return { hits: state.hp?.value ?? 0, stun: state.stun ?? 0, effects: structuredClone(state.effects ?? []) };
}

/** True when two values are the same JSON. */
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** True when two versions of an effect differ in their rounds alone, both numbers. */
function roundsOnly(before: LastingEffect, after: LastingEffect): boolean {
  if (typeof before.rounds !== "number" || typeof after.rounds !== "number") return false;
  return same({ ...before, rounds: 0 }, { ...after, rounds: 0 });
}

/**
 * The lasting effects once an upkeep is undone (CR-BLD-01, CR-DTH-01): an effect the upkeep
 * removed (run out) comes back unless one of its id is there again; one it changed goes back to
 * how it was when it still stands as the upkeep left it, and one whose rounds alone it counted
 * down gets those rounds back as it is now (so undos in any order add up); one it added goes.
 * Effects added since stay as they are.
 */
export function effectsUndone(
  now: readonly LastingEffect[],
  before: readonly LastingEffect[],
  after: readonly LastingEffect[],
): LastingEffect[] {
  const byId = (list: readonly LastingEffect[]) => new Map(list.map((e) => [e.id, e]));
  const was = byId(before);
  const left = byId(after);
  const out: LastingEffect[] = [];
  for (const e of now) {
    const old = was.get(e.id);
    const upkept = left.get(e.id);
    if (!old && upkept && same(e, upkept)) continue;
    if (old && upkept && same(e, upkept)) out.push(structuredClone(old));
    else if (old && upkept && roundsOnly(old, upkept) && typeof e.rounds === "number") {
      // Only its rounds were counted down: they are given back to the effect as it is now, so
      // undos in any order add up and a later change (a treatment) stays.
      out.push({ ...e, rounds: Math.max(0, e.rounds + (old.rounds! - upkept.rounds!)) });
    } else out.push(e);
  }
  const present = new Set(out.map((e) => e.id));
  for (const e of before) if (!left.has(e.id) && !present.has(e.id)) out.push(structuredClone(e));
  return out;
}

/** A Combatant as the upkeep and its undo read it: its actor and its stored round economy. */
interface EconomyHolder {
  actor?: unknown;
  getFlag?(scope: string, key: string): unknown;
  setFlag?(scope: string, key: string, value: unknown): Promise<unknown>;
}

/**
 * The round's AP of a Combatant made to follow its actor's state (CR-AP-01, CR-STN-01, CR-STN-02;
 * the core's `afterUpkeepEconomy`: 4, 2 while stunned, none out of the fight, less what was
 * already spent), when its stored economy is of `round`; a later round's economy, or one that
 * already follows, is left alone. Written after an upkeep and after its undo, from the state
 * alone: nothing of the message or a record is taken as AP.
 */
async function followEconomy(member: EconomyHolder, round: number, c: CriticalCombatant): Promise<void> {
  const stored = member.getFlag?.("fray", "economy") as (Economy & { round?: number }) | undefined;
  if (!stored?.pools?.ap || stored.round !== round || !canSetFlags(member)) return;
  const next = afterUpkeepEconomy(stored, c);
  const ap = next.pools.ap!;
  if (ap.max !== stored.pools.ap.max || ap.value !== stored.pools.ap.value) await replaceFlag(member, "economy", stamped(next, round));
}

/** The Combatants of an actor in the combat with this id (the world's combats, else the viewed one). */
function combatantsOf(combatId: unknown, actor: ActorLike): EconomyHolder[] {
  if (typeof combatId !== "string") return [];
  const combats = (game as unknown as { combats?: { get(id: string): unknown } }).combats;
  const combat = (combats?.get(combatId) ?? (game.combat?.id === combatId ? game.combat : undefined)) as
    { combatants?: Iterable<EconomyHolder> } | undefined;
  return [...(combat?.combatants ?? [])].filter((m) => (m.actor as { uuid?: string } | null | undefined)?.uuid === actor.uuid);
}

/**
 * Undoes one round's upkeep on the active GM (CR-BLD-01, CR-STN-02, CR-STN-03, CR-DTH-01,
 * CR-HIT-02): for each actor of the summary, its own record of that round is read (never the
 * message's numbers) and its change taken back from the actor as it is now: the hits it took
 * given back (up to the maximum), the stun rounds it ran down added again, the effects restored
 * ({@link effectsUndone}), the statuses it added removed and those it removed set again, the
 * actor's upkeep stamp set to the latest round whose upkeep still stands ({@link standingRound}:
 * with none left, every round may be upkept again; an older round undone under a later one
 * standing is not upkept again), and its Combatant's AP of that round made to follow the state it
 * is back to ({@link followEconomy}). Later changes stay; summaries may be undone in any order; a
 * record already undone, or one that is not numbers, changes nothing, so undoing twice does nothing.
 * @returns the number of actors changed.
 */
export async function undoUpkeep(message: UpkeepMessage): Promise<number> {
  const flag = message.flags?.fray?.upkeep;
  if (!flag || typeof flag.round !== "number" || typeof flag.key !== "string" || !Array.isArray(flag.entries)) return 0;
  const rkey = recordKey(flag.key, flag.round);
  let changed = 0;
  for (const entry of flag.entries) {
    if (typeof entry?.actorUuid !== "string") continue;
    const actor = (await foundry.utils.fromUuid(entry.actorUuid as never)) as unknown as ActorLike | null;
    const records = actor?.getFlag?.("fray", "upkeepUndo") as Record<string, unknown> | undefined;
    const record = upkeepRecord(records?.[rkey]);
    if (!actor || !record || record.undone) continue;
    const now = criticalCombatantFromActor(actorSource(actor as never));
    const hits = Math.min(now.hits.max, now.hits.value - (record.after.hits - record.before.hits));
    const stun = Math.max(0, now.stun - (record.after.stun - record.before.stun));
    const effects = effectsUndone(now.effects, record.before.effects, record.after.effects);
    await actor.update({
      "system.hits.value": hits,
      "system.stun": stun,
      "system.effects": effects,
      [`flags.fray.upkeepUndo.${rkey}.undone`]: true,
      [`flags.fray.upkeep.${flag.key}`]: standingRound(records ?? {}, flag.key, rkey),
    });
    for (const id of record.added) if (actor.statuses?.has(id)) await actor.toggleStatusEffect?.(id, { active: false });
    for (const id of record.removed) if (!actor.statuses?.has(id)) await actor.toggleStatusEffect?.(id, { active: true });
    const restored = criticalCombatantFromActor(actorSource(actor as never));
    for (const member of combatantsOf(flag.combatId, actor)) await followEconomy(member, flag.round, restored);
    changed++;
  }
  await message.update?.({ "flags.fray.upkeep.undone": true });
  return changed;
}

/** An upkeep summary message as the undo reads it. */
export interface UpkeepMessage {
  id: string | null;
  author?: { isGM?: boolean } | null;
  flags?: {
    fray?: { upkeep?: { combatId?: unknown; key?: unknown; round?: unknown; undone?: unknown; entries?: { actorUuid?: unknown }[] } };
  };
  update?(changes: Record<string, unknown>): Promise<unknown>;
}

/** The request a GM's client sends the active GM to undo an upkeep summary. */
export const UNDO_UPKEEP_REQUEST = "fray.critical.undoUpkeep";

/**
 * The active GM's handler of {@link UNDO_UPKEEP_REQUEST}: only a GM may ask, only for an upkeep
 * summary a GM wrote.
 */
export async function handleUndoUpkeep(data: Record<string, unknown>, requester: Requester): Promise<RequestAnswer> {
  if (!requester.isGM) return refusal("FRAY.Critical.Upkeep.GMOnly");
  const message = (game.messages as unknown as { get(id: string): UpkeepMessage | undefined } | undefined)?.get(
    String(data.messageId ?? ""),
  );
  if (!message?.flags?.fray?.upkeep || !message.author?.isGM) return refusal("FRAY.Critical.Upkeep.NotSummary");
  await undoUpkeep(message);
  return { ok: true };
}

/** Wires the summary's Undo button for GMs; players do not see it, nor anyone once it is undone. */
export function onRenderUpkeep(message: UpkeepMessage, html: HTMLElement): void {
  const flag = message.flags?.fray?.upkeep;
  if (!flag) return;
  const button = html.querySelector<HTMLButtonElement>('button[data-action="fray-undoUpkeep"]');
  if (!button) return;
  if (!game.user?.isGM || flag.undone === true) {
    button.remove();
    return;
  }
  button.addEventListener("click", (event) => {
    event.preventDefault();
    button.disabled = true;
    void askGM(UNDO_UPKEEP_REQUEST, { messageId: message.id })
      .then((answer) => queryAnswer(answer))
      .catch(reportError);
  });
}

/** On a new round of a combat (`updateCombat` with a higher `round`), the active GM runs the upkeep. */
export function onUpdateCombat(combat: UpkeepCombat, changes: { round?: number }): void {
  if (typeof changes.round !== "number" || !isActiveGM()) return;
  void runUpkeep(combat).catch(reportError);
}
