/**
 * Errors raised by the rules core. Every error carries an i18n key (under `FRAY.Error.*` in
 * `lang/*.json`) and the data to format it, so the Foundry glue and the CLI can show a localized
 * message; `message` holds an English fallback for logs.
 */
export class FrayError extends Error {
  /** i18n key, e.g. `FRAY.Error.DamageCode`. */
  readonly key: string;
  /** Values substituted into the localized string (`{code}`, `{field}` ...). */
  readonly data: Record<string, string | number>;

  /**
   * @param key i18n key under `FRAY.Error`.
   * @param data substitution values for the localized message.
   * @param fallback English text used when no localization is at hand.
   */
  constructor(key: string, data: Record<string, string | number>, fallback: string) {
    super(fallback);
    this.name = "FrayError";
    this.key = key;
    this.data = data;
  }
}

/**
 * Formats a FrayError through a localization function (Foundry's `game.i18n.format` or the CLI's
 * reader of `lang/en.json`). Falls back to the error's English message when the key is unknown.
 */
export function localizeError(error: unknown, format: (key: string, data: Record<string, string | number>) => string | undefined): string {
  if (error instanceof FrayError) {
    const text = format(error.key, error.data);
    return text && text !== error.key ? text : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
