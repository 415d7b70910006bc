/**
 * The Critical flow world (`test/flow/critical-*.test.ts`): the options of {@link FlowWorld} for a
 * world whose ruleset is `critical`, its compendium NPCs as actors of the stand-in, Foundry's base
 * Combat for a fight of the bundle's Combat class, new rounds through the `updateCombat` hook, and
 * chat buttons pressed as their render hooks wire them.
 */
import { mergedFlag } from "./data-model.js";
import { stubToken } from "./foundry-stub.js";
import { mergePath, packSource, setPath, type Dict, type FlowWorld, type FlowWorldOptions } from "./flow-world.js";

/** Foundry's base Combatant: the bundle's class extends it. */
export class CriticalCombatant {}

/**
 * Foundry's base Combat as far as a Critical round needs it: combatants by id, turns sorted by the
 * bundle's `_sortCombatants`, embedded updates merged as Foundry's update does, flags kept.
 */
export class CriticalCombat {
  round = 1;
  turn: number | null = 0;
  started = true;
  id = "combat1";
  combatants = new Map<string, Dict>();
  flags: Dict = {};
  get turns(): Dict[] {
    const sort = (this as unknown as { _sortCombatants(a: Dict, b: Dict): number })._sortCombatants;
    // Handed over unbound, as a sort callback may be.
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
  async createEmbeddedDocuments() {
    return [];
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
  async startCombat() {
    return this;
  }
}

/** A Combat of the bundle's class (which extends {@link CriticalCombat}) in the world. */
export type FightCombat = CriticalCombat & {
  rollInitiative(ids: string[]): Promise<unknown>;
  _preUpdate(changed: Dict, options: Dict, user: unknown): Promise<unknown>;
};

/** Lets what a hook or a click started without awaiting finish (50 turns of 5 ms). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 50; i++) await new Promise((r) => setTimeout(r, 5));
}

/**
 * A Critical world: the stand-in's own Combat, a ruler that keeps its token, no status effects of
 * the core, created messages recorded.
 * @param more options of the file.
 */
export function criticalOptions(more: Partial<FlowWorldOptions> = {}): FlowWorldOptions {
  return {
    ruleset: "critical",
    config: { statusEffects: [], specialStatusEffects: {} },
    TokenRuler: class {
      constructor(readonly token: unknown) {}
    },
    recordCreated: true,
    ...more,
  };
}

/** A compendium NPC of Critical's source. */
export interface CriticalNpc {
  _id: string;
  name: string;
  type: string;
  system: Dict;
  items: { _id: string; name: string; type: string; system: Dict }[];
}

/** A compendium NPC of Critical (`packs/_source/critical-npcs`), by file name. */
export function packNpc(file: string): CriticalNpc {
  return packSource("critical-npcs", file) as unknown as CriticalNpc;
}

/**
 * A compendium NPC as an actor of the stand-in (see {@link FlowWorld.actor}) with a token at (0, 0),
 * both registered by UUID; `toObject()` also lists the actor's statuses.
 * @param id the actor's id (its token is `token-<id>`).
 * @param file the NPC's file in `packs/_source/critical-npcs`.
 * @param name the actor's name; the NPC's when absent.
 * @param system values laid over the NPC's system.
 */
export function criticalActor(world: FlowWorld<unknown>, id: string, file: string, name?: string, system: Dict = {}) {
  const npc = packNpc(file);
  const { actor: a, source } = world.actor({
    _id: id,
    name: name ?? npc.name,
    type: "npc",
    system: { ...npc.system, ...system },
    items: npc.items,
  });
  a.toObject = () => ({ ...structuredClone(source), statuses: [...a.statuses] }) as never;
  const token = stubToken(a, 0, 0);
  world.register(token);
  return { actor: a, token };
}

/** Starts a combat of one combatant for an actor's token; its flags live in the returned map. */
export function combatOf(world: FlowWorld<unknown>, who: ReturnType<typeof criticalActor>): Map<string, unknown> {
  const flags = new Map<string, unknown>();
  const combatant = {
    id: `c-${who.actor.id}`,
    tokenId: who.token.id,
    token: who.token,
    actor: who.actor,
    actorId: who.actor.id,
    isOwner: true,
    combat: { id: "combat1" },
    getFlag: (_s: string, k: string) => flags.get(k),
    setFlag: async (_s: string, k: string, v: unknown) => flags.set(k, mergedFlag(flags.get(k), v)),
  };
  const list = [combatant];
  (world.stub.game as unknown as Dict).combat = {
    id: "combat1",
    started: true,
    round: 1,
    combatants: Object.assign(list, { get: (id: string) => list.find((c) => c.id === id) }),
  };
  return flags;
}

/**
 * A started combat of the bundle's Combat class (the world's `Combat` option must be
 * {@link CriticalCombat}) as `game.combat`, one combatant `c-<actor id>` per fighter, each owned and
 * keeping its flags (the round's economy) in `flags`.
 */
export function criticalCombat(world: FlowWorld<unknown>, fighters: readonly ReturnType<typeof criticalActor>[]): FightCombat {
  const Combat = (world.stub.CONFIG as unknown as { Combat: { documentClass: new () => FightCombat } }).Combat.documentClass;
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
        const stored = ((c.flags as Dict)[scope] ??= {}) as Dict;
        stored[key] = mergedFlag(stored[key], value);
        return c;
      },
    };
    combat.combatants.set(String(c.id), c);
  }
  (world.stub.game as unknown as Dict).combat = combat;
  return combat;
}

/**
 * Advances a combat to `round` as Foundry does: the Combat's `_preUpdate` adds its changes (each
 * combatant's new economy), they are applied, then the `updateCombat` hook runs on the current user
 * (the GM) and what it starts finishes.
 */
export async function advanceRound(world: FlowWorld<unknown>, combat: FightCombat, round: number): Promise<void> {
  const { stub } = world;
  const changed: Dict = { round };
  await combat._preUpdate(changed, {}, stub.game.user);
  for (const row of (changed.combatants as Dict[] | undefined) ?? []) await combat.updateEmbeddedDocuments("Combatant", [row]);
  combat.round = round;
  stub.Hooks.callAll("updateCombat", combat, { round }, {}, stub.game.user.id);
  await settle();
}

/**
 * Presses a chat button as its rendered message's hooks wired it (the stand-in renders no DOM) and
 * lets its action finish.
 * @param action part of the button's selector (`fray-selfDiscipline`).
 * @returns false when the message offers no such button to the current user.
 */
export async function pressButton(world: FlowWorld<unknown>, message: unknown, action: string): Promise<boolean> {
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
  world.stub.Hooks.callAll("renderChatMessageHTML", message, html);
  if (!click || button.removed) return false;
  click({ preventDefault: () => undefined });
  // The click runs its action without awaiting: let it finish.
  await settle();
  return true;
}
