/**
 * `npm run bench [-- --ms N] [--only odds|drop|attacks|forecast|balance] [--case ud10|hitbox|critical|zones] [--repeat N]`:
 * the floors of the rules core, measured (a benchmark prints numbers and asserts nothing):
 * - exact odds of one attack per ruleset, the first call in a fresh process (after the modules
 *   load); floor under 1 ms; the median of five processes;
 * - the exact chance to drop the target of the same attacks (`src/rules/core/drop.ts`), the
 *   first call in a fresh process, wall and processor time, and later calls; goal under 5 ms;
 * - core attacks per second of processor time per ruleset on one thread, "an attack" being the whole step a fight
 *   takes: the ruleset's input from a request, the modifiers against the difficulty, the roll
 *   with the declared reaction, the damage rolled and applied. Measured as a forecast plays it
 *   (totals only) and, for comparison, itemized for a card; floor 250,000/s for the first;
 * - a forecast of 10,000 fights of each `examples/<id>-skirmish.yaml` with two worker threads
 *   (`npm run forecast -- FILE --workers 2`), wall time from the command's start to its exit
 *   (Node's start included) and the processor time the forecast reports; floor 2 s wall. Played
 *   `--repeat` times (default 3): the fastest and the median are printed;
 * - the balance search of each five-against-five example to a 70% chance for the players, by
 *   count and by stats (scripts/bench-balance.ts), one thread; goal under 10 s.
 * Other work on the machine slows every figure: the load average is printed with them.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AttackRequest } from "../src/rules/core/contract.js";
import { formatDecimal, pluralKey } from "../src/rules/core/i18n.js";
import { SeededRoller, seededSource, type DiceRoller } from "../src/rules/core/dice/port.js";
import type { FaceSource } from "../src/rules/core/dice/formula.js";
import { isQuiet } from "../src/rules/core/quiet.js";
import type { Ruleset, RulesetOptions } from "../src/rules/core/ruleset.js";
import type { ActorSource } from "../src/rules/core/sources.js";
import { critical, hitbox, ud10, zones } from "../src/rules/index.js";
import { criticalCombatantFromActor } from "../src/rules/critical/model.js";
import { hitboxCombatantFromActor } from "../src/rules/hitbox/model.js";
import { ud10CombatantFromActor } from "../src/rules/ud10/model.js";
import { zonesCombatantFromActor } from "../src/rules/zones/model.js";

import { balanceBench } from "./bench-balance.js";

const ROOT = join(fileURLToPath(new URL(".", import.meta.url)), "..");
const SELF = fileURLToPath(import.meta.url);
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const MS = Number(arg("--ms") ?? 1000);
const ONLY = arg("--only");
const CASE = arg("--case");
const REPEAT = Number(arg("--repeat") ?? 3);

/** The floors (issue 32). */
const FLOOR = { attacksPerSecond: 250_000, oddsMs: 1, dropMs: 5, forecastSeconds: 2, fights: 10_000, workers: 2 } as const;

/** A compendium source document by pack and name, read from `packs/_source/`. */
function packDoc(pack: string, name: string): ActorSource {
  const dir = join(ROOT, "packs", "_source", pack);
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : f.endsWith(".json") ? [join(d, f)] : []));
  for (const file of walk(dir)) {
    const doc = JSON.parse(readFileSync(file, "utf8")) as ActorSource;
    if (doc.name === name) return doc;
  }
  throw new Error(`packs/_source/${pack} has no "${name}"`);
}

/** One benchmarked attack: a ruleset, its options, the two combatants and the request. */
interface Case {
  id: string;
  label: string;
  ruleset: Ruleset<unknown, unknown>;
  options: RulesetOptions;
  attacker: unknown;
  target: unknown;
  request: AttackRequest;
}

function cases(): Case[] {
  const req = (weaponId: string, distanceMetres: number, more: Partial<AttackRequest> = {}): AttackRequest => ({
    attackerId: "a",
    targetId: "b",
    weaponId,
    distanceMetres,
    ...more,
  });
  const as = <C, I>(r: Ruleset<C, I>) => r as unknown as Ruleset<unknown, unknown>;
  return [
    {
      id: "ud10",
      label: "UD10 rifle shot, body zones and buffer",
      ruleset: as(ud10),
      options: { ...ud10.defaults(), bodyZones: true, buffer: true },
      attacker: ud10CombatantFromActor(packDoc("ud10-npcs", "Veteran"), { id: "a" }),
      target: ud10CombatantFromActor(packDoc("ud10-npcs", "Guard"), { id: "b" }),
      request: req("Assault Rifle", 20),
    },
    {
      id: "hitbox",
      label: "Hitbox pistol shot against a dodge",
      ruleset: as(hitbox),
      options: hitbox.defaults(),
      attacker: hitboxCombatantFromActor(packDoc("hitbox-npcs", "Security Guard"), { id: "a" }),
      target: hitboxCombatantFromActor(packDoc("hitbox-npcs", "Street Tough"), { id: "b" }),
      request: req("Duty Pistol", 10, { reaction: "dodge" }),
    },
    {
      id: "critical",
      label: "Critical sword blow, attack table and critical roll",
      ruleset: as(critical),
      options: critical.defaults(),
      attacker: criticalCombatantFromActor(packDoc("critical-npcs", "Sword Fighter"), { id: "a" }),
      target: criticalCombatantFromActor(packDoc("critical-npcs", "Pistol Guard"), { id: "b" }),
      request: req("Arming Sword", 1.5),
    },
    {
      id: "zones",
      label: "Zones three-round burst",
      ruleset: as(zones),
      options: zones.defaults(),
      attacker: zonesCombatantFromActor(packDoc("zones-npcs", "Perimeter Sentry"), { id: "a" }),
      target: zonesCombatantFromActor(packDoc("zones-npcs", "Street Enforcer"), { id: "b" }),
      request: req("Harrow Carbine", 30, { modeId: "burst" }),
    },
  ];
}

/**
 * One attack step without the odds: input, plan, roll with the declared reaction, damage rolled
 * and applied. Returns a number read from the result so that nothing is optimised away.
 */
async function attack(c: Case, dice: DiceRoller): Promise<number> {
  const { ruleset, options } = c;
  const input = ruleset.input(c.request, c.attacker, c.target, options);
  const plan = ruleset.planAttack(input, options);
  const result = await ruleset.resolveAttack(plan, input, dice, options);
  if (!result.lands) return result.check.total;
  const packet = await ruleset.rollDamage(result, input, dice, options);
  const report = ruleset.applyDamage(c.target, packet, options);
  ruleset.withVitals(c.target, report.after);
  return packet.amount;
}

/**
 * The same attack played quietly (`src/rules/core/quiet.ts`), as a forecast plays it: the
 * ruleset's input from the request, then the quiet step (same outcome, totals only). Returns the
 * damage rolled so that nothing is optimised away.
 */
function quietAttack(c: Case, faces: FaceSource): number {
  const { ruleset, options } = c;
  if (!isQuiet<unknown, unknown>(ruleset)) return 0;
  const input = ruleset.input(c.request, c.attacker, c.target, options);
  return ruleset.quietAttack(input, faces, options).damage;
}

/**
 * Calls of `run` per second of this process's processor time, in batches of `batch`, for
 * {@link MS} milliseconds after a warm-up. Processor time rather than wall time: other work on the
 * machine takes the processor away from this thread, which wall time would count against it.
 */
async function rate(run: () => Promise<number> | number, batch = 500): Promise<number> {
  let sink = 0;
  for (let i = 0; i < batch * 20; i++) sink += await run();
  let calls = 0;
  const start = performance.now();
  const cpu = process.cpuUsage();
  while (performance.now() - start < MS) {
    for (let i = 0; i < batch; i++) sink += await run();
    calls += batch;
  }
  const used = process.cpuUsage(cpu);
  if (Number.isNaN(sink)) console.log("(NaN)");
  return calls / ((used.user + used.system) / 1e6);
}

/** Fresh processes per exact-odds figure: the median of their first (and later) calls is shown. */
const ODDS_PROCESSES = 5;

/** The middle value (the mean of the two middle values for an even count). */
function median(values: number[]): number {
  const v = [...values].sort((a, b) => a - b);
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
}

const grouped = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number) => (n >= 10 ? n.toFixed(0) : n >= 1 ? n.toFixed(1) : n.toFixed(3));
const verdict = (ok: boolean) => (ok ? "met" : "missed");

async function attacks(): Promise<void> {
  console.log(
    `\nCore attacks per second of processor time (one thread, ${MS} ms per measurement; floor ${grouped(FLOOR.attacksPerSecond)}/s as a forecast plays them)`,
  );
  for (const c of cases().filter((x) => !CASE || x.id === CASE)) {
    const faces = seededSource(7);
    const outcome = isQuiet(c.ruleset) ? await rate(() => quietAttack(c, faces)) : undefined;
    const dice = new SeededRoller(7);
    const itemized = await rate(() => attack(c, dice));
    const played = outcome === undefined ? "" : `${grouped(outcome).padStart(10)}/s  ${verdict(outcome >= FLOOR.attacksPerSecond)}`;
    console.log(`  ${c.label.padEnd(52)} ${played.padEnd(20)}  itemized for a card ${grouped(itemized)}/s`);
  }
}

/** In a fresh process: the first and later exact-odds calls of one case, as JSON. */
function oddsChild(id: string): void {
  const c = cases().find((x) => x.id === id)!;
  const input = c.ruleset.input(c.request, c.attacker, c.target, c.options);
  const plan = c.ruleset.planAttack(input, c.options);
  const t = performance.now();
  c.ruleset.odds(plan, input, c.options);
  const first = performance.now() - t;
  process.stdout.write(JSON.stringify({ first }));
}

/** In a fresh process: the first and later calls of one case's chance to drop the target, as JSON. */
function dropChild(id: string): void {
  const c = cases().find((x) => x.id === id)!;
  const input = c.ruleset.input(c.request, c.attacker, c.target, c.options);
  const plan = c.ruleset.planAttack(input, c.options);
  const drop = c.ruleset.dropOdds!;
  // The dialog writes each target's chance to hit in the reader's language before its chance to
  // drop it, so the language's number and plural rules (Intl, loaded once per process) are ready.
  formatDecimal(0.5);
  pluralKey("FRAY.Step.HitboxWeaponDamage", 1);
  const cpu0 = process.cpuUsage();
  let t = performance.now();
  drop(plan, input, c.options);
  const first = performance.now() - t;
  const cpu = process.cpuUsage(cpu0);
  const firstCpu = (cpu.user + cpu.system) / 1000;
  const n = 50;
  t = performance.now();
  for (let i = 0; i < n; i++) drop(plan, input, c.options);
  const later = (performance.now() - t) / n;
  process.stdout.write(JSON.stringify({ first, firstCpu, later }));
}

/** The chance to drop the target of each case that has one (issue 34): first call in a fresh process and later calls. */
function drop(): void {
  console.log(
    `\nChance to drop the target (goal under ${FLOOR.dropMs} ms per target on the first call; median of ${ODDS_PROCESSES} fresh processes)`,
  );
  for (const c of cases()) {
    if (!c.ruleset.dropOdds) {
      console.log(`  ${c.label.padEnd(52)} none yet for this ruleset`);
      continue;
    }
    const runs = Array.from({ length: ODDS_PROCESSES }, () => {
      const out = execFileSync(process.execPath, [...process.execArgv, SELF, "--drop-child", c.id], { encoding: "utf8" });
      return JSON.parse(out) as { first: number; firstCpu: number; later: number };
    });
    const first = median(runs.map((r) => r.first));
    const firstCpu = median(runs.map((r) => r.firstCpu));
    const later = median(runs.map((r) => r.later));
    console.log(
      `  ${c.label.padEnd(52)} first ${ms(first).padStart(7)} ms  ${verdict(first < FLOOR.dropMs)}` +
        ` (CPU time ${ms(firstCpu)} ms); later ${ms(later)} ms`,
    );
  }
}

function odds(): void {
  console.log(`\nExact odds, first call in a fresh process (floor under ${FLOOR.oddsMs} ms; median of ${ODDS_PROCESSES} processes)`);
  for (const c of cases().filter((x) => !CASE || x.id === CASE)) {
    const runs = Array.from({ length: ODDS_PROCESSES }, () => {
      const out = execFileSync(process.execPath, [...process.execArgv, SELF, "--odds-child", c.id], { encoding: "utf8" });
      return JSON.parse(out) as { first: number };
    });
    const first = median(runs.map((r) => r.first));
    console.log(`  ${c.label.padEnd(52)} ${ms(first).padStart(7)} ms  ${verdict(first < FLOOR.oddsMs)}`);
  }
}

/** One `npm run forecast` of `file` with two workers: wall seconds from spawn to exit, and the processor seconds it reports. */
function forecastOnce(file: string): { wall: number; cpu: number } {
  const start = performance.now();
  const run = spawnSync(
    process.execPath,
    [
      join(ROOT, "scripts", "bundled.mjs"),
      join(ROOT, "scripts", "forecast.ts"),
      file,
      "--workers",
      String(FLOOR.workers),
      "--runs",
      String(FLOOR.fights),
    ],
    { cwd: ROOT, encoding: "utf8", timeout: 300_000, env: { ...process.env, FRAY_LANG: "en" } },
  );
  const wall = (performance.now() - start) / 1000;
  if (run.status !== 0) throw new Error(`npm run forecast ${file} failed: ${(run.stderr || run.stdout || "").trim().split("\n").at(-1)}`);
  const cpu = /([\d.]+) s of processor time/.exec(run.stdout);
  return { wall, cpu: cpu ? Number(cpu[1]) : NaN };
}

function forecasts(): void {
  const [one, five, fifteen] = loadavg().map((l) => l.toFixed(1));
  console.log(
    `\nForecast of ${grouped(FLOOR.fights)} fights, ${FLOOR.workers} worker threads, Node's start included (floor ${FLOOR.forecastSeconds} s wall; ` +
      `${REPEAT} runs each; ${availableParallelism()} cores, load average ${one}, ${five}, ${fifteen})`,
  );
  for (const id of ["ud10", "hitbox", "critical", "zones"].filter((x) => !CASE || x === CASE)) {
    const file = join("examples", `${id}-skirmish.yaml`);
    forecastOnce(file); // the bundle built and cached, as for a GM who ran it before
    const runs = Array.from({ length: REPEAT }, () => forecastOnce(file)).sort((a, b) => a.wall - b.wall);
    const best = runs[0]!;
    const mid = median(runs.map((r) => r.wall));
    console.log(
      `  ${file.padEnd(32)} fastest ${best.wall.toFixed(2)} s (processor ${best.cpu.toFixed(2)} s), median ${mid.toFixed(2)} s  ${verdict(best.wall <= FLOOR.forecastSeconds)}`,
    );
  }
}

async function main(): Promise<void> {
  const childId = arg("--odds-child");
  if (childId) return oddsChild(childId);
  const dropId = arg("--drop-child");
  if (dropId) return dropChild(dropId);
  console.log(`Fray benchmark (node ${process.version})`);
  if (!ONLY || ONLY === "odds") odds();
  if (!ONLY || ONLY === "drop") drop();
  if (!ONLY || ONLY === "attacks") await attacks();
  if (!ONLY || ONLY === "forecast") forecasts();
  if (!ONLY || ONLY === "balance") await balanceBench(CASE);
}

await main();
