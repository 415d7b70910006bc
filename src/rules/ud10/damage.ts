import type { DiceRoller } from "../core/dice/port.js";
import { FrayError } from "../core/errors.js";
import type { AttackResult, DamagePacket } from "../core/ruleset.js";
import type { DamageReport, DamageStep, RollOutcome, VitalState } from "../core/types.js";
import { weaponAndMode } from "./attack.js";
import type { Ud10AttackInput } from "./input.js";
import { damageFormula, type Ud10Combatant } from "./model.js";
import type { Ud10Options } from "./options.js";
import { armorFor } from "./zones.js";

/**
 * Rolls the damage code of the weapon (or its firing mode) for an attack that lands:
 * fixed points + N d10, every 10 rolled again and added (UD-DMG-01, UD-RNG-02).
 * @throws FrayError `FRAY.Error.NoHit` when the attack did not land.
 */
export async function rollDamage(
  result: AttackResult,
  input: Ud10AttackInput,
  dice: DiceRoller,
  options: Ud10Options,
): Promise<DamagePacket> {
  if (!result.lands) throw new FrayError("FRAY.Error.NoHit", {}, "The attack did not land: there is no damage to roll");
  const roll = await dice.roll(damageRollFormula(input), "FRAY.Roll.Damage");
  return damagePacket(roll, result.location?.id, input, options);
}

/** The formula of the damage code an attack rolls: the firing mode's, else the weapon's (UD-DMG-01, UD-RNG-02). */
export function damageRollFormula(input: Ud10AttackInput): string {
  const { weapon, mode } = weaponAndMode(input);
  return damageFormula(mode?.damage ?? weapon.damage);
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

/**
 * Applies damage to a combatant, step by step (UD-DMG-02 to UD-DMG-05, UD-ZON-01/02):
 * 1. armor of the zone hit (or the averaged armor) absorbs its rating, lowered by penetration;
 * 2. with the buffer rule, what passes, up to and including the buffer (lowered by
 *    penetration), is lost from EP instead;
 * 3. CON absorbs its rating;
 * 4. the rest is lost from HP.
 * EP does not drop below 0; at EP 0 the combatant is unconscious, at HP 0 or less
 * incapacitated (RULES.md). Pure: returns the new state and every step.
 */
export function applyDamage(target: Ud10Combatant, packet: DamagePacket, options: Ud10Options): DamageReport {
  const before = vitals(target);
  const steps: DamageStep[] = [];
  let remaining = Math.max(0, packet.amount);
  steps.push({ rule: "UD-DMG-01", label: "FRAY.Step.Rolled", value: 0, remaining });
  const pen = options.penetration ? Math.max(0, packet.penetration ?? 0) : 0;
  const zone = options.bodyZones ? packet.location : undefined;
  const armor = armorFor(target, zone);
  const rating = Math.max(0, armor.rating - pen);
  const armorData = { zone: armor.zone ? `FRAY.Zone.${armor.zone}` : "FRAY.Zone.averaged", rating: armor.rating, penetration: pen };
  if (pen && armor.rating) {
    steps.push({
      rule: "UD-DMG-05",
      label: "FRAY.Step.Penetration",
      value: Math.min(pen, armor.rating),
      remaining,
      data: armorData,
      informational: true,
    });
  }
  const absorbed = Math.min(remaining, rating);
  remaining -= absorbed;
  steps.push({ rule: armor.zone ? "UD-ZON-01" : "UD-DMG-02", label: "FRAY.Step.Armor", value: absorbed, remaining, data: armorData });

  const after = vitals(target);
  if (options.buffer) {
    const buffer = Math.max(0, armor.buffer - pen);
    const epLoss = Math.min(remaining, buffer);
    remaining -= epLoss;
    const ep = after.ep!;
    ep.value = Math.max(0, ep.value - epLoss);
    steps.push({
      rule: "UD-DMG-03",
      label: "FRAY.Step.Buffer",
      value: epLoss,
      remaining,
      data: { buffer: armor.buffer, penetration: pen, ep: ep.value },
    });
  }
  const con = Math.min(remaining, Math.max(0, target.attributes.CON));
  remaining -= con;
  steps.push({ rule: "UD-DMG-04", label: "FRAY.Step.Constitution", value: con, remaining, data: { con: target.attributes.CON } });
  const hp = after.hp!;
  hp.value -= remaining;
  steps.push({ rule: "UD-DMG-04", label: "FRAY.Step.HitPoints", value: remaining, remaining: 0, data: { hp: hp.value } });

  const added: string[] = [];
  const add = (s: string) => {
    if (!after.conditions.includes(s)) {
      after.conditions.push(s);
      added.push(s);
    }
  };
  if (after.ep!.value <= 0 && before.ep!.value > 0) add("unconscious");
  if (hp.value <= 0 && before.hp!.value > 0) add("incapacitated");
  return { before, after, steps, added };
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
