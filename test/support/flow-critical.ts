/**
 * The Critical flow world (`test/flow/critical-*.test.ts`): the options of {@link FlowWorld} for a
 * world whose ruleset is `critical`, and its compendium NPCs as actors of the stand-in.
 */
import { stubToken } from "./foundry-stub.js";
import { packSource, type Dict, type FlowWorld, type FlowWorldOptions } from "./flow-world.js";

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
    setFlag: async (_s: string, k: string, v: unknown) => flags.set(k, structuredClone(v)),
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
