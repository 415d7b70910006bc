/**
 * The core's actions besides the attack in play (UD-ACT-02): the sheets' Actions row, the
 * decision against the round's economy, and the chat line; the GM's pip toggle in the tracker
 * (UD-ACT-01, UD-REA-01).
 */
import { describe, expect, it } from "vitest";
import { createEconomy } from "../../src/rules/core/economy.js";
import { ACTIONS, economy, skillRollIsAction } from "../../src/rules/ud10/movement.js";
import { actionEvent, spendEvent, toggledSlot } from "../../src/foundry/logic/economy.js";
import { actionButtons, actionLabel, actionLineHtml, decideAction, isAction, sheetActions } from "../../src/foundry/logic/round-actions.js";
import { ud10Actions } from "../../src/rules/ud10/index.js";
import { fighter } from "../rules/ud10-fixtures.js";

const spec = economy();
/** UD10's actions of a combatant able to act, as the economy store reads them. */
const defs = ud10Actions(fighter({ id: "a" }), {});
const fresh = () => createEconomy(spec);

describe("UD-ACT-02: actions besides the attack", () => {
  it("the Actions row offers the core's actions except the attack, labelled from the core's keys", () => {
    expect(sheetActions(defs).map((a) => a.id)).toEqual(["aim", "ready", "reload", "useItem", "skill"]);
    const buttons = actionButtons({ localize: (k) => `<${k}>` }, defs);
    expect(buttons.map((b) => b.label)).toEqual([
      "<FRAY.Situation.Ud10.Action.aim>",
      "<FRAY.Action.ready>",
      "<FRAY.Action.reload>",
      "<FRAY.Action.useItem>",
      "<FRAY.Action.skill>",
    ]);
    expect(buttons.every((b) => (b.rule === "UD-ACT-02" || b.rule === "UD-ATK-04") && b.icon.startsWith("fa-"))).toBe(true);
    expect(isAction("reload", defs)).toBe(true);
    expect(isAction("dance", defs)).toBe(false);
    expect(actionLabel("useItem", defs)).toBe("FRAY.Action.useItem");
  });

  it("outside combat an action is allowed and spends nothing", () => {
    for (const a of ACTIONS) expect(decideAction(a.id, undefined, defs)).toEqual({ ok: true });
  });

  it("in combat each action spends the round's action, as the attack does", () => {
    for (const a of ACTIONS) {
      const decision = decideAction(a.id, fresh(), defs);
      expect(decision.ok).toBe(true);
      if (!decision.ok) continue;
      expect(decision.event).toEqual({ kind: a.id === "attack" ? "attack" : "action", action: a.id, cost: a.cost });
      const after = spendEvent(fresh(), decision.event!).economy;
      expect(after.slots.action!.used).toBe(1);
      expect(after.slots.movement!.used).toBe(0);
      expect(after.slots.reaction!.used).toBe(0);
    }
  });

  it("once the action is spent (by an attack or a reload) every other action is refused", () => {
    const afterAttack = spendEvent(fresh(), actionEvent("attack", defs)).economy;
    const afterReload = spendEvent(fresh(), actionEvent("reload", defs)).economy;
    for (const spent of [afterAttack, afterReload]) {
      for (const a of ACTIONS)
        expect(decideAction(a.id, spent, defs)).toEqual({ ok: false, key: "FRAY.Flow.Error.NoAction", short: "action" });
    }
  });

  it("a skill roll made in combat is the skill action: it spends the action and nothing else", () => {
    const decision = decideAction("skill", fresh(), defs);
    expect(decision).toEqual({ ok: true, event: { kind: "action", action: "skill", cost: { slots: { action: 1 } } } });
  });

  it("the chat line names the action, says whether the action was spent and cites UD-ACT-02; text is escaped", () => {
    const html = actionLineHtml("<b>Ayla</b> takes an action: Reload", true, "(spent)");
    expect(html).toContain("&lt;b&gt;Ayla&lt;/b&gt; takes an action: Reload");
    expect(html).toContain('<span class="fray-action-spent">(spent)</span>');
    expect(html).toContain('<span class="fray-rule">UD-ACT-02</span>');
    expect(actionLineHtml("Ayla takes an action: Reload", false, "(spent)")).not.toContain("fray-action-spent");
  });
});

describe("UD-ACT-01, UD-REA-01: the GM toggles a slot of the round", () => {
  it("a used slot becomes unused, an unused one fully used; others stay", () => {
    const spent = spendEvent(fresh(), actionEvent("attack", defs)).economy;
    const freed = toggledSlot(spent, "action");
    expect(freed.slots.action!.used).toBe(0);
    expect(spent.slots.action!.used).toBe(1);
    for (const slot of ["movement", "reaction"]) {
      const marked = toggledSlot(fresh(), slot);
      expect(marked.slots[slot]!.used).toBe(1);
      expect(toggledSlot(marked, slot).slots[slot]!.used).toBe(0);
    }
  });

  it("free actions (no limit) and unknown slots are not toggled", () => {
    const e = fresh();
    expect(toggledSlot(e, "free")).toBe(e);
    expect(toggledSlot(e, "mana")).toBe(e);
  });
});

describe("UD-ACT-02: which skill rolls are the round's skill action", () => {
  it("combat skills rolled from the sheet are actions; initiative and the reactions are not (UD-INI-01, UD-REA-01)", () => {
    expect(skillRollIsAction("melee")).toBe(true);
    expect(skillRollIsAction("ranged")).toBe(true);
    expect(skillRollIsAction("initiative")).toBe(false);
    expect(skillRollIsAction("parry")).toBe(false);
    expect(skillRollIsAction("dodge")).toBe(false);
  });
});
