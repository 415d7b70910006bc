/**
 * A Quench batch (`@ethaks/fvtt-quench`, a runtime module) for a GM to run in a real world:
 * attack -> reaction -> damage -> apply -> undo on two throwaway actors. Registered only in
 * development builds (`FRAY_QUENCH` define, set by `vite build --mode development`).
 */
import type { AttackMessageLike } from "./chat/attack-message.js";
import { attackSystem } from "./chat/attack-message.js";
import { applyHere, declineReaction, rollDamageFor, undoHere } from "./chat/actions.js";
import { rollAttack } from "./attack.js";

declare const __FRAY_QUENCH__: boolean | undefined;

/** The parts of Quench's batch context the batch uses (mocha's describe/it, chai's assert). */
interface QuenchContext {
  describe(name: string, fn: () => void): void;
  it(name: string, fn: () => Promise<void>): void;
  before(fn: () => Promise<void>): void;
  after(fn: () => Promise<void>): void;
  assert: {
    ok(value: unknown, message?: string): void;
    equal(actual: unknown, expected: unknown, message?: string): void;
  };
}

interface Quench {
  registerBatch(key: string, fn: (context: QuenchContext) => void, options?: { displayName?: string }): void;
}

/** True in development builds. */
export function quenchEnabled(): boolean {
  return typeof __FRAY_QUENCH__ !== "undefined" && Boolean(__FRAY_QUENCH__);
}

function combatantData(name: string, type: "character" | "npc") {
  return {
    name,
    type,
    system: {
      attributes: { STR: 4, DEX: 3, CON: 3 },
      skills: { initiative: { rating: 3, trained: true }, melee: { rating: 6, trained: true }, parry: { rating: 4, trained: true } },
      hp: { value: 20, max: 20 },
      ep: { value: 10, max: 10 },
    },
    items: [{ name: "Quench Sabre", type: "weapon", system: { kind: "melee", attackModifier: 10, damage: "5+1d10", canParry: true } }],
  };
}

/** Registers the batch on `quenchReady` in development builds. */
export function registerQuench(): void {
  if (!quenchEnabled()) return;
  Hooks.once("quenchReady" as never, ((quench: Quench) => {
    quench.registerBatch(
      "fray.ud10.attack-flow",
      (context) => {
        const { describe, it, before, after, assert } = context;
        describe("UD10 attack card: attack, reaction, damage, apply, undo", () => {
          const made: { delete(): Promise<unknown> }[] = [];
          let attacker: Actor.Implementation;
          let defender: Actor.Implementation & { system: { hp: { value: number }; ep: { value: number } } };
          let message: AttackMessageLike;
          before(async () => {
            attacker = (await Actor.implementation.create(combatantData("Quench Attacker", "character") as never)) as Actor.Implementation;
            defender = (await Actor.implementation.create(combatantData("Quench Defender", "npc") as never)) as never;
            made.push(attacker as never, defender as never);
          });
          after(async () => {
            for (const doc of made) await doc.delete();
          });
          it("UD-ATK-02: posts an attack card with one target state (AM +10 always hits)", async () => {
            const weapon = attacker.items.find((i) => i.type === "weapon")!;
            const target = { actor: defender, center: { x: 0, y: 0 }, document: { uuid: "" }, name: defender.name, id: "quench-target" };
            const outcome = await rollAttack({ actor: attacker, weaponId: weapon.id ?? "", target: target as never, skipDialog: true });
            assert.ok(outcome?.message, "message created");
            message = outcome!.message as unknown as AttackMessageLike;
            made.push(outcome!.message as never);
            assert.equal(attackSystem(message).targets.length, 1);
            assert.ok(attackSystem(message).targets[0]!.hit, "hit");
          });
          it("UD-REA-01: the defender declines to react", async () => {
            await declineReaction(message, 0);
            assert.ok(attackSystem(message).targets[0]!.reactionDeclined);
          });
          it("UD-DMG-01: damage is rolled once", async () => {
            await rollDamageFor(message, 0);
            assert.ok(attackSystem(message).targets[0]!.damage, "damage stored");
          });
          it("UD-DMG-02: applying lowers HP or EP and records it; a second apply is refused", async () => {
            const hp = defender.system.hp.value;
            const ep = defender.system.ep.value;
            await applyHere(message, 0, game.user?.id ?? "");
            const applied = attackSystem(message).targets[0]!.applied;
            assert.ok(applied, "record stored");
            assert.equal(applied!.before.hp.value, hp);
            assert.equal(applied!.before.ep.value, ep);
            let refused = false;
            try {
              await applyHere(message, 0, game.user?.id ?? "");
            } catch {
              refused = true;
            }
            assert.ok(refused, "second apply refused");
          });
          it("undo restores HP and EP exactly", async () => {
            const record = attackSystem(message).targets[0]!.applied!;
            await undoHere(message, 0);
            assert.equal(defender.system.hp.value, record.before.hp.value);
            assert.equal(defender.system.ep.value, record.before.ep.value);
          });
        });
      },
      { displayName: "Fray: UD10 attack flow" },
    );
  }) as never);
}
