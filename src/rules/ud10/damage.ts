import { playWith, rollKept, type DiceRoller, type SyncDiceRoller } from "../core/dice/port.js";
import { holds, withConditions } from "../core/lists.js";
import { FrayError } from "../core/errors.js";
import type { AttackResult, DamagePacket } from "../core/ruleset.js";
import type { DamageReport, DamageStep, RollOutcome, VitalState } from "../core/types.js";
import { weaponAndMode } from "./attack.js";
import type { Ud10AttackInput } from "./input.js";
import { copyCombatant, damageFormula, type FiringMode, type Ud10Combatant, type Ud10Weapon } from "./model.js";
import type { Ud10Options } from "./options.js";
import { armorFor } from "./zones.js";

/**
 * Rolls the damage code of the weapon (or its firing mode) for an attack that lands:
 * fixed points + N d10, every 10 rolled again and added (UD-DMG-01, UD-RNG-02). Gives the
 * amount; with `kept`, the roll is kept there.
 */
export function rollDamageOf(weapon: Ud10Weapon, mode: FiringMode | undefined, dice: SyncDiceRoller, kept?: RollOutcome[]): number {
  return rollKept(dice, damageCode(weapon, mode), "FRAY.Roll.Damage", kept);
}

/** The damage code rolled: the firing mode's, else the weapon's (UD-DMG-01, UD-RNG-02). */
function damageCode(weapon: Ud10Weapon, mode: FiringMode | undefined): string {
  return damageFormula(mode?.damage ?? weapon.damage);
}

/**
 * Rolls the damage of an attack that lands ({@link rollDamageOf}; UD-DMG-01, UD-RNG-02), with the
 * zone hit and the weapon's penetration when that option is on (UD-DMG-05).
 * @throws FrayError `FRAY.Error.NoHit` when the attack did not land.
 */
export function rollDamage(result: AttackResult, input: Ud10AttackInput, dice: DiceRoller, options: Ud10Options): Promise<DamagePacket> {
  if (!result.lands) return Promise.reject(new FrayError("FRAY.Error.NoHit", {}, "The attack did not land: there is no damage to roll"));
  const { weapon, mode } = weaponAndMode(input);
  return playWith(dice, (sync): DamagePacket => {
    const kept: RollOutcome[] = [];
    rollDamageOf(weapon, mode, sync, kept);
    return damagePacket(kept[0]!, result.location?.id, input, options);
  });
}

/** The formula of the damage code an attack rolls: the firing mode's, else the weapon's (UD-DMG-01, UD-RNG-02). */
export function damageRollFormula(input: Ud10AttackInput): string {
  const { weapon, mode } = weaponAndMode(input);
  return damageCode(weapon, mode);
}

/** The damage packet of a damage roll on body zone `location` (none without body zones), with the weapon's penetration when that option is on (UD-DMG-05). */
export function damagePacket(roll: RollOutcome, location: string | undefined, input: Ud10AttackInput, options: Ud10Options): DamagePacket {
  const { weapon } = weaponAndMode(input);
  return { roll, amount: roll.total, location, penetration: options.penetration ? weapon.penetration : 0 };
}

/** The vital state of a UD10 combatant: HP, EP and conditions (copies). */
export function vitals(c: Ud10Combatant): VitalState {
  // The tracks copied field by field: a spread's copy goes through V8's generic object cloning
  // (a forecast reads every combatant's vitals at the start and end of every fight).
  return { hp: { value: c.hp.value, max: c.hp.max }, ep: { value: c.ep.value, max: c.ep.max }, conditions: [...c.conditions] };
}

/** A UD10 combatant's HP and EP after a hit, and the conditions the hit adds. */
export interface Ud10Hit {
  hp: number;
  ep: number;
  /** EP fell to 0 (it was above): the combatant falls unconscious. */
  unconscious: boolean;
  /** HP fell to 0 or less (it was above): the combatant is incapacitated. */
  incapacitated: boolean;
}

/**
 * A hit of `amount` points on a combatant (UD-DMG-02 to UD-DMG-05, UD-ZON-01/02):
 * 1. armor of the zone hit (or the averaged armor) absorbs its rating, lowered by penetration;
 * 2. with the buffer rule, what passes, up to and including the buffer (lowered by
 *    penetration), is lost from EP instead;
 * 3. CON absorbs its rating;
 * 4. the rest is lost from HP.
 * EP does not drop below 0; at EP 0 the combatant is unconscious, at HP 0 or less
 * incapacitated (RULES.md), each added unless the combatant already has it. With `steps`, each
 * step is itemized there.
 * @param zone the body zone hit; the averaged armor applies without one or without body zones.
 * @param penetration the weapon's; counts only with the penetration option.
 */
export function takeHit(
  target: Ud10Combatant,
  amount: number,
  zone: string | undefined,
  penetration: number,
  options: Ud10Options,
  steps?: DamageStep[],
): Ud10Hit {
  let remaining = Math.max(0, amount);
  if (steps) steps.push({ rule: "UD-DMG-01", label: "FRAY.Step.Rolled", value: 0, remaining });
  const pen = options.penetration ? Math.max(0, penetration) : 0;
  const armor = armorFor(target, options.bodyZones ? zone : undefined);
  const rating = Math.max(0, armor.rating - pen);
  const armorData = steps && {
    zone: armor.zone ? `FRAY.Zone.${armor.zone}` : "FRAY.Zone.averaged",
    rating: armor.rating,
    penetration: pen,
  };
  if (steps && pen && armor.rating) {
    const value = Math.min(pen, armor.rating);
    steps.push({ rule: "UD-DMG-05", label: "FRAY.Step.Penetration", value, remaining, data: armorData, informational: true });
  }
  const absorbed = Math.min(remaining, rating);
  remaining -= absorbed;
  if (steps)
    steps.push({ rule: armor.zone ? "UD-ZON-01" : "UD-DMG-02", label: "FRAY.Step.Armor", value: absorbed, remaining, data: armorData });
  let ep = target.ep.value;
  if (options.buffer) {
    const epLoss = Math.min(remaining, Math.max(0, armor.buffer - pen));
    remaining -= epLoss;
    ep = Math.max(0, ep - epLoss);
    if (steps) {
      const data = { buffer: armor.buffer, penetration: pen, ep };
      steps.push({ rule: "UD-DMG-03", label: "FRAY.Step.Buffer", value: epLoss, remaining, data });
    }
  }
  const con = Math.min(remaining, Math.max(0, target.attributes.CON));
  remaining -= con;
  if (steps)
    steps.push({ rule: "UD-DMG-04", label: "FRAY.Step.Constitution", value: con, remaining, data: { con: target.attributes.CON } });
  const hp = target.hp.value - remaining;
  if (steps) steps.push({ rule: "UD-DMG-04", label: "FRAY.Step.HitPoints", value: remaining, remaining: 0, data: { hp } });
  const conditions = target.conditions;
  return {
    hp,
    ep,
    unconscious: ep <= 0 && target.ep.value > 0 && !holds(conditions, "unconscious"),
    incapacitated: hp <= 0 && target.hp.value > 0 && !holds(conditions, "incapacitated"),
  };
}

/**
 * Applies damage to a combatant ({@link takeHit}; UD-DMG-02 to UD-DMG-05, UD-ZON-01/02). Pure:
 * returns the new state and every step.
 */
export function applyDamage(target: Ud10Combatant, packet: DamagePacket, options: Ud10Options): DamageReport {
  const steps: DamageStep[] = [];
  const hit = takeHit(target, packet.amount, packet.location, packet.penetration ?? 0, options, steps);
  const after = vitals(target);
  after.hp!.value = hit.hp;
  after.ep!.value = hit.ep;
  const added: string[] = [];
  if (hit.unconscious) added.push("unconscious");
  if (hit.incapacitated) added.push("incapacitated");
  after.conditions.push(...added);
  return { before: vitals(target), after, steps, added };
}

/**
 * The combatant after a hit ({@link takeHit}): a new object sharing what did not change (the
 * combatant itself when nothing did); nothing is changed in place.
 */
export function withHit(target: Ud10Combatant, hit: Ud10Hit): Ud10Combatant {
  const { hp, ep } = target;
  if (hit.hp === hp.value && hit.ep === ep.value && !hit.unconscious && !hit.incapacitated) return target;
  const next = copyCombatant(target);
  if (hit.hp !== hp.value) next.hp = { value: hit.hp, max: hp.max };
  if (hit.ep !== ep.value) next.ep = { value: hit.ep, max: ep.max };
  if (hit.unconscious || hit.incapacitated)
    next.conditions = withConditions(
      target.conditions,
      hit.unconscious ? "unconscious" : undefined,
      hit.incapacitated ? "incapacitated" : undefined,
    );
  return next;
}

/** True when the state can no longer fight: unconscious, incapacitated or dead (RULES.md). */
export function isOut(state: VitalState): boolean {
  return (
    (state.hp !== undefined && state.hp.value <= 0) ||
    (state.ep !== undefined && state.ep.value <= 0) ||
    state.conditions.some((c) => c === "unconscious" || c === "incapacitated" || c === "dead")
  );
}

/** {@link isOut} of the combatant's {@link vitals}, read from the combatant directly. */
export function isOutOf(c: Ud10Combatant): boolean {
  if (c.hp.value <= 0 || c.ep.value <= 0) return true;
  // A loop without a closure: the engine asks for every combatant state a fight takes.
  const conditions = c.conditions;
  for (let i = 0; i < conditions.length; i++) {
    const x = conditions[i];
    if (x === "unconscious" || x === "incapacitated" || x === "dead") return true;
  }
  return false;
}
