/**
 * The chance that a Critical attack drops its target (`../core/drop.ts`): out means unconscious
 * (a knock-out or a failed Self Discipline test), blacked out, down (dying) or dead (`isOut`,
 * RULES.md). Hits at 0 or below are not out by themselves: they force the Self Discipline test.
 */
import { afterForced, DropTally, totalOutcome, type DropOdds } from "../core/drop.js";
import type { AttackPlan } from "../core/ruleset.js";
import type { RuleId } from "../core/types.js";
import { attackTableOf, odds, readAttack, rollChances, weaponOf, type CriticalAttackInput } from "./attack.js";
import { applyDamage, criticalPacket, criticalTableOf, hitsPacket, isOut, type CriticalDamagePacket } from "./damage.js";
import { vitals, withVitals } from "./model.js";
import type { CriticalOptions } from "./options.js";
import { criticalForcedCheckSync } from "./play.js";
import type { AttackCode, CriticalEntry } from "./tables.js";
import { tableSet } from "./tables/index.js";

/** The rules {@link dropOdds} follows. */
const RULES: RuleId[] = [
  "CR-ATK-01",
  "CR-ATK-02",
  "CR-ATK-04",
  "CR-PAR-02",
  "CR-CRT-02",
  "CR-CRT-03",
  "CR-HIT-01",
  "CR-HIT-02",
  "CR-BLD-01",
  "CR-STN-03",
  "CR-DTH-01",
];

/** The top of the attack roll's distribution left out: its totals' chances together stay below this. */
const TAIL_CUT = 1e-9;

/** The faces of the critical's d100 (CR-CRT-02). */
const CRITICAL_FACES = 100;

/**
 * Exact chance that a planned Critical attack leaves its target out, and the hits it is expected
 * to cost (CR-ATK-01, CR-ATK-02, CR-ATK-04, CR-PAR-02, CR-CRT-02, CR-CRT-03, CR-HIT-01,
 * CR-HIT-02, CR-BLD-01, CR-STN-03, CR-DTH-01). The attack lands with the chance of {@link odds}
 * (the declared parry is already in the plan's DB). Every total of the open-ended d100 is read as
 * the attack step reads it (`readAttack`: fumble, the weapon's table row in the defender's armor
 * column, the critical bonus over 150); each critical is then read for each of the 100 faces of
 * its d100 (`criticalPacket`: severity, type, bonus, the UM66 row), every packet is applied by
 * `applyDamage` (hits, bleeding, stun and blackout, knock-out, dying, death), and the Self
 * Discipline test it forces is played for each of its 100 faces through the ruleset's own check.
 *
 * A total of the open-ended roll stands for its rolls as `odds` reads it: a total up to 95 is its
 * unmodified roll, a higher one began with 96-100, above any fumble range. The roll's highest
 * totals, whose chances together are below 1e-9, are left out (the stored distribution already
 * stops chains below 1e-15): `out` and the expected hits may fall short by that much; `lands` is
 * {@link odds}' own.
 * @throws FrayError as {@link odds}, `weaponOf`, `attackTableOf`, `criticalTableOf`,
 *   `lookupAttack` and `lookupCritical`.
 */
export function dropOdds(plan: AttackPlan, input: CriticalAttackInput, options: CriticalOptions): DropOdds {
  const lands = odds(plan, input, options).hit;
  const target = input.target;
  const before = vitals(target);
  const tally = DropTally.withMiss(before, lands, isOut(before), RULES);
  if (lands === 0) return tally.result();
  const weapon = weaponOf(input);
  const table = attackTableOf(weapon, tableSet(input.tables));
  const { totals, chance } = rollChances(plan.dice);
  let top = totals.length;
  for (let tail = 0; top > 0 && tail + chance[top - 1]! < TAIL_CUT;) tail += chance[--top]!;
  // The attacks that land, by the table code and critical bonus they read (the packet's inputs).
  const reads = new Map<AttackCode, Map<number, { hits: number; p: number }>>();
  for (let k = 0; k < top; k++) {
    const result = readAttack(plan, input, options, totalOutcome(plan.dice, totals[k]!), weapon, table);
    if (!result.lands) continue;
    const code = result.detail.code!;
    let byBonus = reads.get(code);
    if (!byBonus) reads.set(code, (byBonus = new Map()));
    const bonus = code.severity && code.type ? result.detail.critBonus : 0;
    const known = byBonus.get(bonus);
    if (known) known.p += chance[k]!;
    else byBonus.set(bonus, { hits: result.hits ?? 0, p: chance[k]! });
  }
  // Every packet with its chance; criticals of the same hits and entry leave the same state.
  const packets = new Map<number, Map<CriticalEntry | undefined, { packet: CriticalDamagePacket; p: number }>>();
  const add = (packet: CriticalDamagePacket, p: number) => {
    let byEntry = packets.get(packet.attackHits);
    if (!byEntry) packets.set(packet.attackHits, (byEntry = new Map()));
    const entry = packet.critical?.entry;
    const known = byEntry.get(entry);
    if (known) known.p += p;
    else byEntry.set(entry, { packet, p });
  };
  for (const [code, byBonus] of reads) {
    for (const [bonus, { hits, p }] of byBonus) {
      if (!code.severity || !code.type) {
        add(hitsPacket(hits), p);
        continue;
      }
      const critTable = criticalTableOf(code.type, input);
      for (let face = 1; face <= CRITICAL_FACES; face++)
        add(criticalPacket(hits, code.type, code.severity, critTable, bonus, totalOutcome("1d100", face)), p / CRITICAL_FACES);
    }
  }
  for (const byEntry of packets.values()) {
    for (const { packet, p } of byEntry.values()) {
      const report = applyDamage(target, packet);
      const hit = withVitals(target, report.after);
      for (const s of afterForced(hit, report.forced, criticalForcedCheckSync, withVitals)) {
        const state = vitals(s.value);
        tally.add(p * s.p, state, isOut(state));
      }
    }
  }
  return tally.result();
}
