/**
 * Critical's Quench batch (`fray.critical.attack-flow`) for a GM to run in a real Critical world:
 * the same flow the bundle tests play in the stand-in, on throwaway actors: an attack read on the
 * sword table, the critical rolled, applied (hits, stun, wounds) and undone; then a world
 * RollTable flagged `critical.crit.P` replacing the built-in Puncture table on the card and in what
 * is applied (docs/foundry-assumptions.md C1, C2); then the compendium's Sword vs. No Armor attack
 * table copied into the world with one cell changed, replacing the built-in one on the card and
 * in what is applied (C3); and a draw from a compendium critical table of one severity, which
 * never gives its UM66 result (C4); and a parry written to the defender's `system.parry` counting
 * in the card's DB lines, then cleared with `-=` as the round's start does (C5); the attack
 * dialog's template rendering the chance of each outcome; a maneuver from the sheet posting its
 * card with its roll (CR-MAN-01). An attacker with a huge OB against a defender without DB always
 * lands an E critical, whatever the dice. Then the round: initiative kept over rounds, a delay
 * stored on a Combatant re-sorting the turns, 4 AP (R1 to R4); an upkeep undone; a held and a
 * reverted move (M1 to M3). Then treatments through the GM in a real combat on the viewed scene: a
 * bandage to an adjacent ally's wound and first aid to a dying one, each paid from the treater's
 * AP (T1, T2); and the Self Discipline prompt after an attack takes the hits below 0, rolled from
 * its message (D1, D2).
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
import { runUpkeep, undoUpkeep, type UpkeepMessage } from "./upkeep.js";
import { firstAid, treatOther } from "./treat-other.js";
import { rollSelfDiscipline } from "./self-discipline.js";

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

      describe("Critical round: initiative once, delaying, AP (R1 to R4)", () => {
        const made: { delete(): Promise<unknown> }[] = [];
        after(async () => {
          for (const doc of made.reverse()) await doc.delete().catch(() => undefined);
        });

        it("R1 to R4, CR-INI-01, CR-INI-03, CR-AP-01: initiative kept over rounds; a stored delay re-sorts the turns, the turn index staying; 4 AP", async () => {
          const a = (await Actor.implementation.create(actorData("Quench Fast", true) as never)) as Actor.Implementation;
          const b = (await Actor.implementation.create(actorData("Quench Slow", false) as never)) as Actor.Implementation;
          made.push(a as never, b as never);
          type QuenchCombatant = {
            id: string;
            actorId: string;
            initiative: number | null;
            setFlag(s: string, k: string, v: unknown): Promise<unknown>;
          };
          const combat = (await Combat.implementation.create({ active: true, scene: null } as never)) as unknown as {
            round: number;
            turn: number | null;
            turns: QuenchCombatant[];
            combatant: QuenchCombatant | null;
            combatants: Iterable<QuenchCombatant>;
            createEmbeddedDocuments(type: string, rows: unknown[]): Promise<unknown>;
            updateEmbeddedDocuments(type: string, rows: unknown[]): Promise<unknown>;
            startCombat(): Promise<unknown>;
            nextRound(): Promise<unknown>;
            delete(): Promise<unknown>;
          };
          made.push(combat);
          await combat.createEmbeddedDocuments("Combatant", [{ actorId: a.id }, { actorId: b.id }]);
          const of = (actor: Actor.Implementation) => [...combat.combatants].find((c) => c.actorId === actor.id)!;
          // Fixed initiatives: the fast one 90, the slow one 10 (what a roll would write).
          await combat.updateEmbeddedDocuments("Combatant", [
            { _id: of(a).id, initiative: 90 },
            { _id: of(b).id, initiative: 10 },
          ]);
          await combat.startCombat();
          const ap = (c: QuenchCombatant) =>
            (
              (c as unknown as { getFlag(s: string, k: string): unknown }).getFlag("fray", "economy") as {
                pools?: { ap?: { value: number } };
              }
            )?.pools?.ap?.value;
          assert.equal(ap(of(a)), 4, "CR-AP-01: 4 AP at the start");
          assert.equal(combat.turns[0]?.id, of(a).id, "the higher initiative acts first");
          assert.equal(combat.turn, 0);
          // R1, R2: the owner's flag write re-sorts the turns through _sortCombatants; R3: the turn index stays.
          await of(a).setFlag("fray", "delay", { round: combat.round, after: of(b).id });
          assert.equal(combat.turns[0]?.id, of(b).id, "R1, R2, CR-INI-03: the delay puts the fast one after the slow one");
          // The active GM's hook moves the turn back to its index if Foundry kept it on the delayer.
          for (let i = 0; i < 40 && combat.combatant?.id !== of(b).id; i++) await new Promise((r) => setTimeout(r, 50));
          assert.equal(combat.combatant?.id, of(b).id, "R3: the turn passes to the slow one, now at the delayer's place");
          // R4: a new round keeps initiative (CR-INI-01) and forgets the delay.
          await combat.nextRound();
          assert.equal(of(a).initiative, 90, "R4, CR-INI-01: initiative kept in round 2");
          assert.equal(combat.turns[0]?.id, of(a).id, "the delay held for its round only");
          assert.equal(ap(of(a)), 4, "CR-AP-01: 4 AP again");
        });
      });

      describe("Critical upkeep undo", () => {
        it("CR-BLD-01, CR-STN-02: a round's upkeep bleeds and counts stun down; undoing its summary gives both back, a later change staying; twice does nothing", async () => {
          const a = (await Actor.implementation.create({
            ...actorData("Quench Bleeder", false),
            system: {
              ...actorData("Quench Bleeder", false).system,
              stun: 2,
              effects: [
                { id: "bleed-q", kind: "bleed", rule: "CR-BLD-01", label: "FRAY.Critical.Effect.bleed", value: 5, location: "chest" },
              ],
            },
          } as never)) as Actor.Implementation & { system: Vitals };
          try {
            const combat = { id: "quenchUpkeep", round: 2, combatants: [{ actor: a }] };
            await runUpkeep(combat);
            assert.equal(a.system.hits.value, 395, "bled 5");
            assert.equal(a.system.stun, 1, "one stun round passed");
            await a.update({ "system.hits.value": 390 } as never);
            const summary = game.messages?.contents.at(-1) as unknown as UpkeepMessage;
            await undoUpkeep(summary);
            assert.equal(a.system.hits.value, 395, "the 5 bleeding hits back, the later 5 kept");
            assert.equal(a.system.stun, 2, "the stun round back");
            await undoUpkeep(summary);
            assert.equal(a.system.hits.value, 395, "undo twice does nothing");
            await (summary as unknown as { delete(): Promise<unknown> }).delete();
          } finally {
            await a.delete();
          }
        });
      });

      describe("Critical movement: held and reverted moves (M1 to M3, V1)", () => {
        it("M1 to M3, V1, CR-MOV-01: preMoveToken returning false holds a move; a GM's update of x, y fires moveToken with origin, destination, the GM (isGM) and the update's options", async () => {
          const scene = canvas?.scene as unknown as {
            createEmbeddedDocuments(
              type: string,
              rows: unknown[],
            ): Promise<
              { x: number; y: number; id: string; update(c: unknown, o?: unknown): Promise<unknown>; delete(): Promise<unknown> }[]
            >;
          } | null;
          assert.ok(scene, "view a scene to run this test");
          const a = (await Actor.implementation.create(actorData("Quench Mover", false) as never)) as Actor.Implementation;
          const [token] = await scene!.createEmbeddedDocuments("Token", [{ name: "Quench Mover", actorId: a.id, x: 0, y: 0 }]);
          const size = (canvas?.grid as { size?: number } | undefined)?.size ?? 100;
          const seen: { origin?: { x: number }; destination?: { x: number }; revert?: unknown; user?: string; isGM?: unknown }[] = [];
          const on = Hooks.on.bind(Hooks) as unknown as (name: string, fn: (...args: never[]) => unknown) => number;
          const off = Hooks.off.bind(Hooks) as unknown as (name: string, id: number) => void;
          const moved = on("moveToken", ((
            doc: { id: string },
            movement: { origin: { x: number }; destination: { x: number } },
            operation: { fray?: { revert?: unknown } },
            user: { id: string; isGM?: unknown },
          ) => {
            if (doc.id === token!.id)
              seen.push({
                origin: movement.origin,
                destination: movement.destination,
                revert: operation?.fray?.revert,
                user: user?.id,
                isGM: user?.isGM,
              });
          }) as never);
          const hold = on("preMoveToken", ((doc: { id: string }) =>
            doc.id === token!.id && seen.length === 0 ? false : undefined) as never);
          try {
            await token!.update({ x: size }).catch(() => undefined);
            assert.equal(token!.x, 0, "M1: a preMoveToken handler returning false holds the move");
            off("preMoveToken", hold);
            await token!.update({ x: size }, { fray: { revert: true } });
            for (let i = 0; i < 20 && !seen.length; i++) await new Promise((r) => setTimeout(r, 50));
            assert.equal(seen.length, 1, "M2: moveToken fired once");
            assert.equal(seen[0]!.origin?.x, 0, "M2: origin");
            assert.equal(seen[0]!.destination?.x, size, "M2: destination");
            assert.equal(seen[0]!.user, game.user?.id, "M2: the user who moved");
            assert.equal(seen[0]!.revert, true, "M3: the update's options reach moveToken as its operation");
            assert.equal(seen[0]!.isGM, true, "V1: moveToken's user is the User who moved, isGM true for a GM");
          } finally {
            off("moveToken", moved);
            off("preMoveToken", hold);
            await token!.delete().catch(() => undefined);
            await a.delete();
          }
        });
      });

      describe("Critical treatments through the GM (T1, T2)", () => {
        type Doc = { id: string; delete(): Promise<unknown> };
        type QuenchActor = Actor.Implementation & {
          system: Omit<Vitals, "effects"> & { effects: { id: string; kind: string; value?: number }[] };
        };
        const made: Doc[] = [];
        let medic: QuenchActor;
        let patient: QuenchActor;
        let combat: Doc & {
          combatants: Iterable<{ actorId: string; getFlag(s: string, k: string): unknown }>;
          createEmbeddedDocuments(type: string, rows: unknown[]): Promise<unknown>;
          startCombat(): Promise<unknown>;
          nextRound(): Promise<unknown>;
        };
        const apOfMedic = () =>
          (
            [...combat.combatants].find((c) => c.actorId === medic.id)?.getFlag("fray", "economy") as
              { pools?: { ap?: { value: number } } } | undefined
          )?.pools?.ap?.value;
        before(async () => {
          const scene = canvas?.scene as unknown as {
            id: string;
            createEmbeddedDocuments(type: string, rows: unknown[]): Promise<Doc[]>;
          } | null;
          assert.ok(scene, "view a scene to run this test");
          const size = (canvas?.grid as { size?: number } | undefined)?.size ?? 100;
          const linked = { prototypeToken: { actorLink: true } };
          medic = (await Actor.implementation.create({
            ...actorData("Quench Medic", false),
            ...linked,
            system: { ...actorData("Quench Medic", false).system, skills: { firstAid: 300 } },
          } as never)) as QuenchActor;
          patient = (await Actor.implementation.create({
            ...actorData("Quench Patient", false),
            ...linked,
            system: {
              ...actorData("Quench Patient", false).system,
              effects: [
                { id: "bleed-t", kind: "bleed", rule: "CR-BLD-01", label: "FRAY.Critical.Effect.bleed", value: 3, location: "chest" },
              ],
            },
          } as never)) as QuenchActor;
          made.push(medic as never, patient as never);
          // Side by side: one grid space apart (T1).
          const tokens = await scene!.createEmbeddedDocuments("Token", [
            { name: "Quench Medic", actorId: medic.id, actorLink: true, x: 0, y: 0 },
            { name: "Quench Patient", actorId: patient.id, actorLink: true, x: size, y: 0 },
          ]);
          made.push(...tokens);
          combat = (await Combat.implementation.create({ scene: scene!.id, active: true } as never)) as never;
          made.push(combat);
          await combat.createEmbeddedDocuments(
            "Combatant",
            tokens.map((t, i) => ({ tokenId: t.id, sceneId: scene!.id, actorId: [medic, patient][i]!.id, initiative: 50 - i })),
          );
          await combat.startCombat();
        });
        after(async () => {
          for (const doc of made.reverse()) await doc.delete().catch(() => undefined);
        });

        it("T1, CR-BLD-02, CR-AP-01: a bandage to an adjacent ally's 3-a-round bleeding goes through the GM: the wound stops, the medic's 2 AP are spent", async () => {
          assert.equal(apOfMedic(), 4, "CR-AP-01: 4 AP at the start");
          assert.equal(await treatOther({ treater: medic, patient, effectId: "bleed-t", method: "bandage" }), true);
          const bleeding = patient.system.effects.filter((e) => e.kind === "bleed" && (e.value ?? 0) > 0);
          assert.equal(bleeding.length, 0, "CR-BLD-02: a bandage stops up to 5 a round");
          assert.equal(apOfMedic(), 2, "CR-AP-01: the bandage's 2 AP come from the medic's combatant");
        });

        it("T2, CR-DTH-01, CR-MAN-01: first aid to a dying ally, rolled on the GM's client, stops the count to death and spends the medic's 4 AP", async () => {
          await combat.nextRound();
          // Let the new round's upkeep and economy writes settle before counting messages.
          for (let i = 0; i < 20 && apOfMedic() !== 4; i++) await new Promise((r) => setTimeout(r, 50));
          await new Promise((r) => setTimeout(r, 300));
          assert.equal(apOfMedic(), 4, "a new round's 4 AP");
          await patient.update({
            "system.effects": [
              ...patient.system.effects,
              { id: "dying-t", kind: "dying", rule: "CR-DTH-01", label: "FRAY.Critical.Effect.dying", rounds: 3 },
            ],
          } as never);
          const count = game.messages?.contents.length ?? 0;
          assert.equal(await firstAid({ treater: medic, patient }), true);
          assert.equal(
            patient.system.effects.some((e) => e.kind === "dying"),
            false,
            "CR-DTH-01: first aid of 300 + d100 always reaches 100 %: saved",
          );
          assert.equal(apOfMedic(), 0, "CR-AP-01: first aid costs 4 AP");
          const card = game.messages?.contents.at(-1) as unknown as { content: string; rolls: unknown[]; delete(): Promise<unknown> };
          assert.equal(game.messages?.contents.length, count + 1, "one chat message");
          assert.ok(card.content.includes("CR-DTH-01"), "the message names the rule");
          assert.equal(card.rolls.length, 1, "with the maneuver's roll");
          await card.delete();
        });
      });

      describe("Critical Self Discipline at 0 hits (D1, D2)", () => {
        it("D1, D2, CR-HIT-01, CR-HIT-02: an applied critical below 0 hits posts the prompt; rolling it writes the result once", async () => {
          const made: { delete(): Promise<unknown> }[] = [];
          try {
            const attacker = (await Actor.implementation.create(actorData("Quench Swordsman", true) as never)) as Actor.Implementation;
            const defender = (await Actor.implementation.create({
              ...actorData("Quench Victim", false),
              system: { ...actorData("Quench Victim", false).system, hits: { value: 1, max: 400 } },
            } as never)) as Actor.Implementation & { system: Vitals; statuses: Set<string> };
            made.push(attacker as never, defender as never);
            const weapon = attacker.items.find((i) => i.type === "weapon")!;
            const target = { actor: defender, center: { x: 0, y: 0 }, document: { uuid: "" }, name: defender.name, id: "quench-sd" };
            const outcome = await rollAttack({ actor: attacker, weaponId: weapon.id ?? "", target: target as never, skipDialog: true });
            const message = outcome!.message as unknown as AttackMessageLike;
            made.push(message as never);
            await rollDamageFor(message, 0);
            await applyHere(message, 0, game.user?.id ?? "");
            assert.ok(defender.system.hits.value < 0, "below 0 hits");
            type SdMessage = { flags: { fray?: { selfDiscipline?: { actorUuid: string; result?: { total: number; success: boolean } } } } };
            const sd = () =>
              (game.messages?.contents ?? []).filter(
                (m) => (m as unknown as SdMessage).flags.fray?.selfDiscipline?.actorUuid === defender.uuid,
              ) as unknown as (SdMessage & { delete(): Promise<unknown> })[];
            for (let i = 0; i < 20 && !sd().length; i++) await new Promise((r) => setTimeout(r, 50));
            assert.equal(sd().length, 1, "D1, CR-HIT-02: fray.applyDamage on the GM posted one prompt with its flag");
            made.push(sd()[0]!);
            await rollSelfDiscipline(sd()[0] as never);
            const results = sd().filter((m) => m.flags.fray?.selfDiscipline?.result);
            assert.equal(results.length, 1, "D2: the result is posted, its flag read back");
            made.push(results[0]!);
            const result = results[0]!.flags.fray!.selfDiscipline!.result!;
            assert.equal(result.success, result.total >= 101, "CR-HIT-02: 101 or more stays conscious");
            assert.equal(defender.statuses.has("unconscious"), !result.success, "D2: a failure toggles the unconscious status");
            await rollSelfDiscipline(sd()[0] as never);
            assert.equal(sd().filter((m) => m.flags.fray?.selfDiscipline?.result).length, 1, "the same prompt rolls once");
          } finally {
            for (const doc of made.reverse()) await doc.delete().catch(() => undefined);
          }
        });
      });
    },
    { displayName: "Fray: Critical attack flow" },
  );
}
