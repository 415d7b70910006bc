/**
 * Dice for the tests of the synchronous fast paths: a roller that lends its seeded faces (quiet
 * attacks still draw them one by one) but rolls only with a promise, so that nothing can be
 * rolled at once (`canRollSync` is false) and the engine takes its promise paths.
 */
import { SeededRoller, type DiceRoller } from "../../src/rules/core/dice/port.js";

/** A seeded roller (seed: any 32-bit integer) without `rollSync`: its faces, but rolls only with a promise. */
export function promiseOnlyRoller(seed: number): DiceRoller {
  const inner = new SeededRoller(seed);
  return {
    roll: (formula, purpose) => inner.roll(formula, purpose),
    get faces() {
      return inner.faces;
    },
  } as DiceRoller;
}
