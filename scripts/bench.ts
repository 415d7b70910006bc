/**
 * `npm run bench [-- --ms N] [--only attacks|odds|forecast|balance|render] [--case ud10|hitbox|critical|zones] [--runs N]`: the benchmark of the rules core
 * (issue 14). In one run it prints, against the goals:
 * - attacks per second of each ruleset, "an attack" being the whole step a fight takes: the
 *   ruleset's input from a request, the plan (odds not included), the roll with the declared
 *   reaction, the damage rolled and applied to the target. A UD10 rifle shot with body zones and
 *   buffer, a Hitbox pistol shot against a dodge, a Critical sword blow read on its attack table
 *   with the critical roll, a Zones three-round burst; goal 500,000/s on one core;
 * - for a ruleset with a quiet step (`src/rules/core/quiet.ts`; all four have one: the Zones
 *   burst's is `src/rules/zones/quiet.ts`), the same attack played quietly as a forecast plays it
 *   (the input from the request, then the quiet step), against the same goal and the same dice
 *   library;
 * - the same attacks against a formula-string dice library (`@dice-roller/rpg-dice-roller`)
 *   rolling the formulas each attack rolls, one call per formula as its users write them
 *   (`new DiceRoll("4+2d10")`); goal 10x;
 * - the exact odds of each attack: the first call in a fresh process (after the modules load:
 *   what they prepare when loading, such as Critical's attack columns, is not counted) and later
 *   calls; goal 1 ms;
 * - the 10,000-fight forecast of each five-against-five example in Node and in Chromium's Web
 *   Worker (scripts/bench-forecast.ts; `--runs N` plays N fights and extrapolates); goal 2 s;
 * - the balance search of each five-against-five example to a 70% chance for the players, by
 *   count and by stats (scripts/bench-balance.ts); goal 10 s;
 * - the character sheet's first render in headless Chromium; goal 50 ms. Timed inside a
 *   Foundry-like page that is already loaded with the system CSS (`test/support/render/bench.ts`):
 *   the sheet's templates compiled (first render only) and rendered by Handlebars in the page,
 *   the window inserted, style and layout forced. Not timed: the page's load and CSS parse,
 *   Playwright's round trips and the next frame, which Foundry pays once at startup or not in
 *   the sheet. Printed per stage, with later renders (median) and the first render in a cold
 *   page where Handlebars never ran. Skipped with a notice when /usr/bin/chromium is missing.
 * Both sides of each ratio are measured in the same run, so the ratios hold on a busy machine.
 * A benchmark prints numbers; it asserts nothing. `--ms` sets the time per measurement
 * (default 1000 ms). The dice port alone: `npm run bench:dice`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DiceRoll } from "@dice-roller/rpg-dice-roller";
import type { AttackRequest } from "../src/rules/core/contract.js";
import { SeededRoller, seededSource, type DiceRoller } from "../src/rules/core/dice/port.js";
import type { FaceSource } from "../src/rules/core/dice/formula.js";
import { isQuiet } from "../src/rules/core/quiet.js";
import type { Ruleset, RulesetOptions } from "../src/rules/core/ruleset.js";
import type { ActorSource } from "../src/rules/core/sources.js";
import type { RollOutcome } from "../src/rules/core/types.js";
import { critical, hitbox, ud10, zones } from "../src/rules/index.js";
import { criticalCombatantFromActor } from "../src/rules/critical/model.js";
import { hitboxCombatantFromActor } from "../src/rules/hitbox/model.js";
import { ud10CombatantFromActor } from "../src/rules/ud10/model.js";
import { zonesCombatantFromActor } from "../src/rules/zones/model.js";
import { forecastBench } from "./bench-forecast.js";
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

/** Goals of issue 14. */
const GOAL = { attacksPerSecond: 500_000, versusLibrary: 10, oddsMs: 1, renderMs: 50 } as const;

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

/** Calls per second of `run`, in batches of `batch`, for {@link MS} milliseconds after a warm-up. */
async function rate(run: () => Promise<number> | number, batch = 500): Promise<number> {
  let sink = 0;
  for (let i = 0; i < batch * 20; i++) sink += await run();
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < MS) {
    for (let i = 0; i < batch; i++) sink += await run();
    calls += batch;
    elapsed = performance.now() - start;
  }
  if (Number.isNaN(sink)) console.log("(NaN)");
  return (calls / elapsed) * 1000;
}

/** A roller that records the formulas it is asked for, for the dice library to roll the same. */
class RecordingRoller implements DiceRoller {
  readonly formulas: string[] = [];
  constructor(private readonly inner: SeededRoller) {}
  roll(formula: string, purpose?: string): Promise<RollOutcome> {
    this.formulas.push(formula);
    return this.inner.roll(formula, purpose);
  }
}

/**
 * The formula as the dice library writes it: exploding `x` is `!` (`1d100x>95` is `1d100!>95`,
 * `2d10x10` is `2d10!=10`); explode-once `xo` has no counterpart there and rolls as `!`.
 */
function libraryFormula(formula: string): string {
  return formula.replace(/\s+/g, "").replace(/xo?(>=|<=|>|<|=)?(\d+)?/gi, (_m, op: string | undefined, n: string | undefined) => {
    if (!n) return "!";
    return `!${op ?? "="}${n}`;
  });
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
const verdict = (ok: boolean, short: string) => (ok ? "met" : `missed (${short})`);

async function attacks(): Promise<void> {
  console.log(
    `\nAttacks per second (one core, ${MS} ms per measurement; goal ${grouped(GOAL.attacksPerSecond)}/s and ${GOAL.versusLibrary}x the dice library)`,
  );
  for (const c of cases().filter((x) => !CASE || x.id === CASE)) {
    const recorder = new RecordingRoller(new SeededRoller(7));
    const sample = 2000;
    for (let i = 0; i < sample; i++) await attack(c, recorder);
    const formulas = recorder.formulas.map(libraryFormula);
    // The library rolls the same formulas, in the same proportions, one call each.
    let at = 0;
    const libraryRate =
      ((await rate(() => {
        let s = 0;
        for (let k = 0; k < 16; k++) {
          s += new DiceRoll(formulas[at]!).total;
          at = at + 1 === formulas.length ? 0 : at + 1;
        }
        return s;
      }, 50)) *
        16) /
      (formulas.length / sample);
    const dice = new SeededRoller(7);
    const fray = await rate(() => attack(c, dice));
    const line = (label: string, rate: number) => {
      const ratio = rate / libraryRate;
      console.log(
        `  ${label.padEnd(52)} ${grouped(rate).padStart(10)}/s  ${verdict(rate >= GOAL.attacksPerSecond, `${((rate / GOAL.attacksPerSecond) * 100).toFixed(0)}% of the goal`)}` +
          `; dice library ${grouped(libraryRate)}/s (${(formulas.length / sample).toFixed(2)} formulas per attack): ${ratio.toFixed(1)}x, ${verdict(ratio >= GOAL.versusLibrary, `${ratio.toFixed(1)}x of ${GOAL.versusLibrary}x`)}`,
      );
    };
    line(c.label, fray);
    // The quiet step, where the ruleset has one: what a forecast plays (src/rules/core/quiet.ts).
    if (isQuiet(c.ruleset)) {
      const faces = seededSource(7);
      line("  the same attack, quiet (as a forecast plays it)", await rate(() => quietAttack(c, faces)));
    } else console.log("    quiet: none yet for this ruleset (its forecast plays the step above)");
  }
}

/** In a fresh process: the first and later exact-odds calls of one case, as JSON. */
function oddsChild(id: string): void {
  const c = cases().find((x) => x.id === id)!;
  const input = c.ruleset.input(c.request, c.attacker, c.target, c.options);
  const plan = c.ruleset.planAttack(input, c.options);
  let t = performance.now();
  c.ruleset.odds(plan, input, c.options);
  const first = performance.now() - t;
  const n = 200;
  t = performance.now();
  for (let i = 0; i < n; i++) c.ruleset.odds(plan, input, c.options);
  const later = (performance.now() - t) / n;
  process.stdout.write(JSON.stringify({ first, later }));
}

function odds(): void {
  console.log(
    `\nExact odds (goal under ${GOAL.oddsMs} ms on the first call as on later ones; median of ${ODDS_PROCESSES} fresh processes)`,
  );
  for (const c of cases()) {
    const runs = Array.from({ length: ODDS_PROCESSES }, () => {
      const out = execFileSync(process.execPath, [...process.execArgv, SELF, "--odds-child", c.id], { encoding: "utf8" });
      return JSON.parse(out) as { first: number; later: number };
    });
    const first = median(runs.map((r) => r.first));
    const later = median(runs.map((r) => r.later));
    console.log(
      `  ${c.label.padEnd(52)} first ${ms(first).padStart(7)} ms  ${verdict(first < GOAL.oddsMs, `${(first / GOAL.oddsMs).toFixed(1)}x the goal`)};` +
        ` later ${ms(later)} ms  ${verdict(later < GOAL.oddsMs, `${(later / GOAL.oddsMs).toFixed(1)}x the goal`)}`,
    );
  }
}

async function render(): Promise<void> {
  const CHROMIUM = "/usr/bin/chromium";
  console.log(`\nCharacter sheet, first render in headless Chromium (goal under ${GOAL.renderMs} ms)`);
  if (!existsSync(CHROMIUM)) {
    console.log(`  skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);
    return;
  }
  const { renderSheetTimes } = await import("../test/support/render/bench.js");
  const { first, firstCold, later } = await renderSheetTimes(CHROMIUM);
  const stages = (t: typeof first) =>
    `templates ${ms(t.template)}, insert ${ms(t.insert)}, style ${ms(t.style)}, layout ${ms(t.layout)} ms`;
  const versus = (t: number) => verdict(t < GOAL.renderMs, `${(t / GOAL.renderMs).toFixed(1)}x the goal`);
  console.log(`  first ${ms(first.total)} ms  ${versus(first.total)} (${stages(first)})`);
  console.log(`  later ${ms(later.total)} ms  (${stages(later)})`);
  console.log(
    `  first in a cold page (Handlebars never run there) ${ms(firstCold.total)} ms  ${versus(firstCold.total)} (${stages(firstCold)})`,
  );
}

async function main(): Promise<void> {
  const childId = arg("--odds-child");
  if (childId) return oddsChild(childId);
  console.log(`Fray benchmark (node ${process.version})`);
  if (!ONLY || ONLY === "odds") odds();
  if (!ONLY || ONLY === "attacks") await attacks();
  if (!ONLY || ONLY === "forecast") await forecastBench(arg("--runs") === undefined ? undefined : Number(arg("--runs")), CASE);
  if (!ONLY || ONLY === "balance") await balanceBench(CASE);
  if (!ONLY || ONLY === "render") await render();
}

await main();
