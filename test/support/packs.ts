/**
 * Helpers for the compendium pack tests: read the JSON sources under packs/_source, compile
 * them with the Foundry CLI into a LevelDB directory and read every entry back.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ClassicLevel } from "classic-level";

/** Root of the compendium sources. */
export const SOURCE_ROOT = fileURLToPath(new URL("../../packs/_source", import.meta.url));

/** A document as stored in a source file or a LevelDB entry (only the fields the tests read). */
export interface PackDoc {
  _id: string;
  _key?: string;
  name: string;
  type?: string;
  img?: string;
  system?: Record<string, unknown>;
  flags?: Record<string, unknown>;
  items?: unknown[];
  results?: unknown[];
  [field: string]: unknown;
}

/** One parsed source file. */
export interface SourceFile {
  file: string;
  doc: PackDoc;
}

type CompilePack = (src: string, dest: string, options?: { recursive?: boolean; log?: boolean }) => Promise<void>;

/** The CLI ships no type declarations; load it through a plain specifier and type the one function used. */
async function loadCompilePack(): Promise<CompilePack> {
  const specifier = "@foundryvtt/foundryvtt-cli";
  const mod = (await import(specifier)) as { compilePack: CompilePack };
  return mod.compilePack;
}

/** Names of the pack folders under {@link SOURCE_ROOT}. */
export function packFolders(): string[] {
  return fs
    .readdirSync(SOURCE_ROOT, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

function jsonFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...jsonFiles(full));
    else if (entry.isFile() && entry.name.endsWith(".json")) out.push(full);
  }
  return out.sort();
}

/**
 * Parses every JSON source of one pack folder (recursively, as `compilePack` with `recursive` does).
 * @throws Error naming the file when a source is not valid JSON.
 */
export function readSources(pack: string): SourceFile[] {
  return jsonFiles(path.join(SOURCE_ROOT, pack)).map((file) => {
    const text = fs.readFileSync(file, "utf8");
    try {
      return { file: path.relative(SOURCE_ROOT, file), doc: JSON.parse(text) as PackDoc };
    } catch (err) {
      throw new Error(`${path.relative(SOURCE_ROOT, file)}: ${(err as Error).message}`, { cause: err });
    }
  });
}

/**
 * Compiles one pack folder into `destRoot/<pack>` with the Foundry CLI and returns every
 * LevelDB entry, keyed as stored (`!items!<id>`, `!actors.items!<actorId>.<itemId>` ...).
 */
export async function compileAndRead(pack: string, destRoot: string): Promise<Map<string, PackDoc>> {
  const compilePack = await loadCompilePack();
  const dest = path.join(destRoot, pack);
  await compilePack(path.join(SOURCE_ROOT, pack), dest, { recursive: true });
  const db = new ClassicLevel<string, PackDoc>(dest, { keyEncoding: "utf8", valueEncoding: "json" });
  try {
    return new Map(await db.iterator().all());
  } finally {
    await db.close();
  }
}

/** Splits a LevelDB key into its collection path and id path: `!actors.items!a.b` gives `["actors.items", "a.b"]`. */
export function splitKey(key: string): [collection: string, id: string] {
  const m = /^!([^!]+)!(.+)$/.exec(key);
  if (!m) throw new Error(`Malformed pack key "${key}"`);
  return [m[1]!, m[2]!];
}

/** The primary (not embedded) documents of a compiled pack. */
export function topLevel(entries: Map<string, PackDoc>): Array<[key: string, doc: PackDoc]> {
  return [...entries].filter(([key]) => !splitKey(key)[0].includes("."));
}

/**
 * Rebuilds a primary document's embedded collection from the compiled entries: the stored
 * parent lists only the ids, each child sits under `!<parent>.<child>!<parentId>.<childId>`.
 * @throws Error when an id listed on the parent has no entry.
 */
export function embedded(entries: Map<string, PackDoc>, parent: string, child: string, doc: PackDoc): PackDoc[] {
  const ids = doc[child];
  if (!Array.isArray(ids)) return [];
  return ids.map((id) => {
    const key = `!${parent}.${child}!${doc._id}.${String(id)}`;
    const found = entries.get(key);
    if (!found) throw new Error(`Missing embedded entry ${key}`);
    return found;
  });
}
