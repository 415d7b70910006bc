import type { CheckResult } from "../core/types.js";
import type { HitboxCombatant, HitboxId } from "./model.js";

/**
 * Circumstances of a Hitbox attack (HB-MOD-01 to HB-MOD-03, HB-ATK-03, HB-ATK-05). Conditions
 * of the target (`prone`, `unaware`) are read from the combatant too; a flag given here wins.
 */
export interface HitboxSituation {
  /** At least 50% of the target is not visible: -1 (HB-MOD-02). */
  halfHidden?: boolean;
  /** The target is in darkness or dim light: -1 (HB-MOD-02). */
  dark?: boolean;
  /** The target is lying prone (since before this turn): -1, and it cannot dodge (HB-MOD-02, HB-MOD-04). */
  targetProne?: boolean;
  /** The target has cover nearby: it can dodge without dropping to the ground (HB-ATK-03). */
  targetNearCover?: boolean;
  /** The target went prone this turn (a quick action): it may dodge every attack this turn (HB-ACT-04). */
  targetWentProne?: boolean;
  /** The target is unaware of the attacker: it cannot dodge or parry (HB-ATK-05). */
  targetUnaware?: boolean;
  /** The target feels threatened (already in a fight). An unaware target that is not threatened never saw it coming (HB-ATK-05). */
  targetThreatened?: boolean;
  /** Any further modifier to the attack test the GM rules. */
  misc?: number;
}

/** A dodge or parry already rolled this turn: its total stands against every attack (HB-ATK-03, RULES.md). */
export interface RolledReaction {
  id: "dodge" | "parry";
  check: CheckResult;
  /** The dodger had no cover and dropped to the ground (HB-ATK-03, HB-ACT-04). */
  dropsProne: boolean;
}

/** Everything a Hitbox attack needs (HB-ATK-01 to HB-ATK-05, HB-MOD-01 to HB-MOD-04). */
export interface HitboxAttackInput {
  attacker: HitboxCombatant;
  target: HitboxCombatant;
  /** Id or name of one of the attacker's weapons. */
  weaponId: string;
  /** Distance to the target in **feet** (HB-MOD-01); melee attacks ignore it for modifiers. */
  rangeFeet?: number;
  /** The hitbox a called shot aims at (HB-ATK-01, HB-MOD-03, HB-LOC-02); absent for a regular shot. */
  calledShot?: HitboxId;
  /** Shots the attacker fires this turn with this weapon, this one included (HB-MOD-03); default 1. */
  shots?: number;
  situation?: HitboxSituation;
  /** The reaction the defender declares (HB-ATK-03). */
  reaction?: "dodge" | "parry";
  /** The defender's reaction when it was already rolled this turn. */
  rolledReaction?: RolledReaction;
}
