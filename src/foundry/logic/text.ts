/** Text as the system shows it. Pure. */

/**
 * A label standing alone (a drop-down's option, a button) in sentence case, as Foundry v13's own
 * UI writes them: its first letter upper case in the reader's language (`kneeling` becomes
 * `Kneeling`). The same words inside a sentence keep the language file's lower case.
 */
export function sentenceCase(text: string, lang?: string): string {
  const first = text.codePointAt(0);
  if (first === undefined) return text;
  const head = String.fromCodePoint(first);
  return head.toLocaleUpperCase(lang) + text.slice(head.length);
}
