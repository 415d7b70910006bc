/**
 * Quench batches (`@ethaks/fvtt-quench`, a runtime module) for a GM to run in a real world:
 * attack -> reaction -> damage -> apply -> undo on two throwaway actors, and the v13 behaviour the
 * authority code relies on (docs/foundry-assumptions.md: who the server says made an update, the
 * active GM, ownership tests, a message's author, an identity-less query), and the wired play
 * services with the v13 behaviour they rely on (a hotbar macro made from a dropped weapon,
 * floating text over a token, effects enabled and expired on round changes, 3D dice for a Roll
 * added by an update when Dice So Nice is active). Registered in
 * development builds (`FRAY_QUENCH` define, set by `vite build --mode development`) and, in a
 * release build, when the GM turns on the world setting `quenchBatches`.
 */
import type { AttackMessageLike } from "./chat/attack-message.js";
import { attackSystem } from "./chat/attack-message.js";
import { applyHere, declineReaction, rollDamageFor, undoDamageAction, undoHere } from "./chat/actions.js";
import { rollAttack } from "./attack.js";
import { animateAddedRolls } from "./chat/dice-animation.js";
import { QUENCH_SETTING, SYSTEM_ID } from "./config.js";
import { floatingChanges, floatingText } from "./logic/floating.js";
import { formatHtml, windowTitle } from "./notify.js";
import { statusEffects } from "./conditions.js";
import { openEffectDialog } from "./play/effect-dialog.js";
import { startEffect, type CombatLike, type EffectHolder } from "./play/effects.js";
import { floatingOptions } from "./play/floating.js";
import { actorWeaponOf, weaponMacroCommand } from "./play/hotbar.js";
import { activeGM, isActiveGM } from "./queries.js";
import { activeBinding, registry } from "./registry.js";
import { registerForecastQuench } from "./forecast/quench.js";
import { registerTranslationsQuench } from "./i18n/quench.js";
import { registerRulesCompendiumQuench } from "./rules-compendium/quench.js";
import { nextHook, until } from "./quench-wait.js";

declare const __FRAY_QUENCH__: boolean | undefined;

/** The parts of Quench's batch context the batch uses (mocha's describe/it, chai's assert). */
export interface QuenchContext {
  describe(name: string, fn: () => void): void;
  /** A test; its function may call mocha's `this.skip()` when what it checks is absent. */
  it(name: string, fn: (this: { skip(): void }) => Promise<void>): void;
  before(fn: () => Promise<void>): void;
  after(fn: () => Promise<void>): void;
  assert: {
    ok(value: unknown, message?: string): void;
    equal(actual: unknown, expected: unknown, message?: string): void;
    notInclude(haystack: string, needle: string, message?: string): void;
    deepEqual(actual: unknown, expected: unknown, message?: string): void;
  };
}

export interface Quench {
  registerBatch(key: string, fn: (context: QuenchContext) => void, options?: { displayName?: string }): void;
}

/**
 * True when the batches are registered: in development builds always, in a release build when
 * the GM turned on the world setting `quenchBatches` (world settings are the GM's to change).
 */
export function quenchEnabled(): boolean {
  if (typeof __FRAY_QUENCH__ !== "undefined" && Boolean(__FRAY_QUENCH__)) return true;
  try {
    return Boolean(game.settings.get(SYSTEM_ID, QUENCH_SETTING));
  } catch {
    return false;
  }
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

/** A deletable document as the batches keep them for cleaning up. */
type Made = { delete(): Promise<unknown> };

/**
 * The wired play services in a real world and the v13 behaviour they rely on
 * (docs/foundry-assumptions.md S1 to S7, and U1 when Dice So Nice is active). Needs a GM and a
 * viewed scene (for the token the floating text is drawn over).
 */
function registerServicesBatch(quench: Quench): void {
  quench.registerBatch(
    "fray.services",
    (context) => {
      const { describe, it, after, assert } = context;
      describe("Hotbar macros, floating numbers and the effect service", () => {
        const made: Made[] = [];
        after(async () => {
          for (const doc of made.reverse()) await doc.delete().catch(() => undefined);
        });

        it("S1: a weapon dropped on the hotbar: the hotbarDrop hook returns false and Fray makes the macro in that slot", async () => {
          const actor = (await Actor.implementation.create(combatantData("Quench Hotbar", "character") as never)) as unknown as Made & {
            items: { find(fn: (i: { type: string }) => boolean): { uuid: string } | undefined };
          };
          made.push(actor);
          const weapon = actor.items.find((i) => i.type === "weapon")!;
          const user = game.user as unknown as {
            hotbar: Record<string, string | undefined>;
            assignHotbarMacro(m: unknown, slot: number): Promise<unknown>;
          };
          const slot = 50;
          const previous = user.hotbar[slot];
          const command = weaponMacroCommand(weapon.uuid);
          const macros = game.macros as unknown as { find(fn: (m: { command?: string }) => boolean): (Made & { id: string }) | undefined };
          try {
            const result = (Hooks.call as unknown as (name: string, ...args: unknown[]) => boolean)(
              "hotbarDrop",
              ui.hotbar,
              { type: "Item", uuid: weapon.uuid },
              slot,
            );
            assert.equal(result, false, "Hooks.call reports that a handler stopped the drop");
            assert.ok(await until(() => Boolean(macros.find((m) => m.command === command))), "the macro was created");
            const macro = macros.find((m) => m.command === command)!;
            made.push(macro);
            assert.ok(await until(() => user.hotbar[slot] === macro.id), "the macro sits in the slot");
          } finally {
            await user.assignHotbarMacro(
              previous ? ((game.macros as unknown as { get(id: string): unknown }).get(previous) ?? null) : null,
              slot,
            );
          }
        });

        it("S6: fromUuidSync gives an actor's weapon with its actor, and a compendium weapon as an entry without one", async () => {
          const actor = (await Actor.implementation.create(
            combatantData("Quench Hotbar Sync", "character") as never,
          )) as unknown as Made & {
            items: { find(fn: (i: { type: string }) => boolean): { uuid: string } | undefined };
          };
          made.push(actor);
          const owned = actor.items.find((i) => i.type === "weapon")!;
          assert.ok((foundry.utils.fromUuidSync(owned.uuid as never) as unknown as { actor?: unknown } | null)?.actor, "an actor's weapon");
          const pack = (game.packs as unknown as { find(fn: (p: { documentName: string }) => boolean): unknown }).find(
            (p) => p.documentName === "Item",
          ) as { index: Iterable<{ uuid: string; type?: string }> } | undefined;
          const entry = pack ? Array.from(pack.index).find((e) => e.type === "weapon") : undefined;
          assert.ok(entry, "a compendium of the system holds a weapon");
          const resolved = foundry.utils.fromUuidSync(entry!.uuid as never) as unknown as { actor?: unknown } | null;
          assert.ok(!resolved?.actor, "a compendium weapon resolves without an actor");
          assert.ok(actorWeaponOf(owned.uuid), "the hotbar makes a macro of the actor's weapon");
          assert.equal(actorWeaponOf(entry!.uuid), undefined, "and leaves the compendium weapon to Foundry");
        });

        it("S7: a new actor's prototype token shows the ruleset's bars, and its bars are what the token's configuration offers", async () => {
          const bars = activeBinding().tokenBars;
          const actor = (await Actor.implementation.create({ name: "Quench Bars", type: "character" } as never)) as unknown as Made & {
            prototypeToken: { bar1: { attribute: string | null }; bar2: { attribute: string | null } };
          };
          made.push(actor);
          assert.equal(actor.prototypeToken.bar1.attribute, bars.bar1);
          assert.equal(actor.prototypeToken.bar2.attribute, bars.bar2);
          const tracked = (
            CONFIG.Token.documentClass as unknown as { getTrackedAttributes(type: string): { bar: string[][]; value: string[][] } }
          ).getTrackedAttributes("character");
          const offered = tracked.bar.map((path) => path.join("."));
          for (const bar of bars.bars) assert.ok(offered.includes(bar), `${bar} is offered as a bar`);
        });

        it("S2, S4: update options reach the updateActor hook, and the change floats over the token with createScrollingText", async () => {
          const scene = canvas?.scene as unknown as
            { createEmbeddedDocuments(type: string, data: unknown[]): Promise<Made[]> } | null | undefined;
          assert.ok(scene, "a scene is viewed");
          const actor = (await Actor.implementation.create(combatantData("Quench Floating", "npc") as never)) as unknown as Made & {
            id: string;
            getActiveTokens(): unknown[];
            update(data: Record<string, unknown>, options: unknown): Promise<unknown>;
          };
          made.push(actor);
          const tokens = await scene!.createEmbeddedDocuments("Token", [{ actorId: actor.id, name: "Quench Floating", x: 0, y: 0 }]);
          made.push(...tokens);
          assert.ok(await until(() => actor.getActiveTokens().length > 0), "the token is drawn");
          const ui = (canvas as unknown as { interface: { createScrollingText(p: unknown, t: string, o: unknown): unknown } }).interface;
          const original = ui.createScrollingText;
          const drawn: string[] = [];
          ui.createScrollingText = function (this: unknown, point: unknown, text: string, options: unknown) {
            drawn.push(text);
            return original.call(ui, point, text, options);
          };
          const before = { hp: { value: 20, max: 20 }, ep: { value: 10, max: 10 }, conditions: [] };
          const after = { hp: { value: 17, max: 20 }, ep: { value: 10, max: 10 }, conditions: [] };
          try {
            const seen = nextHook("updateActor");
            await actor.update({ "system.hp.value": 17 }, floatingOptions(before, after));
            const args = await seen;
            assert.ok(args, "updateActor was called");
            const options = args![2] as { fray?: { vitals?: { after?: { hp?: { value?: number } } } } };
            assert.equal(options.fray?.vitals?.after?.hp?.value, 17, "the options carry the vitals");
            const expected = floatingChanges(before, after).map((c) => floatingText(c, (k) => game.i18n.localize(k)));
            assert.ok(await until(() => drawn.length > 0), "text was drawn");
            assert.equal(drawn[0], expected[0]);
          } finally {
            ui.createScrollingText = original;
          }
        });

        it("S3, S5: updateCombat carries changes.round and changes.turn; effects keep their duration fields, are enabled and expire on round changes", async () => {
          const a = (await Actor.implementation.create(combatantData("Quench Effect A", "npc") as never)) as unknown as Made &
            EffectHolder & { id: string };
          const b = (await Actor.implementation.create(combatantData("Quench Effect B", "npc") as never)) as unknown as Made & {
            id: string;
          };
          made.push(a, b);
          const combat = (await Combat.implementation.create({
            scene: canvas?.scene?.id ?? null,
            active: true,
          } as never)) as unknown as Made &
            CombatLike & {
              createEmbeddedDocuments(type: string, data: unknown[]): Promise<unknown>;
              startCombat(): Promise<unknown>;
              nextTurn(): Promise<unknown>;
              nextRound(): Promise<unknown>;
            };
          made.push(combat);
          await combat.createEmbeddedDocuments("Combatant", [{ actorId: a.id }, { actorId: b.id }]);
          await combat.startCombat();
          await startEffect(a, { name: "Quench Rally", rounds: 1 }, combat);
          await startEffect(a, { name: "Quench Delayed", rounds: 2, delayRounds: 1 }, combat);
          type Effect = {
            name: string;
            disabled: boolean;
            duration: { combat?: string | null; startRound?: number | null; rounds?: number | null };
          };
          const effects = () => Array.from(a.effects) as unknown as Effect[];
          const byName = (name: string) => effects().find((e) => e.name === name);
          const rally = byName("Quench Rally");
          assert.ok(rally, "the effect was created");
          assert.equal(rally!.duration.combat, combat.id, "duration.combat kept");
          assert.equal(rally!.duration.startRound, combat.round, "duration.startRound kept");
          assert.equal(rally!.duration.rounds, 1, "duration.rounds kept");
          assert.ok(byName("Quench Delayed")?.disabled, "a delayed effect starts disabled");

          const turned = nextHook("updateCombat");
          await combat.nextTurn();
          const turnArgs = await turned;
          assert.equal((turnArgs?.[1] as { turn?: number } | undefined)?.turn, 1, "changes.turn on a turn change");

          const rounded = nextHook("updateCombat");
          await combat.nextRound();
          const roundArgs = await rounded;
          assert.equal((roundArgs?.[1] as { round?: number } | undefined)?.round, 2, "changes.round on a round change");
          assert.ok(await until(() => byName("Quench Delayed")?.disabled === false), "the delayed effect is enabled on its round");
          assert.ok(await until(() => byName("Quench Rally") === undefined), "the one-round effect has expired");
        });

        it("U1: with Dice So Nice active, a Roll added to a message by an update is shown by game.dice3d.showForRoll, which resolves", async function () {
          const g = game as unknown as {
            modules: { get(id: string): { active?: boolean } | undefined };
            dice3d?: { showForRoll(...args: unknown[]): Promise<unknown> };
          };
          if (!g.modules.get("dice-so-nice")?.active || !g.dice3d) this.skip();
          const dice3d = g.dice3d!;
          const message = (await ChatMessage.implementation.create({ content: "Quench U1" } as never)) as unknown as Made & {
            id: string;
            update(c: Record<string, unknown>): Promise<unknown>;
          };
          made.push(message);
          const roll = await new Roll("2d6").evaluate();
          const json = JSON.stringify(roll);
          await message.update({ rolls: [json] });
          const original = dice3d.showForRoll;
          const calls: { args: unknown[]; shown: Promise<unknown> }[] = [];
          dice3d.showForRoll = function (this: unknown, ...args: unknown[]) {
            const shown = original.apply(this, args);
            calls.push({ args, shown });
            return shown;
          };
          try {
            animateAddedRolls(message as never, [json]);
          } finally {
            dice3d.showForRoll = original;
          }
          assert.equal(calls.length, 1, "one showForRoll for the one Roll added");
          assert.equal((calls[0]!.args[0] as { total?: number }).total, roll.total, "the Roll shown is the one added");
          assert.equal(calls[0]!.args[5], message.id, "with the message's id");
          // True once the dice were shown, false on a client whose user turned the 3D dice off.
          assert.equal(typeof (await calls[0]!.shown), "boolean", "showForRoll resolves once the animation is over");
        });

        it("E1: the effect dialog's form hands its named controls (status.<id> too) to the start button's callback; the effect is created with them", async () => {
          const actor = (await Actor.implementation.create(combatantData("Quench Effect Dialog", "npc") as never)) as unknown as Made &
            EffectHolder & { id: string };
          made.push(actor);
          const combat = (await Combat.implementation.create({
            scene: canvas?.scene?.id ?? null,
            active: true,
          } as never)) as unknown as Made & {
            createEmbeddedDocuments(type: string, data: unknown[]): Promise<unknown>;
            startCombat(): Promise<unknown>;
          };
          made.push(combat);
          await combat.createEmbeddedDocuments("Combatant", [{ actorId: actor.id }]);
          await combat.startCombat();
          const status = statusEffects()[0];
          const started = openEffectDialog(actor);
          // The dialog window carries the classes given (`fray-effect-dialog`); its controls and buttons are inside.
          const form = () => document.querySelector<HTMLElement>(".application.fray-effect-dialog");
          assert.ok(await until(() => Boolean(form())), "the dialog is shown");
          const root = form()!;
          const set = (name: string, value: string) => {
            const input = root.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${name}"]`);
            assert.ok(input, `a control named ${name}`);
            input!.value = value;
          };
          set("effectName", "Quench Dialog Effect");
          set("duration", "2");
          set("unit", "turns");
          set("delay", "0");
          if (status) root.querySelector<HTMLInputElement>(`[name="status.${status.id}"]`)!.checked = true;
          root.querySelector<HTMLButtonElement>('button[data-action="start"]')!.click();
          const start = await started;
          assert.ok(start, "the dialog answered");
          type Effect = { name: string; statuses: Set<string>; duration: { turns?: number | null; rounds?: number | null } };
          const effect = (Array.from(actor.effects) as unknown as Effect[]).find((e) => e.name === "Quench Dialog Effect");
          assert.ok(effect, "the effect was created");
          assert.equal(effect!.duration.turns, 2, "duration.turns from the form");
          if (status) assert.ok(effect!.statuses.has(status.id), "the checked status");
        });

        it("E2: renderTokenHUD hands over the HUD (its actor) and its HTMLElement with a .col.right column; Fray's button sits there", async () => {
          const scene = canvas?.scene as unknown as
            { createEmbeddedDocuments(type: string, data: unknown[]): Promise<Made[]> } | null | undefined;
          assert.ok(scene, "a scene is viewed");
          const actor = (await Actor.implementation.create(combatantData("Quench HUD", "npc") as never)) as unknown as Made & {
            id: string;
            getActiveTokens(): { control(): unknown }[];
          };
          made.push(actor);
          const tokens = await scene!.createEmbeddedDocuments("Token", [{ actorId: actor.id, name: "Quench HUD", x: 0, y: 0 }]);
          made.push(...tokens);
          assert.ok(await until(() => actor.getActiveTokens().length > 0), "the token is drawn");
          const token = actor.getActiveTokens()[0]!;
          const hud = (canvas as unknown as { tokens: { hud: { bind(t: unknown): unknown; close(): Promise<unknown> } } }).tokens.hud;
          const seen = nextHook("renderTokenHUD");
          token.control();
          hud.bind(token);
          const args = await seen;
          try {
            assert.ok(args, "renderTokenHUD was called");
            assert.equal((args![0] as { actor?: { id?: string } }).actor?.id, actor.id, "the HUD's actor");
            const element = args![1] as HTMLElement;
            assert.ok(element instanceof HTMLElement, "an HTMLElement");
            const button = element.querySelector('.col.right button[data-fray-hud="effect"]');
            assert.ok(button, "the effect button in the right column");
            assert.ok(button!.getAttribute("aria-label"), "with an aria-label");
          } finally {
            await hud.close();
          }
        });
      });
    },
    { displayName: "Fray: play services and their v13 assumptions" },
  );
}

/** The v13 behaviour the request channel and the GM handlers rely on (docs/foundry-assumptions.md). */
function registerAuthorityBatch(quench: Quench): void {
  quench.registerBatch(
    "fray.authority",
    (context) => {
      const { describe, it, after, assert } = context;
      describe("Foundry v13 behaviour the authority code relies on", () => {
        const made: { delete(): Promise<unknown> }[] = [];
        after(async () => {
          for (const doc of made) await doc.delete();
          await (game.user as unknown as { update(c: Record<string, unknown>): Promise<unknown> }).update({
            "flags.fray.-=quenchProbe": null,
          });
        });
        it("A1: updateUser passes the id of the user who made the update, and the changes with the flag", async () => {
          const user = game.user as unknown as { id: string; update(c: Record<string, unknown>): Promise<unknown> };
          const seen = nextHook("updateUser");
          await user.update({ "flags.fray.quenchProbe": { id: "probe1" } });
          const args = await seen;
          assert.ok(args, "updateUser was called");
          assert.equal((args![0] as { id: string }).id, user.id);
          assert.equal(args![3], user.id, "the fourth argument is the updating user's id");
          const changes = args![1] as { flags?: { fray?: { quenchProbe?: { id?: string } } } };
          assert.equal(changes.flags?.fray?.quenchProbe?.id, "probe1", "the changes carry the flag");
        });
        it("A16: updateUser's changes are differential: an unchanged key is absent, a new key arrives whole, an update that changes nothing calls no hook", async () => {
          const user = game.user as unknown as { id: string; update(c: Record<string, unknown>): Promise<unknown> };
          let seen = nextHook("updateUser");
          await user.update({ "flags.fray.quenchProbe": { id: "probe2", ok: true } });
          await seen;
          seen = nextHook("updateUser");
          await user.update({ "flags.fray.quenchProbe": { id: "probe3", ok: true } });
          const changes = (await seen)?.[1] as { flags?: { fray?: { quenchProbe?: Record<string, unknown> } } } | undefined;
          assert.deepEqual(changes?.flags?.fray?.quenchProbe, { id: "probe3" }, "the unchanged ok is not in the changes");
          seen = nextHook("updateUser");
          await user.update({ "flags.fray.quenchProbe.entries.k1": { name: "n", data: { a: 1 } } });
          const whole = (await seen)?.[1] as { flags?: { fray?: { quenchProbe?: { entries?: Record<string, unknown> } } } } | undefined;
          assert.deepEqual(whole?.flags?.fray?.quenchProbe?.entries?.k1, { name: "n", data: { a: 1 } }, "a new key arrives whole");
          seen = nextHook("updateUser", 1_000);
          await user.update({ "flags.fray.quenchProbe": { id: "probe3", ok: true } });
          assert.equal(await seen, undefined, "no hook for an update that changes nothing");
        });
        it("A17: setFlag merges into the stored flag; a -= key in the value removes what the new value leaves out", async () => {
          const doc = game.user as unknown as {
            setFlag(s: string, k: string, v: unknown): Promise<unknown>;
            getFlag(s: string, k: string): unknown;
          };
          await doc.setFlag("fray", "quenchProbe", { round: 1, paid: { slots: { action: 1 } } });
          await doc.setFlag("fray", "quenchProbe", { round: 2, paid: { slots: { movement: 1 } } });
          assert.deepEqual(doc.getFlag("fray", "quenchProbe.paid"), { slots: { action: 1, movement: 1 } }, "merged key by key");
          await doc.setFlag("fray", "quenchProbe", { round: 3, paid: { slots: { "-=action": null } } });
          assert.deepEqual(doc.getFlag("fray", "quenchProbe.paid"), { slots: { movement: 1 } }, "the -= key removed action");
        });
        it("A2: with this GM connected, game.users.activeGM is a connected GM, and it is this client when no other GM is connected", async () => {
          const gm = activeGM() as unknown as { isGM: boolean; active: boolean } | undefined;
          assert.ok(gm?.isGM && gm.active, "an active GM exists");
          const otherGMs = (
            game.users as unknown as { filter(fn: (u: { isGM: boolean; active: boolean; id: string }) => boolean): unknown[] }
          ).filter((u) => u.isGM && u.active && u.id !== game.user?.id);
          if (otherGMs.length === 0) assert.ok(isActiveGM(), "this client is the active GM");
        });
        it("A3: testUserPermission: a GM owns an actor; a player without ownership does not", async () => {
          const actor = (await Actor.implementation.create({
            name: "Quench Ownership",
            type: "npc",
            ownership: { default: 0 },
          } as never)) as unknown as {
            testUserPermission(user: unknown, level: string): boolean;
            delete(): Promise<unknown>;
          };
          made.push(actor);
          assert.ok(actor.testUserPermission(game.user, "OWNER"), "GM owns");
          const player = (game.users as unknown as { find(fn: (u: { isGM: boolean }) => boolean): unknown }).find((u) => !u.isGM);
          if (player) assert.ok(!actor.testUserPermission(player, "OWNER"), "a player with ownership NONE does not own");
        });
        it("A4: a ChatMessage's author is the user who created it", async () => {
          const message = (await ChatMessage.implementation.create({
            content: "Quench author probe",
            whisper: [game.user?.id ?? ""],
          } as never)) as unknown as { author?: { id?: string }; delete(): Promise<unknown> };
          made.push(message);
          assert.equal(message.author?.id, game.user?.id);
        });
        it("A5: a v13 query handler is given the data and an options object, and no identity of the sender", async () => {
          const config = CONFIG as unknown as { queries: Record<string, (data: unknown, options: unknown) => unknown> };
          let received: unknown[] = [];
          config.queries["fray.quenchProbe"] = (data: unknown, options: unknown) => {
            received = [data, options];
            return true;
          };
          try {
            const gm = activeGM() as unknown as { query(name: string, data: unknown, options?: unknown): Promise<unknown> };
            await gm.query("fray.quenchProbe", { probe: 1 }, { timeout: 5_000 });
          } finally {
            delete config.queries["fray.quenchProbe"];
          }
          const options = (received[1] ?? {}) as Record<string, unknown>;
          assert.equal((received[0] as { probe?: number }).probe, 1);
          assert.ok(!("user" in options) && !("userId" in options) && !("sender" in options), "no identity in the handler's options");
        });
        it("A6: names are escaped in notifications and string-built HTML", async () => {
          const text = formatHtml("FRAY.Flow.Error.NoAction", { actor: "<img src=x onerror=alert(1)>" });
          assert.notInclude(text, "<img");
          assert.ok(text.includes("&lt;img"), "escaped");
        });
        it("A19: a DialogV2 draws its window title as HTML: a title from windowTitle shows a name like HTML as text", async () => {
          const id = "fray-quench-title";
          const name = "<b>Quench</b>";
          const waiting = foundry.applications.api.DialogV2.wait({
            id,
            window: { title: windowTitle("FRAY.Flow.Dialog.Title", { weapon: name }) },
            content: "<p>Quench</p>",
            buttons: [{ action: "cancel", label: "Cancel", default: true }],
            rejectClose: false,
          } as never);
          await until(() => Boolean(document.getElementById(id)));
          const title = document.getElementById(id)?.querySelector(".window-title");
          try {
            assert.ok(title, "the window has a .window-title");
            assert.ok((title!.textContent ?? "").includes(name), "the name shows as text");
            assert.equal(title!.querySelector("b"), null, "no element made from the name");
          } finally {
            await foundry.applications.instances.get(id)?.close();
            await waiting;
          }
        });

        it("A21: a <multi-checkbox> in a form draws a checkbox per option and submits the ticked values as an array", async () => {
          const form = document.createElement("form");
          form.innerHTML =
            '<multi-checkbox name="system.damageTypes"><option value="piercing" selected>P</option><option value="fire">F</option></multi-checkbox>';
          document.body.append(form);
          try {
            const boxes = form.querySelectorAll<HTMLInputElement>('multi-checkbox input[type="checkbox"]');
            assert.equal(boxes.length, 2, "a checkbox per option");
            const FormData = (
              foundry.applications as unknown as {
                ux: { FormDataExtended: new (f: HTMLFormElement) => { object: Record<string, unknown> } };
              }
            ).ux.FormDataExtended;
            assert.deepEqual(new FormData(form).object["system.damageTypes"], ["piercing"], "the ticked values as an array");
          } finally {
            form.remove();
          }
        });
      });
    },
    { displayName: "Fray: v13 assumptions of the authority code" },
  );
}

/**
 * The v13 behaviour the round and the pipeline rely on (docs/foundry-assumptions.md A10 to A15):
 * combatant groups, who may write declarations, what reaches every client, continued movement,
 * grid adjacency, and `Hooks.call` stopping at the first `false`. Needs a GM and a viewed scene.
 */
function registerRoundBatch(quench: Quench): void {
  quench.registerBatch(
    "fray.round",
    (context) => {
      const { describe, it, after, assert } = context;
      describe("Foundry v13 behaviour the round and the pipeline rely on", () => {
        const made: Made[] = [];
        after(async () => {
          for (const doc of made.reverse()) await doc.delete();
        });
        const newCombat = async (): Promise<Combat.Implementation & Made> => {
          const combat = (await Combat.implementation.create({
            scene: canvas?.scene?.id ?? null,
          } as never)) as unknown as Combat.Implementation & Made;
          made.push(combat);
          return combat;
        };
        it("A10: a combat holds CombatantGroup documents, and a combatant's group field takes a group's id", async () => {
          const combat = (await newCombat()) as unknown as Made & {
            groups: { get(id: string): { initiative?: number } | undefined };
            createEmbeddedDocuments(type: string, data: Record<string, unknown>[]): Promise<{ id: string }[]>;
          };
          const [group] = await combat.createEmbeddedDocuments("CombatantGroup", [{ name: "Quench Group", initiative: 7 }]);
          assert.ok(group?.id, "a group was created");
          assert.equal(combat.groups.get(group!.id)?.initiative, 7);
          const [combatant] = (await combat.createEmbeddedDocuments("Combatant", [
            { name: "Quench Member", group: group!.id },
          ])) as unknown as { group?: { id?: string } | string | null }[];
          const stored = combatant?.group;
          assert.equal(typeof stored === "string" ? stored : stored?.id, group!.id, "the combatant's group is the group");
        });
        it("A11, A12: a GM writes the combat's and a combatant's flags, and the update reaches the updateCombatant hook with the flags", async () => {
          const combat = (await newCombat()) as unknown as Made & {
            setFlag(s: string, k: string, v: unknown): Promise<unknown>;
            getFlag(s: string, k: string): unknown;
            createEmbeddedDocuments(
              type: string,
              data: Record<string, unknown>[],
            ): Promise<{ setFlag(s: string, k: string, v: unknown): Promise<unknown> }[]>;
          };
          await combat.setFlag("fray", "quenchPhase", { round: 1, phase: "declare" });
          assert.equal((combat.getFlag("fray", "quenchPhase") as { phase?: string }).phase, "declare");
          const [combatant] = await combat.createEmbeddedDocuments("Combatant", [{ name: "Quench Declarer" }]);
          const seen = nextHook("updateCombatant");
          await combatant!.setFlag("fray", "quenchDeclaration", { round: 1, text: "attack" });
          const args = await seen;
          const changes = args?.[1] as { flags?: { fray?: { quenchDeclaration?: { text?: string } } } } | undefined;
          assert.equal(changes?.flags?.fray?.quenchDeclaration?.text, "attack", "the hook carries the declaration");
        });
        it("A13: a moveToken hook reports the part just passed of a movement", async () => {
          const scene = canvas?.scene as unknown as
            | {
                createEmbeddedDocuments(
                  t: string,
                  d: Record<string, unknown>[],
                ): Promise<(Made & { move(w: unknown, o?: unknown): Promise<unknown> })[]>;
              }
            | undefined;
          assert.ok(scene, "a scene is viewed");
          const size = (canvas?.grid as unknown as { size: number }).size;
          const [token] = await scene!.createEmbeddedDocuments("Token", [{ name: "Quench Mover", x: 0, y: 0 }]);
          made.push(token!);
          const seen = nextHook("moveToken");
          await token!.move({ x: size * 2, y: 0 });
          const args = await seen;
          const movement = args?.[1] as { passed?: { cost?: number; distance?: number } } | undefined;
          assert.ok(movement?.passed, "the hook carries movement.passed");
          assert.ok((movement!.passed!.distance ?? movement!.passed!.cost ?? 0) > 0, "something was passed");
        });
        it("A14: a token's occupied grid spaces, and adjacency of spaces on the scene's grid", async () => {
          const grid = canvas?.grid as unknown as { testAdjacency(a: unknown, b: unknown): boolean; isGridless?: boolean };
          if (grid.isGridless) return;
          assert.ok(grid.testAdjacency({ i: 0, j: 0 }, { i: 0, j: 1 }), "neighbours are adjacent");
          assert.ok(!grid.testAdjacency({ i: 0, j: 0 }, { i: 0, j: 3 }), "three spaces apart are not");
          const tokenClass = (CONFIG.Token as unknown as { documentClass: { prototype: { getOccupiedGridSpaceOffsets?: unknown } } })
            .documentClass;
          assert.equal(typeof tokenClass.prototype.getOccupiedGridSpaceOffsets, "function");
        });
        it("A15: Hooks.call stops at the first handler that returns false and returns false", async () => {
          let after = false;
          const a = Hooks.on("fray.quenchProbe" as never, (() => false) as never);
          const b = Hooks.on(
            "fray.quenchProbe" as never,
            (() => {
              after = true;
            }) as never,
          );
          const result = (Hooks.call as unknown as (name: string) => boolean)("fray.quenchProbe");
          Hooks.off("fray.quenchProbe" as never, a);
          Hooks.off("fray.quenchProbe" as never, b);
          assert.equal(result, false);
          assert.ok(!after, "later handlers are not called");
        });
      });
    },
    { displayName: "Fray: the round and the pipeline's v13 assumptions" },
  );
}

/** Registers the batches on `quenchReady` in development builds. */
export function registerQuench(): void {
  if (!quenchEnabled()) return;
  Hooks.once(
    "quenchReady" as never,
    ((quench: Quench) => {
      registerAuthorityBatch(quench);
      registerServicesBatch(quench);
      registerRoundBatch(quench);
      registerForecastQuench(quench);
      registerRulesCompendiumQuench(quench);
      registerTranslationsQuench(quench);
      // Each ruleset's own batches, from its binding folder.
      for (const binding of registry.list()) binding.registerQuench?.(quench);
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
              attacker = (await Actor.implementation.create(
                combatantData("Quench Attacker", "character") as never,
              )) as Actor.Implementation;
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
            it("W1: a weapon created without canParry gets the default by kind; a partial update of its kind keeps canParry", async () => {
              const create = async (system: Record<string, unknown>) => {
                const item = (await Item.implementation.create({ name: "Quench Weapon", type: "weapon", system } as never)) as unknown as {
                  system: { canParry: boolean };
                  update(changes: object): Promise<unknown>;
                  delete(): Promise<unknown>;
                };
                made.push(item);
                return item;
              };
              const rifle = await create({ kind: "ranged", damage: "2+1d10" });
              assert.equal(rifle.system.canParry, false, "a ranged weapon without the flag does not parry");
              await rifle.update({ "system.kind": "melee" });
              assert.equal(rifle.system.canParry, false, "a new kind alone leaves canParry");
              const sabre = await create({ kind: "melee", damage: "2+1d10", canParry: true });
              await sabre.update({ "system.kind": "ranged" });
              assert.equal(sabre.system.canParry, true, "a new kind alone leaves canParry");
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
            it("UD-DMG-02: undo restores HP and EP exactly", async () => {
              const record = attackSystem(message).targets[0]!.applied!;
              await undoHere(message, 0);
              assert.equal(defender.system.hp.value, record.before.hp.value);
              assert.equal(defender.system.ep.value, record.before.ep.value);
            });
            it("UD-DMG-02: a second undo through the active GM changes nothing", async () => {
              const hp = defender.system.hp.value;
              let refused = false;
              try {
                await undoDamageAction(message, 0);
              } catch {
                refused = true;
              }
              assert.ok(refused, "second undo refused");
              assert.equal(defender.system.hp.value, hp);
            });
            it("A20: an out condition toggled on an actor reaches the GM's hooks and marks its Combatant defeated; cleared, the mark goes", async () => {
              const combat = (await Combat.implementation.create({ scene: canvas?.scene?.id ?? null } as never)) as unknown as {
                createEmbeddedDocuments(type: string, data: Record<string, unknown>[]): Promise<{ defeated?: boolean }[]>;
                delete(): Promise<unknown>;
              };
              made.push(combat);
              const [combatant] = await combat.createEmbeddedDocuments("Combatant", [{ actorId: defender.id, name: defender.name }]);
              const toggle = (active: boolean) =>
                (defender as unknown as { toggleStatusEffect(id: string, o: { active: boolean }): Promise<unknown> }).toggleStatusEffect(
                  "unconscious",
                  { active },
                );
              await toggle(true);
              assert.ok(await until(() => Boolean(combatant?.defeated)), "marked defeated");
              await toggle(false);
              assert.ok(await until(() => !combatant?.defeated), "the mark is lifted");
            });
          });
        },
        { displayName: "Fray: UD10 attack flow" },
      );
    }) as never,
  );
}
