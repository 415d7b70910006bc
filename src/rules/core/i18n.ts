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
 * @param lang the reader's language (`en`, `de`): numbers with a fraction are written in it
 *   (`7,5` in German); without it, as JavaScript writes them.
 */
export function formatKey(lookup: Lookup, key: string, data: Record<string, string | number> = {}, lang?: string): string {
  const template = lookup(key) ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const v = data[name];
    if (v === undefined) return whole;
    if (typeof v === "number") return numberText(v, lang);
    return v.startsWith("FRAY.") ? formatKey(lookup, v, {}, lang) : v;
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

/**
 * A number with `digits` decimals in the reader's language: `12.5` in English, `12,5` in German.
 * Rounded as `Number.prototype.toFixed` rounds; grouping of thousands is left out (`2000`, as
 * the rest of the text writes integers).
 * @param lang a BCP 47 language tag (`en`, `de`; Foundry's `game.i18n.lang`); one Intl does not
 *   know falls back to English.
 */
export function formatDecimal(value: number, lang = "en", digits = 1): string {
  // Rounded as `toFixed` rounds (the number as stored), then written in the language.
  return numberFormat(lang, digits).format(Number(value.toFixed(digits)));
}

/**
 * A probability in [0, 1] as a percentage with `digits` decimals in the reader's language:
 * `42.5%` in English, `42,5 %` in German (with a no-break space). The percentage is
 * `p * 100` rounded, as the rest of the text rounds it.
 * @param lang a BCP 47 language tag, as for {@link formatDecimal}.
 */
export function formatPercent(p: number, lang = "en", digits = 1): string {
  const number = formatDecimal(p * 100, lang, digits);
  // The language's pattern for a percentage (sign before or after, spaced or not), the number put in.
  let placed = false;
  return percentFormat(lang)
    .formatToParts(0)
    .map((part) => {
      if (part.type === "integer" || part.type === "decimal" || part.type === "fraction" || part.type === "group") {
        if (placed) return "";
        placed = true;
        return number;
      }
      return part.value;
    })
    .join("");
}

/**
 * The key of the form of `key` for `count` in the reader's language, by `Intl.PluralRules`: the
 * singular `${key}One` where the language says "one" (`1 round`), else `key` itself, which holds
 * the plural (`2 rounds`, `0 rounds`). English and German agree on which counts take the
 * singular, so where the language is not at hand (the rules core) the default serves both.
 */
export function pluralKey(key: string, count: number, lang = "en"): string {
  return pluralRules(lang).select(count) === "one" ? `${key}One` : key;
}

/** A number as text in `formatKey`: integers as written, fractions in the reader's language. */
function numberText(value: number, lang: string | undefined): string {
  if (lang === undefined || Number.isInteger(value) || !Number.isFinite(value)) return String(value);
  return numberFormat(lang, 0, 6).format(value);
}

const formats = new Map<string, Intl.NumberFormat>();
const plurals = new Map<string, Intl.PluralRules>();

function supported(lang: string): string {
  try {
    return Intl.NumberFormat.supportedLocalesOf([lang]).length ? lang : "en";
  } catch {
    return "en";
  }
}

function numberFormat(lang: string, min: number, max = min): Intl.NumberFormat {
  const id = `${lang}|${min}|${max}`;
  let f = formats.get(id);
  if (!f) {
    f = new Intl.NumberFormat(supported(lang), { minimumFractionDigits: min, maximumFractionDigits: max, useGrouping: false });
    formats.set(id, f);
  }
  return f;
}

function percentFormat(lang: string): Intl.NumberFormat {
  const id = `${lang}|%`;
  let f = formats.get(id);
  if (!f) {
    f = new Intl.NumberFormat(supported(lang), { style: "percent" });
    formats.set(id, f);
  }
  return f;
}

function pluralRules(lang: string): Intl.PluralRules {
  let r = plurals.get(lang);
  if (!r) {
    r = new Intl.PluralRules(supported(lang));
    plurals.set(lang, r);
  }
  return r;
}
