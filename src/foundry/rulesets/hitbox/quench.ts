/**
 * Hitbox's Quench batch (`fray.hitbox.attack-flow`), for a GM to run in a real Hitbox world: the
 * card flow of the seed's example with real dice on two throwaway actors: a called shot at the
 * head that always meets its difficulty (a GM modifier of +20), no reaction, the damage rolled and
 * applied through the active GM, the Blackout test the hit calls for, and undo giving everything
 * back; then the resolution step (HB-ACT-01) in a throwaway Combat: damage applied in the open
 * step is held, and the GM's End step commits it; a declaration with quick actions whispered to the
 * GMs, unsealed at the reveal, and a pre-empting mark that gives it a step of its own (HB-ACT-01,
 * HB-ACT-03). Outside a Hitbox world the batch says so and checks nothing else.
 */
import { applyHere, declineReaction, forcedHere, rollDamageFor, undoHere } from "../../chat/actions.js";
import { attackSystem, type AttackMessageLike } from "../../chat/attack-message.js";
import { rollAttack } from "../../attack.js";
import { apiStartEffect } from "../../play/api.js";
import { isActiveGM } from "../../queries.js";
import { activeBinding } from "../../registry.js";
import { armorTracks } from "../../../rules/hitbox/damage.js";
import type { HitboxCombatant } from "../../../rules/hitbox/model.js";
import type { Quench } from "../../quench.js";
import { activeRuleset } from "../../settings.js";
import { declareFor, revealDeclarations } from "../../combat/tracker.js";
import type { CombatantLike } from "../../combat/economy-store.js";
import { opposedFromTracker } from "./opposed.js";
import { planView, togglePreempt, type PlanCombat } from "./plan.js";
import { commitHeld, endStep, STEP_FLAG, type StepCombat } from "./step.js";

/** A Hitbox combatant's create data with one pistol. */
function actorData(name: string, type: "character" | "npc") {
  return {
    name,
    type,
    system: {
      ruleset: "hitbox",
      abilities: { strength: 2, dexterity: 3, fortitude: 2 },
      skills: { firearms: 1, dodge: 1, blackout: 1 },
      held: ["Quench Pistol"],
    },
    items: [
      {
        name: "Quench Pistol",
        type: "weapon",
        system: { ruleset: "hitbox", kind: "ranged", ability: "dexterity", skill: "firearms", damage: 1, maxShots: 2, rangeFeet: 75 },
      },
    ],
  };
}

type Hitboxes = Record<string, { value: number; max: number }>;

/** Registers the Hitbox batch on Quench. */
export function registerHitboxQuench(quench: Quench): void {
  quench.registerBatch(
    "fray.hitbox.attack-flow",
    (context) => {
      const { describe, it, before, after, assert } = context;
      describe("Hitbox attack card: called shot, damage, Blackout, undo (HB-ATK-01 to HB-DMG-04)", () => {
        const made: { delete(): Promise<unknown> }[] = [];
        let attacker: Actor.Implementation;
        let defender: Actor.Implementation & { system: { hitboxes: Hitboxes } };
        let message: AttackMessageLike;
        const hitbox = () => activeRuleset() === "hitbox";
        before(async () => {
          if (!hitbox()) return;
          attacker = (await Actor.implementation.create(actorData("Quench Zeven", "character") as never)) as Actor.Implementation;
          defender = (await Actor.implementation.create(actorData("Quench Guard", "npc") as never)) as never;
          made.push(attacker as never, defender as never);
        });
        after(async () => {
          for (const doc of made) await doc.delete();
        });
        it("HB-ATK-01, HB-ATK-02, HB-MOD-03: the card holds the 2d6 test with the called-shot modifier", async () => {
          if (!hitbox()) return assert.ok(true, "not a Hitbox world: nothing to check");
          const weapon = attacker.items.find((i) => i.type === "weapon")!;
          const target = { actor: defender, center: { x: 0, y: 0 }, document: { uuid: "" }, name: defender.name, id: "quench-guard" };
          const outcome = await rollAttack({
            actor: attacker,
            weaponId: weapon.id ?? "",
            target: target as never,
            situation: { calledShot: "head", misc: 20 },
          });
          assert.ok(outcome?.message, "message created");
          message = outcome!.message as unknown as AttackMessageLike;
          const t = attackSystem(message).targets[0]!;
          assert.equal(t.result.check.roll.dice.length > 0, true, "2d6 rolled");
          assert.ok(
            t.result.check.modifiers.some((m) => m.rule === "HB-MOD-03" && m.value === -2),
            "called shot -2",
          );
          assert.equal(t.result.hit, true, "+20 always meets 9");
          assert.ok(["head", "torso"].includes(t.result.location?.id ?? ""), "the head, or the torso on a miss of it (HB-LOC-02)");
        });
        it("H1 (HB-ACT-02): a new scene in a Hitbox world gets 5 ft squares", async () => {
          if (!hitbox()) return assert.ok(true, "not a Hitbox world: nothing to check");
          const scene = (await Scene.implementation.create({ name: "Quench Hitbox scene" } as never)) as unknown as {
            grid: { distance: number; units: string };
            delete(): Promise<unknown>;
          };
          made.push(scene);
          assert.equal(scene.grid.units, "ft", "feet");
          assert.equal(scene.grid.distance, 5, "5 ft squares");
        });
        it("HB-DMG-01, HB-DMG-04: apply, Blackout, undo through the active GM", async () => {
          if (!hitbox() || !isActiveGM()) return assert.ok(true, "not the active GM of a Hitbox world");
          await declineReaction(message, 0);
          await rollDamageFor(message, 0);
          const location = attackSystem(message).targets[0]!.result.location!.id;
          const before = defender.system.hitboxes[location]!.value;
          assert.ok(await applyHere(message, 0, game.user?.id ?? ""), "applied");
          assert.equal(defender.system.hitboxes[location]!.value, before - 1, "one point in the hitbox hit");
          const t = attackSystem(message).targets[0]!;
          assert.equal(t.report?.forced?.[0]?.id, "blackout", "a vital hitbox calls for the Blackout test");
          assert.ok(await forcedHere(message, 0), "Blackout rolled");
          const test = attackSystem(message).targets[0]!.forced![0]!;
          assert.equal(defender.statuses.has("shock"), !test.success, "shock exactly when the test failed");
          assert.ok(await undoHere(message, 0, game.user?.id ?? ""), "undone");
          assert.equal(defender.system.hitboxes[location]!.value, before, "the point is back");
          assert.equal(defender.statuses.has("shock"), false, "no shock after undo");
        });
        it("H2 (HB-ACT-01): in an open step Apply is held, and End step commits it", async () => {
          if (!hitbox() || !isActiveGM()) return assert.ok(true, "not the active GM of a Hitbox world");
          const combat = (await Combat.implementation.create({ active: true, scene: null } as never)) as unknown as StepCombat & {
            id: string;
            createEmbeddedDocuments(type: string, rows: unknown[]): Promise<unknown>;
            startCombat(): Promise<unknown>;
            delete(): Promise<unknown>;
          };
          made.push(combat);
          await combat.createEmbeddedDocuments("Combatant", [{ actorId: attacker.id }, { actorId: defender.id }]);
          await combat.startCombat();
          assert.equal(game.combat?.id, combat.id, "the new combat is the active one");
          await combat.setFlag?.("fray", "phase", { round: combat.round, phase: "resolve" });
          const weapon = attacker.items.find((i) => i.type === "weapon")!;
          const target = { actor: defender, center: { x: 0, y: 0 }, document: { uuid: "" }, name: defender.name, id: "quench-guard" };
          const outcome = await rollAttack({
            actor: attacker,
            weaponId: weapon.id ?? "",
            target: target as never,
            situation: { misc: 20 },
          });
          const held = outcome!.message as unknown as AttackMessageLike;
          await declineReaction(held, 0);
          await rollDamageFor(held, 0);
          const location = attackSystem(held).targets[0]!.result.location!.id;
          const before = defender.system.hitboxes[location]!.value;
          assert.ok(await applyHere(held, 0, game.user?.id ?? ""), "held");
          assert.equal(defender.system.hitboxes[location]!.value, before, "nothing applied while the step is open");
          assert.equal((combat.getFlag?.("fray", STEP_FLAG) as { held: unknown[] }).held.length, 1, "listed on the Combat");
          assert.equal(await endStep(combat, commitHeld), 1, "one application committed");
          assert.equal(defender.system.hitboxes[location]!.value, Math.max(0, before - 1), "applied when the step ended");
          assert.ok(attackSystem(held).targets[0]!.applied, "the card shows it applied");
          await undoHere(held, 0, game.user?.id ?? "");
        });
        it("H3 (HB-ACT-01, HB-ACT-03): a declaration is whispered to the GMs, unsealed at the reveal, and a pre-empt mark makes its own step", async () => {
          if (!hitbox() || !isActiveGM()) return assert.ok(true, "not the active GM of a Hitbox world");
          const combat = (await Combat.implementation.create({ active: true, scene: null } as never)) as unknown as PlanCombat & {
            id: string;
            combatants: { contents: (CombatantLike & { name: string })[] };
            createEmbeddedDocuments(type: string, rows: unknown[]): Promise<unknown>;
            startCombat(): Promise<unknown>;
            delete(): Promise<unknown>;
          };
          made.push(combat);
          await combat.createEmbeddedDocuments("Combatant", [{ actorId: attacker.id }, { actorId: defender.id }]);
          await combat.startCombat();
          const [first, second] = combat.combatants.contents;
          const ask = async () => ({ text: "Quench shot", action: "attack", quick: ["draw", "prone"] });
          assert.ok(await declareFor(combat as never, first!, ask), "declared");
          const mark = first!.getFlag("fray", "declaration") as { text: string; sealed?: string };
          assert.equal(mark.text, "", "the Combatant holds no content before the reveal");
          const whisper = game.messages?.get(mark.sealed ?? "") as unknown as {
            whisper: string[];
            author: { id: string };
            delete(): Promise<unknown>;
          };
          assert.ok(whisper, "the whisper exists");
          made.push(whisper);
          const gms = (game.users?.contents ?? []).filter((u) => u.isGM).map((u) => u.id);
          assert.equal(JSON.stringify([...whisper.whisper].sort()), JSON.stringify([...gms].sort()), "whispered to the GMs only");
          assert.equal(whisper.author.id, game.user?.id, "authored by the declarer");
          assert.ok(await revealDeclarations(combat as never), "revealed");
          assert.equal(
            JSON.stringify(first!.getFlag("fray", "declaration")),
            JSON.stringify({ round: combat.round, text: "Quench shot", action: "attack", quick: ["draw", "prone"] }),
            "unsealed onto the Combatant",
          );
          assert.ok(await togglePreempt(combat, second!.id ?? ""), "marked as pre-empting");
          const plan = planView(combat, true)!;
          assert.equal(
            JSON.stringify(plan.steps.map((s) => [s.preempts, s.combatants.map((c) => c.id)])),
            JSON.stringify([
              [true, [second!.id]],
              [false, [first!.id]],
            ]),
            "the pre-empting action first, the rest after",
          );
        });
        it("HB-RND-02: a one-turn effect started in play acts on the next turn and is gone the turn after", async () => {
          if (!hitbox() || !isActiveGM()) return assert.ok(true, "not the active GM of a Hitbox world");
          const combat = (await Combat.implementation.create({ active: true, scene: null } as never)) as unknown as {
            round: number;
            createEmbeddedDocuments(type: string, rows: unknown[]): Promise<unknown>;
            startCombat(): Promise<unknown>;
            nextRound(): Promise<unknown>;
            delete(): Promise<unknown>;
          };
          made.push(combat);
          await combat.createEmbeddedDocuments("Combatant", [{ actorId: attacker.id }]);
          await combat.startCombat();
          const started = await apiStartEffect(attacker, { name: "Quench stim", statuses: ["medicated"], rounds: 1 }, combat);
          assert.equal(started, true, "started");
          const stim = () => attacker.effects.find((e) => e.name === "Quench stim");
          assert.equal(stim()?.disabled, true, "not acting on the turn it was taken");
          const settle = () => new Promise((r) => setTimeout(r, 300));
          await combat.nextRound();
          await settle();
          assert.equal(stim()?.disabled, false, "acting on the next turn");
          assert.ok(attacker.statuses.has("medicated"), "its status is on the actor");
          await combat.nextRound();
          await settle();
          assert.equal(stim(), undefined, "gone the turn after");
        });
        it("H4 (HB-DMG-01): the compendium's helmet dropped on a sheet is created on the actor and fills the head's armor", async () => {
          if (!hitbox()) return assert.ok(true, "not a Hitbox world: nothing to check");
          const pack = game.packs?.get("fray.hitbox-armor") as unknown as
            { getDocuments(): Promise<{ name: string; uuid: string }[]> } | undefined;
          const helmet = (await pack?.getDocuments())?.find((d) => d.name === "Tactical Helmet");
          assert.ok(helmet, "the compendium holds the helmet");
          const sheet = attacker.sheet as unknown as { _onDropItem(event: unknown, item: unknown): Promise<unknown> };
          await sheet._onDropItem(new DragEvent("drop"), helmet);
          const worn = attacker.items.find((i) => i.name === "Tactical Helmet");
          assert.ok(worn, "created on the actor");
          const core = activeBinding().combatantFromActor({ ...attacker.toObject(), statuses: [] } as never) as HitboxCombatant;
          assert.equal(armorTracks(core).head?.max, 1, "one point of armor on the head");
          await worn!.delete();
        });
        it("HB-ACT-05: the tracker's opposed test posts the card for the two combatants picked", async () => {
          if (!hitbox()) return assert.ok(true, "not a Hitbox world: nothing to check");
          const combat = (await Combat.implementation.create({ active: true, scene: null } as never)) as unknown as {
            combatants: Iterable<unknown> & { contents: { id: string }[] };
            createEmbeddedDocuments(type: string, rows: unknown[]): Promise<unknown>;
            delete(): Promise<unknown>;
          };
          made.push(combat);
          await combat.createEmbeddedDocuments("Combatant", [{ actorId: attacker.id }, { actorId: defender.id }]);
          const [a, b] = combat.combatants.contents;
          const before = game.messages?.size ?? 0;
          const result = await opposedFromTracker(combat, async () => ({ a: a!.id, skillA: "firearms", b: b!.id, skillB: "dodge" }));
          assert.ok(result && ["a", "b"].includes(result.winner), "a winner");
          assert.equal(game.messages?.size, before + 1, "one card posted");
        });
      });
    },
    { displayName: "Fray: Hitbox attack card and step" },
  );
}
