/**
 * What the rulesets without their own Foundry sheet yet share: the generic stat view.
 */
import { SYSTEM_PATH } from "../config.js";

/** The generic stat view as the only actor sheet part, for both actor types. */
export const GENERIC_SHEET_PARTS = { character: ["generic"], npc: ["generic"] } as const;

/** The generic view's template. */
export const GENERIC_TEMPLATES = [`${SYSTEM_PATH}/templates/actor/generic.hbs`] as const;
