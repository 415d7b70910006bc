/**
 * Zones' movement actions are registered in `init` (ZN-MOV-01), through the built bundle in the
 * Foundry stand-in: Foundry prepares the world's tokens (their movement action among them) before
 * `setup`, so run and running jump, with every action's cost in speed points, are on
 * `CONFIG.Token.movement.actions` once `init` has run, as other systems register theirs.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { FlowWorld, type Dict } from "../support/flow-world.js";
import { zonesOptions } from "../support/flow-zones.js";

type Action = { order?: number; label?: string; getCostFunction?(token: unknown): (cost: number) => number };

/** The movement actions as they stood when `i18nInit` began, right after every `init` handler. */
let afterInit: Record<string, Action> = {};

const actions: Record<string, Action> = Object.fromEntries(
  ["walk", "fly", "swim", "burrow", "crawl", "climb", "jump", "blink", "displace"].map((id, order) => [id, { label: id, order }]),
);

const flowWorld = new FlowWorld(
  zonesOptions({
    config: { Token: { movement: { actions } } },
    prepare: ({ stub }) => {
      stub.Hooks.on("i18nInit", () => {
        afterInit = Object.fromEntries(Object.entries(actions).map(([id, a]) => [id, { ...a }]));
      });
    },
  }),
);

beforeAll(async () => {
  await flowWorld.boot();
});

describe("Zones movement actions in init", () => {
  it("ZN-MOV-01: run and running jump exist, and walking costs speed points, before setup", () => {
    expect(Object.keys(afterInit)).toEqual(expect.arrayContaining(["run", "runningJump"]));
    expect(afterInit.run!.label).toBe("FRAY.Zones.MoveAction.run");
    expect(afterInit.run!.getCostFunction!({})(6)).toBe(3);
    expect(afterInit.crawl!.getCostFunction!({})(3)).toBe(6);
  });

  it("ZN-MOV-01: registered once: setup leaves the actions as init made them", () => {
    expect(Object.keys(actions).sort()).toEqual(Object.keys(afterInit).sort());
    expect((actions as Dict).run).toMatchObject({ order: afterInit.run!.order, label: afterInit.run!.label });
  });
});
