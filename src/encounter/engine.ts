import type { DiceRoller } from "../rules/core/dice/port.js";
import { FrayError } from "../rules/core/errors.js";
import { inputError } from "../rules/core/validate.js";
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
 * @throws FrayError `FRAY.Error.Field` (field `ruleset`) when no driver plays that ruleset,
 *   `FRAY.Error.Input.DieFace` naming `dice[i]` for a scripted face that does not fit the die
 *   rolled there, and the driver's errors naming the field that is wrong.
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
  const played = driver.play(spec, content, dice, play);
  // The file's scripted faces are the default roller's: a face that does not fit its die names its place in `dice`.
  return dice === undefined && spec.dice.length > 0 ? played.catch(scriptedFaceError) : played;
}

/**
 * A scripted face that does not fit the die rolled there (`FRAY.Error.DiceScriptFace`), as the
 * file's field `dice[i]`; any other error unchanged. For a roller made of the file's `dice`.
 * @throws always: FrayError `FRAY.Error.Input.DieFace` naming `dice[i]`, or `error` itself.
 */
export function scriptedFaceError(error: unknown): never {
  if (error instanceof FrayError && error.key === "FRAY.Error.DiceScriptFace" && typeof error.data.index === "number") {
    const { face = "?", faces = "?", index } = error.data;
    throw inputError(
      `dice[${index}]`,
      "FRAY.Error.Input.DieFace",
      { face, faces },
      `a face from 1 to ${faces} (a d${faces} is rolled there, not ${face})`,
    );
  }
  throw error;
}
