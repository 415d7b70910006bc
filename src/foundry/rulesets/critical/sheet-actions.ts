/**
 * What the Critical sheet's own controls do: treating a bleeding or burning wound of the sheet's
 * actor (CR-BLD-02) at the treatment's AP cost (CR-AP-01, RULES.md). The core checks the
 * treatment against the wound first; in combat the AP are spent through the economy store (refused
 * when short); then the actor's wounds are written back. The owner treats their own actor's
 * wounds; on another's sheet the user's own character (controlled token, else assigned) treats
 * through the GM ({@link treatOther}). A maneuver rolls from the sheet too (CR-MAN-01), and first aid
 * to a dying combatant goes to the GM from the dying banner (CR-DTH-01).
 */
import { criticalOptions, criticalVitalsUpdate, TREATMENTS, treat, vitals, type Treatment } from "../../../rules/critical/index.js";
import { criticalCombatantFromActor } from "../../../rules/critical/model.js";
import { actorSource } from "../../documents/source.js";
import { takeAction } from "../../round-actions.js";
import { maneuverFrom } from "./maneuver.js";
import { optionValues } from "../../settings.js";
import { FrayError } from "../../../rules/core/errors.js";
import { firstAidFrom } from "./first-aid.js";
import { treatOther } from "./treat-other.js";

/** The actor a sheet control acts on, as far as this module reads it. */
interface SheetActor {
  id: string | null;
  uuid: string;
  name: string | null;
  toObject(): unknown;
  statuses?: Set<string>;
  isOwner?: boolean;
  update(data: Record<string, unknown>): Promise<unknown>;
}

/** True for one of the core's treatments. */
function isTreatment(id: string | undefined): id is Treatment {
  return (TREATMENTS as readonly string[]).includes(id ?? "");
}

/**
 * Runs a control of the Critical sheet (`data-op`): `maneuver` (CR-MAN-01, see ./maneuver.ts);
 * `firstAid` on the dying banner (CR-DTH-01, see ./first-aid.ts); `treat` with `data-effect-id` (the wound) and
 * `data-method` (staunch, bandage, tourniquet, medkit, smother, dropAndRoll).
 * @throws FrayError from the core when the treatment does not fit the wound, was already used on
 *   it, or needs a limb (CR-BLD-02).
 */
export async function criticalSheetAction(
  actor: unknown,
  data: Readonly<Record<string, string | undefined>>,
  tokenId?: string,
): Promise<void> {
  if (data.op === "maneuver") {
    await maneuverFrom(actor, tokenId);
    return;
  }
  if (data.op === "firstAid") {
    await firstAidFrom(actor);
    return;
  }
  if (data.op !== "treat" || !isTreatment(data.method) || !data.effectId) return;
  const a = actor as SheetActor;
  if (a.isOwner === false) {
    // Another's wound: the user's own character (controlled token, else assigned) treats it through the GM.
    const treater =
      (canvas?.tokens?.controlled?.[0]?.actor as { uuid?: string } | null | undefined) ??
      (game.user?.character as { uuid?: string } | null | undefined);
    if (!treater?.uuid) throw new FrayError("FRAY.Critical.Treat.NoTreater", {}, "No character of yours to treat with");
    await treatOther({ treater: { uuid: treater.uuid }, patient: a, effectId: data.effectId, method: data.method });
    return;
  }
  const c = criticalCombatantFromActor(actorSource(a as never));
  const { combatant } = treat(c, data.effectId, data.method, criticalOptions(optionValues("critical")));
  const decision = await takeAction(a, data.method, { tokenId });
  if (!decision.ok) return;
  await a.update(criticalVitalsUpdate(vitals(combatant)) as Record<string, unknown>);
}
