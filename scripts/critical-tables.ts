/**
 * Writes Critical's tables as compendium sources from the core's tables
 * (`src/rules/critical/tables/*.json`); run this after changing them:
 *
 * - the attack tables (CR-ATK-02, CR-ATK-03): one RollTable per weapon class and armor type in
 *   `packs/_source/critical-attack-tables/`, each result a band of totals with its entry
 *   (`20AS`) as its name, flagged `flags.fray.tableKey` `critical.attack.<weaponClass>.<armorType>`;
 * - the critical tables (CR-CRT-01 to CR-CRT-03): one RollTable per type and severity in
 *   `packs/_source/critical-tables/`, flagged `critical.crit.<type>.<severity>`, so a draw gives
 *   one result; the UM66 result lies at 0-0, outside the d100, where a draw never picks it.
 *
 *
 *   npx tsx scripts/critical-tables.ts
 *
 * test/rules/critical-attack-tables.test.ts checks that the written sources read back as the core's tables.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ARMOR_TYPES, CRIT_TYPES, SEVERITIES, type CritType, type Severity } from "../src/rules/critical/model.js";
import { CRITICAL_TABLE_SOURCES, DEFAULT_TABLES, attackColumnBands, type AttackTable } from "../src/rules/critical/index.js";
import { attackTableId, attackTableName, criticalTableId } from "../src/foundry/rulesets/critical/tables.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "packs", "_source", "critical-attack-tables");
const critOut = join(root, "packs", "_source", "critical-tables");

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
      // Unique across the pack: class, armor and band.
      const rid = `fRc4${table.weaponClass.slice(0, 3)}${armorType.slice(0, 3)}R${String(i).padStart(2, "0")}`.padEnd(16, "0");
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

type Raw = Record<string, unknown>;

/** Where the compendium puts the UM66 result: outside the d100, so a draw never picks it (CR-CRT-03). */
const UM66_RANGE = [0, 0];

/** The RollTable source of one critical type's severity, from the core's table of that type. */
function criticalTable(type: CritType, severity: Severity, sort: number): Raw {
  const raw = CRITICAL_TABLE_SOURCES[type] as Raw & { name: string; description: string; img: string; results: Raw[] };
  const id = criticalTableId(type, severity);
  const what = raw.description.replace(/^<p>/, "").split(" Roll d100")[0];
  return {
    _id: id,
    _key: `!tables!${id}`,
    name: `${raw.name} ${severity}`,
    img: raw.img,
    description:
      `<p>${what} Severity ${severity}: roll d100, adding 1 per full 10 points the attack total was over 150 ` +
      "(a roll pushed past 100 reads the 96-100 row). The UM66 result applies only when the unmodified roll " +
      "is 66; it lies at 0, outside the d100, so a draw never picks it.</p>",
    formula: "1d100",
    replacement: true,
    displayRoll: true,
    folder: null,
    sort,
    ownership: { default: 0 },
    flags: { fray: { tableKey: `critical.crit.${type}.${severity}`, critType: type, severity, version: 2 } },
    results: raw.results
      .filter((r) => (r.flags as { fray: { severity: string } }).fray.severity === severity)
      .map((r) => {
        const um66 = (r.flags as { fray: { um66?: boolean } }).fray.um66 === true;
        return { ...r, _key: `!tables.results!${id}.${String(r._id)}`, ...(um66 ? { range: UM66_RANGE } : {}) };
      }),
  };
}

mkdirSync(critOut, { recursive: true });
for (const f of readdirSync(critOut)) if (f.endsWith(".json")) rmSync(join(critOut, f));
let crits = 0;
for (const type of CRIT_TYPES) {
  for (const severity of SEVERITIES) {
    const doc = criticalTable(type, severity, (crits + 1) * 1000);
    writeFileSync(
      join(critOut, `${String(doc.name).replace(/[^a-zA-Z0-9]/g, "_")}_${String(doc._id)}.json`),
      `${JSON.stringify(doc, null, 2)}\n`,
    );
    crits++;
  }
}
console.log(`wrote ${crits} critical tables to ${critOut}`);

mkdirSync(out, { recursive: true });
for (const f of readdirSync(out)) if (f.endsWith(".json")) rmSync(join(out, f));
let count = 0;
for (const table of Object.values(DEFAULT_TABLES.attack)) {
  for (const armorType of ARMOR_TYPES) {
    const doc = rollTable(table, armorType, (count + 1) * 1000);
    const file = `${String(doc.name).replace(/[^a-zA-Z0-9]/g, "_")}_${String(doc._id)}.json`;
    writeFileSync(join(out, file), `${JSON.stringify(doc, null, 2)}\n`);
    count++;
  }
}
console.log(`wrote ${count} attack tables to ${out}`);
