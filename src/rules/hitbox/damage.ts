import { pluralKey } from "../core/i18n.js";
import type { DiceRoller, SyncDiceRoller } from "../core/dice/port.js";
import { FrayError } from "../core/errors.js";
import type { AttackResult, DamagePacket } from "../core/ruleset.js";
import {
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

const has = hasCondition;
import type { HitboxAttackInput } from "./input.js";
import {
  boxOf,
  hasCondition,
  HITBOXES,
  hitboxesOf,
  isHitbox,
  isLethal,
  isVital,
  restate,
  setBox,
  type HitboxArmor,
  type HitboxCombatant,
  type HitboxId,
  type HitboxWeapon,
} from "./model.js";
import { withConditions } from "../core/lists.js";
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
 * The points of damage a landed attack with `weapon` deals (HB-DMG-02, HB-ATK-05): the weapon's
 * damage, its close-range bonus when the target is within its reach in feet, and one more point
 * when the target never saw it coming. Nothing is rolled. With `steps`, each part is pushed there
 * as an itemized step.
 */
export function damageOf(weapon: HitboxWeapon, input: HitboxAttackInput, steps?: DamageStep[]): number {
  let total = weapon.damage;
  if (steps)
    steps.push({
      rule: "HB-DMG-02",
      label: pluralKey("FRAY.Step.HitboxWeaponDamage", weapon.damage),
      value: weapon.damage,
      remaining: total,
      data: { weapon: weapon.name },
    });
  const close = weapon.closeBonus;
  if (close && input.rangeFeet !== undefined && input.rangeFeet <= close.withinFeet) {
    total += close.points;
    if (steps)
      steps.push({
        rule: "HB-DMG-02",
        label: "FRAY.Step.HitboxCloseBonus",
        value: close.points,
        remaining: total,
        data: { feet: close.withinFeet },
      });
  }
  if (neverSawItComing(input)) {
    total += 1;
    if (steps) steps.push({ rule: "HB-ATK-05", label: "FRAY.Step.HitboxNeverSaw", value: 1, remaining: total });
  }
  return total;
}

/**
 * The damage packet of a landed attack ({@link damageOf}, HB-DMG-02, HB-ATK-05): its roll is the
 * constant sum of the parts.
 * @throws FrayError `FRAY.Error.NoHit` when the attack did not land.
 */
export async function rollDamage(result: AttackResult, input: HitboxAttackInput, dice: DiceRoller): Promise<DamagePacket> {
  if (!result.lands) throw new FrayError("FRAY.Error.NoHit", {}, "The attack did not land: there is no damage to roll");
  const { formula, steps } = damageRoll(input);
  const roll = await dice.roll(formula, "FRAY.Roll.Damage");
  return { roll, amount: roll.total, location: result.location?.id, steps };
}

/**
 * The damage {@link rollDamage} rolls for an attack ({@link damageOf}): its formula (a sum of
 * constants), the total it always gives, and a step for each part (HB-DMG-02, HB-ATK-05).
 * @throws FrayError `FRAY.Error.NoWeapon` when the weapon is not the attacker's.
 */
export function damageRoll(input: HitboxAttackInput): { formula: string; total: number; steps: DamageStep[] } {
  const steps: DamageStep[] = [];
  const total = damageOf(weaponOf(input), input, steps);
  return { formula: steps.map((s) => s.value).join(" + "), total, steps };
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

/** What {@link takeHit} did to a combatant. */
export interface HitboxHit {
  /** The combatant after the hit (a new object; the one given is not changed). */
  after: HitboxCombatant;
  /** True when the damage reached a hitbox. */
  reached: boolean;
  /** How many conditions the hit added: the last ones of `after.conditions`, in order. */
  added: number;
  /** The Blackout test the hit forces (HB-DMG-04), undefined when none. */
  forced: ForcedCheck | undefined;
}

/**
 * Applies `amount` points of damage on `location`, step by step (HB-DMG-01, HB-DMG-03, HB-DMG-04;
 * RULES.md):
 * 1. the armor on the hitbox hit takes the damage first: under `ablative` armor each point it
 *    stops is used up, under `soak` it stops its points of every hit;
 * 2. the rest fills the hitbox (its `value` drops, never below 0);
 * 3. what a full limb or groin cannot take goes on to the torso; beyond a full head or torso it
 *    is lost.
 * A full head or torso kills (`dead`); a full groin means `shock`; damage that reaches a hitbox of
 * someone already in shock kills. A damaged leg drops the target `prone` (setting). A hit that
 * reaches the head, torso or groin, or fills a hitbox (every hit that reaches a hitbox under the
 * `any` setting), forces a Blackout (Fortitude) 12 test. With `steps`, each step is pushed there.
 * Pure: only what the damage changes is built anew (the tracks it reaches, the conditions when
 * one is added, the armor when a piece's points used up change); the rest is shared with `c`.
 */
export function takeHit(c: HitboxCombatant, amount: number, location: HitboxId, options: HitboxOptions, steps?: DamageStep[]): HitboxHit {
  let remaining = Math.max(0, Math.floor(amount));
  // The armor on the hitbox hit (`armorTracks`): what is left of every piece worn there.
  const pieces = c.armor;
  let armorMax = 0;
  let armorUsed = 0;
  for (let i = 0; i < pieces.length; i++) {
    armorMax += boxOf(pieces[i]!.protection, location);
    armorUsed += boxOf(pieces[i]!.damage, location);
  }
  let armorValue = armorMax - armorUsed;
  let armorChanged = false;
  if (armorMax > 0 && armorValue > 0) {
    const stopped = Math.min(remaining, armorValue);
    if (options.armor === "ablative" && stopped !== 0) {
      armorValue -= stopped;
      armorChanged = true;
    }
    remaining -= stopped;
    if (steps)
      steps.push({
        rule: "HB-DMG-01",
        label: options.armor === "ablative" ? "FRAY.Step.HitboxArmor" : "FRAY.Step.HitboxSoak",
        value: stopped,
        remaining,
        data: { location: `FRAY.Hitbox.${location}`, left: armorValue, max: armorMax },
      });
  }
  // The hitbox hit, then what a limb or the groin cannot hold goes on to the torso.
  let hitboxes = c.hitboxes;
  let reached = false;
  let filled = false;
  let groinFilled = false;
  let vital = false;
  let leg = false;
  const lethalHit = isLethal(location);
  for (let i = 0; i < 2 && remaining > 0; i++) {
    if (i === 1 && lethalHit) break;
    const h: HitboxId = i === 0 ? location : "torso";
    const track = boxOf(hitboxes, h);
    const taken = Math.min(remaining, track.value);
    remaining -= taken;
    const value = track.value - taken;
    if (taken > 0) {
      if (hitboxes === c.hitboxes) hitboxes = hitboxesOf(c.hitboxes);
      setBox(hitboxes, h, { value, max: track.max });
      reached = true;
      if (isVital(h)) vital = true;
      if (h === "leftLeg" || h === "rightLeg") leg = true;
      if (value === 0) {
        filled = true;
        if (h === "groin") groinFilled = true;
      }
    }
    if (steps)
      steps.push({
        rule: "HB-DMG-01",
        label: i === 0 ? "FRAY.Step.HitboxDamage" : "FRAY.Step.HitboxSpill",
        value: taken,
        remaining,
        data: { location: `FRAY.Hitbox.${h}`, left: value, max: track.max },
      });
  }
  if (steps && remaining > 0) steps.push({ rule: "HB-DMG-01", label: "FRAY.Step.HitboxOverflow", value: remaining, remaining: 0 });
  // The conditions the damage adds, in order: dead or shock, then prone; a new list only when it adds one.
  let conditions = c.conditions;
  if (reached && !has(c, "dead")) {
    const inShock = has(c, "shock");
    const dead = lethalFilled(hitboxes) || inShock;
    const shock = !dead && groinFilled;
    const prone = options.legProne && leg && !has(c, "prone");
    if (dead || shock || prone)
      conditions = withConditions(c.conditions, dead ? "dead" : shock ? "shock" : undefined, prone ? "prone" : undefined);
  }
  const down = conditions.length !== 0 && (conditions.includes("dead") || conditions.includes("shock"));
  const forced = reached && !down && (options.blackout === "any" || filled || vital) ? { ...BLACKOUT_CHECK } : undefined;
  const after = restate(c, hitboxes, armorAfter(c.armor, location, armorChanged ? armorValue : undefined), conditions, c.shockTurnsLeft);
  return { after, reached, added: conditions.length - c.conditions.length, forced };
}

/** A lethal hitbox (head, torso) holds nothing more (HB-DMG-01). */
function lethalFilled(hitboxes: HitboxCombatant["hitboxes"]): boolean {
  return hitboxes.head.value <= 0 || hitboxes.torso.value <= 0;
}

/**
 * Armor lists {@link armorAfter} built or found unchanged: on every hitbox the points used up lie
 * on the pieces in the order they are worn. (Armor lists are values, never changed in place once
 * built.)
 */
const IN_WEAR_ORDER = new WeakSet<HitboxCombatant["armor"]>();

/**
 * The armor after a hit (HB-DMG-01): the points used up on each hitbox taken again from the
 * pieces in the order they are worn (the first listed is hit first), with `value` left on
 * `location` when the hit used some up. Returns `armor` itself when no piece's points change.
 */
function armorAfter(armor: HitboxCombatant["armor"], location: HitboxId, value: number | undefined): HitboxCombatant["armor"] {
  if (IN_WEAR_ORDER.has(armor)) {
    if (value === undefined) return armor;
    const after = armorOn(armor, location, value, undefined);
    if (after === undefined) return armor;
    IN_WEAR_ORDER.add(after);
    return after;
  }
  let copy: HitboxCombatant["armor"] | undefined;
  for (const h of HITBOXES) copy = armorOn(copy ?? armor, h, h === location ? value : undefined, copy) ?? copy;
  const after = copy ?? armor;
  IN_WEAR_ORDER.add(after);
  return after;
}

/** Every piece of `armor` copied with its own points used up, ready to be set on. */
function piecesCopy(armor: HitboxCombatant["armor"]): HitboxCombatant["armor"] {
  const out: HitboxArmor[] = [];
  for (let i = 0; i < armor.length; i++) {
    const a = armor[i]!;
    out.push({ id: a.id, name: a.name, protection: a.protection, damage: hitboxesOf(a.damage) });
  }
  return out;
}

/**
 * One hitbox of {@link armorAfter}: the points used up on `h` (`max - value` when `value` is given,
 * else as they stand) laid on the pieces of `armor` in wear order. Writes into `copy` when given,
 * else copies `armor` at the first piece that changes; returns the list written, or undefined when
 * nothing changed and there was no `copy`.
 */
function armorOn(
  armor: HitboxCombatant["armor"],
  h: HitboxId,
  value: number | undefined,
  copy: HitboxCombatant["armor"] | undefined,
): HitboxCombatant["armor"] | undefined {
  let max = 0;
  let used = 0;
  for (let i = 0; i < armor.length; i++) {
    max += boxOf(armor[i]!.protection, h);
    used += boxOf(armor[i]!.damage, h);
  }
  if (!(max > 0)) return copy;
  let left = Math.max(0, max - (value !== undefined ? value : max - used));
  for (let i = 0; i < armor.length; i++) {
    const piece = (copy ?? armor)[i]!;
    const damage = Math.min(boxOf(piece.protection, h), left);
    left -= damage;
    if (boxOf(piece.damage, h) === damage) continue;
    copy ??= piecesCopy(armor);
    setBox(copy[i]!.damage, h, damage);
  }
  return copy;
}

/**
 * Applies a damage packet to a combatant with {@link takeHit} (HB-DMG-01, HB-DMG-03, HB-DMG-04;
 * RULES.md): the report holds the vital state before and after, every step, the conditions added
 * and the Blackout test forced. Pure.
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
  const steps: DamageStep[] = [
    { rule: "HB-DMG-02", label: "FRAY.Step.Rolled", value: 0, remaining: Math.max(0, Math.floor(packet.amount)) },
  ];
  const hit = takeHit(target, packet.amount, location, options, steps);
  const after = vitals(hit.after);
  const added = hit.after.conditions.slice(hit.after.conditions.length - hit.added);
  return { before, after, steps, added, forced: hit.forced ? [hit.forced] : [] };
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
 * The Blackout test (HB-DMG-04) from its 2d6: Fortitude + Blackout skill added, passed when the
 * total meets 12; a failure puts the combatant in `shock`. With `lines`, the modifiers are pushed
 * there as itemized lines.
 */
export function blackoutOutcome(
  c: HitboxCombatant,
  natural: number,
  lines?: Modifier[],
): { total: number; passed: boolean; after: HitboxCombatant } {
  const fortitude = c.abilities.fortitude;
  const skill = c.skills.blackout;
  if (lines) {
    lines.push({
      label: "FRAY.Mod.HitboxAbility",
      value: fortitude,
      rule: "HB-DMG-04",
      data: { ability: "FRAY.Hitbox.Ability.fortitude" },
    });
    lines.push({ label: "FRAY.Mod.HitboxSkill", value: skill, rule: "HB-DMG-04", data: { skill: "FRAY.Hitbox.Skill.blackout" } });
  }
  const total = natural + fortitude + skill;
  const passed = total >= BLACKOUT_DIFFICULTY;
  const after =
    passed || c.conditions.includes("shock") ? c : restate(c, c.hitboxes, c.armor, [...c.conditions, "shock"], c.shockTurnsLeft);
  return { total, passed, after };
}

/** The Blackout test (HB-DMG-04) read from its rolled 2d6 ({@link blackoutOutcome}). */
function blackoutFrom(c: HitboxCombatant, roll: RollOutcome): BlackoutResult {
  const mods: Modifier[] = [];
  const outcome = blackoutOutcome(c, roll.total, mods);
  const check: CheckResult = { roll, natural: roll.total, modifiers: mods, total: outcome.total };
  return { check, difficulty: BLACKOUT_DIFFICULTY, passed: outcome.passed, rule: "HB-DMG-04", after: outcome.after };
}
