/**
 * A Critical world of the built bundle in the Foundry stand-in, for flow tests that play a fight:
 * the bundle loaded with Critical chosen, chat messages kept, documents found by UUID, compendium
 * NPCs as updatable actors with tokens, a combat whose combatants keep their round economy, chat
 * buttons pressed as their render hooks wire them, and new rounds advanced through the
 * `updateCombat` hook. One world per test file (the bundle registers its hooks once).
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
  stubToken,
  withOwnership,
  type FoundryStub,
} from "./foundry-stub.js";

type Dict = Record<string, unknown>;

/** A chat message of the stand-in. */
export interface WorldMessage extends Dict {
  id: string;
  content: string;
  rolls: unknown[];
  flags?: Dict;
  system: Dict & { targets: Dict[] };
  update(changes: Dict): Promise<WorldMessage>;
}

/** An actor of the world with its token. */
export type WorldActor = ReturnType<CriticalWorld["actor"]>;

function setPath(target: Dict, path: string, value: unknown): void {
  const parts = path.split(".");
  let node = target;
  for (const p of parts.slice(0, -1)) node = (node[p] ??= {}) as Dict;
  node[parts.at(-1)!] = value;
}

/** Writes a value at a dotted path, merging nested objects into what is there, as Foundry's update does. */
function mergePath(target: Dict, path: string, value: unknown): void {
  const isPlain = (v: unknown): v is Dict => typeof v === "object" && v !== null && !Array.isArray(v);
  const parts = path.split(".");
  let node = target;
  for (const p of parts.slice(0, -1)) node = (node[p] ??= {}) as Dict;
  const last = parts.at(-1)!;
  if (isPlain(value) && isPlain(node[last])) for (const [k, v] of Object.entries(value)) mergePath(node[last] as Dict, k, v);
  else setPath(target, path, value);
}

/** Foundry's base Combatant: the bundle's class extends it. */
class BaseCombatant {}

/**
 * Foundry's base Combat as far as a fight needs it: combatants by id, turns sorted with the
 * bundle's `_sortCombatants`, embedded updates merged, flags kept.
 */
class BaseCombat {
  round = 1;
  turn: number | null = 0;
  started = true;
  id = "combat1";
  combatants = new Map<string, Dict>();
  flags: Dict = {};
  get turns(): Dict[] {
    const sort = (this as unknown as { _sortCombatants(a: Dict, b: Dict): number })._sortCombatants;
    return [...this.combatants.values()].sort((a, b) => sort(a, b));
  }
  get combatant(): Dict | undefined {
    return this.turn === null ? undefined : this.turns[this.turn];
  }
  async updateEmbeddedDocuments(_type: string, updates: Dict[]) {
    for (const u of updates) {
      const c = this.combatants.get(String(u._id));
      if (!c) continue;
      for (const [k, v] of Object.entries(u)) if (k !== "_id") mergePath(c, k, v);
    }
    return updates;
  }
  async update(changes: Dict) {
    for (const [k, v] of Object.entries(changes)) setPath(this as unknown as Dict, k, v);
    return this;
  }
  getFlag(scope: string, key: string) {
    return ((this.flags[scope] ?? {}) as Dict)[key];
  }
  async setFlag(scope: string, key: string, value: unknown) {
    ((this.flags[scope] ??= {}) as Dict)[key] = structuredClone(value);
    return this;
  }
  async _preUpdate() {
    return undefined;
  }
}

/** A Combat of the bundle's class in the world. */
export type WorldCombat = BaseCombat & {
  rollInitiative(ids: string[]): Promise<unknown>;
  _preUpdate(changed: Dict, options: Dict, user: unknown): Promise<unknown>;
};

/** The world a flow test plays in; see {@link criticalWorld}. */
export interface CriticalWorld {
  stub: FoundryStub;
  messages: WorldMessage[];
  /** A compendium NPC of Critical (`packs/_source/critical-npcs/<file>`) as an actor with a token, registered by UUID. */
  actor(
    id: string,
    file: string,
    name?: string,
    system?: Dict,
  ): { actor: ReturnType<typeof stubActor> & Dict; token: ReturnType<typeof stubToken> };
  /**
   * A started combat of the bundle's Combat class as `game.combat`, one combatant `c-<actor id>`
   * per actor, each keeping its flags (the round's economy).
   */
  combat(fighters: WorldActor[]): WorldCombat;
  /**
   * Advances the combat to `round` as Foundry does: the Combat's `_preUpdate` adds its changes
   * (each combatant's new economy), they are applied, then the `updateCombat` hook runs on the GM
   * and what it starts finishes.
   */
  advance(combat: WorldCombat, round: number): Promise<void>;
  /** Presses a chat button as the message's render hook wired it; false when it offers none to this user. */
  press(message: Dict, action: string): Promise<boolean>;
  /** Resets messages, dice, notifications and the current user (the GM) between tests. */
  reset(): void;
}

/**
 * Loads the built bundle (dist/fray.mjs) into a fresh stand-in with the Critical ruleset and
 * returns the world's helpers.
 * @throws when dist/fray.mjs is missing (run `npm run build`).
 */
export async function criticalWorld(): Promise<CriticalWorld> {
  const bundle = join(ROOT, "dist", "fray.mjs");
  if (!existsSync(bundle)) throw new Error(`dist/fray.mjs is missing: run "npm run build" first.`);
  const stub = installFoundryStub("en");
  await stub.game.settings.set("fray", "ruleset", "critical");
  const messages: WorldMessage[] = [];
  const docs = new Map<string, unknown>();
  const g = globalThis as Dict;
  g.Combat = BaseCombat;
  g.Combatant = BaseCombatant;
  const config = stub.CONFIG as unknown as Dict;
  config.Combat = {};
  config.Combatant = {};
  config.Token = {};
  config.statusEffects = [];
  config.specialStatusEffects = {};
  const foundry = g.foundry as Dict;
  foundry.utils = {
    fromUuid: async (uuid: string) => docs.get(uuid) ?? null,
    fromUuidSync: (uuid: string) => docs.get(uuid) ?? null,
    randomID: () => Math.random().toString(36).slice(2, 12),
  };
  foundry.canvas = { placeables: { tokens: { TokenRuler: class {} } } };
  const game = stub.game as unknown as Dict;
  game.messages = { get: (id: string) => messages.find((m) => m.id === id) };
  StubChatMessage.implementation.create = (async (data: Dict) => {
    const message = {
      ...data,
      id: `m${messages.length + 1}`,
      author: stub.game.user,
      rolls: (data.rolls as unknown[]) ?? [],
      async update(changes: Dict) {
        for (const [k, v] of Object.entries(changes)) setPath(message as unknown as Dict, k, v);
        return message;
      },
    } as unknown as WorldMessage;
    withOwnership(message, { default: 0, [stub.game.user.id]: 3 });
    messages.push(message);
    StubChatMessage.created.push(message as never);
    return message;
  }) as never;
  await import(pathToFileURL(bundle).href);
  for (const hook of ["init", "i18nInit", "setup", "ready"]) stub.Hooks.callAll(hook);
  const settle = async () => {
    for (let i = 0; i < 50; i++) await new Promise((r) => setTimeout(r, 5));
  };

  const world: CriticalWorld = {
    stub,
    messages,
    actor(id, file, name, system = {}) {
      const npc = JSON.parse(readFileSync(join(ROOT, "packs", "_source", "critical-npcs", file), "utf8")) as Dict & {
        name: string;
        system: Dict;
        items: unknown[];
      };
      const source = {
        _id: id,
        name: name ?? npc.name,
        type: "npc",
        system: { ...structuredClone(npc.system), ...system },
        items: structuredClone(npc.items),
      };
      const a = stubActor(source as never) as ReturnType<typeof stubActor> & Dict;
      Object.assign(a, {
        async update(changes: Dict) {
          for (const [k, v] of Object.entries(changes)) {
            // Foundry's deletion key: `system.parry.-=<id>` removes that entry (docs/foundry-assumptions.md C5).
            const deletion = /^(.*)\.-=([^.]+)$/.exec(k);
            if (deletion) {
              const node = deletion[1]!
                .split(".")
                .reduce<Dict | undefined>((n, p) => n?.[p] as Dict | undefined, source as unknown as Dict);
              if (node) delete node[deletion[2]!];
            } else mergePath(source as unknown as Dict, k, v);
          }
          return a;
        },
        async toggleStatusEffect(status: string, { active }: { active: boolean }) {
          if (active) a.statuses.add(status);
          else a.statuses.delete(status);
        },
        get system() {
          return source.system;
        },
        getFlag(scope: string, key: string) {
          return ((source as unknown as { flags?: Record<string, Dict> }).flags?.[scope] ?? {})[key];
        },
      });
      // An actor's embedded ActiveEffects (none here), as the round's effect clock reads them.
      if (!("effects" in a)) Object.assign(a, { effects: [] });
      a.toObject = () => ({ ...structuredClone(source), statuses: [...a.statuses] }) as never;
      docs.set(a.uuid, a);
      const token = stubToken(a, 0, 0);
      docs.set(token.document.uuid, { ...token.document, object: token, actor: a, isOwner: true });
      return { actor: a, token };
    },
    combat(fighters) {
      const Combat = (stub.CONFIG as unknown as { Combat: { documentClass: new () => WorldCombat } }).Combat.documentClass;
      const combat = new Combat();
      Object.defineProperty(combat.combatants, Symbol.iterator, {
        value: function* () {
          yield* combat.combatants.values();
        },
      });
      for (const who of fighters) {
        const c: Dict = {
          id: `c-${who.actor.id}`,
          name: who.actor.name,
          actor: who.actor,
          actorId: who.actor.id,
          tokenId: who.token.id,
          token: who.token,
          initiative: null,
          defeated: false,
          isOwner: true,
          flags: { fray: {} },
          combat,
          getFlag: (scope: string, key: string) => (((c.flags as Dict)[scope] ?? {}) as Dict)[key],
          setFlag: async (scope: string, key: string, value: unknown) => {
            (((c.flags as Dict)[scope] ??= {}) as Dict)[key] = structuredClone(value);
            return c;
          },
        };
        combat.combatants.set(String(c.id), c);
      }
      game.combat = combat;
      return combat;
    },
    async advance(combat, round) {
      const changed: Dict = { round };
      await combat._preUpdate(changed, {}, stub.game.user);
      for (const row of (changed.combatants as Dict[] | undefined) ?? []) await combat.updateEmbeddedDocuments("Combatant", [row]);
      combat.round = round;
      stub.Hooks.callAll("updateCombat", combat, { round }, {}, stub.game.user.id);
      await settle();
    },
    async press(message, action) {
      let click: ((event: { preventDefault(): void }) => unknown) | undefined;
      const button = {
        dataset: {},
        disabled: false,
        isConnected: true,
        removed: false,
        addEventListener: (_type: string, fn: typeof click) => (click = fn),
        remove() {
          this.removed = true;
        },
      };
      const html = {
        querySelector: (selector: string) => (selector.includes(action) ? button : null),
        querySelectorAll: () => [],
      };
      stub.Hooks.callAll("renderChatMessageHTML", message, html);
      if (!click || button.removed) return false;
      click({ preventDefault: () => undefined });
      await settle();
      return true;
    },
    reset() {
      messages.length = 0;
      StubChatMessage.created.length = 0;
      stub.ui.notifications.messages.length = 0;
      const gm = stub.game.users.get("gm")!;
      stub.game.users.current = gm;
      gm.isGM = true;
      gm.active = true;
      diceQueue.length = 0;
      game.combat = undefined;
      game.tables = [];
    },
  };
  return world;
}
