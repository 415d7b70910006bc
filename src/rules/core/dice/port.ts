import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { FrayError } from "../errors.js";
import type { RollOutcome } from "../types.js";
import { compileFormula, type FaceSource } from "./formula.js";

/**
 * The dice port: the rules core asks for a formula to be rolled and reads every face back.
 * Foundry passes an adapter around `Roll`; tests and encounter files pass a scripted or seeded
 * roller. `purpose` is an i18n key describing the roll (`FRAY.Roll.Attack` ...), for logs and
 * chat flavour. Both hosts use this asynchronous interface; rollers whose faces come from a
 * synchronous source also offer {@link SyncDiceRoller.rollSync}.
 */
export interface DiceRoller {
  roll(formula: string, purpose?: string): Promise<RollOutcome>;
}

/**
 * A roller that can also roll synchronously: for work that rolls many times without a host in
 * between (forecasts, simulations, benchmarks).
 */
export interface SyncDiceRoller extends DiceRoller {
  /**
   * Rolls `formula` at once.
   * @throws FrayError on a refused formula (see `parseFormula`) or a face source error.
   */
  rollSync(formula: string, purpose?: string): RollOutcome;
  /**
   * Rolls `formula` at once and returns only its total; allocates nothing per die and records
   * no history.
   * @throws FrayError as {@link rollSync}.
   */
  rollTotal(formula: string): number;
}

/** True when `dice` can roll synchronously. */
export function canRollSync(dice: DiceRoller): dice is SyncDiceRoller {
  const d = dice as Partial<SyncDiceRoller>;
  return typeof d.rollSync === "function" && typeof d.rollTotal === "function";
}

/** One recorded roll of a {@link SourceRoller}. */
export interface RolledEntry {
  purpose?: string;
  outcome: RollOutcome;
}

/** Options of a {@link SourceRoller}. */
export interface SourceRollerOptions {
  /** Record every outcome in `history` (off by default: long simulations keep nothing). */
  keepHistory?: boolean;
}

/**
 * A roller that draws faces from a synchronous source. Formulas are compiled once per process
 * (`compileFormula`), so a roll costs one call of the source per die.
 */
export class SourceRoller implements SyncDiceRoller {
  /** Every outcome rolled so far, in order, when built with `keepHistory`; else stays empty. */
  readonly history: RolledEntry[] = [];
  private readonly keepHistory: boolean;

  /**
   * @param source face source, called once per die and once per explosion.
   * @param options see {@link SourceRollerOptions}.
   */
  constructor(
    private readonly source: FaceSource,
    options: SourceRollerOptions = {},
  ) {
    this.keepHistory = options.keepHistory === true;
  }

  /**
   * The roller's face source, for a quiet attack step (`../quiet.ts`) that draws its dice one by
   * one: a face drawn from it is the roller's next face, as a roll would have drawn it. Faces
   * drawn this way are not recorded in {@link history}.
   */
  get faces(): FaceSource {
    return this.source;
  }

  /** @throws FrayError on a refused formula (see `parseFormula`) or an exhausted script. */
  rollSync(formula: string, purpose?: string): RollOutcome {
    const outcome = compileFormula(formula).roll(this.source);
    if (this.keepHistory) this.history.push({ purpose, outcome });
    return outcome;
  }

  /** @throws FrayError on a refused formula (see `parseFormula`) or an exhausted script. */
  rollTotal(formula: string): number {
    return compileFormula(formula).total(this.source);
  }

  /** Rejects with a FrayError on a refused formula (see `parseFormula`) or an exhausted script. */
  roll(formula: string, purpose?: string): Promise<RollOutcome> {
    try {
      return Promise.resolve(this.rollSync(formula, purpose));
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
  /**
   * @param seed any 32-bit integer.
   * @param options see {@link SourceRollerOptions}.
   */
  constructor(
    readonly seed: number,
    options?: SourceRollerOptions,
  ) {
    super(seededSource(seed), options);
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
   * @param fallback face source used once the script is exhausted (e.g. `seededSource`).
   * @param options see {@link SourceRollerOptions}.
   * Its rolls throw (or reject with) FrayError `FRAY.Error.DiceScriptFace` when a scripted face
   * does not fit the die (`index`: its place in `faces`, from 0), and `FRAY.Error.DiceScriptEmpty` when the script is exhausted without
   * a fallback.
   */
  constructor(faces: readonly number[], fallback?: FaceSource, options?: SourceRollerOptions) {
    const queue = [...faces];
    // Without a script the fallback is the source itself: the same faces, one call less per die
    // (an encounter file without scripted dice, every fight of a forecast).
    super(
      queue.length === 0 && fallback
        ? fallback
        : (sides) => {
            if (queue.length === 0) {
              if (fallback) return fallback(sides);
              throw new FrayError("FRAY.Error.DiceScriptEmpty", { faces: sides }, `Dice script exhausted (needed a d${sides})`);
            }
            const index = faces.length - queue.length;
            const face = queue.shift()!;
            if (!Number.isInteger(face) || face < 1 || face > sides) {
              throw new FrayError(
                "FRAY.Error.DiceScriptFace",
                { face, faces: sides, index },
                `Scripted face ${face} (at ${index}) does not fit a d${sides}`,
              );
            }
            return face;
          },
      options,
    );
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
