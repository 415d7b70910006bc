/**
 * A dialog's buttons as data (`src/foundry/logic/dialog-buttons.ts`): the dialogs build their
 * DialogV2 buttons from the same lists the render test draws.
 */
import { describe, expect, it } from "vitest";
import { ATTACK_DIALOG_BUTTONS } from "../../src/foundry/chat/attack-dialog.js";
import { dialogButtons } from "../../src/foundry/logic/dialog-buttons.js";
import { EFFECT_DIALOG_BUTTONS } from "../../src/foundry/logic/effect-form.js";
import { FORECAST_RESULT_BUTTONS } from "../../src/foundry/logic/forecast-view.js";
import { MANEUVER_DIALOG_BUTTONS } from "../../src/foundry/rulesets/critical/maneuver-view.js";
import { PARRY_DIALOG_BUTTONS } from "../../src/foundry/rulesets/critical/parry-view.js";
import { OPPOSED_DIALOG_BUTTONS } from "../../src/foundry/rulesets/hitbox/tracker-view.js";

describe("dialog buttons", () => {
  it("keeps the faces in order and adds each callback to the button of its action only", () => {
    const attack = () => "attacked";
    const buttons = dialogButtons(ATTACK_DIALOG_BUTTONS, { attack });
    expect(buttons.map((b) => b.action)).toEqual(["attack", "cancel"]);
    expect(buttons[0]).toEqual({ ...ATTACK_DIALOG_BUTTONS[0], callback: attack });
    expect(buttons[1]).toEqual(ATTACK_DIALOG_BUTTONS[1]);
    expect("callback" in buttons[1]!).toBe(false);
  });

  it("hands out copies: a dialog changing its buttons leaves the shared list as it was", () => {
    const before = structuredClone(PARRY_DIALOG_BUTTONS);
    const buttons = dialogButtons(PARRY_DIALOG_BUTTONS, { parry: () => ({}) });
    buttons[0]!.label = "changed";
    buttons[1]!.default = true;
    expect(PARRY_DIALOG_BUTTONS).toEqual(before);
  });

  it("marks exactly one default button in every dialog's list", () => {
    const lists = [
      ATTACK_DIALOG_BUTTONS,
      PARRY_DIALOG_BUTTONS,
      MANEUVER_DIALOG_BUTTONS,
      OPPOSED_DIALOG_BUTTONS,
      FORECAST_RESULT_BUTTONS,
      EFFECT_DIALOG_BUTTONS,
    ];
    for (const list of lists) expect(list.filter((b) => b.default)).toHaveLength(1);
  });
});
