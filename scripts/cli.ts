/**
 * The command line of the scripts that play encounter files (`npm run encounter`, `npm run
 * forecast`): one file, options that take a value (`--seed 5`) and switches (`--quiet`). Every
 * refusal is a localized FrayError naming the option, thrown before anything plays.
 */
import { statSync } from "node:fs";
import type { Bound } from "../src/rules/core/bounds.js";
import { bounded, check, formNumber, inputError, nearestKey } from "../src/rules/core/validate.js";

/** A command line as read by {@link readCommandLine}. */
export interface CommandLine {
  /** The one argument that is not an option or an option's value; undefined when none is given. */
  file: string | undefined;
  /** The value of each option given, by option (`--seed` → `"5"`). */
  values: Map<string, string>;
  /** The switches given (`--quiet`). */
  switches: Set<string>;
}

/**
 * Reads `argv` (the arguments after the script): each `--name` must be one of `valued` (and is
 * followed by its value) or of `switches`; the one other argument is the file.
 * @throws FrayError `FRAY.Error.Input.UnknownSuggest` or `FRAY.Error.Input.Unknown` naming an
 *   option the script does not know (`--runs=5` suggests `--runs`), `FRAY.Error.Input.NoValue`
 *   naming an option given no value (the last argument, or followed by another option, or an
 *   empty text), `FRAY.Error.Input.ExtraFile` naming a second file.
 */
export function readCommandLine(argv: readonly string[], valued: readonly string[], switches: readonly string[] = []): CommandLine {
  const known = [...valued, ...switches];
  const line: CommandLine = { file: undefined, values: new Map(), switches: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith("--")) {
      if (valued.includes(arg)) {
        const value = argv[i + 1];
        if (value === undefined || value.trim() === "" || value.startsWith("--"))
          throw inputError(arg, "FRAY.Error.Input.NoValue", {}, "a value after it");
        line.values.set(arg, value);
        i++;
      } else if (switches.includes(arg)) line.switches.add(arg);
      else {
        const suggestion = nearestKey(arg.split("=")[0]!, known);
        throw suggestion
          ? inputError(
              arg,
              "FRAY.Error.Input.UnknownSuggest",
              { suggestion, allowed: known.join(", ") },
              `unknown; did you mean "${suggestion}"?`,
            )
          : inputError(arg, "FRAY.Error.Input.Unknown", { allowed: known.join(", ") }, `unknown; expected one of ${known.join(", ")}`);
      }
    } else if (line.file === undefined) line.file = arg;
    else throw inputError(arg, "FRAY.Error.Input.ExtraFile", { file: line.file }, `one file only ("${line.file}" is given)`);
  }
  return line;
}

/**
 * A number option's value (`--seed`, `--runs`, `--workers`): a decimal number within `bound`.
 * An empty or blank text is refused, never read as 0.
 * @throws FrayError naming `option`: not a number, or out of `bound`.
 */
export function numberOption(value: string, bound: Bound, option: string): number {
  return check(bounded(bound), formNumber(value) ?? value, option);
}

/**
 * Checks the file an option names for writing (`--out`, `--json`) before anything plays: a path
 * that is a folder is refused.
 * @throws FrayError `FRAY.Error.Input.Folder` naming `option` and the path.
 */
export function outputFile(path: string, option: string): string {
  let folder = false;
  try {
    folder = statSync(path).isDirectory();
  } catch {
    // Not there yet: written, with its folders, once the fights are played.
  }
  if (folder) throw inputError(option, "FRAY.Error.Input.Folder", { path }, `a file name, not the folder "${path}"`);
  return path;
}
