import { FrayError } from "../core/errors.js";
import { byIdOrName, byKind, holds } from "../core/lists.js";
import type { Modifier, RuleId } from "../core/types.js";
import {
  PARRY_RATES,
  UNTRAINED_OB,
  fieldError,
  isIncapacitated,
  restate,
  stoppedBy,
  type CriticalCombatant,
  type CriticalWeapon,
  type WeaponCategory,
} from "./model.js";

/** The OB a combatant attacks with using a weapon: its skill's OB (untrained -25) plus the weapon's bonus. */
export function offensiveBonus(
  c: CriticalCombatant,
  weapon: CriticalWeapon,
): { skill: number; trained: boolean; bonus: number; total: number } {
  const trained = Object.hasOwn(c.skills, weapon.skill);
  const skill = trained ? c.skills[weapon.skill]! : UNTRAINED_OB;
  return { skill, trained, bonus: weapon.bonus, total: skill + weapon.bonus };
}

/**
 * {@link offensiveBonus}'s total alone (skill OB, untrained -25, plus the weapon's bonus), with no
 * record built: read for each default parry declared (CR-PAR-01).
 */
export function offensiveTotal(c: CriticalCombatant, weapon: CriticalWeapon): number {
  return (Object.hasOwn(c.skills, weapon.skill) ? c.skills[weapon.skill]! : UNTRAINED_OB) + weapon.bonus;
}

/**
 * The most OB a combatant can move into DB this round (CR-PAR-01): the OB of the weapon it
 * fights with (the first one carried unless named), never below 0; without a weapon its
 * brawling OB. Parrying needs no weapon (the seed: ducking and dodging count).
 */
export function parryPool(c: CriticalCombatant, weaponId?: string): number {
  const weapon = weaponId ? byIdOrName(c.weapons, weaponId) : c.weapons[0];
  if (!weapon) return Math.max(0, c.skills.brawling ?? 0);
  return Math.max(0, offensiveBonus(c, weapon).total);
}

/**
 * Why a combatant cannot parry, if it cannot: constrained (CR-PAR-03), out of the fight, an
 * injury that stops parrying or a critical that took its parry away (CR-CRT-02).
 * @returns an i18n reason key and the rule, or undefined when it can parry.
 */
export function parryBlocked(c: CriticalCombatant): { reason: string; rule: RuleId } | undefined {
  if (isIncapacitated(c)) return { reason: "FRAY.Reason.Incapacitated", rule: "CR-PAR-03" };
  if (holds(c.conditions, "constrained")) return { reason: "FRAY.Reason.Constrained", rule: "CR-PAR-03" };
  if (stoppedBy(c, "parry")) return { reason: "FRAY.Reason.Injured", rule: "CR-CRT-02" };
  if (byKind(c.effects, "noParry")) return { reason: "FRAY.Reason.NoParry", rule: "CR-CRT-02" };
  return undefined;
}

/** OB moved into DB this round, over every foe (CR-PAR-01). */
export function parriedOb(c: CriticalCombatant): number {
  // Own values only, listed by `Object.values` (every attack asks; a `for in` with `Object.hasOwn`
  // on each key cost more).
  let sum = 0;
  const points = Object.values(c.parry);
  for (let i = 0; i < points.length; i++) sum += points[i]!;
  return sum;
}

/**
 * Declares this round's parry (CR-PAR-01, CR-PAR-03): OB moved into DB against named foes,
 * split as the combatant chooses. Replaces any earlier declaration of the round.
 * @param allocation OB points by foe id.
 * @param opts `weaponId` the weapon whose OB is split; `foes` the ids that may be named.
 * @returns the combatant with its parry set (the input is not changed).
 * @throws FrayError `FRAY.Error.CannotParry` when constrained or otherwise unable,
 *   `FRAY.Error.Field` naming `parry.<foe>` for a negative or unknown entry,
 *   `FRAY.Error.ParryTooMuch` when more OB is moved than the combatant has.
 */
export function declareParry(
  c: CriticalCombatant,
  allocation: Record<string, number>,
  opts: { weaponId?: string; foes?: string[] } = {},
): CriticalCombatant {
  // Own keys in `Object.entries` order, listed once (every declaring combatant of every round of a
  // forecast comes here; `Object.hasOwn` on each key of a `for in` cost more).
  const foes = Object.keys(allocation);
  let total = 0;
  for (let i = 0; i < foes.length; i++) {
    const v = allocation[foes[i]!];
    total += typeof v === "number" ? v : 0;
  }
  if (total === 0) return restate(c, c.hits, c.stun, c.conditions, c.effects, {});
  const blocked = parryBlocked(c);
  if (blocked) throw new FrayError("FRAY.Error.CannotParry", { actor: c.name, reason: blocked.reason }, `${c.name} cannot parry`);
  for (let i = 0; i < foes.length; i++) {
    const foe = foes[i]!;
    const v = allocation[foe];
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw fieldError(`parry.${foe}`, "a whole number of OB points, 0 or more");
    if (opts.foes && !opts.foes.includes(foe)) throw fieldError(`parry.${foe}`, `a foe id (${opts.foes.join(", ")})`);
  }
  const pool = parryPool(c, opts.weaponId);
  if (total > pool)
    throw new FrayError("FRAY.Error.ParryTooMuch", { actor: c.name, ob: pool, total }, `${c.name} moves ${total} OB but has ${pool}`);
  const parry: Record<string, number> = {};
  for (let i = 0; i < foes.length; i++) if (allocation[foes[i]!]! > 0) parry[foes[i]!] = allocation[foes[i]!]!;
  return restate(c, c.hits, c.stun, c.conditions, c.effects, parry);
}

/**
 * The DB a target's parry gives against one attacker (CR-PAR-02, CR-PAR-03): the OB it moved
 * against that attacker divided by the rate for the attack's category (melee 1, missile 2,
 * energy 4), rounded down. An attack the target cannot see, or a target that can no longer
 * parry, gets a 0 line saying why.
 * @returns undefined when the target moved no OB against this attacker.
 */
export function parryLine(target: CriticalCombatant, attackerId: string, category: WeaponCategory, seen: boolean): Modifier | undefined {
  const points = target.parry[attackerId] ?? 0;
  if (points <= 0) return undefined;
  if (!seen) return { label: "FRAY.Mod.ParryUnseen", value: 0, rule: "CR-PAR-03", data: { ob: points } };
  const blocked = parryBlocked(target);
  if (blocked) return { label: "FRAY.Mod.ParryBlocked", value: 0, rule: blocked.rule, data: { ob: points, reason: blocked.reason } };
  const rate = PARRY_RATES[category];
  return {
    label: "FRAY.Mod.Parry",
    value: Math.floor(points / rate),
    rule: "CR-PAR-02",
    data: { ob: points, rate, category: `FRAY.Critical.Category.${category}` },
  };
}

/** A foe the parry may be moved against: its id (the tracker's token id), name and attack category. */
export interface ParryFoe {
  id: string;
  name: string;
  /** The category of the foe's attack, which sets the exchange rate (CR-PAR-02). */
  category: WeaponCategory;
}

/** One foe's line of a parry allocation: OB moved against it and the DB that gives. */
export interface ParryFoeLine extends ParryFoe {
  /** OB points per DB point against this foe's attack (melee 1, missile 2, energy 4). */
  rate: number;
  /** OB moved against this foe. */
  ob: number;
  /** DB against this foe: `ob / rate`, rounded down. */
  db: number;
}

/** A parry allocation as the declaration dialog shows it (CR-PAR-01 to CR-PAR-03). */
export interface ParryAllocationView {
  /** The OB that may be moved (the weapon's OB, never below 0). */
  pool: number;
  /** OB moved in all. */
  moved: number;
  /** OB left to attack with (`pool - moved`; negative when too much is moved). */
  left: number;
  /** Why the combatant cannot parry at all (constrained, out of the fight, injured, `noParry`). */
  blocked?: { reason: string; rule: RuleId };
  foes: ParryFoeLine[];
}

/** The category of the attack a foe makes with the weapon it carries first; melee without a weapon (brawling). */
export function foeCategory(foe: CriticalCombatant): WeaponCategory {
  return foe.weapons[0]?.category ?? "melee";
}

/**
 * What a parry allocation gives (CR-PAR-01, CR-PAR-02, CR-PAR-03): for each foe the OB moved
 * against it, its exchange rate and the DB that makes, and the OB left over. Pure; refuses
 * nothing ({@link declareParry} does).
 * @param allocation OB by foe id (non-numbers and negatives count as 0); the combatant's own
 *   `parry` when absent.
 */
export function parryAllocation(
  c: CriticalCombatant,
  foes: readonly ParryFoe[],
  allocation: Readonly<Record<string, unknown>> = c.parry,
  weaponId?: string,
): ParryAllocationView {
  const pool = parryPool(c, weaponId);
  const lines = foes.map((f) => {
    const raw = allocation[f.id];
    const ob = typeof raw === "number" && Number.isFinite(raw) && raw > 0 ? Math.floor(raw) : 0;
    const rate = PARRY_RATES[f.category];
    return { ...f, rate, ob, db: Math.floor(ob / rate) };
  });
  const moved = lines.reduce((s, l) => s + l.ob, 0);
  const blocked = parryBlocked(c);
  return { pool, moved, left: pool - moved, ...(blocked ? { blocked } : {}), foes: lines };
}

/**
 * Checks a stored parry against the combatant's OB (CR-PAR-01): the GM reads the allocation
 * from the actor it is stored on, which its owner can write, so more OB moved than the weapon
 * has, or a malformed entry, is refused before an attack is planned or applied.
 * @param field the field named in the error (`system.parry`).
 * @throws FrayError `FRAY.Critical.Parry.TooMuch` naming `field` when the OB moved exceeds the pool.
 */
export function checkParry(c: CriticalCombatant, field = "system.parry"): void {
  const moved = parriedOb(c);
  if (moved === 0) return;
  const pool = parryPool(c);
  if (moved > pool)
    throw new FrayError(
      "FRAY.Critical.Parry.TooMuch",
      { field, actor: c.name, total: moved, ob: pool },
      `Field "${field}": ${c.name} moves ${moved} OB into parrying but has ${pool}`,
    );
}
