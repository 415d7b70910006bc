/**
 * Window titles that carry a name show it as text: Foundry draws a window's title as HTML
 * (docs/foundry-assumptions.md A19), so every DialogV2 title built from a name goes through
 * `windowTitle`, which escapes the values. Checked on the attack dialog through the built bundle
 * with a weapon named like an HTML injection, and over every window title in src/foundry.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FoundryStub } from "../support/foundry-stub.js";
import { FlowWorld, type CardApi, type CardMessage, type Dict } from "../support/flow-world.js";
import { firefight, zonesOptions } from "../support/flow-zones.js";

const HOSTILE = "<img src=x onerror=alert(1)>";

const flowWorld = new FlowWorld<CardMessage>(zonesOptions());
let stub: FoundryStub;

beforeAll(async () => {
  ({ stub } = await flowWorld.boot());
});

beforeEach(() => {
  flowWorld.reset();
  flowWorld.resetUsers();
});

/** Every TypeScript file under a folder. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
  });
}

describe("window titles with names (A16)", () => {
  it("the attack dialog's title shows a weapon named like HTML as text", async () => {
    const { rifleman, sentryToken } = firefight(flowWorld, 10);
    const carbine = rifleman.actor.items.get("carbine") as { name: string };
    carbine.name = HOSTILE;
    stub.game.user.targets.add(sentryToken);
    const api = ((globalThis as Dict).foundry as { applications: { api: Dict } }).applications.api;
    let title = "";
    api.DialogV2 = {
      wait: async (config: { window: { title: string } }) => {
        title = config.window.title;
        return null;
      },
    };
    try {
      await flowWorld.api<CardApi>().rollAttack({ actor: rifleman.actor, weaponId: "carbine" });
    } finally {
      delete api.DialogV2;
    }
    expect(title).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(title).not.toContain("<img");
  });

  it("every window title in src/foundry is built by windowTitle or names nothing", () => {
    const refused: string[] = [];
    for (const file of sources("src/foundry")) {
      const text = readFileSync(file, "utf8");
      for (const [, title] of text.matchAll(/window: \{[^}]*?\btitle: ([^,}]+(?:\{[^}]*\})?[^,}]*)/g)) {
        const plain = /^(?:"[^"]*"|formatKey\("[^"]+"\)|game\.i18n\.localize\("[^"]+"\))$/.test(title!.trim());
        if (!plain && !title!.trim().startsWith("windowTitle(")) refused.push(`${file}: ${title!.trim()}`);
      }
    }
    expect(refused).toEqual([]);
  });
});
