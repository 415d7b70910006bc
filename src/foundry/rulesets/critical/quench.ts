/**
 * Critical's Quench batch (`fray.critical.attack-flow`) for a GM to run in a real Critical world:
 * the same flow the bundle tests play in the stand-in, on throwaway actors: an attack read on the
 * sword table, the critical rolled, applied (hits, stun, wounds) and undone; then a world
 * RollTable flagged `critical.crit.P` replacing the built-in Puncture table on the card and in what
 * is applied (docs/foundry-assumptions.md C1, C2); then the compendium's Sword vs. No Armor attack
 * table copied into the world with one cell changed, replacing the built-in one on the card and
 * in what is applied (C3); and a draw from a compendium critical table of one severity, which
 * never gives its UM66 result (C4); and a parry written to the defender's `system.parry` counting in
 * the card's DB lines, then cleared with `-=` as the round's start does (C5); the attack dialog's
 * template rendering the chance of each outcome; a maneuver from the sheet posting its card with
 * its roll (CR-MAN-01). An attacker with a huge OB against a defender
 * without DB always lands an E critical, whatever the dice.
 */
import { CRITICAL_TABLE_SOURCES } from "../../../rules/critical/index.js";
import { critical } from "../../../rules/critical/index.js";
import { criticalCombatantFromActor } from "../../../rules/critical/model.js";
import type { Localizer } from "../../attack-card.js";
import { dialogContext, dialogDefaults, type AttackDialogData } from "../../chat/attack-dialog.js";
import { FLOW_TEMPLATES } from "../../chat/templates.js";
import { actorSource } from "../../documents/source.js";
import { criticalDialogDetails } from "./dialog.js";
import { maneuverFrom } from "./maneuver.js";
import { clearParryOn, parryUpdate } from "./parry.js";
import { tableLink } from "./tables.js";
import { rollAttack } from "../../attack.js";
import { applyHere, rollDamageFor, undoHere } from "../../chat/actions.js";
import { attackSystem, type AttackMessageLike } from "../../chat/attack-message.js";
import type { Quench } from "../../quench.js";

type Raw = Record<string, unknown>;

/** A Critical combatant's actor data: a swordsman of OB 300 (never fumbling) or a defender without DB. */
function actorData(name: string, attacker: boolean) {
  return {
    name,
    type: "npc",
    system: {
      ruleset: "critical",
      quickness: 0,
      selfDiscipline: 0,
      physique: { ranks: 20, total: 400 },
      defense: 0,
      baseMove: 10,
      skills: attacker ? { blades: 300 } : {},
      hits: { value: 400, max: 400 },
    },
    items: attacker
      ? [
          {
            name: "Quench Sword",
            type: "weapon",
            system: { ruleset: "critical", weaponClass: "sword", category: "melee", skill: "blades", bonus: 0, fumble: 0 },
          },
        ]
      : [],
  };
}

interface Vitals {
  parry: Record<string, number>;
  hits: { value: number };
  stun: number;
  effects: { id: string }[];
}

/** Registers the batch; the binding's `registerQuench`. */
export function registerCriticalQuench(quench: Quench): void {
  quench.registerBatch(
    "fray.critical.attack-flow",
    (context) => {
      const { describe, it, before, after, assert } = context;
      describe("Critical attack card: table, critical, apply, undo, a world table", () => {
        const made: { delete(): Promise<unknown> }[] = [];
        let attacker: Actor.Implementation;
        let defender: Actor.Implementation & { system: Vitals };
        const attack = async (): Promise<AttackMessageLike> => {
          const weapon = attacker.items.find((i) => i.type === "weapon")!;
          const target = { actor: defender, center: { x: 0, y: 0 }, document: { uuid: "" }, name: defender.name, id: "quench-target" };
          const outcome = await rollAttack({ actor: attacker, weaponId: weapon.id ?? "", target: target as never, skipDialog: true });
          assert.ok(outcome?.message, "card posted");
          made.push(outcome!.message as never);
          return outcome!.message as unknown as AttackMessageLike;
        };
        before(async () => {
          attacker = (await Actor.implementation.create(actorData("Quench Swordsman", true) as never)) as Actor.Implementation;
          defender = (await Actor.implementation.create(actorData("Quench Target", false) as never)) as never;
          made.push(attacker as never, defender as never);
        });
        after(async () => {
          for (const doc of made.reverse()) await doc.delete().catch(() => undefined);
        });

        it("CR-ATK-02, CR-CRT-02, CR-HIT-01: the card reads an E Puncture critical; applying takes hits and undo gives back hits, stun and wounds", async () => {
          const message = await attack();
          const t = attackSystem(message).targets[0]!;
          assert.equal((t.result as unknown as { detail: { code: { severity?: string; type?: string } } }).detail.code.severity, "E");
          assert.equal(t.result.critical, "EP");
          await rollDamageFor(message, 0);
          assert.ok(attackSystem(message).targets[0]!.damage, "critical rolled");
          const before = structuredClone(defender.system);
          await applyHere(message, 0, game.user?.id ?? "");
          assert.ok(defender.system.hits.value < before.hits.value, "hits taken");
          await undoHere(message, 0);
          assert.equal(defender.system.hits.value, before.hits.value);
          assert.equal(defender.system.stun, before.stun);
          assert.equal(defender.system.effects.length, before.effects.length);
        });

        // The whole-type key of earlier releases (critical.crit.P): still read.
        it("C1, C2, CR-CRT-01: a world RollTable flagged critical.crit.P replaces the built-in Puncture table (card text, applied stun)", async () => {
          const source = structuredClone(CRITICAL_TABLE_SOURCES.P) as Raw & { results: Raw[] };
          for (const r of source.results) {
            r.description = "Quench world table";
            (r.flags as { fray: Raw }).fray.effects = [{ type: "stun", rounds: 2 }];
            delete r._id;
            delete r._key;
          }
          delete source._id;
          delete source._key;
          const table = (await RollTable.implementation.create({ ...source, name: "Quench Puncture Criticals" } as never)) as unknown as {
            uuid: string;
            delete(): Promise<unknown>;
            getFlag(scope: string, key: string): unknown;
          };
          made.push(table);
          assert.equal(table.getFlag("fray", "tableKey"), "critical.crit.P", "C1: the world table's flag reads back");
          const message = await attack();
          await rollDamageFor(message, 0);
          const content = (message as unknown as { content: string }).content;
          assert.ok(content.includes("Quench world table"), "the card shows the world table's wound text");
          assert.ok(content.includes(table.uuid), "C2: the card links the world table");
          const stun = defender.system.stun;
          await applyHere(message, 0, game.user?.id ?? "");
          assert.equal(defender.system.stun, stun + 2);
          await undoHere(message, 0);
          assert.equal(defender.system.stun, stun);
        });

        it("C3, CR-ATK-02, CR-ATK-03: a world copy of the compendium's Sword vs. No Armor table with its top cell changed replaces it (card code and link, applied hits)", async () => {
          const link = tableLink("critical.attack.sword.none");
          assert.ok(link, "the built-in attack table has a compendium link");
          const pack = (await foundry.utils.fromUuid(link!.uuid as never)) as unknown as { toObject(): Raw & { results: Raw[] } } | null;
          assert.ok(pack, "C3: the compendium attack table loads by the card's link");
          const source = pack!.toObject();
          const top = source.results.reduce((a, b) => ((a.range as number[])[0]! > (b.range as number[])[0]! ? a : b));
          assert.equal(top.name, "27EP", "C3: the result's name holds the cell");
          top.name = "5";
          for (const r of source.results) delete r._id;
          delete source._id;
          const table = (await RollTable.implementation.create({ ...source, name: "Quench Sword vs. No Armor" } as never)) as unknown as {
            uuid: string;
            delete(): Promise<unknown>;
          };
          made.push(table);
          const message = await attack();
          const t = attackSystem(message).targets[0]!;
          assert.equal((t.result as unknown as { detail: { code: { code: string } } }).detail.code.code, "5");
          assert.ok(!t.result.critical, "no critical from the changed cell");
          const content = (message as unknown as { content: string }).content;
          assert.ok(content.includes(table.uuid), "the card links the world attack table");
          const hits = defender.system.hits.value;
          await rollDamageFor(message, 0);
          await applyHere(message, 0, game.user?.id ?? "");
          assert.equal(defender.system.hits.value, hits - 5, "the GM's replay reads the world table");
          await undoHere(message, 0);
          assert.equal(defender.system.hits.value, hits);
        });

        it("C5, CR-PAR-01, CR-PAR-02: a parry written to system.parry counts in the DB line at 1:1 against a sword; the round's start removes it with -=", async () => {
          const foe = attacker.id ?? "";
          await defender.update({ "system.skills.brawling": 40 } as never);
          await defender.update(parryUpdate({}, { [foe]: 40 }) as never);
          assert.equal(defender.system.parry[foe], 40, "C5: the parry entry is written");
          const message = await attack();
          const lines = attackSystem(message).targets[0]!.result.plan.difficulty.modifiers;
          assert.ok(
            lines.some((l) => l.label === "FRAY.Mod.Parry" && l.value === 40),
            "the DB lines hold the parry",
          );
          await clearParryOn(defender);
          assert.equal(Object.keys(defender.system.parry).length, 0, "C5: `system.parry.-=<foe>` removed the entry");
          await defender.update({ "system.skills.-=brawling": null } as never);
        });

        it("CR-ATK-02: the attack dialog's template renders the chance of each outcome, summing to 100 %", async () => {
          const core = (a: Actor.Implementation) => criticalCombatantFromActor(actorSource(a as never), { id: a.id ?? "" });
          const weapon = attacker.items.find((i) => i.type === "weapon")!;
          const data: AttackDialogData = {
            ruleset: critical as never,
            options: critical.defaults(),
            attacker: core(attacker),
            weapon: { id: weapon.id ?? "", name: weapon.name, modes: [] },
            targets: [{ id: defender.id ?? "", name: defender.name, combatant: core(defender) }],
            details: criticalDialogDetails,
          };
          const html = await foundry.applications.handlebars.renderTemplate(
            FLOW_TEMPLATES.attackDialog,
            dialogContext(data, dialogDefaults(data), game.i18n as unknown as Localizer),
          );
          const chances = [
            ...html.matchAll(/fray-detail-chance"><span class="fray-label">[^<]*<\/span> <span class="fray-value">([\d.,]+)/g),
          ];
          assert.equal(chances.length, 8, "miss, hits only, A to E, fumble");
          // OB 300 against no DB: always an E critical.
          assert.ok(/100[.,]0/.test(html), "the E critical at 100 %");
        });

        it("CR-MAN-01: a maneuver from the sheet posts its card with its roll; 300 + the roll completes it", async () => {
          const answer = { skill: "blades", difficulty: "0", concentration: false };
          const flag = await maneuverFrom(attacker, undefined, async () => answer);
          assert.ok(flag, "the maneuver was rolled");
          assert.equal(flag!.outcome, "success");
          const message = game.messages?.contents.at(-1) as unknown as { rolls: unknown[]; getFlag(s: string, k: string): unknown };
          made.push(message as never);
          assert.equal(message.rolls.length, 1, "the open-ended d100 is a Foundry roll on the card");
          assert.ok(message.getFlag("fray", "maneuver"), "the card holds the maneuver");
        });

        it("C4, CR-CRT-02, CR-CRT-03: the compendium's Slash C table loads with its UM66 result at 0-0, and drawing it gives one result of 1-100, never UM66", async () => {
          const link = tableLink("critical.crit.S.C");
          const table = (await foundry.utils.fromUuid(link!.uuid as never)) as unknown as {
            results: Iterable<{ range: [number, number]; getFlag(scope: string, key: string): unknown }>;
            roll(): Promise<{
              roll: { total: number };
              results: { range: [number, number]; getFlag(scope: string, key: string): unknown }[];
            }>;
          } | null;
          assert.ok(table, "C4: the compendium critical table loads by the card's link");
          const um = [...table!.results].filter((r) => r.getFlag("fray", "um66") === true);
          assert.equal(um.length, 1, "one UM66 result");
          assert.equal(um[0]!.range.join("-"), "0-0", "C4: the UM66 result keeps its range outside the d100");
          for (let i = 0; i < 20; i++) {
            const { roll, results } = await table!.roll();
            assert.equal(results.length, 1, `one result for ${roll.total}`);
            assert.ok(results[0]!.range[0] >= 1 && results[0]!.range[1] <= 100, `a row of 1-100 for ${roll.total}`);
            assert.ok(results[0]!.getFlag("fray", "um66") !== true, "never UM66");
          }
        });
      });
    },
    { displayName: "Fray: Critical attack flow" },
  );
}
