/**
 * Treating another combatant's wound through the GM (CR-BLD-02, CR-AP-01): the treater's user
 * asks (`fray.critical.treatOther`, carried by their own User so the server vouches for who
 * asks); the active GM authorizes against the documents (the requester owns the treating actor,
 * both actors are combatants of the active combat, their tokens stand adjacent), recomputes the
 * treatment through the core on the patient as it is now, spends its AP from the treater's
 * combatant (refused when short) and writes the patient's wounds. First aid to a dying ally
 * (CR-DTH-01) goes the same way, its maneuver rolled on the GM's client. Nothing the request
 * carries but which wound and which treatment is believed.
 */
import {
  criticalOptions,
  criticalVitalsUpdate,
  firstAid as rollFirstAid,
  isDying,
  TREATMENTS,
  treat,
  vitals,
  type Treatment,
} from "../../../rules/critical/index.js";
import { FoundryRoller } from "../../dice.js";
import { formatHtml } from "../../notify.js";
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
  const pair = await authorizePair(data, requester);
  if ("error" in pair) return pair;
  const { treater, patient, by } = pair;
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
  const paid = await pay(by, method, treater);
  if (paid) return paid;
  await patient.update(criticalVitalsUpdate(vitals(treated.combatant)) as Record<string, unknown>);
  return { ok: true };
}

/** Spends an action's AP from the treater's combatant; a refusal when short. */
async function pay(by: TreatCombatant, action: string, treater: TreatActor): Promise<RequestAnswer | undefined> {
  const event = actionEvent(action, actionsOf(by));
  if (shortfall(economyOf(by), eventCost(event)) || (await spendOn(by, event)))
    return refusal("FRAY.Critical.Treat.NoAp", { actor: treater.name ?? "" });
  return undefined;
}

/**
 * The documents of a treatment request, authorized (CR-BLD-02, CR-DTH-01): the requester owns
 * the treater, both are combatants of the active combat, and their tokens stand adjacent (or it
 * is the same combatant); else the refusal.
 */
async function authorizePair(
  data: Record<string, unknown>,
  requester: Requester,
): Promise<{ treater: TreatActor; patient: TreatActor; by: TreatCombatant } | (RequestAnswer & { error: unknown })> {
  const load = async (uuid: unknown) =>
    typeof uuid === "string" ? ((await foundry.utils.fromUuid(uuid as never)) as unknown as TreatActor | null) : null;
  const treater = await load(data.treaterUuid);
  const patient = await load(data.patientUuid);
  const user = (game.users as unknown as { get(id: string): unknown } | undefined)?.get(requester.id);
  const refuse = (key: string, d: Record<string, string>) => refusal(key, d) as RequestAnswer & { error: unknown };
  if (!treater || !patient || !user || !treater.testUserPermission?.(user, "OWNER"))
    return refuse("FRAY.Critical.Treat.NotOwner", { actor: treater?.name ?? "" });
  const combat = activeCombat();
  const by = combat?.started ? (combatantFor(treater) as TreatCombatant | undefined) : undefined;
  const of = combat?.started ? (combatantFor(patient) as TreatCombatant | undefined) : undefined;
  if (!by || !of) return refuse("FRAY.Critical.Treat.NotInCombat", { treater: treater.name ?? "", patient: patient.name ?? "" });
  if (by !== of && !(by.token && of.token && tokensAdjacent(by.token, of.token)))
    return refuse("FRAY.Critical.Treat.NotAdjacent", { treater: treater.name ?? "", patient: patient.name ?? "" });
  return { treater, patient, by };
}

/** The GM request of first aid to a dying ally. */
export const FIRST_AID_REQUEST = "fray.critical.firstAid";

/**
 * Asks the active GM for first aid by `treater` to a dying `patient` (CR-DTH-01).
 * @throws FrayError with the GM's localized refusal.
 */
export async function firstAid(request: { treater: { uuid: string }; patient: { uuid: string } }): Promise<boolean> {
  return queryAnswer(await askGM(FIRST_AID_REQUEST, { treaterUuid: request.treater.uuid, patientUuid: request.patient.uuid }));
}

/**
 * The active GM's handler of {@link FIRST_AID_REQUEST} (CR-DTH-01, CR-AP-01, CR-MAN-01): the pair
 * authorized as for a treatment; the patient must be dying; the treater pays 4 AP; the GM's
 * client rolls the first-aid maneuver (the treater's first-aid skill, 100% or more saves); a save
 * stops the patient's count to death. A chat message shows the roll and the outcome.
 */
export async function handleFirstAid(data: Record<string, unknown>, requester: Requester): Promise<RequestAnswer> {
  const pair = await authorizePair(data, requester);
  if ("error" in pair) return pair;
  const { treater, patient, by } = pair;
  const dying = criticalCombatantFromActor(actorSource(patient as never));
  if (!isDying(dying)) return refusal("FRAY.Error.NotDying", { actor: patient.name ?? "" });
  const medic = criticalCombatantFromActor(actorSource(treater as never));
  const paid = await pay(by, "firstAid", treater);
  if (paid) return paid;
  const roller = new FoundryRoller();
  let aid;
  try {
    aid = await rollFirstAid(medic, dying, roller);
  } catch (err) {
    if (err instanceof FrayError) return refusal(err.key, err.data as Record<string, string | number>);
    throw err;
  }
  const result = aid.maneuver;
  if (result.success) await patient.update(criticalVitalsUpdate(vitals(aid.patient)) as Record<string, unknown>);
  const key = result.success ? "FRAY.Critical.Treat.FirstAidSaved" : "FRAY.Critical.Treat.FirstAidFailed";
  await ChatMessage.implementation.create({
    content: `<div class="fray fray-card"><p>${formatHtml(key, { treater: treater.name ?? "", patient: patient.name ?? "", percent: result.percent })} <span class="fray-rule">CR-DTH-01</span></p></div>`,
    rolls: roller.rolls,
  } as never);
  return { ok: true };
}
