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
import { bounded, check, choice } from "../../rules/core/validate.js";
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
import { pluralKey } from "../../rules/core/i18n.js";
import { activeBinding } from "../registry.js";
import { optionValues } from "../settings.js";
import { poolSize, WorkerPool, type PoolWorker } from "./pool.js";
import { BALANCE_MODES, BALANCE_TARGET, type BalanceMode } from "../../forecast/balance-bounds.js";
import type { BalanceResult } from "../../forecast/balance.js";
import { balanceButtons, balanceView } from "../logic/balance-view.js";
import { runBalance } from "./balance-run.js";

/** The balance search's result template. */
export const BALANCE_TEMPLATE = `${SYSTEM_PATH}/templates/forecast/balance.hbs`;
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
  actor?: (ActorLike & { uuid?: string; id?: string | null; hasPlayerOwner?: boolean }) | null;
  token?: { disposition?: number; object?: Measurable | null; parent?: { id?: string | null } | null } | null;
  hidden?: boolean;
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

/** Asks the runs and the seed, or a balance search with the seed; `undefined` when closed. */
async function askSettings(input: ForecastInput): Promise<{ runs: number; seed: number; balance?: true } | undefined> {
  const result = await foundry.applications.api.DialogV2.wait({
    window: { title: formatKey("FRAY.Forecast.Tracker.Title") },
    classes: ["fray", "fray-forecast-dialog"],
    content: settingsHtml(input),
    buttons: [
      {
        action: "balance",
        label: "FRAY.Forecast.Tracker.Balance.Button",
        icon: "fa-solid fa-scale-balanced",
        callback: (_event: unknown, button: DialogFormButton) => ({
          balance: true,
          runs: button.form?.elements.runs?.value ?? "",
          seed: button.form?.elements.seed?.value ?? "",
        }),
      },
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
  const raw = result as { runs: string; seed: string; balance?: true };
  const seed = check(bounded({ min: 0, max: MAX_SEED, integer: true }), wholeOf(raw.seed), formatKey("FRAY.Forecast.Tracker.Seed"));
  // The balance search sets its own fights: only the seed is read for it.
  if (raw.balance) return { runs: TRACKER_DEFAULT_RUNS, seed, balance: true };
  return {
    runs: check(bounded({ min: 1, max: MAX_RUNS, integer: true }), wholeOf(raw.runs), formatKey("FRAY.Forecast.Tracker.Runs")),
    seed,
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
  return underProgress(settings.runs, (onProgress) =>
    forecastPool().run(
      { file: input.file, packs: input.packs, runs: settings.runs, seed: settings.seed },
      { id: foundry.utils.randomID(), onProgress },
    ),
  );
}

/**
 * Runs `start`'s work under a progress dialog of its own (`total` the fights first shown), its
 * bar and text updated by the work's progress; its Cancel (or closing it) cancels the work, which
 * then settles with what it has. The dialog closes once the work has settled.
 */
async function underProgress<T>(
  total: number,
  start: (onProgress: (done: number, runs: number) => void) => { result: Promise<T>; cancel(): void },
): Promise<T> {
  let finished = false;
  // Each run's own progress dialog: a second forecast started meanwhile never closes or reads this one's.
  const progressId = `${PROGRESS_ID}-${foundry.utils.randomID()}`;
  const run = start((done, runs) => {
    const bar = document.querySelector<HTMLProgressElement>(`#${progressId} progress`);
    if (bar) {
      bar.max = runs;
      bar.value = done;
    }
    const label = document.querySelector<HTMLElement>(`#${progressId} [data-fray-progress]`);
    if (label) label.textContent = formatKey("FRAY.Forecast.Progress", { done, runs });
  });
  try {
    const progress = foundry.applications.api.DialogV2.wait({
      id: progressId,
      window: { title: formatKey("FRAY.Forecast.Tracker.Title") },
      classes: ["fray", "fray-forecast-dialog"],
      content:
        `<div class="fray-forecast-progress"><progress max="${total}" value="0"></progress>` +
        `<span data-fray-progress>${escapeHtml(formatKey("FRAY.Forecast.Progress", { done: 0, runs: total }))}</span></div>`,
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

/** The balance search's form: the players' chance to win in percent and what to change. */
export function balanceHtml(): string {
  const mode = (m: BalanceMode, label: string, checked: boolean) =>
    `<label class="checkbox"><input type="radio" name="mode" value="${m}"${checked ? " checked" : ""}> ${escapeHtml(formatKey(label))}</label>`;
  return (
    `<div class="fray-forecast-settings fray-balance-settings"><p>${escapeHtml(formatKey("FRAY.Forecast.Tracker.Balance.Intro"))}</p>` +
    `<div class="form-group"><label for="fray-balance-target">${escapeHtml(formatKey("FRAY.Forecast.Tracker.Balance.Target"))}</label>` +
    `<input id="fray-balance-target" type="number" name="target" min="${BALANCE_TARGET.min * 100}" max="${BALANCE_TARGET.max * 100}" step="1" value="70"></div>` +
    `<fieldset class="form-group"><legend>${escapeHtml(formatKey("FRAY.Forecast.Tracker.Balance.By"))}</legend>` +
    mode("count", "FRAY.Forecast.Tracker.Balance.ByCount", true) +
    mode("scale", "FRAY.Forecast.Tracker.Balance.ByScale", false) +
    `</fieldset></div>`
  );
}

/** Asks the chance (a share from 0.01 to 0.99) and the mode; `undefined` when closed. */
async function askBalance(): Promise<{ target: number; mode: BalanceMode } | undefined> {
  const result = await foundry.applications.api.DialogV2.wait({
    window: { title: formatKey("FRAY.Forecast.Tracker.Balance.Title") },
    classes: ["fray", "fray-forecast-dialog"],
    content: balanceHtml(),
    buttons: [
      {
        action: "run",
        label: "FRAY.Forecast.Tracker.Run",
        default: true,
        callback: (_event: unknown, button: DialogFormButton) => {
          const radios = (button.form as unknown as HTMLFormElement | null)?.querySelector?.<HTMLInputElement>("input[name=mode]:checked");
          return { target: button.form?.elements.target?.value ?? "", mode: radios?.value ?? "count" };
        },
      },
    ],
    rejectClose: false,
  } as never);
  if (!result || typeof result !== "object") return undefined;
  const raw = result as { target: string; mode: string };
  const label = formatKey("FRAY.Forecast.Tracker.Balance.Target");
  const percent = check(
    bounded({ min: BALANCE_TARGET.min * 100, max: BALANCE_TARGET.max * 100, integer: false }),
    wholeOf(raw.target),
    label,
  );
  return { target: percent / 100, mode: check(choice(BALANCE_MODES), raw.mode, formatKey("FRAY.Forecast.Tracker.Balance.By")) };
}

/**
 * The players' side in the forecast: the side of the first combatant whose actor a player owns,
 * else the friendly side.
 */
export function playersSide(combat: ForecastCombat, input: ForecastInput): string {
  const owned = (Array.from(combat.combatants ?? []) as ForecastCombatantDoc[]).filter((c) => c.actor?.hasPlayerOwner).map((c) => c.id);
  return input.file.combatants.find((c) => owned.includes(c.id))?.side ?? "friendly";
}

/**
 * The balance search from the tracker: asks the chance and the mode, searches in a forecast
 * worker under a progress dialog with a Cancel, and shows the result; its "Add to the combat"
 * (by count, for the GM) adds the opponents found beyond the combat's.
 */
async function openBalance(combat: ForecastCombat, input: ForecastInput, seed: number): Promise<void> {
  const asked = await askBalance();
  if (!asked) return;
  const result = await underProgress(1, (onProgress) =>
    runBalance(
      () => new Worker(foundry.utils.getRoute(FORECAST_WORKER), { type: "module" }) as unknown as PoolWorker,
      { file: input.file, packs: input.packs, target: asked.target, mode: asked.mode, players: playersSide(combat, input), seed },
      { id: foundry.utils.randomID(), onProgress },
    ),
  );
  const lang = (game.i18n as unknown as { lang?: string }).lang ?? "en";
  const context = balanceView(result, (key, data) => formatKey(key, data ?? {}), lang);
  const content = await foundry.applications.handlebars.renderTemplate(BALANCE_TEMPLATE, { ...context });
  const choice = await foundry.applications.api.DialogV2.wait({
    window: { title: windowTitle("FRAY.Forecast.Tracker.Balance.ResultTitle", { name: result.name }) },
    classes: ["fray", "fray-forecast-dialog"],
    position: { width: 440 },
    content,
    buttons: dialogButtons(balanceButtons(Boolean(game.user?.isGM) && context.adds > 0)),
    rejectClose: false,
  } as never);
  if (choice === "add") await addOpponents(combat, result);
}

/** A token as copied for an added opponent. */
interface TokenDoc {
  id?: string | null;
  actorId?: string | null;
  parent?: {
    id?: string | null;
    grid?: { size?: number };
    createEmbeddedDocuments(type: string, data: object[]): Promise<TokenDoc[]>;
  } | null;
  toObject(): Record<string, unknown> & { x?: number; y?: number };
}

/**
 * Adds the opponents the search found beyond the combat's, GM only: for each kind, copies of
 * the token of the kind's first combatant (its actor, its disposition, its look) placed beside
 * it, one grid space apart, each made a Combatant (hidden when the original is). A kind whose
 * combatant has no token on a scene is reported and skipped.
 */
async function addOpponents(combat: ForecastCombat, result: BalanceResult): Promise<void> {
  if (!game.user?.isGM) {
    warn("FRAY.Forecast.Tracker.GMOnly");
    return;
  }
  const docs = Array.from(combat.combatants ?? []) as (ForecastCombatantDoc & { token?: TokenDoc | null })[];
  let added = 0;
  for (const [i, kind] of result.kinds.entries()) {
    const extra = (result.best.counts?.[i] ?? kind.base) - kind.base;
    if (extra <= 0) continue;
    const original = docs.find((c) => c.id === kind.id);
    const token = original?.token;
    const scene = token?.parent;
    if (!token || !scene) {
      warn("FRAY.Forecast.Tracker.Balance.NoToken", { name: kind.name });
      continue;
    }
    const { _id: _drop, ...data } = token.toObject();
    void _drop;
    const step = scene.grid?.size ?? 100;
    const tokens = await scene.createEmbeddedDocuments(
      "Token",
      Array.from({ length: extra }, (_, j) => ({ ...data, x: (data.x ?? 0) + step * (j + 1), y: data.y ?? 0 })),
    );
    await (combat as unknown as { createEmbeddedDocuments(type: string, data: object[]): Promise<unknown> }).createEmbeddedDocuments(
      "Combatant",
      tokens.map((t) => ({ tokenId: t.id, sceneId: scene.id, actorId: t.actorId, hidden: Boolean(original?.hidden) })),
    );
    added += tokens.length;
  }
  if (added) ui.notifications?.info(formatKey(pluralKey("FRAY.Forecast.Tracker.Balance.Added", added), { count: added }));
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
    if (settings.balance) return await openBalance(combat, input, settings.seed);
    await showResult(await runInWorkers(input, settings), input, settings);
  } catch (error) {
    reportError(error);
  }
}
