/** Ruler bands and what movement costs (UD-MOV-01 to UD-MOV-03, UD-RND-02). */
import { describe, expect, it } from "vitest";
import { ud10 } from "../../src/rules/ud10/index.js";
import { BAND_COLOURS, bandColour, bandFor, movementCharge, refuseMove } from "../../src/foundry/logic/ruler.js";
import { fighter } from "../rules/ud10-fixtures.js";

const bands = ud10.movement(fighter(), {}); // STR 3: standard 8 m, full 16 m

describe("token ruler bands", () => {
  it("UD-MOV-01: one step of 1.5 m is its own band", () => {
    expect(bandFor(1.5, bands)).toBe("step");
    expect(bandColour(1.5, bands)).toBe(BAND_COLOURS.step);
  });

  it("UD-MOV-02: standard movement reaches 5 m + STR", () => {
    expect(bandFor(3, bands)).toBe("standard");
    expect(bandFor(8, bands)).toBe("standard");
  });

  it("UD-MOV-03: full movement reaches twice that; beyond is red", () => {
    expect(bandFor(9, bands)).toBe("full");
    expect(bandFor(16, bands)).toBe("full");
    expect(bandFor(16.5, bands)).toBe("beyond");
    expect(bandColour(17, bands)).toBe(BAND_COLOURS.beyond);
  });

  it("UD-MOV-02/03: the movement is paid once, the action when the round's total passes standard movement", () => {
    expect(movementCharge(0, 1.5, bands)).toEqual({});
    expect(movementCharge(0, 4.5, bands)).toEqual({ slots: { movement: 1 } });
    expect(movementCharge(4.5, 7.5, bands)).toEqual({});
    expect(movementCharge(7.5, 12, bands)).toEqual({ slots: { action: 1 } });
    expect(movementCharge(0, 12, bands)).toEqual({ slots: { movement: 1, action: 1 } });
  });

  it("moving past full movement is refused only with the refuse setting", () => {
    expect(refuseMove("show", 30, bands)).toBe(false);
    expect(refuseMove("refuse", 30, bands)).toBe(true);
    expect(refuseMove("refuse", 16, bands)).toBe(false);
  });
});
