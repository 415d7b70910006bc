/**
 * UD10's quiet attack step (`../core/quiet.ts`): the attack of `planAttack`, `resolveAttack`,
 * `rollDamage` and `applyDamage` with totals only, for a forecast. The same rules, in the same
 * order, drawing the same faces: the d10 check (UD-ATK-01, UD-ATK-02), the declared reaction when
 * the attack hits (UD-REA-03), the body zone when the option is on (UD-ZON-01), the damage code
 * with its tens rolled again (UD-DMG-01), then armor, buffer, CON and HP (UD-DMG-02 to
 * UD-DMG-05, UD-ZON-02). `test/rules/quiet-ud10.test.ts` checks it against the detailed step.
 */
import { compileFormula, type CompiledFormula, type FaceSource } from "../core/dice/formula.js";
import type { Economy } from "../core/economy.js";
import { FrayError } from "../core/errors.js";
import { holds, withConditions } from "../core/lists.js";
import type { QuietAttack } from "../core/quiet.js";
import type { LifecycleEvent, RoundState } from "../core/contract.js";
import type { RulesetOptions } from "../core/ruleset.js";
import { checkValue, commonReason, isIncapacitated, parryReason, rangePenalty, REACTION_COST, weaponAndMode } from "./attack.js";
import type { Ud10AttackInput } from "./input.js";
import { copyCombatant, damageFormula, ZONES, type Ud10Armor, type Ud10Combatant, type Ud10Weapon, type ZoneId } from "./model.js";
import { ud10Options, type Ud10Options } from "./options.js";
import { hasAim, withoutAim } from "./play.js";
import { BODY_ZONE_TABLE, zoneForFace } from "./zones.js";

/** Option values by the options object they were read from: read once per fight, not per attack. */
const optionsRead = new WeakMap<RulesetOptions, Ud10Options>();
function read(options: RulesetOptions): Ud10Options {
  let o = optionsRead.get(options);
  if (!o) optionsRead.set(options, (o = ud10Options(options)));
  return o;
}

/** Damage formulas compiled once per damage code (a weapon's or a firing mode's). */
const compiled = new Map<string, CompiledFormula>();
function damageOf(code: string): CompiledFormula {
  let f = compiled.get(code);
  if (!f) compiled.set(code, (f = compileFormula(damageFormula(code))));
  return f;
}

/** The attack check's modifiers as one number: the sum of `planAttack`'s lines, in their order. */
function attackModifier(input: Ud10AttackInput, weapon: Ud10Weapon, modeModifier: number): number {
  const { attacker, target } = input;
  const s = input.situation ?? {};
  const ranged = weapon.kind === "ranged";
  let total = checkValue(attacker, ranged ? "ranged" : "melee");
  total += weapon.attackModifier;
  if (modeModifier) total += modeModifier;
  if (!ranged) {
    if (s.higherGround) total += -2;
  } else {
    // `situationDefaults`, read without building its object (UD-ATK-04).
    const a = attacker.conditions;
    const t = target.conditions;
    const aim = s.aim ?? (holds(a, "aiming2") ? 2 : holds(a, "aiming1") ? 1 : 0);
    if (aim === 1) total += 2;
    if (aim === 2) total += 4;
    if (s.badVisibility) total += -2;
    if (s.targetCrouching ?? (holds(t, "crouching") || holds(t, "prone"))) total += -2;
    if (s.targetMoving ?? holds(t, "moving")) total += -2;
    if (s.shooterMoving ?? holds(a, "moving")) total += -4;
    const penalty = rangePenalty(input.rangeMetres ?? 0, weapon.rangeIncrement);
    if (penalty) total += penalty;
  }
  if (s.misc) total += s.misc;
  return total;
}

/** The defense rating: `defenseLines` summed, its base first (UD-ATK-03, UD-DEF-01, UD-COV-01). */
function defense(input: Ud10AttackInput): number {
  const { target } = input;
  const s = input.situation ?? {};
  const immobilized = holds(target.conditions, "immobilized");
  const unanticipated = Boolean(s.unanticipated) || holds(target.conditions, "surprised") || isIncapacitated(target);
  let mods = 0;
  if (!immobilized && !unanticipated) mods += target.attributes.DEX;
  else mods += 0;
  const weapons = target.weapons;
  for (let i = 0; i < weapons.length; i++)
    if (weapons[i]!.shield) {
      mods += 2;
      break;
    }
  if (immobilized) mods += -2;
  if (target.size === "large") mods += -1;
  if (target.size === "small") mods += 1;
  if (s.cover) mods += s.cover;
  return 10 + mods;
}

/**
 * The declared reaction as `declaredReaction(reactions(...))` finds it (UD-REA-01 to UD-REA-04),
 * without building the offered options: its check value (the skill's, or the attribute's
 * untrained). Its cost is always {@link REACTION_COST} (UD-REA-01).
 * @throws FrayError `FRAY.Error.ReactionUnavailable` as `declaredReaction` does, with its message.
 */
function quietReaction(input: Ud10AttackInput, weapon: Ud10Weapon, economy: Economy | undefined, o: Ud10Options): number {
  const { target } = input;
  const id = input.reaction!;
  let reason: string | undefined;
  if (id === "parry" || (id === "dodge" && o.allowDodge)) {
    // `reactions`' reasons, in its order: the common one first, then a parry's weapon.
    reason =
      commonReason(target, weapon, Boolean(input.situation?.unanticipated), economy) ?? (id === "parry" ? parryReason(target) : undefined);
    if (!reason) return checkValue(target, id);
  }
  // Not offered (a dodge the table does not allow) or not available: what `declaredReaction` throws.
  throw new FrayError(
    "FRAY.Error.ReactionUnavailable",
    { reaction: `FRAY.Reaction.${id}`, actor: target.name },
    `${target.name} cannot ${id}: ${reason ?? "not offered"}`,
  );
}

/**
 * Plays a UD10 attack quietly (see `../core/quiet.ts`): the outcome of `planAttack`,
 * `resolveAttack`, `rollDamage` and `applyDamage` with the same faces.
 * @throws FrayError as `planAttack`: `FRAY.Error.CannotAct`, `FRAY.Error.NoWeapon`,
 *   `FRAY.Error.NoMode`, `FRAY.Error.ReactionUnavailable`.
 */
export function quietAttack(
  input: Ud10AttackInput,
  next: FaceSource,
  options: RulesetOptions,
  economy?: Economy,
): QuietAttack<Ud10Combatant> {
  const o = read(options);
  const { attacker, target } = input;
  if (isIncapacitated(attacker)) throw new FrayError("FRAY.Error.CannotAct", { actor: attacker.name }, `${attacker.name} cannot act`);
  const { weapon, mode } = weaponAndMode(input);
  const reaction = input.reaction ? quietReaction(input, weapon, economy, o) : undefined;
  const total = next(10) + attackModifier(input, weapon, mode?.attackModifier ?? 0);
  const hit = total >= defense(input);
  let reacted = false;
  let reactionSuccess: boolean | undefined;
  if (hit && reaction !== undefined) {
    reacted = true;
    // The reaction's one modifier line is its skill value (`reactions`).
    reactionSuccess = next(10) + reaction > total;
  }
  const lands = hit && !reactionSuccess;
  // Every field in place from the start, in the order of `QuietAttack` (see there).
  const out: QuietAttack<Ud10Combatant> = {
    weaponId: weapon.id,
    modeId: mode?.id,
    hit,
    reacted,
    reactionCost: reaction !== undefined ? REACTION_COST : undefined,
    reactionSuccess: reaction !== undefined && reacted ? reactionSuccess : undefined,
    lands,
    location: undefined,
    damage: 0,
    target: undefined,
    forced: undefined,
  };
  if (!lands) return out;
  // The body zone by its d10 face (UD-ZON-01); face 0 stands for the averaged armor (UD-ZON-02).
  let face = 0;
  if (o.bodyZones) {
    face = next(10);
    out.location = ZONE_OF_FACE[face] ?? zoneForFace(face);
  }
  const amount = damageOf(mode?.damage ?? weapon.damage).total(next);
  out.damage = amount;
  out.target = applyQuietly(target, amount, face, o.penetration ? weapon.penetration : 0, o);
  return out;
}

/** The zone of each d10 face 1 to 10 (`zoneForFace`), by face. */
const ZONE_OF_FACE: (ZoneId | undefined)[] = [];
for (const row of BODY_ZONE_TABLE) for (let face = row.from; face <= row.to; face++) ZONE_OF_FACE[face] = row.zone;

/**
 * The armor of a list of worn pieces as `armorFor` gives it, by d10 face: rating and buffer of
 * the zone face `f` hits at `[2f]` and `[2f + 1]` (UD-ZON-01), the averaged armor at `[0]` and
 * `[1]` (UD-ZON-02). Summed in `zoneArmor`'s and `averagedArmor`'s order, so the numbers are
 * theirs bit for bit.
 */
function armorByFace(armor: readonly Ud10Armor[]): number[] {
  let table = ARMOR_BY_FACE.get(armor);
  if (table) return table;
  table = [];
  const rating: Record<string, number> = {};
  const buffer: Record<string, number> = {};
  let ratings = 0;
  let buffers = 0;
  for (const z of ZONES) {
    let r = 0;
    let b = 0;
    for (const piece of armor) {
      r = r + piece.zones[z].rating;
      b = b + piece.zones[z].buffer;
    }
    rating[z] = r;
    buffer[z] = b;
    ratings += r;
    buffers += b;
  }
  table[0] = Math.round(ratings / ZONES.length);
  table[1] = Math.round(buffers / ZONES.length);
  for (let face = 1; face < ZONE_OF_FACE.length; face++) {
    table[2 * face] = rating[ZONE_OF_FACE[face]!]!;
    table[2 * face + 1] = buffer[ZONE_OF_FACE[face]!]!;
  }
  ARMOR_BY_FACE.set(armor, table);
  return table;
}
/**
 * {@link armorByFace} by the armor list it was worked out for. A combatant's states share their
 * armor list (a hit changes HP, EP and conditions only), so a forecast works it out once per
 * combatant; nothing changes an armor list in place.
 */
const ARMOR_BY_FACE = new WeakMap<readonly Ud10Armor[], number[]>();

/**
 * `applyDamage` then `withVitals` with totals only (UD-DMG-02 to UD-DMG-05, UD-ZON-01/02): the
 * target with its new HP, EP and conditions, for the zone of d10 face `face` (0 for the averaged
 * armor). The target is a value shared by the fights of a forecast, so its new state is a new
 * object sharing what did not change (the target itself when nothing did); nothing is changed in
 * place.
 */
function applyQuietly(target: Ud10Combatant, amount: number, face: number, penetration: number, o: Ud10Options): Ud10Combatant {
  let remaining = Math.max(0, amount);
  const pen = o.penetration ? Math.max(0, penetration) : 0;
  const armor = armorByFace(target.armor);
  remaining -= Math.min(remaining, Math.max(0, armor[2 * face]! - pen));
  const epBefore = target.ep.value;
  let ep = epBefore;
  if (o.buffer) {
    const epLoss = Math.min(remaining, Math.max(0, armor[2 * face + 1]! - pen));
    remaining -= epLoss;
    ep = Math.max(0, ep - epLoss);
  }
  remaining -= Math.min(remaining, Math.max(0, target.attributes.CON));
  const hpBefore = target.hp.value;
  const hp = hpBefore - remaining;
  let conditions = target.conditions;
  const unconscious = ep <= 0 && epBefore > 0 && !holds(conditions, "unconscious");
  const incapacitated = hp <= 0 && hpBefore > 0 && !holds(conditions, "incapacitated");
  if (unconscious || incapacitated) {
    // By `concat`, not a copy pushed to (see `withConditions` in core/lists.ts).
    conditions = withConditions(conditions, unconscious ? "unconscious" : undefined, incapacitated ? "incapacitated" : undefined);
  }
  if (hp === hpBefore && ep === epBefore && conditions === target.conditions) return target;
  const hpTrack = hp !== hpBefore ? { value: hp, max: target.hp.max } : target.hp;
  const epTrack = ep !== epBefore ? { value: ep, max: target.ep.max } : target.ep;
  // One shape for every state (`copyCombatant`), then the new parts set on it.
  const next = copyCombatant(target);
  next.hp = hpTrack;
  next.ep = epTrack;
  next.conditions = conditions;
  return next;
}

/** The lifecycle events of a quiet transition: none, one frozen list for all. */
const NO_EVENTS: LifecycleEvent[] = Object.freeze([]) as unknown as LifecycleEvent[];

/** `ud10AfterAction` after an attack (UD-ATK-04): the shot spends the aim. */
export function quietAfterAttack(c: Ud10Combatant, _attack: QuietAttack<Ud10Combatant>, economy: Economy): RoundState<Ud10Combatant> {
  return { combatant: hasAim(c) ? withoutAim(c) : c, economy, events: NO_EVENTS };
}
