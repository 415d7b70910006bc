/**
 * The GM's forecast from the combat tracker: reads the viewed combat (each Combatant's actor,
 * its token's disposition, the distances between tokens in metres, this round's economy and
 * declaration), turns it into the forecast's input (src/foundry/logic/forecast-state.ts), asks
 * the runs and the seed, plays the forecast in a pool of Web Workers running
 * `dist/forecast-worker.mjs` (one fewer than the machine's cores, 1 to 8; each takes chunks of
 * the fights, ./pool.ts) under one progress bar with a Cancel that reaches them all, and shows the
 * result as a small chart, with a button that whispers it to the GMs as a chat card. The merged
 * result is the forecast one worker, or `npm run forecast` with the same file and seed, gives.
 * The pool's workers start while the GM fills in the settings, each playing up to 1,000 fights of
 * the same combat whose result is dropped (`WorkerPool.warm`), so that V8 has compiled the fights'
 * code when the forecast starts; the pool keeps them for the next forecast (three minutes idle at
 * most), so that forecasting again after moving a token starts in workers that are already warm.
 */
import { bounded, check } from "../../rules/core/validate.js";
import { MAX_SEED } from "../../rules/core/bounds.js";
import { MAX_RUNS, type Forecast } from "../../forecast/forecast.js";
import { declarationOf } from "../combat/declarations.js";
import { economySpecOf, type CombatantLike } from "../combat/economy-store.js";
import { SYSTEM_PATH } from "../config.js";
import { actorSource, type ActorLike } from "../documents/source.js";
import { readEconomy } from "../logic/economy.js";
import { forecastExport, forecastInput, type CombatSnapshot, type ForecastInput, type SnapshotCombatant } from "../logic/forecast-state.js";
import { FORECAST_RESULT_BUTTONS, forecastView } from "../logic/forecast-view.js";
import { dialogButtons, type DialogFormButton } from "../logic/dialog-buttons.js";
import { measureMetres, type Measurable } from "../measure.js";
import { escapeHtml, formatHtml, formatKey, reportError, warn, windowTitle } from "../notify.js";
import { activeBinding } from "../registry.js";
import { optionValues } from "../settings.js";
import { poolSize, WorkerPool, type PoolWorker } from "./pool.js";

/** The result's template (dialog and chat card). */
export const FORECAST_TEMPLATE = `${SYSTEM_PATH}/templates/forecast/result.hbs`;
/** The worker's module, beside `fray.mjs`. */
export const FORECAST_WORKER = `${SYSTEM_PATH}/forecast-worker.mjs`;
/**
 * Fights the dialog offers: fewer than the CLI's 10,000, as the GM waits at the table and a
 * worker's first 1,000 fights of five against five take 0.5 to 0.8 s while V8 compiles the code
 * (docs/performance.md, "The third pass"); the 95% interval of 1,000 fights is about 6 points
 * wide at most.
 */
export const TRACKER_DEFAULT_RUNS = 1_000;
/** The start of each progress dialog's element id (a random id follows it). */
const PROGRESS_ID = "fray-forecast-progress";

/** A Combatant as the forecast reads it. */
interface ForecastCombatantDoc extends CombatantLike {
  name?: string | null;
  /** Its initiative this round; null before it rolled. */
  initiative?: number | null;
  defeated?: boolean;
  actor?: (ActorLike & { uuid?: string; id?: string | null }) | null;
  token?: { disposition?: number; object?: Measurable | null; parent?: { id?: string | null } | null } | null;
}

/** A Combat as the forecast reads it. */
export interface ForecastCombat {
  id?: string | null;
  round?: number;
  scene?: { id?: string | null; name?: string | null } | null;
  combatants?: Iterable<unknown>;
  /** The combatants in turn order (v13 `Combat#turns`, relied on as in Z8 and R2 of docs/foundry-assumptions.md). */
  turns?: readonly unknown[];
}

/**
 * The viewed combat as the forecast reads it: each Combatant's actor source with its statuses,
 * its token's disposition, its economy of the current round and its declaration, and the
 * distances between the tokens on the canvas in metres (none when the combat's scene is not
 * the one on the canvas).
 */
export function readCombatSnapshot(combat: ForecastCombat): CombatSnapshot {
  const binding = activeBinding();
  const round = combat.round ?? 0;
  // In turn order, so that the forecast keeps the tracker's order among equal initiatives.
  const all = Array.from(combat.combatants ?? []);
  const docs = (combat.turns && combat.turns.length === all.length ? [...combat.turns] : all) as ForecastCombatantDoc[];
  const combatants: SnapshotCombatant[] = docs
    .filter((c) => c.id)
    .map((c) => {
      let actor: SnapshotCombatant["actor"];
      try {
        actor = c.actor ? actorSource(c.actor) : undefined;
      } catch {
        actor = undefined;
      }
      const stored = c.getFlag("fray", "economy");
      let economy: SnapshotCombatant["economy"];
      try {
        economy = stored && round > 0 ? readEconomy(stored, economySpecOf(c), round) : undefined;
      } catch {
        economy = undefined;
      }
      const declaration = declarationOf(c.getFlag("fray", "declaration"), round);
      return {
        id: c.id!,
        ...(c.tokenId ? { tokenId: c.tokenId } : {}),
        ...(typeof c.initiative === "number" && Number.isFinite(c.initiative) ? { initiative: c.initiative } : {}),
        name: c.name ?? c.id!,
        ...(actor ? { actor } : {}),
        disposition: c.token?.disposition ?? 0,
        defeated: Boolean(c.defeated),
        ...(economy ? { economy } : {}),
        ...(declaration
          ? {
              declaration: {
                text: declaration.text,
                ...(declaration.action ? { action: declaration.action } : {}),
                ...(declaration.sealed ? { sealed: true } : {}),
              },
            }
          : {}),
      };
    });
  const distances: CombatSnapshot["distances"] = {};
  const onCanvas = canvas?.ready && canvas.scene?.id === (combat.scene?.id ?? canvas.scene?.id);
  if (onCanvas) {
    for (const [i, a] of docs.entries())
      for (const b of docs.slice(i + 1)) {
        const metres = measureMetres(a.token?.object, b.token?.object);
        if (metres !== undefined && a.id && b.id) (distances[a.id] ??= {})[b.id] = metres;
      }
  }
  return {
    name: combat.scene?.name ?? formatKey("FRAY.Forecast.Tracker.Encounter"),
    ruleset: binding.id,
    options: optionValues(binding.id),
    round,
    combatants,
    distances,
  };
}

/** The GM's ids, who receive the forecast's chat card. */
function gmIds(): string[] {
  return (game.users?.filter((u) => u.isGM).map((u) => u.id) ?? []).filter((id): id is string => typeof id === "string");
}

/**
 * The settings form: who fights whom and at what distance (metres), what is left out or not
 * carried, then the fights and the seed. Names are escaped.
 */
export function settingsHtml(input: ForecastInput): string {
  const name = (id: string | undefined) => input.combatants.find((c) => c.id === id)?.name ?? "";
  const rows = input.combatants
    .map((c) => {
      const target = c.target
        ? formatHtml(c.ranged ? "FRAY.Forecast.Tracker.Shoots" : "FRAY.Forecast.Tracker.Strikes", {
            target: name(c.target),
            metres: c.metres ?? 0,
          })
        : escapeHtml(formatKey("FRAY.Forecast.Tracker.FirstEnemy"));
      return `<li><strong>${escapeHtml(c.name)}</strong> (${escapeHtml(formatKey(`FRAY.Forecast.Tracker.Side.${c.side}`))}): ${target}</li>`;
    })
    .join("");
  const notes = [
    ...input.left.map((l) => formatHtml(`FRAY.Forecast.Tracker.Left.${l.reason}`, { name: l.name })),
    ...input.notCarried.map((n) => formatHtml(`FRAY.Forecast.Tracker.NotCarried.${n.what}`, { name: n.name })),
    ...input.combatants.filter((c) => c.waits).map((c) => formatHtml("FRAY.Forecast.Tracker.Waits", { name: c.name })),
  ]
    .map((n) => `<li>${n}</li>`)
    .join("");
  return (
    `<div class="fray-forecast-settings"><p>${escapeHtml(formatKey("FRAY.Forecast.Tracker.Intro"))}</p><ul>${rows}</ul>` +
    (notes ? `<ul class="fray-forecast-notes">${notes}</ul>` : "") +
    `<div class="form-group"><label for="fray-forecast-runs">${escapeHtml(formatKey("FRAY.Forecast.Tracker.Runs"))}</label>` +
    `<input id="fray-forecast-runs" type="number" name="runs" min="1" max="${MAX_RUNS}" step="1" value="${TRACKER_DEFAULT_RUNS}"></div>` +
    `<div class="form-group"><label for="fray-forecast-seed">${escapeHtml(formatKey("FRAY.Forecast.Tracker.Seed"))}</label>` +
    `<input id="fray-forecast-seed" type="number" name="seed" min="0" max="${MAX_SEED}" step="1" value="1"></div></div>`
  );
}

/** Asks the runs and the seed; `undefined` when closed. */
async function askSettings(input: ForecastInput): Promise<{ runs: number; seed: number } | undefined> {
  const result = await foundry.applications.api.DialogV2.wait({
    window: { title: formatKey("FRAY.Forecast.Tracker.Title") },
    classes: ["fray", "fray-forecast-dialog"],
    content: settingsHtml(input),
    buttons: [
      {
        action: "run",
        label: "FRAY.Forecast.Tracker.Run",
        default: true,
        callback: (_event: unknown, button: DialogFormButton) => ({
          runs: button.form?.elements.runs?.value ?? "",
          seed: button.form?.elements.seed?.value ?? "",
        }),
      },
    ],
    rejectClose: false,
  } as never);
  if (!result || typeof result !== "object") return undefined;
  const raw = result as { runs: string; seed: string };
  return {
    runs: check(bounded({ min: 1, max: MAX_RUNS, integer: true }), wholeOf(raw.runs), formatKey("FRAY.Forecast.Tracker.Runs")),
    seed: check(bounded({ min: 0, max: MAX_SEED, integer: true }), wholeOf(raw.seed), formatKey("FRAY.Forecast.Tracker.Seed")),
  };
}

/** A number field's value as a number; an empty field reads as no number (`NaN`, refused), not as 0. */
export function wholeOf(value: string): number {
  return value.trim() === "" ? Number.NaN : Number(value);
}

/** The GM's pool of forecast workers, started with the first forecast and kept for the next ones. */
let pool: WorkerPool | undefined;

/** {@link pool}, started on first use: {@link poolSize} of `navigator.hardwareConcurrency` workers of the system's worker module. */
function forecastPool(): WorkerPool {
  return (pool ??= new WorkerPool({
    size: poolSize(globalThis.navigator?.hardwareConcurrency),
    spawn: () => new Worker(foundry.utils.getRoute(FORECAST_WORKER), { type: "module" }) as unknown as PoolWorker,
  }));
}

/**
 * Plays the forecast in the kept pool of workers ({@link forecastPool})
 * under a progress dialog showing the fights done by all of them; its Cancel (or closing it)
 * stops every worker, and the figures of the fights played from fight 0 on without a gap come back.
 * @throws FrayError a worker's error (bad runs or seed, a file the encounter runner refuses).
 */
async function runInWorkers(input: ForecastInput, settings: { runs: number; seed: number }): Promise<Forecast> {
  let finished = false;
  // Each run's own progress dialog: a second forecast started meanwhile never closes or reads this one's.
  const progressId = `${PROGRESS_ID}-${foundry.utils.randomID()}`;
  const run = forecastPool().run(
    { file: input.file, packs: input.packs, runs: settings.runs, seed: settings.seed },
    {
      id: foundry.utils.randomID(),
      onProgress: (done, runs) => {
        const bar = document.querySelector<HTMLProgressElement>(`#${progressId} progress`);
        if (bar) bar.value = done;
        const label = document.querySelector<HTMLElement>(`#${progressId} [data-fray-progress]`);
        if (label) label.textContent = formatKey("FRAY.Forecast.Progress", { done, runs });
      },
    },
  );
  try {
    const progress = foundry.applications.api.DialogV2.wait({
      id: progressId,
      window: { title: formatKey("FRAY.Forecast.Tracker.Title") },
      classes: ["fray", "fray-forecast-dialog"],
      content:
        `<div class="fray-forecast-progress"><progress max="${settings.runs}" value="0"></progress>` +
        `<span data-fray-progress>${escapeHtml(formatKey("FRAY.Forecast.Progress", { done: 0, runs: settings.runs }))}</span></div>`,
      buttons: [{ action: "cancel", label: "FRAY.Forecast.Tracker.Cancel", default: true }],
      rejectClose: false,
    } as never);
    void progress.then(() => {
      if (!finished) run.cancel();
    });
    return await run.result;
  } finally {
    finished = true;
    await foundry.applications.instances.get(progressId)?.close();
  }
}

/** Shows the result; its button whispers it to the GMs as a chat card. */
async function showResult(forecast: Forecast, input: ForecastInput, settings: { runs: number; seed: number }): Promise<void> {
  const lang = (game.i18n as unknown as { lang?: string }).lang ?? "en";
  const context = forecastView(forecast, (key, data) => formatKey(key, data ?? {}), input, lang);
  const content = await foundry.applications.handlebars.renderTemplate(FORECAST_TEMPLATE, { ...context });
  const choice = await foundry.applications.api.DialogV2.wait({
    window: { title: windowTitle("FRAY.Forecast.Tracker.ResultTitle", { name: forecast.name }) },
    classes: ["fray", "fray-forecast-dialog"],
    position: { width: 440 },
    content,
    buttons: dialogButtons(FORECAST_RESULT_BUTTONS),
    rejectClose: false,
  } as never);
  if (choice === "save") {
    // The combat as played, for `npm run forecast` (docs/encounters.md, "Forecasting an encounter").
    const name =
      input.file.name
        .replace(/[^\p{L}\p{N}]+/gu, "-")
        .replace(/^-+|-+$/g, "")
        .slice(0, 60) || "combat";
    foundry.utils.saveDataToFile(
      JSON.stringify(forecastExport(input, settings), null, 2),
      "application/json",
      `fray-forecast-${name}.json`,
    );
    return;
  }
  if (choice !== "whisper") return;
  // In the chat the rounds, combatants and tactics fold under the chances to win.
  const card = await foundry.applications.handlebars.renderTemplate(FORECAST_TEMPLATE, { ...context, fold: true });
  await ChatMessage.create({
    content: `<div class="fray-card fray-forecast-card"><h3>${escapeHtml(context.title)}</h3>${card}</div>`,
    whisper: gmIds(),
  } as never);
}

/**
 * The tracker's forecast button: GM only. Reads the combat, asks runs and seed, runs the worker
 * and shows the result; errors (a combat with one side, a refused actor) are reported.
 */
export async function openForecast(combat: ForecastCombat): Promise<void> {
  if (!game.user?.isGM) {
    warn("FRAY.Forecast.Tracker.GMOnly");
    return;
  }
  try {
    const input = forecastInput(readCombatSnapshot(combat), activeBinding());
    // While the GM fills in the settings, the workers load and compile the fights' code.
    forecastPool().warm({ file: input.file, packs: input.packs, seed: 1 });
    const settings = await askSettings(input);
    if (!settings) return;
    await showResult(await runInWorkers(input, settings), input, settings);
  } catch (error) {
    reportError(error);
  }
}
