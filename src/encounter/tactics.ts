/**
 * The tactics a combatant follows in rounds its encounter file declares nothing for, as data:
 * an ordered list of rules for its target and for its weapon, and its reaction. The encounter
 * drivers pick targets and weapons through {@link chooseTarget} and {@link chooseWeapon} with
 * {@link DEFAULT_TACTICS}, and the forecast states them on its result ({@link describeTactics}).
 */
import type { RulesetId } from "../rules/core/types.js";
import type { CombatantSpec, EncounterSpec } from "./schema.js";

/**
 * A rule for choosing whom to attack; the first rule that names a standing enemy wins.
 * - `declared`: the combatant the round's action or the entry's `tactics.attack` names;
 * - `engaged`: the enemy it is already fighting in melee (where the ruleset tracks engagement);
 * - `nearest`: the enemy at the shortest known distance (only where distances are known: a
 *   file's `distances`, as the tracker's forecast gives the tokens'; without them the rule passes);
 * - `first`: the first standing enemy in the order of the file.
 */
export type TargetRule = "declared" | "engaged" | "nearest" | "first";

/**
 * A rule for choosing the weapon; the first rule that names a weapon the combatant has wins.
 * - `declared`: the round action's `weapon`; `tactics`: the entry's `tactics.weapon`;
 * - `best`: the weapon scoring highest where a score is known (expected damage against the
 *   target, say; an encounter file has none, so the rule passes);
 * - `ready`: the weapon the ruleset has at hand (held in Hitbox, the first firearm in Zones);
 * - `first`: the first weapon of the combatant.
 */
export type WeaponRule = "declared" | "tactics" | "best" | "ready" | "first";

/** How a combatant chooses when its file leaves the choice open. */
export interface Tactics {
  target: readonly TargetRule[];
  weapon: readonly WeaponRule[];
  /**
   * `whenPossible`: the reaction the entry's `react` names, each time the ruleset allows one
   * (an action or reaction left, a weapon to parry with); `none` never reacts.
   */
  react: "whenPossible" | "none";
}

/**
 * The tactics every encounter driver plays: declared target and weapon first, then nearest, best,
 * ready, first. The object is frozen, its rule lists only typed read-only: V8's optimizing
 * compiler reads an item of a frozen list through a generic lookup, and every combatant of a
 * forecast reads these lists every turn. {@link describeTactics} hands out copies of them.
 */
export const DEFAULT_TACTICS: Tactics = Object.freeze({
  target: ["declared", "engaged", "nearest", "first"] as const,
  weapon: ["declared", "tactics", "best", "ready", "first"] as const,
  react: "whenPossible" as const,
});

/**
 * The reaction a combatant without a standing order (a tracker's combatant, whose actor names
 * none) declares, by ruleset: as a table would expect, a parry with a melee weapon in hand and a
 * dodge without (UD10 UD-REA-02, UD-REA-04; Hitbox HB-ATK-03), a parry in Critical (CR-PAR-01),
 * `defend` in Zones (a dodge while an action is left, else a block, ZN-REA-01). Each is one of its
 * driver's `reactions`; the rules still refuse one that is not possible when it comes (no dodge
 * where the world turns it off, no parry without a weapon).
 */
export const DEFAULT_REACTIONS: Readonly<Record<RulesetId, { readonly melee: string; readonly ranged: string }>> = Object.freeze({
  ud10: { melee: "parry", ranged: "dodge" },
  hitbox: { melee: "parry", ranged: "dodge" },
  critical: { melee: "parry", ranged: "parry" },
  zones: { melee: "defend", ranged: "defend" },
});

/** What {@link chooseTarget} knows of the enemies. */
export interface TargetChoice<T> {
  /** The declared target, when it is still standing. */
  declared?: T;
  /** The enemy engaged in melee with the chooser, when there is one. */
  engaged?: T;
  /** Standing enemies in the order of the file. */
  enemies: readonly T[];
  /** Distance to an enemy in metres, where known. */
  distance?: (enemy: T) => number | undefined;
}

/**
 * The target the rules pick: the first rule with an answer. `nearest` takes the enemy with the
 * smallest known distance (the first in file order on a tie) and passes when no distance is known.
 * @returns undefined when no rule names an enemy (no enemy is standing).
 */
export function chooseTarget<T>(rules: readonly TargetRule[], choice: TargetChoice<T>): T | undefined {
  // Indexed loops: every combatant chooses every turn, and V8 builds an iterator result per step
  // of a `for of` over a frozen list where it cannot optimize the loop away.
  for (let r = 0; r < rules.length; r++) {
    const rule = rules[r];
    if (rule === "declared" && choice.declared !== undefined) return choice.declared;
    if (rule === "engaged" && choice.engaged !== undefined) return choice.engaged;
    if (rule === "nearest" && choice.distance) {
      let best: T | undefined;
      let bestDistance = Infinity;
      const enemies = choice.enemies;
      for (let i = 0; i < enemies.length; i++) {
        const e = enemies[i]!;
        const d = choice.distance(e);
        if (d !== undefined && d < bestDistance) {
          best = e;
          bestDistance = d;
        }
      }
      if (best !== undefined) return best;
    }
    if (rule === "first" && choice.enemies.length) return choice.enemies[0];
  }
  return undefined;
}

/** What {@link chooseWeapon} knows: weapon references (ids or names) and the combatant's weapons. */
export interface WeaponChoice<W> {
  declared?: string;
  tactics?: string;
  weapons: readonly W[];
  /** The weapon the ruleset has at hand, if any. */
  ready?: W;
  /** A weapon's score for `best`, where known (higher is better). */
  score?: (weapon: W) => number | undefined;
}

/**
 * The weapon reference the rules pick: a declared or tactics reference as written (the driver
 * resolves it and names a wrong one), else the id of the best-scoring, ready or first weapon.
 * @returns undefined when the combatant has no weapon and none is named.
 */
export function chooseWeapon<W extends { id: string }>(rules: readonly WeaponRule[], choice: WeaponChoice<W>): string | undefined {
  // Indexed loops, as in chooseTarget.
  for (let r = 0; r < rules.length; r++) {
    const rule = rules[r];
    if (rule === "declared" && choice.declared !== undefined) return choice.declared;
    if (rule === "tactics" && choice.tactics !== undefined) return choice.tactics;
    if (rule === "best" && choice.score) {
      let best: W | undefined;
      let top = -Infinity;
      const weapons = choice.weapons;
      for (let i = 0; i < weapons.length; i++) {
        const w = weapons[i]!;
        const s = choice.score(w);
        if (s !== undefined && s > top) {
          best = w;
          top = s;
        }
      }
      if (best) return best.id;
    }
    if (rule === "ready" && choice.ready) return choice.ready.id;
    if (rule === "first" && choice.weapons.length) return choice.weapons[0]!.id;
  }
  return undefined;
}

/** What one combatant of a file does in rounds the file declares nothing for. */
export interface TacticsStatement {
  id: string;
  /** The enemy its `tactics.attack` names, if any; else the target rules choose. */
  attack?: string;
  /** The weapon its `tactics.weapon` names, if any; else the weapon rules choose. */
  weapon?: string;
  /** The reaction its entry declares (`none` when it never reacts). */
  react: string;
  /** Whether it waits instead of attacking. */
  wait: boolean;
  tactics: Tactics;
}

/** The tactics of every combatant of a file, in file order. */
export function describeTactics(spec: Pick<EncounterSpec, "combatants">): TacticsStatement[] {
  return spec.combatants.map((c: CombatantSpec) => ({
    id: c.id,
    ...(c.tactics?.attack ? { attack: c.tactics.attack } : {}),
    ...(typeof c.tactics?.weapon === "string" ? { weapon: c.tactics.weapon } : {}),
    react: c.react ?? "none",
    wait: c.tactics?.wait === true,
    tactics: {
      target: [...DEFAULT_TACTICS.target],
      weapon: [...DEFAULT_TACTICS.weapon],
      react: !c.react || c.react === "none" ? "none" : "whenPossible",
    },
  }));
}
