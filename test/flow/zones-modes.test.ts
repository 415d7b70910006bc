/**
 * Zones firing modes through the attack dialog (ZN-BST-01), played through the built bundle in
 * the Foundry stand-in: the mode picked on the weapon row is the one the dialog preselects and the
 * one fired once the dialog is confirmed as drawn; full auto asks for its bullets, also when it is
 * picked in the dialog itself. The dialog's answer is read from the HTML it was given, as a
 * browser would submit it.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { StubRoll, diceQueue, type FoundryStub } from "../support/foundry-stub.js";
import { FlowWorld, type CardApi, type CardMessage, type Dict } from "../support/flow-world.js";
import { firefight, zonesOptions } from "../support/flow-zones.js";

const flowWorld = new FlowWorld<CardMessage>(zonesOptions());
let stub: FoundryStub;

beforeAll(async () => {
  ({ stub } = await flowWorld.boot());
});

beforeEach(() => {
  flowWorld.reset();
  flowWorld.resetUsers();
  StubRoll.evaluated.length = 0;
});

const api = () => flowWorld.api<CardApi>();

type Control = { value?: string; checked?: boolean; selectedOptions?: { value: string }[] };

/**
 * The controls of a form as a browser submits them, read from its HTML: each `select` with its
 * selected option (the first without one), each `input` with its value or checked state.
 */
function controlsOf(html: string): Record<string, Control> {
  const out: Record<string, Control> = {};
  for (const [, name, options] of html.matchAll(/<select name="([^"]+)"[^>]*>([\s\S]*?)<\/select>/g)) {
    const all = [...options!.matchAll(/<option value="([^"]*)"\s*(selected)?/g)];
    const chosen = all.find((o) => o[2]) ?? all[0];
    out[name!] = { value: chosen?.[1] ?? "", selectedOptions: chosen ? [{ value: chosen[1]! }] : [] };
  }
  for (const [tag] of html.matchAll(/<input [^>]*>/g)) {
    const name = /name="([^"]+)"/.exec(tag)?.[1];
    if (!name) continue;
    const value = /value="([^"]*)"/.exec(tag)?.[1];
    // Checkboxes of one multi-choice field share a name: `namedItem` gives them as a list.
    if (/type="checkbox"/.test(tag) && value !== undefined) {
      const list = (out[name] ?? []) as unknown as Control[];
      out[name] = [...list, { value, checked: /\schecked/.test(tag) }] as unknown as Control;
    } else if (/type="checkbox"/.test(tag)) out[name] = { checked: /\schecked/.test(tag) };
    else out[name] = { value: /value="([^"]*)"/.exec(tag)?.[1] ?? "" };
  }
  return out;
}

interface DialogConfig {
  content: string;
  render(e: unknown, d: unknown): void;
  buttons: { callback?(e: unknown, b: unknown): unknown }[];
}

const apps = () => ((globalThis as Dict).foundry as { applications: { api: Dict } }).applications.api;

/**
 * Answers the attack dialog with its own HTML as drawn, `change` applied to its controls first
 * (through the form's change listeners, the `modeId` select redrawing the form); returns what
 * the dialog was drawn with.
 */
function answerDialog(change: (controls: Record<string, Control>) => void, after?: (controls: Record<string, Control>) => void) {
  const drawn: string[] = [];
  apps().DialogV2 = {
    wait: async (config: DialogConfig) => {
      drawn.push(config.content);
      let controls = controlsOf(config.content);
      const listeners: Record<string, ((e: unknown) => unknown)[]> = {};
      const body = {
        replaceWith(content: { html: string }) {
          drawn.push(content.html);
          controls = controlsOf(content.html);
        },
      };
      const form = {
        elements: { namedItem: (name: string) => controls[name] ?? null },
        addEventListener: (type: string, fn: (e: unknown) => unknown) => (listeners[type] ??= []).push(fn),
        querySelector: (selector: string) => (selector === ".fray-attack-dialog-body" ? body : null),
        ownerDocument: {
          createElement: () => ({
            set innerHTML(html: string) {
              this.content.html = html;
            },
            content: { html: "" },
          }),
        },
      };
      const element = { querySelector: (selector: string) => (selector === "form" ? form : null) };
      config.render(null, { element });
      change(controls);
      for (const fn of listeners.change ?? []) await fn({ target: { name: "modeId" } });
      // The redraw renders asynchronously; let it finish.
      for (let i = 0; i < 5; i++) await Promise.resolve();
      after?.(controls);
      return config.buttons[0]!.callback!(null, { form });
    },
  };
  return drawn;
}

describe("Zones firing modes through the attack dialog (ZN-BST-01)", () => {
  it("ZN-BST-01: a burst picked on the weapon row is preselected in the dialog and fires its three bullets once confirmed", async () => {
    const { rifleman, sentryToken } = firefight(flowWorld, 10);
    stub.game.user.targets.add(sentryToken);
    const drawn = answerDialog(() => {});
    try {
      diceQueue.push(10, 3, 4, 3, 4, 3, 4);
      const outcome = await api().rollAttack({ actor: rifleman.actor, weaponId: "carbine", modeId: "burst" });
      expect(drawn[0]).toMatch(/<option value="burst" selected>/);
      expect(drawn[0]).toMatch(/<option value="auto" >|<option value="auto">/);
      const t = outcome!.message.system.targets[0]!;
      expect(t.request.modeId).toBe("burst");
      expect(t.result.bullets).toMatchObject({ fired: 3 });
    } finally {
      delete apps().DialogV2;
    }
  });

  it("ZN-BST-01: full auto picked on the weapon row asks for its bullets; the count entered is fired", async () => {
    const { rifleman, sentryToken } = firefight(flowWorld, 10);
    stub.game.user.targets.add(sentryToken);
    const drawn = answerDialog((controls) => {
      controls[`situation.bullets`] = { value: "5" };
    });
    try {
      diceQueue.push(10, 3, 4, 3, 4, 3, 4, 3, 4, 3, 4);
      const outcome = await api().rollAttack({ actor: rifleman.actor, weaponId: "carbine", modeId: "auto" });
      expect(drawn[0]).toMatch(/<option value="auto" selected>/);
      expect(drawn[0]).toContain('name="situation.bullets"');
      const t = outcome!.message.system.targets[0]!;
      expect(t.request.modeId).toBe("auto");
      expect(t.result.bullets).toMatchObject({ fired: 5 });
    } finally {
      delete apps().DialogV2;
    }
  });

  it("ZN-RNG-01: the environment's conditions are checkboxes in the dialog; those ticked reach the attack", async () => {
    const { rifleman, sentryToken } = firefight(flowWorld, 10);
    stub.game.user.targets.add(sentryToken);
    const drawn = answerDialog((controls) => {
      const boxes = controls["situation.environment"] as unknown as Control[];
      for (const box of boxes) box.checked = box.value === "lowLight";
    });
    try {
      diceQueue.push(10, 3, 4);
      const outcome = await api().rollAttack({ actor: rifleman.actor, weaponId: "carbine" });
      expect(drawn[0]).toMatch(/<input type="checkbox" name="situation.environment" value="lowLight"/);
      expect(drawn[0]).not.toMatch(/<select name="situation.environment"/);
      expect(outcome!.message.system.targets[0]!.request.situation).toMatchObject({ environment: ["lowLight"] });
    } finally {
      delete apps().DialogV2;
    }
  });

  it("ZN-BST-01: full auto chosen in the dialog draws the bullets field; a single shot from the row names no mode", async () => {
    const { rifleman, sentryToken } = firefight(flowWorld, 10);
    stub.game.user.targets.add(sentryToken);
    const drawn = answerDialog(
      (controls) => {
        controls.modeId = { value: "auto" };
      },
      (controls) => {
        controls[`situation.bullets`] = { value: "4" };
      },
    );
    try {
      diceQueue.push(10, 3, 4, 3, 4, 3, 4, 3, 4);
      const outcome = await api().rollAttack({ actor: rifleman.actor, weaponId: "carbine", modeId: "single" });
      // Single shot is the weapon's own mode: selected, sent as no mode, and no bullets asked.
      expect(drawn[0]).toMatch(/<option value="" selected>/);
      expect(drawn[0]).not.toContain('name="situation.bullets"');
      expect(drawn[1]).toMatch(/<option value="auto" selected>/);
      expect(drawn[1]).toContain('name="situation.bullets"');
      expect(outcome!.message.system.targets[0]!.result.bullets).toMatchObject({ fired: 4 });
    } finally {
      delete apps().DialogV2;
    }
  });
});
