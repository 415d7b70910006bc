/**
 * Hitbox's quiet attack step (`../core/quiet.ts`): the attack of `planAttack`, `resolveAttack`,
 * `rollDamage`, `applyDamage` and `applyVitals` with totals only, for a forecast. The same rules,
 * in the same order, drawing the same faces: the 2d6 test with ability, skill, a damaged limb and
 * the circumstances (HB-ATK-02, HB-DMG-03, HB-MOD-01 to HB-MOD-03), the defender's dodge or parry
 * when declared and not yet rolled this turn, else its total of this turn (HB-ATK-03, HB-ATK-04),
 * the location on the regular or called-shot table (HB-LOC-01, HB-LOC-02), the damage with its
 * close bonus and "never saw it coming" (HB-DMG-02, HB-ATK-05; nothing rolled), then armor,
 * hitboxes, the spill to the torso, conditions and the Blackout test it forces (HB-DMG-01,
 * HB-DMG-03, HB-DMG-04). `test/rules/quiet-hitbox.test.ts` checks it against the detailed step.
 */
import type { ActionCost, Economy } from "../core/economy.js";
import { spend } from "../core/economy.js";
import { FrayError } from "../core/errors.js";
import { withConditions } from "../core/lists.js";
import type { FaceSource } from "../core/dice/formula.js";
import type { QuietAttack } from "../core/quiet.js";
import type { RoundState } from "../core/contract.js";
import type { RulesetOptions } from "../core/ruleset.js";
import { sumModifiers, type ForcedCheck, type Modifier } from "../core/types.js";
import {
  BASE_DIFFICULTY,
  CLOSE_FEET,
  FAR_FEET,
  isDisabled,
  isDown,
  limbsFor,
  mainArm,
  neverSawItComing,
  testBonus,
  weaponOf,
} from "./attack.js";
import { BLACKOUT_CHECK } from "./damage.js";
import type { HitboxAttackInput, RolledReaction } from "./input.js";
import { CALLABLE, CALLED_THRESHOLDS, regularLocation } from "./location.js";
import {
  abilityOf,
  boxOf,
  hasCondition,
  HITBOXES,
  hitboxesOf,
  isHitbox,
  isLethal,
  isVital,
  restate,
  setBox,
  skillOf,
  type HitboxArmor,
  type HitboxCombatant,
  type HitboxId,
  type HitboxWeapon,
  type LimbId,
} from "./model.js";
import { hitboxOptionsOf, type HitboxOptions } from "./options.js";

/** A Hitbox attack played quietly: the outcome plus the turn's reaction and what the damage did. */
export interface HitboxQuietAttack extends QuietAttack<HitboxCombatant> {
  attackerId: string;
  targetId: string;
  location?: HitboxId;
  /** The defender's reaction as it stands for the rest of the turn (rolled now or earlier, HB-ATK-03). */
  rolledReaction?: RolledReaction;
  /** True when this attack rolled the reaction (the first attack on the defender this turn). */
  reactionRolledNow: boolean;
  /** The damage reached a hitbox or added a condition: it interrupts the target's action (HB-ACT-03, `interrupts`). */
  interrupts: boolean;
}

/** The cost of a dodge or parry (HB-ATK-03). */
const REACTION_COST: ActionCost = { slots: { reaction: 1 } };
/** The cost of the turn's action (HB-RND-01). */
const ACTION_COST: ActionCost = { slots: { action: 1 } };

/**
 * `spend(economy, cost)` for a cost of one use of the slot `id`: the same economy after it, with
 * the slots copied and the one paid built anew; the pools, which such a cost leaves alone, are
 * shared with `economy` (economies are values, never changed in place). A turn's slots as
 * `freshEconomy` builds them are copied as the same literal: one shape for every economy of a
 * fight (a spread's copy, written to after, takes a shape of its own, and the engine's reads of
 * economies slow down with every shape they meet).
 * @throws FrayError `FRAY.Error.Economy` as `spend` when the slot is spent.
 */
function spendOne(economy: Economy, id: "action" | "reaction", cost: ActionCost): Economy {
  const s = economy.slots;
  const slot = id === "action" ? s.action : s.reaction;
  if (!slot || (slot.max !== null && slot.used + 1 > slot.max)) return spend(economy, cost);
  const paid = { used: slot.used + 1, max: slot.max };
  if (isTurnSlots(s))
    return {
      slots: { action: id === "action" ? paid : s.action!, reaction: id === "reaction" ? paid : s.reaction!, quick: s.quick! },
      pools: economy.pools,
    };
  const slots = { ...s };
  slots[id] = paid;
  return { slots, pools: economy.pools };
}

/** True when `slots` holds a turn's slots and nothing else, in `freshEconomy`'s order: action, reaction, quick. */
function isTurnSlots(slots: Economy["slots"]): boolean {
  let n = 0;
  for (const id in slots) if (id !== TURN_SLOTS[n++]) return false;
  return n === TURN_SLOTS.length;
}
const TURN_SLOTS = ["action", "reaction", "quick"];

/** Option values read once per options object (per fight), not per attack. */
const read = hitboxOptionsOf;

const has = hasCondition;

/**
 * The first limb of `limbsFor(c, weapon)` for which `test` holds (HB-DMG-03), without building
 * the list: both arms for a two-handed weapon (left first), else the main arm.
 */
function weaponLimb(
  c: HitboxCombatant,
  weapon: HitboxWeapon,
  test: (track: HitboxCombatant["hitboxes"][LimbId]) => boolean,
): LimbId | undefined {
  if (weapon.hands === 2) return test(c.hitboxes.leftArm) ? "leftArm" : test(c.hitboxes.rightArm) ? "rightArm" : undefined;
  const arm = mainArm(c);
  return test(boxOf(c.hitboxes, arm)) ? arm : undefined;
}

const isFull = (t: { value: number }) => t.value <= 0;
const isHurt = (t: { value: number; max: number }) => t.value < t.max;

/**
 * `testBonus` of the attack test with `weapon`, summed (HB-ATK-02, HB-DMG-03): a damaged limb of
 * the weapon's, unless medicated, halves a positive bonus, rounded down.
 */
function weaponBonus(c: HitboxCombatant, weapon: HitboxWeapon): number {
  const sum = abilityOf(c.abilities, weapon.ability) + skillOf(c.skills, weapon.skill);
  if (sum > 0 && !has(c, "medicated") && weaponLimb(c, weapon, isHurt) !== undefined) return Math.floor(sum / 2);
  return sum;
}

/** `circumstances` summed (HB-MOD-01 to HB-MOD-03, HB-ATK-02), without building its lines. */
function circumstanceTotal(input: HitboxAttackInput, melee: boolean, o: HitboxOptions): number {
  const s = input.situation ?? {};
  let total = 0;
  if (input.calledShot) total -= 2;
  const shots = input.shots ?? 1;
  if (shots > 1) total += o.rapidFire === "flat" ? -2 : -2 * (shots - 1);
  if (s.targetProne ?? has(input.target, "prone")) total -= 1;
  if (s.halfHidden) total -= 1;
  if (s.dark) total -= 1;
  if (!melee && input.rangeFeet !== undefined) {
    const feet = input.rangeFeet;
    if (feet < CLOSE_FEET) total += 1;
    else if (feet > FAR_FEET) total -= Math.ceil((feet - FAR_FEET) / FAR_FEET);
  }
  if (s.misc) total += s.misc;
  return total;
}

/** The checks of `planAttack`, in its order, with its errors. */
function check(input: HitboxAttackInput): HitboxWeapon {
  const { attacker } = input;
  if (isDown(attacker)) throw new FrayError("FRAY.Error.CannotAct", { actor: attacker.name }, `${attacker.name} cannot act`);
  const weapon = weaponOf(input);
  const disabled = weaponLimb(attacker, weapon, isFull);
  if (disabled)
    throw new FrayError(
      "FRAY.Error.HitboxLimbDisabled",
      { actor: attacker.name, limb: `FRAY.Hitbox.${disabled}` },
      `${attacker.name} cannot use the ${disabled}`,
    );
  if (input.calledShot !== undefined && (!isHitbox(input.calledShot) || input.calledShot === "torso"))
    throw new FrayError(
      "FRAY.Error.Field",
      { field: "calledShot", expected: CALLABLE.join(", ") },
      `Cannot call a shot at "${String(input.calledShot)}"`,
    );
  if (input.rangeFeet !== undefined) {
    if (!Number.isFinite(input.rangeFeet) || input.rangeFeet < 0)
      throw new FrayError(
        "FRAY.Error.Field",
        { field: "rangeFeet", expected: "feet, 0 or more" },
        `Field "rangeFeet": expected feet, 0 or more`,
      );
    if (input.rangeFeet > weapon.rangeFeet)
      throw new FrayError(
        "FRAY.Error.HitboxOutOfRange",
        { weapon: weapon.name, feet: Math.round(input.rangeFeet * 10) / 10, max: weapon.rangeFeet },
        `${weapon.name} does not reach ${input.rangeFeet} ft (${weapon.rangeFeet} ft)`,
      );
  }
  const shots = input.shots ?? 1;
  if (!Number.isInteger(shots) || shots < 1)
    throw new FrayError(
      "FRAY.Error.Field",
      { field: "shots", expected: "a whole number of shots, 1 or more" },
      `Field "shots": expected 1 or more`,
    );
  if (shots > weapon.maxShots)
    throw new FrayError(
      "FRAY.Error.HitboxShots",
      { weapon: weapon.name, shots, max: weapon.maxShots },
      `${weapon.name} fires at most ${weapon.maxShots} shot(s) a turn`,
    );
  return weapon;
}

/**
 * Why the defender of `input` cannot make the reaction `id` now: the `reason` of that reaction in
 * `reactions` (HB-ATK-03, HB-ACT-04, HB-MOD-04, HB-DMG-03), `FRAY.Reason.*`; undefined when it
 * can. Builds neither the reaction's modifiers nor the other reaction.
 * @param options the ruleset's options (read once per options object).
 * @throws FrayError `FRAY.Error.NoWeapon` as `reactions` does, when the weapon is not the attacker's.
 */
export function reactionRefusal(
  input: HitboxAttackInput,
  id: "dodge" | "parry",
  economy: Economy | undefined,
  options: RulesetOptions,
): string | undefined {
  return refusal(input, weaponOf(input), id, economy, read(options));
}

/** {@link reactionRefusal} with the weapon and options read. */
function refusal(
  input: HitboxAttackInput,
  weapon: HitboxWeapon,
  id: "dodge" | "parry",
  economy: Economy | undefined,
  o: HitboxOptions,
): string | undefined {
  const { target } = input;
  const s = input.situation ?? {};
  if (isDown(target)) return "FRAY.Reason.Incapacitated";
  if (s.targetUnaware ?? has(target, "unaware")) return "FRAY.Reason.Unanticipated";
  if (economy && (economy.slots.reaction?.used ?? 0) >= 1) return "FRAY.Reason.ReactionUsed";
  if (id === "dodge") {
    if (s.targetProne ?? has(target, "prone")) return "FRAY.Reason.HitboxProne";
    if (isDisabled(target, "leftLeg") || isDisabled(target, "rightLeg")) return "FRAY.Reason.HitboxLimbDisabled";
    return undefined;
  }
  if (target.held.length === 0) return "FRAY.Reason.HitboxNothingHeld";
  if (weapon.kind !== "melee" && !o.parryRanged) return "FRAY.Reason.RangedAttack";
  if (isDisabled(target, mainArm(target))) return "FRAY.Reason.HitboxLimbDisabled";
  return undefined;
}

/**
 * The declared reaction as `reactions` and the core's `declaredReaction` give it (HB-ATK-03,
 * HB-ACT-04, HB-MOD-04, HB-DMG-03): only the one declared is built, and only its reason is read.
 * @throws FrayError `FRAY.Error.ReactionUnavailable` when the defender cannot make it.
 */
function declaredReaction(
  input: HitboxAttackInput,
  weapon: HitboxWeapon,
  economy: Economy | undefined,
  o: HitboxOptions,
): { id: "dodge" | "parry"; modifiers: Modifier[]; dropsProne: boolean } {
  const { target } = input;
  const s = input.situation ?? {};
  const id = input.reaction!;
  const reason = id === "dodge" || id === "parry" ? refusal(input, weapon, id, economy, o) : undefined;
  if (reason || (id !== "dodge" && id !== "parry"))
    throw new FrayError(
      "FRAY.Error.ReactionUnavailable",
      { reaction: `FRAY.Reaction.${id}`, actor: target.name },
      `${target.name} cannot ${id}: ${reason ?? "not offered"}`,
    );
  return id === "dodge"
    ? { id, modifiers: testBonus(target, "dexterity", "dodge", limbsFor(target, "dodge"), "HB-ATK-03"), dropsProne: !s.targetNearCover }
    : { id, modifiers: testBonus(target, "strength", "parry", limbsFor(target, "parry"), "HB-ATK-03"), dropsProne: false };
}

/**
 * Plays a Hitbox attack quietly (see `../core/quiet.ts`): the outcome of `planAttack`,
 * `resolveAttack`, `rollDamage`, `applyDamage` and `applyVitals` with the same faces (2d6 test,
 * 2d6 reaction when rolled now, 2d6 location on a hit; damage rolls none).
 * @param base the combatant the damage applies to: within a simultaneous step the target with
 *   the damage the step already holds for it (HB-ACT-01); the input's target by default.
 * @throws FrayError as `planAttack`: `FRAY.Error.CannotAct`, `FRAY.Error.NoWeapon`,
 *   `FRAY.Error.HitboxLimbDisabled`, `FRAY.Error.Field` (`calledShot`, `rangeFeet`, `shots`),
 *   `FRAY.Error.HitboxOutOfRange`, `FRAY.Error.HitboxShots`, `FRAY.Error.ReactionUnavailable`.
 */
export function quietAttack(
  input: HitboxAttackInput,
  next: FaceSource,
  options: RulesetOptions,
  economy?: Economy,
  base?: HitboxCombatant,
): HitboxQuietAttack {
  const o = read(options);
  const { attacker, target } = input;
  const weapon = check(input);
  const melee = weapon.kind === "melee";
  const modifier = weaponBonus(attacker, weapon) + circumstanceTotal(input, melee, o);
  let rolled = input.rolledReaction;
  const declared = !rolled && input.reaction ? declaredReaction(input, weapon, economy, o) : undefined;
  const hasReaction = Boolean(rolled || declared);
  const total = next(6) + next(6) + modifier;
  let rolledNow = false;
  if (declared) {
    const natural = next(6) + next(6);
    const id = declared.id === "parry" ? "parry" : "dodge";
    // The check as `resolveAttack` keeps it for the turn (what a later attack reads of it: its
    // total and modifiers); the faces of the roll are not kept.
    const roll = { formula: "2d6", total: natural, dice: [], constant: 0 };
    rolled = {
      id,
      check: { roll, natural, modifiers: declared.modifiers, total: natural + sumModifiers(declared.modifiers) },
      dropsProne: declared.dropsProne,
    };
    rolledNow = true;
  }
  let difficulty = BASE_DIFFICULTY;
  if (hasReaction) {
    const r = rolled!.check.total;
    difficulty = o.reactionFloor && r < BASE_DIFFICULTY ? BASE_DIFFICULTY : r;
  }
  const tieFails = hasReaction && o.reactionTies === "defender";
  const hit = total > difficulty || (total === difficulty && !tieFails);
  // Every field in place from the start, in the order of `QuietAttack` then Hitbox's own.
  const out: HitboxQuietAttack = {
    weaponId: weapon.id,
    modeId: undefined,
    hit,
    reacted: hasReaction,
    reactionCost: hasReaction ? REACTION_COST : undefined,
    reactionSuccess: hasReaction ? !hit : undefined,
    lands: hit,
    location: undefined,
    damage: 0,
    target: undefined,
    forced: undefined,
    attackerId: attacker.id,
    targetId: target.id,
    rolledReaction: rolled,
    reactionRolledNow: rolledNow,
    interrupts: false,
  };
  if (!hit) return out;
  const roll = next(6) + next(6);
  const called = input.calledShot;
  const location: HitboxId = called
    ? roll >= CALLED_THRESHOLDS[called as Exclude<HitboxId, "torso">]
      ? called
      : "torso"
    : regularLocation(roll);
  out.location = location;
  let amount = weapon.damage;
  if (weapon.closeBonus && input.rangeFeet !== undefined && input.rangeFeet <= weapon.closeBonus.withinFeet)
    amount += weapon.closeBonus.points;
  if (neverSawItComing(input)) amount += 1;
  out.damage = amount;
  applyQuietly(base ?? target, amount, location, o, out);
  return out;
}

/**
 * `applyDamage` then `applyVitals` with totals only (HB-DMG-01, HB-DMG-03, HB-DMG-04): sets the
 * attack's `target` (a new object; the one given is shared by the fights of a forecast),
 * `forced` and `interrupts`. Only what the damage changes is built anew: the tracks it reaches,
 * the conditions when one is added, the armor when a piece's points used up change; the rest is
 * shared with `c` (states are values, never changed in place).
 */
function applyQuietly(c: HitboxCombatant, amount: number, location: HitboxId, o: HitboxOptions, out: HitboxQuietAttack): void {
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
    if (o.armor === "ablative" && stopped !== 0) {
      armorValue -= stopped;
      armorChanged = true;
    }
    remaining -= stopped;
  }
  // `take`: the hitbox hit, then what a limb or the groin cannot hold goes on to the torso.
  let hitboxes = c.hitboxes;
  let reached = 0;
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
    if (taken > 0) {
      if (hitboxes === c.hitboxes) hitboxes = hitboxesOf(c.hitboxes);
      const value = track.value - taken;
      setBox(hitboxes, h, { value, max: track.max });
      reached++;
      if (isVital(h)) vital = true;
      if (h === "leftLeg" || h === "rightLeg") leg = true;
      if (value === 0) {
        filled = true;
        if (h === "groin") groinFilled = true;
      }
    }
  }
  // The conditions the damage adds, in `applyDamage`'s order; a new list only when it adds one.
  let conditions = c.conditions;
  if (reached && !has(c, "dead")) {
    const had = c.conditions;
    // Whether it was in shock, read once before the branches: read only where a groin was filled
    // too, a rare hit, the compiled code met the read for the first time there and was thrown away.
    const inShock = has(c, "shock");
    const dead = lethalFilled(hitboxes) || inShock;
    const shock = !dead && groinFilled && !inShock;
    const prone = o.legProne && leg && !has(c, "prone");
    if (dead || shock || prone) {
      // By `concat`, not a copy pushed to (see `withConditions`).
      conditions = withConditions(had, dead ? "dead" : shock ? "shock" : undefined, prone ? "prone" : undefined);
    }
  }
  const added = conditions.length - c.conditions.length;
  const down = conditions.length !== 0 && (conditions.includes("dead") || conditions.includes("shock"));
  if (reached && !down && (o.blackout === "any" || filled || vital)) out.forced = [{ ...BLACKOUT_CHECK } as ForcedCheck];
  out.interrupts = added > 0 || reached > 0;
  out.target = restate(c, hitboxes, armorAfter(c.armor, location, armorChanged ? armorValue : undefined), conditions, c.shockTurnsLeft);
}

/** A lethal hitbox (head, torso) holds nothing more (HB-DMG-01). */
function lethalFilled(hitboxes: HitboxCombatant["hitboxes"]): boolean {
  return hitboxes.head.value <= 0 || hitboxes.torso.value <= 0;
}

/**
 * Armor lists {@link armorAfter} built or found unchanged: on every hitbox the points used up lie
 * on the pieces in the order they are worn, so that {@link armorAfter} without a hit's `value`
 * returns them as they are. (Armor lists are values, never changed in place once built.)
 */
const IN_WEAR_ORDER = new WeakSet<HitboxCombatant["armor"]>();

/**
 * `applyVitals`' armor: the points used up on each hitbox taken again from the pieces in the
 * order they are worn, with `value` left on `location` when the hit used some up. Returns
 * `armor` itself when no piece's points change. A list already in wear order
 * ({@link IN_WEAR_ORDER}) can change only on `location`, so only that hitbox is worked out again.
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

/**
 * A piece of armor copied for its points used up to be set on: field by field, one literal shape
 * for every copy (a spread's copy, written to after, takes a shape of its own, and the reads of
 * armor slow down with every shape they meet). Only the fields of {@link HitboxArmor} are kept.
 */
function pieceCopy(a: HitboxArmor): HitboxArmor {
  return { id: a.id, name: a.name, protection: a.protection, damage: hitboxesOf(a.damage) };
}

/**
 * Every piece of `armor` copied ({@link pieceCopy}), in a list built by push as the combatant's
 * own list is built: V8's `map` hands back a list of another kind once compiled than before, and
 * the armor reads compiled on one kind were thrown away at the other.
 */
function piecesCopy(armor: HitboxCombatant["armor"]): HitboxCombatant["armor"] {
  const out: HitboxArmor[] = [];
  for (let i = 0; i < armor.length; i++) out.push(pieceCopy(armor[i]!));
  return out;
}

/**
 * One hitbox of {@link armorAfter}: the points used up on `h` (`max - value` when `value` is given,
 * else as they stand) laid on the pieces of `armor` in wear order. Writes into `copy` when given
 * (a list {@link armorAfter} is building), else copies `armor` at the first piece that changes;
 * returns the list written, or undefined when nothing changed and there was no `copy`.
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
 * `afterAction` after an attack (HB-RND-01, HB-MOD-03, HB-ATK-03, HB-ACT-04): the attacker takes
 * the turn's action (a further shot costs nothing more); the target whose dodge or parry this
 * attack rolled takes the reaction, and a dodge without cover drops it (`goingProne`).
 */
export function quietAfterAttack(c: HitboxCombatant, attack: QuietAttack<HitboxCombatant>, economy: Economy): RoundState<HitboxCombatant> {
  const a = attack as HitboxQuietAttack;
  let next = c;
  let left = economy;
  if (a.attackerId === c.id && (left.slots.action?.used ?? 0) < 1) left = spendOne(left, "action", ACTION_COST);
  if (a.targetId === c.id && a.reactionRolledNow && a.rolledReaction) {
    left = spendOne(left, "reaction", REACTION_COST);
    if (a.rolledReaction.dropsProne && !has(next, "goingProne") && !has(next, "prone"))
      next = restate(next, next.hitboxes, next.armor, [...next.conditions, "goingProne"], next.shockTurnsLeft);
  }
  return { combatant: next, economy: left, events: [] };
}
