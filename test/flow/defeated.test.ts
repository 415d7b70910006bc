/**
 * The tracker's defeated mark follows the ruleset's out state, through the built bundle in the
 * Foundry stand-in (a Zones world): a combatant whose hit points drop to 0 (ZN-ZON-02) or who is
 * knocked unconscious is marked defeated by the active GM as the actor changes, not only once
 * `dead`; healed, the rules' mark is lifted; a mark the GM set by hand stays.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FoundryStub } from "../support/foundry-stub.js";
import { FlowWorld, type CardMessage, type Dict } from "../support/flow-world.js";
import { firefight, zonesOptions } from "../support/flow-zones.js";

const flowWorld = new FlowWorld<CardMessage>(zonesOptions());
let stub: FoundryStub;

beforeAll(async () => {
  ({ stub } = await flowWorld.boot());
});

beforeEach(() => {
  flowWorld.reset();
  flowWorld.resetUsers();
});

/** A fight of the rifleman and the sentry whose Combatants take `update` as Foundry's do (defeated, flags). */
function fight() {
  const f = firefight(flowWorld, 4);
  const { combat } = flowWorld.startCombat([
    { actor: f.rifleman.actor, token: f.riflemanToken },
    { actor: f.sentry.actor, token: f.sentryToken },
  ]);
  const updates: Dict[] = [];
  for (const c of combat.combatants as unknown as Dict[]) {
    const flags: Dict = {};
    Object.assign(c, {
      defeated: false,
      getFlag: (_s: string, k: string) => flags[k],
      async update(changes: Dict) {
        updates.push(changes);
        if ("defeated" in changes) c.defeated = changes.defeated;
        if ("flags.fray.outDefeated" in changes) flags.outDefeated = changes["flags.fray.outDefeated"];
        if ("flags.fray.-=outDefeated" in changes) delete flags.outDefeated;
        return c;
      },
    });
  }
  const sentryCombatant = (combat.combatants as unknown as Dict[]).find((c) => c.tokenId === f.sentryToken.id)!;
  /** Updates the sentry's actor and fires `updateActor` as Foundry does after an update. */
  const updateSentry = async (changes: Dict) => {
    await (f.sentry.actor as unknown as { update(c: Dict): Promise<unknown> }).update(changes);
    stub.Hooks.callAll("updateActor", f.sentry.actor, changes, {}, stub.game.user.id);
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { ...f, sentryCombatant, updates, updateSentry };
}

describe("the defeated mark follows the out state", () => {
  it("ZN-ZON-02: at 0 hit points the combatant is marked defeated; healed, the rules' mark is lifted", async () => {
    const { sentryCombatant, updateSentry, updates } = fight();
    await updateSentry({ "system.hp.value": 0 });
    expect(sentryCombatant.defeated).toBe(true);
    await updateSentry({ "system.hp.value": 12 });
    expect(sentryCombatant.defeated).toBe(false);
    expect(updates).toHaveLength(2);
  });

  it("unconscious with hit points left is out too, though the world's defeated status is dead", async () => {
    const { sentry, sentryCombatant } = fight();
    await (sentry.actor as unknown as { toggleStatusEffect(id: string, o: { active: boolean }): Promise<unknown> }).toggleStatusEffect(
      "unconscious",
      { active: true },
    );
    stub.Hooks.callAll("createActiveEffect", { parent: sentry.actor, statuses: new Set(["unconscious"]) }, {}, stub.game.user.id);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sentryCombatant.defeated).toBe(true);
  });

  it("ZN-ZON-02: a combatant added to the combat at 0 hit points is marked defeated as it joins", async () => {
    const { sentry, sentryCombatant } = fight();
    (sentry.source.system.hp as { value: number }).value = 0;
    stub.Hooks.callAll("createCombatant", sentryCombatant, {}, stub.game.user.id);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sentryCombatant.defeated).toBe(true);
  });

  it("a combatant the GM marked defeated by hand stays so while in the fight", async () => {
    const { sentryCombatant, updateSentry, updates } = fight();
    sentryCombatant.defeated = true;
    await updateSentry({ "system.hp.value": 20 });
    expect(sentryCombatant.defeated).toBe(true);
    expect(updates).toEqual([]);
  });
});
