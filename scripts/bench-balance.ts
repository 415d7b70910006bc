/**
 * The balance search's section of `npm run bench` (`--only balance`): issue 34's goal "a
 * 5-against-5 search finishes in under 10 s on this machine", timed on each
 * `examples/<id>-skirmish.yaml` (UD10, Hitbox, Critical, Zones; five against five each, the first
 * combatant's side as the players, base seed the file's) searching a 70% chance for the players,
 * by opponent count and by a factor on the opponents' stats, in process as `npm run forecast --
 * FILE --balance 0.7 [--by scale]` plays it (one thread; wall and processor time, fights played).
 * Prints numbers; asserts nothing.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { ContentIndex } from "../src/encounter/content.js";
import { parseEncounter } from "../src/encounter/schema.js";
import { balance, BALANCE_MODES } from "../src/forecast/balance.js";

const ROOT = join(fileURLToPath(new URL(".", import.meta.url)), "..");
/** Issue 34: a 5-against-5 search in under 10 s. */
const GOAL_SECONDS = 10;
const TARGET = 0.7;

/** Times the search of each skirmish (or of `only`), by count and by stats. */
export async function balanceBench(only?: string): Promise<void> {
  console.log(`\nBalance search, five against five, players' chance ${TARGET * 100}% (goal under ${GOAL_SECONDS} s; one thread)`);
  const content = new ContentIndex(join(ROOT, "packs", "_source"));
  for (const id of ["ud10", "hitbox", "critical", "zones"].filter((x) => !only || x === only)) {
    const raw = parseYaml(readFileSync(join(ROOT, "examples", `${id}-skirmish.yaml`), "utf8")) as unknown;
    for (const mode of BALANCE_MODES) {
      const spec = parseEncounter(raw);
      const started = performance.now();
      const cpu = process.cpuUsage();
      const result = await balance(spec, content, { target: TARGET, mode });
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      const found = mode === "count" ? result.best.counts!.join("/") : `x${result.best.factor}`;
      console.log(
        `  ${`${id} by ${mode}`.padEnd(20)} ${seconds.toFixed(2).padStart(6)} s (processor ${((used.user + used.system) / 1e6).toFixed(2)} s), ` +
          `${result.fights} fights; found ${found}: ${(result.best.wins.p * 100).toFixed(1)}%  ${seconds < GOAL_SECONDS ? "met" : `missed (${(seconds / GOAL_SECONDS).toFixed(1)}x the goal)`}`,
      );
    }
  }
}
