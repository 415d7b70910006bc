import type { DiceRoller } from "../core/dice/port.js";
import { spend, type Economy } from "../core/economy.js";
import { FrayError } from "../core/errors.js";
import type { AttackResult } from "../core/ruleset.js";
import { hitLocation, type ZonesDamagePacket } from "./damage.js";
import { copyWeapon, type CarryPlace, type Malfunction, type ZonesWeapon } from "./model.js";

/**
 * Handling weapons in a fight: reloading (ZN-REL-01), drawing (ZN-DRW-01), malfunctions
 * (ZN-MAL-01), ammunition spent by shots and by suppressing fire (ZN-SUP-01). Every function is
 * pure: it returns the new weapon and economy.
 */

/** Actions to draw from each carrying place (ZN-DRW-01). */
export const DRAW_ACTIONS: Readonly<Record<CarryPlace, number>> = { hand: 0, holster: 1, armorSlot: 1, hidden: 2, pack: 2, shouldered: 2 };

/** The outcome of working on a task that takes several actions. */
export interface TaskProgress {
  weapon: ZonesWeapon;
  economy: Economy;
  /** Actions spent now. */
  spent: number;
  /** The task is finished. */
  done: boolean;
}

function work(
  weapon: ZonesWeapon,
  economyNow: Economy,
  task: "reload" | "draw",
  needed: number,
  finish: (w: ZonesWeapon) => ZonesWeapon,
): TaskProgress {
  const pending = weapon.pending?.task === task ? weapon.pending : { task, done: 0, needed };
  const slot = economyNow.slots.action;
  const left = slot ? (slot.max === null ? Infinity : slot.max - slot.used) : 0;
  const spent = Math.min(left, pending.needed - pending.done);
  if (spent <= 0) throw new FrayError("FRAY.Error.Economy", { slot: "action" }, "No action left this round");
  const economy = spend(economyNow, { slots: { action: spent } });
  const done = pending.done + spent >= pending.needed;
  const next = done ? finish({ ...weapon, pending: null }) : { ...weapon, pending: { ...pending, done: pending.done + spent } };
  return { weapon: next, economy, spent, done };
}

/**
 * Reloads a firearm (ZN-REL-01): swaps the magazine for a full one and cocks the weapon. Takes
 * one action unless the weapon says otherwise; a reload of several actions runs over several
 * turns when the turn has fewer actions left. Spare magazines, when counted, go down by one.
 * Refilling magazines is not possible during a fight.
 * @throws FrayError `FRAY.Error.Zones.NoMagazine` (field `spareMagazines`) without a spare
 *   magazine, `FRAY.Error.Zones.NoAmmunition` for a weapon without a magazine,
 *   `FRAY.Error.Economy` without an action left.
 */
export function reload(weapon: ZonesWeapon, economyNow: Economy): TaskProgress {
  if (weapon.magazine <= 0)
    throw new FrayError("FRAY.Error.Zones.NoAmmunition", { field: "magazine", weapon: weapon.name }, `${weapon.name} takes no ammunition`);
  if (weapon.spareMagazines === 0)
    throw new FrayError(
      "FRAY.Error.Zones.NoMagazine",
      { field: "spareMagazines", weapon: weapon.name },
      `No spare magazine left for ${weapon.name}`,
    );
  return work(weapon, economyNow, "reload", weapon.reloadActions, (w) => ({
    ...w,
    loaded: w.magazine,
    spareMagazines: w.spareMagazines === null ? null : w.spareMagazines - 1,
  }));
}

/**
 * Draws a weapon (ZN-DRW-01): one action from a holster (concealed or not) or a slot of body
 * armor, two from anywhere else (boot, pocket, rucksack, shouldered); nothing when already in
 * hand. Two actions run over two turns with the standard economy.
 * @throws FrayError `FRAY.Error.Economy` without an action left.
 */
export function draw(weapon: ZonesWeapon, economyNow: Economy): TaskProgress {
  const needed = DRAW_ACTIONS[weapon.carry];
  if (weapon.drawn || needed === 0) return { weapon: { ...weapon, drawn: true }, economy: economyNow, spent: 0, done: true };
  return work(weapon, economyNow, "draw", needed, (w) => ({ ...w, drawn: true }));
}

/** Malfunctions that stop a burst or full auto fire and clear in one action (ZN-MAL-01). */
export const STOPPAGES: readonly Malfunction[] = ["failureToFeed", "stovepipe"];

/**
 * Clears a stoppage (ZN-MAL-01): a failure to feed or a stovepipe clears in one action. A squib
 * load cannot be cleared during a fight: the stuck bullet has to be driven out with tools
 * (RULES.md).
 * @throws FrayError `FRAY.Error.Zones.NoMalfunction` when the weapon works,
 *   `FRAY.Error.Zones.SquibLoad` for a squib load, `FRAY.Error.Economy` without an action.
 */
export function clearMalfunction(weapon: ZonesWeapon, economyNow: Economy): { weapon: ZonesWeapon; economy: Economy } {
  if (!weapon.malfunction)
    throw new FrayError("FRAY.Error.Zones.NoMalfunction", { weapon: weapon.name }, `${weapon.name} has no malfunction to clear`);
  if (weapon.malfunction === "squibLoad")
    throw new FrayError(
      "FRAY.Error.Zones.SquibLoad",
      { field: "malfunction", weapon: weapon.name },
      `${weapon.name} has a squib load stuck in the barrel`,
    );
  return { weapon: { ...weapon, malfunction: null }, economy: spend(economyNow, { slots: { action: 1 } }) };
}

/**
 * The weapon after a shot (ZN-BST-01, ZN-MAL-01): the rounds fired leave the magazine (a squib
 * round too), a malfunction the GM ruled stays until cleared, a shot fired behind a squib load
 * destroys the weapon. `result` is the shot's detailed result or its outcome (`attackOutcome`):
 * what is read of it is whether it was catastrophic, the malfunction, and the rounds spent (else
 * the bullets fired, else 1).
 */
export function afterShot(
  weapon: ZonesWeapon,
  result: Pick<AttackResult, "bullets"> & { catastrophic?: boolean; malfunction?: Malfunction; spent?: number },
): ZonesWeapon {
  if (result.catastrophic) {
    const burst = copyWeapon(weapon);
    burst.loaded = Math.max(0, weapon.loaded - 1);
    burst.broken = true;
    burst.malfunction = null;
    return burst;
  }
  if (weapon.kind === "thrown" || weapon.kind === "grenade" || weapon.kind === "melee") return weapon;
  const spent = result.spent ?? result.bullets?.fired ?? 1;
  // A copy with the new state (`copyWeapon`: one shape, built at every shot).
  const after = copyWeapon(weapon);
  after.loaded = Math.max(0, weapon.loaded - spent);
  after.malfunction = result.malfunction ?? weapon.malfunction;
  return after;
}

/**
 * A catastrophic failure (ZN-MAL-01): a shot fired behind a squib load bursts the weapon; the
 * shooter takes the weapon's damage once, to the arms, through armor (RULES.md).
 */
export async function catastrophicDamage(weapon: ZonesWeapon, dice: DiceRoller): Promise<ZonesDamagePacket> {
  const roll = await dice.roll(weapon.damage, "FRAY.Roll.Damage");
  return {
    roll,
    amount: Math.max(0, roll.total),
    location: hitLocation("arms").id,
    type: weapon.damageTypes[0] ?? "piercing",
    steps: [
      {
        rule: "ZN-MAL-01",
        label: "FRAY.Step.Zones.Catastrophic",
        value: 0,
        remaining: Math.max(0, roll.total),
        data: { weapon: weapon.name },
      },
    ],
  };
}

/** Rules of thumb for the bullets suppressing fire needs per action (ZN-SUP-01). */
export const SUPPRESSION_GUIDE = {
  /** One lane of attack (a hallway, a street, a narrow corridor): one bullet per action. */
  lane: 1,
  /** A wide open area with cover: a short burst per group of advancing enemies. */
  openArea: [3, 5] as const,
};

/** Suppressing fire under way (ZN-SUP-01). */
export interface Suppression {
  rule: "ZN-SUP-01";
  shooter: string;
  weaponId: string;
  /** Bullets per suppressed action, as the GM sets them. */
  bulletsPerAction: number;
  active: boolean;
  /** Actions suppressed so far. */
  actions: number;
  /** Bullets fired so far. */
  fired: number;
}

/**
 * Starts suppressing fire (ZN-SUP-01): the GM sets the bullets per action (one for a lane, a
 * short burst per group in the open, see {@link SUPPRESSION_GUIDE}); starting takes the
 * shooter's action.
 * @throws FrayError `FRAY.Error.Field` (field `bulletsPerAction`) for fewer than 1,
 *   `FRAY.Error.Zones.Empty` when the weapon holds fewer bullets than one action needs,
 *   `FRAY.Error.Economy` without an action.
 */
export function startSuppression(
  shooter: string,
  weapon: ZonesWeapon,
  bulletsPerAction: number,
  economyNow: Economy,
): { suppression: Suppression; economy: Economy } {
  if (!Number.isInteger(bulletsPerAction) || bulletsPerAction < 1) {
    throw new FrayError(
      "FRAY.Error.Field",
      { field: "bulletsPerAction", expected: "a whole number of bullets, 1 or more" },
      "Bullets per action must be 1 or more",
    );
  }
  if (weapon.loaded < bulletsPerAction)
    throw new FrayError("FRAY.Error.Zones.Empty", { field: "loaded", weapon: weapon.name }, `${weapon.name} does not hold enough bullets`);
  return {
    suppression: { rule: "ZN-SUP-01", shooter, weaponId: weapon.id, bulletsPerAction, active: true, actions: 0, fired: 0 },
    economy: spend(economyNow, { slots: { action: 1 } }),
  };
}

/**
 * One action taken while the suppression holds (ZN-SUP-01), by anyone: the shooter, an ally or
 * an enemy. The shooter fires the bullets it costs; when the weapon holds too few, the
 * suppression ends (the shooter reloads on their own turn).
 */
export function suppressAction(s: Suppression, weapon: ZonesWeapon): { suppression: Suppression; weapon: ZonesWeapon; fired: number } {
  if (!s.active) return { suppression: s, weapon, fired: 0 };
  if (weapon.loaded < s.bulletsPerAction) return { suppression: { ...s, active: false }, weapon, fired: 0 };
  const next = { ...weapon, loaded: weapon.loaded - s.bulletsPerAction };
  return { suppression: { ...s, actions: s.actions + 1, fired: s.fired + s.bulletsPerAction }, weapon: next, fired: s.bulletsPerAction };
}

/**
 * How many more actions a suppression can cover with the rounds loaded now (ZN-SUP-01): the
 * weapon's rounds divided by the bullets per action, rounded down; 0 once it has ended.
 */
export function suppressionActionsLeft(s: Suppression, weapon: Pick<ZonesWeapon, "loaded">): number {
  return s.active ? Math.floor(weapon.loaded / s.bulletsPerAction) : 0;
}
