/**
 * Writes the Critical attack tables as compendium sources (CR-ATK-02, CR-ATK-03): one RollTable
 * per weapon class and armor type in `packs/_source/critical-attack-tables/`, each result a band
 * of totals with its entry (`20AS`) as its name, flagged `flags.fray.tableKey`
 * `critical.attack.<weaponClass>.<armorType>`. The core's tables
 * (`src/rules/critical/tables/attack-*.json`) are the source; run this after changing them:
 *
 *   npx tsx scripts/critical-tables.ts
 *
 * test/critical-tables-pack.test.ts checks that the written sources read back as the core's tables.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ARMOR_TYPES } from "../src/rules/critical/model.js";
import { DEFAULT_TABLES, attackColumnBands, type AttackTable } from "../src/rules/critical/index.js";
import { attackTableId, attackTableName } from "../src/foundry/rulesets/critical/tables.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "packs", "_source", "critical-attack-tables");

/** Lowest and highest total the open ends are written with (the lookup reads them as open). */
const LOWEST = 1;
const HIGHEST = 250;

/** The RollTable source of one weapon class against one armor type. */
function rollTable(table: AttackTable, armorType: string, sort: number): Record<string, unknown> {
  const id = attackTableId(table.weaponClass, armorType);
  const bands = attackColumnBands(table, armorType);
  return {
    _id: id,
    _key: `!tables!${id}`,
    name: attackTableName(table, armorType),
    img: "icons/svg/d20-grey.svg",
    description:
      `<p>Attack table of the ${table.name} (${table.category}) against ${armorType} armor: ` +
      "the attack total (open-ended d100 + OB - DB) picks the row; its entry gives the hits and any critical " +
      "(<code>20AS</code>: 20 hits and an A Slash critical). The lowest row reads every total below it, the " +
      "highest every total above it. Flag a world table with the same <code>flags.fray.tableKey</code> to replace it.</p>",
    formula: `1d${HIGHEST}`,
    replacement: true,
    displayRoll: true,
    folder: null,
    sort,
    ownership: { default: 0 },
    flags: { fray: { tableKey: `${table.key}.${armorType}`, weaponClass: table.weaponClass, armorType, version: 1 } },
    results: bands.map((b, i) => {
      const rid = `fRc4R${String(i).padStart(2, "0")}`.padEnd(16, "0");
      const lo = b.range[0] ?? LOWEST;
      const hi = b.range[1] ?? HIGHEST;
      return {
        _id: rid,
        _key: `!tables.results!${id}.${rid}`,
        type: "text",
        name: b.code.code,
        description: "",
        img: null,
        documentUuid: null,
        weight: hi - lo + 1,
        range: [lo, hi],
        drawn: false,
        flags: {},
      };
    }),
  };
}

mkdirSync(out, { recursive: true });
for (const f of readdirSync(out)) if (f.endsWith(".json")) rmSync(join(out, f));
let count = 0;
for (const table of Object.values(DEFAULT_TABLES.attack)) {
  for (const armorType of ARMOR_TYPES) {
    const doc = rollTable(table, armorType, (count + 1) * 1000);
    const file = `${String(doc.name).replace(/[^A-Za-z0-9]+/g, "_")}_${String(doc._id)}.json`;
    writeFileSync(join(out, file), `${JSON.stringify(doc, null, 2)}\n`);
    count++;
  }
}
console.log(`wrote ${count} attack tables to ${out}`);
