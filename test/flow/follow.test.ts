/**
 * Following the fight from the tracker (src/foundry/forecast/follow.ts, src/foundry/logic/follow.ts):
 * through the built bundle in the Foundry stand-in (a Zones world), a card applied while the
 * combat is followed refreshes the forecast once, in a forecast worker, and records the players'
 * chance to win of the round in the combat's flag, which the tracker draws as a chart with a
 * table for screen readers; not followed, nothing runs; changes close together run once; a new
 * round adds its point; a player's client never runs it. The scheduler's debounce and cancel are
 * checked with scripted timers.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { diceQueue, type FoundryStub } from "../support/foundry-stub.js";
import { FlowWorld, type CardApi, type CardMessage, type Dict } from "../support/flow-world.js";
import { firefight, zonesOptions } from "../support/flow-zones.js";
import { forecastWorker, type ForecastReply, type ForecastRequest } from "../../src/foundry/forecast/worker.js";
import { runPool, type PoolWorker } from "../../src/foundry/forecast/pool.js";
import { formatPercent } from "../../src/rules/core/i18n.js";
import { FollowScheduler, followChartHtml, followState, withPoint, type FollowRun } from "../../src/foundry/logic/follow.js";

const flowWorld = new FlowWorld<CardMessage>(zonesOptions({ actorEffects: true }));
/** A share as the chart writes it in English. */
const pc = (p: number) => formatPercent(p, "en");
let stub: FoundryStub;

/** Every request the stand-in's forecast workers received, and the workers started. */
const log = { requests: [] as ForecastRequest[], started: 0, hold: false, held: [] as (() => void)[] };

/** Lets the requests held while `log.hold` was set reach their workers. */
function release() {
  log.hold = false;
  for (const go of log.held.splice(0)) go();
}

/** The forecast worker's handler as a worker, each message structured-cloned on a later turn. */
function handlerWorker(): PoolWorker {
  let terminated = false;
  const w: PoolWorker = {
    onmessage: null,
    onerror: null,
    postMessage: (m) => {
      log.requests.push(structuredClone(m));
      const copy = structuredClone(m);
      const go = () => setTimeout(() => void handle(copy), 0);
      if (log.hold) log.held.push(go);
      else go();
    },
    terminate: () => void (terminated = true),
  };
  const handle = forecastWorker((r: ForecastReply) => {
    const reply = structuredClone(r);
    if (!terminated) setTimeout(() => w.onmessage?.({ data: reply }), 0);
  });
  return w;
}

beforeAll(async () => {
  ({ stub } = await flowWorld.boot());
  // `foundry.utils.getRoute(path)`: the path under the server's route prefix
  // (https://foundryvtt.com/api/v13/functions/foundry.utils.getRoute.html); no prefix here.
  const utils = (globalThis as unknown as { foundry: { utils: Dict } }).foundry.utils;
  utils.getRoute = (path: string) => `/${path}`;
  // A Web Worker of the stand-in: the forecast worker's own handler, in this thread.
  (globalThis as Dict).Worker = class {
    constructor() {
      log.started++;
      return handlerWorker();
    }
  };
});

beforeEach(() => {
  flowWorld.reset();
  flowWorld.resetUsers();
  log.requests.length = 0;
  log.started = 0;
  log.hold = false;
  log.held.length = 0;
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});

afterEach(() => {
  vi.useRealTimers();
});

const api = () => flowWorld.api<CardApi>();

/** The ids of the forecasts the workers were asked to run (a chunk's id is `<forecast>/<chunk>`). */
const forecasts = () => [...new Set(log.requests.filter((r) => r.type === "run").map((r) => r.id.split("/")[0]))];

/** Lets the debounce pass and the worker's messages go back and forth. */
const settle = () => vi.advanceTimersByTimeAsync(5_000);

/** The rifleman (a player's, on the hostile side) against the sentry (friendly) in a started combat, followed or not. */
async function fight(follow: boolean) {
  const f = firefight(flowWorld, 10);
  Object.assign(f.riflemanToken, { disposition: -1 });
  Object.assign(f.sentryToken, { disposition: 1 });
  Object.assign(f.rifleman.actor, { hasPlayerOwner: true });
  const { combat, flags } = flowWorld.startCombat([
    { actor: f.rifleman.actor, token: f.riflemanToken },
    { actor: f.sentry.actor, token: f.sentryToken },
  ]);
  if (follow) await combat.setFlag("fray", "follow", { on: true, points: [] });
  return { ...f, combat, flags };
}

/** The rifleman shoots the sentry with the carbine, rolls the damage and applies it as the GM. */
async function shootAndApply(f: Awaited<ReturnType<typeof fight>>) {
  stub.game.user.targets.add(f.sentryToken);
  diceQueue.push(9, 3, 4);
  const { message } = (await api().rollAttack({ actor: f.rifleman.actor, weaponId: "carbine" } as Dict))!;
  diceQueue.push(4, 5);
  await api().flow.runCardAction(message, 0, "rollDamage");
  await api().flow.runCardAction(message, 0, "applyDamage");
  expect(message.system.targets[0]!.applied).toBeDefined();
  return message;
}

/** A tracker element as the control reads it: the HTML put in, and the click listener. */
function trackerRoot() {
  const root = {
    dataset: {} as Record<string, string>,
    html: "",
    click: undefined as ((event: unknown) => void) | undefined,
    querySelector: () => null,
    querySelectorAll: () => [],
    insertAdjacentHTML(_w: string, h: string) {
      root.html += h;
    },
    addEventListener(_type: string, listener: (event: unknown) => void) {
      root.click = listener;
    },
  };
  return root;
}

describe("following the fight through the bundle", () => {
  it("an applied card refreshes the forecast once and records the players' chance of the round; the tracker draws it", async () => {
    const f = await fight(true);
    await shootAndApply(f);
    await settle();
    expect(log.started).toBe(1);
    expect(forecasts()).toHaveLength(1);
    const first = log.requests.find((r) => r.type === "run") as Extract<ForecastRequest, { type: "run" }>;
    expect(first.runs).toBe(2000);
    const state = followState(f.flags.get("combat.follow"));
    expect(state.on).toBe(true);
    expect(state.points.map((p) => [p.round, p.runs])).toEqual([[1, 2000]]);
    // The players' side is the side of the player's rifleman (hostile here): the same forecast in process agrees.
    const expected = await runPool(
      { file: first.file!, packs: first.packs!, runs: 2000, seed: 1 },
      { id: "check", size: 1, spawn: handlerWorker },
    );
    const settled = vi.advanceTimersByTimeAsync(5_000);
    const forecast = await expected.result;
    await settled;
    const hostile = forecast.sides.find((s) => s.side === "hostile")!.wins;
    expect(state.points[0]).toMatchObject({ p: hostile.p, low: hostile.low, high: hostile.high });

    const root = trackerRoot();
    stub.Hooks.callAll("renderCombatTracker", { viewed: f.combat }, root);
    expect(root.html).toContain('data-fray-follow="1" aria-pressed="true"');
    expect(root.html).toContain('<figure class="fray-follow-chart">');
    expect(root.html).toMatch(/role="img" aria-label="The players&#39; chance to win by round: round 1: /);
    expect(root.html.match(/<circle /g)).toHaveLength(1);
    expect(root.html).toContain('<th scope="row">1</th>');
    expect(root.html).toContain(`Players win: ${pc(hostile.p)} (${pc(hostile.low)} to ${pc(hostile.high)}), round 1`);
  }, 60_000);

  it("not followed, an applied card runs no forecast and writes no point", async () => {
    const f = await fight(false);
    await shootAndApply(f);
    await settle();
    expect(log.started).toBe(0);
    expect(f.flags.get("combat.follow")).toBeUndefined();
    const root = trackerRoot();
    stub.Hooks.callAll("renderCombatTracker", { viewed: f.combat }, root);
    expect(root.html).toContain('data-fray-follow="1" aria-pressed="false"');
    expect(root.html).not.toContain("fray-follow-chart");
  }, 60_000);

  it("an apply and its undo close together run one forecast; a new round adds its own point", async () => {
    const f = await fight(true);
    const message = await shootAndApply(f);
    await api().flow.runCardAction(message, 0, "undoDamage");
    await settle();
    expect(forecasts()).toHaveLength(1);
    f.combat.round = 2;
    stub.Hooks.callAll("updateCombat", f.combat, { round: 2 }, {}, "gm");
    await settle();
    expect(forecasts()).toHaveLength(2);
    expect(followState(f.flags.get("combat.follow")).points.map((p) => p.round)).toEqual([1, 2]);
    // A change of the turn alone is no new round.
    stub.Hooks.callAll("updateCombat", f.combat, { turn: 1 }, {}, "gm");
    await settle();
    expect(forecasts()).toHaveLength(2);
  }, 60_000);

  it("a change while a refresh runs cancels it in the worker and starts again; only the new one is recorded", async () => {
    const f = await fight(true);
    const message = await shootAndApply(f);
    // The wait is over: the refresh is sent to the worker, which has not answered yet.
    log.hold = true;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(forecasts()).toHaveLength(1);
    await api().flow.runCardAction(message, 0, "undoDamage");
    expect(log.requests.filter((r) => r.type === "cancel").length).toBeGreaterThan(0);
    release();
    await settle();
    expect(forecasts()).toHaveLength(2);
    const state = followState(f.flags.get("combat.follow"));
    expect(state.points).toHaveLength(1);
    // The point is the state after the undo: the same forecast as a fresh one of that state.
    const last = log.requests.filter((r) => r.type === "run" && r.id.startsWith(forecasts()[1]!)) as Extract<
      ForecastRequest,
      { type: "run" }
    >[];
    const withFile = last.find((r) => r.file)!;
    const again = runPool(
      { file: withFile.file!, packs: withFile.packs!, runs: 2000, seed: 1 },
      { id: "again", size: 1, spawn: handlerWorker },
    );
    const settled = vi.advanceTimersByTimeAsync(5_000);
    const forecast = await again.result;
    await settled;
    expect(state.points[0]!.p).toBe(forecast.sides.find((s) => s.side === "hostile")!.wins.p);
  }, 60_000);

  it("a combat that ends stops its refresh under way, and nothing is written", async () => {
    const f = await fight(true);
    await shootAndApply(f);
    log.hold = true;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(forecasts()).toHaveLength(1);
    stub.Hooks.callAll("deleteCombat", f.combat, {}, "gm");
    expect(log.requests.filter((r) => r.type === "cancel").length).toBeGreaterThan(0);
    release();
    await settle();
    expect(followState(f.flags.get("combat.follow")).points).toEqual([]);
  }, 60_000);

  it("a player's client never runs it, even for a followed combat", async () => {
    const f = await fight(true);
    stub.game.users.current = flowWorld.player;
    stub.Hooks.callAll("fray.applyDamage", { actor: f.sentry.actor, index: 0, userId: "p1" });
    stub.Hooks.callAll("updateCombat", f.combat, { round: 2 }, {}, "gm");
    await settle();
    expect(log.started).toBe(0);
    expect(followState(f.flags.get("combat.follow")).points).toEqual([]);
  });

  it("the GM's toggle turns following on (refreshing at once) and off; a player's click is refused", async () => {
    const f = await fight(false);
    const root = trackerRoot();
    stub.Hooks.callAll("renderCombatTracker", { viewed: f.combat }, root);
    const click = () =>
      root.click!({
        target: { closest: (s: string) => (s === "[data-fray-follow]" ? {} : null) },
        preventDefault() {},
        stopPropagation() {},
      });
    click();
    await settle();
    expect(followState(f.flags.get("combat.follow")).on).toBe(true);
    expect(followState(f.flags.get("combat.follow")).points.map((p) => p.round)).toEqual([1]);
    click();
    await settle();
    expect(followState(f.flags.get("combat.follow"))).toMatchObject({ on: false, points: [{ round: 1 }] });
    stub.game.users.current = flowWorld.player;
    click();
    await settle();
    expect(followState(f.flags.get("combat.follow")).on).toBe(false);
    expect(stub.ui.notifications.messages.at(-1)?.level).toBe("warn");
  }, 60_000);
});

/** Timers run by hand: `tick()` runs those due. */
function manualTimers() {
  let now = 0;
  const due: { at: number; run: () => void; id: number }[] = [];
  let ids = 0;
  return {
    set: (run: () => void, ms: number) => {
      const id = ++ids;
      due.push({ at: now + ms, run, id });
      return id;
    },
    clear: (id: unknown) => {
      const i = due.findIndex((d) => d.id === id);
      if (i >= 0) due.splice(i, 1);
    },
    tick(ms: number) {
      now += ms;
      for (const d of due.filter((x) => x.at <= now)) {
        due.splice(due.indexOf(d), 1);
        d.run();
      }
    },
    get pending() {
      return due.length;
    },
  };
}

/** A run settled by hand. */
function manualRun(value: number) {
  let resolve!: (v: number) => void;
  const run: FollowRun<number> & { cancelled: boolean; finish(): void } = {
    result: new Promise<number>((r) => (resolve = r)),
    cancelled: false,
    cancel: () => void (run.cancelled = true),
    finish: () => resolve(value),
  };
  return run;
}

describe("the follow scheduler", () => {
  it("waits until the changes stop: three requests close together start one run", async () => {
    const timers = manualTimers();
    const runs: ReturnType<typeof manualRun>[] = [];
    const done: number[] = [];
    const s = new FollowScheduler<number>({
      start: () => (runs.push(manualRun(runs.length)), runs.at(-1)!),
      done: (v) => done.push(v),
      delayMs: 100,
      timers,
    });
    s.request();
    timers.tick(60);
    s.request();
    timers.tick(60);
    s.request();
    timers.tick(99);
    expect(runs).toHaveLength(0);
    timers.tick(1);
    expect(runs).toHaveLength(1);
    expect(s.busy).toBe(true);
    runs[0]!.finish();
    await Promise.resolve();
    await Promise.resolve();
    expect(done).toEqual([0]);
    expect(s.busy).toBe(false);
  });

  it("a request during a run cancels it, drops its result and starts again after the wait", async () => {
    const timers = manualTimers();
    const runs: ReturnType<typeof manualRun>[] = [];
    const done: number[] = [];
    const s = new FollowScheduler<number>({
      start: () => (runs.push(manualRun(runs.length)), runs.at(-1)!),
      done: (v) => done.push(v),
      delayMs: 100,
      timers,
    });
    s.request();
    timers.tick(100);
    s.request();
    expect(runs[0]!.cancelled).toBe(true);
    // The cancelled run settles with what it had: dropped.
    runs[0]!.finish();
    await Promise.resolve();
    await Promise.resolve();
    expect(done).toEqual([]);
    timers.tick(100);
    expect(runs).toHaveLength(2);
    runs[1]!.finish();
    await Promise.resolve();
    await Promise.resolve();
    expect(done).toEqual([1]);
    // Stopped, nothing is left waiting.
    s.request();
    s.stop();
    expect(timers.pending).toBe(0);
  });
});

describe("the follow flag and chart", () => {
  it("keeps one checked point per round, by round; a forged point is dropped", () => {
    const state = followState({
      on: true,
      points: [
        { round: 2, p: 0.5, low: 0.4, high: 0.6, runs: 2000 },
        { round: 1, p: 0.7, low: 0.65, high: 0.75, runs: 2000 },
        { round: 3, p: 1.5, low: 0, high: 1, runs: 2000 },
        { round: 4, p: 0.5, low: 0.6, high: 0.7, runs: 2000 },
        "x",
      ],
    });
    expect(state.points.map((p) => p.round)).toEqual([1, 2]);
    const next = withPoint(state, { round: 2, p: 0.3, low: 0.25, high: 0.35, runs: 2000 });
    expect(next.points.map((p) => [p.round, p.p])).toEqual([
      [1, 0.7],
      [2, 0.3],
    ]);
    expect(followState("on")).toEqual({ on: false, points: [] });
  });

  it("draws a band and a marker per round, reads every point in its label and table, and escapes the text", () => {
    const t = (key: string, data?: Record<string, string | number>) => `${key}<b>${JSON.stringify(data ?? {})}`;
    const html = followChartHtml(
      [
        { round: 1, p: 0.7, low: 0.65, high: 0.75, runs: 2000 },
        { round: 2, p: 0.5, low: 0.45, high: 0.55, runs: 2000 },
      ],
      t,
    );
    expect(html.match(/<circle /g)).toHaveLength(2);
    expect(html.match(/<tr><th scope="row">/g)).toHaveLength(2);
    expect(html).toContain("<polygon");
    expect(html).not.toContain("<b>");
    expect(html).toContain("&quot;chance&quot;:&quot;50.0%&quot;");
    expect(followChartHtml([], t)).toBe("");
  });
});
