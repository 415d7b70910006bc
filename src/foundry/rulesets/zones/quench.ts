/**
 * Zones' Quench batch (`fray.zones.attack-flow`), registered through the binding's
 * `registerQuench`, for a GM to run in a real world whose ruleset is Zones: the same card flow
 * the bundle test plays in the stand-in, on throwaway actors: a three-round burst whose rounds
 * leave the weapon item (ZN-BST-01), each bullet on the card; a knife between adjacent squares
 * (ZN-MEL-01) through no reaction, damage, apply (ZN-ZON-01, ZN-ZON-02) and undo, with the second
 * undo refused; effort committed to initiative added and paid (ZN-INI-02); a surprised actor
 * refused and freed at round 2 (ZN-SUR-01); and the v13 behaviour the grenades, movement actions,
 * reactions and hidden weapons rely on (Z1 to Z10 of docs/foundry-assumptions.md): the blast
 * template, its author and position, the movement actions, token centres; a thrown grenade kept on
 * the actor out of its weapons and given back with its id (Z6); a move's passed waypoints with
 * their movement actions (Z7); and, in a combat it creates, a reaction declared, triggered and
 * contested (ZN-REA-01, ZN-REA-02) with the turn order it lapses by (Z8) and Rolls kept on the
 * contest card (Z9), suppressing fire spending rounds (ZN-SUP-01) and a hidden pistol searched for
 * (ZN-HID-01) on a card whispered to the GMs (Z10).
 */
import { applyHere, declineReaction, rollDamageFor, undoDamageAction, undoHere } from "../../chat/actions.js";
import { attackSystem, type AttackMessageLike } from "../../chat/attack-message.js";
import { rollAttack } from "../../attack.js";
import type { Quench } from "../../quench.js";
import { toMetres } from "../../measure.js";
import { activeRuleset } from "../../registry.js";
import { tryCombatantOf } from "../../documents/actor.js";
import type { ZonesCombatant } from "../../../rules/zones/model.js";
import { placeBlastTemplate } from "./blast.js";
import { zonesInitiativeRefusal } from "./initiative.js";
import {
  contestReaction,
  declareReaction,
  reactionsOf,
  triggerReaction,
  type ReactionCombat,
  type ReactingCombatant,
} from "./reactions.js";
import { zonesStartRoundOn } from "./round.js";
import { gmBulletsPerAction, startSuppressing, suppressedAction, suppressionOf } from "./suppression.js";
import { searchForWeapons, toggleHidden } from "./hiding.js";

/** A Zones actor's create data: the seed's rifleman or a guard in a soft vest, with a carbine and a knife. */
function zonesActorData(name: string, type: "character" | "npc") {
  const weapon = (n: string, system: Record<string, unknown>) => ({ name: n, type: "weapon", system: { ruleset: "zones", ...system } });
  return {
    name,
    type,
    system: {
      ruleset: "zones",
      attributes: { STR: 0, DEX: 1, CON: 1, PER: 1 },
      skills: { firearms: 3, melee: 5, throwing: 1, dodge: 1, stealth: 1, notice: 2 },
      hp: { value: 26, max: 26 },
      speed: { value: 8, max: 8 },
      effort: { value: 2, max: 2 },
      stance: "standing",
    },
    items: [
      weapon("Quench Carbine", {
        kind: "firearm",
        effectiveRange: 300,
        damage: "2d6+2",
        damageTypes: ["piercing"],
        recoil: 2,
        burst: 3,
        magazine: 30,
        loaded: 30,
        drawn: true,
      }),
      weapon("Quench Knife", { kind: "melee", damage: "1d6+1", damageTypes: ["piercing", "slashing"], drawn: true }),
      { name: "Quench Vest", type: "armor", system: { ruleset: "zones", zones: { head: 0, torso: 4, arms: 0, legs: 0 }, equipped: true } },
    ],
  };
}

/** A deletable document. */
type Made = { delete(): Promise<unknown> };

/** A token as the workflow reads it, placed at a grid offset (in squares) on the viewed scene. */
function placed(actor: Actor.Implementation, squares: number, id: string) {
  const size = (canvas?.grid as { size?: number } | undefined)?.size ?? 100;
  return { actor, center: { x: squares * size + size / 2, y: size / 2 }, document: { uuid: "" }, name: actor.name, id };
}

/** Registers `fray.zones.attack-flow`. */
export function registerZonesQuench(quench: Quench): void {
  quench.registerBatch(
    "fray.zones.attack-flow",
    (context) => {
      const { describe, it, before, after, assert } = context;
      describe("Zones attack card: burst, knife, damage, apply, undo (a Zones world)", () => {
        const made: Made[] = [];
        let rifleman: Actor.Implementation;
        let guard: Actor.Implementation & { system: { hp: { value: number } } };
        let message: AttackMessageLike;
        before(async () => {
          rifleman = (await Actor.implementation.create(zonesActorData("Quench Rifleman", "character") as never)) as Actor.Implementation;
          guard = (await Actor.implementation.create(zonesActorData("Quench Guard", "npc") as never)) as never;
          made.push(rifleman as never, guard as never);
        });
        after(async () => {
          for (const doc of made.reverse()) await doc.delete().catch(() => undefined);
        });
        it("the world's ruleset is Zones", async () => {
          assert.equal(activeRuleset(), "zones", "run this batch in a world whose ruleset is Zones");
        });
        it("ZN-BST-01: a burst posts one row per bullet and spends three rounds from the weapon item", async () => {
          const carbine = rifleman.items.find((i) => i.name === "Quench Carbine")!;
          const outcome = await rollAttack({
            actor: rifleman,
            weaponId: carbine.id ?? "",
            modeId: "burst",
            token: placed(rifleman, 0, "quench-rifleman") as never,
            target: placed(guard, 10, "quench-guard") as never,
            skipDialog: true,
          });
          assert.ok(outcome?.message, "message created");
          made.push(outcome!.message as never);
          const t = attackSystem(outcome!.message as unknown as AttackMessageLike).targets[0]!;
          assert.equal(t.result.bullets?.difficulties?.length, 3, "three bullets, one difficulty each");
          assert.ok(String((outcome!.message as unknown as { content: string }).content).includes("fray-ruleset-rows"), "bullet rows");
          const loaded = (rifleman.items.get(carbine.id ?? "")!.system as unknown as { loaded: number }).loaded;
          assert.equal(loaded, 27, "three rounds left the magazine");
        });
        it("ZN-MEL-01: a knife between adjacent squares is within reach (Melee 5 + 1 against 5 always hits)", async () => {
          const knife = rifleman.items.find((i) => i.name === "Quench Knife")!;
          const outcome = await rollAttack({
            actor: rifleman,
            weaponId: knife.id ?? "",
            token: placed(rifleman, 0, "quench-rifleman") as never,
            target: placed(guard, 1, "quench-guard") as never,
            skipDialog: true,
          });
          assert.ok(outcome?.message, "message created");
          message = outcome!.message as unknown as AttackMessageLike;
          made.push(outcome!.message as never);
          assert.ok(attackSystem(message).targets[0]!.hit, "hit");
        });
        it("ZN-DMG-01, ZN-ZON-01, ZN-ZON-02: no reaction, damage rolled, applied through the zone's armor and multiplier", async () => {
          await declineReaction(message, 0);
          await rollDamageFor(message, 0);
          const hp = guard.system.hp.value;
          await applyHere(message, 0, game.user?.id ?? "");
          const applied = attackSystem(message).targets[0]!.applied!;
          assert.equal(applied.before.hp.value, hp);
          assert.equal(guard.system.hp.value, applied.after.hp.value);
          assert.ok(
            applied.steps.some((s) => s.rule === "ZN-ZON-01"),
            "the zone multiplier is a step",
          );
        });
        it("ZN-ZON-02: undo restores the hit points; a second undo through the active GM is refused", async () => {
          const record = attackSystem(message).targets[0]!.applied!;
          await undoHere(message, 0);
          assert.equal(guard.system.hp.value, record.before.hp.value);
          let refused = false;
          try {
            await undoDamageAction(message, 0);
          } catch {
            refused = true;
          }
          assert.ok(refused, "second undo refused");
        });
      });
      describe("Zones initiative: effort committed is added and paid (ZN-INI-01, ZN-INI-02)", () => {
        it("ZN-INI-02: a tracker roll with 1 effort point committed adds +1 and takes the point from the pool", async () => {
          const actor = (await Actor.implementation.create({
            name: "Quench Sprinter",
            type: "character",
            system: { ruleset: "zones", attributes: { DEX: 2 }, effort: { value: 2, max: 2 }, initiativeEffort: 1 },
          } as never)) as unknown as Actor.Implementation & { system: { effort: { value: number }; initiativeEffort: number } };
          const combat = (await Combat.implementation.create({ scene: null } as never)) as unknown as Combat.Implementation;
          try {
            const [combatant] = (await combat.createEmbeddedDocuments("Combatant", [{ actorId: actor.id } as never])) as unknown as {
              id: string;
            }[];
            await combat.rollInitiative([combatant!.id]);
            const initiative = (combat.combatants.get(combatant!.id) as unknown as { initiative: number }).initiative;
            assert.ok(initiative >= 1 + 2 + 1 && initiative <= 10 + 2 + 1, "d10 + DEX 2 + 1 effort");
            assert.equal(actor.system.effort.value, 1, "one effort point paid");
            assert.equal(actor.system.initiativeEffort, 0, "nothing committed any more");
          } finally {
            await (combat as unknown as Made).delete();
            await (actor as unknown as Made).delete();
          }
        });
      });
      describe("Zones surprise round (ZN-SUR-01)", () => {
        it("ZN-SUR-01: a surprised actor's attack and round 1 initiative are refused; the start of round 2 takes the status off", async () => {
          const ambusher = (await Actor.implementation.create(
            zonesActorData("Quench Ambusher", "character") as never,
          )) as Actor.Implementation;
          const victim = (await Actor.implementation.create(zonesActorData("Quench Victim", "npc") as never)) as Actor.Implementation & {
            toggleStatusEffect(id: string, o: { active: boolean }): Promise<unknown>;
            statuses: Set<string>;
          };
          try {
            await victim.toggleStatusEffect("surprised", { active: true });
            const knife = victim.items.find((i) => i.name === "Quench Knife")!;
            const outcome = await rollAttack({
              actor: victim,
              weaponId: knife.id ?? "",
              token: placed(victim, 0, "quench-victim") as never,
              target: placed(ambusher, 1, "quench-ambusher") as never,
              skipDialog: true,
            });
            assert.equal(outcome, undefined, "refused");
            assert.equal(zonesInitiativeRefusal(victim, 1), "FRAY.Zones.Surprise.NoInitiative", "no initiative in round 1");
            assert.equal(zonesInitiativeRefusal(victim, 2), undefined, "initiative from round 2");
            await zonesStartRoundOn(victim, 2, {});
            assert.equal(victim.statuses.has("surprised"), false, "the surprise is over");
          } finally {
            await (victim as unknown as Made).delete();
            await (ambusher as unknown as Made).delete();
          }
        });
      });
      describe("Zones grenades and movement: v13 assumptions Z1 to Z5 (docs/foundry-assumptions.md, a viewed scene)", () => {
        type TemplateLike = { uuid: string; t: string; x: number; y: number; distance: number; author?: { id?: string } | null };
        let template: TemplateLike | undefined;
        after(async () => {
          await (template as unknown as { delete?(): Promise<unknown> } | undefined)?.delete?.().catch(() => undefined);
        });
        it("Z1, Z4 (ZN-GRN-01): placeBlastTemplate makes a circle of the radius in scene units, centred, authored by this user", async () => {
          const uuid = await placeBlastTemplate({ x: 500, y: 500 }, 15, "Quench Grenade");
          assert.ok(uuid, "a scene is viewed");
          template = (await foundry.utils.fromUuid(uuid as never)) as unknown as TemplateLike;
          assert.equal(template.t, "circle");
          assert.equal(template.x, 500);
          assert.equal(template.y, 500);
          assert.ok(Math.abs(template.distance - 15 / toMetres(1, canvas?.grid?.units)) < 1e-9, "radius in scene units");
          assert.equal(template.author?.id, game.user?.id);
        });
        it("Z2 (ZN-GRN-01): fromUuidSync gives the template where it lies after a move", async () => {
          await (template as unknown as { update(d: Record<string, unknown>): Promise<unknown> }).update({ x: 650 });
          const now = foundry.utils.fromUuidSync(template!.uuid as never) as unknown as TemplateLike;
          assert.equal(now.x, 650);
        });
        it("Z11 (ZN-GRN-01): after a move the template's _stats.lastModifiedBy is the moving user's id", async () => {
          const now = foundry.utils.fromUuidSync(template!.uuid as never) as unknown as { _stats?: { lastModifiedBy?: string | null } };
          assert.equal(now._stats?.lastModifiedBy, game.user?.id);
        });
        it("Z3 (ZN-MOV-01): CONFIG.Token.movement.actions has Foundry's actions with cost functions; Zones adds run and running jump", async () => {
          const actions = (
            CONFIG.Token as unknown as {
              movement: { actions: Record<string, { getCostFunction?: unknown; canSelect?(t: unknown): boolean }> };
            }
          ).movement.actions;
          for (const id of ["walk", "crawl", "climb", "jump", "fly", "swim", "burrow", "blink", "run", "runningJump"])
            assert.ok(actions[id], `${id} is a movement action`);
          assert.equal(typeof actions.walk!.getCostFunction, "function");
          assert.equal(actions.fly!.canSelect?.({}), false);
        });
        it("Z12 (ZN-MOV-01): a token's movementAction takes Zones' run, registered in init before the tokens were prepared", async () => {
          const token = canvas?.tokens?.placeables[0] as unknown as
            { document: { movementAction?: string; update(d: Record<string, unknown>): Promise<unknown> } } | undefined;
          assert.ok(token, "a token is placed on the viewed scene");
          const before = token!.document.movementAction;
          try {
            await token!.document.update({ movementAction: "run" });
            assert.equal(token!.document.movementAction, "run");
          } finally {
            await token!.document.update({ movementAction: before ?? null });
          }
        });
        it("Z6 (ZN-GRN-01): a thrown grenade stays on the actor out of its weapons; deleted and created with keepId it keeps its id", async () => {
          const actor = (await Actor.implementation.create({
            name: "Quench Grenadier",
            type: "character",
            system: { ruleset: "zones" },
            items: [
              {
                name: "Quench Grenade",
                type: "weapon",
                system: { ruleset: "zones", kind: "grenade", effectiveRange: 30, damage: "2d6", effectiveRadius: 5, casualtyRadius: 15 },
              },
            ],
          } as never)) as unknown as Actor.Implementation;
          try {
            const item = actor.items.find((i) => i.name === "Quench Grenade")!;
            const id = item.id ?? "";
            await item.update({ "system.thrown": true } as never);
            assert.equal((actor.items.get(id)!.system as unknown as { thrown: boolean }).thrown, true, "the thrown mark is kept");
            const c = tryCombatantOf<ZonesCombatant>(actor as never);
            assert.ok(c && !c.weapons.some((w) => w.id === id), "a thrown grenade is not one of the weapons");
            const source = item.toObject() as unknown as Record<string, unknown>;
            await item.delete();
            assert.equal(actor.items.get(id), undefined);
            await actor.createEmbeddedDocuments("Item", [source as never], { keepId: true });
            assert.ok(actor.items.get(id), "the grenade is back with its id");
          } finally {
            await (actor as unknown as Made).delete();
          }
        });
        it("Z7 (ZN-RNG-04): moveToken reports the passed waypoints, each with its movement action", async () => {
          const token = canvas?.tokens?.placeables[0] as unknown as
            { document: { x: number; y: number; update(d: Record<string, unknown>): Promise<unknown> } } | undefined;
          if (!token) return;
          const size = canvas!.grid!.size;
          const { x, y } = token.document;
          const seen = new Promise<{ passed?: { waypoints?: { action?: unknown }[] } }>((resolve) => {
            Hooks.once(
              "moveToken" as never,
              ((_doc: unknown, movement: { passed?: { waypoints?: { action?: unknown }[] } }) => resolve(movement)) as never,
            );
          });
          await token.document.update({ x: x + size });
          const movement = await seen;
          await token.document.update({ x, y });
          const waypoints = movement.passed?.waypoints ?? [];
          assert.ok(waypoints.length > 0, "passed waypoints");
          assert.equal(typeof waypoints.at(-1)!.action, "string", "each waypoint has its movement action");
        });
        it("Z5 (ZN-GRN-01): a placed token's center is its top-left plus half its size in pixels", async () => {
          const token = canvas?.tokens?.placeables[0] as unknown as
            { center: { x: number; y: number }; document: { x: number; y: number; width: number; height: number } } | undefined;
          if (!token) return;
          const size = canvas!.grid!.size;
          assert.equal(token.center.x, token.document.x + (token.document.width * size) / 2);
          assert.equal(token.center.y, token.document.y + (token.document.height * size) / 2);
        });
      });
      describe("Zones reactions and suppressing fire; v13 assumptions Z8 and Z9 (docs/foundry-assumptions.md)", () => {
        const made: Made[] = [];
        let combat: ReactionCombat & Made;
        before(async () => {
          const a = (await Actor.implementation.create(zonesActorData("Quench Reactor", "character") as never)) as Actor.Implementation;
          const b = (await Actor.implementation.create(zonesActorData("Quench Actor", "npc") as never)) as Actor.Implementation;
          made.push(a as never, b as never);
          combat = (await Combat.implementation.create({ active: true } as never)) as unknown as ReactionCombat & Made;
          made.push(combat);
          await (combat as unknown as { createEmbeddedDocuments(t: string, d: unknown[]): Promise<unknown> }).createEmbeddedDocuments(
            "Combatant",
            [
              { actorId: a.id, name: "Quench Reactor" },
              { actorId: b.id, name: "Quench Actor" },
            ],
          );
          await (combat as unknown as { startCombat(): Promise<unknown> }).startCombat();
        });
        after(async () => {
          for (const doc of made.reverse()) await doc.delete().catch(() => undefined);
        });
        it("Z8 (ZN-REA-01): combat.turns is the turn order, combat.turn the current index, combat.combatant that combatant", async () => {
          assert.equal(combat.round, 1);
          assert.equal(combat.turns?.length, 2);
          assert.equal(combat.combatant?.id, combat.turns?.[combat.turn ?? 0]?.id);
        });
        it("ZN-REA-01, Z9, ZN-REA-02: a reaction is declared and paid, triggered onto a card, contested with Rolls kept on the card", async () => {
          const reactor = Array.from(combat.combatants as Iterable<ReactingCombatant>).find((c) => c.name === "Quench Reactor")!;
          const other = Array.from(combat.combatants as Iterable<ReactingCombatant>).find((c) => c.name === "Quench Actor")!;
          await combat.setFlag?.("fray", "phase", { round: 1, phase: "resolve" });
          const reaction = await declareReaction(combat, reactor, async () => ({ trigger: "Quench <b>trigger</b>", response: "shoot" }));
          assert.ok(reaction, "declared");
          assert.equal(reactionsOf(combat, reactor).length, 1);
          const card = (await triggerReaction(combat, reactor.id!, reaction!.id)) as unknown as {
            content: string;
            rolls: unknown[];
            delete(): Promise<unknown>;
          } & Parameters<typeof contestReaction>[0];
          made.push(card);
          assert.ok(card.content.includes("Quench &lt;b&gt;trigger&lt;/b&gt;"), "the trigger is escaped on the card");
          const result = await contestReaction(card, other.id!);
          assert.ok(result, "contested");
          const now = game.messages?.get(card.id ?? "") as unknown as { rolls: unknown[] };
          assert.equal(now.rolls.length, 2 * result!.rounds.length);
          assert.ok(
            now.rolls.every((r) => r instanceof Roll),
            "the card holds Foundry Rolls",
          );
        });
        it("ZN-SUP-01: suppressing fire started with the carbine; the GM's 3 bullets per action, kept on the Combat, leave the weapon item", async () => {
          const shooter = Array.from(combat.combatants as Iterable<ReactingCombatant>).find((c) => c.name === "Quench Actor")!;
          const actor = shooter.actor as unknown as Actor.Implementation;
          const item = actor.items.find((i) => i.name === "Quench Carbine")!;
          const started = await startSuppressing(actor, item.id!, undefined, async () => ({ lane: "Quench lane" }));
          assert.ok(started, "started");
          assert.equal(suppressionOf(shooter)?.bulletsPerAction, 0, "the shooter sets no bullets per action");
          await suppressedAction(combat as never, shooter.id!, async () => 3);
          assert.equal(
            gmBulletsPerAction(combat as never, shooter.id!, suppressionOf(shooter)!),
            3,
            "the GM's ruling is kept on the Combat",
          );
          assert.equal((actor.items.get(item.id!)!.system as unknown as { loaded: number }).loaded, 27);
          assert.equal(suppressionOf(shooter)?.actions, 1);
        });
        it("ZN-HID-01, Z10: a pistol hidden on the body; the GM's search card is whispered to the GMs with its Rolls", async () => {
          const reactor = Array.from(combat.combatants as Iterable<ReactingCombatant>).find((c) => c.name === "Quench Reactor")!;
          const searcher = Array.from(combat.combatants as Iterable<ReactingCombatant>).find((c) => c.name === "Quench Actor")!;
          const actor = reactor.actor as unknown as Actor.Implementation;
          const [pistol] = (await actor.createEmbeddedDocuments("Item", [
            {
              name: "Quench Pistol",
              type: "weapon",
              system: {
                ruleset: "zones",
                kind: "firearm",
                damage: "1d6+2",
                damageTypes: ["piercing"],
                concealable: true,
                carry: "holster",
              },
            } as never,
          ])) as unknown as { id: string }[];
          // Out of the combat's turn order: hiding outside the active combat costs nothing.
          await (combat as unknown as { update(d: Record<string, unknown>): Promise<unknown> }).update({ active: false });
          assert.equal(await toggleHidden(actor, pistol!.id), true);
          assert.equal((actor.items.get(pistol!.id)!.system as unknown as { carry: string }).carry, "hidden");
          const before = game.messages?.size ?? 0;
          const state = await searchForWeapons(actor, searcher.actor, "search");
          assert.equal(state?.rows.length, 1);
          const card = game.messages?.contents.at(-1) as unknown as { whisper: string[]; rolls: unknown[]; delete(): Promise<unknown> };
          made.push(card);
          assert.equal((game.messages?.size ?? 0) - before, 1);
          assert.ok(card.whisper.includes(game.user!.id!), "whispered to this GM");
          assert.equal(card.rolls.length, 2);
          assert.equal(await toggleHidden(actor, pistol!.id), false);
          assert.equal((actor.items.get(pistol!.id)!.system as unknown as { carry: string }).carry, "holster");
        });
      });
    },
    { displayName: "Fray: Zones attack flow" },
  );
}
