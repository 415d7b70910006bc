import type { Ud10Combatant } from "./model.js";

/**
 * Situational modifiers of a UD10 attack (UD-ATK-03, UD-ATK-04, UD-COV-01, UD-DEF-01).
 * Conditions of attacker and target (`prone`, `crouching`, `moving`, `immobilized`,
 * `surprised`, `aiming1`, `aiming2`) are read from the combatants too; a flag given here wins.
 */
export interface Ud10Situation {
  /** Melee: the opponent is on higher ground, -2. */
  higherGround?: boolean;
  /** Ranged: rounds spent aiming, 1 (+2) or 2 (+4). */
  aim?: 0 | 1 | 2;
  /** Ranged: bad visibility such as fog, -2. */
  badVisibility?: boolean;
  /** Ranged: the target is crouching, -2. */
  targetCrouching?: boolean;
  /** Ranged: the target is moving, -2. */
  targetMoving?: boolean;
  /** Ranged: the shooter is moving, -4. */
  shooterMoving?: boolean;
  /** The attack cannot be anticipated (surprise, from behind): the defender's DEX does not count. */
  unanticipated?: boolean;
  /** Cover rating the GM assigns, added to the defense rating (UD-COV-01). */
  cover?: number;
  /** Any further modifier to the attack check the GM rules. */
  misc?: number;
}

/** Everything a UD10 attack needs. */
export interface Ud10AttackInput {
  attacker: Ud10Combatant;
  target: Ud10Combatant;
  /** Id of one of the attacker's weapons. */
  weaponId: string;
  /** Firing mode id (UD-RNG-02); the standard mode when absent. */
  modeId?: string;
  /** Distance to the target in metres (ranged attacks, UD-RNG-01). */
  rangeMetres?: number;
  situation?: Ud10Situation;
  /** The reaction the defender declares against this attack (UD-REA-02, UD-REA-04). */
  reaction?: "parry" | "dodge";
}
