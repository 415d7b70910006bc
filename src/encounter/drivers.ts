import type { RulesetId } from "../rules/core/types.js";
import type { EncounterDriver } from "./types.js";
import { ud10Driver } from "./ud10.js";
import { zonesDriver } from "./zones.js";
import { hitboxDriver } from "./hitbox.js";
import { criticalDriver } from "./critical.js";

/** Encounter drivers by ruleset id: one line per ruleset. */
export const DRIVERS: Partial<Record<RulesetId, EncounterDriver>> = {
  ud10: ud10Driver,
  zones: zonesDriver,
  hitbox: hitboxDriver,
  critical: criticalDriver,
};
