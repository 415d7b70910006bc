/**
 * The declaration phase shared by every ruleset that declares before acting: lowest initiative
 * first (CR-INI-02), all at once (HB-ACT-01), players first (ZN-INI-01).
 */
import { describe, expect, it } from "vitest";
import { allDeclared, declarationVisible, declaringNow, type Declarant } from "../../src/rules/core/declaration.js";

const party: Declarant[] = [
  { id: "ayla", player: true, initiative: 74 },
  { id: "bren", player: true, initiative: 52 },
  { id: "orc", player: false, initiative: 61 },
  { id: "wolf", player: false, initiative: 52, tiebreak: [3] },
  { id: "down", player: false, initiative: 10, out: true },
];

describe("declaration phase", () => {
  it("CR-INI-02: the lowest initiative declares first, one at a time, ties broken like the acting order", () => {
    const declared = new Set<string>();
    const order: string[] = [];
    for (let next = declaringNow("lowest-first", party, declared); next.length; next = declaringNow("lowest-first", party, declared)) {
      expect(next).toHaveLength(1);
      order.push(next[0]!);
      declared.add(next[0]!);
    }
    // bren (52, no tie-break) acts after the wolf (52, tie-break 3), so bren declares first.
    expect(order).toEqual(["bren", "wolf", "orc", "ayla"]);
    expect(allDeclared(party, declared)).toBe(true);
  });

  it("HB-ACT-01: everyone declares at once; the phase ends when all who can act have declared", () => {
    expect(declaringNow("simultaneous", party, new Set())).toEqual(["ayla", "bren", "orc", "wolf"]);
    expect(declaringNow("simultaneous", party, new Set(["orc"]))).toEqual(["ayla", "bren", "wolf"]);
    expect(allDeclared(party, new Set(["ayla", "bren", "orc"]))).toBe(false);
  });

  it("ZN-INI-01: players plot first; the GM's combatants only once every player has", () => {
    expect(declaringNow("players-first", party, new Set())).toEqual(["ayla", "bren"]);
    expect(declaringNow("players-first", party, new Set(["ayla"]))).toEqual(["bren"]);
    expect(declaringNow("players-first", party, new Set(["ayla", "bren"]))).toEqual(["orc", "wolf"]);
  });

  it("UD-INI-01: a ruleset without declarations has nobody declare", () => {
    expect(declaringNow("none", party, new Set())).toEqual([]);
  });

  it("HB-ACT-01, ZN-INI-01: other players read a declaration only after the reveal; CR-INI-02 declarations are heard as made", () => {
    const stranger = { isGM: false, owns: false };
    expect(declarationVisible("simultaneous", "declare", stranger)).toBe(false);
    expect(declarationVisible("players-first", "declare", stranger)).toBe(false);
    expect(declarationVisible("simultaneous", "resolve", stranger)).toBe(true);
    expect(declarationVisible("lowest-first", "declare", stranger)).toBe(true);
    expect(declarationVisible("simultaneous", "declare", { isGM: false, owns: true })).toBe(true);
    expect(declarationVisible("simultaneous", "declare", { isGM: true, owns: false })).toBe(true);
  });
});
