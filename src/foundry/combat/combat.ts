/**
 * Combat and Combatant for UD10: initiative is d10 + Initiative skill from the core
 * (UD-INI-01), re-rolled atomically when a round begins unless it carries over (UD-INI-03), one
 * roll per NPC, per NPC group (`system.group`) or for all NPCs (UD-INI-02); each combatant's
 * round economy (UD-ACT-01) is reset with each new round.
 */
import type { DiceRoller } from "../../rules/core/dice/port.js";
import { ud10, ud10Options } from "../../rules/ud10/index.js";
import { actorSource } from "../attack.js";
import { FLOW_TEMPLATES } from "../chat/templates.js";
import { FoundryRoller } from "../dice.js";
import { compareInitiative, rerollOnNewRound, rollTracker, summaryRows, type TrackerEntry } from "../logic/initiative.js";
import { formatKey, reportError } from "../notify.js";
import { ud10OptionValues } from "../settings.js";
import { ud10CombatantFromActor } from "../sources.js";
import { freshEconomy } from "./economy-store.js";

/** A Combatant as the combat code reads it. */
interface CombatantView {
  id: string | null;
  name: string | null;
  initiative: number | null;
  actor: Actor.Implementation | null;
  flags?: { fray?: { tiebreak?: number[] } };
}

/** Tracker entries for the given combatants that have a usable actor. */
function entries(combatants: readonly CombatantView[]): TrackerEntry[] {
  const out: TrackerEntry[] = [];
  for (const c of combatants) {
    if (!c.id || !c.actor) continue;
    try {
      out.push({ id: c.id, combatant: ud10CombatantFromActor(actorSource(c.actor), { id: c.id }) });
    } catch (err) {
      console.warn(`Fray | ${c.name}: no initiative`, err);
    }
  }
  return out;
}

/**
 * The one chat message summarizing an initiative pass: each roll with its members, in acting order.
 */
async function postSummary(pass: Awaited<ReturnType<typeof rollTracker>>, names: Map<string, string>, round: number, roller: FoundryRoller): Promise<void> {
  const rows = summaryRows(pass, names);
  const content = await foundry.applications.handlebars.renderTemplate(FLOW_TEMPLATES.initiative, {
    title: formatKey("FRAY.Flow.Initiative.Title", { round }),
    rows,
  });
  await ChatMessage.implementation.create({ content, rolls: roller.rolls, sound: CONFIG.sounds.dice } as never);
}

/**
 * Builds the Combat and Combatant classes (Foundry's document classes exist only once it has
 * loaded, so the subclasses are made in `init`).
 */
export function createCombatClasses() {
  /** The UD10 Combatant: its initiative formula comes from the rules core (UD-INI-01). */
  class FrayCombatant extends Combatant {
    /** d10 + Initiative skill, or + DEX untrained (UD-INI-01). */
    protected override _getInitiativeFormula(): string {
      const actor = this.actor;
      if (!actor) return "1d10";
      try {
        return ud10.initiativeFormula(ud10CombatantFromActor(actorSource(actor)));
      } catch {
        return "1d10";
      }
    }
  }

  /** The UD10 Combat: core initiative with group rolls, re-rolls per round, economy resets. */
  class FrayCombat extends Combat {
    /**
     * Rolls initiative for the given combatants through the core (UD-INI-01, UD-INI-02): the
     * `npcInitiative` option groups NPCs; each group shares one total. One summary message.
     */
    override async rollInitiative(ids: string | string[], _options: Combat.InitiativeOptions = {}): Promise<this> {
      const requested = typeof ids === "string" ? [ids] : ids;
      const list = Array.from(this.combatants) as unknown as CombatantView[];
      const roller = new FoundryRoller();
      try {
        const pass = await rollTracker(entries(list), roller as DiceRoller, ud10OptionValues(), requested);
        if (!pass.updates.length) return this;
        await this.updateEmbeddedDocuments("Combatant", pass.updates as never);
        await postSummary(pass, new Map(list.map((c) => [c.id ?? "", c.name ?? ""])), this.round, roller);
      } catch (err) {
        reportError(err);
      }
      return this;
    }

    /** The core's acting order: highest initiative first, ties by the core's tie-break values (UD-INI-01). */
    protected override _sortCombatants(a: Combatant.Implementation, b: Combatant.Implementation): number {
      const view = (c: Combatant.Implementation) => {
        const v = c as unknown as CombatantView;
        return { initiative: v.initiative, tiebreak: v.flags?.fray?.tiebreak, name: v.name ?? "" };
      };
      return compareInitiative(view(a), view(b));
    }

    /**
     * When the round advances: every combatant's economy is reset (UD-ACT-01) and, unless
     * initiative carries over (UD-INI-03), initiative is rolled again for all (UD-INI-01) in the
     * same update, the turn going back to the top, with one summary message.
     */
    protected override async _preUpdate(changed: Combat.UpdateData, options: Combat.Database.PreUpdateOptions, user: User.Implementation): Promise<boolean | void> {
      const allowed = await super._preUpdate(changed, options, user);
      if (allowed === false) return false;
      const round = (changed as { round?: number }).round;
      if (typeof round !== "number" || round <= this.round || this.round === 0) return allowed;
      const combatants = Array.from(this.combatants) as unknown as CombatantView[];
      const updates = new Map<string, Record<string, unknown>>();
      for (const c of combatants) if (c.id) updates.set(c.id, { _id: c.id, "flags.fray.economy": freshEconomy() });
      const options10 = ud10OptionValues();
      if (rerollOnNewRound(options10)) {
        const roller = new FoundryRoller();
        try {
          const pass = await rollTracker(entries(combatants), roller, options10);
          for (const u of pass.updates) Object.assign(updates.get(u._id) ?? {}, u);
          (changed as { turn?: number }).turn = 0;
          await postSummary(pass, new Map(combatants.map((c) => [c.id ?? "", c.name ?? ""])), round, roller);
        } catch (err) {
          reportError(err);
        }
      }
      (changed as { combatants?: unknown[] }).combatants = [...updates.values()];
      return allowed;
    }

    /**
     * Only the GM advances the round: a new round re-rolls initiative and resets every
     * combatant's economy, which players may not write.
     */
    protected override _canChangeRound(user: User.Implementation): boolean {
      return Boolean(user.isGM);
    }

    /** A new combat starts with fresh economies (UD-ACT-01). */
    override async startCombat(): Promise<this> {
      const updates = Array.from(this.combatants).map((c) => ({ _id: c.id, "flags.fray.economy": freshEconomy() }));
      if (updates.length) await this.updateEmbeddedDocuments("Combatant", updates as never);
      return super.startCombat();
    }
  }
  return { FrayCombat, FrayCombatant };
}

/** Puts the classes on CONFIG and the round length (UD-RND-01) on CONFIG.time. Call from `init`. */
export function registerCombat(): void {
  if (typeof Combat === "undefined" || typeof Combatant === "undefined") return;
  const { FrayCombat, FrayCombatant } = createCombatClasses();
  CONFIG.Combat.documentClass = FrayCombat as never;
  CONFIG.Combatant.documentClass = FrayCombatant as never;
}

/** The round length in seconds from the UD10 option (UD-RND-01) on `CONFIG.time.roundTime`. */
export function applyRoundTime(): void {
  const seconds = ud10Options(ud10OptionValues()).roundSeconds;
  const config = CONFIG as unknown as { time?: { roundTime: number } };
  if (config.time) config.time.roundTime = seconds;
}
