/**
 * What each ruleset gives the core contract suite (`core.contract.test.ts`): a ruleset, two
 * combatants, a request that lands with scripted dice and one that misses, and the actor source
 * translation, so the same generic tests run over every ruleset. One file per ruleset in
 * `fixtures/`, exporting `fixture`.
 */
import type { AttackRequest } from "../../src/rules/core/contract.js";
import type { Ruleset, RulesetOptions } from "../../src/rules/core/ruleset.js";

export interface ContractFixture<C = unknown, I = unknown> {
  ruleset: Ruleset<C, I>;
  /** Option values; the ruleset's defaults when absent. */
  options?: RulesetOptions;
  attacker: C;
  target: C;
  /** An attack of `attacker` on `target` (ids as the combatants carry them). */
  request: AttackRequest;
  /** Die faces, in order, with which `request` hits, lands and rolls damage that changes the target's vitals. */
  hitFaces: number[];
  /** Die faces with which `request` misses. */
  missFaces: number[];
  /** The target as an actor source (`toObject()` shape) and the ruleset's translation of it, for the vitals round trip. */
  targetSource: Record<string, unknown>;
  fromSource(source: Record<string, unknown>): C;
}
