/**
 * Zones' buttons on its actor sheet (the binding's `sheetAction` and `rollSkill`): reload
 * (ZN-REL-01), draw (ZN-DRW-01) and clear a stoppage (ZN-MAL-01) from a weapon row, aim
 * (ZN-RNG-07), regain speed points (ZN-MOV-03), a stance (ZN-MOV-01), and the skill checks
 * (ZN-RNG-08). The weapon and the actor after each task are the core's (`reload`, `draw`,
 * `clearMalfunction`); in the active combat the action is spent through the economy store first
 * (`takeAction`, the GM's authority path for a combatant the user does not own), and refused
 * with a warning once spent. Outside combat a task takes as many actions as it needs at once.
 */
import { replaceFlag } from "../../logic/flags.js";
import { aimPoint, throwGrenade } from "./blast.js";
import { searchFromSheet, toggleHidden } from "./hiding.js";
import { startSuppressing } from "./suppression.js";
import { createEconomy, spend, type Economy } from "../../../rules/core/economy.js";
import { FrayError } from "../../../rules/core/errors.js";
import {
  SKILLS,
  STANCES,
  checkFormula,
  zonesOptions,
  clearMalfunction,
  draw,
  planMove,
  reload,
  skillLines,
  type SkillId,
  type Stance,
  type ZonesCombatant,
  type ZonesWeapon,
} from "../../../rules/zones/index.js";
import { activeCombat, combatantFor, economyOf } from "../../combat/economy-store.js";
import { combatantOf } from "../../documents/actor.js";
import { formatKey, warn } from "../../notify.js";
import { registry } from "../../registry.js";
import { optionValues } from "../../settings.js";
import { takeAction } from "../../round-actions.js";

/** The parts of an Actor the sheet's buttons write. */
interface ActorDoc {
  id: string | null;
  uuid: string;
  name: string | null;
  items: { get(id: string): { update(data: Record<string, unknown>): Promise<unknown> } | undefined | null };
  update(data: Record<string, unknown>): Promise<unknown>;
}

/** A weapon task of a row: what the core makes of the weapon, and the action it takes in play. */
type WeaponTask = "reload" | "draw" | "clearMalfunction";

/** The actor's core combatant through the Zones binding. */
function zonesCombatant(actor: ActorDoc): ZonesCombatant {
  return combatantOf<ZonesCombatant>(actor as never, {}, registry.get("zones"));
}

/** An economy with `actions` actions, for the core's task functions. */
function actionsEconomy(actions: number): Economy {
  return createEconomy({ slots: [{ id: "action", label: "FRAY.Slot.action", max: actions, rule: "ZN-ACT-01" }], pools: [] });
}

/**
 * The weapon after one step of a task (pure): in combat one action of work (a reload of two
 * actions runs over two turns, ZN-REL-01; a draw from elsewhere takes two, ZN-DRW-01), outside
 * combat the whole task.
 * @returns the weapon after it and the actions the step takes (0 for a weapon already in hand).
 * @throws FrayError from the core (no magazine left, nothing to clear, a squib load ...).
 */
export function weaponTaskStep(weapon: ZonesWeapon, task: WeaponTask, inCombat: boolean): { weapon: ZonesWeapon; spent: number } {
  const economy = actionsEconomy(inCombat ? 1 : 99);
  if (task === "clearMalfunction") return { weapon: clearMalfunction(weapon, economy).weapon, spent: 1 };
  const progress = task === "reload" ? reload(weapon, economy) : draw(weapon, economy);
  return { weapon: progress.weapon, spent: progress.spent };
}

/** The item `system` changes of a weapon after a task. */
function weaponWrite(w: ZonesWeapon): Record<string, unknown> {
  return {
    loaded: w.loaded,
    spareMagazines: w.spareMagazines,
    drawn: w.drawn,
    malfunction: w.malfunction,
    pending: w.pending ? { ...w.pending } : null,
  };
}

/** Runs a weapon row's task: spends the action in combat, then writes the core's weapon. */
async function weaponTask(actor: ActorDoc, task: WeaponTask, itemId: string | undefined, tokenId?: string): Promise<void> {
  const weapon = zonesCombatant(actor).weapons.find((w) => w.id === itemId);
  const item = itemId ? actor.items.get(itemId) : undefined;
  if (!weapon || !item) return;
  const inCombat = Boolean(combatantFor(actor, tokenId));
  const step = weaponTaskStep(weapon, task, inCombat);
  if (step.spent > 0) {
    const decision = await takeAction(actor, task, { tokenId });
    if (!decision.ok) return;
  }
  await item.update({ system: weaponWrite(step.weapon) });
}

/**
 * Changes the actor's stance (ZN-MOV-01, ZN-RNG-05, ZN-RNG-06). In the active combat the change is
 * priced by the core as a movement (`planMove`: 1 speed point, 2 to get up from prone, topped up
 * from effort points, ZN-MOV-04; the action too with **Moving takes the action**, ZN-ACT-02) and
 * paid from the combatant's round on the owner's client; a user who does not own the combatant is
 * refused with a warning, as is a change the round cannot pay (the core's error).
 * @throws FrayError `FRAY.Error.Zones.NotEnoughPoints` or `FRAY.Error.Economy` from the core.
 */
async function changeStance(actor: ActorDoc, stance: Stance, tokenId?: string): Promise<void> {
  const combatant = combatantFor(actor, tokenId);
  if (combatant) {
    const c = zonesCombatant(actor);
    if (c.stance === stance) return;
    if (!combatant.isOwner) {
      warn("FRAY.Flow.Error.NotYourCombatant");
      return;
    }
    const economy = economyOf(combatant);
    const plan = planMove(c, economy, [{ stance }], zonesOptions(optionValues("zones")));
    await replaceFlag(combatant, "economy", spend(economy, plan.cost));
  }
  await actor.update({ system: { stance } });
}

/**
 * A button of the Zones sheet (`data-ruleset-action`, with `itemId` and `value` read by the sheet): `reload`, `draw`, `clearMalfunction` on
 * the row's weapon; `aim` (one more aiming action this round, -2 difficulty each, ZN-RNG-07);
 * `regainSpeed` (an action that refills the speed points, ZN-MOV-03; the economy store refills the
 * round's pool, the actor's track follows); `stance` with the stance as `value` (ZN-MOV-01,
 * ZN-RNG-05); `throwGrenade` on the row's grenade at the targeted token or the user's latest
 * measured template (ZN-GRN-01, ZN-THR-01; the action is spent once the core accepts the throw);
 * `suppress` on the row's firearm (suppressing fire, ZN-SUP-01); `hide` on a small weapon (hidden
 * on the body or out of hiding, ZN-HID-01); `searchWeapons`, the GM's search of the actor.
 * Unknown actions do nothing.
 * @throws FrayError from the core, naming why the task cannot be done.
 */
export async function zonesSheetAction(
  actor: unknown,
  control: Readonly<Record<string, string | undefined>>,
  tokenId?: string,
): Promise<void> {
  const doc = actor as ActorDoc;
  const action = control.rulesetAction ?? "";
  const data = { itemId: control.itemId, value: control.value, tokenId };
  switch (action) {
    case "reload":
    case "draw":
    case "clearMalfunction":
      return weaponTask(doc, action, data.itemId, data.tokenId);
    case "aim": {
      const c = zonesCombatant(doc);
      const decision = await takeAction(doc, "aim", { tokenId: data.tokenId });
      if (decision.ok) await doc.update({ system: { aim: c.aim + 1 } });
      return;
    }
    case "regainSpeed": {
      const c = zonesCombatant(doc);
      const decision = await takeAction(doc, "regainSpeed", { tokenId: data.tokenId });
      if (!decision.ok) return;
      await doc.update({ system: { speed: { value: c.speed.max } } });
      // The regained points pay the moves that follow from nothing: the round's movement so far
      // was paid with the points spent before (ZN-MOV-03, RULES.md).
      const combatant = combatantFor(doc as never, data.tokenId);
      if (combatant?.isOwner) await replaceFlag(combatant, "moved", { round: activeCombat()?.round ?? 0, metres: 0, paid: {} });
      return;
    }
    case "throwGrenade": {
      const aim = aimPoint();
      await throwGrenade(doc, data.itemId ?? "", aim, {
        pay: async () => (await takeAction(doc, "attack", { tokenId: data.tokenId, silent: true })).ok,
      });
      return;
    }
    case "hide":
      await toggleHidden(doc, data.itemId ?? "", data.tokenId);
      return;
    case "searchWeapons":
      await searchFromSheet(doc);
      return;
    case "suppress":
      await startSuppressing(doc, data.itemId ?? "", data.tokenId);
      return;
    case "stance": {
      const stance = data.value;
      if (!stance || !(STANCES as readonly string[]).includes(stance)) {
        throw new FrayError("FRAY.Error.Field", { field: "stance", expected: STANCES.join(", ") }, `Unknown stance "${String(stance)}"`);
      }
      await changeStance(doc, stance as Stance, data.tokenId);
      return;
    }
  }
}

/**
 * Rolls a skill check from the sheet (ZN-RNG-08): d10 + the skill's attribute modifiers + its
 * ranks, posted as a Roll. In the active combat it is a skill action and spends the action
 * (ZN-ACT-02); a dodge rolled here spends nothing (the card's dodge does, ZN-MEL-03). An unknown
 * skill id does nothing.
 * @throws FrayError when the actor cannot be read by the core.
 */
export async function zonesRollSkill(actor: unknown, skill: string, tokenId?: string): Promise<void> {
  if (!(SKILLS as readonly string[]).includes(skill)) return;
  const doc = actor as ActorDoc;
  const c = zonesCombatant(doc);
  const formula = checkFormula(skillLines(c, skill as SkillId));
  const decision = skill === "dodge" ? { ok: true, event: undefined } : await takeAction(doc, "skill", { tokenId, silent: true });
  if (!decision.ok) return;
  const flavor = game.i18n.format("FRAY.Sheet.SkillRollFlavor", { skill: game.i18n.localize(`FRAY.Zones.Skill.${skill}`) });
  const roll = await new Roll(formula).evaluate();
  await roll.toMessage({
    speaker: ChatMessage.getSpeaker({ actor: doc as never }),
    flavor: decision.event ? `${flavor} (${formatKey("FRAY.Flow.Action.SkillSpent")}, ZN-ACT-02)` : flavor,
  });
}
