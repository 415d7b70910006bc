import type { DiceRoller } from "../rules/core/dice/port.js";
import { FrayError } from "../rules/core/errors.js";
import type { PlayOptions } from "./common.js";
import type { EncounterContent } from "./library.js";
import { DRIVERS } from "./drivers.js";
import type { EncounterSpec } from "./schema.js";
import type { EncounterResult } from "./types.js";

export type { EncounterEvent, EncounterResult, CombatantSummary, EncounterDriver } from "./types.js";

/**
 * Plays an encounter with the driver of its ruleset. Deterministic for a given file and seed.
 * @param dice defaults to the file's scripted faces followed by the seeded roller.
 * @param play quiet mode and combatants shared between fights, for a forecast ({@link PlayOptions}).
 * @throws FrayError `FRAY.Error.Field` (field `ruleset`) when no driver plays that ruleset, and
 *   the driver's errors naming the field that is wrong.
 */
export function playEncounter(
  spec: EncounterSpec,
  content: EncounterContent,
  dice?: DiceRoller,
  play?: PlayOptions,
): Promise<EncounterResult> {
  const driver = DRIVERS[spec.ruleset];
  if (!driver) {
    return Promise.reject(
      new FrayError(
        "FRAY.Error.Field",
        { field: "ruleset", expected: Object.keys(DRIVERS).join(", ") },
        `No encounter driver for ${spec.ruleset}`,
      ),
    );
  }
  return driver.play(spec, content, dice, play);
}
