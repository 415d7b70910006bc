/**
 * `npx tsx scripts/open-ended-table.ts`: writes src/rules/critical/open-ended.ts, the exact
 * distribution of Critical's open-ended d100 (`1d100x>95`, CR-ATK-01) as the dice core computes
 * it, stored as runs of neighbouring totals with the same chance. The first exact-odds call of an
 * attack then reads this table instead of building the distribution. test/rules/critical-odds.test.ts
 * checks that the table equals `distribution("1d100x>95")` value for value.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { distribution } from "../src/rules/core/dice/distribution.js";

const runs: [number, number, number][] = [];
let last: [number, number, number] | undefined;
for (const [total, p] of distribution("1d100x>95")) {
  if (last && total === last[0] + last[1] && p === last[2]) last[1]++;
  else runs.push((last = [total, 1, p]));
}
const lines = runs.map(([from, count, p]) => `  ${from}, ${count}, ${String(p)},`).join("\n");
const source = `/**
 * The exact distribution of Critical's open-ended d100, \`1d100x>95\` (CR-ATK-01): 96-100 roll
 * again and add, chains followed until their chance is below 1e-15, as the dice core's
 * \`distribution\` computes it. Stored as runs \`from, count, chance\`: the totals \`from\` to
 * \`from + count - 1\` each have that chance. Written by \`npx tsx scripts/open-ended-table.ts\`;
 * test/rules/critical-odds.test.ts checks it against \`distribution("1d100x>95")\` value for value.
 */
// prettier-ignore
export const OPEN_ENDED_D100_RUNS: readonly number[] = [
${lines}
];
`;
const out = join(fileURLToPath(new URL(".", import.meta.url)), "..", "src", "rules", "critical", "open-ended.ts");
writeFileSync(out, source);
console.log(`${runs.length} runs written to ${out}`);
