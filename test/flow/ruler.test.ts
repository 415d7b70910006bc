/** Ruler bands and what movement costs (UD-MOV-01 to UD-MOV-03, UD-RND-02). */
import { describe, expect, it } from "vitest";
import { disengage, movementCharge, ud10Options } from "../../src/rules/ud10/index.js";
import { rulerMetres } from "../../src/foundry/logic/ruler.js";
import { BAND_COLOURS, bandColour, bandFor, refuseMove } from "../../src/foundry/rulesets/ud10/ruler.js";
import { fighter } from "../rules/ud10-fixtures.js";

const f = fighter(); // STR 3: standard 8 m, full 16 m
const options = ud10Options({ fleeing: true, retreat: true });

describe("token ruler bands", () => {
  it("UD-MOV-01: one step of 1.5 m is its own band", () => {
    expect(bandFor(1.5, f)).toBe("step");
    expect(bandColour(1.5, f)).toBe(BAND_COLOURS.step);
  });

  it("UD-MOV-02: standard movement reaches 5 m + STR", () => {
    expect(bandFor(3, f)).toBe("standard");
    expect(bandFor(8, f)).toBe("standard");
  });

  it("UD-MOV-03: full movement reaches twice that; beyond is red", () => {
    expect(bandFor(9, f)).toBe("full");
    expect(bandFor(16, f)).toBe("full");
    expect(bandFor(16.5, f)).toBe("beyond");
    expect(bandColour(17, f)).toBe(BAND_COLOURS.beyond);
  });

  it("UD-MOV-02/03: the movement is paid once, the action when the round's total passes standard movement", () => {
    expect(movementCharge(f, 0, 1.5)).toEqual({});
    expect(movementCharge(f, 0, 4.5)).toEqual({ slots: { movement: 1 } });
    expect(movementCharge(f, 4.5, 7.5)).toEqual({});
    expect(movementCharge(f, 7.5, 12)).toEqual({ slots: { action: 1 } });
    expect(movementCharge(f, 0, 12)).toEqual({ slots: { movement: 1, action: 1 } });
  });

  it("UD-OPT-01: a 1.5 m step away from an engaged opponent while fleeing pays the movement", () => {
    const flee = disengage([fighter({ id: "foe" })], "flee", options);
    expect(flee.freeAttacks).toEqual(["foe"]);
    expect(movementCharge(f, 0, 1.5, { also: flee.cost })).toEqual({ slots: { movement: 1 } });
    // Fleeing after standard movement already paid the movement adds nothing more.
    expect(movementCharge(f, 4.5, 6, { also: flee.cost })).toEqual({});
    // Moving on after a flee step: the movement it paid counts.
    expect(movementCharge(f, 1.5, 4.5, { paid: flee.cost })).toEqual({});
  });

  it("UD-OPT-02: a retreat of one step pays movement, action and reaction", () => {
    const retreat = disengage([fighter({ id: "foe" })], "retreat", options);
    expect(movementCharge(f, 0, 1.5, { also: retreat.cost })).toEqual({ slots: { movement: 1, action: 1, reaction: 1 } });
  });

  it("the ruler counts what was moved this round plus the path past the last passed waypoint", () => {
    const start = { stage: "passed" as const, measurement: { cost: 3 } };
    const planned = {
      stage: "planned" as const,
      measurement: { cost: 9 },
      previous: { stage: "planned" as const, measurement: { cost: 6 }, previous: start },
    };
    const metres = (u: number) => u;
    expect(rulerMetres(planned, 4.5, metres)).toBe(10.5);
    expect(bandFor(rulerMetres(planned, 4.5, metres)!, f)).toBe("full");
    expect(rulerMetres(planned, undefined, metres)).toBe(9);
    expect(rulerMetres(start, 4.5, metres)).toBe(3);
    expect(rulerMetres({ stage: "planned" }, 4.5, metres)).toBeUndefined();
  });

  it("moving past full movement is refused only with the refuse setting", () => {
    expect(refuseMove("show", 30, f)).toBe(false);
    expect(refuseMove("refuse", 30, f)).toBe(true);
    expect(refuseMove("refuse", 16, f)).toBe(false);
  });
});
