/**
 * Critical's upkeep at the start of each round after the first, on the active GM's client only
 * (CR-BLD-01, CR-STN-02, CR-STN-03, CR-DTH-01, CR-HIT-02): for every combatant the core's `upkeep`
 * takes the bleeding and burning hits, counts stun and dying down, ends a blackout once the stun
 * is gone and rolls the Self Discipline test at 0 hits or below; the actor is written back with
 * its statuses, and a chat summary lists every change with its rule ID. Each actor is stamped
 * with the last round of each combat it was upkept for, so rewinding a round and advancing again
 * never ticks twice.
 */
import { criticalVitalsUpdate, upkeep } from "../../../rules/critical/index.js";
import { criticalCombatantFromActor } from "../../../rules/critical/model.js";
import type { Localizer } from "../../attack-card.js";
import { SYSTEM_PATH } from "../../config.js";
import { FoundryRoller } from "../../dice.js";
import { actorSource } from "../../documents/source.js";
import { reportError } from "../../notify.js";
import { isActiveGM } from "../../queries.js";
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
  combatants: Iterable<{ actor?: unknown; name?: string | null }>;
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
    await actor.update({ ...criticalVitalsUpdate(report.after), [`flags.fray.upkeep.${key}`]: round });
    const removed = report.removed ?? [];
    for (const id of removed) await actor.toggleStatusEffect?.(id, { active: false });
    for (const id of report.added) await actor.toggleStatusEffect?.(id, { active: true });
    const test = report.checks?.[0];
    if (!report.steps.length && !test && !report.added.length && !removed.length) continue;
    entries.push({
      name: actor.name ?? "",
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
      flags: { fray: { upkeep: { combatId: combat.id, round, entries } } },
    } as never);
  }
  return entries;
}

/** On a new round of a combat (`updateCombat` with a higher `round`), the active GM runs the upkeep. */
export function onUpdateCombat(combat: UpkeepCombat, changes: { round?: number }): void {
  if (typeof changes.round !== "number" || !isActiveGM()) return;
  void runUpkeep(combat).catch(reportError);
}
