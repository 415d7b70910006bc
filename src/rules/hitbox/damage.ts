import { pluralKey } from "../core/i18n.js";
import type { FaceSource } from "../core/dice/formula.js";
import type { DiceRoller, SyncDiceRoller } from "../core/dice/port.js";
import { FrayError } from "../core/errors.js";
import type { AttackResult, DamagePacket } from "../core/ruleset.js";
import {
  sumModifiers,
  type CheckResult,
  type DamageReport,
  type DamageStep,
  type ForcedCheck,
  type LastingEffect,
  type Modifier,
  type RollOutcome,
  type Track,
  type VitalState,
} from "../core/types.js";
import { neverSawItComing, weaponOf } from "./attack.js";
import type { HitboxAttackInput } from "./input.js";
import { HITBOXES, hitboxesOf, isHitbox, LETHAL_HITBOXES, restate, VITAL_HITBOXES, type HitboxCombatant, type HitboxId } from "./model.js";
import type { HitboxOptions } from "./options.js";

/** The difficulty of the Blackout (Fortitude) test (HB-DMG-04). */
export const BLACKOUT_DIFFICULTY = 12;

/** The forced check a hit can call for: Blackout (Fortitude) 12 (HB-DMG-04). */
export const BLACKOUT_CHECK: ForcedCheck = {
  id: "blackout",
  label: "FRAY.Hitbox.Blackout",
  rule: "HB-DMG-04",
  difficulty: BLACKOUT_DIFFICULTY,
};

/**
 * The points of damage a landed attack deals (HB-DMG-02, HB-ATK-05): the weapon's damage, its
 * close-range bonus when the target is within its reach in feet, and one more point when the
 * target never saw it coming. Nothing is rolled: the packet's roll is the constant sum.
 * @throws FrayError `FRAY.Error.NoHit` when the attack did not land.
 */
export async function rollDamage(result: AttackResult, input: HitboxAttackInput, dice: DiceRoller): Promise<DamagePacket> {
  if (!result.lands) throw new FrayError("FRAY.Error.NoHit", {}, "The attack did not land: there is no damage to roll");
  const { formula, steps } = damageRoll(input);
  const roll = await dice.roll(formula, "FRAY.Roll.Damage");
  return { roll, amount: roll.total, location: result.location?.id, steps };
}

/**
 * The damage {@link rollDamage} rolls for an attack: its formula (a sum of constants: the weapon's
 * damage, the close-range bonus, the point for an attack never seen coming), the total it always
 * gives, and a step for each part (HB-DMG-02, HB-ATK-05).
 * @throws FrayError `FRAY.Error.NoWeapon` when the weapon is not the attacker's.
 */
export function damageRoll(input: HitboxAttackInput): { formula: string; total: number; steps: DamageStep[] } {
  const weapon = weaponOf(input);
  const parts: number[] = [weapon.damage];
  const steps: DamageStep[] = [
    {
      rule: "HB-DMG-02",
      label: pluralKey("FRAY.Step.HitboxWeaponDamage", weapon.damage),
      value: weapon.damage,
      remaining: weapon.damage,
      data: { weapon: weapon.name },
    },
  ];
  let total = weapon.damage;
  if (weapon.closeBonus && input.rangeFeet !== undefined && input.rangeFeet <= weapon.closeBonus.withinFeet) {
    total += weapon.closeBonus.points;
    parts.push(weapon.closeBonus.points);
    steps.push({
      rule: "HB-DMG-02",
      label: "FRAY.Step.HitboxCloseBonus",
      value: weapon.closeBonus.points,
      remaining: total,
      data: { feet: weapon.closeBonus.withinFeet },
    });
  }
  if (neverSawItComing(input)) {
    total += 1;
    parts.push(1);
    steps.push({ rule: "HB-ATK-05", label: "FRAY.Step.HitboxNeverSaw", value: 1, remaining: total });
  }
  return { formula: parts.join(" + "), total, steps };
}

/** Armor points per hitbox of everything worn, with what is left (HB-DMG-01). Only covered hitboxes are listed. */
export function armorTracks(c: HitboxCombatant): Record<string, Track> {
  const out: Record<string, Track> = {};
  const armor = c.armor;
  if (armor.length === 0) return out;
  // Each hitbox by name, in the order of HITBOXES: every vital state (each Blackout test's report,
  // each fight's start and end) reads it, and a field read by a name that changes goes through a
  // lookup each time (`boxOf`).
  let head = 0,
    headUsed = 0,
    leftArm = 0,
    leftArmUsed = 0,
    rightArm = 0,
    rightArmUsed = 0,
    torso = 0,
    torsoUsed = 0;
  let leftLeg = 0,
    leftLegUsed = 0,
    rightLeg = 0,
    rightLegUsed = 0,
    groin = 0,
    groinUsed = 0;
  for (let i = 0; i < armor.length; i++) {
    const p = armor[i]!.protection;
    const d = armor[i]!.damage;
    head += p.head;
    headUsed += d.head;
    leftArm += p.leftArm;
    leftArmUsed += d.leftArm;
    rightArm += p.rightArm;
    rightArmUsed += d.rightArm;
    torso += p.torso;
    torsoUsed += d.torso;
    leftLeg += p.leftLeg;
    leftLegUsed += d.leftLeg;
    rightLeg += p.rightLeg;
    rightLegUsed += d.rightLeg;
    groin += p.groin;
    groinUsed += d.groin;
  }
  if (head > 0) out.head = { value: head - headUsed, max: head };
  if (leftArm > 0) out.leftArm = { value: leftArm - leftArmUsed, max: leftArm };
  if (rightArm > 0) out.rightArm = { value: rightArm - rightArmUsed, max: rightArm };
  if (torso > 0) out.torso = { value: torso - torsoUsed, max: torso };
  if (leftLeg > 0) out.leftLeg = { value: leftLeg - leftLegUsed, max: leftLeg };
  if (rightLeg > 0) out.rightLeg = { value: rightLeg - rightLegUsed, max: rightLeg };
  if (groin > 0) out.groin = { value: groin - groinUsed, max: groin };
  return out;
}

/** Id and kind of the lasting effect that carries the turns left in shock (HB-DMG-04, HB-RND-02). */
export const SHOCK_EFFECT = "shock";

/** The lasting effect of a running shock count: `rounds` is the turns left without treatment (HB-DMG-04). */
export function shockEffect(turnsLeft: number): LastingEffect {
  return { id: SHOCK_EFFECT, kind: SHOCK_EFFECT, rule: "HB-DMG-04", label: "FRAY.Condition.shock", rounds: turnsLeft };
}

/**
 * A copy of every hitbox track of a combatant, in the order of {@link HITBOXES}: one literal of
 * the seven (every vital state builds it).
 */
function copyHitboxes(c: HitboxCombatant): Record<string, Track> {
  const b = c.hitboxes;
  return {
    head: track(b.head),
    leftArm: track(b.leftArm),
    rightArm: track(b.rightArm),
    torso: track(b.torso),
    leftLeg: track(b.leftLeg),
    rightLeg: track(b.rightLeg),
    groin: track(b.groin),
  };
}

/** A copy of a track `{ value, max }`: a literal, which costs less than a spread. */
function track(t: Track): Track {
  return { value: t.value, max: t.max };
}

/**
 * The vital state of a Hitbox combatant: hitboxes, armor points left, conditions, and while a
 * shock count runs (`hitboxShockTurns`), the `shock` lasting effect with the turns left.
 */
export function vitals(c: HitboxCombatant): VitalState {
  return vitalsFrom(c, copyHitboxes(c), armorTracks(c));
}

/** The vital state of `c` with its hitbox and armor tracks given (new objects, owned by the state). */
function vitalsFrom(c: HitboxCombatant, hitboxes: Record<string, Track>, armor: Record<string, Track>): VitalState {
  const state: VitalState = { hitboxes, armor, conditions: [...c.conditions] };
  if (c.shockTurnsLeft !== undefined) state.effects = [shockEffect(c.shockTurnsLeft)];
  return state;
}

/**
 * {@link vitals} of `after`, a combatant whose hitboxes, armor and shock count are those of the
 * combatant `state` was read from (a Blackout test changes only the conditions, HB-DMG-04): the
 * tracks copied from `state` instead of read again from the armor pieces.
 */
export function vitalsAfter(state: VitalState, after: HitboxCombatant): VitalState {
  return vitalsFrom(after, copyTracks(state.hitboxes!), copyTracks(state.armor!));
}

/** A copy of each track of a record, in its order. */
function copyTracks(tracks: Record<string, Track>): Record<string, Track> {
  const out: Record<string, Track> = {};
  for (const k in tracks) out[k] = track(tracks[k]!);
  return out;
}

/**
 * Writes a vital state back into a combatant: hitboxes, conditions, armor points used up, taken
 * from the pieces in the order they are worn (the first listed is hit first), and the turns left
 * in shock (the `shock` lasting effect; none when the state has none). `vitals(applyVitals(c, s))`
 * equals `s` for hitboxes, conditions, the shock count and the armor of the hitboxes `c`'s armor covers.
 */
export function applyVitals(c: HitboxCombatant, state: VitalState): HitboxCombatant {
  const hitboxes = hitboxesOf(c.hitboxes);
  const boxes = state.hitboxes;
  if (boxes)
    for (let k = 0; k < HITBOXES.length; k++) {
      const h = HITBOXES[k]!;
      const t = boxes[h];
      if (!t) continue;
      // A track the state leaves as it is stays shared (tracks are values, never changed in place).
      const was = hitboxes[h];
      if (!was || was.value !== t.value || was.max !== t.max) hitboxes[h] = track(t);
    }
  // The pieces are copied only when a piece's points change: otherwise the combatant's armor is
  // shared (states are values, never changed in place), as after most Blackout tests.
  let armor = c.armor;
  const tracks = state.armor;
  if (tracks)
    for (const h of HITBOXES) {
      const t = tracks[h];
      if (!t) continue;
      let used = Math.max(0, t.max - t.value);
      for (let i = 0; i < armor.length; i++) {
        const damage = Math.min(armor[i]!.protection[h], used);
        used -= damage;
        if (armor[i]!.damage[h] === damage) continue;
        if (armor === c.armor) armor = c.armor.map((a) => ({ ...a, damage: { ...a.damage } }));
        armor[i]!.damage[h] = damage;
      }
    }
  const shock = state.effects?.find((e) => e.kind === SHOCK_EFFECT);
  return restate(c, hitboxes, armor, [...state.conditions], shock?.rounds);
}

/**
 * Applies damage to a combatant, step by step (HB-DMG-01, HB-DMG-03, HB-DMG-04; RULES.md):
 * 1. the armor on the hitbox hit takes the damage first: under `ablative` armor each point it
 *    stops is used up, under `soak` it stops its points of every hit;
 * 2. the rest fills the hitbox (its `value` drops, never below 0);
 * 3. what a full limb or groin cannot take goes on to the torso; beyond a full head or torso it
 *    is lost.
 * A full head or torso kills (`dead`); a full groin means `shock`; damage that reaches a hitbox of
 * someone already in shock kills. A damaged leg drops the target `prone` (setting). A hit that
 * reaches the head, torso or groin, or fills a hitbox (every hit that reaches a hitbox under the
 * `any` setting), forces a Blackout (Fortitude) 12 test, listed in `forced`.
 * Pure: returns the new state and every step.
 * @throws FrayError `FRAY.Error.Field` (field `location`) when the packet names no hitbox.
 */
export function applyDamage(target: HitboxCombatant, packet: DamagePacket, options: HitboxOptions): DamageReport {
  const location = packet.location;
  if (!isHitbox(location)) {
    throw new FrayError(
      "FRAY.Error.Field",
      { field: "location", expected: HITBOXES.join(", ") },
      `Damage needs a hitbox, got "${String(location)}"`,
    );
  }
  const before = vitals(target);
  const after = vitals(target);
  const steps: DamageStep[] = [];
  let remaining = Math.max(0, Math.floor(packet.amount));
  steps.push({ rule: "HB-DMG-02", label: "FRAY.Step.Rolled", value: 0, remaining });
  const box = (h: HitboxId) => `FRAY.Hitbox.${h}`;

  const armor = after.armor![location];
  if (armor && armor.value > 0) {
    const stopped = Math.min(remaining, armor.value);
    if (options.armor === "ablative") armor.value -= stopped;
    remaining -= stopped;
    steps.push({
      rule: "HB-DMG-01",
      label: options.armor === "ablative" ? "FRAY.Step.HitboxArmor" : "FRAY.Step.HitboxSoak",
      value: stopped,
      remaining,
      data: { location: box(location), left: armor.value, max: armor.max },
    });
  }

  const reached: HitboxId[] = [];
  const filled: HitboxId[] = [];
  const take = (h: HitboxId, label: string) => {
    const track = after.hitboxes![h]!;
    const taken = Math.min(remaining, track.value);
    track.value -= taken;
    remaining -= taken;
    if (taken > 0) reached.push(h);
    if (taken > 0 && track.value === 0) filled.push(h);
    steps.push({ rule: "HB-DMG-01", label, value: taken, remaining, data: { location: box(h), left: track.value, max: track.max } });
  };
  if (remaining > 0) take(location, "FRAY.Step.HitboxDamage");
  if (remaining > 0 && !LETHAL_HITBOXES.includes(location)) take("torso", "FRAY.Step.HitboxSpill");
  if (remaining > 0) steps.push({ rule: "HB-DMG-01", label: "FRAY.Step.HitboxOverflow", value: remaining, remaining: 0 });

  const added: string[] = [];
  const add = (s: string) => {
    if (!after.conditions.includes(s)) {
      after.conditions.push(s);
      added.push(s);
    }
  };
  const wasShock = before.conditions.includes("shock");
  const wasDead = before.conditions.includes("dead");
  if (reached.length && !wasDead) {
    if (LETHAL_HITBOXES.some((h) => after.hitboxes![h]!.value <= 0) || wasShock) add("dead");
    else if (filled.includes("groin")) add("shock");
    if (options.legProne && reached.some((h) => h === "leftLeg" || h === "rightLeg")) add("prone");
  }
  const forced: ForcedCheck[] = [];
  const down = after.conditions.some((s) => s === "dead" || s === "shock");
  if (reached.length && !down && (options.blackout === "any" || filled.length > 0 || reached.some((h) => VITAL_HITBOXES.includes(h)))) {
    forced.push({ ...BLACKOUT_CHECK });
  }
  return { before, after, steps, added, forced };
}

/** True when the state can no longer fight: in shock, dead or unconscious, or head or torso full (RULES.md). */
export function isOut(state: VitalState): boolean {
  const boxes = state.hitboxes ?? {};
  return (
    state.conditions.some((c) => c === "shock" || c === "dead" || c === "unconscious") ||
    (boxes.head !== undefined && boxes.head.value <= 0) ||
    (boxes.torso !== undefined && boxes.torso.value <= 0)
  );
}

/**
 * {@link isOut} of the combatant's {@link vitals}, read from the combatant directly: in `shock`,
 * `dead` or `unconscious`, or the head or torso hitbox at 0 or below (HB-DMG-04, RULES.md).
 */
export function isOutOf(c: HitboxCombatant): boolean {
  const conditions = c.conditions;
  for (let i = 0; i < conditions.length; i++) {
    const x = conditions[i];
    if (x === "shock" || x === "dead" || x === "unconscious") return true;
  }
  return c.hitboxes.head.value <= 0 || c.hitboxes.torso.value <= 0;
}

/** The outcome of a Blackout test. */
export interface BlackoutResult {
  check: CheckResult;
  difficulty: number;
  passed: boolean;
  rule: "HB-DMG-04";
  /** The combatant afterwards: in `shock` when the test failed. */
  after: HitboxCombatant;
}

/**
 * Rolls the Blackout (Fortitude) test (HB-DMG-04): 2d6 + Fortitude + Blackout skill; it passes when
 * the total meets 12 (HB-ATK-04's "at least"). A failure puts the combatant in `shock`: critical
 * condition, out of the fight, and any further damage that reaches a hitbox kills (RULES.md).
 */
export async function blackoutTest(c: HitboxCombatant, dice: DiceRoller): Promise<BlackoutResult> {
  return blackoutFrom(c, await dice.roll("2d6", "FRAY.Roll.Blackout"));
}

/**
 * {@link blackoutTest} rolled at once, with a roller that rolls so: the same faces drawn, the same
 * result (HB-DMG-04).
 */
export function blackoutTestSync(c: HitboxCombatant, dice: SyncDiceRoller): BlackoutResult {
  return blackoutFrom(c, dice.rollSync("2d6", "FRAY.Roll.Blackout"));
}

/**
 * The combatant after the Blackout test (HB-DMG-04), rolled quietly: the two d6 of
 * {@link blackoutTest} drawn from `next` in the same order, the same total against 12, and the
 * combatant in `shock` when failed, as `applyVitals` writes it back (its armor as it lies: in
 * wear order wherever a quiet hit left it); no check is built.
 */
export function blackoutAfter(c: HitboxCombatant, next: FaceSource): HitboxCombatant {
  const natural = next(6) + next(6);
  const passed = natural + c.abilities.fortitude + c.skills.blackout >= BLACKOUT_DIFFICULTY;
  // As `applyVitals` writes the test's state back: a literal of the combatant's fields.
  return passed || c.conditions.includes("shock") ? c : restate(c, c.hitboxes, c.armor, [...c.conditions, "shock"], c.shockTurnsLeft);
}

/** The Blackout test (HB-DMG-04) read from its rolled 2d6. */
function blackoutFrom(c: HitboxCombatant, roll: RollOutcome): BlackoutResult {
  const mods: Modifier[] = [
    {
      label: "FRAY.Mod.HitboxAbility",
      value: c.abilities.fortitude,
      rule: "HB-DMG-04",
      data: { ability: "FRAY.Hitbox.Ability.fortitude" },
    },
    { label: "FRAY.Mod.HitboxSkill", value: c.skills.blackout, rule: "HB-DMG-04", data: { skill: "FRAY.Hitbox.Skill.blackout" } },
  ];
  const check: CheckResult = { roll, natural: roll.total, modifiers: mods, total: roll.total + sumModifiers(mods) };
  const passed = check.total >= BLACKOUT_DIFFICULTY;
  const after =
    passed || c.conditions.includes("shock") ? c : restate(c, c.hitboxes, c.armor, [...c.conditions, "shock"], c.shockTurnsLeft);
  return { check, difficulty: BLACKOUT_DIFFICULTY, passed, rule: "HB-DMG-04", after };
}
