/**
 * NPCs can do what characters can (issue "Table-ready", Play): every action a ruleset's character
 * sheet offers (its `data-action`, `data-ruleset-action` and `data-round-action` values) is on its
 * NPC stat block too, apart from the few the stat block reaches another way, each named below with
 * the reason.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The actions a set of templates offers. */
function actions(files: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const f of files) {
    for (const m of readFileSync(join(root, "templates", f), "utf8").matchAll(/data-(?:ruleset-|round-)?action="([^"{]+)"/g))
      out.add(m[1]!);
  }
  return out;
}

/** Per ruleset: the character sheet's parts, the NPC stat block, and what the stat block may leave out. */
const SHEETS: Record<string, { character: string[]; npc: string[]; elsewhere: Record<string, string> }> = {
  ud10: {
    character: ["actor/header.hbs", "actor/attributes.hbs", "actor/combat.hbs", "actor/conditions.hbs"],
    npc: ["actor/npc.hbs"],
    elsewhere: {},
  },
  hitbox: {
    character: ["hitbox/header.hbs", "hitbox/attributes.hbs", "hitbox/combat.hbs", "actor/conditions.hbs"],
    npc: ["hitbox/npc.hbs"],
    elsewhere: {
      toggleCondition: "the stat block shows no conditions; the token HUD toggles them",
      startEffect: "the token HUD starts a timed effect",
    },
  },
  zones: {
    character: ["zones/header.hbs", "zones/attributes.hbs", "zones/combat.hbs", "actor/conditions.hbs"],
    npc: ["zones/npc.hbs"],
    elsewhere: {
      toggleCondition: "the stat block shows no conditions; the token HUD toggles them",
      startEffect: "the token HUD starts a timed effect",
      stance: "the stat block sets the stance with a drop-down",
      createItem: "items are dropped onto the stat block",
    },
  },
};

describe("NPC stat blocks offer the character sheet's actions", () => {
  for (const [ruleset, sheet] of Object.entries(SHEETS)) {
    it(`${ruleset}: every action of the character sheet is on the NPC stat block or named as reached elsewhere`, () => {
      const character = actions(sheet.character);
      const npc = actions(sheet.npc);
      const missing = [...character].filter((a) => !npc.has(a) && !(a in sheet.elsewhere));
      expect(missing).toEqual([]);
      for (const a of Object.keys(sheet.elsewhere)) expect(character.has(a) && !npc.has(a), `${a} is still a gap`).toBe(true);
    });
  }

  it("ZN-GRN-01, ZN-SUP-01, ZN-HID-01: the Zones stat block throws grenades, starts suppressing fire and hides", () => {
    const npc = actions(["zones/npc.hbs"]);
    for (const a of ["throwGrenade", "suppress", "hide", "reload", "draw", "attack"]) expect(npc.has(a), a).toBe(true);
  });
});
