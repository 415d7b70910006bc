/**
 * The forecast's Quench batch (`fray.forecast`): the v13 assumptions the tracker's forecast
 * relies on (docs/foundry-assumptions.md, F1 to F5), checked in a real world by a GM.
 */
import type { Quench } from "../quench.js";
import { nextHook } from "../quench-wait.js";
import { FORECAST_WORKER } from "./dialog.js";
import { runPool, type PoolWorker } from "./pool.js";
import type { ForecastReply, ForecastRequest } from "./worker.js";

/** Registers the batch. */
export function registerForecastQuench(quench: Quench): void {
  quench.registerBatch(
    "fray.forecast",
    (context) => {
      const { describe, it, assert } = context;
      describe("Forecast from the combat tracker: the worker and the progress dialog", () => {
        it("F1: the system's forecast-worker.mjs starts as a module Worker from its route and answers a request", async () => {
          const worker = new Worker(foundry.utils.getRoute(FORECAST_WORKER), { type: "module" });
          try {
            const reply = await new Promise<ForecastReply>((resolve, reject) => {
              worker.onmessage = (event: MessageEvent<ForecastReply>) => resolve(event.data);
              worker.onerror = (event) => reject(new Error(event.message));
              worker.postMessage({ type: "run", id: "quench", file: {}, packs: [], runs: 1, seed: 1 } satisfies ForecastRequest);
            });
            assert.equal(reply.type, "error");
            assert.ok(reply.type === "error" && game.i18n.has(reply.key), "an error key the languages hold");
          } finally {
            worker.terminate();
          }
          // Two at once, as the tracker's pool starts them: each answers, the pool rejects with the error.
          let started = 0;
          const run = runPool(
            { file: {}, packs: [], runs: 2, seed: 1 },
            {
              id: "quench-pool",
              size: 2,
              spawn: () => {
                started++;
                return new Worker(foundry.utils.getRoute(FORECAST_WORKER), { type: "module" }) as unknown as PoolWorker;
              },
            },
          );
          const error = await run.result.then(
            () => undefined,
            (e: unknown) => e as { key?: string },
          );
          assert.equal(started, 2);
          assert.ok(error?.key && game.i18n.has(error.key), "the pool's error has a key the languages hold");
        });
        it("F3: foundry.utils.saveDataToFile takes the text, its type and a file name", async () => {
          // (Not called: it would start a download in the GM's browser.)
          assert.equal(typeof foundry.utils.saveDataToFile, "function");
          assert.equal(foundry.utils.saveDataToFile.length, 3);
        });
        it("F4: a token's toObject() without _id, created on its scene, is a token of the same actor that a Combatant can take", async () => {
          type Doc = { id: string; actorId?: string; tokenId?: string; delete(): Promise<unknown> };
          const combat = game.combat as unknown as {
            combatants: Iterable<{ token?: { parent?: unknown; toObject(): Record<string, unknown> } | null }>;
            createEmbeddedDocuments(t: string, d: object[]): Promise<Doc[]>;
          } | null;
          const original = combat ? Array.from(combat.combatants).find((c) => c.token?.parent) : undefined;
          assert.ok(combat && original?.token, "F4 needs an active combat with a combatant whose token is on a scene");
          const token = original!.token!;
          const scene = token.parent as { id: string; createEmbeddedDocuments(t: string, d: object[]): Promise<Doc[]> };
          const { _id: _drop, ...data } = token.toObject();
          void _drop;
          const [copy] = await scene.createEmbeddedDocuments("Token", [{ ...data, x: Number(data.x ?? 0) + 100 }]);
          try {
            assert.equal(copy!.actorId, data.actorId);
            const [combatant] = await combat!.createEmbeddedDocuments("Combatant", [
              { tokenId: copy!.id, sceneId: scene.id, actorId: copy!.actorId },
            ]);
            assert.equal(combatant!.tokenId, copy!.id);
            await combatant!.delete();
          } finally {
            await copy!.delete();
          }
        });
        it("F5: a GM's combat flag reaches updateCombat without a round and re-renders the tracker; a deleted combat calls deleteCombat", async () => {
          type CombatDoc = {
            id: string;
            setFlag(s: string, k: string, v: unknown): Promise<unknown>;
            unsetFlag(s: string, k: string): Promise<unknown>;
            getFlag(s: string, k: string): unknown;
            delete(): Promise<unknown>;
          };
          const combat = game.combat as unknown as CombatDoc | null;
          assert.ok(combat, "F5 needs an active combat, viewed in the combat tracker");
          const updated = nextHook("updateCombat");
          const rendered = nextHook("renderCombatTracker");
          await combat!.setFlag("fray", "quenchFollow", { on: true, points: [{ round: 1 }] });
          const [doc, changes] = ((await updated) ?? []) as [CombatDoc?, Record<string, unknown>?];
          assert.equal(doc?.id, combat!.id);
          assert.ok(!("round" in (changes ?? {})), "a flag's update carries no round");
          assert.deepEqual(combat!.getFlag("fray", "quenchFollow"), { on: true, points: [{ round: 1 }] });
          assert.ok(await rendered, "the tracker renders again after the update");
          await combat!.unsetFlag("fray", "quenchFollow");
          const CombatClass = (globalThis as unknown as { Combat: { create(d: object): Promise<CombatDoc> } }).Combat;
          const other = await CombatClass.create({ scene: canvas?.scene?.id ?? null, active: false });
          const deleted = nextHook("deleteCombat");
          await other.delete();
          const [gone] = ((await deleted) ?? []) as [CombatDoc?];
          assert.equal(gone?.id, other.id);
        });
        it("F2: DialogV2.wait renders under the given id; closing that instance resolves the wait with null", async () => {
          const id = "fray-forecast-quench";
          const waiting = foundry.applications.api.DialogV2.wait({
            id,
            window: { title: "Quench" },
            content: "<p>Quench</p>",
            buttons: [{ action: "cancel", label: "Cancel", default: true }],
            rejectClose: false,
          } as never);
          await new Promise((resolve) => setTimeout(resolve, 200));
          assert.ok(document.getElementById(id), "element with the id");
          await foundry.applications.instances.get(id)?.close();
          assert.equal(await waiting, null);
        });
      });
    },
    { displayName: "Fray: forecast worker and dialog" },
  );
}
