/**
 * First aid to a dying combatant from the sheet's dying banner and the token HUD (CR-DTH-01,
 * CR-AP-01): picks who treats and hands the pair to the GM's first-aid request ({@link firstAid}
 * in ./treat-other.ts, the one flow macros use too), which authorizes, spends the 4 AP, rolls the
 * maneuver and writes the outcome.
 *
 * Who treats: the first controlled token's actor the user owns (not the patient); else the
 * user's combatants in the combat (owned actors, not the patient) or their assigned character;
 * with several, a dialog asks which.
 */
import { isDying } from "../../../rules/critical/index.js";
import { criticalCombatantFromActor } from "../../../rules/critical/model.js";
import { FrayError } from "../../../rules/core/errors.js";
import { actorSource } from "../../documents/source.js";
import { dialogButtons, type DialogButtonFace } from "../../logic/dialog-buttons.js";
import { escapeHtml, formatHtml, windowTitle } from "../../notify.js";
import type { HudButton } from "../../registry.js";
import { firstAid } from "./treat-other.js";

/** An actor as the first-aid controls read it. */
interface AidActor {
  uuid: string;
  name?: string | null;
  isOwner?: boolean;
  toObject(): unknown;
  statuses?: Set<string>;
}

/** The buttons of the dialog that asks who treats. */
export const FIRST_AID_DIALOG_BUTTONS: readonly DialogButtonFace[] = [
  { action: "treat", label: "FRAY.Critical.FirstAid.Button", icon: "fa-solid fa-briefcase-medical", default: true },
  { action: "cancel", label: "FRAY.Flow.Dialog.Cancel" },
];

/** True when the actor is a dying Critical combatant (CR-DTH-01); false for anything the core cannot read. */
export function isDyingActor(actor: unknown): boolean {
  try {
    return isDying(criticalCombatantFromActor(actorSource(actor as never)));
  } catch {
    return false;
  }
}

/**
 * Who of the user's characters may treat `patient`, best first: the controlled tokens' actors the
 * user owns, else the actors of the combat's combatants the user owns, else the user's assigned
 * character; never the patient, each once.
 */
export function firstAidTreaters(patient: { uuid: string }): AidActor[] {
  const pick = (list: readonly (AidActor | null | undefined)[]) => {
    const seen = new Set<string>([patient.uuid]);
    return list.filter((a): a is AidActor => {
      if (!a?.uuid || a.isOwner === false || seen.has(a.uuid)) return false;
      seen.add(a.uuid);
      return true;
    });
  };
  const controlled = (canvas as unknown as { tokens?: { controlled?: { actor?: AidActor | null }[] } } | undefined)?.tokens?.controlled;
  const own = pick((controlled ?? []).map((t) => t.actor));
  if (own.length) return own.slice(0, 1);
  const combat = (game as unknown as { combat?: { combatants?: Iterable<{ actor?: AidActor | null }> } | null }).combat;
  const fighters = pick(Array.from(combat?.combatants ?? [], (c) => c.actor));
  if (fighters.length) return fighters;
  return pick([(game.user as unknown as { character?: AidActor | null } | null)?.character]);
}

/** Asks which of several characters treats; the chosen one, or undefined when closed. */
async function askTreater(patient: AidActor, treaters: readonly AidActor[]): Promise<AidActor | undefined> {
  const options = treaters.map((a, i) => `<option value="${i}">${escapeHtml(a.name ?? "")}</option>`).join("");
  const content = `<div class="fray fray-first-aid-form"><p>${formatHtml("FRAY.Critical.FirstAid.Ask", { patient: patient.name ?? "" })}</p><div class="form-group"><label for="fray-first-aid-treater">${formatHtml("FRAY.Critical.FirstAid.Treater")}</label><select id="fray-first-aid-treater" name="treater">${options}</select></div></div>`;
  const result = await foundry.applications.api.DialogV2.wait({
    window: { title: windowTitle("FRAY.Critical.FirstAid.Title", { patient: patient.name ?? "" }) },
    classes: ["fray", "fray-first-aid"],
    content,
    buttons: dialogButtons(FIRST_AID_DIALOG_BUTTONS, {
      treat: (_event: unknown, button: { form?: { elements: Record<string, { value?: string } | undefined> } | null }) =>
        button.form?.elements.treater?.value ?? "",
    }),
    rejectClose: false,
  } as never);
  return typeof result === "string" && /^\d+$/.test(result) ? treaters[Number(result)] : undefined;
}

/**
 * Gives first aid to a dying `patient` (CR-DTH-01) with a character of the user's chosen as
 * {@link firstAidTreaters} orders them (asked when there are several), through the GM's
 * first-aid request.
 * @returns true when the GM gave it (a chat message shows the roll), false when closed.
 * @throws FrayError `FRAY.Error.NotDying` when the patient is not dying,
 *   `FRAY.Critical.Treat.NoTreater` when the user has no character to treat with, and the GM's
 *   localized refusal (not owned, not in the combat, not adjacent, too few AP).
 */
export async function firstAidFrom(patient: unknown): Promise<boolean> {
  const p = patient as AidActor;
  if (!isDyingActor(p)) throw new FrayError("FRAY.Error.NotDying", { actor: p?.name ?? "" }, `${p?.name ?? ""} is not dying`);
  const treaters = firstAidTreaters(p);
  if (!treaters.length) throw new FrayError("FRAY.Critical.Treat.NoTreater", {}, "No character of yours to treat with");
  const treater = treaters.length === 1 ? treaters[0] : await askTreater(p, treaters);
  if (!treater) return false;
  return firstAid({ treater: { uuid: treater.uuid }, patient: { uuid: p.uuid } });
}

/** The token HUD's first-aid button for a dying Critical combatant (CR-DTH-01); none otherwise. */
export function criticalHudButtons(actor: unknown): HudButton[] {
  if (!isDyingActor(actor)) return [];
  return [
    { id: "first-aid", icon: "fa-solid fa-briefcase-medical", label: "FRAY.Critical.FirstAid.Button", run: () => firstAidFrom(actor) },
  ];
}
