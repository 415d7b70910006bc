import type { DiceRoller } from "../core/dice/port.js";
import { FrayError } from "../core/errors.js";
import type { DamageReport, RuleId } from "../core/types.js";
import { applyDamage, hasFullBodyArmor, type ZonesDamagePacket } from "./damage.js";
import { restate, type ZonesCombatant, type ZonesWeapon } from "./model.js";
import type { ZonesOptions } from "./options.js";

/**
 * Cover between a grenade and someone near it (ZN-GRN-01): `none`, `partial`, `full` (stops the
 * shrapnel) or `grenadeProof` (stops everything).
 */
export type BlastCover = "none" | "partial" | "full" | "grenadeProof";

/** Someone near a grenade when it goes off. */
export interface BlastVictim {
  combatant: ZonesCombatant;
  /** Metres from the point of the blast. */
  distance: number;
  cover?: BlastCover;
}

/** What a blast did to one combatant (ZN-GRN-01). */
export interface BlastOutcome {
  id: string;
  distance: number;
  /** `effective`, `casualty` or `outside` the radii. */
  zone: "effective" | "casualty" | "outside";
  /** `killed`, `incapacitated`, `shockwave` (protected from the shrapnel, takes the blast only), `unharmed`. */
  effect: "killed" | "incapacitated" | "shockwave" | "unharmed";
  rule: RuleId;
  /** i18n key of why. */
  reason: string;
  /** The shock wave's damage, for someone shielded from the shrapnel inside the casualty radius. */
  report?: DamageReport;
  /** The combatant afterwards. */
  after: ZonesCombatant;
}

function withCondition(c: ZonesCombatant, condition: string): ZonesCombatant {
  return c.conditions.includes(condition) ? c : restate(c, { conditions: [...c.conditions, condition] });
}

/**
 * A grenade goes off (ZN-GRN-01). Inside the effective radius everyone dies unless behind
 * grenade-proof cover. Inside the casualty radius everyone is incapacitated (or killed, option
 * `grenadeCasualty`), unless shielded from the shrapnel (piercing) by full cover or full body
 * armor: then only the shock wave (bludgeoning, the grenade's damage formula, to the torso)
 * applies through armor. Grenade-proof cover protects everywhere; outside the casualty radius
 * nobody is harmed.
 * @throws FrayError `FRAY.Error.Field` (field `weapon`) for a weapon that is not a grenade, or
 *   (field `distance`) for a negative distance.
 */
export async function resolveBlast(
  grenade: ZonesWeapon,
  victims: readonly BlastVictim[],
  dice: DiceRoller,
  options: Pick<ZonesOptions, "grenadeCasualty" | "slashingVitals" | "piercingAtTwo">,
): Promise<BlastOutcome[]> {
  if (grenade.kind !== "grenade")
    throw new FrayError("FRAY.Error.Field", { field: "weapon", expected: "a grenade" }, `${grenade.name} is not a grenade`);
  const out: BlastOutcome[] = [];
  for (const [i, v] of victims.entries()) {
    if (!(v.distance >= 0))
      throw new FrayError(
        "FRAY.Error.Field",
        { field: `victims[${i}].distance`, expected: "metres, 0 or more" },
        "Distance must be 0 or more metres",
      );
    const cover = v.cover ?? "none";
    const c = v.combatant;
    const zone: BlastOutcome["zone"] =
      v.distance <= grenade.effectiveRadius ? "effective" : v.distance <= grenade.casualtyRadius ? "casualty" : "outside";
    const base = { id: c.id, distance: v.distance, zone, rule: "ZN-GRN-01" as const };
    if (zone === "outside") {
      out.push({ ...base, effect: "unharmed", reason: "FRAY.Zones.Blast.outside", after: c });
    } else if (cover === "grenadeProof") {
      out.push({ ...base, effect: "unharmed", reason: "FRAY.Zones.Blast.grenadeProof", after: c });
    } else if (zone === "effective") {
      out.push({ ...base, effect: "killed", reason: "FRAY.Zones.Blast.effective", after: withCondition(c, "dead") });
    } else if (cover === "full" || hasFullBodyArmor(c)) {
      const roll = await dice.roll(grenade.damage, "FRAY.Roll.Damage");
      const packet: ZonesDamagePacket = { roll, amount: Math.max(0, roll.total), location: "torso", type: "bludgeoning" };
      const report = applyDamage(c, packet, options);
      const after = restate(c, { hp: report.after.hp!, conditions: report.after.conditions });
      out.push({
        ...base,
        effect: "shockwave",
        reason: cover === "full" ? "FRAY.Zones.Blast.fullCover" : "FRAY.Zones.Blast.fullBodyArmor",
        report,
        after,
      });
    } else {
      const kill = options.grenadeCasualty === "kill";
      out.push({
        ...base,
        effect: kill ? "killed" : "incapacitated",
        reason: "FRAY.Zones.Blast.casualty",
        after: withCondition(c, kill ? "dead" : "incapacitated"),
      });
    }
  }
  return out;
}
