/**
 * The Combat and Combatant classes moved to `src/foundry/documents/combat.ts`; the play flow's
 * registration still imports them from here.
 */
export { applyRoundTime, registerCombat } from "../documents/combat.js";
