/**
 * A small, typed stand-in for the Foundry VTT v13 globals the system's bundle touches, so
 * `dist/fray.mjs` can be loaded and its hooks run in Node. It records what the system registers
 * (data models, settings, sheets, chat messages, notifications) for tests to inspect.
 *
 * Users and clients: `game.users` holds several users (a GM `gm` at first; tests add players and
 * more GMs), `game.users.activeGM` is the connected GM with the lowest id, and a User update
 * calls `updateUser(user, changes, options, userId)` on every connected client with the id of
 * the user who made it, each client's hooks running as that client (`game.user`). Documents get
 * Foundry's ownership (`withOwnership`): `testUserPermission(user, level)` and `isOwner`.
 *
 * Not Foundry: only the members the glue uses exist, with the simplest behaviour that keeps the
 * glue's contract visible. Field classes record their options; the Roll stand-in rolls the
 * rules core's formula subset with scripted faces; templates render with the real Handlebars
 * and a few helpers shaped like Foundry's.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Handlebars from "handlebars";
import { evaluateFormula, parseFormula, type FaceSource } from "../../src/rules/core/dice/formula.js";
import { diffObject, expandObject, getProperty, isDeletionKey, mergeObject, updateSource } from "./data-model.js";

/** Root of the repository (templates and languages are read from here). */
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

type Dict = Record<string, unknown>;
type Callback = (...args: unknown[]) => unknown;

/* ------------------------------------------------------------------------------------------ */
/* Data fields                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/** Base of the field stand-ins: keeps the options it was built with. */
export class StubField {
  readonly options: Dict;
  constructor(options: Dict = {}) {
    this.options = options;
  }
  /** The field class name, e.g. `NumberField`. */
  get kind(): string {
    return this.constructor.name;
  }
}

export class NumberField extends StubField {}
export class StringField extends StubField {}
export class BooleanField extends StubField {}
export class HTMLField extends StubField {}
export class ObjectField extends StubField {}
export class DocumentUUIDField extends StubField {}

/** An object of arbitrary keys, each value checked by one element field. */
export class TypedObjectField extends StubField {
  readonly element: StubField;
  constructor(element: StubField, options: Dict = {}) {
    super(options);
    this.element = element;
  }
}

/** A nested schema: its named fields. */
export class SchemaField extends StubField {
  readonly fields: Record<string, StubField>;
  constructor(fields: Record<string, StubField>, options: Dict = {}) {
    super(options);
    this.fields = fields;
  }
}

/** A list of one element field. */
export class ArrayField extends StubField {
  readonly element: StubField;
  constructor(element: StubField, options: Dict = {}) {
    super(options);
    this.element = element;
  }
}

/** `foundry.abstract.TypeDataModel`: only the statics the system overrides. */
export class TypeDataModel {
  static LOCALIZATION_PREFIXES: string[] = [];
  /** Returns the source unchanged (subclasses migrate first, then call this). */
  static migrateData(source: Dict): Dict {
    return source;
  }
  /**
   * Returns the source unchanged. Foundry's `DataModel.cleanData(source, options)` also fills
   * missing fields with their initial values unless `options.partial` (an update's partial data;
   * https://foundryvtt.com/api/v13/classes/foundry.abstract.DataModel.html#cleandata); the
   * stand-in leaves that to the tests that read a model's schema.
   */
  static cleanData(source: Dict = {}, _options: { partial?: boolean } = {}): Dict {
    return source;
  }
  static defineSchema(): Record<string, StubField> {
    return {};
  }
}

/** A data model class as registered on `CONFIG.*.dataModels`. */
export type ModelClass = typeof TypeDataModel;

/**
 * Every field path of a schema with its field, depth first: `attributes`, `attributes.STR` ...
 * Array elements appear as `<path>.element`.
 */
export function schemaPaths(schema: Record<string, StubField>, prefix = ""): [string, StubField][] {
  const out: [string, StubField][] = [];
  for (const [name, field] of Object.entries(schema)) {
    const path = prefix ? `${prefix}.${name}` : name;
    out.push([path, field]);
    if (field instanceof SchemaField) out.push(...schemaPaths(field.fields, path));
    if (field instanceof ArrayField) {
      out.push([`${path}.element`, field.element]);
      if (field.element instanceof SchemaField) out.push(...schemaPaths(field.element.fields, `${path}.element`));
    }
  }
  return out;
}

/* ------------------------------------------------------------------------------------------ */
/* Hooks, settings, localization, notifications                                                */
/* ------------------------------------------------------------------------------------------ */

/** `Hooks` with `on`, `once` and `callAll`. */
export class StubHooks {
  readonly handlers = new Map<string, { fn: Callback; once: boolean }[]>();
  on(name: string, fn: Callback): number {
    this.#list(name).push({ fn, once: false });
    return this.#list(name).length;
  }
  once(name: string, fn: Callback): number {
    this.#list(name).push({ fn, once: true });
    return this.#list(name).length;
  }
  callAll(name: string, ...args: unknown[]): true {
    const list = this.#list(name);
    for (const h of [...list]) {
      h.fn(...args);
      if (h.once) list.splice(list.indexOf(h), 1);
    }
    return true;
  }
  #list(name: string) {
    if (!this.handlers.has(name)) this.handlers.set(name, []);
    return this.handlers.get(name)!;
  }
}

/** The configuration a setting was registered with. */
export interface SettingConfig {
  name?: string;
  hint?: string;
  scope?: string;
  config?: boolean;
  type?: unknown;
  default?: unknown;
  choices?: Record<string, string>;
  requiresReload?: boolean;
}

/**
 * `game.settings`: registrations by `namespace.key`, values defaulting to `default`. A world
 * setting is a Setting document the server lets only GMs (assistant and up) modify
 * (https://foundryvtt.com/api/classes/foundry.helpers.ClientSettings.html#set and the
 * `SETTINGS_MODIFY` user permission): setting one from a player's client throws.
 */
export class StubSettings {
  readonly registered = new Map<string, SettingConfig>();
  readonly values = new Map<string, unknown>();
  /** The user of the client that writes (set once users exist); undefined lets anyone write. */
  writer?: () => { isGM: boolean } | undefined;
  register(namespace: string, key: string, config: SettingConfig): void {
    this.registered.set(`${namespace}.${key}`, config);
  }
  get(namespace: string, key: string): unknown {
    const id = `${namespace}.${key}`;
    if (this.values.has(id)) return this.values.get(id);
    if (namespace === "core" && key === "rollMode") return "publicroll";
    const config = this.registered.get(id);
    if (!config) throw new Error(`Setting ${id} is not registered`);
    return config.default;
  }
  async set(namespace: string, key: string, value: unknown): Promise<unknown> {
    const config = this.registered.get(`${namespace}.${key}`);
    if (config?.scope === "world" && this.writer?.()?.isGM === false)
      throw new Error(`User lacks permission to modify the world setting ${namespace}.${key}`);
    this.values.set(`${namespace}.${key}`, structuredClone(value));
    return value;
  }
}

/** Nested language data. */
export type LangTree = { [key: string]: string | LangTree };

/** Reads `lang/<code>.json`. */
export function readLang(code: string): LangTree {
  return JSON.parse(readFileSync(join(ROOT, "lang", `${code}.json`), "utf8")) as LangTree;
}

/** Looks a dotted key up in nested language data. */
export function lookup(tree: LangTree, key: string): string | undefined {
  let node: string | LangTree | undefined = tree;
  for (const part of key.split(".")) {
    if (typeof node !== "object") return undefined;
    node = node[part];
  }
  return typeof node === "string" ? node : undefined;
}

/** `game.i18n` over one language file, with Foundry's `{name}` placeholders. */
export class StubI18n {
  constructor(
    readonly tree: LangTree,
    readonly lang = "en",
  ) {}
  has(key: string): boolean {
    return lookup(this.tree, key) !== undefined;
  }
  localize(key: string): string {
    return lookup(this.tree, key) ?? key;
  }
  format(key: string, data: Record<string, unknown> = {}): string {
    const text = lookup(this.tree, key);
    if (text === undefined) return key;
    return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in data ? String(data[name]) : whole));
  }
}

/** `ui.notifications`, recording every message. */
export class StubNotifications {
  readonly messages: { level: "info" | "warn" | "error"; text: string }[] = [];
  info(text: string): void {
    this.messages.push({ level: "info", text });
  }
  warn(text: string): void {
    this.messages.push({ level: "warn", text });
  }
  error(text: string): void {
    this.messages.push({ level: "error", text });
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Dice                                                                                        */
/* ------------------------------------------------------------------------------------------ */

/** A dice term of a rolled stand-in Roll, shaped like Foundry's `Die`. */
export interface StubDie {
  faces: number;
  number: number;
  results: { result: number; active: boolean }[];
  total: number;
}

/** Faces the stand-in Roll uses, in order; when empty, every die shows its middle face. */
export const diceQueue: number[] = [];

const nextFace: FaceSource = (faces) => diceQueue.shift() ?? Math.ceil(faces / 2);

/** `Roll` for the rules core's formula subset (`NdF`, `x` explosions, constants). */
export class StubRoll {
  /** Every Roll evaluated, in order. */
  static readonly evaluated: StubRoll[] = [];
  readonly formula: string;
  readonly options: Dict;
  terms: (StubDie | { number: number } | { operator: string })[] = [];
  total: number | undefined;
  constructor(formula: string, data: Dict = {}, options: Dict = {}) {
    // `@name` terms take their value from the roll data, as Foundry's Roll does.
    this.formula = formula.replace(/@([\w.]+)/g, (m, path: string) =>
      String(path.split(".").reduce<unknown>((v, k) => (v as Dict | undefined)?.[k], data) ?? m),
    );
    this.options = { ...options };
  }
  get dice(): StubDie[] {
    return this.terms.filter((t): t is StubDie => "faces" in t);
  }
  async evaluate(): Promise<this> {
    const parsed = parseFormula(this.formula);
    const outcome = evaluateFormula(parsed, nextFace);
    let die = 0;
    this.terms = [];
    parsed.terms.forEach((term, i) => {
      if (i > 0 || term.sign < 0) this.terms.push({ operator: term.sign < 0 ? "-" : "+" });
      if (term.kind === "constant") this.terms.push({ number: term.value });
      else {
        const results = outcome.dice[die++]!.results;
        this.terms.push({
          faces: term.faces,
          number: term.count,
          results: results.map((result) => ({ result, active: true })),
          total: results.reduce((a, b) => a + b, 0),
        });
      }
    });
    this.total = outcome.total;
    StubRoll.evaluated.push(this);
    return this;
  }
  /**
   * `Roll.fromJSON(json)` (https://foundryvtt.com/api/classes/foundry.dice.Roll.html#fromjson):
   * the evaluated Roll a serialized Roll describes, its terms and total as they were.
   */
  static fromJSON(json: string): StubRoll {
    const data = JSON.parse(json) as { formula: string; options?: Dict; terms: StubRoll["terms"]; total?: number };
    const roll = new StubRoll(data.formula, {}, data.options ?? {});
    roll.terms = data.terms;
    roll.total = data.total;
    return roll;
  }
  /** `Roll#toMessage`: posts the roll through `ChatMessage.implementation.create`. */
  async toMessage(data: Dict = {}): Promise<unknown> {
    return StubChatMessage.implementation.create({ ...data, rolls: [this] } as never);
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Documents, sheets, chat                                                                     */
/* ------------------------------------------------------------------------------------------ */

/** One `registerSheet` call. */
export interface SheetRegistration {
  scope: string;
  sheetClass: unknown;
  options: { types?: string[]; makeDefault?: boolean; label?: string };
}

/** `foundry.documents.collections.Actors` / `Items`: records sheet registrations. */
export function documentCollection() {
  const registrations: SheetRegistration[] = [];
  return {
    registrations,
    registerSheet(scope: string, sheetClass: unknown, options: SheetRegistration["options"] = {}) {
      registrations.push({ scope, sheetClass, options });
    },
  };
}

/** `ApplicationV2` and the document sheets: keep the document, render nothing. */
export class StubApplication {
  static DEFAULT_OPTIONS: Dict = {};
  static PARTS: Dict = {};
  readonly options: Dict;
  constructor(options: Dict = {}) {
    this.options = options;
  }
  get document(): unknown {
    return this.options.document;
  }
  get actor(): unknown {
    return this.options.document;
  }
  get item(): unknown {
    return this.options.document;
  }
  get isEditable(): boolean {
    return true;
  }
  async _prepareContext(_options: Dict): Promise<Dict> {
    return { document: this.options.document, editable: this.isEditable };
  }
  async render(): Promise<this> {
    return this;
  }
  async close(): Promise<this> {
    return this;
  }
}

/**
 * `ActorSheetV2` with the minimal drop path of v13's: an item dropped from elsewhere (a
 * compendium, the sidebar, another actor) is created on the sheet's actor from its `toObject()`;
 * one of the same actor is left where it is (Foundry sorts it).
 */
export class StubActorSheet extends StubApplication {
  async _onDropItem(_event: unknown, item: { parent?: { uuid?: string } | null; toObject(): Dict }): Promise<unknown> {
    const actor = this.options.document as {
      uuid?: string;
      isOwner?: boolean;
      createEmbeddedDocuments(t: string, d: Dict[]): Promise<unknown>;
    };
    if (actor.isOwner === false) return null;
    if (item.parent?.uuid && item.parent.uuid === actor.uuid) return null;
    return actor.createEmbeddedDocuments("Item", [item.toObject()]);
  }
}

/** `HandlebarsApplicationMixin`: a subclass that adds nothing the tests need. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a mixin's base must take `any[]`
export function HandlebarsApplicationMixin<T extends new (...args: any[]) => object>(Base: T): T {
  return class extends Base {};
}

/** A created chat message as recorded. */
export interface CreatedMessage {
  type?: string;
  speaker?: unknown;
  rolls?: unknown[];
  content?: string;
  sound?: string;
  system?: Dict;
  rollMode?: string;
  flavor?: string;
}

/** `ChatMessage`, recording created messages. */
export class StubChatMessage {
  static readonly created: CreatedMessage[] = [];
  static getSpeaker(options: { actor?: { name?: string }; token?: unknown } = {}): Dict {
    return { alias: options.actor?.name ?? "" };
  }
  static applyRollMode(data: CreatedMessage, mode: string): CreatedMessage {
    data.rollMode = mode;
    return data;
  }
  static implementation = {
    async create(data: CreatedMessage): Promise<CreatedMessage> {
      StubChatMessage.created.push(data);
      return data;
    },
  };
}

/* ------------------------------------------------------------------------------------------ */
/* Templates                                                                                   */
/* ------------------------------------------------------------------------------------------ */

/** A Handlebars environment with helpers shaped like Foundry's. */
export function handlebars(i18n: StubI18n): typeof Handlebars {
  const hb = Handlebars.create();
  hb.registerHelper("localize", (key: string) => i18n.localize(key));
  hb.registerHelper("not", (v: unknown) => !v);
  hb.registerHelper("eq", (a: unknown, b: unknown) => a === b);
  hb.registerHelper("checked", (v: unknown) => (v ? "checked" : ""));
  hb.registerHelper("disabled", (v: unknown) => (v ? "disabled" : ""));
  hb.registerHelper("selectOptions", (choices: Record<string, string>, options: { hash: { selected?: string } }) => {
    const html = Object.entries(choices)
      .map(([value, label]) => `<option value="${value}"${value === options.hash.selected ? " selected" : ""}>${label}</option>`)
      .join("");
    return new hb.SafeString(html);
  });
  return hb;
}

/**
 * Renders a template given Foundry's path (`systems/fray/templates/...`) from this repository,
 * each path compiled once and kept, as Foundry's `getTemplate` keeps what it compiled.
 */
export function renderTemplateFrom(i18n: StubI18n) {
  const hb = handlebars(i18n);
  const compiled = new Map<string, Handlebars.TemplateDelegate>();
  return async (path: string, data: Dict = {}): Promise<string> => {
    let template = compiled.get(path);
    if (!template) {
      template = hb.compile(readFileSync(join(ROOT, path.replace(/^systems\/fray\//, "")), "utf8"));
      compiled.set(path, template);
    }
    return template(data);
  };
}

/* ------------------------------------------------------------------------------------------ */
/* Canvas                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/** A square grid of `size` pixels per `distance` units. */
export function stubCanvas(size = 100, distance = 1.5, units = "m") {
  return {
    ready: true,
    grid: {
      size,
      distance,
      units,
      measurePath(waypoints: { x: number; y: number }[]) {
        let total = 0;
        for (let i = 1; i < waypoints.length; i++) {
          const a = waypoints[i - 1]!;
          const b = waypoints[i]!;
          // Square grid, diagonals counted like straight moves (Foundry's "equidistant" rule).
          const spaces = Math.max(Math.abs(b.x - a.x), Math.abs(b.y - a.y)) / size;
          total += Math.round(spaces) * distance;
        }
        return { distance: total, spaces: total / distance, cost: total };
      },
    },
  };
}

/* ------------------------------------------------------------------------------------------ */
/* Users, clients and ownership                                                                */
/* ------------------------------------------------------------------------------------------ */

/** Ownership levels as Foundry numbers them (`CONST.DOCUMENT_OWNERSHIP_LEVELS`). */
export const OWNERSHIP = { NONE: 0, LIMITED: 1, OBSERVER: 2, OWNER: 3 } as const;

/** A permission as `testUserPermission` takes it. */
export type Permission = keyof typeof OWNERSHIP;

/** Sets a dotted path in an object; a last key `-=name` deletes `name`, as Foundry's update does. */
export function setPath(target: Dict, path: string, value: unknown): void {
  const parts = path.split(".");
  let node = target;
  for (const p of parts.slice(0, -1)) node = (node[p] ??= {}) as Dict;
  const last = parts.at(-1)!;
  if (last.startsWith("-=")) delete node[last.slice(2)];
  else node[last] = structuredClone(value);
}

/** Reads a dotted path. */
export function getPath(source: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((v, k) => (v as Dict | undefined)?.[k], source);
}

/**
 * The client a piece of code runs on. Each simulated client's hooks run inside `clients.run(user,
 * ...)`, and `game.user` reads the client of the code running now, so an async handler started
 * by a hook keeps its client across awaits, as it would on its own machine.
 */
export const clients = new AsyncLocalStorage<StubUser>();

/** A User: id, role, whether connected, flags, targets. Only the user themself or a GM may update it. */
export class StubUser {
  flags: Dict = {};
  readonly targets = new Set<unknown>();
  constructor(
    readonly users: StubUsers,
    readonly id: string,
    public name: string,
    public isGM: boolean,
    public active = true,
  ) {}
  get uuid(): string {
    return `User.${this.id}`;
  }
  getFlag(scope: string, key: string): unknown {
    return getProperty(this.flags, `${scope}.${key}`);
  }
  /**
   * A User update made by the current client, as the server makes it: the changes (dotted or
   * nested) are differenced against the stored data and merged into it (data-model.ts), and
   * `updateUser(user, changed, options, userId)` is called on every connected client with that
   * differential data and the id of the user who made the update (the server's word, not the
   * caller's). An update that changes nothing calls no hook.
   * @throws Error when a player updates another user's User, as the server refuses it.
   */
  async update(changes: Dict, options: Dict = {}): Promise<this> {
    const actor = clients.getStore() ?? this.users.current;
    if (!actor.isGM && actor.id !== this.id) throw new Error(`User ${actor.id} lacks permission to update User ${this.id}`);
    const expanded = expandObject(changes);
    for (const k of Object.keys(expanded)) if (k !== "flags") throw new Error(`The stand-in updates only flags of a User, not ${k}`);
    const source: Dict = { flags: this.flags };
    const changed = updateSource(source, expanded, options);
    this.flags = source.flags as Dict;
    await Promise.resolve();
    if (Object.keys(changed).length) this.users.broadcast("updateUser", this, structuredClone(changed), options, actor.id);
    return this;
  }
}

/**
 * `game.users`: the world's users, `get(id)`, `activeGM` (the connected GM with the lowest id,
 * as v13 designates one GM client to act), and the simulated clients.
 */
export class StubUsers extends Map<string, StubUser> {
  /** The client the test is acting as when no hook is running. */
  current!: StubUser;
  constructor(readonly hooks: StubHooks) {
    super();
  }
  /** Adds a user. */
  add(id: string, name: string, isGM = false, active = true): StubUser {
    const user = new StubUser(this, id, name, isGM, active);
    this.set(id, user);
    return user;
  }
  get activeGM(): StubUser | null {
    return [...this.values()].filter((u) => u.isGM && u.active).sort((a, b) => a.id.localeCompare(b.id))[0] ?? null;
  }
  get contents(): StubUser[] {
    return [...this.values()];
  }
  /** Runs `fn` as the given user's client (their hooks, their `game.user`). */
  as<T>(user: StubUser, fn: () => T): T {
    return clients.run(user, fn);
  }
  /** Calls a document hook on every connected client, each inside its own client context. */
  broadcast(hook: string, ...args: unknown[]): void {
    for (const user of this.values()) if (user.active) clients.run(user, () => this.hooks.callAll(hook, ...args));
  }
}

/**
 * Gives a stand-in document Foundry's ownership: `ownership` per user id and `default`,
 * `testUserPermission(user, level)` (GMs own everything), and `isOwner` for the current client.
 * Setting `isOwner` sets the current user's level (kept for tests written before ownership).
 */
export function withOwnership<T extends object>(
  doc: T,
  ownership: Record<string, number> = { default: OWNERSHIP.OWNER },
): T & {
  ownership: Record<string, number>;
  testUserPermission(user: { id: string; isGM: boolean }, level: Permission): boolean;
  isOwner: boolean;
} {
  const out = doc as T & {
    ownership: Record<string, number>;
    testUserPermission(user: { id: string; isGM: boolean }, level: Permission): boolean;
    isOwner: boolean;
  };
  out.ownership = { ...ownership };
  out.testUserPermission = (user, level) => user.isGM || (out.ownership[user.id] ?? out.ownership.default ?? 0) >= OWNERSHIP[level];
  Object.defineProperty(out, "isOwner", {
    configurable: true,
    enumerable: true,
    get: () => {
      const user = (globalThis as { game?: { user?: { id: string; isGM: boolean } } }).game?.user;
      return user ? out.testUserPermission(user, "OWNER") : false;
    },
    set: (v: boolean) => {
      const user = (globalThis as { game?: { user?: { id: string } } }).game?.user;
      if (user) out.ownership[user.id] = v ? OWNERSHIP.OWNER : OWNERSHIP.NONE;
    },
  });
  return out;
}

/* ------------------------------------------------------------------------------------------ */
/* Installation                                                                                */
/* ------------------------------------------------------------------------------------------ */

/** Everything the stand-in world records, for assertions. */
export interface FoundryStub {
  Hooks: StubHooks;
  CONFIG: {
    Actor: { dataModels: Record<string, ModelClass> };
    Item: { dataModels: Record<string, ModelClass> };
    ChatMessage: { dataModels: Record<string, ModelClass> };
    sounds: { dice: string };
  };
  game: {
    settings: StubSettings;
    i18n: StubI18n;
    /** The user of the client running now (see {@link clients}). */
    user: StubUser;
    users: StubUsers;
    fray?: unknown;
  };
  ui: { notifications: StubNotifications };
  actors: ReturnType<typeof documentCollection>;
  items: ReturnType<typeof documentCollection>;
  templatesLoaded: string[];
  canvas: ReturnType<typeof stubCanvas>;
}

/**
 * Puts the stand-in globals on `globalThis` (Hooks, CONFIG, game, ui, foundry, Roll,
 * ChatMessage, canvas) and returns them. Call before importing the bundle.
 * @param lang the language file `game.i18n` reads.
 */
export function installFoundryStub(lang = "en"): FoundryStub {
  const i18n = new StubI18n(readLang(lang), lang);
  const actors = documentCollection();
  const items = documentCollection();
  const templatesLoaded: string[] = [];
  const hooks = new StubHooks();
  const users = new StubUsers(hooks);
  users.current = users.add("gm", "Gamemaster", true);
  const game = {
    settings: new StubSettings(),
    i18n,
    users,
    /**
     * `game.modules`: the installed modules by id, each with `active`
     * (https://foundryvtt.com/api/classes/foundry.Game.html#modules); none are installed here.
     */
    modules: new Map<string, { id: string; active: boolean }>(),
    get user(): StubUser {
      return clients.getStore() ?? users.current;
    },
    set user(user: StubUser) {
      users.current = user;
    },
  };
  game.settings.writer = () => game.user;
  const stub: FoundryStub = {
    Hooks: hooks,
    CONFIG: {
      Actor: { dataModels: {} },
      Item: { dataModels: {} },
      ChatMessage: { dataModels: {} },
      sounds: { dice: "sounds/dice.wav" },
    },
    game,
    ui: { notifications: new StubNotifications() },
    actors,
    items,
    templatesLoaded,
    canvas: stubCanvas(),
  };
  const foundry = {
    utils: { expandObject, mergeObject, diffObject, isDeletionKey, getProperty, randomID: () => Math.random().toString(36).slice(2, 12) },
    abstract: { TypeDataModel },
    data: {
      fields: {
        NumberField,
        StringField,
        BooleanField,
        HTMLField,
        ObjectField,
        DocumentUUIDField,
        SchemaField,
        ArrayField,
        TypedObjectField,
      },
    },
    applications: {
      api: { ApplicationV2: StubApplication, DocumentSheetV2: StubApplication, HandlebarsApplicationMixin },
      sheets: { ActorSheetV2: StubActorSheet, ItemSheetV2: class ItemSheetV2 extends StubApplication {} },
      ux: { TextEditor: { implementation: { enrichHTML: async (html: string) => html } } },
      handlebars: {
        renderTemplate: renderTemplateFrom(i18n),
        /** Fails, as Foundry's fetch would, for a path with no file behind it in the repository. */
        loadTemplates: async (paths: string[]) => {
          for (const path of paths) {
            const file = join(ROOT, path.replace(/^systems\/fray\//, ""));
            if (!path.startsWith("systems/fray/") || !existsSync(file)) throw new Error(`loadTemplates: no template at ${path}`);
          }
          templatesLoaded.push(...paths);
          return [];
        },
      },
      apps: {
        FilePicker: {
          implementation: class FilePicker {
            async browse() {}
          },
        },
      },
    },
    documents: { collections: { Actors: actors, Items: items } },
  };
  const g = globalThis as Record<string, unknown>;
  g.foundry = foundry;
  g.Hooks = stub.Hooks;
  g.CONFIG = stub.CONFIG;
  g.game = stub.game;
  g.ui = stub.ui;
  g.Roll = StubRoll;
  g.ChatMessage = StubChatMessage;
  g.canvas = stub.canvas;
  return stub;
}

/* ------------------------------------------------------------------------------------------ */
/* Actors and tokens                                                                           */
/* ------------------------------------------------------------------------------------------ */

/** An embedded item source. */
export interface ItemSourceStub {
  _id: string;
  name: string;
  type: string;
  img?: string;
  system: Dict;
}

/** An Actor as the glue reads it: `toObject()`, `items`, `statuses`, `uuid` ... */
export function stubActor(source: { _id: string; name: string; type: string; system: Dict; items: ItemSourceStub[] }) {
  const items = source.items.map((i) => ({ ...i, id: i._id, img: i.img ?? "icons/svg/sword.svg", toObject: () => structuredClone(i) }));
  const itemMap = new Map(items.map((i) => [i.id, i]));
  const actor = {
    id: source._id,
    name: source.name,
    type: source.type,
    img: "icons/svg/mystery-man.svg",
    uuid: `Actor.${source._id}`,
    isToken: false,
    statuses: new Set<string>(),
    items: Object.assign(items, { get: (id: string) => itemMap.get(id) }),
    toObject: () => structuredClone(source),
    getActiveTokens: () => [] as unknown[],
  };
  return withOwnership(actor);
}

/** A placed token of an actor at a grid position (pixel centers on a 100 px grid). */
export function stubToken(actor: ReturnType<typeof stubActor>, col: number, row: number) {
  const token = {
    id: `token-${actor.id}`,
    name: actor.name,
    actor,
    center: { x: col * 100 + 50, y: row * 100 + 50 },
    document: { uuid: `Scene.s1.Token.token-${actor.id}` },
  };
  actor.getActiveTokens = () => [token];
  return token;
}

/* ------------------------------------------------------------------------------------------ */
/* Play services: hotbar macros, scrolling text                                                */
/* ------------------------------------------------------------------------------------------ */

/** A script macro the stand-in created. */
export interface StubMacro {
  id: string;
  name: string;
  type: string;
  img?: string;
  command: string;
  author: { id: string };
  flags?: Dict;
}

/** What {@link installServiceStubs} records. */
export interface ServiceStubs {
  /** Macros created through `Macro.implementation.create`, in order. */
  macros: StubMacro[];
  /** `assignHotbarMacro(macro, slot)` calls, with the user who made them. */
  hotbar: { user: string; macro: StubMacro; slot: number }[];
  /** `canvas.interface.createScrollingText(point, text, options)` calls. */
  scrolling: { point: { x: number; y: number }; text: string; options: Dict }[];
}

/**
 * Adds what the play services use to an installed stand-in: `Macro.implementation.create` and
 * `game.macros` (world macros with their author), `User#assignHotbarMacro`,
 * `canvas.interface.createScrollingText` and `CONST.TEXT_ANCHOR_POINTS`, recording every call.
 */
export function installServiceStubs(stub: FoundryStub): ServiceStubs {
  const out: ServiceStubs = { macros: [], hotbar: [], scrolling: [] };
  const g = globalThis as Record<string, unknown>;
  g.Macro = {
    implementation: {
      async create(data: Omit<StubMacro, "id" | "author">): Promise<StubMacro> {
        const macro = { ...data, id: `macro${out.macros.length + 1}`, author: { id: stub.game.user.id } };
        out.macros.push(macro);
        return macro;
      },
    },
  };
  (stub.game as unknown as Dict).macros = { find: (fn: (m: StubMacro) => boolean) => out.macros.find(fn), contents: out.macros };
  (StubUser.prototype as unknown as Dict).assignHotbarMacro = async function (this: StubUser, macro: StubMacro, slot: number) {
    out.hotbar.push({ user: this.id, macro, slot });
    return this;
  };
  (stub.canvas as unknown as Dict).interface = {
    createScrollingText(point: { x: number; y: number }, text: string, options: Dict = {}) {
      out.scrolling.push({ point: { ...point }, text, options });
      return {};
    },
  };
  g.CONST = { ...((g.CONST as Dict | undefined) ?? {}), TEXT_ANCHOR_POINTS: { CENTER: 0, BOTTOM: 1, TOP: 2, LEFT: 3, RIGHT: 4 } };
  return out;
}
