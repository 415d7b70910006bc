/**
 * `npm run bench:dice [-- --ms N]`: a micro benchmark of the dice port. For each formula it
 * prints rolls per second of
 * - `parse + evaluate (async)`: the port before the fast path (the formula parsed on every roll,
 *   the outcome built and handed back in a Promise);
 * - `roll (async)`: `SourceRoller.roll` now (compiled once, still a Promise);
 * - `rollSync`: the synchronous path with the full outcome;
 * - `rollTotal`: the synchronous path with the total only (nothing allocated per die).
 * All four draw faces from the same kind of seeded source, so they do the same dice work.
 * A benchmark prints numbers; it asserts nothing. `--ms` sets the time per measurement
 * (default 400 ms).
 */
import { evaluateFormula, parseFormula } from "../src/rules/core/dice/formula.js";
import { SeededRoller, seededSource } from "../src/rules/core/dice/port.js";

const FORMULAS = ["1d10", "2d10x10 + 3", "1d100x>95", "2d6"];
const msArg = process.argv.indexOf("--ms");
const MS = msArg >= 0 ? Number(process.argv[msArg + 1]) : 400;

/** Rolls per second of `step`, run in batches of `batch` until `MS` milliseconds have passed. */
async function measure(step: () => unknown, batch = 1000): Promise<number> {
  // Warm up so the measured code is compiled.
  for (let i = 0; i < batch * 5; i++) await step();
  let rolls = 0;
  let sink = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < MS) {
    for (let i = 0; i < batch; i++) {
      const r = step();
      sink += typeof r === "number" ? r : r instanceof Promise ? ((await r) as { total: number }).total : 1;
    }
    rolls += batch;
    elapsed = performance.now() - start;
  }
  if (Number.isNaN(sink)) console.log("(unreachable)");
  return (rolls / elapsed) * 1000;
}

/** `1234567` as `1,234,567`. */
function grouped(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

async function main(): Promise<void> {
  const header = ["formula", "parse + evaluate (async)", "roll (async)", "rollSync", "rollTotal", "rollTotal / before"];
  const rows: string[][] = [];
  for (const formula of FORMULAS) {
    const before = seededSource(1);
    const roller = new SeededRoller(1);
    const beforeRate = await measure(() => Promise.resolve(evaluateFormula(parseFormula(formula), before)));
    const asyncRate = await measure(() => roller.roll(formula));
    const syncRate = await measure(() => roller.rollSync(formula).total);
    const totalRate = await measure(() => roller.rollTotal(formula));
    rows.push([
      formula,
      grouped(beforeRate),
      grouped(asyncRate),
      grouped(syncRate),
      grouped(totalRate),
      `${(totalRate / beforeRate).toFixed(1)}x`,
    ]);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(`Rolls per second (${MS} ms per measurement, node ${process.version})`);
  console.log(line(header));
  for (const r of rows) console.log(line(r));
}

await main();
