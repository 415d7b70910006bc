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

/**
 * A roller drawing from `faces`, one per face source: rollers over the same source draw the same
 * faces, so the one built first serves every later call.
 */
export function sourceRoller(faces: FaceSource): SourceRoller {
  let roller = SOURCE_ROLLERS.get(faces);
  if (roller === undefined) SOURCE_ROLLERS.set(faces, (roller = new SourceRoller(faces)));
  return roller;
}
const SOURCE_ROLLERS = new WeakMap<FaceSource, SourceRoller>();

/** A face source for the seeded fallback of a scripted roller. */
export function seededSource(seed: number): FaceSource {
  const rng = xoroshiro128plus(seed | 0);
  return (faces) => uniformInt(rng, 1, faces);
}

/**
 * Rolls `formula` at once for a rules step and gives its total; with `kept` (a step played for a
 * card or a log), the whole outcome is kept there too, in the order rolled.
 * @throws FrayError as {@link SyncDiceRoller.rollSync}.
 */
export function rollKept(dice: SyncDiceRoller, formula: string, purpose: string, kept: RollOutcome[] | undefined): number {
  if (kept === undefined) return dice.rollTotal(formula);
  const outcome = dice.rollSync(formula, purpose);
  kept.push(outcome);
  return outcome.total;
}

/** A roll a step asked for that {@link playWith} has not awaited yet. */
class RollWanted {
  constructor(
    readonly formula: string,
    readonly purpose: string | undefined,
  ) {}
}

/** The rolls {@link playWith} awaited so far, handed to the step again in the order it asked for them. */
class ReplayRoller implements SyncDiceRoller {
  private at = 0;
  constructor(private readonly rolled: { formula: string; outcome: RollOutcome }[]) {}
  rollSync(formula: string, purpose?: string): RollOutcome {
    const known = this.rolled[this.at];
    if (known === undefined) throw new RollWanted(formula, purpose);
    if (known.formula !== formula) throw new Error(`A step asked for ${formula} where it asked for ${known.formula} before`);
    this.at++;
    return known.outcome;
  }
  rollTotal(formula: string): number {
    return this.rollSync(formula).total;
  }
  roll(formula: string, purpose?: string): Promise<RollOutcome> {
    return Promise.resolve(this.rollSync(formula, purpose));
  }
}

/**
 * Plays a rules step that rolls synchronously with any dice port: at once when `dice` rolls
 * synchronously; else (Foundry's `Roll`) each roll the step asks for is awaited from `dice` and
 * the step is played again from its start with every roll known so far, until it ends. A step
 * rolls only through the roller it is handed and changes nothing outside, so playing it again
 * with the same rolls gives the same result; each formula is rolled once by `dice`, in the
 * order the step asks for them.
 * @throws FrayError what the step or the dice throw.
 */
export async function playWith<T>(dice: DiceRoller, step: (dice: SyncDiceRoller) => T): Promise<T> {
  if (canRollSync(dice)) return step(dice);
  const rolled: { formula: string; outcome: RollOutcome }[] = [];
  for (;;) {
    try {
      return step(new ReplayRoller(rolled));
    } catch (error) {
      if (!(error instanceof RollWanted)) throw error;
      rolled.push({ formula: error.formula, outcome: await dice.roll(error.formula, error.purpose) });
    }
  }
}
