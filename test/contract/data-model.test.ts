/**
 * The test model of Foundry's data layer (test/support/data-model.ts) against what the public API
 * pages say of updates: changes merge into the stored source (objects key by key, arrays whole),
 * `-=` deletes, the hooks receive differential data, and a User update that changes nothing calls
 * no hook. The flow tests rely on these behaviours; each is checked here on its own.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { replacement } from "../../src/foundry/logic/flags.js";
import { diffObject, expandObject, mergedFlag, mergeObject, updateSource } from "../support/data-model.js";
import { installFoundryStub } from "../support/foundry-stub.js";

describe("the data layer's update, as the API pages describe it", () => {
  it("expandObject turns dotted keys into nested objects", () => {
    expect(expandObject({ "flags.fray.moved": { round: 2 }, "system.hp.value": 5 })).toEqual({
      flags: { fray: { moved: { round: 2 } } },
      system: { hp: { value: 5 } },
    });
  });

  it("mergeObject merges objects key by key and replaces arrays whole; -= deletes only with performDeletions", () => {
    const source = { moved: { round: 1, paid: { slots: { action: 1 } }, legs: [1, 2] } };
    mergeObject(source, { moved: { round: 2, paid: { slots: { movement: 1 } }, legs: [3] } });
    expect(source).toEqual({ moved: { round: 2, paid: { slots: { action: 1, movement: 1 } }, legs: [3] } });
    mergeObject(source, { moved: { "-=paid": null } });
    expect(source.moved).toHaveProperty("-=paid");
    mergeObject(source, { moved: { "-=paid": null } }, { performDeletions: true });
    expect(source.moved).not.toHaveProperty("paid");
  });

  it("diffObject keeps only what differs; a deletion key only when there is something to delete", () => {
    const source = { flags: { fray: { answer: { id: "a", ok: true }, other: 1 } } };
    expect(diffObject(source, { flags: { fray: { answer: { id: "b", ok: true }, other: 1 } } })).toEqual({
      flags: { fray: { answer: { id: "b" } } },
    });
    expect(diffObject(source, { flags: { fray: { "-=gone": null, "-=other": null } } }, { deletionKeys: true })).toEqual({
      flags: { fray: { "-=other": null } },
    });
    expect(diffObject(source, { flags: { fray: { other: 1 } } })).toEqual({});
  });

  it("updateSource merges and returns the differential data a hook receives", () => {
    const source = { flags: { fray: { moved: { round: 1, metres: 9, paid: { slots: { action: 1 } } } } } };
    const changed = updateSource(source, { "flags.fray.moved": { round: 2, metres: 3, paid: {} } });
    expect(changed).toEqual({ flags: { fray: { moved: { round: 2, metres: 3 } } } });
    // The old paid key stays: a merge never removes what the new value leaves out.
    expect(source.flags.fray.moved.paid).toEqual({ slots: { action: 1 } });
    expect(updateSource(source, { "flags.fray.moved.paid.-=slots": null })).toEqual({
      flags: { fray: { moved: { paid: { "-=slots": null } } } },
    });
    expect(source.flags.fray.moved.paid).toEqual({});
  });

  it("a User update calls updateUser on every client with the diff and the writer's id; an unchanged update calls nothing", async () => {
    const stub = installFoundryStub();
    const player = stub.game.users.add("p1", "Pat");
    const seen: [string, unknown, string][] = [];
    stub.Hooks.on("updateUser", (_user, changes, _options, userId) => void seen.push([stub.game.user.id, changes, userId as string]));
    await stub.game.users.as(player, () => player.update({ "flags.fray.answer": { id: "a", ok: true } }));
    await stub.game.users.as(player, () => player.update({ "flags.fray.answer": { id: "b", ok: true } }));
    await stub.game.users.as(player, () => player.update({ "flags.fray.answer": { id: "b", ok: true } }));
    expect(seen).toEqual([
      ["gm", { flags: { fray: { answer: { id: "a", ok: true } } } }, "p1"],
      ["p1", { flags: { fray: { answer: { id: "a", ok: true } } } }, "p1"],
      ["gm", { flags: { fray: { answer: { id: "b" } } } }, "p1"],
      ["p1", { flags: { fray: { answer: { id: "b" } } } }, "p1"],
    ]);
    await expect(stub.game.users.as(player, () => stub.game.users.get("gm")!.update({ "flags.fray.x": 1 }))).rejects.toThrow(/permission/);
  });

  it("replaceFlag's value leaves the stored flag equal to the new value, whatever was stored (A17)", () => {
    const key = fc.constantFrom("round", "paid", "slots", "action", "quick", "sealed", "text");
    const leaf = fc.oneof(fc.integer(), fc.string({ maxLength: 3 }), fc.boolean(), fc.array(fc.integer(), { maxLength: 2 }));
    const { tree } = fc.letrec((tie) => ({
      tree: fc.dictionary(key, fc.oneof({ depthSize: "small" }, leaf, tie("tree")), { maxKeys: 4 }),
    }));
    fc.assert(
      fc.property(tree, tree, (stored, next) => {
        expect(mergedFlag(stored, replacement(stored, next))).toEqual(next);
      }),
    );
    // The plain merge is what it mends: a stored key the new value lacks stays.
    expect(mergedFlag({ round: 1, sealed: "m1" }, { round: 2 })).toEqual({ round: 2, sealed: "m1" });
  });
});
