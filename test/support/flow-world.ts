/**
 * One stand-in world for the flow tests that load the built bundle (`dist/fray.mjs`) on top of the
 * typed Foundry stand-in (`foundry-stub.ts`): Foundry's update semantics on dotted paths, a chat
 * message store with `update`, a GM and a player, the capture of the queries a player sends to
 * the active GM, actors and tokens that can be updated and found by UUID, and a started Combat
 * whose combatants keep their flags. What differs between the flow files (the world's ruleset,
 * the Combat and TokenRuler base classes, extra `CONFIG`, a canvas, whispers) is an option.
 *
 * It stays close to what public v13 systems show of these documents; a pass here is never proof of
 * Foundry (the Quench tests in `src/foundry/rulesets/<id>/quench.ts` are).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  ROOT,
  StubChatMessage,
  diceQueue,
  installFoundryStub,
  stubActor,
  withOwnership,
  type FoundryStub,
  type StubUser,
} from "./foundry-stub.js";
import type { TargetState } from "../../src/foundry/logic/card.js";
import { getProperty, isPlainObject, mergedFlag } from "./data-model.js";

/** A plain object of the stand-in. */
export type Dict = Record<string, unknown>;

/** An attack card of the message store: its targets' states in `system.targets`. */
export interface CardMessage {
  id: string;
  type?: string;
  isOwner: boolean;
  content: string;
  rolls: unknown[];
  system: Dict & { targets: TargetState[] };
  update(changes: Dict): Promise<CardMessage>;
}

/** The part of `game.fray` the card flow tests call: an attack, and a button of its card. */
export interface CardApi {
  rollAttack(request: Dict): Promise<{ results: { hit: boolean }[]; message: CardMessage } | undefined>;
  flow: { runCardAction(message: CardMessage, index: number, action: string): Promise<void> };
}

/** The built bundle the flow tests load. */
export const BUNDLE = join(ROOT, "dist", "fray.mjs");

/**
 * Sets a dotted path in an object as Foundry's update does: missing objects on the way are
 * created, and a last key `-=name` deletes `name`. The value is stored as given (not copied).
 */
export function setPath(target: Dict, path: string, value: unknown): void {
  const parts = path.split(".");
  let node = target;
  for (const p of parts.slice(0, -1)) node = (node[p] ??= {}) as Dict;
  const last = parts.at(-1)!;
  if (last.startsWith("-=")) delete node[last.slice(2)];
  else node[last] = value;
}

/**
 * Writes a value at a dotted path, merging nested plain objects into what is there, as Foundry's
 * update does (arrays and other values replace); a key `-=name` deletes `name`.
 */
export function mergePath(target: Dict, path: string, value: unknown): void {
  const isPlain = (v: unknown): v is Dict => typeof v === "object" && v !== null && !Array.isArray(v);
  const parts = path.split(".");
  let node = target;
  for (const p of parts.slice(0, -1)) node = (node[p] ??= {}) as Dict;
  const last = parts.at(-1)!;
  if (last.startsWith("-=")) {
    delete node[last.slice(2)];
    return;
  }
  if (isPlain(value) && isPlain(node[last])) for (const [k, v] of Object.entries(value)) mergePath(node[last] as Dict, k, v);
  else setPath(target, path, value);
}

/**
 * A compendium source document of the repository's packs.
 * @param pack the folder under `packs/_source` (`zones-weapons`).
 * @param file the JSON file name in it.
 * @throws when the file is missing or not JSON.
 */
export function packSource(pack: string, file: string): Dict {
  return JSON.parse(readFileSync(join(ROOT, "packs", "_source", pack, file), "utf8")) as Dict;
}

/** A chat card's visible text for the reader (tags stripped, white space collapsed). */
export const cardText = (m: { content: string }) => m.content.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

/** An actor's source as the stand-in takes it (items are item sources). */
export interface ActorSource {
  _id: string;
  name: string;
  type: string;
  system: Dict;
  items: Dict[];
}

/** A base TokenRuler: white segments, white highlights. */
export class BaseRuler {
  constructor(readonly token: unknown) {}
  _getSegmentStyle(_waypoint?: unknown) {
    return { width: 4, color: 0xffffff };
  }
  _getGridHighlightStyle(_waypoint?: unknown, _offset?: unknown) {
    return { color: 0xffffff, alpha: 0.5 };
  }
}

/** A stand-in chat message as the store keeps it. */
interface StoredMessage {
  id: string;
  whisper?: string[];
  author: { id: string };
}

/** What differs between the flow files' worlds. */
export interface FlowWorldOptions {
  /** The world's `fray.ruleset` setting (`hitbox`, `critical`, `zones`); the setting's default when absent. */
  ruleset?: string;
  /** `globalThis.Combat`, the base of Fray's Combat class; left as the stand-in installs it when absent. */
  Combat?: unknown;
  /** `globalThis.Combatant`, the base of Fray's Combatant class; an empty class when absent. */
  Combatant?: unknown;
  /** `foundry.utils.randomID` returns `r1`, `r2`, ... in order instead of random ids. */
  sequentialIds?: boolean;
  /** Each captured query also keeps the request's `data`. */
  queryData?: boolean;
  /** `foundry.canvas.placeables.tokens.TokenRuler`, the base of Fray's ruler; an empty class when absent. */
  TokenRuler?: unknown;
  /** More `CONFIG` entries (`statusEffects`, `time`), set after `Combat`, `Combatant` and `Token`. */
  config?: Dict;
  /** The scene's canvas, set on the stand-in and as `globalThis.canvas`. */
  canvas?: (stub: FoundryStub) => FoundryStub["canvas"];
  /** `game.messages.get` returns a whisper only to a GM, its author and its recipients, as Foundry sends it. */
  whispers?: boolean;
  /** Created messages are also recorded in `StubChatMessage.created`. */
  recordCreated?: boolean;
  /** Messages can be deleted (`message.delete()` removes it from the store). */
  deletable?: boolean;
  /** Each actor without embedded ActiveEffects gets an empty `effects` list, as the round's effect clock reads it. */
  actorEffects?: boolean;
  /** Runs after the stand-in is set up, before the ruleset is set and the bundle loaded (a scene's canvas). */
  prepare?: (world: FlowWorld<unknown>) => void;
}

/** A started Combat's combatant of the stand-in. */
export interface FlowCombatant {
  id: string;
  name: string;
  tokenId: string;
  token: { id: string };
  actor: { id: unknown; uuid: string };
  actorId: unknown;
  isOwner: boolean;
  combat: { id: string };
  getFlag(scope: string, key: string): unknown;
  setFlag(scope: string, key: string, value: unknown): Promise<unknown>;
}

/**
 * The stand-in world of one flow test file. Create it at the top of the file, then call
 * {@link FlowWorld.boot} in `beforeAll` and {@link FlowWorld.reset} in `beforeEach`.
 * @typeParam M the file's view of a chat message.
 */
export class FlowWorld<M = Dict> {
  /** Every chat message created since the last reset, in order (ids `m1`, `m2`, ... never reused). */
  readonly messages: M[] = [];
  /** Documents by UUID, as `fromUuid` and `fromUuidSync` find them. */
  readonly docs = new Map<string, unknown>();
  /** The queries a client sent to the active GM (the `flags.fray.request` user updates the GM saw). */
  readonly queries: { name: string; data?: Dict; userId: string }[] = [];
  /** The installed stand-in (after {@link boot}). */
  stub!: FoundryStub;
  /** The GM user `gm`. */
  gm!: StubUser;
  /** The player user `p1` ("Pat"). */
  player!: StubUser;

  /** The last sequential id handed out. */
  #ids = 0;
  /** The last chat message id handed out. */
  #messageIds = 0;

  constructor(readonly options: FlowWorldOptions) {}

  /**
   * Installs the stand-in, the world's options and the message store, sets the ruleset, loads the
   * bundle and runs `init`, `i18nInit`, `setup` and `ready`.
   * @throws when `dist/fray.mjs` has not been built.
   */
  async boot(): Promise<this> {
    if (!existsSync(BUNDLE)) throw new Error(`dist/fray.mjs is missing: run "npm run build" first.`);
    const { options, messages, docs, queries } = this;
    const stub = (this.stub = installFoundryStub("en"));
    const g = globalThis as Dict;
    if ("Combat" in options) g.Combat = options.Combat;
    g.Combatant = options.Combatant ?? class {};
    const config = stub.CONFIG as unknown as Dict;
    Object.assign(config, { Combat: {}, Combatant: {}, Token: {} }, options.config ?? {});
    const foundry = g.foundry as Dict;
    foundry.canvas = { placeables: { tokens: { TokenRuler: options.TokenRuler ?? class {} } } };
    foundry.utils = {
      ...(foundry.utils as Dict),
      fromUuid: async (uuid: string) => docs.get(uuid) ?? null,
      fromUuidSync: (uuid: string) => docs.get(uuid) ?? null,
      randomID: options.sequentialIds ? () => `r${++this.#ids}` : () => Math.random().toString(36).slice(2, 12),
    };
    if (options.canvas) {
      stub.canvas = options.canvas(stub);
      g.canvas = stub.canvas;
    }
    const game = stub.game as unknown as Dict;
    const holds = (m: StoredMessage) =>
      !options.whispers ||
      stub.game.user.isGM ||
      !m.whisper?.length ||
      m.whisper.includes(stub.game.user.id) ||
      m.author.id === stub.game.user.id;
    game.messages = { get: (id: string) => (messages as unknown as StoredMessage[]).find((m) => m.id === id && holds(m)) };
    this.gm = stub.game.users.get("gm")!;
    this.player = stub.game.users.add("p1", "Pat");
    stub.Hooks.on("updateUser", (_user, changes, _options, userId) => {
      if (stub.game.user.id !== "gm") return;
      const requests = getProperty(changes, "flags.fray.requests");
      for (const [id, request] of Object.entries(isPlainObject(requests) ? requests : {})) {
        if (id.startsWith("-=") || !isPlainObject(request)) continue;
        const { name, data } = request as { name: string; data: Dict };
        queries.push(options.queryData ? { name, data, userId: userId as string } : { name, userId: userId as string });
      }
    });
    StubChatMessage.implementation.create = (async (data: Dict) => {
      const message: Dict = {
        ...data,
        // Foundry never gives two messages one id: the count runs on across resets.
        id: `m${++this.#messageIds}`,
        author: stub.game.user,
        rolls: (data.rolls as unknown[]) ?? [],
        async update(changes: Dict) {
          for (const [k, v] of Object.entries(changes)) setPath(message, k, v);
          return message;
        },
      };
      if (options.deletable)
        message.delete = async () => {
          messages.splice(messages.indexOf(message as M), 1);
        };
      withOwnership(message, { default: 0, [stub.game.user.id]: 3 });
      messages.push(message as M);
      if (options.recordCreated) StubChatMessage.created.push(message as never);
      return message;
    }) as never;
    options.prepare?.(this as FlowWorld<unknown>);
    if (options.ruleset) await stub.game.settings.set("fray", "ruleset", options.ruleset);
    await import(pathToFileURL(BUNDLE).href);
    for (const hook of ["init", "i18nInit", "setup", "ready"]) stub.Hooks.callAll(hook);
    return this;
  }

  /**
   * Clears what a test leaves behind: messages, queries, scripted dice, notifications, the GM as
   * the current user with no targets, and no combat.
   */
  reset(): void {
    const { stub } = this;
    this.messages.length = 0;
    this.queries.length = 0;
    diceQueue.length = 0;
    stub.ui.notifications.messages.length = 0;
    stub.game.users.current = this.gm;
    stub.game.user.targets.clear();
    (stub.game as unknown as Dict).combat = undefined;
  }

  /** Makes `gm` an active GM again and clears the player's flags (the queries they sent). */
  resetUsers(): void {
    this.gm.isGM = true;
    this.gm.active = true;
    this.player.flags = {};
  }

  /** `game.fray`, as the file types it. */
  api<T>(): T {
    return this.stub.game.fray as T;
  }

  /**
   * An actor of the stand-in, registered by UUID: `update` and `updateEmbeddedDocuments` merge into
   * its source as Foundry's update does, each item has `update` and `delete` (which removes it from
   * `actor.items` too), `createEmbeddedDocuments("Item", data)` adds items with their `_id`, and
   * statuses toggle.
   * @param source the actor's source; it is copied, and the copy is returned as `source`.
   * @param onCreateEmbedded called with `createEmbeddedDocuments`' arguments before the items are added.
   * @param onUpdate called with `update`'s arguments before they are merged.
   */
  actor(
    source: ActorSource,
    {
      onCreateEmbedded,
      onUpdate,
    }: {
      onCreateEmbedded?: (type: string, data: Dict[], options: Dict) => void;
      onUpdate?: (actor: { uuid: string }, changes: Dict, options: Dict) => void;
    } = {},
  ) {
    const src = structuredClone(source) as ActorSource & Dict;
    const a = stubActor(src as never) as ReturnType<typeof stubActor> & Dict;
    const sourceItems = src.items;
    const liveItems = a.items as unknown as Dict[] & { get(id: string): Dict | undefined };
    liveItems.get = (id: string) => liveItems.find((i) => i.id === id);
    const wire = (item: Dict) =>
      Object.assign(item, {
        async update(changes: Dict) {
          const stored = sourceItems.find((i) => i._id === item.id)!;
          for (const [k, v] of Object.entries(changes)) mergePath(stored, k, v);
          item.system = stored.system;
          return item;
        },
        async delete() {
          sourceItems.splice(
            sourceItems.findIndex((i) => i._id === item.id),
            1,
          );
          liveItems.splice(liveItems.indexOf(item), 1);
        },
      });
    for (const item of liveItems) wire(item);
    Object.assign(a, {
      async createEmbeddedDocuments(type: string, data: Dict[], options: Dict = {}) {
        onCreateEmbedded?.(type, data, options);
        for (const d of data) {
          const stored = structuredClone(d);
          sourceItems.push(stored);
          liveItems.push(wire({ ...stored, id: stored._id, toObject: () => structuredClone(stored) }));
        }
        return data;
      },
      async update(changes: Dict, options: Dict = {}) {
        onUpdate?.(a, changes, options);
        for (const [k, v] of Object.entries(changes)) mergePath(src, k, v);
        return a;
      },
      async updateEmbeddedDocuments(_type: string, rows: { _id: string }[]) {
        for (const row of rows) {
          const item = sourceItems.find((i) => i._id === row._id);
          if (item) for (const [k, v] of Object.entries(row)) if (k !== "_id") mergePath(item, k, v);
        }
        return rows;
      },
      async toggleStatusEffect(status: string, { active }: { active: boolean }) {
        if (active) a.statuses.add(status);
        else a.statuses.delete(status);
      },
      get system() {
        return src.system;
      },
      getFlag(scope: string, key: string) {
        return ((src as { flags?: Record<string, Dict> }).flags?.[scope] ?? {})[key];
      },
    });
    if (this.options.actorEffects && !("effects" in a)) Object.assign(a, { effects: [] });
    this.docs.set(a.uuid, a);
    return { actor: a, source: src };
  }

  /** Registers placed tokens by their document's UUID (the document with `object`, `actor` and owned). */
  register(...tokens: { document: { uuid: string }; actor: unknown }[]): void {
    for (const t of tokens) this.docs.set(t.document.uuid, { ...t.document, object: t, actor: t.actor, isOwner: true });
  }

  /**
   * A started Combat of the stand-in, round 1, id `combat1`, with a Combatant `c-<token id>` per
   * entry, set as `game.combat`. The combat's and its combatants' flags are kept in `flags`
   * (keys `combat.<key>` and `c-<token id>.<key>`); `setFlag` merges into what is stored there as
   * Foundry's update does (data-model.ts), `unsetFlag` removes it.
   * @param ownerFromActor a combatant is owned when its actor is (for the current user); otherwise always.
   */
  startCombat(entries: readonly { actor: { id: unknown; uuid: string }; token: { id: string } }[], { ownerFromActor = false } = {}) {
    const flags = new Map<string, unknown>();
    const list: FlowCombatant[] = entries.map(({ actor, token }) => ({
      id: `c-${token.id}`,
      name: (actor as { name?: string }).name ?? "",
      tokenId: token.id,
      token,
      actor,
      actorId: actor.id,
      get isOwner() {
        return ownerFromActor ? ((actor as { isOwner?: boolean }).isOwner ?? true) : true;
      },
      combat: { id: "combat1" },
      getFlag: (_s: string, k: string) => flags.get(`c-${token.id}.${k}`),
      setFlag: async (_s: string, k: string, v: unknown) => flags.set(`c-${token.id}.${k}`, mergedFlag(flags.get(`c-${token.id}.${k}`), v)),
      unsetFlag: async (_s: string, k: string) => flags.delete(`c-${token.id}.${k}`),
    }));
    const combat = {
      id: "combat1",
      started: true,
      round: 1,
      getFlag: (_s: string, k: string) => flags.get(`combat.${k}`),
      setFlag: async (_s: string, k: string, v: unknown) => flags.set(`combat.${k}`, mergedFlag(flags.get(`combat.${k}`), v)),
      unsetFlag: async (_s: string, k: string) => flags.delete(`combat.${k}`),
      combatants: Object.assign(list, { get: (id: string) => list.find((c) => c.id === id) }),
    };
    (this.stub.game as unknown as Dict).combat = combat;
    return { combat, flags };
  }
}

/** An event as the stand-in's listeners receive it: what the hooks call, and the element clicked. */
export interface FakeEvent {
  preventDefault(): void;
  stopPropagation?(): void;
  target?: unknown;
}

/**
 * A DOM element of the stand-in tracker and chat as the binding's hooks read it: classes, `data-*`
 * (dataset), children with their parent, click listeners, `disabled` and inserted HTML;
 * `querySelector(All)` knows class selectors, tag names and `tag[data-x]`, `[data-x="v"]`,
 * `[data-x^="v"]`.
 */
export class FakeElement {
  children: FakeElement[] = [];
  parentElement: FakeElement | null = null;
  dataset: Record<string, string> = {};
  listeners: ((event: FakeEvent) => void)[] = [];
  disabled = false;
  html = "";
  constructor(
    readonly tag: string,
    readonly classes: string[] = [],
  ) {}
  append(...children: FakeElement[]) {
    for (const c of children) {
      c.parentElement = this;
      this.children.push(c);
    }
    return this;
  }
  get isConnected() {
    return this.parentElement !== null;
  }
  remove() {
    if (this.parentElement) this.parentElement.children = this.parentElement.children.filter((c) => c !== this);
    this.parentElement = null;
  }
  addEventListener(_type: string, fn: (event: FakeEvent) => void) {
    this.listeners.push(fn);
  }
  click() {
    for (const fn of this.listeners) fn({ preventDefault() {} });
  }
  insertAdjacentHTML(_where: string, html: string) {
    this.html += html;
  }
  #all(): FakeElement[] {
    return this.children.flatMap((c) => [c, ...c.#all()]);
  }
  #matches(selector: string): boolean {
    if (selector.startsWith(".")) return this.classes.includes(selector.slice(1));
    const attr = /^(\w*)\[data-([\w-]+)(?:(\^?=)['"]([^'"]*)['"])?\]$/.exec(selector);
    if (attr) {
      const [, tag, name, op, value] = attr;
      if (tag && tag !== this.tag) return false;
      const key = name!.replace(/-(\w)/g, (_m, ch: string) => ch.toUpperCase());
      const v = this.dataset[key];
      if (v === undefined) return false;
      return !op || (op === "=" ? v === value : v.startsWith(value!));
    }
    return this.tag === selector;
  }
  querySelectorAll(selector: string): FakeElement[] {
    return this.#all().filter((e) => e.#matches(selector));
  }
  querySelector(selector: string): FakeElement | null {
    return this.querySelectorAll(selector)[0] ?? null;
  }
}

/**
 * Writes a request straight into a user's own User document as Fray's request channel stores it
 * (`flags.fray.requests.<id>`), the way a hostile client could from the console; the id is a key
 * of the nested form, so any id reaches the GM as written.
 */
export function writeRequest(user: StubUser, id: string, name: string, data: Dict): Promise<unknown> {
  return user.update({ flags: { fray: { requests: { [id]: { name, data } } } } });
}

/** The GM's answer to request `id` as stored on the requester's User, if one was written. */
export function storedAnswer(user: StubUser, id: string): Dict | undefined {
  const answers = getProperty(user.flags, "fray.answers");
  return isPlainObject(answers) && isPlainObject(answers[id]) ? answers[id] : undefined;
}
