/**
 * The Zones flow world (`test/flow/zones-*.test.ts`): the options of {@link FlowWorld} for a world
 * whose ruleset is `zones`, the seed's rifleman and the compendium's Perimeter Sentry on 100 px
 * squares of 1.5 m.
 */
import { stubToken } from "./foundry-stub.js";
import { packSource, type Dict, type FlowWorld, type FlowWorldOptions } from "./flow-world.js";

/**
 * A Zones world: an empty Combat base, no status effects of the core, created messages recorded.
 * @param more options of the file (its Combat base, movement actions, ruler, scene).
 */
export function zonesOptions(more: Partial<FlowWorldOptions> = {}): FlowWorldOptions {
  return {
    ruleset: "zones",
    Combat: class {},
    recordCreated: true,
    ...more,
    config: { Token: {}, statusEffects: [], specialStatusEffects: {}, ...more.config },
  };
}

/** The compendium's Harrow Carbine, as item `carbine`. */
export const CARBINE = () => ({ ...packSource("zones-weapons", "Harrow_Carbine_zNw1HarrowCarb05.json"), _id: "carbine" });
/** The compendium's Fieldcraft Knife, as item `knife`. */
export const KNIFE = () => ({ ...packSource("zones-weapons", "Fieldcraft_Knife_zNw1Fieldcraft10.json"), _id: "knife" });

/** The rifleman of the seed's example: DEX +1, PER +1, Firearms 3, standing. */
export const RIFLEMAN = {
  ruleset: "zones",
  attributes: { STR: 0, DEX: 1, CON: 0, PER: 1 },
  skills: { firearms: 3, melee: 1, throwing: 1, dodge: 1, stealth: 1, notice: 2 },
  hp: { value: 28, max: 28 },
  speed: { value: 8, max: 8 },
  effort: { value: 3, max: 3 },
  stance: "standing",
};

/**
 * An actor of the stand-in whose document, items and statuses can be updated, registered by UUID
 * (see {@link FlowWorld.actor}); `system` and `items` are copied.
 */
export function zonesActor(
  world: FlowWorld<unknown>,
  id: string,
  name: string,
  type: string,
  system: Dict,
  items: Dict[],
  more: Parameters<FlowWorld<unknown>["actor"]>[1] = {},
) {
  return world.actor({ _id: id, name, type, system, items }, more);
}

/** The rifleman and the compendium's Perimeter Sentry (kneeling, soft body vest) `squares` apart. */
export function firefight(world: FlowWorld<unknown>, squares: number) {
  const rifleman = zonesActor(world, "rifleman", "Rifleman", "character", RIFLEMAN, [CARBINE(), KNIFE()]);
  const sentrySource = packSource("zones-npcs", "Perimeter_Sentry_zNn1SentryNpc001.json");
  const sentry = zonesActor(world, "sentry", "Perimeter Sentry", "npc", sentrySource.system as Dict, sentrySource.items as Dict[]);
  const riflemanToken = stubToken(rifleman.actor, 0, 0);
  const sentryToken = stubToken(sentry.actor, squares, 0);
  world.register(riflemanToken, sentryToken);
  return { rifleman, sentry, riflemanToken, sentryToken };
}

/** A stand-in actor's hit points (`system.hp.value`). */
export const hp = (a: { source: { system: Dict } }) => (a.source.system.hp as { value: number }).value;

/**
 * The Zones binding's `sheetAction` (what a sheet's buttons call), as loaded in `world`.
 * @throws when the world has not booted.
 */
export const zonesSheetAction = (world: FlowWorld<unknown>) =>
  (
    world.stub.game.fray as {
      registry: { get(id: string): { sheetAction(actor: unknown, data: Dict, tokenId?: string): Promise<void> } };
    }
  ).registry.get("zones").sheetAction;
