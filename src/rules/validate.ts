/**
 * The validators of the rules core's public inputs for all four rulesets, by ruleset id: what
 * the boundaries call (encounter files, the macro and `game.fray` API, the Foundry documents
 * reaching the core, dialog values) before the core's hot path runs on the checked values. Every
 * refusal is a localized FrayError naming the field and what was expected.
 */
import * as v from "valibot";
import { COMMON_BOUNDS, RULESET_BOUNDS } from "./core/bounds.js";
import type { AttackRequest, SituationField, SituationValues } from "./core/contract.js";
import type { RulesetOptions } from "./core/ruleset.js";
import type { RulesetId } from "./core/types.js";
import {
  bounded,
  check,
  choice,
  flag,
  formNumber,
  list,
  mapping,
  opt,
  safeName,
  strict,
  text,
  validateSituationValues,
} from "./core/validate.js";
import type { CriticalAttackInput, CriticalSituation } from "./critical/attack.js";
import type { CriticalCombatant } from "./critical/model.js";
import * as criticalSchema from "./critical/schema.js";
import type { HitboxAttackInput, HitboxSituation } from "./hitbox/input.js";
import type { HitboxCombatant } from "./hitbox/model.js";
import * as hitboxSchema from "./hitbox/schema.js";
import type { Ud10AttackInput, Ud10Situation } from "./ud10/input.js";
import type { Ud10Combatant } from "./ud10/model.js";
import * as ud10Schema from "./ud10/schema.js";
import type { ZonesAttackInput, ZonesSituation } from "./zones/input.js";
import type { ZonesCombatant } from "./zones/model.js";
import * as zonesSchema from "./zones/schema.js";

export { RESERVED_NAMES, editDistance, formNumber, isReservedName, nearestKey, validateSituationValues } from "./core/validate.js";
export { COMMON_BOUNDS, MAX_SEED, OPTION_BOUNDS, RULESET_BOUNDS, type Bound } from "./core/bounds.js";

/** The ids of the four rulesets. */
export const RULESET_IDS = ["ud10", "hitbox", "critical", "zones"] as const satisfies readonly RulesetId[];

/** Each ruleset's attack input, combatant and situation shapes. */
export interface RulesetShapes {
  ud10: { input: Ud10AttackInput; combatant: Ud10Combatant; situation: Ud10Situation };
  hitbox: { input: HitboxAttackInput; combatant: HitboxCombatant; situation: HitboxSituation };
  critical: { input: CriticalAttackInput; combatant: CriticalCombatant; situation: CriticalSituation };
  zones: { input: ZonesAttackInput; combatant: ZonesCombatant; situation: ZonesSituation };
}

const SCHEMAS = { ud10: ud10Schema, hitbox: hitboxSchema, critical: criticalSchema, zones: zonesSchema } as const;

/**
 * Checks a ruleset id (a world setting, an encounter file's `ruleset`, a macro argument).
 * @throws FrayError naming `field`: not one of ud10, hitbox, critical, zones (`constructor` included).
 */
export function validateRulesetId(raw: unknown, field = "ruleset"): RulesetId {
  return check(choice(RULESET_IDS), raw, field);
}

/**
 * Checks the attack input of one ruleset before `planAttack` and the other attack functions:
 * both combatants in full, the weapon, distances (metres, Hitbox feet), the situation's flags
 * and bounded modifiers, the declared reaction. Unknown keys are refused.
 * @throws FrayError naming the field (`attacker`, `situation.cover`, `rangeMetres`) and what it should hold.
 */
export function validateAttackInput<R extends RulesetId>(ruleset: R, raw: unknown, root = ""): RulesetShapes[R]["input"] {
  return check(SCHEMAS[validateRulesetId(ruleset)].attackInputSchema, raw, root) as RulesetShapes[R]["input"];
}

/**
 * Checks a combatant in the shape the ruleset's core plays with (after the document parsers).
 * @throws FrayError naming the field (`combatant.hp.max`) and what it should hold.
 */
export function validateCombatant<R extends RulesetId>(ruleset: R, raw: unknown, root = "combatant"): RulesetShapes[R]["combatant"] {
  return check(SCHEMAS[validateRulesetId(ruleset)].combatantSchema, raw, root) as RulesetShapes[R]["combatant"];
}

/**
 * Checks the situation of one ruleset's attack input (its own keys, e.g. UD10 `cover`, Zones `aim`).
 * @throws FrayError naming `situation.<key>` and what it should hold.
 */
export function validateSituation<R extends RulesetId>(ruleset: R, raw: unknown, root = "situation"): RulesetShapes[R]["situation"] {
  return check(SCHEMAS[validateRulesetId(ruleset)].situationSchema, raw ?? {}, root) as RulesetShapes[R]["situation"];
}

/**
 * Checks option values against the ruleset's option specs: known ids only (the nearest suggested),
 * types, choices, numbers within `OPTION_BOUNDS`.
 * @throws FrayError naming `options.<id>`.
 */
export function validateRulesetOptions(ruleset: RulesetId, raw: unknown, root = "options"): RulesetOptions {
  return check(SCHEMAS[validateRulesetId(ruleset)].optionsValuesSchema, raw ?? {}, root) as RulesetOptions;
}

/**
 * Checks an actor's stats as an encounter file or a macro writes them (the `system` fields the
 * ruleset reads, all optional). Not for stored actor data, which may hold another ruleset's
 * fields: the document parsers read that leniently.
 * @throws FrayError naming the field (`stats.hp.max`), an unknown key with the nearest suggested.
 */
export function validateStats(ruleset: RulesetId, raw: unknown, root = "stats"): Record<string, unknown> {
  return check(SCHEMAS[validateRulesetId(ruleset)].statsSchema, raw, root) as Record<string, unknown>;
}

const situationValue = v.union(
  [flag(), bounded({ min: -1e6, max: 1e6, integer: false }), text(COMMON_BOUNDS.textLength), list(text())],
  "\u0000fray:" +
    JSON.stringify({
      key: "FRAY.Error.Input.Type",
      data: { expected: "FRAY.Error.Expect.Value" },
      en: "expected true/false, a number, a text or a list of texts",
    }),
);

const requestSchema = strict({
  attackerId: safeName(),
  targetId: opt(safeName()),
  weaponId: text(),
  modeId: opt(text()),
  distanceMetres: opt(bounded(COMMON_BOUNDS.rangeMetres)),
  situation: opt(mapping(safeName(), situationValue)),
  reaction: opt(choice(["parry", "dodge", "block"] as const)),
});

/** How {@link validateAttackRequest} reads a request. */
export interface RequestCheck {
  /** The ruleset's situation fields for this attack (`Ruleset.situation`): the situation is checked against them. */
  fields?: readonly SituationField[];
  /** True at the form and macro boundary: numeric texts (`"10"`) become numbers, `"true"`/`"false"` booleans. */
  form?: boolean;
}

/**
 * Checks a neutral attack request (the macro and `game.fray` API, the attack dialog): ids, the
 * distance in metres (0 to 100 km), the situation values (against the ruleset's fields when
 * given), the declared reaction. With `form`, the dialog's texts become numbers first, so a
 * modifier typed as `"10"` adds 10 and never joins a total as text.
 * @throws FrayError naming the field (`distanceMetres`, `situation.misc`) and what it should hold.
 */
export function validateAttackRequest(ruleset: RulesetId, raw: unknown, check_: RequestCheck = {}): AttackRequest {
  const id = validateRulesetId(ruleset);
  let input = raw;
  if (check_.form && typeof raw === "object" && raw !== null && !Array.isArray(raw)) {
    const r = raw as Record<string, unknown>;
    input = { ...r, ...(r.distanceMetres !== undefined ? { distanceMetres: formNumber(r.distanceMetres) } : {}) };
    if ((input as Record<string, unknown>).distanceMetres === undefined) delete (input as Record<string, unknown>).distanceMetres;
  }
  const fields = check_.fields;
  const situation = fields ? (input as Record<string, unknown> | null)?.situation : undefined;
  const request = check(requestSchema, fields ? { ...(input as object), situation: undefined } : input) as AttackRequest;
  if (fields) {
    const values: SituationValues = validateSituationValues(fields, situation, RULESET_BOUNDS[id].modifier, check_.form ?? false);
    if (Object.keys(values).length) request.situation = values;
    else delete request.situation;
  }
  return request;
}

/**
 * Checks the situation values of the attack dialog (form values arrive as texts) against the
 * ruleset's fields for this attack.
 * @throws FrayError naming `situation.<id>` and what it should hold.
 */
export function validateDialogSituation(ruleset: RulesetId, fields: readonly SituationField[], raw: unknown): SituationValues {
  return validateSituationValues(fields, raw, RULESET_BOUNDS[validateRulesetId(ruleset)].modifier, true);
}
