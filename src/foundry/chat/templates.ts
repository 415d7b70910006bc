/** Templates of the play flow: prompts, the attack dialog, the tracker's economy. */
import { SYSTEM_PATH } from "../config.js";

/** Template paths, relative to Foundry's data root. */
export const FLOW_TEMPLATES = {
  freeAttack: `${SYSTEM_PATH}/templates/chat/free-attack.hbs`,
  initiative: `${SYSTEM_PATH}/templates/chat/initiative.hbs`,
  attackDialog: `${SYSTEM_PATH}/templates/dialog/attack-dialog.hbs`,
} as const;
