/**
 * Treating another combatant's wound through the GM (CR-BLD-02, CR-AP-01): the treater's user
 * asks (`fray.critical.treatOther`, carried by their own User so the server vouches for who
 * asks); the active GM authorizes against the documents (the requester owns the treating actor,
 * both actors are combatants of the active combat, their tokens stand adjacent), recomputes the
 * treatment through the core on the patient as it is now, spends its AP from the treater's
 * combatant (refused when short) and writes the patient's wounds. Nothing the request carries
 * but which wound and which treatment is believed.
 */
import { criticalOptions, criticalVitalsUpdate, TREATMENTS, treat, vitals, type Treatment } from "../../../rules/critical/index.js";
import { criticalCombatantFromActor } from "../../../rules/critical/model.js";
import { tokensAdjacent, type TokenDocLike } from "../../canvas/movement.js";
import { actionsOf, activeCombat, combatantFor, economyOf, spendOn, type CombatantLike } from "../../combat/economy-store.js";
import { actorSource } from "../../documents/source.js";
import { actionEvent, eventCost } from "../../logic/economy.js";
import { shortfall } from "../../../rules/core/economy.js";
import { FrayError } from "../../../rules/core/errors.js";
import { askGM, queryAnswer, refusal, type RequestAnswer, type Requester } from "../../queries.js";
import { optionValues } from "../../settings.js";

/** The GM request of a treatment of another's wound. */
export const TREAT_OTHER_REQUEST = "fray.critical.treatOther";

/** An actor as the treatment reads and writes it. */
interface TreatActor {
  id: string | null;
  uuid: string;
  name: string | null;
  toObject(): unknown;
  statuses?: Set<string>;
  testUserPermission?(user: unknown, level: string): boolean;
  update(data: Record<string, unknown>): Promise<unknown>;
}

/** A Combatant with its token, as the treatment reads it. */
type TreatCombatant = CombatantLike & { token?: TokenDocLike | null };

/**
 * Asks the active GM to treat a wound of `patient` by `treater` (CR-BLD-02): one of the core's
 * treatments, the patient's wound by its effect id.
 * @throws FrayError with the GM's localized refusal.
 */
export async function treatOther(request: {
  treater: { uuid: string };
  patient: { uuid: string };
  effectId: string;
  method: Treatment;
}): Promise<boolean> {
  return queryAnswer(
    await askGM(TREAT_OTHER_REQUEST, {
      treaterUuid: request.treater.uuid,
      patientUuid: request.patient.uuid,
      effectId: request.effectId,
      method: request.method,
    }),
  );
}

/**
 * The active GM's handler of {@link TREAT_OTHER_REQUEST}: refuses unless the requester owns the
 * treater, both are in the active combat with their tokens adjacent, the core accepts the
 * treatment on the patient as it is now, and the treater has the AP; then spends them and writes
 * the patient's wounds.
 */
export async function handleTreatOther(data: Record<string, unknown>, requester: Requester): Promise<RequestAnswer> {
  const method = String(data.method ?? "");
  const effectId = data.effectId;
  if (!(TREATMENTS as readonly string[]).includes(method) || typeof effectId !== "string" || !effectId)
    return refusal("FRAY.Error.Field", { field: "method", expected: TREATMENTS.join(", ") });
  const load = async (uuid: unknown) =>
    typeof uuid === "string" ? ((await foundry.utils.fromUuid(uuid as never)) as unknown as TreatActor | null) : null;
  const treater = await load(data.treaterUuid);
  const patient = await load(data.patientUuid);
  const user = (game.users as unknown as { get(id: string): unknown } | undefined)?.get(requester.id);
  if (!treater || !patient || !user || !treater.testUserPermission?.(user, "OWNER"))
    return refusal("FRAY.Critical.Treat.NotOwner", { actor: treater?.name ?? "" });
  const combat = activeCombat();
  const by = combat?.started ? (combatantFor(treater) as TreatCombatant | undefined) : undefined;
  const of = combat?.started ? (combatantFor(patient) as TreatCombatant | undefined) : undefined;
  if (!by || !of) return refusal("FRAY.Critical.Treat.NotInCombat", { treater: treater.name ?? "", patient: patient.name ?? "" });
  if (by !== of && !(by.token && of.token && tokensAdjacent(by.token, of.token)))
    return refusal("FRAY.Critical.Treat.NotAdjacent", { treater: treater.name ?? "", patient: patient.name ?? "" });
  let treated;
  try {
    treated = treat(
      criticalCombatantFromActor(actorSource(patient as never)),
      effectId,
      method as Treatment,
      criticalOptions(optionValues("critical")),
    );
  } catch (err) {
    if (err instanceof FrayError) return refusal(err.key, err.data as Record<string, string | number>);
    throw err;
  }
  const event = actionEvent(method, actionsOf(by));
  if (shortfall(economyOf(by), eventCost(event))) return refusal("FRAY.Critical.Treat.NoAp", { actor: treater.name ?? "" });
  if (await spendOn(by, event)) return refusal("FRAY.Critical.Treat.NoAp", { actor: treater.name ?? "" });
  await patient.update(criticalVitalsUpdate(vitals(treated.combatant)) as Record<string, unknown>);
  return { ok: true };
}
