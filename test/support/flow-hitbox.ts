/**
 * The Hitbox flow world (`test/flow/hitbox-*.test.ts`): the options of {@link FlowWorld} for a world
 * whose ruleset is `hitbox` on 5 ft squares, and the seed's example pair, Zeven and the security
 * guard (seed 002; examples/hitbox-zeven.yaml).
 */
import { stubCanvas, stubToken } from "./foundry-stub.js";
import { packSource, type ActorSource, type FlowWorld, type FlowWorldOptions } from "./flow-world.js";

/** A base TokenRuler: white segments. */
export class BaseRuler {
  constructor(readonly token: unknown) {}
  _getSegmentStyle(_waypoint?: unknown) {
    return { width: 4, color: 0xffffff };
  }
  _getGridHighlightStyle(_waypoint?: unknown, _offset?: unknown) {
    return { color: 0xffffff, alpha: 0.5 };
  }
}

/**
 * A Hitbox world: Combat with `_preUpdate`, the white base ruler, six-second rounds and a scene of
 * 5 ft squares (the binding's grid default).
 * @param more options of the file (`whispers`, `deletable`).
 */
export function hitboxOptions(more: Partial<FlowWorldOptions> = {}): FlowWorldOptions {
  return {
    ruleset: "hitbox",
    Combat: class {
      async _preUpdate() {
        return undefined;
      }
    },
    TokenRuler: BaseRuler,
    config: { time: { roundTime: 6 } },
    canvas: () => stubCanvas(100, 5, "ft"),
    ...more,
  };
}

/** The compendium's Holdout Pistol (`packs/_source/hitbox-weapons`). */
export const holdout = packSource("hitbox-weapons", "Holdout_Pistol_hBw1HoldoutPis01.json");
/** The compendium's Security Guard (`packs/_source/hitbox-npcs`). */
export const guardSource = packSource("hitbox-npcs", "Security_Guard_hBn1SecurityGu01.json");

/** Zeven as the seed's example gives her (seed 002; examples/hitbox-zeven.yaml). */
export function zevenSource(): ActorSource {
  return {
    _id: "zeven",
    name: "Zeven",
    type: "character",
    system: {
      ruleset: "hitbox",
      abilities: { strength: 2, dexterity: 3, fortitude: 2 },
      skills: { firearms: 1, melee: 0, throwing: 0, archery: 0, dodge: 1, parry: 0, blackout: 1 },
      mainHand: "right",
      held: ["Holdout Pistol"],
      group: "players",
      biography: "",
    },
    items: [structuredClone(holdout)],
  };
}

/** Zeven and the guard 15 ft apart on a 5 ft grid (3 squares), registered in `world`. */
export function zevenAndGuard(world: FlowWorld<unknown>) {
  const zeven = world.actor(zevenSource());
  const guard = world.actor(structuredClone(guardSource) as never as ActorSource);
  const zevenToken = stubToken(zeven.actor, 0, 0);
  const guardToken = stubToken(guard.actor, 3, 0);
  world.register(zevenToken, guardToken);
  return { zeven, guard, zevenToken, guardToken };
}

/** An actor's hitboxes by location (`system.hitboxes`). */
export type Hitboxes = Record<string, { value: number; max: number }>;
/** The hitboxes of a stand-in actor. */
export const boxes = (a: unknown) => ((a as { system: unknown }).system as { hitboxes: Hitboxes }).hitboxes;

/** Removes the world settings of the Hitbox ruleset (`fray.hitbox-*`) a test changed. */
export function clearHitboxSettings(world: FlowWorld<unknown>): void {
  const values = world.stub.game.settings.values;
  for (const key of [...values.keys()]) if (key.startsWith("fray.hitbox-")) values.delete(key);
}
