import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { FrayError } from "../errors.js";
import type { RollOutcome } from "../types.js";
import { evaluateFormula, parseFormula, type FaceSource } from "./formula.js";

/**
 * The dice port: the rules core asks for a formula to be rolled and reads every face back.
 * Foundry passes an adapter around `Roll`; tests and encounter files pass a scripted or seeded
 * roller. `purpose` is an i18n key describing the roll (`FRAY.Roll.Attack` ...), for logs and
 * chat flavour.
 */
export interface DiceRoller {
  roll(formula: string, purpose?: string): Promise<RollOutcome>;
}

/** A roller that draws faces from a synchronous source. */
export class SourceRoller implements DiceRoller {
  /** Every outcome rolled so far, in order. */
  readonly history: { purpose?: string; outcome: RollOutcome }[] = [];

  constructor(private readonly source: FaceSource) {}

  /** @throws FrayError on a malformed formula or an exhausted script. */
  roll(formula: string, purpose?: string): Promise<RollOutcome> {
    try {
      const outcome = evaluateFormula(parseFormula(formula), this.source);
      this.history.push({ purpose, outcome });
      return Promise.resolve(outcome);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }
}

/**
 * A seeded roller: the same seed gives the same faces in the same order
 * (xoroshiro128+ from `pure-rand`, uniform integers without modulo bias).
 */
export class SeededRoller extends SourceRoller {
  /** @param seed any 32-bit integer. */
  constructor(readonly seed: number) {
    const rng = xoroshiro128plus(seed | 0);
    super((faces) => uniformInt(rng, 1, faces));
  }
}

/**
 * A scripted roller fed the face of every die in order, explosions included: for `2d10x10` with
 * faces `[10, 4, 7]` the first die explodes (10 + 4) and the second shows 7.
 * When the script runs out it falls back to `fallback` if given, else throws.
 */
export class ScriptedRoller extends SourceRoller {
  private readonly queue: number[];

  /**
   * @param faces die faces in the order they are rolled.
   * @param fallback roller used once the script is exhausted (e.g. a SeededRoller).
   * @throws FrayError `FRAY.Error.DiceScript` when a scripted face does not fit the die, or the
   *   script is exhausted without a fallback.
   */
  constructor(faces: readonly number[], fallback?: FaceSource) {
    const queue = [...faces];
    super((sides) => {
      if (queue.length === 0) {
        if (fallback) return fallback(sides);
        throw new FrayError("FRAY.Error.DiceScriptEmpty", { faces: sides }, `Dice script exhausted (needed a d${sides})`);
      }
      const face = queue.shift()!;
      if (!Number.isInteger(face) || face < 1 || face > sides) {
        throw new FrayError(
          "FRAY.Error.DiceScriptFace",
          { face, faces: sides },
          `Scripted face ${face} does not fit a d${sides}`,
        );
      }
      return face;
    });
    this.queue = queue;
  }

  /** Faces not yet used. */
  get remaining(): number {
    return this.queue.length;
  }
}

/** A face source for the seeded fallback of a scripted roller. */
export function seededSource(seed: number): FaceSource {
  const rng = xoroshiro128plus(seed | 0);
  return (faces) => uniformInt(rng, 1, faces);
}
