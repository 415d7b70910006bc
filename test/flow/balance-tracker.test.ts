/**
 * The tracker's balance search: the forecast worker's `balance` request (src/foundry/forecast/worker.ts)
 * gives the search `balance()` gives in process for the same combat, with progress and a cancel;
 * the runner (src/foundry/forecast/balance-run.ts) terminates its worker once answered; and the
 * result's view (src/foundry/logic/balance-view.ts) says what to add and what to take out.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContentIndex } from "../../src/encounter/content.js";
import { PackContent } from "../../src/encounter/library.js";
import { parseEncounter } from "../../src/encounter/schema.js";
import { balance, type BalanceResult } from "../../src/forecast/balance.js";
import { runBalance } from "../../src/foundry/forecast/balance-run.js";
import { forecastWorker, type ForecastReply, type ForecastRequest } from "../../src/foundry/forecast/worker.js";
import type { PoolWorker } from "../../src/foundry/forecast/pool.js";
import { balanceButtons, balanceView } from "../../src/foundry/logic/balance-view.js";
import { forecastInput, type ForecastBinding, type ForecastInput } from "../../src/foundry/logic/forecast-state.js";
import { formatKey, nestedLookup } from "../../src/rules/core/i18n.js";
import type { ActorSource } from "../../src/rules/core/sources.js";
import { ud10, ud10CombatantFromActor } from "../../src/rules/ud10/index.js";
import { readLang } from "../support/foundry-stub.js";

const ROOT = join(import.meta.dirname, "..", "..");
const packs = new ContentIndex(join(ROOT, "packs", "_source"));
const npc = (name: string) => packs.resolve(`ud10-npcs/${name}`, "test") as unknown as ActorSource;
const binding: ForecastBinding = {
  id: "ud10",
  combatantFromActor: ud10CombatantFromActor,
  ruleset: ud10 as unknown as ForecastBinding["ruleset"],
};
const en = nestedLookup(readLang("en") as Record<string, unknown>);
const t = (key: string, data?: Record<string, string | number>) => formatKey(en, key, data);

/** A Veteran and a Guard against two Thugs of one actor and a wounded third. */
function input(): ForecastInput {
  const hurt = npc("Thug") as ActorSource & { system: { hp: { value: number } } };
  hurt.system.hp.value = 5;
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
        { id: "thug3", name: "Thug <i>Hurt</i>", actor: hurt, disposition: -1, defeated: false },
      ],
      distances: { vet: { thug1: 9, thug2: 9, thug3: 12 }, guard: { thug1: 9, thug2: 9, thug3: 12 } },
    },
    binding,
  );
}

const SMALL = { quickRuns: 30, confirmRuns: 90 };

/** The worker's handler as a worker, each message structured-cloned on a later turn; `terminated` recorded. */
function handlerWorker(log: { terminated: boolean; requests: ForecastRequest[] }): PoolWorker {
  const w: PoolWorker = {
    onmessage: null,
    onerror: null,
    postMessage: (m) => {
      log.requests.push(structuredClone(m));
      const copy = structuredClone(m);
      setTimeout(() => void handle(copy), 0);
    },
    terminate: () => void (log.terminated = true),
  };
  const handle = forecastWorker((r: ForecastReply) => {
    const reply = structuredClone(r);
    if (!log.terminated) setTimeout(() => w.onmessage?.({ data: reply }), 0);
  });
  return w;
}

describe("tracker balance: the worker", () => {
  it("groups two tokens of one actor at the same state as one kind, a wounded one apart", async () => {
    const i = input();
    const result = await balance(parseEncounter(structuredClone(i.file)), new PackContent(i.packs), {
      target: 0.5,
      players: "friendly",
      ...SMALL,
    });
    expect(result.kinds.map((k) => [k.id, k.base, k.members])).toEqual([
      ["thug1", 2, ["thug1", "thug2"]],
      ["thug3", 1, ["thug3"]],
    ]);
  }, 60_000);

  it("searches as balance() does in process, with progress, and terminates its worker once answered", async () => {
    const i = input();
    const expected = await balance(parseEncounter(structuredClone(i.file)), new PackContent(i.packs), {
      target: 0.4,
      players: "friendly",
      seed: 3,
      ...SMALL,
    });
    const log = { terminated: false, requests: [] as ForecastRequest[] };
    const progress: [number, number][] = [];
    const run = runBalance(
      () => handlerWorker(log),
      { file: i.file, packs: i.packs, target: 0.4, mode: "count", players: "friendly", seed: 3, ...SMALL },
      { id: "b1", onProgress: (done, planned) => progress.push([done, planned]) },
    );
    const result = await run.result;
    expect(JSON.parse(JSON.stringify(result))).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(progress.length).toBeGreaterThan(3);
    expect(progress.at(-1)![0]).toBe(result.fights);
    expect(progress.every(([done, planned]) => done <= planned)).toBe(true);
    expect(log.terminated).toBe(true);
  }, 120_000);

  it("a cancel stops the search with the closest measured so far, or says none was played", async () => {
    const i = input();
    const log = { terminated: false, requests: [] as ForecastRequest[] };
    let cancelled = false;
    const run = runBalance(
      () => handlerWorker(log),
      { file: i.file, packs: i.packs, target: 0.4, mode: "scale", players: "friendly", seed: 3 },
      {
        id: "b2",
        onProgress: (done) => {
          if (done >= 600 && !cancelled) {
            cancelled = true;
            run.cancel();
          }
        },
      },
    );
    const result = await run.result;
    expect(result.complete).toBe(false);
    expect(result.fights).toBeLessThan(2000);
    expect(log.requests.map((r) => r.type)).toEqual(["balance", "cancel"]);
    const early = runBalance(
      () => handlerWorker({ terminated: false, requests: [] }),
      { file: i.file, packs: i.packs, target: 0.4, mode: "count", seed: 3 },
      { id: "b3" },
    );
    early.cancel();
    await expect(early.result).rejects.toMatchObject({ key: "FRAY.Error.ForecastNone" });
  }, 60_000);

  it("refuses a chance out of range naming the field", async () => {
    const i = input();
    const run = runBalance(
      () => handlerWorker({ terminated: false, requests: [] }),
      { file: i.file, packs: i.packs, target: 1.5, mode: "count", seed: 1 },
      { id: "b4" },
    );
    await expect(run.result).rejects.toMatchObject({ key: "FRAY.Error.Input.Range", data: { field: "target" } });
  });
});

describe("tracker balance: the result's view", () => {
  const result = (counts: number[]): BalanceResult => {
    const c = (p: number, runs: number) => ({ count: Math.round(p * runs), p, low: p - 0.05, high: p + 0.05 });
    return {
      name: "Yard",
      ruleset: "ud10",
      mode: "count",
      target: 0.7,
      players: "friendly",
      seed: 1,
      kinds: [
        { id: "thug1", name: "Thug", side: "hostile", base: 2, members: ["thug1", "thug2"] },
        { id: "thug3", name: "Thug <i>Hurt</i>", side: "hostile", base: 1, members: ["thug3"] },
      ],
      best: { counts, wins: c(0.68, 2000), runs: 2000 },
      start: { counts: [2, 1], wins: c(0.4, 2000), runs: 2000 },
      tried: [{ counts, wins: c(0.68, 2000), runs: 2000 }],
      beyond: false,
      fights: 9000,
      complete: true,
      spec: {} as BalanceResult["spec"],
    };
  };

  it("counts the opponents to add, lists those to take out, and offers Add only when there are any", () => {
    const more = balanceView(result([4, 1]), t);
    expect(more.kinds.map((k) => [k.name, k.count, k.base, k.change])).toEqual([
      ["Thug", 4, 2, "+2"],
      ["Thug <i>Hurt</i>", 1, 1, "±0"],
    ]);
    expect(more.adds).toBe(2);
    expect(more.fewer).toBeUndefined();
    expect(more.asked).toBe("Players (Friendly): a 70.0% chance to win asked for");
    expect(more.wins.text).toBe("68.0% (63.0% to 73.0%)");
    const fewer = balanceView(result([1, 0]), t);
    expect(fewer.adds).toBe(0);
    expect(fewer.fewer).toBe("The result has fewer opponents; take out of the combat yourself: 1 × Thug, 1 × Thug <i>Hurt</i>.");
    expect(balanceButtons(true).map((b) => b.action)).toEqual(["add", "close"]);
    expect(balanceButtons(false).map((b) => b.action)).toEqual(["close"]);
    const de = nestedLookup(readLang("de") as Record<string, unknown>);
    expect(balanceView(result([4, 1]), (k, d) => formatKey(de, k, d, "de"), "de").wins.text).toMatch(/68,0\s%/u);
  });
});
