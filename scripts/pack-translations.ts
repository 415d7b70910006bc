/**
 * `npm run translations` (`tsx scripts/pack-translations.ts [--check]`): the German translation
 * of the compendium content (weapons, armor, NPCs, tables), as Babele translation files.
 *
 * Fray ships one Babele file per pack and language, `lang/babele/<lang>/fray.<pack>.json`, in
 * the format translators of Foundry content use (Babele's `label`, `mapping` and `entries` keyed
 * by the document's original name); `src/foundry/i18n/babele.ts` points Babele at the folder.
 * The rules compendium (`*-rules`) holds both languages itself and has no file here.
 *
 * - Critical's attack tables and critical tables are written here from data: their names and
 *   descriptions from German templates, the critical results' texts from `lang/de.json`
 *   (`FRAY.Critical.Wound.<type>.<key>`), the strings the cards show. These files are generated;
 *   edit the templates or `lang/de.json`, not the files.
 * - Every other pack's file is written by translators. This command keeps their entries, adds an
 *   entry in English for each document that has none (to be translated) and drops entries of
 *   documents that no longer exist.
 *
 * With `--check` nothing is written; the command fails when a generated file differs from what
 * the data gives or a document lacks its translation (test/pack-translations.test.ts checks the
 * same).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { nestedLookup } from "../src/rules/core/i18n.js";

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The languages Fray translates its compendium content into (English is the source). */
export const PACK_LANGS = ["de"] as const;
export type PackLang = (typeof PACK_LANGS)[number];

/** The folder of a language's Babele files, relative to the system's root. */
export const BABELE_DIR = "lang/babele";

/** The packs that are generated from data rather than written by translators. */
export const GENERATED_PACKS = ["critical-tables", "critical-attack-tables"] as const;

/** A document of a pack source, as far as translation reads it. */
export interface SourceDoc {
  _id: string;
  name: string;
  type?: string;
  description?: string;
  system?: { description?: string; biography?: string; modes?: { id: string; label?: string }[] };
  prototypeToken?: { name?: string };
  items?: SourceDoc[];
  results?: { _id: string; range: [number, number]; description?: string; name?: string }[];
  flags?: Record<string, unknown>;
}

/** A pack of system.json that holds translatable content. */
export interface PackInfo {
  name: string;
  label: string;
  type: "Item" | "Actor" | "RollTable";
}

/** One item's translation (an Item pack entry, or an item embedded in an Actor). */
export interface ItemEntry {
  name: string;
  description?: string;
  /** Firing-mode labels by mode id. */
  modes?: Record<string, string>;
}

/** One entry of a Babele file (keys as in `MAPPINGS`). */
export interface Entry extends ItemEntry {
  tokenName?: string;
  items?: Record<string, ItemEntry>;
  /** RollTable results' texts, keyed `<low>-<high>` as Babele's table converter reads them. */
  results?: Record<string, string>;
}

/** A Babele translation file. */
export interface BabeleFile {
  label: string;
  mapping?: Record<string, string | { path: string; converter: string }>;
  entries: Record<string, Entry>;
}

/**
 * Where each entry key lands in a document (Babele's `mapping`). Items keep their description at
 * `system.description` and actors at `system.biography`, not where Babele's defaults look; the
 * firing modes and the embedded items use Fray's converters (src/foundry/i18n/babele.ts).
 */
export const MAPPINGS: Record<PackInfo["type"], BabeleFile["mapping"] | undefined> = {
  Item: {
    name: "name",
    description: "system.description",
    modes: { path: "system.modes", converter: "frayModes" },
  },
  Actor: {
    name: "name",
    description: "system.biography",
    tokenName: { path: "prototypeToken.name", converter: "name" },
    items: { path: "items", converter: "frayItems" },
  },
  RollTable: undefined,
};

/** German pack labels by the part of the pack name after the ruleset. */
const DE_KIND: Record<string, string> = {
  weapons: "Waffen",
  armor: "Rüstungen",
  tables: "Tabellen",
  npcs: "NSC",
  "attack-tables": "Angriffstabellen",
};

/** German descriptions of the critical types (the English ones open each table's source). */
const DE_CRIT_BLURB: Record<string, string> = {
  F: "Verbrennungen durch Feuer und Energiewaffen; das Brennen dauert jede Runde an, bis es gelöscht ist.",
  I: "Stumpfe Verletzungen durch Aufpralle, die eine Rüstung aufhält, aber nicht abfedert: Kugeln auf Platten, Stürze, Explosionen.",
  K: "Quetschende Schläge durch Keulen, Fäuste und schwere Waffen.",
  P: "Stiche, Schüsse und andere durchbohrende Wunden.",
  S: "Schnitte und Hiebe durch Klingen und Kanten.",
  U: "Verlust des Gleichgewichts: Stolpern, Würfe und Stürze.",
};

/** The packs of system.json whose content is translated (Items, Actors, RollTables). */
export function translatablePacks(root = ROOT): PackInfo[] {
  const manifest = JSON.parse(readFileSync(join(root, "system.json"), "utf8")) as { packs: PackInfo[] };
  return manifest.packs.filter((p) => p.type === "Item" || p.type === "Actor" || p.type === "RollTable");
}

/** The documents of a pack's source folder (packs/_source/<pack>), in file order. */
export function readPack(pack: string, root = ROOT): SourceDoc[] {
  const dir = join(root, "packs", "_source", pack);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as SourceDoc);
}

/** The path of a pack's Babele file for a language. */
export function babelePath(lang: PackLang, pack: string, root = ROOT): string {
  return join(root, BABELE_DIR, lang, `fray.${pack}.json`);
}

/** The German label of a pack (`UD10 Weapons` -> `UD10: Waffen`). */
export function packLabel(pack: PackInfo): string {
  const [ruleset, ...rest] = pack.label.split(" ");
  const kind = DE_KIND[pack.name.slice(pack.name.indexOf("-") + 1)];
  return kind ? `${ruleset}: ${kind}` : `${ruleset}: ${rest.join(" ")}`;
}

/** The key Babele's table converter reads a result's translation under. */
export function resultKey(range: readonly [number, number]): string {
  return `${range[0]}-${range[1]}`;
}

/** What a translation of a document must hold: its entry in English (the source's texts). */
export function englishEntry(doc: SourceDoc, type: PackInfo["type"]): Entry {
  const entry: Entry = { name: doc.name };
  if (type === "RollTable") {
    if (doc.description) entry.description = doc.description;
    const results: Record<string, string> = {};
    for (const r of doc.results ?? []) {
      const text = r.description || r.name;
      if (text) results[resultKey(r.range)] = text;
    }
    if (Object.keys(results).length) entry.results = results;
    return entry;
  }
  if (type === "Actor") {
    if (doc.system?.biography) entry.description = doc.system.biography;
    if (doc.prototypeToken?.name && doc.prototypeToken.name !== doc.name) entry.tokenName = doc.prototypeToken.name;
    const items: Record<string, ItemEntry> = {};
    for (const item of doc.items ?? []) items[item.name] = englishEntry(item, "Item");
    if (Object.keys(items).length) entry.items = items;
    return entry;
  }
  if (doc.system?.description) entry.description = doc.system.description;
  const modes = (doc.system?.modes ?? []).filter((m) => m.label);
  if (modes.length) entry.modes = Object.fromEntries(modes.map((m) => [m.id, m.label!]));
  return entry;
}

/** A German string of lang/de.json by its dotted key; throws when it is missing. */
function de(lang: unknown, key: string): string {
  const value = nestedLookup(lang as Record<string, unknown>)(key);
  if (typeof value !== "string") throw new Error(`lang/de.json lacks ${key}`);
  return value;
}

/** The German entries of Critical's critical tables (CR-CRT-01 to CR-CRT-03). */
function criticalTables(docs: SourceDoc[], lang: unknown): Record<string, Entry> {
  const entries: Record<string, Entry> = {};
  for (const doc of docs) {
    const { critType, severity } = (doc.flags?.fray ?? {}) as { critType: string; severity: string };
    const results: Record<string, string> = {};
    for (const r of doc.results ?? []) {
      const key = /^fRc3[FIKPSU]([A-E](?:\d\d|UM))/.exec(r._id)?.[1];
      if (!key) throw new Error(`critical-tables: result ${r._id} has no wound key`);
      results[resultKey(r.range)] = de(lang, `FRAY.Critical.Wound.${critType}.${key}`);
    }
    entries[doc.name] = {
      name: `Kritische Treffer: ${de(lang, `FRAY.Critical.Type.${critType}`)} ${severity}`,
      description:
        `<p>${DE_CRIT_BLURB[critType]} Schweregrad ${severity}: W100 würfeln, +1 je volle 10 Punkte, um die das ` +
        "Angriffsergebnis über 150 lag (ein Wurf über 100 liest die Zeile 96-100). Das Ergebnis UM66 gilt nur bei " +
        "einem unmodifizierten Wurf von 66; es liegt bei 0, außerhalb des W100, und wird nie gezogen.</p>",
      results,
    };
  }
  return entries;
}

/** The German entries of Critical's attack tables (CR-ATK-02, CR-ATK-03). */
function attackTables(docs: SourceDoc[], lang: unknown): Record<string, Entry> {
  const entries: Record<string, Entry> = {};
  for (const doc of docs) {
    const { weaponClass, armorType } = (doc.flags?.fray ?? {}) as { weaponClass: string; armorType: string };
    const weapon = de(lang, `FRAY.Critical.WeaponClass.${weaponClass}`);
    const armor = de(lang, `FRAY.Critical.Armor.${armorType}`);
    entries[doc.name] = {
      name: `${weapon} gegen ${armor}`,
      description:
        `<p>Angriffstabelle: ${weapon} gegen ${armor}. Das Angriffsergebnis (offener W100 + OB - DB) wählt die ` +
        "Zeile; ihr Eintrag nennt die Treffer und einen kritischen Treffer (<code>20AS</code>: 20 Treffer und ein " +
        "kritischer Schnitt-Treffer A). Die unterste Zeile gilt für jedes Ergebnis darunter, die oberste für jedes " +
        "darüber. Eine Welt-Tabelle mit demselben <code>flags.fray.tableKey</code> ersetzt sie.</p>",
    };
  }
  return entries;
}

/** The file a generated pack's translation must be. */
export function generatedFile(pack: PackInfo, docs: SourceDoc[], lang: unknown): BabeleFile {
  const entries = pack.name === "critical-tables" ? criticalTables(docs, lang) : attackTables(docs, lang);
  return { label: packLabel(pack), entries };
}

/** A problem with a translation file, for the check and the test. */
export interface TranslationProblem {
  file: string;
  problem: string;
}

/**
 * What a translator-written file lacks: a document without an entry, a text of the source
 * without its translation (a description or result equal to the English one counts as missing),
 * an entry of a document that does not exist, or a wrong label or mapping.
 */
export function problemsOf(pack: PackInfo, docs: SourceDoc[], file: BabeleFile | undefined, fileName: string): TranslationProblem[] {
  const out: TranslationProblem[] = [];
  const say = (problem: string) => out.push({ file: fileName, problem });
  if (!file) return [{ file: fileName, problem: "missing" }];
  if (!file.label) say("label missing");
  if (JSON.stringify(file.mapping) !== JSON.stringify(MAPPINGS[pack.type])) say("mapping differs from MAPPINGS");
  const names = new Set(docs.map((d) => d.name));
  for (const key of Object.keys(file.entries)) if (!names.has(key)) say(`entry "${key}" names no document`);
  for (const doc of docs) {
    const english = englishEntry(doc, pack.type);
    const entry = file.entries[doc.name];
    if (!entry) {
      say(`"${doc.name}" has no entry`);
      continue;
    }
    compare(english, entry, `"${doc.name}"`, say);
  }
  return out;
}

/** Checks an entry against its English one, key by key. */
function compare(english: Entry, entry: Entry, where: string, say: (p: string) => void): void {
  if (!entry.name) say(`${where}: name missing`);
  if (english.description && (!entry.description || entry.description === english.description)) {
    say(`${where}: description not translated`);
  }
  if (english.tokenName && !entry.tokenName) say(`${where}: tokenName missing`);
  for (const [id, label] of Object.entries(english.modes ?? {})) {
    const t = entry.modes?.[id];
    if (!t || t === label) say(`${where}: mode ${id} not translated`);
  }
  for (const [range, text] of Object.entries(english.results ?? {})) {
    const t = entry.results?.[range];
    if (!t || (t === text && /\s/.test(text))) say(`${where}: result ${range} not translated`);
  }
  for (const [name, item] of Object.entries(english.items ?? {})) {
    const t = entry.items?.[name];
    if (!t) say(`${where}: item "${name}" has no entry`);
    else compare(item, t, `${where} item "${name}"`, say);
  }
  for (const name of Object.keys(entry.items ?? {})) {
    if (!english.items?.[name]) say(`${where}: item entry "${name}" names no item`);
  }
}

/** The serialized form every file is written in. */
export function serialize(file: BabeleFile): string {
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** Reads a Babele file, or undefined when it does not exist. */
export function readBabele(path: string): BabeleFile | undefined {
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as BabeleFile) : undefined;
}

/** The translator-written file with entries added for new documents and stale ones dropped. */
function merged(pack: PackInfo, docs: SourceDoc[], current: BabeleFile | undefined): BabeleFile {
  const entries: Record<string, Entry> = {};
  for (const doc of docs) entries[doc.name] = current?.entries[doc.name] ?? englishEntry(doc, pack.type);
  const mapping = MAPPINGS[pack.type];
  return { label: current?.label ?? packLabel(pack), ...(mapping ? { mapping } : {}), entries };
}

/** Runs the command: writes (or with `check`, compares) every file; returns the problems. */
export function run(check: boolean, root = ROOT): TranslationProblem[] {
  const problems: TranslationProblem[] = [];
  for (const lang of PACK_LANGS) {
    const langFile = JSON.parse(readFileSync(join(root, "lang", `${lang}.json`), "utf8")) as unknown;
    mkdirSync(join(root, BABELE_DIR, lang), { recursive: true });
    for (const pack of translatablePacks(root)) {
      const docs = readPack(pack.name, root);
      const path = babelePath(lang, pack.name, root);
      const rel = path.slice(root.length + 1);
      const current = readBabele(path);
      if ((GENERATED_PACKS as readonly string[]).includes(pack.name)) {
        const want = serialize(generatedFile(pack, docs, langFile));
        if (check) {
          if (!existsSync(path) || readFileSync(path, "utf8") !== want) problems.push({ file: rel, problem: "differs from its data" });
        } else writeFileSync(path, want);
        continue;
      }
      if (!check) writeFileSync(path, serialize(merged(pack, docs, current)));
      problems.push(...problemsOf(pack, docs, check ? current : merged(pack, docs, current), rel));
    }
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes("--check");
  const problems = run(check);
  for (const p of problems) console.log(`${p.file}: ${p.problem}`);
  if (problems.length) {
    console.log(`${problems.length} translation problems`);
    process.exitCode = 1;
  } else console.log(check ? "pack translations are complete" : "pack translations written");
}
