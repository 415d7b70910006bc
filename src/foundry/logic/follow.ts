/**
 * Following the fight from the combat tracker, the parts without Foundry: the combat flag that
 * holds whether the fight is followed and the players' chance to win measured in each round
 * (`flags.fray.follow`), the chart of that chance drawn as inline SVG with a table for screen
 * readers, and the scheduler that debounces the refreshes and cancels a run made stale by a
 * later change. The glue (src/foundry/forecast/follow.ts) runs the forecasts and writes the flag.
 */
import { formatPercent } from "../../rules/core/i18n.js";
import { escapeHtml } from "../notify.js";

/** The players' chance to win measured in one round: share and 95% Wilson interval (0 to 1), and the fights played. */
export interface FollowPoint {
  round: number;
  p: number;
  low: number;
  high: number;
  runs: number;
}

/** The combat flag `flags.fray.follow`: whether the fight is followed, and one point per round measured, by round. */
export interface FollowState {
  on: boolean;
  points: FollowPoint[];
}

/** Rounds the flag keeps at most: the latest ones. */
export const MAX_FOLLOW_POINTS = 100;

const share = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= 1;

/**
 * The flag as stored, checked: anything but an object reads as not followed with no points; a
 * point with a round that is not a whole number of 0 or more, a share outside 0..1 or an interval
 * that does not hold its share is dropped; one point per round (the last one stored), by round.
 */
export function followState(raw: unknown): FollowState {
  if (!raw || typeof raw !== "object") return { on: false, points: [] };
  const r = raw as { on?: unknown; points?: unknown };
  const byRound = new Map<number, FollowPoint>();
  for (const x of Array.isArray(r.points) ? (r.points as unknown[]) : []) {
    const pt = x as Partial<FollowPoint> | null;
    if (!pt || typeof pt !== "object") continue;
    const { round, p, low, high, runs } = pt;
    if (!Number.isInteger(round) || (round as number) < 0 || !share(p) || !share(low) || !share(high)) continue;
    if (!(low <= p && p <= high) || !Number.isInteger(runs) || (runs as number) < 1) continue;
    byRound.set(round as number, { round: round as number, p, low, high, runs: runs as number });
  }
  const points = [...byRound.values()].sort((a, b) => a.round - b.round).slice(-MAX_FOLLOW_POINTS);
  return { on: r.on === true, points };
}

/** `state` with `point` as its round's point (replacing an earlier one of the same round), by round. */
export function withPoint(state: FollowState, point: FollowPoint): FollowState {
  const points = [...state.points.filter((p) => p.round !== point.round), point]
    .sort((a, b) => a.round - b.round)
    .slice(-MAX_FOLLOW_POINTS);
  return { on: state.on, points };
}

/** Looks up and formats a localization key. */
export type FollowLookup = (key: string, data?: Record<string, string | number>) => string;

/** The chart's drawing area in SVG units. */
const W = 240;
const H = 80;
const PAD = 6;

/**
 * The chart of the players' chance to win by round, as HTML: an inline SVG (the interval as a
 * band, the chance as a line with a marker per round, a dashed line at 50%) whose `aria-label`
 * reads every point, the latest chance as text, and a fold with the table of round, chance and
 * interval. Empty when there are no points.
 */
export function followChartHtml(points: readonly FollowPoint[], t: FollowLookup, lang = "en"): string {
  if (!points.length) return "";
  const pc = (v: number) => formatPercent(v, lang);
  const x = (i: number) => (points.length === 1 ? W / 2 : PAD + (i * (W - 2 * PAD)) / (points.length - 1));
  const y = (v: number) => PAD + (1 - v) * (H - 2 * PAD);
  const xy = (i: number, v: number, dx = 0) => `${(x(i) + dx).toFixed(1)},${y(v).toFixed(1)}`;
  // One round alone: its interval is a short bar, as wide as its marker.
  const band = (
    points.length === 1
      ? [xy(0, points[0]!.high, -3), xy(0, points[0]!.high, 3), xy(0, points[0]!.low, 3), xy(0, points[0]!.low, -3)]
      : [...points.map((p, i) => xy(i, p.high)), ...points.map((p, i) => xy(i, p.low)).reverse()]
  ).join(" ");
  const line = points.map((p, i) => xy(i, p.p)).join(" ");
  const said = (p: FollowPoint) => t("FRAY.Forecast.Follow.Point", { round: p.round, chance: pc(p.p), low: pc(p.low), high: pc(p.high) });
  const label = `${t("FRAY.Forecast.Follow.Caption")}: ${points.map(said).join("; ")}`;
  const markers = points
    .map(
      (p, i) =>
        `<circle class="fray-follow-dot" cx="${x(i).toFixed(1)}" cy="${y(p.p).toFixed(1)}" r="2.5"><title>${escapeHtml(said(p))}</title></circle>`,
    )
    .join("");
  const last = points.at(-1)!;
  const rows = points
    .map(
      (p) =>
        `<tr><th scope="row">${p.round}</th><td>${escapeHtml(pc(p.p))}</td><td>${escapeHtml(`${pc(p.low)} – ${pc(p.high)}`)}</td></tr>`,
    )
    .join("");
  return (
    `<figure class="fray-follow-chart">` +
    `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${escapeHtml(label)}">` +
    `<rect class="fray-follow-frame" x="0.5" y="0.5" width="${W - 1}" height="${H - 1}"></rect>` +
    `<line class="fray-follow-half" x1="0" x2="${W}" y1="${y(0.5)}" y2="${y(0.5)}"></line>` +
    `<polygon class="fray-follow-band" points="${band}"></polygon>` +
    `<polyline class="fray-follow-line" points="${line}"></polyline>${markers}</svg>` +
    `<figcaption class="fray-follow-latest">${escapeHtml(
      t("FRAY.Forecast.Follow.Latest", { round: last.round, chance: pc(last.p), low: pc(last.low), high: pc(last.high) }),
    )}</figcaption>` +
    `<details class="fray-follow-rounds"><summary>${escapeHtml(t("FRAY.Forecast.Follow.Rounds"))}</summary>` +
    `<table><caption>${escapeHtml(t("FRAY.Forecast.Follow.Caption"))}</caption>` +
    `<thead><tr><th scope="col">${escapeHtml(t("FRAY.Forecast.Follow.Round"))}</th><th scope="col">${escapeHtml(
      t("FRAY.Forecast.Follow.Chance"),
    )}</th><th scope="col">${escapeHtml(t("FRAY.Forecast.Follow.Interval"))}</th></tr></thead><tbody>${rows}</tbody></table></details>` +
    `</figure>`
  );
}

/**
 * The tracker's forecast control, as HTML: the Forecast button (an icon and the localized label,
 * with a tooltip); with a follow state, the "Follow the fight" toggle (`aria-pressed`, its icon
 * and its tooltip say whether it is on) and the chart of the state's points ({@link followChartHtml}).
 */
export function forecastControlHtml(follow: FollowState | undefined, t: FollowLookup, lang = "en"): string {
  const label = escapeHtml(t("FRAY.Forecast.Tracker.Button"));
  const hint = escapeHtml(t("FRAY.Forecast.Tracker.Hint"));
  const toggle = follow
    ? `<button type="button" class="fray-follow-button${follow.on ? " active" : ""}" data-fray-follow="1" aria-pressed="${follow.on}" ` +
      `data-tooltip="${escapeHtml(t(follow.on ? "FRAY.Forecast.Follow.HintOn" : "FRAY.Forecast.Follow.HintOff"))}">` +
      `<i class="fa-solid ${follow.on ? "fa-toggle-on" : "fa-toggle-off"}" inert></i> ${escapeHtml(t("FRAY.Forecast.Follow.Button"))}</button>`
    : "";
  return (
    `<div class="fray-forecast-control"><div class="fray-forecast-buttons">` +
    `<button type="button" class="fray-forecast-button" data-fray-forecast="1" ` +
    `data-tooltip="${hint}" aria-label="${hint}"><i class="fa-solid fa-chart-column" inert></i> ${label}</button>${toggle}</div>` +
    (follow ? followChartHtml(follow.points, t, lang) : "") +
    `</div>`
  );
}

/** A run the scheduler starts: its settling, and how to stop it. */
export interface FollowRun<T> {
  result: Promise<T>;
  cancel(): void;
}

/** Timer functions of a {@link FollowScheduler}: `setTimeout` and `clearTimeout` by default. */
export interface FollowTimers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** How long the scheduler waits after the last change before it refreshes, in milliseconds. */
export const FOLLOW_DELAY_MS = 750;

/**
 * Refreshes after changes, one at a time: each {@link request} cancels the run under way (its
 * result is dropped) and restarts the wait; {@link FollowScheduler.start} is called once the
 * changes have stopped for `delayMs`, and `done` receives the result of a run no later request
 * made stale. A run that fails goes to `failed`.
 */
export class FollowScheduler<T> {
  private timer: unknown;
  private running: FollowRun<T> | undefined;
  /** Counts requests: a run whose number is not the latest one is stale. */
  private generation = 0;

  constructor(
    private readonly options: {
      start: () => FollowRun<T>;
      done: (result: T) => unknown;
      failed?: (error: unknown) => void;
      delayMs?: number;
      timers?: FollowTimers;
    },
  ) {}

  private get timers(): FollowTimers {
    return (
      this.options.timers ?? {
        set: (run, ms) => globalThis.setTimeout(run, ms),
        clear: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
      }
    );
  }

  /** Whether a run is under way. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** A change: stops the run under way and waits `delayMs` (again) before refreshing. */
  request(): void {
    this.stop();
    const generation = this.generation;
    this.timer = this.timers.set(() => {
      this.timer = undefined;
      if (generation === this.generation) this.fire(generation);
    }, this.options.delayMs ?? FOLLOW_DELAY_MS);
  }

  /** Stops the wait and the run under way; nothing is refreshed until the next {@link request}. */
  stop(): void {
    this.generation++;
    if (this.timer !== undefined) this.timers.clear(this.timer);
    this.timer = undefined;
    const run = this.running;
    this.running = undefined;
    run?.cancel();
  }

  private fire(generation: number): void {
    let run: FollowRun<T>;
    try {
      run = this.options.start();
    } catch (error) {
      this.options.failed?.(error);
      return;
    }
    this.running = run;
    run.result.then(
      async (result) => {
        if (generation !== this.generation) return;
        this.running = undefined;
        try {
          await this.options.done(result);
        } catch (error) {
          this.options.failed?.(error);
        }
      },
      (error: unknown) => {
        if (generation !== this.generation) return;
        this.running = undefined;
        this.options.failed?.(error);
      },
    );
  }
}
