/**
 * The forecast's Web Worker: its message handler (src/foundry/forecast/worker.ts) and the built
 * `dist/forecast-worker.mjs` run in a Node worker thread give the same forecast as `forecast()`
 * in process for the same combat state and seed, report progress, and stop on a cancel.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { ContentIndex } from "../../src/encounter/content.js";
import { parseEncounter } from "../../src/encounter/schema.js";
import { PackContent } from "../../src/encounter/library.js";
import { forecast } from "../../src/forecast/forecast.js";
import type { ActorSource } from "../../src/rules/core/sources.js";
import { ud10, ud10CombatantFromActor } from "../../src/rules/ud10/index.js";
import { forecastInput, type ForecastBinding, type ForecastInput } from "../../src/foundry/logic/forecast-state.js";
import { forecastWorker, type ForecastReply, type ForecastRequest } from "../../src/foundry/forecast/worker.js";

const ROOT = join(import.meta.dirname, "..", "..");
const packs = new ContentIndex(join(ROOT, "packs", "_source"));
const npc = (name: string) => packs.resolve(`ud10-npcs/${name}`, "test") as unknown as ActorSource;
const binding: ForecastBinding = {
  id: "ud10",
  combatantFromActor: ud10CombatantFromActor,
  ruleset: ud10 as unknown as ForecastBinding["ruleset"],
};

/** A Veteran and a Guard side by side against two Thugs, one 9 m off. */
function input(): ForecastInput {
  return forecastInput(
    {
      name: "Yard",
      ruleset: "ud10",
      options: ud10.defaults(),
      round: 1,
      combatants: [
        { id: "vet", name: "Veteran", actor: npc("Veteran"), disposition: 1, defeated: false },
        { id: "guard", name: "Guard", actor: npc("Guard"), disposition: 1, defeated: false },
        { id: "thug1", name: "Thug", actor: npc("Thug"), disposition: -1, defeated: false },
        { id: "thug2", name: "Thug", actor: npc("Thug"), disposition: -1, defeated: false },
      ],
      distances: { vet: { thug1: 1.5, thug2: 9 }, guard: { thug1: 3, thug2: 9 } },
    },
    binding,
  );
}

/** A run request as the client posts it (structured-cloned, as postMessage does). */
const request = (i: ForecastInput, runs: number, seed: number, id = "f1"): ForecastRequest =>
  structuredClone({ type: "run", id, file: i.file, packs: i.packs, runs, seed, progressEvery: 10 });

describe("forecast worker", () => {
  it("UD-ACT-01: the handler gives the in-process forecast's numbers for the same state and seed, with progress", async () => {
    const i = input();
    const replies: ForecastReply[] = [];
    await forecastWorker((r) => replies.push(r))(request(i, 60, 123));
    const expected = await forecast(parseEncounter(i.file), new PackContent(i.packs), { runs: 60, seed: 123 });
    const done = replies.at(-1);
    expect(done?.type).toBe("done");
    expect(done?.type === "done" && done.forecast).toEqual(expected);
    expect(replies.filter((r) => r.type === "progress").map((r) => (r.type === "progress" ? r.done : 0))).toEqual([10, 20, 30, 40, 50, 60]);
    // Another seed plays other fights.
    const other = await forecast(parseEncounter(i.file), new PackContent(i.packs), { runs: 60, seed: 124 });
    expect(other.rounds.counts).not.toEqual(expected.rounds.counts);
  });

  it("UD-ACT-01: a cancel stops the run after the fights played, whose figures come back", async () => {
    const i = input();
    const replies: ForecastReply[] = [];
    const handle = forecastWorker((r) => {
      replies.push(r);
      if (r.type === "progress" && r.done === 20) void handle({ type: "cancel", id: "f1" });
    });
    await handle(request(i, 500, 5));
    const done = replies.at(-1);
    expect(done?.type === "done" && [done.forecast.runs, done.forecast.complete]).toEqual([20, false]);
    const first20 = await forecast(parseEncounter(i.file), new PackContent(i.packs), { runs: 20, seed: 5 });
    expect(done?.type === "done" && done.forecast.sides).toEqual(first20.sides);
  });

  it("UD-ACT-01: bad runs come back as a localized error naming the field", async () => {
    const replies: ForecastReply[] = [];
    await forecastWorker((r) => replies.push(r))(request(input(), 0, 1));
    expect(replies).toEqual([
      expect.objectContaining({ type: "error", key: "FRAY.Error.Input.IntegerRange", data: expect.objectContaining({ field: "runs" }) }),
    ]);
  });

  const bundle = join(ROOT, "dist", "forecast-worker.mjs");
  it("UD-ACT-01: the built worker bundle in a worker thread gives the same forecast", async () => {
    if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run "npm run build" first.`);
    const i = input();
    // The worker scope a browser gives: `postMessage` out, `onmessage` in.
    const shim = `
      const { parentPort } = require("node:worker_threads");
      globalThis.postMessage = (m) => parentPort.postMessage(m);
      parentPort.on("message", (m) => globalThis.onmessage && globalThis.onmessage({ data: m }));
      import(${JSON.stringify(pathToFileURL(bundle).href)}).then(() => parentPort.postMessage({ type: "ready" }));`;
    const worker = new Worker(shim, { eval: true });
    try {
      const replies = await new Promise<ForecastReply[]>((resolve, reject) => {
        const got: ForecastReply[] = [];
        worker.on("error", reject);
        worker.on("message", (m: ForecastReply | { type: "ready" }) => {
          if (m.type === "ready") worker.postMessage(request(i, 50, 99));
          else got.push(m);
          if (m.type === "done" || m.type === "error") resolve(got);
        });
      });
      const expected = await forecast(parseEncounter(i.file), new PackContent(i.packs), { runs: 50, seed: 99 });
      const done = replies.at(-1);
      expect(done?.type === "done" && done.forecast).toEqual(expected);
      expect(replies.filter((r) => r.type === "progress")).toHaveLength(5);
    } finally {
      await worker.terminate();
    }
  }, 60_000);
});
