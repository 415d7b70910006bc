/**
 * The checked entry points of `game.fray`: macros and other modules call them with plain data,
 * which is checked with the validators of the rules core (src/rules/validate.ts) before anything
 * is rolled or written. A bad call shows a localized error naming the field (`weaponId`,
 * `situation.misc`, `start.rounds`) and changes nothing.
 */
import type { SituationField } from "../../rules/core/contract.js";
import type { DiceRoller } from "../../rules/core/dice/port.js";
import type { Economy } from "../../rules/core/economy.js";
import type {
  AttackOdds,
  AttackPlan,
  AttackResult,
  DamagePacket,
  ReactionOption,
  Ruleset,
  RulesetOptions,
} from "../../rules/core/ruleset.js";
import type { DamageReport, RulesetId, VitalState } from "../../rules/core/types.js";
import { FrayError } from "../../rules/core/errors.js";
import { COMMON_BOUNDS } from "../../rules/core/bounds.js";
import { bounded, check, list, opt, safeName, strict, text } from "../../rules/core/validate.js";
import {
  validateAttackInput,
  validateAttackRequest,
  validateCombatant,
  validateRulesetId,
  validateRulesetOptions,
} from "../../rules/validate.js";
import { rollAttack, type AttackOutcome, type AttackRequest } from "../attack.js";
import { combatantOf } from "../documents/actor.js";
import { reportError } from "../notify.js";
import { activeBinding } from "../registry.js";
import { optionValues } from "../settings.js";
import { mayStartEffect, notOwnerError, startEffect, type CombatLike, type EffectHolder, type EffectStart } from "./effects.js";
import { rollItemMacro } from "./hotbar.js";

type Dict = Record<string, unknown>;

/** The keys an attack request of the API may hold. */
export const REQUEST_KEYS = [
  "actor",
  "weaponId",
  "token",
  "target",
  "targets",
  "modeId",
  "situation",
  "reaction",
  "skipDialog",
  "free",
] as const;

const isRecord = (value: unknown): value is Dict => typeof value === "object" && value !== null && !Array.isArray(value);

const EXPECTED_EN = {
  Actor: "an actor",
  Token: "a token",
  Tokens: "a list of tokens",
  Combat: "a combat",
  Boolean: "true or false",
  Object: "a mapping of named values",
} as const;

/** A refusal of a field that should hold a document or a value of one kind, localized (`FRAY.Error.Input.Type`). */
function typeError(field: string, expected: keyof typeof EXPECTED_EN): FrayError {
  const key = expected === "Boolean" || expected === "Object" ? `FRAY.Error.Expect.${expected}` : `FRAY.Api.Expect.${expected}`;
  return new FrayError("FRAY.Error.Input.Type", { field, expected: key }, `Field "${field}": expected ${EXPECTED_EN[expected]}`);
}

/** True for an Actor document (or one shaped like it): a UUID, items and tokens. */
function isActorLike(value: unknown): value is Actor.Implementation {
  return isRecord(value) && typeof value.uuid === "string" && typeof value.getActiveTokens === "function" && value.items !== undefined;
}

/** True for a placed Token (or one shaped like it): an id and a center to measure from. */
function isTokenLike(value: unknown): boolean {
  return (
    isRecord(value) &&
    typeof value.id === "string" &&
    isRecord(value.center) &&
    typeof value.center.x === "number" &&
    typeof value.center.y === "number"
  );
}

/**
 * Checks an attack request given to `game.fray.rollAttack`: only known keys; `actor` an Actor,
 * `token` and `target` tokens, `targets` a list of tokens, `skipDialog` and `free` true or
 * false; the plain data (`weaponId`, `modeId`, `reaction`, `situation`) through
 * `validateAttackRequest` of the world's ruleset, the situation against the ruleset's
 * situation fields for this attack (macro values such as `"2"` become numbers).
 * @returns the request with its situation checked.
 * @throws FrayError naming the field.
 */
export function checkAttackRequest(raw: unknown): AttackRequest {
  if (!isRecord(raw)) throw typeError("request", "Object");
  for (const key of Object.keys(raw)) {
    if (!(REQUEST_KEYS as readonly string[]).includes(key)) {
      const allowed = REQUEST_KEYS.join(", ");
      throw new FrayError("FRAY.Error.Input.Unknown", { field: key, allowed }, `Field "${key}" is not known; expected one of ${allowed}`);
    }
  }
  if (!isActorLike(raw.actor)) throw typeError("actor", "Actor");
  for (const key of ["token", "target"] as const) {
    if (raw[key] !== undefined && raw[key] !== null && !isTokenLike(raw[key])) throw typeError(key, "Token");
  }
  if (raw.targets !== undefined && (!Array.isArray(raw.targets) || !raw.targets.every(isTokenLike))) throw typeError("targets", "Tokens");
  for (const key of ["skipDialog", "free"] as const) {
    if (raw[key] !== undefined && typeof raw[key] !== "boolean") throw typeError(key, "Boolean");
  }
  const binding = activeBinding();
  const ruleset = validateRulesetId(binding.id);
  const actor = raw.actor;
  const target = (raw.target ?? (Array.isArray(raw.targets) ? raw.targets[0] : undefined)) as
    { id: string; actor?: unknown } | null | undefined;
  const plain: Dict = { attackerId: actor.id ?? actor.uuid, weaponId: raw.weaponId };
  if (target?.id) plain.targetId = target.id;
  for (const key of ["modeId", "reaction", "situation"] as const) if (raw[key] !== undefined) plain[key] = raw[key];
  // The situation is read against the fields of this very attack (weapon, target), so those are
  // only worked out when a situation is given.
  let fields: readonly SituationField[] | undefined;
  if (raw.situation !== undefined) {
    check(text(), raw.weaponId, "weaponId");
    const attacker = combatantOf(actor);
    const targetCombatant = target?.actor ? combatantOf(target.actor as Actor.Implementation, { id: target.id }) : undefined;
    fields = binding.ruleset.situation(
      { attacker, target: targetCombatant, weaponId: raw.weaponId as string, modeId: raw.modeId as string | undefined },
      optionValues(ruleset),
    );
  }
  const checked = validateAttackRequest(ruleset, plain, { fields, form: true });
  const request = { ...raw } as unknown as AttackRequest;
  if (checked.situation) request.situation = checked.situation as AttackRequest["situation"];
  else delete request.situation;
  return request;
}

/**
 * `game.fray.rollAttack`: checks the request ({@link checkAttackRequest}) and makes the attack
 * through the attack workflow (`rollAttack` of src/foundry/attack.ts).
 * @returns the workflow's outcome; `undefined` after showing a localized error for a bad request.
 */
export async function apiRollAttack(raw: unknown): Promise<AttackOutcome | undefined> {
  let request: AttackRequest;
  try {
    request = checkAttackRequest(raw);
  } catch (err) {
    reportError(err);
    return undefined;
  }
  return rollAttack(request);
}

/**
 * `game.fray.rollItemMacro`: what a weapon's hotbar macro runs, an attack with the weapon of
 * that UUID through the attack workflow.
 * @returns the workflow's outcome; `undefined` after a localized error when `uuid` is not a text.
 */
export async function apiRollItemMacro(uuid: unknown): Promise<unknown> {
  try {
    check(text(), uuid, "uuid");
  } catch (err) {
    reportError(err);
    return undefined;
  }
  return rollItemMacro(uuid as string, (request) => rollAttack(request));
}

const effectStartSchema = strict({
  name: text(),
  img: opt(text(COMMON_BOUNDS.textLength)),
  statuses: opt(list(safeName())),
  rounds: opt(bounded({ min: 0, max: 1000, integer: true })),
  turns: opt(bounded({ min: 0, max: 1000, integer: true })),
  delayRounds: opt(bounded({ min: 0, max: 1000, integer: true })),
  origin: opt(text(COMMON_BOUNDS.textLength)),
});

/**
 * `game.fray.startEffect`: starts an effect on an actor counted in a combat's rounds and turns
 * (src/foundry/play/effects.ts). `start` is checked first: `name` a text, `rounds`, `turns` and
 * `delayRounds` whole numbers from 0 to 1000 rounds or turns, `statuses` a list of ids.
 * Only the actor's owner (or a GM) may: a player on another's actor is refused
 * (`FRAY.Effect.NotOwner`); the player's own client writes, no request to the GM is needed.
 * @param combat the combat that counts; the current one (`game.combat`) when absent.
 * @returns true when the effect was created; `undefined` after a localized error naming the
 *   field (`start.rounds`, `actor`, `combat`) or the refusal.
 */
export async function apiStartEffect(actor: unknown, start: unknown, combat?: unknown): Promise<true | undefined> {
  try {
    if (!isRecord(actor) || typeof actor.createEmbeddedDocuments !== "function" || actor.effects === undefined)
      throw typeError("actor", "Actor");
    if (!mayStartEffect(actor)) throw notOwnerError(actor);
    const checked = check(effectStartSchema, start, "start") as EffectStart;
    const clock = combat ?? (game as unknown as { combat?: unknown }).combat;
    if (!isRecord(clock) || typeof clock.round !== "number" || clock.combatants === undefined) throw typeError("combat", "Combat");
    const delayRounds = checked.delayRounds ?? activeBinding().effectDelayRounds;
    await startEffect(actor as unknown as EffectHolder, { ...checked, delayRounds }, clock as unknown as CombatLike);
    return true;
  } catch (err) {
    reportError(err);
    return undefined;
  }
}

/**
 * `game.fray.optionValues`: the world's option values of a ruleset, the id checked first.
 * @throws FrayError naming `ruleset` for an id that is not a ruleset (shown localized too).
 */
export function apiOptionValues(rulesetId?: unknown): ReturnType<typeof optionValues> {
  if (rulesetId === undefined) return optionValues();
  try {
    return optionValues(validateRulesetId(rulesetId));
  } catch (err) {
    reportError(err);
    throw err;
  }
}

/**
 * A ruleset's entry points as `game.fray.rulesets.<id>` hands them to macros, each checking what
 * it is given before the core runs on it: attack inputs with `validateAttackInput` (both
 * combatants, the weapon and mode ids, distances, the situation's flags and bounded modifiers,
 * so that a modifier given as the text `"10"` is refused instead of joining a total as text),
 * combatants with `validateCombatant`, requests with `validateAttackRequest` and option values
 * with `validateRulesetOptions` (the ruleset's defaults when none are given). A bad call shows a
 * localized error naming the field (`situation.misc`, `target.hp.value`, `options.buffer`) and
 * throws it. Plans, results and packets are passed on as the previous step returned them.
 */
export interface CheckedRuleset {
  readonly id: RulesetId;
  /** i18n key of the ruleset's name. */
  readonly label: string;
  /** The ruleset's optional rules. */
  readonly options: Ruleset<unknown, unknown>["options"];
  /** The default option values. */
  defaults(): RulesetOptions;
  /** The attack input of a request between two combatants (`Ruleset.input`). */
  input(request: unknown, attacker: unknown, target: unknown, options?: unknown): unknown;
  /** The plan of an attack (`Ruleset.planAttack`). */
  planAttack(input: unknown, options?: unknown, defenderEconomy?: Economy): AttackPlan;
  /** The odds of a planned attack (`Ruleset.odds`). */
  odds(plan: AttackPlan, input: unknown, options?: unknown): AttackOdds;
  /** The reactions the target may declare (`Ruleset.reactions`). */
  reactions(input: unknown, economy?: Economy, options?: unknown): ReactionOption[];
  /** Rolls the attack (`Ruleset.resolveAttack`). */
  resolveAttack(plan: AttackPlan, input: unknown, dice: DiceRoller, options?: unknown): Promise<AttackResult>;
  /** Rolls the damage of a hit (`Ruleset.rollDamage`). */
  rollDamage(result: AttackResult, input: unknown, dice: DiceRoller, options?: unknown): Promise<DamagePacket>;
  /** Applies a damage packet to a combatant (`Ruleset.applyDamage`). */
  applyDamage(target: unknown, packet: DamagePacket, options?: unknown): DamageReport;
  /** A combatant's vital state (`Ruleset.vitals`). */
  vitals(combatant: unknown): VitalState;
}

/**
 * The checked entry points of one core ruleset ({@link CheckedRuleset}).
 * @param ruleset the core ruleset (a binding's `ruleset`).
 */
export function checkedRuleset(ruleset: Ruleset<unknown, unknown>): CheckedRuleset {
  const id = validateRulesetId(ruleset.id);
  /** Runs `call`, showing a localized error for what it throws before throwing it on. */
  const shown = <T>(call: () => T): T => {
    try {
      return call();
    } catch (err) {
      reportError(err);
      throw err;
    }
  };
  const optionsOf = (raw: unknown): RulesetOptions =>
    raw === undefined ? ruleset.defaults() : { ...ruleset.defaults(), ...validateRulesetOptions(id, raw) };
  const inputOf = (raw: unknown) => validateAttackInput(id, raw);
  const later = <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return call().catch((err: unknown) => {
        reportError(err);
        throw err;
      });
    } catch (err) {
      reportError(err);
      return Promise.reject(err as Error);
    }
  };
  return {
    id,
    label: ruleset.label,
    options: ruleset.options,
    defaults: () => ruleset.defaults(),
    input: (request, attacker, target, options) =>
      shown(() =>
        ruleset.input(
          validateAttackRequest(id, request),
          validateCombatant(id, attacker, "attacker"),
          target === undefined ? undefined : validateCombatant(id, target, "target"),
          optionsOf(options),
        ),
      ),
    planAttack: (input, options, defenderEconomy) => shown(() => ruleset.planAttack(inputOf(input), optionsOf(options), defenderEconomy)),
    odds: (plan, input, options) => shown(() => ruleset.odds(plan, inputOf(input), optionsOf(options))),
    reactions: (input, economy, options) => shown(() => ruleset.reactions(inputOf(input), economy, optionsOf(options))),
    resolveAttack: (plan, input, dice, options) => later(() => ruleset.resolveAttack(plan, inputOf(input), dice, optionsOf(options))),
    rollDamage: (result, input, dice, options) => later(() => ruleset.rollDamage(result, inputOf(input), dice, optionsOf(options))),
    applyDamage: (target, packet, options) =>
      shown(() => ruleset.applyDamage(validateCombatant(id, target, "target"), packet, optionsOf(options))),
    vitals: (combatant) => shown(() => ruleset.vitals(validateCombatant(id, combatant))),
  };
}
