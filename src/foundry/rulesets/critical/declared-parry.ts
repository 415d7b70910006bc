/**
 * Critical's part in the tracker's forecast (src/foundry/logic/forecast-state.ts): the parry split
 * a combatant carries for the round under way (its actor's `system.parry`, OB by foe token,
 * CR-PAR-01) and whether the rules accept it now. Pure: no Foundry globals.
 */
import { declareParry } from "../../../rules/critical/index.js";
import type { CriticalCombatant } from "../../../rules/critical/model.js";

/** The binding's `declaredParry` (RulesetBinding in registry.ts). */
export const criticalDeclaredParry = {
  /** The split the combatant carries, OB by foe token; undefined when it parries nobody. */
  read: (c: CriticalCombatant): Readonly<Record<string, number>> | undefined => (Object.keys(c.parry).length ? c.parry : undefined),
  /**
   * Whether the rules accept `split` (OB by foe id) for the combatant now: it can parry and moves
   * no more OB than it has (`declareParry`, CR-PAR-01, CR-PAR-03).
   */
  accepts: (c: CriticalCombatant, split: Record<string, number>): boolean => {
    try {
      declareParry(c, split);
      return true;
    } catch {
      return false;
    }
  },
};
