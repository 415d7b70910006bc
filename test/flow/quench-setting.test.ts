/**
 * The Quench batches ship in the release build behind a GM-only world setting: off by default,
 * and when the GM turns it on, every batch registers with Quench (the authority rules, the play
 * services, the round and pipeline assumptions, the UD10 attack flow).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, installFoundryStub, type FoundryStub } from "../support/foundry-stub.js";

const BUNDLE = join(ROOT, "dist", "fray.mjs");
let stub: FoundryStub;

beforeAll(async () => {
  if (!existsSync(BUNDLE)) throw new Error(`dist/fray.mjs is missing: run "npm run build" first.`);
  stub = installFoundryStub("en");
  // The GM turned the setting on before this load of the world.
  stub.game.settings.values.set("fray.quenchBatches", true);
  await import(pathToFileURL(BUNDLE).href);
  for (const hook of ["init", "i18nInit", "setup", "ready"]) stub.Hooks.callAll(hook);
});

describe("Quench batches in the release build", () => {
  it("are a world setting (only the GM changes world settings), shown in the menu, off by default, reloading the world", () => {
    expect(stub.game.settings.registered.get("fray.quenchBatches")).toMatchObject({
      scope: "world",
      config: true,
      type: Boolean,
      default: false,
      requiresReload: true,
    });
  });

  it("register every batch with Quench when the setting is on", () => {
    const keys: string[] = [];
    stub.Hooks.callAll("quenchReady", { registerBatch: (key: string) => keys.push(key) });
    expect(keys.sort()).toEqual([
      "fray.authority",
      "fray.compendium-translations",
      "fray.critical.attack-flow",
      "fray.forecast",
      "fray.hitbox.attack-flow",
      "fray.round",
      "fray.rules-compendium",
      "fray.services",
      "fray.ud10.attack-flow",
      "fray.zones.attack-flow",
    ]);
  });
});
