/**
 * Formatting of i18n keys with data whose values may themselves be keys
 * (`{ skill: "FRAY.Skill.ranged" }`). Used by the Foundry glue with `game.i18n` and by the
 * encounter runner with `lang/en.json`.
 */

/** Looks up a key; returns undefined when unknown. */
export type Lookup = (key: string) => string | undefined;

/**
 * Formats `key` with `{name}` placeholders filled from `data`; data values that are i18n keys
 * (`FRAY.` prefix) are localized first. Unknown keys come back as the key itself.
 */
export function formatKey(lookup: Lookup, key: string, data: Record<string, string | number> = {}): string {
  const template = lookup(key) ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const v = data[name];
    if (v === undefined) return whole;
    return typeof v === "string" && v.startsWith("FRAY.") ? formatKey(lookup, v) : String(v);
  });
}

/** A lookup over a nested translation object such as the content of `lang/en.json`. */
export function nestedLookup(translations: Record<string, unknown>): Lookup {
  return (key) => {
    let node: unknown = translations;
    for (const part of key.split(".")) {
      if (typeof node !== "object" || node === null) return undefined;
      node = (node as Record<string, unknown>)[part];
    }
    if (typeof node === "string") return node;
    // Foundry flattens keys too: "FRAY.Mod.Skill" may be stored flat.
    const flat = (translations as Record<string, unknown>)[key];
    return typeof flat === "string" ? flat : undefined;
  };
}
