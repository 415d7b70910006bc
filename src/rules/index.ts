/**
 * The rules core's public surface: the shared shapes, the dice port, and the rulesets by id.
 * Pure TypeScript without Foundry globals; the Foundry glue and the encounter runner import it.
 */
export * from "./core/types.js";
export * from "./core/errors.js";
export * from "./core/economy.js";
export * from "./core/ruleset.js";
export * from "./core/dice/port.js";
export { parseFormula, evaluateFormula } from "./core/dice/formula.js";
export { distribution, atLeast, mean, convolve } from "./core/dice/distribution.js";
export { ud10 } from "./ud10/index.js";
export { zones } from "./zones/index.js";
export { hitbox } from "./hitbox/index.js";
export { critical } from "./critical/index.js";
export * from "./core/contract.js";
export * from "./core/declaration.js";
